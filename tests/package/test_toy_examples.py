"""The small worked examples of issue 35 (item 8 and 9), against independent computations.

* *The exponential mechanism and inverse sensitivity*: the five-point toy
  (counting score, one record replaced) -- the mechanism's probabilities
  against the formula written out by hand, and the theorem's bound e^ε
  against every bounded neighbour of the toy dataset; the aside's intervals
  of variances (one per removed record) against a fine grid of added values.
* *Many answers at once*: the classic Gaussian formula outside its theorem --
  the δ it really gives at ε = 10 (1.9e-6, not the 1e-6 asked for), by
  numerical integration of the two output densities, not through the
  closed form ``gaussian_delta`` uses.
* The two plotting functions those examples draw: titles, labels, legends,
  and a clear error for bad input.
"""
from __future__ import annotations

import itertools
import math

import matplotlib
import numpy as np
import pytest
from scipy import integrate, stats

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import dpsens as ds
from dpsens import mechanisms as mech
from dpsens.mechanisms import exponential as em

OUTPUTS = [1, 2, 3, 4, 5]
X = [1, 2, 2, 4, 5]


def _probabilities(data, epsilon=1.0):
    return np.exp(em.exponential_log_probabilities([data.count(z) for z in OUTPUTS], 1.0, epsilon))


def test_toy_probabilities_are_the_hand_formula():
    weights = np.array([math.exp(0.5), math.exp(1.0), 1.0, math.exp(0.5), math.exp(0.5)])
    assert np.allclose(_probabilities(X), weights / weights.sum(), rtol=1e-12)
    assert np.allclose(_probabilities([1, 2, 3, 4, 5]), 0.2, rtol=1e-12)
    # the numbers the chapter quotes
    assert _probabilities(X)[1] == pytest.approx(0.31373, abs=5e-6)
    ratio = 0.2 / _probabilities(X)[2]
    assert ratio == pytest.approx(math.exp(0.5) * weights.sum() / (5 * math.exp(0.5)), rel=1e-12)
    assert ratio == pytest.approx(1.7329, abs=5e-5)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_toy_ratio_within_e_to_the_epsilon_for_every_bounded_neighbour(epsilon):
    p = _probabilities(X, epsilon)
    worst = 0.0
    for i, v in itertools.product(range(len(X)), OUTPUTS):      # replace record i by v (n = 5 public)
        q = _probabilities(X[:i] + [v] + X[i + 1:], epsilon)
        worst = max(worst, float(np.max(np.maximum(p / q, q / p))))
    assert 1.0 < worst <= math.exp(epsilon) * (1 + 1e-12)


def test_plot_exponential_toy():
    p = np.vstack([_probabilities(X), _probabilities([1, 2, 3, 4, 5])])
    fig = ds.figures.exponential.plot_exponential_toy(OUTPUTS, p, ["x", "x′"], 1.0)
    ax = fig.axes[0]
    assert "1.733" in ax.get_title() and "2.718" in ax.get_title()
    assert ax.get_xlabel() and ax.get_ylabel() and fig.legends
    plt.close(fig)
    with pytest.raises(ValueError, match="probabilities"):
        ds.figures.exponential.plot_exponential_toy(OUTPUTS, p[:, :4], ["x", "x′"], 1.0)
    with pytest.raises(ValueError, match="probabilities"):
        ds.figures.exponential.plot_exponential_toy(OUTPUTS, p * 2, ["x", "x′"], 1.0)


def test_variance_intervals_of_the_aside_overlap_and_plot():
    x = np.array([1.0, 2.0, 4.0, 7.0, 9.0])
    grid = np.linspace(0.0, 10.0, 20001)
    intervals = []
    for i in range(len(x)):
        kept = np.delete(x, i)
        reach = ((kept.sum() + grid) ** 2 / -(len(x)) + (kept ** 2).sum() + grid ** 2) / len(x)  # variance, n = 5
        brute = [np.var(np.append(kept, v)) for v in grid[::500]]
        assert np.allclose(reach[::500], brute)
        # the chapter's exact ends: v at 0, at 10 or at the mean of the kept records
        ends = [np.var(np.append(kept, v)) for v in (0.0, 10.0, kept.mean())]
        assert min(ends) == pytest.approx(reach.min(), abs=1e-6) and max(ends) == pytest.approx(reach.max())
        intervals.append((min(ends), max(ends)))
        assert min(ends) <= np.var(x) <= max(ends)            # remove x_i, add it back
    fig = ds.figures.exponential.plot_reachable_intervals(intervals, [f"remove {v:g}" for v in x], float(np.var(x)),
                                                          "variance of x", "variance", "five routes")
    ax = fig.axes[0]
    assert ax.get_title() == "five routes" and ax.get_xlabel() == "variance" and fig.legends
    plt.close(fig)
    with pytest.raises(ValueError, match="intervals"):
        ds.figures.exponential.plot_reachable_intervals([(2.0, 1.0)], ["bad"], 1.5, "c", "v", "t")


def _delta_by_integration(sigma, epsilon):
    """sup over sets S of P(N(0, σ²) ∈ S) − e^ε P(N(1, σ²) ∈ S): the integral of the positive part."""
    def gap(z):
        return stats.norm.pdf(z, 0.0, sigma) - math.exp(epsilon) * stats.norm.pdf(z, 1.0, sigma)
    z_star = 0.5 - epsilon * sigma ** 2      # the gap is positive exactly below z_star
    assert gap(z_star - 1e-3) > 0 > gap(z_star + 1e-3)
    value, err = integrate.quad(gap, z_star - 40 * sigma, z_star, epsabs=0, epsrel=1e-10, limit=200)
    return value


@pytest.mark.parametrize("epsilon, expected", [(10.0, 1.902e-6), (20.0, 1.611e-4)])
def test_classic_gaussian_fails_at_large_epsilon(epsilon, expected):
    sigma = math.sqrt(2 * math.log(1.25 / 1e-6)) / epsilon
    by_integration = _delta_by_integration(sigma, epsilon)
    assert by_integration == pytest.approx(expected, rel=1e-3)
    assert by_integration > 1e-6
    assert mech.gaussian_delta(sigma, 1.0, epsilon) == pytest.approx(by_integration, rel=1e-6)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 5.0])
def test_classic_gaussian_below_the_asked_delta_up_to_five(epsilon):
    sigma = math.sqrt(2 * math.log(1.25 / 1e-6)) / epsilon
    by_integration = _delta_by_integration(sigma, epsilon)
    assert by_integration < 1e-6
    assert mech.gaussian_delta(sigma, 1.0, epsilon) == pytest.approx(by_integration, rel=1e-6)
