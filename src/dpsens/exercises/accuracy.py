"""Checkers for the exercises of the chapter *How accurate is it, and what can no mechanism beat?*.

Setting: the Laplace and Gaussian tails, the exponential mechanism's utility
theorem and the packing lower bound of a histogram.  The expected values are
in the hashed key (:mod:`._key`), computed by the teacher's registry from
closed forms and direct maximisation; the Laplace-tail and histogram
exercises have per-student variants (:mod:`.variants`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_laplace_tail", "check_gaussian_tail", "check_em_utility_bound", "check_histogram_lower_bound"]


@checker("a number")
def check_laplace_tail(answer: object) -> Verdict:
    """Exercise *A count at high confidence*: the error w that the Laplace mechanism's release of a count
    exceeds with probability exactly ζ, for the exercise's ε and ζ.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "laplace_tail", "w",
                     "P(|Lap(b)| > w) = e^{-w/b}; set it equal to ζ and solve for w.",
                     {"one_sided": ("that is the error one tail exceeds with probability ζ; the error is |Z|, "
                                    "both tails.", "P(|Z| > w) counts both tails: e^{-w/b}, not e^{-w/b}/2."),
                      "no_log": ("that is the scale b; the error at confidence 1 − ζ is larger.",
                                 "P(|Lap(b)| > w) = e^{-w/b}.")})


@checker("a number")
def check_gaussian_tail(answer: object) -> Verdict:
    """Exercise *The Gaussian's exact tail*: the error w that analytic Gaussian noise (Δ₂ = 1, ε = 1,
    δ = 1e-6) exceeds with probability exactly 0.05.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "gaussian_tail", "w",
                     "P(|N(0, σ²)| > w) = 2(1 − Φ(w/σ)); invert Φ.",
                     {"chernoff": ("that is the bound σ√(2 ln(2/ζ)), which the noise exceeds with probability "
                                   "at most ζ; the exercise asks for the exact value.",
                                   "use Φ⁻¹ (scipy.special.ndtri, or scipy.stats.norm.ppf)."),
                      "one_sided": ("that counts one tail only.", "|Z| > w happens in both tails: 2(1 − Φ(w/σ)).")})


@checker("a number")
def check_em_utility_bound(answer: object) -> Verdict:
    """Exercise *The utility theorem on 101 candidates*: the score loss the exponential mechanism exceeds with
    probability at most 0.01, for 101 candidates, GS_U = 1 and ε = 1.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "em_utility_bound", "the loss",
                     "(2 GS_U/ε)(ln(|Z|/|Z*|) + ln(1/ζ)), with one optimal candidate.",
                     {"no_factor_2": ("that drops the 2 of the exponent ε U/(2 GS_U): the loss is twice that.",
                                      "the weights are e^{ε U/(2 GS_U)}.")})


@checker("a number")
def check_histogram_lower_bound(answer: object) -> Verdict:
    """Exercise *No histogram beats this*: the packing lower bound max_t (t/2) d/(e^{tε} + d) on the expected
    largest error of any ε-DP histogram, for the exercise's d and ε.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "histogram_lower_bound", "the lower bound",
                     "evaluate (t/2)·d/(e^{tε} + d) for t = 1, 2, 3, ... and take the largest; t is a whole "
                     "number of records.",
                     {"real_t": ("that maximises over every real t; t counts records, a whole number.",
                                 "evaluate at whole t only.")})
