"""Other noise for smooth sensitivity (Student's t, the Cauchy member of the heavy-tailed family), the error of
each noise, and the ``secure=`` path of the smooth-sensitivity, PTR and sample-and-aggregate releases.

Every expected value is computed here independently of the code under test: densities and quantiles from
scipy.stats (and quadrature of the closed-form densities), the median's smooth sensitivity from the direct
formula of the chapter (every t), output densities of neighbouring datasets on dense grids, and exact
probabilities of the rounded and discrete Laplace laws summed from their definitions.  Random draws use fixed
seeds; the statistical tests run at level 1e-4 (chi-square, Kolmogorov-Smirnov) or 4.5 standard errors.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from dpsens.data import load_ages
from dpsens import mechanisms as m
from dpsens.mechanisms import heavy_tailed as H
from dpsens.mechanisms import noise as N
from dpsens.mechanisms import smooth_noise as SN

EPSILONS = (0.1, 0.5, 1.0, 2.0)
DFS = (1.0, 2.0, 3.0, 5.0, 10.0)


def rng(seed=0):
    return np.random.default_rng(seed)


def grid():
    """Points of the standard noise's axis: dense near 0, log-spaced out to 1e9 (where the dilation bound is
    approached), both signs."""
    inner = np.linspace(0.0, 20.0, 40_001)
    outer = np.logspace(np.log10(20.0), 9, 4_000)
    half = np.concatenate((inner, outer))
    return np.concatenate((-half[::-1], half))


# ------------------------------------------------------------------------- Student's t: the calibration
@pytest.mark.parametrize("df", DFS)
@pytest.mark.parametrize("eps", EPSILONS)
def test_student_t_sliding_and_dilation_each_cost_at_most_half_epsilon(eps, df):
    psi, beta = m.heavy_tailed.student_t_constants(eps, df)
    z = grid()
    logh = stats.t.logpdf(z, df)
    worst_shift = max(np.max(np.abs(logh - stats.t.logpdf(z + v, df))) for v in np.linspace(-psi, psi, 21))
    # density of e^lam Z at z: e^-lam h(e^-lam z)
    worst_stretch = max(np.max(np.abs(logh - (-lam + stats.t.logpdf(np.exp(-lam) * z, df))))
                        for lam in np.linspace(-beta, beta, 21))
    assert worst_shift <= eps / 2 + 1e-9
    assert worst_stretch <= eps / 2 + 1e-9
    # both bounds are nearly reached (the slope bound is reached only at |w| = sqrt(df), so a finite shift
    # spends a little less): the constants are not loose by more than a few percent
    assert worst_shift > 0.9 * eps / 2
    assert worst_stretch > 0.97 * eps / 2


def test_student_t_a_larger_beta_fails():
    """The dilation bound max(1, df)|lambda| is what limits beta: twice the constant's beta breaks it."""
    eps, df = 1.0, 3.0
    _, beta = m.heavy_tailed.student_t_constants(eps, df)
    z = grid()
    lam = 2 * beta
    loss = np.max(np.abs(stats.t.logpdf(z, df) + lam - stats.t.logpdf(np.exp(-lam) * z, df)))
    assert loss > eps / 2 + 0.3


def _median_smooth_direct(x, beta, lower, upper):
    """S_beta of the median, one record replaced, odd n: the chapter's formula for A(t), every t."""
    n = len(x)
    pad = n + 3
    xs = np.concatenate(([lower] * pad, np.sort(x), [upper] * pad))
    r = (n + 1) // 2 - 1 + pad
    best = 0.0
    for t in range(n + 2):
        s = np.arange(t + 2)
        best = max(best, math.exp(-beta * t) * float(np.max(xs[r + s] - xs[r + s - t - 1])))
    return best


@pytest.mark.parametrize("df", (1.0, 3.0))
@pytest.mark.parametrize("eps", (0.5, 2.0))
def test_student_t_release_densities_of_neighbours_within_epsilon(eps, df):
    """Every neighbour (one record replaced by any value of the domain) of small datasets: the release densities
    f(x) + S(x)/psi * T, on a dense grid of outputs, differ by at most e^eps."""
    psi, beta = m.heavy_tailed.student_t_constants(eps, df)
    lower, upper = 0.0, 10.0
    worst = 0.0
    for x in ([3, 3, 4, 5, 5], [0, 2, 2, 2, 9], [1, 4, 6, 7, 10], [5, 5, 5, 5, 5]):
        x = np.asarray(x, dtype=float)
        fx, sx = float(np.median(x)), _median_smooth_direct(x, beta, lower, upper)
        assert sx > 0
        assert sx == pytest.approx(m.smooth_noise.smooth_sensitivity(x, "median", beta, lower, upper), rel=1e-12)
        ys = fx + sx / psi * np.concatenate((np.linspace(-50, 50, 20_001), np.logspace(2, 8, 500),
                                             -np.logspace(2, 8, 500)))
        for i in range(len(x)):
            for v in range(11):
                y = x.copy()
                y[i] = v
                fy, sy = float(np.median(y)), _median_smooth_direct(y, beta, lower, upper)
                p = stats.t.logpdf((ys - fx) * psi / sx, df) + math.log(psi / sx)
                q = stats.t.logpdf((ys - fy) * psi / sy, df) + math.log(psi / sy)
                worst = max(worst, float(np.max(np.abs(p - q))))
    assert worst <= eps + 1e-9
    assert worst > 0.2 * eps                    # the check bites: the data move the density


def test_student_t_sampler_and_its_abs_moments():
    for df in (1.0, 3.0, 5.0):
        draws = H.sample_student_t(rng(int(df)), df, size=20_000)
        assert stats.kstest(draws, stats.t(df).cdf).pvalue > 1e-4
        med = H.student_t_abs_median(df)
        assert integrate.quad(lambda w, df=df: stats.t.pdf(w, df), 0, med)[0] == pytest.approx(0.25, abs=1e-10)
    assert H.student_t_abs_median(1.0) == pytest.approx(1.0, abs=1e-12)            # Cauchy's quartile
    assert H.student_t_abs_mean(3.0) == pytest.approx(2 * math.sqrt(3) / math.pi, rel=1e-12)
    for df in (2.5, 3.0, 7.0):
        mean = 2 * integrate.quad(lambda w, df=df: w * stats.t.pdf(w, df), 0, np.inf)[0]
        assert H.student_t_abs_mean(df) == pytest.approx(mean, rel=1e-7)
    assert H.student_t_abs_mean(1.0) == math.inf


@pytest.mark.parametrize("gamma", (2.0, 3.0, 4.0, 6.0))
def test_polynomial_tail_abs_median_and_mean(gamma):
    c = 1 / integrate.quad(lambda w: 1 / (1 + abs(w) ** gamma), -np.inf, np.inf)[0]
    med = H.polynomial_tail_abs_median(gamma)
    assert 2 * c * integrate.quad(lambda w: 1 / (1 + w ** gamma), 0, med)[0] == pytest.approx(0.5, abs=1e-9)
    if gamma > 2:
        mean = 2 * c * integrate.quad(lambda w: w / (1 + w ** gamma), 0, np.inf)[0]
        assert H.polynomial_tail_abs_mean(gamma) == pytest.approx(mean, rel=1e-7)
    else:
        assert H.polynomial_tail_abs_mean(gamma) == math.inf
        assert med == pytest.approx(1.0, abs=1e-12)                              # gamma = 2 is the Cauchy


def test_cauchy_is_student_t_with_one_degree_of_freedom():
    z = np.linspace(-30, 30, 601)
    assert np.allclose(H.polynomial_tail_pdf(z, 2.0), stats.t.pdf(z, 1.0), rtol=1e-12)


def test_bad_degrees_of_freedom():
    for bad in (0, -1.0, math.inf):
        with pytest.raises(ValueError, match="df"):
            m.heavy_tailed.student_t_constants(1.0, bad)
    with pytest.raises(TypeError, match="df"):
        H.sample_student_t(rng(), "3")
    with pytest.raises(ValueError, match="noise"):
        SN.smooth_noise_constants(1.0, 1e-6, noise="gauss")


# ------------------------------------------------------------------------- the error of each noise
NOISES = [("laplace", {}), ("heavy-tailed", {"gamma": 4.0}), ("heavy-tailed", {"gamma": 2.0}),
          ("student-t", {"df": 3.0}), ("student-t", {"df": 1.0})]


def _scipy_noise(noise, kw):
    if noise == "laplace":
        return stats.laplace()
    if noise == "student-t":
        return stats.t(kw["df"])
    if kw["gamma"] == 2.0:
        return stats.cauchy()
    return None


@pytest.mark.parametrize("noise, kw", NOISES)
def test_smooth_noise_error_against_its_definition_and_a_monte_carlo(noise, kw):
    x = np.asarray(rng(5).integers(20, 60, size=301), dtype=float)
    eps, delta = 0.5, 1e-6
    out = SN.smooth_noise_error(x, "median", eps, delta, 0.0, 100.0, noise, **kw)
    beta = {"laplace": eps / (2 * math.log(2 / delta)), "student-t": eps / (2 * max(1.0, kw.get("df", 1.0))),
            "heavy-tailed": eps / (2 * (kw.get("gamma", 1.0) + 1))}[noise]
    psi = {"laplace": eps / 2, "student-t": eps * math.sqrt(kw.get("df", 1.0)) / (kw.get("df", 1.0) + 1),
           "heavy-tailed": beta}[noise]
    assert out["beta"] == pytest.approx(beta, rel=1e-12) and out["psi"] == pytest.approx(psi, rel=1e-12)
    s = _median_smooth_direct(x, beta, 0.0, 100.0)
    assert out["smooth_sensitivity"] == pytest.approx(s, rel=1e-12)
    law = _scipy_noise(noise, kw)
    draws = (law.rvs(size=40_000, random_state=rng(11)) if law is not None
             else H.sample_polynomial_tail(rng(11), kw["gamma"], size=40_000))
    errors = np.abs(s / psi * draws)
    # median |error|: the empirical median lies within 4.5 standard errors of the exact quantile's probability
    below = int(np.sum(errors <= out["median_abs_error"]))
    assert abs(below - 20_000) <= 4.5 * math.sqrt(40_000 * 0.25)
    if law is not None:
        assert out["median_abs_error"] == pytest.approx(s / psi * law.ppf(0.75), rel=1e-9)
    if math.isfinite(out["mean_abs_error"]):
        assert np.mean(errors) == pytest.approx(out["mean_abs_error"], rel=0.05)
    else:
        assert noise == "student-t" and kw["df"] == 1.0 or kw.get("gamma") == 2.0


def test_smooth_mechanism_student_t_releases_are_scaled_student_t():
    x = np.asarray(rng(6).integers(0, 11, size=41), dtype=float)
    eps = 1.0
    psi, beta = m.heavy_tailed.student_t_constants(eps, 3.0)
    s = _median_smooth_direct(x, beta, 0.0, 10.0)
    gen = rng(12)
    out = np.array([m.smooth_sensitivity_mechanism(x, "median", eps, None, 0, 10, gen, noise="student-t")
                    for _ in range(3000)])
    z = (out - np.median(x)) * psi / s
    assert stats.kstest(z, stats.t(3.0).cdf).pvalue > 1e-4


def test_smooth_mechanism_insecure_laplace_draw_is_unchanged():
    """The default path draws exactly numpy's Laplace: f(x) + 2S/eps * rng.laplace(0, 1)."""
    x = np.asarray(rng(7).integers(0, 11, size=41), dtype=float)
    eps, delta = 1.0, 1e-3
    beta = eps / (2 * math.log(2 / delta))
    s = _median_smooth_direct(x, beta, 0.0, 10.0)
    got = m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 10, rng(3))
    assert got == np.median(x) + 2 * s / eps * rng(3).laplace(0.0, 1.0)


# ------------------------------------------------------------------------- secure=True: rounded Laplace
def _rounded_laplace_pmf(k, b):
    """P(round(Lap(b)) = k) from scipy's Laplace distribution function."""
    k = np.asarray(k, dtype=float)
    return stats.laplace.cdf(k + 0.5, scale=b) - stats.laplace.cdf(k - 0.5, scale=b)


def _chi_square_against(draws, pmf, pool=5):
    """p-value of Pearson's chi-square of integer draws against ``pmf`` (cells with expected count < pool
    merged into two tail cells)."""
    n = len(draws)
    lo, hi = int(draws.min()) - 200, int(draws.max()) + 200
    ks = np.arange(lo, hi + 1)
    p = pmf(ks)
    p = p / p.sum() if abs(p.sum() - 1) < 1e-9 else p
    keep = n * p >= pool
    observed = np.array([np.sum(draws == k) for k in ks[keep]] + [np.sum(~np.isin(draws, ks[keep]))])
    expected = np.append(n * p[keep], n * (1 - p[keep].sum()))
    if expected[-1] < 1e-9:
        observed, expected = observed[:-1], expected[:-1]
    return stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue


@pytest.mark.parametrize("scale", [Fraction(3, 10), Fraction(3, 2), 7.25, Fraction(1, 2 ** 20)])
def test_rounded_laplace_secure_has_the_exact_law_and_agrees_with_numpy(scale):
    b = float(scale)
    secure = N.rounded_laplace_noise(scale, rng(21), size=100_000, secure=True)
    assert secure.dtype == np.int64
    if b < 1e-3:
        assert np.all(secure == 0)                       # P(K != 0) = e^(-2**19): never seen
        return
    assert _chi_square_against(secure, lambda k: _rounded_laplace_pmf(k, b)) > 1e-4
    insecure = N.rounded_laplace_noise(b, rng(22), size=100_000)
    values = np.union1d(secure, insecure)
    table = np.array([[np.sum(secure == v) for v in values], [np.sum(insecure == v) for v in values]])
    table = table[:, table.sum(axis=0) >= 10]
    assert stats.chi2_contingency(table)[1] > 1e-4     # the two paths: the same law


def test_rounded_laplace_noise_scalar_and_errors():
    assert isinstance(N.rounded_laplace_noise(2, rng(), secure=True), int)
    assert isinstance(N.rounded_laplace_noise(2.0, rng()), float)
    with pytest.raises(ValueError, match="scale"):
        N.rounded_laplace_noise(-1.0, rng(), secure=True)
    with pytest.raises(TypeError, match="rng"):
        N.rounded_laplace_noise(1.0, 3, secure=True)


def test_smooth_mechanism_secure_is_the_rounded_release():
    x = np.asarray(rng(8).integers(0, 11, size=41), dtype=float)   # odd n: the median is an integer
    eps, delta = 1.0, 1e-3
    beta = eps / (2 * math.log(2 / delta))
    d = m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 10, rng(0), secure=True, details=True)
    s_reduced = _median_smooth_direct(x, beta - math.log1p(2.0 ** -19), 0.0, 10.0)
    # the exact scale: >= 2S/eps, within the relative grid, and still beta-smooth by construction
    assert 2 * s_reduced / eps <= d["noise_scale"] <= (2 * s_reduced / eps + 2.0 ** -20) * (1 + 2.0 ** -19)
    assert isinstance(d["released"], int)
    assert d["beta"] == beta - math.log1p(2.0 ** -19)          # the beta it used, reported
    assert d["smooth_sensitivity"] == pytest.approx(s_reduced, rel=1e-12)
    gen = rng(13)
    secure = np.array([m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 10, gen, secure=True)
                       for _ in range(3000)]) - int(np.median(x))
    assert _chi_square_against(secure, lambda k: _rounded_laplace_pmf(k, d["noise_scale"])) > 1e-4
    gen = rng(14)
    insecure = np.rint(np.array([m.smooth_sensitivity_mechanism(x, "median", eps, delta, 0, 10, gen)
                                 for _ in range(3000)]) - np.median(x))
    values = np.union1d(secure, insecure)
    table = np.array([[np.sum(secure == v) for v in values], [np.sum(insecure == v) for v in values]])
    assert stats.chi2_contingency(table[:, table.sum(axis=0) >= 10])[1] > 1e-4


def test_smooth_mechanism_secure_refusals():
    x = np.asarray([1.0, 2.0, 3.0, 4.0])                              # even n: median 2.5
    with pytest.raises(ValueError, match="whole numbers"):
        m.smooth_sensitivity_mechanism(x, "median", 1.0, 1e-3, 0, 10, rng(), secure=True)
    with pytest.raises(ValueError, match="larger epsilon"):
        m.smooth_sensitivity_mechanism(x[:3], "median", 1e-7, 1e-3, 0, 10, rng(), secure=True)
    with pytest.raises(ValueError, match="noise='laplace' only"):
        m.smooth_sensitivity_mechanism(x[:3], "median", 1.0, None, 0, 10, rng(), noise="student-t", secure=True)


# ------------------------------------------------------------------------- secure=True: PTR
def _discrete_laplace_pmf(k, b):
    k = np.asarray(k, dtype=float)
    reach = np.arange(-5000, 5001)
    return np.exp(-np.abs(k) / b) / np.exp(-np.abs(reach) / b).sum()


@pytest.mark.parametrize("eps", (0.25, 0.5, 1.0))
@pytest.mark.parametrize("distance, threshold", [(0, 27.6), (0, 5.0), (3, 5.0), (10, 5.0), (4, 4.0), (0, 0.0)])
def test_ptr_pass_probability_secure_is_the_discrete_sum(eps, distance, threshold):
    ks = np.arange(-20_000, 20_001)
    p = np.exp(-eps * np.abs(ks))
    p /= p.sum()
    exact = float(p[distance + ks >= threshold].sum())
    assert m.ptr_pass_probability(distance, eps, threshold, secure=True) == pytest.approx(exact, rel=1e-9, abs=1e-300)


def test_ptr_secure_default_threshold_keeps_the_accidental_pass_below_delta():
    for eps in (0.05, 0.1, 0.5, 1.0, 2.0):
        for delta in (1e-3, 1e-6, 1 / 32561 ** 2):
            t = m.ptr_threshold(eps, delta)
            assert m.ptr_pass_probability(0, eps, t, secure=True) <= delta / (1 + math.exp(-eps)) * (1 + 1e-12)


def test_ptr_secure_accidental_pass_can_exceed_half_delta():
    # ptr.md's note: the discrete test gives (2 eps, delta), not in general the continuous test's (2 eps, delta/2).
    # At eps = 1, delta = 1e-3 the default threshold is ln(1000) = 6.91, so the test passes at distance 0 when
    # the discrete Laplace noise is >= 7: summed directly, (1 - q)/(1 + q) * sum_{k >= 7} q^k = q^7/(1 + q) > delta/2.
    ks = np.arange(-20_000, 20_001)
    p = np.exp(-np.abs(ks))
    p /= p.sum()
    exact = float(p[ks >= 7].sum())
    assert exact > 1e-3 / 2
    assert m.ptr_pass_probability(0, 1.0, m.ptr_threshold(1.0, 1e-3), secure=True) == pytest.approx(exact, rel=1e-9)


def test_ptr_secure_test_and_release_distributions():
    eps, delta = 0.5, 1e-3
    t = m.ptr_threshold(eps, delta)
    dist = 14                                   # near the threshold: both outcomes frequent
    gen = rng(31)
    runs = [m.ptr_from_distance(40, dist, 2, eps, delta, gen, secure=True, details=True) for _ in range(6000)]
    passed = np.array([r["passed"] for r in runs])
    p = m.ptr_pass_probability(dist, eps, t, secure=True)
    assert 0.2 < p < 0.8
    assert abs(passed.sum() - 6000 * p) <= 4.5 * math.sqrt(6000 * p * (1 - p))
    noisy = np.array([r["noisy_distance"] for r in runs]) - dist
    assert _chi_square_against(noisy.astype(np.int64), lambda k: _discrete_laplace_pmf(k, 1 / eps)) > 1e-4
    released = np.array([r["released"] for r in runs if r["passed"]]) - 40
    assert all(isinstance(r["released"], int) for r in runs if r["passed"])
    assert _chi_square_against(released.astype(np.int64), lambda k: _discrete_laplace_pmf(k, 2 / eps)) > 1e-4
    # the floating-point path: the same test statistic law up to the integer grid -- its pass rate agrees with
    # the continuous formula, and both paths' releases are centred on the answer with the same spread (within
    # the exact difference of the variances of Lap(b) and Lap_Z(b))
    gen = rng(32)
    runs_f = [m.ptr_from_distance(40, dist, 2, eps, delta, gen, details=True) for _ in range(6000)]
    pf = m.ptr_pass_probability(dist, eps, t)
    assert abs(sum(r["passed"] for r in runs_f) - 6000 * pf) <= 4.5 * math.sqrt(6000 * pf * (1 - pf))
    rel_f = np.array([r["released"] for r in runs_f if r["passed"]]) - 40
    assert stats.kstest(rel_f, stats.laplace(scale=2 / eps).cdf).pvalue > 1e-4
    q = math.exp(-eps / 2)
    var_discrete = 2 * q / (1 - q) ** 2
    assert np.var(released) == pytest.approx(var_discrete, rel=0.15)
    assert np.var(rel_f) == pytest.approx(2 * (2 / eps) ** 2, rel=0.15)
    assert abs(np.mean(released)) < 4.5 * math.sqrt(var_discrete / len(released))


def test_ptr_secure_refusals():
    with pytest.raises(ValueError, match="whole numbers"):
        m.ptr_from_distance(37.5, 100, 1, 0.5, 1e-6, rng(), secure=True)
    with pytest.raises(ValueError, match="bound must hold whole numbers"):
        m.ptr_from_distance(37, 100, 0.5, 0.5, 1e-6, rng(), secure=True)
    with pytest.raises(ValueError, match="passes at distance 0"):
        m.ptr_from_distance(37, 100, 1, 0.5, 1e-6, rng(), threshold="source", secure=True)
    x = np.asarray(rng(9).integers(20, 60, size=1001), dtype=float)
    out = m.propose_test_release(x, "median", 1, 1.0, 1e-6, 0, 100, rng(4), secure=True, details=True)
    assert out["passed"] and isinstance(out["released"], int)


# ------------------------------------------------------------------------- secure=True: sample and aggregate
def test_sample_and_aggregate_secure_noise_is_discrete_laplace_on_the_sum():
    # one value repeated: every chunk's maximum is 37 whatever the (private, random) split
    x = np.full(400, 37.0)
    eps, chunks = 1.0, 20
    total = 37 * chunks
    gen = rng(41)
    out = np.array([m.sample_and_aggregate(x, np.max, chunks, 0, 100, eps, gen, secure=True)
                    for _ in range(4000)])
    noise = np.rint(out * chunks).astype(np.int64) - total
    assert np.allclose(out * chunks - total, noise)
    assert _chi_square_against(noise, lambda k: _discrete_laplace_pmf(k, 100 / eps)) > 1e-4
    gen = rng(42)
    out_f = np.array([m.sample_and_aggregate(x, np.max, chunks, 0, 100, eps, gen)
                      for _ in range(4000)])
    assert stats.kstest(out_f - total / chunks, stats.laplace(scale=100 / (chunks * eps)).cdf).pvalue > 1e-4
    # the two paths' releases: the same centre and (to the grid) the same spread
    assert stats.ttest_ind(out, out_f).pvalue > 1e-4
    x = np.asarray(rng(10).integers(20, 60, size=400), dtype=float)
    with pytest.raises(ValueError, match="chunk answers"):
        m.sample_and_aggregate(x, "mean", chunks, 0, 100, eps, rng(), secure=True)
    with pytest.raises(ValueError, match="upper - lower"):
        m.sample_and_aggregate(x, np.max, chunks, 0, 99.5, eps, rng(), secure=True)


# ---------------------------------------------------------------------------- the Smooth chapter's properties

@settings(max_examples=300, deadline=None)
@given(eps=st.floats(1e-3, 4.0), delta=st.floats(1e-300, 0.1), corner=st.sampled_from(["eps <= 2", "eps <= 4"]))
def test_laplace_calibration_condition_holds_in_the_regions_the_chapter_names(eps, delta, corner):
    """*Smooth sensitivity*: the condition of the Laplace calibration's theorem, delta <= 2/e and the proof's
    slack (delta/2) beta e^(eps/2 + beta - 1) <= delta, holds whenever eps <= 2 and delta <= 0.1, or eps <= 4
    and delta <= 1e-3; the slack is recomputed here from its formula, beta = eps / (2 ln(2/delta))."""
    if corner == "eps <= 2":
        eps = min(eps, 2.0)
    else:
        delta = min(delta, 1e-3)
    beta = eps / (2 * math.log(2 / delta))
    assert m.smooth_sensitivity_beta(eps, delta) == pytest.approx(beta, rel=1e-12)
    bound = m.laplace_smooth_delta_bound(eps, delta)
    assert bound == pytest.approx(delta / 2 * beta * math.exp(eps / 2 + beta - 1), rel=1e-12)
    assert delta <= 2 / math.e and bound <= delta


@pytest.mark.parametrize("eps", (0.1, 0.5, 1.0, 2.0))
@pytest.mark.parametrize("noise, kw", NOISES)
def test_smooth_noise_draws_give_the_exact_median_abs_error_on_the_ages(noise, kw, eps):
    """*Smooth sensitivity*, "Which noise wins": for the median age (records replaced, delta = 1e-6), 10,000
    draws of the package's sampler scaled by the release's noise scale have a median |error| within 4 % of the
    exact one (the chapter's seed 34; the standard error of a sample median here is about 1.5 %)."""
    ages = load_ages().to_numpy(dtype=float)
    out = SN.smooth_noise_error(ages, "median", eps, 1e-6, 0.0, 100.0, noise, neighbors="bounded", **kw)
    assert out["noise_scale"] == pytest.approx(out["smooth_sensitivity"] / out["psi"], rel=1e-12)
    draws = np.abs(out["noise_scale"] * SN.smooth_noise_draws(rng(34), 10_000, noise, **kw))
    assert float(np.median(draws)) == pytest.approx(out["median_abs_error"], rel=0.04)
