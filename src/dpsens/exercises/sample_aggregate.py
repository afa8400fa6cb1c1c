"""Checkers for the exercises of the chapter *Sample and aggregate*.

Setting: the Adult ages (n = 32,561), chunk answers clipped to [20, 80], ε = 1.
The expected values are in the hashed key (:mod:`._key`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_saa_source_chunks", "check_saa_source_epsilon", "check_saa_overlap_epsilon",
           "check_saa_chunks_for_noise"]


@checker("a whole number")
def check_saa_source_chunks(answer: object) -> Verdict:
    """Exercise *Counting the source's chunks*: chunks produced by the source's slicing for m = 6000.

    Precision: a count, so exactly that whole number."""
    return check_key(answer, "saa_source_chunks", "the number of chunks",
                     "the source slices with chunk_size = ceil(n / m) rows; count how many slices "
                     "range(0, n, chunk_size) makes.")


@checker("a number")
def check_saa_source_epsilon(answer: object) -> Verdict:
    """Exercise *The ε the source really spends*: for m = 6000, noise Lap(60/(6000·1)) on an average over the
    chunks the slicing really makes.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the intended ε = 1 (10 % off) does not."""
    return check_key(answer, "saa_source_epsilon", "the ε actually achieved",
                     "sensitivity of the average = (u − l)/(number of chunks); ε = sensitivity / noise scale.",
                     {"intended": ("that is the ε the source intends, not the one it gets.",
                                   "the average is over fewer chunks than 6000, so one chunk weighs more; "
                                   "compare (u − l)/(actual chunks) with the noise scale times ε.")})


@checker("the ε the mechanism really achieves")
def check_saa_overlap_epsilon(answer: object) -> Verdict:
    """Exercise *Overlapping chunks*: ε really achieved by 6000 bootstrap chunks of 55 (seed 2023),
    noise calibrated as if the chunks were disjoint, ε = 1 promised.

    Precision: exact -- a largest number of chunks times ε = 1, so a whole number."""
    return check_key(answer, "saa_overlap_epsilon", "the ε really achieved",
                     "find the record that falls in the most chunks (count a record once per chunk, "
                     "np.unique on each row); each of those chunks can move by u − l.")


@checker("the number of chunks m")
def check_saa_chunks_for_noise(answer: object) -> Verdict:
    """Exercise *Enough chunks*: the smallest m whose Laplace noise has standard deviation at most 0.05 years
    (bounds [20, 80], ε = 1).

    Precision: a count, so exactly that whole number."""
    return check_key(answer, "saa_chunks_for_noise", "the number of chunks",
                     "solve √2 · 60 / (m ε) <= 0.05 for the smallest whole m.",
                     {"scale": ("with that m the *scale* is 0.05, but the standard deviation of Lap(b) is √2·b.",
                                "solve √2 · 60 / (m ε) <= 0.05 for the smallest whole m.")})
