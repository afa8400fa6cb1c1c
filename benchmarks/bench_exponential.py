"""The package's exponential-mechanism quantile against an independent implementation (``benchmarks/smith11.py``).

1. Identical distributions: on seeded data with ties, the exact interval
   probabilities of both agree to 1e-12, and 20,000 releases of each pass a
   two-sample Kolmogorov-Smirnov test and a chi-square test on the intervals
   (the two samplers use different methods, so the same seed gives
   different draws: the test is statistical).
2. Speed: one release at n = 10^3 .. 10^6 (median of several runs), package
   against the independent Gumbel-max code, and the package against one
   ``np.sort`` of the same data, measured in the same run.

Run from the repository root: ``.venv/bin/python benchmarks/bench_exponential.py`` (``--quick``: n <= 10^5).
"""
from __future__ import annotations

import os
import sys

import numpy as np
from scipy import stats

from dpsens.mechanisms import exponential as em
from dpsens.timing import median_ms

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smith11  # the independent implementation, next to this script


def part1():
    print("1. identical distributions (bounded relation, so both use u_i = -|i - q n| with sensitivity 1)")
    rng = np.random.default_rng(11)
    for n, q, eps in ((1000, 0.5, 0.5), (1000, 0.9, 0.05), (200, 0.5, 5.0)):
        x = np.round(rng.normal(40, 10, n)).clip(0, 100)          # whole numbers: many ties
        d = em.quantile_exponential_distribution(x, q, eps, 0, 100, "bounded")
        _, p_ref = smith11.probabilities(x, q, eps, 0, 100)
        gap = float(np.max(np.abs(np.exp(d["log_prob"]) - p_ref)))
        ours = em.quantile_exponential(x, q, eps, 0, 100, np.random.default_rng(1), "bounded", size=20_000)
        ref_rng = np.random.default_rng(2)
        theirs = np.array([smith11.release(x, q, eps, 0, 100, ref_rng) for _ in range(20_000)])
        ks = stats.ks_2samp(ours, theirs).pvalue
        edges = np.unique(np.concatenate(([0.0], x, [100.0])))
        c1, _ = np.histogram(ours, edges)
        c2, _ = np.histogram(theirs, edges)
        keep = (c1 + c2) >= 10
        table = np.array([np.append(c1[keep], c1[~keep].sum()), np.append(c2[keep], c2[~keep].sum())])
        table = table[:, table.sum(axis=0) > 0]
        chi = stats.chi2_contingency(table).pvalue if table.shape[1] > 1 else 1.0
        print(f"  n = {n:5d}, q = {q}, eps = {eps:4}: max |P_package - P_paper| = {gap:.1e}; "
              f"KS p = {ks:.3f}, chi-square p = {chi:.3f}")
        assert gap < 1e-12 and ks > 1e-3 and chi > 1e-3


def part2(sizes):
    print("2. one release, median of runs (ms); ratio paper / package, and package / one np.sort")
    print(f"{'n':>9} {'package':>10} {'paper':>10} {'np.sort':>9} {'paper/pkg':>10} {'pkg/sort':>9}")
    rng = np.random.default_rng(7)
    for n in sizes:
        x = rng.uniform(0, 100, n)
        runs = 15 if n <= 10**5 else 5
        t_pkg = median_ms(lambda: em.quantile_exponential(x, 0.5, 1.0, 0, 100, rng, "bounded"), runs=runs)
        t_ref = median_ms(lambda: smith11.release(x, 0.5, 1.0, 0, 100, rng), runs=runs)
        t_sort = median_ms(lambda: np.sort(x), runs=runs)
        print(f"{n:9d} {t_pkg:10.2f} {t_ref:10.2f} {t_sort:9.2f} {t_ref / t_pkg:10.2f} {t_pkg / t_sort:9.2f}")


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    part1()
    part2([10**3, 10**4, 10**5] if quick else [10**3, 10**4, 10**5, 10**6])
