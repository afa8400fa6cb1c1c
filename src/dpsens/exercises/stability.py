"""Checkers for the exercises of the chapter *Testing privately, and releasing what is stable*.

The expected values are in the hashed key (:mod:`._key`), computed by the
teacher's registry from :mod:`dpsens.mechanisms.sparse_vector`,
:mod:`dpsens.mechanisms.stable_histogram` and :mod:`dpsens.mechanisms.noisy_max`.
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_svt_free_threshold_loss", "check_stable_threshold", "check_mode_distance",
           "check_pf_best_probability"]


@checker("a number")
def check_svt_free_threshold_loss(answer: object) -> Verdict:
    """Exercise *A threshold without noise*: the exact privacy loss of the output ⊥⊥⊥⊥⊥⊤ of AboveThreshold
    without threshold noise (query noise Lap(4/ε), ε = 1, threshold 2), answers 0 on x and
    (1, 1, 1, 1, 1, −1) on x'.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "svt_free_threshold_loss", "the privacy loss",
                     "without threshold noise the six comparisons are independent: multiply the six "
                     "probability ratios, then take the logarithm.",
                     {"worst_case": ("that is the worst case dε/4 of the variant, reached when the answers sit at "
                                     "the threshold; here they do not.",
                                     "compute each comparison's probability under x and x' with the Laplace "
                                     "distribution function at the threshold 2.")})


@checker("a number")
def check_stable_threshold(answer: object) -> Verdict:
    """Exercise *The stable histogram's threshold*: the threshold η a noisy count must clear, for the ε and δ
    the exercise states, so that a label with a single record is released with probability exactly δ.

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "stable_threshold", "the threshold η",
                     "the label with one record has noisy count 1 + Lap(1/ε); P(1 + Lap(1/ε) >= η) = "
                     "½·exp(−ε(η − 1)) for η >= 1.",
                     {"no_one": ("that is the threshold for a label with count 0, which is never looked at.",
                                 "the label that appears in x' but not in x has count 1 in x'."),
                      "dwork_roth": ("that releases the single-record label with probability δ/2: private, but "
                                     "not the threshold the exercise asks for.",
                                     "solve ½·exp(−ε(η − 1)) = δ exactly.")})


@checker("a whole number")
def check_mode_distance(answer: object) -> Verdict:
    """Exercise *How stable is the most common occupation?*: the distance to instability D of the mode of the
    Adult occupation column (a missing value is a label of its own), records added or removed.

    Precision: exact (a whole number)."""
    return check_key(answer, "mode_distance", "the distance to instability",
                     "D counts the records that can be added or removed while the mode stays the unique "
                     "largest count (after the last of them it must still be unique): compare the two "
                     "largest counts.")


@checker("a number")
def check_pf_best_probability(answer: object) -> Verdict:
    """Exercise *Permute-and-flip by hand*: the probability that permute-and-flip picks the candidate of score 2
    among the scores (2, 1, 0), ε = 1, score sensitivity 1 (not monotone).

    Precision: within 0.5 % (relative)."""
    return check_key(answer, "pf_best_probability", "the probability",
                     "list the 6 orders; in each, the candidates before the best must all flip tails, "
                     "each with probability 1 − exp(ε(g − g*)/2).",
                     {"em": ("that is the exponential mechanism's probability.",
                             "permute-and-flip stops at the first heads in a random order: enumerate the orders.")})
