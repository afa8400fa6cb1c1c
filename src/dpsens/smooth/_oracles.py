"""Reference oracles of the smooth-sensitivity engines: direct formulas the tests hold the engines against.

Chapter: *Smooth sensitivity* (the tests of :mod:`dpsens.smooth` check its engines against these).
:func:`median_A_direct` is the direct ``O(t)`` formula of Nissim, Raskhodnikova & Smith (2007) for the
median of an odd number of records under the bounded relation, and :func:`pair_smooth` the best pair of
one rectangle by the divide and conquer of :mod:`dpsens.smooth._pairs`.  No engine calls them.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data
from ._checks import as_t
from ._pairs import pair_smooth_nodes

__all__ = ["median_A_direct", "pair_smooth"]


def median_A_direct(x: ArrayLike, t: int, lower: float, upper: float) -> float:
    """The direct ``O(t)`` formula of NRS07 for the median of odd ``n``, bounded relation (test oracle).

    Chapter: *Smooth sensitivity*.

    ``A(t) = max_{s=0..t+1} (X_{m+s} - X_{m+s-t-1})`` with ``m = (n-1)/2`` and
    ``X`` the sorted data padded with ``lower`` below and ``upper`` above.
    """
    lower, upper = as_bounds(lower, upper)
    xs = np.sort(as_data(x))
    n = len(xs)
    if n % 2 == 0:
        raise ValueError(f"median_A_direct needs an odd number of records, got n={n}")
    t = int(as_t(t, n))                      # A(t) = upper - lower from t = n on
    m = (n - 1) // 2
    s = np.arange(0, t + 2)
    hi = m + s
    lo = m + s - t - 1

    def X(k):
        return np.where(k < 0, lower, np.where(k >= n, upper, xs[np.clip(k, 0, n - 1)]))

    return float(np.max(X(hi) - X(lo)))


def pair_smooth(Lval: ArrayLike, Lpos: ArrayLike, Rval: ArrayLike, Rpos: ArrayLike,
                beta: float) -> tuple[float, int]:
    """max_{l, r} e^{-beta (Rpos_r - Lpos_l - 1)} (Rval_r - Lval_l), every right after every left.

    For a fixed left the (largest) best right is non-decreasing in ``Lval``:
    the score of a later right relative to an earlier one grows with ``Lval``
    (Nissim, Raskhodnikova & Smith 2007, Sec. 3.1).  Divide and conquer over
    the lefts sorted by ``Lval``, one vectorised pass per level, works in
    log space so that long distances do not underflow.
    Returns (max value, cost of the maximising pair).
    """
    lv, lp, rv, rp = np.asarray(Lval), np.asarray(Lpos), np.asarray(Rval), np.asarray(Rpos)
    order = np.argsort(lv, kind="stable")
    return pair_smooth_nodes(lv[order], lp[order], np.array([0]), np.array([len(lv) - 1]), rv, rp,
                             np.array([0]), np.array([len(rv) - 1]), beta)
