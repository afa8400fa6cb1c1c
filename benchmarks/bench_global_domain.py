"""Benchmark: global sensitivity on a Domain, old scans against the closed forms.

Run from the repository root:

    .venv/bin/python benchmarks/bench_global_domain.py

The Adult setting of the *Local sensitivity* chapter: releases of n = 32,561
ages, the domains 17..90 and 0..100, all ten queries, k = 1..10, both
relations.  ``OLD`` below is the previous implementation of the variance,
std and order-statistic parts of ``dpsens.globalsens`` (it scanned every
count of records at ``lo``, so its cost and memory grew with n), kept here,
apart from the package, only to be timed against the current one in the same
run.  The script first asserts that both give the same numbers (relative
1e-9) on the Adult settings and on random small domains, then prints the
median times and their ratio, and the time of the current engine at
n = 10**6 and n = 10**30 (the old one needs memory in proportion to n there).
"""
from __future__ import annotations

import numpy as np

import dpsens as ds
from dpsens.queries import PERCENTILES
from dpsens.timing import median_ms

# ----------------------------------------------------------------- OLD (before issue 14)


def _old_binary_quantile(z, N, p):
    z = np.asarray(z, dtype=float)
    if p is None:
        a = ((N - 1) // 2 >= z).astype(float)
        b = (N // 2 >= z).astype(float)
        return (a + b) / 2
    return np.clip((N - 1) * (p / 100) - z + 1, 0.0, 1.0)


def _old_binary_global(p, n, k, neighbors) -> float:
    t = np.arange(n + 1)
    z = n - t
    fx = _old_binary_quantile(z, n, p)
    if neighbors == "unbounded":
        options = [_old_binary_quantile(z - np.minimum(k, z), n - k, p),
                   _old_binary_quantile(z - (k - np.minimum(k, t)), n - k, p),
                   _old_binary_quantile(z, n + k, p),
                   _old_binary_quantile(z + k, n + k, p)]
    else:
        options = [_old_binary_quantile(z - np.minimum(k, z), n, p),
                   _old_binary_quantile(z + np.minimum(k, t), n, p)]
    return float(max(np.max(np.abs(o - fx)) for o in options))


def _old_var_counts(vals, counts):
    N = sum(counts)
    mu = sum(v * c for v, c in zip(vals, counts, strict=True)) / N
    return sum(c * (v - mu) ** 2 for v, c in zip(vals, counts, strict=True)) / N


def _old_two_valued_up(w, n, k, neighbors_sizes, sqrt):
    best = 0.0
    for m, N in neighbors_sizes:
        a = np.arange(N + 1)
        ok = np.maximum(a, N - a) >= m
        v = w * w * a * (N - a) / N**2
        v = np.sqrt(v) if sqrt else v
        best = max(best, float(v[ok].max()))
    return best


def _old_domain_var_std(name, D, n, k, neighbors) -> float:
    lo, hi = float(D[0]), float(D[-1])
    c = (lo + hi) / 2
    D = D - c
    lo, hi, w = lo - c, hi - c, hi - lo
    sqrt = name == "std"
    if neighbors == "unbounded":
        up = _old_two_valued_up(w, n, k, [(n - k, n), (n, n + k)], sqrt)
        if sqrt:
            return up
        down = 0.0
        for m, r in ((n - k, k), (n, k)):
            a = np.arange(m + 1)[:, None]
            d = D[None, :]
            vk = _old_var_counts([lo, hi], [a, m - a])
            vkr = _old_var_counts([lo, hi, d], [a, m - a, r])
            down = max(down, float(np.max(vk - vkr)))
        return max(up, down)
    m = n - k
    if not sqrt:
        a = np.arange(m + 1)[:, None]
        d = D[None, :]
        v2 = _old_var_counts([lo, hi, d], [a, m - a, k])
        best = 0.0
        for b in range(k + 1):
            v1 = _old_var_counts([lo, hi], [a + b, m - a + k - b])
            best = max(best, float(np.max(v1 - v2)))
        return best
    dk = D[:, None, None]
    b = np.arange(k + 1)[None, :, None]
    d = D[None, None, :]
    v1 = _old_var_counts([dk, lo, hi], [m, b, k - b])
    v2 = _old_var_counts([dk, d], [m, k])
    return float(np.max(np.sqrt(v1) - np.sqrt(v2)))


def old_global(name, D, n, k, neighbors) -> float:
    """The previous ``_domain_global`` (count, sum and mean were closed forms already)."""
    lo, hi = float(D[0]), float(D[-1])
    w = hi - lo
    if name == "count":
        return float(k) if neighbors == "unbounded" else 0.0
    if name == "sum":
        return k * max(abs(lo), abs(hi)) if neighbors == "unbounded" else k * w
    if name == "mean":
        return k * w / n
    if name == "median" or name in PERCENTILES:
        return w * _old_binary_global(PERCENTILES.get(name), n, k, neighbors)
    return _old_domain_var_std(name, np.asarray(D, dtype=float), n, k, neighbors)


# ----------------------------------------------------------------- the comparison

QUERIES = list(ds.QUERIES)
RELATIONS = ("unbounded", "bounded")
N_ADULT = 32_561


def table(fn, D, n, ks=range(1, 11)):
    return {(q, r, k): fn(q, D, n, k, r) for q in QUERIES for r in RELATIONS for k in ks}


def new_global(q, D, n, k, r):
    return ds.global_sensitivity(q, D, n, k, r)


def main():
    rng = np.random.default_rng(14)
    small = 0
    for _ in range(300):                                  # random small domains and sizes
        D = ds.Domain(np.round(rng.uniform(-50, 50, rng.integers(2, 9)), 1))
        n = int(rng.integers(2, 200))
        for q in QUERIES:
            for r in RELATIONS:
                k = int(rng.integers(1, n))
                a, b = old_global(q, D.values, n, k, r), new_global(q, D, n, k, r)
                assert np.isclose(a, b, rtol=1e-9, atol=1e-12), (q, r, D, n, k, a, b)
                small += 1
    print(f"old == new on {small:,} random small cases (relative 1e-9)")
    print()
    print(f"Adult ages, n = {N_ADULT:,}, all ten queries x k = 1..10 x both relations (200 calls)")
    print(f"{'domain':>8} | {'query':>13} | {'old ms':>9} | {'new ms':>8} | {'ratio':>7}")
    for label, D in (("17..90", ds.Domain(range(17, 91))), ("0..100", ds.Domain(range(101)))):
        old_t, new_t = table(old_global, D.values, N_ADULT), table(new_global, D, N_ADULT)
        for key in old_t:
            assert np.isclose(old_t[key], new_t[key], rtol=1e-9, atol=1e-12), (label, key)
        tot_old = tot_new = 0.0
        for q in QUERIES:
            def run(fn, arg):
                return lambda: [fn(q, arg, N_ADULT, k, r) for r in RELATIONS for k in range(1, 11)]
            to = median_ms(run(old_global, D.values), runs=3)
            tn = median_ms(run(new_global, D), runs=7)
            tot_old, tot_new = tot_old + to, tot_new + tn
            print(f"{label:>8} | {q:>13} | {to:9.1f} | {tn:8.2f} | {to / tn:7.1f}x")
        print(f"{label:>8} | {'all ten':>13} | {tot_old:9.1f} | {tot_new:8.2f} | {tot_old / tot_new:7.1f}x")
    print()
    for n in (10**6, 10**30):
        D = ds.Domain(range(101))
        t = median_ms(lambda: table(new_global, D, n), runs=3)
        print(f"new engine, n = {n:.0e}, domain 0..100, 200 calls: {t:.1f} ms")
    ages = ds.data.load_ages().to_numpy()
    sort_ms = median_ms(lambda: np.sort(ages), runs=7)
    print(f"one np.sort of the 32,561 ages, for scale: {sort_ms:.2f} ms")


if __name__ == "__main__":
    main()
