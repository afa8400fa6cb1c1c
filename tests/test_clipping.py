"""Clipping error of *Many answers at once*: the formula against a direct computation, the best bound against a search."""
from __future__ import annotations

import numpy as np
import pytest

from dpsens import clipping as C


def direct_mse(values, groups, u, epsilon):
    """Per group: (clipped sum - sum)² + 2u²/ε², summed -- written out with np.clip."""
    total = 0.0
    for g in np.unique(groups):
        x = values[groups == g]
        total += (np.clip(x, 0, u).sum() - x.sum()) ** 2 + 2 * u ** 2 / epsilon ** 2
    return total


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("epsilon", [0.05, 0.5, 2.0])
def test_error_formula_and_best_bound(seed, epsilon):
    rng = np.random.default_rng(seed)
    values = np.round(rng.pareto(1.5, size=60) * 10, 1)
    groups = rng.choice(["a", "b", "c"], size=60)
    us = np.unique(np.concatenate([np.linspace(0.05, values.max(), 2000), values[values > 0]]))
    err = C.clipped_sum_error(values, us, epsilon, groups)
    direct = np.array([direct_mse(values, groups, u, epsilon) for u in us])
    assert np.allclose(err["mse"].to_numpy(), direct, rtol=1e-9)
    best = C.best_clipping_bound(values, epsilon, groups)
    best_mse = direct_mse(values, groups, best, epsilon)
    assert best_mse <= direct.min() * (1 + 1e-12)
    # a local check around the optimum: no nearby bound does better
    for u in best * np.array([0.999, 1.001]):
        assert best_mse <= direct_mse(values, groups, u, epsilon) + 1e-9


def test_without_groups_is_one_group():
    x = np.array([0, 0, 1, 5, 100.0])
    assert C.best_clipping_bound(x, 1.0) == pytest.approx(C.best_clipping_bound(x, 1.0, ["g"] * 5))
    # one value above u on the last interval: MSE = (100 - u)² + 2u², minimum at u = 100/3
    assert C.best_clipping_bound(x, 1.0) == pytest.approx(100 / 3)


@pytest.mark.parametrize("call, word", [
    (lambda: C.clipped_sum_error([1, 2], [float("inf")], 1.0), "bounds"),
    (lambda: C.clipped_sum_error([1, 2], [0.0], 1.0), "bounds"),
    (lambda: C.clipped_sum_error([1, -2], [1.0], 1.0), "values"),
    (lambda: C.clipped_sum_error([1, 2], [1.0], 0.0), "epsilon"),
    (lambda: C.best_clipping_bound([1, 2], 1.0, ["a"]), "groups"),
])
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()
