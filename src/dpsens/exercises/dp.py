"""Checkers for the exercises of the chapter *Differential privacy in one chapter*.

Setting: the Laplace mechanism on small made-up answers (no data set).
"""
from __future__ import annotations

import math

from ..dp import expected_privacy_loss, group_privacy, laplace_log_ratio, sequential_composition
from ._verdict import THREE_DIGITS, Verdict, check_number, checker, close, wrong

__all__ = ["check_dp_density_ratio", "check_dp_household_budget", "check_dp_expected_loss"]

#: Exercise *The largest ratio of two densities*: f(x) = 100, f(x') = 103, b = 2.
RATIO_VALUE, RATIO_NEIGHBOR, RATIO_SCALE = 100.0, 103.0, 2.0
#: Exercise *A household's budget*: three releases of a count (sensitivity 1), b = 5, a household of 2.
BUDGET_RELEASES, BUDGET_SCALE, BUDGET_GROUP = 3, 5.0, 2


@checker("your ratio (a number)")
def check_dp_density_ratio(answer) -> Verdict:
    """Exercise *The largest ratio of two densities*: the largest p(z)/p'(z) over all
    outputs z, for f(x) = 100, f(x') = 103 and Laplace scale b = 2.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; the log-ratio itself, or a ratio that forgets b, does not."""
    # the largest log-ratio is reached at any z on the far side of f(x) from f(x')
    loss = laplace_log_ratio(RATIO_VALUE - 1.0, RATIO_VALUE, RATIO_NEIGHBOR, RATIO_SCALE)
    if close(answer, loss, THREE_DIGITS):
        return wrong("that is the logarithm of the ratio; the exercise asks for the ratio itself.",
                     "exponentiate.")
    if close(answer, math.exp(abs(RATIO_NEIGHBOR - RATIO_VALUE)), THREE_DIGITS):
        return wrong("the exponent must be measured in units of the scale b.",
                     "p(z)/p'(z) = exp((|z - f(x')| - |z - f(x)|) / b).")
    return check_number(answer, math.exp(loss), "the largest ratio", rel_tol=THREE_DIGITS,
                        hint="write the ratio of the two densities and use the triangle inequality.")


@checker("your ε (a number)")
def check_dp_household_budget(answer) -> Verdict:
    """Exercise *A household's budget*: the ε that protects a household of 2 people across
    three Laplace releases of a count (sensitivity 1) with scale b = 5.

    Precision: exact (round-off only): 3 × (1/5) × 2."""
    per_release = 1.0 / BUDGET_SCALE
    total, _ = sequential_composition([per_release] * BUDGET_RELEASES)
    expected, _ = group_privacy(total, BUDGET_GROUP)
    if close(answer, total):
        return wrong("that protects one person; the household has two.",
                     "group privacy multiplies ε by the number of records that change.")
    if close(answer, per_release * BUDGET_GROUP):
        return wrong("that covers one release; the count is released three times.",
                     "sequential composition adds the ε of the releases.")
    return check_number(answer, expected, "the household's ε",
                        hint="one release of a count with scale b is (1/b)-DP; then compose, then group.")


@checker("your expected privacy loss (a number)")
def check_dp_expected_loss(answer) -> Verdict:
    """Exercise *The average privacy loss*: E[L] for the Laplace mechanism with
    |f(x) - f(x')| = b (so ε = 1).

    Precision: within 0.5 % (relative): 3 significant figures, or a simulation
    of a million releases, pass."""
    if close(answer, 1.0, THREE_DIGITS):
        return wrong("1 is ε, the largest value of the loss; its average is smaller.",
                     "half the time the loss is exactly ε, sometimes it is negative.")
    return check_number(answer, expected_privacy_loss(0.0, 1.0, 1.0), "the expected privacy loss",
                        rel_tol=THREE_DIGITS,
                        hint="split the outputs into z <= f(x), between the answers, and beyond f(x'); "
                             "or simulate a million releases with a seeded Generator.")
