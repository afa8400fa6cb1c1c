"""Issue 32 ("Zero errors in an expert's reading"): each package item reproduced and checked.

Independent computations throughout: closed forms and scipy's distributions written out here, never the
package's value for the quantity under test.
"""
from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from scipy import stats

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import dpsens as ds
from dpsens import mechanisms as m
from dpsens.experiments import head_to_head
from dpsens.mechanisms import exponential as em


def ages():
    return ds.load_ages().to_numpy(dtype=float)


# ------------------------------------------------------------------ smooth sensitivity: the proved region

def proved(epsilon, delta):
    """The chapter's condition, written out: delta <= 2/e and beta e^(eps/2 + beta - 1) <= 2."""
    beta = epsilon / (2 * math.log(2 / delta))
    return delta <= 2 / math.e and beta * math.exp(epsilon / 2 + beta - 1) <= 2


def test_smooth_mechanism_refuses_outside_the_proved_region_with_the_condition():
    x = ages()[:101]
    with pytest.raises(ValueError, match=r"beta e\^\(epsilon/2 \+ beta - 1\) <= 2"):
        m.smooth_sensitivity_mechanism(x, "median", 20.0, 0.01, 0, 100, np.random.default_rng(0), neighbors="bounded")
    with pytest.raises(ValueError, match=r"delta <= 2/e"):
        m.smooth_sensitivity_mechanism(x, "median", 1.0, 0.9, 0, 100, np.random.default_rng(0))
    # the heavy-tailed noise is pure epsilon-DP for every epsilon: not refused
    m.smooth_sensitivity_mechanism(x, "median", 20.0, None, 0, 100, np.random.default_rng(0), noise="heavy-tailed")


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 2.0, 4.0, 6.0, 10.0, 20.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.8])
def test_smooth_mechanism_releases_exactly_inside_the_proved_region(epsilon, delta):
    x = ages()[:51]
    if proved(epsilon, delta):
        m.smooth_sensitivity_mechanism(x, "median", epsilon, delta, 0, 100, np.random.default_rng(1))
    else:
        with pytest.raises(ValueError, match="epsilon|delta"):
            m.smooth_sensitivity_mechanism(x, "median", epsilon, delta, 0, 100, np.random.default_rng(1))


def test_outside_the_region_the_release_really_spends_more_than_delta():
    """epsilon = 20, delta = 0.01: Lap(b) against Lap(b e^-beta) around one point (scales e^beta apart, as
    between neighbours) -- the slack sup_S P(S) - e^eps Q(S), by quadrature, exceeds delta."""
    eps, delta = 20.0, 0.01
    beta = eps / (2 * math.log(2 / delta))
    z = np.linspace(-60, 60, 2_400_001)
    p = stats.laplace.pdf(z, scale=1.0)
    q = stats.laplace.pdf(z, scale=math.exp(-beta))
    slack = np.trapezoid(np.clip(p - math.exp(eps) * q, 0, None), z)
    assert slack > delta


# ------------------------------------------------------------------ PTR: the threshold and the pass probability

def test_tight_threshold_refuses_delta_above_one_half():
    with pytest.raises(ValueError, match=r"delta <= 1/2"):
        m.ptr_threshold(1, 0.6, "tight")
    assert m.ptr_threshold(1, 0.5, "tight") == 0.0
    for eps, delta in ((1.0, 1e-6), (0.3, 0.01), (2.0, 0.4)):
        t = m.ptr_threshold(eps, delta, "tight")
        assert math.isclose(stats.laplace.sf(t, scale=1 / eps), delta, rel_tol=1e-9)   # accidental pass exactly delta


@pytest.mark.parametrize("distance", [0, 1, 3.5, 10, 40])
def test_ptr_pass_probability_is_the_pass_probability_at_any_distance(distance):
    eps, threshold = 0.5, 7.0
    assert math.isclose(m.ptr_pass_probability(distance, eps, threshold),
                        stats.laplace.sf(threshold - distance, scale=1 / eps), rel_tol=1e-12)
    assert not hasattr(m, "ptr_accidental_pass_probability")


# ------------------------------------------------------------------ sample and aggregate: an explicit relation

def test_sample_and_aggregate_names_its_relation():
    x = np.arange(20.0)
    with pytest.raises(ValueError, match=r"neighbors must be one of \('unbounded', 'bounded'\)"):
        m.sample_and_aggregate(x, "mean", 4, 0, 20, 1.0, np.random.default_rng(0), neighbors="add-remove")
    with pytest.raises(ValueError, match="partition='balanced' is epsilon-DP for neighbors='bounded' only"):
        m.sample_and_aggregate(x, "mean", 4, 0, 20, 1.0, np.random.default_rng(0), partition="balanced",
                               neighbors="unbounded")


def test_sample_and_aggregate_unbounded_uses_independent_labels():
    """Two records, two chunks: independent labels leave a chunk empty half of the time (its answer the
    midpoint 10); the balanced partition never does."""
    x = np.array([0.0, 0.0])
    empty = {rel: sum(10.0 in m.sample_and_aggregate(x, "mean", 2, 0, 20, 1.0, np.random.default_rng(s),
                                                        neighbors=rel, details=True)["answers"]
                      for s in range(400)) for rel in ("bounded", "unbounded")}
    assert empty["bounded"] == 0
    assert abs(empty["unbounded"] - 200) < 4.5 * math.sqrt(400 * 0.25)


# ------------------------------------------------------------------ one rule for n = 1

@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_local_sensitivity_and_ls_at_distance_share_one_rule_for_one_record(relation):
    with pytest.raises(ValueError, match="at least 2 records"):
        ds.local_sensitivity([3.0], "median", ds.Domain([0, 1, 2, 3, 4]), neighbors=relation)
    for call in (lambda: ds.ls_at_distance([3.0], "median", 0, 0, 4, relation),
                 lambda: ds.smooth_sensitivity([3.0], "median", 0.1, 0, 4, relation),
                 lambda: ds.distance_to_high_ls([3.0], "median", 1.0, 0, 4, relation)):
        with pytest.raises(ValueError, match="at least 2 records"):
            call()
    # two records: both answer, and agree at distance 0 on a domain holding the bounds
    x = [1.0, 3.0]
    assert ds.ls_at_distance(x, "median", 0, 0, 4, relation) == pytest.approx(
        ds.local_sensitivity(x, "median", ds.Domain([0, 1, 2, 3, 4]), neighbors=relation))


# ------------------------------------------------------------------ the explorer's cache is keyed on the data

def test_saa_explorer_cache_tells_apart_datasets_with_the_same_moments():
    from dpsens.figures import sample_aggregate as fsa

    a, b = np.array([1.0, 5.0, 6.0] * 20), np.array([2.0, 3.0, 7.0] * 20)
    assert (len(a), a.sum(), (a * a).sum()) == (len(b), b.sum(), (b * b).sum())      # the old cache's key
    kw = dict(n_chunks=20, epsilon=1.0, func="median", lower=0.0, upper=10.0, n_partitions=5, draws=3)

    def label(fig):
        text = [t for t in fig.axes[0].get_legend_handles_labels()[1] if t.startswith("mean release")][0]
        plt.close(fig)
        return text

    fsa._cached_aggregates.cache_clear()
    fresh_b = label(fsa.plot_saa_explorer(b, **kw))
    fsa._cached_aggregates.cache_clear()
    label(fsa.plot_saa_explorer(a, **kw))
    assert label(fsa.plot_saa_explorer(b, **kw)) == fresh_b            # b after a: b's own aggregates
    # the cache is bounded
    assert fsa._cached_aggregates.cache_info().maxsize == 16
    for s in range(20):
        label(fsa.plot_saa_explorer(a + s * 0.01, **kw))
    assert fsa._cached_aggregates.cache_info().currsize <= 16


# ------------------------------------------------------------------ the head-to-head: one target, refusals named

def test_format_error_names_a_total_refusal():
    assert head_to_head.format_error(float("nan")) == "refused (all runs)" == head_to_head.REFUSED_ALL
    assert head_to_head.format_error(0.01234) == "0.012"


def test_head_to_head_prints_refused_where_ptr_refused_every_run():
    x = np.random.default_rng(3).uniform(0, 100, 41)         # continuous data: LS > 1e-9 at distance 0
    _, table = head_to_head.quantile_head_to_head(x, [0.5], [1.0], 1e-6, np.random.default_rng(0), runs=50,
                                             ptr_bound=1e-9, n_chunks=5, n_partitions=2)
    ptr = table[table["mechanism"] == head_to_head.HEAD_TO_HEAD_MECHANISMS[0]].iloc[0]
    assert ptr["refused"] == 1.0
    assert head_to_head.format_error(ptr["median |error|"]) == "refused (all runs)"


def test_head_to_head_measures_every_error_against_the_interpolated_quantile():
    """[0]*25 + [100]*25: numpy's median is 50 (the lower order statistic is 0). The exponential mechanism is
    uniform on (0, 100) there (25 records below every point: the best rank), so its mean |error| against 50
    is 25 -- against 0 it would be 50."""
    x = np.array([0.0] * 25 + [100.0] * 25)
    errors, _ = head_to_head.quantile_head_to_head(x, [0.5], [1.0], 1e-6, np.random.default_rng(0), runs=2000,
                                              n_chunks=5, n_partitions=2)
    err = errors[(0.5, 1.0, "exponential mechanism (ε)")]
    assert abs(err.mean() - 25) < 4.5 * (100 / math.sqrt(48)) / math.sqrt(err.size)


# ------------------------------------------------------------------ the exponential mechanism: rank, not value

def test_exponential_median_far_off_in_value_on_gapped_data():
    """The issue's two cases: uniform on the one gap, whatever epsilon."""
    draws = em.quantile_exponential([0, 0, 0, 100, 100], 0.5, 1e6, 0, 100, np.random.default_rng(0),
                                    "unbounded", 20_000)
    assert abs(np.mean(np.abs(draws - 0.0)) - 50) < 4.5 * (100 / math.sqrt(12)) / math.sqrt(20_000)
    assert stats.kstest(draws, stats.uniform(0, 100).cdf).pvalue > 1e-3
    for eps in (0.1, 1.0, 1e6):
        draws = em.quantile_exponential([10, 10, 10], 0.5, eps, 0, 10, np.random.default_rng(1), "bounded", 5000)
        assert stats.kstest(draws, stats.uniform(0, 10).cdf).pvalue > 1e-3


@pytest.mark.parametrize("seed", range(6))
def test_exponential_utility_theorem_holds_for_the_rank_score(seed):
    """P(U <= a) <= nu(Z) / nu(U >= c) * exp(-eps (c - a) / (2 GS_U)), with the scores and lengths computed
    here from the sorted data (not from the package), and the probabilities from the package's exact law."""
    g = np.random.default_rng(seed)
    x = np.sort(g.integers(0, 30, size=int(g.integers(5, 40))).astype(float))
    lower, upper, alpha, eps = 0.0, 30.0, float(g.choice([0.25, 0.5, 0.9])), float(g.choice([0.2, 1.0, 3.0]))
    gs = 1.0                                                   # bounded relation
    edges = np.concatenate(([lower], x, [upper]))
    length = np.diff(edges)
    score = -np.abs(np.arange(len(x) + 1) - alpha * len(x))
    d = em.quantile_exponential_distribution(x, alpha, eps, lower, upper, "bounded")
    prob = np.exp(d["log_prob"])
    np.testing.assert_allclose(d["utility"], score)
    for c in np.unique(score[length > 0]):
        for a in np.unique(score):
            if a >= c:
                continue
            bound = (upper - lower) / length[score >= c].sum() * math.exp(-eps * (c - a) / (2 * gs))
            assert prob[score <= a].sum() <= bound * (1 + 1e-9)


# ------------------------------------------------------------------ a public delta

def test_smooth_explorer_refuses_a_delta_from_a_private_size():
    from dpsens.figures import smooth as fsm

    with pytest.raises(ValueError, match="public only for neighbors='bounded'"):
        fsm.plot_smooth_explorer(ages(), sample_size=201, neighbors="unbounded")
    plt.close(fsm.plot_smooth_explorer(ages(), sample_size=201, neighbors="bounded"))


# ------------------------------------------------------------------ zCDP against exact accounting (vector.md)

def test_four_gaussians_exact_epsilon_is_the_pld_value():
    """vector.md: four Gaussian releases, sigma = 10, Delta_2 = 1, delta = 1e-6. zCDP then the conversion
    rho + 2 sqrt(rho ln 1/delta) by hand; the exact epsilon of one Gaussian with Delta_2/sigma = 0.2 against
    Google's dp_accounting PLD accountant (0.8341)."""
    rho = 4 * 1 / (2 * 10.0**2)
    assert rho + 2 * math.sqrt(rho * math.log(1e6)) == pytest.approx(1.0713, abs=1e-4)
    assert m.zcdp_to_dp(m.zcdp_compose([m.gaussian_rho(10.0, 1.0)] * 4), 1e-6) == pytest.approx(1.0713, abs=1e-4)
    exact = m.gaussian_epsilon(10.0, 2.0, 1e-6)
    assert exact == pytest.approx(0.8341, abs=1e-4)
    dp_accounting = pytest.importorskip("dp_accounting")
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(dp_accounting.GaussianDpEvent(noise_multiplier=10.0), 4)
    assert acc.get_epsilon(1e-6) == pytest.approx(exact, abs=2e-3)


def test_gaussian_crossover_falls_for_tiny_epsilon():
    """vector.md: sigma_1 stays bounded as epsilon -> 0 (delta alone is spent), so d* falls: 7, 5, 3, 2."""
    assert [m.gaussian_laplace_crossover(e, 1e-6) for e in (0.1, 1e-2, 1e-3, 1e-4)] == [7, 5, 3, 2]
    # independent: at epsilon -> 0 the analytic Gaussian needs 2 Phi(1/(2 sigma)) - 1 = delta
    sigma_0 = 1 / (2 * stats.norm.ppf((1 + 1e-6) / 2))
    assert m.gaussian_sigma(1.0, 1e-10, 1e-6, "analytic") == pytest.approx(sigma_0, rel=1e-3)
    for eps in (0.1, 1e-2, 1e-4):    # each sigma_1 solves Balle and Wang's exact delta(eps, sigma), written out here
        sig = m.gaussian_sigma(1.0, eps, 1e-6, "analytic")
        exact_delta = stats.norm.cdf(1 / (2 * sig) - eps * sig) - math.exp(eps) * stats.norm.cdf(-1 / (2 * sig) - eps * sig)
        assert exact_delta == pytest.approx(1e-6, rel=1e-4) and sig < sigma_0
    assert sigma_0 == pytest.approx(1 / (1e-6 * math.sqrt(2 * math.pi)), rel=1e-3)


# ------------------------------------------------------------------ the heavy-tailed constants (smooth.md)

def test_heavy_tailed_constants_proof_numbers():
    """sup |(ln h)'| = 3^(3/4) = 2.2795 <= gamma = 4 (sliding); the dilation log-ratio reaches (gamma - 1)|theta|."""
    gamma = 4.0
    w = np.linspace(0, 50, 2_000_001)
    slope = gamma * w ** (gamma - 1) / (1 + w**gamma)
    assert slope.max() == pytest.approx(3 ** 0.75, rel=1e-6) and 3 ** 0.75 < gamma
    for lam in (0.05, 0.3, -0.2):
        w = np.linspace(0, 1e4, 200_001)
        ratio = -lam + np.log((1 + w**gamma) / (1 + w**gamma * math.exp(-gamma * lam)))
        assert np.abs(ratio).max() <= (gamma - 1) * abs(lam) + 1e-12
        assert np.abs(ratio).max() == pytest.approx((gamma - 1) * abs(lam), rel=1e-6)
    eps = 1.0
    zeta = beta = eps / (2 * (gamma + 1))
    assert (gamma - 1) * beta + gamma * zeta <= eps
    assert m.heavy_tailed_constants(eps, gamma) == pytest.approx((zeta, beta))


# ------------------------------------------------------------------ adaptive composition (dp.md), by brute force

def test_adaptive_composition_by_brute_force_over_every_set_of_outputs():
    """M1: randomised response with eps1 on a secret bit; M2 chosen after seeing z1: if z1 = 1, randomised
    response with eps2 that also leaks the bit outright with probability delta2 (an (eps2, delta2)-DP
    mechanism); if z1 = 0, a fair coin. Every set S of the 2 x 3 output pairs obeys
    P_x(S) <= e^(eps1 + eps2) P_x'(S) + delta2 (delta1 = 0)."""
    import itertools

    eps1, eps2, delta2 = 0.7, 0.4, 0.05

    def law(bit):
        p1 = {z1: (math.exp(eps1) if z1 == bit else 1.0) / (1 + math.exp(eps1)) for z1 in (0, 1)}
        out = {}
        for z1 in (0, 1):
            if z1 == 1:      # z2 in {0, 1}: randomised response; with probability delta2 the bit leaks:
                rr = {z2: (1 - delta2) * (math.exp(eps2) if z2 == bit else 1.0) / (1 + math.exp(eps2)) for z2 in (0, 1)}
                rr[2] = delta2 if bit == 1 else 0.0          # outcome 2 only ever means "the bit is 1"
                if bit == 0:
                    rr[0] += delta2                          # (for bit 0 the leak is outcome 0)
            else:
                rr = {0: 0.5, 1: 0.5, 2: 0.0}
            for z2, q in rr.items():
                out[(z1, z2)] = p1[z1] * q
        return out

    px, pxp = law(1), law(0)
    assert math.isclose(sum(px.values()), 1) and math.isclose(sum(pxp.values()), 1)
    outputs = list(px)
    worst = 0.0
    for r in range(len(outputs) + 1):
        for S in itertools.combinations(outputs, r):
            for a, b in ((px, pxp), (pxp, px)):
                worst = max(worst, sum(a[o] for o in S) - math.exp(eps1 + eps2) * sum(b[o] for o in S))
    assert worst <= delta2 + 1e-12
    assert worst > 0                       # the delta is really spent: the bound is not vacuous here


# ------------------------------------------------------------------ one quantile (neighbours.md), and its one exception

@pytest.mark.parametrize("seed", range(5))
def test_the_books_quantile_is_numpys_linear_one_and_inverse_sensitivity_the_lower_one(seed):
    from dpsens.inverse import inverse_len_quantile

    g = np.random.default_rng(seed)
    x = np.sort(g.integers(0, 20, size=int(g.integers(2, 30))).astype(float))
    n = len(x)
    for alpha, name in ((0.25, "percentile_25"), (0.5, "median"), (0.75, "percentile_75"), (0.9, "percentile_90")):
        r = math.floor(alpha * (n - 1)) + 1                       # r_alpha, from 1
        h = alpha * (n - 1) + 1 - r
        q = x[r - 1] + (h * (x[r] - x[r - 1]) if r < n else 0.0)  # Q_alpha as the chapter writes it
        assert ds.evaluate(name, x) == pytest.approx(q, abs=1e-12)
        # inverse sensitivity: len = 0 exactly at the order statistic x_(r_alpha), numpy's method="lower"
        grid = np.unique(np.concatenate((x, np.arange(0.0, 20.5, 0.5))))
        zeros = grid[inverse_len_quantile(x, alpha, grid, 0, 20, "bounded") == 0]
        assert zeros.tolist() == [float(np.quantile(x, alpha, method="lower"))] == [x[r - 1]]


def test_the_comparisons_refuse_a_laplace_smooth_release_outside_the_proved_region():
    x = ages()[:201]
    with pytest.raises(ValueError, match="outside the proved region"):
        head_to_head.quantile_head_to_head(x, [0.5], [20.0], 0.01, np.random.default_rng(0), runs=5, n_chunks=5,
                                      n_partitions=1)
    with pytest.raises(ValueError, match="outside the proved region"):
        head_to_head.rmse_across_epsilon(x, [20.0], 0.01, 0, 100, np.random.default_rng(0),
                                    settings={"mean": ("unbounded", 0.005), "median": ("bounded", 0.01)}, runs=5)


# ------------------------------------------------------------------ the second expert reading (rev1): its numeric fixes

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_ptr_source_test_passes_hundreds_not_thousands_of_times_delta():
    """ptr.md: at the book's public delta = 1e-6 the source's threshold ln(2/delta)/(2 eps) passes by accident
    1/2 e^(-eps T) = 1/2 sqrt(delta/2) -- about 354 delta (it was thousands only with the private delta = 1/n^2)."""
    delta, eps = 1e-6, 1.0
    T = math.log(2 / delta) / (2 * eps)
    accident = stats.laplace(scale=1 / eps).sf(T)                 # P(Lap(1/eps) >= T), scipy's tail
    assert accident == pytest.approx(0.5 * math.sqrt(delta / 2), rel=1e-12)
    assert 100 < accident / delta < 1000
    text = (ROOT / "chapters" / "ptr.md").read_text(encoding="utf-8")
    assert "hundreds of times more often" in text and "thousands of times" not in text
    assert "32,561²" not in text                                     # the figure's title says the public delta


def test_ptr_source_own_threshold_is_its_delta_one_over_n_squared():
    """The source printed the threshold 10.73744412245554: its formula at delta = 1/n^2, n = 32,561."""
    n = len(ages())
    assert (math.log(2) + 2 * math.log(n)) / 2 == pytest.approx(10.73744412245554, rel=1e-13)
    assert m.ptr_threshold(1.0, 1 / n**2, "source") == pytest.approx(10.73744412245554, rel=1e-13)


def test_group_privacy_slack_is_at_most_k_e_to_the_k_minus_one_eps_delta():
    """dp.md's proof: unrolling k steps of P <= e^eps P' + delta gives delta * sum_{i<k} e^(i eps)."""
    for k in range(1, 8):
        for eps in (0.1, 1.0, 3.0):
            slack = sum(math.exp(i * eps) for i in range(k))
            assert slack <= k * math.exp((k - 1) * eps) + 1e-12


def test_exponential_mechanism_outside_probability_on_25_ages_by_hand():
    """exponential.md's loose-bounds table, recomputed from the interval weights written out here."""
    x = np.sort(np.random.default_rng(24).choice(ages(), size=25, replace=False))
    for up, eps, expected in ((100.0, 0.1, 0.212), (1e3, 0.1, 0.887), (1e6, 1.0, 0.435)):
        edges = np.concatenate(([0.0], x, [up]))
        with np.errstate(divide="ignore"):
            logw = np.log(np.diff(edges)) + eps * -np.abs(np.arange(26) - 12.5) / (2 * 0.5)
        p = np.exp(logw - np.logaddexp.reduce(logw))
        assert p[0] + p[-1] == pytest.approx(expected, abs=5e-4)
        d = em.quantile_exponential_distribution(x, 0.5, eps, 0.0, up, "unbounded")
        assert np.exp(d["log_prob"][[0, -1]]).sum() == pytest.approx(p[0] + p[-1], rel=1e-9)
