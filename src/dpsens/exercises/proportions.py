"""Checkers for the exercises of the chapter *Proportions vs frequencies*."""
from __future__ import annotations

import math

import numpy as np

from ..proportions import proportion_local_sensitivity, source_proportion_sensitivity
from ._verdict import (THREE_DIGITS, Verdict, as_number, check_number, checker, close, correct, wrong)

__all__ = ["check_proportion_halfwidth", "check_proportion_vector_change", "check_proportion_leak_pair"]


@checker("the half-width, a proportion")
def check_proportion_halfwidth(answer) -> Verdict:
    """Exercise *A real 99 % interval*: half-width of the two-sided 99 % interval
    of the noise on one proportion released with n = 2000 public and ε = 0.5.

    Precision: within 0.5 % (relative) of the exact value, so an answer rounded
    to 3 significant figures passes; the one-sided quantile b·ln 50 (15 % off)
    does not."""
    b = 1 / (2000 * 0.5)
    expected = math.log(100) * b
    value = as_number(answer)
    if value is not None and close(value, -math.log(0.505) * b, 1e-3):
        return wrong(f"{value:g} is the source's half-width: it covers only 49.5 % of the noise.",
                     "solve P(|noise| <= w) = 1 - exp(-w/b) = 0.99 for w.")
    if value is not None and close(value, math.log(100) / 0.5, 1e-3):
        return wrong(f"{value:g} is the half-width for the noisy *count*.",
                     "the proportion is the count divided by n, and so is its noise.")
    if value is not None and close(value, math.log(50) * b, THREE_DIGITS):
        return wrong("that bounds the noise on one side only: |noise| stays below it with probability 98 %, "
                     "not 99 %.",
                     "the interval is two-sided: P(|noise| <= w) = 1 - exp(-w/b).")
    return check_number(answer, expected, "the 99 % half-width",
                        "the noise is Lap(b) with b = 1/(n ε); P(|noise| <= w) = 1 - exp(-w/b).",
                        rel_tol=THREE_DIGITS)


@checker("a number")
def check_proportion_vector_change(answer) -> Verdict:
    """Exercise *The whole vector moves more*: largest L1 change of the proportion
    vector of counts (2, 3, 5) when one record is added or removed.

    Precision: within 0.5 % (relative), so 0.178 or 0.1778 pass as well as the
    exact fraction; the single-proportion value (half of it) does not."""
    expected = proportion_local_sensitivity([2, 3, 5], "unbounded", "l1")
    value = as_number(answer)
    if value is not None and close(value, source_proportion_sensitivity([2, 3, 5]), THREE_DIGITS):
        return wrong("that is the largest change of a single proportion, the source's Δ.",
                     "add up the changes of all three proportions for one removal.")
    return check_number(answer, expected, "the largest L1 change",
                        "try every removal and every addition; the proportions that do not lose the record "
                        "all rise, by c_i/(n(n-1)) each.", rel_tol=THREE_DIGITS)


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
def check_proportion_leak_pair(answer) -> Verdict:
    """Exercise *A pair that gives itself away*: two neighbouring count vectors
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
