"""Exact smooth sensitivity of the median: the O(n log n) algorithm against the O(n^2) direct formula.

Chapter: *Smooth sensitivity*.  Run: ``python benchmarks/bench_smooth.py``.

Settings as in the book: epsilon = 1, delta = 1/n^2, beta = epsilon / (2 ln(2/delta)),
data in [0, 100], bounded relation (one record replaced) unless stated.
"""
from __future__ import annotations

import math

import numpy as np

import dpsens as ds
from dpsens import smooth as sm
from timing import Stopwatch, best_seconds


def beta_for(n, epsilon=1.0):
    return epsilon / (2 * math.log(2 * n ** 2))


def direct_smooth(x, beta, lower, upper):
    """max over every t = 0..n+1 of e^{-beta t} A(t), A(t) by the direct NRS07 formula: O(n^2)."""
    n = len(x)
    return max(math.exp(-beta * t) * sm.median_A_direct(x, t, lower, upper) for t in range(n + 2))


def timed(f, *args, repeat=3):
    """``(f(*args), best of repeat times in seconds)``."""
    out = []
    best = best_seconds(lambda: out.append(f(*args)), repeat=repeat, warm_up=False)
    return out[-1], best


def main():
    rng = np.random.default_rng(2007)
    print("exact smooth sensitivity of the median (bounded), data uniform on [0, 100], rounded to integers (ties)")
    print(f"{'n':>9} {'S':>12} {'fast (s)':>10} {'direct O(n^2) (s)':>18} {'ratio':>8}")
    for n in (10**4 + 1, 10**5 + 1, 10**6 + 1):
        for kind in ("continuous", "integer"):
            x = rng.uniform(0, 100, n)
            if kind == "integer":
                x = np.round(x)
            b = beta_for(n)
            s, t_fast = timed(sm.smooth_sensitivity, x, "median", b, 0, 100)
            line = f"{n:>9} {s:>12.4g} {t_fast:>10.4f}"
            if n <= 10**4 + 1:
                s_direct, t_direct = timed(direct_smooth, x, b, 0, 100, repeat=1)
                assert math.isclose(s, s_direct, rel_tol=1e-9), (s, s_direct)
                line += f" {t_direct:>18.3f} {t_direct / t_fast:>8.0f}x"
            print(line + f"   ({kind})")
    # a worst case for pruning: every value distinct and tightly packed near the median, so long distances matter
    n = 10**6 + 1
    x = np.sort(rng.uniform(49.999, 50.001, n))
    s, t_fast = timed(sm.smooth_sensitivity, x, "median", beta_for(n) / 100, 0, 100)
    print(f"{n:>9} {s:>12.4g} {t_fast:>10.4f}   (packed data, beta/100: little pruning)")
    # the divide and conquer alone, no pruning at all (every pair of the n/2 x n/2 rectangle is a candidate)
    eng = sm._QuantileBounded(np.sort(rng.uniform(0, 100, n)), "median", 0.0, 100.0)
    with Stopwatch() as sw:
        s = max(pr.smooth(beta_for(n), floor=0.0)[0] for pr in eng.problems)
    print(f"{n:>9} {s:>12.4g} {sw.seconds:>10.4f}   (no pruning: pure O(n log n) divide and conquer)")
    ages = ds.load_ages().to_numpy(dtype=float)
    b = beta_for(len(ages))
    for relation in ("bounded", "unbounded"):
        for query in ("median", "mean", "percentile_90"):
            s, t = timed(sm.smooth_sensitivity, ages, query, b, 0, 100, relation)
            print(f"Adult ages n={len(ages)}, {query:>13}, {relation:>9}: S = {s:.6g} in {t:.4f} s")
    # the unbounded percentiles other than the median: O(n log^2 n) pairs per (window, size class), see dpsens.smooth
    n = 10**5
    for kind in ("continuous", "integer"):
        x = rng.uniform(0, 100, n)
        if kind == "integer":
            x = np.round(x)
        s, t = timed(sm.smooth_sensitivity, x, "percentile_90", beta_for(n), 0, 100, "unbounded")
        print(f"uniform n={n}, percentile_90, unbounded: S = {s:.6g} in {t:.4f} s   ({kind})")
    x = np.sort(rng.uniform(49.999, 50.001, n))
    s, t = timed(sm.smooth_sensitivity, x, "percentile_90", beta_for(n) / 100, 0, 100, "unbounded", repeat=1)
    print(f"packed n={n}, percentile_90, unbounded: S = {s:.6g} in {t:.4f} s   (beta/100: little pruning)")
    s, t = timed(ds.distance_to_high_ls, ages, "mean", 0.005, 0, 100, "unbounded")
    print(f"Adult ages: distance to LS(mean) > 0.005 (unbounded) = {s} in {t:.4f} s")


if __name__ == "__main__":
    main()
