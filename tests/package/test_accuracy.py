"""``dpsens.accuracy``: the accuracy bounds and lower bounds of the chapter *How accurate is it?*, checked
independently -- tails against scipy's exact distributions, the packing bounds by direct computation, the
local modulus by walking every dataset within distance t, the theorems against the mechanisms' exact
output distributions, and the seeded simulation against the bounds."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dpsens as ds
from dpsens import accuracy as acc
from dpsens import inverse
from dpsens.mechanisms import exponential as em
from dpsens.mechanisms import inverse_sensitivity as ism


# ------------------------------------------------------------------ tails
@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
@pytest.mark.parametrize("zeta", [0.001, 0.05, 0.3])
def test_laplace_tail_is_exact(eps, zeta):
    w = acc.laplace_tail_bound(3.0, eps, zeta)
    assert math.isclose(2 * stats.laplace(scale=3.0 / eps).sf(w), zeta, rel_tol=1e-12)


@pytest.mark.parametrize("zeta", [1e-6, 0.01, 0.05, 0.5])
def test_gaussian_tail_bound_and_exact_quantile(zeta):
    exact = acc.gaussian_tail_exact(7.0, zeta)
    assert math.isclose(2 * stats.norm(scale=7.0).sf(exact), zeta, rel_tol=1e-9)
    bound = acc.gaussian_tail_bound(7.0, zeta)
    assert bound >= exact and 2 * stats.norm(scale=7.0).sf(bound) <= zeta


def test_heavy_tailed_quantile_by_quadrature():
    norm = integrate.quad(lambda z: 1 / (1 + z ** 4), -np.inf, np.inf)[0]
    for zeta in (0.01, 0.05, 0.2):
        w = acc.heavy_tailed_tail_exact(1.0, zeta)
        tail = 2 * integrate.quad(lambda z: 1 / (1 + z ** 4), w, np.inf)[0] / norm
        assert math.isclose(tail, zeta, rel_tol=1e-7)
        assert math.isclose(acc.heavy_tailed_tail_exact(2.5, zeta), 2.5 * w, rel_tol=1e-9)


def test_laplace_expected_max_by_quadrature():
    for d in (1, 2, 10, 300):
        exact = integrate.quad(lambda v, d=d: 1 - (1 - math.exp(-v)) ** d, 0, np.inf, limit=200)[0]
        assert math.isclose(acc.laplace_expected_max(d, 2.0), 2.0 * exact, rel_tol=1e-7)


# ------------------------------------------------------------------ the exponential mechanism
@pytest.mark.parametrize("eps", [0.2, 1.0, 3.0])
def test_utility_theorem_over_finite_candidates(eps):
    scores = -np.abs(np.arange(101) - 37.0)          # one best candidate, GS_U = 1
    p = np.exp(em.exponential_log_probabilities(scores, 1.0, eps))
    for zeta in (0.01, 0.1, 0.5):
        loss = acc.exponential_utility_bound(1.0, eps, zeta, 101)
        assert p[scores <= scores.max() - loss].sum() <= zeta
    assert math.isclose(acc.exponential_utility_bound(1.0, 1.0, math.exp(-3), 101), 2 * (math.log(101) + 3))


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_rank_error_bound_against_the_exact_distribution(relation):
    x = np.random.default_rng(3).integers(0, 100, 60).astype(float)
    for eps in (0.1, 1.0):
        dist = em.quantile_exponential_distribution(x, 0.5, eps, 0.0, 100.0, relation)
        length = dist["right"] - dist["left"]
        opt = dist["utility"][length > 0].max()
        for zeta in (0.01, 0.2):
            bound = acc.rank_error_bound(x, 0.5, eps, zeta, 0.0, 100.0, relation)
            bad = (opt - dist["utility"] > bound) & (length > 0)
            assert np.exp(dist["log_prob"][bad]).sum() <= zeta


def test_small_error_in_rank_not_in_value():
    rng = np.random.default_rng(0)
    for x, hi in (([0, 0, 0, 100, 100], 100.0), ([10, 10, 10], 10.0)):
        released = em.quantile_exponential(x, 0.5, 1.0, 0.0, hi, rng, size=20000)
        assert np.all(acc.rank_error(x, 0.5, released, 0.0, hi) == 0)
        # uniform on [0, hi]: the mean |error| is hi/2, 4 standard errors of a uniform's spread
        assert abs(np.mean(np.abs(released - inverse.order_statistic(x, 0.5))) - hi / 2) < 4 * hi / math.sqrt(12 * 20000)


# ------------------------------------------------------------------ local modulus and inverse sensitivity
def _within(x, t, domain, relation):
    """Every dataset within distance t of x (non-empty), by walking one step at a time."""
    seen = {tuple(sorted(x))}
    frontier = set(seen)
    for _ in range(t):
        new = set()
        for y in frontier:
            if relation == "bounded":
                steps = [y[:i] + (v,) + y[i + 1:] for i in range(len(y)) for v in domain]
            else:
                steps = [y + (v,) for v in domain] + [y[:i] + y[i + 1:] for i in range(len(y))]
            for z in steps:
                key = tuple(sorted(z))
                if key and key not in seen:
                    new.add(key)
        seen |= new
        frontier = new
    return seen


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
@pytest.mark.parametrize("x", [[2], [1, 4, 4], [0, 3, 5, 6], [2, 2, 2, 5, 6]])
@pytest.mark.parametrize("q", [0.5, 0.25])
def test_local_modulus_by_brute_force(relation, x, q):
    domain = range(7)
    fx = inverse.order_statistic(x, q)
    for t in range(0, 3):
        brute = max(abs(inverse.order_statistic(list(y), q) - fx) for y in _within(x, t, domain, relation))
        assert acc.local_modulus_quantile(x, q, t, 0, 6, relation) == brute, (t, brute)
        assert acc.local_modulus_quantile(x, q, t, 0, 6, relation, candidates=range(7)) == brute


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_inverse_sensitivity_bound_holds_exactly(relation):
    x = np.random.default_rng(8).integers(20, 70, 101).astype(float)
    grid = np.arange(101.0)
    fx = inverse.order_statistic(x, 0.5)
    for eps in (0.2, 1.0):
        for zeta in (0.01, 0.1):
            for cands in (grid, None):
                out = acc.inverse_sensitivity_error_bound(x, 0.5, eps, zeta, 0.0, 100.0, relation, cands)
                dist = ism.inverse_sensitivity_distribution(x, 0.5, eps, 0.0, 100.0, relation, cands)
                p = np.exp(dist["log_prob"])
                far = np.maximum(np.abs(dist["left"] - fx), np.abs(dist["right"] - fx))
                assert p[far > out["bound"] + 1e-9].sum() <= zeta
                assert p[dist["len"] >= out["t"]].sum() <= zeta


# ------------------------------------------------------------------ lower bounds
@pytest.mark.parametrize("eps", [0.05, 0.3, 1.0, 4.0])
def test_packing_bounds_by_direct_computation(eps):
    assert math.isclose(acc.count_lower_bound(eps), max(t / (2 * (1 + math.exp(t * eps))) for t in range(1, min(1000, int(700 / eps)))))
    for d in (2, 50, 10 ** 4):
        brute = max(t / 2 * d / (math.exp(t * eps) + d) for t in range(1, min(1000, int(700 / eps))))
        assert math.isclose(acc.histogram_lower_bound(d, eps), brute)
        assert brute > math.log(d) / (2 * eps * (1 + math.exp(eps)))      # the theorem's closed form below it
    assert math.isclose(acc.median_lower_bound(eps, 10, 90), 80 / (2 * (1 + math.exp(eps))))
    assert math.isclose(acc.packing_failure_bound(5, 3, eps), 4 / (math.exp(3 * eps) + 4))


def test_the_laplace_count_meets_the_packing_lemma():
    """Two datasets t apart, disjoint sets around their counts: the Laplace count misses one with at least the
    lemma's probability, computed exactly from the Laplace CDF."""
    for eps in (0.2, 1.0):
        for t in (1, 3, 8):
            miss = 2 * stats.laplace(scale=1 / eps).sf(t / 2)      # |error| >= t/2 at either dataset
            assert miss >= acc.packing_failure_bound(2, t, eps)


def test_local_lower_bound_against_the_exponential_mechanism():
    """The theorem: on x or on the y that reaches Ω_f(x; t), any ε-DP mechanism's expected error is at least the
    local bound; here the exponential mechanism and inverse sensitivity, computed exactly."""
    x = [1, 2, 2, 3, 5, 6, 6]
    domain, fx = range(8), inverse.order_statistic(x, 0.5)
    for t in (1, 2):
        ys = _within(x, t, domain, "unbounded")
        y = max(ys, key=lambda y: abs(inverse.order_statistic(list(y), 0.5) - fx))
        omega = acc.local_modulus_quantile(x, 0.5, t, 0, 7, "unbounded")
        assert abs(inverse.order_statistic(list(y), 0.5) - fx) == omega
        for eps in (0.3, 1.0, 3.0):
            bound = omega / (2 * (1 + math.exp(t * eps)))
            for dist_of in (lambda d, eps=eps: em.quantile_exponential_distribution(d, 0.5, eps, 0, 7, "unbounded"),
                            lambda d, eps=eps: ism.inverse_sensitivity_distribution(d, 0.5, eps, 0, 7, "unbounded")):
                worst = max(acc.expected_abs_error(dist_of(list(d)), inverse.order_statistic(list(d), 0.5))
                            for d in (x, y))
                assert worst >= bound
            assert acc.local_minimax_lower_bound(x, 0.5, eps, 0, 7, "unbounded") >= bound


def test_expected_abs_error_by_simulation_and_by_hand():
    dist = {"left": np.array([0.0, 4.0, 6.0]), "right": np.array([2.0, 4.0, 10.0]),
            "log_prob": np.log([0.5, 0.25, 0.25])}
    # target 5: [0, 2] uniform -> 4, the point 4 -> 1, [6, 10] -> 3
    assert math.isclose(acc.expected_abs_error(dist, 5.0), 0.5 * 4 + 0.25 * 1 + 0.25 * 3)
    # target inside an interval: uniform on [0, 2] about 0.5 -> (0.25 + 2.25)/4
    assert math.isclose(acc.expected_abs_error({"left": [0.0], "right": [2.0], "log_prob": [0.0]}, 0.5), 0.625)


# ------------------------------------------------------------------ the seeded simulation
def test_simulation_consistent_with_the_bounds():
    ages = ds.load_ages().to_numpy(dtype=float)
    zeta, runs = 0.05, 2000
    table = acc.simulate_accuracy(ages, int(np.sum(ages >= 50)), 0.5, zeta, np.random.default_rng(2026), runs=runs)
    sd = math.sqrt(zeta * (1 - zeta) / runs)
    assert (table["share above bound"] <= zeta + 4 * sd).all()
    exact = table[table["mechanism"].isin(["Laplace, count", "propose-test-release, median",
                                           "smooth sensitivity, Laplace, median"])]
    assert len(exact) == 3 and (abs(exact["share above bound"] - zeta) <= 4 * sd).all()
    ptr = table.set_index("mechanism").loc["propose-test-release, median"]
    assert ptr["refused"] == 0 and ptr["refusal bound"] < 1e-50
    assert math.isclose(ptr["refusal bound"], ptr["refusal exact"], rel_tol=1e-6) or ptr["refusal exact"] == 0


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="zeta"):
        acc.laplace_tail_bound(1.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="zeta"):
        acc.gaussian_tail_bound(1.0, 1.5)
    with pytest.raises(ValueError, match="epsilon"):
        acc.count_lower_bound(0.0)
    with pytest.raises(ValueError, match="t must be"):
        acc.local_modulus_quantile([1, 2, 3], 0.5, -1, 0, 5)
    with pytest.raises(ValueError, match="measure_ratio"):
        acc.exponential_utility_bound(1.0, 1.0, 0.1, 0.5)
    with pytest.raises(ValueError, match="threshold"):
        acc.ptr_refusal_bound(5, 1.0, float("nan"))
    with pytest.raises(ValueError, match="rank_bound"):
        acc.rank_value_bound([1.0, 2.0, 3.0], 0.5, -1, 0, 5)
    with pytest.raises(ValueError, match="candidates must contain"):
        acc.inverse_sensitivity_error_bound([1.5, 2.5, 3.5], 0.5, 1.0, 0.1, 0, 5, candidates=[0, 1, 2])


# ------------------------------------------------------------------ the chapter's numbers on the ages, independently
def _extreme_moves(xs, t, lo, hi, median):
    """The values ``median`` takes on the datasets that add ``a`` records at a bound and remove ``t − a`` from the
    other end (a = 0..t): the order statistic is monotone in every record, so these reach the farthest values
    within distance t under add/remove.  ``median(at, size)`` reads the sorted dataset through ``at(i)``."""
    xs = np.sort(np.asarray(xs, dtype=float))
    n = len(xs)
    out = []
    for a in range(t + 1):
        r = t - a
        if r >= n:
            continue
        size = n - r + a
        # sorted without sorting: xs[r:] then a copies of hi; a copies of lo then xs[:n − r]
        out.append(median(lambda i, r=r: xs[r + i] if i < n - r else hi, size))
        out.append(median(lambda i, a=a: lo if i < a else xs[i - a], size))
    return out


def _lower_median(at, size):
    return float(at((size - 1) // 2))


def _numpy_median(at, size):
    """numpy's median: the middle record, or the average of the two middle ones."""
    return float(at(size // 2)) if size % 2 else (at(size // 2 - 1) + at(size // 2)) / 2


def _ages():
    return np.sort(ds.load_ages().to_numpy(dtype=float))


def _first_move(xs, median, t_max=1200):
    fx = median(lambda i: xs[i], len(xs))
    for t in range(1, t_max):
        if any(v != fx for v in _extreme_moves(xs, t, 0.0, 100.0, median)):
            return t
    raise AssertionError("no move")


def test_ages_first_move_ptr_distance_and_local_bound():
    """The chapter's 802 (the lower median first moves), PTR's 800 (numpy's median, which averages the two middle
    records of an even count, first moves at 801, so the nearest dataset from which one step moves it is 800 away)
    and the local lower bound at ε = 0.1 (log10 ≈ −35.13), each from the extreme datasets directly."""
    ages = _ages()
    first = _first_move(ages, _lower_median)
    assert first == 802
    assert max(abs(v - 37.0) for v in _extreme_moves(ages, first, 0.0, 100.0, _lower_median)) == 1.0
    ts = np.arange(first - 3, first + 3)
    assert list(acc.local_modulus_quantile(ages, 0.5, ts, 0, 100, "unbounded")) == [0, 0, 0, 1, 1, 1]
    assert _first_move(ages, _numpy_median) == 801
    assert ds.distance_to_high_ls(ages, "median", 0.01, 0, 100, "unbounded") == 800
    # ω(t) <= 100, so beyond t = 802 + 10 ln(100) < 850 no t can beat t = 802 at ε = 0.1; scan up to there
    lb = max(max(abs(v - 37.0) for v in _extreme_moves(ages, t, 0.0, 100.0, _lower_median))
             / (2 * (1 + math.exp(t * 0.1))) for t in range(first, 851))
    assert lb == 1.0 / (2 * (1 + math.exp(802 * 0.1)))
    assert math.isclose(acc.local_minimax_lower_bound(ages, 0.5, 0.1, 0, 100, "unbounded"), lb, rel_tol=1e-9)
    assert round(math.log10(lb), 2) == -35.13


def test_local_lower_bound_on_the_sample_of_201():
    """The instance table's last row: max_t ω(t)/(2(1 + e^{tε})) with ω from the extreme datasets."""
    ages = ds.load_ages().to_numpy(dtype=float)
    sample = np.random.default_rng(24).choice(ages, size=201, replace=False)
    fx = float(np.sort(sample)[100])
    omega = [max(abs(v - fx) for v in _extreme_moves(sample, t, 0.0, 100.0, _lower_median)) for t in range(1, 202)]
    assert omega == list(acc.local_modulus_quantile(sample, 0.5, np.arange(1, 202), 0, 100, "unbounded"))
    for eps, expected in ((0.1, 0.2007), (0.5, 0.05960), (1.0, 0.008993), (2.0, 0.0001677)):
        brute = max(w / (2 * (1 + math.exp(t * eps))) for t, w in zip(range(1, 202), omega, strict=True))
        assert math.isclose(acc.local_minimax_lower_bound(sample, 0.5, eps, 0, 100, "unbounded"), brute)
        assert math.isclose(brute, expected, rel_tol=2e-3)


def test_exponential_mechanism_on_the_ages_next_to_the_tie_block():
    """The rank score's intervals (36, 37) and (37, 38): scores −457.5 and −400.5 (15,823 ages below 37, 858 at it,
    αn = 16,280.5), so (36, 37) is 57 ranks worse; its probability at ε = 0.1 and 1 from weights computed here
    (length × e^{ε U / (2 GS_U)}, GS_U = ½ under add/remove)."""
    ages = _ages()
    n = len(ages)
    pts = np.concatenate(([0.0], ages, [100.0]))
    length = np.diff(pts)
    score = -np.abs(np.arange(n + 1) - 0.5 * n)       # interval i has i records below it
    below = (pts[:-1] == 36) & (pts[1:] == 37) & (length > 0)
    above = (pts[:-1] == 37) & (pts[1:] == 38) & (length > 0)
    assert score[above][0] == -400.5 and score[below][0] == -457.5 and score[length > 0].max() == -400.5
    for eps, expected in ((0.1, 3.3348e-3), (1.0, 1.7588e-25)):
        logw = np.where(length > 0, np.log(np.where(length > 0, length, 1.0)) + eps * score / (2 * 0.5), -np.inf)
        p = np.exp(logw - np.logaddexp.reduce(logw[length > 0]))
        dist = em.quantile_exponential_distribution(ages, 0.5, eps, 0.0, 100.0, "unbounded")
        mask = (dist["left"] == 36) & (dist["right"] == 37)
        assert math.isclose(np.exp(dist["log_prob"][mask][0]), p[below][0], rel_tol=1e-9)
        assert math.isclose(p[below][0], expected, rel_tol=1e-4)


def test_worst_pair_over_whole_numbers_closed_form():
    """On the worst pair, inverse sensitivity over 0..100 gives len 0 to the median and len 1 to the 100 other
    whole numbers, so its expected error is (1 + ... + 100)/(e^{ε/2} + 100) on either dataset."""
    grid = np.arange(101.0)
    x = np.array([0.0] * 50 + [100.0] * 50)
    for d_ in (x, np.append(x, 100.0)):
        fx = inverse.order_statistic(d_, 0.5)
        for eps in (0.1, 1.0, 5.0):
            dist = ism.inverse_sensitivity_distribution(d_, 0.5, eps, 0.0, 100.0, "unbounded", grid)
            mean_err = float(np.sum(np.exp(dist["log_prob"]) * np.abs(dist["left"] - fx)))
            assert math.isclose(mean_err, 5050 / (math.exp(eps / 2) + 100), rel_tol=1e-9)


def test_count_constant_for_small_epsilon():
    """ε times the count's bound tends to max_{c > 0} c/(2(1 + e^c)) = 0.13923 (at c = 1.2785), by scipy."""
    from scipy.optimize import minimize_scalar
    res = minimize_scalar(lambda c: -c / (2 * (1 + math.exp(c))), bounds=(0.01, 10), method="bounded",
                          options={"xatol": 1e-10})
    assert math.isclose(-res.fun, 0.139232, rel_tol=1e-5)
    assert math.isclose(1e-3 * acc.count_lower_bound(1e-3), -res.fun, rel_tol=1e-5)


def test_ptr_refusal_against_scipy():
    """PTR refuses when D + Lap(2/ε) < T: scipy's Laplace CDF at T; the table's 6.92e-82 at D = 800, ε = 0.5."""
    threshold = math.log(1e6) / 0.25
    for distance in (56, 60, 100, 800):
        exact = stats.laplace(loc=distance, scale=1 / 0.25).cdf(threshold)
        assert math.isclose(acc.ptr_refusal_bound(distance, 0.25, threshold), exact, rel_tol=1e-9)
    assert f"{acc.ptr_refusal_bound(800, 0.25, threshold):.2e}" == "6.92e-82"
    # below the threshold the bound is the trivial 1; the exact refusal is above 1/2
    assert acc.ptr_refusal_bound(10, 0.25, threshold) == 1.0
    assert stats.laplace(loc=10, scale=4).cdf(threshold) > 0.5


def test_smooth_sensitivity_bound_on_the_ages_closed_form():
    """The table's smooth-sensitivity bound at ε = 0.5 (6.178e-06 years).  numpy's median of whole-number ages moves
    by half a year per step near the tie block, and no dataset closer than 800 steps has a positive local
    sensitivity, so S_β = ½ e^{−800 β} when β = ε/(2 ln(2/δ)) is large enough that later t do not win; the
    bound is 2 S_β/ε · ln 20."""
    ages = ds.load_ages().to_numpy(dtype=float)
    eps, delta = 0.5, 1e-6
    beta = eps / (2 * math.log(2 / delta))
    s = ds.smooth_sensitivity(ages, "median", beta, 0, 100, "unbounded")
    assert math.isclose(s, 0.5 * math.exp(-800 * beta), rel_tol=1e-9)
    assert math.isclose(2 * s / eps * math.log(20), 6.178e-6, rel_tol=1e-3)


@pytest.mark.parametrize("n", range(1, 9))
def test_median_packing_pairs(n):
    """The proof's neighbours: under replacement (size n, either parity) and add/remove, lower medians ℓ and u."""
    lo, hi = 0.0, 100.0
    below = n // 2 + n % 2                   # one more at ℓ for an odd n, as many for an even n
    x = [lo] * below + [hi] * (n - below)
    y = [lo] * (below - 1) + [hi] * (n - below + 1)
    assert sorted(x)[(n - 1) // 2] == lo and sorted(y)[(n - 1) // 2] == hi
    x, y = [lo] * n + [hi] * n, [lo] * n + [hi] * (n + 1)
    assert sorted(x)[(len(x) - 1) // 2] == lo and sorted(y)[(len(y) - 1) // 2] == hi
    assert inverse.order_statistic(x, 0.5) == lo and inverse.order_statistic(y, 0.5) == hi


def test_the_smooth_sensitivity_mechanism_adds_laplace_noise_of_scale_2s_over_eps():
    """The accuracy table's smooth-sensitivity row simulates Laplace noise of scale 2 S_β(x)/ε with
    β = smooth_sensitivity_beta(ε, δ); the mechanism's own ``details`` report that scale (seeded data)."""
    from dpsens import mechanisms as mech
    x = np.random.default_rng(3).integers(17, 91, 301).astype(float)
    for eps, delta in ((0.5, 1e-6), (2.0, 1e-8)):
        out = mech.smooth_sensitivity_mechanism(x, "median", eps, delta, 0.0, 100.0, np.random.default_rng(0),
                                                neighbors="unbounded", details=True)
        s = ds.smooth_sensitivity(x, "median", mech.smooth_sensitivity_beta(eps, delta), 0.0, 100.0, "unbounded")
        assert math.isclose(out["noise_scale"], 2 * s / eps, rel_tol=1e-12)


@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
def test_inverse_sensitivity_len_tail_is_at_most_the_candidates_times_exp(eps):
    """Exercise ex-accuracy-proof-inverse, exactly, on the Adult ages' median over the whole-year candidates
    0..100: P(len >= t) <= (number of other candidates) e^{-ε t/2}, for t = 1, 5, 50, 500."""
    ages = ds.load_ages().to_numpy(dtype=float)
    grid = np.arange(101.0)
    dist = ism.inverse_sensitivity_distribution(ages, 0.5, eps, 0.0, 100.0, "unbounded", grid)
    p = np.exp(dist["log_prob"])
    assert math.isclose(p.sum(), 1.0, rel_tol=1e-9)
    for t in (1, 5, 50, 500):
        assert p[dist["len"] >= t].sum() <= (grid.size - 1) * math.exp(-eps * t / 2) + 1e-15, t


def test_the_worst_median_pair_costs_both_continuous_mechanisms_half_the_range():
    """*How accurate is it*: on the worst pair (50 records at each end of [0, 100]; then one more at 100) the
    exponential-mechanism quantile and the continuous inverse sensitivity output a uniform point of
    [0, 100] (every interval has the same score): their expected |error| is exactly 50 on either dataset."""
    for d in ds.figures.accuracy.worst_case_median_pair(50, 0.0, 100.0):
        fx = inverse.order_statistic(d, 0.5)
        for eps in (0.1, 1.0):
            for dist in (em.quantile_exponential_distribution(d, 0.5, eps, 0.0, 100.0, "unbounded"),
                         ism.inverse_sensitivity_distribution(d, 0.5, eps, 0.0, 100.0, "unbounded")):
                assert math.isclose(acc.expected_abs_error(dist, fx), 50.0)
