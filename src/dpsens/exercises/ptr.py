"""Checkers for the exercises of the chapter *Propose-test-release*.

Setting: the Adult ages (n = 32,561), bounds [0, 100], ε = 1, δ = 1/n².
"""
from __future__ import annotations

import math

from ._verdict import Verdict, check_number, is_placeholder, not_yet, wrong

__all__ = ["check_ptr_source_accident", "check_ptr_release_distance", "check_ptr_median_distance"]

N_AGES = 32561
EPSILON = 1.0
DELTA = 1.0 / N_AGES ** 2


def check_ptr_source_accident(answer) -> Verdict:
    """Exercise *An accident waiting to happen*: probability that the source's test passes when D = 0."""
    threshold = math.log(2 / DELTA) / (2 * EPSILON)
    expected = 0.5 * math.exp(-EPSILON * threshold)
    if not is_placeholder(answer):
        try:
            if math.isclose(float(answer), DELTA, rel_tol=1e-6):
                return wrong("that is δ, the probability the test is *allowed* to pass by accident.",
                             "compute P(0 + Lap(1/ε) >= T) for the source's T.")
        except (TypeError, ValueError):
            pass
    return check_number(answer, expected, "the accidental-pass probability", tol=1e-6,
                        hint="for Laplace noise with scale 1/ε, P(noise >= T) = ½·exp(−ε·T) when T >= 0.")


def check_ptr_release_distance(answer) -> Verdict:
    """Exercise *How far is far enough*: smallest integer distance D at which the corrected test
    (T = ln(1/δ)/ε) passes with probability at least 0.99."""
    threshold = math.log(1 / DELTA) / EPSILON
    expected = math.ceil(threshold + math.log(50) / EPSILON)
    if is_placeholder(answer):
        return not_yet("the smallest distance D")
    try:
        d = float(answer)
    except (TypeError, ValueError):
        return wrong(f"expected a whole number, got {type(answer).__name__}.",
                     "solve 1 − ½·exp(−ε(D − T)) >= 0.99 for D, then round up.")
    if not math.isfinite(d):
        return wrong(f"{d:g} is not a distance: the answer is a finite whole number of records.",
                     "solve 1 − ½·exp(−ε(D − T)) >= 0.99 for D, then round up.")
    if d != int(d):
        return wrong(f"{d:g} is not a whole number: distances count records.",
                     "round the real solution of the inequality in the right direction.")
    if int(d) == expected - 1:
        return wrong(f"{int(d)} is one short: the probability there is just below 0.99.",
                     "round up, not to the nearest integer.")
    return check_number(int(d), expected, "the smallest distance",
                        "solve 1 − ½·exp(−ε(D − T)) >= 0.99 for D, then round up.")


def check_ptr_median_distance(answer) -> Verdict:
    """Exercise *The median's distance*: exact distance from the ages to a dataset whose median has local
    sensitivity above 2 years, one record replaced at a time."""
    if is_placeholder(answer):
        return not_yet("the distance")
    from ..data import load_ages
    from ..smooth import distance_to_high_ls

    expected = distance_to_high_ls(load_ages().to_numpy(dtype=float), "median", 2.0, 0, 100, "bounded")
    return check_number(answer, expected, "the distance",
                        "A(k) of the median is max over s of X[m+s] − X[m+s−k−1] (data sorted, padded with "
                        "0 and 100); find the first k where it is above 2 -- or ask ds.distance_to_high_ls.")
