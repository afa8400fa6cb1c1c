"""Figures of the sensitivity of table transformations: rules against measurements, noise per group, rows vs people.

Chapter: *Sensitivity of transformations*.

The rules and tables come from :mod:`dpsens.transformations`.
"""
from __future__ import annotations

import math
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .._validate import as_int, as_positive, as_probability
from ..mechanisms import gaussian_sigma
from ..mechanisms.laplace import laplace_pdf
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_measured_vs_bound", "plot_contribution_noise", "plot_row_vs_id"]


def plot_measured_vs_bound(results: pd.DataFrame) -> Figure:
    """Bars: the largest change measured over random neighbours, next to each rule's bound.

    Chapter: *Sensitivity of transformations*.

    Parameters
    ----------
    results : pandas.DataFrame
        One row per rule (the index names it), columns ``"measured"`` and ``"bound"``.
    """
    if not isinstance(results, pd.DataFrame) or not {"measured", "bound"} <= set(results.columns):
        raise ValueError("results must be a DataFrame with columns 'measured' and 'bound', one row per rule")
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 0.55 * len(results) + 2.4))
    y = np.arange(len(results))
    ax.barh(y - 0.2, results["bound"], height=0.4, color=PALETTE[0], label="the rule's bound")
    ax.barh(y + 0.2, results["measured"], height=0.4, color=PALETTE[1], hatch="//",
            label="largest change measured (random neighbours)")
    ax.set_yticks(y, [textwrap.fill(str(rule), 24) for rule in results.index])   # narrow: room for the bars
    ax.invert_yaxis()
    ax.set(title="Every rule is reached, none is exceeded", xlabel="change (rows, or norm\nof the group counts)",
           ylabel="rule")
    legend_below(fig)
    return fig


def plot_contribution_noise(max_rows_per_group: int = 1, epsilon: float = 1.0, delta: float = 1e-6,
                            max_groups_limit: int = 64) -> Figure:
    """Noise standard deviation for per-group counts, Laplace (L1) against Gaussian (L2), as ``g`` grows.

    Chapters: *Sensitivity of transformations* and *Many answers at once*
    (``g`` answers each moved by at most ``q`` by one person; the crossing
    is :func:`dpsens.mechanisms.gaussian_laplace_crossover`).  With ``q = max_rows_per_group``
    Laplace noise needs the L1 sensitivity ``g q``, Gaussian noise the L2
    sensitivity ``sqrt(g) q`` (calibrated with the analytic Gaussian mechanism
    for ``(ε, δ)``).
    """
    q = as_int(max_rows_per_group, "max_rows_per_group", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    g = np.arange(1, as_int(max_groups_limit, "max_groups_limit", minimum=2) + 1)
    lap = math.sqrt(2) * g * q / epsilon
    gau = np.array([gaussian_sigma(math.sqrt(v) * q, epsilon, delta, method="analytic") for v in g])
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.4))
    ax.plot(g, lap, label="Laplace: scale g·q/ε, std √2·g·q/ε", **line_style(0))
    ax.plot(g, gau, label=f"Gaussian: L2 sensitivity √g·q, (ε, δ) = ({epsilon:g}, {delta:g})", **line_style(1))
    cross = g[np.argmax(gau < lap)] if np.any(gau < lap) else None
    if cross is not None:
        ax.axvline(cross, color=PALETTE[-1], lw=1, alpha=0.6, label=f"Gaussian smaller from g = {cross}")
    ax.set(title=f"Noise on per-group counts, q = {q} row(s) per group",
           xlabel="g = largest number of groups per identifier", ylabel="noise standard deviation (counts)")
    legend_below(fig)
    return fig


def plot_row_vs_id(rows_of_person: int = 20, epsilon: float = 1.0, max_rows: int = 2,
                   true_count: int = 500) -> Figure:
    """Protecting a row is not protecting a person who owns many rows.

    Chapter: *Sensitivity of transformations*.  Top: the count released
    with row-level noise ``Lap(1/ε)``, with and without one person who owns
    ``rows_of_person`` rows -- two clearly separated peaks.  Bottom: after
    truncating to ``max_rows`` rows per person and noise ``Lap(max_rows/ε)``,
    the person's presence moves the count by at most ``max_rows``.
    """
    k = as_int(rows_of_person, "rows_of_person", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    r = as_int(max_rows, "max_rows", minimum=1)
    c = as_int(true_count, "true_count", minimum=0)
    fig, axes = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 6.6), sharey=False)
    for ax, (title, shift, scale) in zip(axes, (
            (f"Row-level noise Lap(1/ε): the person moves the count by {k}", k, 1 / epsilon),
            (f"Truncated to {r} rows per person, Lap({r}/ε)", min(k, r), r / epsilon)), strict=True):
        width = max(shift, 0) + 8 * scale
        t = np.linspace(c - 8 * scale, c + width, 800)
        ax.plot(t, laplace_pdf(t - c, scale), label="person absent", **line_style(0))
        ax.plot(t, laplace_pdf(t - c - shift, scale), label="person present", **line_style(1))
        ax.set(title=title, xlabel="released count (rows)", ylabel="density")
        ax.legend()
    fig.suptitle(f"ε = {epsilon:g}: the person owns {k} rows")
    return fig
