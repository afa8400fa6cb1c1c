"""Per-student variants of the later chapters' exercises: the book's numbers and each draw.

Chapters: *Sample and aggregate*, *Propose-test-release*, *Smooth
sensitivity*, *The exponential mechanism and inverse sensitivity*, *Many
answers at once*, *How accurate is it, and what can no mechanism beat?*,
*Composing releases*, *Testing privately, and releasing what is stable* and
*Noise a computer can actually sample*.  :mod:`.variants` gathers
:data:`BOOK` (the book's parameters, seed 0), :data:`TEXT` (how a handout
states them) and :data:`DRAWS` (exercise name -> a function drawing a
student's parameters from a ``numpy.random.Generator``).

A draw only draws parameters, from ranges wide enough that a roster's
answers spread; it never computes the exercise's answer nor compares one
with the book's (nothing here imports a function that computes one).  That
no two classmates crowd on one answer and nobody draws the book's published
one is the instructor's tool's job (``tools/course.py``, which picks each
exercise's course salt for the roster).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .. import data   # its size only (N_AGES): no draw reads the data

__all__ = ["BOOK", "TEXT", "DRAWS"]

#: The book's parameters (seed 0) of the exercises drawn here.
BOOK: dict[str, dict] = {
    "saa_source_chunks": {"n": None, "m": 6000},
    "saa_source_epsilon": {"n": None, "m": 6000, "epsilon": 1.0},
    "saa_overlap_epsilon": {"n": None, "chunks": 6000, "size": 55, "draw_seed": 2023},
    "saa_chunks_for_noise": {"lower": 20, "upper": 80, "epsilon": 1.0, "sd": 0.05},
    "ptr_source_accident": {"epsilon": 1.0, "delta": 1e-6},
    "ptr_release_distance": {"epsilon": 1.0, "delta": 1e-6},
    "ptr_median_distance": {"n": None, "bound": 2},
    "smooth_beta": {"epsilon": 1.0, "delta": 1e-6},
    "smooth_turning_point": {"n": None, "epsilon": 1.0, "delta": 1e-6},
    "smooth_median_direct": {"n": 2001, "epsilon": 1.0},
    "smooth_student_error": {"n": 2001, "epsilon": 0.5, "df": 3},
    "em_tie_probability": {"epsilon": 0.1},
    "inverse_len_median": {"n": None, "target": 40},
    "mean_median_l1": {"lower": 17, "upper": 90, "x": [20, 21, 22, 80, 90]},
    "gaussian_per_count": {"groups": 25, "epsilon": 1.0, "delta": 1e-6},
    "crossover_d": {"epsilon": 0.5, "delta": 1e-8, "ratio": 1.0},
    "zcdp_epsilon": {"releases": 10, "sigma": 4.0, "delta": 1e-6},
    "private_bound_above": {"alpha": 0.99, "epsilon": 0.05},
    "gaussian_tail": {"epsilon": 1.0, "delta": 1e-6, "zeta": 0.05},
    "em_utility_bound": {"top": 100, "epsilon": 1.0, "zeta": 0.01},
    "advanced_epsilon": {"releases": 400, "b": 20.0, "delta": 1e-6},
    "gaussian_exact_epsilon": {"releases": 10, "sigma": 4.0, "delta": 1e-6},
    "laplace_pld_epsilon": {"releases": 200, "b": 10.0, "delta": 1e-6},
    "svt_free_threshold_loss": {"threshold": 2.0, "epsilon": 1.0},
    "mode_distance": {"column": "occupation", "rows": None},
    "pf_best_probability": {"scores": [2, 1, 0], "epsilon": 1.0},
    "discrete_laplace_zero": {"b": 2.0},
    "snapping_epsilon": {"epsilon": 0.3, "log2_bound": 40},
    "rounded_sensitivity": {"sensitivity": 1},
    "discrete_gaussian_delta": {"epsilon": 1.0, "sigma": 3.0},
}

#: How a student's handout states the parameters (``str.format`` with the parameters).
TEXT: dict[str, str] = {
    "saa_source_chunks": "m = {m} on the first n = {n} ages (`ages[:{n}]`)",
    "saa_source_epsilon": "m = {m} on the first n = {n} ages (`ages[:{n}]`), noise Lap(60/({m} · {epsilon:g})), "
                          "so a promised ε = {epsilon:g}",
    "saa_overlap_epsilon": "n = {n} records, {chunks} bootstrap chunks of {size} records, drawn with "
                           "`rng = np.random.default_rng({draw_seed})` and "
                           "`idx = rng.integers(0, {n}, size=({chunks}, {size}))`",
    "saa_chunks_for_noise": "answers clipped to [{lower}, {upper}], ε = {epsilon:g} and a standard deviation of "
                            "at most {sd:g} years",
    "ptr_source_accident": "ε = {epsilon:g} and δ = {delta:g}",
    "ptr_release_distance": "ε = {epsilon:g} and δ = {delta:g}",
    "ptr_median_distance": "the first n = {n} ages (`ages[:{n}]`) and a local sensitivity above {bound} years",
    "smooth_beta": "ε = {epsilon:g} and δ = {delta:g}",
    "smooth_turning_point": "n = {n}, u = 100 and β for ε = {epsilon:g} and δ = {delta:g}",
    "smooth_median_direct": "the first n = {n} ages (`ages[:{n}]`), ε = {epsilon:g} and δ = 1/{n}²",
    "smooth_student_error": "the first n = {n} ages (`ages[:{n}]`), ε = {epsilon:g} and df = {df}",
    "em_tie_probability": "ε = {epsilon:g}",
    "inverse_len_median": "the first n = {n} ages (`ages[:{n}]`) and a median of {target}",
    "mean_median_l1": "the domain {{{lower}, …, {upper}}} and x = {x}",
    "gaussian_per_count": "{groups} groups (and {groups} counts), ε = {epsilon:g} and δ = {delta:g}",
    "crossover_d": "ε = {epsilon:g}, δ = {delta:g}, and the Gaussian's σ per answer smaller than {ratio:g} × "
                   "the Laplace noise's standard deviation",
    "zcdp_epsilon": "{releases} releases with N(0, {sigma:g}²) noise and δ = {delta:g}",
    "private_bound_above": "α = {alpha:g} and ε₁ = {epsilon:g}",
    "gaussian_tail": "ε = {epsilon:g}, δ = {delta:g} and an error exceeded with probability {zeta:g}",
    "em_utility_bound": "the whole numbers 0, …, {top} as the candidates, ε = {epsilon:g} and ζ = {zeta:g}",
    "advanced_epsilon": "{releases} counts, each with Laplace noise of scale b = {b:g}, and δ' = {delta:g}",
    "gaussian_exact_epsilon": "{releases} releases with N(0, {sigma:g}²) noise and δ = {delta:g}",
    "laplace_pld_epsilon": "{releases} counts, each with Lap({b:g}) noise, and δ = {delta:g}",
    "svt_free_threshold_loss": "ε = {epsilon:g} (query noise Lap(4/ε)) and the threshold η = {threshold:g}",
    "mode_distance": 'the column "{column}" of the first {rows} rows: `ds.load_adult()["{column}"][:{rows}]`',
    "pf_best_probability": "scores {scores} and ε = {epsilon:g} (the best candidate's score is {scores[0]})",
    "discrete_laplace_zero": "b = {b:g} (ε = 1/b)",
    "snapping_epsilon": "target ε = {epsilon:g} and clamp B = 2^{log2_bound}",
    "rounded_sensitivity": "a sensitivity of {sensitivity} (say a sum of values in [0, {sensitivity}])",
    "discrete_gaussian_delta": "σ = {sigma:g} and ε = {epsilon:g}",
}


def _grid(rng: np.random.Generator, lo: float, hi: float, step: float) -> float:
    """A number of ``[lo, hi]`` on the grid of ``step`` (a short decimal a handout prints exactly)."""
    return round(int(rng.integers(round(lo / step), round(hi / step) + 1)) * step, 6)


def _log(rng: np.random.Generator, lo: float, hi: float) -> float:
    """A number of ``[lo, hi]``, uniform on a log scale, to 3 significant figures."""
    return float(f"{math.exp(float(rng.uniform(math.log(lo), math.log(hi)))):.3g}")


def _delta(rng: np.random.Generator, lo_exp: int = 5, hi_exp: int = 10) -> float:
    """δ = d.d × 10^-k, k in ``[lo_exp, hi_exp]``."""
    return float(f"{int(rng.integers(10, 100)) / 10}e-{int(rng.integers(lo_exp, hi_exp + 1))}")


def _odd(rng: np.random.Generator, lo: int, hi: int) -> int:
    """An odd size of ``[2 lo + 1, 2 hi + 1]`` (a median of one record)."""
    return 2 * int(rng.integers(lo, hi + 1)) + 1


def saa_source_chunks(rng: np.random.Generator) -> dict:
    n = int(rng.integers(5001, data.N_AGES + 1))
    return {"n": n, "m": int(rng.integers(200, min(9000, n // 2) + 1))}


def saa_source_epsilon(rng: np.random.Generator) -> dict:
    n = int(rng.integers(5001, data.N_AGES + 1))
    return {"n": n, "m": int(rng.integers(200, n // 2)), "epsilon": _log(rng, 0.05, 5.0)}


def saa_overlap_epsilon(rng: np.random.Generator) -> dict:
    # from 26 to 300 draws per record on average
    n, size = int(rng.integers(1000, 8001)), int(rng.integers(10, 151))
    chunks = int(round(float(rng.uniform(26, 300)) * n / size))
    return {"n": n, "chunks": chunks, "size": size, "draw_seed": int(rng.integers(1, 10_000))}


def saa_chunks_for_noise(rng: np.random.Generator) -> dict:
    lower = int(rng.integers(0, 41))
    return {"lower": lower, "upper": lower + int(rng.integers(10, 151)), "epsilon": _grid(rng, 0.1, 3.0, 0.01),
            "sd": _log(rng, 0.002, 0.2)}


def ptr_release_distance(rng: np.random.Generator) -> dict:
    # δ first, then ε on a log scale: ε from 0.01 to 0.5
    delta = _delta(rng)
    return {"epsilon": _log(rng, 0.01, 0.5), "delta": delta}


def ptr_median_distance(rng: np.random.Generator) -> dict:
    return {"n": _odd(rng, 1000, data.N_AGES // 2), "bound": int(rng.integers(1, 9))}


def smooth_student_error(rng: np.random.Generator) -> dict:
    return {"n": _odd(rng, 500, 4000), "epsilon": _log(rng, 0.1, 2.0), "df": int(rng.integers(3, 10))}


def inverse_len_median(rng: np.random.Generator) -> dict:
    # a target away from the middle of the ages (the data's median is published): a length above 0
    return {"n": int(rng.integers(2001, data.N_AGES + 1)), "target": int(rng.choice([*range(20, 33), *range(42, 66)]))}


def mean_median_l1(rng: np.random.Generator) -> dict:
    # the domain's width drawn on a log scale
    lower = int(rng.integers(0, 51))
    upper = lower + int(_log(rng, 40, 800))
    size = int(rng.choice([5, 7]))
    return {"lower": lower, "upper": upper,
            "x": sorted(int(v) for v in rng.choice(np.arange(lower, upper + 1), size=size, replace=False))}


def crossover_d(rng: np.random.Generator) -> dict:
    # 1/ratio² uniform in [4, 1000]
    return {"epsilon": _grid(rng, 0.1, 3.0, 0.01), "delta": _delta(rng, 4, 12),
            "ratio": float(f"{float(rng.uniform(4, 1000)) ** -0.5:.3g}")}


#: The Adult columns a student's mode is taken from (occupation, the book's, has two nearly equal counts).
MODE_COLUMNS = ("workclass", "education", "marital-status", "relationship", "race", "sex", "native-country")


def pf_best_probability(rng: np.random.Generator) -> dict:
    return {"scores": sorted((int(v) for v in rng.choice(9, size=3, replace=False)), reverse=True),
            "epsilon": _log(rng, 0.1, 1.0)}


def rounded_sensitivity(rng: np.random.Generator) -> dict:
    # an odd Δ, as the book's 1: for an even Δ the question would turn into another
    return {"sensitivity": 2 * int(rng.integers(1, 1500)) + 1}


def discrete_gaussian_delta(rng: np.random.Generator) -> dict:
    # σ first, then ε at most 3/σ (ε σ small: a δ a handout can state)
    sigma = _grid(rng, 0.8, 15.0, 0.1)
    return {"epsilon": _grid(rng, 0.05, min(3.0, max(0.1, 3.0 / sigma)), 0.05), "sigma": sigma}


#: Exercise name -> the function drawing a student's parameters.
DRAWS: dict[str, Callable[[np.random.Generator], dict]] = {
    "saa_source_chunks": saa_source_chunks,
    "saa_source_epsilon": saa_source_epsilon,
    "saa_overlap_epsilon": saa_overlap_epsilon,
    "saa_chunks_for_noise": saa_chunks_for_noise,
    "ptr_source_accident": lambda rng: {"epsilon": _grid(rng, 0.1, 3.0, 0.1), "delta": _delta(rng)},
    "ptr_release_distance": ptr_release_distance,
    "ptr_median_distance": ptr_median_distance,
    "smooth_beta": lambda rng: {"epsilon": _log(rng, 0.05, 5.0), "delta": _delta(rng)},
    "smooth_turning_point": lambda rng: {"n": int(rng.integers(1000, data.N_AGES + 1)), "epsilon": _grid(rng, 0.1, 3.0, 0.01),
                                         "delta": _delta(rng)},
    "smooth_median_direct": lambda rng: {"n": _odd(rng, 100, 2000), "epsilon": _log(rng, 0.02, 0.8)},
    "smooth_student_error": smooth_student_error,
    "em_tie_probability": lambda rng: {"epsilon": _grid(rng, 0.05, 0.3, 0.0001)},
    "inverse_len_median": inverse_len_median,
    "mean_median_l1": mean_median_l1,
    "gaussian_per_count": lambda rng: {"groups": int(rng.integers(2, 501)), "epsilon": _log(rng, 0.1, 5.0),
                                       "delta": _delta(rng)},
    "crossover_d": crossover_d,
    "zcdp_epsilon": lambda rng: {"releases": int(rng.integers(2, 201)), "sigma": _grid(rng, 1.0, 30.0, 0.5),
                                 "delta": _delta(rng)},
    "private_bound_above": lambda rng: {"alpha": _grid(rng, 0.985, 0.993, 0.0001), "epsilon": _log(rng, 0.01, 0.3)},
    "gaussian_tail": lambda rng: {"epsilon": _log(rng, 0.1, 5.0), "delta": _delta(rng),
                                  "zeta": _grid(rng, 0.001, 0.2, 0.001)},
    "em_utility_bound": lambda rng: {"top": int(rng.integers(10, 2001)), "epsilon": _log(rng, 0.1, 5.0),
                                     "zeta": _grid(rng, 0.001, 0.2, 0.001)},
    "advanced_epsilon": lambda rng: {"releases": int(rng.integers(20, 2001)), "b": _log(rng, 5.0, 500.0),
                                     "delta": _delta(rng)},
    "gaussian_exact_epsilon": lambda rng: {"releases": int(rng.integers(2, 101)), "sigma": _grid(rng, 1.5, 30.0, 0.5),
                                           "delta": _delta(rng)},
    "laplace_pld_epsilon": lambda rng: {"releases": int(rng.integers(10, 501)), "b": _grid(rng, 5.0, 100.0, 0.5),
                                        "delta": _delta(rng)},
    "svt_free_threshold_loss": lambda rng: {"threshold": _grid(rng, 1.5, 8.0, 0.1), "epsilon": _log(rng, 0.05, 8.0)},
    "mode_distance": lambda rng: {"column": str(rng.choice(MODE_COLUMNS)), "rows": int(rng.integers(2000, data.N_AGES + 1))},
    "pf_best_probability": pf_best_probability,
    "discrete_laplace_zero": lambda rng: {"b": _log(rng, 0.5, 50.0)},
    # a clamp B of 2^36 to 2^47: below, the snapping's cost would vanish into the accepted 1e-6
    "snapping_epsilon": lambda rng: {"epsilon": _grid(rng, 0.05, 2.0, 0.001), "log2_bound": int(rng.integers(36, 48))},
    "rounded_sensitivity": rounded_sensitivity,
    "discrete_gaussian_delta": discrete_gaussian_delta,
}
