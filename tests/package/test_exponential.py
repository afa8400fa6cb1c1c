"""The exponential-mechanism quantile and the inverse sensitivity mechanism: exact distributions,
samplers against them (chi-square, fixed seeds), privacy on neighbouring pairs, bad input."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dpsens import inverse
from dpsens.mechanisms import exponential as em
from dpsens.mechanisms import inverse_sensitivity as ism


def _neighbour_pairs(relation, domain=(0, 1, 2, 3), max_n=4):
    """Every dataset of up to ``max_n`` values of ``domain`` with each of its neighbours under ``relation``."""
    for n in range(1, max_n + 1):
        for x in itertools.combinations_with_replacement(domain, n):
            xs = list(x)
            if relation == "bounded":
                nbs = [xs[:i] + xs[i + 1:] + [v] for i in range(n) for v in domain]
            else:
                nbs = [xs + [v] for v in domain] + ([xs[:i] + xs[i + 1:] for i in range(n)] if n > 1 else [])
            for y in nbs:
                yield xs, y


def brute_rank_utility_sensitivity(q, relation, domain=(0, 1, 2, 3), max_n=4):
    """max |u(x, r) - u(x', r)| over every dataset of up to max_n values of the domain, neighbour and r."""
    worst = 0.0
    for xs, y in _neighbour_pairs(relation, domain, max_n):
        for r in [-0.5, 0.5, 1.5, 2.5, 3.5]:
            u_x = -abs(sum(v < r for v in xs) - q * len(xs))
            u_y = -abs(sum(v < r for v in y) - q * len(y))
            worst = max(worst, abs(u_x - u_y))
    return worst


@pytest.mark.parametrize("q", [0.5, 0.9, 0.25])
@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_rank_utility_sensitivity_is_the_brute_force_maximum(q, relation):
    assert math.isclose(em.rank_utility_sensitivity(q, relation), brute_rank_utility_sensitivity(q, relation))


def test_rank_utility_values():
    x = [1, 2, 2, 5]
    assert em.quantile_rank_utility(x, 0.5, 1.5) == -1.0
    assert em.quantile_rank_utility(x, 0.5, 2.0) == -1.0      # #{x < 2} = 1
    assert em.quantile_rank_utility(x, 0.5, 3.0) == -1.0
    assert em.quantile_rank_utility(x, 0.5, 6.0) == -2.0


def test_distribution_by_hand():
    # x = [1, 3] on [0, 4], q = 1/2, eps = 2, bounded (du = 1): weights length * exp(u)
    d = em.quantile_exponential_distribution([1, 3], 0.5, 2.0, 0, 4)
    w = np.array([1 * math.exp(-1), 2 * math.exp(0), 1 * math.exp(-1)])
    assert np.allclose(np.exp(d["log_prob"]), w / w.sum(), rtol=1e-12)


def _chi_square_intervals(dist, draws):
    p = np.exp(dist["log_prob"])
    idx = np.searchsorted(dist["right"], draws, side="left")     # interval holding each draw
    idx = np.minimum(idx, len(p) - 1)
    keep = p > 1e-3
    observed = np.bincount(idx, minlength=len(p))
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(p[keep], p[~keep].sum()) * len(draws)
    mask = exp > 0
    if mask.sum() < 2:                       # one interval holds (numerically) all the probability
        return 1.0 if obs[mask].sum() == len(draws) else 0.0
    return stats.chisquare(obs[mask], exp[mask] * obs[mask].sum() / exp[mask].sum()).pvalue


@pytest.mark.parametrize("epsilon", [1e-4, 0.05, 1.0, 20.0, 1e3])
def test_samplers_match_exact_probabilities_heavy_ties(epsilon):
    x = np.array([37] * 60 + [30] * 10 + [45] * 25 + [80] * 4, dtype=float)
    for which, (dist_f, draw_f) in {
        "exponential": (em.quantile_exponential_distribution, em.quantile_exponential),
        "inverse": (ism.inverse_sensitivity_distribution, ism.inverse_sensitivity_quantile),
    }.items():
        for relation in ("bounded", "unbounded"):
            dist = dist_f(x, 0.5, epsilon, 0, 100, relation)
            draws = draw_f(x, 0.5, epsilon, 0, 100, np.random.default_rng(11), relation, size=20_000)
            assert np.all((draws >= 0) & (draws <= 100))
            assert _chi_square_intervals(dist, draws) > 1e-3, (which, relation)


def test_uniform_within_interval_and_seed_reproducible():
    a = em.quantile_exponential([10, 20], 0.5, 50.0, 0, 30, np.random.default_rng(3), size=50_000)
    b = em.quantile_exponential([10, 20], 0.5, 50.0, 0, 30, np.random.default_rng(3), size=50_000)
    assert np.array_equal(a, b)
    mid = a[(a > 10) & (a < 20)]
    assert stats.kstest((mid - 10) / 10, "uniform").pvalue > 1e-3


def _log_density(dist, t):
    idx = np.searchsorted(dist["right"], t, side="left")
    return dist["log_prob"][idx] - np.log(dist["right"][idx] - dist["left"][idx])


def _random_neighbor(x, relation, domain, rng):
    """One neighbour of ``x`` drawn at random: a record replaced (bounded), else one added or removed."""
    if relation == "bounded":
        y = x.copy()
        y[rng.integers(len(x))] = rng.choice(domain)
        return y
    if rng.random() < 0.5:
        return np.append(x, rng.choice(domain))
    return np.delete(x, rng.integers(len(x)))


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
@pytest.mark.parametrize("q", [0.5, 0.9])
def test_privacy_on_neighbouring_pairs(relation, q):
    """The largest |log ratio| of the two output densities, exactly on every cell, is <= eps."""
    rng = np.random.default_rng(21)
    domain = np.arange(0, 11)
    eps = 0.7
    worst = {"exponential": 0.0, "inverse": 0.0}
    for _ in range(40):
        x = rng.choice(domain, size=int(rng.integers(2, 8))).astype(float)
        y = _random_neighbor(x, relation, domain, rng)
        edges = np.unique(np.concatenate(([-0.5], x, y, [10.5])))
        t = (edges[:-1] + edges[1:]) / 2           # one point inside every cell of both partitions
        for name, f in (("exponential", em.quantile_exponential_distribution),
                        ("inverse", ism.inverse_sensitivity_distribution)):
            ratio = _log_density(f(x, q, eps, -0.5, 10.5, relation), t) - \
                _log_density(f(y, q, eps, -0.5, 10.5, relation), t)
            worst[name] = max(worst[name], float(np.max(np.abs(ratio))))
    assert worst["exponential"] <= eps + 1e-9
    assert worst["inverse"] <= eps + 1e-9
    assert worst["exponential"] > 0.25 * eps          # and the check is not vacuous


def test_inverse_len_on_the_gaps_is_what_the_mechanism_uses():
    x = np.array([1, 2, 2, 2, 7], dtype=float)
    d = ism.inverse_sensitivity_distribution(x, 0.5, 1.0, 0, 10)
    mids = (d["left"] + d["right"]) / 2
    assert np.array_equal(d["len"], inverse.inverse_len_quantile(x, 0.5, mids, 0, 10))


def test_numerically_safe_at_a_million():
    x = np.random.default_rng(0).integers(17, 91, size=1_000_000).astype(float)
    d = em.quantile_exponential_distribution(x, 0.5, 2.0, 0, 1000)
    assert np.isfinite(d["log_prob"]).sum() > 0 and math.isclose(np.exp(d["log_prob"]).sum(), 1.0, rel_tol=1e-9)
    r = em.quantile_exponential(x, 0.5, 2.0, 0, 1000, np.random.default_rng(1), size=200)
    assert np.all(np.abs(r - np.median(x)) <= 1.0)


@pytest.mark.parametrize("f", [em.quantile_exponential, ism.inverse_sensitivity_quantile])
def test_bad_input(f):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="outside"):
        f([1, 2, 300], 0.5, 1.0, 0, 100, rng)
    with pytest.raises(ValueError, match="epsilon"):
        f([1, 2], 0.5, 0.0, 0, 100, rng)
    with pytest.raises(ValueError, match="epsilon"):
        f([1, 2], 0.5, -1.0, 0, 100, rng)
    with pytest.raises(ValueError, match="empty"):
        f([], 0.5, 1.0, 0, 100, rng)
    with pytest.raises(ValueError, match="lower must be < upper"):
        f([5, 5], 0.5, 1.0, 5, 5, rng)
    with pytest.raises(ValueError, match="q must be"):
        f([1, 2], 0.0, 1.0, 0, 100, rng)
    with pytest.raises(TypeError, match="rng"):
        f([1, 2], 0.5, 1.0, 0, 100, 42)
    with pytest.raises(ValueError, match="neighbors"):
        f([1, 2], 0.5, 1.0, 0, 100, rng, neighbors="swap")


def test_head_to_head_is_seeded_and_sane():
    from dpsens.experiments import head_to_head

    rng_data = np.random.default_rng(9)
    x = np.clip(np.round(rng_data.normal(40, 12, size=3000)), 17, 90)
    kw = dict(runs=200, n_chunks=50, n_partitions=3)
    e1, t1 = head_to_head.quantile_head_to_head(x, [0.5], [0.5, 2.0], 1e-6, np.random.default_rng(1), **kw)
    e2, t2 = head_to_head.quantile_head_to_head(x, [0.5], [0.5, 2.0], 1e-6, np.random.default_rng(1), **kw)
    assert t1.equals(t2)
    assert set(t1["mechanism"]) == set(head_to_head.HEAD_TO_HEAD_MECHANISMS)
    # on whole-number data the continuous mechanisms land in a gap next to the answer: error < 1 mostly
    em_err = e1[(0.5, 2.0, "exponential mechanism (ε)")]
    assert np.median(em_err) < 1
    assert np.all((t1["refused"] >= 0) & (t1["refused"] <= 1))
    with pytest.raises(ValueError, match="quantiles"):
        head_to_head.quantile_head_to_head(x, [0.3], [1.0], 1e-6, np.random.default_rng(1), **kw)


def test_monotone_counting_score_needs_no_factor_two_exactly():
    """The most-common-value score (counts) is monotone under additions/removals: exp(eps g) is eps-DP there;
    under replacement it is not monotone and exp(eps g) overspends, while exp(eps g / 2) does not."""
    rng = np.random.default_rng(8)
    eps = 0.8
    worst = {"unbounded, no 2": 0.0, "bounded, no 2": 0.0, "bounded, with 2": 0.0}
    for _ in range(300):
        x = rng.integers(0, 4, size=int(rng.integers(2, 7)))
        add = np.append(x, rng.integers(0, 4))
        rep = x.copy()
        rep[rng.integers(len(x))] = rng.integers(0, 4)
        cx, ca, cr = (np.bincount(v, minlength=4) for v in (x, add, rep))
        lp = lambda c, mono: em.exponential_log_probabilities(c, 1.0, eps, monotone=mono)  # noqa: E731
        worst["unbounded, no 2"] = max(worst["unbounded, no 2"], np.max(np.abs(lp(cx, True) - lp(ca, True))))
        worst["bounded, no 2"] = max(worst["bounded, no 2"], np.max(np.abs(lp(cx, True) - lp(cr, True))))
        worst["bounded, with 2"] = max(worst["bounded, with 2"], np.max(np.abs(lp(cx, False) - lp(cr, False))))
    assert worst["unbounded, no 2"] <= eps + 1e-12
    assert worst["bounded, with 2"] <= eps + 1e-12
    assert worst["bounded, no 2"] > eps + 0.1          # dropping the 2 without monotonicity overspends


def test_generic_mechanism_samples_its_probabilities():
    u = np.array([0.0, -1.0, -3.0, -np.inf])
    lp = em.exponential_log_probabilities(u, 1.0, 2.0)
    assert np.allclose(np.exp(lp), np.array([1, math.exp(-1), math.exp(-3), 0]) / (1 + math.exp(-1) + math.exp(-3)))
    draws = em.exponential_mechanism(u, 1.0, 2.0, np.random.default_rng(4), size=30_000)
    counts = np.bincount(draws, minlength=4)
    assert counts[3] == 0
    assert stats.chisquare(counts[:3], np.exp(lp[:3]) * 30_000).pvalue > 1e-3
    with pytest.raises(ValueError, match="utilities"):
        em.exponential_log_probabilities([np.nan], 1.0, 1.0)
    with pytest.raises(ValueError, match="sensitivity"):
        em.exponential_log_probabilities([0.0], 0.0, 1.0)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_rank_utility_is_not_monotone_and_the_factor_two_is_needed(relation):
    """The chapter's claim: the rank score is monotone under neither relation (some neighbour raises one
    output's score and lowers another's), and dropping the 2 really overspends on some pair, computed
    exactly over the outputs -0.5..3.5 with the counting measure."""
    q, eps = 0.5, 1.0
    rs = np.array([-0.5, 0.5, 1.5, 2.5, 3.5])
    du = em.rank_utility_sensitivity(q, relation)
    both_ways, worst_no_two, worst_with_two = False, 0.0, 0.0
    for xs, y in _neighbour_pairs(relation):
        ux, uy = em.quantile_rank_utility(xs, q, rs), em.quantile_rank_utility(y, q, rs)
        both_ways |= bool(np.any(uy > ux) and np.any(uy < ux))
        def gap(mono, ux=ux, uy=uy):
            return np.max(np.abs(em.exponential_log_probabilities(ux, du, eps, monotone=mono)
                                 - em.exponential_log_probabilities(uy, du, eps, monotone=mono)))
        worst_no_two, worst_with_two = max(worst_no_two, gap(True)), max(worst_with_two, gap(False))
    assert both_ways
    assert worst_with_two <= eps + 1e-12
    assert worst_no_two > eps + 1e-3


@pytest.mark.parametrize("relation, expected", [("bounded", 2), ("unbounded", 1)])
def test_two_sided_median_score_sensitivity(relation, expected):
    """Exercise ex-em-score-sensitivity: -|#{x < z} - #{x > z}| has GS 2 under replacement, 1 under add/remove
    (brute force over small datasets, neighbours and z)."""
    worst = 0
    for xs, y in _neighbour_pairs(relation):
        for z in (-0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5):
            g = [abs(sum(v < z for v in d) - sum(v > z for v in d)) for d in (xs, y)]
            worst = max(worst, abs(g[0] - g[1]))
    assert worst == expected


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_privacy_on_neighbouring_pairs_public_grid(relation):
    """Inverse sensitivity over a public finite grid (counting measure): |log ratio| <= eps on every candidate,
    including the data values themselves, where len can be 0."""
    rng = np.random.default_rng(22)
    domain = np.arange(0, 11)
    grid = np.arange(0.0, 11.0)
    eps, worst = 0.7, 0.0
    for _ in range(60):
        x = rng.choice(domain, size=int(rng.integers(2, 8))).astype(float)
        y = _random_neighbor(x, relation, domain, rng)
        for q in (0.5, 0.9):
            lx = ism.inverse_sensitivity_distribution(x, q, eps, 0, 10, relation, candidates=grid)["log_prob"]
            ly = ism.inverse_sensitivity_distribution(y, q, eps, 0, 10, relation, candidates=grid)["log_prob"]
            worst = max(worst, float(np.max(np.abs(lx - ly))))
    assert 0.25 * eps < worst <= eps + 1e-9
