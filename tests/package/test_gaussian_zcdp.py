"""The Gaussian mechanism of *Many answers at once*: analytic σ, zCDP, Gaussian vs Laplace.

The analytic σ is checked against a direct numerical solution of its defining
condition (Balle & Wang 2018, Theorem 8, written out here with scipy's normal
CDF, solved by a plain bisection), and ρ and the conversion to (ε, δ)
against OpenDP.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpsens import mechanisms as m


def condition(sigma, sens, eps):
    """Balle & Wang's Theorem 8, with scipy.stats.norm (not the package's log-space form)."""
    return (stats.norm.cdf(sens / (2 * sigma) - eps * sigma / sens)
            - math.exp(eps) * stats.norm.cdf(-sens / (2 * sigma) - eps * sigma / sens))


def bisect_sigma(sens, eps, delta):
    lo, hi = 1e-6, 1e6
    for _ in range(300):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if condition(mid, sens, eps) > delta else (lo, mid)
    return hi


@pytest.mark.parametrize("eps", [0.05, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
@pytest.mark.parametrize("sens", [1.0, math.sqrt(8), 37.5])
def test_analytic_sigma_solves_its_condition(eps, delta, sens):
    sigma = m.gaussian_sigma(sens, eps, delta, method="analytic")
    assert sigma == pytest.approx(bisect_sigma(sens, eps, delta), rel=1e-9)
    assert m.gaussian_delta(sigma, sens, eps) <= delta
    assert m.gaussian_delta(sigma * (1 - 1e-9), sens, eps) > delta * (1 - 1e-6)
    if eps < 1:
        assert sigma <= m.gaussian_sigma(sens, eps, delta, method="classic")


def test_analytic_sigma_at_epsilon_one():
    """ε = 1, δ = 1e-5, Δ = 1: σ = 3.73 to two decimals, a case the classic formula (ε < 1) does not cover."""
    assert m.gaussian_sigma(1.0, 1.0, 1e-5, "analytic") == pytest.approx(3.73, abs=0.01)


def test_zcdp_rho_composition_and_conversion():
    assert m.gaussian_rho(2.0, 1.0) == 0.125
    assert m.gaussian.zcdp_sigma(1.0, m.gaussian_rho(3.0, 1.0)) == pytest.approx(3.0)
    assert m.zcdp_compose([0.1, 0.2, 0.05]) == pytest.approx(0.35)
    assert m.zcdp_to_dp(0.5, 1e-6) == pytest.approx(0.5 + 2 * math.sqrt(0.5 * math.log(1e6)))
    with pytest.raises(ValueError, match="rhos"):
        m.zcdp_compose([])
    with pytest.raises(ValueError, match="delta"):
        m.zcdp_to_dp(0.5, 1.0)
    with pytest.raises(ValueError, match="rho"):
        m.gaussian.zcdp_sigma(1.0, 0.0)


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-6), (0.5, 1e-6), (2.0, 1e-9), (0.1, 1e-5)])
def test_crossover_is_the_first_d_where_gaussian_wins(eps, delta):
    d = m.gaussian_laplace_crossover(eps, delta)
    lap = [m.gaussian.per_coordinate_noise_std(j, eps) for j in (d - 1, d)]
    gau = [m.gaussian.per_coordinate_noise_std(j, eps, delta, "gaussian") for j in (d - 1, d)] if d > 1 else None
    assert gau[1] < lap[1]
    assert gau[0] >= lap[0]
    sigma_1 = m.gaussian_sigma(1.0, eps, delta, "analytic")
    assert d == math.floor((sigma_1 * eps) ** 2 / 2) + 1


def test_gaussian_mechanism_output_distribution():
    """Seeded: mean, standard deviation and a central quantile of 200,000 releases."""
    rng = np.random.default_rng(2018)
    sigma = m.gaussian_sigma(2.0, 0.8, 1e-6, "analytic")
    out = m.gaussian_mechanism(10.0, 2.0, 0.8, 1e-6, rng, size=200_000, method="analytic")
    assert out.mean() == pytest.approx(10.0, abs=4 * sigma / math.sqrt(200_000))
    assert out.std() == pytest.approx(sigma, rel=0.01)
    assert stats.kstest((out - 10.0) / sigma, "norm").pvalue > 0.01


def test_laplace_mechanism_output_distribution():
    rng = np.random.default_rng(2019)
    out = m.laplace_mechanism(3.0, 2.0, 0.5, rng, size=200_000)
    assert stats.kstest(out - 3.0, "laplace", args=(0, 4.0)).pvalue > 0.01


@pytest.mark.parametrize("call, word", [
    (lambda: m.gaussian_sigma(1.0, 0.0, 1e-5, "analytic"), "epsilon"),
    (lambda: m.gaussian_sigma(1.0, -1.0, 1e-5, "analytic"), "epsilon"),
    (lambda: m.gaussian_sigma(1.0, 1.0, 0.0, "analytic"), "delta"),
    (lambda: m.gaussian_sigma(1.0, 1.0, 1.0, "analytic"), "delta"),
    (lambda: m.gaussian_sigma(float("inf"), 1.0, 1e-5, "analytic"), "sensitivity"),
    (lambda: m.gaussian.per_coordinate_noise_std(3, 1.0, mechanism="gaussian"), "delta"),
    (lambda: m.gaussian.per_coordinate_noise_std(0, 1.0), "d"),
])
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


# ------------------------------------------------------------------ OpenDP
dp = pytest.importorskip("opendp.prelude", reason="opendp is not installed (pip install opendp==0.16.0)")
dp.enable_features("contrib")


@pytest.mark.parametrize("sigma, sens", [(2.0, 1.0), (5.0, 3.0), (0.7, math.sqrt(2))])
def test_rho_equals_opendp(sigma, sens):
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    meas = dp.m.make_gaussian(*space, scale=sigma)
    assert meas.map(sens) == pytest.approx(m.gaussian_rho(sigma, sens), rel=1e-9)


@pytest.mark.parametrize("sigma, delta", [(2.0, 1e-5), (4.0, 1e-7), (1.0, 1e-3)])
def test_opendp_conversion_lies_between_the_exact_profile_and_bun_steinke(sigma, delta):
    """OpenDP converts ρ-zCDP to (ε, δ) with a bound valid for every ρ-zCDP mechanism: its ε cannot
    be below the Gaussian's exact ε (the analytic profile) and is not above Bun & Steinke's."""
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    eps_opendp = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=sigma)).map(1.0).epsilon(delta)
    # the exact ε: the analytic σ for that ε is sigma
    lo, hi = 1e-9, 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if m.gaussian_delta(sigma, 1.0, mid) <= delta else (mid, hi)
    eps_exact = hi
    assert m.gaussian_sigma(1.0, eps_exact, delta, "analytic") == pytest.approx(sigma, rel=1e-6)
    assert eps_exact <= eps_opendp <= m.zcdp_to_dp(m.gaussian_rho(sigma, 1.0), delta)


@pytest.mark.parametrize("eps", [0.01, 0.3, 1.0, 4.0, 20.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-8])
def test_gaussian_epsilon_inverts_the_profile(eps, delta):
    sigma = m.gaussian_sigma(2.0, eps, delta, "analytic")
    assert m.gaussian_epsilon(sigma, 2.0, delta) == pytest.approx(eps, rel=1e-6)
    assert m.gaussian_delta(sigma, 2.0, m.gaussian_epsilon(sigma, 2.0, delta)) <= delta


@pytest.mark.parametrize("sens, rho", [(1.0, 0.125), (3.0, 0.5), (math.sqrt(8), 0.01)])
def test_sigma_for_a_rho_equals_opendps_search(sens, rho):
    """OpenDP finds the smallest scale whose ρ meets a target by searching its own privacy map."""
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    scale = dp.binary_search_param(lambda s: dp.m.make_gaussian(*space, scale=s), d_in=sens, d_out=rho)
    assert scale == pytest.approx(m.gaussian.zcdp_sigma(sens, rho), rel=1e-6)


@pytest.mark.parametrize("omega, shift, sd", [(1.5, 1.0, 1.0), (2.7, 1.5, 1.3), (8.0, 0.3, 2.0)])
def test_rho_is_the_renyi_divergence_of_two_gaussians_over_the_order(omega, shift, sd):
    """*Many answers at once*: D_ω(N(Δ, σ²) || N(0, σ²)) = ω Δ²/(2σ²), by numerical integration of
    p^ω p'^(1-ω) (d = 1), and ρ = Δ²/(2σ²) is that divergence over ω (zCDP's definition)."""
    from scipy import integrate

    def integrand(z):
        log_ratio_power = (-omega * (z - shift) ** 2 - (1 - omega) * z ** 2) / (2 * sd ** 2)
        return np.exp(log_ratio_power) / (math.sqrt(2 * math.pi) * sd)
    divergence = math.log(integrate.quad(integrand, -60, 60)[0]) / (omega - 1)
    assert math.isclose(divergence, omega * shift ** 2 / (2 * sd ** 2), rel_tol=1e-8)
    assert math.isclose(m.gaussian_rho(sd, shift) * omega, divergence, rel_tol=1e-8)
