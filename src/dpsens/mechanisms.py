"""Noise-adding mechanisms: Laplace, Gaussian, heavy-tailed, PTR, smooth sensitivity, sample-and-aggregate.

Chapters: *Why local sensitivity leaks*, *Propose-test-release*, *Smooth
sensitivity* and *Sample and aggregate* (part "Using local sensitivity
safely").

Every mechanism takes a seeded :class:`numpy.random.Generator` as ``rng`` and
draws all of its randomness from it, so that a figure or a test can be
reproduced exactly.  Inputs are validated: ``epsilon > 0``, ``0 < delta < 1``,
``lower <= upper`` and data inside ``[lower, upper]``.

Summary of the privacy guarantees (one record added or removed, or replaced,
according to the ``neighbors`` argument of the sensitivity functions):

======================================  ============================================
function                                guarantee
======================================  ============================================
:func:`laplace_mechanism`               ε-DP if ``sensitivity`` is the *global* sensitivity
:func:`gaussian_mechanism`              (ε, δ)-DP if ``sensitivity`` is the global L2 sensitivity
:func:`ptr_from_distance`,              (2ε, δ)-DP: ε for the noisy test, ε for the release,
:func:`propose_test_release`            δ for passing the test by accident (default threshold)
:func:`smooth_sensitivity_mechanism`    (ε, δ)-DP with Laplace noise, ε-DP with heavy-tailed noise
:func:`sample_and_aggregate`            ε-DP (chunks disjoint and chosen without looking at the data;
                                        bounded neighbours, or ``partition="independent"``)
:func:`local_sensitivity_laplace`       **not** differentially private (teaching example only)
======================================  ============================================
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from ._validate import as_bounds, as_data, as_int, as_positive, as_probability, check_in_bounds, check_relation
from .queries import check_query

__all__ = [
    "check_rng", "laplace_noise_scale", "laplace_mechanism", "gaussian_sigma", "gaussian_delta",
    "gaussian_mechanism", "polynomial_tail_pdf", "polynomial_tail_cdf", "sample_polynomial_tail",
    "heavy_tailed_constants", "ptr_threshold", "ptr_accidental_pass_probability", "ptr_from_distance",
    "propose_test_release", "smooth_sensitivity_beta", "smooth_sensitivity_mechanism", "chunk_answers",
    "sample_and_aggregate", "noisy_mean_sum_count", "local_sensitivity_laplace", "PTR_THRESHOLDS",
]


# --------------------------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------------------------

def check_rng(rng) -> np.random.Generator:
    """Return ``rng`` if it is a :class:`numpy.random.Generator`, else raise ``TypeError``.

    Chapter: *Why local sensitivity leaks*.

    Raises
    ------
    TypeError
        If ``rng`` is anything else (an int seed, ``None``, the legacy
        ``np.random.RandomState`` or the ``np.random`` module).  Create one
        with ``np.random.default_rng(seed)``.
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            "rng must be a numpy.random.Generator, e.g. rng = np.random.default_rng(42); "
            f"got {rng!r} of type {type(rng).__name__}"
        )
    return rng


def _as_size(size):
    if size is None:
        return None
    if isinstance(size, tuple):
        return tuple(as_int(s, "size", minimum=0) for s in size)
    return as_int(size, "size", minimum=0)


def _as_value(value, name: str = "value"):
    """A finite real number or array of finite real numbers."""
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


def _as_nonnegative(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number >= 0, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


# --------------------------------------------------------------------------------------------
# Laplace
# --------------------------------------------------------------------------------------------

def laplace_noise_scale(sensitivity, epsilon) -> float:
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
    return _as_nonnegative(sensitivity, "sensitivity") / as_positive(epsilon, "epsilon")


def laplace_mechanism(value, sensitivity, epsilon, rng, size=None):
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

    Returns
    -------
    float or numpy.ndarray
        The noisy release(s).

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
    value = _as_value(value)
    scale = laplace_noise_scale(sensitivity, epsilon)
    rng = check_rng(rng)
    size = _as_size(size)
    if size is None:
        size = np.shape(value) or None
    noise = rng.laplace(0.0, scale, size=size)
    out = value + noise
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------
# Gaussian
# --------------------------------------------------------------------------------------------

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
    delta_f = _as_nonnegative(sensitivity, "sensitivity")
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
    delta_f = _as_nonnegative(sensitivity, "sensitivity")
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
    value = _as_value(value)
    sigma = gaussian_sigma(sensitivity, epsilon, delta, method=method)
    rng = check_rng(rng)
    size = _as_size(size)
    if size is None:
        size = np.shape(value) or None
    out = value + rng.normal(0.0, sigma, size=size)
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------
# heavy-tailed noise for pure-ε smooth sensitivity (Nissim, Raskhodnikova & Smith 2007)
# --------------------------------------------------------------------------------------------

def _check_gamma(gamma) -> float:
    gamma = as_positive(gamma, "gamma")
    if gamma <= 1:
        raise ValueError(f"gamma must be > 1 for the density 1/(1+|z|^gamma) to be integrable, got {gamma!r}")
    return gamma


def polynomial_tail_pdf(z, gamma: float = 4.0):
    """Density ``h(z) = c_γ / (1 + |z|^γ)`` of the heavy-tailed noise.

    Chapter: *Smooth sensitivity*.

    The normalising constant is ``c_γ = γ sin(π/γ) / (2π)`` because
    ``∫ dz / (1+|z|^γ) = (2π/γ) / sin(π/γ)``.  For γ = 2 this is the standard
    Cauchy density; for γ = 4 the variance is exactly 1.
    """
    gamma = _check_gamma(gamma)
    z = np.asarray(z, dtype=float)
    c = gamma * math.sin(math.pi / gamma) / (2 * math.pi)
    out = c / (1.0 + np.abs(z) ** gamma)
    return float(out) if out.ndim == 0 else out


def polynomial_tail_cdf(z, gamma: float = 4.0):
    """Distribution function of :func:`polynomial_tail_pdf`, in closed form.

    Chapter: *Smooth sensitivity*.

    With ``w = |z|^γ / (1 + |z|^γ)``, ``P(|Z| <= |z|) = I_w(1/γ, 1 − 1/γ)``,
    the regularised incomplete beta function; ``F(z) = ½ ± ½ I_w``.
    """
    from scipy import special

    gamma = _check_gamma(gamma)
    z = np.asarray(z, dtype=float)
    t = np.abs(z) ** gamma
    w = t / (1.0 + t)
    inner = special.betainc(1.0 / gamma, 1.0 - 1.0 / gamma, w)
    out = 0.5 + 0.5 * np.sign(z) * inner
    return float(out) if out.ndim == 0 else out


def sample_polynomial_tail(rng, gamma: float = 4.0, size=None):
    """Exact draws from the density ``∝ 1 / (1 + |z|^γ)``, γ > 1.

    Chapter: *Smooth sensitivity*.

    Method: if ``W ~ Beta(1/γ, 1 − 1/γ)`` then ``T = (W / (1 − W))^(1/γ)`` has
    density ``∝ 1/(1 + t^γ)`` on ``t > 0`` (change of variables
    ``w = t^γ/(1+t^γ)``); a fair random sign makes it symmetric.  No
    rejection, no truncation.

    Parameters
    ----------
    rng : numpy.random.Generator
    gamma : float
        Tail exponent, ``> 1``.  γ = 2 is the Cauchy distribution; the variance
        is finite for γ > 3 and equals ``sin(π/γ) / sin(3π/γ)`` (1 for γ = 4).
    size : int or tuple, optional

    Returns
    -------
    float or numpy.ndarray
    """
    gamma = _check_gamma(gamma)
    rng = check_rng(rng)
    size = _as_size(size)
    w = rng.beta(1.0 / gamma, 1.0 - 1.0 / gamma, size=size)
    sign = np.where(rng.random(size=size) < 0.5, -1.0, 1.0)
    with np.errstate(divide="ignore"):
        t = (w / (1.0 - w)) ** (1.0 / gamma)
    out = sign * t
    return float(out) if np.ndim(out) == 0 else out


def heavy_tailed_constants(epsilon, gamma: float = 4.0) -> tuple[float, float]:
    """``(alpha, beta)`` for pure-ε smooth sensitivity with noise ``∝ 1/(1+|z|^γ)``.

    Chapter: *Smooth sensitivity*.

    Nissim, Raskhodnikova & Smith (2007), Corollary 2.4 (1-dimensional case):
    if ``S`` is a β-smooth upper bound on the local sensitivity with
    ``β <= ε / (2(γ+1))``, then ``f(x) + S(x)/α · Z`` with
    ``α = ε / (2(γ+1))`` and ``Z ~ 1/(1+|z|^γ)`` is ε-DP; i.e. the noise is
    ``2(γ+1)·S/ε · Z``.  For γ = 4: β = α = ε/10, noise ``10·S/ε · Z``.

    The test suite checks the two admissibility conditions behind this
    (sliding by ``|Δ| <= α`` and dilation by ``e^λ``, ``|λ| <= β``, each
    changing the log density by at most ε/2) numerically on a grid.  (The
    dilation condition alone needs ``β <= ε/(2(γ−1))``: the log density of
    ``e^λ Z`` differs from that of ``Z`` by up to ``(γ−1)|λ|`` in the tails,
    so constants such as ``β = ε/γ`` seen in some code fail it for γ = 4.)

    Returns
    -------
    (alpha, beta) : tuple of float
        Noise is ``S / alpha · Z``; the smoothing parameter is ``beta``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    gamma = _check_gamma(gamma)
    c = epsilon / (2 * (gamma + 1))
    return c, c


# --------------------------------------------------------------------------------------------
# propose-test-release
# --------------------------------------------------------------------------------------------

PTR_THRESHOLDS = ("dwork-roth", "tight", "source")
"""Threshold variants of :func:`ptr_threshold`."""


def ptr_threshold(epsilon, delta, variant: str = "dwork-roth") -> float:
    """The threshold ``T`` of the propose-test-release test ``D + Lap(1/ε) >= T``.

    Chapter: *Propose-test-release*.

    ``D`` is the distance (number of records to add or remove) from the data
    to the nearest dataset whose local sensitivity exceeds the proposed bound.
    The release is unsafe only when ``D = 0``, where the test passes by
    accident with probability ``½ e^{−εT}``; that probability must be ``<= δ``.

    Parameters
    ----------
    epsilon : float
        Budget of the test, ``> 0``.
    delta : float
        In ``(0, 1)``.
    variant : {"dwork-roth", "tight", "source"}
        ``"dwork-roth"`` (default): ``T = ln(1/δ)/ε`` (Dwork & Roth 2014,
        Sec. 7.3 style), accidental pass ``δ/2``.  ``"tight"``:
        ``T = ln(1/(2δ))/ε``, accidental pass exactly ``δ``.  ``"source"``:
        ``T = ln(2/δ)/(2ε)`` as in *Programming Differential Privacy*, whose
        accidental pass ``½ sqrt(δ/2)`` is far above δ -- kept to reproduce and
        correct the source.

    Returns
    -------
    float

    Examples
    --------
    >>> round(ptr_threshold(1.0, 1 / 32561**2, "source"), 3)
    10.737
    >>> round(ptr_threshold(1.0, 1 / 32561**2), 3)
    20.782
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    if variant == "dwork-roth":
        return math.log(1.0 / delta) / epsilon
    if variant == "tight":
        return max(math.log(1.0 / (2.0 * delta)) / epsilon, 0.0)
    if variant == "source":
        return math.log(2.0 / delta) / (2.0 * epsilon)
    raise ValueError(f"threshold must be one of {PTR_THRESHOLDS} or a number, got {variant!r}")


def ptr_accidental_pass_probability(distance, epsilon, threshold) -> float:
    """``P(distance + Lap(1/ε) >= threshold)``, exactly.

    Chapter: *Propose-test-release*.

    At ``distance = 0`` this is the probability of releasing with too little
    noise; it must not exceed δ.
    """
    d = _as_nonnegative(distance, "distance")
    epsilon = as_positive(epsilon, "epsilon")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not np.isfinite(threshold):
        raise TypeError(f"threshold must be a finite number, got {threshold!r}")
    gap = float(threshold) - d
    if gap >= 0:
        return 0.5 * math.exp(-epsilon * gap)
    return 1.0 - 0.5 * math.exp(epsilon * gap)


def _resolve_threshold(threshold, epsilon, delta) -> float:
    """A named threshold (see :func:`ptr_threshold`) or a finite number ``>= 0``.

    A negative threshold is refused: the test would then pass at distance 0
    with probability above ½, so the δ of the mechanism would exceed ½.
    """
    if isinstance(threshold, str):
        return ptr_threshold(epsilon, delta, threshold)
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise TypeError(f"threshold must be one of {PTR_THRESHOLDS} or a finite number >= 0, got {threshold!r}")
    if not np.isfinite(threshold):
        raise ValueError(f"threshold must be one of {PTR_THRESHOLDS} or a finite number >= 0, got {threshold!r}")
    if threshold < 0:
        raise ValueError(
            f"threshold must be >= 0, got {threshold!r}: a negative threshold lets the test pass at "
            "distance 0 with probability above 1/2"
        )
    return float(threshold)


def ptr_from_distance(value, distance, bound, epsilon, delta, rng, threshold="dwork-roth", details: bool = False):
    """Propose-test-release given the exact distance to high local sensitivity.

    Chapter: *Propose-test-release*.

    1. (proposed) ``bound`` on the local sensitivity;
    2. test: ``noisy = distance + Lap(1/ε)``; if ``noisy < T`` return ⊥ (``None``);
    3. release ``value + Lap(bound/ε)``.

    With the default threshold ``T = ln(1/δ)/ε`` the whole mechanism is
    (2ε, δ)-DP: the test is ε-DP because the distance has global sensitivity 1,
    the release is ε-DP whenever the local sensitivity is at most ``bound``,
    and the release happens with too little noise (``distance = 0``) with
    probability at most δ/2 <= δ.  Running it costs (2ε, δ) *also when it
    returns ⊥*.  Give each step ε/2 for a total of (ε, δ).

    Parameters
    ----------
    value : float
        Exact query answer.
    distance : int or float
        ``>= 0``: how many steps (records added/removed, or replaced) lead to a
        dataset whose local sensitivity exceeds ``bound``
        (``dpsens.smooth.distance_to_high_ls``); ``math.inf`` if none does.
    bound : float
        Proposed bound on the local sensitivity, ``> 0``.
    epsilon, delta : float
        Budget of *each* step, and the failure probability.
    rng : numpy.random.Generator
        Randomness; the test noise is drawn first, then the release noise.
    threshold : {"dwork-roth", "tight", "source"} or float
        See :func:`ptr_threshold`; a number must be finite and ``>= 0``
        (``ValueError`` otherwise).  The test passes by accident at distance 0
        with probability ``½ e^{−εT}``.
    details : bool
        If true return a dict with ``released`` (value or None),
        ``noisy_distance``, ``threshold``, ``passed``.

    Returns
    -------
    float or None, or dict if ``details``.
    """
    value = _as_value(value)
    if np.ndim(value) != 0:
        raise ValueError("value must be a single number for propose-test-release")
    if isinstance(distance, numbers.Real) and not isinstance(distance, bool) and distance == math.inf:
        distance = math.inf          # no dataset has local sensitivity above the bound: always safe
    else:
        distance = _as_nonnegative(distance, "distance")
    bound = as_positive(bound, "bound")
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    rng = check_rng(rng)
    t = _resolve_threshold(threshold, epsilon, delta)
    noisy = distance + rng.laplace(0.0, 1.0 / epsilon)
    passed = bool(noisy >= t)
    released = float(value + rng.laplace(0.0, bound / epsilon)) if passed else None
    if details:
        return {"released": released, "noisy_distance": float(noisy), "threshold": t, "passed": passed,
                "distance": distance}
    return released


def propose_test_release(x, query, bound, epsilon, delta, lower, upper, rng, threshold="dwork-roth",
                         neighbors: str = "bounded", details: bool = False):
    """Propose-test-release for a query on data clipped to ``[lower, upper]``.

    Chapter: *Propose-test-release*.

    Computes ``query(x)`` and the exact distance
    ``dpsens.distance_to_high_ls(x, query, bound, lower, upper, neighbors)``
    and hands both to :func:`ptr_from_distance`.  Costs (2ε, δ) with the
    default threshold (ε for the test, ε for the release), whether or not it
    returns ⊥.

    Parameters
    ----------
    x : array_like
        Data, every value in ``[lower, upper]`` (clip first).
    query : str
        A query name from :data:`dpsens.QUERIES`.
    bound : float
        Proposed bound on the local sensitivity, ``> 0``.
    epsilon, delta : float
    lower, upper : float
        Bounds of the data domain.
    rng : numpy.random.Generator
    threshold : {"dwork-roth", "tight", "source"} or float
        A finite number ``>= 0``, or a name (see :func:`ptr_threshold`).
        ``"source"`` reproduces *Programming Differential Privacy*
        (``ln(2/δ)/(2ε)``), which passes by accident far more often than δ.
    neighbors : {"bounded", "unbounded"}
        The neighbour relation of the distance (default ``"bounded"``, as in
        :mod:`dpsens.smooth`); the source's mean example is ``"unbounded"``.
    details : bool
        Return a dict (see :func:`ptr_from_distance`).

    Returns
    -------
    float or None (⊥), or dict.
    """
    from .smooth import distance_to_high_ls

    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    check_relation(neighbors)
    bound = as_positive(bound, "bound")
    distance = distance_to_high_ls(x, name, bound, lower, upper, neighbors)
    return ptr_from_distance(f(x), distance, bound, epsilon, delta, rng, threshold=threshold, details=details)


# --------------------------------------------------------------------------------------------
# smooth sensitivity
# --------------------------------------------------------------------------------------------

def smooth_sensitivity_beta(epsilon, delta=None, noise: str = "laplace", gamma: float = 4.0) -> float:
    """Smoothing parameter β of the smooth-sensitivity framework.

    Chapter: *Smooth sensitivity*.

    ``noise="laplace"``: ``β = ε / (2 ln(2/δ))`` for (ε, δ)-DP (needs δ).
    ``noise="cauchy"``: ``β = ε / (2(γ+1))`` for ε-DP with noise
    ``∝ 1/(1+|z|^γ)`` (δ is ignored), Nissim, Raskhodnikova & Smith 2007, Cor. 2.4.
    """
    epsilon = as_positive(epsilon, "epsilon")
    if noise == "laplace":
        if delta is None:
            raise ValueError("delta is required for noise='laplace' (the Laplace variant is (epsilon, delta)-DP)")
        delta = as_probability(delta, "delta")
        return epsilon / (2.0 * math.log(2.0 / delta))
    if noise == "cauchy":
        return heavy_tailed_constants(epsilon, gamma)[1]
    raise ValueError(f"noise must be 'laplace' or 'cauchy', got {noise!r}")


def smooth_sensitivity_mechanism(x, query, epsilon, delta, lower, upper, rng, noise: str = "laplace",
                                 neighbors: str = "bounded", gamma: float = 4.0, details: bool = False):
    """Release ``query(x)`` with noise calibrated to its β-smooth sensitivity.

    Chapter: *Smooth sensitivity*.

    * ``noise="laplace"`` -- (ε, δ)-DP: ``β = ε/(2 ln(2/δ))``,
      ``S = dpsens.smooth_sensitivity(x, query, β, lower, upper, neighbors)``,
      release ``query(x) + Lap(2S/ε)``.
    * ``noise="cauchy"`` -- pure ε-DP (``delta`` may be None): ``β = ε/(2(γ+1))``
      and release ``query(x) + 2(γ+1)·S/ε · Z`` with ``Z`` of density
      ``∝ 1/(1+|z|^γ)`` (default γ = 4: noise ``10 S/ε · Z``, variance of Z = 1).

    Parameters
    ----------
    x : array_like
        Data inside ``[lower, upper]``.
    query : str
    epsilon : float
    delta : float or None
    lower, upper : float
    rng : numpy.random.Generator
    noise : {"laplace", "cauchy"}
    gamma : float
        Tail exponent of the heavy-tailed noise, ``> 1``.
    neighbors : {"bounded", "unbounded"}
        Relation of the smooth sensitivity (default ``"bounded"``, as in :mod:`dpsens.smooth`).
    details : bool
        If true return a dict with ``released``, ``beta``, ``smooth_sensitivity``,
        ``noise_scale``.

    Returns
    -------
    float, or dict.
    """
    from .smooth import smooth_sensitivity

    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    check_relation(neighbors)
    beta = smooth_sensitivity_beta(epsilon, delta, noise=noise, gamma=gamma)
    rng = check_rng(rng)
    s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
    epsilon = float(epsilon)
    if noise == "laplace":
        scale = 2.0 * s / epsilon
        z = rng.laplace(0.0, 1.0)
    else:
        alpha = heavy_tailed_constants(epsilon, gamma)[0]
        scale = s / alpha
        z = sample_polynomial_tail(rng, gamma)
    released = float(f(x) + scale * z)
    if details:
        return {"released": released, "beta": beta, "smooth_sensitivity": s, "noise_scale": scale}
    return released


# --------------------------------------------------------------------------------------------
# sample and aggregate
# --------------------------------------------------------------------------------------------

def chunk_answers(x, func, n_chunks, lower, upper, rng=None, shuffle: bool = True,
                  partition: str = "balanced") -> np.ndarray:
    """Clipped answers of ``func`` on ``n_chunks`` disjoint chunks of ``x``.

    Chapter: *Sample and aggregate*.

    The partition never looks at the values.

    * ``partition="balanced"`` (default): with ``shuffle=True`` a uniformly
      random partition into chunks whose sizes differ by at most one (a
      permutation drawn from ``rng``, then ``np.array_split``); with
      ``shuffle=False`` the chunks are consecutive positions of ``x`` in the
      given order (only safe if that order does not depend on the values).
      A replaced record changes one chunk, so sample-and-aggregate is ε-DP
      for **bounded** neighbours.  Adding a record can change the sizes of
      two chunks (the balanced split of ``n + 1`` records is not the balanced
      split of ``n`` plus one), so for unbounded neighbours the simple
      argument only gives 2ε.
    * ``partition="independent"``: every record gets its own uniformly random
      chunk label (``rng.integers(0, n_chunks, n)``), whatever the other
      records are, so adding or removing a record changes its own chunk only:
      ε-DP for **unbounded** neighbours.  Chunk sizes are random; an empty
      chunk answers the midpoint ``(lower + upper)/2``.

    Parameters
    ----------
    x : array_like
    func : str or callable
        A query name or a function of a 1-D array returning a number.
    n_chunks : int
        ``1 <= n_chunks <= len(x)``.
    lower, upper : float
        Clipping bounds of the *answers*.
    rng : numpy.random.Generator, optional
        Required unless ``partition="balanced"`` and ``shuffle=False``.
    shuffle : bool
        ``partition="balanced"`` only.
    partition : {"balanced", "independent"}

    Returns
    -------
    numpy.ndarray of shape (n_chunks,)
    """
    x = as_data(x)
    name, f = check_query(func, allow_callable=True)
    lower, upper = as_bounds(lower, upper)
    n_chunks = as_int(n_chunks, "n_chunks", minimum=1)
    if n_chunks > len(x):
        raise ValueError(
            f"n_chunks must be at most len(x) = {len(x)} so that no chunk is empty, got n_chunks={n_chunks}"
        )
    if partition == "independent":
        rng = check_rng(rng)
        labels = rng.integers(0, n_chunks, size=len(x))
        order = np.argsort(labels, kind="stable")
        counts = np.bincount(labels, minlength=n_chunks)
        chunks = np.split(x[order], np.cumsum(counts)[:-1])
        answers = np.array([float(f(c)) if len(c) else (lower + upper) / 2 for c in chunks])
        return np.clip(answers, lower, upper)
    if partition != "balanced":
        raise ValueError(f"partition must be 'balanced' or 'independent', got {partition!r}")
    if shuffle:
        rng = check_rng(rng)
        x = x[rng.permutation(len(x))]
    if isinstance(func, str) and func in _VECTORISED:
        answers = _split_reduce(x, n_chunks, _VECTORISED[func])
    else:
        answers = np.array([float(f(chunk)) for chunk in np.array_split(x, n_chunks)])
    return np.clip(answers, lower, upper)


_VECTORISED = {"mean": np.mean, "median": np.median, "sum": np.sum}


def _split_reduce(x: np.ndarray, k: int, reduce) -> np.ndarray:
    """``[reduce(c) for c in np.array_split(x, k)]`` without the Python loop.

    ``np.array_split`` makes ``r = n mod k`` chunks of ``q + 1`` values, then
    ``k − r`` chunks of ``q``; each group is one 2-D reshape.
    """
    q, r = divmod(len(x), k)
    head = x[: r * (q + 1)].reshape(r, q + 1)
    tail = x[r * (q + 1):].reshape(k - r, q)
    parts = []
    if r:
        parts.append(reduce(head, axis=1))
    if k - r:
        parts.append(reduce(tail, axis=1))
    return np.concatenate(parts).astype(float)


def sample_and_aggregate(x, func, n_chunks, lower, upper, epsilon, rng, shuffle: bool = True,
                         details: bool = False, partition: str = "balanced"):
    """Sample-and-aggregate: noisy average of clipped answers on disjoint chunks.

    Chapter: *Sample and aggregate*.

    ``mean(clip(func(chunk_i), lower, upper)) + Lap((upper − lower)/(n_chunks·ε))``.
    ε-DP for any ``func``: each record lies in exactly one chunk, so adding,
    removing or changing it moves one clipped answer by at most
    ``upper − lower`` and the average by ``(upper − lower)/n_chunks``.  This
    needs the chunks to be *disjoint* and chosen *without looking at the data*
    (see :func:`chunk_answers`), and ``n_chunks`` fixed in advance.  With the
    default balanced random partition the guarantee is for bounded
    neighbours (records replaced, ``n`` public); use
    ``partition="independent"`` for ε under additions and removals.

    Parameters
    ----------
    x : array_like
    func : str or callable
    n_chunks : int
    lower, upper : float
        Clipping bounds for the chunk answers (not for the data).
    epsilon : float
    rng : numpy.random.Generator
        Used for the partition (if ``shuffle``) and then for the noise.
    shuffle : bool
    details : bool
        If true return a dict with ``released``, ``answers``, ``noise_scale``.
    partition : {"balanced", "independent"}
        See :func:`chunk_answers`.

    Returns
    -------
    float, or dict.

    Raises
    ------
    ValueError
        If ``n_chunks > len(x)``, ``n_chunks < 1``, ``epsilon <= 0`` or
        ``lower > upper``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    answers = chunk_answers(x, func, n_chunks, lower, upper, rng=rng, shuffle=shuffle, partition=partition)
    scale = (float(upper) - float(lower)) / (len(answers) * epsilon)
    released = float(np.mean(answers) + rng.laplace(0.0, scale))
    if details:
        return {"released": released, "answers": answers, "noise_scale": scale}
    return released


# --------------------------------------------------------------------------------------------
# the global-sensitivity baseline for a mean
# --------------------------------------------------------------------------------------------

def noisy_mean_sum_count(x, lower, upper, epsilon, rng, size=None):
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
    size = _as_size(size)
    clipped = np.clip(x, lower, upper)
    sum_sens = max(abs(lower), abs(upper))
    noisy_sum = clipped.sum() + rng.laplace(0.0, sum_sens / (epsilon / 2), size=size)
    noisy_count = len(clipped) + rng.laplace(0.0, 1.0 / (epsilon / 2), size=size)
    out = noisy_sum / noisy_count
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------
# the broken one
# --------------------------------------------------------------------------------------------

def local_sensitivity_laplace(value, local_sensitivity, epsilon, rng, size=None):
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
    value = _as_value(value)
    ls = _as_nonnegative(local_sensitivity, "local_sensitivity")
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    size = _as_size(size)
    if size is None:
        size = np.shape(value) or None
    out = value + rng.laplace(0.0, ls / epsilon, size=size)
    return float(out) if np.ndim(out) == 0 else out
