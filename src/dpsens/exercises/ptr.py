"""Checkers for the exercises of the chapter *Propose-test-release*.

Setting: the Adult ages (n = 32,561), bounds [0, 100], ε = 1, δ = 1/n².
"""
from __future__ import annotations

import math

from ..data import N_AGES, load_ages
from ..smooth import distance_to_high_ls
from ._verdict import (THREE_DIGITS, Verdict, as_number, as_whole_number, check_number, checker, close,
                       format_answer, wrong)

__all__ = ["check_ptr_source_accident", "check_ptr_release_distance", "check_ptr_median_distance"]

EPSILON = 1.0
DELTA = 1.0 / N_AGES ** 2


@checker("your answer")
def check_ptr_source_accident(answer) -> Verdict:
    """Exercise *An accident waiting to happen*: probability that the source's test passes when D = 0.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; one rounded to 2 (8 % off) does not."""
    threshold = math.log(2 / DELTA) / (2 * EPSILON)
    expected = 0.5 * math.exp(-EPSILON * threshold)
    if close(answer, DELTA, THREE_DIGITS):
        return wrong("that is δ, the probability the test is *allowed* to pass by accident.",
                     "compute P(0 + Lap(1/ε) >= T) for the source's T.")
    return check_number(answer, expected, "the accidental-pass probability", rel_tol=THREE_DIGITS,
                        hint="for Laplace noise with scale 1/ε, P(noise >= T) = ½·exp(−ε·T) when T >= 0.")


@checker("the smallest distance D")
def check_ptr_release_distance(answer) -> Verdict:
    """Exercise *How far is far enough*: smallest integer distance D at which the corrected test
    (T = ln(1/δ)/ε) passes with probability at least 0.99.

    Precision: a distance in records, so exactly that whole number; a wrong D
    is told whether the test passes often enough there (too small / not the
    smallest), never by how much."""
    threshold = math.log(1 / DELTA) / EPSILON
    expected = math.ceil(threshold + math.log(50) / EPSILON)
    hint = "solve 1 − ½·exp(−ε(D − T)) >= 0.99 for D; the solution is not a whole number, so think about " \
           "which way to round it."
    d = as_number(answer)
    if d is None:
        return wrong(f"expected a finite whole number, got {type(answer).__name__}.", hint)
    k = as_whole_number(d)
    if k is None:
        return wrong(f"{format_answer(d)} is not a whole number: distances count records.",
                     "round the real solution of the inequality in the right direction.")
    if k < expected:
        return wrong(f"at D = {k} the test passes with probability below 0.99: D is too small.", hint)
    if k > expected:
        return wrong(f"at D = {k} the test passes often enough, but a smaller D already does.", hint)
    return check_number(k, expected, "the smallest distance", hint, integer=True)


@checker("the distance")
def check_ptr_median_distance(answer) -> Verdict:
    """Exercise *The median's distance*: exact distance from the ages to a dataset whose median has local
    sensitivity above 2 years, one record replaced at a time.

    Precision: a number of records, so exactly that whole number."""
    expected = distance_to_high_ls(load_ages().to_numpy(dtype=float), "median", 2.0, 0, 100, "bounded")
    return check_number(answer, expected, "the distance",
                        "A(t) of the median is the max over s = 0..t+1 of x_(r+s) − x_(r+s−t−1) (data sorted, "
                        "padded with 0 and 100, r = (n+1)/2); find the first t where it is above 2.", integer=True)
