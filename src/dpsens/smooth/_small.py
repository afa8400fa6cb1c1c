"""The dense pass: the smooth sensitivity of the median and the percentiles over the short pairs at once.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The pairs and
their costs are those of :mod:`dpsens.smooth._engines` ("Order statistics and interpolated percentiles,
bounded" and "Other percentiles, unbounded"); this module only changes how the maximum over them is found.

Up to a few thousand records a call of the general engines costs a few hundred numpy calls (a divide and
conquer per pair problem, one problem per window, class and family), i.e. milliseconds.  Here every pair of
cost ``<= K`` of every problem is written out at once and scored with a table of ``e^{-beta t}``: a few
dozen numpy calls on arrays of a few thousand entries.  The result is exact:

* every pair listed is a real candidate, so the maximum found is a lower bound ``S_K <= S``; every left with
  a pair of cost ``<= K`` is listed with its cheapest pair, which gives a floor ``f``;
* pairs are dropped only when they cannot beat ``f``: a right whose value is not above its predecessor's
  (same left, cheaper), and the rights of a left beyond the cost at which ``e^{-beta cost} (max R - L)``
  falls to ``f``;
* a bound ``W(t) >= A(t)`` shows that no ``t > K`` has ``e^{-beta t} A(t) > f``, or names the largest ``t``
  that might (then one more pass with that ``K``): a pair of cost ``t`` spans at most ``t + 2`` padded
  indices (bounded: ``r = l + t + 1``; unbounded: ``b - p <= t + 2`` and ``2 (b - p) <= t + n + 3 - p/q``,
  see ``W`` there) and is worth at most the spread of the data over them.  With records added or removed,
  the pairs whose right is the padding ``upper`` are scored separately, every one of cost
  ``<= ln(sup/best)/beta`` (:func:`_top_pairs`), so ``W`` bounds only the pairs inside the data and bounds
  wider than the data do not widen the reach.

Above ``SMALL_N`` records (where a call of the general engines costs milliseconds) the reach may grow to
``LARGE_REACH``; when the cheapest pairs give no useful floor (tied data, whose pairs within the first reach
lie inside runs) every pair within reach is scored and the reach doubles; beyond the limit only the cheap
bound ``U`` is evaluated.  Nothing here costs ``O(n)`` except padding the data, so the pass serves every size.

The index tables depend on the size (and the percentile and reach) only, not on the data: they are cached,
so repeated calls at one size (a simulation, an explorer) build them once.  The functions return ``None``
(the caller then uses the general engines) when ``e^{-beta t}`` could underflow within the distances
needed, when nothing positive lies within reach (tied data far from any change of value), or when the pass
would list too many pairs.
"""
from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from ._candidates import Data, first_positive, log_ratio, percentile_windows, quantile_position

__all__ = ["SMALL_N", "SMALL_PAIRS", "SMALL_REACH", "LARGE_REACH", "quantile_bounded_small",
           "percentile_unbounded_small", "clear_tables"]

#: Up to this many records the dense pass is tried first, and where it declines the full engine is used
#: directly (the reach search of :mod:`dpsens.smooth._engines` costs more than it saves).
SMALL_N = 2048

#: At most this many pairs are listed in one pass, and the reach is at most ``SMALL_REACH`` (beyond, the
#: divide and conquer of the general engines is faster) or, above ``SMALL_N`` records, ``LARGE_REACH``
#: (there a call of the general engines costs several milliseconds, and the dense pass lists few pairs on
#: tied data, whose reach is long: only the ascents of the rights are scored).
SMALL_PAIRS = 50_000
SMALL_REACH = 256
LARGE_REACH = 1024

#: ``e^{-beta t}`` is a normal float (no underflow, full precision) for ``beta t`` up to this.
_EXP_SAFE = 700.0

#: The first reach tried beyond the first distance at which the spread of the data is positive.
_FIRST_REACH = 64


def _needed(W, U, beta, best, reach, t_max, sup, limit):
    """A ``t >= reach`` beyond which no ``t`` has ``e^{-beta t} min(W(t), sup) > best`` (``reach`` if none),
    or some ``t > limit`` when that cannot be shown cheaply (the caller then declines).

    ``W`` is non-decreasing, so on a cell ``(a, b]`` of a grid ``e^{-beta (a + 1)} W(b)`` bounds every
    ``e^{-beta t} W(t)``; the answer is the right end of the last cell whose bound exceeds ``best``.  The
    grid steps by a multiple of 8 (at most 24 cells), so that its windows are reused between calls.
    Above ``SMALL_N`` records only the cheap bound ``U >= W`` is used beyond ``limit`` (``W`` there costs
    ``O(t)`` per distance).
    """
    t_hi = min(t_max, int(math.ceil(log_ratio(sup, best) / beta)) + 1)
    if t_hi <= reach:
        return reach
    if t_hi > limit and t_max > SMALL_N + 1:
        grid = np.append(np.arange(limit, t_hi, max(8, (t_hi - limit) // 512)), t_hi)
        with np.errstate(under="ignore"):
            far = np.exp(-beta * (grid[:-1] + 1)) * np.minimum(U(grid[1:]), sup) > best
        if far.any():
            return t_hi
        t_hi = limit
        if t_hi <= reach:
            return reach
    step = 8 * -(-(t_hi - reach) // 192)
    grid = np.minimum(np.arange(reach, t_hi + step, step), t_max)
    with np.errstate(under="ignore"):
        over = np.nonzero(np.exp(-beta * (grid[:-1] + 1)) * np.minimum(W(grid[1:]), sup) > best)[0]
    return int(grid[over[-1] + 1]) if over.size else reach


@functools.lru_cache(maxsize=16)
def _window_index(n, c, P, grid):
    """Index pairs ``(s + width, s)`` into the padded data (offset 2) of every window that bounds ``A(t)``
    for ``t`` in ``grid``: the bounded windows (``P = 0``, ``c = i``) or those of the percentile ``P``
    with records added or removed (``c`` its rank); see ``W`` in the two engines.  Read-only, one row per
    ``t``; a row's unused entries repeat ``s`` (an empty window, worth 0)."""
    t = np.array(grid, dtype=np.int64)[:, None]
    if P == 0:
        lo, hi = c - t - 2, c + 1 + 0 * t
    else:
        q = P / 100.0
        lo, hi = np.floor(q * (n - 100 // math.gcd(P, 100) - 1 - t)).astype(np.int64) - 4, c + 2 * t + 6
    s = lo + np.arange(int((hi - lo).max()) + 1)[None, :]
    width = t + 2 if P == 0 else np.minimum(t + 2, np.floor((t + n + 4 - s / q) / 2).astype(np.int64))
    il = np.clip(s, -2, n + 1) + 2
    ih = np.where(s <= hi, np.clip(s + width, -2, n + 1) + 2, il)
    for v in (ih, il):
        v.setflags(write=False)
    return ih, il


class _Best:
    """The best candidate of :func:`_search` so far: its smooth value ``w``, value ``v`` and cost ``c``
    (``v`` is ``None`` while it is ``single``, the candidate outside the pairs)."""

    def __init__(self, single: tuple[float, int]) -> None:
        self.single = single
        self.v: float | None = None
        self.w, self.c = single[0], single[1]

    def offer(self, w: float, v: float, c: int) -> None:
        if w > self.w:
            self.w, self.v, self.c = w, v, c

    def result(self, beta: float) -> tuple[float, int]:
        return self.single if self.v is None else (self.v * math.exp(-beta * self.c), self.c)


class _Pass(NamedTuple):
    """The pair problems of one reach ``K`` (see :func:`_search`), with the cost ``c0`` of every left's
    cheapest pair and the table ``E`` of ``e^{-beta t}``, ``t <= K``."""

    Rt: np.ndarray
    base: np.ndarray
    L: np.ndarray
    lam: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    c0: np.ndarray
    E: np.ndarray


def _floor_pass(lefts, K, beta, slope, limit, best, t_max):
    """The pair problems of reach ``K``, their cheapest pairs offered to ``best`` (real candidates, the
    floor for the rest); ``None`` to decline (``e^{-beta K}`` could underflow, ``K`` beyond the limit, or
    nothing positive within reach at a small size)."""
    if beta * K > _EXP_SAFE or K > limit:
        return None
    got = lefts(K)
    if got is None:
        return None
    Rt, b0, row, L, lam, lo, hi = got
    base = row * Rt.shape[1] - b0
    E = np.exp(-beta * np.arange(K + 1))
    v0 = Rt.reshape(-1)[base + lo] - L
    c0 = slope * lo + lam
    w0 = v0 * E[c0]
    i0 = int(np.argmax(w0))
    best.offer(float(w0[i0]), float(v0[i0]), int(c0[i0]))
    if best.w <= 0 and t_max <= SMALL_N + 1:
        return None
    return _Pass(Rt, base, L, lam, lo, hi, c0, E)


def _weak_floor(pas, U, W, beta, t_max, sup, slope, K, limit, best):
    """Above ``SMALL_N`` records, when the bound points beyond the limit: every pair of cost ``<= K`` is
    offered for a better floor (on tied data the cheapest pairs lie inside runs).  Returns the distance the
    bound then names, or ``None`` to decline: too many pairs, or a floor far below the bound beyond the limit
    that is merely too low (small beta; left to the general engines), not nil (pairs inside runs)."""
    got = _score(*pas, beta, slope, K, max(best.w, 0.0))
    if got is None:
        return None
    best.offer(*got)
    need = _needed(W, U, beta, best.w, K, t_max, sup, limit) if best.w > 0 else t_max
    if need > limit:
        with np.errstate(under="ignore"):
            far = math.exp(-beta * (limit + 1)) * min(float(U(np.array([limit + 1]))[0]), sup)
        if best.w > 1e-6 * far:
            return None
    return need


def _search(lefts, U, W, beta, t_max, sup, slope, single=(0.0, 0)):
    """``(S, t*)``, or ``None`` to leave it to the general engines.

    ``lefts(K)`` gives the pair problems of reach ``K``: a table ``Rt`` of the rights' values (one row
    per problem, rights ``b0, b0 + 1, ...``) and, for every left that has a pair of cost ``<= K``, its row,
    value ``L``, ``lam`` and first and last right ``lo <= hi`` (a pair costs ``slope * b + lam``; ``hi``
    is the last right of cost ``<= K``).  The cheapest pair of each left gives a floor; the reach is
    raised (once) to the largest distance that ``W`` says could beat it; then every pair that could is
    scored once.  Above ``SMALL_N`` records, when the bound points beyond the limit, every pair of cost
    ``<= K`` is scored for a better floor, and while that floor is nil (tied data) the reach doubles.
    ``single`` is a candidate outside the pairs (value, cost), ``sup > 0`` a bound on every ``A(t)``
    (the callers answer ``sup = 0`` themselves).  ``U`` and ``W`` are upper bounds on
    ``A(t)``, both non-decreasing: ``U`` cheap (the spread of the indices within reach, used to skip the
    distances where every pair is 0), ``W`` tight (the widest spread of a window of the indices a pair
    of cost ``t`` spans, used to bound the reach).
    """
    t0 = first_positive(U, t_max)                       # below t0 every pair is worth 0 (U = 0)
    K = min(t_max, -(-(t0 + _FIRST_REACH) // 16) * 16)
    limit = SMALL_REACH if t_max <= SMALL_N + 1 else LARGE_REACH
    best = _Best(single)
    final = False
    while True:
        pas = _floor_pass(lefts, K, beta, slope, limit, best, t_max)
        if pas is None:
            return None
        if final:
            break                            # the floor can only have grown: K is still enough
        need = _needed(W, U, beta, best.w, K, t_max, sup, limit) if best.w > 0 else t_max
        if need <= K:
            break
        if need > limit and t_max > SMALL_N + 1:
            need = _weak_floor(pas, U, W, beta, t_max, sup, slope, K, limit, best)
            if need is None:
                return None
            if need <= K:
                return best.result(beta)     # every pair of cost <= K that could beat the floor is scored
            if need > limit:
                K = min(t_max, 2 * K)        # no floor yet: the reach doubles
                continue
        K = min(t_max, -(-need // 16) * 16)     # a multiple of 16: the tables of a size are reused
        final = True
    return _finish(pas, beta, slope, K, best)


def _finish(pas, beta, slope, K, best):
    """``(S, t*)`` once every pair that could beat ``best`` has cost ``<= K``: they are scored (``None`` if
    too many)."""
    got = _score(*pas, beta, slope, K, best.w)
    if got is None:
        return None
    best.offer(*got)
    return best.result(beta)


def _score(Rt, base, L, lam, lo, hi, c0, E, beta, slope, K, best):
    """``(w, value, cost)`` of the best pair of :func:`_search`'s problems that beats ``best`` (``(best, None,
    None)`` if none; ``None`` if too many pairs could).  A right ``b`` beats ``best`` only if
    ``e^{-beta (slope b + lam)} (max of R up to b - L) > best``; a right whose value is not above its
    predecessor's is beaten by it (same left, cheaper): only ascents are scored."""
    Rflat = Rt.reshape(-1)
    cummax = np.maximum.accumulate(Rt, axis=1).reshape(-1)
    top = cummax[base + hi] - L
    keep = np.flatnonzero(top * E[np.minimum(c0 + slope, K)] > best)    # the next right costs c0 + slope
    base, L, lam, lo, hi, top = base[keep], L[keep], lam[keep], lo[keep], hi[keep], top[keep]
    if best > 0:
        cut = np.floor((np.log(top / best) / beta - lam) / slope) + 1
        hi = np.minimum(hi, np.maximum(cut, lo)).astype(np.int64)
    asc = np.ones(Rt.shape, dtype=bool)
    asc[:, 1:] = Rt[:, 1:] > Rt[:, :-1]
    F = np.flatnonzero(asc)
    s = np.searchsorted(F, base + lo + 1)
    cnt = np.searchsorted(F, base + hi, side="right") - s
    use = np.nonzero(cnt > 0)[0]
    if not use.size:
        return best, None, None
    cnt = cnt[use]
    total = int(cnt.sum())
    if total > SMALL_PAIRS:
        return None
    who = np.repeat(use, cnt)
    flat = F[np.arange(total) + np.repeat(s[use] - (np.cumsum(cnt) - cnt), cnt)]
    v = Rflat[flat] - L[who]
    cost = slope * (flat - base[who]) + lam[who]
    w = v * E[cost]
    i1 = int(np.argmax(w))
    if w[i1] > best:
        return float(w[i1]), float(v[i1]), int(cost[i1])
    return best, None, None


# ---------------------------------------------------------------------------------------------- bounded

def quantile_bounded_small(data: Data, beta: float) -> tuple[float, int] | None:
    """``(S, t*)`` of the median or a percentile, one record replaced, or ``None`` (see the module docstring).

    The pair problems of :class:`dpsens.smooth._quantile.QuantileBounded`: for each window start ``j`` in
    ``{i - 1, i}`` the lefts ``l <= j`` and rights ``r > j`` (and, when ``gamma > 0``, the lefts
    ``a <= j + 1`` and rights ``q > j + 1``), cost ``r - l - 1``.
    """
    xs, lower, upper = data.xs, data.lower, data.upper
    n = len(xs)
    i, g = quantile_position(data.query, n)
    alpha, gamma = 1.0 - g, g
    X = np.concatenate(([lower, lower], xs, [upper, upper]))        # X[k + 2] = padded X_k, k in [-2, n + 1]
    firsts, fam = [], []
    for j in sorted({i - 1, i}):
        if -1 <= j <= n - 1:
            firsts.append(j + 1)
            fam.append(False)
            if gamma > 0 and j + 2 <= n:
                firsts.append(j + 2)
                fam.append(True)
    first = np.array(firsts, dtype=np.int64)[:, None]           # each problem's first right
    f = np.array(fam, dtype=bool)[:, None]

    def U(t):
        t = np.asarray(t, dtype=np.int64)
        return X[np.minimum(i + t + 3, n + 1) + 2] - X[np.maximum(i - t - 3, -2) + 2]

    def W(t):
        # a pair (l, r) of cost t has r = l + t + 1 and a value at most X_{r+1} - X_l (first family) or
        # X_r - X_{l-1} (second), with l in [i - 1 - t, i + 1]
        ih, il = _window_index(n, i, 0, tuple(t.tolist()))
        return np.max(X[ih] - X[il], axis=1)

    def lefts(K):
        left = first - 1 - K + np.arange(K + 1)[None, :]        # the lefts with a pair of cost <= K
        row, col = np.nonzero(left >= -1)
        left = left[row, col]
        fl = f[row, 0]
        Xl, Xl1 = X[left + 2], X[left + 1]
        # the values exactly as the general engine writes them (a pair inside a run of ties is exactly 0)
        L = np.where(fl, gamma * Xl - alpha * (Xl - Xl1), alpha * Xl)
        b0, b1 = int(first.min()), min(n, int(first.max()) + K)
        b = np.arange(b0, b1 + 1)[None, :]
        Xb, Xb1 = X[b + 2], X[b + 3]
        Rt = np.where(f, gamma * Xb, alpha * Xb + gamma * (Xb1 - Xb))
        return Rt, b0, row, L, -left - 1, first[row, 0], np.minimum(n, K + left + 1)

    sup = float(upper - lower)
    if sup <= 0:
        return 0.0, 0
    return _search(lefts, U, W, beta, n, sup, 1)


# ---------------------------------------------------------------------------------------------- unbounded

def _left_values(X, p, alpha, gamma, second):
    """The lefts' values of the unbounded percentile's pairs (``second``: family 2, whose window starts at
    ``p + 1``), as :class:`dpsens.smooth._unbounded.PercentileUnbounded` writes them; ``X`` padded, offset 2."""
    Xp, Xp1 = X[p + 2], X[p + 3]
    return np.where(second, gamma * Xp1 - alpha * (Xp1 - Xp), alpha * Xp)


def _right_values(X, b, alpha, gamma, family):
    """The rights' values of the unbounded percentile's pairs (family 0, 1 or 2; see :func:`_rows`)."""
    Xb, Xb1 = X[b + 2], X[b + 1]
    return np.where(family == 1, alpha * Xb1 + gamma * (Xb - Xb1), np.where(family == 2, gamma, alpha) * Xb)


@functools.lru_cache(maxsize=None)
def _rows(P):
    """The (window, class, family) problems of the percentile ``P > 50`` as columns of arrays.

    Each row: window size ``k``, weights ``alpha``, ``gamma``, smallest size ``m0`` of the class and the
    window's rank ``rho0`` there, family (0: ``k = 2``; 1: ``k = 3``, ``c = b - 1``; 2: ``k = 3``,
    ``c = p + 1``) and the largest right minus ``n`` (``b = n + 1`` for family 1: both top elements at
    ``upper``).  As in :class:`dpsens.smooth._unbounded.PercentileUnbounded`.
    """
    gcd = math.gcd(P, 100)
    T = 100 // gcd
    rows = []
    for r in range(T):
        m0 = r if r >= 2 else r + T
        i0, g100 = divmod(P * (m0 - 1), 100)
        for k, off, al, ga in percentile_windows(P, g100):
            for fam, bplus in (((0, 0),) if k == 2 else ((1, 1), (2, 0))):
                rows.append((k, al / 100.0, ga / 100.0, m0, i0 + off, fam, bplus))
    cols = list(zip(*rows, strict=True))
    ints = [np.array(cols[j], dtype=np.int64)[:, None] for j in (0, 3, 4, 5, 6)]
    k, m0, rho0, fam, bplus = ints
    return T, P // gcd, k, np.array(cols[1])[:, None], np.array(cols[2])[:, None], m0, rho0, fam, bplus


@functools.lru_cache(maxsize=32)
def _left_table(P, n, K):
    """The lefts of :func:`percentile_unbounded_small` with a pair of cost ``<= K``, as read-only arrays
    ``(row, p, lam, lo, hi, alpha, gamma, family == 2)``: they depend on ``(P, n, K)`` only, not on the
    data, so repeated calls at one size (a simulation, an explorer) build them once."""
    T, Q, k, al, ga, m0, rho0, fam, bplus = _rows(P)
    q = P / 100.0
    # A left p of a dataset of size m has rank rho(m) >= p, q (m - 1) - 2 <= rho(m) <= q (m - 1), and m - T has
    # rank < p (or m <= T + 1); its cheapest pair costs at least m - n (lo >= p + k - 1) and at least n - m
    # (lo >= n - 1 - sigma), so q (n - T - 1 - K) - 2 < p <= q (n - 1 + K)   (with a margin for rounding)
    p = np.arange(max(-2, int(q * (n - T - 1 - K)) - 4), min(n, int(q * (n - 1 + K)) + 3))[None, :]
    j = np.maximum(0, -((rho0 - p) // Q))
    lam = m0 + T * j - n + 2 - 2 * k - 2 * p
    lo = np.maximum(n - 1 - (m0 - rho0 - k + (T - Q) * j), p + k - 1)
    hi = np.minimum(n - 1, (K - lam) // 2)           # rights inside the data (see _top_pairs)
    ok = (lo <= hi) & (p >= np.where(fam == 2, -2, -1)) & (p <= np.where(fam == 2, n - 2, n - 1))
    idx = np.flatnonzero(ok)
    row, col = np.divmod(idx, ok.shape[1])
    out = (row, p[0].take(col), lam.take(idx), lo.take(idx), hi.take(idx), al[:, 0].take(row),
           ga[:, 0].take(row), fam[:, 0].take(row) == 2)
    for v in out:
        v.setflags(write=False)
    return out


@functools.lru_cache(maxsize=32)
def _top_pairs(P, n, cap):
    """The pairs of :func:`percentile_unbounded_small` whose right is a padding ``upper`` (``b = n``, and
    ``b = n + 1`` in family 1) and whose cost is at most ``min(cap, n + 1)``, sorted by cost, as read-only
    arrays ``(cost, b, p, alpha, gamma, family)``; they depend on ``(P, n, cap)`` only.

    Such a pair costs ``2 b + m - n + 2 - 2 k - 2 p >= n - 3 - (2 - 1/q) p`` (``m >= p/q + 1``), so its left
    ``p`` is at least ``(n - 3 - cap) / (2 - 1/q)``."""
    T, Q, k, al, ga, m0, rho0, fam, bplus = _rows(P)
    q = P / 100.0
    p = np.arange(max(-2, math.floor((n - 3 - cap) / (2 - 1 / q)) - 2), n)[None, :]
    j = np.maximum(0, -((rho0 - p) // Q))
    lam = m0 + T * j - n + 2 - 2 * k - 2 * p
    lo = np.maximum(n - 1 - (m0 - rho0 - k + (T - Q) * j), p + k - 1)
    fam_ok = (p >= np.where(fam == 2, -2, -1)) & (p <= np.where(fam == 2, n - 2, n - 1))
    parts = []
    for b, allowed in ((n, fam >= 0), (n + 1, bplus == 1)):
        cost = 2 * b + lam
        row, col = np.nonzero(fam_ok & allowed & (lo <= b) & (cost <= min(cap, n + 1)))
        parts.append((cost[row, col], np.full(row.size, b), p[0, col], row))
    cost, b, pp, row = (np.concatenate(v) for v in zip(*parts, strict=True))
    order = np.argsort(cost, kind="stable")
    row = row[order]
    out = (cost[order], b[order], pp[order], al[:, 0][row], ga[:, 0][row], fam[:, 0][row])
    for v in out:
        v.setflags(write=False)
    return out


def percentile_unbounded_small(data: Data, beta: float) -> tuple[float, int] | None:
    """``(S, t*)`` of ``percentile_p`` (p != 50), one record added or removed, or ``None``.

    The candidates of :class:`dpsens.smooth._unbounded.PercentileUnbounded`: for each (window, class,
    family) and left ``p`` the rights ``b`` in ``[lo(p), bmax]`` at cost ``2 b + lam(p)``, plus the three
    one-record datasets.  A pass with reach ``K`` lists the lefts within ``2 K + 6`` of the percentile's
    rank (no cheaper pair lies further out), their cheapest pairs, and then every right of cost ``<= K``
    that could beat the best of those.
    """
    P, X, lower, upper = data.mirrored
    n = len(data.xs)
    T, Q, k, al, ga, m0, rho0, fam, bplus = _rows(P)
    q = P / 100.0
    sup = q * (upper - lower)
    c = (P * (n - 1)) // 100
    single_cost = np.array([n - 1, n - 1, n + 1])
    single_value = np.array([q * (upper - X[2]), (1 - q) * (X[n + 1] - lower), q * (upper - lower)])
    with np.errstate(under="ignore"):
        ws = np.exp(-beta * single_cost.astype(float)) * single_value
    ks = int(np.argmax(ws))
    single = (float(ws[ks]), int(single_cost[ks]))

    def U(t):
        t = np.asarray(t, dtype=np.int64)
        return X[np.minimum(c + 2 * t + 5, n + 1) + 2] - X[np.maximum(c - 2 * t - 5, -2) + 2]

    def W(t):
        # a pair (p, b) of cost t: t = 2 (b - p) + (m - n) + 2 - 2 k with m - n >= p + k - 1 - b (b >= n - 1
        # - sigma(m), rank >= p), so b - p <= t + 2, and with m >= p/q + 1 (q (m - 1) >= rank >= p), so
        # 2 (b - p) <= t + n + 3 - p/q; its value is at most X_b - X_p (weights in [0, 1]); p lies in
        # (q (n - T - 1 - t) - 2, c + 2 t + 2]; the one-record datasets (t >= n - 1) are below upper - lower
        ih, il = _window_index(n, c, P, tuple(t.tolist()))
        return np.max(X[np.minimum(ih, n + 1)] - X[np.minimum(il, n + 1)], axis=1)     # rights <= n - 1

    def lefts(K):
        row, pp, lam, lo, hi, a, g, f2 = _left_table(P, n, K)
        if not row.size:
            return None
        L = _left_values(X, pp, a, g, f2)
        b0, b1 = int(lo.min()), int(hi.max())
        Rt = _right_values(X, np.arange(b0, b1 + 1)[None, :], al, ga, fam)
        return Rt, b0, row, L, lam, lo, hi

    if sup <= 0:
        return 0.0, 0
    got = _search(lefts, U, W, beta, n + 1, sup, 2, single)
    if got is None:
        return None
    # the pairs with a right at `upper`, every one that could beat the rest: cost <= ln(sup / best)/beta
    best = got[0]
    t_hi = min(n + 1, int(math.ceil(log_ratio(sup, best) / beta)) + 1)
    cost, b, pp, a, g, f = _top_pairs(P, n, -(-t_hi // 64) * 64)     # a multiple of 64: reused
    e = int(np.searchsorted(cost, t_hi, side="right"))
    if e:
        cost, b, pp, a, g, f = cost[:e], b[:e], pp[:e], a[:e], g[:e], f[:e]
        v = _right_values(X, b, a, g, f) - _left_values(X, pp, a, g, f == 2)
        with np.errstate(under="ignore"):
            w = v * np.exp(-beta * cost)
        i = int(np.argmax(w))
        if w[i] > best:
            return float(v[i]) * math.exp(-beta * int(cost[i])), int(cost[i])
    return got


def clear_tables() -> None:
    """Forget the cached tables (they depend on the size only; the benchmark times a first call with it)."""
    _left_table.cache_clear()
    _top_pairs.cache_clear()
    _window_index.cache_clear()
