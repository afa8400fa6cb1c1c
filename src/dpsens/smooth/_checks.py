"""The argument checks of :mod:`dpsens.smooth`'s public functions, and their rescaling near the float limits.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  Each public
function converts its arguments here once: the data sorted and checked against the bounds, the query
named, the neighbour relation a :class:`~dpsens.relation.Relation` (:func:`prepare`), a distance ``t`` an
int64 capped where ``A`` is constant (:func:`as_t`); bounds beyond ``2**1000`` in magnitude are handled
by dividing by a power of two and multiplying the answer back (:func:`huge_exponent`).
"""
from __future__ import annotations

import math
import numbers
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, check_in_bounds
from ..queries import PERCENTILES, check_query
from ..relation import Relation, as_relation

__all__ = ["EXACT_QUERIES", "prepare", "t_cap", "as_t", "huge_exponent", "scale_down", "scale_up"]

EXACT_QUERIES = ("mean", "sum", "count", "median", *PERCENTILES)


def prepare(x: ArrayLike, query: str, lower: float, upper: float,
            neighbors: Relation | str) -> tuple[str, np.ndarray, float, float, Relation]:
    """``(name, sorted data, lower, upper, relation)``, checked: the entry of every exact public function.

    Raises ``ValueError`` for fewer than 2 records, bad bounds, data outside them or NaN, an unknown
    relation, or a query without an exact algorithm (``"var"``, ``"std"``).
    """
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
    relation = as_relation(neighbors)
    if name in ("var", "std"):
        raise ValueError(
            f"query={name!r}: the local sensitivity at distance t of the {name} is not implemented exactly "
            f"in dpsens (exact for {list(EXACT_QUERIES)}); no approximation is returned -- "
            f"dpsens.smooth.smooth_sensitivity_bound gives a provable smooth upper bound for it")
    return name, np.sort(x), lower, upper, relation



def t_cap(n: int) -> int:
    """A distance from which ``A`` is constant: ``A(t) = A(min(t, n + 1))``.

    ``A`` is non-decreasing and reaches its supremum within ``n + 1`` steps:
    ``n`` replacements reach every dataset of the bounded relation, and with
    records added or removed every supremum is attained by a dataset at most
    ``n + 1`` steps away (see :func:`dpsens.smooth.smooth_sensitivity`; the sum and the
    count have constant ``A``).  So a huge ``t`` (``2**63``, ``1e19``, a
    numpy ``uint64``) has the answer of ``t = n + 1``, and capping it keeps
    every distance inside the engines' 64-bit integers.
    """
    return n + 1


def as_t(t: ArrayLike, cap: int) -> np.ndarray:
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
HUGE_EXPONENT = 1000


def huge_exponent(lower: float, upper: float) -> int:
    """``e`` if the bounds are so large (beyond ``2**1000``) that widths could overflow, else 0.

    Every query here is positively homogeneous of degree 1 (the count: 0),
    so ``A``, ``D`` and ``S`` on data and bounds divided by ``2**e`` (exact)
    give the answer after multiplying back (``D``: unchanged).
    """
    lower, upper = as_bounds(lower, upper)
    e = int(np.frexp(max(abs(lower), abs(upper)))[1])
    return e if e > HUGE_EXPONENT else 0


def scale_down(x: ArrayLike, lower: float, upper: float, e: int) -> tuple[np.ndarray, float, float]:
    """Data and bounds divided by ``2**e`` (exact)."""
    return np.ldexp(as_data(x), -e), math.ldexp(float(lower), -e), math.ldexp(float(upper), -e)


@overload
def scale_up(value: float, query: str, e: int) -> float: ...
@overload
def scale_up(value: np.ndarray, query: str, e: int) -> np.ndarray: ...
def scale_up(value: float | np.ndarray, query: str, e: int) -> float | np.ndarray:
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
