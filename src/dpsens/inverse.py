"""Exact inverse sensitivity: ``len_f(x; t)``, the fewest steps from ``x`` to a dataset on which ``f`` equals ``t``.

Chapter: *The exponential mechanism and inverse sensitivity* (the inverse
sensitivity mechanism of Asi & Duchi 2020 samples ``t`` with density
``∝ exp(−ε len_f(x; t) / 2)``; :mod:`dpsens.mechanisms.inverse_sensitivity`).

Datasets are non-empty multisets of numbers in the public interval
``[lower, upper]``; a step replaces one record (``neighbors="bounded"``, the
size ``n`` public) or adds or removes one (``neighbors="unbounded"``, ``n``
private).  ``len`` is ``inf`` when no dataset gives ``t``.

Quantiles are **order statistics**: the ``q`` quantile of ``m`` sorted values
``y_0 <= ... <= y_{m-1}`` is ``y_K`` with ``K(m) = floor(q (m − 1))``
(numpy's ``method="lower"``; it equals numpy's default linear percentile
whenever ``q (m − 1)`` is a whole number, e.g. the median of an odd number of
records, and the median and 90th percentile of the 32,561 Adult ages).  With
``a``, ``e``, ``b`` the numbers of records below, at and above ``t``:

* bounded: ``t`` is the ``K``-th value iff ``a <= K`` and ``a + e >= K + 1``.
  A replacement changes ``a`` (and ``b``) by at most one, and replacing a
  record below (above) ``t`` by ``t`` itself lowers ``a`` (``b``) by one, so
  ``len = max(0, a − K, b − (n − 1 − K))`` with ``K = K(n)``.
* unbounded: fix the final size ``m'`` and ``A = K(m')``, ``B = m' − 1 − A``.
  The final counts must satisfy ``a' <= A``, ``b' <= B`` (then
  ``e' = m' − a' − b' >= 1``); the fewest additions and removals are
  ``|a − a'| + |b − b'| + |e − e'|``, and ``a' = min(a, A)``,
  ``b' = min(b, B)`` minimise it (the cost is a sum of absolute values in
  ``a'``, minimal at ``a`` and non-increasing below it, and likewise for
  ``b'``).  So ``len = min over m'`` of that cost, searched over the ``m'``
  with ``|m' − n|`` at most the cost at ``m' = n`` (each step changes the
  size by one).  Only copies of ``t`` are ever added, so the bounds never bind.

Count, sum and mean (data in ``[lower, upper]``):

* count: bounded ``0`` at ``t = n``, else ``inf``; unbounded ``|t − n|`` for
  whole ``t >= 1``.
* sum, bounded: ``k`` replacements reach exactly the sums in
  ``[S − D_k, S + U_k]``, ``D_k`` (``U_k``) the sum of the ``k`` largest
  ``x_i − lower`` (``upper − x_i``): each choice of ``k`` records reaches an
  interval around ``S`` and the extreme choices give the ends.  The mean is
  the sum over the public ``n``.
* sum and mean, unbounded: ``r`` removals and ``s >= 1`` additions reach
  exactly the interval between ``S − Top_r + s·lower`` and
  ``S − Bot_r + s·upper`` (sum of the ``r`` largest or smallest records
  removed; for the mean divided by ``n − r + s``): swapping one removed record
  for another moves the answer by at most ``upper − lower`` (over ``m'`` for
  the mean), no more than the width of one interval, so the intervals of all
  removed sets of size ``r`` overlap into one.  ``len`` is the least
  ``r + s`` whose interval contains ``t``.  Routes by removals alone reach
  only finitely many values (sums of subsets, an NP-hard question in
  general); they are left out, so the value is exact except on that finite
  set, where it may be too large -- a set of probability zero for a
  mechanism with continuous outputs.

Cost: one sort, then for the bounded quantiles ``O(log n)`` per ``t``; for
the unbounded quantiles ``O(log n)`` per ``t`` plus ``O(d)`` per distinct cell
``(a, e, b)`` when ``q = p/d`` with ``d <= 64`` (the median: 24 candidate
sizes per cell, see ``_len_quantile_unbounded_cells``), so ``O(n log n + d n)``
for every gap and data point; for a larger ``d`` ``O(c)`` per cell, where
``c <= n + 1`` is the cost at ``m' = n``; for the unbounded sum and mean
``O(n)`` per ``t``.

Variance and standard deviation, bounded relation (``n`` public): for a set
``R`` of ``t`` replaced records the reachable variances form an interval
containing ``var(x)`` (the variance is continuous on the box
``[lower, upper]^t``), so the reachable set within ``t`` steps is the
interval ``[V_min(t), V_max(t)]``.  *Smallest*: with ``K`` the kept records,
``n var(y) = SS_K + SS_new + (n − t) t / n (mean_K − mean_new)²`` (``SS`` a
sum of squared deviations), minimal with every new value at ``mean_K`` (in
``[lower, upper]``), and ``SS_K`` over sets of ``n − t`` records is smallest
for a contiguous window of the sorted data.  *Largest*: the variance is a
convex quadratic in each element, so the new values sit at ``lower`` or
``upper`` and the replaced records form a contiguous window of the sorted
data (the argument (i) of :mod:`dpsens.local`, with the available values
``{lower, upper}``); ``V_max(t)`` is ``H(t, t)`` of :mod:`dpsens.inverse_variance`
and found by its window search.  ``len`` is the least ``t`` with ``z`` in the interval
(binary search: ``V_min`` falls and ``V_max`` rises with ``t``); the
standard deviation is the variance at ``z²``.  Under additions and removals
(:mod:`dpsens.inverse_variance`, whose docstring has the argument) the
routes with at least one addition reach, for each number ``r`` of removals
and ``s >= 1`` of additions, one interval of variances; ``len`` is the least
``r + s`` whose interval holds ``z``, with the same convention as for the
unbounded sum and mean (values reachable by removals alone are treated like
their surroundings).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_bounds, as_data, as_quantile, check_in_bounds
from .inverse_variance import DEFAULT_MAX_WORK, UnboundedVarianceReach
from .relation import Relation, as_relation

__all__ = ["quantile_rank", "order_statistic", "inverse_len_quantile", "inverse_len", "INVERSE_QUERIES"]

#: the queries :func:`inverse_len` computes exactly
INVERSE_QUERIES = ("count", "sum", "mean", "var", "std")


def _fraction(q: float) -> Fraction:
    """``q`` as the nearest fraction with a denominator up to 10^6 (0.9 -> 9/10), for exact ranks."""
    return Fraction(q).limit_denominator(10**6)


def quantile_rank(q: float, m: ArrayLike) -> int | np.ndarray:
    """``K(m) = floor(q (m − 1))``, the 0-based rank of the ``q`` quantile of ``m`` values, exactly.

    Chapter: *The exponential mechanism and inverse sensitivity*.  ``q`` is
    read as a fraction (0.9 as 9/10), so ``K`` has no rounding error.
    """
    fr = _fraction(as_quantile(q))
    m = np.asarray(m, dtype=np.int64)
    out = (fr.numerator * (m - 1)) // fr.denominator
    return int(out) if out.ndim == 0 else out


def order_statistic(x: ArrayLike, q: float) -> float:
    """The ``q`` quantile of ``x`` as the order statistic of rank :func:`quantile_rank` (numpy's "lower").

    Chapter: *The exponential mechanism and inverse sensitivity*.
    """
    xs = np.sort(as_data(x))
    return float(xs[quantile_rank(q, len(xs))])


def _prepare(x: ArrayLike, t: ArrayLike, lower: float, upper: float) -> tuple[np.ndarray, np.ndarray, float, float]:
    x = as_data(x)
    lower, upper = as_bounds(lower, upper)
    check_in_bounds(x, lower, upper)
    t = np.asarray(t, dtype=float)
    if not np.all(np.isfinite(t)):
        raise ValueError("t must hold finite numbers")
    return np.sort(x), t, lower, upper


#: the fast search of :func:`_len_quantile_unbounded_cells` is used when q's denominator is at most this
_PERIOD_MAX = 64

#: candidates evaluated together (bounds the memory of the candidate matrix: 2 d + 12 per cell)
_CHUNK = 2**19


def _len_quantile_unbounded(n, a, e, b, fr):
    """min over the final size m' of the cost of reaching counts (a', e', b') with t at rank K(m')."""
    def cost(m):
        K = (fr.numerator * (m - 1)) // fr.denominator
        B = m - 1 - K
        keep_a, keep_b = np.minimum(a, K), np.minimum(b, B)
        return (a - keep_a) + (b - keep_b) + np.abs(e - (m - keep_a - keep_b))
    at_n = int(cost(np.int64(n)))
    m = np.arange(max(1, n - at_n), n + at_n + 1, dtype=np.int64)
    return int(cost(m).min())


def _len_quantile_unbounded_cells(n, a, e, b, fr):
    """:func:`_len_quantile_unbounded` for the arrays of cells ``a, e, b`` at once, in ``O(d)`` per cell.

    With ``q = p/d``, ``K(m) = floor(p (m − 1)/d)`` and ``B(m) = m − 1 − K(m)`` never decrease in ``m``,
    so the five statements ``K >= a``, ``B >= b``, ``B >= e + b``, ``K >= e + a``, ``m >= n`` each hold
    from some ``m`` on (found in closed form).  Between consecutive such thresholds every ``min`` and
    the absolute value of the cost resolve the same way, so the cost is ``α + β m + γ K(m)`` with whole
    ``α, β, γ``; as ``K(m + d) = K(m) + p``, ``cost(m + d) − cost(m)`` is constant there, and the
    minimum over such a stretch lies among its first ``d`` or its last ``d`` values.  Only one stretch
    has ``γ ≠ 0``: where ``K < a`` and ``B >= e + b`` (cost ``a − e − b + m − 2K``), or its mirror ``B < b``
    and ``K >= e + a``; elsewhere the cost is ``|n − m|`` or ``n − m`` (plus 2 if ``e = 0``), smallest
    at an end.  The ends of every stretch and the first and last ``d`` values of that one
    (``2 d + 12`` candidates per cell) are evaluated exactly; the result equals the full scan.
    """
    p, d = fr.numerator, fr.denominator

    def cost(m, a, e, b):
        K = (p * (m - 1)) // d
        keep_a, keep_b = np.minimum(a, K), np.minimum(b, m - 1 - K)
        return (a - keep_a) + (b - keep_b) + np.abs(e - (m - keep_a - keep_b))

    def k_from(k):                       # least m with K(m) >= k
        return 1 + -((-k * d) // p)

    def b_from(k):                       # least m with B(m) >= k, B(m) = ceil((d − p)(m − 1)/d)
        return ((k - 1) * d) // (d - p) + 2

    out = np.empty(len(a), dtype=np.int64)
    offsets = np.arange(d, dtype=np.int64)
    step = max(1, _CHUNK // (2 * d + 12))
    for s in range(0, len(a), step):
        A, E, Bc = (v[s:s + step, None].astype(np.int64) for v in (a, e, b))
        c = cost(np.int64(n), A, E, Bc)
        lo, hi = np.maximum(1, n - c), n + c + 1                       # the scan's range [lo, hi)
        k_a, b_b, b_eb, k_ea = k_from(A), b_from(Bc), b_from(E + Bc), k_from(E + A)
        cuts = np.sort(np.clip(np.concatenate([lo, k_a, b_b, b_eb, k_ea, np.full_like(lo, n), hi], axis=1),
                               lo, hi), axis=1)
        ends = np.concatenate([cuts[:, :-1], cuts[:, 1:] - 1], axis=1)  # both ends of every stretch
        # the one stretch where the cost has a K(m) term: K < a and B >= e + b, or B < b and K >= e + a
        first = np.where(b_b < k_a, np.maximum(b_b, b_eb), np.maximum(k_a, k_ea))
        last = np.where(b_b < k_a, k_a, b_b) - 1
        first, last = np.clip(first, lo, hi - 1), np.clip(last, lo, hi - 1)
        near = np.concatenate([first + offsets, last - offsets], axis=1)
        near = np.where(first <= last, np.clip(near, first, last), lo)
        m = np.clip(np.concatenate([ends, near], axis=1), lo, hi - 1)
        out[s:s + step] = cost(m, A, E, Bc).min(axis=1)
    return out


def inverse_len_quantile(x: ArrayLike, q: float, t: ArrayLike, lower: float, upper: float,
                         neighbors: Relation | str = Relation.BOUNDED) -> float | np.ndarray:
    """``len(x; t)`` for the ``q`` quantile (an order statistic, see the module docstring), exactly.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    Parameters
    ----------
    x : array_like
        Non-empty data inside ``[lower, upper]``.
    q : float
        In (0, 1); 0.5 is the (lower) median.
    t : float or array_like
        Candidate outputs; outside ``[lower, upper]`` the answer is ``inf``.
    lower, upper : float
        Public bounds of the data domain.
    neighbors : Relation or {"bounded", "unbounded"}

    Returns
    -------
    float or numpy.ndarray of float (whole numbers, or ``inf``).
    """
    neighbors = as_relation(neighbors)
    xs, t, lower, upper = _prepare(x, t, lower, upper)
    fr = _fraction(as_quantile(q))
    n = len(xs)
    a = np.searchsorted(xs, t, side="left")
    b = n - np.searchsorted(xs, t, side="right")
    e = n - a - b
    if neighbors is Relation.BOUNDED:
        K = quantile_rank(q, n)
        out = np.maximum(0, np.maximum(a - K, b - (n - 1 - K))).astype(float)
    else:
        # a cell (a, e, b) has a + e + b = n: one whole number a (n + 1) + e names it
        keys, inverse = np.unique(a.ravel().astype(np.int64) * (n + 1) + e.ravel(), return_inverse=True)
        ca, ce = np.divmod(keys, n + 1)
        if fr.denominator <= _PERIOD_MAX:
            values = _len_quantile_unbounded_cells(n, ca, ce, n - ca - ce, fr).astype(float)
        else:
            values = np.array([_len_quantile_unbounded(n, *cell, fr) for cell in zip(ca, ce, n - ca - ce, strict=True)],
                              dtype=float)
        out = values[inverse.ravel()].reshape(t.shape)
    out = np.where((t < lower) | (t > upper), np.inf, out)
    return float(out) if out.ndim == 0 else out


def _len_count(n: int, t: np.ndarray, neighbors: Relation) -> np.ndarray:
    whole = (t == np.floor(t)) & (t >= 1)
    if neighbors is Relation.BOUNDED:
        return np.where(t == n, 0.0, np.inf)
    return np.where(whole, np.abs(t - n), np.inf)


def _len_sum_bounded(xs, t, lower, upper):
    n = len(xs)
    total = float(np.sum(xs))
    down = np.concatenate(([0.0], np.cumsum(np.sort(xs - lower)[::-1])))
    up = np.concatenate(([0.0], np.cumsum(np.sort(upper - xs)[::-1])))
    k = np.maximum(np.searchsorted(down, total - t, side="left"), np.searchsorted(up, t - total, side="left"))
    return np.where(k > n, np.inf, k).astype(float)


def _ceil_div(num, den):
    return np.ceil(num / den)


def _len_unbounded(xs, t, lower, upper, mean: bool):
    """Least r + s (s >= 1 additions, r removals) whose interval of sums (means) contains t."""
    n = len(xs)
    total = float(np.sum(xs))
    r = np.arange(n + 1)
    top = np.concatenate(([0.0], np.cumsum(xs[::-1])))       # sum of the r largest
    bot = np.concatenate(([0.0], np.cumsum(xs)))             # sum of the r smallest
    low_sum, high_sum = total - top, total - bot             # kept sums: smallest and largest
    kept = n - r
    out = np.empty(t.size)
    for i, ti in enumerate(t.ravel()):
        with np.errstate(divide="ignore", invalid="ignore"):
            if mean:
                # (low_sum + s lower) / (kept + s) <= t  <=>  s (t - lower) >= low_sum - t kept
                need_lo = np.where(ti > lower, _ceil_div(low_sum - ti * kept, ti - lower),
                                   np.where(low_sum <= lower * kept, 1, np.inf))
                need_hi = np.where(ti < upper, _ceil_div(ti * kept - high_sum, upper - ti),
                                   np.where(high_sum >= upper * kept, 1, np.inf))
                s = np.maximum(1, np.maximum(need_lo, need_hi))
            else:
                a_r, b_r = ti - low_sum, ti - high_sum           # need s lower <= a_r and s upper >= b_r
                s_lo = np.ones(n + 1)
                s_hi = np.full(n + 1, np.inf)
                for bound, val, is_lower in ((lower, a_r, True), (upper, b_r, False)):
                    if bound == 0:
                        ok = val >= 0 if is_lower else val <= 0
                        s_lo = np.where(ok, s_lo, np.inf)
                    elif (bound > 0) == is_lower:                # s <= val / bound
                        s_hi = np.minimum(s_hi, np.floor(val / bound))
                    else:                                        # s >= val / bound
                        s_lo = np.maximum(s_lo, np.ceil(val / bound))
                s = np.where(s_lo <= s_hi, s_lo, np.inf)
        best = float(np.min(r + s))
        exact_now = (total / n if mean else total) == ti
        out[i] = 0.0 if exact_now else best
    return out.reshape(t.shape)


class _VarianceReach:
    """``V_min(t)`` and ``V_max(t)``: the range of variances within ``t`` replacements (module docstring)."""

    def __init__(self, xs, lower, upper):
        self.n = n = len(xs)
        c = xs[n // 2]                                   # centre for rounding
        xc = xs - c
        self.X1 = np.concatenate(([0.0], np.cumsum(xc)))
        self.X2 = np.concatenate(([0.0], np.cumsum(xc * xc)))
        self.extremes = UnboundedVarianceReach(xs, lower, upper, max_work=2**62)

    def v_min(self, t: int) -> float:
        m = self.n - t
        if m <= 1:
            return 0.0
        S = self.X1[m:] - self.X1[:t + 1]
        Q = self.X2[m:] - self.X2[:t + 1]
        return float(max(np.min(Q - S * S / m), 0.0) / self.n)

    def v_max(self, t: int) -> float:
        # t replacements = t removals and t additions at the size n: H(t, t) of dpsens.inverse_variance,
        # whose window search per split is O(t log n) instead of a scan of every window for every split
        return float(self.extremes.upper_ends([t], [t])[0])

    def length(self, z: float, current: float) -> float:
        if z < 0:
            return math.inf
        if z == current:
            return 0.0
        if z < current:
            ok = lambda t: self.v_min(t) <= z           # noqa: E731  (true from some t on)
        else:
            ok = lambda t: self.v_max(t) >= z           # noqa: E731
        if not ok(self.n):
            return math.inf
        lo, hi = 0, self.n                               # ok(lo) false, ok(hi) true
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        return float(hi)


def inverse_len(x: ArrayLike, query: str, t: ArrayLike, lower: float, upper: float,
                neighbors: Relation | str = Relation.BOUNDED, max_work: int = DEFAULT_MAX_WORK) -> float | np.ndarray:
    """``len(x; t)`` for the count, sum, mean, variance or standard deviation of data in ``[lower, upper]``.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    Exact for every ``t`` (``inf`` where no dataset gives ``t``), with one
    labelled exception: for the sum, the mean, the variance and the standard
    deviation under ``neighbors="unbounded"`` the finitely many values
    reachable by *removals alone* are treated like their surroundings (see
    the module docstrings of :mod:`dpsens.inverse` and
    :mod:`dpsens.inverse_variance`), which can only overstate ``len`` there
    -- a set of probability zero for a mechanism with continuous outputs.
    Not for a finite grid of candidates under ``"unbounded"``: there single
    points carry probability, and at ``t = f(x)`` this function returns the
    true 0 while a neighbour's value counts only routes that add a value, so
    it can move by 2 between neighbours (``[0, 0]`` and ``[0, 0, 10]`` on
    ``[0, 10]``, mean, ``t = 0``: 0 and 2, true len 1).
    Quantiles: :func:`inverse_len_quantile`.

    ``max_work`` caps the window evaluations of the unbounded variance and
    standard deviation per ``t`` (``ValueError`` beyond it; the cost grows
    with ``len``, see :mod:`dpsens.inverse_variance`); other queries ignore it.
    """
    if query not in INVERSE_QUERIES:
        raise ValueError(f"query must be one of {list(INVERSE_QUERIES)} (quantiles: inverse_len_quantile), "
                         f"got {query!r}")
    neighbors = as_relation(neighbors)
    xs, t, lower, upper = _prepare(x, t, lower, upper)
    n = len(xs)
    if query == "count":
        out = _len_count(n, t, neighbors)
    elif query in ("var", "std"):
        z = t * t if query == "std" else t
        if neighbors is Relation.BOUNDED:
            reach = _VarianceReach(xs, lower, upper)
            current = float(np.var(xs))
            length = lambda zi: reach.length(zi, current)        # noqa: E731
        else:
            length = UnboundedVarianceReach(xs, lower, upper, max_work).length   # max_work: per t
        out = np.array([length(float(zi)) if not (query == "std" and ti < 0) else math.inf
                        for zi, ti in zip(np.ravel(z), np.ravel(t), strict=True)]).reshape(t.shape)
        given = as_data(x)                                        # f(x) rounded as the caller computes it
        out = np.where(t == float(np.std(given) if query == "std" else np.var(given)), 0.0, out)
    elif neighbors is Relation.BOUNDED:
        out = _len_sum_bounded(xs, t * n if query == "mean" else t, lower, upper)
        out = np.where(float(np.mean(xs)) == t, 0.0, out) if query == "mean" else out
    else:
        out = _len_unbounded(xs, t, lower, upper, mean=query == "mean")
    out = np.asarray(out, dtype=float)
    if query in ("sum", "mean"):
        lo, hi = (lower, upper) if query == "mean" else (-math.inf, math.inf)
        out = np.where((t < lo) | (t > hi), np.inf, out)
    return float(out) if out.ndim == 0 else out
