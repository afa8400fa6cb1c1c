"""The candidates of the smooth-sensitivity engines: the data every engine is given, candidate lists, indices.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The ground of
the engines: :class:`Data` (the sorted, checked records, the query and the bounds, which every engine of
:mod:`dpsens.smooth._engines` is built from), the finite candidate lists ``A(t) = max{value : cost <= t}``
(:class:`Candidates`, :class:`Constant`), the positions of the order statistics in
the padded sorted data (:func:`quantile_position`, :func:`padded`, :func:`percentile_windows`) and
:func:`first_positive`, where the reach search of :mod:`dpsens.smooth._engines` starts.  The derivations
are in the docstring of :mod:`dpsens.smooth._engines`.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from ..queries import PERCENTILES

__all__ = ["Data", "Candidates", "Constant", "quantile_position", "padded", "Window",
           "percentile_windows", "first_positive", "log_ratio"]


def log_ratio(a: float, b: float) -> float:
    """``ln(a / b)`` for ``a, b > 0``, finite also when ``a / b`` overflows (``b`` subnormal, e.g. a smooth
    value ``e^{-beta t} A(t)`` near the underflow): then ``ln a - ln b``."""
    r = a / b
    return math.log(r) if r < math.inf else math.log(a) - math.log(b)


class Data:
    """What every engine is built from: sorted, checked records ``xs`` in ``[lower, upper]`` and the query.

    ``mirrored`` (computed once, on first use) is the form of the percentile engines with records added
    or removed.
    """

    __slots__ = ("xs", "query", "lower", "upper", "_mirrored")

    def __init__(self, xs: np.ndarray, query: str, lower: float, upper: float) -> None:
        self.xs, self.query, self.lower, self.upper = xs, query, lower, upper
        self._mirrored: tuple[int, np.ndarray, float, float] | None = None

    @property
    def mirrored(self) -> tuple[int, np.ndarray, float, float]:
        """``(P, X, lower, upper)``: the data mirrored so that the percentile ``P > 50``, and padded.

        ``X[k + 2]`` is the padded ``X_k`` for ``k`` in ``[-2, n + 1]``; shared by the engines of several
        reaches and the dense pass, so that the ``O(n)`` copies are made once.
        """
        if self._mirrored is None:
            self._mirrored = self._mirror()
        return self._mirrored

    def _mirror(self) -> tuple[int, np.ndarray, float, float]:
        xs, lower, upper = self.xs, self.lower, self.upper
        P = PERCENTILES[self.query]
        n = len(xs)
        # X(k) = X[k + 2] for k in [-2, n + 1], unscaled: the weights (hundredths) are divided by 100,
        # so no value is ever scaled up (bounds near the largest float do not overflow); one array, written
        # in place (at n = 10^5 each copy of the data costs a tenth of a millisecond)
        X = np.empty(n + 4)
        if P < 50:
            # mirror by negation (exact in floating point; ``lower + upper - x`` rounds the spacing of
            # the data away when the bounds are much larger than the data)
            np.negative(xs[::-1], out=X[2:n + 2])
            lower, upper = -upper, -lower
            P = 100 - P
        else:
            X[2:n + 2] = xs
        if not 50 < P < 100:
            raise AssertionError(P)
        X[:2], X[n + 2:] = lower, upper
        return P, X, float(lower), float(upper)


class Candidates:
    """A(t) = max{value_i : cost_i <= t} for a finite list of (cost, value)."""

    def __init__(self, cost: ArrayLike, value: ArrayLike) -> None:
        cost = np.asarray(cost, dtype=np.int64)
        value = np.asarray(value, dtype=float)
        order = np.argsort(cost, kind="stable")
        self.cost = cost[order]
        self.value = value[order]
        self.cummax = np.maximum.accumulate(self.value)
        self.sup = float(self.cummax[-1])
        self.t_sup = int(self.cost[np.argmax(self.cummax >= self.sup)])

    def A(self, t: ArrayLike) -> np.ndarray:
        t = np.asarray(t, dtype=np.int64)
        idx = np.searchsorted(self.cost, t, side="right") - 1
        return np.where(idx >= 0, self.cummax[np.maximum(idx, 0)], 0.0)

    def smooth(self, beta: float, t_max: int | None = None) -> tuple[float, int]:
        with np.errstate(under="ignore"):
            w = np.exp(-beta * self.cost.astype(float)) * self.value
        k = int(np.argmax(w))
        return float(w[k]), int(self.cost[k])


class Constant:
    """A(0) = a0, A(t) = a1 for t >= 1 (bounded mean/sum/count, unbounded sum/count)."""

    def __init__(self, a0: float, a1: float) -> None:
        self.a0, self.a1 = float(a0), float(max(a0, a1))
        self.sup = self.a1
        self.t_sup = 0 if self.a0 >= self.a1 else 1

    def A(self, t: ArrayLike) -> np.ndarray:
        t = np.asarray(t, dtype=np.int64)
        return np.where(t >= 1, self.a1, self.a0)

    def smooth(self, beta: float) -> tuple[float, int]:
        s1 = math.exp(-beta) * self.a1
        return (self.a0, 0) if self.a0 >= s1 else (s1, 1)


def quantile_position(name: str, n: int) -> tuple[int, float]:
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


def padded(xs: np.ndarray, lower: float, upper: float) -> Callable[[np.ndarray], np.ndarray]:
    """``X(k)``: the sorted data padded with ``lower`` below index 0 and ``upper`` from index n on."""
    n = len(xs)

    def X(k):
        k = np.asarray(k, dtype=np.int64)
        v = xs.take(k, mode="clip")         # (np.clip is slow on small integer arrays)
        return np.where(k < 0, lower, np.where(k >= n, upper, v))
    return X


#: A window of :func:`percentile_windows`: ``(k, off, alpha, gamma)``.
Window = tuple[int, int, int, int]


def percentile_windows(P: int, g100: int) -> tuple[Window, Window]:
    """The two windows of the local sensitivity of the percentile ``q = P/100 > 1/2`` at a size with
    fractional position ``g = g100/100``, as ``(k, off, alpha, gamma)``: ``k`` consecutive order
    statistics starting at rank ``i + off``, value ``alpha (y_1 - y_0) + gamma (y_2 - y_1)`` (``k = 3``)
    or ``alpha (y_1 - y_0)`` (``k = 2``); weights in hundredths."""
    if g100 + P <= 100:                       # up: [h, h+q] inside one cell
        up = (2, 0, P, 0)
    else:
        up = (3, 0, 100 - g100, g100 + P - 100)
    if g100 >= P:                             # down: [h-q, h] inside one cell
        down = (2, 0, P, 0)
    elif g100 == 0:
        down = (2, -1, P, 0)
    else:
        down = (3, -1, P - g100, g100)
    return up, down



def first_positive(U: Callable[[np.ndarray], np.ndarray], t_max: int) -> int:
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
