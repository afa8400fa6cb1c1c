"""Noise calibrated to the smooth sensitivity: the smoothing parameter β, the mechanism, the error of each noise.

Chapter: *Smooth sensitivity* (also used by *Sample and aggregate* for
comparison).  The smooth sensitivity itself is computed by :mod:`dpsens.smooth`.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_positive, as_probability, check_in_bounds, check_rng
from ..queries import check_query
from ..smooth import smooth_sensitivity
from .discrete import as_integer_values
from .heavy_tailed import (heavy_tailed_constants, polynomial_tail_abs_mean, polynomial_tail_abs_median,
                           sample_polynomial_tail, sample_student_t, student_t_abs_mean, student_t_abs_median,
                           student_t_constants)
from .checks import Size
from .noise import laplace_noise, rounded_laplace_noise
from ..relation import Relation, as_relation

__all__ = ["SMOOTH_NOISES", "smooth_sensitivity_beta", "smooth_noise_constants", "laplace_dilation_slack",
           "laplace_smooth_delta_bound", "check_laplace_smooth_region", "smooth_sensitivity_mechanism",
           "smooth_noise_error", "smooth_noise_draws", "SECURE_MARGIN"]


SMOOTH_NOISES = ("laplace", "heavy-tailed", "student-t")
"""The noise distributions of :func:`smooth_sensitivity_mechanism`: Laplace, (ε, δ)-DP; the
heavy-tailed density ``∝ 1/(1+|z|^γ)`` of :mod:`dpsens.mechanisms.heavy_tailed` (γ = 2: Cauchy),
pure ε-DP; Student's t with ``df`` degrees of freedom, pure ε-DP."""

#: ``secure=True`` of the Laplace release rounds its scale up to a relative grid of this size, and
#: computes the smooth sensitivity with β reduced by ``ln(1 + SECURE_MARGIN)`` to pay for it.
SECURE_MARGIN = 2.0 ** -19


def smooth_noise_constants(epsilon: float, delta: float | None = None, noise: str = "laplace", gamma: float = 4.0,
                           df: float = 3.0) -> tuple[float, float]:
    """``(Ψ, β)`` of each noise: the release is ``f(x) + S_β(x)/Ψ · Z``.

    Chapter: *Smooth sensitivity*.  ``"laplace"``: ``(ε/2, ε/(2 ln(2/δ)))``
    with ``Z ~ Lap(1)``; ``"heavy-tailed"``: :func:`heavy_tailed_constants`;
    ``"student-t"``: :func:`~dpsens.mechanisms.heavy_tailed.student_t_constants`.
    """
    if noise == "student-t":
        return student_t_constants(epsilon, df)
    beta = smooth_sensitivity_beta(epsilon, delta, noise=noise, gamma=gamma)
    if noise == "laplace":
        return float(epsilon) / 2.0, beta
    return heavy_tailed_constants(epsilon, gamma)[0], beta


def smooth_sensitivity_beta(epsilon: float, delta: float | None = None, noise: str = "laplace", gamma: float = 4.0,
                            df: float = 3.0) -> float:
    """Smoothing parameter β of the smooth-sensitivity framework.

    Chapter: *Smooth sensitivity*.

    ``noise="laplace"``: ``β = ε / (2 ln(2/δ))`` for (ε, δ)-DP (needs δ).
    ``noise="heavy-tailed"``: ``β = ε / (2(γ+1))`` for ε-DP with noise
    ``∝ 1/(1+|z|^γ)`` (δ is ignored): the book's heavy-tailed constants,
    proved in the chapter in Nissim, Raskhodnikova & Smith's admissible-noise
    framework (2007, full version, Section 2).
    (The name is the chapter's; the distribution is the Cauchy distribution only
    for γ = 2, and the book uses γ = 4.)
    ``noise="student-t"``: ``β = ε/(2 max(1, df))`` for ε-DP with Student's t
    noise of ``df`` degrees of freedom (δ is ignored; proved in the chapter).

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
    if noise == "student-t":
        return student_t_constants(epsilon, df)[1]
    raise ValueError(f"noise must be one of {SMOOTH_NOISES}, got {noise!r}")


def laplace_dilation_slack(epsilon: float, theta: float) -> float:
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


def laplace_smooth_delta_bound(epsilon: float, delta: float) -> float:
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


def check_laplace_smooth_region(epsilon: float, delta: float | None) -> None:
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


def smooth_noise_draws(rng: np.random.Generator, size: Size = None, noise: str = "laplace", gamma: float = 4.0,
                       df: float = 3.0) -> float | np.ndarray:
    """Draws of the standard noise ``Z`` of each smooth-sensitivity release (numpy's floating-point samplers).

    Chapter: *Smooth sensitivity*.  ``Lap(1)`` (through
    :func:`~dpsens.mechanisms.noise.laplace_noise`), the density ``∝ 1/(1+|z|^γ)``,
    or Student's t with ``df`` degrees of freedom; the release is
    ``f(x) + S_β(x)/Ψ · Z``.
    """
    if noise == "laplace":
        return laplace_noise(1.0, rng, size)
    if noise == "heavy-tailed":
        return sample_polynomial_tail(rng, gamma, size)
    if noise == "student-t":
        return sample_student_t(rng, df, size)
    raise ValueError(f"noise must be one of {SMOOTH_NOISES}, got {noise!r}")


def _abs_median_mean(noise, gamma, df) -> tuple[float, float]:
    if noise == "laplace":
        return math.log(2.0), 1.0
    if noise == "heavy-tailed":
        return polynomial_tail_abs_median(gamma), polynomial_tail_abs_mean(gamma)
    return student_t_abs_median(df), student_t_abs_mean(df)


def _secure_scale(scale: float) -> Fraction:
    """``scale + 2**-20`` rounded up to the relative grid ``SECURE_MARGIN``: a rational the exact sampler takes."""
    v = Fraction(scale) + Fraction(1, 2 ** 20)
    step = Fraction(2) ** (math.frexp(float(v))[1] - 20)            # v < 2**e, so step <= v * 2**-19
    return math.ceil(v / step) * step


def _checked(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float, upper: float, noise: str,
             gamma: float, df: float) -> tuple:
    """The checked inputs of a smooth-sensitivity release and its noise's constants: ``(name, f, x,
    lower, upper, Ψ, β)``; Laplace noise only inside the region its proof covers."""
    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    psi, beta = smooth_noise_constants(epsilon, delta, noise=noise, gamma=gamma, df=df)
    if noise == "laplace":
        check_laplace_smooth_region(epsilon, delta)
    return name, f, x, lower, upper, psi, beta


@overload
def smooth_sensitivity_mechanism(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float,
                                 upper: float, rng: np.random.Generator, noise: str = "laplace",
                                 neighbors: Relation | str = Relation.BOUNDED, gamma: float = 4.0, df: float = 3.0,
                                 details: Literal[False] = False, secure: bool = False) -> float: ...


@overload
def smooth_sensitivity_mechanism(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float,
                                 upper: float, rng: np.random.Generator, noise: str = "laplace",
                                 neighbors: Relation | str = Relation.BOUNDED, gamma: float = 4.0, df: float = 3.0,
                                 *, details: Literal[True], secure: bool = False) -> dict: ...


@overload
def smooth_sensitivity_mechanism(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float,
                                 upper: float, rng: np.random.Generator, noise: str = "laplace",
                                 neighbors: Relation | str = Relation.BOUNDED, gamma: float = 4.0, df: float = 3.0,
                                 details: bool = False, secure: bool = False) -> float | dict: ...


def smooth_sensitivity_mechanism(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float,
                                 upper: float, rng: np.random.Generator, noise: str = "laplace",
                                 neighbors: Relation | str = Relation.BOUNDED, gamma: float = 4.0, df: float = 3.0,
                                 details: bool = False, secure: bool = False) -> float | dict:
    """Release ``query(x)`` with noise calibrated to its β-smooth sensitivity.

    Chapter: *Smooth sensitivity*.

    * ``noise="laplace"`` -- (ε, δ)-DP: ``β = ε/(2 ln(2/δ))``,
      ``S = dpsens.smooth_sensitivity(x, query, β, lower, upper, neighbors)``,
      release ``query(x) + Lap(2S/ε)``; refused (ValueError) outside the
      region where the chapter proves it, ``δ <= 2/e`` and
      ``β e^{ε/2 + β − 1} <= 2`` (:func:`check_laplace_smooth_region`).
    * ``noise="heavy-tailed"`` -- pure ε-DP (``delta`` may be None): ``β = ε/(2(γ+1))``
      and release ``query(x) + 2(γ+1)·S/ε · Z`` with ``Z`` of density
      ``∝ 1/(1+|z|^γ)`` (default γ = 4: noise ``10 S/ε · Z``, variance of Z = 1;
      γ = 2: Cauchy noise ``6 S/ε · Z``).
    * ``noise="student-t"`` -- pure ε-DP (``delta`` may be None):
      ``(Ψ, β) = (ε√df/(df+1), ε/(2 max(1, df)))`` and release
      ``query(x) + S/Ψ · Z``, ``Z`` Student's t with ``df`` degrees of freedom
      (default 3: noise ``4 S/(√3 ε) · Z``, β = ε/6).

    Parameters
    ----------
    x : array_like
        Data inside ``[lower, upper]``.
    query : str
    epsilon : float
    delta : float or None
    lower, upper : float
    rng : numpy.random.Generator
    noise : {"laplace", "heavy-tailed", "student-t"}
    neighbors : Relation or {"bounded", "unbounded"}
        Relation of the smooth sensitivity (default ``"bounded"``, as in :mod:`dpsens.smooth`).
    gamma : float
        Tail exponent of the heavy-tailed noise, ``> 1``.
    df : float
        Degrees of freedom of Student's t, ``> 0``.
    details : bool
        If true return a dict with ``released``, ``beta``, ``smooth_sensitivity``,
        ``noise_scale``.
    secure : bool
        False (default): numpy's floating-point samplers, the book's
        illustrations (*Noise a computer can actually sample*).  True
        (``noise="laplace"`` only; the others raise ValueError): the answer
        must be an integer, and the release is ``query(x) + r(Lap(b))``,
        the continuous release rounded to the nearest integer (a
        post-processing, so the chapter's theorem applies), sampled exactly
        (:func:`~dpsens.mechanisms.noise.rounded_laplace_noise`).  The scale
        ``b`` is ``2S/ε + 2**-20`` rounded up to a relative grid of
        ``2**-19`` (a rational the sampler takes), and ``S`` is computed with
        ``β − ln(1 + 2**-19)`` so that the rounded scale is still
        β-smooth.  The smooth sensitivity itself is computed in floating
        point; ``secure`` makes the noise exact, not that computation.

    Returns
    -------
    float (int with ``secure=True``), or dict.
    """
    neighbors = as_relation(neighbors)
    name, f, x, lower, upper, psi, beta = _checked(x, query, epsilon, delta, lower, upper, noise, gamma, df)
    rng = check_rng(rng)
    released: float
    if secure:
        if noise != "laplace":
            raise ValueError(f"secure=True is available for noise='laplace' only (exact sampling of the rounded "
                             f"Laplace law); the book has no exact sampler for noise={noise!r}")
        value = as_integer_values(f(x), "query(x)")
        if beta <= 2 * math.log1p(SECURE_MARGIN):
            raise ValueError(f"secure=True needs beta = {beta:.3g} > 2 ln(1 + 2**-19) (it lowers beta by "
                             f"ln(1 + 2**-19) to pay for rounding the scale); use a larger epsilon")
        beta = beta - math.log1p(SECURE_MARGIN)      # the beta the release uses (and reports)
        s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
        exact_scale = _secure_scale(s / psi)
        scale = float(exact_scale)
        released = int(value + rounded_laplace_noise(exact_scale, rng, secure=True))
    else:
        s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
        scale = s / psi
        released = float(f(x) + scale * smooth_noise_draws(rng, noise=noise, gamma=gamma, df=df))
    if details:
        return {"released": released, "beta": beta, "smooth_sensitivity": s, "noise_scale": scale}
    return released


def smooth_noise_error(x: ArrayLike, query: str, epsilon: float, delta: float | None, lower: float, upper: float,
                       noise: str = "laplace", gamma: float = 4.0,
                       df: float = 3.0, neighbors: Relation | str = Relation.BOUNDED) -> dict:
    """The error of the smooth-sensitivity release with one noise, exactly: its scale times ``|Z|``'s median and mean.

    Chapter: *Smooth sensitivity* (the comparison of the noises on the
    median age).  Nothing is sampled: the error of
    :func:`smooth_sensitivity_mechanism` is ``S_β(x)/Ψ · |Z|``, whose median
    and mean are ``S_β(x)/Ψ`` times those of ``|Z|`` (``ln 2`` and 1 for
    Laplace, :func:`~dpsens.mechanisms.heavy_tailed.polynomial_tail_abs_median`,
    :func:`~dpsens.mechanisms.heavy_tailed.student_t_abs_median` and the
    means beside them; the mean is infinite for Cauchy noise).

    Returns
    -------
    dict
        ``psi``, ``beta``, ``smooth_sensitivity``, ``noise_scale`` (``S/Ψ``),
        ``median_abs_error``, ``mean_abs_error``.
    """
    neighbors = as_relation(neighbors)
    name, _, x, lower, upper, psi, beta = _checked(x, query, epsilon, delta, lower, upper, noise, gamma, df)
    s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
    med, mean = _abs_median_mean(noise, gamma, df)
    scale = s / psi
    return {"psi": psi, "beta": beta, "smooth_sensitivity": s, "noise_scale": scale,
            "median_abs_error": scale * med, "mean_abs_error": scale * mean if s > 0 else 0.0}
