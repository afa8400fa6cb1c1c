"""Exact local sensitivity at distance t, distance to high local sensitivity, smooth sensitivity.

Chapters: *Propose-test-release* and *Smooth sensitivity*.

The public functions: each checks its arguments, rescales magnitudes near
the float limits, and calls the engines of :mod:`dpsens.smooth._engines`,
whose docstring holds the derivation (the neighbour graph, ``A(t)`` of every
query and relation, and why each algorithm is exact and fast).  The provable
smooth upper bound for the variance and the standard deviation, with its
proof, is in :mod:`dpsens.smooth._variance`.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .._validate import as_bounds, as_data, as_positive, check_in_bounds, check_relation
from .._validate import as_nonnegative
from ..queries import PERCENTILES, check_query
from ._engines import engine, smooth_and_distance
from ._variance import VarBound

__all__ = ["ls_at_distance", "distance_to_high_ls", "smooth_sensitivity", "ls_curve",
           "smooth_sensitivity_argmax", "smooth_sensitivity_bound", "median_A_direct"]

EXACT_QUERIES = ("mean", "sum", "count", "median", *PERCENTILES)


# --------------------------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------------------------

def _prepare(x, query, lower, upper, neighbors):
    name, _ = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    if len(x) < 2:
        # the rule of dpsens.local_sensitivity, for both relations: the book's datasets hold at least 2 records
        # (under add/remove a one-record dataset's only removal would be empty), so a mechanism built on
        # these quantities is private for datasets of at least 2 records -- a public n_min = 2
        raise ValueError(f"x must hold at least 2 records, got n = {len(x)}: the book's datasets have at least "
                         f"2 records (as for dpsens.local_sensitivity; under add/remove neighbours the guarantee "
                         f"is for datasets of at least 2 records, a public n_min = 2)")
    check_in_bounds(x, lower, upper)
    neighbors = check_relation(neighbors)
    if name in ("var", "std"):
        raise ValueError(
            f"query={name!r}: the local sensitivity at distance t of the {name} is not implemented exactly "
            f"in dpsens (exact for {list(EXACT_QUERIES)}); no approximation is returned -- "
            f"dpsens.smooth.smooth_sensitivity_bound gives a provable smooth upper bound for it")
    return name, np.sort(x), lower, upper, neighbors


#: ``ls_curve`` returns an array of ``t_max + 1`` values: at most this many.
MAX_CURVE = 10_000_000


def _t_cap(n: int) -> int:
    """A distance from which ``A`` is constant: ``A(t) = A(min(t, n + 1))``.

    ``A`` is non-decreasing and reaches its supremum within ``n + 1`` steps:
    ``n`` replacements reach every dataset of the bounded relation, and with
    records added or removed every supremum is attained by a dataset at most
    ``n + 1`` steps away (see :func:`smooth_sensitivity`; the sum and the
    count have constant ``A``).  So a huge ``t`` (``2**63``, ``1e19``, a
    numpy ``uint64``) has the answer of ``t = n + 1``, and capping it keeps
    every distance inside the engines' 64-bit integers.
    """
    return n + 1


def _as_t(t, cap: int):
    """``t`` (int, integral float, or an array of them, ``>= 0``) as int64, capped at ``cap``."""
    arr = np.asarray(t)
    if arr.dtype == object:                        # Python ints beyond 64 bits
        flat = arr.ravel().tolist()
        if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in flat):
            raise TypeError(f"t must be a non-negative integer (or an array of them), got {t!r}")
        if any(v < 0 for v in flat):
            raise ValueError(f"t must be a non-negative integer number of steps, got {min(flat)!r}")
        return np.array([min(int(v), cap) for v in flat], dtype=np.int64).reshape(arr.shape)
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        raise TypeError(f"t must be a non-negative integer (or an array of them), got {t!r}")
    if arr.size and (not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr != np.floor(arr))):
        bad = arr.ravel()[(~np.isfinite(arr.ravel())) | (arr.ravel() < 0) | (arr.ravel() != np.floor(arr.ravel()))][0]
        raise ValueError(f"t must be a non-negative integer number of steps, got {bad!r}")
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:
        arr = arr.astype(float)
    return np.minimum(arr, cap).astype(np.int64)


#: Bounds of magnitude above ``2**1000`` are rescaled by a power of two.
_HUGE_EXPONENT = 1000


def _huge_exponent(lower, upper) -> int:
    """``e`` if the bounds are so large (beyond ``2**1000``) that widths could overflow, else 0.

    Every query here is positively homogeneous of degree 1 (the count: 0),
    so ``A``, ``D`` and ``S`` on data and bounds divided by ``2**e`` (exact)
    give the answer after multiplying back (``D``: unchanged).
    """
    lower, upper = as_bounds(lower, upper)
    e = int(np.frexp(max(abs(lower), abs(upper)))[1])
    return e if e > _HUGE_EXPONENT else 0


def _scale_down(x, lower, upper, e):
    return np.ldexp(as_data(x), -e), math.ldexp(float(lower), -e), math.ldexp(float(upper), -e)


def _scale_up(value, query, e):
    """A value computed on data over ``2**e``, back in the data's units, or a clear error."""
    d = 0 if query == "count" else 1
    with np.errstate(over="ignore"):
        out = np.ldexp(value, d * e)
    if not np.all(np.isfinite(out)):
        raise ValueError(
            "the result is beyond the largest float (about 1.8e308): with lower and upper this far "
            "apart a local sensitivity can reach upper - lower; use bounds with upper - lower "
            "<= 1.7e308")
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------

def ls_at_distance(x, query, t, lower, upper, neighbors="bounded"):
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
    e = _huge_exponent(lower, upper)
    if e:
        xs, lo, up = _scale_down(x, lower, upper, e)
        return _scale_up(ls_at_distance(xs, query, t, lo, up, neighbors), query, e)
    name, xs, lower, upper, neighbors = _prepare(x, query, lower, upper, neighbors)
    tt = _as_t(t, _t_cap(len(xs)))
    out = engine(name, xs, lower, upper, neighbors).A(tt)
    return float(out) if np.ndim(t) == 0 else out


def ls_curve(x, query, t_max, lower, upper, neighbors="bounded"):
    """``A(0), A(1), ..., A(t_max)`` as an array (for figures).

    Chapter: *Smooth sensitivity*.

    ``t_max`` is a non-negative integer of at most :data:`MAX_CURVE`
    (10,000,000); ``A`` is constant from ``t = n + 1`` on, so ``t_max = n +
    1`` already shows the whole curve.  Other arguments as in
    :func:`ls_at_distance`.
    """
    if np.ndim(t_max) != 0:
        raise TypeError(f"t_max must be a single non-negative integer, got {t_max!r}")
    t_cap = int(_as_t(t_max, 2**62))
    if t_cap > MAX_CURVE:
        raise ValueError(
            f"t_max must be at most {MAX_CURVE:,} (the curve is an array of t_max + 1 values), got "
            f"{t_max!r}; A(t) is constant from t = n + 1 on (n = the number of records), so "
            f"t_max = n + 1 shows all of it, and ls_at_distance gives A at any single t")
    e = _huge_exponent(lower, upper)
    if e:
        xs, lo, up = _scale_down(x, lower, upper, e)
        return _scale_up(ls_curve(xs, query, t_cap, lo, up, neighbors), query, e)
    name, xs, lower, upper, neighbors = _prepare(x, query, lower, upper, neighbors)
    t = np.arange(t_cap + 1)
    return engine(name, xs, lower, upper, neighbors).A(np.minimum(t, _t_cap(len(xs))))


def distance_to_high_ls(x, query, bound, lower, upper, neighbors="bounded"):
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
    e = _huge_exponent(lower, upper)
    if e:
        xs, lo, up = _scale_down(x, lower, upper, e)
        return distance_to_high_ls(xs, query, math.ldexp(as_nonnegative(bound, "bound"), -e), lo, up, neighbors)
    name, xs, lower, upper, neighbors = _prepare(x, query, lower, upper, neighbors)
    bound = as_nonnegative(bound, "bound")
    eng = engine(name, xs, lower, upper, neighbors)
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


def smooth_sensitivity_argmax(x, query, beta, lower, upper, neighbors="bounded"):
    """``(S, t*)``: the beta-smooth sensitivity and a distance ``t*`` where ``e^{-beta t} A(t)`` is maximal.

    Chapter: *Smooth sensitivity*.

    Bounds beyond ``2**1000`` in magnitude are handled by rescaling (see
    :func:`ls_at_distance`).
    """
    e = _huge_exponent(lower, upper)
    if e:
        xs, lo, up = _scale_down(x, lower, upper, e)
        s, t = smooth_sensitivity_argmax(xs, query, beta, lo, up, neighbors)
        return _scale_up(s, query, e), t

    name, xs, lower, upper, neighbors = _prepare(x, query, lower, upper, neighbors)
    beta = as_positive(beta, "beta")
    s, t = smooth_and_distance(name, xs, lower, upper, neighbors, beta)
    return max(float(s), 0.0), int(t)


def smooth_sensitivity(x, query, beta, lower, upper, neighbors="bounded"):
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


def smooth_sensitivity_bound(x, query, beta, lower, upper, neighbors="bounded"):
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
    neighbors = check_relation(neighbors)
    beta = as_positive(beta, "beta")
    # near the float limits, scale by a power of two (exact) so that sums and the width stay finite
    big = max(abs(lower), abs(upper))
    e = max(0, math.frexp(big)[1] - 500) if big > 0 else 0
    xs, lo, up = np.ldexp(xs, -e), math.ldexp(lower, -e), math.ldexp(upper, -e)
    width = up - lo
    if width == 0:
        return 0.0
    s, _ = VarBound(np.sort(xs), lo, up, name, neighbors).smooth(beta)    # in units of the width
    with np.errstate(over="ignore"):
        out = float(s) * (np.float64(width) ** 2 if name == "var" else width)
        out = float(np.ldexp(out, 2 * e if name == "var" else e))
    if not math.isfinite(out):
        raise ValueError(f"query={name!r}: the smooth bound on [lower, upper] = [{lower:g}, {upper:g}] is beyond the "
                         f"largest float (about {s:.3g} x (upper - lower){'^2' if name == 'var' else ''}); "
                         f"measure the data in larger units")
    return out


def median_A_direct(x, t, lower, upper):
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
    t = int(_as_t(t, n))                      # A(t) = upper - lower from t = n on
    m = (n - 1) // 2
    s = np.arange(0, t + 2)
    hi = m + s
    lo = m + s - t - 1

    def X(k):
        return np.where(k < 0, lower, np.where(k >= n, upper, xs[np.clip(k, 0, n - 1)]))

    return float(np.max(X(hi) - X(lo)))
