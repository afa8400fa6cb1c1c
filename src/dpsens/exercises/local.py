"""Checkers for the exercises of the chapter *Local sensitivity*.

Expected values come from enumeration (:mod:`dpsens.grid`) for the small
school table and from order statistics for the Adult ages -- not from the
exact engine the chapter teaches.
"""
from __future__ import annotations

import numpy as np

from ..data import load_ages
from ..neighbors import Pool, enumerate_neighbors
from ._verdict import THREE_DIGITS, Verdict, as_number, as_whole_number, check_number, checker, correct, wrong

__all__ = ["check_local_sum", "check_adult_mean_local", "check_median_k"]

ABSENCE_DAYS = Pool([1, 2, 3, 4, 5, 6, 7, 8, 15, 20])
RELEASED_DAYS = [1, 2, 3, 4, 5, 6]
AGE_BOUNDS = (0.0, 100.0)


@checker("a number")
def check_local_sum(answer) -> Verdict:
    """Exercise *The released table*: unbounded local sensitivity (k = 1) of
    the sum at the released absence days [1, ..., 6], pool of ten students.

    Precision: exact (a whole number of days), up to float round-off."""
    fx = float(np.sum(RELEASED_DAYS))
    expected = max(abs(fx - float(np.sum(y)))
                   for y in enumerate_neighbors(RELEASED_DAYS, ABSENCE_DAYS, 1, "unbounded"))
    return check_number(answer, expected, "the local sensitivity of the sum at the released table",
                        "two kinds of neighbour: remove one of the six released records, or add one of the "
                        "four students who are not in the release.")


def _adult_mean_local() -> float:
    x = np.sort(load_ages().to_numpy(float))
    n, m = len(x), float(np.mean(x))
    remove = max(x[-1] - m, m - x[0]) / (n - 1)
    add = max(AGE_BOUNDS[1] - m, m - AGE_BOUNDS[0]) / (n + 1)
    return max(remove, add)


@checker("a number")
def check_adult_mean_local(answer) -> Verdict:
    """Exercise *The mean of 32,561 ages*: unbounded local sensitivity (k = 1)
    of the mean age, new records from the domain 0..100.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the worst removal (16 % smaller) does not."""
    return check_number(answer, _adult_mean_local(), "the local sensitivity of the mean age",
                        "removing record r moves the mean by |r - mean| / (n - 1); adding value v moves it "
                        "by |v - mean| / (n + 1). Take the worst r in the data and the worst v in 0..100.",
                        rel_tol=THREE_DIGITS)


def _median_k_threshold(threshold: float = 1.0) -> int:
    x = np.sort(load_ages().to_numpy(float))
    n = len(x)
    m = n // 2  # n is odd: x[m] is the median
    for k in range(1, m + 1):
        if max(x[m + k] - x[m], x[m] - x[m - k]) >= threshold:
            return k
    raise RuntimeError("no k reaches the threshold")  # pragma: no cover


@checker("a group size k (an integer)", "k counts records.")
def check_median_k(answer) -> Verdict:
    """Exercise *How many records move the median by a year*: the smallest
    group size k at which the bounded local sensitivity of the median age
    (domain 0..100) reaches 1 year.

    Precision: a count, so exactly that whole number; a wrong k is told whether
    it is too small or too large."""
    if as_number(answer) is None:
        return wrong(f"expected an integer group size, got {type(answer).__name__}.", "k counts records.")
    k = as_whole_number(answer)
    if k is None:
        return wrong(f"{answer!r} is not a whole number of records.", "k counts records.")
    expected = _median_k_threshold()
    if k == expected:
        return correct("that many replaced records are needed before the median can move by a full year.")
    if k > expected:
        return wrong(f"k = {k} is enough, but a smaller group already moves the median by a year.",
                     "replacing the k smallest ages by 100 moves the median to the (m + k)-th sorted age.")
    return wrong(f"at k = {k} the median cannot yet move by a full year.",
                 "sort the ages; the median is x[m] with m = n // 2. Replacing k records moves it at most to "
                 "x[m + k] or x[m - k].")
