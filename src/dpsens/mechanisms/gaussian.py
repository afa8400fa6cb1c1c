"""The Gaussian mechanism: classic and analytic calibration of σ, and its exact privacy profile δ(ε).

Chapters: *Smooth sensitivity* (the Gaussian noise aside) and
*Transformations* (noise for a sum whose L2 sensitivity is bounded).
"""
from __future__ import annotations

import math

import numpy as np  # noqa: F401  (doctests)

from .._validate import as_positive, as_probability
from .checks import add_noise, as_nonnegative, as_value

__all__ = ["gaussian_delta", "gaussian_sigma", "gaussian_mechanism"]


def gaussian_delta(sigma, sensitivity, epsilon) -> float:
    """The smallest δ for which Gaussian noise ``N(0, sigma²)`` is (ε, δ)-DP.

    Chapter: *Smooth sensitivity* (Gaussian noise aside).

    Exact privacy profile of the Gaussian mechanism (Balle & Wang 2018,
    Theorem 8), for a query of L2 sensitivity ``sensitivity``::

        δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε · Φ(−Δ/(2σ) − εσ/Δ)

    Parameters
    ----------
    sigma, sensitivity, epsilon : float
        Noise standard deviation (> 0), L2 sensitivity (>= 0), ε (> 0).

    Returns
    -------
    float
        ``0.0`` when ``sensitivity`` is 0: a constant query leaks nothing.
    """
    sigma = as_positive(sigma, "sigma")
    delta_f = as_nonnegative(sensitivity, "sensitivity")
    epsilon = as_positive(epsilon, "epsilon")
    if delta_f == 0:
        return 0.0
    from scipy import special  # lazy: scipy is needed only here and in polynomial_tail_cdf

    a = delta_f / (2 * sigma)
    b = epsilon * sigma / delta_f
    # Φ(a-b) - e^ε Φ(-a-b), the second term computed in log space to avoid overflow
    first = special.ndtr(a - b)
    second = math.exp(epsilon + special.log_ndtr(-a - b))
    return float(max(first - second, 0.0))


def gaussian_sigma(sensitivity, epsilon, delta, method: str = "classic") -> float:
    """Standard deviation of the Gaussian mechanism for (ε, δ)-DP.

    Chapter: *Smooth sensitivity* (Gaussian noise aside).

    Parameters
    ----------
    sensitivity : float
        Global L2 sensitivity, ``>= 0``.  Sensitivity 0 (a constant query)
        gives ``sigma = 0``: no noise is needed, as for
        :func:`laplace_noise_scale`.
    epsilon : float
        ``> 0``; the classic calibration needs ``epsilon < 1``.
    delta : float
        In ``(0, 1)``.
    method : {"classic", "analytic"}
        ``"classic"``: ``sigma = sqrt(2 ln(1.25/δ)) · Δ / ε`` (Dwork & Roth
        2014, Theorem A.1), proven only for ``ε < 1`` -- larger ε raises a
        ``ValueError``.  ``"analytic"``: the smallest σ whose exact privacy
        profile :func:`gaussian_delta` is ``<= δ`` (the analytic Gaussian
        mechanism of Balle & Wang 2018), valid for every ε > 0 and never larger
        than the classic σ; found by bisection to a relative precision of 1e-12.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For invalid parameters, an unknown method, or ``method="classic"``
        with ``epsilon >= 1``.

    Examples
    --------
    >>> round(gaussian_sigma(1.0, 0.5, 1e-5), 4)
    9.6896
    """
    delta_f = as_nonnegative(sensitivity, "sensitivity")
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    if method not in ("classic", "analytic"):
        raise ValueError(f"method must be 'classic' or 'analytic', got {method!r}")
    if method == "classic":
        if epsilon >= 1:
            raise ValueError(
                f"the classic Gaussian mechanism (Dwork & Roth, Thm A.1) is proven for epsilon < 1 only, "
                f"got epsilon={epsilon!r}; use method='analytic' (Balle & Wang 2018) for epsilon >= 1"
            )
        return math.sqrt(2 * math.log(1.25 / delta)) * delta_f / epsilon
    # method == "analytic"
    if delta_f == 0:
        return 0.0
    lo, hi = 1e-12 * delta_f, delta_f
    while gaussian_delta(hi, delta_f, epsilon) > delta:   # δ(σ) decreases in σ
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = math.sqrt(lo * hi) if lo > 0 else hi / 2
        if gaussian_delta(mid, delta_f, epsilon) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return hi


def gaussian_mechanism(value, sensitivity, epsilon, delta, rng, size=None, method: str = "classic"):
    """Release ``value + N(0, sigma²)`` with σ from :func:`gaussian_sigma`.

    Chapter: *Smooth sensitivity* (Gaussian noise aside).

    (ε, δ)-differentially private when ``sensitivity`` is the global L2
    sensitivity.  ``method="classic"`` (default) uses
    ``sigma = sqrt(2 ln(1.25/δ)) · Δ/ε`` and refuses ``epsilon >= 1`` (the
    theorem does not cover it); pass ``method="analytic"`` for the analytic
    Gaussian mechanism of Balle & Wang (2018), valid for every ε.

    Parameters
    ----------
    value : float or array_like
    sensitivity : float
        Global L2 sensitivity, ``>= 0``; with 0 the value is returned
        unchanged (as by :func:`laplace_mechanism`).
    epsilon : float
    delta : float
    rng : numpy.random.Generator
    size : int or tuple, optional
    method : {"classic", "analytic"}

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(gaussian_mechanism(0.0, 1.0, 2.0, 1e-5, rng, method="analytic"), 4)
    0.2507
    """
    value = as_value(value)
    sigma = gaussian_sigma(sensitivity, epsilon, delta, method=method)
    return add_noise(value, lambda rng, size: rng.normal(0.0, sigma, size=size), rng, size)
