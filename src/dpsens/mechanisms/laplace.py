"""The Laplace mechanism and its density, its use for a mean (noisy sum over noisy count), its broken local-sensitivity variant.

Chapters: the Laplace mechanism throughout the book (*Introduction*, *Why
local sensitivity leaks*, *Proportions*); :func:`noisy_mean_sum_count` is the
global-sensitivity baseline of *Propose-test-release*, *Smooth sensitivity*
and *Sample and aggregate*; :func:`local_sensitivity_laplace` is the attack
target of *Why local sensitivity leaks*; :func:`laplace_pdf` is the noise's
density the figures draw (*Introduction*, *Differential privacy in one
chapter*, *Proportions*, *Sensitivity of transformations*).
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_int, as_nonnegative, as_positive, check_rng
from .checks import Size, add_noise, as_size, as_value
from .discrete import discrete_laplace_mechanism
from .noise import laplace_noise

__all__ = ["laplace_noise_scale", "laplace_mechanism", "noisy_mean_sum_count", "local_sensitivity_laplace",
           "laplace_pdf"]


def laplace_noise_scale(sensitivity: float, epsilon: float) -> float:
    """The scale ``b = sensitivity / epsilon`` of the Laplace mechanism.

    Chapter: *Why local sensitivity leaks*.

    Parameters
    ----------
    sensitivity : float
        Global (L1) sensitivity of the query, ``>= 0``.
    epsilon : float
        Privacy parameter, ``> 0``.

    Returns
    -------
    float
        The scale ``b``; the noise has density ``exp(-|z|/b) / (2b)``, standard
        deviation ``sqrt(2)·b``.

    Examples
    --------
    >>> laplace_noise_scale(100, 0.5)
    200.0
    """
    return as_nonnegative(sensitivity, "sensitivity") / as_positive(epsilon, "epsilon")


def laplace_mechanism(value: ArrayLike, sensitivity: float, epsilon: float, rng: np.random.Generator,
                      size: Size = None, secure: bool = False) -> float | np.ndarray:
    """Release ``value + Lap(sensitivity / epsilon)``.

    Chapter: *Why local sensitivity leaks* (and the Laplace mechanism
    throughout the book).

    ε-differentially private when ``sensitivity`` is the *global* sensitivity
    of the query that produced ``value``.

    Parameters
    ----------
    value : float or array_like
        The exact answer(s).  An array gets independent noise per entry.
    sensitivity : float
        Global L1 sensitivity, ``>= 0``.
    epsilon : float
        Privacy parameter, ``> 0``.
    rng : numpy.random.Generator
        Source of randomness.
    size : int or tuple, optional
        Draw this many independent releases of a scalar ``value`` (or an array
        broadcastable with ``value``); handy for simulations.
    secure : bool
        False (default): numpy's floating-point Laplace noise, the book's
        illustrations -- ε-DP on the real numbers, not as implemented
        (*Noise a computer can actually sample*).  True: ``value`` and
        ``sensitivity`` must be integers, and the noise is discrete Laplace
        ``Lap_Z(Δ/ε)`` sampled exactly
        (:func:`~dpsens.mechanisms.discrete.discrete_laplace_mechanism`):
        ε-DP as implemented.

    Returns
    -------
    float or numpy.ndarray
        The noisy release(s) (integers with ``secure=True``).

    Raises
    ------
    TypeError
        If ``rng`` is not a Generator or ``value`` is not numeric.
    ValueError
        If ``epsilon <= 0`` or ``sensitivity < 0``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(laplace_mechanism(10.0, 1.0, 1.0, rng), 4)
    10.3201
    """
    if secure:
        return discrete_laplace_mechanism(value, as_int(sensitivity, "sensitivity", minimum=1), epsilon, rng, size)
    value = as_value(value)
    scale = laplace_noise_scale(sensitivity, epsilon)
    return add_noise(value, lambda rng, size: laplace_noise(scale, rng, size), rng, size)


def noisy_mean_sum_count(x: ArrayLike, lower: float, upper: float, epsilon: float, rng: np.random.Generator,
                         size: Size = None) -> float | np.ndarray:
    """Mean as a noisy sum over a noisy count, each with half the budget.

    Chapter: *Sample and aggregate* (the global-sensitivity baseline of the
    part; *Programming Differential Privacy*'s ``gs_avg``).

    Data are clipped to ``[lower, upper]``; the sum has global sensitivity
    ``max(|lower|, |upper|)`` and the count 1 (unbounded neighbours), and each
    gets ``Lap(sensitivity / (ε/2))``.  ε-DP by sequential composition; the
    quotient is post-processing.

    Parameters
    ----------
    x : array_like
    lower, upper : float
        Clipping bounds of the records.
    epsilon : float
        Total budget.
    rng : numpy.random.Generator
    size : int, optional
        Number of independent releases.

    Returns
    -------
    float or numpy.ndarray
    """
    x = as_data(x)
    lower, upper = as_bounds(lower, upper)
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    size = as_size(size)
    clipped = np.clip(x, lower, upper)
    sum_sens = max(abs(lower), abs(upper))
    noisy_sum = clipped.sum() + laplace_noise(sum_sens / (epsilon / 2), rng, size)
    noisy_count = len(clipped) + laplace_noise(1.0 / (epsilon / 2), rng, size)
    out = noisy_sum / noisy_count
    return float(out) if np.ndim(out) == 0 else out


def local_sensitivity_laplace(value: ArrayLike, local_sensitivity: float, epsilon: float, rng: np.random.Generator,
                              size: Size = None) -> float | np.ndarray:
    """NOT PRIVATE: ``value + Lap(local_sensitivity / epsilon)``.

    Chapter: *Why local sensitivity leaks*.

    Calibrating Laplace noise to the local sensitivity of the actual dataset
    looks like the Laplace mechanism but is **not differentially private**:
    the noise scale itself depends on the data, so two neighbouring datasets
    with different local sensitivities produce output distributions whose
    ratio is unbounded (an output far from the answer is infinitely more
    likely under the dataset with the larger scale if the other scale is 0,
    and arbitrarily more likely in general).  The chapter measures the leak.
    Use it only to demonstrate the attack.

    Parameters
    ----------
    value : float
        Exact answer ``f(x)``.
    local_sensitivity : float
        ``LS_f(x) >= 0`` of the same dataset.  With 0 the "release" is exact.
    epsilon : float
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    float or numpy.ndarray
    """
    value = as_value(value)
    ls = as_nonnegative(local_sensitivity, "local_sensitivity")
    epsilon = as_positive(epsilon, "epsilon")
    return add_noise(value, lambda rng, size: laplace_noise(ls / epsilon, rng, size), rng, size)


def laplace_pdf(t: ArrayLike, scale: float) -> np.ndarray:
    """Density of the Laplace distribution with location 0: ``exp(-|t|/b) / (2b)``.

    Chapter: *Introduction*.
    """
    scale = as_positive(scale, "scale")
    t = np.asarray(t, dtype=float)
    return np.exp(-np.abs(t) / scale) / (2 * scale)
