"""Figures of sample-and-aggregate: the bias/noise trade-off, the explorer over m and ε, error distributions.

Chapter: *Sample and aggregate*.

The measurements come from :mod:`dpsens.experiments.sample_aggregate`; :func:`plot_saa_explorer`
keeps the chunk answers of its last settings in a small cache, so moving the
explorer's ε slider does not split the data again.
"""
from __future__ import annotations

from matplotlib.figure import FigureBase
import math
from collections.abc import Sequence
from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_data, as_int, as_positive
from ..mechanisms.noise import laplace_noise
from ..experiments.sample_aggregate import partition_aggregates
from ..queries import check_query
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_saa_tradeoff", "plot_saa_explorer", "plot_error_comparison", "plot_pct_histograms"]


def plot_saa_tradeoff(profiles: dict, epsilon: float, marker_k: int | None = None, title: str | None = None,
                      ax: Axes | None = None) -> FigureBase:
    """Root-mean-square error of sample-and-aggregate against the number of chunks, with its parts.

    Chapter: *Sample and aggregate*.

    Parameters
    ----------
    profiles : dict
        ``label -> DataFrame`` from :func:`dpsens.experiments.sample_aggregate.saa_error_profile`.
    epsilon : float
        Only for the title.
    marker_k : int, optional
        Mark this chunk count with a vertical line.
    ax : matplotlib Axes, optional
        Draw into it (used by :func:`plot_saa_explorer`); a new figure otherwise.
    """
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 3.6 + 0.2 * (2 * len(profiles) + 2)))
    for i, (lab, prof) in enumerate(profiles.items()):
        st = line_style(2 * i)
        ax.plot(prof["k"], prof["rmse"], marker="o", ms=3, lw=2, color=st["color"], label=f"{lab}: total RMSE")
        ax.plot(prof["k"], np.sqrt(prof["bias"] ** 2 + prof["partition_sd"] ** 2), lw=1.5, ls="--",
                color=st["color"], label=f"{lab}: bias and chunking spread")
    first = next(iter(profiles.values()))
    ax.plot(first["k"], first["noise_sd"], lw=1.5, ls=":", color=PALETTE[-1], label="Laplace noise sd (all)")
    if marker_k is not None:
        ax.axvline(marker_k, color=PALETTE[3], lw=1, alpha=0.7, label=f"m = {marker_k}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set(xlabel="number of chunks m (log scale)", ylabel="error in years (log scale)",
           title=title or f"Sample and aggregate on the ages, ε = {epsilon:g}: noise against bias")
    if fig is not None:   # a figure of its own: the legend below, off the curves
        legend_below(fig, ax)
    else:
        ax.legend(loc="upper center")
    return fig if fig is not None else ax.figure


@lru_cache(maxsize=16)
def _cached_aggregates(data: bytes, n_chunks, func, lower, upper, seed, n_partitions):
    """The chunk answers, keyed on the data's own bytes (float64, in order): two datasets share an
    entry only if they are equal record for record.  At most 16 entries (least recently used dropped)."""
    x = np.frombuffer(data, dtype=np.float64)
    return partition_aggregates(x, func, n_chunks, lower, upper, np.random.default_rng(seed), n_partitions)


def plot_saa_explorer(x: ArrayLike, n_chunks: int = 600, epsilon: float = 1.0, func: str = "mean",
                      lower: float = 20.0, upper: float = 80.0, n_partitions: int = 40, draws: int = 25,
                      seed: int = 0, profile: pd.DataFrame | None = None) -> Figure:
    """Releases of sample-and-aggregate at one (m, ε), with the error curve beside it.

    Chapter: *Sample and aggregate* (the explorer over m and ε).

    Top: histogram of ``n_partitions × draws`` seeded releases (random
    partition, then Laplace noise), the true value and the mean release.
    Below it (if ``profile`` is given): the RMSE curve of
    :func:`plot_saa_tradeoff` rescaled to this ε, with m marked.

    Returns
    -------
    matplotlib.figure.Figure
    """
    x = as_data(x)
    epsilon = as_positive(epsilon, "epsilon")
    n_chunks = as_int(n_chunks, "n_chunks", minimum=1, maximum=len(x))
    key = np.ascontiguousarray(x, dtype=np.float64).tobytes()
    agg = _cached_aggregates(key, n_chunks, func, float(lower), float(upper), seed, n_partitions)
    rng = np.random.default_rng(seed + 1)
    scale = (upper - lower) / (n_chunks * epsilon)
    rel = (agg[:, None] + laplace_noise(scale, rng, (agg.size, draws))).ravel()
    _, f = check_query(func, allow_callable=False)
    truth = float(f(x))
    # two panels stacked, not side by side: on a phone the text stays legible
    fig, axes = plt.subplots(2 if profile is not None else 1, 1,
                             figsize=(MAX_WIDTH_IN, 8.0) if profile is not None else None, squeeze=False)
    ax = axes[0, 0]
    ax.hist(rel, bins=40, color=PALETTE[0], alpha=0.8, label=f"{rel.size} seeded releases")
    ax.set_ylim(top=1.6 * ax.get_ylim()[1])         # room for the legend above the histogram
    ax.axvline(truth, color=PALETTE[-1], lw=2, label=f"true {func}: {truth:.2f}")
    ax.axvline(rel.mean(), color=PALETTE[1], lw=2, ls="--", label=f"mean release: {rel.mean():.2f}")
    rmse = float(np.sqrt(np.mean((rel - truth) ** 2)))
    ax.set(xlabel=f"released {func} of age (years)", ylabel="number of releases",
           title=f"m = {n_chunks} chunks (about {len(x) / n_chunks:.0f} records each), ε = {epsilon:g}: "
                 f"RMSE {rmse:.3f}")
    ax.legend(loc="upper left")
    if profile is not None:
        prof = profile.copy()
        prof["noise_sd"] = math.sqrt(2) * (upper - lower) / (prof["k"] * epsilon)
        prof["rmse"] = np.sqrt(prof["bias"] ** 2 + prof["partition_sd"] ** 2 + prof["noise_sd"] ** 2)
        plot_saa_tradeoff({func: prof}, epsilon, marker_k=n_chunks, ax=axes[1, 0], title=f"error against m, ε = {epsilon:g}")
        axes[1, 0].get_legend().remove()      # below the figure, off the curves
        legend_below(fig, axes[1, 0], ncols=2)
    return fig


def plot_error_comparison(errors: dict, title: str | None = None, xlabel: str = "absolute error (years, log scale)",
                          colour_keys: Sequence[str] | None = None) -> Figure:
    """Distributions of absolute errors of several mechanisms (box plots on a log axis).

    Chapter: *Sample and aggregate* (and the comparisons of the part).

    Parameters
    ----------
    errors : dict
        ``label -> array`` of absolute errors (⊥ answers removed beforehand).
        Labels of the form ``"query: mechanism"`` are drawn in one panel per
        query (in order of first appearance), each box labelled by its
        mechanism; other labels share one panel.
    title : str, optional
        The figure's title; long titles are wrapped to the figure's width.
    xlabel : str
        Label of the error axis (shared by the panels).
    colour_keys : list of str, optional
        One key per label: boxes with the same key get the same colour in
        every panel, so a mechanism keeps its colour across queries.  By
        default the mechanism up to its first ``":"`` or ``","``
        (``"sample and aggregate, k = 600"`` and ``"..., k = 2"`` share one).

    Returns
    -------
    matplotlib.figure.Figure
        One horizontal box per label (box: quartiles, whiskers: 5--95 %),
        a diamond at the root-mean-square error, one legend naming the colours.
    """
    import textwrap

    labels = list(errors)
    if not labels:
        raise ValueError("errors must hold at least one label -> array of absolute errors")
    split = [label.split(": ", 1) if ": " in label else ["", label] for label in labels]
    if colour_keys is None:         # the mechanism up to its first ":" or ","
        colour_keys = [method.split(":", 1)[0].split(",", 1)[0].strip() for _, method in split]
    colour_keys = [str(key) for key in colour_keys]
    if len(colour_keys) != len(labels):
        raise ValueError(f"colour_keys must have one key per label ({len(labels)}), got {len(colour_keys)}")
    order = list(dict.fromkeys(colour_keys))
    colour = {key: PALETTE[i % 7] for i, key in enumerate(order)}
    panels = list(dict.fromkeys(q for q, _ in split))
    rows = {q: [i for i, (qq, _) in enumerate(split) if qq == q] for q in panels}
    fig, axes = plt.subplots(len(panels), 1, sharex=True, squeeze=False,
                             figsize=(MAX_WIDTH_IN, 0.45 * len(labels) + 1.1 * len(panels) + 2.0),
                             height_ratios=[len(rows[q]) for q in panels])
    for ax, q in zip(axes[:, 0], panels, strict=True):
        idx = rows[q]
        data = [np.maximum(np.asarray(errors[labels[i]], float), 1e-12) for i in idx]
        bp = ax.boxplot(data, orientation="horizontal", whis=(5, 95), showfliers=False, patch_artist=True,
                        tick_labels=[textwrap.fill(split[i][1], 22) for i in idx],   # narrow: room for the boxes
                        medianprops={"color": PALETTE[-1]})
        for box, i in zip(bp["boxes"], idx, strict=True):
            box.set_facecolor(colour[colour_keys[i]])
            box.set_alpha(0.6)
        for j, d in enumerate(data):
            ax.plot(np.sqrt(np.mean(d**2)), j + 1, marker="D", color=PALETTE[-1], ms=5, linestyle="none",
                    label="root-mean-square error" if j == 0 else None)
        ax.invert_yaxis()                               # first label on top, as read
        ax.set_xscale("log")
        if q:
            ax.set_title(f"{q}", loc="left", fontsize=11)
    axes[-1, 0].set_xlabel(xlabel)
    first = axes[0, 0]
    for key in order:
        first.fill_between([], [], color=colour[key], alpha=0.6, label=key)
    title = title or "Error of the mechanisms (box: quartiles, whiskers: 5–95 %)"
    fig.suptitle(title if "\n" in title else "\n".join(textwrap.wrap(title, 45)))
    handles, names = first.get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncols=2)
    return fig


def plot_pct_histograms(errors: dict, title: str, floor: float = 1e-4, width_in: float | None = None) -> Figure:
    """Overlaid histograms of percentage errors on a logarithmic axis.

    Chapter: *Sample and aggregate* (the fixed-k comparison and the notes on
    the source's histograms).

    Parameters
    ----------
    errors : dict
        ``label -> array`` of percentage errors (>= 0); one histogram each,
        in the book's palette order.
    title : str
        The figure's title.
    floor : float
        Errors below it are counted in the first bin (a log axis has no 0).
    width_in : float, optional
        The figure's width in inches, at most :data:`~dpsens.figures.style.MAX_WIDTH_IN`
        (the default); :data:`~dpsens.figures.style.BOXED_WIDTH_IN` for a
        figure shown inside a dropdown.

    Returns
    -------
    matplotlib.figure.Figure
        Step-filled histograms over 60 logarithmic bins from ``floor`` to the
        largest error, with a legend.
    """
    floor = as_positive(floor, "floor")
    if not errors:
        raise ValueError("errors must hold at least one label -> array of percentage errors")
    arrays = {label: np.asarray(v, dtype=float).ravel() for label, v in errors.items()}
    for label, v in arrays.items():
        if v.size == 0 or not np.all(np.isfinite(v)) or np.any(v < 0):
            raise ValueError(f"errors[{label!r}] must be a non-empty array of finite errors >= 0")
    width_in = MAX_WIDTH_IN if width_in is None else as_positive(width_in, "width_in")
    if width_in > MAX_WIDTH_IN:
        raise ValueError(f"width_in must be at most {MAX_WIDTH_IN} inches (wider figures are illegible on a phone), "
                         f"got {width_in}")
    top = max(float(np.max(v)) for v in arrays.values())
    edges = np.geomspace(floor, max(top, floor * 10), 60)
    fig, ax = plt.subplots(figsize=(width_in, plt.rcParams["figure.figsize"][1]))
    for i, (label, v) in enumerate(arrays.items()):
        ax.hist(np.maximum(v, floor), bins=edges.tolist(), histtype="stepfilled", alpha=0.5, color=PALETTE[i % 7],
                edgecolor=PALETTE[i % 7], label=label)
    ax.set_ylim(top=(1.25 + 0.15 * len(arrays)) * ax.get_ylim()[1])   # room for the legend above the bars
    ax.set_xscale("log")
    ax.set(title=title, ylabel="number of releases",
           xlabel=f"error (% of the true mean age, log scale;\nbelow {floor:g} % in the first bin)")
    ax.legend(loc="upper left")
    return fig
