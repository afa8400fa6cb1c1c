"""Exact inverse sensitivity (dpsens.inverse) against breadth-first search over small pools and domains."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpsens import inverse
from dpsens.inverse_variance import UnboundedVarianceReach
from profiles import cases  # tests/profiles.py: the quick profile's smaller instances


def _neighbors(y, domain, relation, max_size):
    y = list(y)
    if relation == "bounded":
        for i in range(len(y)):
            for v in domain:
                z = y[:i] + y[i + 1:] + [v]
                yield tuple(sorted(z))
    else:
        if len(y) > 1:
            for i in range(len(y)):
                yield tuple(y[:i] + y[i + 1:])
        if len(y) < max_size:
            for v in domain:
                yield tuple(sorted(y + [v]))


def brute_len(x, f, t, domain, relation, depth, max_size):
    """Fewest steps to a dataset y (values from ``domain``) with f(y) == t, by BFS; inf beyond ``depth``."""
    start = tuple(sorted(x))
    seen, frontier = {start}, [start]
    for d in range(depth + 1):
        if any(math.isclose(f(y), t, rel_tol=0, abs_tol=1e-9) for y in frontier):
            return d
        nxt = []
        for y in frontier:
            for z in _neighbors(y, domain, relation, max_size):
                if z not in seen:
                    seen.add(z)
                    nxt.append(z)
        frontier = nxt
    return math.inf


def lower_order_statistic(q):
    return lambda y: sorted(y)[inverse.quantile_rank(q, len(y))]


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
@pytest.mark.parametrize("q", [0.5, 0.25, 0.75, 0.9])
def test_quantile_len_matches_bfs(relation, q):
    rng = np.random.default_rng(7)
    domain = [0, 1, 2, 3, 4]
    for _ in range(8):
        n = int(rng.integers(1, 6))
        x = rng.integers(0, 5, size=n).tolist()
        for t in [0, 1, 2, 2.5, 3, 4, 0.5]:
            dom = sorted(set(domain) | {t})
            expected = brute_len(x, lower_order_statistic(q), t, dom, relation, depth=6, max_size=12)
            got = inverse.inverse_len_quantile(x, q, t, 0, 4, relation)
            if expected == math.inf:
                assert got > 6
            else:
                assert got == expected, (x, q, t, relation)


def test_quantile_len_heavy_ties_and_outside():
    x = [37] * 9 + [30, 50]
    assert inverse.inverse_len_quantile(x, 0.5, 37, 0, 100) == 0
    # t in the gap just above 37: five 37s or 50 must move above it (bounded) ...
    assert inverse.inverse_len_quantile(x, 0.5, 40, 0, 100) == 5
    assert inverse.inverse_len_quantile(x, 0.5, 101, 0, 100) == math.inf


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_count_and_sum_match_bfs(relation):
    rng = np.random.default_rng(3)
    domain = [0, 1, 2, 3]
    for _ in range(6):
        x = rng.integers(0, 4, size=int(rng.integers(1, 5))).tolist()
        subset_sums = {sum(c) for r in range(1, len(x)) for c in itertools.combinations(x, r)}
        for t in range(0, 13):
            exp_sum = brute_len(x, sum, t, domain, relation, depth=5, max_size=10)
            got = inverse.inverse_len(x, "sum", t, 0, 3, relation)
            removal_only = relation == "unbounded" and (sum(x) - t) in subset_sums
            if exp_sum == math.inf:
                assert got > 5
            elif removal_only:
                assert got >= exp_sum
            else:
                assert got == exp_sum, (x, t, relation)
            exp_count = brute_len(x, len, t, domain, relation, depth=5, max_size=10)
            got_count = inverse.inverse_len(x, "count", t, 0, 3, relation)
            assert got_count == exp_count or (exp_count == math.inf and got_count > 5)


def test_mean_bounded_matches_bfs():
    rng = np.random.default_rng(5)
    domain = [0, 1, 2, 3]
    for _ in range(6):
        x = rng.integers(0, 4, size=int(rng.integers(1, 5))).tolist()
        n = len(x)
        for s in range(0, 3 * n + 1):
            t = s / n
            expected = brute_len(x, lambda y: sum(y) / len(y), t, domain, "bounded", depth=5, max_size=10)
            assert inverse.inverse_len(x, "mean", t, 0, 3, "bounded") == expected


def test_mean_unbounded_never_below_grid_search_and_exact_where_grid_suffices():
    # a finer grid can only shorten routes; the package's value is the exact one over the real interval
    x = [0.0, 3.0, 3.0]
    for t in [0.5, 1.0, 1.5, 2.25, 2.5]:
        grid = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3]
        expected = brute_len(x, lambda y: sum(y) / len(y), t, grid, "unbounded", depth=4, max_size=8)
        assert inverse.inverse_len(x, "mean", t, 0, 3, "unbounded") <= expected


def test_bad_input():
    with pytest.raises(ValueError, match="outside"):
        inverse.inverse_len_quantile([1, 200], 0.5, 3, 0, 100)
    with pytest.raises(ValueError, match="q must be strictly between"):
        inverse.inverse_len_quantile([1, 2], 1.0, 3, 0, 100)
    with pytest.raises(ValueError, match="non-empty|empty"):
        inverse.inverse_len_quantile([], 0.5, 3, 0, 100)
    with pytest.raises(ValueError, match="neighbors"):
        inverse.inverse_len([1, 2], "sum", 3, 0, 100, "replace")


def test_large_n_is_exact_and_fast_enough():
    x = np.repeat(np.arange(0, 101), 10_000)             # 1,010,000 records with huge ties
    t = np.array([49.5, 50.0, 50.5, 0.0, 100.0])
    got = inverse.inverse_len_quantile(x, 0.5, t, 0, 100, "bounded")
    n, K = len(x), inverse.quantile_rank(0.5, len(x))
    a = np.array([500_000, 500_000, 510_000, 0, 1_000_000])
    b = np.array([510_000, 500_000, 500_000, 1_000_000, 0])
    assert np.array_equal(got, np.maximum(0, np.maximum(a - K, b - (n - 1 - K))))


def continuous_unbounded_len(x, t, lower, upper, mean, s_max=12):
    """Exact len under additions and removals over the real interval: every removed subset, then s added
    values anywhere in [lower, upper] (their sum takes every value of [s lower, s upper])."""
    best = math.inf
    n = len(x)
    for r in range(n + 1):
        for removed in set(itertools.combinations(sorted(x), r)):
            rest = list(x)
            for v in removed:
                rest.remove(v)
            for s in range(0, s_max + 1):
                size = len(rest) + s
                if size == 0:
                    continue
                need = t * size - sum(rest) if mean else t - sum(rest)   # what the s added values must sum to
                ok = math.isclose(need, 0.0, abs_tol=1e-9) if s == 0 else \
                    s * lower - 1e-9 <= need <= s * upper + 1e-9
                if ok:
                    best = min(best, r + s)
                    break
    return best


@pytest.mark.parametrize("query", ["mean", "sum"])
def test_unbounded_mean_and_sum_match_the_continuous_search(query):
    rng = np.random.default_rng(17)
    mean = query == "mean"
    for _ in range(12):
        x = rng.integers(0, 6, size=int(rng.integers(1, 5))).astype(float).tolist()
        removal_only = {round(sum(c) / len(c) if mean else sum(c), 9)
                        for r in range(1, len(x)) for c in itertools.combinations(x, len(x) - r)}
        for t in [0.3, 1.0, 1.7, 2.5, 3.9, 4.6, 5.0, 7.3, 12.5]:
            if mean and t > 5:
                continue
            expected = continuous_unbounded_len(x, t, 0.0, 5.0, mean)
            got = inverse.inverse_len(x, query, t, 0, 5, "unbounded")
            if round(t, 9) in removal_only:
                assert got >= expected
            else:
                assert got == expected, (query, x, t)


def brute_variance_range(x, t, lower, upper):
    """(min, max) variance over every set of t replaced records: the max at the vertices {lower, upper}^t of
    the box (convexity in each value), the min with the new values at the kept records' mean."""
    n = len(x)
    lo, hi = math.inf, -math.inf
    for R in itertools.combinations(range(n), t):
        kept = [x[i] for i in range(n) if i not in R]
        for vals in itertools.product([lower, upper], repeat=t):
            hi = max(hi, float(np.var(kept + list(vals))))
        fill = [float(np.mean(kept))] * t if kept else [lower] * t
        lo = min(lo, float(np.var(kept + fill)))
    return lo, hi


def test_variance_and_std_len_bounded_match_subset_search():
    rng = np.random.default_rng(29)
    for _ in range(10):
        x = rng.integers(0, 5, size=int(rng.integers(1, 6))).astype(float).tolist()
        ranges = [brute_variance_range(x, t, 0.0, 4.0) for t in range(len(x) + 1)]
        for z in [0.0, 0.13, 0.5, 1.1, 1.7, 2.6, 3.3, 3.99, 4.5]:
            expected = next((t for t, (lo, hi) in enumerate(ranges) if lo - 1e-12 <= z <= hi + 1e-12), math.inf)
            if math.isclose(z, float(np.var(x))):
                continue
            assert inverse.inverse_len(x, "var", z, 0, 4, "bounded") == expected, (x, z)
            assert inverse.inverse_len(x, "std", math.sqrt(z), 0, 4, "bounded") == expected


# -- variance and standard deviation, unbounded relation -----------------------------------------------------
def brute_unbounded_variance_intervals(x, lower, upper):
    """(r + s, lo, hi) for EVERY removed index set R and every s = 1..n+2 additions: the variances of
    kept + A over A in [lower, upper]^s form an interval (continuous image of a box) whose lower end has A at
    the kept mean and whose upper end is at a vertex of the box (convexity in each value), all computed with
    np.var on explicit datasets; no window or overlap argument is used."""
    n = len(x)
    out = []
    for r in range(n + 1):
        for R in itertools.combinations(range(n), r):
            kept = [x[i] for i in range(n) if i not in R]
            for s in range(1, n + 3):
                if kept and max(kept) == min(kept):
                    lo = 0.0
                else:
                    lo = float(np.var(kept + [float(np.mean(kept))] * s)) if kept else 0.0
                hi = max(float(np.var(kept + [lower] * p + [upper] * (s - p))) for p in range(s + 1))
                out.append((r + s, lo, hi))
    return out


def brute_unbounded_len(intervals, z):
    """The least r + s (s >= 1) whose interval for some removed set holds z (no special case at var(x))."""
    return min((k for k, lo, hi in intervals if lo <= z <= hi), default=math.inf)


def _small_cases(rng, count):
    special = [[2.0], [0.0, 4.0], [0.0, 0.0, 4.0, 4.0], [0.0, 0.0, 0.0, 4.0, 4.0, 4.0], [0.0, 4.0, 4.0],
               [3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0, 0.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0]]
    cases = [(x, 0.0, 4.0) for x in special]
    for i in range(count):
        n = int(rng.integers(1, 8 if i % 5 == 0 else 7))
        kind = i % 4
        if kind == 0:
            x = rng.integers(0, 5, n).astype(float)                  # ties and values at the bounds
        elif kind == 1:
            x = rng.uniform(0, 4, n).round(3)
        elif kind == 2:
            x = rng.choice([0.0, 4.0, 2.0], n)
        else:
            x = np.full(n, float(rng.integers(0, 5)))                # all equal
        cases.append((x.tolist(), 0.0, 4.0))
    cases.append(([-0.5, 1.25, 1.25, 2.0], -1.0, 3.0))                   # bounds not at 0
    return cases


def _test_points(intervals, rng, x, top):
    ends = np.array(sorted({e for _, lo, hi in intervals for e in (lo, hi)}))
    zs = np.concatenate((rng.uniform(0, top * 1.05, 25), ends + 1e-7, ends - 1e-7, [0.0, top]))
    near_end = np.min(np.abs(ends[None, :] - zs[:, None]), axis=1) < 1e-9
    keep = (~near_end | np.isin(zs, [0.0, top])) & (np.abs(zs - float(np.var(x))) > 1e-9) & (zs >= 0)
    return zs[keep]


def test_variance_and_std_len_unbounded_match_every_removed_set():
    # 60 random small datasets in the full profile, the first 20 in the quick one (profiles.cases)
    n_cases = cases(quick=20, full=60)
    rng = np.random.default_rng(24)
    checked = 0
    for x, lo_b, up_b in _small_cases(rng, n_cases):
        top = ((up_b - lo_b) / 2) ** 2
        intervals = brute_unbounded_variance_intervals(x, lo_b, up_b)
        zs = _test_points(intervals, rng, x, top)
        got = inverse.inverse_len(x, "var", zs, lo_b, up_b, "unbounded")
        expected = [brute_unbounded_len(intervals, z) if 0 <= z <= top else math.inf for z in zs]
        assert got.tolist() == expected, x
        std = inverse.inverse_len(x, "std", np.sqrt(zs), lo_b, up_b, "unbounded")
        assert std.tolist() == expected, x
        assert inverse.inverse_len(x, "var", float(np.var(x)), lo_b, up_b, "unbounded") == 0
        assert inverse.inverse_len(x, "std", float(np.std(x)), lo_b, up_b, "unbounded") == 0
        checked += len(zs)
    assert checked > 5000 * n_cases // 60


def test_variance_len_unbounded_outside_the_range_and_negative_std():
    x = [1.0, 2.0, 2.0, 3.5]
    assert inverse.inverse_len(x, "var", [-0.1, 4.0001, 100.0], 0, 4, "unbounded").tolist() == [math.inf] * 3
    assert inverse.inverse_len(x, "std", [-0.5, 2.0001], 0, 4, "unbounded").tolist() == [math.inf] * 2
    # the largest variance (u - l)^2 / 4: remove all n records and add lower and upper
    assert inverse.inverse_len(x, "var", 4.0, 0, 4, "unbounded") == len(x) + 2


def test_variance_len_unbounded_moves_by_at_most_one_between_neighbours():
    rng = np.random.default_rng(7)
    for _ in range(40):
        x = rng.integers(0, 5, int(rng.integers(1, 6))).astype(float).tolist()
        v = float(rng.integers(0, 5))
        x2 = x + [v]
        iv1 = brute_unbounded_variance_intervals(x, 0.0, 4.0)
        iv2 = brute_unbounded_variance_intervals(x2, 0.0, 4.0)
        zs = np.concatenate((rng.uniform(0, 4, 30), [0.0, 4.0, float(np.var(x)), float(np.var(x2))]))
        a = inverse.inverse_len(x, "var", zs, 0, 4, "unbounded")
        b = inverse.inverse_len(x2, "var", zs, 0, 4, "unbounded")
        away = (zs != float(np.var(x))) & (zs != float(np.var(x2)))
        assert np.all(np.abs(a - b)[away] <= 1), (x, v)
        # the len over routes with an addition (no special case at var(x)) moves by at most one everywhere
        for z in zs:
            assert abs(brute_unbounded_len(iv1, z) - brute_unbounded_len(iv2, z)) <= 1
    # ... while the 0 at var(x) breaks it at that one point (the docstring's example)
    assert inverse.inverse_len([0.0], "var", 0.0, 0, 1, "unbounded") == 0
    assert inverse.inverse_len([0.0, 1.0], "var", 0.0, 0, 1, "unbounded") == 2


def test_variance_len_unbounded_compute_cap():
    x = np.linspace(0, 1, 200)
    with pytest.raises(ValueError, match="max_work"):
        inverse.inverse_len(x, "var", 0.249, 0, 1, "unbounded", max_work=1000)
    with pytest.raises(ValueError, match="max_work"):
        inverse.inverse_len(x, "var", 0.25, 0, 1, "unbounded", max_work=0)


def scan_upper_end(P1, P2, n, r, s, lower, upper):
    """H(r, s) by scanning every window of r removed sorted records and every split p of the s additions
    (p at lower, s - p at upper); P1, P2 the prefix sums of the sorted data and of its squares."""
    N = n - r + s
    a = np.arange(0, n - r + 1)
    SK, QK = P1[n] - (P1[a + r] - P1[a]), P2[n] - (P2[a + r] - P2[a])
    p = np.arange(s + 1)[:, None]
    S = SK + p * lower + (s - p) * upper
    Q = QK + p * lower ** 2 + (s - p) * upper ** 2
    return float(np.max(Q / N - (S / N) ** 2))


def window_scan_unbounded_variance_len(x, z, lower, upper):
    """len' by scanning k = 1, 2, ... and every r, with L and H over EVERY window of the sorted data and every
    split p of the additions between lower and upper (no search, no restriction of j): a slow second
    implementation for medium n, where enumerating every removed set is out of reach."""
    xs = np.sort(np.asarray(x, dtype=float))
    n = len(xs)
    if z < 0 or z > ((upper - lower) / 2) ** 2:
        return math.inf
    P1 = np.concatenate(([0.0], np.cumsum(xs)))
    P2 = np.concatenate(([0.0], np.cumsum(xs * xs)))
    for k in range(1, n + 3):
        for r in range(0, min(k - 1, n) + 1):
            s, m = k - r, n - r
            N = m + s
            a = np.arange(0, n - m + 1)
            S, Q = P1[a + m] - P1[a], P2[a + m] - P2[a]
            low = max(0.0, float(np.min(Q - S * S / m))) / N if m > 1 else 0.0
            if low <= z <= scan_upper_end(P1, P2, n, r, s, lower, upper):
                return k
    return math.inf


def test_variance_len_unbounded_matches_a_window_scan_at_medium_n():
    rng = np.random.default_rng(2024)
    for trial in range(18):
        n = int(rng.integers(8, 40))
        x = [rng.integers(0, 11, n).astype(float), rng.uniform(0, 10, n),
             np.concatenate((rng.uniform(0, 2, n // 2), rng.uniform(7, 10, n - n // 2)))][trial % 3]
        v = float(np.var(x))
        zs = np.concatenate((rng.uniform(0, 25, 4), v * rng.uniform(0.5, 1.5, 4)))
        got = inverse.inverse_len(x, "var", zs, 0, 10, "unbounded")
        assert got.tolist() == [window_scan_unbounded_variance_len(x, z, 0.0, 10.0) for z in zs], trial


def test_variance_unbounded_pruning_bound_is_above_every_upper_end():
    """The cheap bound that orders and skips removals above var(x) is never below H(r, s) (window scan)."""
    rng = np.random.default_rng(11)
    for trial in range(12):
        n = int(rng.integers(2, 30))
        x = np.sort(rng.choice([rng.uniform(0, 10, n), rng.integers(0, 11, n).astype(float)][trial % 2], n))
        reach = UnboundedVarianceReach(x, 0.0, 10.0)
        P1, P2 = np.concatenate(([0.0], np.cumsum(x))), np.concatenate(([0.0], np.cumsum(x * x)))
        for r in range(n + 1):
            for s in range(1, 8):
                H = scan_upper_end(P1, P2, n, r, s, 0.0, 10.0)
                assert reach.upper_bounds([r], [s])[0] >= H - 1e-9
                assert reach.upper_ends([r], [s])[0] == pytest.approx(H, abs=1e-9)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_quantile_len_moves_by_at_most_one_between_neighbours(relation):
    """Exercise ex-em-proof-len (*The exponential mechanism and inverse sensitivity*): len_f(x; z) and
    len_f(x'; z) differ by at most 1 for neighbours x, x' (one record replaced, or one added), at every
    candidate z on a half-year grid, for the median and the 90th percentile of 200 seeded datasets."""
    rng = np.random.default_rng(5)
    z = np.arange(0, 10.5, 0.5)
    for _ in range(200):
        x = rng.integers(0, 11, size=int(rng.integers(2, 9))).astype(float)
        if relation == "bounded":
            y = x.copy()
            y[rng.integers(len(x))] = rng.integers(0, 11)
        else:
            y = np.append(x, rng.integers(0, 11))
        for alpha in (0.5, 0.9):
            gap = np.asarray(inverse.inverse_len_quantile(x, alpha, z, 0, 10, relation)) - \
                np.asarray(inverse.inverse_len_quantile(y, alpha, z, 0, 10, relation))
            assert np.max(np.abs(gap)) <= 1, (x, y, alpha)
