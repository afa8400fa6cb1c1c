"""Argument checks shared by the mechanisms, and the one "check the value, add noise" ending.

Used by every module of :mod:`dpsens.mechanisms` and by the modules that draw
random numbers (:mod:`dpsens.proportions`, :mod:`dpsens.transformations`),
so by the chapters *Why local sensitivity leaks*, *Propose-test-release*,
*Smooth sensitivity*, *Sample and aggregate*, *Proportions* and
*Transformations*.  Every random number comes from a seeded
:class:`numpy.random.Generator` that :func:`dpsens._validate.check_rng` accepts
(``check_rng`` and ``as_nonnegative`` live there, below the mechanisms).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_int, check_rng

__all__ = ["as_size", "as_value", "add_noise", "Size"]

#: The ``size`` argument of the samplers: ``None`` (one draw, or the shape of the value), a count or a shape.
Size = int | tuple[int, ...] | None


@overload
def as_size(size: None) -> None: ...


@overload
def as_size(size: int) -> int: ...


@overload
def as_size(size: tuple[int, ...]) -> tuple[int, ...]: ...


@overload
def as_size(size: Size) -> Size: ...


def as_size(size: Size) -> Size:
    """``None``, a count ``>= 0`` or a tuple of counts: the ``size`` argument of the samplers."""
    if size is None:
        return None
    if isinstance(size, tuple):
        return tuple(as_int(s, "size", minimum=0) for s in size)
    return as_int(size, "size", minimum=0)


def as_value(value: ArrayLike, name: str = "value") -> float | np.ndarray:
    """A finite real number (returned as ``float``) or array of finite real numbers (as a float array)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}")
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if arr.ndim == 0:
        return float(arr)
    return arr.astype(float)


def add_noise(value: ArrayLike, draw: Callable[[np.random.Generator, Size], float | np.ndarray],
              rng: np.random.Generator,
              size: Size = None) -> float | np.ndarray:
    """Release ``value + draw(rng, size)``: the ending every additive-noise mechanism shares.

    Chapter: *Why local sensitivity leaks* (and every noise mechanism).

    Checks ``value`` (finite number or array), ``rng`` and ``size``; without
    ``size`` the noise has the shape of ``value`` (independent noise per
    entry).

    Parameters
    ----------
    value : float or array_like
        The exact answer(s).
    draw : callable
        ``draw(rng, size)`` returns the noise, e.g.
        ``lambda rng, size: laplace_noise(scale, rng, size)`` (:mod:`dpsens.mechanisms.noise`).
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    float or numpy.ndarray
        A ``float`` when the result is a scalar.
    """
    value = as_value(value)
    rng = check_rng(rng)
    size = as_size(size)
    if size is None:
        size = np.shape(value) or None
    out = value + draw(rng, size)
    return float(out) if np.ndim(out) == 0 else out
