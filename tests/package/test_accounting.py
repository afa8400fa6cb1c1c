"""Composition and exact accounting (``dpsens.accounting``, ``dpsens.pld``) against independent oracles.

* the optimal composition of k ε-DP mechanisms against exact rational
  arithmetic (ε = ln 2 and ln 3/2, where e^ε is rational) up to k = 1000, and
  against the hockey-stick divergence of the k-fold randomised response
  summed outcome by outcome;
* Rényi divergences of Laplace and Gaussian noise against numerical
  quadrature; RDP accounting against Google's ``dp_accounting`` (its
  ``RdpAccountant``, same orders, same conversion);
* the exact Gaussian composition against a bisection of the analytic
  Gaussian condition written out here, and against ``dp_accounting``'s PLD;
* the Laplace PLD bracket against the closed form for one release, a
  quadrature for two, and ``dp_accounting``'s PLD accountant (its pessimistic
  estimate is an upper bound, its optimistic one a lower bound, so both
  brackets must overlap) for k from 1 to 1000 and several scales;
* bad input.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from scipy import integrate

from dpsens import accounting as A
from dpsens import pld
from dpsens.mechanisms import gaussian as G

dp_accounting = pytest.importorskip("dp_accounting")
from dp_accounting.pld import privacy_loss_distribution as dpa_pld  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant as dpa_rdp  # noqa: E402


# ---------------------------------------------------------------- optimal composition (Kairouz et al.)
def _kov_rational(e_eps: Fraction, k: int, i: int) -> Fraction:
    """δ at ε_total = (k - 2i) ε, exactly, for e^ε = e_eps rational."""
    return sum(math.comb(k, j) * (e_eps ** (k - j) - e_eps ** (k - 2 * i) * e_eps ** j)
               for j in range(i)) / (1 + e_eps) ** k


@pytest.mark.parametrize("e_eps", [Fraction(2), Fraction(3, 2)])
@pytest.mark.parametrize("k", [1, 2, 5, 30, 1000])
def test_optimal_delta_is_the_rational_one(e_eps, k):
    eps = math.log(e_eps)
    for i in sorted({0, 1, 2, k // 4, k // 2} & set(range(0, k // 2 + 1))):
        exact = float(_kov_rational(e_eps, k, i))
        got = A.optimal_composition_delta(eps, k, (k - 2 * i) * eps)
        assert math.isclose(got, exact, rel_tol=1e-9, abs_tol=1e-300), (k, i)


@pytest.mark.parametrize("k", [1, 2, 3, 6, 9])
def test_optimal_delta_is_the_hockey_stick_of_randomised_response(k):
    """Outcome by outcome: the k-fold randomised response, max(P(o) - e^{ε'} Q(o), 0) summed."""
    eps = 0.7
    p = {0: math.exp(eps) / (1 + math.exp(eps)), 1: 1 / (1 + math.exp(eps))}
    for eps_total in (0.0, 0.3, 1.1, 2.5, 4.0):
        delta = 0.0
        for o in itertools.product((0, 1), repeat=k):
            po = math.prod(p[b] for b in o)
            qo = math.prod(p[1 - b] for b in o)
            delta += max(po - math.exp(eps_total) * qo, 0.0)
        assert math.isclose(A.optimal_composition_delta(eps, k, eps_total), delta, rel_tol=1e-10, abs_tol=1e-15)


def test_optimal_epsilon_inverts_delta_and_has_the_one_release_closed_form():
    for eps, k in ((0.1, 100), (0.5, 10), (1.0, 1000), (0.01, 1000), (2.0, 3)):
        for delta in (1e-3, 1e-6, 1e-10):
            e = A.optimal_composition_epsilon(eps, k, delta)
            if e > 0:
                # δ(ε') = A - e^{ε'} B cancels near ε' = kε: compare with a tolerance that allows it
                assert math.isclose(A.optimal_composition_delta(eps, k, e), delta, rel_tol=1e-5)
            assert e <= k * eps
            assert e <= A.advanced_composition(eps, k, delta)[0]
    # k = 1: δ(ε') = (e^ε - e^ε')/(1 + e^ε), so ε' = ln(e^ε - δ(1 + e^ε))
    for eps, delta in ((1.0, 1e-6), (0.3, 0.01)):
        assert math.isclose(A.optimal_composition_epsilon(eps, 1, delta),
                            math.log(math.exp(eps) - delta * (1 + math.exp(eps))), rel_tol=1e-12)


def test_advanced_composition_formula():
    eps, k, dp = 0.05, 400, 1e-5
    assert A.advanced_composition(eps, k, dp, 1e-7) == pytest.approx(
        (math.sqrt(2 * k * math.log(1e5)) * eps + k * eps * (math.exp(eps) - 1), k * 1e-7 + dp), rel=1e-12)


# ---------------------------------------------------------------- Rényi DP
def _renyi_quadrature(logpdf_p, logpdf_q, order, lo, hi):
    f = lambda z: math.exp(order * logpdf_p(z) + (1 - order) * logpdf_q(z))       # noqa: E731
    pts = [0.0, 1.0]
    val = integrate.quad(f, lo, hi, points=pts, limit=400, epsabs=0, epsrel=1e-12)[0]
    return math.log(val) / (order - 1)


@pytest.mark.parametrize("order", [1.5, 2.0, 5.0, 20.0])
@pytest.mark.parametrize("b", [0.5, 1.0, 4.0])
def test_laplace_rdp_is_the_renyi_divergence(order, b):
    lp = lambda z: -abs(z) / b - math.log(2 * b)          # noqa: E731
    lq = lambda z: -abs(z - 1) / b - math.log(2 * b)      # noqa: E731
    expected = _renyi_quadrature(lp, lq, order, -80 * b, 80 * b)
    assert math.isclose(A.laplace_rdp(b, 1.0, order), expected, rel_tol=1e-7)
    assert math.isclose(A.laplace_rdp(2 * b, 2.0, order), expected, rel_tol=1e-12)     # only Δ/b matters


@pytest.mark.parametrize("order", [1.5, 3.0, 12.0])
def test_gaussian_rdp_is_the_renyi_divergence(order):
    s = 2.0
    lp = lambda z: -z ** 2 / (2 * s ** 2)                 # noqa: E731
    lq = lambda z: -(z - 1) ** 2 / (2 * s ** 2)           # noqa: E731
    norm = math.log(math.sqrt(2 * math.pi) * s)
    expected = _renyi_quadrature(lambda z: lp(z) - norm, lambda z: lq(z) - norm, order, -80, 80)
    assert math.isclose(A.gaussian_rdp(s, 1.0, order), expected, rel_tol=1e-8)


@pytest.mark.parametrize("k", [1, 10, 100, 1000])
@pytest.mark.parametrize("noise", [0.5, 2.0, 10.0, 50.0])
def test_rdp_accounting_matches_dp_accounting(k, noise):
    orders = dpa_rdp.DEFAULT_RDP_ORDERS
    for event, kw in ((dp_accounting.LaplaceDpEvent(noise), {"laplace": [(noise, 1.0)] * k}),
                      (dp_accounting.GaussianDpEvent(noise), {"gaussian": [(noise, 1.0)] * k})):
        acc = dpa_rdp.RdpAccountant(orders)
        acc.compose(event, k)
        for delta in (1e-5, 1e-8):
            ours, _ = A.rdp_epsilon(delta, orders=orders, **kw)
            assert math.isclose(ours, acc.get_epsilon(delta), rel_tol=1e-9, abs_tol=1e-12), (event, delta)
            # over every order the bound can only improve
            assert A.rdp_epsilon(delta, **kw)[0] <= ours + 1e-12


def test_the_conversions_are_the_papers_statements():
    """At one order the two conversions are, solved for δ: Mironov (2017), Proposition 3, δ = e^{(ω−1)(R−ε)};
    Canonne, Kamath and Steinke (2020), Proposition 12 (arXiv v4), δ = e^{(ω−1)(R−ε)} (1 − 1/ω)^ω / (ω − 1)."""
    for sigma, order, delta in ((3.0, 2.0, 1e-5), (10.0, 24.0, 1e-6), (1.0, 1.5, 0.01), (0.5, 7.0, 1e-9)):
        rdp = order / (2 * sigma ** 2)
        std, _ = A.rdp_epsilon(delta, gaussian=[(sigma, 1.0)], orders=[order], conversion="standard")
        imp, _ = A.rdp_epsilon(delta, gaussian=[(sigma, 1.0)], orders=[order])
        assert std > 0 and imp > 0
        assert math.isclose(math.exp((order - 1) * (rdp - std)), delta, rel_tol=1e-9)
        cks = math.exp((order - 1) * (rdp - imp)) * (1 - 1 / order) ** order / (order - 1)
        assert math.isclose(cks, delta, rel_tol=1e-9)


def test_zcdp_improved_conversion():
    for rho, delta in ((0.02, 1e-6), (0.5, 1e-5), (3.0, 1e-9)):
        improved = A.zcdp_epsilon_improved(rho, delta)
        assert improved < G.zcdp_to_dp(rho, delta)
        sigma = math.sqrt(1 / (2 * rho))
        assert math.isclose(improved, A.rdp_epsilon(delta, gaussian=[(sigma, 1.0)])[0], rel_tol=1e-8)
        # the standard conversion minimised over every order is ρ + 2√(ρ ln 1/δ) (the minimum is at ω = 1 + √(ln(1/δ)/ρ))
        assert math.isclose(A.rdp_epsilon(delta, gaussian=[(sigma, 1.0)], conversion="standard")[0],
                            G.zcdp_to_dp(rho, delta), rel_tol=1e-8)


# ---------------------------------------------------------------- exact Gaussian composition
def _analytic_gaussian_eps(nu: float, delta: float) -> float:
    """Bisection on Φ(ν/2 - ε/ν) - e^ε Φ(-ν/2 - ε/ν) = δ (Balle and Wang 2018), in mpmath at 40 digits."""
    mp = pytest.importorskip("mpmath")
    with mp.workdps(40):
        nu_m = mp.mpf(nu)
        dlt = lambda e: mp.ncdf(nu_m / 2 - e / nu_m) - mp.exp(e) * mp.ncdf(-nu_m / 2 - e / nu_m)   # noqa: E731
        lo, hi = mp.mpf(0), mp.mpf(10 + nu ** 2 + 10 * nu)
        for _ in range(120):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if dlt(mid) > delta else (lo, mid)
        return float(hi)


def test_the_running_example():
    """Four Gaussian releases, σ = 10, Δ₂ = 1, δ = 1e-6 (issue 33): 0.8341 exact, 0.900 RDP, 1.071 zCDP, 1.711 basic."""
    four = [(10.0, 1.0)] * 4
    assert round(A.gaussian_composition_epsilon(1e-6, four), 4) == 0.8341
    assert round(A.rdp_epsilon(1e-6, gaussian=four, orders=dpa_rdp.DEFAULT_RDP_ORDERS)[0], 3) == 0.900
    assert round(G.zcdp_to_dp(4 * G.gaussian_rho(10.0, 1.0), 1e-6), 3) == 1.071
    assert round(4 * G.gaussian_epsilon(10.0, 1.0, 1e-6 / 4), 3) == 1.711


@pytest.mark.parametrize("k", [1, 4, 30, 1000])
@pytest.mark.parametrize("sigma", [1.0, 10.0, 100.0])
def test_gaussian_composition_is_exact(k, sigma):
    for delta in (1e-5, 1e-8):
        got = A.gaussian_composition_epsilon(delta, [(sigma, 1.0)] * k)
        assert math.isclose(got, _analytic_gaussian_eps(math.sqrt(k) / sigma, delta), rel_tol=1e-9, abs_tol=1e-12)
        grid = 1e-3 if sigma < 10 else 1e-4         # a finer grid at σ = 1 costs seconds and changes nothing here
        ref = dpa_pld.from_gaussian_mechanism(sigma, value_discretization_interval=grid).self_compose(k)
        assert got <= ref.get_epsilon_for_delta(delta) + 1e-12              # dp_accounting's is an upper bound
        assert math.isclose(got, ref.get_epsilon_for_delta(delta), rel_tol=2e-3, abs_tol=1e-3)


def _analytic_gaussian_delta(nu: float, eps: float) -> float:
    """δ(ε) of one Gaussian release with Δ₂/σ = ν (Balle and Wang 2018), in mpmath at 40 digits."""
    mp = pytest.importorskip("mpmath")
    with mp.workdps(40):
        nu_m, e = mp.mpf(nu), mp.mpf(eps)
        return float(mp.ncdf(nu_m / 2 - e / nu_m) - mp.exp(e) * mp.ncdf(-nu_m / 2 - e / nu_m))


def test_the_chapters_group_table_and_the_delta_of_a_group():
    """The chapter's group section: one Gaussian release, σ = 10, Δ₂ = 1, δ = 1e-6.  A group of k moves the
    query by k (exact ε 0.3969, 0.8341, 1.7656, 3.7974 for k = 1, 2, 4, 8), k releases compose into
    ν = √k/10 (0.3969, 0.5751, 0.8341, 1.2120); and the (ε, δ) group bound of the chain,
    (kε, δ Σ_{j<k} e^{jε}) <= (kε, k e^{(k-1)ε} δ), holds for the exact δ of the group."""
    group = {1: 0.3969, 2: 0.8341, 4: 1.7656, 8: 3.7974}
    releases = {1: 0.3969, 2: 0.5751, 4: 0.8341, 8: 1.2120}
    eps_one = _analytic_gaussian_eps(0.1, 1e-6)
    for k in group:
        assert round(G.gaussian_epsilon(10.0, float(k), 1e-6), 4) == group[k]
        assert round(_analytic_gaussian_eps(k / 10, 1e-6), 4) == group[k]
        assert round(A.gaussian_composition_epsilon(1e-6, [(10.0, 1.0)] * k), 4) == releases[k]
        exact_delta = _analytic_gaussian_delta(k / 10, k * eps_one)
        assert math.isclose(G.gaussian_delta(10.0, float(k), k * eps_one), exact_delta, rel_tol=1e-6, abs_tol=1e-15)
        chain = 1e-6 * sum(math.exp(j * eps_one) for j in range(k))
        assert exact_delta <= chain * (1 + 1e-9) and chain <= k * math.exp((k - 1) * eps_one) * 1e-6 * (1 + 1e-12)
        if k > 1:
            assert exact_delta > k * 1e-6        # the group pays more δ than k releases would


def test_mixed_sigmas_compose_as_a_root_sum_of_squares():
    mixed = [(2.0, 1.0), (5.0, 3.0), (10.0, 0.5)]
    nu = math.sqrt(sum((s / n) ** 2 for n, s in mixed))
    assert math.isclose(A.gaussian_composition_epsilon(1e-6, mixed), _analytic_gaussian_eps(nu, 1e-6), rel_tol=1e-9)


# ---------------------------------------------------------------- Laplace PLD
def _laplace_delta_one(t: float, a: float) -> float:
    """The exact δ(t) of one Laplace release with a = Δ/b, for any real t (derived in the chapter)."""
    if t >= a:
        return 0.0
    if t >= -a:
        return -math.expm1((t - a) / 2)
    return -math.expm1(t)


def _laplace_delta_two(eps: float, a: float) -> float:
    """δ(ε) of two releases: E over the first loss L of δ_one(ε - L), atoms and density by quadrature."""
    atoms = 0.5 * _laplace_delta_one(eps - a, a) + 0.5 * math.exp(-a) * _laplace_delta_one(eps + a, a)
    def dens(loss):
        return 0.25 * math.exp(-a / 2 + loss / 2) * _laplace_delta_one(eps - loss, a)
    cuts = sorted({x for x in (eps - a, eps + a, 0.0) if -a < x < a})
    return atoms + integrate.quad(dens, -a, a, points=cuts or None, epsabs=1e-15, epsrel=1e-12, limit=200)[0]


@pytest.mark.parametrize("a", [0.1, 1.0, 2.5])
def test_pld_brackets_one_and_two_releases(a):
    for eps in (0.0, 0.05, 0.4, 1.3, 3.0):
        one = pld.pld_delta(eps, laplace=[(1.0 / a, 1.0)], interval=a / 200)
        assert one.lower - 1e-12 <= _laplace_delta_one(eps, a) <= one.upper + 1e-12
        assert one.upper - one.lower <= 0.01 * a + 1e-12
        two = pld.pld_delta(eps, laplace=[(2.0 / a, 2.0)] * 2, interval=a / 200)
        exact = _laplace_delta_two(eps, a)
        assert two.lower - 1e-10 <= exact <= two.upper + 1e-10, (eps, two, exact)


@pytest.mark.parametrize("k", [1, 7, 60, 400, 1000])
@pytest.mark.parametrize("scale", [1.0, 10.0, 100.0])
def test_laplace_pld_brackets_overlap_dp_accounting(k, scale):
    """Both accountants bracket the exact ε: dp_accounting's optimistic estimate is a lower bound and its
    pessimistic one an upper bound (its documented guarantee); ours must overlap them."""
    delta = 1e-6
    ours = pld.pld_epsilon(delta, laplace=[(scale, 1.0)] * k)
    assert ours.lower <= ours.upper <= ours.lower * (1 + 1e-3) + 1e-12
    up = dpa_pld.from_laplace_mechanism(scale, value_discretization_interval=1e-3).self_compose(k)
    down = dpa_pld.from_laplace_mechanism(scale, value_discretization_interval=1e-3,
                                          pessimistic_estimate=False).self_compose(k)
    assert ours.lower <= up.get_epsilon_for_delta(delta) + 1e-9
    assert down.get_epsilon_for_delta(delta) <= ours.upper + 1e-9


def test_pld_of_gaussians_brackets_the_exact_value_and_a_mixture_matches_dp_accounting():
    four = [(10.0, 1.0)] * 4
    b = pld.pld_epsilon(1e-6, gaussian=four)
    assert b.lower <= A.gaussian_composition_epsilon(1e-6, four) <= b.upper
    mix = pld.pld_epsilon(1e-6, laplace=[(10.0, 1.0)] * 3, gaussian=four)
    ref = dpa_pld.from_laplace_mechanism(10.0, value_discretization_interval=1e-4).self_compose(3).compose(
        dpa_pld.from_gaussian_mechanism(5.0, value_discretization_interval=1e-4))     # four σ = 10 = one σ = 5
    assert mix.lower <= ref.get_epsilon_for_delta(1e-6) <= mix.upper * (1 + 1e-3)


def test_pld_is_below_the_bounds_it_should_beat():
    for scale, k in ((10.0, 100), (2.0, 30)):
        eps = 1.0 / scale
        exact = pld.pld_epsilon(1e-6, laplace=[(scale, 1.0)] * k)
        assert exact.upper <= A.optimal_composition_epsilon(eps, k, 1e-6) + 1e-9   # Laplace is one ε-DP mechanism
        assert exact.upper <= A.rdp_epsilon(1e-6, laplace=[(scale, 1.0)] * k)[0]


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("call", [
    lambda: A.advanced_composition(0.0, 10, 1e-6),
    lambda: A.advanced_composition(-1.0, 10, 1e-6),
    lambda: A.advanced_composition(0.1, 0, 1e-6),
    lambda: A.advanced_composition(0.1, 10, 1.0),
    lambda: A.optimal_composition_epsilon(0.1, 10, 0.0),
    lambda: A.optimal_composition_epsilon(0.1, 0, 1e-6),
    lambda: A.optimal_composition_delta(0.1, 5, -1.0),
    lambda: A.rdp_epsilon(1e-6, laplace=[(1.0, math.inf)]),
    lambda: A.rdp_epsilon(1e-6, gaussian=[(0.0, 1.0)]),
    lambda: A.rdp_epsilon(1e-6),
    lambda: A.rdp_epsilon(1e-6, laplace=[(1.0, 1.0)], conversion="best"),
    lambda: A.laplace_rdp(1.0, 1.0, 1.0),
    lambda: A.gaussian_composition_epsilon(2.0, [(1.0, 1.0)]),
    lambda: A.gaussian_composition_epsilon(1e-6, [(1.0, math.inf)]),
    lambda: pld.pld_epsilon(1e-6, laplace=[(1.0, math.inf)]),
    lambda: pld.pld_epsilon(0.0, laplace=[(1.0, 1.0)]),
    lambda: pld.pld_epsilon(1e-6, laplace=[1.0]),
    lambda: pld.pld_delta(-0.5, laplace=[(1.0, 1.0)]),
])
def test_bad_input_is_refused_with_a_clear_error(call):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert len(str(info.value)) > 20


def test_infinite_sensitivity_message_says_why():
    with pytest.raises(ValueError, match="infinite"):
        pld.pld_epsilon(1e-6, laplace=[(1.0, math.inf)])


# ---------------------------------------------------------------- the chapter's table and figure
def test_compare_accountants_orders_the_methods():
    lap = pld.compare_accountants("laplace", 10.0, 1e-6, [1, 30, 300], rtol=1e-2)
    assert list(lap.columns) == list(pld.ACCOUNTANTS)
    assert (lap["exact"] <= lap["optimal (KOV)"] * (1 + 1e-2)).all()
    assert (lap["optimal (KOV)"] <= lap["basic"] + 1e-12).all() and (lap["exact"] <= lap["RDP"] * (1 + 1e-2)).all()
    gau = pld.compare_accountants("gaussian", 10.0, 1e-6, [1, 4, 100])
    assert gau["optimal (KOV)"].isna().all()
    assert (gau["exact"] < gau["RDP"]).all() and (gau["RDP"] <= gau["zCDP"] + 1e-12).all()
    assert math.isclose(gau.loc[4, "exact"], A.gaussian_composition_epsilon(1e-6, [(10.0, 1.0)] * 4))
    with pytest.raises(ValueError, match="mechanism"):
        pld.compare_accountants("cauchy", 10.0, 1e-6, [1])
    with pytest.raises(ValueError, match="releases"):
        pld.compare_accountants("laplace", 10.0, 1e-6, [0])


def test_the_figure_has_title_labels_and_legend():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from dpsens.figures.composition import plot_accountants, release_counts

    assert release_counts(1000)[0] == 1 and release_counts(1000)[-1] == 1000
    fig = plot_accountants("gaussian", 10.0, 1e-6, max_releases=100)
    ax = fig.axes[0]
    assert "J" in ax.get_xlabel() and "ε" in ax.get_ylabel() and ax.get_title()
    assert fig.legends or ax.get_legend()
    assert fig.get_figwidth() <= 5.0
    plt.close(fig)


def test_pld_epsilon_of_one_laplace_release_brackets_its_closed_form():
    """*Composing releases*: one Laplace release with b = 10 and sensitivity 1 (a = 0.1) has δ(ε) = 1 - e^{(ε - a)/2}
    for ε <= a, so at δ = 1e-6 its ε is a + 2 ln(1 - δ); the PLD's bracket holds it."""
    one = pld.pld_epsilon(1e-6, laplace=[(10.0, 1.0)])
    assert one.lower <= 0.1 + 2 * math.log1p(-1e-6) <= one.upper
    assert math.isclose(_laplace_delta_one(0.1 + 2 * math.log1p(-1e-6), 0.1), 1e-6, rel_tol=1e-6)
