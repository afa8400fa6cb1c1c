"""Per-student variants: an exercise's parameters drawn from a student's seed.

Chapters: *Differential privacy in one chapter*, *Neighbouring datasets*,
*Why local sensitivity leaks*, *The median visualisation grid*, *Global
sensitivity from scratch*, *Local sensitivity*, *Proportions vs
frequencies*, *Sensitivity of transformations*, *How accurate is it, and
what can no mechanism beat?*, *Composing releases* and *Testing privately,
and releasing what is stable* (the exercises listed in :data:`VARIANTS`); *For teachers*
explains how a course hands each student their own numbers.  The later
chapters' variants (sample and aggregate to floating point) are drawn in
:mod:`._variants_b`.

Seed 0 (and no seed) gives the book's parameters; any other seed gives the
same exercise with different numbers, never the book's own.  The parameters
are not secret and no answer follows from them without the exercise's
computation: a graded assignment shows each student their numbers
(:func:`your_numbers`, from :func:`student_seed`), and the instructor's
grader (``tools/grade.py``) computes that student's expected answer at
grading time from the teacher's registry ``tools/answer_key.py``.
"""
from __future__ import annotations

import copy
import functools
import hashlib

import numpy as np

from .._validate import as_int
from ..data import load_ages
from ..neighbors import Domain, Pool
from ..sensitivity import local_sensitivity
from ._variants_b import BOOK as _BOOK_B, DRAWS as _DRAWS_B, TEXT as _TEXT_B

__all__ = ["VARIANTS", "VARIANT_TEXT", "student_seed", "variant_params", "variant_text", "your_numbers"]

#: The exercises that have per-student variants, with the book's parameters (seed 0).
VARIANTS = {
    "dp_density_ratio": {"fx": 100.0, "fxp": 103.0, "b": 2.0},
    "dp_household_budget": {"releases": 3, "b": 5.0, "group": 2},
    # chapters DP, Neighbours, Leak, Median grid, Global, Local, Proportions, Transformations
    "dp_expected_loss": {"gap": 1.0, "b": 1.0},
    "neighbor_count": {"x": [1, 2, 2], "top": 3},
    "bounded_neighbors": {"x": [1, 2], "pool": [1, 2, 3, 3]},
    "leak_local_sensitivity": {"x": [2, 2, 10], "domain": [1, 2, 3, 10, 11]},
    "leak_event_loss": {"epsilon": 1.0, "tau": 3.0},
    "leak_threshold": {"epsilon": 1.0, "loss": 5.0},
    "leak_discarded_3": {"domain": [1, 2, 3, 10, 11]},
    "leak_discarded_4": {"domain": [1, 2, 3, 10, 11]},
    "grid_row": {"x": [1, 3, 10], "pool": [1, 2, 3, 10, 11]},
    "rows_at_global": {"pool": [1, 2, 3, 10, 11]},
    "global_sum": {"pool": [1, 2, 3, 4, 5, 6, 7, 8, 15, 20]},
    "bounded_mean": {"domain": [1, 2, 3], "n": 4, "k": 2},
    "local_sum": {"released": [1, 2, 3, 4, 5, 6], "others": [7, 8, 15, 20]},
    "adult_mean_local": {"rows": None, "top": 100},      # rows: the first rows of the ages (None: all)
    "median_k": {"rows": None, "years": 1},
    "proportion_vector_change": {"counts": [2, 3, 5]},
    "plan_sensitivity": {"rows": 4, "repeats": 3, "upper": 50},
    "private_join_sensitivity": {"purchases": 3, "user_rows": 1, "purchase_rows": 1},
    "proportion_halfwidth": {"n": 2000, "epsilon": 0.5},
    "laplace_tail": {"epsilon": 0.25, "zeta": 0.01},
    "histogram_lower_bound": {"d": 5000, "epsilon": 0.5},
    "optimal_epsilon": {"releases": 40, "epsilon": 0.1},
    "stable_threshold": {"epsilon": 0.25, "delta": 1e-8},
    **_BOOK_B,
}

#: How a student's handout states the parameters of their variant.
VARIANT_TEXT = {
    "dp_density_ratio": "f(x) = {fx:g}, f(x') = {fxp:g} and the scale b = {b:g}",
    "dp_household_budget": "{releases} releases of the count, each with scale b = {b:g}, and a household of {group}",
    "dp_expected_loss": "|f(x) − f(x')| = {gap:g} and the scale b = {b:g}",
    "neighbor_count": "x = [{x}] and the domain {{1, 2, ..., {top}}}",
    "bounded_neighbors": "x = [{x}] and the pool [{pool}]",
    "leak_local_sensitivity": "x = [{x}] and the domain {{{domain}}}",
    "leak_event_loss": "ε = {epsilon:g} and τ = {tau:g}",
    "leak_threshold": "ε = {epsilon:g} and a privacy loss of {loss:g}",
    "leak_discarded_3": "X = {{{domain}}}",
    "leak_discarded_4": "X = {{{domain}}}",
    "grid_row": "x = [{x}] and the universe, a pool, {{{pool}}}",
    "rows_at_global": "the universe, a pool, X = {{{pool}}}",
    "global_sum": "the pool of ten values [{pool}]",
    "bounded_mean": "the domain {{{domain}}}, n = {n} and k = {k}",
    "local_sum": "the released values [{released}] and the pool's other four values [{others}]",
    "adult_mean_local": "the Adult ages `ages[:{rows}]` and new records from the domain 0, ..., {top}",
    "median_k": "the Adult ages `ages[:{rows}]` and a move of the median by {years} (years) or more",
    "proportion_vector_change": "the counts ({counts})",
    "plan_sensitivity": "at most {rows} rows per order, a product id at most {repeats} times, the sum clamped to [0, {upper}]",
    "private_join_sensitivity": ("Purchases truncated with drop_excess({purchases}); the protected change adds or "
                                 "removes at most {user_rows} row(s) of Users and {purchase_rows} row(s) of Purchases"),
    "proportion_halfwidth": "n = {n} and ε = {epsilon:g}",
    "laplace_tail": "ε = {epsilon:g} and ζ = {zeta:g}",
    "histogram_lower_bound": "d = {d} cells and ε = {epsilon:g}",
    "optimal_epsilon": "J = {releases} mechanisms, each ε = {epsilon:g}-DP (δ = 1e-6 as in the book)",
    "stable_threshold": "ε = {epsilon:g} and δ = {delta:g}",
    **_TEXT_B,
}


def variant_text(name: str, seed: int = 0) -> str:
    """The parameters of exercise ``name`` for ``seed``, as a handout states them (a list of values
    comma-separated, inside the brackets or braces of the text).

    >>> variant_text("proportion_halfwidth")
    'n = 2000 and ε = 0.5'
    """
    params = {k: ", ".join(f"{v:g}" for v in p) if isinstance(p, list) else p
              for k, p in variant_params(name, seed).items()}
    return VARIANT_TEXT[name].format(**params)


def variant_params(name: str, seed: int = 0) -> dict:
    """The parameters of exercise ``name`` for the student whose seed is ``seed`` (0: the book's).

    >>> variant_params("proportion_halfwidth")
    {'n': 2000, 'epsilon': 0.5}
    """
    if name not in VARIANTS:
        raise ValueError(f"name must be one of {sorted(VARIANTS)}, got {name!r}")
    seed = as_int(seed, "seed", minimum=0)
    if seed == 0:
        return copy.deepcopy(VARIANTS[name])
    # the exercise's own stream: a digest of its name, so adding an exercise changes no other's draws
    stream = int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")
    rng = np.random.default_rng([seed, stream])
    while True:             # never the book's own numbers: its answer is published
        params = _draw(name, rng)
        if params != VARIANTS[name]:
            return params


# ------------------------------------------------------------------ the draws of the chapters DP to Transformations
# Each returns the parameters of one student's variant.  An answer is never the book's: the ranges are
# disjoint from the book's (values from 12 on, a domain of 20 or more ...), or the draw is compared, by
# the package's own engine, with the book's parameters and redrawn.  The ranges are wide enough that
# 60 students rarely share an answer (tests/book/test_answer_leaks.py checks a roster).

def _values(rng, size, low, high, replace=False) -> list:
    return sorted(int(v) for v in rng.choice(np.arange(low, high + 1), size=size, replace=replace))


def _tenths(rng, size, top) -> list:
    """``size`` values in tenths, the largest ``top`` (a school table's column)."""
    return sorted([top] + [int(v) / 10 for v in rng.integers(0, int(top * 10), size - 1)])


def _log_uniform(rng, low, high, per_unit) -> float:
    """A number between ``low`` and ``high``, uniform on a log scale, in steps of ``1 / per_unit``."""
    return max(low, round(float(np.exp(rng.uniform(np.log(low), np.log(high)))) * per_unit) / per_unit)


def _median_ls(x, values, pool=False) -> float:
    universe = Pool(values) if pool else Domain(values)
    return local_sensitivity(x, "median", universe, k=1, neighbors="unbounded")


def _draw_expected_loss(rng):
    while True:         # ε = gap / b, never within 2 % of the book's
        gap, b = int(rng.integers(1, 60)) / 10, int(rng.integers(2, 40)) / 10
        if abs(gap / b - 1) > 0.02 and 0.1 <= gap / b <= 5:
            return {"gap": gap, "b": b}


def _draw_neighbor_count(rng):
    top = int(rng.integers(20, 2500))
    return {"x": sorted(int(v) for v in rng.integers(1, min(top, 30) + 1, int(rng.integers(3, 7)))), "top": top}


def _draw_bounded_neighbors(rng):
    x = _values(rng, 2, 4, 40, replace=True)          # values from 4 on: never the book's set
    return {"x": x, "pool": sorted(x + _values(rng, int(rng.integers(2, 5)), 1, 40, replace=True))}


def _draw_leak_ls(rng):
    book = VARIANTS["leak_local_sensitivity"]
    book_ls = _median_ls(book["x"], book["domain"])
    while True:
        domain = _values(rng, 5, 1, 3000)
        x = sorted(int(v) for v in rng.choice(domain, 3))
        ls = _median_ls(x, domain)
        if ls > 0 and ls != book_ls:
            return {"x": x, "domain": domain}


def _draw_event_loss(rng):
    while True:         # the loss is about 1.75 ε τ: never within 3 % of the book's
        epsilon, tau = _log_uniform(rng, 0.05, 5.0, 100), _log_uniform(rng, 0.6, 20.0, 100)
        if abs(epsilon * tau / 3 - 1) > 0.03:
            return {"epsilon": epsilon, "tau": tau}


def _draw_threshold(rng):
    while True:         # τ is about loss / (1.75 ε): never within 2 % of the book's
        epsilon, loss = _log_uniform(rng, 0.1, 3.0, 100), _log_uniform(rng, 2.0, 30.0, 10)
        if abs(loss / epsilon / 5 - 1) > 0.02 and loss > 1.75 * epsilon:
            return {"epsilon": epsilon, "loss": loss}


def _draw_discarded(rng):
    return {"domain": _values(rng, 5, 12, 99)}       # from 12 on: never the book's datasets


def _draw_grid_row(rng):
    book = VARIANTS["grid_row"]
    book_ls = _median_ls(book["x"], book["pool"], pool=True)
    while True:
        pool = _values(rng, 5, 1, 3000)
        x = sorted(int(v) for v in rng.choice(pool, 3, replace=False))
        if _median_ls(x, pool, pool=True) != book_ls:
            return {"x": x, "pool": pool}


def _draw_global_sum(rng):
    book = sum(sorted(VARIANTS["global_sum"]["pool"])[-2:])
    while True:         # the sum of the two largest values: never the book's
        pool = _tenths(rng, 10, int(rng.integers(200, 2500)) / 10)
        if sum(pool[-2:]) != book:
            return {"pool": pool}


def _draw_bounded_mean(rng):
    book = VARIANTS["bounded_mean"]
    while True:         # k (max - min) / n: never the book's
        domain, n = _values(rng, 3, 0, 300), int(rng.integers(3, 8))
        k = int(rng.integers(1, min(n, 4)))
        if k * (domain[-1] - domain[0]) * book["n"] != book["k"] * (book["domain"][-1] - book["domain"][0]) * n:
            return {"domain": domain, "n": n, "k": k}


def _draw_local_sum(rng):
    book = VARIANTS["local_sum"]
    while True:         # the largest value of the pool: never the book's
        pool = _tenths(rng, 10, int(rng.integers(200, 2500)) / 10)
        chosen = set(int(i) for i in rng.choice(10, 6, replace=False))
        if pool[-1] != max(book["released"] + book["others"]):
            return {"released": [pool[i] for i in sorted(chosen)],
                    "others": [pool[i] for i in range(10) if i not in chosen]}


def _draw_adult_rows(rng, low: int, second: str, values) -> dict:
    # the first rows of the data (never all 32,561 of them) and a second parameter
    return {"rows": int(_log_uniform(rng, low, 30_000, 1)), second: int(rng.choice(values))}


@functools.lru_cache(maxsize=1)
def _adult_ages() -> np.ndarray:
    return load_ages().to_numpy(float)


def _group_for_a_move(rows, years) -> int:
    """The smallest k at which replacing k of the first ``rows`` ages can move their median by ``years``."""
    x = np.sort(_adult_ages()[:rows])
    m = len(x) // 2
    return next(k for k in range(1, m + 1) if max(x[m + k] - x[m], x[m] - x[m - k]) >= years)


def _draw_median_k(rng):
    book_k = _group_for_a_move(**VARIANTS["median_k"])
    while True:         # compared with the book's by the same computation
        params = _draw_adult_rows(rng, 2000, "years", range(1, 9))
        if _group_for_a_move(**params) != book_k:
            return params


def _draw_vector_change(rng):
    while True:
        counts = [int(_log_uniform(rng, 1, 2000, 1)) for _ in range(int(rng.integers(3, 6)))]
        if counts != VARIANTS["proportion_vector_change"]["counts"]:
            return {"counts": counts}


def _draw_plan(rng):
    book = VARIANTS["plan_sensitivity"]
    while True:         # rows x repeats x upper: never the book's
        params = {"rows": int(rng.integers(2, 10)), "repeats": int(rng.integers(2, 10)),
                  "upper": int(rng.integers(10, 1000))}
        if np.prod(list(params.values())) != np.prod(list(book.values())):
            return params


def _draw_private_join(rng):
    while True:         # q t_1 + 2 t_2 (drop_non_unique on Users): never the book's
        params = {"purchases": int(rng.integers(2, 1000)), "user_rows": int(rng.integers(1, 9)),
                  "purchase_rows": int(rng.integers(1, 9))}
        q, t1, t2 = params.values()
        b = VARIANTS["private_join_sensitivity"]
        if q * t1 + 2 * t2 != b["purchases"] * b["user_rows"] + 2 * b["purchase_rows"]:
            return params


_DRAWS_A = {
    "dp_expected_loss": _draw_expected_loss,
    "neighbor_count": _draw_neighbor_count,
    "bounded_neighbors": _draw_bounded_neighbors,
    "leak_local_sensitivity": _draw_leak_ls,
    "leak_event_loss": _draw_event_loss,
    "leak_threshold": _draw_threshold,
    "leak_discarded_3": _draw_discarded,
    "leak_discarded_4": _draw_discarded,
    "grid_row": _draw_grid_row,
    "rows_at_global": lambda rng: {"pool": _draw_discarded(rng)["domain"]},
    "global_sum": _draw_global_sum,
    "bounded_mean": _draw_bounded_mean,
    "local_sum": _draw_local_sum,
    "adult_mean_local": lambda rng: _draw_adult_rows(rng, 200, "top", range(100, 400)),
    "median_k": _draw_median_k,
    "proportion_vector_change": _draw_vector_change,
    "plan_sensitivity": _draw_plan,
    "private_join_sensitivity": _draw_private_join,
}


def _draw(name: str, rng: np.random.Generator) -> dict:
    if name == "dp_density_ratio":
        while True:         # the ratio depends on |f(x) - f(x')| / b only: never the book's 3 / 2
            fxp, b = 100 + int(rng.integers(15, 80)) / 10, int(rng.integers(10, 60)) / 10
            if abs((fxp - 100) / b - 1.5) > 0.01:
                return {"fx": 100.0, "fxp": fxp, "b": b}
    if name == "dp_household_budget":
        while True:         # never a budget of releases x group / b equal to the book's 3 x 2 / 5
            params = {"releases": int(rng.integers(2, 13)), "b": int(rng.integers(15, 200)) / 10,
                      "group": int(rng.integers(2, 9))}
            if abs(params["releases"] * params["group"] / params["b"] / 1.2 - 1) > 0.01:
                return params
    if name in _DRAWS_A:
        return _DRAWS_A[name](rng)
    if name == "laplace_tail":
        while True:         # never a width ln(1/zeta)/epsilon within 1 % of the book's
            params = {"epsilon": int(rng.integers(5, 301)) / 100, "zeta": int(rng.integers(1, 200)) / 1000}
            if abs(np.log(1 / params["zeta"]) / params["epsilon"] / (4 * np.log(100)) - 1) > 0.01:
                return params
    if name == "histogram_lower_bound":
        return {"d": int(rng.integers(20, 100_001)), "epsilon": int(rng.integers(5, 301)) / 100}
    if name == "optimal_epsilon":
        return {"releases": int(rng.integers(10, 1001)), "epsilon": int(rng.integers(1, 31)) / 100}
    if name == "stable_threshold":
        # never δ = 1e-6: the chapter prints the thresholds for that δ
        delta = 1e-6
        while delta == 1e-6:
            delta = int(rng.integers(1, 10)) * 10.0 ** -int(rng.integers(5, 10))
        return {"epsilon": int(rng.integers(10, 301)) / 100, "delta": delta}
    if name in _DRAWS_B:
        return _DRAWS_B[name](rng)
    return {"n": int(rng.integers(500, 20_001)), "epsilon": float(rng.choice([0.25, 0.5, 1.0, 2.0]))}

def student_seed(student: str, course: str = "dpsens") -> int:
    """The seed of the student whose course id is ``student`` in the course ``course``: a whole
    number from 1 on, the same wherever it is computed (the student's notebook, the grader).

    The seed only draws the numbers of an exercise; it is not secret, and no answer follows from
    it without the exercise's computation.

    >>> student_seed("ada") == student_seed("ada") != student_seed("bob")
    True
    """
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"student must be a non-empty student id (text), got {student!r}")
    if not isinstance(course, str) or not course:
        raise ValueError(f"course must be a non-empty course id (text), got {course!r}")
    digest = hashlib.sha256(f"dpsens student seed|{course}|{student.strip()}".encode()).digest()
    return 1 + int.from_bytes(digest[:4], "big") % (2**31 - 1)


def your_numbers(name: str, student: str, course: str = "dpsens") -> str:
    """What a graded notebook shows above exercise ``name``: the numbers of student ``student``.

    >>> your_numbers("proportion_halfwidth", "ada").startswith("Your numbers (ada): n = ")
    True
    """
    return f"Your numbers ({student}): {variant_text(name, student_seed(student, course))}."
