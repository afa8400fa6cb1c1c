"""Checkers for the exercises of the chapter *Smooth sensitivity*.

Setting: the Adult ages (n = 32,561), bounds [0, 100], ε = 1, δ = 1/n².
"""
from __future__ import annotations

import math

import numpy as np

from ..data import N_AGES, load_ages
from ..smooth import smooth_sensitivity
from ._verdict import THREE_DIGITS, Verdict, check_number, checker, close, wrong

__all__ = ["check_smooth_beta", "check_smooth_turning_point", "check_smooth_median_direct"]

U = 100.0


def _beta(n: int, epsilon: float = 1.0) -> float:
    return epsilon / (2 * math.log(2 * n ** 2))


@checker("your answer")
def check_smooth_beta(answer) -> Verdict:
    """Exercise *The smoothing parameter*: β for ε = 1, δ = 1/n², n = 32,561.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures (0.0233) passes; δ = 1/n (doubles β) or ln(1/δ) for ln(2/δ) (3 % off) do not."""
    if close(answer, 1 / (2 * math.log(2 * N_AGES)), THREE_DIGITS):
        return wrong("δ is 1/n², not 1/n.", "2/δ = 2n².")
    if close(answer, 1 / (2 * math.log(N_AGES ** 2)), THREE_DIGITS):
        return wrong("that uses ln(1/δ); the smooth-sensitivity β has ln(2/δ).", "β = ε / (2 ln(2/δ)).")
    return check_number(answer, _beta(N_AGES), "β", rel_tol=THREE_DIGITS,
                        hint="β = ε / (2 ln(2/δ)) with δ = 1/n².")


def _turning_point() -> int:
    n, beta = N_AGES, _beta(N_AGES)
    k = np.arange(0, n + 1)
    logs = -beta * k + np.log(U) - np.log(n - k + 1.0)
    rising = np.nonzero(np.diff(logs) > 0)[0]
    return int(rising[0])


@checker("the distance k")
def check_smooth_turning_point(answer) -> Verdict:
    """Exercise *Where the source's curve turns*: smallest k with e^{-β(k+1)} u/(n−k) > e^{-βk} u/(n−k+1).

    Precision: an index, so exactly that whole number."""
    return check_number(answer, _turning_point(), "the turning point",
                        "the ratio of consecutive terms is e^{−β}(n−k+1)/(n−k); find the first k where it "
                        "exceeds 1 (work with logarithms, e^{−βk} underflows for large k).", integer=True)


def _median_direct_answer() -> float:
    x = load_ages().to_numpy(dtype=float)[:2001]
    return smooth_sensitivity(x, "median", _beta(2001), 0, 100, "bounded")


@checker("the smooth sensitivity S")
def check_smooth_median_direct(answer) -> Verdict:
    """Exercise *The median from scratch*: smooth sensitivity of the median of the first 2,001 ages
    (bounded relation, ε = 1, δ = 1/2001²), with the direct formula over every k.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant figures passes."""
    return check_number(answer, _median_direct_answer(), "the smooth sensitivity", rel_tol=THREE_DIGITS,
                        hint="sort, pad with 0 below and 100 above, A(k) = max_s X[m+s] − X[m+s−k−1] for "
                             "s = 0..k+1, then S = max over k = 0..n+1 of e^{−βk} A(k) with β for n = 2001.")
