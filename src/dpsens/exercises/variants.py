"""Per-student variants: an exercise's parameters drawn from a student's seed.

Chapters: *Differential privacy in one chapter*, *Proportions vs
frequencies*, *How accurate is it, and what can no mechanism beat?*,
*Composing releases* and *Testing privately, and releasing what is stable*
(the exercises listed in :data:`VARIANTS`); *For teachers*
explains how a course hands each student their own numbers.

Seed 0 (and no seed) gives the book's parameters; any other seed gives the
same exercise with different numbers.  The parameters are not secret: the
answer for a seed is known only to the teacher's key (``tools/answer_key.py
roster``), and a student's handout loads that student's hashed key with
:func:`dpsens.exercises.use_variant`, after which the exercise's checker
answers for that variant.
"""
from __future__ import annotations

import numpy as np

from .._validate import as_int

__all__ = ["VARIANTS", "VARIANT_TEXT", "variant_params", "variant_text"]

#: The exercises that have per-student variants, with the book's parameters (seed 0).
VARIANTS = {
    "dp_density_ratio": {"fx": 100.0, "fxp": 103.0, "b": 2.0},
    "dp_household_budget": {"releases": 3, "b": 5.0, "group": 2},
    "proportion_halfwidth": {"n": 2000, "epsilon": 0.5},
    "laplace_tail": {"epsilon": 0.25, "zeta": 0.01},
    "histogram_lower_bound": {"d": 1000, "epsilon": 0.5},
    "tight_composition": {"releases": 40, "epsilon": 0.1},
    "stable_threshold": {"epsilon": 0.25, "delta": 1e-8},
}

#: How a student's handout states the parameters of their variant.
VARIANT_TEXT = {
    "dp_density_ratio": "f(x) = {fx:g}, f(x') = {fxp:g} and the scale b = {b:g}",
    "dp_household_budget": "{releases} releases of the count, each with scale b = {b:g}, and a household of {group}",
    "proportion_halfwidth": "n = {n} and ε = {epsilon:g}",
    "laplace_tail": "ε = {epsilon:g} and ζ = {zeta:g}",
    "histogram_lower_bound": "d = {d} cells and ε = {epsilon:g}",
    "tight_composition": "J = {releases} mechanisms, each ε = {epsilon:g}-DP (δ = 1e-6 as in the book)",
    "stable_threshold": "ε = {epsilon:g} and δ = {delta:g}",
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
    # the name's place in VARIANTS (append new exercises at the end, so that no student's numbers change;
    # for the first three this is also their alphabetical place, which the first rosters used)
    rng = np.random.default_rng([seed, list(VARIANTS).index(name)])
    if name == "dp_density_ratio":
        return {"fx": 100.0, "fxp": float(100 + rng.integers(2, 8)), "b": float(rng.choice([1.5, 2.0, 2.5, 4.0]))}
    if name == "dp_household_budget":
        return {"releases": int(rng.integers(2, 6)), "b": float(rng.choice([2.0, 4.0, 5.0, 10.0])),
                "group": int(rng.integers(2, 5))}
    if name == "laplace_tail":
        return {"epsilon": float(rng.choice([0.1, 0.2, 0.5, 1.0, 2.0])), "zeta": float(rng.choice([0.001, 0.02, 0.05, 0.1]))}
    if name == "histogram_lower_bound":
        return {"d": int(rng.choice([50, 200, 5000, 20000, 100000])), "epsilon": float(rng.choice([0.1, 0.25, 1.0, 2.0]))}
    if name == "tight_composition":
        return {"releases": int(rng.choice([50, 200, 400, 1000])), "epsilon": float(rng.choice([0.02, 0.05, 0.2]))}
    if name == "stable_threshold":
        # never δ = 1e-6: the chapter prints the thresholds for that δ
        return {"epsilon": float(rng.choice([0.2, 0.3, 0.4, 2.0])), "delta": float(rng.choice([1e-5, 1e-7, 1e-9]))}
    return {"n": int(rng.choice([1000, 1500, 2500, 4000, 5000])), "epsilon": float(rng.choice([0.25, 1.0, 2.0]))}
