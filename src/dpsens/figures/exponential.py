"""Figures of the exponential mechanism and inverse sensitivity: output distributions, the head-to-head.

Chapter: *The exponential mechanism and inverse sensitivity*.

The probabilities come from :mod:`dpsens.mechanisms.exponential` and
:mod:`dpsens.mechanisms.inverse_sensitivity`, the errors from
:func:`dpsens.experiments.head_to_head.quantile_head_to_head`.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..inverse import order_statistic
from ..mechanisms.exponential import quantile_exponential_distribution
from ..mechanisms.inverse_sensitivity import inverse_sensitivity_distribution
from ..relation import Relation, as_relation
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_exponential_toy", "plot_reachable_intervals", "plot_output_distributions", "plot_head_to_head", "ERROR_FLOOR"]

#: errors below this are drawn at it on the log axis of :func:`plot_head_to_head`
ERROR_FLOOR = 1e-6


def plot_exponential_toy(outputs: Sequence[str], probabilities: ArrayLike, labels: Sequence[str],
                         epsilon: float) -> Figure:
    """The exponential mechanism's probabilities on a toy example, one set of bars per dataset.

    Chapter: *The exponential mechanism and inverse sensitivity* (the toy before the real data).

    Parameters
    ----------
    outputs : sequence
        The candidate outputs (the x axis, one group of bars each).
    probabilities : array of shape (len(labels), len(outputs))
        One row per dataset: the mechanism's probability of each output (rows sum to 1).
    labels : sequence of str
        The datasets' names, for the legend.
    epsilon : float
        The ε the probabilities were computed with: the title compares the largest ratio between
        the first two rows, both ways, with the bound e^ε of the theorem.

    Returns
    -------
    matplotlib.figure.Figure
    """
    p = np.asarray(probabilities, dtype=float)
    outputs = list(outputs)
    if p.ndim != 2 or p.shape[1] != len(outputs) or p.shape[0] != len(labels) or p.shape[0] < 2:
        raise ValueError(f"probabilities must have one row per label ({len(labels)}, at least 2) and one column "
                         f"per output ({len(outputs)}); got shape {p.shape}")
    if np.any(p <= 0) or not np.allclose(p.sum(axis=1), 1.0):
        raise ValueError("probabilities: every row must hold positive probabilities summing to 1")
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 3.2))
    width = 0.8 / p.shape[0]
    where = np.arange(len(outputs))
    for i, (label, row) in enumerate(zip(labels, p, strict=True)):
        ax.bar(where + (i - (p.shape[0] - 1) / 2) * width, row, width=width, color=PALETTE[i], label=label)
    ratio = float(np.max(np.maximum(p[0] / p[1], p[1] / p[0])))
    ax.set_xticks(where, [str(z) for z in outputs])
    ax.set_xlabel("output z")
    ax.set_ylabel("probability of releasing z")
    ax.set_title(f"ε = {epsilon:g}: largest ratio {ratio:.3f} ≤ $e^{{\\varepsilon}}$ = {np.exp(epsilon):.3f}")
    legend_below(fig)
    return fig


def plot_reachable_intervals(intervals: Sequence[tuple[float, float]], labels: Sequence[str], common: float,
                             common_label: str, xlabel: str, title: str) -> Figure:
    """Intervals of values reachable by different routes, one horizontal bar each, and a value they share.

    Chapter: *The exponential mechanism and inverse sensitivity* (the aside on the variance under
    additions and removals: the intervals of the removed sets overlap, so their union is one interval).

    Parameters
    ----------
    intervals : sequence of (low, high)
        One interval per route, drawn bottom to top.
    labels : sequence of str
        The routes' names (the y tick labels).
    common : float
        A value every interval holds, drawn as a dashed vertical line.
    common_label, xlabel, title : str
        Its legend entry, the x axis label and the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    iv = np.asarray(intervals, dtype=float)
    if iv.ndim != 2 or iv.shape[1] != 2 or len(iv) != len(labels) or len(iv) == 0 or np.any(iv[:, 0] > iv[:, 1]):
        raise ValueError(f"intervals must be one (low, high) pair with low <= high per label ({len(labels)}); "
                         f"got {iv.tolist()!r}")
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 0.9 + 0.45 * len(iv)))
    where = np.arange(len(iv))
    ax.barh(where, iv[:, 1] - iv[:, 0], left=iv[:, 0], height=0.5, color=PALETTE[0],
            label="variances reachable by this route")
    ax.axvline(common, color=PALETTE[7], linestyle="--", label=common_label)
    ax.axvspan(iv[:, 0].min(), iv[:, 1].max(), color=PALETTE[1], alpha=0.15, label="their union: one interval")
    ax.set_yticks(where, list(labels))
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    legend_below(fig)
    return fig


def plot_output_distributions(x: ArrayLike, q: float, epsilon: float, lower: float = 0.0, upper: float = 100.0,
                              neighbors: Relation | str = Relation.UNBOUNDED, half_window: float = 6.0) -> Figure:
    """Output distributions of the exponential and the inverse sensitivity mechanisms for the ``q`` quantile.

    Chapter: *The exponential mechanism and inverse sensitivity* (its explorer).

    Bars: the probability that each mechanism's release falls in each
    whole-year bin ``[k, k + 1)`` around the true value (exact, from the
    distributions, not sampled); dots: inverse sensitivity restricted to the
    whole years.  The dashed line marks the true value.
    """
    neighbors = as_relation(neighbors)
    x = np.asarray(x, dtype=float)
    true = order_statistic(x, q)
    lo, hi = np.floor(true - half_window), np.ceil(true + half_window)
    bins = np.arange(lo, hi + 1)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 3.8))
    em = quantile_exponential_distribution(x, q, epsilon, lower, upper, neighbors)
    inv = inverse_sensitivity_distribution(x, q, epsilon, lower, upper, neighbors)
    width = 0.4
    for i, (label, dist) in enumerate((("exponential mechanism", em), ("inverse sensitivity", inv))):
        mass = []
        p = np.exp(dist["log_prob"])
        for b0 in bins[:-1]:
            inside = np.clip(np.minimum(dist["right"], b0 + 1) - np.maximum(dist["left"], b0), 0, None)
            w = dist["right"] - dist["left"]
            mass.append(float(np.sum(np.where(w > 0, p * inside / np.where(w > 0, w, 1), 0.0))))
        ax.bar(bins[:-1] + 0.5 + (i - 0.5) * width, mass, width=width, color=PALETTE[i], label=label,
               alpha=0.85)
    # the public candidates are every whole year in [lower, upper] (a window around the true value would be a
    # data-dependent candidate set and renormalise); only the years in the window are drawn
    grid = np.arange(np.ceil(lower), np.floor(upper) + 1)
    whole = inverse_sensitivity_distribution(x, q, epsilon, lower, upper, neighbors, candidates=grid)
    shown = (whole["left"] >= lo) & (whole["left"] <= hi)
    ax.plot(whole["left"][shown], np.exp(whole["log_prob"][shown]), "o", color=PALETTE[2], ms=5,
            label="inverse sensitivity on whole years (probability of each year)")
    ax.axvline(true, color=PALETTE[7], linestyle="--", label=f"true value {true:g}")
    ax.set_yscale("log")
    ax.set_ylim(1e-8, 1.5)
    ax.set_xlabel("released value (years)")
    ax.set_ylabel("probability (log scale)")
    pct = "median" if q == 0.5 else f"{100 * q:g}th percentile"
    ax.set_title(f"Releases of the {pct} of the ages, ε = {epsilon:g}")
    legend_below(fig)
    return fig


def plot_head_to_head(table: pd.DataFrame, title: str) -> Figure:
    """Median absolute error against ε, one line per mechanism, one panel per quantile.

    Chapter: *The exponential mechanism and inverse sensitivity* (which mechanism for a median?).
    ``table`` is the DataFrame of :func:`dpsens.experiments.head_to_head.quantile_head_to_head`;
    errors below :data:`ERROR_FLOOR` (many are exactly 0) are drawn at it;
    a mechanism that refused every time has no point.
    """
    qs = sorted(table["q"].unique())
    fig, axes = plt.subplots(len(qs), 1, figsize=(MAX_WIDTH_IN, 3.0 * len(qs) + 1.6), sharex=True)
    axes = np.atleast_1d(axes)
    mechanisms = list(dict.fromkeys(table["mechanism"]))
    for ax, q in zip(axes, qs, strict=True):
        sub = table[table["q"] == q]
        for i, m in enumerate(mechanisms):
            rows = sub[sub["mechanism"] == m]
            style = line_style(i) if i < 6 else {"color": PALETTE[7], "linestyle": ":"}   # no yellow line
            ax.plot(rows["epsilon"], np.maximum(rows["median |error|"], ERROR_FLOOR), marker="os^vDPX"[i % 7],
                    ms=4, label=m, **style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylabel("median |error| (years)")
        ax.set_title("median" if q == 0.5 else f"{100 * q:g}th percentile")
    axes[-1].set_xlabel("ε (log scale)")
    fig.suptitle(title)
    legend_below(fig, axes=axes[-1])
    return fig
