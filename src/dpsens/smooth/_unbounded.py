"""The engines of the median and the percentiles with one record added or removed (unbounded).

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The
derivations are in the docstring of :mod:`dpsens.smooth._engines` ("Median, unbounded" and "Other
percentiles, unbounded").
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._candidates import Candidates, Data, log_ratio, padded, percentile_windows
from ._pairs import pair_smooth_nodes, suffix_blocks

__all__ = ["median_unbounded", "median_reach", "MedianReach", "PercentileUnbounded"]


class MedianReach(Candidates):
    """The median's candidates of cost ``<= reach`` only (a lower bound on ``A``), with the bounds of the
    reach search: ``sup = (upper - lower)/2`` and ``t_sup = n + 1`` bound the full list's, and ``U(t) >=
    A(t)`` is the spread of the padded data over the indices a dataset within ``t`` steps can use."""

    def __init__(self, cost: np.ndarray, value: np.ndarray, val: Callable[[np.ndarray], np.ndarray],
                 lower: float, upper: float, n: int) -> None:
        super().__init__(cost, value)
        self.sup, self.t_sup = (upper - lower) / 2.0, n + 1     # bounds only: the list is partial
        self.val, self.c = val, (n - 1) // 2                     # U: as for the other percentiles

    def U(self, t: np.ndarray) -> np.ndarray:
        """An upper bound on ``A(t)`` (see :meth:`PercentileUnbounded.U`)."""
        t = np.asarray(t, dtype=np.int64)
        return self.val(self.c + 2 * t + 5) - self.val(self.c - 2 * t - 5)


def _median_pairs(data: Data, pmin: int,
                  ends: bool) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """``(cost, value, X)``: the median's pairs ``(p, b)`` with ``p >= pmin`` (and, with ``ends``, those with an
    inserted end), and the padded data ``X``."""
    xs, lower, upper = data.xs, data.lower, data.upper
    n = len(xs)
    val = padded(xs, lower, upper)
    ps, bs = [], []
    p = np.arange(pmin, min(n, n // 2 + 1))       # b > p and b <= n - p: p <= n/2
    for off in (-2, -1, 0):
        b = n - 1 - p + off + 1          # b in {n-p-2, n-p-1, n-p}
        ok = (b > p) & (b <= n)
        ps.append(p[ok])
        bs.append(b[ok])
    if ends:
        ps.append(np.full(n + 1, -1))                   # lower element inserted at `lower`
        bs.append(np.arange(0, n + 1))
        ps.append(np.arange(-1, n))                     # upper element inserted at `upper`
        bs.append(np.full(n + 1, n))
    p = np.concatenate(ps)
    b = np.concatenate(bs)
    pplus = np.maximum(p, 0)
    qplus = np.maximum(n - 1 - b, 0)
    cost = (b - p - 1) + (p < 0) + (b > n - 1) + np.maximum(0, np.abs(pplus - qplus) - 1)
    value = (val(b) - val(p)) / 2.0
    return cost, value, val


def median_unbounded(data: Data) -> Candidates:
    """(cost, value) candidates for the median with one record added or removed: every one."""
    xs, lower, upper = data.xs, data.lower, data.upper
    n = len(xs)
    cost, value, _ = _median_pairs(data, -1, ends=True)
    # a single remaining record: only additions are possible, LS = max(upper - y, y - lower)/2
    # (a kept record, or a new record at `lower`/`upper` once every original one is removed)
    cost = np.concatenate((cost, [n - 1, n - 1, n + 1]))
    value = np.concatenate((value, [(upper - xs[0]) / 2.0, (xs[-1] - lower) / 2.0, (upper - lower) / 2.0]))
    return Candidates(cost, value)


def median_reach(data: Data, reach: int) -> MedianReach:
    """The candidates of :func:`median_unbounded` that can cost ``<= reach``, for ``reach < n - 3``.

    A pair ``(p, b)`` has ``b >= n - p - 2`` and costs at least ``b - p - 1 >= n - 2p - 3``, so
    ``p >= (n - 3 - reach)/2``; the pairs with an inserted end and the one-record datasets cost
    at least ``n - 1``.
    """
    n = len(data.xs)
    if not reach < n - 3:
        raise ValueError(f"reach must be below n - 3 = {n - 3}, got {reach}")
    cost, value, val = _median_pairs(data, max(-1, (n - 3 - int(reach)) // 2 - 1), ends=False)
    return MedianReach(cost, value, val, data.lower, data.upper, n)


class PercentileUnbounded:
    """Exact A(t) and smooth sensitivity of ``percentile_p`` (p != 50), one record added or removed.

    See the docstring of :mod:`dpsens.smooth._engines` for the argument.  Data are mirrored so that
    ``q > 1/2`` (:attr:`~dpsens.smooth._candidates.Data.mirrored`).  Candidates are triples (window, class of
    the size ``m`` mod ``T``, pair ``(p, b)`` of padded indices) with cost ``2b + lam(p)`` and rights
    ``b >= lo(p)``; plus the three one-record datasets.  With ``reach`` set it is a restricted engine (see
    ``__init__``).
    """

    def __init__(self, data: Data, reach: int | None = None) -> None:
        P, X, lower, upper = data.mirrored
        n = len(X) - 4
        self.n, self.lower, self.upper = n, lower, upper
        self.X = X
        q = P / 100.0
        self.sup = q * (upper - lower)
        self.t_sup = n + 1
        # a single record left (m = 1): only additions, LS = max(q (upper - y), (1 - q)(y - lower))
        self.single_cost = np.array([n - 1, n - 1, n + 1])
        self.single_value = np.array([q * (upper - X[2]), (1 - q) * (X[n + 1] - lower), q * (upper - lower)])
        gcd = math.gcd(P, 100)
        T, Q = 100 // gcd, P // gcd          # one class step: m += T, rank += Q, ranks above += T - Q
        # With ``reach`` set, only lefts within 2 reach + 6 of the rank c of the percentile are kept: the
        # window's first element p has rank rho(m) in [i_m - 1, i_m] in a dataset of size m, each step
        # changes the rank of a kept record and m by at most one, so a candidate of cost t has
        # |p - c| <= 2t + 2.  A(t) is then exact for t <= reach, a lower bound beyond (every candidate is
        # a real dataset), and ``smooth`` a lower bound including every candidate of cost <= reach.
        self.c = c = (P * (n - 1)) // 100
        if reach is None:
            plo, phi = -2, n
        else:
            plo, phi = max(-2, c - 2 * int(reach) - 6), min(n, c + 2 * int(reach) + 7)
        self.problems = []
        # Ties: a left p with X_p = ... = X_{p+Q+1} is beaten by the left p + Q (see the module docstring of
        # dpsens.smooth._engines).  Such lefts are left out before anything is computed for them, provided
        # that the last left of their chain p, p + Q, ... is a candidate: the cheapest cost and lo are
        # quasi-convex along a chain, so then every left between is one too.  Otherwise (costs near n, rare)
        # the window is computed in full.
        base = max(plo, -2)
        pall = np.arange(base, phi)
        inrun = (pall + Q < phi) & (pall + Q <= n - 2)
        inrun &= X[pall + 2] == X[np.minimum(pall + Q + 3, n + 3)]
        for r in range(T):
            m0 = r if r >= 2 else r + T       # smallest size >= 2 in the class
            i0, g100 = divmod(P * (m0 - 1), 100)
            for k, off, alpha, gamma in percentile_windows(P, g100):
                start = max(plo, -2 if k == 3 else -1)
                sub = pall[start - base:]
                run = inrun[start - base:]
                p = sub[~run]
                cand = self._window(p, k, m0, i0 + off, T, Q)
                first = p - Q >= start
                if np.any(first & run[np.maximum(p - Q - start, 0)] & ~cand[3]):
                    cand = self._window(sub, k, m0, i0 + off, T, Q)
                    p, lam, lo = (v[cand[3]] for v in cand[:3])
                    if p.size > 1:
                        nxt = np.minimum(np.searchsorted(p, p + Q), p.size - 1)
                        beaten = (p[nxt] == p + Q) & (p + Q <= n - 2)
                        beaten &= X[p + 2] == X[np.minimum(p + Q + 3, n + 3)]
                        p, lam, lo = p[~beaten], lam[~beaten], lo[~beaten]
                else:
                    p, lam, lo = (v[cand[3]] for v in cand[:3])
                self.problems.append((k, alpha / 100.0, gamma / 100.0, p, lam, lo))
        self._by_cost = None                 # the candidates sorted by their cheapest cost, built for A(t) only

    def _window(self, p, k, m0, rho0, T, Q):
        """``(p, lam, lo, keep)`` of the lefts ``p`` of one (window, class): the cheapest pair's data."""
        n = self.n
        sig0 = m0 - rho0 - k
        j = np.maximum(0, -((rho0 - p) // Q))          # fewest class steps with rank >= p
        m = m0 + T * j
        lo = np.maximum(n - 1 - (sig0 + (T - Q) * j), p + k - 1)
        lam = m - n + 2 - 2 * k - 2 * p
        bmax = n + 1 if k == 3 else n
        keep = (lo <= bmax) & (2 * lo + lam <= n + 1)
        return p, lam, lo, keep

    def _candidates_by_cost(self):
        """``(cmin, E)``: every (window, class, left) with its data, sorted by the cost of its cheapest pair."""
        if self._by_cost is None:
            cat = lambda idx: np.concatenate([pr[idx] for pr in self.problems])  # noqa: E731
            size = [len(pr[3]) for pr in self.problems]
            E = dict(p=cat(3), lam=cat(4), lo=cat(5),
                     k=np.repeat([pr[0] for pr in self.problems], size),
                     alpha=np.repeat([pr[1] for pr in self.problems], size).astype(float),
                     gamma=np.repeat([pr[2] for pr in self.problems], size).astype(float))
            cmin = 2 * E["lo"] + E["lam"]
            order = np.argsort(cmin, kind="stable")
            self._by_cost = cmin[order], {key: v[order] for key, v in E.items()}
        return self._by_cost

    def val(self, k: np.ndarray) -> np.ndarray:
        """The padded data at any index ``k`` (clipped to ``[-2, n + 1]``)."""
        return self.X[np.minimum(np.maximum(k, -2), self.n + 1) + 2]

    def U(self, t: ArrayLike) -> np.ndarray:
        """An upper bound on ``A(t)``: a dataset y of size m within t steps has, for every padded rank r,
        ``X_{r-t} <= y_(r) <= X_{r+t}`` (one step moves each order statistic by at most one index),
        ``LS(y) <= y_(i+2) - y_(i-1)`` with ``i = floor(q(m-1))`` in ``[c - t - 1, c + t + 1]``."""
        t = np.asarray(t, dtype=np.int64)
        return self.val(self.c + 2 * t + 5) - self.val(self.c - 2 * t - 5)

    # ------------------------------------------------------------------ A(t)
    def A(self, t: ArrayLike) -> np.ndarray:
        """``A`` at an array of ``t``, one distance at a time (:meth:`_A1`)."""
        t = np.asarray(t, dtype=np.int64)
        out = np.empty(t.shape)
        flat = out.reshape(-1)
        for k, tk in enumerate(t.reshape(-1)):
            flat[k] = self._A1(int(tk))
        return out

    def _A1(self, t):
        n, X = self.n, self.X
        if t >= n + 1:
            return self.sup
        ok1 = self.single_cost <= t
        best = float(np.max(self.single_value[ok1])) if ok1.any() else 0.0
        cmin, E_all = self._candidates_by_cost()
        e = int(np.searchsorted(cmin, t, side="right"))
        if e == 0:
            return best
        E = {key: v[:e] for key, v in E_all.items()}
        p, lo, al, ga, is3 = E["p"], E["lo"], E["alpha"], E["gamma"], E["k"] == 3
        hi = (t - E["lam"]) // 2
        bs = np.clip(np.minimum(hi, n), -2, n + 1)
        ok = bs >= lo
        Xp, Xb = X[p + 2], X[bs + 2]
        Xb1, Xp1 = X[np.maximum(bs + 1, 0)], X[np.minimum(p + 3, n + 3)]
        v = np.where(is3, -np.inf, al * (Xb - Xp))
        f1 = np.where(p >= -1, al * (Xb1 - Xp) + ga * (Xb - Xb1), -np.inf)
        f2 = np.where(p <= n - 2, al * (Xp1 - Xp) + ga * (Xb - Xp1), -np.inf)
        v = np.where(is3, np.maximum(f1, f2), v)
        v = np.where(ok, v, -np.inf)
        # the window's top two at `upper` (c = n, b = n + 1)
        top = is3 & (hi >= n + 1) & (lo <= n + 1) & (p >= -1)
        v = np.maximum(v, np.where(top, al * (X[n + 3] - Xp), -np.inf))
        return max(best, float(np.max(v)))

    # ------------------------------------------------------------------ smooth
    def smooth(self, beta: float, t_max: int | None = None) -> tuple[float, int]:
        if self.sup <= 0:
            return 0.0, 0
        with np.errstate(under="ignore"):
            w = np.exp(-beta * self.single_cost.astype(float)) * self.single_value
        kbest = int(np.argmax(w))
        best, best_t = float(w[kbest]), int(self.single_cost[kbest])
        # restricted: the caller bounds longer distances
        K = self.n + 1 if t_max is None else min(self.n + 1, int(t_max))
        # 1. for each (window, class, family) the lefts that can matter, and their cheapest pair
        parts, best, best_t = self._cheapest(beta, K, best, best_t)
        # 2. longer pairs only while they can beat the best real candidate so far
        if best > 0:
            K = min(K, int(math.floor(log_ratio(self.sup, best) / beta)) + 2)
        return self._longer(parts, beta, K, best, best_t)

    def _cheapest(self, beta, K, best, best_t):
        """Step 1 of :meth:`smooth`: the lefts of every (window, class, family) that can matter (as
        :meth:`_lefts` gives them), and ``(best, best_t)`` raised by their cheapest pairs."""
        n = self.n
        parts = []
        for k, al, ga, p, lam, lo in self.problems:
            # (family, largest right): k = 2; k = 3 with c = b - 1 (c = n at b = n + 1); k = 3 with c = p + 1
            for fam, bmax in ((("pair", n),) if k == 2 else (("c=b-1", n + 1), ("c=p+1", n))):
                part = self._lefts(fam, bmax, K, al, ga, p, lam, lo)
                if part is None:
                    continue
                parts.append(part)
                L, lam_k, s, R, base = part[1], part[2], part[3], part[4], part[5]
                v = R[s - base] - L
                c = 2 * s + lam_k
                with np.errstate(under="ignore"):
                    w = np.where(v > 0, np.exp(-beta * c.astype(float)) * v, -np.inf)
                i = int(np.argmax(w))
                if w[i] > best:
                    best, best_t = float(v[i] * math.exp(-beta * int(c[i]))), int(c[i])
        return parts, best, best_t

    def _longer(self, parts, beta, K, best, best_t):
        """Step 2 of :meth:`smooth`: every pair of cost ``<= K`` of the lefts of step 1, by the divide and
        conquer over rectangles (:meth:`_solve`, in chunks of bounded size); ``(best, best_t)`` raised."""
        chunk, size = [], 0
        for bmax, L, lam, s, R, base in parts:
            hiK = np.minimum(bmax, (K - lam) // 2)
            ok = s < hiK
            if not ok.any():
                continue
            L, lam, s, hiK = L[ok], lam[ok], s[ok], hiK[ok]
            top = int(hiK.max())
            Rt = R[: top - base + 1]
            # rights at an ascent of R: a right b with R(b) <= R(b - 1) is beaten by b - 1 (same left, 2 steps
            # cheaper), down to an ascent or the left's own first right s (the pair of step 1)
            asc = np.flatnonzero(np.concatenate(([True], Rt[1:] > Rt[:-1])))
            bc = base + asc
            length = len(bc) - np.searchsorted(bc, s, side="right")
            use = length > 0
            if not use.any():
                continue
            chunk.append((L[use], -lam[use] - 1, length[use], len(bc) - 1, 0, Rt[asc], 2 * bc))
            size += int(use.sum()) * max(1, len(bc).bit_length())
            if size > 4_000_000:
                v, c = self._solve(chunk, beta)
                if v > best:
                    best, best_t = v, c
                chunk, size = [], 0
        if chunk:
            v, c = self._solve(chunk, beta)
            if v > best:
                best, best_t = v, c
        return best, best_t

    def _lefts(self, fam, bmax, K, al, ga, p, lam, lo):
        """The lefts of one family that can be part of the best pair: ``(bmax, L, lam, s, R, base)``.

        ``R`` holds the rights' values from ``base`` to the largest right of cost ``<= K``; ``s`` is each
        left's first right ``>= lo`` with a positive value (every right before it has ``R <= max R[base..]
        <= L``).  Of lefts with the same ``L`` a left with ``s' <= s`` and ``lam' <= lam`` reaches every pair
        of the other as cheaply (the Pareto front is kept: on tied data a few lefts per run of values).
        """
        n, X = self.n, self.X
        hiK = np.minimum(bmax, (K - lam) // 2)
        sel = (lo <= hiK) & ((p <= n - 2) if fam == "c=p+1" else (p >= -1))
        if not sel.any():
            return None
        ps, lam, lo, hiK = p[sel], lam[sel], lo[sel], hiK[sel]
        top = int(hiK.max())
        base = int(lo.min())
        b = np.arange(base, top + 1)
        if fam == "pair":
            L, R = al * X[ps + 2], al * X[b + 2]
        elif fam == "c=b-1":
            # written with the differences of neighbouring order statistics, so that R - L is exactly 0 on
            # tied data (``(al - ga) X + ga X - al X`` is a rounding error, not 0)
            L, R = al * X[ps + 2], al * X[b + 1] + ga * (X[b + 2] - X[b + 1])
        else:
            L, R = ga * X[ps + 3] - al * (X[ps + 3] - X[ps + 2]), ga * X[b + 2]
        s = np.maximum(lo, base + np.searchsorted(np.maximum.accumulate(R), L, side="right"))
        ok = s <= hiK
        if not ok.any():
            return None
        L, lam, s = L[ok], lam[ok], s[ok]
        order = np.lexsort((lam, s, L))
        L, lam, s = L[order], lam[order], s[order]
        group = np.concatenate(([0], np.cumsum(L[1:] != L[:-1])))
        key = lam - group * (int(lam.max() - lam.min()) + 1)     # a running minimum that restarts per group
        keep = np.ones(L.size, dtype=bool)
        keep[1:] = key[1:] < np.minimum.accumulate(key)[:-1]
        return bmax, L[keep], lam[keep], s[keep], R, base

    @staticmethod
    def _solve(chunk, beta):
        """Every problem of the chunk: lefts with suffixes of rights, cut into aligned blocks (rectangles)."""
        roff = np.cumsum([0] + [len(part[5]) for part in chunk[:-1]])
        tops = np.array([part[3] for part in chunk])
        bases = np.array([part[4] for part in chunk])
        Rv = [part[5] for part in chunk]
        Rp = [part[6] for part in chunk]
        owner, j, s = suffix_blocks(np.concatenate([part[2] for part in chunk]))   # every problem at once
        L = np.concatenate([part[0] for part in chunk])[owner]
        Lp = np.concatenate([part[1] for part in chunk])[owner]
        prob = np.repeat(np.arange(len(chunk)), [len(part[0]) for part in chunk])[owner]
        order = np.lexsort((L, s, j, prob))
        L, Lp, prob, j, s = L[order], Lp[order], prob[order], j[order], s[order]
        new = np.ones(L.size, dtype=bool)
        new[1:] = (prob[1:] != prob[:-1]) | (j[1:] != j[:-1]) | (s[1:] != s[:-1])
        a = np.nonzero(new)[0]
        b = np.concatenate((a[1:] - 1, [L.size - 1]))
        pr, jj, sn = prob[a], j[a], s[a]
        hi_b = tops[pr] - sn                          # block: b in [top - s - 2^j + 1, top - s]
        lo_b = hi_b - (np.int64(1) << jj) + 1
        c = roff[pr] + lo_b - bases[pr]
        d = roff[pr] + hi_b - bases[pr]
        v, cost = pair_smooth_nodes(L, Lp, a, b, np.concatenate(Rv), np.concatenate(Rp), c, d, beta)
        return v, cost
