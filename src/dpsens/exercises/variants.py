"""Per-student variants: an exercise's parameters drawn from a student's seed.

Chapters: *Differential privacy in one chapter*, *Proportions vs
frequencies*, *How accurate is it, and what can no mechanism beat?*,
*Composing releases* and *Testing privately, and releasing what is stable*
(the exercises listed in :data:`VARIANTS`); *For teachers*
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

import hashlib

import numpy as np

from .._validate import as_int
from ._variants_b import BOOK as _BOOK_B, DRAWS as _DRAWS_B, TEXT as _TEXT_B

__all__ = ["VARIANTS", "VARIANT_TEXT", "student_seed", "variant_params", "variant_text", "your_numbers"]

#: The exercises that have per-student variants, with the book's parameters (seed 0).
VARIANTS = {
    "dp_density_ratio": {"fx": 100.0, "fxp": 103.0, "b": 2.0},
    "dp_household_budget": {"releases": 3, "b": 5.0, "group": 2},
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
    "proportion_halfwidth": "n = {n} and ε = {epsilon:g}",
    "laplace_tail": "ε = {epsilon:g} and ζ = {zeta:g}",
    "histogram_lower_bound": "d = {d} cells and ε = {epsilon:g}",
    "optimal_epsilon": "J = {releases} mechanisms, each ε = {epsilon:g}-DP (δ = 1e-6 as in the book)",
    "stable_threshold": "ε = {epsilon:g} and δ = {delta:g}",
    **_TEXT_B,
}


def variant_text(name: str, seed: int = 0) -> str:
    """The parameters of exercise ``name`` for ``seed``, as a handout states them.

    >>> variant_text("proportion_halfwidth")
    'n = 2000 and ε = 0.5'
    """
    return VARIANT_TEXT[name].format(**variant_params(name, seed))


def variant_params(name: str, seed: int = 0) -> dict:
    """The parameters of exercise ``name`` for the student whose seed is ``seed`` (0: the book's).

    >>> variant_params("proportion_halfwidth")
    {'n': 2000, 'epsilon': 0.5}
    """
    if name not in VARIANTS:
        raise ValueError(f"name must be one of {sorted(VARIANTS)}, got {name!r}")
    seed = as_int(seed, "seed", minimum=0)
    if seed == 0:
        return dict(VARIANTS[name])
    # the exercise's own stream: a digest of its name, so adding an exercise changes no other's draws
    stream = int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")
    rng = np.random.default_rng([seed, stream])
    while True:             # never the book's own numbers: its answer is published
        params = _draw(name, rng)
        if params != VARIANTS[name]:
            return params


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
