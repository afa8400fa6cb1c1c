"""Checkers for the exercises of the chapter *Sample and aggregate*.

Setting: the Adult ages (n = 32,561), chunk answers clipped to [20, 80], ε = 1.
"""
from __future__ import annotations

import math

import numpy as np

from ._verdict import Verdict, check_number, is_placeholder, not_yet, wrong

__all__ = ["check_saa_source_chunks", "check_saa_source_epsilon", "check_saa_overlap_epsilon",
           "check_saa_chunks_for_noise"]

N_AGES = 32561


def _source_count(n: int, k: int) -> int:
    size = math.ceil(n / k)
    return math.ceil(n / size)


def check_saa_source_chunks(answer) -> Verdict:
    """Exercise *Counting the source's chunks*: chunks produced by the source's slicing for k = 6000."""
    return check_number(
        answer, _source_count(N_AGES, 6000), "the number of chunks",
        "the source slices with chunk_size = ceil(n / k) rows; count how many slices "
        "range(0, n, chunk_size) makes.",
    )


def check_saa_source_epsilon(answer) -> Verdict:
    """Exercise *The ε the source really spends*: for k = 6000, noise Lap(60/(6000·1)) on an average over the
    chunks the slicing really makes."""
    expected = 6000 / _source_count(N_AGES, 6000)
    if not is_placeholder(answer):
        try:
            if math.isclose(float(answer), 1.0):
                return wrong("that is the ε the source intends, not the one it gets.",
                             "the average is over fewer chunks than 6000, so one chunk weighs more; "
                             "compare (u − l)/(actual chunks) with the noise scale times ε.")
        except (TypeError, ValueError):
            pass
    return check_number(answer, expected, "the ε actually achieved", tol=1e-3,
                        hint="sensitivity of the average = (u − l)/(number of chunks); "
                             "ε = sensitivity / noise scale.")


def _overlap_epsilon() -> float:
    rng = np.random.default_rng(2023)
    idx = rng.integers(0, N_AGES, size=(6000, 55))
    per_record = np.zeros(N_AGES, dtype=int)
    for row in idx:
        per_record[np.unique(row)] += 1
    return float(per_record.max())


def check_saa_overlap_epsilon(answer) -> Verdict:
    """Exercise *Overlapping chunks*: ε really achieved by 6000 bootstrap chunks of 55 (seed 2023),
    noise calibrated as if the chunks were disjoint, ε = 1 promised."""
    if is_placeholder(answer):
        return not_yet("the ε the mechanism really achieves")
    return check_number(
        answer, _overlap_epsilon(), "the ε really achieved",
        "find the record that falls in the most chunks (count a record once per chunk, "
        "np.unique on each row); each of those chunks can move by u − l.",
    )


def check_saa_chunks_for_noise(answer) -> Verdict:
    """Exercise *Enough chunks*: the smallest k whose Laplace noise has standard deviation at most 0.05 years
    (bounds [20, 80], ε = 1)."""
    expected = math.ceil(math.sqrt(2) * 60 / 0.05)
    if is_placeholder(answer):
        return not_yet("the number of chunks k")
    try:
        k = float(answer)
    except (TypeError, ValueError):
        return wrong(f"expected a whole number, got {type(answer).__name__}.")
    if k == expected:
        return check_number(k, expected, "the number of chunks", "")
    if k == math.ceil(60 / 0.05):
        return wrong(f"with k = {k:g} the *scale* is 0.05, but the standard deviation of Lap(b) is √2·b.",
                     "solve √2 · 60 / (k ε) <= 0.05 for the smallest whole k.")
    if k > expected:
        return wrong(f"k = {k:g} is enough, but not the smallest.", "solve √2 · 60 / (k ε) <= 0.05.")
    return wrong(f"with k = {k:g} the noise standard deviation is still above 0.05.",
                 "solve √2 · 60 / (k ε) <= 0.05 and round up.")
