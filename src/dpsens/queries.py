"""The ten queries of the book, with numpy's semantics.

Chapter: *Neighbouring datasets* introduces them; *Global sensitivity from
scratch* measures how much each can change.

Every query takes a 1-D array of numbers and returns a float:

==================  =====================================================
name                definition
==================  =====================================================
``mean``            ``np.mean(x)``
``median``          ``np.median(x)`` (mean of the two middle values if n is even)
``count``           ``len(x)``
``sum``             ``np.sum(x)``
``std``             ``np.std(x)`` (population standard deviation, ``ddof=0``)
``var``             ``np.var(x)`` (population variance, ``ddof=0``)
``percentile_p``    ``np.percentile(x, p)`` with linear interpolation,
                    for p in 25, 50, 75, 90
==================  =====================================================
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validate import SAFE_EXPONENT, as_data, check_result, power_of_two_scale

#: A query: a name from :data:`QUERIES`, or (where a function is allowed) a function of the data.
Query = str | Callable[[np.ndarray], float]

__all__ = ["QUERIES", "PERCENTILES", "SCALING_DEGREE", "mean", "median", "count", "sum_", "std", "var",
           "check_query", "evaluate", "evaluate_safely", "scaling_degree", "rescale_exponent"]

PERCENTILES = {"percentile_25": 25, "percentile_50": 50, "percentile_75": 75, "percentile_90": 90}


def _numpy_queries() -> dict[str, Callable]:
    """The ten queries on an already checked 1-D float array (no input checks: the engines' hot path)."""
    raw = {
        "mean": lambda x: float(np.mean(x)),
        "median": lambda x: float(np.median(x)),
        "count": lambda x: float(len(x)),
        "sum": lambda x: float(np.sum(x)),
        "std": lambda x: float(np.std(x)),
        "var": lambda x: float(np.var(x)),
    }
    for name, p in PERCENTILES.items():
        raw[name] = _percentile_query(p)
    return raw


def _percentile_query(p: float) -> Callable[[np.ndarray], float]:
    """numpy's linear percentile ``p`` of an already checked array."""
    return lambda x: float(np.percentile(x, p))


_RAW = _numpy_queries()

#: How each query scales: ``f(c x) = c**d f(x)`` for ``c > 0`` (1 unless listed).
SCALING_DEGREE = {"count": 0, "var": 2}


def scaling_degree(name: str) -> int:
    """The degree ``d`` of ``f(c x) = c**d f(x)`` (``c > 0``) for a query name.

    Chapter: *Neighbouring datasets*.  The engines use it to compute on data
    rescaled by a power of two when magnitudes near the float limits would
    overflow (or underflow) on the way.
    """
    return SCALING_DEGREE.get(name, 1)


def rescale_exponent(name: str, *arrays: np.ndarray) -> int | None:
    """``e`` if an engine should compute query ``name`` on the arrays over ``2**e``, else ``None``.

    The variance and std square the data: magnitudes above ``2**400`` could
    overflow and below ``2**-400`` underflow.  The other queries only add or
    interpolate: magnitudes above ``2**1000`` could overflow.  Dividing by a
    power of two is exact (only values below ``2**-1074`` of the rescaled
    data, negligible next to the largest, are lost).
    """
    e = power_of_two_scale(*arrays)
    if e == 0 and not any(np.size(a) and np.max(np.abs(a)) > 0 for a in arrays):
        return None
    if name in ("var", "std"):
        return e if abs(e) > SAFE_EXPONENT else None
    return e if e > 1000 else None


def evaluate_safely(name: str, x: np.ndarray) -> float:
    """Query ``name`` on a checked float array, exact to rounding at any magnitude, or raise.

    numpy's own value unless it overflowed (``inf``/``nan``, e.g. the mean of
    ``[1e308, 1e308]``) or, for the variance and std, underflowed (all
    magnitudes below ``2**-400``); then the value on ``x / 2**e`` times
    ``2**(d e)`` (exact scaling).  A value beyond the floats (the variance of
    ``[-1e308, 1e308]`` is 1e616) raises ``ValueError``.
    """
    raw = _RAW[name]
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        value = raw(x)
        tiny = name in ("var", "std") and x.size and 0 < np.max(np.abs(x)) < 2.0 ** -SAFE_EXPONENT
        if np.isfinite(value) and not tiny:
            return float(value)
        e = power_of_two_scale(x)
        value = float(np.ldexp(raw(np.ldexp(x, -e)), scaling_degree(name) * e))
    return check_result(value, f"the {name} of x")


def _checked(name: str, doc: str) -> Callable:
    def query(x: ArrayLike) -> float:
        return evaluate_safely(name, as_data(x))

    query.__name__ = name
    query.__qualname__ = name
    query.__doc__ = doc + """

    Parameters
    ----------
    x : array_like
        A non-empty 1-D sequence of finite numbers (list, numpy array or
        pandas Series).

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        If ``x`` is not a non-empty 1-D sequence of finite numbers (booleans
        are refused), or the value is beyond the float range (about 1.8e308).
    """
    return query


mean = _checked("mean", "Arithmetic mean, ``np.mean``.  Chapter: *Neighbouring datasets*.")
median = _checked("median", "Median, ``np.median``.  Chapter: *Neighbouring datasets*.")
count = _checked("count", "Number of records, ``len(x)``.  Chapter: *Neighbouring datasets*.")
sum_ = _checked("sum", "Sum of the records, ``np.sum``.  Chapter: *Neighbouring datasets*.")
std = _checked("std", "Population standard deviation, ``np.std(x, ddof=0)``.  Chapter: *Neighbouring datasets*.")
var = _checked("var", "Population variance, ``np.var(x, ddof=0)``.  Chapter: *Neighbouring datasets*.")


QUERIES: dict[str, Callable] = {
    "mean": mean,
    "median": median,
    "count": count,
    "sum": sum_,
    "std": std,
    "var": var,
    **{name: _checked(name, f"The {p}th percentile, ``np.percentile(x, {p})`` with linear interpolation.  "
                             "Chapter: *Neighbouring datasets*.")
       for name, p in PERCENTILES.items()},
}
"""Query name -> function, the ten queries of the sources in their order.

Each function checks its input (a non-empty 1-D sequence of finite numbers)
and returns a float.
"""


def check_query(query: Query, allow_callable: bool = False) -> tuple[str, Callable[[np.ndarray], float]]:
    """Return ``(name, function)`` for a query name (or a callable if allowed).

    Chapter: *Global sensitivity from scratch* (the engines accept a name).
    For a name, the function is the unchecked numpy version: callers check
    their data once, then evaluate it on many neighbours.

    Raises
    ------
    ValueError
        If ``query`` is a string that is not one of :data:`QUERIES`; the
        message lists the valid names.
    TypeError
        If ``query`` is neither a string nor (when allowed) a callable.
    """
    if isinstance(query, str):
        if query not in QUERIES:
            raise ValueError(f"query must be one of {list(QUERIES)}, got {query!r}")
        return query, _RAW[query]
    if callable(query):
        if allow_callable:
            return getattr(query, "__name__", "custom"), query
        raise TypeError(
            "query must be a name from dpsens.QUERIES for the exact method "
            f"({list(QUERIES)}); a callable is accepted by method='bruteforce' only"
        )
    raise TypeError(f"query must be a query name such as 'median', got {query!r}")


def evaluate(query: Query, x: ArrayLike) -> float:
    """Evaluate a query, given by name or function, on data ``x``.

    Chapter: *Neighbouring datasets*.

    Examples
    --------
    >>> evaluate("median", [1, 2, 10])
    2.0
    >>> evaluate("percentile_90", [1, 2, 3, 10, 11])
    10.6
    """
    name, f = check_query(query, allow_callable=True)
    if isinstance(query, str):
        return evaluate_safely(name, as_data(x))
    return float(f(as_data(x)))
