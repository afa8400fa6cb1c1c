"""Tests of dpsens.smooth: A(t), distance to high local sensitivity, smooth sensitivity.

Oracles, all independent of the fast code:

* a brute-force search over the neighbour graph on small integer data;
* the direct O(n^2) formula of Nissim, Raskhodnikova & Smith (2007) for the
  median of odd n (bounded relation) on random data up to n = 20,000;
* for the mean, closed forms and datasets built explicitly.

Why an integer grid suffices for the brute force: every step changes one
record to (or adds) a value in [lower, upper]; for the queries tested the
local sensitivity is a maximum of differences of order statistics / sums
which are monotone in the new value, so the extreme neighbours use the values
``lower`` or ``upper``; and the datasets that maximise it consist of original
records, ``lower``, ``upper`` and copies of original records (the value is
linear in any free record between two fixed ones, so moving that record to
an end of its range never loses).  With integer data and integer bounds all
of these lie on the grid ``{lower, ..., upper}``, so the search over grid
datasets finds the maximum over all real datasets.

The same holds for the interpolated percentiles with records added or
removed, where the size of the dataset (hence the interpolation weight)
changes: the local sensitivity of ``y`` is attained by adding ``lower`` or
``upper`` or removing a record of ``y``, and it is a non-negative
combination of two or three consecutive order statistics of ``y``; an added
record can be moved to ``lower`` or ``upper`` without lowering it (step 1 of
the argument in the module docstring of :mod:`dpsens.smooth`).  So the
worst datasets consist of original records and copies of ``lower`` and
``upper``, and their local sensitivity only involves such values: all on
the integer grid.  No midpoints are needed.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dpsens as ds
from dpsens import smooth as sm
from dpsens.relation import Relation
from dpsens.smooth import _engines as engines
from dpsens.smooth import _oracles as oracles

QUANTILES = ["median", "percentile_25", "percentile_50", "percentile_75", "percentile_90"]


# ---------------------------------------------------------------------------------------------- brute force

def _f(name, y):
    y = np.asarray(y, dtype=float)
    if name == "mean":
        return float(y.mean())
    if name == "sum":
        return float(y.sum())
    if name == "count":
        return float(len(y))
    if name == "median":
        return float(np.median(y))
    if name == "var":
        return float(np.var(y))
    if name == "std":
        return float(np.std(y))
    return float(np.percentile(y, int(name.split("_")[1])))


def _steps(y, grid, relation):
    out = set()
    if relation == "bounded":
        for i in range(len(y)):
            for v in grid:
                out.add(tuple(sorted(y[:i] + (v,) + y[i + 1:])))
    else:
        for v in grid:
            out.add(tuple(sorted(y + (v,))))
        if len(y) >= 2:
            for i in range(len(y)):
                out.add(y[:i] + y[i + 1:])
    return out


def brute_curve(x, name, lower, upper, relation):
    """Yield A(0), A(1), ... by breadth-first search over every dataset within t steps (grid values)."""
    grid = tuple(range(lower, upper + 1))
    start = tuple(sorted(x))
    seen, frontier, best = {start}, {start}, 0.0
    cache = {}

    def f(y):
        if y not in cache:
            cache[y] = _f(name, y)
        return cache[y]

    def ls(y):
        fy = f(y)
        return max(abs(fy - f(z)) for z in _steps(y, grid, relation))

    while True:
        best = max([best] + [ls(y) for y in frontier])
        yield best
        new = set()
        for y in frontier:
            for z in _steps(y, grid, relation):
                if z not in seen:
                    seen.add(z)
                    new.add(z)
        frontier = new


def brute_A(x, name, t_max, lower, upper, relation):
    """A(0..t_max) by breadth-first search over every dataset within t steps."""
    gen = brute_curve(x, name, lower, upper, relation)
    return np.array([next(gen) for _ in range(t_max + 1)])


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_A_matches_brute_force_over_the_neighbor_graph(relation):
    rng = np.random.default_rng(11 if relation == "bounded" else 12)
    names = ["mean", "sum", "count"] + QUANTILES
    checked = 0
    for _ in range(45 if relation == "bounded" else 40):
        n = int(rng.integers(2, 6))
        lower = int(rng.integers(-2, 1))
        upper = int(rng.integers(lower + 1, lower + 6))
        x = [int(v) for v in rng.integers(lower, upper + 1, n)]
        t_max = 3 if relation == "bounded" else max(1, min(3, 7 - n))
        for name in names:
            expected = brute_A(x, name, t_max, lower, upper, relation)
            got = ds.ls_at_distance(x, name, np.arange(t_max + 1), lower, upper, relation)
            assert got == pytest.approx(expected, abs=1e-12), (relation, name, x, lower, upper)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("name", ["percentile_25", "percentile_75", "percentile_90"])
def test_unbounded_percentiles_against_brute_force(name):
    """A(t) at every t, the distance and the smooth sensitivity of the interpolated percentiles with
    records added or removed, against the breadth-first search on small integer data (ties, data at
    the bounds, a single record).  The search runs until no longer distance can matter for the smooth
    sensitivity: A(t) <= upper - lower, so once e^{-beta (t+1)} (upper - lower) is at most the best
    e^{-beta s} A(s) so far, no t beyond the search can win."""
    rng = np.random.default_rng(int(name.split("_")[1]))
    for case in range(100):
        n = int(rng.integers(2, 7))
        lower = int(rng.integers(-1, 1))
        upper = lower + int(rng.integers(1, 5))
        x = [int(v) for v in rng.integers(lower, upper + 1, n)]
        if case % 4 == 1:
            x = [int(rng.integers(lower, upper + 1))] * n                  # all tied
        elif case % 4 == 2:
            x = [int(v) for v in rng.choice([lower, upper], n)]            # at the bounds
        beta = float(rng.choice([1.0, 1.5, 2.5, 4.0]))
        curve, best = [], 0.0
        for t, a in enumerate(brute_curve(x, name, lower, upper, "unbounded")):
            curve.append(a)
            best = max(best, math.exp(-beta * t) * a)
            if t >= 4 and math.exp(-beta * (t + 1)) * (upper - lower) <= best:
                break
        t_max = len(curve) - 1
        assert math.exp(-beta * (t_max + 1)) * (upper - lower) <= best      # the search covers every t that matters
        curve = np.array(curve)
        got = ds.ls_at_distance(x, name, np.arange(t_max + 1), lower, upper, "unbounded")
        assert got == pytest.approx(curve, abs=1e-12), (name, x, lower, upper)
        s, t_star = sm.smooth_sensitivity_argmax(x, name, beta, lower, upper, "unbounded")
        assert s == pytest.approx(best, rel=1e-9), (name, x, lower, upper, beta)
        assert t_star <= t_max and math.exp(-beta * t_star) * curve[t_star] == pytest.approx(s, rel=1e-9)
        levels = np.unique(np.round(np.concatenate(([0.0], curve)), 9))    # bounds between levels, rounding apart
        for bound in [0.0, *((levels[:-1] + levels[1:]) / 2), levels[-1] + 0.1]:
            d = ds.distance_to_high_ls(x, name, bound, lower, upper, "unbounded")
            above = np.nonzero(curve > bound)[0]
            if above.size:
                assert d == above[0], (name, x, bound)
            else:
                assert d > t_max


def _ls_percentile_unbounded_direct(y, p, lo, up):
    """LS of np.percentile(., p) at y from the definition: add lo or up, remove any record."""
    fy = float(np.percentile(y, p))
    cands = [abs(float(np.percentile(np.append(y, v), p)) - fy) for v in (lo, up)]
    if len(y) >= 2:
        cands += [abs(float(np.percentile(np.delete(y, j), p)) - fy) for j in range(len(y))]
    return max(cands)


def test_unbounded_percentiles_against_explicit_datasets():
    """Real-valued data: every dataset made of a subset of x plus copies of lower and upper (step 1 of
    the argument in dpsens.smooth, checked on the grid above), its LS from the definition."""
    rng = np.random.default_rng(8)
    lo, up = 0.0, 10.0
    for trial in range(5):
        n = int(rng.integers(5, 8))
        x = np.round(rng.uniform(lo, up, n) ** (1 + trial % 3) / up ** (trial % 3), 3)
        t_max = 4
        datasets = []                  # (cost, sorted y)
        for r in range(0, min(n - 1, t_max) + 1):
            for R in itertools.combinations(range(n), r):
                kept = np.delete(np.sort(x), R)
                for a in range(0, t_max - r + 1):
                    for b in range(0, t_max - r - a + 1):
                        datasets.append((r + a + b, np.concatenate((np.full(a, lo), kept, np.full(b, up)))))
        for name in ("percentile_25", "percentile_75", "percentile_90"):
            p = int(name.split("_")[1])
            want = np.zeros(t_max + 1)
            for cost, y in datasets:
                want[cost] = max(want[cost], _ls_percentile_unbounded_direct(y, p, lo, up))
            want = np.maximum.accumulate(want)
            got = ds.ls_at_distance(x, name, np.arange(t_max + 1), lo, up, "unbounded")
            assert got == pytest.approx(want, abs=1e-12), (name, x)


def test_unbounded_percentiles_on_larger_data():
    """A(0) against the independent exact local sensitivity of dpsens.local; the smooth sensitivity
    against the whole curve when few distances can be skipped (tiny beta, tied or packed data)."""
    from dpsens.local import exact_local_sensitivity
    rng = np.random.default_rng(9)
    for trial in range(12):
        n = int(rng.integers(2, 2000))
        x = rng.integers(0, 31, n) if trial % 2 else np.clip(np.round(rng.normal(15, 2, n)), 0, 30).astype(int)
        for name in ("percentile_25", "percentile_75", "percentile_90"):
            assert ds.ls_at_distance(x, name, 0, 0, 30, "unbounded") == pytest.approx(
                exact_local_sensitivity(x, name, ds.Domain(range(31)), 1, "unbounded"), abs=1e-12)
    for x in (np.round(rng.normal(50, 3, 301)), np.sort(rng.uniform(49.99, 50.01, 400))):
        n = len(x)
        for name in ("percentile_25", "percentile_90"):
            a = sm.ls_curve(x, name, n + 2, 0, 100, "unbounded")
            assert a[-1] == a[-2] == pytest.approx(max(int(name.split("_")[1]), 100 - int(name.split("_")[1])))
            for beta in (1e-3, 1e-2, 0.1):
                s, t_star = sm.smooth_sensitivity_argmax(x, name, beta, 0, 100, "unbounded")
                assert s == pytest.approx(np.max(np.exp(-beta * np.arange(n + 3)) * a), rel=1e-9)
                assert math.exp(-beta * t_star) * a[t_star] == pytest.approx(s, rel=1e-9)


def test_source_median_grid_values():
    # a row of the source's median grid (X = {1, 2, 3, 10, 11}): replacing 1 by 11 moves the median of (1, 2, 10) from 2 to 10
    x = [1, 2, 10]
    assert ds.ls_at_distance(x, "median", 0, 1, 11) == brute_A(x, "median", 0, 1, 11, "bounded")[0] == 8.0


# ---------------------------------------------------------------------------------------------- NRS07 oracle

# n = 20001 (seconds) in the full profile only; the quick profile keeps n up to 2001
@pytest.mark.parametrize("n", [3, 5, 101, 2001, pytest.param(20001, marks=pytest.mark.slow)])
def test_median_bounded_against_the_direct_nrs_formula(n):
    rng = np.random.default_rng(n)
    x = rng.uniform(0, 100, n) if n % 3 else np.round(rng.normal(50, 10, n)).clip(0, 100)
    ts = np.unique(np.concatenate(([0, 1, 2, 5], rng.integers(0, n + 2, 12))))
    got = ds.ls_at_distance(x, "median", ts, 0, 100)
    want = [oracles.median_A_direct(x, int(t), 0, 100) for t in ts]
    assert got == pytest.approx(want, abs=1e-12)
    for beta in (0.5, 0.02, 1e-3):
        s, t_star = sm.smooth_sensitivity_argmax(x, "median", beta, 0, 100)
        # the direct formula over every t up to the point where e^{-beta t} (upper - lower) <= s: beyond it no t wins
        t_stop = min(n + 1, int(math.ceil(math.log(100 / s) / beta)) + 1) if s > 0 else n + 1
        direct = max(math.exp(-beta * t) * oracles.median_A_direct(x, t, 0, 100) for t in range(t_stop + 1))
        assert s == pytest.approx(direct, rel=1e-9)
        assert math.exp(-beta * t_star) * oracles.median_A_direct(x, t_star, 0, 100) == pytest.approx(s, rel=1e-9)
        assert math.exp(-beta * t_stop) * 100 <= s or t_stop >= n + 1


def test_pair_divide_and_conquer_against_all_pairs():
    rng = np.random.default_rng(5)
    for _ in range(200):
        nl, nr = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        Lpos = np.arange(nl)
        Rpos = np.arange(nl, nl + nr) + int(rng.integers(0, 3))
        Lval = rng.normal(size=nl) * rng.choice([0.1, 1, 10])
        Rval = rng.normal(size=nr) * rng.choice([0.1, 1, 10])
        if rng.random() < 0.2:
            Lval = np.round(Lval)
            Rval = np.round(Rval)
        beta = float(rng.choice([0.01, 0.3, 2.0]))
        cost = Rpos[None, :] - Lpos[:, None] - 1
        allp = np.exp(-beta * cost) * (Rval[None, :] - Lval[:, None])
        got, c = oracles.pair_smooth(Lval, Lpos, Rval, Rpos, beta)
        want = allp.max()
        if want <= 0:
            assert got == -np.inf or got <= 0
        else:
            assert got == pytest.approx(want, rel=1e-12)
            assert np.any(np.isclose(allp[cost == c], got, rtol=1e-12))


# ---------------------------------------------------------------------------------------------- mean, sum, count

def test_mean_bounded_closed_form():
    x = np.array([10.0, 20, 35, 90])
    n, lo, up = len(x), 0.0, 100.0
    a = ds.ls_at_distance(x, "mean", np.arange(6), lo, up)
    assert a[0] == pytest.approx(max(up - x.min(), x.max() - lo) / n)
    assert a[1:] == pytest.approx(np.full(5, (up - lo) / n))
    s = ds.smooth_sensitivity(x, "mean", 0.1, lo, up)
    assert s == pytest.approx(max(a[0], math.exp(-0.1) * (up - lo) / n))
    assert ds.ls_at_distance(x, "sum", 0, lo, up) == pytest.approx(90.0)
    assert ds.ls_at_distance(x, "sum", 1, lo, up) == pytest.approx(100.0)
    assert ds.ls_at_distance(x, "count", 4, lo, up) == 0.0
    assert ds.ls_at_distance(x, "count", 4, lo, up, "unbounded") == 1.0
    assert ds.ls_at_distance(x, "sum", 3, -5, up, "unbounded") == 100.0


def _ls_mean_unbounded_direct(y, lo, up):
    """LS of the mean of y from the definition: every addition of lo/up, every removal."""
    y = np.asarray(y, dtype=float)
    mu = y.mean()
    cands = [abs((y.sum() + v) / (len(y) + 1) - mu) for v in (lo, up)]
    if len(y) >= 2:
        cands += list(np.abs((y.sum() - y) / (len(y) - 1) - mu))
    return max(cands)


def test_mean_unbounded_curve_against_explicit_datasets():
    """For every split r removals + a additions the explicitly built candidate datasets (largest/smallest
    records removed, copies of lower/upper added) give A(t); they are evaluated from the definition of LS."""
    rng = np.random.default_rng(3)
    for _trial in range(6):
        n = int(rng.integers(5, 40))
        x = np.sort(rng.integers(0, 101, n).astype(float))
        lo, up = 0.0, 100.0
        t_max = min(n + 2, 12)
        want = []
        for t in range(t_max + 1):
            best = 0.0
            for r in range(0, min(t, n - 1) + 1):
                for a in range(0, t - r + 1):
                    for keep in (x[: n - r], x[r:], np.concatenate((x[: n - r - 1], x[-1:])),
                                 np.concatenate((x[:1], x[r + 1:]))):
                        for n_up in range(0, a + 1):
                            y = np.concatenate((keep, np.full(a - n_up, lo), np.full(n_up, up)))
                            best = max(best, _ls_mean_unbounded_direct(y, lo, up))
            if t >= n + 1:
                best = max(best, (up - lo) / 2)
            want.append(best)
        got = ds.ls_at_distance(x, "mean", np.arange(t_max + 1), lo, up, "unbounded")
        assert got == pytest.approx(np.array(want), rel=1e-12)


def test_mean_unbounded_on_the_ages():
    ages = ds.load_ages().to_numpy(dtype=float)
    n = len(ages)
    a0 = ds.ls_at_distance(ages, "mean", 0, 0, 100, "unbounded")
    assert a0 == pytest.approx(_ls_mean_unbounded_direct(ages, 0, 100))
    assert a0 <= 100 / (n + 1)        # the source's bound u/(n+1) is an upper bound here
    d = ds.distance_to_high_ls(ages, "mean", 0.005, 0, 100, "unbounded")
    assert d >= n + 1 - 100 / 0.005    # at least the source's count of removals
    assert ds.ls_at_distance(ages, "mean", d, 0, 100, "unbounded") > 0.005 >= \
        ds.ls_at_distance(ages, "mean", d - 1, 0, 100, "unbounded")
    beta = 1 / (2 * math.log(2 * n ** 2))
    s, t = sm.smooth_sensitivity_argmax(ages, "mean", beta, 0, 100, "unbounded")
    assert t == 0 and s == pytest.approx(a0)


# ---------------------------------------------------------------------------------------------- consistency

@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_smooth_and_distance_agree_with_the_full_curve(relation):
    rng = np.random.default_rng(21)
    names = ["mean", "sum", "count"] + QUANTILES
    for trial in range(25):
        n = int(rng.integers(2, 50))
        up = float(rng.integers(1, 40))
        x = rng.integers(0, int(up) + 1, n).astype(float) if trial % 2 else rng.uniform(0, up, n)
        beta = float(rng.choice([0.01, 0.1, 0.7, 3.0]))
        for name in names:
            t_all = n + 3          # A is constant from t = n + 2 on for every relation and query here
            a = sm.ls_curve(x, name, t_all, 0, up, relation)
            assert np.all(np.diff(a) >= -1e-15)
            assert a[-1] == a[-2]
            s = ds.smooth_sensitivity(x, name, beta, 0, up, relation)
            assert s == pytest.approx(np.max(np.exp(-beta * np.arange(t_all + 1)) * a), rel=1e-9, abs=1e-15)
            for bound in (0.0, a[0], a[min(2, t_all)] * 0.999, a[-1]):
                d = ds.distance_to_high_ls(x, name, bound, 0, up, relation)
                above = np.nonzero(a > bound)[0]
                assert d == (above[0] if above.size else math.inf)


def test_even_median_is_the_mean_of_the_two_middle_values():
    x = [0, 4, 6, 10]                  # median 5; replacing 0 by 10 gives (6 + 10)/2 = 8
    assert ds.ls_at_distance(x, "median", 0, 0, 10) == pytest.approx(3.0)
    assert ds.ls_at_distance(x, "median", 0, 0, 10) == pytest.approx(brute_A(x, "median", 0, 0, 10, "bounded")[0])


def test_unbounded_median_of_tied_ages_is_tiny_but_positive():
    ages = ds.load_ages().to_numpy(dtype=float)
    n = len(ages)
    beta = 1 / (2 * math.log(2 * n ** 2))
    for relation in ("bounded", "unbounded"):
        assert ds.ls_at_distance(ages, "median", 0, 0, 100, relation) == 0.0
        s = ds.smooth_sensitivity(ages, "median", beta, 0, 100, relation)
        d1 = ds.distance_to_high_ls(ages, "median", 0.0, 0, 100, relation)
        assert 0 < s < 1e-3 and d1 > 10
        assert s >= math.exp(-beta * d1) * ds.ls_at_distance(ages, "median", d1, 0, 100, relation)


# ---------------------------------------------------------------------------------------------- bad input

def test_bad_input_raises_clear_errors():
    x = [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="beta"):
        ds.smooth_sensitivity(x, "median", 0.0, 0, 10)
    with pytest.raises(ValueError, match="beta"):
        ds.smooth_sensitivity(x, "median", -1.0, 0, 10)
    with pytest.raises(ValueError, match="t must be"):
        ds.ls_at_distance(x, "median", -1, 0, 10)
    with pytest.raises(ValueError, match="t must be"):
        ds.ls_at_distance(x, "median", 1.5, 0, 10)
    with pytest.raises(ValueError, match="lower must be <= upper"):
        ds.ls_at_distance(x, "median", 1, 10, 0)
    with pytest.raises(ValueError, match="outside"):
        ds.distance_to_high_ls(x, "median", 1.0, 0, 2.5)
    with pytest.raises(ValueError, match="NaN"):
        ds.smooth_sensitivity([1.0, float("nan")], "mean", 0.1, 0, 10)
    with pytest.raises(ValueError, match="not implemented exactly"):
        ds.smooth_sensitivity(x, "var", 0.1, 0, 10)
    with pytest.raises(ValueError, match="not implemented exactly"):
        ds.ls_at_distance(x, "std", 0, 0, 10, "unbounded")
    with pytest.raises(ValueError, match="not implemented exactly"):
        ds.smooth_sensitivity(x, "var", 0.1, 0, 10, "unbounded")
    with pytest.raises(ValueError, match="neighbors"):
        ds.ls_at_distance(x, "mean", 0, 0, 10, "swap")
    with pytest.raises(ValueError, match="bound"):
        ds.distance_to_high_ls(x, "mean", -0.1, 0, 10)
    with pytest.raises(ValueError, match="query"):
        ds.ls_at_distance(x, "mode", 0, 0, 10)
    assert ds.distance_to_high_ls(x, "median", 10.0, 0, 10) == math.inf


# ---------------------------------------------------------------------------------------------- exercise checkers

def _status(v):
    return v.status


def test_ptr_checkers():
    ex = ds.exercises
    delta = 1e-6                                          # the book's public delta
    assert _status(ex.check_ptr_source_accident(...)) == "not yet"
    t_src = math.log(2 / delta) / 2
    assert ex.check_ptr_source_accident(0.5 * math.exp(-t_src)).correct
    assert ex.check_ptr_source_accident(0.5 * math.sqrt(delta / 2)).correct      # the same, in closed form
    assert _status(ex.check_ptr_source_accident(delta)) == "wrong"
    assert _status(ex.check_ptr_source_accident(math.exp(-t_src))) == "wrong"   # forgot the 1/2
    assert _status(ex.check_ptr_release_distance(...)) == "not yet"
    t = math.log(1 / delta)
    d = math.ceil(t + math.log(50))
    assert 0.5 * math.exp(-(d - t)) <= 0.01 < 0.5 * math.exp(-(d - 1 - t))
    assert ex.check_ptr_release_distance(d).correct
    assert _status(ex.check_ptr_release_distance(d - 1)) == "wrong"
    assert _status(ex.check_ptr_release_distance(d + 0.5)) == "wrong"
    # non-finite or non-numeric answers get a verdict with a hint, never an exception
    for bad in (float("nan"), float("inf"), -float("inf"), "abc", [d], None):
        verdict = ex.check_ptr_release_distance(bad)
        assert _status(verdict) == ("not yet" if bad is None else "wrong"), bad
        assert bad is None or verdict.hint
    assert _status(ex.check_ptr_median_distance(...)) == "not yet"
    ages = ds.load_ages().to_numpy(dtype=float)
    # independent: the direct NRS formula, scanned
    k = next(k for k in range(0, len(ages)) if oracles.median_A_direct(ages, k, 0, 100) > 2)
    assert ex.check_ptr_median_distance(k).correct
    assert _status(ex.check_ptr_median_distance(k - 1)) == "wrong"


def test_smooth_checkers():
    ex = ds.exercises
    n = 32561
    assert _status(ex.check_smooth_beta(...)) == "not yet"
    assert ex.check_smooth_beta(1 / (2 * math.log(2 / 1e-6))).correct
    assert _status(ex.check_smooth_beta(1 / (2 * math.log(2 * n ** 2)))) == "wrong"   # delta = 1/n^2: n is private
    assert _status(ex.check_smooth_turning_point(...)) == "not yet"
    beta = 1 / (2 * math.log(2 / 1e-6))
    k = math.floor(n - 1 / math.expm1(beta)) + 1
    assert ex.check_smooth_turning_point(k).correct
    assert _status(ex.check_smooth_turning_point(0)) == "wrong"
    assert _status(ex.check_smooth_median_direct(...)) == "not yet"
    x = ds.load_ages().to_numpy(dtype=float)[:2001]
    b = 1 / (2 * math.log(2 * 2001 ** 2))
    direct = max(math.exp(-b * t) * oracles.median_A_direct(x, t, 0, 100) for t in range(2003))
    assert ex.check_smooth_median_direct(direct).correct
    assert _status(ex.check_smooth_median_direct(oracles.median_A_direct(x, 0, 0, 100))) == "wrong"   # the LS


# ---------------------------------------------------------------------------------------------- figures

def test_figures_are_labelled():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from dpsens.figures import ptr, smooth as sp

    ages = ds.load_ages().to_numpy(dtype=float)
    figs = [
        ptr.plot_error_histograms({"a": [0.1, 0.2], "b": [0.3]}, "t", "error (years)"),
        ptr.plot_ptr_tradeoff([0.1, 1, 10], {"x": [0, 5, math.inf]}, 1.0, 3.0, "t"),
        sp.plot_smooth_curve(np.arange(3), {"c": [1.0, 0.5, 0.0]}, "t", marks={"m": (0, 1.0)}),
        sp.plot_error_vs_epsilon([0.5, 1], {"a": [1.0, 0.5]}, "t", "error (years)"),
        sp.plot_smooth_explorer(ages, epsilon=1.0, delta_exp=2, sample_size=201),
    ]
    for fig in figs:
        for ax in fig.axes:
            assert ax.get_ylabel() and ax.get_title()
            assert ax.get_legend() is not None or fig.legends    # in the axes, or below them
        assert fig.axes[-1].get_xlabel()                         # stacked panels may share the lowest one
        plt.close(fig)


# ---------------------------------------------------------------------------------------------- huge bounds (issue 14)

def test_unbounded_percentiles_with_bounds_far_larger_than_the_data():
    """Percentiles below the median were computed on the mirrored data ``lower + upper - x``, which rounds
    the spacing of the data away when the bounds are huge; and values were scaled by 100 (overflow near
    1e306).  Independent check: the local sensitivity from the definition (add lower/upper, remove any
    record) and the data shifted by a constant, which must not change A."""
    x = np.array([1.0, 2.0, 3.0])
    assert ds.ls_at_distance(x, "percentile_25", 0, 0, 1e16, neighbors="unbounded") == \
        pytest.approx(_ls_percentile_unbounded_direct(x, 25, 0, 1e16)) == pytest.approx(0.75)
    for name, p in (("percentile_25", 25), ("percentile_75", 75), ("percentile_90", 90)):
        for lo, up in ((0.0, 1e306), (-1e306, 1e306), (-1e307, 0.0)):
            y = np.array([1.0, 2.0, 3.0, 7.0]) if lo >= 0 else np.array([-7.0, -3.0, -2.0, -1.0])
            got = ds.ls_at_distance(y, name, 0, lo, up, neighbors="unbounded")
            assert np.isfinite(got) and got == pytest.approx(_ls_percentile_unbounded_direct(y, p, lo, up), rel=1e-12)
            s = ds.smooth_sensitivity(y, name, 0.1, lo, up, neighbors="unbounded")
            # A(t) <= max(q, 1-q) (upper - lower), and S >= A(0)
            assert got <= s <= max(p, 100 - p) / 100 * (up - lo)
    # the unbounded mean mirrored the same way for its downward terms
    for lo, up in ((0.0, 1e16), (-1e16, 10.0)):
        y = np.array([1.0, 2.0, 3.0])
        assert ds.ls_at_distance(y, "mean", 0, lo, up, neighbors="unbounded") == \
            pytest.approx(_ls_mean_unbounded_direct(y, lo, up), rel=1e-12)
    # small bounds: unchanged by the fix (mirror of a 25th percentile is the 75th)
    rng = np.random.default_rng(14)
    z = rng.uniform(0, 10, 40)
    a25 = sm.ls_curve(z, "percentile_25", 30, 0, 10, "unbounded")
    a75 = sm.ls_curve(10 - z, "percentile_75", 30, 0, 10, "unbounded")
    assert a25 == pytest.approx(a75, abs=1e-12)


# ---------------------------------------------------------------------------------------------- restricted engines

def _full_engine_smooth(x, name, beta, lo, up, relation):
    """The smooth sensitivity from the full (unrestricted) engine: every candidate pair considered."""
    xs = np.sort(np.asarray(x, dtype=float))
    return engines.engine(name, xs, float(lo), float(up), Relation(relation)).smooth(beta)[0]


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_smooth_from_restricted_engines_equals_the_full_engine(relation):
    """The fast path builds engines that only see pairs within a reach of the percentile and proves with an
    upper bound U(t) >= A(t) that no longer distance can win.  Against the full engine (the divide and
    conquer over every pair, itself checked against brute force and the NRS07 formula above) on data
    where long distances matter: a far gap (two clusters), ties, packed values, heavy tails, small and
    large beta."""
    rng = np.random.default_rng(1818)
    checked = 0
    for trial in range(24):
        n = int(rng.integers(300, 3000))
        kind = trial % 4
        if kind == 0:
            x = rng.uniform(0, 100, n)
        elif kind == 1:
            x = np.round(rng.normal(50, 5, n)).clip(0, 100)                        # ties
        elif kind == 2:
            x = np.concatenate((rng.uniform(10, 10.01, n // 2), rng.uniform(90, 90.01, n - n // 2)))  # far gap
        else:
            x = (rng.pareto(1.5, n) * 3).clip(0, 100)                              # heavy tail
        beta = float(rng.choice([1e-3, 0.01, 0.05, 0.3, 2.0]))
        for name in QUANTILES:
            s = ds.smooth_sensitivity(x, name, beta, 0, 100, relation)
            assert s == pytest.approx(_full_engine_smooth(x, name, beta, 0, 100, relation), rel=1e-9, abs=1e-300), \
                (trial, name, beta, n)
            checked += 1
    assert checked == 120


def _tied(draw_values, n, rng):
    """n records drawn from a few values (long runs of ties)."""
    return rng.choice(np.asarray(draw_values, dtype=float), n)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_restricted_equals_full_engine_on_heavy_ties(relation):
    """Tied data is where the reach search starts beyond the first change of value and the engines keep one left
    per run of values: against the full engine on integer data with a few distinct values (long runs), all-equal
    data, data at the bounds only, bounds far wider than the data, tiny and larger n, small and large beta."""
    rng = np.random.default_rng(2626)
    checked = 0
    for trial in range(30):
        kind = trial % 6
        n = int(rng.integers(2, 12)) if trial % 2 else int(rng.integers(200, 2500))
        if kind == 0:
            x = _tied(rng.integers(20, 60, int(rng.integers(2, 6))), n, rng)     # a few ages, long runs
        elif kind == 1:
            x = np.full(n, float(rng.integers(0, 101)))                           # all equal
        elif kind == 2:
            x = _tied([0.0, 100.0], n, rng)                                       # at the bounds
        elif kind == 3:
            x = np.round(rng.normal(40, 4, n)).clip(17, 90)                       # ages-like
        elif kind == 4:
            x = _tied([17.0, 90.0], n, rng)                                       # two far values
        else:
            x = np.sort(_tied(rng.integers(30, 35, 3), n, rng))
        lo, up = (0.0, 100.0) if kind in (1, 2) or trial % 3 else (-1000.0, 5000.0)   # bounds far wider than the data
        beta = float(rng.choice([1e-3, 0.0175, 0.1, 1.0]))
        for name in QUANTILES:
            s, t_star = sm.smooth_sensitivity_argmax(x, name, beta, lo, up, relation)
            full = _full_engine_smooth(x, name, beta, lo, up, relation)
            assert s == pytest.approx(full, rel=1e-9, abs=1e-300), (trial, name, beta, n, relation)
            a = ds.ls_at_distance(x, name, t_star, lo, up, relation)
            assert math.exp(-beta * t_star) * a == pytest.approx(s, rel=1e-9, abs=1e-300)
            if n <= 40:           # the whole curve, from A(t) (independent of the pair search)
                curve = sm.ls_curve(x, name, n + 2, lo, up, relation)
                assert s == pytest.approx(np.max(np.exp(-beta * np.arange(n + 3)) * curve), rel=1e-9, abs=1e-300)
            checked += 1
    assert checked == 150


def test_tied_pairs_give_exactly_zero():
    """All records equal: no pair of the unbounded percentiles has a rounding error for a value (the pair's value
    is written with differences of order statistics); every A(t) below a change of value is exactly 0."""
    x = np.full(1001, 58.0)
    for name in ("percentile_25", "percentile_75", "percentile_90"):
        a = sm.ls_curve(x, name, 1002, 0, 125, "unbounded")
        t1 = int(np.flatnonzero(a)[0])          # enough records at 0 or 125 to move the percentile off 58
        assert t1 > 100 and np.all(a[:t1] == 0.0)
        s, t = sm.smooth_sensitivity_argmax(x, name, 0.02, 0, 125, "unbounded")
        assert t >= t1 and s == pytest.approx(math.exp(-0.02 * t) * a[t], rel=1e-12)
        assert s == pytest.approx(np.max(np.exp(-0.02 * np.arange(1003)) * a), rel=1e-12)


def test_unbounded_90th_percentile_is_not_a_rounding_error():
    """Records at the two bounds: every dataset within a few hundred steps has LS exactly 0 for the 90th
    percentile, so S lies at a long distance.  The pair values were once computed as ``(al - ga) X + ga X - al X``,
    whose rounding error (1.4e-14 at t = 0) was returned as S; S must be e^{-beta t*} A(t*) with A from the
    curve, whose windows are differences of order statistics."""
    for k, t_min in ((300, 600), (500, 400)):
        x = np.array([0.0] * k + [125.0] * (1000 - k))
        s, t = sm.smooth_sensitivity_argmax(x, "percentile_90", 0.1, 0, 125, "unbounded")
        a = sm.ls_curve(x, "percentile_90", 1001, 0, 125, "unbounded")
        assert t >= t_min and s == pytest.approx(math.exp(-0.1 * t) * a[t], rel=1e-12)
        assert s == pytest.approx(np.max(np.exp(-0.1 * np.arange(1002)) * a), rel=1e-12) and s < 1e-16


# ---------------------------------------------------------------------------------------------- var / std bound

def _ls_var_std_definition(y, lo, up, relation, name):
    """LS of np.var / np.std at y from the definition: every record replaced by (or every addition of) one
    of 2001 evenly spaced values plus the interior optimum's neighbourhood, every removal."""
    y = np.asarray(y, dtype=float)
    f = np.var if name == "var" else np.std
    fy = float(f(y))
    grid = np.linspace(lo, up, 2001)
    best = 0.0
    if relation == "bounded":
        for i in range(len(y)):
            z = np.repeat(y[None, :], len(grid), axis=0)
            z[:, i] = grid
            best = max(best, float(np.max(np.abs(f(z, axis=1) - fy))))
    else:
        z = np.concatenate((np.repeat(y[None, :], len(grid), axis=0), grid[:, None]), axis=1)
        best = max(best, float(np.max(np.abs(f(z, axis=1) - fy))))
        if len(y) >= 2:
            best = max(best, max(abs(float(f(np.delete(y, i))) - fy) for i in range(len(y))))
    return best


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_var_std_bound_at_distance_zero_is_the_exact_local_sensitivity(relation):
    """B(0) is the exact local sensitivity on the continuous interval: against the definition on a fine grid
    (the grid misses the interior optimum of a decrease by at most O(spacing^2))."""
    from dpsens.smooth._variance import VarBound
    rng = np.random.default_rng(31)
    for trial in range(30):
        n = int(rng.integers(1, 9))
        x = np.sort(rng.uniform(0, 1, n) if trial % 3 else rng.choice([0.0, 0.5, 1.0], n))
        ls_var, ls_std = VarBound(x, 0.0, 1.0, "var", relation).exact_ls()
        assert ls_var == pytest.approx(_ls_var_std_definition(x, 0, 1, relation, "var"), abs=2e-6)
        assert ls_std == pytest.approx(_ls_var_std_definition(x, 0, 1, relation, "std"), abs=2e-3 if n > 1 else 1e-9)
        assert ls_std >= _ls_var_std_definition(x, 0, 1, relation, "std") - 1e-12    # never below the grid


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_var_std_bound_is_above_the_neighbor_graph_search(relation):
    """B(t) >= A(t) found by the breadth-first search over integer datasets (a lower bound on the true A),
    and the smooth bound >= max_t e^{-beta t} A(t) over the distances searched."""
    from dpsens.smooth._variance import VarBound
    rng = np.random.default_rng(32)
    for _trial in range(25):
        n = int(rng.integers(1, 5))
        lower, upper = 0, int(rng.integers(1, 5))
        x = [int(v) for v in rng.integers(lower, upper + 1, n)]
        t_max = 3 if relation == "bounded" else max(1, min(3, 6 - n))
        for name in ("var", "std"):
            a = brute_A(x, name, t_max, lower, upper, relation)
            xs = np.sort(np.asarray(x, dtype=float))
            b = VarBound(xs, lower, upper, name, relation).B(np.arange(t_max + 1)) * (upper - lower) ** (2 if name == "var" else 1)
            assert np.all(b >= a - 1e-12), (relation, name, x, upper, a, b)
            for beta in (0.1, 1.0):
                s = sm.smooth_sensitivity_bound(x, name, beta, lower, upper, relation)
                assert s >= np.max(np.exp(-beta * np.arange(t_max + 1)) * a) - 1e-12


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_var_std_bound_is_smooth_over_neighbors(relation):
    """Admissibility, checked directly: B_x(t) <= B_x'(t + 1) for a neighbour x' (one record replaced, or
    added, or removed), hence S(x) <= e^beta S(x')."""
    from dpsens.smooth._variance import VarBound
    rng = np.random.default_rng(33)
    for trial in range(60):
        n = int(rng.integers(2, 30))
        x = np.round(rng.uniform(0, 1, n), 2) if trial % 2 else rng.beta(0.3, 0.3, n)
        if relation == "bounded":
            xp = x.copy()
            xp[int(rng.integers(n))] = float(rng.choice([0.0, 1.0, rng.uniform()]))
        elif trial % 3:
            xp = np.append(x, float(rng.choice([0.0, 1.0, rng.uniform()])))
        else:
            xp = np.delete(x, int(rng.integers(n)))
        for name in ("var", "std"):
            bx = VarBound(np.sort(x), 0.0, 1.0, name, relation).B(np.arange(0, 12))
            bxp = VarBound(np.sort(xp), 0.0, 1.0, name, relation).B(np.arange(1, 13))
            assert np.all(bx <= bxp * (1 + 1e-12) + 1e-15), (name, relation, trial)
            bxp0 = VarBound(np.sort(xp), 0.0, 1.0, name, relation).B(np.arange(0, 12))
            bx1 = VarBound(np.sort(x), 0.0, 1.0, name, relation).B(np.arange(1, 13))
            assert np.all(bxp0 <= bx1 * (1 + 1e-12) + 1e-15)
            for beta in (0.05, 0.5):
                s, sp = (sm.smooth_sensitivity_bound(v, name, beta, 0, 1, relation) for v in (x, xp))
                assert s <= math.exp(beta) * sp * (1 + 1e-12) and sp <= math.exp(beta) * s * (1 + 1e-12)


def test_var_std_bound_on_the_ages_is_below_the_global_sensitivity():
    """On the Adult ages the bound lies between the exact local sensitivity and a dataset's local sensitivity
    that witnesses the global sensitivity is at least as large: all records at 0 and one moved to 100
    (bounded), {0, 100} with one removed (unbounded)."""
    ages = ds.load_ages().to_numpy(dtype=float)
    n = len(ages)
    beta = 1 / (2 * math.log(2 * n ** 2))
    witness = {("var", "bounded"): 100 ** 2 * (n - 1) / n ** 2, ("std", "bounded"): 100 * math.sqrt(n - 1) / n,
               ("var", "unbounded"): 100 ** 2 / 4, ("std", "unbounded"): 50.0}
    for (name, relation), gs_low in witness.items():
        s = sm.smooth_sensitivity_bound(ages, name, beta, 0, 100, relation)
        ls = ds.local_sensitivity(ages, name, ds.Domain(range(101)), neighbors=relation)
        assert ls <= s * (1 + 1e-9) and s < gs_low, (name, relation, ls, s, gs_low)
    with pytest.raises(ValueError, match="smooth_sensitivity_bound"):
        ds.smooth_sensitivity(ages, "var", beta, 0, 100)
    assert sm.smooth_sensitivity_bound(ages, "median", beta, 0, 100) == ds.smooth_sensitivity(ages, "median", beta, 0, 100)


def test_var_std_bound_scales_with_the_units_and_refuses_overflow():
    """The bound is homogeneous (std: degree 1, var: degree 2 in the units), also near the float limits,
    where the computation is rescaled by a power of two; a variance bound beyond the floats is refused."""
    x = np.array([1.0, 2.0, 3.0, 7.0])
    for relation in ("bounded", "unbounded"):
        s1 = sm.smooth_sensitivity_bound(x, "std", 0.1, -10, 10, relation)
        c = 2.0 ** 1019                                           # 10 * c is near 1e308
        assert sm.smooth_sensitivity_bound(x * c, "std", 0.1, -10 * c, 10 * c, relation) == pytest.approx(s1 * c)
        v1 = sm.smooth_sensitivity_bound(x, "var", 0.1, -10, 10, relation)
        c = 2.0 ** 400
        assert sm.smooth_sensitivity_bound(x * c, "var", 0.1, -10 * c, 10 * c, relation) == pytest.approx(v1 * c * c)
        with pytest.raises(ValueError, match="largest float"):
            sm.smooth_sensitivity_bound(x, "var", 0.1, -1e308, 1e308, relation)
        # never above the largest possible change: variance <= w^2/4, std <= w/2
        assert sm.smooth_sensitivity_bound([0.5, 0.5], "var", 0.01, 0, 1, relation) <= 0.25
        assert sm.smooth_sensitivity_bound([0.5, 0.5], "std", 0.01, 0, 1, relation) <= 0.5


# ---------------------------------------------------------------- figures of issue 15
def test_laplace_privacy_loss_is_the_log_ratio_of_the_densities():
    from scipy import stats

    from dpsens.dp import laplace_privacy_loss
    t = np.linspace(-50, 60, 221)
    got = laplace_privacy_loss(t, (2.0, 2.5), (8.0, 0.5))
    want = stats.laplace(2.0, 8.0).logpdf(t) - stats.laplace(2.5, 0.5).logpdf(t)
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="scales"):
        laplace_privacy_loss(t, (0, 0), (1.0, 0.0))


def test_leak_closed_figure():
    import matplotlib.pyplot as plt

    from dpsens.figures import smooth as sp
    fig = sp.plot_leak_closed((2.0, 2.5), (4.0, 0.5), (8.7, 8.2), ("x", "x′"), 1.0, title="T")
    dens, loss = fig.axes
    assert fig.get_suptitle() == "T"
    assert dens.get_yscale() == "log" and dens.get_ylabel() and loss.get_xlabel() == "released value z"
    labels = [t.get_text() for t in fig.legends[0].get_texts()]    # one legend, below both panels
    assert labels == ["x, local: Lap(4)", "x′, local: Lap(0.5)", "x, smooth: Lap(8.7)", "x′, smooth: Lap(8.2)",
                      "|L| ≤ ε = 1", "noise scaled to local sensitivity", "noise scaled to smooth sensitivity"]
    # the smooth loss stays in the band over the drawn range, the local one leaves it
    lines = {ln.get_label(): ln.get_ydata() for ln in loss.get_lines()}
    assert np.max(np.abs(lines["noise scaled to smooth sensitivity"])) <= 1.0
    assert np.max(lines["noise scaled to local sensitivity"]) > 8.0
    plt.close(fig)


def test_smooth_curve_zero_floor_draws_the_plateau():
    import matplotlib.pyplot as plt

    from dpsens.figures import smooth as sp
    ks = np.arange(0, 10)
    a = np.where(ks < 4, 0.0, 1.0)
    fig = sp.plot_smooth_curve(ks, {"A": a}, title="T", zero_floor=1e-3)
    ax = fig.axes[0]
    assert ax.get_yscale() == "symlog"
    y = ax.get_lines()[0].get_ydata()
    assert np.array_equal(y, a)                      # zeros are drawn, not dropped
    assert ax.get_ylim()[0] == 0
    plt.close(fig)
    fig = sp.plot_smooth_curve(ks, {"A": a}, title="T")
    assert np.isnan(fig.axes[0].get_lines()[0].get_ydata()[:4]).all()   # the plain log axis cannot
    plt.close(fig)
    with pytest.raises(ValueError, match="zero_floor"):
        sp.plot_smooth_curve(ks, {"A": a}, title="T", zero_floor=0)


@pytest.mark.parametrize("epsilon", [0.25, 2.0])
def test_smooth_explorer_axes_stay_readable(epsilon):
    import matplotlib.pyplot as plt

    from dpsens.figures import smooth as sp
    ages = ds.load_ages().to_numpy(dtype=float)
    fig = sp.plot_smooth_explorer(ages, epsilon=epsilon)
    curve, noise = fig.axes
    low, high = curve.get_ylim()
    assert low > 1e-15 and high < 10                   # not down to 1e-316
    assert curve.get_xlim()[0] == 0                   # from distance 0
    smooth = noise.get_lines()[0]
    y = smooth.get_ydata()
    lo, hi = noise.get_ylim()
    assert np.all(y > 0) and np.all((lo <= y) & (y <= hi))   # the smooth noise is drawn in full
    gs = noise.get_lines()[1].get_ydata()
    assert np.all((lo <= gs) & (gs <= hi))                   # and the global one too
    plt.close(fig)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
@pytest.mark.parametrize("query", ["mean", "median"])
def test_distance_to_high_local_sensitivity_moves_by_at_most_one_between_neighbours(relation, query):
    """Exercise ex-ptr-proof-distance (*Propose-test-release*): |D(x, b) - D(x', b)| <= 1 for neighbours
    x, x' (new records whole years 0..100), on 15 seeded datasets of 6 to 9 ages, bounds b = 5, 15, 30 and
    4 random neighbours each; two infinite distances count as equal."""
    rng = np.random.default_rng(16)
    ages_0_100 = ds.Domain(range(101))
    for _ in range(15):
        x = rng.integers(0, 101, size=rng.integers(6, 10)).astype(float)
        for b in (5.0, 15.0, 30.0):
            d = ds.distance_to_high_ls(x, query, b, 0.0, 100.0, neighbors=relation)
            for y in ds.neighbors.random_neighbors(x, ages_0_100, 4, relation, rng):
                d_y = ds.distance_to_high_ls(y, query, b, 0.0, 100.0, neighbors=relation)
                assert (math.isinf(d) and math.isinf(d_y)) or abs(d - d_y) <= 1, (x, y, b)


def test_the_variance_bound_takes_a_relation_name_or_member_alike():
    """VarBound converts its relation: a plain string gives exactly the member's bound, and an unknown
    name is refused (never the wrong branch of an identity test)."""
    from dpsens.smooth._variance import VarBound
    xs = np.sort(np.array([0.1, 0.2, 0.2, 0.7, 0.9]))
    for name in ("var", "std"):
        for rel in ("bounded", "unbounded"):
            a = VarBound(xs, 0.0, 1.0, name, rel).B(np.arange(8))
            b = VarBound(xs, 0.0, 1.0, name, Relation(rel)).B(np.arange(8))
            assert np.array_equal(a, b)
        assert not np.array_equal(VarBound(xs, 0.0, 1.0, name, "bounded").B(np.arange(8)),
                                  VarBound(xs, 0.0, 1.0, name, "unbounded").B(np.arange(8)))
    with pytest.raises(ValueError):
        VarBound(xs, 0.0, 1.0, "var", "replace")


# ---------------------------------------------------------------------------------------------- the Smooth chapter's properties

@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
@pytest.mark.parametrize("query", ["mean", "median"])
def test_smooth_sensitivity_is_an_upper_bound_and_beta_smooth_over_neighbours(relation, query):
    """Exercise ex-smooth-proof-smooth (*Smooth sensitivity*): S_beta(x) >= LS(x) = A^(0)(x) and
    S_beta(x) <= e^beta S_beta(x') for neighbours x, x' (new records whole years 0..100), on 10 seeded
    datasets of 6 to 9 ages per beta in (0.05, 0.5), 4 random neighbours each (the chapter's seed 16)."""
    rng = np.random.default_rng(16)
    ages_0_100 = ds.Domain(range(101))
    for beta in (0.05, 0.5):
        for _ in range(10):
            x = rng.integers(0, 101, size=rng.integers(6, 10)).astype(float)
            s = ds.smooth_sensitivity(x, query, beta, 0.0, 100.0, neighbors=relation)
            ls = ds.local_sensitivity(x, query, ages_0_100, neighbors=relation)
            assert s >= ds.ls_at_distance(x, query, 0, 0.0, 100.0, neighbors=relation) - 1e-12
            assert s >= ls - 1e-12, (x, s, ls)
            for y in ds.neighbors.random_neighbors(x, ages_0_100, 4, relation, rng):
                s_y = ds.smooth_sensitivity(y, query, beta, 0.0, 100.0, neighbors=relation)
                assert s <= math.exp(beta) * s_y * (1 + 1e-9), (x, y, beta)
                assert s_y <= math.exp(beta) * s * (1 + 1e-9), (x, y, beta)


def test_the_exercise_padded_formula_on_2001_ages_is_the_smooth_sensitivity():
    """Exercise ex-smooth-median-direct: the padded-array form of the NRS formula for the median (records
    replaced), on the first 2,001 ages with beta = 1/(2 ln(2 n^2)), equals the package's S_beta."""
    x = ds.load_ages().to_numpy(dtype=float)[:2001]
    n_small = len(x)
    beta = 1 / (2 * math.log(2 * n_small ** 2))
    padded = np.concatenate(([0.0] * (n_small + 2), np.sort(x), [100.0] * (n_small + 2)))
    i_med = (n_small + 1) // 2 - 1 + n_small + 2
    best = 0.0
    for t in range(n_small + 2):
        s = np.arange(t + 2)
        best = max(best, math.exp(-beta * t) * np.max(padded[i_med + s] - padded[i_med + s - t - 1]))
    assert best > 0
    assert ds.smooth_sensitivity(x, "median", beta, 0.0, 100.0) == pytest.approx(best, rel=1e-9)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_local_below_smooth_below_global_on_the_ages(relation):
    """*Smooth sensitivity*, the table of every query: on the ages (new records whole years 0..100,
    epsilon = 1, delta = 1e-6) the local sensitivity <= the smooth sensitivity (or its bound, for var and
    std) <= the size-n global sensitivity, for every query."""
    ages = ds.load_ages().to_numpy(dtype=float)
    domain = ds.Domain(range(101))
    beta = ds.mechanisms.smooth_sensitivity_beta(1.0, 1e-6)
    for q in ds.QUERIES:
        g = ds.global_sensitivity(q, domain, len(ages), neighbors=relation)
        ls = ds.local_sensitivity(ages, q, domain, neighbors=relation)
        s = sm.smooth_sensitivity_bound(ages, q, beta, 0.0, 100.0, relation)
        assert ls <= s * (1 + 1e-9) and s <= g * (1 + 1e-9), (q, g, ls, s)
