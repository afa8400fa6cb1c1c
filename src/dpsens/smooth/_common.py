"""Shared pieces of the smooth-sensitivity engines: candidate lists, the reach search, the pair divide and conquer.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The
derivations are in the docstring of :mod:`dpsens.smooth._engines`.
"""
from __future__ import annotations

import math

import numpy as np

from ..queries import PERCENTILES

__all__ = ["Candidates", "Constant", "quantile_position", "padded", "smooth_by_reach", "log_ratio",
           "PairProblem", "pair_smooth", "pair_smooth_nodes", "PerDistance"]


def log_ratio(a, b):
    """``ln(a / b)`` for ``a, b > 0``, finite also when ``a / b`` overflows (``b`` subnormal, e.g. a smooth
    value ``e^{-beta t} A(t)`` near the underflow): then ``ln a - ln b``."""
    r = a / b
    return math.log(r) if r < math.inf else math.log(a) - math.log(b)


class Candidates:
    """A(t) = max{value_i : cost_i <= t} for a finite list of (cost, value)."""

    def __init__(self, cost, value):
        cost = np.asarray(cost, dtype=np.int64)
        value = np.asarray(value, dtype=float)
        order = np.argsort(cost, kind="stable")
        self.cost = cost[order]
        self.value = value[order]
        self.cummax = np.maximum.accumulate(self.value)
        self.sup = float(self.cummax[-1])
        self.t_sup = int(self.cost[np.argmax(self.cummax >= self.sup)])

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        idx = np.searchsorted(self.cost, t, side="right") - 1
        return np.where(idx >= 0, self.cummax[np.maximum(idx, 0)], 0.0)

    def smooth(self, beta, t_max=None):
        with np.errstate(under="ignore"):
            w = np.exp(-beta * self.cost.astype(float)) * self.value
        k = int(np.argmax(w))
        return float(w[k]), int(self.cost[k])


class Constant:
    """A(0) = a0, A(t) = a1 for t >= 1 (bounded mean/sum/count, unbounded sum/count)."""

    def __init__(self, a0, a1):
        self.a0, self.a1 = float(a0), float(max(a0, a1))
        self.sup = self.a1
        self.t_sup = 0 if self.a0 >= self.a1 else 1

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        return np.where(t >= 1, self.a1, self.a0)

    def smooth(self, beta):
        s1 = math.exp(-beta) * self.a1
        return (self.a0, 0) if self.a0 >= s1 else (s1, 1)


def quantile_position(name, n):
    """(i, g) with numpy's value ``(1-g) y_i + g y_{i+1}`` for the query on n sorted values."""
    if name == "median":
        if n % 2:
            return (n - 1) // 2, 0.0
        return n // 2 - 1, 0.5
    q = PERCENTILES[name] / 100.0
    h = n * q + (1 + q * (1 - 1 - 1)) - 1   # numpy's _compute_virtual_index for method="linear"
    i = int(np.floor(h))
    g = float(h - i)
    if i >= n - 1:
        i, g = n - 1, 0.0
    return i, g


def padded(xs, lower, upper):
    """``X(k)``: the sorted data padded with ``lower`` below index 0 and ``upper`` from index n on."""
    n = len(xs)

    def X(k):
        k = np.asarray(k, dtype=np.int64)
        v = xs.take(k, mode="clip")         # (np.clip is slow on small integer arrays)
        return np.where(k < 0, lower, np.where(k >= n, upper, v))
    return X


def needed_reach(eng, beta, best, reach):
    """Largest ``t > reach`` at which ``e^{-beta t} min(U(t), sup)`` exceeds ``best`` (``reach`` if none).

    Beyond ``ln(sup/best)/beta`` the factor ``e^{-beta t} sup`` alone is at most ``best``, and beyond
    ``t_sup`` A is constant, so only distances up to the smaller of the two are looked at.
    """
    t_hi = eng.t_sup
    if best > 0:
        t_hi = min(t_hi, int(math.ceil(log_ratio(eng.sup, best) / beta)) + 1)
    if t_hi <= reach:
        return reach
    t = np.arange(reach + 1, t_hi + 1)
    with np.errstate(under="ignore"):
        bound = np.exp(-beta * t) * np.minimum(eng.U(t), eng.sup)
    over = np.nonzero(bound > best)[0]
    return int(t[over[-1]]) if over.size else reach


def first_positive(U, t_max):
    """The smallest ``t`` in ``[0, t_max]`` with ``U(t) > 0`` for a non-decreasing ``U`` (``t_max`` if none).

    ``U`` is evaluated on a geometric grid, then on every distance of the bracket found (or by bisection
    when the bracket is long): a few vectorised calls.
    """
    t_max = int(t_max)
    grid = np.unique(np.minimum(np.round(1.5 ** np.arange(0, 2 + int(math.log(t_max + 1) / math.log(1.5)))) - 1,
                                t_max).astype(np.int64))
    pos = np.flatnonzero(U(grid) > 0)
    if not pos.size:
        return t_max
    k = int(pos[0])
    if k == 0:
        return int(grid[0])
    lo, hi = int(grid[k - 1]), int(grid[k])          # U(lo) <= 0 < U(hi)
    while hi - lo > 4096:
        mid = (lo + hi) // 2
        if float(U(np.array([mid]))[0]) > 0:
            hi = mid
        else:
            lo = mid
    t = np.arange(lo + 1, hi + 1)
    return int(t[np.argmax(U(t) > 0)])


#: Up to this many records the dense pass of :mod:`dpsens.smooth._small` is tried first, and where it
#: declines the full engine is used directly (the reach search costs more than it saves).
SMALL_N = 2048


def smooth_by_reach(make, n, beta, reach=64):
    """The smooth sensitivity from engines restricted to the pairs of cost ``<= reach``.

    ``make(reach)`` builds a restricted engine (``make(None)`` the full one) whose ``smooth(beta, t_max)``
    returns the maximum over a set of *real* candidates (so a lower bound on ``S``) that contains every
    candidate of cost ``<= reach``, and whose ``U(t) >= A(t)``.  If no ``t > reach`` can beat it
    (:func:`needed_reach`), it is ``S``: exact.  Otherwise the reach grows to the largest distance that
    could, and beyond an eighth of ``n`` the full engine is used.
    """
    if n <= SMALL_N:
        return make(None).smooth(beta)           # small data: one pass of the full engine is cheapest
    if reach < n // 8:
        # a first reach from a cheap lower bound (A on a few distances), so that one pass usually suffices
        eng = make(reach)
        # on tied data A(t) <= U(t) = 0 up to the distance t0 at which U leaves 0 (the nearest change of
        # value): nothing below t0 counts, so the search starts from there
        t0 = first_positive(eng.U, n + 1)
        if t0 > reach // 2:
            reach = t0 + reach                   # straight to the search below
        else:
            grid = np.unique(np.round(1.3 ** np.arange(0, 1 + int(math.log(reach) / math.log(1.3)))).astype(np.int64))
            with np.errstate(under="ignore"):
                floor = float(np.max(np.exp(-beta * np.concatenate(([0], grid))) * eng.A(np.concatenate(([0], grid)))))
            # with no positive value yet, the bound only says where e^{-beta t} U(t) underflows: double instead
            reach = max(reach, needed_reach(eng, beta, floor, reach)) if floor > 0 else 2 * reach
    while reach < n // 8:
        eng = make(reach)
        best, cost = eng.smooth(beta, t_max=reach)
        if best <= 0:
            # only where e^{-beta t} U(t) underflows is known to be beyond reach: double instead
            t_far = min(eng.t_sup, int(745.2 / beta) + 1)          # e^{-beta t} is 0.0 in floats beyond 745.2/beta
            if t_far <= reach or float(eng.U(np.array([t_far]))[0]) <= 0:
                return best, cost                                   # U non-decreasing: nothing beyond reach
            reach *= 2
            continue
        need = needed_reach(eng, beta, best, reach)
        if need <= reach:
            return best, cost
        reach = max(2 * reach, need)
    return make(None).smooth(beta)


class PairProblem:
    """max over lefts in [lo, hi] and rights in [rlo, rhi] of R(r) - L(l), cost r - l - 1 (r > l always).

    Only the lefts that are strict suffix minima of ``L`` and the rights that are strict prefix maxima of
    ``R`` are kept: a left with a later left of value ``<=`` its own reaches every right more cheaply with a
    value at least as large, and a right with an earlier right of value ``>=`` its own likewise.  Both kept
    lists have strictly increasing values; on tied data they hold about one index per run of values.
    """

    def __init__(self, L, lo, hi, R, rlo, rhi):
        self.lo, self.hi, self.rlo, self.rhi = lo, hi, rlo, rhi
        L = np.asarray(L, dtype=float)           # L[k] is the value at left position lo + k
        R = np.asarray(R, dtype=float)           # R[k] is the value at right position rlo + k
        keep = np.ones(L.size, dtype=bool)
        keep[:-1] = L[:-1] < np.minimum.accumulate(L[::-1])[::-1][1:]
        self.Lpos, self.Lval = lo + np.flatnonzero(keep), L[keep]
        keep = np.ones(R.size, dtype=bool)
        keep[1:] = R[1:] > np.maximum.accumulate(R)[:-1]
        self.Rpos, self.Rval = rlo + np.flatnonzero(keep), R[keep]

    def A(self, t):
        """max over pairs with cost <= t, for an array of t (``-inf`` where no pair is that cheap)."""
        t = np.asarray(t, dtype=np.int64)[:, None]
        use = self.Rpos <= self.hi + t + 1
        # the smallest L at a left >= r - t - 1 (the last left, hi, is always kept)
        start = np.searchsorted(self.Lpos, np.minimum(np.maximum(self.Rpos - t - 1, self.lo), self.hi), side="left")
        return np.max(np.where(use, self.Rval - self.Lval[start], -np.inf), axis=1)

    def pruned(self, beta, floor=0.0):
        """``(Lpos, Lval, Rpos, Rval)`` without the pairs too long to beat ``floor`` (None if no pair can)."""
        Lpos, Lval, Rpos, Rval = self.Lpos, self.Lval, self.Rpos, self.Rval
        if floor > 0:
            span = float(Rval[-1] - Lval[0])
            if span <= floor:
                return None
            K = int(math.ceil(log_ratio(span, floor) / beta)) + 1
            kl, kr = Lpos >= self.rlo - 1 - K, Rpos <= self.hi + 1 + K
            Lpos, Lval, Rpos, Rval = Lpos[kl], Lval[kl], Rpos[kr], Rval[kr]
        return Lpos, Lval, Rpos, Rval

    def smooth(self, beta, floor=0.0):
        """max over all pairs of e^{-beta(r-l-1)} (R - L); pairs longer than needed to beat ``floor`` are skipped."""
        return smooth_of_problems([self], beta, floor)


def smooth_of_problems(problems, beta, floor=0.0):
    """The best pair of several :class:`PairProblem`: ``(e^{-beta cost} (R - L), cost)`` or ``(-inf, 0)``.

    Small problems compare every pair at once; the others share one divide and conquer
    (:func:`pair_smooth_nodes`, one node per problem; the kept lefts are already sorted by value).
    """
    best, best_cost = -np.inf, 0
    big = []
    for pr in problems:
        arrays = pr.pruned(beta, floor)
        if arrays is None or not arrays[0].size or not arrays[2].size:
            continue
        Lpos, Lval, Rpos, Rval = arrays
        if Lval.size * Rval.size > 4096:
            big.append(arrays)
            continue
        diff = Rval - Lval[:, None]                                    # small: every pair at once
        cost = Rpos - Lpos[:, None] - 1
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(diff > 0, np.log(np.where(diff > 0, diff, 1.0)), -np.inf) - beta * cost
        k = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[k] > -np.inf:
            v = float(diff[k]) * math.exp(-beta * int(cost[k]))
            if v > best:
                best, best_cost = v, int(cost[k])
    if big:
        nl = np.array([len(a[0]) for a in big])
        nr = np.array([len(a[2]) for a in big])
        a = np.cumsum(nl) - nl
        c = np.cumsum(nr) - nr
        v, cost = pair_smooth_nodes(np.concatenate([x[1] for x in big]), np.concatenate([x[0] for x in big]),
                                    a, a + nl - 1, np.concatenate([x[3] for x in big]),
                                    np.concatenate([x[2] for x in big]), c, c + nr - 1, beta)
        if v > best:
            best, best_cost = v, cost
    return best, best_cost


def pair_smooth(Lval, Lpos, Rval, Rpos, beta):
    """max_{l, r} e^{-beta (Rpos_r - Lpos_l - 1)} (Rval_r - Lval_l), every right after every left.

    For a fixed left the (largest) best right is non-decreasing in ``Lval``:
    the score of a later right relative to an earlier one grows with ``Lval``
    (Nissim, Raskhodnikova & Smith 2007, Sec. 3.1).  Divide and conquer over
    the lefts sorted by ``Lval``, one vectorised pass per level, works in
    log space so that long distances do not underflow.
    Returns (max value, cost of the maximising pair).
    """
    order = np.argsort(Lval, kind="stable")
    return pair_smooth_nodes(np.asarray(Lval)[order], np.asarray(Lpos)[order], np.array([0]),
                              np.array([len(Lval) - 1]), np.asarray(Rval), np.asarray(Rpos),
                              np.array([0]), np.array([len(Rval) - 1]), beta)


def pair_smooth_nodes(Lv, Lp, a, b, Rval, Rpos, c, d, beta):
    """:func:`pair_smooth` for many independent rectangles at once.

    Node ``k`` pairs the lefts ``Lv[a_k..b_k]`` (sorted by value within the
    node) with the rights ``Rval[c_k..d_k]`` (``Rpos`` non-decreasing within
    the node), every pair allowed; the cost of a pair is
    ``Rpos_r - Lpos_l - 1``.  The argument of :func:`pair_smooth` only uses
    that the cost of a pair is a cost of the left plus a non-decreasing cost
    of the right, so it holds in every node.  Returns (max value, its cost).
    """
    a, b, c, d = (np.asarray(v, dtype=np.int64) for v in (a, b, c, d))
    best_score, best_cost, best_diff = -np.inf, 0, 0.0
    # nodes: left-rank interval [a, b], right interval [c, d]
    while a.size:
        mid = (a + b) // 2
        lengths = d - c + 1
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        node = np.repeat(np.arange(a.size), lengths)
        ridx = np.arange(lengths.sum()) - starts[node] + c[node]
        diff = Rval[ridx] - Lv[mid[node]]
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(diff > 0, np.log(np.where(diff > 0, diff, 1.0)), -np.inf) \
                - beta * (Rpos[ridx] - Lp[mid[node]] - 1)
        segmax = np.maximum.reduceat(score, starts)
        is_max = score == segmax[node]
        # largest maximising right of each node (an all -inf node takes its last right)
        arg = np.maximum.reduceat(np.where(is_max, ridx, -1), starts)
        k = int(np.argmax(segmax))
        if segmax[k] > best_score:
            best_score = float(segmax[k])
            best_cost = int(Rpos[arg[k]] - Lp[mid[k]] - 1)
            best_diff = float(Rval[arg[k]] - Lv[mid[k]])
        left = a <= mid - 1
        right = mid + 1 <= b
        a, b, c, d = (np.concatenate((a[left], mid[right] + 1)), np.concatenate((mid[left] - 1, b[right])),
                      np.concatenate((c[left], arg[right])), np.concatenate((arg[left], d[right])))
    if best_score == -np.inf:
        return -np.inf, 0
    return best_diff * math.exp(-beta * best_cost), best_cost


class PerDistance:
    """An engine that computes ``A(t)`` one distance at a time (``_A1``); ``A`` maps it over an array of t."""

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        out = np.empty(t.shape)
        flat = out.reshape(-1)
        for k, tk in enumerate(t.reshape(-1)):
            flat[k] = self._A1(int(tk))
        return out
