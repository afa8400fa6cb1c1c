"""Noise calibrated to the smooth sensitivity: the smoothing parameter β and the mechanism.

Chapter: *Smooth sensitivity* (also used by *Sample and aggregate* for
comparison).  The smooth sensitivity itself is computed by :mod:`dpsens.smooth`.
"""
from __future__ import annotations

import math

from .._validate import as_bounds, as_data, as_positive, as_probability, check_in_bounds, check_relation, check_rng
from ..queries import check_query
from ..smooth import smooth_sensitivity
from .heavy_tailed import heavy_tailed_constants, sample_polynomial_tail
from .noise import laplace_noise

__all__ = ["SMOOTH_NOISES", "smooth_sensitivity_beta", "laplace_dilation_slack", "laplace_smooth_delta_bound",
           "check_laplace_smooth_region", "smooth_sensitivity_mechanism"]


SMOOTH_NOISES = ("laplace", "heavy-tailed")
"""The noise distributions of :func:`smooth_sensitivity_mechanism`: Laplace, (ε, δ)-DP; the
heavy-tailed density ``∝ 1/(1+|z|^γ)`` of :mod:`dpsens.mechanisms.heavy_tailed`, pure ε-DP."""


def smooth_sensitivity_beta(epsilon, delta=None, noise: str = "laplace", gamma: float = 4.0) -> float:
    """Smoothing parameter β of the smooth-sensitivity framework.

    Chapter: *Smooth sensitivity*.

    ``noise="laplace"``: ``β = ε / (2 ln(2/δ))`` for (ε, δ)-DP (needs δ).
    ``noise="heavy-tailed"``: ``β = ε / (2(γ+1))`` for ε-DP with noise
    ``∝ 1/(1+|z|^γ)`` (δ is ignored): the book's heavy-tailed constants,
    proved in the chapter in Nissim, Raskhodnikova & Smith's admissible-noise
    framework (2007, full version, Section 2).
    (The name is the chapter's; the distribution is the Cauchy distribution only
    for γ = 2, and the book uses γ = 4.)

    The Laplace β, with noise ``Lap(2S/ε)``, is proved (ε, δ)-DP in the chapter
    for ``β e^{ε/2 + β − 1} <= 2`` (every (ε, δ) of the book; e.g. ε <= 2 with
    δ <= 0.1, or ε <= 4 with δ <= 10⁻³); Nissim, Raskhodnikova & Smith give
    the general admissible-noise version (full version, Section 2).  Some
    condition on (ε, δ) is needed: at ε = 20, δ = 0.01 two releases around
    the same value with scales ``e^β`` apart already spend more than δ
    (:func:`laplace_dilation_slack` at level ``e^ε``).
    """
    epsilon = as_positive(epsilon, "epsilon")
    if noise == "laplace":
        if delta is None:
            raise ValueError("delta is required for noise='laplace' (the Laplace variant is (epsilon, delta)-DP)")
        delta = as_probability(delta, "delta")
        return epsilon / (2.0 * math.log(2.0 / delta))
    if noise == "heavy-tailed":
        return heavy_tailed_constants(epsilon, gamma)[1]
    raise ValueError(f"noise must be one of {SMOOTH_NOISES}, got {noise!r}")


def laplace_dilation_slack(epsilon, theta) -> float:
    """``sup_S P(Lap(b) ∈ S) − e^{ε/2} P(Lap(b e^{−θ}) ∈ S)``, exactly: ``(1 − e^{−θ}) e^{−(ε/2 + θ)/(e^θ − 1)}``.

    Chapter: *Smooth sensitivity* (the proof that ``Lap(2S/ε)`` is (ε, δ)-DP).

    The additive slack when a Laplace law is compared with the same law
    shrunk by the factor ``e^{−θ}`` (``θ > 0``), at the multiplicative level
    ``e^{ε/2}``; it does not depend on the scale ``b``.  The densities' ratio
    ``e^{−θ} exp(w (e^θ − 1))``, ``w = |z|/b``, exceeds ``e^{ε/2}`` exactly when
    ``w > w₀ = (ε/2 + θ)/(e^θ − 1)``, and integrating the difference over
    that event gives ``e^{−w₀} − e^{ε/2} e^{−w₀ e^θ} = (1 − e^{−θ}) e^{−w₀}``.
    For ``θ <= 0`` (the law widened by ``e^{|θ|}``) the ratio is at most
    ``e^{|θ|}``, so the slack is 0 when ``|θ| <= ε/2``; otherwise the ratio
    exceeds ``e^{ε/2}`` for ``w < w₁ = (|θ| − ε/2)/(1 − e^{−|θ|})`` and the
    slack is ``(1 − e^{−w₁}) − e^{ε/2} (1 − e^{−w₁ e^{−|θ|}})``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    theta = float(theta)
    if not math.isfinite(theta):
        raise ValueError(f"theta must be a finite number, got {theta!r}")
    if theta <= 0:
        if -theta <= epsilon / 2:
            return 0.0
        w1 = (-theta - epsilon / 2) / -math.expm1(theta)
        return -math.expm1(-w1) + math.exp(epsilon / 2) * math.expm1(-w1 * math.exp(theta))
    w0 = (epsilon / 2 + theta) / math.expm1(theta)
    return -math.expm1(-theta) * math.exp(-w0)


def laplace_smooth_delta_bound(epsilon, delta) -> float:
    """The δ spent by ``f(x) + Lap(2 S_β(x)/ε)`` with ``β = ε/(2 ln(2/δ))``, as the chapter proves it.

    Chapter: *Smooth sensitivity*.

    The proof compares ``Lap(f(x), b)`` with ``Lap(f(x), b')`` (dilation,
    ``|ln(b/b')| <= β``: slack :func:`laplace_dilation_slack`, at most
    ``(δ/2) β e^{ε/2 + β − 1}``) and then with ``Lap(f(x'), b')`` (sliding,
    no slack).  Returns that bound, ``(δ/2) β e^{ε/2 + β − 1}``; the
    mechanism is (ε, δ)-DP by the chapter's proof when it is ``<= δ`` and
    ``δ <= 2/e`` (so that ``β <= ε/2``).  Nissim, Raskhodnikova & Smith
    (2007, full version, Section 2: admissible noise distributions) give the
    general admissible-noise version.

    Examples
    --------
    >>> round(laplace_smooth_delta_bound(1.0, 1e-3) / 1e-3, 4)
    0.0213
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    beta = smooth_sensitivity_beta(epsilon, delta)
    return delta / 2 * beta * math.exp(epsilon / 2 + beta - 1)


def check_laplace_smooth_region(epsilon, delta) -> None:
    """Refuse an (ε, δ) outside the region where the chapter proves ``f(x) + Lap(2 S_β(x)/ε)`` (ε, δ)-DP.

    Chapter: *Smooth sensitivity*.

    The proof needs ``δ <= 2/e`` (so that ``β <= ε/2``) and
    :func:`laplace_smooth_delta_bound` ``(ε, δ) <= δ``, i.e.
    ``β e^{ε/2 + β − 1} <= 2`` with ``β = ε/(2 ln(2/δ))``.  Outside it the
    release may spend more than δ (at ε = 20, δ = 0.01 it does:
    :func:`laplace_dilation_slack`), so the mechanism refuses.

    Raises
    ------
    ValueError
        Naming the condition that fails and the values.
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    if delta > 2 / math.e:
        raise ValueError(f"delta = {delta:g} > 2/e: the Laplace smooth-sensitivity mechanism is proved "
                         f"(epsilon, delta)-DP only for delta <= 2/e (so that beta <= epsilon/2)")
    spent = laplace_smooth_delta_bound(epsilon, delta)
    if spent > delta:
        beta = smooth_sensitivity_beta(epsilon, delta)
        raise ValueError(f"epsilon = {epsilon:g}, delta = {delta:g} is outside the proved region "
                         f"beta e^(epsilon/2 + beta - 1) <= 2 (beta = epsilon/(2 ln(2/delta)) = {beta:.4g}): "
                         f"the proof's bound on the delta spent is {spent:.4g} > delta; use a smaller epsilon "
                         f"or delta, or noise='heavy-tailed' (pure epsilon-DP)")


def smooth_sensitivity_mechanism(x, query, epsilon, delta, lower, upper, rng, noise: str = "laplace",
                                 neighbors: str = "bounded", gamma: float = 4.0, details: bool = False):
    """Release ``query(x)`` with noise calibrated to its β-smooth sensitivity.

    Chapter: *Smooth sensitivity*.

    * ``noise="laplace"`` -- (ε, δ)-DP: ``β = ε/(2 ln(2/δ))``,
      ``S = dpsens.smooth_sensitivity(x, query, β, lower, upper, neighbors)``,
      release ``query(x) + Lap(2S/ε)``; refused (ValueError) outside the
      region where the chapter proves it, ``δ <= 2/e`` and
      ``β e^{ε/2 + β − 1} <= 2`` (:func:`check_laplace_smooth_region`).
    * ``noise="heavy-tailed"`` -- pure ε-DP (``delta`` may be None): ``β = ε/(2(γ+1))``
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
    noise : {"laplace", "heavy-tailed"}
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
    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    check_relation(neighbors)
    beta = smooth_sensitivity_beta(epsilon, delta, noise=noise, gamma=gamma)
    if noise == "laplace":
        check_laplace_smooth_region(epsilon, delta)
    rng = check_rng(rng)
    s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
    epsilon = float(epsilon)
    if noise == "laplace":
        scale = 2.0 * s / epsilon
        z = laplace_noise(1.0, rng)
    else:
        alpha = heavy_tailed_constants(epsilon, gamma)[0]
        scale = s / alpha
        z = sample_polynomial_tail(rng, gamma)
    released = float(f(x) + scale * z)
    if details:
        return {"released": released, "beta": beta, "smooth_sensitivity": s, "noise_scale": scale}
    return released
