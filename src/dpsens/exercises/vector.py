"""Checkers for the exercises of the chapter *Many answers at once*.

The expected values are in the hashed key (:mod:`._key`), computed by the
teacher's registry from :mod:`dpsens.vector` and :mod:`dpsens.mechanisms.gaussian`.
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_mean_median_l1", "check_gaussian_per_count", "check_crossover_d", "check_zcdp_epsilon",
           "check_private_bound_above"]


@checker("a number")
def check_mean_median_l1(answer: object) -> Verdict:
    """Exercise *Mean and median together*: the L1 local sensitivity of (mean, median) of
    ``[20, 21, 22, 80, 90]`` on the ages 17..90, one record added or removed.

    Precision: within 0.5 % (relative); the sum of the two separate local
    sensitivities (reached by different neighbours) does not pass."""
    return check_key(answer, "mean_median_l1", "the L1 local sensitivity",
                     "try removing each record and adding the smallest and the largest age; the median moves "
                     "between neighbouring order statistics.",
                     {"separate_sum": ("that adds the largest change of the mean to the largest change of the "
                                       "median, but no single neighbour reaches both.",
                                       "for each neighbour, add |change of the mean| and |change of the median|, "
                                       "then take the largest.")})


@checker("a number")
def check_gaussian_per_count(answer: object) -> Verdict:
    """Exercise *Gaussian noise on 25 counts*: the analytic σ per count when one person moves each of 25
    counts by at most 1, with ε = 1 and δ = 1e-6.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "gaussian_per_count", "σ", "the L2 sensitivity of 25 counts each moved by 1 is √25.",
                     {"one_count": ("that is σ for L2 sensitivity 1, one count alone.",
                                    "the 25 counts are released together: their L2 sensitivity is √25."),
                      "l1": ("that calibrates to the L1 sensitivity 25; Gaussian noise needs the L2 sensitivity.",
                             "the L2 sensitivity of 25 counts each moved by 1 is √25."),
                      "classic": ("that is the classic formula, which is proven for ε < 1 only.",
                                  "solve the analytic condition for σ "
                                  "(ds.mechanisms.gaussian_sigma(..., 'analytic'))."),
                      "laplace": ("that is the standard deviation of the Laplace noise the same release would need.",
                                  "the L2 sensitivity of 25 counts each moved by 1 is √25.")})


@checker("a whole number")
def check_crossover_d(answer: object) -> Verdict:
    """Exercise *Where Gaussian noise starts to win*: the smallest number of answers d for which the analytic
    Gaussian's σ per answer is below the Laplace noise's standard deviation, with ε = 0.5 and δ = 1e-8.

    Precision: exact (a whole number)."""
    return check_key(answer, "crossover_d", "the crossover d",
                     "Laplace's standard deviation is √2·d/ε, the Gaussian's √d·σ₁ with σ₁ the analytic σ "
                     "for L2 sensitivity 1; at the answer d Gaussian noise wins and at d − 1 it does "
                     "not -- check both.")


@checker("a number")
def check_zcdp_epsilon(answer: object) -> Verdict:
    """Exercise *Ten Gaussian releases*: ten releases, each Gaussian noise σ = 4 on a query of L2 sensitivity 1;
    the ε at δ = 1e-6 from zCDP composition and Bun and Steinke's conversion.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "zcdp_epsilon", "ε", "ρ = Δ₂²/(2σ²) per release; the ρ's add up; then "
                     "ε = ρ + 2√(ρ ln(1/δ)).",
                     {"per_release_sum": ("that converts each release to (ε, δ) first and adds the ε's: correct "
                                          "but much looser (and it spends 10 δ).",
                                          "add the ρ's first, then convert once."),
                      "rho": ("that is the total ρ, not ε.", "convert: ε = ρ + 2√(ρ ln(1/δ)).")})


@checker("a number")
def check_private_bound_above(answer: object) -> Verdict:
    """Exercise *Where does the private bound land?*: the probability that the exponential mechanism's
    0.99-quantile of the Adult capital gains on [0, 99,999], ε₁ = 0.05, add/remove neighbours, lies above the
    largest gain below the top code.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "private_bound_above", "the probability",
                     "the output is uniform inside each interval between sorted gains; the event is the last "
                     "interval, up to 99,999 (mech.exponential.quantile_exponential_distribution).",
                     {"bounded": ("that uses the rank score's sensitivity 1 of replace neighbours; here records are "
                                  "added or removed.", "under add/remove neighbours GS_U = max(α, 1 − α).")})
