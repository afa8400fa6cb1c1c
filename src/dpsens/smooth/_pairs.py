"""The pairs' divide and conquer: the best pair ``max e^{-beta cost} (R(right) - L(left))`` of many problems.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The engines of
the order statistics and the percentiles reduce ``A(t)`` and the smooth sensitivity to pairs of padded
indices (a left and a right) whose cost is a cost of the left plus a non-decreasing cost of the right;
for a fixed left the best right is then a monotone function of the left's value (Nissim, Raskhodnikova &
Smith 2007, Sec. 3.1), which :func:`pair_smooth_nodes` uses for many rectangles at once.
:class:`PairProblem` keeps the lefts and rights that can win (ties), :func:`suffix_blocks` cuts suffixes
of rights into rectangles.  The derivations are in the docstring of :mod:`dpsens.smooth._engines`.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._candidates import log_ratio

__all__ = ["PairProblem", "smooth_of_problems", "pair_smooth_nodes", "suffix_blocks"]


class PairProblem:
    """max over lefts in [lo, hi] and rights in [rlo, rhi] of R(r) - L(l), cost r - l - 1 (r > l always).

    Only the lefts that are strict suffix minima of ``L`` and the rights that are strict prefix maxima of
    ``R`` are kept: a left with a later left of value ``<=`` its own reaches every right more cheaply with a
    value at least as large, and a right with an earlier right of value ``>=`` its own likewise.  Both kept
    lists have strictly increasing values; on tied data they hold about one index per run of values.
    """

    def __init__(self, L: ArrayLike, lo: int, hi: int, R: ArrayLike, rlo: int, rhi: int) -> None:
        self.lo, self.hi, self.rlo, self.rhi = lo, hi, rlo, rhi
        L = np.asarray(L, dtype=float)           # L[k] is the value at left position lo + k
        R = np.asarray(R, dtype=float)           # R[k] is the value at right position rlo + k
        keep = np.ones(L.size, dtype=bool)
        keep[:-1] = L[:-1] < np.minimum.accumulate(L[::-1])[::-1][1:]
        self.Lpos, self.Lval = lo + np.flatnonzero(keep), L[keep]
        keep = np.ones(R.size, dtype=bool)
        keep[1:] = R[1:] > np.maximum.accumulate(R)[:-1]
        self.Rpos, self.Rval = rlo + np.flatnonzero(keep), R[keep]

    def A(self, t: ArrayLike) -> np.ndarray:
        """max over pairs with cost <= t, for an array of t (``-inf`` where no pair is that cheap)."""
        t = np.asarray(t, dtype=np.int64)[:, None]
        use = self.Rpos <= self.hi + t + 1
        # the smallest L at a left >= r - t - 1 (the last left, hi, is always kept)
        start = np.searchsorted(self.Lpos, np.minimum(np.maximum(self.Rpos - t - 1, self.lo), self.hi), side="left")
        return np.max(np.where(use, self.Rval - self.Lval[start], -np.inf), axis=1)

    def pruned(self, beta: float, floor: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
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

    def smooth(self, beta: float, floor: float = 0.0) -> tuple[float, int]:
        """max over all pairs of e^{-beta(r-l-1)} (R - L); pairs longer than needed to beat ``floor`` are skipped."""
        return smooth_of_problems([self], beta, floor)


def smooth_of_problems(problems: list[PairProblem], beta: float, floor: float = 0.0) -> tuple[float, int]:
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



def pair_smooth_nodes(Lv: np.ndarray, Lp: np.ndarray, a: ArrayLike, b: ArrayLike, Rval: np.ndarray, Rpos: np.ndarray,
                      c: ArrayLike, d: ArrayLike, beta: float) -> tuple[float, int]:
    """The best pair (:func:`dpsens.smooth._oracles.pair_smooth`) of many independent rectangles at once.

    Node ``k`` pairs the lefts ``Lv[a_k..b_k]`` (sorted by value within the
    node) with the rights ``Rval[c_k..d_k]`` (``Rpos`` non-decreasing within
    the node), every pair allowed; the cost of a pair is
    ``Rpos_r - Lpos_l - 1``.  The argument of ``pair_smooth`` only uses
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


def suffix_blocks(length: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Aligned dyadic blocks covering ``[0, length_i)`` for every ``i``: (owner, j, s), block ``[s, s + 2^j)``."""
    owners, js, ss = [], [], []
    for j in range(int(length.max()).bit_length()):
        sel = np.nonzero((length >> j) & 1)[0]
        if sel.size:
            owners.append(sel)
            js.append(np.full(sel.size, j, dtype=np.int64))
            ss.append((length[sel] >> (j + 1)) << (j + 1))
    return np.concatenate(owners), np.concatenate(js), np.concatenate(ss)
