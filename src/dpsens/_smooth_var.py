"""A provable beta-smooth upper bound on the local sensitivity of the variance and the standard deviation.

Chapter: *Smooth sensitivity* (through :func:`dpsens.smooth.smooth_sensitivity_bound`).

No exact algorithm for ``A(t)`` of the variance is known to this package, so
this module computes ``S_B = max_t e^{-beta t} B(t)`` for a function ``B``
with ``B(t) >= A(t)`` that is *admissible*: ``B_x(t) <= B_{x'}(t + 1)`` for
neighbours ``x, x'``.  Then ``S_B`` is a beta-smooth upper bound on the local
sensitivity (Nissim, Raskhodnikova & Smith 2007): ``S_B(x) >= B_x(0) >=
LS(x)``, and ``e^{-beta t} B_x(t) <= e^beta e^{-beta (t+1)} B_{x'}(t+1) <=
e^beta S_B(x')``.  It is *not* the smooth sensitivity, only at least as large.

Notation: data in ``[lower, upper]``, width ``w``, size ``m``, mean ``mu``,
``a = y_i - mu``, ``b = v - mu`` for a new value ``v``, ``SS`` the sum of
squared deviations, ``var = SS/m``.

*Exact local sensitivity at x* (``B(0)``).  Bounded (replace ``y_i`` by
``v``): ``m var`` changes by ``b^2 - a^2 - (b - a)^2/m``, convex in ``b``
(largest increase at ``b`` an end of ``[lower - mu, upper - mu]``) and, for
the decrease, a concave function of ``b`` maximal at ``b = -a/(m-1)``
clipped to that interval.  Unbounded: adding ``v`` changes the variance by
``(b^2 m/(m+1) - var)/(m+1)`` (increase: ``b`` at an end; decrease:
``b = 0``), removing ``y_i`` by ``(var - a^2 m/(m-1))/(m-1)``.  The standard
deviation is increasing in the variance, so its largest increase (decrease)
comes from the variance's.  All ``O(n)``.

*The bound for t >= 1.*  Every dataset ``y`` within ``t`` steps has its mean
in ``[mu_min(t), mu_max(t)]``, the exact extremes over the ball (remove the
``r`` largest records and add ``lower``: ``(S - top_r + a lower)/(n - r + a)``
over ``r + a <= t``; mirrored for the maximum).  Let
``M(t) = max(upper - mu_min(t), mu_max(t) - lower)``, so ``|b| <= M`` and
``|a| <= M`` for every ``y`` of the ball.  Bounded: the increase is at most
``b^2/(m+1)`` (minimise ``a^2 + (b-a)^2/m`` over ``a``) and the decrease
``a^2/(m-1)`` (maximise over ``b`` without the clip), so
``LS_var(y) <= M(t)^2/(n-1)``.  Unbounded, ``m >= 2``: the four terms are at
most ``M^2 m/(m+1)^2``, ``var/(m+1)``, ``var/(m-1)``, ``M^2 m/(m-1)^2``, and
``var <= M^2``, so ``LS_var(y) <= M^2 m/(m-1)^2``, decreasing in ``m``;
``m >= m_min(t) = max(2, n - t)`` (a one-record ``y`` has
``LS <= M^2/4``, below the ``m = 2`` value).  Standard deviation: a
variance ``v >= V`` that changes by at most ``L`` moves ``sqrt(v)`` by at most
``max(sqrt(V + L) - sqrt(V), sqrt(W) - sqrt(W - L))``, ``W = max(V, L)``
(both changes shrink as ``v`` grows), increasing in ``L`` and
non-increasing in ``V``; so ``LS_std(y)`` is at most that with
``L = B_var(t)`` and ``V = V(t)``, the smallest variance in the ball: exactly ``min SS(window)/(n + t - 2r)`` over
windows of ``n - r`` consecutive sorted records, ``r <= t`` (the argument
(ii) of :mod:`dpsens.local`: a minimiser's kept records can be replaced by the
ones closest to its mean and its added values by the mean itself; bounded:
``r = t`` and the denominator is ``n``).

*Admissibility.*  Each ``B(t)``, ``t >= 1``, is a monotone function of
extremes over the ball of radius ``t`` (``mu_min``, ``mu_max``, the smallest
size, the smallest variance), and the ball of ``x`` of radius ``t`` lies in
the ball of any neighbour of radius ``t + 1``; ``B_x(0) = LS(x)`` is at most
the bound of any neighbour at ``t = 1`` since ``x`` is in its ball.
"""
from __future__ import annotations

import math

import numpy as np


def exact_ls(u, neighbors):
    """(LS of the variance, LS of the std) at sorted ``u`` in ``[0, 1]`` (bounds scaled to 0 and 1)."""
    m = len(u)
    mu = float(np.mean(u))
    a = u - mu
    var = float(np.mean(a * a))
    lo, up = -mu, 1.0 - mu
    if neighbors == "bounded":
        if m == 1:
            return 0.0, 0.0
        inc = max(float(np.max(b * b - a * a - (b - a) ** 2 / m)) for b in (lo, up)) / m
        bs = np.clip(-a / (m - 1), lo, up)
        dec = float(np.max(a * a - bs * bs + (bs - a) ** 2 / m)) / m
    else:
        bmax2 = max(lo * lo, up * up)
        inc = (bmax2 * m / (m + 1) - var) / (m + 1)
        dec = var / (m + 1)
        if m >= 2:
            a2 = a * a
            inc = max(inc, (var - float(np.min(a2)) * m / (m - 1)) / (m - 1))
            dec = max(dec, (float(np.max(a2)) * m / (m - 1) - var) / (m - 1))
    inc, dec = max(inc, 0.0), min(max(dec, 0.0), var)
    ls_var = max(inc, dec)
    ls_std = max(math.sqrt(var + inc) - math.sqrt(var), math.sqrt(var) - math.sqrt(var - dec))
    return ls_var, ls_std


def _std_change(V, L):
    """Largest change of ``sqrt(v)`` when ``v >= V`` changes by at most ``L`` (up, or down to >= 0).

    Up: ``sqrt(v + d) - sqrt(v)`` grows with ``d`` and falls with ``v``.  Down: ``sqrt(v) - sqrt(v - d)``
    (``d <= v``) grows with ``d`` and falls with ``v``, so ``v = max(V, d)``.  Increasing in ``L``,
    non-increasing in ``V``.
    """
    up = math.sqrt(V + L) - math.sqrt(V)
    W = max(V, L)
    return max(up, math.sqrt(W) - math.sqrt(W - L))


class VarBound:
    """``B(t)`` for the variance or the std of sorted ``u`` in ``[0, 1]``; see the module docstring."""

    def __init__(self, u, query, neighbors):
        self.u, self.query, self.neighbors = u, query, neighbors
        n = self.n = len(u)
        self.c = c = u - float(np.mean(u))                         # centred: better rounding of SS
        self.P1 = np.concatenate(([0.0], np.cumsum(c)))
        self.P2 = np.concatenate(([0.0], np.cumsum(c * c)))
        self.top = np.concatenate(([0.0], np.cumsum(u[::-1])))     # sums of the r largest
        self.bot = np.concatenate(([0.0], np.cumsum(u)))           # sums of the r smallest
        self.S = float(self.bot[-1])
        self.b0 = exact_ls(u, neighbors)[0 if query == "var" else 1]
        self.t_const = n if neighbors == "bounded" else n + 1      # B is constant from here on
        self._W = []

    def _ss(self, i, length):
        s1 = self.P1[i + length] - self.P1[i]
        s2 = self.P2[i + length] - self.P2[i]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.maximum(np.where(length > 0, s2 - s1 * s1 / np.maximum(length, 1), 0.0), 0.0)

    def _window_min(self, r):
        """``W(r) = min_{i <= r} SS(u[i : i + n - r])`` for an array of r (``0`` once ``n - r <= 1``), cached."""
        n = self.n
        need = int(np.max(r)) + 1
        W = self._W
        for rr in range(len(W), need):
            W.append(0.0 if n - rr <= 1 else float(np.min(self._ss(np.arange(rr + 1), n - rr))))
        return np.asarray(W)[np.asarray(r, dtype=np.int64)]

    def B(self, t):
        t = np.minimum(np.asarray(t, dtype=np.int64), self.t_const)
        n = self.n
        out = np.empty(t.shape, dtype=float)
        for k, tt in enumerate(t.ravel()):
            tt = int(tt)
            if tt == 0:
                out.flat[k] = self.b0
                continue
            if self.neighbors == "bounded":
                if n == 1:
                    out.flat[k] = 0.0
                    continue
                r = min(tt, n)
                mu_min = (self.S - self.top[r]) / n              # r largest replaced by 0 (lower)
                mu_max = (self.S - self.bot[r] + r) / n          # r smallest replaced by 1 (upper)
                M = max(1.0 - mu_min, mu_max)
                bvar = M * M / (n - 1)
                V = float(self._window_min(np.array([tt]))[0]) / n if tt <= n - 2 else 0.0
            else:
                if tt >= n + 1:
                    mu_min, mu_max = 0.0, 1.0
                else:
                    r = np.arange(0, min(tt, n - 1) + 1)
                    size = n + tt - 2 * r
                    mu_min = float(np.min((self.S - self.top[r]) / size))
                    mu_max = float(np.max((self.S - self.bot[r] + (tt - r)) / size))
                M = max(1.0 - mu_min, mu_max)
                mstar = max(2, n - tt)
                bvar = M * M * mstar / (mstar - 1) ** 2
                if tt >= n - 2:
                    V = 0.0
                else:
                    r = np.arange(0, tt + 1)
                    V = float(np.min(self._window_min(r) / (n + tt - 2 * r)))
            if self.query == "var":
                out.flat[k] = bvar
            else:
                out.flat[k] = _std_change(V, bvar)
        return out

    def crude(self, t):
        """An upper bound on ``B(t)`` that is cheap for every ``t`` (``M <= 1``)."""
        t = np.asarray(t, dtype=np.int64)
        n = self.n
        if self.neighbors == "bounded":
            v = np.full(t.shape, 1.0 / max(n - 1, 1))
        else:
            mstar = np.maximum(2, n - t)
            v = mstar / (mstar - 1.0) ** 2
        return v if self.query == "var" else np.sqrt(v)

    def smooth(self, beta):
        """``(max_t e^{-beta t} B(t), argmax)``, ``t`` looked at until no later one can win."""
        tmax = self.t_const
        best, arg = self.b0, 0
        s_all = np.arange(0, tmax + 1)
        with np.errstate(under="ignore"):
            tail = np.exp(-beta * s_all) * self.crude(s_all)
        tail = np.maximum.accumulate(tail[::-1])[::-1]            # max_{s >= t} e^{-beta s} crude(s)
        t0, chunk = 1, 16
        while t0 <= tmax and tail[t0] > best:
            ts = np.arange(t0, min(t0 + chunk, tmax + 1))
            with np.errstate(under="ignore"):
                vals = np.exp(-beta * ts) * self.B(ts)
            k = int(np.argmax(vals))
            if vals[k] > best:
                best, arg = float(vals[k]), int(ts[k])
            t0 += chunk
            chunk = min(2 * chunk, 1024)
        return best, arg
