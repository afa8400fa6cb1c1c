"""Figures of propose-test-release: errors of the releases, and the trade-off of the proposed bound.

Chapter: *Propose-test-release*.

The probabilities come from :mod:`dpsens.mechanisms.ptr`.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import mechanisms as mech
from .style import MAX_WIDTH_IN, PALETTE, line_style

__all__ = ["plot_error_histograms", "plot_ptr_tradeoff"]


def plot_error_histograms(errors: dict, title: str, xlabel: str, bins: int = 40) -> Figure:
    """Overlaid histograms of absolute errors, one per mechanism (``{label: array}``).

    Chapter: *Propose-test-release*.
    """
    fig, ax = plt.subplots()
    finite = np.concatenate([np.asarray(v, dtype=float) for v in errors.values()])
    edges = np.histogram_bin_edges(finite, bins=bins)
    for i, (label, v) in enumerate(errors.items()):
        ax.hist(np.asarray(v, dtype=float), bins=edges.tolist(), alpha=0.55, color=PALETTE[i], label=label,
                histtype="stepfilled", edgecolor=PALETTE[i])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("number of releases")
    ax.legend(loc="upper right")
    return fig


def plot_ptr_tradeoff(bounds: ArrayLike, distances: dict, epsilon: float, threshold: float, title: str) -> Figure:
    """Probability of ⊥ and noise of the release against the proposed bound.

    Chapter: *Propose-test-release*.  Two panels stacked (narrow enough for
    a phone) on one axis of bounds.

    Parameters
    ----------
    bounds : array_like
        Proposed bounds ``Δ̂`` (x axis, log scale).
    distances : dict
        ``{label: array of D(x, Δ̂)}``, exact distances for each bound (one curve each).
    epsilon : float
        Budget of each step (test noise ``Lap(1/ε)``, release noise ``Lap(Δ̂/ε)``).
    threshold : float
        The test threshold ``T``.
    """
    bounds = np.asarray(bounds, dtype=float)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.0), sharex=True)
    for i, (label, d) in enumerate(distances.items()):
        fail = [1.0 - mech.ptr_pass_probability(float(di), epsilon, threshold)
                if np.isfinite(di) else 0.0 for di in d]
        ax1.plot(bounds, fail, marker="o", ms=3, label=label, **line_style(i))
    ax1.set_xscale("log")
    ax1.set_ylabel("probability of ⊥ (no answer)")
    ax1.set_title("Too small a bound: the test fails")
    ax1.legend()
    ax2.plot(bounds, math.sqrt(2) * bounds / epsilon, color=PALETTE[2], label="std of Lap(Δ̂/ε)")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("proposed bound Δ̂ on the local sensitivity\n(years, log scale)")
    ax2.set_ylabel("noise standard deviation (years)")
    ax2.set_title("Too large a bound: more noise")
    ax2.legend(loc="upper left")
    fig.suptitle(title)
    return fig
