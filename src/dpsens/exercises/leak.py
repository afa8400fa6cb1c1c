"""Checkers for the exercises of the chapter *Why local sensitivity leaks*.

The setting of the chapter: the median, the domain X = {1, 2, 3, 10, 11}
(the source's grid), unbounded neighbours, the "mechanism"
``median(x) + Lap(LS(x)/ε)`` and the neighbouring pair x = [1, 2, 10],
x' = [1, 2, 3, 10].
"""
from __future__ import annotations

import math

import numpy as np

from ..neighbors import Domain, enumerate_neighbors, releases
from ._verdict import THREE_DIGITS, Verdict, as_number, check_number, checker, correct, wrong

__all__ = ["check_leak_local_sensitivity", "check_leak_event_loss", "check_leak_threshold",
           "check_leak_discarded"]

_X = Domain([1, 2, 3, 10, 11])


def _ls(x) -> float:
    m = float(np.median(x))
    return max(abs(m - float(np.median(nb))) for nb in enumerate_neighbors(x, _X, k=1))


def _event_prob(loc: float, scale: float, center: float, c: float) -> float:
    """P(|loc + Lap(scale) - center| > c), by the Laplace CDF."""
    if scale == 0:
        return float(abs(loc - center) > c)

    def cdf(t):
        z = (t - loc) / scale
        return 0.5 * math.exp(z) if z < 0 else 1 - 0.5 * math.exp(-z)

    def sf(t):
        z = (t - loc) / scale
        return 0.5 * math.exp(-z) if z > 0 else 1 - 0.5 * math.exp(z)
    return sf(center + c) + cdf(center - c)   # the two tails, each computed without cancellation


def _event_loss(c: float, epsilon: float = 1.0) -> float:
    x, xp = [1, 2, 10], [1, 2, 3, 10]
    px = _event_prob(float(np.median(x)), _ls(x) / epsilon, 2.5, c)
    py = _event_prob(float(np.median(xp)), _ls(xp) / epsilon, 2.5, c)
    return math.log(px / py)


@checker("your number")
def check_leak_local_sensitivity(answer) -> Verdict:
    """Exercise *A local sensitivity by hand*: LS of the median at [2, 2, 10],
    unbounded neighbours, domain {1, 2, 3, 10, 11}.

    Precision: exact (a difference of medians of whole numbers), up to float round-off."""
    return check_number(
        answer, _ls([2, 2, 10]), "the local sensitivity",
        "list the neighbours: remove each record (3 choices) or add one value of the domain (5 choices); "
        "the largest change of the median wins. An even-sized neighbour averages its two middle values.",
    )


@checker("your number")
def check_leak_event_loss(answer) -> Verdict:
    """Exercise *The privacy loss of one event*: ln P(|Z − 2.5| > 3 | x) / P(|Z − 2.5| > 3 | x') at ε = 1.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; forgetting one tail (off by ln 2, 13 %) does not."""
    return check_number(
        answer, _event_loss(3.0), "the privacy loss of the event", rel_tol=THREE_DIGITS,
        hint="under x the release is 2 + Lap(4): add the two tails beyond 5.5 and below −0.5; "
             "under x' it is 2.5 + Lap(0.5): both tails together have probability e^(−3/0.5). "
             "Then take the natural logarithm of the ratio.",
    )


@checker("the threshold τ")
def check_leak_threshold(answer) -> Verdict:
    """Exercise *How far must the attacker look?*: the smallest threshold τ with loss(τ) >= 5 at ε = 1.

    Precision: the exercise asks for τ to two decimals, so any τ within 0.01 of
    the exact threshold passes (about 0.35 % relative): both roundings of the
    exact value to two decimals, down and up (the smallest two-decimal c that
    reaches the loss), are accepted.  (``c`` holds τ below.)"""
    c = as_number(answer)
    if c is None:
        return wrong(f"expected a finite number, got {type(answer).__name__}.")
    lo, hi = 0.5, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _event_loss(mid) >= 5:
            hi = mid
        else:
            lo = mid
    target = hi
    if abs(c - target) <= 0.01:
        return correct("at that distance the event is e^5 times likelier under x than under x'.")
    if c > target:
        return wrong(f"at τ = {c:g} the loss already exceeds 5 by a margin; a smaller τ suffices.",
                     "for τ > 0.5 the loss is a straight line in τ: write both tail probabilities "
                     "and solve loss(τ) = 5.")
    return wrong(f"at τ = {c:g} the loss is still below 5.",
                 "for τ > 0.5 the loss grows by (1/0.5 − 1/4)·ε per unit of τ.")


def _discarded(size: int = 3) -> set[tuple]:
    return {tuple(map(float, r)) for r in releases(_X, size) if _ls(r) == 0}


@checker("a list of datasets, each a list of numbers", "a list of lists of numbers, such as [[a, b, c, d], ...].")
def check_leak_discarded(answer, size: int = 3) -> Verdict:
    """Exercise *Ruled out for certain*: the datasets of ``size`` records from X
    that an adversary excludes after seeing a release that is not a whole
    number (the chapter asks about four records; the text shows the three-record
    case).

    Precision: the exact set of datasets (order and repeats in the list do not matter)."""
    try:
        given = {tuple(sorted(float(v) for v in d)) for d in answer}
    except (TypeError, ValueError):      # not a list of lists, or entries that are not numbers ("abc")
        return wrong(f"give a list of datasets, each a list of {size} numbers.", "a list of lists of numbers, such as [[a, b, c, d], ...].")
    expected = _discarded(size)
    if any(len(d) != size for d in given):
        return wrong(f"every candidate has {size} records.")
    if given == expected:
        return correct("exactly these datasets release their median with no noise at all.")
    if given < expected:
        return wrong(f"{len(expected - given)} dataset(s) missing.",
                     "which candidates have local sensitivity 0? Their release is always a whole number.")
    return wrong("some of these datasets could have produced a non-integer release.",
                 "a dataset whose local sensitivity is positive gets continuous noise, so it can never be "
                 "excluded with certainty.")
