"""The engines of :mod:`dpsens.smooth`: one interface, one dispatch table, the reach search, the derivations.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through the
public functions of :mod:`dpsens.smooth`, which check the arguments and call
:func:`engine` and :func:`smooth_and_distance`).  Each engine gives ``A(t)``
for an array of ``t``, ``sup A`` with a ``t`` reaching it, and the smooth
maximum ``max_t e^{-beta t} A(t)`` with its maximising ``t`` (:class:`Engine`).
Every case engine is built from one :class:`~dpsens.smooth._candidates.Data`
(the sorted data, the query, the bounds) and is chosen by one table,
:data:`CASES` (query family and relation -> :class:`Case`); the calls go one
way, from here down: the case engines (``_quantile``, ``_unbounded``,
``_mean``) and the dense pass (``_small``) use the pairs' divide and conquer
(``_pairs``) and the candidates (``_candidates``), and nothing calls back up.

The neighbour graph
-------------------
Datasets are finite multisets of numbers in the real interval
``[lower, upper]``.  One step is

* ``neighbors="bounded"``: one record replaced by any value in
  ``[lower, upper]`` (the size ``n`` never changes);
* ``neighbors="unbounded"``: one record added (any value in
  ``[lower, upper]``) or removed.  A dataset never becomes empty.

``LS(y)`` is the local sensitivity of a query at ``y`` over one step,
``A(t) = max{LS(y) : y within t steps of x}`` (so ``A(0) = LS(x)``),
``D(b) = min{t : A(t) > b}`` the distance to a dataset with local
sensitivity above ``b``, and the beta-smooth sensitivity is
``S = max_{t >= 0} e^{-beta t} A(t)`` over *every* ``t``.

How each query is computed exactly
----------------------------------
*Order statistics and interpolated percentiles, bounded.*  numpy's linear
percentile at position ``h = (n-1)q`` is ``Q(h) = (1-g) y_i + g y_{i+1}``
(``i = floor(h)``, ``g = h - i``), the piecewise linear function through the
sorted values.  Replacing one record moves every order statistic by at most
one index, and moving a low record to ``upper`` moves all of them up at once,
so ``LS(y) = max(Q(h+1) - Q(h), Q(h) - Q(h-1))`` with the data padded by
``lower`` below and ``upper`` above.  Each of the two windows is
``alpha (y_{j+1} - y_j) + gamma (y_{j+2} - y_{j+1})`` (``alpha = 1-g``,
``gamma = g``).  A dataset within ``t`` replacements agrees with the sorted
``x`` around the window up to a cut: the records between two kept indices
are moved to the ends.  The value is linear in the middle order statistic,
so it is maximal when the middle one is next to one end of the cut, which
leaves two families of pairs ``(left, right)`` of padded indices, with cost
``right - left - 1`` (the number of records moved):

* ``alpha (X_b - X_p) + gamma (X_{b+1} - X_b)``, ``-1 <= p <= j < b <= n``;
* ``gamma (X_q - X_a) + alpha (X_a - X_{a-1})``, ``-1 <= a <= j+1 < q <= n``.

numpy's median of an even number of records is the mean of the two middle
values, i.e. ``i = n/2 - 1`` and ``g = 1/2``: a replaced record moves *both*
middle order statistics, so its windows are ``(y_{j+2} - y_j)/2`` and both
families of pairs are needed; the odd case is ``g = 0``.
With ``g = 0`` this is Nissim, Raskhodnikova & Smith's (2007) formula
``A(t) = max_{s=0..t+1} (X_{m+s} - X_{m+s-t-1})``.  The smooth sensitivity is
``max over pairs of e^{-beta cost} (R(right) - L(left))``; for a fixed left the
best right is a monotone function of ``L(left)`` (NRS07, Sec. 3.1), so a
divide and conquer over the lefts sorted by ``L`` finds it in
``O(n log n)``.

*Median, unbounded.*  Adding or removing a record moves the median by half a
gap: ``LS(y) = (y_{k+1} - y_k)/2`` maximised over the middle pairs (the pair
around the median element for odd size, the central pair for even size).
To make ``(X_p, X_b)`` such a pair all records between them are removed
(``b - p - 1`` steps) and the two sides are balanced by adding or removing
records at the ends (``max(0, |p - (n-1-b)| - 1)`` more steps).  For a fixed
``p`` the cost is non-decreasing in ``b`` and the gap increasing, so only
``O(n)`` pairs can be optimal; the curve, the distance and the smooth
sensitivity come from that list in ``O(n)`` after sorting.

*Other percentiles, unbounded* (:class:`~dpsens.smooth._unbounded.PercentileUnbounded`).  Let
``q = p/100``.  Mirroring the data (``v -> lower + upper - v``) maps the
``q`` percentile to the ``1 - q`` one and leaves ``A`` unchanged, so take
``q > 1/2``.  For ``y`` of size ``m`` let ``h = q(m-1)`` and ``Q_y`` the
piecewise linear function through the sorted ``y``, padded with ``lower``
below and ``upper`` above; it is non-decreasing.  Adding ``upper`` gives
``Q_y(h+q)``, adding ``lower`` ``Q_y(h-(1-q))``, removing the largest record
``Q_y(h-q)``, the smallest ``Q_y(h+1-q)``, and adding or removing any other
value lands between these (each order statistic of the neighbour lies
between two adjacent ones of ``y``).  So for ``m >= 2``
``LS(y) = max(U, D)``, ``U = Q_y(h+q) - Q_y(h)``, ``D = Q_y(h) - Q_y(h-q)``,
and ``LS = max(q (upper - y_0), (1-q)(y_0 - lower))`` for ``m = 1`` (three
candidates: keep ``x_0`` or ``x_{n-1}``, ``n - 1`` steps, or a new record,
``n + 1``).  Each of ``U``, ``D`` is a *window* of ``k = 2`` or ``3``
consecutive order statistics from rank ``rho(m)``, worth
``alpha (y_1 - y_0) + gamma (y_2 - y_1)`` (weights from the fractional part
of ``h``; the top one may be the padding).  Which ``y`` are worst:

1. An added value can be moved to ``lower`` or ``upper`` without lowering a
   window: outside the window ranks do not change; as the first (last)
   element it leaves, and the next order statistic further out takes its
   place; as the middle one the value is linear in it, so move it onto a
   neighbour's value and it is first or last.  So ``y`` is ``L`` copies of
   ``lower``, the kept records, ``H`` copies of ``upper``.
2. Name the window's elements by padded indices ``p < c < b`` of the sorted
   ``x`` (``X_{-2} = X_{-1} = lower``, ``X_n = X_{n+1} = upper`` are added
   values).  The records strictly between ``p`` and ``b`` other than ``c``
   are removed, and ``rho(m)`` elements below and ``sigma(m) = m - rho - k``
   above come from adding or removing at the ends: the fewest steps are
   ``|p - rho| + |n-1-b - sigma| + (b - p + 1 - k)``.  The value is linear in
   ``X_c``, so ``c = p + 1`` or ``c = b - 1`` (two *families*).
3. If ``p > rho(m)`` records below are removed; the pair ``(p-1, b)`` costs
   the same and is worth at least as much.  Likewise on the right.  So
   ``p <= rho(m)``, ``b >= n-1-sigma(m)``, only additions at the ends, and
   the cost is ``2(b - p) + m - n + 2 - 2k``.
4. The weights depend on ``m`` through ``m mod T`` only
   (``T = 100/gcd(p, 100)``); in a class, ``m -> m + T`` raises ``rho`` by
   ``qT`` and ``sigma`` by ``(1-q)T < T/2``.  For a pair the smallest ``m`` of
   the class meeting both conditions is best.  If the condition on
   ``sigma`` is the binding one, some ``(p, b + j)``, ``j <= (1-q)T``, meets
   both with ``m - T``: ``T - 2j > 0`` steps cheaper, worth at least as much.
   So every candidate uses ``m = mu(p)``, the smallest size of the class with
   ``rho >= p``, and any ``b >= lo(p) = max(n-1-sigma(mu(p)), p + k - 1)``,
   at cost ``2b + lam(p)``.

Unlike the median this is not an ``O(n)`` list: a pair with extra copies of
``upper`` is not dominated, since moving ``p`` down costs 2 per record and
saves only ``1/q < 2`` in ``m``.  ``A(t)`` takes, for each left ``p`` of each
(window, class), the largest allowed ``b`` (the value is non-decreasing in
``b`` up to ``n``; ``b = n + 1``, both top elements at ``upper``, apart): one
vectorised pass over the ``O(T t)`` lefts whose cheapest pair costs at most
``t``.  The smooth sensitivity is ``max e^{-beta (2b + lam(p))} (R(b) - L(p))``
over pairs with ``b >= lo(p)``; cutting each left's suffix of rights into
aligned dyadic blocks gives rectangles on which the monotonicity of NRS07
holds, solved together by one divide and conquer: ``O(n log^2 n)`` for each
of the ``2T`` (window, class) problems and two families, after pairs too long
to beat a lower bound (``e^{-beta t} A(t)`` on a grid of ``t``) are dropped.

*Mean, sum, count.*  Closed forms (bounded), and for the unbounded mean an
exact search over how many records are removed and how many added (see
:class:`~dpsens.smooth._mean.MeanUnbounded`).

*Variance and standard deviation* raise ``ValueError`` here: no exact
algorithm is implemented, and this package does not return approximations
silently.  :func:`dpsens.smooth.smooth_sensitivity_bound` gives a provable beta-smooth
*upper bound* for them (see :mod:`dpsens.smooth._variance` for the proof).

*Speed.*  ``smooth_sensitivity`` of the order statistics and percentiles
first builds engines restricted to the pairs within a *reach* of the
percentile's index, whose maximum is a lower bound including every candidate
of cost ``<= reach``; an upper bound ``U(t) >= A(t)`` (the spread of the
padded sorted data over the indices a dataset within ``t`` steps can use)
then shows that no ``t > reach`` can beat it, or the reach grows (the full
engine past ``n/8``).  On typical data only a few hundred distances
matter, so the cost is the sort plus ``O(reach log^2 reach)``.

*The dense pass* (:mod:`dpsens.smooth._small`, tried first at every size).
Up to a few hundred thousand records the divide and conquer's numpy calls,
not the pairs, cost the time, so every
pair of cost ``<= K`` is scored at once against a table of ``e^{-beta t}``
(a right that is no ascent of ``R`` is beaten by its predecessor, and a
left's rights stop where even the largest ``R`` cannot beat the best
cheapest pair).  The reach ``K`` is bounded by a tighter bound than ``U``:
a pair of cost ``t`` spans at most ``t + 2`` indices (unbounded: at most
``(t + n + 3 - p/q)/2`` from a left ``p``, since its size ``m >= p/q + 1``
costs ``m - n`` additions), and is worth at most the spread of the data
over them.  With records added or removed the pairs whose right is the
padding ``upper`` are scored apart, every one of cost ``<= ln(sup/S)/beta``,
so that bounds wider than the data do not widen the reach.  Tables that
depend on the size only are cached.  If ``e^{-beta t}`` could underflow or
nothing positive is within reach (tied data), the engines above answer.
Above 2048 records the reach may grow to 1024 (there the general engines
cost milliseconds), doubling while the cheapest pairs give no useful floor
(tied data: every pair within the first reach lies inside a run), and only
the cheap bound ``U`` is evaluated beyond that limit; a pass costs
``O(reach)`` numpy work, not ``O(n)``, so it also serves ``n = 10^6``.

*Tied data* (integer ages: a few dozen values, runs of thousands of equal
records).  Three exact reductions keep the cost near one sort:

1. ``A(t) <= U(t)``, and ``U(t) = 0`` until the spread of indices reaches a
   different value, so nothing below the first ``t0`` with ``U(t0) > 0``
   contributes: the search starts at ``reach = t0 + 64``, and while no
   candidate within reach is positive it doubles (the bound alone would send
   it to where ``e^{-beta t} U(t)`` underflows, i.e. the full engine).
2. *Bounded, dominated pairs.*  In a pair problem the cost is ``r - l - 1``.
   A left with a later left of value ``<=`` its own is beaten by that left
   for every right (value at least as large, cost lower); a right with an
   earlier right of value ``>=`` its own likewise.  So only the strict suffix
   minima of the lefts and the strict prefix maxima of the rights are kept;
   both lists have increasing values and about one index per run of ties.
   ``A(t)`` for a right is then the value of the first kept left at or after
   ``r - t - 1``, the smallest left value there.
3. *Unbounded percentiles, dominated lefts.*  In one (window, class) problem
   a left ``p`` with ``X_p = ... = X_{p+Q+1}`` is beaten by the left
   ``p + Q`` (when that is a candidate of the problem and ``p + Q <= n - 2``):
   the values ``L`` of all three families are equal (they use ``X_p`` and
   ``X_{p+1}`` only); ``lam`` falls by ``2Q - T > 0`` or by ``2Q`` (``m``
   grows by ``T`` per ``Q`` ranks and ``q = Q/T > 1/2``), so each pair is
   cheaper; ``lo(p + Q) = max(n-1-sigma, p+Q+k-1)`` has a first term that
   does not grow, so every right of ``p`` is a right of ``p + Q`` except
   those below ``p + Q + k - 1``, whose window lies inside the run and is
   worth 0.  Then, for the smooth maximum, a left's rights before the first
   one whose running maximum of ``R`` exceeds ``L`` are worth ``<= 0`` (``s``
   is the first right that can be positive), lefts with equal ``L`` keep only
   the Pareto front of ``(s, lam)``, and of the rights only ``s`` itself and
   the ascents of ``R`` (a right with ``R(b) <= R(b-1)`` is beaten by ``b -
   1``: same value or more, 2 steps cheaper).  Each pair's value is written
   with differences of neighbouring order statistics (``alpha X_{b-1} + gamma
   (X_b - X_{b-1}) - alpha X_p``), so a pair inside a run is exactly 0, not a
   rounding error.

None of these drops a pair that could be the unique maximiser, so ``S`` and
``A(t)`` are the values of the full search (``t*`` may differ only between
pairs of exactly equal value).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple, Protocol

import numpy as np

from ..queries import PERCENTILES
from ..relation import Relation
from ._candidates import Data, first_positive, log_ratio
from ._mean import MeanUnbounded, count_bounded, count_unbounded, mean_bounded, sum_bounded, sum_unbounded
from ._quantile import QuantileBounded
from ._small import SMALL_N, percentile_unbounded_small, quantile_bounded_small
from ._unbounded import PercentileUnbounded, median_reach, median_unbounded

__all__ = ["Engine", "ReachEngine", "Case", "CASES", "case", "engine", "smooth_and_distance"]


class Engine(Protocol):
    """What every case engine gives: ``A(t)`` for an array of ``t``, ``sup A`` with a ``t_sup`` reaching it,
    and the smooth maximum ``max_t e^{-beta t} A(t)`` with its maximising ``t``."""

    sup: float
    t_sup: int

    def A(self, t: np.ndarray) -> np.ndarray: ...

    def smooth(self, beta: float) -> tuple[float, int]: ...


class ReachEngine(Engine, Protocol):
    """An engine restricted to the candidates of cost ``<= reach``, for the reach search: ``smooth(beta,
    t_max)`` is the maximum over real candidates including every one of cost ``<= reach`` (a lower bound
    on ``S``), ``U(t) >= A(t)`` a cheap non-decreasing upper bound, ``sup`` and ``t_sup`` bounds."""

    def U(self, t: np.ndarray) -> np.ndarray: ...

    def smooth(self, beta: float, t_max: int | None = None) -> tuple[float, int]: ...


class Case(NamedTuple):
    """How one query and relation is computed: the one interface every case engine implements.

    ``build(data)`` is the full engine.  For the order statistics and percentiles, ``restrict(data,
    reach)`` is the engine restricted to the pairs of cost ``<= reach`` (the reach search) and ``dense(data,
    beta)`` the dense pass of :mod:`dpsens.smooth._small` (``(S, t*)``, or ``None`` where it declines).
    """

    build: Callable[[Data], Engine]
    restrict: Callable[[Data, int], ReachEngine] | None = None
    dense: Callable[[Data, float], tuple[float, int] | None] | None = None


_QUANTILE_BOUNDED = Case(QuantileBounded, QuantileBounded, quantile_bounded_small)

#: The one dispatch table: (family of the query, relation) -> its case engine.
CASES: dict[tuple[str, Relation], Case] = {
    ("count", Relation.BOUNDED): Case(count_bounded),
    ("count", Relation.UNBOUNDED): Case(count_unbounded),
    ("sum", Relation.BOUNDED): Case(sum_bounded),
    ("sum", Relation.UNBOUNDED): Case(sum_unbounded),
    ("mean", Relation.BOUNDED): Case(mean_bounded),
    ("mean", Relation.UNBOUNDED): Case(MeanUnbounded),
    ("median", Relation.BOUNDED): _QUANTILE_BOUNDED,
    ("percentile", Relation.BOUNDED): _QUANTILE_BOUNDED,
    ("median", Relation.UNBOUNDED): Case(median_unbounded, median_reach),
    ("percentile", Relation.UNBOUNDED): Case(PercentileUnbounded, PercentileUnbounded, percentile_unbounded_small),
}


#: The family of each query in :data:`CASES` (the others are their own): the median and ``"percentile_50"``
#: are one family, the other percentiles another.
_FAMILY = {"median": "median", **{p: "median" if p == "percentile_50" else "percentile" for p in PERCENTILES}}


def case(name: str, neighbors: Relation) -> Case:
    """The case engine of a query (``"median"``, ``"percentile_90"``, ...) and a relation, from :data:`CASES`."""
    return CASES[_FAMILY.get(name, name), neighbors]


def engine(name: str, xs: np.ndarray, lower: float, upper: float, neighbors: Relation) -> Engine:
    """The full engine of one query and relation on sorted, checked ``xs`` in ``[lower, upper]``.

    Chapters: *Propose-test-release* and *Smooth sensitivity*.
    """
    return case(name, neighbors).build(Data(xs, name, lower, upper))


def smooth_and_distance(name: str, xs: np.ndarray, lower: float, upper: float, neighbors: Relation,
                        beta: float) -> tuple[float, int]:
    """``(S, t*)``: the smooth sensitivity of sorted, checked ``xs`` and a distance ``t*`` attaining it.

    Chapter: *Smooth sensitivity*.  The dense pass first where the case has one, then the reach search
    where it has a restricted engine, else the full engine.
    """
    how = case(name, neighbors)
    data = Data(xs, name, lower, upper)
    if how.dense is not None:
        got = how.dense(data, beta)
        if got is not None:
            return got
    if how.restrict is not None:
        return smooth_by_reach(how.build, how.restrict, data, beta)
    return how.build(data).smooth(beta)


# ---------------------------------------------------------------------------------------------- reach search

def needed_reach(eng: ReachEngine, beta: float, best: float, reach: int) -> int:
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


def first_reach(eng: ReachEngine, n: int, beta: float, reach: int) -> int:
    """The reach of the search's first pass, from the engine of reach ``reach``: one pass usually suffices.

    On tied data ``A(t) <= U(t) = 0`` up to the distance ``t0`` at which ``U`` leaves 0 (the nearest change
    of value): nothing below ``t0`` counts, so the search starts from there.  Otherwise a cheap lower bound
    (``A`` on a few distances) says how far a distance could beat it (:func:`needed_reach`).
    """
    t0 = first_positive(eng.U, n + 1)
    if t0 > reach // 2:
        return t0 + reach                        # straight to the search
    grid = np.unique(np.round(1.3 ** np.arange(0, 1 + int(math.log(reach) / math.log(1.3)))).astype(np.int64))
    with np.errstate(under="ignore"):
        floor = float(np.max(np.exp(-beta * np.concatenate(([0], grid))) * eng.A(np.concatenate(([0], grid)))))
    # with no positive value yet, the bound only says where e^{-beta t} U(t) underflows: double instead
    return max(reach, needed_reach(eng, beta, floor, reach)) if floor > 0 else 2 * reach


def smooth_by_reach(build: Callable[[Data], Engine], restrict: Callable[[Data, int], ReachEngine], data: Data,
                    beta: float, reach: int = 64) -> tuple[float, int]:
    """The smooth sensitivity from engines restricted to the pairs of cost ``<= reach``.

    ``restrict(data, reach)`` is a restricted engine (``build(data)`` the full one) whose ``smooth(beta,
    t_max)`` returns the maximum over a set of *real* candidates (so a lower bound on ``S``) that contains
    every candidate of cost ``<= reach``, and whose ``U(t) >= A(t)``.  If no ``t > reach`` can beat it
    (:func:`needed_reach`), it is ``S``: exact.  Otherwise the reach grows to the largest distance that
    could, and beyond an eighth of ``n`` the full engine is used.
    """
    n = len(data.xs)
    if n <= SMALL_N:
        return build(data).smooth(beta)          # small data: one pass of the full engine is cheapest
    if reach < n // 8:
        reach = first_reach(restrict(data, reach), n, beta, reach)
    while reach < n // 8:
        eng = restrict(data, reach)
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
    return build(data).smooth(beta)
