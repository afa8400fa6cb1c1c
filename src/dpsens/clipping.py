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
shows why).  :func:`private_clipped_sums` chooses the bound privately
instead -- the exponential mechanism's quantile of the values
(:func:`dpsens.mechanisms.exponential.quantile_exponential`), charged to the
budget -- and :func:`private_bound_error` gives that release's expected
error exactly, over the bound's draw and the noise.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd

from ._validate import as_data, as_positive, check_rng
from .mechanisms.checks import as_size
from .mechanisms.exponential import quantile_exponential, quantile_exponential_distribution
from .mechanisms.noise import laplace_noise
from .relation import Relation

__all__ = ["clipped_sum_error", "best_clipping_bound", "private_clipped_sums", "private_bound_error"]


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


def clipped_sum_error(values: ArrayLike, bounds: ArrayLike, epsilon: float,
                      groups: ArrayLike | None = None) -> pd.DataFrame:
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


def best_clipping_bound(values: ArrayLike, epsilon: float, groups: ArrayLike | None = None) -> float:
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


def _positive_upper(upper) -> float:
    upper = as_positive(upper, "upper")
    if not np.isfinite(upper):
        raise ValueError(f"upper must be a finite number > 0 (the public largest value), got {upper!r}")
    return upper


def private_clipped_sums(values: ArrayLike, q: float, epsilon_bound: float, epsilon_release: float, upper: float,
                         rng: np.random.Generator, groups: ArrayLike | None = None,
                         size: int | None = None) -> dict:
    """Clipped sums released with a clipping bound chosen privately: ``(ε₁ + ε₂)``-DP, add/remove neighbours.

    Chapter: *Many answers at once* (section *Choosing the bound privately*).
    Two steps, each with its own share of the budget:

    1. ``ũ`` = the ``q`` quantile of the values released by the exponential
       mechanism with the rank utility on the public range ``[0, upper]``
       (:func:`~dpsens.mechanisms.exponential.quantile_exponential`,
       ``neighbors="unbounded"``): ``ε₁``-DP with ``ε₁ = epsilon_bound``;
    2. per group, the sum of ``min(x_i, ũ)`` plus ``Lap(ũ/ε₂)`` noise,
       ``ε₂ = epsilon_release``: for a fixed ``ũ`` the vector of clipped
       sums has L1 sensitivity ``ũ`` under add/remove neighbours (one record,
       in one group, adds at most ``ũ``), so this step is ``ε₂``-DP whatever
       ``ũ`` step 1 gave.

    Sequential (adaptive) composition makes the pair ``(ũ, sums)``
    ``(ε₁ + ε₂)``-DP; the proof is in the chapter.  The size ``n`` stays
    private; ``upper``, ``q``, the group labels and the split are public.

    Parameters
    ----------
    values : array_like
        The data, every value in ``[0, upper]``.
    q : float
        The quantile level of the bound, in (0, 1) (the book's α).
    epsilon_bound, epsilon_release : float
        ``ε₁`` and ``ε₂``, both ``> 0``.
    upper : float
        The public largest possible value (``> 0``, finite), the end of the bound's range.
    rng : numpy.random.Generator
    groups : array_like, optional
        A group label per value.  The groups released are the labels present, so they must be the
        public list of groups, each with a record in the data: under add/remove neighbours a group
        whose only record is removed would vanish from the output, and that is not private.
    size : int, optional
        Independent runs of the whole release.

    Returns
    -------
    dict
        ``bound``: ``ũ`` (a float, or an array of ``size``); ``sums``: the
        noisy clipped sums, a :class:`pandas.Series` indexed by group (a
        :class:`pandas.DataFrame`, one row per run, with ``size``).

    Examples
    --------
    >>> out = private_clipped_sums([0, 1, 5, 100], 0.75, 0.5, 0.5, 1000, np.random.default_rng(0))
    >>> sorted(out)
    ['bound', 'sums']
    """
    epsilon_bound = as_positive(epsilon_bound, "epsilon_bound")
    epsilon_release = as_positive(epsilon_release, "epsilon_release")
    _check(values, epsilon_release, groups)              # values >= 0, one group label per value
    upper = _positive_upper(upper)
    rng = check_rng(rng)
    size = as_size(size)
    x = as_data(values, "values")                        # in the data's order, like the labels
    labels = np.zeros(len(x), dtype=np.int64) if groups is None else np.asarray(groups, dtype=object).ravel()
    codes, names = pd.factorize(pd.Series(labels), use_na_sentinel=False)
    bound = quantile_exponential(x, q, epsilon_bound, 0.0, upper, rng, neighbors=Relation.UNBOUNDED, size=size)
    u = np.atleast_1d(bound)
    clipped = np.stack([np.bincount(codes, weights=np.minimum(x, b), minlength=len(names)) for b in u])
    noisy = clipped + laplace_noise(1.0, rng, size=clipped.shape) * (u / epsilon_release)[:, None]
    index = pd.Index(names, name=None if groups is None else "group")
    if size is None:
        return {"bound": float(bound), "sums": pd.Series(noisy[0], index=index)}
    return {"bound": u, "sums": pd.DataFrame(noisy, columns=index)}


def private_bound_error(values: ArrayLike, q: float, epsilon_bound: float, epsilon_release: float, upper: float,
                        groups: ArrayLike | None = None) -> dict:
    """The exact expected error of :func:`private_clipped_sums`, over the bound's draw and the noise.

    Chapter: *Many answers at once* (section *Choosing the bound privately*).
    The bound ``ũ`` is uniform inside each interval between consecutive
    sorted values, with the interval's probability from
    :func:`~dpsens.mechanisms.exponential.quantile_exponential_distribution`.
    Inside one interval the values above ``u`` do not change, so the squared
    bias ``Σ_g (S_g − m_g u)²`` and the noise variance ``2 G u²/ε₂²`` are
    quadratics in ``u``, whose mean over the interval Simpson's rule gives
    exactly.

    Returns
    -------
    dict
        ``bias_squared``, ``noise_variance`` and ``mse`` (their sum), each
        the expectation over ``ũ`` of :func:`clipped_sum_error`'s column at
        ``ε₂`` (summed over groups), and ``mean_bound``, ``E[ũ]``.

    Examples
    --------
    >>> out = private_bound_error([0, 1, 5, 100], 0.75, 0.5, 0.5, 1000)
    >>> sorted(out)
    ['bias_squared', 'mean_bound', 'mse', 'noise_variance']
    """
    epsilon_bound = as_positive(epsilon_bound, "epsilon_bound")
    epsilon_release = as_positive(epsilon_release, "epsilon_release")
    x, codes, _ = _check(values, epsilon_release, groups)
    upper = _positive_upper(upper)
    dist = quantile_exponential_distribution(x, q, epsilon_bound, 0.0, upper, neighbors=Relation.UNBOUNDED)
    prob = np.exp(dist["log_prob"])
    keep = prob > 0
    left, right, prob = dist["left"][keep], dist["right"][keep], prob[keep]
    G = int(codes.max()) + 1

    def simpson(f):
        return (f(left) + 4 * f((left + right) / 2) + f(right)) / 6

    def bias2(u):
        return (_above(x, codes, u)[0] ** 2).sum(axis=1)

    bias_squared = float(prob @ simpson(bias2))
    noise = float(prob @ simpson(lambda u: G * 2 * u ** 2 / epsilon_release ** 2))
    return {"bias_squared": bias_squared, "noise_variance": noise, "mse": bias_squared + noise,
            "mean_bound": float(prob @ ((left + right) / 2))}
