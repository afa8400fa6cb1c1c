"""Checkers for the exercises of the chapter *Sample and aggregate*.

Setting: the Adult ages (n = 32,561), chunk answers clipped to [20, 80], ε = 1.
"""
from __future__ import annotations

import math

import numpy as np

from ..data import N_AGES
from ._verdict import (THREE_DIGITS, Verdict, as_number, as_whole_number, check_number, checker, close,
                       format_answer, wrong)

__all__ = ["check_saa_source_chunks", "check_saa_source_epsilon", "check_saa_overlap_epsilon",
           "check_saa_chunks_for_noise"]


def _source_count(n: int, k: int) -> int:
    size = math.ceil(n / k)
    return math.ceil(n / size)


@checker("a whole number")
def check_saa_source_chunks(answer) -> Verdict:
    """Exercise *Counting the source's chunks*: chunks produced by the source's slicing for m = 6000.

    Precision: a count, so exactly that whole number."""
    return check_number(
        answer, _source_count(N_AGES, 6000), "the number of chunks",
        "the source slices with chunk_size = ceil(n / m) rows; count how many slices "
        "range(0, n, chunk_size) makes.", integer=True,
    )


@checker("a number")
def check_saa_source_epsilon(answer) -> Verdict:
    """Exercise *The ε the source really spends*: for m = 6000, noise Lap(60/(6000·1)) on an average over the
    chunks the slicing really makes.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the intended ε = 1 (10 % off) does not."""
    expected = 6000 / _source_count(N_AGES, 6000)
    if close(answer, 1.0):
        return wrong("that is the ε the source intends, not the one it gets.",
                     "the average is over fewer chunks than 6000, so one chunk weighs more; "
                     "compare (u − l)/(actual chunks) with the noise scale times ε.")
    return check_number(answer, expected, "the ε actually achieved", rel_tol=THREE_DIGITS,
                        hint="sensitivity of the average = (u − l)/(number of chunks); "
                             "ε = sensitivity / noise scale.")


def _overlap_epsilon() -> float:
    rng = np.random.default_rng(2023)
    idx = rng.integers(0, N_AGES, size=(6000, 55))
    per_record = np.zeros(N_AGES, dtype=int)
    for row in idx:
        per_record[np.unique(row)] += 1
    return float(per_record.max())


@checker("the ε the mechanism really achieves")
def check_saa_overlap_epsilon(answer) -> Verdict:
    """Exercise *Overlapping chunks*: ε really achieved by 6000 bootstrap chunks of 55 (seed 2023),
    noise calibrated as if the chunks were disjoint, ε = 1 promised.

    Precision: exact -- a largest number of chunks times ε = 1, so a whole number."""
    return check_number(
        answer, _overlap_epsilon(), "the ε really achieved",
        "find the record that falls in the most chunks (count a record once per chunk, "
        "np.unique on each row); each of those chunks can move by u − l.", integer=True,
    )


@checker("the number of chunks m")
def check_saa_chunks_for_noise(answer) -> Verdict:
    """Exercise *Enough chunks*: the smallest m whose Laplace noise has standard deviation at most 0.05 years
    (bounds [20, 80], ε = 1).

    Precision: a count, so exactly that whole number; a wrong m is told whether
    it is too small or too large."""
    expected = math.ceil(math.sqrt(2) * 60 / 0.05)
    if as_number(answer) is None:
        return wrong(f"expected a whole number, got {type(answer).__name__}.")
    k = as_whole_number(answer)
    if k is None:
        return wrong(f"{format_answer(as_number(answer))} is not a whole number: m counts chunks.",
                     "solve √2 · 60 / (m ε) <= 0.05 and round to a whole number of chunks.")
    if k == expected:
        return check_number(k, expected, "the number of chunks", "")
    if k == math.ceil(60 / 0.05):
        return wrong(f"with m = {k:g} the *scale* is 0.05, but the standard deviation of Lap(b) is √2·b.",
                     "solve √2 · 60 / (m ε) <= 0.05 for the smallest whole m.")
    if k > expected:
        return wrong(f"m = {k:g} is enough, but not the smallest.", "solve √2 · 60 / (m ε) <= 0.05.")
    return wrong(f"with m = {k:g} the noise standard deviation is still above 0.05.",
                 "solve √2 · 60 / (m ε) <= 0.05 and round up.")
