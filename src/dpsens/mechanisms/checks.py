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

import numpy as np

from .._validate import as_int, check_rng

__all__ = ["as_size", "as_value", "add_noise"]


def as_size(size):
    """``None``, a count ``>= 0`` or a tuple of counts: the ``size`` argument of the samplers."""
    if size is None:
        return None
    if isinstance(size, tuple):
        return tuple(as_int(s, "size", minimum=0) for s in size)
    return as_int(size, "size", minimum=0)


def as_value(value, name: str = "value"):
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


def add_noise(value, draw, rng, size=None):
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
