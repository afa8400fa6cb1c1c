"""Tests for dpsens.mechanisms: distributions checked statistically with fixed seeds,
exact numbers from the literature / independent computations, validation errors, determinism."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from dpsens import mechanisms as m
from dpsens._validate import check_rng

N_AGES = 32561
DELTA_AGES = 1 / N_AGES**2


def rng(seed=0):
    return np.random.default_rng(seed)


def binomial_ok(successes, trials, p, z=4.5):
    """True if successes/trials is within z standard errors of p."""
    sd = math.sqrt(trials * p * (1 - p))
    return abs(successes - trials * p) <= z * sd + 1


# ---------------------------------------------------------------------------- rng and validation

@pytest.mark.parametrize("bad", [0, 42, None, np.random.RandomState(0), np.random, "seed"])
def test_rng_must_be_generator(bad):
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        m.laplace_mechanism(0.0, 1.0, 1.0, bad)
    with pytest.raises(TypeError, match="default_rng"):
        check_rng(bad)


@pytest.mark.parametrize("eps", [0, -1.0, float("nan"), float("inf")])
def test_epsilon_must_be_positive(eps):
    with pytest.raises(ValueError, match="epsilon"):
        m.laplace_mechanism(0.0, 1.0, eps, rng())
    with pytest.raises(ValueError, match="epsilon"):
        m.gaussian_mechanism(0.0, 1.0, eps, 1e-5, rng())
    with pytest.raises(ValueError, match="epsilon"):
        m.ptr_threshold(eps, 1e-5)
    with pytest.raises(ValueError, match="epsilon"):
        m.sample_and_aggregate(np.ones(10), "mean", 2, 0, 1, eps, rng())


@pytest.mark.parametrize("delta", [0, 1, 1.5, -0.1])
def test_delta_must_be_in_unit_interval(delta):
    with pytest.raises(ValueError, match="delta"):
        m.gaussian_sigma(1.0, 0.5, delta)
    with pytest.raises(ValueError, match="delta"):
        m.ptr_from_distance(1.0, 5, 1.0, 1.0, delta, rng())
    with pytest.raises(ValueError, match="delta"):
        m.smooth_sensitivity_beta(1.0, delta)


def test_other_validation_errors():
    with pytest.raises(ValueError, match="sensitivity"):
        m.laplace_mechanism(0.0, -1.0, 1.0, rng())
    with pytest.raises(TypeError, match="value"):
        m.laplace_mechanism("3", 1.0, 1.0, rng())
    with pytest.raises(TypeError, match="epsilon"):
        m.laplace_mechanism(0.0, 1.0, "1", rng())
    with pytest.raises(ValueError, match="lower must be <= upper"):
        m.sample_and_aggregate(np.ones(10), "mean", 2, 5, 1, 1.0, rng())
    with pytest.raises(ValueError, match="n_chunks"):
        m.sample_and_aggregate(np.ones(10), "mean", 11, 0, 1, 1.0, rng())
    with pytest.raises(ValueError, match="n_chunks"):
        m.sample_and_aggregate(np.ones(10), "mean", 0, 0, 1, 1.0, rng())
    with pytest.raises(TypeError, match="n_chunks"):
        m.sample_and_aggregate(np.ones(10), "mean", 2.5, 0, 1, 1.0, rng())
    with pytest.raises(ValueError, match="distance"):
        m.ptr_from_distance(1.0, -1, 1.0, 1.0, 1e-3, rng())
    with pytest.raises(ValueError, match="bound"):
        m.ptr_from_distance(1.0, 3, 0.0, 1.0, 1e-3, rng())
    with pytest.raises(ValueError, match="threshold"):
        m.ptr_threshold(1.0, 1e-3, "nonsense")
    with pytest.raises(ValueError, match="gamma"):
        m.heavy_tailed.sample_polynomial_tail(rng(), gamma=1.0)
    with pytest.raises(ValueError, match="noise"):
        m.smooth_sensitivity_beta(1.0, 1e-3, noise="gauss")
    with pytest.raises(ValueError, match="heavy-tailed"):     # the name of the gamma = 4 noise (not Cauchy's gamma = 2)
        m.smooth_sensitivity_mechanism([1.0, 2.0], "median", 1.0, None, 0, 3, rng(), noise="cauchy")
    with pytest.raises(ValueError, match="delta is required"):
        m.smooth_sensitivity_beta(1.0, None, noise="laplace")
    with pytest.raises(ValueError, match="method"):
        m.gaussian_sigma(1.0, 0.5, 1e-5, method="exact")
    with pytest.raises(ValueError, match="local_sensitivity"):
        m.local_sensitivity_laplace(1.0, -0.5, 1.0, rng())


# ---------------------------------------------------------------------------- Laplace

def test_laplace_scale():
    assert m.laplace_noise_scale(100, 0.5) == 200.0
    assert m.laplace_noise_scale(0, 2.0) == 0.0


def test_laplace_distribution_ks_and_power():
    draws = m.laplace_mechanism(3.0, 2.0, 0.5, rng(1), size=20_000)
    assert draws.shape == (20_000,)
    assert stats.kstest(draws, stats.laplace(loc=3.0, scale=4.0).cdf).pvalue > 0.01
    # the same test has the power to see a 10 % error in the scale
    assert stats.kstest(draws, stats.laplace(loc=3.0, scale=4.4).cdf).pvalue < 1e-3
    # mean absolute deviation of Laplace(b) is b; its sd is b, so the tolerance is 5 b / sqrt(n)
    mad = np.mean(np.abs(draws - 3.0))
    assert abs(mad - 4.0) < 5 * 4.0 / math.sqrt(draws.size)


def test_laplace_deterministic_and_array_values():
    a = m.laplace_mechanism(np.array([1.0, 2.0, 3.0]), 1.0, 1.0, rng(7))
    b = m.laplace_mechanism(np.array([1.0, 2.0, 3.0]), 1.0, 1.0, rng(7))
    assert a.shape == (3,) and np.array_equal(a, b)
    assert len(set(np.round(a - [1, 2, 3], 12))) == 3      # independent noise per entry
    assert isinstance(m.laplace_mechanism(1.0, 1.0, 1.0, rng(7)), float)
    assert m.laplace_mechanism(1.0, 1.0, 1.0, rng(7)) != m.laplace_mechanism(1.0, 1.0, 1.0, rng(8))
    assert m.laplace_mechanism(5.0, 0.0, 1.0, rng(7)) == 5.0


# ---------------------------------------------------------------------------- Gaussian

def test_gaussian_classic_sigma_and_refusal():
    # Dwork & Roth Thm A.1 by hand: sqrt(2 ln(1.25e5)) * 2 / 0.5
    assert m.gaussian_sigma(2.0, 0.5, 1e-5) == pytest.approx(4 * math.sqrt(2 * math.log(125000)), rel=1e-12)
    with pytest.raises(ValueError, match="analytic"):
        m.gaussian_sigma(1.0, 1.0, 1e-5)
    with pytest.raises(ValueError, match="analytic"):
        m.gaussian_mechanism(0.0, 1.0, 2.0, 1e-5, rng())


def hockey_stick(sigma, sens, eps):
    """delta(eps) = int max(0, p(x) - e^eps q(x)) dx for p = N(0, s^2), q = N(sens, s^2), by quadrature."""
    p, q = stats.norm(0, sigma), stats.norm(sens, sigma)
    # p > e^eps q exactly for x < sens/2 - eps sigma^2/sens
    cut = sens / 2 - eps * sigma**2 / sens
    val, _ = integrate.quad(lambda x: p.pdf(x) - math.exp(eps) * q.pdf(x), -np.inf, cut, epsabs=1e-15, epsrel=1e-10)
    return val


@pytest.mark.parametrize("eps,delta", [(0.5, 1e-5), (1.0, 1e-5), (3.0, 1e-6), (8.0, 1e-3)])
def test_gaussian_analytic_matches_numerical_privacy_profile(eps, delta):
    sigma = m.gaussian_sigma(1.0, eps, delta, method="analytic")
    assert hockey_stick(sigma, 1.0, eps) == pytest.approx(delta, rel=1e-6)
    assert hockey_stick(0.99 * sigma, 1.0, eps) > delta          # no smaller sigma would do
    assert m.gaussian_delta(sigma, 1.0, eps) == pytest.approx(delta, rel=1e-8)
    if eps < 1:
        assert sigma < m.gaussian_sigma(1.0, eps, delta, method="classic")
    # scales linearly in the sensitivity
    assert m.gaussian_sigma(3.0, eps, delta, method="analytic") == pytest.approx(3 * sigma, rel=1e-9)


def test_gaussian_classic_is_private_by_the_exact_profile():
    for eps in (0.1, 0.5, 0.9):
        sigma = m.gaussian_sigma(1.0, eps, 1e-5)
        assert hockey_stick(sigma, 1.0, eps) <= 1e-5


def test_gaussian_distribution():
    sigma = m.gaussian_sigma(1.0, 2.0, 1e-4, method="analytic")
    draws = m.gaussian_mechanism(10.0, 1.0, 2.0, 1e-4, rng(3), size=20_000, method="analytic")
    assert stats.kstest(draws, stats.norm(10.0, sigma).cdf).pvalue > 0.01
    assert stats.kstest(draws, stats.norm(10.0, 1.1 * sigma).cdf).pvalue < 1e-3
    again = m.gaussian_mechanism(10.0, 1.0, 2.0, 1e-4, rng(3), size=20_000, method="analytic")
    assert np.array_equal(draws, again)


@pytest.mark.parametrize("method,eps", [("classic", 0.5), ("analytic", 0.5), ("analytic", 3.0)])
def test_sensitivity_zero_needs_no_noise_laplace_and_gaussian_alike(method, eps):
    """A constant query (sensitivity 0) is released unchanged by both mechanisms; a negative one is refused."""
    assert m.laplace_noise_scale(0, eps) == 0.0
    assert m.gaussian_sigma(0, eps, 1e-5, method=method) == 0.0
    assert m.gaussian_delta(1.0, 0.0, eps) == 0.0
    assert m.laplace_mechanism(5.0, 0, eps, rng(7)) == 5.0
    assert m.gaussian_mechanism(5.0, 0, eps, 1e-5, rng(7), method=method) == 5.0
    assert np.array_equal(m.gaussian_mechanism(np.array([1.0, 2.0]), 0.0, eps, 1e-5, rng(7), method=method),
                          [1.0, 2.0])
    assert np.array_equal(m.gaussian_mechanism(5.0, 0.0, eps, 1e-5, rng(7), size=3, method=method), [5.0] * 3)
    for mechanism in (lambda s: m.laplace_mechanism(5.0, s, eps, rng()),
                      lambda s: m.gaussian_mechanism(5.0, s, eps, 1e-5, rng(), method=method)):
        with pytest.raises(ValueError, match="sensitivity"):
            mechanism(-1.0)
        with pytest.raises(ValueError, match="sensitivity"):
            mechanism(float("nan"))
        with pytest.raises(TypeError, match="sensitivity"):
            mechanism("1")
    # the classic calibration still refuses epsilon >= 1, whatever the sensitivity
    with pytest.raises(ValueError, match="analytic"):
        m.gaussian_mechanism(0.0, 0.0, 2.0, 1e-5, rng())


# ---------------------------------------------------------------------------- heavy-tailed noise

@pytest.mark.parametrize("gamma", [1.5, 2.0, 4.0, 6.0])
def test_polynomial_tail_pdf_and_cdf_against_quadrature(gamma):
    raw = lambda z: 1 / (1 + abs(z) ** gamma)  # noqa: E731
    total = 2 * integrate.quad(raw, 0, np.inf)[0]
    assert integrate.quad(lambda z: m.heavy_tailed.polynomial_tail_pdf(z, gamma), -np.inf, np.inf)[0] == pytest.approx(1, rel=1e-7)
    for z in (-7.5, -1.0, -0.2, 0.0, 0.3, 1.0, 2.5, 40.0):
        numeric = 0.5 + math.copysign(integrate.quad(raw, 0, abs(z))[0], z) / total
        assert m.heavy_tailed.polynomial_tail_cdf(z, gamma) == pytest.approx(numeric, abs=1e-8)


@pytest.mark.parametrize("gamma,seed", [(4.0, 11), (2.0, 12), (3.0, 13)])
def test_polynomial_tail_sampler_ks(gamma, seed):
    draws = m.heavy_tailed.sample_polynomial_tail(rng(seed), gamma, size=20_000)
    assert stats.kstest(draws, lambda z: m.heavy_tailed.polynomial_tail_cdf(z, gamma)).pvalue > 0.01
    if gamma == 2.0:
        assert stats.kstest(draws, stats.cauchy.cdf).pvalue > 0.01
    # power: a Laplace or a Cauchy of the same median absolute value is rejected for gamma = 4
    if gamma == 4.0:
        assert stats.kstest(draws, stats.cauchy.cdf).pvalue < 1e-3
        # exact tail probability P(|Z| > 2) vs. the sample
        p = 2 * (1 - m.heavy_tailed.polynomial_tail_cdf(2.0, 4.0))
        assert binomial_ok(int(np.sum(np.abs(draws) > 2)), draws.size, p)


def test_gamma_four_has_unit_variance():
    var = integrate.quad(lambda z: z * z * m.heavy_tailed.polynomial_tail_pdf(z, 4.0), -np.inf, np.inf)[0]
    assert var == pytest.approx(1.0, rel=1e-7)


def test_heavy_tailed_constants_are_admissible():
    """NRS07: sliding by |Delta| <= alpha and dilation by e^lambda, |lambda| <= beta, each change
    the log-density by at most eps/2 (pointwise, which implies the set-wise conditions with delta = 0)."""
    eps = 1.0
    z = np.linspace(-200, 200, 400_001)
    for gamma in (2.0, 4.0, 6.0):
        alpha, beta = m.heavy_tailed_constants(eps, gamma)
        assert alpha == beta == pytest.approx(eps / (2 * (gamma + 1)))
        logh = np.log(m.heavy_tailed.polynomial_tail_pdf(z, gamma))
        for d in np.linspace(-alpha, alpha, 11):
            assert np.max(np.abs(logh - np.log(m.heavy_tailed.polynomial_tail_pdf(z + d, gamma)))) <= eps / 2 + 1e-12
        for lam in np.linspace(-beta, beta, 11):
            dil = lam + np.log(m.heavy_tailed.polynomial_tail_pdf(np.exp(lam) * z, gamma))
            assert np.max(np.abs(logh - dil)) <= eps / 2 + 1e-12
    # the dilation bound (gamma - 1)|lambda| <= eps/2 is tight: beta = eps/gamma fails it for gamma = 4
    logh = np.log(m.heavy_tailed.polynomial_tail_pdf(z, 4.0))
    lam = eps / 4
    assert np.max(np.abs(logh - lam - np.log(m.heavy_tailed.polynomial_tail_pdf(np.exp(lam) * z, 4.0)))) > eps / 2 + 0.2
    # gamma = 4: noise 10 S / eps, beta = eps / 10
    assert m.heavy_tailed_constants(2.0, 4.0) == pytest.approx((0.2, 0.2))
    assert m.smooth_sensitivity_beta(2.0, noise="heavy-tailed") == pytest.approx(0.2)


# ---------------------------------------------------------------------------- PTR

def test_ptr_thresholds_reproduce_source_and_correction():
    # the source prints "threshold is 10.73744412245554" for n = 32,561, eps = 1, delta = 1/n^2
    assert m.ptr_threshold(1.0, DELTA_AGES, "source") == pytest.approx(10.73744412245554, rel=1e-12)
    assert m.ptr_threshold(1.0, DELTA_AGES, "dwork-roth") == pytest.approx(4 * math.log(N_AGES) / 2 * 1, rel=1e-12)
    assert m.ptr_threshold(2.0, 0.01, "tight") == pytest.approx(math.log(50) / 2)
    # accidental pass at distance 0
    t_src = m.ptr_threshold(1.0, DELTA_AGES, "source")
    p_src = m.ptr_pass_probability(0, 1.0, t_src)
    assert p_src == pytest.approx(0.5 * math.sqrt(DELTA_AGES / 2), rel=1e-9)
    assert p_src > 10_000 * DELTA_AGES
    assert m.ptr_pass_probability(0, 1.0, m.ptr_threshold(1.0, DELTA_AGES)) == pytest.approx(DELTA_AGES / 2)
    assert m.ptr_pass_probability(0, 1.0, m.ptr_threshold(1.0, DELTA_AGES, "tight")) == pytest.approx(
        DELTA_AGES)
    assert m.ptr_pass_probability(10, 1.0, 10) == pytest.approx(0.5)
    assert m.ptr_pass_probability(12, 1.0, 10) == pytest.approx(1 - 0.5 * math.exp(-2))


@pytest.mark.parametrize("variant", ["source", "dwork-roth"])
def test_ptr_accidental_pass_rate_by_simulation(variant):
    eps, delta, trials = 1.0, 0.01, 40_000
    g = rng(5)
    passed = sum(m.ptr_from_distance(0.0, 0, 1.0, eps, delta, g, threshold=variant) is not None
                 for _ in range(trials))
    p = m.ptr_pass_probability(0, eps, m.ptr_threshold(eps, delta, variant))
    assert binomial_ok(passed, trials, p)
    if variant == "source":
        assert passed / trials > 3 * delta        # the source's test leaks far more than delta
    else:
        assert passed / trials <= delta


def test_ptr_release_distribution_and_determinism():
    g = rng(9)
    out = [m.ptr_from_distance(50.0, 1000, 0.5, 1.0, 1e-6, g) for _ in range(5000)]
    assert all(o is not None for o in out)
    assert stats.kstest(np.array(out), stats.laplace(50.0, 0.5).cdf).pvalue > 0.01
    d1 = m.ptr_from_distance(50.0, 12, 0.5, 1.0, 1e-6, rng(3), details=True)
    d2 = m.ptr_from_distance(50.0, 12, 0.5, 1.0, 1e-6, rng(3), details=True)
    assert d1 == d2
    assert d1["threshold"] == pytest.approx(math.log(1e6))
    assert d1["passed"] == (d1["noisy_distance"] >= d1["threshold"]) == (d1["released"] is not None)
    # a user-supplied numeric threshold
    assert m.ptr_from_distance(1.0, 100, 1.0, 1.0, 0.1, rng(1), threshold=0) is not None
    d3 = m.ptr_from_distance(1.0, 100, 1.0, 1.0, 0.1, rng(1), threshold=2.5, details=True)
    assert d3["threshold"] == 2.5


@pytest.mark.parametrize("threshold", ["dwork-roth", "tight", "source", 1e6])
@pytest.mark.parametrize("infinity", [math.inf, float("inf"), np.inf, np.float64("inf")])
def test_ptr_infinite_distance_always_answers_with_laplace_noise(threshold, infinity):
    """No dataset has local sensitivity above the bound: D = inf passes every test (chapter PTR), so
    PTR answers every time, with the release noise Lap(bound / eps) of the Laplace mechanism."""
    eps, delta, bound, value = 0.1, 1e-12, 2.5, 37.0      # a small eps and delta: a high threshold
    g = rng(21)
    runs = [m.ptr_from_distance(value, infinity, bound, eps, delta, g, threshold=threshold, details=True)
            for _ in range(3000)]
    assert all(r["passed"] and r["released"] is not None for r in runs)
    assert all(r["noisy_distance"] == math.inf and r["distance"] == math.inf for r in runs)
    released = np.array([r["released"] for r in runs])
    assert stats.kstest(released, stats.laplace(value, bound / eps).cdf).pvalue > 0.01
    # power: noise of a different scale is rejected
    assert stats.kstest(released, stats.laplace(value, 2 * bound / eps).cdf).pvalue < 1e-3


def test_ptr_infinite_distance_happens_exactly_when_the_bound_covers_the_global_sensitivity():
    """distance_to_high_ls is inf iff the bound is at least the largest local sensitivity of every
    dataset (brute force over a small domain), and then propose_test_release always answers."""
    smooth = _smooth()
    import dpsens as ds
    x = np.array([0.0, 1, 1, 2, 3])
    # the largest local sensitivity of the median of any dataset in [0, 3]: replacing one record moves
    # it by u - l = 3 (an odd n, the middle record from one end to the other); adding or removing one
    # moves numpy's median by at most (u - l) / 2 = 1.5 (one of the two middle records, then halved)
    worst = {"bounded": 3.0, "unbounded": 1.5}
    for relation in ("bounded", "unbounded"):
        gs = ds.global_sensitivity("median", ds.Domain(np.arange(0.0, 4.0)), len(x), neighbors=relation)
        assert gs <= worst[relation]
        for bound in (0.5, 1.0, 1.49, 1.5, 2.0, 2.99, 3.0, 4.0):
            dist = smooth.distance_to_high_ls(x, "median", bound, 0.0, 3.0, relation)
            assert (dist == math.inf) == (bound >= worst[relation]), (relation, bound, dist)
            if dist == math.inf:
                assert bound >= gs
                assert all(m.propose_test_release(x, "median", bound, 0.5, 1e-9, 0.0, 3.0, rng(s),
                                                  neighbors=relation) is not None for s in range(200))


@pytest.mark.parametrize("bad", [-5, -1e-9, -1e9, float("nan"), float("inf"), -float("inf")])
def test_ptr_numeric_threshold_must_be_finite_and_nonnegative(bad):
    # a negative threshold would let the test pass at distance 0 with probability above 1/2
    with pytest.raises(ValueError, match="threshold"):
        m.ptr_from_distance(1.0, 10, 1.0, 1.0, 1e-3, rng(), threshold=bad)
    with pytest.raises(ValueError, match="threshold"):
        m.propose_test_release(np.ones(5), "mean", 1.0, 1.0, 1e-3, 0, 1, rng(), threshold=bad)


@pytest.mark.parametrize("bad", [True, "5", None, [1.0]])
def test_ptr_threshold_of_wrong_type(bad):
    with pytest.raises((TypeError, ValueError), match="threshold"):
        m.ptr_from_distance(1.0, 10, 1.0, 1.0, 1e-3, rng(), threshold=bad)


# ---------------------------------------------------------------------------- sample and aggregate

def test_chunks_are_a_disjoint_partition():
    x = np.arange(103, dtype=float)
    seen = []

    def record(chunk):
        seen.append(np.array(chunk))
        return float(np.mean(chunk))

    ans = m.chunk_answers(x, record, 10, -1e9, 1e9, rng(2), shuffle=True)
    assert ans.shape == (10,)
    assert sorted(np.concatenate(seen)) == list(x)                 # every record exactly once
    assert {len(c) for c in seen} == {10, 11}                       # balanced sizes
    assert not np.array_equal(np.concatenate(seen), x)              # really shuffled
    seen.clear()
    ans = m.chunk_answers(x, record, 10, -1e9, 1e9, shuffle=False)
    assert np.array_equal(np.concatenate(seen), x)                  # consecutive positions
    assert ans[0] == pytest.approx(np.mean(np.arange(11)))


@pytest.mark.parametrize("func", ["mean", "median", "sum"])
@pytest.mark.parametrize("n,k", [(103, 10), (100, 10), (7, 7), (55, 1), (32561, 600)])
def test_vectorised_chunks_equal_the_loop(func, n, k):
    x = np.random.default_rng(n).integers(17, 91, size=n).astype(float)
    fast = m.chunk_answers(x, func, k, -1e9, 1e9, rng(4))
    slow = m.chunk_answers(x, getattr(np, func), k, -1e9, 1e9, rng(4))   # a callable takes the loop
    assert np.allclose(fast, slow, rtol=0, atol=1e-9)


def test_independent_labels_adding_a_record_changes_one_chunk():
    g = np.random.default_rng(0)
    x = g.integers(17, 91, size=500).astype(float)
    x_plus = np.append(x, 90.0)
    for seed in range(30):
        a = m.chunk_answers(x, "median", 40, 20, 80, rng(seed), partition="independent")
        b = m.chunk_answers(x_plus, "median", 40, 20, 80, rng(seed), partition="independent")
        assert a.shape == b.shape == (40,)
        assert np.sum(a != b) <= 1                       # the same labels for the shared records
        assert abs(a.mean() - b.mean()) <= 60 / 40
    # every record in exactly one chunk; an empty chunk answers the midpoint
    seen = []
    m.chunk_answers(np.arange(12.0), lambda c: seen.append(c) or 50.0, 10, 0, 100, rng(1), partition="independent")
    assert sorted(np.concatenate(seen)) == list(range(12))
    ans = m.chunk_answers(np.ones(3), "mean", 3, 0, 10, rng(2), partition="independent")
    assert set(ans) <= {1.0, 5.0}
    with pytest.raises(ValueError, match="partition"):
        m.chunk_answers(np.ones(3), "mean", 3, 0, 10, rng(2), partition="sorted")
    # the balanced split does not have the property: adding a record moves records between chunks
    a = m.chunk_answers(x, "median", 40, 20, 80, shuffle=False)
    b = m.chunk_answers(np.insert(x, 0, 90.0), "median", 40, 20, 80, shuffle=False)
    assert np.sum(a != b) > 1
    d = m.sample_and_aggregate(x, "mean", 40, 20, 80, 1.0, rng(3), partition="independent", details=True)
    assert d["noise_scale"] == pytest.approx(60 / 40)


def test_chunk_answers_are_clipped():
    x = np.concatenate([np.full(50, 0.0), np.full(50, 100.0)])
    ans = m.chunk_answers(x, "mean", 2, 20, 80, shuffle=False)
    assert list(ans) == [20.0, 80.0]


def test_sample_and_aggregate_noise_distribution():
    x = np.full(60, 30.0)
    g = rng(4)
    draws = np.array([m.sample_and_aggregate(x, "median", 12, 20, 80, 0.5, g) for _ in range(4000)])
    # every chunk answer is 30, the noise is Lap((80-20)/(12*0.5)) = Lap(10)
    assert stats.kstest(draws, stats.laplace(30.0, 10.0).cdf).pvalue > 0.01
    assert stats.kstest(draws, stats.laplace(30.0, 12.5).cdf).pvalue < 1e-3      # power: 25 % off
    d = m.sample_and_aggregate(x, "mean", 12, 20, 80, 0.5, rng(1), details=True)
    assert d["noise_scale"] == pytest.approx(10.0) and len(d["answers"]) == 12
    assert d["released"] == m.sample_and_aggregate(x, "mean", 12, 20, 80, 0.5, rng(1))
    assert d["released"] != m.sample_and_aggregate(x, "mean", 12, 20, 80, 0.5, rng(2))


def test_sample_and_aggregate_is_unbiased_for_chunk_means():
    # mean of chunk means of balanced chunks = overall mean when chunk sizes are equal
    x = np.arange(1, 601, dtype=float) % 50 + 20
    d = m.sample_and_aggregate(x, "mean", 60, 0, 100, 1.0, rng(0), details=True)
    assert np.mean(d["answers"]) == pytest.approx(np.mean(x))


# ---------------------------------------------------------------------------- the broken mechanism

def test_local_sensitivity_laplace_scale_follows_the_data():
    assert m.local_sensitivity_laplace(7.0, 0.0, 1.0, rng()) == 7.0        # LS = 0: the exact answer leaks
    draws = m.local_sensitivity_laplace(7.0, 8.0, 2.0, rng(6), size=20_000)
    assert stats.kstest(draws, stats.laplace(7.0, 4.0).cdf).pvalue > 0.01


# ---------------------------------------------------------------------------- with the smooth-sensitivity engine

def _smooth():
    return pytest.importorskip("dpsens.smooth")


def test_propose_test_release_uses_exact_distance():
    smooth = _smooth()
    x = np.array([1.0, 2, 3, 3, 3, 3, 3, 3, 3, 10, 11])
    for relation in ("bounded", "unbounded"):
        dist = smooth.distance_to_high_ls(x, "median", 1.0, 0, 20, relation)
        a = m.propose_test_release(x, "median", 1.0, 1.0, 0.01, 0, 20, rng(8), neighbors=relation, details=True)
        b = m.ptr_from_distance(3.0, dist, 1.0, 1.0, 0.01, rng(8), details=True)
        assert a == b and a["distance"] == dist
    assert m.propose_test_release(x, "median", 1.0, 1.0, 0.01, 0, 20, rng(8)) == \
        m.propose_test_release(x, "median", 1.0, 1.0, 0.01, 0, 20, rng(8), neighbors="bounded")
    # a bound above every local sensitivity: distance inf, always released
    assert m.propose_test_release(x, "median", 100.0, 1.0, 0.01, 0, 20, rng(8), details=True)["distance"] == math.inf
    assert all(m.propose_test_release(x, "median", 100.0, 1.0, 0.01, 0, 20, rng(s)) is not None for s in range(50))
    with pytest.raises(ValueError, match="outside"):
        m.propose_test_release(x, "median", 1.0, 1.0, 0.01, 0, 5, rng(8))


def test_ptr_reproduces_the_source_distance_on_the_ages():
    """Programming DP: bound 0.005, unbounded mean of ages clipped to 100 -> distance about 12,560."""
    smooth = _smooth()
    import dpsens as ds
    ages = np.clip(ds.load_ages().to_numpy(dtype=float), 0, 100)
    d = m.propose_test_release(ages, "mean", 0.005, 1.0, 1 / len(ages) ** 2, 0, 100, rng(0), threshold="source",
                               neighbors="unbounded", details=True)
    # the source's loop uses the upper bound u/(n - k + 1) on the local sensitivity, reaching 0.005 after
    # n + 1 - u/b = 12,562 removals; the exact local sensitivity is smaller, so the exact distance is larger
    assert d["distance"] >= len(ages) + 1 - 100 / 0.005
    assert d["threshold"] == pytest.approx(10.73744412245554)
    assert d["passed"] and abs(d["released"] - ages.mean()) < 0.1
    assert d["distance"] == smooth.distance_to_high_ls(ages, "mean", 0.005, 0, 100, "unbounded")


def test_smooth_sensitivity_mechanism_laplace_and_heavy_tailed():
    smooth = _smooth()
    x = np.sort(rng(1).integers(0, 101, size=201).astype(float))
    eps, delta = 1.0, 1e-6
    beta = eps / (2 * math.log(2 / delta))
    for relation in ("bounded", "unbounded"):
        s = smooth.smooth_sensitivity(x, "median", beta, 0, 100, relation)
        d = m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 100, rng(2), neighbors=relation, details=True)
        assert d["beta"] == pytest.approx(beta) and d["smooth_sensitivity"] == pytest.approx(s)
        assert d["noise_scale"] == pytest.approx(2 * s / eps)
        assert s > 0
        g = rng(3)
        draws = np.array([m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 100, g, neighbors=relation)
                          for _ in range(300)])
        assert stats.kstest(draws, stats.laplace(np.median(x), 2 * s / eps).cdf).pvalue > 0.001
        dc = m.smooth_sensitivity_mechanism(x, "median", eps, None, 0, 100, rng(2), noise="heavy-tailed",
                                            neighbors=relation, details=True)
        s4 = smooth.smooth_sensitivity(x, "median", eps / 10, 0, 100, relation)
        assert dc["beta"] == pytest.approx(eps / 10) and dc["noise_scale"] == pytest.approx(10 * s4 / eps)


# ---------------------------------------------------------------------------- smooth sensitivity, Laplace: the proof's slack

def _hockey_stick(eps, loc1, scale1, loc2, scale2):
    """sup_S P(Lap(loc1, scale1) ∈ S) − e^eps P(Lap(loc2, scale2) ∈ S), by quadrature."""
    def gap(z):
        return max(stats.laplace.pdf(z, loc1, scale1) - math.exp(eps) * stats.laplace.pdf(z, loc2, scale2), 0.0)
    width = 80 * max(scale1, scale2)
    lo, hi = min(loc1, loc2) - width, max(loc1, loc2) + width
    return integrate.quad(gap, lo, hi, points=sorted({loc1, loc2}), limit=2000, epsabs=1e-15)[0]


@pytest.mark.parametrize("eps, theta", [(1.0, 0.05), (1.0, 0.3), (2.0, 0.5), (0.5, 1.0), (1.0, -0.2), (1.0, -1.5)])
def test_laplace_dilation_slack_is_exact(eps, theta):
    # Lap(0, 1) against Lap(0, e^-theta), at the level e^(eps/2)
    exact = _hockey_stick(eps / 2, 0.0, 1.0, 0.0, math.exp(-theta))
    assert m.laplace_dilation_slack(eps, theta) == pytest.approx(exact, rel=1e-6, abs=1e-13)


def test_smooth_laplace_calibration_needs_a_condition_on_eps_and_delta():
    """The chapter's counterexample: at eps = 20, delta = 0.01 (beta = 1.89) two releases around the same value
    whose smooth bounds differ by the full factor e^beta, Lap(b) and Lap(e^-beta b), are not (eps, delta)-close;
    the slack at the level e^eps (laplace_dilation_slack's level is e^(eps/2), hence 2 eps) agrees with quadrature."""
    eps, delta = 20.0, 0.01
    beta = m.smooth_sensitivity_beta(eps, delta)
    assert beta == pytest.approx(1.8874, abs=1e-4)
    slack = m.laplace_dilation_slack(2 * eps, beta)
    assert slack == pytest.approx(_hockey_stick(eps, 0.0, 1.0, 0.0, math.exp(-beta)), rel=1e-6)
    assert slack == pytest.approx(0.017056, abs=1e-6) and slack > delta
    assert m.laplace_smooth_delta_bound(eps, delta) > delta          # and the chapter's condition excludes it


@pytest.mark.parametrize("eps, delta", [(1.0, DELTA_AGES), (1.0, 1e-3), (4.0, DELTA_AGES), (0.1, DELTA_AGES),
                                        (2.0, 1 / 201), (2.0, 0.1), (4.0, 1e-3)])
def test_smooth_laplace_mechanism_is_private_for_the_books_settings(eps, delta):
    """The chapter's proof: slack of the dilation <= (δ/2) β e^(ε/2+β−1) <= δ for every (ε, δ) the book uses,
    and the exact worst case of the whole mechanism (two Laplace laws whose centres differ by at most
    ε b'/2 and whose scales differ by a factor of at most e^β) is below δ."""
    beta = m.smooth_sensitivity_beta(eps, delta)
    bound = m.laplace_smooth_delta_bound(eps, delta)
    assert bound <= delta and delta <= 2 / math.e and beta <= eps / 2
    thetas = np.linspace(0, beta, 41)[1:]
    assert max(m.laplace_dilation_slack(eps, t) for t in thetas) <= bound
    if delta >= 1e-4:                     # quadrature resolves these; the smaller δ follow from the bound
        worst = 0.0
        for log_ratio in np.linspace(-beta, beta, 9):          # b'/b = e^log_ratio
            b, b2 = 1.0, math.exp(log_ratio)
            for frac in (0.0, 0.5, 1.0):
                shift = frac * eps / 2 * min(b, b2)            # |f(x) − f(x')| <= min(S(x), S(x'))
                worst = max(worst, _hockey_stick(eps, 0.0, b, shift, b2))
        assert worst <= delta
