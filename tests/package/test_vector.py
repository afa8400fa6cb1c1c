"""Vector sensitivities (L1, L2, L∞) of *Many answers at once*, exact against brute force.

The oracle walks every neighbour record by record with the package's one
neighbour generator (:func:`dpsens.neighbors.iter_neighbors`) and evaluates
the queries with numpy, independently of the counts-based engine.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dpsens as ds
from dpsens import vector as V
from dpsens.neighbors import iter_neighbors, releases
from dpsens.queries import QUERIES

NUMPY = {name: QUERIES[name] for name in QUERIES}


def brute_local(x, names, universe, k, neighbors, norm):
    base = np.array([NUMPY[q](np.asarray(x, float)) for q in names])
    best = 0.0
    for y in iter_neighbors(x, universe, k, neighbors):
        if len(y) == 0:
            continue
        change = np.array([NUMPY[q](np.asarray(y, float)) for q in names]) - base
        best = max(best, float(V.vector_norm(change, norm)))
    return best


UNIVERSES = [ds.Domain([0, 1, 2, 6, 10]), ds.Pool([1, 2, 2, 5, 9, 9, 14])]
QUERY_SETS = [["mean", "median"], ["sum", "count"], ["var", "percentile_75", "mean"], ["std"]]


@pytest.mark.parametrize("universe", UNIVERSES, ids=["domain", "pool"])
@pytest.mark.parametrize("names", QUERY_SETS, ids=lambda q: "+".join(q))
@pytest.mark.parametrize("neighbors", ["unbounded", "bounded"])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("norm", V.NORMS)
def test_local_vector_sensitivity_equals_brute_force(universe, names, neighbors, k, norm):
    rng = np.random.default_rng(hash((k, norm, neighbors)) % 2 ** 32)
    for n in (4, 5):
        for _ in range(3):
            if isinstance(universe, ds.Pool):
                x = rng.choice(universe.values, size=n, replace=False)
            else:
                x = rng.choice(universe.values, size=n)
            exact = V.vector_local_sensitivity(x, names, universe, k, neighbors, norm)
            assert exact == pytest.approx(brute_local(x, names, universe, k, neighbors, norm), rel=1e-9, abs=1e-12)


def test_the_reached_neighbour_is_a_neighbour_reaching_the_maximum():
    x, D = [1, 2, 2, 10], ds.Domain([0, 1, 2, 6, 10])
    value, y = V.vector_local_sensitivity(x, ["mean", "median"], D, 2, "bounded", "l2", return_neighbor=True)
    assert sorted(y) in [sorted(z) for z in iter_neighbors(x, D, 2, "bounded")]
    change = [np.mean(y) - np.mean(x), np.median(y) - np.median(x)]
    assert math.isclose(float(V.vector_norm(change, "l2")), value)


@pytest.mark.parametrize("neighbors", ["unbounded", "bounded"])
@pytest.mark.parametrize("norm", V.NORMS)
@pytest.mark.parametrize("k", [1, 2])
def test_global_over_sizes_equals_brute_force_over_every_release(neighbors, norm, k):
    P = ds.Pool([0, 1, 3, 3, 8, 10])
    sizes = range(3, 6)
    expected = max(brute_local(x, ["mean", "median"], P, k, neighbors, norm)
                   for n in sizes for x in releases(P, n))
    assert V.vector_global_sensitivity(["mean", "median"], P, sizes, k, neighbors, norm) == pytest.approx(expected)


def test_every_size_on_a_pool_is_larger_than_one_size():
    """Add/remove with n private: the maximum over every size of a pool (all its datasets) exceeds the
    maximum at one size, which is valid only when that size is public."""
    P = ds.Pool([0, 1, 3, 3, 8, 10])
    every = V.vector_global_sensitivity(["mean", "median"], P, range(2, 7))
    assert every == pytest.approx(max(V.vector_global_sensitivity(["mean", "median"], P, n) for n in range(2, 7)))
    assert every > V.vector_global_sensitivity(["mean", "median"], P, 4)


def test_joint_sensitivity_is_not_the_sum():
    """Mean and median on {0, 1}, n = 3 public: each alone moves by 1/3 and 1; together 4/3 --
    the sum here; but two counts of disjoint halves move by 1 together, not 2."""
    D = ds.Domain([0, 1])
    alone = [V.vector_global_sensitivity([q], D, 3, neighbors="bounded") for q in ("mean", "median")]
    together = V.vector_global_sensitivity(["mean", "median"], D, 3, neighbors="bounded")
    assert together == pytest.approx(sum(alone)) == pytest.approx(4 / 3)


# ------------------------------------------------------------------ one query per group

def brute_grouped(x, groups, query, domain, labels, k, neighbors, norm):
    records = list(zip(groups, x, strict=True))
    universe = [(lab, v) for lab in labels for v in domain.values.tolist()]
    f = NUMPY[query]

    def vec(recs):
        out = []
        for lab in labels:
            vals = [v for g, v in recs if g == lab]
            if not vals:
                if query in ("count", "sum"):
                    out.append(0.0)
                    continue
                return None
            out.append(f(np.asarray(vals, float)))
        return np.array(out)

    base = vec(records)
    best = 0.0
    removals = list(itertools.combinations(range(len(records)), k))
    adds = list(itertools.combinations_with_replacement(universe, k))
    cands = []
    if neighbors == "unbounded":
        cands += [[r for i, r in enumerate(records) if i not in rem] for rem in removals if len(records) > k]
        cands += [records + list(a) for a in adds]
    else:
        cands += [[r for i, r in enumerate(records) if i not in rem] + list(a) for rem in removals for a in adds]
    for y in cands:
        v = vec(y)
        if v is not None:
            best = max(best, float(V.vector_norm(v - base, norm)))
    return best


@pytest.mark.parametrize("query", ["sum", "count", "mean", "median"])
@pytest.mark.parametrize("neighbors", ["unbounded", "bounded"])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("norm", V.NORMS)
def test_grouped_sensitivity_equals_brute_force(query, neighbors, k, norm):
    D = ds.Domain([0, 1, 4])
    rng = np.random.default_rng(7 + k)
    labels = ["a", "b", "c"]
    for _ in range(3):
        x = rng.choice(D.values, size=5)
        groups = ["a", "a", "b", "b", "c"] if query not in ("count", "sum") else list(rng.choice(labels, 5))
        exact = V.grouped_local_sensitivity(x, groups, query, D, labels, k, neighbors, norm)
        assert exact == pytest.approx(brute_grouped(x, groups, query, D, labels, k, neighbors, norm), abs=1e-12)


# ------------------------------------------------------------------ histograms

@pytest.mark.parametrize("neighbors", ["unbounded", "bounded"])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("norm", V.NORMS)
def test_histogram_sensitivity_equals_brute_force(neighbors, k, norm):
    bins = [0, 1, 2]
    best = 0.0
    for x in itertools.combinations_with_replacement(bins, 4):
        base = V.histogram_counts(list(x), bins)
        for y in iter_neighbors(list(x), ds.Domain(bins), k, neighbors):
            best = max(best, float(V.vector_norm(V.histogram_counts(list(y), bins) - base, norm)))
    assert best == pytest.approx(V.histogram_sensitivity(neighbors, norm, k, n_bins=len(bins)))


def test_noisy_histogram_distributions():
    """Seeded: Laplace noise of scale 1/ε (variance 2/ε²) and Gaussian noise of the analytic σ, per bin."""
    counts = np.array([5, 0, 12])
    rng = np.random.default_rng(23)
    lap = V.noisy_histogram(counts, 0.5, rng, size=200_000) - counts
    assert lap.mean(axis=0) == pytest.approx([0, 0, 0], abs=0.03)
    assert lap.var(axis=0) == pytest.approx([8.0] * 3, rel=0.02)
    assert np.mean(np.abs(lap[:, 0]) <= 2 * math.log(20)) == pytest.approx(0.95, abs=0.003)
    gau = V.noisy_histogram(counts, 0.5, rng, "gaussian", 1e-6, size=200_000) - counts
    sigma = ds.mechanisms.gaussian_sigma(1.0, 0.5, 1e-6, "analytic")
    assert gau.std(axis=0) == pytest.approx([sigma] * 3, rel=0.01)
    assert np.mean(np.abs(gau[:, 1]) <= 1.959964 * sigma) == pytest.approx(0.95, abs=0.003)


@pytest.mark.parametrize("call, word", [
    (lambda: V.noisy_histogram([], 1.0, np.random.default_rng(0)), "counts"),
    (lambda: V.noisy_histogram([1, 2], 0.0, np.random.default_rng(0)), "epsilon"),
    (lambda: V.noisy_histogram([1, 2], -1.0, np.random.default_rng(0)), "epsilon"),
    (lambda: V.noisy_histogram([1, 2], 1.0, np.random.default_rng(0), "gaussian", 1.5), "delta"),
    (lambda: V.noisy_histogram([1, 2], 1.0, np.random.default_rng(0), "gaussian", 0.0), "delta"),
    (lambda: V.noisy_histogram([1, 2], 1.0, np.random.default_rng(0), "gaussian"), "delta"),
    (lambda: V.histogram_counts([1, 2], []), "bins"),
    (lambda: V.vector_local_sensitivity([1, 2], ["mean"], ds.Domain([1, 2]), norm="l3"), "norm"),
    (lambda: V.vector_local_sensitivity([1, 2], [], ds.Domain([1, 2])), "queries"),
])
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()
