"""Exact inverse sensitivity of the variance under additions and removals (``n`` private).

Chapter: *The exponential mechanism and inverse sensitivity* (called by
:func:`dpsens.inverse.inverse_len` for ``query="var"`` and ``"std"`` with
``neighbors="unbounded"``; the bounded relation is in :mod:`dpsens.inverse`).

Notation: population variance ``var`` (``np.var``), ``SS`` a sum of squared
deviations, data sorted ``x_(1) <= ... <= x_(n)`` in the public
``[lower, upper]``, ``c = (lower + upper) / 2`` and ``h = (upper − lower) / 2``.
``D(r, s)`` is the set of datasets reached by removing a set ``R`` of ``r``
records (``0 <= r <= n``) and adding ``s >= 1`` values of ``[lower, upper]``;
``K`` the ``m = n − r`` kept records, ``N = m + s`` the final size.
``len'(z)`` is the least ``r + s`` with ``s >= 1`` and ``z`` the variance of a
dataset in ``D(r, s)``; the value returned is ``len'(z)``, and ``0`` at
``z = var(x)``.

1. *One removed set.*  For fixed ``R`` the variances of ``K ∪ A``,
   ``A ∈ [lower, upper]^s``, form an interval (a continuous image of a box).
   Its lower end is ``SS_K / N`` (every added value at ``mean_K``, or all
   equal if ``K`` is empty, from
   ``SS = SS_K + SS_A + (m s / N)(mean_K − mean_A)²``).  Its upper end has
   every added value at ``lower`` or ``upper`` (``N var`` is convex in each
   value): with ``j`` = (number at ``upper``) − (number at ``lower``), in
   ``{−s, −s + 2, ..., s}``, and data centred at ``c``,
   ``N² var = N (Q_K + s h²) − (S_K + j h)²`` (``S``, ``Q`` sums of values
   and of squares), best at the ``j`` nearest to ``−S_K / h``.
2. *All removed sets of one size.*  The intervals of ``K1 = C ∪ {a}`` and
   ``K2 = C ∪ {b}`` share the dataset ``C ∪ {a, b} ∪ A''`` (add ``b`` to
   ``K1``, ``a`` to ``K2``: this needs ``s >= 1``); any two kept sets are
   joined by a chain of such swaps, so the union over ``|R| = r`` is one
   interval ``V(r, s) = [L(r, s), H(r, s)]``.  ``L(r, s) = minSS(m) / N``
   with ``minSS(m)`` the least ``SS`` of ``m`` records, reached by a
   contiguous window of the sorted data (the ``m`` records nearest any
   subset's mean do no worse); between breakpoints where neither end of the
   sliding window crosses a change of value, ``SS`` is concave in the shift
   (sums linear in it), so only windows with an end at a change of value are
   scanned (``O(#distinct values)`` per ``m``).  ``H(r, s)``: the removed
   records form a contiguous window (with ``i = min R``, ``k = max R`` and a
   kept ``x_(j)``, ``i < j < k``, putting ``x_(i)`` or ``x_(k)`` in place of
   ``x_(j)`` in the kept set does not lower ``N var``, convex in that one
   value; either swap shrinks ``max R − min R``).  For
   fixed ``(r, s, j)`` let ``g(a)`` be the objective with ``x_(a+1..a+r)``
   removed; ``g(a+1) − g(a) = −Δ T(a)`` with ``Δ = x_(a+r+1) − x_(a+1) >= 0``
   and ``T(a) = x_(a+1)(1 − 1/N) + x_(a+r+1)(1 + 1/N) − 2 (S_K(a) + j h)/N``
   (centred data) non-decreasing in ``a``, so ``g`` rises then falls: a binary search finds
   the best window.  Only the ``j`` nearest ``−S_K / h`` for some window
   matter, at most ``min(r, s) + 2`` of them.
3. ``len'(z) = min {r + s : s >= 1, L(r, s) <= z <= H(r, s)}``.  It moves by
   at most one between neighbours ``x`` and ``x' = x ∪ {v}``: a route from
   ``x'`` with ``s >= 1`` additions, preceded by adding ``v``, is a route
   from ``x`` one step longer or (if it removed ``v``) one step shorter, and
   still adds something; a route from ``x``, preceded by removing ``v``, is a
   route from ``x'``.  So a mechanism built on ``len'`` is ``ε``-DP exactly,
   even on a finite grid.  The returned value differs from ``len'`` only at
   ``z = var(x)`` (``0``), and from the true ``len`` only on the finite set of
   variances of sub-multisets of ``x`` (routes by removals alone), where it
   can only be larger: for a mechanism with continuous outputs these sets
   have probability zero.  (With the ``0`` at ``var(x)`` the exact Lipschitz
   property fails at that one point: ``x = {0}``, ``x' = {0, 1}`` on
   ``[0, 1]`` give ``0`` and ``2`` at ``z = 0``.)
4. *Above* ``var(x)``: ``L(r, s) <= minSS(m)/m <= var(x)`` (the least
   ``SS_K / m`` is at most its mean over random ``m``-subsets,
   ``(m − 1)/m · SS/(n − 1) <= SS/n``), so only ``H`` binds and
   ``len'(z) = min {k : G(k) >= z}`` with ``G(k) = max_{r + s = k} H(r, s)``.
   ``D(r, s) ⊆ D(r + 1, s + 1)`` (remove one more record, add it back; at
   ``r = n``, ``H(n, s + 2) >= H(n, s)`` directly), so ``G(k + 2) >= G(k)``
   and ``M(k) = max(G(k), G(k − 1))`` is non-decreasing with the same least
   ``k``: a doubling then a binary search, ``k <= n + 2`` (``H(n, 2) = h²``,
   the largest variance).
5. *Below* ``var(x)``: ``L(r, s) <= z`` iff ``s >= s_L(r) =
   max(1, ⌈minSS(n − r)/z − (n − r)⌉)``, so ``k_L = min_r r + s_L(r)``,
   found by branch and bound over intervals ``[r1, r2]`` of ``r``:
   ``minSS(n − r)`` falls as ``r`` grows, so ``r + s_L(r) >=
   max(r1 + 1, 2 r1 − n + ⌈minSS(n − r2)/z⌉)`` on the interval.  Then ``k = k_L, k_L + 1, ...``
   is tested for an ``r`` with ``s = k − r >= s_L(r)`` and
   ``H(r, s) >= z``; it ends by ``k = 2 max(1, r_0)``, ``r_0`` the least
   ``r >= 1`` with ``L(r, r) <= z``, since ``x ∈ D(r, r)`` gives
   ``H(r, r) >= var(x) > z``.  ``z = 0`` is reached exactly by keeping one
   block of equal records and adding a copy: ``n − (largest block) + 1``.

Cost: ``H(r, s)`` is ``O((min(r, s) + 2) log n)``.  Above ``var(x)`` the
``r`` of one ``k`` are tried in the order of a cheap bound ``>= H(r, s)``
(the largest kept sum of squares, found by the same kind of search, and the
least distance of the kept sum to ``[−s h, s h]``), skipping those whose
bound is below ``z``; on the Adult ages every standard deviation in
``[0, 50]`` takes under 0.2 s.  Below ``var(x)`` each ``minSS(m)`` costs
``O(d)`` for ``d`` distinct values (73 for the ages: under 0.2 s at every
``z``), but ``O(n)`` for continuous data, where the branch and bound may
need ``minSS`` at most ``r < len``.  ``max_work`` caps the window searches
and window sums per ``t`` (``ValueError`` beyond it).
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_int

__all__ = ["UnboundedVarianceReach", "DEFAULT_MAX_WORK"]

#: default cap on window searches plus window sums for one call (a few seconds of work)
DEFAULT_MAX_WORK = 30_000_000


class UnboundedVarianceReach:
    """``L(r, s)``, ``H(r, s)`` and ``len'(z)`` for sorted data ``xs`` in ``[lower, upper]`` (module docstring).

    Chapter: *The exponential mechanism and inverse sensitivity*.
    """

    def __init__(self, xs: ArrayLike, lower: float, upper: float, max_work: int = DEFAULT_MAX_WORK) -> None:
        self.max_work = as_int(max_work, "max_work", 1)
        self.work = 0
        xs = np.sort(np.asarray(xs, dtype=float))
        self.n = n = len(xs)
        centre = (lower + upper) / 2
        self.h = (upper - lower) / 2
        self.y = y = xs - centre
        self.X1 = np.concatenate(([0.0], np.cumsum(y)))
        self.X2 = np.concatenate(([0.0], np.cumsum(y * y)))
        changes = np.flatnonzero(np.diff(xs) != 0) + 1
        self.breaks = np.concatenate(([0], changes, [n]))
        blocks = np.diff(self.breaks)
        self.largest_block = int(blocks.max())
        self.current = float(np.var(xs))
        self._min_ss: dict[int, float] = {}
        self._G: dict[tuple[int, float], bool] = {}

    def _charge(self, amount: int) -> None:
        self.work += int(amount)
        if self.work > self.max_work:
            raise ValueError(f"the unbounded variance len needs more than max_work = {self.max_work:,} window "
                             f"evaluations for this t (n = {self.n}); pass a larger max_work=... to wait for it")

    # -- lower ends ---------------------------------------------------------------------------------------
    def min_ss(self, m: int) -> float:
        """The least SS over ``m`` records (a contiguous window with an end at a change of value)."""
        if m <= 1:
            return 0.0
        if m not in self._min_ss:
            n = self.n
            a = np.concatenate((self.breaks, self.breaks - m))
            a = np.unique(a[(a >= 0) & (a <= n - m)])
            self._charge(a.size)
            S = self.X1[a + m] - self.X1[a]
            Q = self.X2[a + m] - self.X2[a]
            self._min_ss[m] = float(max(np.min(Q - S * S / m), 0.0))
        return self._min_ss[m]

    def lower_end(self, r: int, s: int) -> float:
        """``L(r, s) = minSS(n − r) / (n − r + s)``."""
        return self.min_ss(self.n - r) / (self.n - r + s)

    # -- upper ends ---------------------------------------------------------------------------------------
    def upper_ends(self, r: ArrayLike, s: ArrayLike) -> np.ndarray:
        """``H(r, s)`` for arrays of pairs (``0 <= r <= n``, ``s >= 1``): window searches per relevant ``j``."""
        n, h, y, X1, X2 = self.n, self.h, self.y, self.X1, self.X2
        r = np.asarray(r, dtype=np.int64).ravel()
        s = np.asarray(s, dtype=np.int64).ravel()
        S_all = X1[n]
        s_max = S_all - X1[r]                            # kept sum with the r smallest removed
        s_min = X1[n - r]                                # ... with the r largest removed

        def nearest_j(S, ss):
            # the j in {-ss, -ss+2, ..., ss} nearest -S/h (h > 0: length() returns before when h = 0)
            i = np.rint((-S / h + ss) / 2)
            return 2 * np.clip(i, 0, ss).astype(np.int64) - ss

        j_hi = nearest_j(s_min, s)                       # j is non-increasing in S
        j_lo = nearest_j(s_max, s)
        count = (j_hi - j_lo) // 2 + 1
        pair = np.repeat(np.arange(r.size), count)
        offset = np.arange(pair.size) - np.repeat(np.cumsum(count) - count, count)
        R, Ss = r[pair], s[pair]
        J = j_lo[pair] + 2 * offset
        N = (n - R + Ss).astype(float)
        steps = max(1, int(math.ceil(math.log2(n + 1))) + 1)
        self._charge(pair.size * steps)
        c_shift = J * h                                  # objective uses S_K + j h

        def kept_sum(a):
            return S_all - (X1[a + R] - X1[a])

        lo = np.zeros(pair.size, dtype=np.int64)
        hi = n - R                                       # first a in [0, n-r) with T(a) > 0, default n - r
        while np.any(lo < hi):
            mid = (lo + hi) // 2
            active = lo < hi
            m_safe = np.where(active, mid, 0)
            top = np.minimum(m_safe + R, n - 1)
            T = y[np.minimum(m_safe, n - 1)] * (1 - 1 / N) + y[top] * (1 + 1 / N) \
                - 2 * (kept_sum(m_safe) + c_shift) / N
            go_left = active & (T > 0)
            go_right = active & ~(T > 0)
            hi = np.where(go_left, mid, hi)
            lo = np.where(go_right, mid + 1, lo)
        best = np.full(pair.size, -np.inf)
        for d in (-1, 0, 1):                             # guard against rounding in T
            a = np.clip(lo + d, 0, n - R)
            S_K = kept_sum(a)
            Q_K = X2[n] - (X2[a + R] - X2[a])
            val = (Q_K + Ss * h * h - (S_K + c_shift) ** 2 / N) / N
            best = np.maximum(best, val)
        out = np.full(r.size, -np.inf)
        np.maximum.at(out, pair, best)
        return out

    def upper_bounds(self, r: ArrayLike, s: ArrayLike) -> np.ndarray:
        """A cheap bound ``>= H(r, s)``: the largest kept sum of squares, and the kept sum's least distance
        to ``[−s h, s h]`` (every ``S_K + j h`` is at least that far from 0)."""
        n, h, y, X1, X2 = self.n, self.h, self.y, self.X1, self.X2
        r = np.asarray(r, dtype=np.int64)
        s = np.asarray(s, dtype=np.int64)
        # Q_K(a) rises while y[a] + y[a + r] <= 0 and falls after: first a in [0, n - r) with y[a] + y[a+r] > 0
        lo, hi = np.zeros(r.size, dtype=np.int64), n - r
        self._charge(r.size)
        while np.any(lo < hi):
            mid = (lo + hi) // 2
            active = lo < hi
            m_safe = np.where(active, mid, 0)
            up = active & (y[m_safe] + y[np.minimum(m_safe + r, n - 1)] > 0)
            hi = np.where(up, mid, hi)
            lo = np.where(active & ~up, mid + 1, lo)
        q_max = X2[n] - (X2[lo + r] - X2[lo])
        S_min, S_max = X1[n - r], X1[n] - X1[r]
        gap = np.maximum(0.0, np.maximum(S_min - s * h, -s * h - S_max))
        N = (n - r + s).astype(float)
        return (q_max + s * h * h - gap * gap / N) / N

    def reaches(self, k: int, z: float) -> bool:
        """Whether ``max_{r + s = k, s >= 1, r <= n} H(r, s) >= z``; ``r`` in order of :meth:`upper_bounds`,
        skipping those whose bound is below ``z``."""
        if k < 1:
            return False
        if (k, z) not in self._G:
            r = np.arange(0, min(k - 1, self.n) + 1)
            ub = self.upper_bounds(r, k - r)
            keep = ub * (1 + 1e-9) + 1e-12 >= z             # slack: the bound only prunes
            order = r[keep][np.argsort(-ub[keep], kind="stable")]
            found, start, size = False, 0, 8
            while not found and start < order.size:
                batch = order[start:start + size]
                found = bool(np.any(self.upper_ends(batch, k - batch) >= z))
                start, size = start + size, 2 * size
            self._G[(k, z)] = found
        return self._G[(k, z)]

    def M(self, k: int, z: float) -> bool:
        """``max(G(k), G(k − 1)) >= z`` (module docstring, step 4)."""
        return self.reaches(k, z) or self.reaches(k - 1, z)

    # -- len ----------------------------------------------------------------------------------------------
    def length(self, z: float) -> float:
        """``len'(z)`` (``0`` at ``z = var(x)``, ``inf`` outside ``[0, h²]``); ``max_work`` caps each call."""
        n = self.n
        self.work = 0
        if z < 0 or z > self.h * self.h:
            return math.inf
        if z == self.current:
            return 0.0
        if z > self.current:
            return self._length_above(z)
        if z == 0:
            return float(n - self.largest_block + 1)
        # below var(x): the least k with an r whose lower end allows s = k - r, then the upper end tested
        k = self._least_low_cost(z)
        while True:
            rs = self._low_candidates(z, k)
            if rs.size and np.any(self.upper_ends(rs, k - rs) >= z):
                return float(k)
            k += 1

    def _length_above(self, z: float) -> float:
        """``len'(z)`` above ``var(x)``: the least ``k`` with ``M(k) >= z`` (doubling, then bisection)."""
        n = self.n
        k = 1
        while not self.M(k, z):
            if k >= n + 2:                           # unreachable in exact arithmetic: M(n + 2) = h²
                return math.inf
            k = min(2 * k, n + 2)
        lo, hi = k // 2, k                           # M(lo) < z <= M(hi)  (M(0) = -inf)
        if lo >= 1 and self.M(lo, z):
            return float(lo)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self.M(mid, z) else (mid, hi)
        return float(hi)

    # -- below var(x): branch and bound over r ------------------------------------------------------------
    def _cost(self, r: int, z: float) -> int:
        """``r + s_L(r)``: the fewest steps with ``r`` removals whose lower end is at most ``z``."""
        m = self.n - r
        return r + max(1, math.ceil(self.min_ss(m) / z) - m)

    def _interval_bound(self, r1: int, r2: int, z: float) -> int:
        """A lower bound of ``_cost`` on ``[r1, r2]``: ``minSS(n − r)`` falls as ``r`` grows, so
        ``r + ⌈minSS(n − r)/z⌉ − (n − r) >= 2 r1 − n + ⌈minSS(n − r2)/z⌉`` (slack for rounding)."""
        return max(r1 + 1, 2 * r1 - self.n + math.ceil(self.min_ss(self.n - r2) / z * (1 - 1e-9) - 1e-9))

    def _least_low_cost(self, z: float) -> int:
        n = self.n
        best = min(self._cost(0, z), n + 1)             # r = n: keep nothing, add one value
        stack = [(0, n)]
        while stack:
            r1, r2 = stack.pop()
            r2 = min(r2, best - 1)                       # cost(r) > r
            if r1 > r2 or self._interval_bound(r1, r2, z) >= best:
                continue
            if r2 - r1 <= 2:
                best = min([best] + [self._cost(r, z) for r in range(r1, r2 + 1)])
                continue
            mid = (r1 + r2) // 2
            stack += [(mid + 1, r2), (r1, mid)]          # the lower half first
        return best

    def _low_candidates(self, z: float, k: int) -> np.ndarray:
        """Every ``r <= min(k − 1, n)`` with ``r + s_L(r) <= k``."""
        found = []
        stack = [(0, min(k - 1, self.n))]
        while stack:
            r1, r2 = stack.pop()
            if r1 > r2 or self._interval_bound(r1, r2, z) > k:
                continue
            if r2 - r1 <= 2:
                found += [r for r in range(r1, r2 + 1) if self._cost(r, z) <= k]
                continue
            mid = (r1 + r2) // 2
            stack += [(mid + 1, r2), (r1, mid)]
        return np.array(sorted(found), dtype=np.int64)
