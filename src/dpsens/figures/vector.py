"""Figures of *Many answers at once*: a noisy histogram, Gaussian against Laplace per answer, the clipping trade-off.

Chapter: *Many answers at once*.  The numbers come from :mod:`dpsens.vector`,
:mod:`dpsens.clipping` and :mod:`dpsens.mechanisms.gaussian`; the noise per
answer as the number of answers grows is
:func:`dpsens.figures.transformations.plot_contribution_noise`, shared with
*Sensitivity of transformations*.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_int, as_positive, as_probability
from ..clipping import best_clipping_bound, clipped_sum_error
from ..data import load_adult
from ..vector import histogram_counts, noisy_histogram
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["AGE_EDGES", "age_bin_labels", "plot_noisy_histogram", "plot_clipping_error", "clipping_explorer_view"]

#: Public bins of the Adult ages: decades, the first from 17 (the youngest) and the last up to 90.
AGE_EDGES = (17, 20, 30, 40, 50, 60, 70, 80, 91)


def age_bin_labels(edges: Sequence[int] = AGE_EDGES) -> list[str]:
    """``"17–19", "20–29", ...`` for integer edges (bin ``[e_i, e_{i+1})``)."""
    return [f"{a}–{b - 1}" for a, b in zip(edges[:-1], edges[1:], strict=True)]


def plot_noisy_histogram(ages: ArrayLike, epsilon: float = 0.1, delta: float = 1e-6, seed: int = 0,
                         edges: Sequence[int] = AGE_EDGES) -> Figure:
    """The counts of the ages per decade, exact and released with Laplace and with Gaussian noise.

    Chapter: *Many answers at once*.  Add/remove neighbours: Laplace noise
    ``Lap(1/ε)`` (L1 sensitivity 1) and Gaussian noise with the analytic σ
    for L2 sensitivity 1.  The bars are the exact counts; the markers the
    two releases minus the exact counts, on a second panel, so that noise of
    a few units stays visible beside counts in the thousands.
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    counts = histogram_counts(np.asarray(ages), list(edges))
    rng = np.random.default_rng(as_int(seed, "seed", minimum=0))
    lap = noisy_histogram(counts, epsilon, rng)
    gau = noisy_histogram(counts, epsilon, rng, "gaussian", delta)
    labels = age_bin_labels(edges)
    y = np.arange(len(counts))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.0), sharex=False)
    ax1.barh(y, counts, color=PALETTE[5], label="exact count")
    ax1.set_yticks(y, labels)
    ax1.invert_yaxis()
    ax1.set(title="Adult ages per decade (public bins)", xlabel="records", ylabel="age")
    ax2.axvline(0, color=PALETTE[-1], lw=1)
    ax2.plot(lap - counts, y - 0.12, "o", color=PALETTE[0], label=f"Laplace, Lap(1/ε), ε = {epsilon:g}")
    ax2.plot(gau - counts, y + 0.12, "s", color=PALETTE[3],
             label=f"Gaussian (analytic), ε = {epsilon:g}, δ = {delta:g}")
    ax2.set_yticks(y, labels)
    ax2.invert_yaxis()
    ax2.set(title="Released minus exact, one seeded release", xlabel="noise (records)", ylabel="age")
    legend_below(fig)
    return fig


def plot_clipping_error(values: ArrayLike, epsilon: float = 0.1, groups: ArrayLike | None = None,
                        what: str = "capital gain", group_name: str = "") -> Figure:
    """Bias², noise variance and their sum against the clipping bound u, with the best bound marked.

    Chapter: *Many answers at once*.  Sums of ``values`` clipped to
    ``[0, u]``, one per group when ``groups`` is given, with Laplace noise
    ``Lap(u/ε)`` on each (:func:`dpsens.clipping.clipped_sum_error`).
    """
    epsilon = as_positive(epsilon, "epsilon")
    x = np.asarray(values, dtype=float)
    best = best_clipping_bound(x, epsilon, groups)
    top = float(x.max())
    u = np.unique(np.concatenate([np.geomspace(max(top / 1e4, 1.0), top, 400), [best]]))
    err = clipped_sum_error(x, u, epsilon, groups)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.6))
    ax.plot(u, err["bias_squared"], label="bias² (clipping)", **line_style(0))
    ax.plot(u, err["noise_variance"], label="noise variance, 2u²/ε² per sum", **line_style(1))
    ax.plot(u, err["mse"], label="total: bias² + variance", **line_style(2))
    ax.axvline(best, color=PALETTE[-1], lw=1, alpha=0.7, label=f"best bound u = {best:,.0f}")
    per = f" per {group_name}" if group_name else ""
    ax.set(xscale="log", yscale="log", title=f"Clipped sums of {what}{per}, ε = {epsilon:g}",
           xlabel="clipping bound u (log scale)", ylabel="squared error, summed (log scale)")
    ax.set_ylim(bottom=max(float(err["mse"].min()) / 1e3, 1.0))
    legend_below(fig)
    return fig


def clipping_explorer_view(epsilon: float = 0.1, grouping: str = "education") -> Figure:
    """The explorer's view: :func:`plot_clipping_error` on the Adult capital gains, one sum per ``grouping``.

    Chapter: *Many answers at once*.  ``grouping`` is an Adult column name or
    ``"none"`` (one sum over everybody); a missing label is a group of its own.
    """
    adult = load_adult()
    groups = None if grouping == "none" else adult[grouping].astype(object).to_numpy()
    return plot_clipping_error(adult["capital-gain"].to_numpy(), epsilon, groups,
                               group_name="" if grouping == "none" else grouping)
