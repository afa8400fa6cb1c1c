"""Exact local sensitivity at distance t, distance to high local sensitivity, smooth sensitivity.

Chapters: *Propose-test-release* and *Smooth sensitivity*.

The public functions: each checks its arguments and rescales magnitudes
near the float limits (:mod:`dpsens.smooth._checks`; the neighbour relation
becomes a :class:`~dpsens.relation.Relation` there, once), and calls the
engines of :mod:`dpsens.smooth._engines`, whose docstring holds the
derivation (the neighbour graph, ``A(t)`` of every query and relation, and
why each algorithm is exact and fast).  The provable smooth upper bound for
the variance and the standard deviation, with its proof, is in
:mod:`dpsens.smooth._variance`; the reference oracle ``median_A_direct``
(a test oracle) in :mod:`dpsens.smooth._oracles`.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_nonnegative, as_positive, check_in_bounds
from ..queries import check_query
from ..relation import Relation, as_relation
from ._checks import as_t, huge_exponent, prepare, scale_down, scale_up, t_cap
from ._engines import engine, smooth_and_distance
from ._variance import VarBound

__all__ = ["ls_at_distance", "distance_to_high_ls", "smooth_sensitivity", "ls_curve",
           "smooth_sensitivity_argmax", "smooth_sensitivity_bound"]

#: ``ls_curve`` returns an array of ``t_max + 1`` values: at most this many.
MAX_CURVE = 10_000_000


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------

def ls_at_distance(x: ArrayLike, query: str, t: ArrayLike, lower: float, upper: float,
                   neighbors: Relation | str = "bounded") -> float | np.ndarray:
    """Largest local sensitivity of any dataset within ``t`` steps of ``x``: ``A(t)``.

    Chapter: *Propose-test-release* (defined there) and *Smooth sensitivity*.

    Parameters
    ----------
    x : array_like
        The data, at least 2 records (the rule of :func:`dpsens.local_sensitivity`);
        every value must lie in ``[lower, upper]``.
    query : str
        One of ``"mean"``, ``"sum"``, ``"count"``, ``"median"``,
        ``"percentile_25"``, ``"percentile_50"``, ``"percentile_75"``,
        ``"percentile_90"`` (numpy's definitions), for both relations.
    t : int or array_like of int
        Number of steps, ``>= 0``: any integer (Python ``int`` of any size,
        a numpy integer such as ``uint64``, or an integral float such as
        ``1e19``).  ``A`` is non-decreasing and constant from ``t = n + 1``
        on (``n`` replacements reach every dataset of the bounded relation;
        with records added or removed each supremum is attained within
        ``n + 1`` steps, see :func:`smooth_sensitivity`), so a larger ``t``
        gives ``A(n + 1)``.
    lower, upper : float
        The interval every record (original or new) lies in.  Bounds of
        magnitude beyond ``2**1000`` (about 1e301) are handled by dividing
        data and bounds by a power of two (exact) and multiplying the answer
        back; a result beyond the largest float (``upper - lower`` itself
        can be, e.g. for ``-1.5e308, 1.5e308``) raises ``ValueError``.
    neighbors : {"bounded", "unbounded"}
        One record replaced, or one record added or removed (see the module
        docstring).

    Returns
    -------
    float, or an array of floats of the shape of ``t``.

    Raises
    ------
    ValueError
        Fewer than 2 records, bad bounds, data outside them or NaN, ``t < 0``, an unknown relation,
        or a query without an exact algorithm (``"var"``, ``"std"``).

    Examples
    --------
    >>> ls_at_distance([1, 2, 3, 10, 11], "median", 0, 0, 20)
    7.0
    >>> ls_at_distance([1, 2, 3, 10, 11], "median", 1, 0, 20)
    8.0
    >>> round(ls_at_distance([30, 40, 50], "mean", 1, 0, 100, "unbounded"), 4)
    21.6667
    """
    e = huge_exponent(lower, upper)
    if e:
        xs, lo, up = scale_down(x, lower, upper, e)
        return scale_up(ls_at_distance(xs, query, t, lo, up, neighbors), query, e)
    name, xs, lower, upper, relation = prepare(x, query, lower, upper, neighbors)
    tt = as_t(t, t_cap(len(xs)))
    out = engine(name, xs, lower, upper, relation).A(tt)
    return float(out) if np.ndim(t) == 0 else out


def ls_curve(x: ArrayLike, query: str, t_max: int, lower: float, upper: float,
             neighbors: Relation | str = "bounded") -> np.ndarray:
    """``A(0), A(1), ..., A(t_max)`` as an array (for figures).

    Chapter: *Smooth sensitivity*.

    ``t_max`` is a non-negative integer of at most :data:`MAX_CURVE`
    (10,000,000); ``A`` is constant from ``t = n + 1`` on, so ``t_max = n +
    1`` already shows the whole curve.  Other arguments as in
    :func:`ls_at_distance`.
    """
    if np.ndim(t_max) != 0:
        raise TypeError(f"t_max must be a single non-negative integer, got {t_max!r}")
    t_last = int(as_t(t_max, 2**62))
    if t_last > MAX_CURVE:
        raise ValueError(
            f"t_max must be at most {MAX_CURVE:,} (the curve is an array of t_max + 1 values), got "
            f"{t_max!r}; A(t) is constant from t = n + 1 on (n = the number of records), so "
            f"t_max = n + 1 shows all of it, and ls_at_distance gives A at any single t")
    e = huge_exponent(lower, upper)
    if e:
        xs, lo, up = scale_down(x, lower, upper, e)
        return scale_up(ls_curve(xs, query, t_last, lo, up, neighbors), query, e)
    name, xs, lower, upper, relation = prepare(x, query, lower, upper, neighbors)
    t = np.arange(t_last + 1)
    return engine(name, xs, lower, upper, relation).A(np.minimum(t, t_cap(len(xs))))


def distance_to_high_ls(x: ArrayLike, query: str, bound: float, lower: float, upper: float,
                        neighbors: Relation | str = "bounded") -> int | float:
    """Smallest number of steps from ``x`` to a dataset whose local sensitivity exceeds ``bound``.

    Chapter: *Propose-test-release*.

    ``min{t >= 0 : A(t) > bound}``.  ``A`` is non-decreasing, so this is a
    binary search over ``t``; when no dataset at all has local sensitivity
    above ``bound`` (``bound >= sup_t A(t)``, e.g. the global sensitivity of
    the relation) the answer is ``math.inf``.  The distance has global
    sensitivity 1, which is what propose-test-release relies on.

    Parameters
    ----------
    x, query, lower, upper, neighbors
        As in :func:`ls_at_distance`.
    bound : float
        Proposed bound on the local sensitivity, ``>= 0``.

    Returns
    -------
    int, or ``math.inf`` if no dataset has local sensitivity above ``bound``.

    Examples
    --------
    >>> distance_to_high_ls([1, 2, 3, 10, 11], "median", 7.5, 0, 20)
    1
    >>> distance_to_high_ls([5, 5, 5], "count", 0.5, 0, 10)
    inf
    """
    e = huge_exponent(lower, upper)
    if e:
        xs, lo, up = scale_down(x, lower, upper, e)
        return distance_to_high_ls(xs, query, math.ldexp(as_nonnegative(bound, "bound"), -e), lo, up, neighbors)
    name, xs, lower, upper, relation = prepare(x, query, lower, upper, neighbors)
    bound = as_nonnegative(bound, "bound")
    eng = engine(name, xs, lower, upper, relation)
    if eng.sup <= bound:
        return math.inf
    lo, hi = 0, eng.t_sup          # A(hi) > bound
    if float(eng.A(np.array([0]))[0]) > bound:
        return 0
    while hi - lo > 1:             # invariant: A(lo) <= bound < A(hi)
        mid = (lo + hi) // 2
        if float(eng.A(np.array([mid]))[0]) > bound:
            hi = mid
        else:
            lo = mid
    return int(hi)


def smooth_sensitivity_argmax(x: ArrayLike, query: str, beta: float, lower: float, upper: float,
                              neighbors: Relation | str = "bounded") -> tuple[float, int]:
    """``(S, t*)``: the beta-smooth sensitivity and a distance ``t*`` where ``e^{-beta t} A(t)`` is maximal.

    Chapter: *Smooth sensitivity*.

    Bounds beyond ``2**1000`` in magnitude are handled by rescaling (see
    :func:`ls_at_distance`).
    """
    e = huge_exponent(lower, upper)
    if e:
        xs, lo, up = scale_down(x, lower, upper, e)
        s, t = smooth_sensitivity_argmax(xs, query, beta, lo, up, neighbors)
        return scale_up(s, query, e), t

    name, xs, lower, upper, relation = prepare(x, query, lower, upper, neighbors)
    beta = as_positive(beta, "beta")
    s, t = smooth_and_distance(name, xs, lower, upper, relation, beta)
    return max(float(s), 0.0), int(t)


def smooth_sensitivity(x: ArrayLike, query: str, beta: float, lower: float, upper: float,
                       neighbors: Relation | str = "bounded") -> float:
    """The beta-smooth sensitivity ``S = max_{t >= 0} e^{-beta t} A(t)``, over every ``t``.

    Chapter: *Smooth sensitivity*.

    Exact (no truncation of ``t``): the maximum is over a finite set because
    ``A`` is constant from some distance on (at most ``n`` replacements reach
    every dataset of the bounded relation; with records added or removed,
    no dataset has a local sensitivity of the mean or the median above
    ``(upper - lower)/2``, nor of the ``p``-th percentile above
    ``max(q, 1-q) (upper - lower)``, ``q = p/100``, and a one-record dataset
    ``{lower}`` or ``{upper}`` -- add it, remove every original record:
    ``n + 1`` steps -- attains it; the sum and the count have constant ``A``),
    and once ``A`` is at its supremum larger ``t`` only shrink ``e^{-beta t}``.
    The median and the percentiles use the ``O(n log n)`` algorithm of
    Nissim, Raskhodnikova & Smith (2007) generalised to numpy's interpolated
    percentiles (see :mod:`dpsens.smooth._engines`; ``O(n log^2 n)`` for the
    percentiles other than the median with records added or removed).

    Parameters
    ----------
    x, query, lower, upper, neighbors
        As in :func:`ls_at_distance`.
    beta : float
        Smoothing parameter, ``> 0`` (``epsilon / (2 ln(2/delta))`` for the
        Laplace variant).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``beta <= 0`` and the cases of :func:`ls_at_distance`.

    Examples
    --------
    >>> smooth_sensitivity([1, 2, 3, 10, 11], "median", 10.0, 0, 20)
    7.0
    >>> round(smooth_sensitivity([1, 2, 3, 10, 11], "median", 0.1, 0, 20), 4)
    13.9184
    """
    return smooth_sensitivity_argmax(x, query, beta, lower, upper, neighbors)[0]


def smooth_sensitivity_bound(x: ArrayLike, query: str, beta: float, lower: float, upper: float,
                             neighbors: Relation | str = "bounded") -> float:
    """A beta-smooth *upper bound* on the local sensitivity: exact for eight queries, a bound for var/std.

    Chapter: *Smooth sensitivity*.

    For ``"var"`` and ``"std"`` this is **not** the smooth sensitivity but
    ``max_t e^{-beta t} B(t)`` for a function ``B(t) >= A(t)`` with
    ``B_x(t) <= B_{x'}(t+1)`` for neighbours, which makes it a beta-smooth
    upper bound on the local sensitivity (Nissim, Raskhodnikova & Smith
    2007) -- usable wherever a smooth upper bound is (the smooth-sensitivity
    mechanism), only possibly larger than necessary.  ``B(0)`` is the exact
    local sensitivity at ``x``; for ``t >= 1`` ``B`` is built from the exact
    range of the mean (and, for the std, the smallest variance) over the
    datasets within ``t`` steps.  The proof is in the docstring of
    :mod:`dpsens.smooth._variance`.  For the other eight queries it returns the
    exact :func:`smooth_sensitivity` (the tightest bound).

    Parameters
    ----------
    x, query, beta, lower, upper, neighbors
        As in :func:`smooth_sensitivity`; ``query`` may also be ``"var"``
        or ``"std"`` (numpy's population variance and standard deviation).

    Returns
    -------
    float

    Examples
    --------
    >>> x = [2.0, 4.0, 4.0, 5.0, 7.0, 9.0]
    >>> s = smooth_sensitivity_bound(x, "var", 0.5, 0, 10)
    >>> round(s, 4)
    5.1252
    """
    name, _ = check_query(query, allow_callable=False)
    if name not in ("var", "std"):
        return smooth_sensitivity(x, query, beta, lower, upper, neighbors)
    lower, upper = as_bounds(lower, upper)
    xs = as_data(x)
    check_in_bounds(xs, lower, upper)
    relation = as_relation(neighbors)
    beta = as_positive(beta, "beta")
    # near the float limits, scale by a power of two (exact) so that sums and the width stay finite
    big = max(abs(lower), abs(upper))
    e = max(0, math.frexp(big)[1] - 500) if big > 0 else 0
    xs, lo, up = np.ldexp(xs, -e), math.ldexp(lower, -e), math.ldexp(upper, -e)
    width = up - lo
    if width == 0:
        return 0.0
    s, _ = VarBound(np.sort(xs), lo, up, name, relation).smooth(beta)    # in units of the width
    with np.errstate(over="ignore"):
        out = float(s) * (np.float64(width) ** 2 if name == "var" else width)
        out = float(np.ldexp(out, 2 * e if name == "var" else e))
    if not math.isfinite(out):
        raise ValueError(f"query={name!r}: the smooth bound on [lower, upper] = [{lower:g}, {upper:g}] is beyond the "
                         f"largest float (about {s:.3g} x (upper - lower){'^2' if name == 'var' else ''}); "
                         f"measure the data in larger units")
    return out
