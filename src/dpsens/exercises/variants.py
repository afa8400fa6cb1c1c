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
same exercise with other numbers.  **A draw knows nothing of the answer**:
it draws the exercise's parameters (or data) from the student's stream and
never computes, or compares with the book's, the quantity the exercise asks
for -- nothing here imports a function that computes one.  So nothing in
this module guarantees that a student's answer differs from the book's or
from a classmate's: the instructor's ``tools/course.py`` does, when the
course is made, by choosing each exercise's course *salt* (an argument of
:func:`student_seed`) for the roster, and ``tools/grade.py`` computes each
student's expected answer at grading time with the same salt.  A graded
assignment shows each student their numbers (:func:`your_numbers`).
"""
from __future__ import annotations

import copy
import hashlib
import math

import numpy as np

from .._validate import as_int
from ._variants_b import BOOK as _BOOK_B, DRAWS as _DRAWS_B, TEXT as _TEXT_B

__all__ = ["VARIANTS", "VARIANT_TEXT", "student_seed", "variant_params", "variant_text", "your_numbers"]

#: The exercises that have per-student variants, with the book's parameters (seed 0).
VARIANTS: dict[str, dict] = {
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
VARIANT_TEXT: dict[str, str] = {
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

    Drawn from the student's stream only: nothing of the answer is computed here (see the module's
    docstring), and a seed other than 0 never gives the book's own parameters.

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
    while True:             # never the book's own parameters (a comparison of parameters, not of answers)
        params = _draw(name, rng)
        if params != VARIANTS[name]:
            return params


# ------------------------------------------------------------------ the draws of the chapters DP to Transformations
# Each returns the parameters of one student's variant, from ranges wide enough that the answers of a
# roster spread; none computes the answer (``tools/course.py`` checks the roster's answers).

def _values(rng: np.random.Generator, size: int, low: int, high: int, replace: bool = False) -> list:
    return sorted(int(v) for v in rng.choice(np.arange(low, high + 1), size=size, replace=replace))


def _tenths(rng: np.random.Generator, size: int, top: float) -> list:
    """``size`` values in tenths, the largest ``top`` (a school table's column)."""
    return sorted([top] + [int(v) / 10 for v in rng.integers(0, int(top * 10), size - 1)])


def _log_uniform(rng: np.random.Generator, low: float, high: float, per_unit: int) -> float:
    """A number between ``low`` and ``high``, uniform on a log scale, in steps of ``1 / per_unit``
    (``low`` on that grid)."""
    return max(low, round(float(np.exp(rng.uniform(np.log(low), np.log(high)))) * per_unit) / per_unit)


def _draw_expected_loss(rng: np.random.Generator) -> dict:
    # the scale b in tenths, the gap in hundredths from b / 10 to 5 b: a ratio in [0.1, 5]
    b10 = int(rng.integers(2, 40))
    return {"gap": int(rng.integers(b10, 50 * b10 + 1)) / 100, "b": b10 / 10}


def _draw_neighbor_count(rng: np.random.Generator) -> dict:
    top = int(rng.integers(20, 2500))
    return {"x": sorted(int(v) for v in rng.integers(1, min(top, 30) + 1, int(rng.integers(3, 7)))), "top": top}


def _draw_bounded_neighbors(rng: np.random.Generator) -> dict:
    x = _values(rng, 2, 4, 40, replace=True)
    return {"x": x, "pool": sorted(x + _values(rng, int(rng.integers(2, 5)), 1, 40, replace=True))}


def _draw_leak_ls(rng: np.random.Generator) -> dict:
    # three records of the domain, at least two of them different (three equal records make a question
    # about a constant dataset)
    domain = _values(rng, 5, 1, 3000)
    two = [int(v) for v in rng.choice(domain, 2, replace=False)]
    return {"x": sorted(two + [int(rng.choice(domain))]), "domain": domain}


def _draw_threshold(rng: np.random.Generator) -> dict:
    # a loss above 1.75 ε, the loss of the chapter's event at its smallest threshold
    epsilon = _log_uniform(rng, 0.1, 3.0, 100)
    return {"epsilon": epsilon, "loss": _log_uniform(rng, max(2.0, math.ceil(17.5 * epsilon + 1) / 10), 30.0, 10)}


def _draw_discarded(rng: np.random.Generator) -> dict:
    return {"domain": _values(rng, 5, 12, 99)}


def _draw_grid_row(rng: np.random.Generator) -> dict:
    pool = _values(rng, 5, 1, 3000)
    return {"x": sorted(int(v) for v in rng.choice(pool, 3, replace=False)), "pool": pool}


def _draw_pool_of_ten(rng: np.random.Generator) -> list:
    return _tenths(rng, 10, int(rng.integers(200, 2500)) / 10)


def _draw_bounded_mean(rng: np.random.Generator) -> dict:
    domain, n = _values(rng, 3, 0, 300), int(rng.integers(3, 8))
    return {"domain": domain, "n": n, "k": int(rng.integers(1, min(n, 4)))}


def _draw_local_sum(rng: np.random.Generator) -> dict:
    pool = _draw_pool_of_ten(rng)
    chosen = set(int(i) for i in rng.choice(10, 6, replace=False))
    return {"released": [pool[i] for i in sorted(chosen)], "others": [pool[i] for i in range(10) if i not in chosen]}


def _draw_adult_rows(rng: np.random.Generator, low: int, second: str, values) -> dict:
    # the first rows of the data (never all 32,561 of them) and a second parameter
    return {"rows": int(_log_uniform(rng, low, 30_000, 1)), second: int(rng.choice(values))}


def _draw_laplace_tail(rng: np.random.Generator) -> dict:
    return {"epsilon": _log_uniform(rng, 0.05, 3.0, 100), "zeta": int(rng.integers(1, 200)) / 1000}


def _draw_stable_threshold(rng: np.random.Generator) -> dict:
    # δ = d 10^-k, never 1e-6: the chapter prints the thresholds for that δ
    deltas = [d * 10.0 ** -k for k in range(5, 10) for d in range(1, 10) if (d, k) != (1, 6)]
    return {"epsilon": int(rng.integers(10, 301)) / 100, "delta": float(deltas[int(rng.integers(len(deltas)))])}


_DRAWS_A = {
    "dp_density_ratio": lambda rng: {"fx": 100.0, "fxp": 100 + int(rng.integers(15, 80)) / 10,
                                     "b": int(rng.integers(10, 60)) / 10},
    "dp_household_budget": lambda rng: {"releases": int(rng.integers(2, 13)), "b": int(rng.integers(15, 200)) / 10,
                                        "group": int(rng.integers(2, 9))},
    "dp_expected_loss": _draw_expected_loss,
    "neighbor_count": _draw_neighbor_count,
    "bounded_neighbors": _draw_bounded_neighbors,
    "leak_local_sensitivity": _draw_leak_ls,
    "leak_event_loss": lambda rng: {"epsilon": _log_uniform(rng, 0.05, 5.0, 100),
                                    "tau": _log_uniform(rng, 0.6, 20.0, 100)},
    "leak_threshold": _draw_threshold,
    "leak_discarded_3": _draw_discarded,
    "leak_discarded_4": _draw_discarded,
    "grid_row": _draw_grid_row,
    "rows_at_global": lambda rng: {"pool": _draw_discarded(rng)["domain"]},
    "global_sum": lambda rng: {"pool": _draw_pool_of_ten(rng)},
    "bounded_mean": _draw_bounded_mean,
    "local_sum": _draw_local_sum,
    "adult_mean_local": lambda rng: _draw_adult_rows(rng, 200, "top", range(100, 400)),
    "median_k": lambda rng: _draw_adult_rows(rng, 2000, "years", range(1, 9)),
    "proportion_vector_change": lambda rng: {"counts": [int(_log_uniform(rng, 1, 2000, 1))
                                                        for _ in range(int(rng.integers(3, 6)))]},
    "plan_sensitivity": lambda rng: {"rows": int(rng.integers(2, 10)), "repeats": int(rng.integers(2, 10)),
                                     "upper": int(rng.integers(10, 1000))},
    "private_join_sensitivity": lambda rng: {"purchases": int(rng.integers(2, 1000)),
                                             "user_rows": int(rng.integers(1, 9)),
                                             "purchase_rows": int(rng.integers(1, 9))},
    "proportion_halfwidth": lambda rng: {"n": int(rng.integers(500, 20_001)),
                                         "epsilon": float(rng.choice([0.25, 0.5, 1.0, 2.0]))},
    "laplace_tail": _draw_laplace_tail,
    "histogram_lower_bound": lambda rng: {"d": int(rng.integers(20, 100_001)),
                                          "epsilon": _log_uniform(rng, 0.02, 1.0, 1000)},
    "optimal_epsilon": lambda rng: {"releases": int(rng.integers(10, 1001)), "epsilon": int(rng.integers(1, 31)) / 100},
    "stable_threshold": _draw_stable_threshold,
}


def _draw(name: str, rng: np.random.Generator) -> dict:
    return (_DRAWS_A.get(name) or _DRAWS_B[name])(rng)


def student_seed(student: str, course: str = "dpsens", salt: int = 0) -> int:
    """The seed of the student whose course id is ``student`` in the course ``course``, for an
    exercise whose course salt is ``salt``: a whole number from 1 on, the same wherever it is
    computed (the student's notebook, the grader).

    The salt is the course's choice, per exercise (``tools/course.py`` picks it so that no two
    classmates' answers crowd and nobody draws the book's); salt 0 is the seed of earlier
    courses.  Neither seed nor salt is secret: they give the numbers, and the answer follows from
    the numbers only through the exercise's computation.

    >>> student_seed("ada") == student_seed("ada") != student_seed("bob")
    True
    >>> student_seed("ada", salt=1) != student_seed("ada")
    True
    """
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"student must be a non-empty student id (text), got {student!r}")
    if not isinstance(course, str) or not course:
        raise ValueError(f"course must be a non-empty course id (text), got {course!r}")
    salt = as_int(salt, "salt", minimum=0)
    text = f"dpsens student seed|{course}|{student.strip()}" + (f"|salt {salt}" if salt else "")
    digest = hashlib.sha256(text.encode()).digest()
    return 1 + int.from_bytes(digest[:4], "big") % (2**31 - 1)


def your_numbers(name: str, student: str, course: str = "dpsens", salt: int = 0) -> str:
    """What a graded notebook shows above exercise ``name``: the numbers of student ``student``
    (``salt``: the course's salt of that exercise, written into the notebook by the course).

    >>> your_numbers("proportion_halfwidth", "ada").startswith("Your numbers (ada): n = ")
    True
    """
    return f"Your numbers ({student}): {variant_text(name, student_seed(student, course, salt))}."
