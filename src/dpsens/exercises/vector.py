"""Checkers for the exercises of the chapter *Many answers at once*."""
from __future__ import annotations

import math

from ..mechanisms.gaussian import (gaussian_laplace_crossover, gaussian_rho, gaussian_sigma, per_coordinate_noise_std,
                                   zcdp_compose, zcdp_to_dp)
from ..neighbors import Domain
from ..vector import vector_local_sensitivity
from ._verdict import THREE_DIGITS, Verdict, as_number, check_number, checker, close, wrong

__all__ = ["check_mean_median_l1", "check_gaussian_per_count", "check_crossover_d", "check_zcdp_epsilon"]

#: The dataset and domain of the exercise *Mean and median together*.
MEAN_MEDIAN_X = (20, 21, 22, 80, 90)
MEAN_MEDIAN_DOMAIN = tuple(range(17, 91))


@checker("a number")
def check_mean_median_l1(answer) -> Verdict:
    """Exercise *Mean and median together*: the L1 local sensitivity of (mean, median) of
    ``[20, 21, 22, 80, 90]`` on the ages 17..90, one record added or removed.

    Precision: within 0.5 % (relative); the sum of the two separate local
    sensitivities (reached by different neighbours) does not pass."""
    x, D = list(MEAN_MEDIAN_X), Domain(MEAN_MEDIAN_DOMAIN)
    expected = vector_local_sensitivity(x, ["mean", "median"], D, norm="l1")
    alone = sum(vector_local_sensitivity(x, [q], D) for q in ("mean", "median"))
    value = as_number(answer)
    if value is not None and not close(alone, expected, THREE_DIGITS) and close(value, alone, THREE_DIGITS):
        return wrong("that adds the largest change of the mean to the largest change of the median, but no "
                     "single neighbour reaches both.",
                     "for each neighbour, add |change of the mean| and |change of the median|, then take the "
                     "largest.")
    return check_number(answer, expected, "the L1 local sensitivity",
                        "try removing each record and adding the smallest and the largest age; the median moves "
                        "between neighbouring order statistics.", rel_tol=THREE_DIGITS)


@checker("a number")
def check_gaussian_per_count(answer) -> Verdict:
    """Exercise *Gaussian noise on 25 counts*: the analytic σ per count when one person moves each of 25
    counts by at most 1, with ε = 1 and δ = 1e-6.

    Precision: within 0.5 % (relative)."""
    expected = gaussian_sigma(5.0, 1.0, 1e-6, method="analytic")
    value = as_number(answer)
    if value is not None:
        if close(value, gaussian_sigma(1.0, 1.0, 1e-6, method="analytic"), THREE_DIGITS):
            return wrong("that is σ for L2 sensitivity 1, one count alone.",
                         "the 25 counts are released together: their L2 sensitivity is √25.")
        if close(value, gaussian_sigma(25.0, 1.0, 1e-6, method="analytic"), THREE_DIGITS):
            return wrong("that calibrates to the L1 sensitivity 25; Gaussian noise needs the L2 sensitivity.")
        if close(value, math.sqrt(2 * math.log(1.25e6)) * 5.0, THREE_DIGITS):
            return wrong("that is the classic formula, which is proven for ε < 1 only.",
                         "solve the analytic condition for σ (ds.mechanisms.gaussian_sigma(..., 'analytic')).")
        if close(value, per_coordinate_noise_std(25, 1.0), THREE_DIGITS):
            return wrong("that is the standard deviation of the Laplace noise the same release would need.")
    return check_number(answer, expected, "σ", "the L2 sensitivity of 25 counts each moved by 1 is 5.",
                        rel_tol=THREE_DIGITS)


@checker("a whole number")
def check_crossover_d(answer) -> Verdict:
    """Exercise *Where Gaussian noise starts to win*: the smallest number of answers d for which the analytic
    Gaussian's σ per answer is below the Laplace noise's standard deviation, with ε = 0.5 and δ = 1e-8.

    Precision: exact (a whole number)."""
    expected = gaussian_laplace_crossover(0.5, 1e-8)
    return check_number(answer, expected, "the crossover d",
                        "Laplace's standard deviation is √2·d/ε, the Gaussian's √d·σ₁ with σ₁ the analytic σ "
                        "for L2 sensitivity 1; at the answer d Gaussian noise is the smaller and at d − 1 "
                        "it is not -- check both.", integer=True)


@checker("a number")
def check_zcdp_epsilon(answer) -> Verdict:
    """Exercise *Ten Gaussian releases*: ten releases, each Gaussian noise σ = 4 on a query of L2 sensitivity 1;
    the ε at δ = 1e-6 from zCDP composition and Bun and Steinke's conversion.

    Precision: within 0.5 % (relative)."""
    rho = zcdp_compose([gaussian_rho(4.0, 1.0)] * 10)
    expected = zcdp_to_dp(rho, 1e-6)
    value = as_number(answer)
    if value is not None:
        if close(value, 10 * zcdp_to_dp(gaussian_rho(4.0, 1.0), 1e-6), THREE_DIGITS):
            return wrong("that converts each release to (ε, δ) first and adds the ε's: correct but much looser "
                         "(and it spends 10 δ).",
                         "add the ρ's first, then convert once.")
        if close(value, rho, THREE_DIGITS):
            return wrong("that is the total ρ, not ε.", "convert: ε = ρ + 2√(ρ ln(1/δ)).")
    return check_number(answer, expected, "ε", "ρ = Δ₂²/(2σ²) per release; the ρ's add up; then "
                        "ε = ρ + 2√(ρ ln(1/δ)).", rel_tol=THREE_DIGITS)
