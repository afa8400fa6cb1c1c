"""Figures of *How accurate is it, and what can no mechanism beat?*: mechanisms against the lower bounds, the explorer.

Chapter: *How accurate is it, and what can no mechanism beat?*.  The numbers
come from :mod:`dpsens.accuracy` (the bounds, the exact expected errors, the
seeded simulation) and :mod:`dpsens.mechanisms`; nothing is computed here.
"""
from __future__ import annotations

from collections.abc import Sequence
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_int, as_positive, as_probability
from ..accuracy import (DELTA, count_lower_bound, expected_abs_error, histogram_lower_bound, laplace_expected_max,
                        local_minimax_lower_bound, median_lower_bound, simulate_accuracy)
from ..data import load_ages
from ..inverse import order_statistic
from ..mechanisms.exponential import quantile_exponential_distribution
from ..mechanisms.inverse_sensitivity import inverse_sensitivity_distribution
from ..mechanisms.smooth_noise import smooth_sensitivity_beta
from ..relation import Relation, as_relation
from ..smooth import smooth_sensitivity
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["worst_case_median_pair", "plot_worst_case_bounds", "instance_errors", "plot_instance_bounds",
           "plot_accuracy_check", "accuracy_explorer_view"]


def worst_case_median_pair(half: int = 50, lower: float = 0.0,
                           upper: float = 100.0) -> tuple[np.ndarray, np.ndarray]:
    """Two add/remove neighbours whose (lower) medians are ``lower`` and ``upper``.

    Chapter: *What can no mechanism beat?*.  ``x`` has ``half`` records at each
    bound (median ``lower``: the order statistic ``floor((n − 1)/2)``); ``y``
    adds one record at ``upper`` (median ``upper``).
    """
    half = as_int(half, "half", minimum=1)
    lower, upper = as_bounds(lower, upper)
    x = np.array([lower] * half + [upper] * half)
    return x, np.append(x, upper)


def _worst_pair_error(distribution_of, pair) -> float:
    return max(expected_abs_error(distribution_of(d), order_statistic(d, 0.5)) for d in pair)


def plot_worst_case_bounds(epsilons: ArrayLike | None = None, cells: ArrayLike | None = None,
                           epsilon_cells: float = 1.0, lower: float = 0.0, upper: float = 100.0,
                           half: int = 50) -> Figure:
    """Three panels: the packing lower bound against the book's mechanisms for a count, a histogram and a median.

    Chapter: *What can no mechanism beat?*.  Worst-case expected errors:
    the count's Laplace mechanism ``E|Lap(1/ε)| = 1/ε``; the histogram's
    Laplace noise per cell, ``E max_j |Z_j| = H_d/ε``; the median's
    exponential and inverse sensitivity mechanisms (over the interval, and
    over the public whole numbers in it) on the worst pair of
    :func:`worst_case_median_pair` (exact expected errors, the larger of the
    two datasets').  Add/remove neighbours throughout.
    """
    epsilons = np.geomspace(0.05, 5.0, 41) if epsilons is None else np.asarray(epsilons, dtype=float)
    cells = np.unique(np.geomspace(2, 1e5, 30).astype(int)) if cells is None else np.asarray(cells, dtype=int)
    epsilon_cells = as_positive(epsilon_cells, "epsilon_cells")
    lower, upper = as_bounds(lower, upper)
    pair = worst_case_median_pair(half, lower, upper)
    fig, axes = plt.subplots(3, 1, figsize=(MAX_WIDTH_IN, 9.6))
    ax = axes[0]
    ax.plot(epsilons, 1.0 / epsilons, label="Laplace mechanism", **line_style(0))
    ax.plot(epsilons, [count_lower_bound(e) for e in epsilons], label="lower bound (packing), any ε-DP mechanism",
            color=PALETTE[-1], linestyle="-", lw=2)
    ax.set(xscale="log", yscale="log", title="A count (sensitivity 1, either relation)", xlabel="ε (log scale)",
           ylabel="expected |error| (records)")
    ax = axes[1]
    ax.plot(cells, [laplace_expected_max(d, 1.0 / epsilon_cells) for d in cells],
            label="Laplace noise in every cell: largest error", **line_style(1))
    ax.plot(cells, [histogram_lower_bound(d, epsilon_cells) for d in cells], color=PALETTE[-1], lw=2)
    ax.set(xscale="log", title=f"A histogram over d cells, ε = {epsilon_cells:g} (add/remove)",
           xlabel="d, cells (log scale)",
           ylabel="expected largest |error| (records)")
    ax.set_ylim(bottom=0)
    ax = axes[2]
    em = [_worst_pair_error(lambda d, e=e: quantile_exponential_distribution(d, 0.5, e, lower, upper, "unbounded"),
                            pair) for e in epsilons]
    inv = [_worst_pair_error(lambda d, e=e: inverse_sensitivity_distribution(d, 0.5, e, lower, upper, "unbounded"),
                             pair) for e in epsilons]
    grid = np.arange(math.ceil(lower), math.floor(upper) + 1.0)
    inv_grid = [_worst_pair_error(lambda d, e=e: inverse_sensitivity_distribution(d, 0.5, e, lower, upper, "unbounded",
                                                                                  grid), pair) for e in epsilons]
    ax.plot(epsilons, em, label="exponential mechanism (rank score)", **line_style(2))
    ax.plot(epsilons, inv, label="inverse sensitivity", **line_style(3))
    ax.plot(epsilons, inv_grid, label="inverse sensitivity, whole numbers", **line_style(4))
    ax.plot(epsilons, [median_lower_bound(e, lower, upper) for e in epsilons], color=PALETTE[-1], lw=2)
    ax.set(xscale="log", title=f"A median on [{lower:g}, {upper:g}], the worst pair (add/remove)",
           xlabel="ε (log scale)", ylabel="expected |error| (years)")
    ax.set_ylim(0, (upper - lower) * 0.75)
    legend_below(fig)
    return fig


def instance_errors(x: ArrayLike, epsilons: Sequence[float] | np.ndarray, lower: float = 0.0, upper: float = 100.0,
                    neighbors: Relation | str = Relation.UNBOUNDED, delta: float = DELTA) -> dict:
    """Exact expected errors of four median mechanisms on ``x``, and the local lower bound, for each ε.

    Chapter: *What can no mechanism beat?* (instance optimality).  Returns
    ``{label: list of values}``: the exponential mechanism, inverse
    sensitivity (interval and whole years), smooth sensitivity with Laplace
    noise (``E|Lap(2S/ε)| = 2S/ε``, ``δ`` public) and
    :func:`dpsens.accuracy.local_minimax_lower_bound`.  The target is the
    order statistic of :func:`dpsens.inverse.order_statistic`.
    """
    neighbors = as_relation(neighbors)
    delta = as_probability(delta, "delta")
    target = order_statistic(x, 0.5)
    grid = np.arange(math.ceil(lower), math.floor(upper) + 1.0)
    out: dict[str, list[float]] = {
        "exponential mechanism": [], "inverse sensitivity": [], "inverse sensitivity, whole years": [],
        "smooth sensitivity, Laplace (ε, δ)": [], "lower bound at x (any ε-DP mechanism)": []}
    for e in epsilons:
        out["exponential mechanism"].append(expected_abs_error(
            quantile_exponential_distribution(x, 0.5, e, lower, upper, neighbors), target))
        out["inverse sensitivity"].append(expected_abs_error(
            inverse_sensitivity_distribution(x, 0.5, e, lower, upper, neighbors), target))
        out["inverse sensitivity, whole years"].append(expected_abs_error(
            inverse_sensitivity_distribution(x, 0.5, e, lower, upper, neighbors, grid), target))
        s = smooth_sensitivity(x, "median", smooth_sensitivity_beta(e, delta), lower, upper, neighbors)
        out["smooth sensitivity, Laplace (ε, δ)"].append(2 * s / e)
        out["lower bound at x (any ε-DP mechanism)"].append(
            local_minimax_lower_bound(x, 0.5, e, lower, upper, neighbors))
    return out


def plot_instance_bounds(x: Sequence[float] | np.ndarray, epsilons: Sequence[float] | np.ndarray | None = None,
                         lower: float = 0.0, upper: float = 100.0,
                         neighbors: Relation | str = Relation.UNBOUNDED, what: str = "ages") -> Figure:
    """The exact expected errors of :func:`instance_errors` against ε, on log axes.

    Chapter: *What can no mechanism beat?*.
    """
    epsilons = np.geomspace(0.05, 5.0, 21) if epsilons is None else np.asarray(epsilons, dtype=float)
    neighbors = as_relation(neighbors)
    errors = instance_errors(x, epsilons, lower, upper, neighbors)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.8))
    for i, (label, values) in enumerate(errors.items()):
        style = (dict(color=PALETTE[-1], linestyle="-", lw=2) if label.startswith("lower")
                 else line_style(i))
        ax.plot(epsilons, values, label=label, **style)
    relation = "add/remove" if neighbors is Relation.UNBOUNDED else "replace one"
    ax.set(xscale="log", yscale="log", title=f"Median of {len(x)} {what} ({relation}) vs the local bound",
           xlabel="ε (log scale)", ylabel="expected |error| (years, log scale)")
    legend_below(fig)
    return fig


_FLOOR = 1e-3

#: the explorer's short names of :func:`dpsens.accuracy.simulate_accuracy`'s mechanisms
_SHORT = {"Laplace, count": "Laplace, count", "Gaussian (analytic), count": "Gaussian, count",
          "exponential mechanism, median": "exponential", "propose-test-release, median": "PTR",
          "smooth sensitivity, Laplace, median": "smooth, Laplace",
          "smooth sensitivity, heavy-tailed, median": "smooth, heavy-tailed",
          "inverse sensitivity, whole years, median": "inverse, whole years",
          "inverse sensitivity, interval, median": "inverse, interval"}


def _short(name: str) -> str:
    if name.startswith("sample and aggregate"):
        return "S&A, " + name.rsplit(", ", 1)[-1]
    return _SHORT.get(name, name)


def plot_accuracy_check(table: pd.DataFrame, epsilon: float, confidence: float) -> Figure:
    """Each mechanism's bound (open circle) and simulated error (filled) at one confidence, on a log axis.

    Chapter: *How accurate is it?* (the explorer).  ``table`` is
    :func:`dpsens.accuracy.simulate_accuracy`'s; values below 0.001 are drawn
    at 0.001 (the axis label says so).  Counts are in records, ranks in
    records, the medians in years.  The title names the setting of
    :func:`~dpsens.accuracy.simulate_accuracy` at its default δ
    (:data:`dpsens.accuracy.DELTA`): the count under either relation, the
    medians under add/remove.
    """
    rows = table.reset_index(drop=True)
    labels = [_short(m) + (", rank" if u.startswith("rank") else "")
              for m, u in zip(rows["mechanism"], rows["error in"], strict=True)]
    y = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 5.6))
    ax.plot(np.maximum(rows["bound"], _FLOOR), y, "o", mfc="none", mec=PALETTE[0], ms=9, mew=2,
            label=f"bound, exceeded with probability ≤ {1 - confidence:.2g}")
    ax.plot(np.maximum(rows["simulated"], _FLOOR), y, "o", color=PALETTE[3], ms=5,
            label=f"simulated error, {confidence:.0%} quantile of {int(rows['n'].max()):,} releases")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set(xscale="log", title=f"Bound vs simulation, ε = {epsilon:g}, δ = {DELTA:g}\n"
                                "(medians: add/remove)",
           xlabel="error: records (count, rank) or years\nlog scale; ≤ 0.001 shown at 0.001")
    legend_below(fig)
    return fig


def accuracy_explorer_view(epsilon: float = 0.5, confidence: float = 0.95, runs: int = 1000,
                           seed: int = 2026) -> Figure:
    """The explorer's view: :func:`plot_accuracy_check` of a fresh seeded simulation on the Adult ages.

    Chapter: *How accurate is it?*.  The count is the number of people aged 50
    or more; the median is that of the ages on ``[0, 100]``; sample-and-aggregate
    uses 10 partitions (the chapter's table 20), to keep the precomputed views quick.
    """
    confidence = as_probability(confidence, "confidence")
    ages = load_ages().to_numpy(dtype=float)
    table = simulate_accuracy(ages, int(np.sum(ages >= 50)), epsilon, 1 - confidence,
                              np.random.default_rng(as_int(seed, "seed", minimum=0)), runs=runs, n_partitions=10)
    return plot_accuracy_check(table, epsilon, confidence)
