"""Per-student variants of the later chapters' exercises: the book's numbers and each draw.

Chapters: *Sample and aggregate*, *Propose-test-release*, *Smooth
sensitivity*, *The exponential mechanism and inverse sensitivity*, *Many
answers at once*, *How accurate is it, and what can no mechanism beat?*,
*Composing releases*, *Testing privately, and releasing what is stable* and
*Noise a computer can actually sample*.  :mod:`.variants` gathers
:data:`BOOK` (the book's parameters, seed 0), :data:`TEXT` (how a handout
states them) and :data:`DRAWS` (exercise name -> a function drawing a
student's parameters from a ``numpy.random.Generator``).

Each draw spreads its answers widely (a roster of 60 shares none beyond two
students) and redraws, inside the draw, any parameters whose answer would be
the book's published one: within 1 % of it (the checkers accept 0.5 %), or
equal for a whole number.  Where a parameter moves the answer monotonically the
guard is on the parameters; otherwise it computes the book-independent
quantity with the package's own function for the chapter (its value is no
secret: the parameters are shown to the student).
"""
from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from ..accounting import advanced_composition, gaussian_composition_epsilon
from ..data import load_adult, load_ages
from ..inverse import inverse_len_quantile
from ..mechanisms.gaussian import gaussian_sigma
from ..mechanisms.noisy_max import selection_distribution
from ..mechanisms.sparse_vector import output_probability
from ..mechanisms.stable_histogram import mode_instability_distance
from ..neighbors import Domain
from ..pld import pld_epsilon
from ..smooth import distance_to_high_ls, smooth_sensitivity
from ..vector import vector_local_sensitivity

__all__ = ["BOOK", "TEXT", "DRAWS"]

#: The book's parameters (seed 0) of the exercises drawn here.
BOOK = {
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
    "em_tie_probability": {"epsilon": 0.1},
    "inverse_len_median": {"n": None, "target": 40},
    "mean_median_l1": {"lower": 17, "upper": 90, "x": [20, 21, 22, 80, 90]},
    "gaussian_per_count": {"groups": 25, "epsilon": 1.0, "delta": 1e-6},
    "crossover_d": {"epsilon": 0.5, "delta": 1e-8, "ratio": 1.0},
    "zcdp_epsilon": {"releases": 10, "sigma": 4.0, "delta": 1e-6},
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
TEXT = {
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
    "em_tie_probability": "ε = {epsilon:g}",
    "inverse_len_median": "the first n = {n} ages (`ages[:{n}]`) and a median of {target}",
    "mean_median_l1": "the domain {{{lower}, …, {upper}}} and x = {x}",
    "gaussian_per_count": "{groups} groups (and {groups} counts), ε = {epsilon:g} and δ = {delta:g}",
    "crossover_d": "ε = {epsilon:g}, δ = {delta:g}, and the Gaussian's σ per answer smaller than {ratio:g} × "
                   "the Laplace noise's standard deviation",
    "zcdp_epsilon": "{releases} releases with N(0, {sigma:g}²) noise and δ = {delta:g}",
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


def _off(value: float, book: float, rel: float = 0.01) -> bool:
    """Whether ``value`` is more than ``rel`` from the book's answer (whole numbers too: the roster's test
    accepts nothing within 0.5 % of the book's)."""
    return abs(value / book - 1) > rel


@lru_cache(maxsize=1)
def _ages() -> np.ndarray:
    ages = load_ages().to_numpy(dtype=float)
    ages.flags.writeable = False
    return ages


@lru_cache(maxsize=1)
def _adult():
    return load_adult()


def _first_ages(n: int) -> np.ndarray:
    return _ages()[:n]           # n = None: all of them


def _until(draw, far):
    """Draw parameters with ``draw()`` until ``far(params)`` (their answer is not the book's)."""
    while True:
        params = draw()
        if far(params):
            return params


def _far_from_book(name: str, quantity, value: float, rel: float = 0.01) -> bool:
    """Whether ``value`` (``quantity`` of a student's parameters, computed once by the caller) is more
    than ``rel`` from ``quantity`` of the book's parameters (computed each time: no value of the book
    is written or kept in this module)."""
    return _off(value, quantity(BOOK[name]), rel)


def _all(n):
    """A size of the book's parameters: ``None`` is all the ages (n = 32,561)."""
    return len(_ages()) if n is None else n


def _chunks(n, m):
    n = _all(n)
    return math.ceil(n / math.ceil(n / m))


def saa_source_chunks(rng):
    def draw():
        n = int(rng.integers(5001, _all(None) + 1))
        return {"n": n, "m": int(rng.integers(200, min(9000, n // 2) + 1))}
    return _until(draw, lambda p: _off(_chunks(p["n"], p["m"]), _chunks(None, 6000)))


def saa_source_epsilon(rng):
    def draw():
        n = int(rng.integers(5001, _all(None) + 1))
        return {"n": n, "m": int(rng.integers(200, n // 2)), "epsilon": _log(rng, 0.05, 5.0)}
    return _until(draw, lambda p: _off(p["epsilon"] * p["m"] / _chunks(p["n"], p["m"]), 6000 / _chunks(None, 6000)))


def saa_overlap_epsilon(rng):
    # a record is in chunks * (1 - (1 - 1/n)^size) / n chunks on average, and the worst record in at least
    # as many: above 25 the answer is never the book's 24
    def draw():
        n, size = int(rng.integers(1000, 8001)), int(rng.integers(10, 151))
        chunks = int(round(float(rng.uniform(26, 300)) * n / size))
        return {"n": n, "chunks": chunks, "size": size, "draw_seed": int(rng.integers(1, 10_000))}
    return _until(draw, lambda p: p["chunks"] * (1 - (1 - 1 / p["n"]) ** p["size"]) > 25)


def saa_chunks_for_noise(rng):
    def draw():
        lower = int(rng.integers(0, 41))
        return {"lower": lower, "upper": lower + int(rng.integers(10, 151)), "epsilon": _grid(rng, 0.1, 3.0, 0.01),
                "sd": _log(rng, 0.002, 0.2)}
    need = lambda p: math.ceil(math.sqrt(2) * (p["upper"] - p["lower"]) / (p["sd"] * p["epsilon"]))  # noqa: E731
    return _until(draw, lambda p: _off(need(p), need(BOOK["saa_chunks_for_noise"])))


def ptr_source_accident(rng):
    # the answer is ½·sqrt(δ/2) whatever ε: δ at least 2.5 % from the book's
    return _until(lambda: {"epsilon": _grid(rng, 0.1, 3.0, 0.1), "delta": _delta(rng)},
                  lambda p: _off(p["delta"], 1e-6, 0.025))


def ptr_release_distance(rng):
    # ε from a distance drawn uniformly in [40, 2000]: whole-number answers spread evenly
    dist = lambda p: math.ceil((math.log(1 / p["delta"]) + math.log(50)) / p["epsilon"])  # noqa: E731

    def draw():
        delta = _delta(rng)
        return {"epsilon": float(f"{(math.log(1 / delta) + math.log(50)) / float(rng.uniform(40, 2000)):.3g}"),
                "delta": delta}
    return _until(draw, lambda p: _off(dist(p), dist(BOOK["ptr_release_distance"])))


def ptr_median_distance(rng):
    def dist(p):
        return distance_to_high_ls(_first_ages(p["n"]), "median", float(p["bound"]), 0, 100, "bounded")
    return _until(lambda: {"n": 2 * int(rng.integers(1000, _all(None) // 2 + 1)) + 1, "bound": int(rng.integers(1, 9))},
                  lambda p: (v := dist(p)) > 0 and _far_from_book("ptr_median_distance", dist, v))


def _beta(p):
    return p["epsilon"] / (2 * math.log(2 / p["delta"]))


def smooth_beta(rng):
    return _until(lambda: {"epsilon": _log(rng, 0.05, 5.0), "delta": _delta(rng)},
                  lambda p: _off(_beta(p), _beta(BOOK["smooth_beta"])))


def smooth_turning_point(rng):
    turn = lambda p: math.floor(_all(p["n"]) - 1 / math.expm1(_beta(p))) + 1  # noqa: E731
    return _until(lambda: {"n": int(rng.integers(1000, _all(None) + 1)), "epsilon": _grid(rng, 0.1, 3.0, 0.01),
                           "delta": _delta(rng)}, lambda p: _off(turn(p), turn(BOOK["smooth_turning_point"])))


def smooth_median_direct(rng):
    # not a whole number either: that is A(0), the local sensitivity itself, the same for many students
    def smooth(p):
        return smooth_sensitivity(_first_ages(p["n"]), "median", p["epsilon"] / (2 * math.log(2 * p["n"] ** 2)), 0,
                                  100, "bounded")

    def far(p):
        s = smooth(p)
        return abs(s - round(s)) > 1e-6 and _far_from_book("smooth_median_direct", smooth, s)
    return _until(lambda: {"n": 2 * int(rng.integers(100, 2001)) + 1, "epsilon": _log(rng, 0.05, 1.5)}, far)


def em_tie_probability(rng):
    # the probability falls by a factor e^(-28) per unit of ε near the book's 0.1: 0.001 away is 2.8 % away
    return _until(lambda: {"epsilon": _grid(rng, 0.05, 0.3, 0.0001)}, lambda p: abs(p["epsilon"] - 0.1) >= 0.001)


def inverse_len_median(rng):
    def length(p):
        return inverse_len_quantile(_first_ages(p["n"]), 0.5, float(p["target"]), 0.0, 100.0, "bounded")

    def far(p):
        v = length(p)
        return v > 0 and _far_from_book("inverse_len_median", length, v)
    return _until(lambda: {"n": int(rng.integers(2001, _all(None) + 1)), "target": int(rng.integers(20, 66))}, far)


def mean_median_l1(rng):
    # the domain's width drawn on a log scale: the answers, which grow with it, spread widely
    def draw():
        lower = int(rng.integers(0, 51))
        upper = lower + int(_log(rng, 40, 800))
        size = int(rng.choice([5, 7]))
        return {"lower": lower, "upper": upper,
                "x": sorted(int(v) for v in rng.choice(np.arange(lower, upper + 1), size=size, replace=False))}

    def l1(p):
        return vector_local_sensitivity(p["x"], ["mean", "median"], Domain(range(p["lower"], p["upper"] + 1)), norm="l1")
    return _until(draw, lambda p: _far_from_book("mean_median_l1", l1, l1(p)))


def gaussian_per_count(rng):
    sigma = lambda p: gaussian_sigma(math.sqrt(p["groups"]), p["epsilon"], p["delta"], method="analytic")  # noqa: E731
    return _until(lambda: {"groups": int(rng.integers(2, 501)), "epsilon": _log(rng, 0.1, 5.0),
                           "delta": _delta(rng)}, lambda p: _off(sigma(p), sigma(BOOK["gaussian_per_count"])))


def crossover_d(rng):
    def d(p):
        s1 = gaussian_sigma(1.0, p["epsilon"], p["delta"], method="analytic")
        return math.floor((s1 * p["epsilon"]) ** 2 / (2 * p["ratio"] ** 2)) + 1
    # 1/ratio² uniform in [4, 1000]: the answer, proportional to it, spreads over thousands of whole numbers
    return _until(lambda: {"epsilon": _grid(rng, 0.1, 3.0, 0.01), "delta": _delta(rng, 4, 12),
                           "ratio": float(f"{float(rng.uniform(4, 1000)) ** -0.5:.3g}")},
                  lambda p: _far_from_book("crossover_d", d, d(p)))


def zcdp_epsilon(rng):
    def eps(p):
        rho = p["releases"] / (2 * p["sigma"] ** 2)
        return rho + 2 * math.sqrt(rho * math.log(1 / p["delta"]))
    return _until(lambda: {"releases": int(rng.integers(2, 201)), "sigma": _grid(rng, 1.0, 30.0, 0.5),
                           "delta": _delta(rng)}, lambda p: _off(eps(p), eps(BOOK["zcdp_epsilon"])))


def gaussian_tail(rng):
    def w(p):
        return (gaussian_sigma(1.0, p["epsilon"], p["delta"], method="analytic")
                * NormalDist().inv_cdf(1 - p["zeta"] / 2))
    return _until(lambda: {"epsilon": _log(rng, 0.1, 5.0), "delta": _delta(rng),
                           "zeta": _grid(rng, 0.001, 0.2, 0.001)}, lambda p: _off(w(p), w(BOOK["gaussian_tail"])))


def em_utility_bound(rng):
    loss = lambda p: 2 / p["epsilon"] * (math.log(p["top"] + 1) + math.log(1 / p["zeta"]))  # noqa: E731
    return _until(lambda: {"top": int(rng.integers(10, 2001)), "epsilon": _log(rng, 0.1, 5.0),
                           "zeta": _grid(rng, 0.001, 0.2, 0.001)}, lambda p: _off(loss(p), loss(BOOK["em_utility_bound"])))


def advanced_epsilon(rng):
    eps = lambda p: advanced_composition(1 / p["b"], p["releases"], p["delta"])[0]  # noqa: E731
    return _until(lambda: {"releases": int(rng.integers(20, 2001)), "b": _log(rng, 5.0, 500.0),
                           "delta": _delta(rng)}, lambda p: _off(eps(p), eps(BOOK["advanced_epsilon"])))


def gaussian_exact_epsilon(rng):
    eps = lambda p: gaussian_composition_epsilon(p["delta"], [(p["sigma"], 1.0)] * p["releases"])  # noqa: E731
    return _until(lambda: {"releases": int(rng.integers(2, 101)), "sigma": _grid(rng, 1.5, 30.0, 0.5),
                           "delta": _delta(rng)}, lambda p: _off(eps(p), eps(BOOK["gaussian_exact_epsilon"])))


def laplace_pld_epsilon(rng):
    def eps(p):
        bracket = pld_epsilon(p["delta"], laplace=[(p["b"], 1.0)] * p["releases"], rtol=1e-2)
        return (bracket.lower + bracket.upper) / 2
    return _until(lambda: {"releases": int(rng.integers(10, 501)), "b": _grid(rng, 5.0, 100.0, 0.5),
                           "delta": _delta(rng)}, lambda p: _far_from_book("laplace_pld_epsilon", eps, eps(p), 0.02))


def _svt_loss(p):
    o = (False,) * 5 + (True,)
    return math.log(output_probability([0.0] * 6, p["threshold"], o, p["epsilon"], variant="no-threshold-noise")
                    / output_probability([1.0] * 5 + [-1.0], p["threshold"], o, p["epsilon"],
                                         variant="no-threshold-noise"))


def svt_free_threshold_loss(rng):
    return _until(lambda: {"threshold": _grid(rng, 1.5, 8.0, 0.1), "epsilon": _log(rng, 0.05, 8.0)},
                  lambda p: _off(_svt_loss(p), _svt_loss(BOOK["svt_free_threshold_loss"])))


#: The Adult columns a student's mode is taken from (occupation, the book's, has two nearly equal counts).
MODE_COLUMNS = ("workclass", "education", "marital-status", "relationship", "race", "sex", "native-country")


def mode_distance(rng):
    def dist(p):
        col = _adult()[p["column"]].astype(object)[:p["rows"]]       # rows = None: all of them
        return mode_instability_distance(list(col.where(col.notna(), "(missing)").value_counts()))
    return _until(lambda: {"column": str(rng.choice(MODE_COLUMNS)), "rows": int(rng.integers(2000, _all(None) + 1))},
                  lambda p: (v := dist(p)) > 0 and _far_from_book("mode_distance", dist, v))


def pf_best_probability(rng):
    # a probability of at most 0.9: closer to 1 the answers would crowd within the 0.5 % a checker accepts
    best = lambda p: float(selection_distribution(p["scores"], p["epsilon"], "permute-and-flip")[0])  # noqa: E731
    return _until(lambda: {"scores": sorted((int(v) for v in rng.choice(9, size=3, replace=False)), reverse=True),
                           "epsilon": _log(rng, 0.1, 2.0)},
                  lambda p: best(p) <= 0.9 and _off(best(p), best(BOOK["pf_best_probability"])))


def discrete_laplace_zero(rng):
    return _until(lambda: {"b": _log(rng, 0.5, 50.0)}, lambda p: _off(math.tanh(0.5 / p["b"]), math.tanh(0.25)))


def snapping_epsilon(rng):
    eps = lambda p: p["epsilon"] * (1 + 2.0 ** (p["log2_bound"] - 49))  # noqa: E731
    return _until(lambda: {"epsilon": _grid(rng, 0.05, 2.0, 0.001), "log2_bound": int(rng.integers(20, 46))},
                  lambda p: _off(eps(p), eps(BOOK["snapping_epsilon"])))


def rounded_sensitivity(rng):
    # an odd Δ, as the book's 1: two halves Δ apart round to even neighbours Δ + 1 apart (for an even Δ both
    # round the same way, and the question would turn into another); from 3 on, never the book's 2
    return {"sensitivity": 2 * int(rng.integers(1, 1500)) + 1}


def _dg_delta(p):
    k = np.arange(-400, 400 + 1, dtype=float)
    w = np.exp(-k ** 2 / (2 * p["sigma"] ** 2))
    return float(np.maximum(0.0, w - math.exp(p["epsilon"]) * np.exp(-(k - 1) ** 2 / (2 * p["sigma"] ** 2))).sum()
                 / w.sum())


def discrete_gaussian_delta(rng):
    return _until(lambda: {"epsilon": _grid(rng, 0.2, 3.0, 0.05), "sigma": _grid(rng, 0.8, 15.0, 0.1)},
                  lambda p: _dg_delta(p) > 1e-5 and _off(_dg_delta(p), _dg_delta(BOOK["discrete_gaussian_delta"])))


#: Exercise name -> the function drawing a student's parameters.
DRAWS = {name: globals()[name] for name in BOOK}
