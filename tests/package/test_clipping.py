"""Clipping error of *Many answers at once*: the formula against a direct computation, the best bound against a search."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from dpsens import clipping as C
from dpsens.mechanisms.exponential import quantile_exponential_distribution


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
    (lambda: C.private_clipped_sums([1, 2], 0.5, 0.0, 1.0, 10, np.random.default_rng(0)), "epsilon_bound"),
    (lambda: C.private_clipped_sums([1, 2], 0.5, 1.0, -1.0, 10, np.random.default_rng(0)), "epsilon_release"),
    (lambda: C.private_clipped_sums([1, 2], 1.5, 1.0, 1.0, 10, np.random.default_rng(0)), "between 0 and 1"),
    (lambda: C.private_clipped_sums([1, 20], 0.5, 1.0, 1.0, 10, np.random.default_rng(0)), r"outside \[lower, upper\]"),
    (lambda: C.private_clipped_sums([1, -2], 0.5, 1.0, 1.0, 10, np.random.default_rng(0)), "values"),
    (lambda: C.private_clipped_sums([1, 2], 0.5, 1.0, 1.0, 10, np.random.default_rng(0), ["a"]), "groups"),
    (lambda: C.private_bound_error([1, 2], 0.5, 1.0, 1.0, float("inf")), "upper"),
    (lambda: C.private_bound_error([1, 2], 0.5, 1.0, 1.0, 0.0), "upper"),
])
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


# ----------------------------------------------------------------- the private clipping bound
TINY = np.array([0.0, 1.0, 1.0, 4.0, 7.0])
TINY_GROUPS = np.array(["a", "b", "a", "b", "a"], dtype=object)
UPPER, Q, EPS1, EPS2 = 10.0, 0.6, 0.8, 0.5


def bound_intervals(x, q, epsilon, upper):
    """The bound's distribution from the definition: on each interval between consecutive points of
    0, the sorted data and ``upper``, the density is proportional to exp(ε u / (2 max(q, 1 - q))) with
    u = -|#{x_i < r} - q n| (add/remove neighbours); returns (left, right, probability)."""
    xs = np.sort(x)
    edges = np.concatenate([[0.0], xs, [upper]])
    left, right = edges[:-1], edges[1:]
    below = np.array([np.sum(xs < (a + b) / 2) if b > a else 0 for a, b in zip(left, right, strict=True)])
    weight = (right - left) * np.exp(-epsilon * np.abs(below - q * len(xs)) / (2 * max(q, 1 - q)))
    return left, right, weight / weight.sum()


def direct_release_mse(x, groups, u, epsilon):
    """Σ_g (Σ_{i in g} min(x_i, u) - Σ_{i in g} x_i)² + G 2u²/ε², written out."""
    labels = np.unique(groups)
    return sum((np.minimum(x[groups == g], u).sum() - x[groups == g].sum()) ** 2 for g in labels) \
        + len(labels) * 2 * u ** 2 / epsilon ** 2


def test_private_bound_draws_follow_the_exact_distribution():
    """100,000 seeded draws of the bound, in 4 equal bins per interval, against the definition's probabilities."""
    left, right, prob = bound_intervals(TINY, Q, EPS1, UPPER)
    keep = right > left
    bins = np.concatenate([np.linspace(a, b, 5)[:-1] for a, b in zip(left[keep], right[keep], strict=True)] + [[UPPER]])
    expected = np.repeat(prob[keep] / 4, 4)
    draws = C.private_clipped_sums(TINY, Q, EPS1, EPS2, UPPER, np.random.default_rng(34), TINY_GROUPS,
                                   size=100_000)["bound"]
    observed = np.histogram(draws, bins=bins)[0]
    assert observed.sum() == len(draws)
    assert stats.chisquare(observed, expected * len(draws)).pvalue > 1e-3


def test_private_bound_error_against_quadrature_and_simulation():
    """E[MSE] over the bound: Simpson in the package, adaptive quadrature of density × MSE here; and the mean
    squared error of 100,000 seeded runs of the release itself, within 5 standard errors."""
    left, right, prob = bound_intervals(TINY, Q, EPS1, UPPER)
    brute = sum(p / (b - a) * integrate.quad(lambda u: direct_release_mse(TINY, TINY_GROUPS, u, EPS2), a, b,
                                             epsabs=0, epsrel=1e-12)[0]
                for a, b, p in zip(left, right, prob, strict=True) if b > a)
    mean_bound = sum(p * (a + b) / 2 for a, b, p in zip(left, right, prob, strict=True))
    out = C.private_bound_error(TINY, Q, EPS1, EPS2, UPPER, TINY_GROUPS)
    assert out["mse"] == pytest.approx(brute, rel=1e-9)
    assert out["mean_bound"] == pytest.approx(mean_bound, rel=1e-12)
    runs = C.private_clipped_sums(TINY, Q, EPS1, EPS2, UPPER, np.random.default_rng(35), TINY_GROUPS, size=100_000)
    truth = np.array([TINY[TINY_GROUPS == g].sum() for g in runs["sums"].columns])
    squared = ((runs["sums"].to_numpy() - truth) ** 2).sum(axis=1)
    assert abs(squared.mean() - brute) < 5 * squared.std() / math.sqrt(len(squared))


def test_private_bound_with_groups_is_the_sum_over_groups():
    one = C.private_bound_error(TINY, Q, EPS1, EPS2, UPPER)
    left, right, prob = bound_intervals(TINY, Q, EPS1, UPPER)
    brute = sum(p / (b - a) * integrate.quad(lambda u: direct_release_mse(TINY, np.zeros(5), u, EPS2), a, b)[0]
                for a, b, p in zip(left, right, prob, strict=True) if b > a)
    assert one["mse"] == pytest.approx(brute, rel=1e-9)


def test_the_whole_release_is_eps1_plus_eps2_dp_on_every_neighbour():
    """The joint density of (bound, noisy sums) on x and on every add/remove neighbour (each record removed;
    a record of 0, 2.5, 7 or 10 added to either group), on a grid of outputs: the log-ratio is at most
    ε₁ + ε₂.  The bound's density is the package's exact distribution; the sums' is Laplace's, written out."""
    def log_density(x, groups, u, s):
        d = quantile_exponential_distribution(x, Q, EPS1, 0.0, UPPER, neighbors="unbounded")
        i = np.searchsorted(d["right"], u, side="left")
        log_p1 = d["log_prob"][i] - np.log(d["right"][i] - d["left"][i])
        clipped = np.stack([np.minimum(x[groups == g], u[:, None]).sum(axis=1) for g in ("a", "b")], axis=1)
        b = u / EPS2
        return log_p1 + (-np.abs(s - clipped) / b[:, None] - np.log(2 * b)[:, None]).sum(axis=1)

    grid_u = np.linspace(0.05, UPPER - 0.05, 60)
    grid_s = np.linspace(-10, 30, 21)
    u = np.repeat(grid_u, len(grid_s) ** 2)
    s = np.tile(np.array(np.meshgrid(grid_s, grid_s)).reshape(2, -1).T, (len(grid_u), 1))
    base = log_density(TINY, TINY_GROUPS, u, s)
    neighbours = [(np.delete(TINY, i), np.delete(TINY_GROUPS, i)) for i in range(len(TINY))]
    neighbours += [(np.append(TINY, v), np.append(TINY_GROUPS, g)) for v in (0.0, 2.5, 7.0, 10.0) for g in "ab"]
    worst = max(np.max(np.abs(base - log_density(x2, g2, u, s))) for x2, g2 in neighbours)
    assert worst <= EPS1 + EPS2 + 1e-9
    assert worst > 0.5 * (EPS1 + EPS2)                    # the grid reaches well into the tails of the ratio
