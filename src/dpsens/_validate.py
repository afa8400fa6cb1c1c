"""Input checks shared by every public function of :mod:`dpsens` (so by every chapter).

Each checker either returns a clean value or raises ``ValueError`` /
``TypeError`` with a message that names the argument, shows what was given and
says what would be valid.
"""
from __future__ import annotations

import numbers

import numpy as np

RELATIONS = ("unbounded", "bounded")


def as_data(x, name: str = "x", allow_empty: bool = False) -> np.ndarray:
    """Return ``x`` as a 1-D float array of finite numbers, or raise.

    Accepts lists, tuples, numpy arrays and pandas Series.
    """
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got the string {x!r}")
    if isinstance(x, numbers.Number):
        raise TypeError(
            f"{name} must be a sequence of numbers (a list, numpy array or pandas Series), "
            f"got the single number {x!r}"
        )
    values = getattr(x, "to_numpy", None)
    arr = np.asarray(values() if callable(values) else x)
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} must hold numbers only (int or float); got values of dtype {arr.dtype}"
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)][0]
        raise ValueError(f"{name} must hold finite numbers only; it contains {bad!r} (NaN or infinity)")
    return arr


def as_int(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as a Python int within ``[minimum, maximum]``, or raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum or maximum is not None and value > maximum:
        lo = "-inf" if minimum is None else minimum
        hi = "inf" if maximum is None else maximum
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value}")
    return value


def as_positive(value, name: str) -> float:
    """Return ``value`` as a float that is finite and > 0, or raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive number, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def as_probability(value, name: str = "delta") -> float:
    """Return ``value`` as a float strictly between 0 and 1, or raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1), got {value!r}")
    value = float(value)
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")
    return value


def as_bounds(lower, upper) -> tuple[float, float]:
    """Check a clipping interval ``[lower, upper]`` and return it as floats."""
    for name, v in (("lower", lower), ("upper", upper)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
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


def check_relation(neighbors) -> str:
    """Return the relation name if it is 'unbounded' or 'bounded', else raise."""
    if neighbors not in RELATIONS:
        raise ValueError(f"neighbors must be one of {RELATIONS}, got {neighbors!r}")
    return neighbors
