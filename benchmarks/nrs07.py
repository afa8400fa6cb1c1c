"""An independent implementation of Nissim, Raskhodnikova & Smith's (2007) smooth sensitivity of an order statistic.

Written from the paper (NRS07, "Smooth sensitivity and sampling in private
data analysis", Sec. 3.1), deliberately apart from ``dpsens`` (nothing is
imported from the package), to check and time ``dpsens.smooth_sensitivity``
against it in ``benchmarks/bench_nrs07.py``.

The statement (bounded relation: one record replaced by any value in
``[lower, upper]``).  Let ``x_1 <= ... <= x_n`` be the sorted data and the
query the order statistic ``x_m`` (the median for odd ``n`` is
``m = (n + 1)/2``); pad with ``x_i = lower`` for ``i < 1`` and ``x_i = upper``
for ``i > n``.  Then

    A^(k)(x) = max_{0 <= t <= k+1} (x_{m+t} - x_{m+t-k-1}),
    S*_beta(x) = max_{k = 0..n} e^{-k beta} A^(k)(x).

Each term is a pair ``(i, j) = (m+t-k-1, m+t)`` with ``i <= m <= j``,
``j - i = k + 1``; a pair below index 0 has the value of the pair clipped to
index 0 at a smaller ``k``, so

    S* = max_{0 <= i <= m <= j <= n+1, i < j} e^{-beta (j - i - 1)} (x_j - x_i).

For a fixed ``i`` let ``j*(i)`` be the (largest) maximising ``j``.  NRS07
observe ``j*`` is monotone in ``i``: if ``i < i'`` then ``j*(i) <= j*(i')``.
So: compute ``j*`` at the middle ``i`` of a range by scanning its allowed
``j``, then solve the lower half of the ``i`` range with ``j <= j*`` and the
upper half with ``j >= j*``; ``O(n log n)``.  Ranges whose ``i x j`` rectangle
is small are scanned whole (the same maximum, fewer Python calls).
Everything is in log space, as ``e^{-beta k}`` underflows for long
distances.
"""
from __future__ import annotations

import math

import numpy as np

SMALL = 4096          # rectangles with at most this many pairs are scanned in one numpy call


def _log_pairs(logd_fn, i, js, beta):
    """log e^{-beta (j - i - 1)} (x_j - x_i) for one i and an array of j (``-inf`` where x_j = x_i)."""
    return logd_fn(i, js) - beta * (js - i - 1)


def smooth_sensitivity_order_statistic(x, m, beta, lower, upper):
    """``S*_beta`` of the order statistic ``x_m`` (1-based rank ``m``), bounded relation, NRS07 Sec. 3.1.

    Parameters
    ----------
    x : array_like
        Data in ``[lower, upper]``.
    m : int
        1-based rank of the order statistic (``(n + 1)/2`` for the median of odd ``n``).
    beta : float
        Smoothing parameter, ``> 0``.
    lower, upper : float
        The bounds every record lies in.

    Returns
    -------
    float
    """
    xs = np.sort(np.asarray(x, dtype=float))
    n = len(xs)
    if not 1 <= m <= n:
        raise ValueError(f"m must be a rank in 1..{n}, got {m}")
    X = np.concatenate(([lower], xs, [upper]))          # X[i] = x_i for i = 0..n+1 (1-based, padded)

    def logdiff(i, js):
        d = X[js] - X[i]
        with np.errstate(divide="ignore"):
            return np.log(d)

    best = -math.inf
    stack = [(0, m, m, n + 1)]                           # i in [ilo, ihi], j in [jlo, jhi]
    while stack:
        ilo, ihi, jlo, jhi = stack.pop()
        if ihi < ilo:
            continue
        if (ihi - ilo + 1) * (jhi - jlo + 1) <= SMALL:
            ii = np.arange(ilo, ihi + 1)[:, None]
            jj = np.arange(jlo, jhi + 1)[None, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                val = np.where(jj > ii, np.log(np.maximum(X[jj] - X[ii], 0.0)) - beta * (jj - ii - 1), -np.inf)
            best = max(best, float(val.max()))
            continue
        i = (ilo + ihi) // 2
        js = np.arange(max(jlo, i + 1), jhi + 1)
        vals = _log_pairs(logdiff, i, js, beta)
        k = int(np.flatnonzero(vals == vals.max())[-1])
        best = max(best, float(vals[k]))
        jstar = int(js[k])
        stack.append((ilo, i - 1, jlo, jstar))
        stack.append((i + 1, ihi, jstar, jhi))
    return math.exp(best) if best > -math.inf else 0.0


def direct(x, m, beta, lower, upper):
    """The definition itself, ``max_k e^{-k beta} A^(k)`` with ``A^(k)`` by its formula: ``O(n^2)`` (small n)."""
    xs = np.sort(np.asarray(x, dtype=float))
    n = len(xs)

    def xi(i):
        i = np.asarray(i)
        return np.where(i < 1, lower, np.where(i > n, upper, xs[np.clip(i, 1, n) - 1]))

    best = 0.0
    for k in range(n + 1):
        t = np.arange(k + 2)
        best = max(best, math.exp(-k * beta) * float(np.max(xi(m + t) - xi(m + t - k - 1))))
    return best


if __name__ == "__main__":                               # a self-check against the definition
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(200):
        n = int(rng.integers(1, 60))
        x = rng.uniform(0, 10, n) if rng.random() < 0.5 else np.round(rng.uniform(0, 10, n))
        m = int(rng.integers(1, n + 1))
        beta = float(rng.choice([0.01, 0.1, 1.0]))
        a, b = smooth_sensitivity_order_statistic(x, m, beta, 0, 10), direct(x, m, beta, 0, 10)
        worst = max(worst, abs(a - b))
    print(f"NRS07 divide and conquer vs the definition, 200 random cases: max abs diff {worst:.3g}")
