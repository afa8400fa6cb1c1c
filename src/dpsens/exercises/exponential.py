"""Checkers for the exercises of the chapter *The exponential mechanism and inverse sensitivity*.

Setting: the Adult ages (n = 32,561), public bounds [0, 100]; the quantile of
level α is the order statistic of rank ⌊α(n − 1)⌋ + 1.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..data import load_ages
from ..inverse import inverse_len_quantile
from ..mechanisms.exponential import quantile_exponential_distribution
from ._verdict import EXACT, THREE_DIGITS, Verdict, as_number, check_number, checker, close, wrong

__all__ = ["check_em_tie_probability", "check_inverse_len_median", "check_rank_score_sensitivity"]


def _ages():
    return load_ages().to_numpy(dtype=float)


@checker("a probability")
def check_em_tie_probability(answer) -> Verdict:
    """Exercise *Which side of the tie*: probability that the exponential-mechanism median of the ages
    (ε = 0.1, one record replaced, bounds [0, 100]) falls in the interval [36, 37].

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes."""
    dist = quantile_exponential_distribution(_ages(), 0.5, 0.1, 0.0, 100.0, "bounded")
    p = np.exp(dist["log_prob"])
    expected = float(p[(dist["left"] == 36.0) & (dist["right"] == 37.0)].sum())
    hint = ("only two intervals have a length and a score that matter, [36, 37] and [37, 38]; "
            "their weights are length × exp(ε g / (2 GS_g)).")
    if close(answer, 1 - expected, THREE_DIGITS):
        return wrong("that is the probability of the other interval, [37, 38].", hint)
    return check_number(answer, expected, "the probability", hint, rel_tol=THREE_DIGITS)


@checker("a whole number of records")
def check_inverse_len_median(answer) -> Verdict:
    """Exercise *How far to a median of 40*: len of the median of the ages at z = 40, one record
    replaced per step.

    Precision: a number of records, so exactly that whole number."""
    expected = inverse_len_quantile(_ages(), 0.5, 40.0, 0.0, 100.0, "bounded")
    return check_number(answer, expected, "len", "count the records below 40 and compare with how many may "
                        "lie below the median's rank, r − 1.", integer=True)


@checker("a number")
def check_rank_score_sensitivity(answer) -> Verdict:
    """Exercise *The score's sensitivity*: GS_g of the two-sided median score
    ``−|#{x_i < z} − #{x_i > z}|`` when one record is replaced (the size public).

    Precision: exact (up to float round-off)."""
    # a replacement: one record leaves below / at / above z, one joins below / at / above z
    sides = {"below": (1, 0), "at": (0, 0), "above": (0, 1)}
    expected = max(abs((new[0] - old[0]) - (new[1] - old[1]))
                   for old, new in itertools.product(sides.values(), repeat=2))
    value = as_number(answer)
    hint = ("list what one replaced record does to the count below z and to the count above z: "
            "which of them can move, and can both move at once?")
    if value is not None and close(value, 1.0, EXACT):
        return wrong("1 would be right if only one of the two counts could move; a replacement can move both.",
                     hint)
    return check_number(answer, expected, "GS_g", hint, rel_tol=EXACT)
