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

*The bound for t >= 1.*  Scale the data to ``[0, 1]``.  Every dataset ``y``
within ``t`` steps has its mean in ``[mu_min(t), mu_max(t)]``: bounded, the
exact extremes (the ``t`` largest records replaced by 0:
``(S - top_t)/n``; mirrored for the maximum); unbounded, ``y`` keeps
``n - r`` records and gains ``a`` values, ``r + a <= t``, so its mean is at
least ``(S - top_r)/(n - r + a) >= (S - top_t)/(n + t) = mu_min(t)`` (all
values are ``>= 0``), and mirrored ``mu_max(t) = (S - bot_t + 2t)/(n + t)``
(``0`` and ``1`` once ``t > n``).  Let ``M(t) = max(1 - mu_min(t), mu_max(t))``,
so ``|b| <= M`` and ``|a| <= M`` for every ``y`` of the ball.  Bounded: the
increase is at most ``b^2/(m+1)`` (minimise ``a^2 + (b-a)^2/m`` over ``a``)
and the decrease ``a^2/(m-1)`` (maximise over ``b`` without the clip), so
``LS_var(y) <= M(t)^2/(n-1)``.  Unbounded, ``m >= 2``: the four terms are
at most ``M^2 m/(m+1)^2``, ``var/(m+1)``, ``var/(m-1)``, ``M^2 m/(m-1)^2``,
and ``var <= M^2``, so ``LS_var(y) <= M^2 m/(m-1)^2``, decreasing in ``m``;
``m >= max(2, n - t)`` (a one-record ``y`` has ``LS <= M^2/4``, below the
``m = 2`` value).  Standard deviation: a variance ``v >= V`` that changes
by at most ``L`` moves ``sqrt(v)`` by at most ``max(sqrt(V + L) - sqrt(V),
sqrt(W) - sqrt(W - L))``, ``W = max(V, L)`` (both changes shrink as ``v``
grows), increasing in ``L`` and non-increasing in ``V``; so ``LS_std(y)`` is
at most that with ``L = B_var(t)`` and ``V = V(t)``, a lower bound on the
variance in the ball.  Let ``W(t)`` be the smallest sum of squared deviations
of ``n - t`` of the records (a window of consecutive sorted records, by the
argument (ii) of :mod:`dpsens.local`), ``0`` once ``n - t <= 1``; it does not
increase with ``t``.  Bounded, ``V(t) = W(t)/n`` is the exact minimum (keep
the best window, put the ``t`` new values at its mean).  Unbounded,
``var(y) >= SS(kept)/(n - r + a) >= W(r)/(n + t) >= W(t)/(n + t) = V(t)``.

*Admissibility.*  ``B(t)``, ``t >= 1``, is a monotone function of
``mu_min(t)`` (non-increasing), ``mu_max(t)`` (non-decreasing), the smallest
size and ``V(t)``, and each of these is at least as extreme for a neighbour
``x'`` at ``t + 1`` as for ``x`` at ``t``: bounded, they are exact extremes
over balls, and the ball of ``x`` of radius ``t`` lies in that of ``x'`` of
radius ``t + 1``; unbounded, the sum of the ``k - 1`` smallest records of
``x' = x - {v}`` is at most that of the ``k`` smallest of ``x``, and so is
that of the ``k`` smallest of ``x' = x + {v}`` (values ``>= 0``), the
denominators ``n' + t + 1 >= n + t``, and ``W_{x'}(t + 1) <= W_x(t)`` (drop
one more record, or the removed one, from the best window of ``x``).
``B_x(0) = LS(x)`` is at most any neighbour's bound at ``t = 1`` because
``x`` lies in its ball.  No variance of values in ``[0, 1]`` exceeds 1/4 (no
standard deviation 1/2), so neither does any change; ``B`` is capped there
(the minimum of two admissible functions is admissible).

*Cost.*  The local sensitivity at ``x`` needs only the mean, the variance
and a few records: the increase of the bounded variance is concave in
``a`` (maximal at the record nearest ``b/(m+1)``), every decrease convex in
``a`` (maximal at the smallest or largest record), the unbounded terms
need the records nearest the mean and the extremes.  ``B(t)`` for
``t <= K`` only involves the ``K + 1`` smallest and largest records.  So the
cost is the sort, two passes for the mean and variance (and two for the
variances of the neighbours that can shrink it most, computed from their
records, not as a difference), and ``O(K^2)`` for
the few hundred distances ``K`` that can matter.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..relation import Relation, as_relation
from ._candidates import log_ratio

__all__ = ["VarBound"]


def _sqrt_drop(W, L):
    """``sqrt(W) - sqrt(W - L)`` for ``0 <= L <= W``, never below the exact value through rounding.

    When ``L`` is ``W`` up to rounding (a neighbour can make the variance 0), ``W - L`` is a residue of
    a few ulp whose square root, about ``1e-8 sqrt(W)``, would pull an *upper* bound below the local
    sensitivity; a residue of at most 8 ulp of ``W`` is therefore taken as 0 (which can only raise it).
    """
    rest = W - L
    if rest <= 8 * np.finfo(float).eps * W:
        rest = 0.0
    return math.sqrt(W) - math.sqrt(rest)


def _std_change(V, L):
    """Largest change of ``sqrt(v)`` when ``v >= V`` changes by at most ``L`` (up, or down to >= 0).

    Up: ``sqrt(v + d) - sqrt(v)`` grows with ``d`` and falls with ``v``.  Down: ``sqrt(v) - sqrt(v - d)``
    (``d <= v``) grows with ``d`` and falls with ``v``, so ``v = max(V, d)``.  Increasing in ``L``,
    non-increasing in ``V``.
    """
    up = math.sqrt(V + L) - math.sqrt(V)
    W = max(V, L)
    return max(up, _sqrt_drop(W, L))


class VarBound:
    """``B(t)`` for the variance or the std of sorted ``xs`` in ``[lower, upper]``, in units of the width
    (``[0, 1]``); see the module docstring."""

    def __init__(self, xs: np.ndarray, lower: float, upper: float, query: str, neighbors: Relation | str) -> None:
        # converted here too (a public class of a private module): a plain string must never reach the
        # `is Relation.X` tests below and take the wrong branch silently
        neighbors = as_relation(neighbors)
        self.query, self.neighbors = query, neighbors
        n = self.n = len(xs)
        self.xs, self.lower, self.upper, self.w = xs, float(lower), float(upper), float(upper - lower)
        # deviations are taken from a record c and the mean d of the differences, never from the rounded mean
        # c + d: on data far from 0 that rounding (an ulp of the offset) gives equal records a spurious
        # variance and shifts every deviation, and square roots pull the std's bound below its local
        # sensitivity (by 1e-7 of it on [1e9, 1e9 + 3]); x - c is exact for records within a factor 2 of c
        self.c = c = float(xs[n // 2])
        self.d = d = float(np.mean(xs - c))
        self.mu_x = c + d
        self.mu = ((c - lower) + d) / self.w                          # scaled mean, in [0, 1]
        self.var = float(np.var(xs - c)) / self.w ** 2                # scaled variance
        self.S = n * self.mu
        self.b0 = self.exact_ls()[0 if query == "var" else 1]
        self.t_const = n if neighbors is Relation.BOUNDED else n + 1         # B is constant from here on
        self.K = -1

    def _a(self, k):
        """Scaled deviations from the mean of the records at sorted indices k."""
        return ((self.xs[np.asarray(k)] - self.c) - self.d) / self.w

    def _near(self, a_target):
        """Sorted indices of the (up to) two records nearest the scaled deviation a_target."""
        k = int(np.searchsorted(self.xs, self.mu_x + a_target * self.w))
        return np.unique(np.clip([k - 1, k], 0, self.n - 1))

    def exact_ls(self) -> tuple[float, float]:
        """(LS of the variance, LS of the std) at x, scaled; see the module docstring."""
        m, var = self.n, self.var
        lo, up = ((self.lower - self.c) - self.d) / self.w, ((self.upper - self.c) - self.d) / self.w
        ends = self._a([0, m - 1])
        if self.neighbors is Relation.BOUNDED:
            if m == 1:
                return 0.0, 0.0
            inc = -np.inf
            for b in (lo, up):
                a = self._a(self._near(b / (m + 1)))
                inc = max(inc, float(np.max(b * b - a * a - (b - a) ** 2 / m)) / m)
            bs = np.clip(-ends / (m - 1), lo, up)
            dec = float(np.max(ends * ends - bs * bs + (bs - ends) ** 2 / m)) / m
        else:
            inc = (max(lo * lo, up * up) * m / (m + 1) - var) / (m + 1)
            dec = var / (m + 1)
            if m >= 2:
                a_mid = self._a(self._near(0.0))
                inc = max(inc, (var - float(np.min(a_mid * a_mid)) * m / (m - 1)) / (m - 1))
                dec = max(dec, (float(np.max(ends * ends)) * m / (m - 1) - var) / (m - 1))
        inc, dec = max(inc, 0.0), min(max(dec, 0.0), var)
        ls_var = max(inc, dec)
        ls_std = max(math.sqrt(var + inc) - math.sqrt(var), math.sqrt(var) - math.sqrt(self._smallest_neighbour_var()))
        return ls_var, ls_std

    def _smallest_neighbour_var(self):
        """The smallest variance of a neighbour of x, scaled, computed from that neighbour's records.

        Not ``var - dec``: that difference cancels (its rounding error is about ``eps`` times the squared
        offset of the data from 0 over the width, not ``eps`` times the variance), and its square root
        would pull the std's local sensitivity below the true one -- by 1e-6 of it for data in
        ``[1000, 1001]`` where a neighbour has variance 0.  The minimiser is the one of ``dec``: bounded,
        an end record replaced by the mean of the other ``m - 1`` (inside the bounds; the variance is then
        ``(m - 1)/m`` times theirs); unbounded, the mean added (``var m/(m + 1)``) or an end record removed.
        The others' variance is computed after subtracting one of them, which is exact for equal records.
        """
        m, xs = self.n, self.xs
        if m == 1:
            return self.var
        factor = (m - 1) / m if self.neighbors is Relation.BOUNDED else 1.0
        out = self.var * m / (m + 1) if self.neighbors is Relation.UNBOUNDED else np.inf
        for k in (0, m - 1):
            rest = np.delete(xs, k)
            out = min(out, factor * float(np.var(rest - rest[len(rest) // 2])) / self.w ** 2)
        return out

    def _prefix(self, K):
        """Prefix sums of the K + 1 smallest and the K + 1 largest scaled, centred records."""
        if K <= self.K:
            return
        n = self.n
        k = min(n, K + 1)
        head = self._a(np.arange(k))
        tail = self._a(np.arange(n - 1, n - 1 - k, -1))
        self.H1 = np.concatenate(([0.0], np.cumsum(head)))
        self.H2 = np.concatenate(([0.0], np.cumsum(head * head)))
        self.T1 = np.concatenate(([0.0], np.cumsum(tail)))
        self.T2 = np.concatenate(([0.0], np.cumsum(tail * tail)))
        self.K = K

    def _window_min(self, t):
        """``W(t)``: the smallest SS of ``n - t`` records, a window dropping ``i`` records below and ``t - i``
        above (``0`` once ``n - t <= 1``), for an array of t."""
        n = self.n
        t = np.asarray(t, dtype=np.int64)
        out = np.zeros(t.shape)
        live = np.nonzero(n - t >= 2)[0]
        if not live.size:
            return out
        self._prefix(int(t[live].max()))
        tot1, tot2 = 0.0, n * self.var                                # centred: the deviations sum to 0
        step = max(1, 4_000_000 // (int(t.max()) + 1))
        for s in range(0, live.size, step):
            k = live[s:s + step]
            tk = t[k][:, None]
            i = np.arange(int(tk.max()) + 1)[None, :]
            ok = i <= tk
            ii, jj = np.where(ok, i, 0), np.where(ok, tk - i, 0)
            s1 = tot1 - self.H1[ii] - self.T1[jj]
            s2 = tot2 - self.H2[ii] - self.T2[jj]
            ss = np.maximum(s2 - s1 * s1 / (n - tk), 0.0)
            out[k] = np.min(np.where(ok, ss, np.inf), axis=1)
        return out

    def B(self, t: ArrayLike) -> np.ndarray:
        """``B(t)`` for an array of ``t`` (see the module docstring), scaled."""
        t = np.minimum(np.asarray(t, dtype=np.int64), self.t_const)
        n = self.n
        self._prefix(int(t.max()) if t.size else 0)
        r = np.minimum(t, min(n, self.K + 1))
        bot = self.H1[r] + r * self.mu                                 # sum of the r smallest (scaled)
        top = self.T1[r] + r * self.mu                                 # sum of the r largest
        if self.neighbors is Relation.BOUNDED:
            if n == 1:
                return np.zeros(t.shape)
            mu_min = (self.S - top) / n                                # the t largest replaced by 0 (lower)
            mu_max = (self.S - bot + r) / n                            # the t smallest replaced by 1 (upper)
            M = np.maximum(1.0 - mu_min, mu_max)
            bvar = M * M / (n - 1)
            V = self._window_min(t) / n
        else:
            mu_min = np.where(t >= n + 1, 0.0, np.maximum(0.0, (self.S - top) / (n + t)))
            mu_max = np.where(t >= n + 1, 1.0, np.minimum(1.0, (self.S - bot + 2 * r) / (n + t)))
            M = np.maximum(1.0 - mu_min, mu_max)
            mstar = np.maximum(2, n - t).astype(float)
            bvar = M * M * mstar / (mstar - 1) ** 2
            V = self._window_min(t) / (n + t)
        # no variance of values in [0, 1] exceeds 1/4, so no change does (std: 1/2): a constant cap keeps
        # B admissible (min of two admissible functions) and helps tiny datasets
        bvar = np.minimum(bvar, 0.25)
        if self.query == "var":
            out = bvar
        else:
            out = np.minimum(0.5, [_std_change(v, b) for v, b in zip(V, bvar, strict=True)])
        return np.where(t == 0, self.b0, out)

    def crude_sup(self) -> float:
        """An upper bound on every ``B(t)`` (``M <= 1``, smallest size 2 for the unbounded relation)."""
        v = min(0.25, 1.0 / max(self.n - 1, 1) if self.neighbors is Relation.BOUNDED else 2.0)
        return v if self.query == "var" else min(0.5, math.sqrt(v))

    def smooth(self, beta: float) -> tuple[float, int]:
        """``(max_t e^{-beta t} B(t), argmax)``, every ``t`` accounted for.

        ``B`` is non-decreasing.  Beyond ``K = ln(crude_sup / B(0))/beta`` nothing can beat ``B(0)``;
        below it ``B`` is evaluated on geometric checkpoints ``T_k``, and the distances strictly between
        two checkpoints only if ``e^{-beta (T_k + 1)} B(T_{k+1})`` can beat the best value so far
        (blocks in decreasing order of that bound)."""
        best, arg = self.b0, 0
        K = self.t_const
        if best > 0:
            K = min(K, int(math.ceil(log_ratio(self.crude_sup(), best) / beta)) + 1)
        if K < 1:
            return best, arg
        cps = np.unique(np.concatenate((np.arange(1, min(K, 16) + 1),
                                        np.round(16 * 1.15 ** np.arange(1, 200)).astype(np.int64), [K])))
        cps = cps[cps <= K]
        Bc = self.B(cps)
        with np.errstate(under="ignore"):
            vals = np.exp(-beta * cps) * Bc
        k = int(np.argmax(vals))
        if vals[k] > best:
            best, arg = float(vals[k]), int(cps[k])
        lo, hi = cps[:-1] + 1, cps[1:] - 1
        with np.errstate(under="ignore"):
            bound = np.exp(-beta * lo) * Bc[1:]
        for j in np.argsort(-bound, kind="stable"):
            if bound[j] <= best:
                break
            if hi[j] < lo[j]:
                continue
            ts = np.arange(lo[j], hi[j] + 1)
            with np.errstate(under="ignore"):
                vals = np.exp(-beta * ts) * self.B(ts)
            k = int(np.argmax(vals))
            if vals[k] > best:
                best, arg = float(vals[k]), int(ts[k])
        return best, arg
