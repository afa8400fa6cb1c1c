"""Global sensitivity with a private size (sup over every size >= n_min) against brute force over pairs."""
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

import dpsens as ds

from sources import QUERIES, same


def bf_pairs_domain(query, values, sizes, k):
    """max |f(x) - f(x + A)| over every x of a size in ``sizes`` and every k values A (independent enumeration)."""
    f = ds.evaluate
    best = 0.0
    for N in sizes:
        for x in combinations_with_replacement(values, N):
            fx = f(query, list(x))
            for A in combinations_with_replacement(values, k):
                best = max(best, abs(f(query, list(x) + list(A)) - fx))
    return best


_AXIS = {"mean": np.mean, "median": np.median, "var": np.var, "std": np.std, "count": lambda y, axis: y.shape[1],
         "sum": np.sum}


def _rows(query, Y):
    if query.startswith("percentile"):
        return np.percentile(Y, int(query.split("_")[1]), axis=1)
    return _AXIS[query](Y, axis=1)


def bf_binary(query, sizes, k, w=1.0):
    """The same on the domain {0, w}, where a multiset is its number of zeros (all of them at once, per size)."""
    best = 0.0
    for N in sizes:
        z = np.arange(N + 1)[:, None]
        X = np.where(np.arange(N)[None, :] >= z, w, 0.0)            # row z: z zeros, then N - z copies of w
        fx = _rows(query, X)
        for a0 in range(k + 1):
            Y = np.concatenate([np.zeros((N + 1, a0)), X, np.full((N + 1, k - a0), w)], axis=1)
            best = max(best, float(np.max(np.abs(_rows(query, Y) - fx))))
    return best


def priv(query, universe, n_min=1, k=1):
    return ds.global_sensitivity(query, universe, size="private", n_min=n_min, k=k)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("values,n_min,k", [([0, 1, 5], 1, 1), ([0, 1, 5], 2, 1), ([-2, 0, 3], 1, 2),
                                             ([1, 2, 6], 3, 1), ([0, 4], 2, 2)])
def test_domain_against_brute_force_over_sizes(query, values, n_min, k):
    # The exact supremum is over every size; brute force covers sizes n_min .. n_min + 5.  For the
    # percentiles the supremum may sit at a larger size, so brute force can only be <= it here
    # (the binary test below covers every size up to several periods).
    exact = priv(query, ds.Domain(values), n_min, k)
    brute = bf_pairs_domain(query, values, range(n_min, n_min + 6 - k), k)
    if query == "median" or query.startswith("percentile"):
        assert brute <= exact + 1e-9
    else:
        assert same(exact, brute), (exact, brute)


@pytest.mark.parametrize("query", ["median", "percentile_25", "percentile_50", "percentile_75", "percentile_90"])
@pytest.mark.parametrize("n_min,k", [(1, 1), (5, 1), (3, 2), (40, 3)])
def test_percentiles_binary_domain_every_size(query, n_min, k):
    # On {0, 2} a release is its number of zeros: brute force over every size up to n_min + 260
    # (more than two periods past the size where the values become periodic).
    exact = priv(query, ds.Domain([0, 2]), n_min, k)
    assert same(exact, bf_binary(query, range(n_min, n_min + 261), k, w=2.0)), exact


@pytest.mark.parametrize("query", ["var", "std", "mean"])
@pytest.mark.parametrize("n_min,k", [(1, 1), (7, 1), (10, 3), (100, 2)])
def test_var_std_binary_domain_every_size(query, n_min, k):
    exact = priv(query, ds.Domain([0, 3]), n_min, k)
    brute = bf_binary(query, range(n_min, n_min + 120), k, w=3.0)
    assert same(exact, brute), (exact, brute)


def test_supremum_dominates_every_public_size_beyond_n_min_plus_k():
    D = ds.Domain([0, 1, 2, 7, 10])
    for q in QUERIES:
        for k in (1, 2):
            p = priv(q, D, 3, k)
            assert max(ds.global_sensitivity(q, D, n, k) for n in range(3 + k, 60)) <= p + 1e-12, q


def test_closed_forms():
    D = ds.Domain(range(101))
    assert priv("mean", D) == 50.0                                   # k w / (k + 1)
    assert same(priv("mean", D, k=3), 75.0)
    assert same(priv("mean", D, n_min=32_561), 100 / 32_562)         # k w / (n_min + k)
    assert priv("count", D, k=4) == 4.0 and priv("sum", D, k=2) == 200.0
    assert priv("var", D) == 2500.0 and priv("std", D) == 50.0       # {0} and {0, 100}: w^2 / 4
    # the size-n value is NOT a private-size sensitivity: it is below the supremum over sizes >= n
    assert ds.global_sensitivity("mean", D, 32_561) < priv("mean", D, n_min=100)


def test_pool_against_brute_force():
    pool = [0, 1, 1, 4, 9, 9, 12]
    for q in QUERIES:
        for n_min, k in ((1, 1), (2, 2), (3, 1)):
            best = 0.0
            for N in range(n_min, len(pool) - k + 1):
                for idx in combinations(range(len(pool)), N + k):
                    big = [pool[i] for i in idx]
                    for drop in combinations(range(N + k), k):
                        small = [v for j, v in enumerate(big) if j not in drop]
                        best = max(best, abs(ds.evaluate(q, big) - ds.evaluate(q, small)))
            assert same(priv(q, ds.Pool(pool), n_min, k), best), (q, n_min, k)


def test_bad_input():
    D = ds.Domain([0, 1])
    with pytest.raises(ValueError, match="size must be one of"):
        ds.global_sensitivity("mean", D, 5, size="hidden")
    with pytest.raises(ValueError, match="takes no n"):
        ds.global_sensitivity("mean", D, 5, size="private")
    with pytest.raises(ValueError, match="bounded"):
        ds.global_sensitivity("mean", D, size="private", neighbors="bounded")
    with pytest.raises(ValueError, match="not implemented"):
        ds.global_sensitivity("mean", D, size="private", neighbors="symmetric")
    with pytest.raises(ValueError, match="n_min is for"):
        ds.global_sensitivity("mean", D, 5, n_min=3)
    with pytest.raises(ValueError, match="needed"):
        ds.global_sensitivity("mean", D)
    with pytest.raises(ValueError, match="n_min"):
        ds.global_sensitivity("mean", D, size="private", n_min=0)
    with pytest.raises(ValueError, match="no pair"):
        ds.global_sensitivity("mean", ds.Pool([1, 2]), size="private", n_min=2)
    assert np.isfinite(ds.global_sensitivity("var", ds.Domain([3.0]), size="private"))


@pytest.mark.parametrize("query, k", [("median", 1), ("median", 4), ("median", 7), ("percentile_90", 2),
                                      ("percentile_25", 1)])
def test_percentile_sizes_settle_the_supremum(query, k):
    """The T sizes from N0 on hold the largest size-n value over a much longer run of sizes (periodicity)."""
    D = ds.Domain([0, 1])
    n_min = 3
    p = ds.queries.PERCENTILES.get(query, 50)
    period = 2 if query == "median" else 100
    n0 = -(-100 * (2 * k + 3) // min(p, 100 - p)) + 1
    longest = max(ds.global_sensitivity(query, D, n, k) for n in range(n_min + k, n0 + 3 * period))
    assert ds.global_sensitivity(query, D, size="private", n_min=n_min, k=k) == pytest.approx(longest, abs=1e-12)
