"""Figures of *Composing releases, and counting the budget exactly*: ε against the number of releases.

Chapter: *Composing releases, and counting the budget exactly* (its figure
and its explorer).  The numbers come from :func:`dpsens.pld.compare_accountants`,
which calls :mod:`dpsens.accounting` and :mod:`dpsens.pld`.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .._validate import as_int
from ..pld import ACCOUNTANTS, compare_accountants
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["release_counts", "plot_accountants"]


def release_counts(max_releases: int = 1000, points: int = 22) -> np.ndarray:
    """About ``points`` whole numbers from 1 to ``max_releases``, evenly spaced on a log scale."""
    max_releases = as_int(max_releases, "max_releases", minimum=1)
    return np.unique(np.geomspace(1, max_releases, as_int(points, "points", minimum=2)).round().astype(int))


def plot_accountants(mechanism: str = "laplace", noise: float = 10.0, delta: float = 1e-6,
                     max_releases: int = 1000) -> Figure:
    """ε at δ of J identical releases against J, by every accountant, on log-log axes.

    Chapter: *Composing releases*.  Laplace releases of scale ``b = noise``
    or Gaussian releases of σ = ``noise``, each on a query of sensitivity 1
    (:func:`dpsens.pld.compare_accountants`; the exact curve is the upper end
    of the PLD bracket, within 1 % of the exact value for Laplace).
    """
    table = compare_accountants(mechanism, noise, delta, release_counts(max_releases), rtol=1e-2)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.8))
    for i, name in enumerate(ACCOUNTANTS):
        column = table[name]
        if column.isna().all():
            continue
        style = line_style(i)
        if name == "exact":
            style.update(color=PALETTE[-1], lw=2.4, linestyle="-")
        ax.plot(table.index, column, label=name, marker="o" if name == "exact" else None, ms=3, **style)
    what = f"Laplace, b = {noise:g}" if mechanism == "laplace" else f"Gaussian, σ = {noise:g}"
    ax.set(xscale="log", yscale="log", title=f"J releases ({what}, Δ = 1): ε at δ = {delta:g}",
           xlabel="number of releases J (log scale)", ylabel="total ε (log scale)")
    ax.set_ylim(bottom=max(float(table.min(axis=None, skipna=True)) / 1.5, 1e-3),
                top=min(float(table.max(axis=None, skipna=True)) * 1.5, math.inf))
    legend_below(fig, ncols=3)
    return fig
