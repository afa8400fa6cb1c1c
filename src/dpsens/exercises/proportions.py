"""Checkers for the exercises of the chapter *Proportions vs frequencies*.

The expected values are in the hashed key (:mod:`._key`); the half-width
exercise has per-student variants (:mod:`.variants`).
"""
from __future__ import annotations

import numpy as np

from ..proportions import source_proportion_sensitivity
from ._verdict import Verdict, check_key, checker, correct, wrong

__all__ = ["check_proportion_halfwidth", "check_proportion_vector_change", "check_proportion_leak_pair"]


@checker("the half-width, a proportion")
def check_proportion_halfwidth(answer: object) -> Verdict:
    """Exercise *A real 99 % interval for a proportion*: half-width of the two-sided 99 % interval
    of the noise on one proportion released with the exercise's public n and ε.

    Precision: within 0.5 % (relative) of the exact value, so an answer rounded
    to 3 significant figures passes; the one-sided quantile b·ln 50 (15 % off)
    does not."""
    return check_key(answer, "proportion_halfwidth", "the 99 % half-width",
                     "the noise is Lap(b) with b = 1/(n ε); P(|noise| <= w) = 1 - exp(-w/b).",
                     {"source": ("that is the source's half-width: it covers only 49.5 % of the noise.",
                                 "solve P(|noise| <= w) = 1 - exp(-w/b) = 0.99 for w."),
                      "count": ("that is the half-width for the noisy *count*.",
                                "the proportion is the count divided by n, and so is its noise."),
                      "one_sided": ("that bounds the noise on one side only: |noise| stays below it with "
                                    "probability 98 %, not 99 %.",
                                    "the interval is two-sided: P(|noise| <= w) = 1 - exp(-w/b).")})


@checker("a number")
def check_proportion_vector_change(answer: object) -> Verdict:
    """Exercise *The L1 change of the vector of proportions*: largest L1 change of the proportion
    vector of counts (2, 3, 5) when one record is added or removed.

    Precision: within 0.5 % (relative), so an answer rounded to 3 or 4
    significant figures passes, as does the exact fraction; the
    single-proportion value (half of it) does not."""
    return check_key(answer, "proportion_vector_change", "the largest L1 change",
                     "try every removal and every addition; the proportions that do not lose the record "
                     "all rise, by c_i/(n(n-1)) each.",
                     {"single": ("that is the largest change of a single proportion, the source's Δ.",
                                 "add up the changes of all three proportions for one removal.")})


def _as_pair(answer):
    x, y = answer
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size < 2:
        raise ValueError
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError
    if np.any(x < 0) or np.any(y < 0) or np.any(x != np.round(x)) or np.any(y != np.round(y)):
        raise ValueError
    return x.astype(int), y.astype(int)


@checker("a pair (counts_x, counts_xprime) of count vectors of the same length",
         "a pair of lists of whole numbers, such as ([a, b, c], [a2, b2, c2]).")
def check_proportion_leak_pair(answer: object) -> Verdict:
    """Exercise *A pair of tables that the noise scale gives away*: two neighbouring count vectors
    ``(counts_x, counts_xprime)`` whose source noise scales differ by a factor 3 or more.

    Precision: any such pair (the ratio of the two Δ is computed exactly)."""
    try:
        x, y = _as_pair(answer)
    except (TypeError, ValueError):
        return wrong("give two count vectors of the same length (whole numbers >= 0), as a pair.",
                     "a pair of lists of whole numbers, such as ([a, b, c], [a2, b2, c2]).")
    diff = np.abs(x - y)
    if diff.sum() != 1:
        return wrong("these are not neighbours: one record added or removed changes exactly one count by one.",
                     "start from a dataset and remove a single record.")
    if x.sum() < 2 or y.sum() < 2:
        return wrong("each dataset needs at least two records for the source's formula.")
    dx, dy = source_proportion_sensitivity(x), source_proportion_sensitivity(y)
    small, large = sorted((dx, dy))
    if small == 0 or large / small >= 3:
        return correct("the noise scale alone tells the two datasets apart."
                       + (" One of them gets no noise at all." if small == 0 else ""))
    return wrong(f"the source's Δ differs by a factor {large / small:.3g} only.",
                 "the source's maximum runs over the labels present; what if removing a record "
                 "leaves a single label?")
