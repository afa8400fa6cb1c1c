"""Checkers for the exercises of the chapter *Noise a computer can actually sample*.

The expected values are in the hashed key (:mod:`._key`), computed by the
teacher's registry from the definitions (sums over the integers, brute force
over pairs of answers) and :mod:`dpsens.mechanisms.snapping`.
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_discrete_laplace_zero", "check_snapping_epsilon", "check_rounded_sensitivity",
           "check_discrete_gaussian_delta"]


@checker("a number")
def check_discrete_laplace_zero(answer: object) -> Verdict:
    """Exercise *No noise at all*: the probability that discrete Laplace noise with ``b = 2`` is exactly 0.

    Precision: within 0.5 % (relative); the continuous density at 0 does not pass."""
    return check_key(answer, "discrete_laplace_zero", "P(Z = 0)",
                     "P(Z = z) is proportional to exp(−|z|/b); sum the two geometric series to normalise.",
                     {"density": ("that is the continuous Laplace density at 0, 1/(2b), not a probability "
                                  "of the discrete distribution.",
                                  "normalise exp(−|z|/b) by its sum over all integers z.")})


@checker("a number")
def check_snapping_epsilon(answer: object) -> Verdict:
    """Exercise *What snapping costs*: Mironov's ε' for Δ = 1, target ε = 0.3 and clamp B = 2**40.

    Precision: within 1e-6 (absolute), so 6 decimals; the target ε itself does not pass."""
    return check_key(answer, "snapping_epsilon", "ε'",
                     "ε' = 1/b + 2^−49·B/b with b = Δ/ε the noise scale (for Δ = 1).",
                     {"grid": ("that divides by the grid Λ; the theorem divides by the noise scale b.",
                               "b = 1/ε = 1/0.3, and Λ = 4 is only the rounding grid."),
                      "target": ("that is the target ε; the clamp adds 2^−49·B/b.",
                                 "add 2^−49·B/b with B = 2^40.")})


@checker("a whole number")
def check_rounded_sensitivity(answer: object) -> Verdict:
    """Exercise *Rounding before integer noise*: the sensitivity of ``np.round(f(x))`` when ``f`` has sensitivity 1.

    Precision: exact (a whole number)."""
    return check_key(answer, "rounded_sensitivity", "the sensitivity of the rounded query",
                     "try two answers exactly 1 apart that both end in .5; np.round sends halves to the even "
                     "neighbour.",
                     {"unchanged": ("rounding can move two answers further apart than they were.",
                                    "try f(x) = 0.5 and f(x') = 1.5 with np.round.")})


@checker("a number")
def check_discrete_gaussian_delta(answer: object) -> Verdict:
    """Exercise *The discrete Gaussian's δ*: δ at ε = 1 of discrete Gaussian noise with σ = 3 on a count.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "discrete_gaussian_delta", "δ",
                     "δ = Σ_z max(0, p(z) − e^ε p(z − 1)) with p the probabilities of N_Z(0, 9); "
                     "ds.mechanisms.discrete.discrete_gaussian_pmf gives them.",
                     {"zcdp": ("that is the δ of the zCDP conversion ε = ρ + 2√(ρ ln(1/δ)) solved for δ: valid, but "
                               "not the exact δ.", "sum the privacy-loss profile directly.")})
