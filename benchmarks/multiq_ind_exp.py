"""The peer of ``dpsens.mechanisms.quantile_exponential``: one quantile of Google's ``dp_multiq`` ``ind_exp``.

Written from the paper, not from the code, and apart from ``dpsens``
(nothing is imported from the package): Gillenwater, Joseph & Kulesza (2021),
*Differentially Private Quantiles*, ICML, Section 3 (the exponential
mechanism for one quantile, which ``IndExp`` runs once per quantile with the
budget split between them; with one quantile the whole ε).

Clip the data to the public ``[a, b]`` and sort it, ``a = z_0 <= z_1 <= ...
<= z_n <= z_{n+1} = b``.  Every point of the interval ``I_i = [z_i, z_{i+1}]``
(``i = 0..n``) has exactly ``i`` data points below it, hence the rank utility
``u_i = −|i − m|`` with ``m = q n`` (sensitivity 1 when one record is
replaced).  Interval ``i`` is chosen with probability proportional to
``(z_{i+1} − z_i) exp(ε u_i / 2)``, i.e. log-weight
``log(z_{i+1} − z_i) − ε |i − m| / 2`` (``−inf`` for an empty interval), and
the release is uniform in the chosen interval.

The interval is drawn as the paper's authors do, by a race: the argmax of
the log-weights plus independent standard Gumbel variables (equivalently the
argmin of ``log(log(1/U)) − log-weight``) has exactly the normalised
distribution and needs no normaliser -- ``n + 1`` random numbers per release.
``interval_probabilities`` gives the same distribution in closed form
(log-sum-exp), for the comparison in ``tests/package/test_quantile_release.py``.

Used by ``benchmarks/bench_quantile.py`` (timing) and the test above (the
distributions agree).
"""
from __future__ import annotations

import numpy as np

__all__ = ["log_weights", "ind_exp", "interval_probabilities"]


def log_weights(data, q, epsilon, a, b):
    """``(z, w)``: the ``n + 2`` clipped, sorted points with the bounds, and each interval's log-weight."""
    z = np.sort(np.clip(np.asarray(data, dtype=float), a, b))
    z = np.concatenate(([a], z, [b]))
    n = len(z) - 2
    utility = -np.abs(np.arange(n + 1) - q * n)
    with np.errstate(divide="ignore"):
        return z, np.log(np.diff(z)) + (epsilon / 2.0) * utility


def ind_exp(data, q, epsilon, a, b, rng):
    """One ε-DP release of the ``q`` quantile (Gumbel race over the intervals, then uniform inside)."""
    z, w = log_weights(data, q, epsilon, a, b)
    i = int(np.argmax(w + rng.gumbel(size=w.shape)))
    return float(z[i] + rng.uniform() * (z[i + 1] - z[i]))


def interval_probabilities(data, q, epsilon, a, b):
    """The exact probability of each of the ``n + 1`` intervals (log-sum-exp of the log-weights)."""
    _, w = log_weights(data, q, epsilon, a, b)
    top = np.max(w)
    p = np.exp(w - top)
    return p / p.sum()
