"""Exact local sensitivity against the brute-force oracle, invariants and bad input."""
import itertools
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dpsens as ds

from sources import ABSENCE_DAYS, QUERIES, RELATIONS, SCHOOL_YEARS, same
from profiles import examples


def check_all_queries(x, universe, k, rel):
    for q in QUERIES:
        exact = ds.local_sensitivity(x, q, universe, k, rel)
        brute = ds.local_sensitivity(x, q, universe, k, rel, method="bruteforce", progress=False)
        assert same(exact, brute), (q, x, universe, k, rel, exact, brute)


# ------------------------------------------------------------------ random cases

values = st.one_of(st.integers(-6, 12).map(float),
                   st.floats(-5, 10, allow_nan=False).map(lambda v: round(v, 2)))


@st.composite
def pool_case(draw):
    pool = draw(st.lists(values, min_size=3, max_size=9))
    n = draw(st.integers(2, len(pool)))
    idx = draw(st.permutations(range(len(pool))))[:n]
    x = [pool[i] for i in idx]
    k = draw(st.integers(1, n - 1))
    return x, ds.Pool(pool), k


@st.composite
def domain_case(draw):
    domain = draw(st.lists(values, min_size=1, max_size=5, unique=True))
    x = draw(st.lists(st.sampled_from(domain), min_size=2, max_size=7))
    k = draw(st.integers(1, len(x) - 1))
    return x, ds.Domain(domain), k


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.one_of(pool_case(), domain_case()), rel=st.sampled_from(RELATIONS),
       query=st.sampled_from(QUERIES))
def test_exact_equals_bruteforce_random(case, rel, query):
    x, universe, k = case
    exact = ds.local_sensitivity(x, query, universe, k, rel)
    brute = ds.local_sensitivity(x, query, universe, k, rel, method="bruteforce", progress=False)
    assert same(exact, brute)


# ------------------------------------------------------------------ the sources' settings

@pytest.mark.parametrize("column", [SCHOOL_YEARS, ABSENCE_DAYS])
@pytest.mark.parametrize("rel", RELATIONS)
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_scenario_a_release_first_six(column, rel, k):
    check_all_queries(column[:6], ds.Pool(column), k, rel)


@pytest.mark.parametrize("values", [[1, 2], [1, 2, 3]], ids=["mood", "driving"])
@pytest.mark.parametrize("reading", ["pool", "domain"])
def test_scenario_b_every_release(values, reading):
    n = 4
    universe = ds.Pool(values * n) if reading == "pool" else ds.Domain(values)
    for x in ds.releases(universe, n):
        for k in (1, 2, 3):
            for rel in RELATIONS:
                check_all_queries(list(x), universe, k, rel)


def test_scenario_b_pool_and_domain_differ_where_the_pool_runs_out():
    # [2, 2, 2, 2] from the pool [1, 2] * 4 cannot gain another 2; from the domain it can.
    x = [2, 2, 2, 2]
    pool, domain = ds.Pool([1, 2] * 4), ds.Domain([1, 2])
    assert ds.local_sensitivity(x, "sum", pool) == 2.0       # remove a 2 (adding a 1 changes 1)
    assert ds.local_sensitivity(x, "sum", domain) == 2.0     # remove or add a 2
    assert ds.local_sensitivity(x, "var", pool) == pytest.approx(4 / 25)   # add a 1
    assert ds.local_sensitivity(x, "var", domain) == pytest.approx(4 / 25)
    # k = 3 on [1, 1, 2, 2]: the pool has only two 2s left to add (sum + 5); the domain has any
    # number (sum + 6).  This is the case where the source's `values * n` pool is not a range.
    assert ds.local_sensitivity([1, 1, 2, 2], "sum", pool, 3) == 5.0
    assert ds.local_sensitivity([1, 1, 2, 2], "sum", domain, 3) == 6.0
    # the mean does not see it: removing three records leaves one, a change of 0.5 either way
    assert ds.local_sensitivity([1, 1, 2, 2], "mean", pool, 3) == 0.5
    assert ds.local_sensitivity([1, 1, 2, 2], "mean", domain, 3) == 0.5


@pytest.mark.parametrize("reading", ["pool", "domain"])
@pytest.mark.parametrize("rel", RELATIONS)
def test_median_grid_every_release(reading, rel):
    grid = [1, 2, 3, 10, 11]
    universe = ds.Pool(grid) if reading == "pool" else ds.Domain(grid)
    for x in ds.releases(universe, 3):
        for k in (1, 2):
            check_all_queries(list(x), universe, k, rel)


def test_variance_interior_example():
    x = [0, 0, 0, 8, 8]
    for universe in (ds.Domain(range(9)), ds.Domain(np.linspace(0, 8, 81))):
        assert ds.local_sensitivity(x, "var", universe, 1, "bounded") == pytest.approx(5.76)
    # only the extremes available: the best decrease is to move an 8 to 0 (10.24 -> change 5.12)
    assert ds.local_sensitivity(x, "var", ds.Domain([0, 8]), 1, "bounded") == pytest.approx(15.36 - 10.24)


# ------------------------------------------------------------------ invariants

@settings(max_examples=examples(40), deadline=None)
@given(case=st.one_of(pool_case(), domain_case()), shift=st.integers(-50, 50))
def test_shift_changes_only_unbounded_sum(case, shift):
    x, universe, k = case
    moved = type(universe)(universe.values + shift)
    xs = np.asarray(x) + shift
    for rel in RELATIONS:
        for q in QUERIES:
            a = ds.local_sensitivity(x, q, universe, k, rel)
            b = ds.local_sensitivity(xs, q, moved, k, rel)
            if q == "sum" and rel == "unbounded":
                continue
            assert np.isclose(a, b, rtol=1e-7, atol=1e-7), (q, rel)
    # the unbounded sum does move: removing k records of x + c changes the sum by k c more
    big = ds.local_sensitivity(np.asarray(x) + 1000, "sum", type(universe)(universe.values + 1000), k)
    assert big >= 1000 * k - 100 * k


@settings(max_examples=examples(40), deadline=None)
@given(case=st.one_of(pool_case(), domain_case()))
def test_bounded_monotone_in_k(case):
    # bounded neighbours at k contain those at k - 1 (replace up to k records), for every query
    x, universe, _ = case
    for q in QUERIES:
        values = [ds.local_sensitivity(x, q, universe, k, "bounded") for k in range(1, len(x))]
        assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values)), q


def test_unbounded_not_always_monotone_in_k():
    # exactly k removed or added: no monotonicity in general.  The variance of
    # {0, 5, 5, 5, 10} (var 10) can move by 15 at k = 3 but only by 10 at k = 4.
    x, universe = [0, 5, 5, 5, 10], ds.Domain([0, 1, 5, 10])
    ls = [ds.local_sensitivity(x, "var", universe, k) for k in (1, 2, 3, 4)]
    assert ls == pytest.approx([5.3125, 10.0, 15.0, 10.0])
    # the unbounded count is k, so it is monotone; so is the unbounded sum of non-negative data
    assert [ds.local_sensitivity(x, "count", universe, k) for k in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert [ds.local_sensitivity(x, "sum", universe, k) for k in (1, 2, 3, 4)] == [10, 20, 30, 40]
    # ... but not of data of both signs: {-5, 5}: removing one record changes the sum by 5,
    # while k = 2 and n = 3 ...
    assert ds.local_sensitivity([-5, 5, 5], "sum", ds.Pool([-5, 5, 5]), 1) == 5.0
    assert ds.local_sensitivity([-5, 5, 5], "sum", ds.Pool([-5, 5, 5]), 2) == 10.0


# ------------------------------------------------------------------ the Adult ages

def test_adult_ages_against_direct_formulas():
    ages = ds.load_ages().to_numpy()
    D = ds.Domain(range(101))
    n, s = len(ages), np.sort(ages)
    # mean, unbounded: drop the k youngest, or add k people aged 100
    for k in (1, 5, 10):
        mean = ages.mean()
        expected = max(s[k:].mean() - mean, mean - s[:n - k].mean(),
                       (ages.sum() + 100 * k) / (n + k) - mean, mean - ages.sum() / (n + k))
        assert ds.local_sensitivity(ages, "mean", D, k) == pytest.approx(expected, rel=1e-12)
        # sum, bounded: the k youngest moved to 100, or the k oldest moved to 0
        assert ds.local_sensitivity(ages, "sum", D, k, "bounded") == pytest.approx(
            max(100 * k - s[:k].sum(), s[n - k:].sum()), rel=1e-12)
    # variance, k = 1, bounded: compare with a direct search over (record value, new value) pairs
    vals = np.unique(ages)
    S, Q = ages.sum(), (ages.astype(float) ** 2).sum()
    old, new = vals[:, None].astype(float), np.arange(101)[None, :].astype(float)
    var = (Q - old**2 + new**2) / n - ((S - old + new) / n) ** 2
    assert ds.local_sensitivity(ages, "var", D, 1, "bounded") == pytest.approx(
        np.max(np.abs(var - ages.var())), rel=1e-9)


# ------------------------------------------------------------------ bad input

GRID = ds.Pool([1, 2, 3, 10, 11])


@pytest.mark.parametrize("method", ["exact", "bruteforce"])
def test_bad_input(method):
    ls = ds.local_sensitivity
    with pytest.raises(ValueError, match=r"query must be one of \['mean', 'median'"):
        ls([1, 2, 3], "average", GRID, method=method)
    for k in (0, 3, -1):
        with pytest.raises(ValueError, match=r"k must be an integer in \[1, 2\]"):
            ls([1, 2, 3], "mean", GRID, k=k, method=method)
    with pytest.raises(TypeError, match="k must be an integer"):
        ls([1, 2, 3], "mean", GRID, k=1.5, method=method)
    with pytest.raises(ValueError, match="not part of its pool"):
        ls([1, 2, 2], "mean", GRID, method=method)
    with pytest.raises(ValueError, match="not in Domain"):
        ls([1, 2, 4], "mean", ds.Domain([1, 2, 3]), method=method)
    with pytest.raises(ValueError, match="NaN"):
        ls([1, 2, np.nan], "mean", ds.Domain([1, 2, 3]), method=method)
    with pytest.raises(TypeError, match="numbers"):
        ls(["a", "b"], "mean", ds.Domain([1, 2, 3]), method=method)
    with pytest.raises(ValueError, match="must not be empty"):
        ls([], "mean", ds.Domain([1, 2, 3]), method=method)
    with pytest.raises(ValueError, match="must not be empty"):
        ls([1, 2], "mean", ds.Domain([]), method=method)
    with pytest.raises(ValueError, match="at least 2 records"):
        ls([1], "mean", GRID, method=method)
    with pytest.raises(ValueError, match="neighbors must be one of"):
        ls([1, 2, 3], "mean", GRID, neighbors="swap", method=method)
    with pytest.raises(TypeError, match="universe must be"):
        ls([1, 2, 3], "mean", [1, 2, 3, 10, 11], method=method)


def test_bad_method_and_callable():
    with pytest.raises(ValueError, match=r"method must be one of \('exact', 'bruteforce'\)"):
        ds.local_sensitivity([1, 2, 3], "mean", GRID, method="fast")
    with pytest.raises(TypeError, match="callable is accepted by method='bruteforce' only"):
        ds.local_sensitivity([1, 2, 3], np.mean, GRID)


# ------------------------------------------------------------------ group privacy
@st.composite
def small_pool(draw):
    return ds.Pool(draw(st.lists(st.integers(0, 19).map(float), min_size=7, max_size=7))), 4


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=small_pool(), query=st.sampled_from(QUERIES))
def test_group_local_sensitivity_is_at_most_k_times_gs1_bounded(case, query):
    """Exercise ex-local-proof-group: LS_k(x) <= k GS_1 under bounded neighbours, at every release of the pool
    and k = 2, 3 (pools of 7 values in 0..19, releases of 4; a path of k single replacements, each moving f
    by at most GS_1)."""
    pool, n = case
    gs1 = ds.global_sensitivity(query, pool, n, k=1, neighbors="bounded")
    for k in (2, 3):
        for x in ds.releases(pool, n):
            assert ds.local_sensitivity(x, query, pool, k=k, neighbors="bounded") <= k * gs1 + 1e-9, (x, k)
