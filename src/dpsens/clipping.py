"""Clipping a sum: the bias a bound causes, the noise it needs, and the bound that balances them.

Chapter: *Many answers at once* (contribution bounding and clipping bias).

A sum of values ``x_i >= 0`` has no finite sensitivity.  Clipping every value
to ``[0, u]`` makes it ``u`` under add/remove neighbours (one record adds at
most ``u``; the size ``n`` plays no part, so it may stay private), and the
Laplace mechanism adds noise of variance ``2 u² / ε²``.  The clipped sum is
biased by ``−Σ (x_i − u)₊``.  The mean squared error of the release is

    MSE(u) = bias(u)² + 2 u² / ε²,

which :func:`clipped_sum_error` computes for any bounds and
:func:`best_clipping_bound` minimises exactly.  The best bound is a function
of the data: releasing with it is not private as it stands (the chapter
shows why and what to do instead).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._validate import as_data, as_positive

__all__ = ["clipped_sum_error", "best_clipping_bound"]


def _check(values, epsilon, groups=None):
    x = as_data(values, "values")
    if np.any(x < 0):
        raise ValueError(f"values must be >= 0 (clipping to [0, u]); the smallest is {x.min():g}")
    if groups is None:
        codes = np.zeros(len(x), dtype=np.int64)
    else:
        g = np.asarray(groups, dtype=object).ravel()
        if len(g) != len(x):
            raise ValueError(f"groups must give one label per value: {len(g)} labels for {len(x)} values")
        codes = pd.factorize(pd.Series(g), use_na_sentinel=False)[0]   # a missing label is a group too
    order = np.argsort(x, kind="stable")
    return x[order], codes[order], as_positive(epsilon, "epsilon")


def _above(x, codes, u):
    """Per bound: Σ_g (S_g(u) − m_g(u) u)² and the total bias, with S_g, m_g the sum and count above u in group g."""
    G = int(codes.max()) + 1 if len(codes) else 1
    j = np.searchsorted(x, u, side="right")
    # cumulative sums and counts per group, from the top
    onehot = np.zeros((len(x) + 1, G))
    np.add.at(onehot, (np.arange(len(x)), codes), 1.0)
    weighted = onehot.copy()
    weighted[:-1] *= x[:, None]
    m = np.cumsum(onehot[::-1], axis=0)[::-1]       # rows j: counts of x[j:] per group
    s = np.cumsum(weighted[::-1], axis=0)[::-1]
    bias_g = -(s[j] - m[j] * u[:, None])
    return bias_g, G


def clipped_sum_error(values, bounds, epsilon, groups=None) -> pd.DataFrame:
    """Bias², noise variance and mean squared error of Laplace-noised sums clipped to ``[0, u]``.

    Chapter: *Many answers at once*.  With ``groups``, one sum per group
    is released (each record in one group, so one record changes one sum by
    at most ``u``: L1 sensitivity ``u``, Laplace noise ``Lap(u/ε)`` on every
    sum) and the errors are added over the groups.

    Parameters
    ----------
    values : array_like
        The data, every value ``>= 0`` and finite.
    bounds : float or array_like
        Upper clipping bounds ``u > 0`` (finite).
    epsilon : float
    groups : array_like, optional
        A group label per value (a public list of groups: every label here).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``u``, columns ``bias_squared`` (summed over groups),
        ``noise_variance`` (``2u²/ε²`` per group, summed) and ``mse``.

    Examples
    --------
    >>> clipped_sum_error([1, 2, 10], [2, 10], 1.0)["mse"].tolist()
    [72.0, 200.0]
    """
    x, codes, epsilon = _check(values, epsilon, groups)
    u = np.atleast_1d(np.asarray(bounds, dtype=float))
    if u.size == 0 or not np.all(np.isfinite(u)) or np.any(u <= 0):
        raise ValueError(f"bounds must be finite numbers > 0, got {bounds!r}")
    bias_g, G = _above(x, codes, u)
    bias2 = (bias_g ** 2).sum(axis=1)
    noise = G * 2 * u ** 2 / epsilon ** 2
    return pd.DataFrame({"bias_squared": bias2, "noise_variance": noise, "mse": bias2 + noise},
                        index=pd.Index(u, name="u"))


def best_clipping_bound(values, epsilon, groups=None) -> float:
    """The clipping bound ``u`` that minimises :func:`clipped_sum_error`'s MSE, exactly.

    Chapter: *Many answers at once*.  Between two consecutive data values
    the values above ``u`` are fixed; with ``m_g`` of them in group ``g``,
    summing to ``S_g``, ``MSE(u) = Σ_g (S_g − m_g u)² + 2 G u²/ε²`` is a
    parabola with its minimum at ``u = Σ m_g S_g / (Σ m_g² + 2G/ε²)``; the
    best bound is the best of these minimisers, each clamped to its
    interval.  **It depends on the data**: using it to release the same
    data is not differentially private.

    Examples
    --------
    >>> round(best_clipping_bound([0, 0, 1, 5, 100], 1.0), 4)
    33.3333
    """
    x, codes, epsilon = _check(values, epsilon, groups)
    edges = np.concatenate([[0.0], np.unique(x)])
    if edges[-1] == 0:
        return 0.0
    G = int(codes.max()) + 1
    lows = edges[:-1]
    bias_g, _ = _above(x, codes, lows)              # at u = lo: -(S_g - m_g lo), with m_g, S_g above lo
    j = np.searchsorted(x, lows, side="right")
    m = np.zeros((len(lows), G))
    for gi in range(G):
        in_g = np.concatenate([(codes == gi).astype(float), [0.0]])
        m[:, gi] = np.cumsum(in_g[::-1])[::-1][j]
    s = -bias_g + m * lows[:, None]
    stationary = (m * s).sum(axis=1) / ((m ** 2).sum(axis=1) + 2 * G / epsilon ** 2)
    cand = np.unique(np.concatenate([np.clip(stationary, lows, edges[1:]), edges[1:]]))
    cand = cand[cand > 0]
    mse = clipped_sum_error(x, cand, epsilon, groups=codes)["mse"].to_numpy()
    return float(cand[int(np.argmin(mse))])
