"""Differential privacy itself: the Laplace mechanism's privacy loss, composition, group privacy.

Chapter: *Differential privacy in one chapter* (part "Foundations").  The
functions compute, for the Laplace mechanism on a pair of datasets whose
answers are ``value`` and ``neighbor_value``, what the definitions of that
chapter talk about: the log-ratio of the two output densities (the privacy
loss at an output), its distribution when the output is drawn from the
mechanism, the exact distribution of a rounded and clamped release (a
post-processing), and the budgets given by sequential composition and group
privacy; and the privacy loss between two Laplace releases of different
scales (:func:`laplace_privacy_loss`, used by *Smooth sensitivity*).  Figures of
the chapter are in :mod:`dpsens.figures.dp`.

Notation (see the book's *Notation* page): ``b`` is the Laplace scale, ``ε``
the privacy parameter, ``k`` the group size.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_int, as_positive, as_probability, check_rng
from .mechanisms.noise import laplace_noise

__all__ = [
    "laplace_log_ratio", "privacy_loss_samples", "privacy_loss_cdf", "expected_privacy_loss",
    "rounded_laplace_pmf", "sequential_composition", "group_privacy", "empirical_log_ratios",
    "laplace_privacy_loss",
]


def _as_real(value, name: str) -> float:
    """A finite real number, or a ValueError/TypeError naming the argument."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a finite real number, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def laplace_log_ratio(z: ArrayLike, value: float, neighbor_value: float, scale: float) -> float | np.ndarray:
    """The privacy loss at output ``z``: ``ln p(z) / p'(z)`` for two Laplace mechanisms.

    Chapter: *Differential privacy in one chapter*.

    ``p`` is the density of ``value + Lap(b)`` (the release on ``x``) and
    ``p'`` that of ``neighbor_value + Lap(b)`` (on the neighbour ``x'``), so
    the log-ratio is ``(|z - f(x')| - |z - f(x)|) / b``; by the triangle
    inequality it lies in ``[-d/b, d/b]`` with ``d = |f(x) - f(x')|``.

    Parameters
    ----------
    z : float or array_like
        Output(s) of the mechanism.
    value, neighbor_value : float
        The exact answers ``f(x)`` and ``f(x')``.
    scale : float
        The Laplace scale ``b > 0``.

    Returns
    -------
    float or numpy.ndarray
        The log-ratio at each ``z``.

    Examples
    --------
    >>> laplace_log_ratio([-5.0, 100.5, 200.0], 100.0, 101.0, 1.0).tolist()
    [1.0, 0.0, -1.0]
    """
    value = _as_real(value, "value")
    neighbor_value = _as_real(neighbor_value, "neighbor_value")
    scale = as_positive(scale, "scale")
    z = np.asarray(z, dtype=float)
    # piecewise, so that the two atoms of the privacy loss are exactly ±d/b (no round-off):
    # u is how far z lies from f(x) towards f(x')
    d = abs(neighbor_value - value)
    u = (z - value) * (1.0 if neighbor_value >= value else -1.0)
    out = np.where(u <= 0, d / scale, np.where(u >= d, -d / scale, (d - 2 * u) / scale)) + 0.0
    return float(out) if out.ndim == 0 else out


def privacy_loss_samples(value: float, neighbor_value: float, scale: float, rng: np.random.Generator,
                         size: int) -> np.ndarray:
    """Draws of the privacy loss random variable ``L = ln p(Z)/p'(Z)``, ``Z = f(x) + Lap(b)``.

    Chapter: *Differential privacy in one chapter*.

    Parameters
    ----------
    value, neighbor_value : float
        The exact answers ``f(x)`` and ``f(x')``.
    scale : float
        The Laplace scale ``b > 0``.
    rng : numpy.random.Generator
        Source of randomness (all of it).
    size : int
        Number of draws, ``>= 1``.

    Returns
    -------
    numpy.ndarray
        ``size`` draws of ``L``.
    """
    value = _as_real(value, "value")
    scale = as_positive(scale, "scale")
    rng = check_rng(rng)
    size = as_int(size, "size", minimum=1)
    outputs = value + laplace_noise(scale, rng, size)
    return np.asarray(laplace_log_ratio(outputs, value, neighbor_value, scale))


def privacy_loss_cdf(loss: ArrayLike, value: float, neighbor_value: float, scale: float) -> float | np.ndarray:
    """Exact ``P(L <= loss)`` of the Laplace mechanism's privacy loss.

    Chapter: *Differential privacy in one chapter*.

    With ``a = |f(x) - f(x')| / b``, ``L`` lies in ``[-a, a]``: it equals ``a``
    with probability 1/2 (the output falls on the far side of ``f(x)`` from
    ``f(x')``), ``-a`` with probability ``e^{-a}/2`` (beyond ``f(x')``) and is
    spread continuously in between, ``P(L <= l) = exp(-(a - l)/2) / 2`` for
    ``-a <= l < a``.

    Parameters
    ----------
    loss : float or array_like
        Point(s) at which to evaluate the distribution function.
    value, neighbor_value : float
        The exact answers ``f(x)`` and ``f(x')``.
    scale : float
        The Laplace scale ``b > 0``.

    Returns
    -------
    float or numpy.ndarray
    """
    value = _as_real(value, "value")
    neighbor_value = _as_real(neighbor_value, "neighbor_value")
    scale = as_positive(scale, "scale")
    a = abs(value - neighbor_value) / scale
    loss = np.asarray(loss, dtype=float)
    inside = 0.5 * np.exp(-(a - np.clip(loss, -a, a)) / 2)
    out = np.where(loss >= a, 1.0, np.where(loss < -a, 0.0, inside))
    return float(out) if out.ndim == 0 else out


def expected_privacy_loss(value: float, neighbor_value: float, scale: float) -> float:
    """``E[L] = a + e^{-a} - 1`` with ``a = |f(x) - f(x')| / b``: the mean privacy loss.

    Chapter: *Differential privacy in one chapter*.

    It is the Kullback--Leibler divergence between the two output
    distributions: always below the worst case ``a``.

    Examples
    --------
    >>> round(expected_privacy_loss(0.0, 1.0, 1.0), 6)
    0.367879
    """
    value = _as_real(value, "value")
    neighbor_value = _as_real(neighbor_value, "neighbor_value")
    a = abs(value - neighbor_value) / as_positive(scale, "scale")
    return float(a + math.expm1(-a))


def _laplace_cdf(t: np.ndarray, scale: float) -> np.ndarray:
    """``P(Lap(b) <= t)``, exact."""
    return np.where(t < 0, 0.5 * np.exp(np.minimum(t, 0) / scale), 1 - 0.5 * np.exp(-np.maximum(t, 0) / scale))


def rounded_laplace_pmf(value: float, scale: float, lower: int, upper: int) -> np.ndarray:
    """Exact distribution of ``value + Lap(b)`` rounded to an integer and clamped to ``lower..upper``.

    Chapter: *Differential privacy in one chapter* (post-processing: rounding
    and clamping a noisy count use only the release, not the data).

    Parameters
    ----------
    value : float
        The exact answer ``f(x)``.
    scale : float
        The Laplace scale ``b > 0``.
    lower, upper : int
        The released integers run from ``lower`` to ``upper`` (``lower <= upper``).

    Returns
    -------
    numpy.ndarray
        ``P(output = j)`` for ``j = lower, ..., upper`` (sums to 1).  Rounding
        sends ``[j - 1/2, j + 1/2)`` to ``j``; everything below ``lower`` goes
        to ``lower``, everything above ``upper`` to ``upper``.
    """
    value = _as_real(value, "value")
    scale = as_positive(scale, "scale")
    lower = as_int(lower, "lower")
    upper = as_int(upper, "upper", minimum=lower)
    edges = np.arange(lower, upper + 1, dtype=float) + 0.5        # upper edge of each integer's interval
    cdf = _laplace_cdf(edges - value, scale)
    cdf[-1] = 1.0
    return np.diff(np.concatenate([[0.0], cdf]))


def sequential_composition(epsilons: Sequence[float],
                           deltas: Sequence[float] | None = None) -> tuple[float, float]:
    """Budget of running several mechanisms on the same data: ``(Σ ε_i, Σ δ_i)``.

    Chapter: *Differential privacy in one chapter*.

    Parameters
    ----------
    epsilons : sequence of float
        The ε of each mechanism, each ``> 0``.
    deltas : sequence of float, optional
        Their δ (each in ``[0, 1)``), same length; by default all 0 (pure ε-DP).

    Returns
    -------
    (float, float)
        The total ``(ε, δ)``.
    """
    eps = [as_positive(e, "epsilons") for e in np.atleast_1d(np.asarray(epsilons, dtype=object))]
    if not eps:
        raise ValueError("epsilons must hold at least one positive number")
    if deltas is None:
        dels = [0.0] * len(eps)
    else:
        dels = [0.0 if d == 0 else as_probability(d, "deltas")
                for d in np.atleast_1d(np.asarray(deltas, dtype=object))]
        if len(dels) != len(eps):
            raise ValueError(f"deltas must have one entry per epsilon ({len(eps)}), got {len(dels)}")
    return float(sum(eps)), float(sum(dels))


def group_privacy(epsilon: float, k: int, delta: float = 0.0) -> tuple[float, float]:
    """Guarantee for datasets that differ in ``k`` records: ``(kε, k e^{(k-1)ε} δ)``.

    Chapter: *Differential privacy in one chapter*.

    A mechanism that is (ε, δ)-DP for one record is, for a group of ``k``
    records, ``kε``-DP with ``δ`` multiplied by ``k e^{(k-1)ε}`` (the chain of
    ``k`` neighbours, each step adding ``δ`` before the next factor
    ``e^ε``: proved in the chapter's *Group privacy*).  With ``delta = 0``
    this is the pure ``kε`` (Dwork and Roth, Theorem 2.2, cited from the
    statement for δ = 0).

    Parameters
    ----------
    epsilon : float
        ``> 0``.
    k : int
        Group size, ``>= 1``.
    delta : float, optional
        In ``[0, 1)``.

    Returns
    -------
    (float, float)
    """
    epsilon = as_positive(epsilon, "epsilon")
    k = as_int(k, "k", minimum=1)
    delta = 0.0 if delta == 0 else as_probability(delta, "delta")
    return k * epsilon, k * math.exp((k - 1) * epsilon) * delta


def empirical_log_ratios(outputs: ArrayLike, neighbor_outputs: ArrayLike, edges: ArrayLike,
                         min_count: int = 1000) -> np.ndarray:
    """Estimated ``ln P(M(x) ∈ S) / P(M(x') ∈ S)`` for the intervals ``S`` between ``edges``.

    Chapter: *Differential privacy in one chapter* (the empirical check of
    the definition: simulate both mechanisms, count the outputs per interval).

    Parameters
    ----------
    outputs, neighbor_outputs : array_like
        Simulated releases on ``x`` and on ``x'``.
    edges : array_like
        Increasing interval edges (at least two).
    min_count : int
        Intervals where either side has fewer outputs are left out (NaN): their
        ratio is mostly sampling noise.

    Returns
    -------
    numpy.ndarray
        One log-ratio per interval (NaN where left out).
    """
    outputs = np.asarray(outputs, dtype=float)
    neighbor_outputs = np.asarray(neighbor_outputs, dtype=float)
    edges = np.asarray(edges, dtype=float)
    if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError("edges must be at least two increasing numbers")
    if outputs.size == 0 or neighbor_outputs.size == 0:
        raise ValueError("outputs and neighbor_outputs must not be empty")
    min_count = as_int(min_count, "min_count", minimum=1)
    c1, _ = np.histogram(outputs, edges)
    c2, _ = np.histogram(neighbor_outputs, edges)
    keep = (c1 >= min_count) & (c2 >= min_count)
    out = np.full(c1.shape, np.nan)
    out[keep] = np.log((c1[keep] / outputs.size) / (c2[keep] / neighbor_outputs.size))
    return out


def laplace_privacy_loss(t: ArrayLike, locs: Sequence[float], scales: Sequence[float]) -> np.ndarray:
    """Privacy loss ``ln p_x(t) / p_x'(t)`` between two Laplace releases.

    Chapter: *Smooth sensitivity* (the leak chapter's pair).

    Parameters
    ----------
    t : array_like
        Released values.
    locs : pair of float
        The true answers ``f(x)`` and ``f(x')``.
    scales : pair of float
        The Laplace scales used on ``x`` and on ``x'`` (both > 0).

    Returns
    -------
    numpy.ndarray
        ``ln(b' / b) - |t - f(x)| / b + |t - f(x')| / b'``, same shape as ``t``.
    """
    (mx, my), (bx, by) = (float(v) for v in locs), (float(v) for v in scales)
    if not (bx > 0 and by > 0 and math.isfinite(bx) and math.isfinite(by)):
        raise ValueError(f"scales must be two finite numbers > 0, got {scales!r}")
    t = np.asarray(t, dtype=float)
    return np.log(by / bx) - np.abs(t - mx) / bx + np.abs(t - my) / by
