"""Checkers for the exercises of the chapter *Composing releases, and counting the budget exactly*.

The expected values are in the hashed key (:mod:`._key`), computed by the
teacher's registry from :mod:`dpsens.accounting` and :mod:`dpsens.pld`.
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_advanced_epsilon", "check_optimal_epsilon", "check_gaussian_exact_epsilon",
           "check_laplace_pld_epsilon"]


@checker("a number")
def check_advanced_epsilon(answer: object) -> Verdict:
    """Exercise *Four hundred counts, advanced*: 400 releases, each 0.05-DP, and
    δ' = 1e-6; the ε' of the advanced composition theorem.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "advanced_epsilon", "ε'",
                     "ε' = ε √(2J ln(1/δ')) + J ε (e^ε − 1), with ε the budget of one release.",
                     {"basic": ("that is basic composition, J ε.",
                                "the advanced theorem grows like √J: ε √(2J ln(1/δ')) + J ε (e^ε − 1)."),
                      "first_term": ("that is only the first term.",
                                     "add the drift J ε (e^ε − 1) of the expected privacy loss.")})


@checker("a number")
def check_optimal_epsilon(answer: object) -> Verdict:
    """Exercise *The best possible guarantee*: the exact smallest ε for which every composition of J
    ε-DP mechanisms is (ε, δ)-DP (Kairouz, Oh and Viswanath), with the book's J = 40, ε = 0.1,
    δ = 1e-6 or a student's variant.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "optimal_epsilon", "ε",
                     "the worst case is J randomised responses; find the ε at which their privacy profile "
                     "δ(ε) falls to the given δ (ds.accounting.optimal_composition_epsilon).",
                     {"advanced": ("that is the advanced composition bound, valid but not the smallest.",
                                   "the exact answer is the privacy profile of J randomised responses."),
                      "basic": ("that is basic composition, J ε.",
                                "the exact answer is the privacy profile of J randomised responses.")})


@checker("a number")
def check_gaussian_exact_epsilon(answer: object) -> Verdict:
    """Exercise *Ten Gaussian releases, exactly*: ten releases of N(0, 4²) noise on queries of L2
    sensitivity 1; their exact ε at δ = 1e-6.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "gaussian_exact_epsilon", "ε",
                     "ten Gaussians compose into one with Δ/σ = √(Σ (Δᵢ/σᵢ)²); then solve the analytic "
                     "Gaussian condition for ε.",
                     {"zcdp": ("that is the zCDP bound ρ + 2√(ρ ln(1/δ)), not the exact value.",
                               "compose the Gaussians into one with Δ/σ = √10/4 and use its exact profile."),
                      "rdp": ("that is the Rényi DP bound, close but not exact.",
                              "compose the Gaussians into one with Δ/σ = √10/4 and use its exact profile."),
                      "basic": ("that adds ten exact ε's at δ/10 each: basic composition.",
                                "compose the Gaussians into one with Δ/σ = √10/4 and use its exact profile.")})


@checker("a number")
def check_laplace_pld_epsilon(answer: object) -> Verdict:
    """Exercise *Two hundred Laplace counts, exactly*: 200 releases of Lap(10) noise on counts
    (sensitivity 1), δ = 1e-6; the exact ε by the privacy loss distribution.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "laplace_pld_epsilon", "ε",
                     "add the privacy losses of the 200 releases: ds.pld.pld_epsilon gives the exact ε "
                     "bracketed.",
                     {"rdp": ("that is the Rényi DP bound, not the exact value.",
                              "use the Laplace releases' own privacy loss distribution.")})
