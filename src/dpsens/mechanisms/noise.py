"""The one place the book draws Laplace and Gaussian noise: numpy's floating-point samplers, or exact integer noise.

Chapter: *Noise a computer can actually sample* (the ``secure=`` choice);
every chapter that releases a noisy number draws through these two
functions (``tests/package/test_floating.py`` checks that no other module of the
package, and no chapter, calls ``rng.laplace`` or ``rng.normal`` itself).
With ``secure=False`` (the default) they are exactly numpy's
``rng.laplace(0.0, scale, size)`` and ``rng.normal(0.0, sigma, size)`` --
the same calls, so every seeded number of the book is unchanged -- which
illustrate the mechanisms but are not private as implemented (the
floating-point attack of the chapter).  With ``secure=True`` they return
integer noise sampled exactly (:mod:`dpsens.mechanisms.discrete`): discrete
Laplace ``Lap_Z(scale)``, and the discrete Gaussian with ``σ`` rounded *up*
to a coarser rational the exact sampler accepts (more noise, never less).
Integer noise protects only an integer-valued answer: the mechanisms with
``secure=True`` refuse anything else.  :func:`rounded_laplace_noise` is
Laplace noise rounded to the nearest integer, ``r(Lap(b))``, for the
releases whose proof is about continuous Laplace noise with a data-dependent
scale (*Smooth sensitivity*): an integer answer plus it is the continuous
release rounded, a post-processing; with ``secure=True`` it is sampled
exactly from its own distribution.
"""
from __future__ import annotations

import math
from fractions import Fraction

from .._validate import as_nonnegative, check_rng
from .checks import Size, as_size
import numpy as np

from .discrete import as_rational, sample_bernoulli_exp, sample_discrete_gaussian, sample_discrete_laplace

__all__ = ["laplace_noise", "rounded_laplace_noise", "gaussian_noise", "secure_sigma", "MAX_SECURE_SIGMA"]

#: The largest σ of the exact discrete Gaussian sampler: 2σ²(σ + 1)² must fit below 2**56.
MAX_SECURE_SIGMA = 13_776


def laplace_noise(scale: float | Fraction, rng: np.random.Generator, size: Size = None,
                  secure: bool = False) -> float | np.ndarray:
    """Laplace noise of scale ``b``: ``rng.laplace(0.0, b, size)``, or exact discrete Laplace ``Lap_Z(b)`` if ``secure``.

    Chapter: *Noise a computer can actually sample* (and every chapter that adds Laplace noise).

    Parameters
    ----------
    scale : float
        ``b >= 0`` (0: no noise; floating point only); with ``secure=True``
        ``b > 0``, read as the decimal it prints as.
    rng : numpy.random.Generator
    size : int or tuple, optional
    secure : bool
        False: numpy's floating-point sampler (the book's illustrations).
        True: integers drawn exactly (:func:`~dpsens.mechanisms.discrete.sample_discrete_laplace`).

    Returns
    -------
    float, int or numpy.ndarray
    """
    rng = check_rng(rng)
    if secure:
        return sample_discrete_laplace(scale, rng, as_size(size))
    return rng.laplace(0.0, as_nonnegative(scale, "scale"), size=size)


def rounded_laplace_noise(scale: float | Fraction, rng: np.random.Generator, size: Size = None,
                          secure: bool = False) -> float | np.ndarray:
    """Laplace noise rounded to the nearest integer, ``r(Lap(b))``: ``np.rint(rng.laplace(0.0, b, size))``, or exactly if ``secure``.

    Chapter: *Smooth sensitivity* (``secure=True`` of the Laplace
    smooth-sensitivity release) and *Noise a computer can actually sample*.

    ``K = r(Lap(b))`` has ``P(K = 0) = 1 − e^{−1/(2b)}`` and, for ``k ≠ 0``,
    ``P(K = k) = sinh(1/(2b)) e^{−|k|/b}`` (the Laplace mass of
    ``[|k| − ½, |k| + ½]``).  ``secure=True`` samples it exactly, with integer
    arithmetic only: ``K = 0`` unless a coin with probability exactly
    ``e^{−1/(2b)}`` (:func:`~dpsens.mechanisms.discrete.sample_bernoulli_exp`)
    comes up; then ``K = ±(1 + G)`` with a fair sign and ``G`` geometric,
    ``P(G = g) ∝ e^{−g/b}`` -- a discrete Laplace draw ``Lap_Z(b)`` kept when
    it is ``>= 0`` (redrawn otherwise), which has exactly that law.

    Parameters
    ----------
    scale : float or Fraction
        ``b > 0``; with ``secure=True`` read as the decimal it prints as (a
        Fraction as it is), numerator and denominator at most ``2**40``.
    rng : numpy.random.Generator
    size : int or tuple, optional
    secure : bool

    Returns
    -------
    float or numpy.ndarray (``secure=False``), int or int64 array (``secure=True``)
    """
    rng = check_rng(rng)
    if not secure:
        out = np.rint(rng.laplace(0.0, as_nonnegative(scale, "scale"), size=size))
        return float(out) if np.ndim(out) == 0 else out
    size = as_size(size)
    b = as_rational(scale, "scale")
    n = 1 if size is None else int(np.prod(size))
    moved = np.asarray(sample_bernoulli_exp(1 / (2 * b), rng, n))
    g = np.zeros(n, dtype=np.int64)
    pending = np.flatnonzero(moved)
    while pending.size:
        y = np.asarray(sample_discrete_laplace(b, rng, pending.size))
        g[pending[y >= 0]] = y[y >= 0]
        pending = pending[y < 0]
    sign = np.where(rng.integers(0, 2, size=n) == 1, -1, 1)
    out = np.where(moved, sign * (1 + g), 0).astype(np.int64)
    return int(out[0]) if size is None else out.reshape(size)


def secure_sigma(sigma: float | Fraction) -> Fraction:
    """``σ`` rounded up to a rational the exact discrete Gaussian sampler accepts: a multiple of ``2**-k``.

    Chapter: *Noise a computer can actually sample*.  ``k`` is the largest
    integer with ``2 σ'² 4**k (⌊σ'⌋ + 1)² <= 2**56`` (``σ'`` a whole number when
    none is), so that every product of the sampler fits in int64; ``σ' >= σ``.
    ``σ`` above :data:`MAX_SECURE_SIGMA` raises ``ValueError``.

    Examples
    --------
    >>> secure_sigma(3)
    Fraction(3, 1)
    >>> float(secure_sigma(4.847)) >= 4.847
    True
    """
    exact = as_rational(sigma, "sigma")
    whole = math.ceil(exact)
    if 2 * whole ** 2 * (whole + 1) ** 2 > 2 ** 56:
        raise ValueError(f"sigma must be at most {MAX_SECURE_SIGMA} for the exact discrete Gaussian sampler "
                         f"(its int64 arithmetic), got {sigma!r}")
    bits = math.log2(float(exact) ** 2 * (float(exact) + 2) ** 2)
    k = math.floor((55 - bits) / 4)
    while True:                                          # ends at the latest when the step reaches 1 (σ' = whole)
        step = Fraction(2) ** -k if k >= 0 else Fraction(1)
        rounded = math.ceil(exact / step) * step
        a, c = (rounded ** 2).numerator, (rounded ** 2).denominator
        if 2 * a * c * (math.isqrt(a // c) + 1) ** 2 <= 2 ** 56:
            return rounded
        k -= 1


def gaussian_noise(sigma: float | Fraction, rng: np.random.Generator, size: Size = None,
                   secure: bool = False) -> float | np.ndarray:
    """Gaussian noise: ``rng.normal(0.0, σ, size)``, or the exact discrete Gaussian ``N_Z(0, σ'²)``, ``σ' = secure_sigma(σ)``, if ``secure``.

    Chapter: *Noise a computer can actually sample* (and every chapter that adds Gaussian noise).

    Parameters
    ----------
    sigma : float
        ``σ >= 0`` (0: no noise; floating point only); ``σ > 0`` with ``secure=True``.
    rng : numpy.random.Generator
    size : int or tuple, optional
    secure : bool

    Returns
    -------
    float, int or numpy.ndarray
    """
    rng = check_rng(rng)
    if secure:
        return sample_discrete_gaussian(secure_sigma(sigma), rng, as_size(size))
    return rng.normal(0.0, as_nonnegative(sigma, "sigma"), size=size)
