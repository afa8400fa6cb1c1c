"""Checkers for the exercises of the chapter *Propose-test-release*.

Setting: the Adult ages (n = 32,561), bounds [0, 100], ε = 1, the book's public δ = 10⁻⁶.  The
expected values are in the hashed key (:mod:`._key`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_ptr_source_accident", "check_ptr_release_distance", "check_ptr_median_distance"]


@checker("your answer")
def check_ptr_source_accident(answer: object) -> Verdict:
    """Exercise *An accident waiting to happen*: probability that the source's test passes when D = 0.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; one rounded to 2 (8 % off) does not."""
    return check_key(answer, "ptr_source_accident", "the accidental-pass probability",
                     "for Laplace noise with scale 1/ε, P(noise >= T) = ½·exp(−ε·T) when T >= 0.",
                     {"delta": ("that is δ, the probability the test is *allowed* to pass by accident.",
                                "compute P(0 + Lap(1/ε) >= T) for the source's T.")})


@checker("the smallest distance D")
def check_ptr_release_distance(answer: object) -> Verdict:
    """Exercise *How far is far enough*: smallest integer distance D at which the corrected test
    (T = ln(1/δ)/ε) passes with probability at least 0.99.

    Precision: a distance in records, so exactly that whole number."""
    return check_key(answer, "ptr_release_distance", "the smallest distance",
                     "solve 1 − ½·exp(−ε(D − T)) >= 0.99 for D; the solution is not a whole number, so "
                     "think about which way to round it.")


@checker("the distance")
def check_ptr_median_distance(answer: object) -> Verdict:
    """Exercise *The median's distance*: exact distance from the ages to a dataset whose median has local
    sensitivity above 2 years, one record replaced at a time.

    Precision: a number of records, so exactly that whole number."""
    return check_key(answer, "ptr_median_distance", "the distance",
                     "A(t) of the median is the max over s = 0..t+1 of x_(r+s) − x_(r+s−t−1) (data sorted, "
                     "padded with 0 and 100, r = (n+1)/2); find the first t where it is above 2.")
