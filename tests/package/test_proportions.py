"""Tests of dpsens.proportions: sensitivities against brute force over neighbours,
releases checked statistically with fixed seeds, the exercise checkers."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import dpsens as ds
from dpsens import proportions as P
from dpsens.exercises import proportions as EX


# ---------------------------------------------------------------------------
# brute force: build the records, enumerate every neighbour, recompute
# ---------------------------------------------------------------------------
def _records(counts):
    return np.repeat(np.arange(len(counts)), counts)


def _props(records, K):
    return np.bincount(records, minlength=K) / len(records)


def _neighbor_datasets(counts, relation):
    """Every neighbouring record array (labels 0..K-1 fixed)."""
    rec = _records(counts)
    K = len(counts)
    if relation in ("unbounded", "removal"):
        for i in range(len(rec)):
            yield np.delete(rec, i)
    if relation in ("unbounded", "addition"):
        for label in range(K):
            yield np.append(rec, label)
    if relation == "bounded":
        for i in range(len(rec)):
            for label in range(K):
                if label != rec[i]:
                    out = rec.copy()
                    out[i] = label
                    yield out


def _brute_changes(counts, relation):
    K = len(counts)
    p = _props(_records(counts), K)
    diffs = np.array([np.abs(_props(y, K) - p) for y in _neighbor_datasets(counts, relation) if len(y) > 0])
    return diffs.max(axis=0), diffs.sum(axis=1).max()


SMALL = [c for K in (2, 3, 4) for c in itertools.product(range(0, 5), repeat=K) if sum(c) >= 2]


@pytest.mark.parametrize("relation", ["unbounded", "bounded"])
def test_changes_match_brute_force_on_every_small_dataset(relation):
    for counts in SMALL:
        per_label, l1 = _brute_changes(counts, relation)
        assert np.allclose(P.proportion_changes(counts, relation), per_label, atol=1e-15), counts
        assert math.isclose(P.proportion_local_sensitivity(counts, relation, "l1"), l1, abs_tol=1e-15), counts
        assert math.isclose(P.proportion_local_sensitivity(counts, relation, "linf"), per_label.max(),
                            abs_tol=1e-15), counts


def test_removal_change_formula_from_the_chapter():
    # max(n - k_i, k_i) / (n (n - 1)) when 0 < k_i < n, and 2 (n - k_j)/(n(n-1)) for the vector
    rng = np.random.default_rng(7)
    for _ in range(40):
        counts = rng.integers(1, 30, size=rng.integers(2, 6))
        n = counts.sum()
        per_label, l1 = _brute_changes(counts, "removal")
        assert np.allclose(per_label, np.maximum(n - counts, counts) / (n * (n - 1)))
        assert math.isclose(l1, 2 * (n - counts.min()) / (n * (n - 1)))


def test_source_formula_is_the_removal_local_sensitivity_when_all_labels_present():
    # the source's max_i (n - k_i)/(n(n-1)) is exactly the largest single-proportion change on removal
    for counts in SMALL:
        if min(counts) == 0:
            continue
        per_label, _ = _brute_changes(counts, "removal")
        assert math.isclose(P.source_proportion_sensitivity(counts), per_label.max(), abs_tol=1e-15)


def test_source_sensitivity_is_local_it_changes_between_neighbors():
    dx = P.source_proportion_sensitivity([1, 500, 499])
    dxp = P.source_proportion_sensitivity([0, 500, 499])  # the singleton's record removed
    assert dx == pytest.approx(1 / 1000)
    assert dxp == pytest.approx(500 / (999 * 998))
    assert dx / dxp > 1.99


def test_global_sensitivities_brute_force():
    # unbounded: worst case over every dataset with 2 <= n <= 7 and 2 or 3 labels
    worst_linf = worst_l1 = 0.0
    for K in (2, 3):
        for counts in itertools.product(range(0, 8), repeat=K):
            if 2 <= sum(counts) <= 7:
                per, l1 = _brute_changes(counts, "unbounded")
                worst_linf, worst_l1 = max(worst_linf, per.max()), max(worst_l1, l1)
    assert worst_linf == pytest.approx(P.proportion_global_sensitivity(neighbors="unbounded"))
    assert worst_l1 == pytest.approx(P.proportion_global_sensitivity(neighbors="unbounded", norm="l1"))
    # bounded, n public: 1/n and 2/n, reached by every dataset with two labels present
    for n in (5, 10, 1000):
        assert P.proportion_global_sensitivity(n) == pytest.approx(1 / n)
        assert P.proportion_global_sensitivity(n, norm="l1") == pytest.approx(2 / n)
    per, l1 = _brute_changes((3, 7), "bounded")
    assert per.max() == pytest.approx(1 / 10) and l1 == pytest.approx(2 / 10)


def test_intervals_source_and_correct():
    eps = 0.7
    t_source = -math.log(0.505) / eps
    assert P.laplace_coverage(t_source, 1 / eps) == pytest.approx(0.495)
    assert P.laplace_halfwidth(0.99, 1 / eps) == pytest.approx(math.log(100) / eps)
    # empirical coverage of both intervals, 200k seeded draws
    z = ds.laplace_mechanism(0.0, 1.0, eps, np.random.default_rng(3), size=200_000)
    assert np.mean(np.abs(z) <= t_source) == pytest.approx(0.495, abs=0.004)
    assert np.mean(np.abs(z) <= math.log(100) / eps) == pytest.approx(0.99, abs=0.001)


def test_release_noise_scales_are_the_documented_ones():
    counts = np.array([100, 900])
    n, eps, size = 1000, 0.5, 50_000
    rng = np.random.default_rng(11)
    checks = {
        "source": (P.source_release(counts, eps, rng, size)[:, 0], P.source_proportion_sensitivity(counts) / eps),
        "counts": (P.counts_release(counts, eps, rng, size)[:, 0], 1 / (n * eps)),
        "n_public one": (P.n_public_release(counts, eps, rng, size, label=0), 1 / (n * eps)),
        "n_public vector": (P.n_public_release(counts, eps, rng, size)[:, 0], 2 / (n * eps)),
    }
    for name, (draws, scale) in checks.items():
        # Kolmogorov-Smirnov against the exact Laplace law
        p = stats.kstest(draws, stats.laplace(loc=0.1, scale=scale).cdf).pvalue
        assert p > 1e-3, name


def test_private_releases_are_centred_and_normalised():
    counts = np.array([30, 50, 120])
    rng = np.random.default_rng(5)
    hist = P.histogram_release(counts, 1.0, rng, size=20_000)
    assert hist.shape == (20_000, 3)
    assert np.allclose(hist.sum(axis=1), 1.0)
    assert np.allclose(hist.mean(axis=0), counts / counts.sum(), atol=5e-4)
    ratio = P.count_and_total_release(counts, 1.0, rng, size=20_000)
    assert np.all((ratio >= 0) & (ratio <= 1))
    assert np.allclose(ratio.mean(axis=0), counts / counts.sum(), atol=1e-3)
    one = P.histogram_release(counts, 1.0, rng)
    assert one.shape == (3,)


def test_errors_order_of_methods():
    errs = P.proportion_errors([100, 900], [0.5, 2.0], 20_000, np.random.default_rng(2))
    for eps in (0.5, 2.0):
        row = errs.loc[eps]
        # n public: RMSE of Lap(1/(n eps)) = sqrt(2)/(n eps)
        assert row["n_public"] == pytest.approx(math.sqrt(2) / (1000 * eps), rel=0.03)
        # the source's (non-private) scale is 0.9 of it; splitting the budget costs about 2x
        assert row["source"] == pytest.approx(0.9009 * math.sqrt(2) / (1000 * eps), rel=0.03)
        assert row["count_and_total"] > 1.8 * row["n_public"]


def test_threshold_attack_rates_and_bound():
    a = np.array([0.0] * 90 + [1.0] * 10)
    b = np.array([0.0] * 99 + [1.0] * 1)
    out = P.threshold_attack(a, b, centre=0.0, radius=0.5)
    assert out["rate_x"] == 0.1 and out["rate_xprime"] == 0.01 and out["ratio"] == pytest.approx(10)
    assert 0 < out["ratio_lower"] < 10


def test_leak_is_measurable():
    rng = np.random.default_rng(2024)
    x = P.source_release([1, 500, 499], 1.0, rng, size=100_000)[:, 1]
    xp = P.source_release([0, 500, 499], 1.0, rng, size=100_000)[:, 1]
    out = P.threshold_attack(x, xp, centre=0.5, radius=0.003)
    assert out["ratio_lower"] > math.e ** 1 * 2  # far beyond what ε = 1 allows


@pytest.mark.parametrize("bad, exc", [([3], ValueError), ([1.5, 2], ValueError), ([-1, 4], ValueError),
                                      ([1, 0], ValueError), ("ab", TypeError)])
def test_bad_counts(bad, exc):
    with pytest.raises(exc, match="counts"):
        P.as_counts(bad)


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="neighbors"):
        P.proportion_changes([1, 2], "sideways")
    with pytest.raises(ValueError, match="norm"):
        P.proportion_local_sensitivity([1, 2], norm="l7")
    with pytest.raises(ValueError, match="n "):
        P.proportion_global_sensitivity(None, "bounded")
    with pytest.raises(TypeError, match="rng"):
        P.histogram_release([1, 2], 1.0, rng=42)
    with pytest.raises(ValueError, match="epsilon"):
        P.n_public_release([1, 2], 0.0, np.random.default_rng(0))


def test_figures_have_titles_labels_legends():
    for fig in (ds.figures.proportions.plot_proportion_source_figures(trials=2000), ds.figures.proportions.plot_proportion_errors(epsilons=(0.5, 1.0), trials=500),
                ds.figures.proportions.plot_proportion_leak(), ds.figures.proportions.plot_proportion_explorer(n=100, share=0.1, epsilon=0.5)):
        for ax in fig.axes:
            assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
            assert ax.get_legend() is not None or fig.legends   # in the axes, or below them
        fig.clf()


# ---------------------------------------------------------------------------
# exercise checkers
# ---------------------------------------------------------------------------
def test_checker_halfwidth():
    assert EX.check_proportion_halfwidth(...).status == "not yet"
    assert EX.check_proportion_halfwidth(math.log(100) / (2000 * 0.5)).correct
    assert EX.check_proportion_halfwidth(-math.log(0.505) / 1000).status == "wrong"
    assert EX.check_proportion_halfwidth(math.log(100) / 0.5).status == "wrong"


def test_checker_vector_change():
    # brute force here, independent of the package: counts (2, 3, 5)
    _, l1 = _brute_changes((2, 3, 5), "unbounded")
    assert EX.check_proportion_vector_change(...).status == "not yet"
    assert EX.check_proportion_vector_change(l1).correct
    assert math.isclose(l1, 16 / 90)
    assert EX.check_proportion_vector_change(8 / 90).status == "wrong"  # the single-proportion answer


def test_checker_leak_pair():
    assert EX.check_proportion_leak_pair(...).status == "not yet"
    assert EX.check_proportion_leak_pair(([1, 999], [0, 999])).correct
    assert EX.check_proportion_leak_pair(([1, 500, 499], [0, 500, 499])).status == "wrong"
    assert EX.check_proportion_leak_pair(([1, 999], [0, 998])).status == "wrong"  # not neighbours
    assert EX.check_proportion_leak_pair("nonsense").status == "wrong"


def test_the_chapters_table_against_brute_force():
    """*Proportions vs frequencies*' worked table, counts (3, 5, 12), add/remove neighbours: every
    proportion's largest change, the vector's L1 change and the note's Δ against the neighbours walked here
    (the note's Δ is the largest single-proportion change on removal)."""
    counts = (3, 5, 12)
    per_label, l1 = _brute_changes(counts, "unbounded")
    assert np.allclose(P.proportion_changes(counts), per_label, atol=1e-15)
    assert math.isclose(P.proportion_local_sensitivity(counts, norm="l1"), l1, abs_tol=1e-15)
    assert math.isclose(P.source_proportion_sensitivity(counts), per_label.max(), abs_tol=1e-15)
    assert math.isclose(per_label.max(), 17 / (20 * 19))          # max(n - k_i, k_i)/(n(n - 1)) at k_i = 3


def test_two_label_tables_up_to_25_records_meet_the_global_sensitivities():
    """Exercise ex-proportions-proof-global, by brute force on every two-label table of 2 to 25 records:
    add/remove changes a proportion by at most 1/n and at most 1/2 overall (reached, at n = 2); replacing
    one record's label changes it by at most GS(n) = 1/n."""
    largest = 0.0
    for n in range(2, 26):
        for c in range(n + 1):
            per_label, _ = _brute_changes((c, n - c), "unbounded")
            assert per_label.max() <= 1 / n + 1e-12, (c, n)
            largest = max(largest, per_label.max())
            bounded, _ = _brute_changes((c, n - c), "bounded")
            assert bounded.max() <= P.proportion_global_sensitivity(n) + 1e-12, (c, n)
    assert largest == P.proportion_global_sensitivity(neighbors="unbounded") == 0.5
