"""Benchmark: a million exact discrete Laplace and discrete Gaussian draws, against numpy's floating-point samplers.

Run from the repository root:

    .venv/bin/python benchmarks/bench_discrete.py

The samplers of *Noise a computer can actually sample*
(:mod:`dpsens.mechanisms.discrete`, Canonne, Kamath & Steinke 2020,
Algorithms 1-3, vectorised in batches of independent attempts, the first
coins of each Bernoulli(exp(-gamma)) chain settled by one uniform integer)
draw 10**6 values; the script prints the median time of each and its ratio to numpy's
``rng.laplace`` / ``rng.normal`` for the same number of (floating-point,
not private as they stand) draws, measured in the same run.  It asserts
nothing about time (the machine may be busy); it checks that each sample's
mean and variance are those of the distribution, so a fast but wrong
sampler does not pass unnoticed.
"""
from __future__ import annotations

import numpy as np

from dpsens.mechanisms.discrete import (discrete_gaussian_pmf, discrete_laplace_pmf, sample_discrete_gaussian,
                                        sample_discrete_laplace)
from dpsens.timing import median_ms

N = 1_000_000


def check_moments(sample, pmf, reach):
    k = np.arange(-reach, reach + 1)
    p = pmf(k)
    var = float((p * k ** 2).sum())
    assert abs(sample.mean()) < 6 * np.sqrt(var / N), "mean off"
    assert abs(sample.var() / var - 1) < 0.02, "variance off"


def main():
    rng = np.random.default_rng(0)
    print(f"{N:,} draws each; median of repeated runs\n")
    print(f"{'sampler':>34} {'exact (ms)':>11} {'numpy float (ms)':>17} {'ratio':>7}")
    for scale in (0.5, 2, 10, 1000):
        t_ref = median_ms(lambda: rng.laplace(0.0, float(scale), size=N))
        t = median_ms(lambda: sample_discrete_laplace(scale, rng, size=N))
        check_moments(sample_discrete_laplace(scale, rng, size=N),
                      lambda k: discrete_laplace_pmf(k, scale), int(60 * scale) + 60)
        print(f"{'discrete Laplace, b = ' + str(scale):>34} {t:>11.0f} {t_ref:>17.0f} {t / t_ref:>6.1f}x")
    for sigma in (0.5, 3, 10.5, 1000):
        t_ref = median_ms(lambda: rng.normal(0.0, float(sigma), size=N))
        t = median_ms(lambda: sample_discrete_gaussian(sigma, rng, size=N))
        check_moments(sample_discrete_gaussian(sigma, rng, size=N),
                      lambda k: discrete_gaussian_pmf(k, sigma), int(40 * sigma) + 40)
        print(f"{'discrete Gaussian, σ = ' + str(sigma):>34} {t:>11.0f} {t_ref:>17.0f} {t / t_ref:>6.1f}x")


if __name__ == "__main__":
    main()
