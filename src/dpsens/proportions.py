"""Proportions versus frequencies: how much a proportion can change, and how to release one.

Chapter: *Proportions vs frequencies*.

A categorical attribute with counts ``c_1, ..., c_K`` (``n = sum c_i``) has
proportions ``p_i = c_i / n``.  The source note adds Laplace noise to the
proportions with the "global sensitivity" ``max_i (n - c_i) / (n (n - 1))``.
That number depends on the counts, so it is a *local* sensitivity, and noise
calibrated to it is not differentially private.  This module computes

* the source's number (:func:`source_proportion_sensitivity`),
* the exact largest change of every proportion, and of the whole vector, over
  the neighbours of a given dataset (:func:`proportion_changes`,
  :func:`proportion_local_sensitivity`) and over all datasets
  (:func:`proportion_global_sensitivity`),
* the releases compared in the chapter: the source's (not private) and three
  private ones, with ``n`` public or private, and their errors,
* (the figures of the chapter are in :mod:`dpsens.figures.proportions`).

Counts are integers >= 0 with ``n >= 2``; the labels are fixed (a label with
count 0 is still a label), except in the source's formula, which ranges over
the labels present in the data, as ``value_counts`` lists them.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd
from scipy import stats

from ._validate import as_data, as_int, as_positive, as_probability, check_rng
from .mechanisms import laplace_mechanism, local_sensitivity_laplace
from .relation import Relation, as_relation

__all__ = [
    "as_counts", "source_proportion_sensitivity", "proportion_changes", "proportion_local_sensitivity",
    "proportion_global_sensitivity", "laplace_halfwidth", "laplace_coverage",
    "source_release", "counts_release", "n_public_release", "histogram_release", "count_and_total_release",
    "proportion_errors", "threshold_attack",
]

METHODS = {
    "source": "source: p + Lap(local Δ/ε) — not private",
    "n_public": "n public: p + Lap(1/(nε)) = noisy count / n",
    "histogram": "n private: noisy histogram, normalised",
    "count_and_total": "n private: noisy count / noisy total (ε/2 each)",
}


def as_counts(counts: ArrayLike, name: str = "counts") -> np.ndarray:
    """Check a vector of label counts (integers >= 0, at least two labels, n >= 2).

    Chapter: *Proportions vs frequencies*.

    Returns
    -------
    numpy.ndarray of int

    Raises
    ------
    TypeError, ValueError
        For non-numbers, non-integers, negative counts, fewer than two labels
        or fewer than two records.
    """
    arr = as_data(counts, name=name)
    if np.any(arr != np.round(arr)) or np.any(arr < 0):
        raise ValueError(f"{name} must hold whole numbers >= 0 (how many records have each label), got {arr.tolist()}")
    if arr.size < 2:
        raise ValueError(f"{name} must have at least two labels, got {arr.size}")
    arr = arr.astype(np.int64)
    if arr.sum() < 2:
        raise ValueError(f"{name} must add up to n >= 2 records, got n = {int(arr.sum())}")
    return arr


# ---------------------------------------------------------------------------
# sensitivities
# ---------------------------------------------------------------------------
def source_proportion_sensitivity(counts: ArrayLike) -> float:
    """The source's "global sensitivity" of a proportion, ``max_i (n - c_i) / (n (n - 1))``.

    Chapter: *Proportions vs frequencies*.  The maximum runs over the labels
    present in the data (``c_i > 0``), as the source assumes ``0 < c_i``.  It
    depends on the counts: it is a **local** sensitivity (the largest change
    of one proportion when one record is removed), not a global one.

    Examples
    --------
    >>> round(source_proportion_sensitivity([100, 900]), 9)
    0.000900901
    """
    k = as_counts(counts)
    n = int(k.sum())
    present = k[k > 0]
    return float((n - present.min()) / (n * (n - 1)))


def _removal_changes(k: np.ndarray) -> np.ndarray:
    n = int(k.sum())
    own = np.where(k >= 1, n - k, 0)          # the removed record had label i
    other = np.where(n - k >= 1, k, 0)        # it had another label
    return np.maximum(own, other) / (n * (n - 1))


def _addition_changes(k: np.ndarray) -> np.ndarray:
    n = int(k.sum())
    return np.maximum(n - k, k) / (n * (n + 1))  # add label i, or another label


def proportion_changes(counts: ArrayLike, neighbors: Relation | str = Relation.UNBOUNDED) -> np.ndarray:
    """Largest change of each proportion ``p_i`` over the neighbours of one dataset.

    Chapter: *Proportions vs frequencies*.

    * ``"unbounded"`` (one record removed or added): removing a record changes
      ``p_i`` by ``(n - c_i) / (n (n - 1))`` if it had label ``i`` and by
      ``c_i / (n (n - 1))`` otherwise, so the largest change is
      ``max(n - c_i, c_i) / (n (n - 1))`` when ``0 < c_i < n``.  Additions
      give the same with ``n (n + 1)``; the larger of the two is returned.
    * ``"bounded"`` (one record's label replaced, ``n`` fixed and public):
      one count goes down by one and another up by one, so every proportion
      moves by at most ``1 / n``.

    Parameters
    ----------
    counts : array_like of int
        Records per label.
    neighbors : Relation or {"unbounded", "bounded"}

    Returns
    -------
    numpy.ndarray
        One number per label.

    Examples
    --------
    >>> proportion_changes([1, 2, 1]) * 12
    array([3., 2., 3.])
    """
    k = as_counts(counts)
    if as_relation(neighbors) is Relation.BOUNDED:
        return np.full(k.size, 1.0 / k.sum())
    return np.maximum(_removal_changes(k), _addition_changes(k))


def proportion_local_sensitivity(counts: ArrayLike, neighbors: Relation | str = Relation.UNBOUNDED,
                                 norm: str = "linf") -> float:
    """Local sensitivity of the proportions at one dataset.

    Chapter: *Proportions vs frequencies*.

    ``norm="linf"``: the largest change of any single proportion (the
    quantity the source bounds).  ``norm="l1"``: the largest L1 change of the
    whole vector ``(p_1, ..., p_K)``, the one the Laplace mechanism needs to
    release all proportions at once:

    * removal of a record of label ``j``: ``2 (n - k_j) / (n (n - 1))``
      (``p_j`` drops by half of it, the others rise by the other half),
    * addition of a record of label ``j``: ``2 (n - k_j) / (n (n + 1))``,
    * bounded (replacement): ``2 / n``.

    Examples
    --------
    >>> round(proportion_local_sensitivity([100, 900], norm="l1") * 1000 * 999, 6)
    1800.0
    """
    k = as_counts(counts)
    neighbors = as_relation(neighbors)
    n = int(k.sum())
    if norm == "linf":
        return float(proportion_changes(k, neighbors).max())
    if norm != "l1":
        raise ValueError(f"norm must be 'linf' (one proportion) or 'l1' (the whole vector), got {norm!r}")
    if neighbors is Relation.BOUNDED:
        return 2.0 / n
    removal = 2 * (n - k[k >= 1].min()) / (n * (n - 1))
    addition = 2 * (n - k.min()) / (n * (n + 1))
    return float(max(removal, addition))


def proportion_global_sensitivity(n: int | None = None, neighbors: Relation | str = Relation.BOUNDED,
                                  norm: str = "linf") -> float:
    """Global sensitivity of the proportions.

    Chapter: *Proportions vs frequencies*.

    * ``"bounded"`` (``n`` public): ``1 / n`` for one proportion, ``2 / n``
      for the vector in L1 -- exactly a count's sensitivity (1, or 2 for the
      count vector) divided by ``n``.
    * ``"unbounded"`` (``n`` private, any size): the worst case over all
      datasets is at ``n = 2`` (counts 1 and 1, one removed): ``1/2`` for one
      proportion and ``1`` for the vector.  ``n`` is then ignored.

    Examples
    --------
    >>> proportion_global_sensitivity(1000), proportion_global_sensitivity(neighbors="unbounded")
    (0.001, 0.5)
    """
    neighbors = as_relation(neighbors)
    if norm not in ("linf", "l1"):
        raise ValueError(f"norm must be 'linf' (one proportion) or 'l1' (the whole vector), got {norm!r}")
    factor = 1.0 if norm == "linf" else 2.0
    if neighbors is Relation.UNBOUNDED:
        return factor / 2.0
    if n is None:
        raise ValueError("n (the public number of records) is needed with neighbors='bounded'")
    return factor / as_int(n, "n", minimum=1)


def laplace_halfwidth(coverage: float, scale: float) -> float:
    """Half-width ``t`` with ``P(|Lap(scale)| <= t) = coverage``: ``-scale ln(1 - coverage)``.

    Chapter: *Proportions vs frequencies*.  For a two-sided 99 % interval
    ``t = scale ln(100)``.

    Examples
    --------
    >>> round(laplace_halfwidth(0.99, 1.0), 4)
    4.6052
    """
    return -as_positive(scale, "scale") * math.log1p(-as_probability(coverage, "coverage"))


def laplace_coverage(halfwidth: float, scale: float) -> float:
    """Probability that ``Lap(scale)`` noise lies in ``[-halfwidth, halfwidth]``: ``1 - exp(-t/scale)``.

    Chapter: *Proportions vs frequencies*.

    Examples
    --------
    >>> round(laplace_coverage(-math.log(0.505), 1.0), 3)
    0.495
    """
    return -math.expm1(-as_positive(halfwidth, "halfwidth") / as_positive(scale, "scale"))


# ---------------------------------------------------------------------------
# releases
# ---------------------------------------------------------------------------
def _check_release_args(counts, epsilon, rng, size):
    k = as_counts(counts)
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    shape = k.shape if size is None else (as_int(size, "size", minimum=1), k.size)
    return k, epsilon, rng, shape


def source_release(counts: ArrayLike, epsilon: float, rng: np.random.Generator,
                   size: int | None = None) -> np.ndarray:
    """NOT PRIVATE: the source's release ``p_i + Lap(Δ/ε)`` with Δ its local sensitivity.

    Chapter: *Proportions vs frequencies*.  Every proportion gets its own
    noise of scale ``source_proportion_sensitivity(counts) / epsilon``.

    Parameters
    ----------
    counts : array_like of int
        Records per label.
    epsilon : float
        The privacy parameter the note *claims*, > 0.
    rng : numpy.random.Generator
    size : int, optional
        Number of independent releases.

    Returns
    -------
    numpy.ndarray
        Shape ``(K,)``, or ``(size, K)`` for ``size`` independent releases.
    """
    k, epsilon, rng, shape = _check_release_args(counts, epsilon, rng, size)
    p = k / k.sum()
    return np.asarray(local_sensitivity_laplace(p, source_proportion_sensitivity(k), epsilon, rng, size=shape))


def counts_release(counts: ArrayLike, epsilon: float, rng: np.random.Generator,
                   size: int | None = None) -> np.ndarray:
    """The source's first release: noisy counts ``c_i + Lap(1/ε)`` divided by the true ``n``.

    Chapter: *Proportions vs frequencies*.  Private for one proportion when
    ``n`` is public (bounded neighbours), and then the same as
    :func:`n_public_release` for one label.
    """
    k, epsilon, rng, shape = _check_release_args(counts, epsilon, rng, size)
    return laplace_mechanism(k.astype(float), 1.0, epsilon, rng, size=shape) / k.sum()


def n_public_release(counts: ArrayLike, epsilon: float, rng: np.random.Generator, size: int | None = None,
                     label: int | None = None) -> float | np.ndarray:
    """ε-DP proportions when ``n`` is public (bounded neighbours).

    Chapter: *Proportions vs frequencies*.  One proportion (``label`` given)
    has sensitivity ``1/n``: the release is ``p_label + Lap(1/(nε))``.  The
    whole vector (``label=None``) has L1 sensitivity ``2/n``: every proportion
    gets ``Lap(2/(nε))``.

    Returns
    -------
    numpy.ndarray
        Shape ``(K,)`` or ``(size, K)`` for the vector; a float or ``(size,)``
        for one label.
    """
    k, epsilon, rng, shape = _check_release_args(counts, epsilon, rng, size)
    n = int(k.sum())
    p = k / n
    if label is None:
        return laplace_mechanism(p, proportion_global_sensitivity(n, Relation.BOUNDED, "l1"), epsilon, rng, size=shape)
    label = as_int(label, "label", minimum=0, maximum=k.size - 1)
    return laplace_mechanism(float(p[label]), 1.0 / n, epsilon, rng, size=None if size is None else shape[0])


def _normalise(noisy: np.ndarray) -> np.ndarray:
    clipped = np.clip(noisy, 0.0, None)
    total = clipped.sum(axis=-1, keepdims=True)
    uniform = np.full_like(clipped, 1.0 / clipped.shape[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, clipped / np.where(total > 0, total, 1.0), uniform)


def histogram_release(counts: ArrayLike, epsilon: float, rng: np.random.Generator,
                      size: int | None = None) -> np.ndarray:
    """ε-DP proportions when ``n`` is private: a noisy histogram, normalised.

    Chapter: *Proportions vs frequencies*.  Adding or removing one record
    changes one count by one, so the count vector has L1 sensitivity 1:
    ``c_i + Lap(1/ε)`` for every label.  Negative counts are set to 0 and the
    vector is divided by its sum (post-processing, no extra budget).
    """
    k, epsilon, rng, shape = _check_release_args(counts, epsilon, rng, size)
    return _normalise(np.asarray(laplace_mechanism(k.astype(float), 1.0, epsilon, rng, size=shape)))


def count_and_total_release(counts: ArrayLike, epsilon: float, rng: np.random.Generator,
                            size: int | None = None) -> np.ndarray:
    """ε-DP proportions when ``n`` is private: noisy counts over a noisy total.

    Chapter: *Proportions vs frequencies*.  Half the budget for the counts
    (``Lap(2/ε)`` each), half for ``n`` (``Lap(2/ε)``); the ratio of the two
    (clipped to [0, 1]) is post-processing.
    """
    k, epsilon, rng, shape = _check_release_args(counts, epsilon, rng, size)
    noisy = laplace_mechanism(k.astype(float), 1.0, epsilon / 2, rng, size=shape)
    total = laplace_mechanism(float(k.sum()), 1.0, epsilon / 2, rng,
                              size=None if size is None else (shape[0], 1))
    return np.clip(noisy / np.maximum(total, 1.0), 0.0, 1.0)


_RELEASES = {"source": source_release, "histogram": histogram_release, "count_and_total": count_and_total_release}


def proportion_errors(counts: ArrayLike, epsilons: ArrayLike, trials: int, rng: np.random.Generator,
                      label: int = 0) -> pd.DataFrame:
    """Root-mean-square error of one released proportion, per method and ε.

    Chapter: *Proportions vs frequencies*.

    Parameters
    ----------
    counts : array_like of int
    epsilons : sequence of float
    trials : int
        Releases simulated per method and ε.
    rng : numpy.random.Generator
    label : int
        Which proportion is scored.

    Returns
    -------
    pandas.DataFrame
        Index ε, one column per method (see ``METHODS``).
    """
    k = as_counts(counts)
    label = as_int(label, "label", minimum=0, maximum=k.size - 1)
    trials = as_int(trials, "trials", minimum=1)
    rng = check_rng(rng)
    truth = k[label] / k.sum()
    rows = []
    for eps in np.atleast_1d(epsilons):
        eps = as_positive(float(eps), "epsilons")
        row = {"epsilon": eps}
        for name in METHODS:
            if name == "n_public":
                out = n_public_release(k, eps, rng, size=trials, label=label)
            else:
                out = _RELEASES[name](k, eps, rng, size=trials)[:, label]
            row[name] = float(np.sqrt(np.mean((out - truth) ** 2)))
        rows.append(row)
    return pd.DataFrame(rows).set_index("epsilon")


def threshold_attack(release_x: ArrayLike, release_xprime: ArrayLike, centre: float,
                     radius: float, confidence: float = 0.95) -> dict:
    """An attacker who says "the data are x" when the release is far from ``centre``.

    Chapter: *Proportions vs frequencies*.  Given releases simulated under
    two neighbouring datasets ``x`` (wide noise) and ``x'`` (narrow noise),
    the guess "x" is made when ``|release - centre| > radius``.  Differential
    privacy with ε would force ``P(guess x | x) <= e^ε P(guess x | x')``.

    Returns
    -------
    dict
        ``rate_x``, ``rate_xprime`` (how often the guess is "x" under each
        dataset), ``ratio`` (their quotient) and ``ratio_lower`` (a
        one-sided lower confidence bound on the true ratio, from
        Clopper--Pearson bounds on the two rates).
    """
    a = as_data(release_x, "release_x")
    b = as_data(release_xprime, "release_xprime")
    radius = as_positive(radius, "radius")
    confidence = as_probability(confidence, "confidence")
    hits_a = int(np.sum(np.abs(a - centre) > radius))
    hits_b = int(np.sum(np.abs(b - centre) > radius))
    alpha = (1 - confidence) / 2  # split between the two bounds
    low_a = stats.beta.ppf(alpha, hits_a, a.size - hits_a + 1) if hits_a > 0 else 0.0
    high_b = stats.beta.ppf(1 - alpha, hits_b + 1, b.size - hits_b) if hits_b < b.size else 1.0
    rate_a, rate_b = hits_a / a.size, hits_b / b.size
    return {"rate_x": rate_a, "rate_xprime": rate_b,
            "ratio": rate_a / rate_b if rate_b > 0 else math.inf,
            "ratio_lower": float(low_a / high_b)}

