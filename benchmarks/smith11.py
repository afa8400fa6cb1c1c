"""An independent implementation of the exponential-mechanism quantile (Smith 2011; Gillenwater, Joseph & Kulesza 2021).

Written from the papers, deliberately apart from ``dpsens`` (nothing is
imported from the package), to check and time
``dpsens.mechanisms.quantile_exponential`` against it in
``benchmarks/bench_exponential.py``.

The statement (Smith 2011, Sec. 3; the "exponential mechanism quantile" of
Gillenwater, Joseph & Kulesza 2021, Sec. 3, Algorithm 1 for one quantile).
Clip the data to ``[a, b]``, sort it and add the endpoints:
``z_0 = a <= z_1 <= ... <= z_n <= z_{n+1} = b``.  The interval
``I_i = [z_i, z_{i+1}]`` (``i = 0..n``) holds the points with exactly ``i``
data points below them, so every point of it has utility
``u_i = -| i - q n |`` (sensitivity 1 when one record is replaced).  The
mechanism chooses interval ``i`` with probability proportional to
``(z_{i+1} - z_i) exp(ε u_i / 2)`` and outputs a uniform point of it.

Sampling here is by the **Gumbel-max trick**, as in the authors' code: add
an independent standard Gumbel variable to each log-weight
``log(z_{i+1} - z_i) + ε u_i / 2`` and take the largest (intervals of length
zero have log-weight ``-inf`` and never win).  The argmax has exactly the
normalised distribution, without computing the normaliser.  This costs
``n + 1`` Gumbel draws per release, where the package inverts the cumulative
probabilities once per release; :func:`probabilities` computes the exact
probabilities by a different route (weights relative to the largest, summed
with ``math.fsum``) for the statistical comparison.
"""
from __future__ import annotations

import math

import numpy as np


def _intervals(data, q, a, b):
    z = np.concatenate(([a], np.sort(np.clip(np.asarray(data, dtype=float), a, b)), [b]))
    n = len(z) - 2
    length = np.diff(z)
    utility = -np.abs(np.arange(n + 1) - q * n)
    return z, length, utility


def log_weights(data, q, epsilon, a, b):
    """``log(length_i) + ε u_i / 2`` for every interval (``-inf`` for length 0)."""
    z, length, utility = _intervals(data, q, a, b)
    with np.errstate(divide="ignore"):
        return z, np.log(length) + epsilon * utility / 2.0


def release(data, q, epsilon, a, b, rng):
    """One release, by Gumbel-max over the intervals and a uniform point inside the winner."""
    z, w = log_weights(data, q, epsilon, a, b)
    i = int(np.argmax(w + rng.gumbel(size=w.shape)))
    return z[i] + rng.uniform() * (z[i + 1] - z[i])


def probabilities(data, q, epsilon, a, b):
    """The exact probability of each interval (weights relative to the largest, summed with fsum)."""
    z, w = log_weights(data, q, epsilon, a, b)
    top = max(v for v in w if v != -math.inf)
    rel = [math.exp(v - top) if v != -math.inf else 0.0 for v in w]
    total = math.fsum(rel)
    return z, np.array([r / total for r in rel])
