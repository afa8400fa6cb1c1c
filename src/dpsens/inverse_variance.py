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
   Its lower end is ``SS_K / N`` (every added value at ``mean_K``, from
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
   records form a contiguous window (a kept ``x_(j)`` between removed
   ``x_(i)``, ``x_(k)`` can be swapped with the extreme one of them without
   lowering the convex ``N var``; each swap shrinks the span of ``R``).  For
   fixed ``(r, s, j)`` let ``g(a)`` be the objective with ``x_(a+1..a+r)``
   removed; ``g(a+1) − g(a) = −Δ T(a)`` with ``Δ = x_(a+r+1) − x_(a+1) >= 0``
   and ``T(a) = x_(a+1)(1 − 1/N) + x_(a+r+1)(1 + 1/N) − 2 (S_K(a) + j h)/N``
   non-decreasing in ``a``, so ``g`` rises then falls: a binary search finds
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
   max(1, ⌈minSS(n − r)/z − (n − r)⌉)``, so ``k_L = min_r r + s_L(r)`` (the
   scan over ``r`` stops once ``r >= k_L``).  Then ``k = k_L, k_L + 1, ...``
   is tested for an ``r`` with ``s = k − r >= s_L(r)`` and
   ``H(r, s) >= z``; it ends by ``k = 2 max(1, r_0)``, ``r_0`` the least
   ``r >= 1`` with ``L(r, r) <= z``, since ``x ∈ D(r, r)`` gives
   ``H(r, r) >= var(x) > z``.  ``z = 0`` is reached exactly by keeping one
   block of equal records and adding a copy: ``n − (largest block) + 1``.

Cost: ``H(r, s)`` is ``O((min(r, s) + 2) log n)``, so ``G(k)`` is
``O(k² log n)`` and the search above ``var(x)`` ``O(len² log n log len)``;
below ``var(x)`` ``O(len · d)`` for ``d`` distinct values plus the ``H``
tests.  ``max_work`` caps the number of window searches and window sums
(``ValueError`` beyond it).
"""
from __future__ import annotations

import math

import numpy as np

from ._validate import as_int

__all__ = ["UnboundedVarianceReach", "DEFAULT_MAX_WORK"]

#: default cap on window searches plus window sums for one call (a few seconds of work)
DEFAULT_MAX_WORK = 30_000_000


class UnboundedVarianceReach:
    """``L(r, s)``, ``H(r, s)`` and ``len'(z)`` for sorted data ``xs`` in ``[lower, upper]`` (module docstring).

    Chapter: *The exponential mechanism and inverse sensitivity*.
    """

    def __init__(self, xs, lower: float, upper: float, max_work: int = DEFAULT_MAX_WORK):
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
        self._G: dict[int, float] = {0: -math.inf}

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
    def upper_ends(self, r, s) -> np.ndarray:
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

    def G(self, k: int) -> float:
        """``max_{r + s = k, s >= 1, r <= n} H(r, s)``."""
        if k not in self._G:
            r = np.arange(0, min(k - 1, self.n) + 1)
            self._G[k] = float(np.max(self.upper_ends(r, k - r)))
        return self._G[k]

    def M(self, k: int) -> float:
        return max(self.G(k), self.G(k - 1))

    # -- len ----------------------------------------------------------------------------------------------
    def length(self, z: float) -> float:
        """``len'(z)`` (``0`` at ``z = var(x)``, ``inf`` outside ``[0, h²]``)."""
        n = self.n
        if z < 0 or z > self.h * self.h:
            return math.inf
        if z == self.current:
            return 0.0
        if z > self.current:
            k = 1
            while self.M(k) < z:
                if k >= n + 2:                           # unreachable in exact arithmetic: M(n + 2) = h²
                    return math.inf
                k = min(2 * k, n + 2)
            lo, hi = k // 2, k                           # M(lo) < z <= M(hi)  (M(0) = -inf)
            if lo >= 1 and self.M(lo) >= z:
                return float(lo)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if self.M(mid) >= z else (mid, hi)
            return float(hi)
        if z == 0:
            return float(n - self.largest_block + 1)
        # below var(x): the least s per r from the lower end, then the upper end tested
        s_low: list[float] = []
        k_low = math.inf
        r = 0
        while r <= n and r < k_low:
            m = n - r
            need = max(1.0, math.ceil(self.min_ss(m) / z - m))
            s_low.append(need)
            k_low = min(k_low, r + need)
            r += 1
        k = int(k_low)
        while True:
            while len(s_low) <= min(k - 1, n):           # extend the table of s_L(r)
                m = n - len(s_low)
                s_low.append(max(1.0, math.ceil(self.min_ss(m) / z - m)))
            rs = np.array([r for r in range(0, min(k - 1, n) + 1) if s_low[r] <= k - r], dtype=np.int64)
            if rs.size and np.any(self.upper_ends(rs, k - rs) >= z):
                return float(k)
            k += 1
