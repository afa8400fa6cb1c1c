"""Tests of dpsens.dp (chapter *Differential privacy in one chapter*).

Expected values come from independent computations: scipy's Laplace
distribution, numerical integration, brute-force maxima over fine grids, and
seeded simulations checked against binomial standard errors.
"""
from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from scipy import integrate, stats

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import dpsens as ds
from dpsens import dp
from dpsens import exercises as EX


@pytest.mark.parametrize("value, neighbor, scale", [(100.0, 101.0, 1.0), (0.0, -3.0, 2.0), (5.0, 5.0, 0.5)])
def test_log_ratio_is_the_log_of_scipys_densities(value, neighbor, scale):
    z = np.linspace(-20, 120, 2001)
    want = stats.laplace.logpdf(z, value, scale) - stats.laplace.logpdf(z, neighbor, scale)
    np.testing.assert_allclose(dp.laplace_log_ratio(z, value, neighbor, scale), want, atol=1e-12)


@pytest.mark.parametrize("d, scale", [(1.0, 1.0), (3.0, 2.0), (0.25, 4.0)])
def test_the_largest_log_ratio_over_outputs_is_d_over_b(d, scale):
    """The Laplace theorem, brute force: the sup over a fine grid of outputs is |d|/b, both signs."""
    z = np.linspace(-50, 50, 200_001)
    r = dp.laplace_log_ratio(z, 0.0, d, scale)
    assert r.max() == pytest.approx(d / scale, abs=1e-12)
    assert r.min() == pytest.approx(-d / scale, abs=1e-12)


@pytest.mark.parametrize("d, scale", [(1.0, 1.0), (3.0, 2.0)])
def test_privacy_loss_cdf_matches_simulation(d, scale):
    rng = np.random.default_rng(15)
    loss = dp.privacy_loss_samples(10.0, 10.0 + d, scale, rng, 200_000)
    a = d / scale
    for ell in (-a, -a / 2, 0.0, a / 3, 0.999 * a, a):
        p = dp.privacy_loss_cdf(ell, 10.0, 10.0 + d, scale)
        se = math.sqrt(p * (1 - p) / loss.size) + 1e-12
        assert abs(np.mean(loss <= ell) - p) < 5 * se, ell
    # the two atoms: L = a with probability 1/2, L = -a with probability e^{-a}/2
    assert abs(np.mean(loss == a) - 0.5) < 5 * math.sqrt(0.25 / loss.size)
    p_low = 0.5 * math.exp(-a)
    assert abs(np.mean(loss == -a) - p_low) < 5 * math.sqrt(p_low * (1 - p_low) / loss.size)


@pytest.mark.parametrize("d, scale", [(1.0, 1.0), (3.0, 2.0), (0.5, 3.0)])
def test_expected_loss_is_the_integral_of_loss_times_density(d, scale):
    def integrand(z):
        return dp.laplace_log_ratio(z, 0.0, d, scale) * stats.laplace.pdf(z, 0.0, scale)
    want = sum(integrate.quad(integrand, lo, hi)[0] for lo, hi in ((-np.inf, 0), (0, d), (d, np.inf)))
    assert dp.expected_privacy_loss(0.0, d, scale) == pytest.approx(want, rel=1e-9)
    assert dp.expected_privacy_loss(0.0, 1.0, 1.0) == pytest.approx(math.exp(-1))


def test_rounded_pmf_is_exact_and_post_processing_keeps_epsilon():
    p = dp.rounded_laplace_pmf(3.0, 1.0, 0, 10)
    cdf = stats.laplace.cdf
    want = [cdf(0.5, 3, 1)] + [cdf(j + 0.5, 3, 1) - cdf(j - 0.5, 3, 1) for j in range(1, 10)] + [1 - cdf(9.5, 3, 1)]
    np.testing.assert_allclose(p, want, atol=1e-15)
    assert p.sum() == pytest.approx(1.0)
    q = dp.rounded_laplace_pmf(4.0, 1.0, 0, 10)
    worst = np.abs(np.log(p / q)).max()
    assert worst <= 1.0 + 1e-12 and worst > 0.9          # e^ε bound holds, and is nearly reached
    # every event (set of outputs), not only single outputs: brute force over all 2^11 subsets
    masks = (np.arange(1, 2 ** 11)[:, None] >> np.arange(11)) & 1
    ratios = (masks @ p) / (masks @ q)
    assert ratios.max() <= math.e * (1 + 1e-12) and ratios.min() >= math.exp(-1) * (1 - 1e-12)


def test_sequential_composition_brute_force():
    """Two independent Laplace releases (ε1 = 0.5, ε2 = 0.25): the joint log-ratio peaks at ε1 + ε2."""
    z1, z2 = np.meshgrid(np.linspace(-10, 12, 441), np.linspace(-10, 12, 441))
    joint = dp.laplace_log_ratio(z1, 0.0, 1.0, 2.0) + dp.laplace_log_ratio(z2, 0.0, 1.0, 4.0)
    assert joint.max() == pytest.approx(0.75)
    assert dp.sequential_composition([0.5, 0.25]) == (0.75, 0.0)
    assert dp.sequential_composition([0.5, 0.25], [1e-6, 2e-6]) == pytest.approx((0.75, 3e-6))


def test_group_privacy_brute_force():
    """Datasets k records apart: Laplace answers k·Δ apart, sup of the log-ratio is kε."""
    z = np.linspace(-40, 60, 100_001)
    for k in (1, 2, 3, 5):
        assert dp.laplace_log_ratio(z, 0.0, k * 2.0, 4.0).max() == pytest.approx(dp.group_privacy(0.5, k)[0])
    eps, delta = dp.group_privacy(0.5, 3, 1e-6)
    assert eps == 1.5 and delta == pytest.approx(3 * math.exp(1.0) * 1e-6)


def test_empirical_log_ratios_stay_near_epsilon():
    rng = np.random.default_rng(7)
    out = 100 + rng.laplace(0, 1, 400_000)
    out2 = 101 + rng.laplace(0, 1, 400_000)
    r = dp.empirical_log_ratios(out, out2, np.arange(95, 106.5, 0.5), min_count=1000)
    kept = r[~np.isnan(r)]
    assert kept.size >= 15
    assert np.abs(kept).max() < 1.05           # sampling noise only (each bin has >= 1000 outputs)
    assert np.abs(kept).max() > 0.9            # the bound is reached on the outer bins


@pytest.mark.parametrize("call, match", [
    (lambda: dp.laplace_log_ratio(0.0, 0.0, 1.0, 0.0), "scale"),
    (lambda: dp.laplace_log_ratio(0.0, "a", 1.0, 1.0), "value"),
    (lambda: dp.laplace_log_ratio(0.0, 0.0, float("nan"), 1.0), "neighbor_value"),
    (lambda: dp.privacy_loss_samples(0.0, 1.0, 1.0, 42, 10), "Generator"),
    (lambda: dp.privacy_loss_samples(0.0, 1.0, 1.0, np.random.default_rng(0), 0), "size"),
    (lambda: dp.rounded_laplace_pmf(0.0, 1.0, 5, 2), "upper"),
    (lambda: dp.sequential_composition([]), "epsilons"),
    (lambda: dp.sequential_composition([1.0, -1.0]), "epsilons"),
    (lambda: dp.sequential_composition([1.0], [0.1, 0.1]), "deltas"),
    (lambda: dp.group_privacy(1.0, 0), "k"),
    (lambda: dp.group_privacy(1.0, 2, 1.5), "delta"),
    (lambda: dp.empirical_log_ratios([1.0], [1.0], [2.0, 1.0]), "edges"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_figures_have_titles_labels_and_legends():
    rng = np.random.default_rng(0)
    figs = [ds.figures.dp.plot_neighboring_laplace(100.0, 101.0, 1.0),
            ds.figures.dp.plot_group_log_ratios(100.0, 1.0, 1.0, (1, 2, 3)),
            ds.figures.dp.plot_privacy_loss(dp.privacy_loss_samples(0.0, 1.0, 1.0, rng, 1000), 0.0, 1.0, 1.0)]
    for fig in figs:
        for ax in fig.axes:
            assert ax.get_title() and ax.get_ylabel()
        assert all(ax.get_legend() is not None for ax in fig.axes) or fig.legends   # in the axes or below
        assert fig.axes[-1].get_xlabel()
        plt.close(fig)


def test_exercise_answers_from_the_chapter():
    assert EX.check_dp_density_ratio(math.exp(1.5)).correct
    assert EX.check_dp_density_ratio(1.5).status == "wrong"          # the log-ratio
    assert "logarithm" in EX.check_dp_density_ratio(1.5).message
    assert EX.check_dp_density_ratio(math.exp(3)).status == "wrong"  # forgot the scale
    assert EX.check_dp_household_budget(1.2).correct
    assert "one person" in EX.check_dp_household_budget(0.6).message # forgot the group
    assert "one release" in EX.check_dp_household_budget(0.4).message  # forgot the composition
    assert EX.check_dp_expected_loss(0.3679).correct
    assert EX.check_dp_expected_loss(1.0).status == "wrong"
    rng = np.random.default_rng(2026)                                 # the simulation route passes too
    assert EX.check_dp_expected_loss(dp.privacy_loss_samples(0.0, 1.0, 1.0, rng, 1_000_000).mean()).correct


def test_laplace_log_ratio_by_hand():
    # f(x) = 1, f(x') = 3, b = 1; at z = 1.5 the loss is (|1.5 - 3| - |1.5 - 1|)/1 = 1
    assert dp.laplace_log_ratio(1.5, 1.0, neighbor_value=3.0, scale=1.0) == 1.0


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 1.0, 3.0])
def test_expected_loss_lemma_on_randomised_response_and_the_laplace_mechanism(eps):
    """The lemma of *Composing releases* (E[L] <= 2ε tanh(ε/2) <= ε(e^ε - 1) for an ε-DP mechanism),
    checked where it is tight and where the package computes it: randomised response (probabilities
    e^ε/(1 + e^ε) and 1/(1 + e^ε), the worst case for the total variation, TV = tanh(ε/2) exactly) and
    the Laplace mechanism with b = 1/ε, whose E[L] = ε + e^-ε - 1 (the package's value)."""
    p = np.array([math.exp(eps), 1.0]) / (1 + math.exp(eps))
    kl_rr = float(np.sum(p * np.log(p / p[::-1])))
    assert kl_rr <= 2 * eps * math.tanh(eps / 2) + 1e-15 <= eps * math.expm1(eps) + 1e-15
    assert math.isclose(float(np.sum(np.abs(p - p[::-1]))) / 2, math.tanh(eps / 2))
    loss = dp.expected_privacy_loss(0.0, 1.0, 1 / eps)
    assert math.isclose(loss, eps + math.exp(-eps) - 1, rel_tol=1e-9)
    assert loss <= 2 * eps * math.tanh(eps / 2) <= eps * math.expm1(eps)
