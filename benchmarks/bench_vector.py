"""Benchmark: exact vector sensitivities at Adult size, against the neighbour-by-neighbour enumeration.

Run from the repository root:

    .venv/bin/python benchmarks/bench_vector.py

The setting of *Many answers at once*: the mean and the median of the
32,561 Adult ages released together, on the domain 17..90, L1, L2 and L∞,
both relations, k = 1..3 for add/remove and k = 1 for replace.
:func:`dpsens.vector.vector_local_sensitivity` visits every distinct
neighbour as counts over the 74 values and evaluates both queries for all of
them at once; the reference walks the same neighbours with
:func:`dpsens.neighbors.iter_neighbors` and evaluates ``np.mean`` and
``np.median`` on each neighbour's 32,561 records.  The script asserts that
both give the same numbers (relative 1e-9) -- the reference only where it
finishes in reasonable time -- then prints the median times and their
ratio, measured in the same run.
"""
from __future__ import annotations

import numpy as np

import dpsens as ds
from dpsens.neighbors import iter_neighbors
from dpsens.vector import NORMS, vector_local_sensitivity, vector_norm
from dpsens.timing import median_ms

QUERIES = ["mean", "median"]


def reference(x, universe, k, neighbors):
    """Every neighbour record by record (iter_neighbors), numpy's mean and median on each: all three norms."""
    base = np.array([np.mean(x), np.median(x)])
    best = dict.fromkeys(NORMS, 0.0)
    for y in iter_neighbors(x, universe, k, neighbors):
        y = np.asarray(y)
        change = np.array([np.mean(y), np.median(y)]) - base
        for norm in NORMS:
            best[norm] = max(best[norm], float(vector_norm(change, norm)))
    return best


def main() -> None:
    ages = ds.load_ages().to_numpy()
    D = ds.Domain(range(17, 91))
    print(f"Adult ages: n = {len(ages):,}, {len(np.unique(ages))} distinct values, domain 17..90\n")
    print(f"{'relation':>10} {'k':>2} {'exact (ms)':>11} {'reference (ms)':>15} {'ratio':>8}")
    for neighbors, k, with_reference in (("unbounded", 1, True), ("unbounded", 2, True), ("unbounded", 3, False),
                                         ("bounded", 1, True)):
        exact = {norm: vector_local_sensitivity(ages, QUERIES, D, k, neighbors, norm) for norm in NORMS}
        t_exact = median_ms(lambda: [vector_local_sensitivity(ages, QUERIES, D, k, neighbors, n) for n in NORMS],
                            runs=3) / len(NORMS)
        if with_reference:
            ref = {}
            t_ref = median_ms(lambda: ref.update(reference(ages, D, k, neighbors)), runs=1)
            for norm in NORMS:
                assert np.isclose(exact[norm], ref[norm], rtol=1e-9), (neighbors, k, norm, exact[norm], ref[norm])
            # the reference computes the three norms in one walk: its time is per norm too
            t_ref /= len(NORMS)
            print(f"{neighbors:>10} {k:>2} {t_exact:>11.1f} {t_ref:>15.1f} {t_ref / t_exact:>7.0f}x")
        else:
            print(f"{neighbors:>10} {k:>2} {t_exact:>11.1f} {'(not run)':>15} {'':>8}")
        print(f"{'':>13} L1 {exact['l1']:.6g}, L2 {exact['l2']:.6g}, L∞ {exact['linf']:.6g}")


if __name__ == "__main__":
    main()
