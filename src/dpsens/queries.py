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

from ._validate import as_data

PERCENTILES = {"percentile_25": 25, "percentile_50": 50, "percentile_75": 75, "percentile_90": 90}


def mean(x) -> float:
    """Arithmetic mean, ``np.mean``.  Chapter: *Neighbouring datasets*."""
    return float(np.mean(x))


def median(x) -> float:
    """Median, ``np.median``.  Chapter: *Neighbouring datasets*."""
    return float(np.median(x))


def count(x) -> float:
    """Number of records, ``len(x)``.  Chapter: *Neighbouring datasets*."""
    return float(len(x))


def sum_(x) -> float:
    """Sum of the records, ``np.sum``.  Chapter: *Neighbouring datasets*."""
    return float(np.sum(x))


def std(x) -> float:
    """Population standard deviation, ``np.std(x, ddof=0)``.  Chapter: *Neighbouring datasets*."""
    return float(np.std(x))


def var(x) -> float:
    """Population variance, ``np.var(x, ddof=0)``.  Chapter: *Neighbouring datasets*."""
    return float(np.var(x))


def _percentile(p: int) -> Callable:
    def query(x) -> float:
        return float(np.percentile(x, p))

    query.__name__ = f"percentile_{p}"
    query.__doc__ = (
        f"The {p}th percentile, ``np.percentile(x, {p})`` with linear interpolation.  "
        "Chapter: *Neighbouring datasets*."
    )
    return query


QUERIES: dict[str, Callable] = {
    "mean": mean,
    "median": median,
    "count": count,
    "sum": sum_,
    "std": std,
    "var": var,
    **{name: _percentile(p) for name, p in PERCENTILES.items()},
}
"""Query name -> function, the ten queries of the sources in their order."""


def check_query(query, allow_callable: bool = False):
    """Return ``(name, function)`` for a query name (or a callable if allowed).

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
        return query, QUERIES[query]
    if callable(query):
        if allow_callable:
            return getattr(query, "__name__", "custom"), query
        raise TypeError(
            "query must be a name from dpsens.QUERIES for the exact method "
            f"({list(QUERIES)}); a callable is accepted by method='bruteforce' only"
        )
    raise TypeError(f"query must be a query name such as 'median', got {query!r}")


def evaluate(query, x) -> float:
    """Evaluate a query, given by name or function, on data ``x``.

    Chapter: *Neighbouring datasets*.

    Examples
    --------
    >>> evaluate("median", [1, 2, 10])
    2.0
    >>> evaluate("percentile_90", [1, 2, 3, 10, 11])
    10.6
    """
    _, f = check_query(query, allow_callable=True)
    return float(f(as_data(x)))
