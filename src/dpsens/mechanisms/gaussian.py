"""The Gaussian mechanism: classic and analytic calibration of σ, its exact privacy profile δ(ε), and zCDP.

Chapters: *Many answers at once* (where all of it is defined and proved:
the classic calibration and its range ε < 1, the analytic Gaussian
mechanism, zero-concentrated DP and its conversion to (ε, δ), when Gaussian
noise beats Laplace noise), *How accurate is it, and what can no mechanism
beat?* (the Gaussian count's error), *Composing releases* (ε of a Gaussian
release, zCDP), *Noise a computer can actually sample* (δ of the discrete
Gaussian, ``secure=True``) and *Transformations* (noise for a sum whose L2
sensitivity is bounded).
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_int, as_nonnegative, as_positive, as_probability
from .checks import Size, add_noise, as_value
from .discrete import as_integer_values, discrete_gaussian_delta, discrete_gaussian_mechanism
from .noise import gaussian_noise, secure_sigma

__all__ = ["gaussian_delta", "gaussian_epsilon", "gaussian_sigma", "gaussian_mechanism", "gaussian_rho", "zcdp_sigma", "zcdp_compose",
           "zcdp_to_dp", "gaussian_laplace_crossover", "per_coordinate_noise_std"]


def gaussian_delta(sigma: float, sensitivity: float, epsilon: float) -> float:
    """The smallest δ for which Gaussian noise ``N(0, sigma²)`` is (ε, δ)-DP.

    Chapter: *Many answers at once* (the analytic Gaussian mechanism); *Noise a computer can
    actually sample* (the discrete Gaussian's δ).

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


def gaussian_epsilon(sigma: float, sensitivity: float, delta: float) -> float:
    """The smallest ε for which Gaussian noise ``N(0, sigma²)`` is (ε, δ)-DP: the inverse of :func:`gaussian_delta`.

    Chapter: *Many answers at once*.  δ(ε) falls strictly as ε grows, so
    the ε with ``gaussian_delta(sigma, sensitivity, ε) = delta`` is unique;
    it is found by Brent's method on a bracket doubled until it holds the
    root.  Returns 0.0 when even ε = 0 needs no more than ``delta``.

    Examples
    --------
    >>> round(gaussian_epsilon(gaussian_sigma(1.0, 2.0, 1e-6, "analytic"), 1.0, 1e-6), 6)
    2.0
    """
    sigma = as_positive(sigma, "sigma")
    delta_f = as_nonnegative(sensitivity, "sensitivity")
    delta = as_probability(delta, "delta")
    if delta_f == 0:
        return 0.0
    from scipy import optimize, special

    if special.ndtr(delta_f / (2 * sigma)) - special.ndtr(-delta_f / (2 * sigma)) <= delta:   # δ(0)
        return 0.0

    def excess(eps: float) -> float:
        return gaussian_delta(sigma, delta_f, eps) - delta

    hi = 1.0
    while excess(hi) > 0:
        hi *= 2
    lo = hi / 2
    while excess(lo) <= 0:     # δ(ε) -> δ(0) > delta as ε -> 0, so this stops
        lo /= 2
    eps = optimize.brentq(excess, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps)
    while gaussian_delta(sigma, delta_f, eps) > delta:     # round-off: never report too small an ε
        eps = math.nextafter(eps, math.inf)
    return eps


def gaussian_sigma(sensitivity: float, epsilon: float, delta: float, method: str = "classic") -> float:
    """Standard deviation of the Gaussian mechanism for (ε, δ)-DP.

    Chapter: *Many answers at once* (classic and analytic σ); *How accurate is it, and what can
    no mechanism beat?*; *Transformations*.

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
        mechanism of Balle & Wang 2018, Theorem 8), valid for every ε > 0 and
        never larger than the classic σ; found by Brent's method on a
        bracket in log σ (to round-off, rounded up so that δ(σ) <= δ).

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
    return _analytic_sigma(delta_f, epsilon, delta)


def _analytic_sigma(delta_f: float, epsilon: float, delta: float) -> float:
    """The σ at which the exact profile δ(σ) equals ``delta``: Brent's method on a bracket in log σ.

    δ(σ) falls strictly from 1 (σ → 0) to 0 (σ → ∞), so the root is unique.
    The bracket starts at the classic σ for ε = 1 scaled by ``delta_f`` and is
    widened by factors of 2 until δ changes sign across it; Brent's method
    then keeps the root inside the bracket at every step, so it cannot diverge.
    """
    from scipy import optimize  # lazy, like scipy.special in gaussian_delta

    def excess(log_sigma: float) -> float:
        return gaussian_delta(math.exp(log_sigma), delta_f, epsilon) - delta

    lo = hi = math.log(delta_f)
    while excess(hi) > 0:          # too little noise: move the upper end up
        hi += math.log(2)
    while excess(lo) <= 0:         # enough noise already: move the lower end down
        lo -= math.log(2)
    root = optimize.brentq(excess, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=500)
    sigma = math.exp(root)
    while gaussian_delta(sigma, delta_f, epsilon) > delta:   # round-off: never return a σ that is too small
        sigma = math.nextafter(sigma, math.inf)
    return sigma


def gaussian_mechanism(value: ArrayLike, sensitivity: float, epsilon: float, delta: float, rng: np.random.Generator,
                       size: Size = None, method: str = "classic", secure: bool = False) -> float | np.ndarray:
    """Release ``value + N(0, sigma²)`` with σ from :func:`gaussian_sigma`.

    Chapter: *How accurate is it, and what can no mechanism beat?* (the Gaussian count's error);
    *Noise a computer can actually sample* (``secure=True``, the discrete Gaussian).

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
    secure : bool
        False (default): numpy's floating-point Gaussian noise, the book's
        illustrations (not private as implemented: *Noise a computer can
        actually sample*).  True: ``value`` and ``sensitivity`` must be
        integers; the noise is the discrete Gaussian sampled exactly, with σ
        the calibration above rounded up (:func:`~dpsens.mechanisms.noise.secure_sigma`)
        and raised until the discrete Gaussian's own exact δ
        (:func:`~dpsens.mechanisms.discrete.discrete_gaussian_delta`) is at most ``delta``.

    Returns
    -------
    float or numpy.ndarray
        Integers with ``secure=True``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(gaussian_mechanism(0.0, 1.0, 2.0, 1e-5, rng, method="analytic"), 4)
    0.2507
    """
    sigma = gaussian_sigma(sensitivity, epsilon, delta, method=method)
    if secure:
        as_integer_values(value)
        delta_f = as_int(sensitivity, "sensitivity", minimum=1)
        exact = secure_sigma(sigma)
        while discrete_gaussian_delta(epsilon, exact, delta_f) > delta:
            exact = secure_sigma(exact * (1 + 2 ** -10))
        return discrete_gaussian_mechanism(value, delta_f, exact, rng, size)
    value = as_value(value)
    return add_noise(value, lambda rng, size: gaussian_noise(sigma, rng, size), rng, size)


def gaussian_rho(sigma: float, sensitivity: float) -> float:
    """The zCDP parameter ρ = Δ₂²/(2σ²) of Gaussian noise ``N(0, sigma²)`` on a query of L2 sensitivity Δ₂.

    Chapter: *Many answers at once*.  Bun & Steinke (2016), Proposition 1.6:
    the Gaussian mechanism is ρ-zero-concentrated differentially private.

    Examples
    --------
    >>> gaussian_rho(2.0, 1.0)
    0.125
    """
    sigma = as_positive(sigma, "sigma")
    delta_f = as_nonnegative(sensitivity, "sensitivity")
    return delta_f ** 2 / (2 * sigma ** 2)


def zcdp_sigma(sensitivity: float, rho: float) -> float:
    """The σ of Gaussian noise that makes a query of L2 sensitivity Δ₂ ρ-zCDP: Δ₂ / √(2ρ).

    Chapter: *Many answers at once*.

    Examples
    --------
    >>> zcdp_sigma(1.0, 0.125)
    2.0
    """
    delta_f = as_nonnegative(sensitivity, "sensitivity")
    rho = as_positive(rho, "rho")
    return delta_f / math.sqrt(2 * rho)


def zcdp_compose(rhos: Iterable[float]) -> float:
    """Composition of zCDP releases: the ρ add up (Bun & Steinke 2016, Lemma 1.7).

    Chapter: *Many answers at once*.

    Parameters
    ----------
    rhos : sequence of float
        One ρ ``>= 0`` per release (at least one).

    Examples
    --------
    >>> zcdp_compose([0.125, 0.125, 0.25])
    0.5
    """
    values = np.asarray(rhos, dtype=float).ravel() if not isinstance(rhos, (int, float)) else np.array([rhos], float)
    if values.size == 0:
        raise ValueError("rhos must hold at least one ρ, got an empty sequence")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(f"rhos must be finite numbers >= 0, got {rhos!r}")
    return float(values.sum())


def zcdp_to_dp(rho: float, delta: float) -> float:
    """The ε of (ε, δ)-DP implied by ρ-zCDP: ε = ρ + 2√(ρ ln(1/δ)).

    Chapter: *Many answers at once*.  Bun & Steinke (2016), Proposition 1.3.
    A valid conversion for every ρ-zCDP mechanism; for the Gaussian mechanism
    itself the exact profile (:func:`gaussian_delta`) gives a smaller ε.

    Examples
    --------
    >>> round(zcdp_to_dp(0.125, 1e-5), 4)
    2.5243
    """
    rho = as_nonnegative(rho, "rho")
    delta = as_probability(delta, "delta")
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def per_coordinate_noise_std(d: int, epsilon: float, delta: float | None = None, mechanism: str = "laplace",
                             max_contribution: float = 1.0) -> float:
    """Standard deviation of the noise on each of ``d`` answers when one person changes each by up to q.

    Chapter: *Many answers at once*.  One person moves every one of the
    ``d`` coordinates by at most ``q = max_contribution``: the L1 sensitivity
    is ``d q`` and the L2 sensitivity ``√d q``.  Laplace noise of scale
    ``d q / ε`` on each coordinate has standard deviation ``√2 d q / ε``;
    Gaussian noise has the analytic σ for Δ₂ = ``√d q`` (ε-DP against
    (ε, δ)-DP: compare them knowing that the Gaussian also spends δ).

    Parameters
    ----------
    d : int
        Number of answers, ``>= 1``.
    epsilon : float
    delta : float, optional
        Needed for ``mechanism="gaussian"``.
    mechanism : {"laplace", "gaussian"}
    max_contribution : float
        ``q > 0``.
    """
    d = as_int(d, "d", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    q = as_positive(max_contribution, "max_contribution")
    if mechanism == "laplace":
        return math.sqrt(2) * d * q / epsilon
    if mechanism == "gaussian":
        if delta is None:
            raise ValueError("delta must be given for mechanism='gaussian', e.g. delta=1e-6")
        return gaussian_sigma(math.sqrt(d) * q, epsilon, delta, method="analytic")
    raise ValueError(f"mechanism must be 'laplace' or 'gaussian', got {mechanism!r}")


def gaussian_laplace_crossover(epsilon: float, delta: float) -> int:
    """The smallest number of answers d at which Gaussian noise is smaller than Laplace noise, per answer.

    Chapter: *Many answers at once*.  With each of ``d`` answers moved by at
    most q by one person, Laplace noise has standard deviation ``√2 d q/ε``
    and the analytic Gaussian ``√d · σ₁`` (σ is proportional to Δ₂, and σ₁
    is the analytic σ for Δ₂ = 1, q = 1).  So Gaussian noise is smaller
    exactly when ``√d > σ₁ ε / √2``, that is for ``d > (σ₁ ε)² / 2``; q
    cancels.

    Examples
    --------
    >>> gaussian_laplace_crossover(1.0, 1e-6)
    9
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    sigma_1 = gaussian_sigma(1.0, epsilon, delta, method="analytic")
    d = max(1, math.floor((sigma_1 * epsilon) ** 2 / 2))
    while per_coordinate_noise_std(d, epsilon, delta, "gaussian") >= per_coordinate_noise_std(d, epsilon):
        d += 1
    while d > 1 and (per_coordinate_noise_std(d - 1, epsilon, delta, "gaussian")
                     < per_coordinate_noise_std(d - 1, epsilon)):
        d -= 1
    return d
