"""The engines of the mean, the sum and the count: closed forms, and the exact search of the unbounded mean.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The bounded
mean, the sum and the count have a constant ``A`` from ``t = 1`` on (:class:`~dpsens.smooth._candidates.Constant`:
one replacement reaches the widest spread); with records added or removed the sum and the count do too,
and :class:`MeanUnbounded` searches how many records are removed and how many added.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._candidates import Constant, Data, log_ratio

__all__ = ["count_bounded", "count_unbounded", "sum_bounded", "sum_unbounded", "mean_bounded", "MeanUnbounded"]


def count_bounded(data: Data) -> Constant:
    """The count, one record replaced: the size never changes, ``A = 0``."""
    return Constant(0.0, 0.0)


def count_unbounded(data: Data) -> Constant:
    """The count, one record added or removed: ``A = 1``."""
    return Constant(1.0, 1.0)


def sum_bounded(data: Data) -> Constant:
    """The sum, one record replaced: ``A(0)`` the farthest a record can move, ``upper - lower`` from ``t = 1``."""
    xs, lower, upper = data.xs, data.lower, data.upper
    return Constant(max(upper - xs[0], xs[-1] - lower), upper - lower)


def sum_unbounded(data: Data) -> Constant:
    """The sum, one record added or removed: ``A = max(|lower|, |upper|)``."""
    m = max(abs(data.lower), abs(data.upper))
    return Constant(m, m)


def mean_bounded(data: Data) -> Constant:
    """The mean, one record replaced: the sum's ``A`` over ``n``."""
    xs, lower, upper = data.xs, data.lower, data.upper
    scale = 1.0 / len(xs)
    return Constant(max(upper - xs[0], xs[-1] - lower) * scale, (upper - lower) * scale)


class MeanUnbounded:
    """Exact A(t) of the mean, one record added or removed.

    A dataset within t steps is ``x`` with ``r`` records removed and ``a``
    values added, ``r + a <= t``.  Since removing a record and adding its value
    back changes nothing, the sets with ``(r, a)`` grow along ``(r+1, a+1)``
    (for ``r < n``), so ``A(t)`` is the maximum over ``r + a`` in
    ``{t-1, t}``, ``r <= n-1``, plus the datasets made of new values only
    (``r = n``, ``a >= 1``, which never beat ``(upper-lower)/2``, reached at
    ``t = n + 1`` by ``{lower, upper}``).  For given ``(r, a)`` each of the four
    terms of the local sensitivity (add ``upper``/``lower``, remove the
    largest/smallest record) is maximised separately; for the "upward" terms
    the mean should be as small as possible: keep the ``n - r`` smallest
    records and add copies of ``lower``, with the largest record being either
    an added ``upper`` or the kept maximum of ``x``.  The downward terms are
    the mirror image.
    """

    def __init__(self, data: Data) -> None:
        xs, lower, upper = data.xs, data.lower, data.upper
        self.n = n = len(xs)
        self.lower, self.upper = lower, upper
        # P[k]: the sum of the k smallest; Pr[k] that of the mirror image -xs[::-1] (sorted, on [-upper, -lower]):
        # negation is exact and rounding is symmetric, so -cumsum(xs[::-1]) is cumsum(-xs[::-1]) bit for bit;
        # written into preallocated arrays (no copies of the data: at n = 10^5 the copies cost more than the sort)
        self.P = np.empty(n + 1)
        self.P[0] = 0.0
        np.cumsum(xs, out=self.P[1:])
        self.Pr = np.empty(n + 1)
        self.Pr[0] = 0.0
        np.cumsum(xs[::-1], out=self.Pr[1:])
        np.negative(self.Pr, out=self.Pr)
        self.top, self.top_r = float(xs[-1]), -float(xs[0])          # the largest record, and of the mirror
        self.sup = (upper - lower) / 2.0
        self.t_sup = n + 1

    def _G_side(self, r, a, P, top, lo, up):
        n = self.n
        m = (n - r + a).astype(float)
        keep = n - r
        s_small = P[keep]
        mu1 = (s_small + a * lo) / m
        best = (up - mu1) / (m + 1)                               # add `upper`
        with np.errstate(divide="ignore", invalid="ignore"):
            # remove the maximum, which is an added `upper` (a >= 1)
            so = s_small + (a - 1) * lo
            v1 = np.where((a >= 1) & (m >= 2), (m - 1) * up - so, -np.inf) / (m * np.maximum(m - 1, 1))
            # remove the maximum, which is the kept largest record of x
            so2 = P[np.maximum(keep - 1, 0)] + a * lo
            v2 = np.where((keep >= 1) & (m >= 2), (m - 1) * top - so2, -np.inf) / (m * np.maximum(m - 1, 1))
        return np.maximum(best, np.maximum(v1, v2))

    def G(self, r: np.ndarray, a: np.ndarray) -> np.ndarray:
        return np.maximum(self._G_side(r, a, self.P, self.top, self.lower, self.upper),
                          self._G_side(r, a, self.Pr, self.top_r, -self.upper, -self.lower))

    def A(self, t: ArrayLike) -> np.ndarray:
        """``A`` at an array of ``t``: the maximum of ``G(r, tt - r)`` over ``tt`` in ``{t - 1, t}`` and
        ``0 <= r <= min(tt, n - 1)``, every ``(t, tt, r)`` of a batch in one vectorised pass."""
        t = np.asarray(t, dtype=np.int64)
        flat = t.reshape(-1)
        out = np.full(flat.shape, self.sup)
        small = np.flatnonzero(flat < self.n + 1)
        size = 2 * (np.minimum(flat[small], self.n - 1) + 1)
        edges = np.searchsorted(np.cumsum(size), np.arange(1, 1 + int(size.sum()) // 2**20 + 1) * 2**20)
        for chunk in np.split(small, np.unique(edges[edges < small.size])):
            if chunk.size:
                out[chunk] = self._A_batch(flat[chunk])
        return out.reshape(t.shape)

    def _A_batch(self, ts):
        n = self.n
        tt = np.concatenate((ts - 1, ts))
        owner = np.concatenate((np.arange(ts.size), np.arange(ts.size)))
        ok = tt >= 0
        tt, owner = tt[ok], owner[ok]
        count = np.minimum(tt, n - 1) + 1
        starts = np.cumsum(count) - count
        row = np.repeat(np.arange(tt.size), count)
        r = np.arange(int(count.sum())) - starts[row]
        per = np.maximum.reduceat(self.G(r, tt[row] - r), starts)
        best = np.zeros(ts.size)
        np.maximum.at(best, owner, per)
        return best

    def smooth(self, beta: float) -> tuple[float, int]:
        """Best-first over t: every dataset of size m >= 2 has LS <= (upper-lower)/m (add: /(m+1);
        remove: |mean - extreme|/(m-1) <= (upper-lower)(m-1)/m/(m-1)), and within t steps m >= n - t,
        so e^{-beta t} A(t) <= e^{-beta t} (upper-lower)/max(n-t, 2).  Distances are evaluated in order
        of that bound until it falls below the best exact value found."""
        n = self.n
        best, arg = float(self.A(np.array([0]))[0]), 0
        width = self.upper - self.lower
        t_hi = n + 1
        if best > 0:                   # beyond ln(sup/best)/beta even the supremum cannot win
            t_hi = min(t_hi, int(math.ceil(log_ratio(self.sup, best) / beta)) + 1)
        ts = np.arange(1, t_hi + 1)
        with np.errstate(under="ignore"):
            ub = np.exp(-beta * ts) * np.minimum(self.sup, width / np.maximum(n - ts, 2))
        order = np.argsort(-ub, kind="stable")
        i, block = 0, 64
        while i < len(order) and ub[order[i]] > best:
            chunk = order[i:i + block]
            chunk = chunk[ub[chunk] > best]
            vals = np.exp(-beta * ts[chunk]) * self.A(ts[chunk])
            k = int(np.argmax(vals))
            if vals[k] > best:
                best, arg = float(vals[k]), int(ts[chunk][k])
            i += block
            block = min(2 * block, 1024)
        return best, arg
