"""Checkers for the exercises of the chapter *Local sensitivity*.

The expected values are in the hashed key (:mod:`._key`), computed by the
teacher's registry from enumeration (:mod:`dpsens.grid`) for the small school
table and from order statistics for the Adult ages.
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_local_sum", "check_adult_mean_local", "check_median_k"]


@checker("a number")
def check_local_sum(answer: object) -> Verdict:
    """Exercise *Local sensitivity of a sum*: unbounded local sensitivity (k = 1) of
    the sum at the released absence days [1, ..., 6], pool of ten students.

    Precision: exact (a whole number of days), up to float round-off."""
    return check_key(answer, "local_sum", "the local sensitivity of the sum at the released table",
                     "two kinds of neighbour: remove one of the six released records, or add one of the "
                     "four students who are not in the release.")


@checker("a number")
def check_adult_mean_local(answer: object) -> Verdict:
    """Exercise *The mean of the Adult ages*: unbounded local sensitivity (k = 1)
    of the mean age, new records from the domain 0..100.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the worst removal (16 % smaller) does not."""
    return check_key(answer, "adult_mean_local", "the local sensitivity of the mean age",
                     "removing record r moves the mean by |r - mean| / (n - 1); adding value v moves it "
                     "by |v - mean| / (n + 1). Take the worst r in the data and the worst v in 0..100.")


@checker("a group size k (an integer)", "k counts records.")
def check_median_k(answer: object) -> Verdict:
    """Exercise *How robust is the median age?*: the smallest
    group size k at which the bounded local sensitivity of the median age
    (domain 0..100) reaches 1 year.

    Precision: a count, so exactly that whole number."""
    return check_key(answer, "median_k", "the smallest such group size",
                     "sort the ages; the median is x[m] with m = n // 2. Replacing k records moves it at most "
                     "to x[m + k] or x[m - k]: find the first k where that reaches a year.")
