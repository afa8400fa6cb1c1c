"""Checkers for the exercises of the chapter *The exponential mechanism and inverse sensitivity*.

Setting: the Adult ages (n = 32,561), public bounds [0, 100]; the quantile of
level α is the order statistic of rank ⌊α(n − 1)⌋ + 1.  The expected values
are in the hashed key (:mod:`._key`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_em_tie_probability", "check_inverse_len_median", "check_rank_score_sensitivity"]


@checker("a probability")
def check_em_tie_probability(answer: object) -> Verdict:
    """Exercise *Which side of the tie*: probability that the exponential-mechanism median of the ages
    (ε = 0.1, one record replaced, bounds [0, 100]) falls in the interval [36, 37].

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes."""
    hint = ("only two intervals have a length and a score that matter, [36, 37] and [37, 38]; "
            "their weights are length × exp(ε U / (2 GS_U)).")
    return check_key(answer, "em_tie_probability", "the probability", hint,
                     {"other_interval": ("that is the probability of the other interval, [37, 38].", hint)})


@checker("a whole number of records")
def check_inverse_len_median(answer: object) -> Verdict:
    """Exercise *How far to a median of 40*: len of the median of the ages at z = 40, one record
    replaced per step.

    Precision: a number of records, so exactly that whole number."""
    return check_key(answer, "inverse_len_median", "len", "count the records below 40 and compare with how many "
                     "may lie below the median's rank, r − 1.")


@checker("a number")
def check_rank_score_sensitivity(answer: object) -> Verdict:
    """Exercise *The score's sensitivity*: GS_U of the two-sided median score
    ``−|#{x_i < z} − #{x_i > z}|`` when one record is replaced (the size public).

    Precision: exact (up to float round-off)."""
    hint = ("list what one replaced record does to the count below z and to the count above z: "
            "which of them can move, and can both move at once?")
    return check_key(answer, "rank_score_sensitivity", "GS_U", hint,
                     {"one_count": ("1 would be right if only one of the two counts could move; a replacement "
                                    "can move both.", hint)})
