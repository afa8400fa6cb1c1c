"""Input checks shared by every public function of :mod:`dpsens` (so by every chapter).

Each checker either returns a clean value or raises ``ValueError`` /
``TypeError`` with a message that names the argument, shows what was given and
says what would be valid.
"""
from __future__ import annotations

import numbers
from typing import Any, Literal, TypeGuard, overload

import numpy as np
from numpy.typing import ArrayLike


__all__ = ["SAFE_EXPONENT", "as_data", "as_int", "as_positive", "as_nonnegative", "as_probability", "as_bounds",
           "as_quantile", "check_in_bounds", "check_rng", "check_result", "power_of_two_scale",
           "scale_back", "rescaled_rounding"]

#: the types accepted as real numbers without the (slower) abstract-base-class check
_PLAIN_REALS = (float, int)


def _is_real(value: object) -> TypeGuard[float]:
    """A real number that is not a boolean (``float()`` reads it: int, float, Fraction, numpy numbers)."""
    return type(value) in _PLAIN_REALS or not isinstance(value, bool) and isinstance(value, numbers.Real)



def _is_real_number(v: object) -> bool:
    """A Python or numpy number that is real (``Decimal`` included), not a boolean."""
    return not (isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Number)
                or isinstance(v, numbers.Complex) and not isinstance(v, numbers.Real)
                and type(v).__name__ != "Decimal")


def _object_to_float(arr: np.ndarray, name: str) -> np.ndarray:
    """Python numbers (int, Fraction, Decimal, ...) in an object array, as floats, or raise."""
    out = np.empty(arr.shape, dtype=float)
    v: Any
    for i, v in enumerate(arr.ravel()):
        if not _is_real_number(v):
            kind = "a boolean" if isinstance(v, (bool, np.bool_)) else f"{v!r} of type {type(v).__name__}"
            raise TypeError(f"{name} must hold numbers only (int or float); it contains {kind}")
        try:
            f = float(v)
        except (OverflowError, ValueError, TypeError):
            f = float("nan") if v != v else float("inf")
        if not np.isfinite(f) and v == v and abs(v) != float("inf"):
            raise ValueError(f"{name} holds a value beyond the float range (|value| <= 1.8e308): "
                             f"{str(v)[:40]}")
        out.flat[i] = f
    return out


def _pandas_values(x: Any, values: Any, name: str) -> np.ndarray:
    """The values of a pandas Series (or anything with ``to_numpy``), refusing booleans and missing values."""
    dtype = getattr(x, "dtype", None)
    kind = getattr(dtype, "kind", "")
    if kind == "b" or str(dtype) == "boolean":
        raise TypeError(f"{name} must hold numbers (int or float), not booleans (dtype {dtype}); "
                        f"convert with .astype(int) if 0/1 is meant")
    if kind in "iuf" and getattr(x, "hasnans", False):
        raise ValueError(f"{name} must hold finite numbers only; it has missing values (NA/NaN)")
    return values(dtype=float) if kind in "iuf" and not isinstance(x, np.ndarray) else values()


def _check_not_scalar(x: object, name: str) -> None:
    """Refuse a string, a single number and a list or tuple of booleans (what ``as_data`` does not read)."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got the string {x!r}")
    if isinstance(x, (numbers.Number, np.generic)):
        raise TypeError(
            f"{name} must be a sequence of numbers (a list, numpy array or pandas Series), "
            f"got the single number {x!r}"
        )
    if isinstance(x, (list, tuple)) and any(isinstance(v, (bool, np.bool_)) for v in x):
        raise TypeError(f"{name} must hold numbers (int or float), not booleans; "
                        f"convert them with int() if 0/1 is meant")


def as_data(x: object, name: str = "x", allow_empty: bool = False) -> np.ndarray:
    """Return ``x`` as a 1-D float array of finite numbers, or raise.

    Accepts lists, tuples, numpy arrays and pandas Series of integers or
    floats (any numpy width, pandas' nullable ``Int64`` / ``Float64`` without
    missing values, Python ints, ``Fraction`` and ``Decimal``).  Booleans are
    refused (``True`` is not a measurement): convert them with ``astype(int)``
    if 0/1 is meant.  Values beyond the float range are refused, not turned
    into infinity.
    """
    _check_not_scalar(x, name)
    values = getattr(x, "to_numpy", None)
    arr = _pandas_values(x, values, name) if callable(values) else np.asarray(x)
    if arr.dtype.kind == "b":
        raise TypeError(f"{name} must hold numbers (int or float), not booleans; "
                        f"convert with .astype(int) if 0/1 is meant")
    if arr.dtype == object and arr.ndim == 1:
        arr = _object_to_float(arr, name)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must hold numbers only (int or float); got values of dtype {arr.dtype}"
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8 and np.all(np.isfinite(arr)):
        big = np.abs(arr) > np.finfo(float).max
        if np.any(big):
            raise ValueError(f"{name} holds a value beyond the float range (|value| <= 1.8e308): "
                             f"{arr[big][0]!r}")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)][0]
        raise ValueError(f"{name} must hold finite numbers only; it contains {float(bad)!r} (NaN or infinity)")
    return arr


#: Magnitudes outside [2**-400, 2**400] are rescaled by a power of two
#: (exact) before squaring or summing; see :func:`power_of_two_scale`.
SAFE_EXPONENT = 400


def power_of_two_scale(*arrays: ArrayLike) -> int:
    """Exponent ``e`` such that the largest magnitude of the arrays over ``2**e`` is in [0.5, 1).

    Every query of the book is positively homogeneous (``f(c x) = c f(x)``,
    the variance ``c**2 f(x)``, the count unchanged), and dividing by a power
    of two is exact, so an engine can compute on ``x / 2**e`` and multiply
    back: no square or sum overflows on the way.  Returns 0 for all zeros.
    """
    m = max((float(np.max(np.abs(a))) for a in arrays if np.size(a)), default=0.0)
    return int(np.frexp(m)[1]) if m > 0 else 0


def scale_back(value: float, exponent: int, what: str, rounding: float = 0.0) -> float:
    """``value * 2**exponent`` (exact) as a float, or the ValueError of :func:`check_result`.

    ``rounding`` is the rounding error of the rescaled computation: a ``value``
    no larger is indistinguishable from 0 (e.g. two equal variances computed in
    floating point), and scaling that noise back up could overflow, so it is 0.
    """
    if abs(float(value)) <= rounding:
        return 0.0
    with np.errstate(over="ignore", under="ignore"):
        return check_result(np.ldexp(value, exponent), what)


def rescaled_rounding(degree: int, *arrays: ArrayLike) -> float:
    """Rounding error allowed for a query of homogeneity ``degree`` computed on ``arrays``:
    64 units in the last place of the largest magnitude raised to ``degree``."""
    m = max(float(np.max(np.abs(a))) for a in arrays if np.size(a))
    return 64 * float(np.finfo(float).eps) * m ** degree


def check_result(value: float, what: str) -> float:
    """Return ``value`` as a float if it is finite, else a ValueError saying ``what`` overflowed."""
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{what} is beyond the largest float (about 1.8e308); use data or a "
                         "universe with smaller magnitudes")
    return value


def as_int(value: object, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as a Python int within ``[minimum, maximum]``, or raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum or maximum is not None and value > maximum:
        lo = "-inf" if minimum is None else minimum
        hi = "inf" if maximum is None else maximum
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value}")
    return value


def as_positive(value: object, name: str) -> float:
    """Return ``value`` as a float that is finite and > 0, or raise."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a positive number, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def as_probability(value: object, name: str = "delta") -> float:
    """Return ``value`` as a float strictly between 0 and 1, or raise."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a number in (0, 1), got {value!r}")
    value = float(value)
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")
    return value


def as_bounds(lower: float, upper: float) -> tuple[float, float]:
    """Check a clipping interval ``[lower, upper]`` and return it as floats."""
    for name, v in (("lower", lower), ("upper", upper)):
        if type(v) not in _PLAIN_REALS and (isinstance(v, bool) or not isinstance(v, numbers.Real)):
            raise TypeError(f"{name} must be a number, got {v!r}")
        if not np.isfinite(v):
            raise ValueError(f"{name} must be finite, got {v!r}")
    if lower > upper:
        raise ValueError(f"lower must be <= upper, got lower={lower!r} > upper={upper!r}")
    return float(lower), float(upper)


def check_in_bounds(x: np.ndarray, lower: float, upper: float, name: str = "x") -> None:
    """Raise if any value of ``x`` lies outside ``[lower, upper]``."""
    outside = (x < lower) | (x > upper)
    if np.any(outside):
        raise ValueError(
            f"{name} has {int(outside.sum())} value(s) outside [lower, upper] = [{lower:g}, {upper:g}], "
            f"e.g. {x[outside][0]:g}; clip the data first (np.clip) or widen the bounds"
        )


def as_quantile(q: object, name: str = "q") -> float:
    """Return ``q`` as a float strictly between 0 and 1 (0.5 is the median), or raise."""
    if not _is_real(q):
        raise TypeError(f"{name} must be a number in (0, 1), e.g. 0.5 for the median, got {q!r}")
    q = float(q)
    if not 0 < q < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1 (0.5 is the median, 0.9 the 90th "
                         f"percentile), got {q!r}")
    return q


@overload
def check_rng(rng: object, allow_none: Literal[False] = False) -> np.random.Generator: ...


@overload
def check_rng(rng: object, allow_none: bool) -> np.random.Generator | None: ...


def check_rng(rng: object, allow_none: bool = False) -> np.random.Generator | None:
    """Return ``rng`` if it is a :class:`numpy.random.Generator`, else raise ``TypeError``.

    Chapter: *Why local sensitivity leaks* (and every chapter that draws noise).

    Parameters
    ----------
    rng : numpy.random.Generator
        Create one with ``np.random.default_rng(seed)``.
    allow_none : bool
        Accept ``None`` too (returned unchanged), for functions whose
        randomness is optional (e.g. the row choice of
        :func:`dpsens.transformations.bound_contributions`).

    Raises
    ------
    TypeError
        If ``rng`` is anything else (an int seed, the legacy
        ``np.random.RandomState`` or the ``np.random`` module; ``None`` unless
        ``allow_none``).
    """
    if allow_none and rng is None:
        return None
    if not isinstance(rng, np.random.Generator):
        expected = "None or a numpy.random.Generator" if allow_none else "a numpy.random.Generator"
        raise TypeError(
            f"rng must be {expected}, e.g. rng = np.random.default_rng(42); "
            f"got {rng!r} of type {type(rng).__name__}"
        )
    return rng


def as_nonnegative(value: object, name: str) -> float:
    """A finite real number ``>= 0`` (a sensitivity, a distance), as ``float``."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a number >= 0, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return value
