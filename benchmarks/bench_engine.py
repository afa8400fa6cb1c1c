"""Benchmark: the exact sensitivity engine against the brute-force oracle.

Run from the repository root:

    .venv/bin/python benchmarks/bench_engine.py           # everything (a few minutes)
    .venv/bin/python benchmarks/bench_engine.py --quick   # under a minute

Part 1 times exact and brute force on every setting of the sources (all ten
queries, k = 1..4 where k <= n - 1, both relations, local and global) and
asserts that both give the same numbers.  Part 2 times the local sensitivity
of all ten queries, k = 1..10, both relations, on the 32,561 Adult ages with
the domain 0..100, and compares it with one ``np.sort`` of the data.  Every
ratio is measured in the same run.
"""
from __future__ import annotations

import argparse

import numpy as np

import dpsens as ds
from dpsens.timing import Stopwatch, best_seconds

QUERIES = list(ds.QUERIES)
RELATIONS = ("unbounded", "bounded")
SCHOOL_YEARS = [1, 2, 2, 2, 5, 5, 7, 8, 9, 9]
ABSENCE_DAYS = [1, 2, 3, 4, 5, 6, 7, 8, 15, 20]


def settings_a(quick: bool):
    """(label, kind, args, k-range, queries) for the settings of source (a)."""
    out = []
    for name, col in (("(a) school years", SCHOOL_YEARS), ("(a) absence days", ABSENCE_DAYS)):
        pool = ds.Pool(col)
        for rel in RELATIONS:
            for k in (1, 2, 3, 4):
                qs = QUERIES
                if quick and name.endswith("absence days") and rel == "bounded" and k >= 2:
                    qs = ["median"] if k == 4 else []        # the slow one, timed once
                if qs:
                    out.append((f"{name}, global n=6", "global", (pool, 6), k, rel, qs))
                out.append((f"{name}, local first 6", "local", (col[:6], pool), k, rel, QUERIES))
    return out


def settings(quick: bool):
    """(label, kind, args, k-range, queries) for every setting of the sources."""
    out = settings_a(quick)
    for name, vals in (("(b) mood", [1, 2]), ("(b) driving", [1, 2, 3])):
        for reading, universe in (("pool", ds.Pool(vals * 4)), ("domain", ds.Domain(vals))):
            for rel in RELATIONS:
                for k in (1, 2, 3):
                    out.append((f"{name} {reading}, global n=4", "global", (universe, 4), k, rel, QUERIES))
    grid = [1, 2, 3, 10, 11]
    for reading, universe in (("pool", ds.Pool(grid)), ("domain", ds.Domain(grid))):
        for rel in RELATIONS:
            for k in (1, 2):
                out.append((f"median grid {reading}, global n=3", "global", (universe, 3), k, rel, QUERIES))
    return out


def run_one(kind, args, q, k, rel, method):
    if kind == "global":
        universe, n = args
        return ds.global_sensitivity(q, universe, n, k, rel, method=method, progress=False)
    x, universe = args
    return ds.local_sensitivity(x, q, universe, k, rel, method=method, progress=False)


def part1(quick: bool):
    rows = {}
    for label, kind, args, k, rel, qs in settings(quick):
        for q in qs:
            with Stopwatch() as sw:
                brute = run_one(kind, args, q, k, rel, "bruteforce")
            t_brute = sw.seconds
            exact = run_one(kind, args, q, k, rel, "exact")
            assert np.isclose(exact, brute, rtol=1e-9, atol=1e-12), (label, q, k, rel, exact, brute)
            t_exact = best_seconds(lambda: run_one(kind, args, q, k, rel, "exact"),
                                repeat=2 if quick else 3, min_total=0.002 if quick else 0.01)
            key = (label, rel, k)
            r = rows.setdefault(key, [0, 0.0, 0.0])
            r[0] += 1
            r[1] += t_brute
            r[2] += t_exact
    print("\nPart 1 - the sources' settings: exact == brute force (asserted), summed over the queries")
    print(f"{'setting':38s} {'relation':9s} {'k':>2s} {'#q':>3s} {'brute s':>9s} {'exact ms':>9s} {'ratio':>8s}")
    tot_b = tot_e = 0.0
    ratios = []
    for (label, rel, k), (nq, tb, te) in rows.items():
        tot_b += tb
        tot_e += te
        ratios.append(tb / te)
        print(f"{label:38s} {rel:9s} {k:2d} {nq:3d} {tb:9.3f} {te * 1e3:9.3f} {tb / te:8.0f}x")
    print(f"{'total':38s} {'':9s} {'':2s} {'':3s} {tot_b:9.3f} {tot_e * 1e3:9.3f} {tot_b / tot_e:8.0f}x")
    print(f"ratio per row: median {np.median(ratios):.0f}x, smallest {min(ratios):.0f}x, "
          f"largest {max(ratios):.0f}x")
    slow = max(rows.items(), key=lambda kv: kv[1][1])
    (label, rel, k), (nq, tb, te) = slow
    print(f"slowest brute force: {label}, {rel}, k={k}: {tb:.1f} s for {nq} queries "
          f"vs {te * 1e3:.2f} ms exact ({tb / te:.0f}x)")


def part2(quick: bool):
    ages = ds.load_ages().to_numpy()
    domain = ds.Domain(range(0, 101))

    def all_local():
        return [ds.local_sensitivity(ages, q, domain, k, rel)
                for rel in RELATIONS for k in range(1, 11) for q in QUERIES]

    repeat = 3 if quick else 5
    t_all = best_seconds(all_local, repeat=repeat, min_total=0.0)
    t_sort = best_seconds(lambda: np.sort(ages), repeat=20, min_total=0.05)
    print(f"\nPart 2 - Adult ages (n = {len(ages):,}), domain 0..100, all ten queries x k = 1..10 x "
          "both relations (200 calls)")
    print(f"total {t_all:.3f} s (goal < 1 s); one np.sort of the data {t_sort * 1e3:.3f} ms; "
          f"total = {t_all / t_sort:.0f} sorts, {t_all / 200 / t_sort:.1f} sorts per call")
    print(f"{'query':15s} {'ms (20 calls)':>14s}")
    for q in QUERIES:
        t = best_seconds(lambda: [ds.local_sensitivity(ages, q, domain, k, rel)
                                  for rel in RELATIONS for k in range(1, 11)], repeat=2, min_total=0.0)
        print(f"{q:15s} {t * 1e3:14.1f}")
    # a spot check against brute force where it is affordable: k = 1 on the first 40 ages
    for q in QUERIES:
        for rel in RELATIONS:
            a = ds.local_sensitivity(ages[:40], q, domain, 1, rel)
            b = ds.local_sensitivity(ages[:40], q, domain, 1, rel, method="bruteforce", progress=False)
            assert np.isclose(a, b, rtol=1e-9, atol=1e-12), (q, rel, a, b)
    print("spot check (first 40 ages, k = 1): exact == brute force for all queries and relations")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest enumerations (< 1 min)")
    args = parser.parse_args()
    with Stopwatch() as sw:
        part1(args.quick)
        part2(args.quick)
    print(f"\nbenchmark wall time {sw.seconds:.0f} s")


if __name__ == "__main__":
    main()
