"""Checkers for the exercises of the chapter *Differential privacy in one chapter*.

Setting: the Laplace mechanism on small made-up answers (no data set).  The
expected values are in the hashed key (:mod:`._key`); the density-ratio and
household exercises have per-student variants (:mod:`.variants`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_dp_density_ratio", "check_dp_household_budget", "check_dp_expected_loss"]


@checker("your ratio (a number)")
def check_dp_density_ratio(answer: object) -> Verdict:
    """Exercise *The largest ratio of two densities*: the largest p(z)/p'(z) over all
    outputs z, for the exercise's f(x), f(x') and Laplace scale b.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the log-ratio itself, or a ratio that forgets b, does not."""
    return check_key(answer, "dp_density_ratio", "the largest ratio",
                     "write the ratio of the two densities and use the triangle inequality.",
                     {"log": ("that is the logarithm of the ratio; the exercise asks for the ratio itself.",
                              "exponentiate."),
                      "no_scale": ("the exponent must be measured in units of the scale b.",
                                   "p(z)/p'(z) = exp((|z - f(x')| - |z - f(x)|) / b).")})


@checker("your ε (a number)")
def check_dp_household_budget(answer: object) -> Verdict:
    """Exercise *A household's budget*: the ε that protects a household across
    repeated Laplace releases of a count (sensitivity 1).

    Precision: exact (round-off only)."""
    return check_key(answer, "dp_household_budget", "the household's ε",
                     "one release of a count with scale b is (1/b)-DP; then compose, then group.",
                     {"one_person": ("that protects one person; the household has more.",
                                     "group privacy multiplies ε by the number of records that change."),
                      "one_release": ("that covers one release; the count is released several times.",
                                      "sequential composition adds the ε of the releases.")})


@checker("your expected privacy loss (a number)")
def check_dp_expected_loss(answer: object) -> Verdict:
    """Exercise *The average privacy loss*: E[L] for the Laplace mechanism with
    |f(x) - f(x')| = b (so ε = 1).

    Precision: within 0.5 % (relative): 3 significant figures, or a simulation
    of a million releases, pass."""
    return check_key(answer, "dp_expected_loss", "the expected privacy loss",
                     "split the outputs into z <= f(x), between the answers, and beyond f(x'); "
                     "or simulate a million releases with a seeded Generator.",
                     {"epsilon": ("that is ε, the largest value of the loss; its average is smaller.",
                                  "half the time the loss is exactly ε, sometimes it is negative.")})
