"""Checkers for the exercises of the chapter *Why local sensitivity leaks*.

The setting of the chapter: the median, the domain X = {1, 2, 3, 10, 11}
(the source's grid), unbounded neighbours, the "mechanism"
``median(x) + Lap(LS(x)/ε)`` and the neighbouring pair x = [1, 2, 10],
x' = [1, 2, 3, 10].  The expected values are in the hashed key (:mod:`._key`).
"""
from __future__ import annotations

from typing import Any

from ._verdict import Verdict, check_key, checker, wrong

__all__ = ["check_leak_local_sensitivity", "check_leak_event_loss", "check_leak_threshold",
           "check_leak_discarded"]


@checker("your number")
def check_leak_local_sensitivity(answer: object) -> Verdict:
    """Exercise *A local sensitivity by hand*: LS of the median at [2, 2, 10],
    unbounded neighbours, domain {1, 2, 3, 10, 11}.

    Precision: exact (a difference of medians of whole numbers), up to float round-off."""
    return check_key(
        answer, "leak_local_sensitivity", "the local sensitivity",
        "list the neighbours: remove each record (3 choices) or add one value of the domain (5 choices); "
        "the largest change of the median wins. An even-sized neighbour averages its two middle values.",
    )


@checker("your number")
def check_leak_event_loss(answer: object) -> Verdict:
    """Exercise *The privacy loss of one event*: ln P(|Z − 2.5| > τ | x) / P(|Z − 2.5| > τ | x') (the book: τ = 3, ε = 1).

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; forgetting one tail (off by ln 2, 13 %) does not."""
    return check_key(
        answer, "leak_event_loss", "the privacy loss of the event",
        "under x the release is 2 + Lap(4/ε): add its two tails beyond 2.5 + τ and below 2.5 − τ; "
        "under x' it is 2.5 + Lap(0.5/ε): both tails together have probability e^(−τε/0.5). "
        "Then take the natural logarithm of the ratio.",
    )


@checker("the threshold τ")
def check_leak_threshold(answer: object) -> Verdict:
    """Exercise *When the privacy loss reaches 5*: the smallest threshold τ with loss(τ) >= 5 at ε = 1.

    Precision: the exercise asks for τ to two decimals, so any τ within 0.01 of
    the exact threshold passes: both roundings of the exact value to two
    decimals, down and up (the smallest two-decimal τ that reaches the loss)."""
    return check_key(answer, "leak_threshold", "the threshold τ",
                     "for τ > 0.5 the loss is a straight line in τ, growing by (1/0.5 − 1/4)·ε per unit: "
                     "write both tail probabilities and solve loss(τ) = 5.")


@checker("a list of datasets, each a list of numbers", "a list of lists of numbers, such as [[a, b, c, d], ...].")
def check_leak_discarded(answer: Any, size: int = 3) -> Verdict:
    """Exercise *Ruled out for certain*: the datasets of ``size`` records from X
    that an adversary excludes after seeing a release that is not a whole
    number (the chapter asks about four records; the text shows the three-record
    case).

    Precision: the exact set of datasets (order and repeats in the list do not matter)."""
    if size not in (3, 4):
        raise ValueError(f"size must be 3 or 4, got {size!r}")
    try:
        given = [list(d) for d in answer]
        [float(v) for d in given for v in d]
    except (TypeError, ValueError):      # not a list of lists, or entries that are not numbers ("abc")
        return wrong(f"give a list of datasets, each a list of {size} numbers.",
                     "a list of lists of numbers, such as [[a, b, c, d], ...].")
    if any(len(d) != size for d in given):
        return wrong(f"every candidate has {size} records.")
    return check_key(answer, f"leak_discarded_{size}", "the set of datasets excluded for certain",
                     "which candidates have local sensitivity 0? Their release is always a whole number, and "
                     "only they can be excluded with certainty: a dataset with positive local sensitivity "
                     "gets continuous noise.")
