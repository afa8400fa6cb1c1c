"""Exact smooth sensitivity: every query and relation as multiples of one ``np.sort``, and NRS07 side by side.

Chapter: *Smooth sensitivity*.  Run: ``python benchmarks/bench_smooth.py`` (``--quick``: n = 10^5 only,
fewer repeats).

Settings as in the book: epsilon = 1, delta = 1/n^2, beta = epsilon / (2 ln(2/delta)), data uniform on
[0, 100].  Every time is the median of several calls, measured in the same run as the time of one
``np.sort`` of the same data, so the ratios are comparable across machines and loads.

1. Each query x relation at n = 10^5 and 10^6: ``dpsens.smooth_sensitivity`` (the eight exact queries)
   and ``dpsens.smooth.smooth_sensitivity_bound`` (variance and standard deviation: a provable smooth
   *upper bound*, labelled ``bound``), as multiples of one ``np.sort``.
2. The bounded median and percentiles against ``benchmarks/nrs07.py``, an independent implementation of
   Nissim, Raskhodnikova & Smith's divide and conquer written from the paper: n = 10^k + 1 so that every
   percentile is an order statistic (NRS07's setting); the max abs difference and the speed ratio.
3. The O(n^2) definition of NRS07 at n = 10,001 (a check of both), and data that defeat the pruning.
4. Tied data, the book's kind: 10^6 integer ages 17..90 (drawn from the Adult ages) with bounds [0, 125],
   wider than the data, each query and relation as multiples of one ``np.sort`` (goal: <= 10x).
5. Small n: milliseconds per call at n = 10^3 (goal: <= 0.5 ms), every query (var and std: the bound) and
   relation, on tied ages (bounds [0, 125]) and on uniform data.  Up to 2048 records the median and the
   percentiles take the dense pass of ``dpsens.smooth._small``, whose tables that depend only on the size are
   built on the first call at a size and reused (a simulation or an explorer calls at one size); the first
   call at a new size (tables cleared, the process warmed by a call at n - 1) is reported separately
   ("first call").

6. ``--sweep`` (only this part): the growth with n.  Each query (var and std: the bound) and relation at
   n = 3,000, 10^4, 3 * 10^4, 10^5 and 10^6 on uniform data (bounds [0, 100]) and tied ages (bounds
   [0, 125]), in ms and as multiples of one ``np.sort`` measured in the same run; the goal is
   ``<= max(10 x np.sort, 1 ms)`` at every size (``budget`` is the time over that allowance), and the
   summary names the worst.

``--tied``: parts 4 and 5 only.  ``--small``: part 5 only.  ``--sweep``: part 6 only (``--sweep-quick``:
sizes up to 10^5).
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np

import dpsens as ds
from dpsens import smooth as sm
from dpsens.smooth._small import clear_tables
from dpsens.timing import Stopwatch, median_ms

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nrs07  # the independent implementation, next to this script

QUERIES = ["mean", "sum", "count", "median", "percentile_25", "percentile_50", "percentile_75", "percentile_90",
           "var", "std"]


def beta_for(n, epsilon=1.0):
    return epsilon / (2 * math.log(2 * n ** 2))


def median_time(f, runs):
    """(result, median seconds) over ``runs`` calls after one warm-up call."""
    out = f()
    return out, median_ms(f, runs=runs) / 1000.0


def smooth(x, query, beta, relation):
    if query in ("var", "std"):
        return sm.smooth_sensitivity_bound(x, query, beta, 0, 100, relation)
    return sm.smooth_sensitivity(x, query, beta, 0, 100, relation)


def part1(sizes, runs):
    print("1. every query and relation, uniform data on [0, 100], as multiples of one np.sort of the data")
    print(f"{'n':>9} {'query':>14} {'relation':>10} {'S':>12} {'time':>10} {'np.sort':>9} {'ratio':>7}")
    rng = np.random.default_rng(2018)
    worst = {}
    for n in sizes:
        x = rng.uniform(0, 100, n)
        b = beta_for(n)
        for relation in ("bounded", "unbounded"):
            for query in QUERIES:
                _, t_sort = median_time(lambda: np.sort(x), runs)
                s, t = median_time(lambda: smooth(x, query, b, relation), runs)
                _, t_sort2 = median_time(lambda: np.sort(x), runs)
                ts = (t_sort + t_sort2) / 2
                label = query + (" (bound)" if query in ("var", "std") else "")
                print(f"{n:>9} {label:>14} {relation:>10} {s:>12.5g} {1e3 * t:>8.2f}ms {1e3 * ts:>7.2f}ms "
                      f"{t / ts:>6.1f}x", flush=True)
                worst[n] = max(worst.get(n, 0.0), t / ts)
    for n, w in worst.items():
        print(f"   n = {n}: the slowest query is {w:.1f}x one np.sort")


def part2(sizes, runs):
    print("\n2. bounded median and percentiles: dpsens against the independent NRS07 divide and conquer "
          "(benchmarks/nrs07.py)")
    print(f"{'n':>9} {'query':>14} {'S dpsens':>14} {'S NRS07':>14} {'max |diff|':>11} {'dpsens':>9} "
          f"{'NRS07':>9} {'NRS07/dpsens':>13}")
    rng = np.random.default_rng(2007)
    for n in sizes:
        for kind in ("continuous", "integer"):
            x = rng.uniform(0, 100, n)
            if kind == "integer":
                x = np.round(x)                                  # ties
            b = beta_for(n)
            for query, p in (("median", 50), ("percentile_25", 25), ("percentile_75", 75), ("percentile_90", 90)):
                m = (n - 1) * p // 100 + 1                       # 1-based rank: numpy's percentile is x_m here
                s, t = median_time(lambda: sm.smooth_sensitivity(x, query, b, 0, 100), runs)
                s2, t2 = median_time(lambda: nrs07.smooth_sensitivity_order_statistic(x, m, b, 0, 100),
                                     max(1, runs // 3))
                print(f"{n:>9} {query:>14} {s:>14.8g} {s2:>14.8g} {abs(s - s2):>11.2g} {1e3 * t:>7.2f}ms "
                      f"{1e3 * t2:>7.2f}ms {t2 / t:>12.1f}x   ({kind})", flush=True)


def part3():
    print("\n3. checks and hard cases")
    rng = np.random.default_rng(3)
    n = 10**4 + 1
    x = rng.uniform(0, 100, n)
    b = beta_for(n)
    with Stopwatch() as watch:
        direct = nrs07.direct(x, (n + 1) // 2, b, 0, 100)
    t_direct = watch.seconds
    s, t = median_time(lambda: sm.smooth_sensitivity(x, "median", b, 0, 100), 5)
    print(f"median, n = {n}: dpsens {s:.10g}, NRS07 definition O(n^2) {direct:.10g} "
          f"(|diff| {abs(s - direct):.2g}); {1e3 * t:.2f} ms vs {t_direct:.2f} s")
    n = 10**5
    x = np.sort(rng.uniform(49.999, 50.001, n))                 # packed: long distances matter
    for query, relation in (("median", "bounded"), ("percentile_90", "unbounded")):
        s, t = median_time(lambda: sm.smooth_sensitivity(x, query, beta_for(n) / 100, 0, 100, relation), 1)
        print(f"packed n = {n}, beta/100, {query} {relation}: S = {s:.6g} in {t:.3f} s (the reach grows to the "
              f"full engine)")
    ages = ds.load_ages().to_numpy(dtype=float)
    b = beta_for(len(ages))
    for relation in ("bounded", "unbounded"):
        for query in QUERIES:
            s, t = median_time(lambda: smooth(ages, query, b, relation), 5)
            print(f"Adult ages n = {len(ages)}, {query:>13}, {relation:>9}: S = {s:.6g} in {1e3 * t:.2f} ms")


def tied_ages(n, rng):
    """n integer ages drawn from the Adult ages (17..90): about 74 distinct values, long runs of ties."""
    return rng.choice(ds.load_ages().to_numpy(dtype=float), n)


def part4(n, runs):
    print(f"\n4. tied data: {n} integer ages 17..90 (drawn from the Adult ages), bounds [0, 125], "
          f"beta = 1/(2 ln 2n^2), as multiples of one np.sort")
    print(f"{'query':>14} {'relation':>10} {'S':>12} {'t*':>7} {'time':>10} {'np.sort':>9} {'ratio':>7}")
    x = tied_ages(n, np.random.default_rng(26))
    b = beta_for(n)
    worst = 0.0
    for relation in ("bounded", "unbounded"):
        for query in QUERIES[:8]:
            _, t_sort = median_time(lambda: np.sort(x), runs)
            (s, ts), t = median_time(lambda: sm.smooth_sensitivity_argmax(x, query, b, 0, 125, relation), runs)
            _, t_sort2 = median_time(lambda: np.sort(x), runs)
            t_s = (t_sort + t_sort2) / 2
            print(f"{query:>14} {relation:>10} {s:>12.5g} {ts:>7} {1e3 * t:>8.2f}ms {1e3 * t_s:>7.2f}ms "
                  f"{t / t_s:>6.1f}x", flush=True)
            worst = max(worst, t / t_s)
    print(f"   the slowest query on tied ages is {worst:.1f}x one np.sort")


def part5(n, runs):
    print(f"\n5. small n = {n}: milliseconds per call (median of {runs} calls)")
    print(f"{'data':>10} {'query':>14} {'relation':>10} {'S':>12} {'time':>10} {'first call':>11} {'np.sort':>9}")
    rng = np.random.default_rng(5)
    b = beta_for(n)
    worst, worst_at, first_worst = 0.0, "", 0.0
    for kind, x, lo, up in (("tied ages", tied_ages(n, rng), 0, 125), ("uniform", rng.uniform(0, 100, n), 0, 100)):
        _, t_sort = median_time(lambda: np.sort(x), runs)
        for relation in ("bounded", "unbounded"):
            for query in QUERIES:
                sm.smooth_sensitivity_bound(x[:-1], query, b, lo, up, relation)   # warm the process, not the size
                clear_tables()
                with Stopwatch() as watch:
                    sm.smooth_sensitivity_bound(x, query, b, lo, up, relation)
                s, t = median_time(lambda: sm.smooth_sensitivity_bound(x, query, b, lo, up, relation), runs)
                label = query + (" (bound)" if query in ("var", "std") else "")
                print(f"{kind:>10} {label:>14} {relation:>10} {s:>12.5g} {1e3 * t:>8.3f}ms "
                      f"{1e3 * watch.seconds:>9.3f}ms {1e3 * t_sort:>7.3f}ms", flush=True)
                if t > worst:
                    worst, worst_at = t, f"{label}, {relation}, {kind}"
                first_worst = max(first_worst, watch.seconds)
    print(f"   the slowest call at n = {n} takes {1e3 * worst:.3f} ms ({worst_at}; goal 0.5 ms); "
          f"the slowest first call at this size {1e3 * first_worst:.3f} ms")


def part6(sizes):
    print("\n6. the growth with n: ms per call and multiples of one np.sort (goal: <= max(10 x sort, 1 ms))")
    print(f"{'n':>9} {'data':>10} {'query':>14} {'relation':>10} {'time':>10} {'np.sort':>9} {'ratio':>7} "
          f"{'budget':>7}")
    worst, worst_at = 0.0, ""
    for n in sizes:
        rng = np.random.default_rng(6 + n)
        runs = 21 if n <= 10**4 else 11 if n <= 10**5 else 5
        b = beta_for(n)
        for kind, x, lo, up in (("uniform", rng.uniform(0, 100, n), 0, 100),
                                ("tied ages", tied_ages(n, rng), 0, 125)):
            for relation in ("bounded", "unbounded"):
                for query in QUERIES:
                    _, t_sort = median_time(lambda: np.sort(x), runs)
                    _, t = median_time(lambda: sm.smooth_sensitivity_bound(x, query, b, lo, up, relation), runs)
                    _, t_sort2 = median_time(lambda: np.sort(x), runs)
                    ts = (t_sort + t_sort2) / 2
                    budget = t / max(10 * ts, 1e-3)
                    label = query + (" (bound)" if query in ("var", "std") else "")
                    print(f"{n:>9} {kind:>10} {label:>14} {relation:>10} {1e3 * t:>8.3f}ms {1e3 * ts:>7.3f}ms "
                          f"{t / ts:>6.1f}x {budget:>6.2f}", flush=True)
                    if budget > worst:
                        worst, worst_at = budget, f"n = {n}, {label}, {relation}, {kind}: {1e3 * t:.3f} ms, {t / ts:.1f}x"
    print(f"   the worst call is {worst:.2f} of its allowance max(10 x np.sort, 1 ms) ({worst_at})")


def main():
    quick = "--quick" in sys.argv
    if "--sweep" in sys.argv or "--sweep-quick" in sys.argv:
        part6([3000, 10**4, 3 * 10**4, 10**5] + ([] if "--sweep-quick" in sys.argv else [10**6]))
        return
    if "--small" in sys.argv:
        part5(10**3, 51)
        return
    if "--tied" in sys.argv:
        part4(10**6, 5)
        part5(10**3, 51)
        return
    part1([10**5] if quick else [10**5, 10**6], 3 if quick else 7)
    part2([10**4 + 1, 10**5 + 1] if quick else [10**4 + 1, 10**5 + 1, 10**6 + 1], 3 if quick else 5)
    part3()
    part4(10**6, 3 if quick else 5)
    part5(10**3, 51)


if __name__ == "__main__":
    main()
