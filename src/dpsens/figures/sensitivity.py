"""Figures of global and local sensitivity: sensitivity against the group size k, local against global, cost.

Chapter: *Global sensitivity from scratch* (:func:`plot_sensitivity_vs_k`,
:func:`plot_enumeration_cost`) and *Local sensitivity*
(:func:`plot_local_vs_global`, :func:`plot_local_global_gap`,
:func:`plot_local_global_log`).

Every function takes tables of numbers the chapter computed (with
:mod:`dpsens.sensitivity`) and returns a new figure; each of the ten queries
keeps one marker (:data:`QUERY_MARKERS`) in every figure.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_int
from ..queries import QUERIES
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["QUERY_MARKERS", "SAME_UNITS", "OTHER_UNITS", "query_style", "plot_sensitivity_vs_k",
           "plot_local_vs_global", "plot_local_global_log", "plot_enumeration_cost", "plot_local_global_gap"]


#: Marker per query, so that the ten lines differ by shape as well as colour.
QUERY_MARKERS = {"mean": "o", "median": "s", "count": "^", "sum": "v", "std": "D", "var": "P",
                 "percentile_25": "<", "percentile_50": "X", "percentile_75": ">", "percentile_90": "*"}


#: The queries measured in the units of the data (left column of
#: :func:`plot_sensitivity_vs_k`) and those on other scales (right column).
SAME_UNITS = ("mean", "median", "std", "percentile_25", "percentile_50", "percentile_75", "percentile_90")


OTHER_UNITS = ("count", "sum", "var")


def query_style(query: str, i: int) -> dict:
    """Colour, line style and marker of query ``query`` drawn as the ``i``-th line of a panel.

    Chapter: *Global sensitivity from scratch* (the figures of sensitivity against k).
    """
    return {**line_style(i), "marker": QUERY_MARKERS.get(query, "o"), "markersize": 5}


def plot_sensitivity_vs_k(tables: dict, title: str, ylabel: str = "sensitivity") -> Figure:
    """Sensitivity of each query against the group size k, one row of two panels per data column.

    Chapter: *Global sensitivity from scratch* (also *Local sensitivity*).

    The queries are split in two columns so that no line is flattened by
    another's scale: the left panel holds the queries measured in the units
    of the data (mean, median, standard deviation, percentiles), the right
    one count, sum and variance.  Every line has its own colour, line style
    and marker; the k axis shows whole numbers only; one legend below the
    panels names them all.  Two panels side by side keep the figure narrow
    enough for a phone.

    Parameters
    ----------
    tables : dict
        ``{panel title: pandas.DataFrame}``, each frame indexed by ``k`` with
        one column per query (names from :data:`dpsens.QUERIES`).
    title : str
        Figure title (say which relation and universe).
    ylabel : str
        What the numbers are, e.g. ``"global sensitivity"``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not isinstance(tables, dict) or not tables:
        raise TypeError("tables must be a non-empty dict {panel title: DataFrame indexed by k}")
    n = len(tables)
    fig, axes = plt.subplots(n, 2, figsize=(MAX_WIDTH_IN, 2.6 * n + 2.2), squeeze=False)
    for r, (panel, df) in enumerate(tables.items()):
        ks = np.asarray(df.index, dtype=int)
        for c, group in enumerate((SAME_UNITS, OTHER_UNITS)):
            ax = axes[r, c]
            shown = [q for q in df.columns if (q in group) or (c == 0 and q not in OTHER_UNITS
                                                               and q not in SAME_UNITS)]
            for i, q in enumerate(shown):  # colours counted within a column: seven distinct at most
                ax.plot(ks, df[q].to_numpy(float), label=q, **query_style(q, i))
            ax.set_xticks(ks if len(ks) <= 6 else ks[::2])
            ax.set_ylim(bottom=0)
            ax.set_title(f"{panel}: {'data units' if c == 0 else 'count, sum, var'}", fontsize=10)
            ax.set_ylabel(ylabel)
            if r == n - 1:
                ax.set_xlabel("group size k")
    legend_below(fig, [axes[0, 0], axes[0, 1]], ncols=3)
    fig.suptitle(title)
    return fig


def plot_local_vs_global(local: pd.DataFrame, global_: pd.DataFrame, title: str, queries: Sequence[str] | None = None,
                         ncols: int = 2, global_label: str = "global") -> Figure:
    """Local next to global sensitivity against k, one small panel per query.

    Chapter: *Local sensitivity*.

    Parameters
    ----------
    local, global_ : pandas.DataFrame
        Indexed by ``k``, one column per query.
    title : str
        Figure title.
    queries : sequence of str, optional
        Which queries to show (default: every column of ``local``).
    ncols : int
        Panels per row (default 2: on a phone the text stays at least 9 px
        high).
    global_label : str
        Legend label of the global values (see :func:`plot_local_global_log`).

    Returns
    -------
    matplotlib.figure.Figure
        Global sensitivity as a dashed black line with squares, local as a
        solid blue line with circles; the gap between them is what the
        released dataset saves.
    """
    queries = list(local.columns if queries is None else queries)
    ncols = min(as_int(ncols, "ncols", minimum=1), len(queries))
    nrows = int(np.ceil(len(queries) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(min(2.5 * ncols, MAX_WIDTH_IN), 1.7 * nrows + 1.2),
                             squeeze=False, sharex=True)
    ks = np.asarray(local.index, dtype=int)
    for ax, q in zip(axes.flat, queries, strict=False):
        ax.plot(ks, global_[q].to_numpy(float), color=PALETTE[-1], linestyle="--", marker="s",
                markersize=4, label=global_label)
        ax.plot(ks, local[q].to_numpy(float), color=PALETTE[0], marker="o", markersize=4, label="local")
        ax.set_title(q, fontsize=10)
        ax.set_xticks(ks if len(ks) <= 6 else ks[::2])
        ax.set_ylim(bottom=0)
    for ax in axes.flat[len(queries):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("group size k")
    for ax in axes[:, 0]:
        ax.set_ylabel("sensitivity")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=10)
    fig.suptitle(title)
    return fig


def plot_local_global_log(local: dict, global_: dict, title: str, relation: str, ncols: int = 2,
                          global_label: str = "global") -> Figure:
    """Local and global sensitivity against k on log scales, one panel per query, one relation.

    Chapter: *Local sensitivity* (the Adult ages, k = 1..10).

    Parameters
    ----------
    local, global_ : dict
        ``{relation: pandas.DataFrame}``, each frame indexed by ``k`` with one
        column per query of :data:`dpsens.QUERIES`.
    title : str
        Figure title.
    relation : str
        Which relation (key of ``local`` and ``global_``) to draw.
    ncols : int
        Panels per row (default 2: on a phone the text stays at least 9 px
        high).
    global_label : str
        Legend label of the global values, e.g. ``"global, size n public"``
        for a size-``n`` value under add/remove neighbours (it is a global
        sensitivity only when ``n`` is public).

    Returns
    -------
    matplotlib.figure.Figure
        Global sensitivity dashed black with squares, local solid blue with
        circles, each panel on its own log scale.  A sensitivity of 0 has no
        place on a log scale: a panel where the local sensitivity is 0 at
        every k says so in words.
    """
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    if relation not in local or relation not in global_:
        raise ValueError(f"relation must be one of {sorted(local)}, got {relation!r}")
    ncols = as_int(ncols, "ncols", minimum=1)
    queries = list(QUERIES)
    nrows = int(np.ceil(len(queries) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(min(2.5 * ncols, MAX_WIDTH_IN), 1.8 * nrows + 1.2),
                             squeeze=False, sharex=True)
    ks = np.asarray(local[relation].index, dtype=int)
    for ax, q in zip(axes.flat, queries, strict=False):
        loc, glo = local[relation][q].to_numpy(float), global_[relation][q].to_numpy(float)
        ax.plot(ks, glo, color=PALETTE[-1], linestyle="--", marker="s", markersize=3, label=global_label)
        ax.plot(ks, np.where(loc > 0, loc, np.nan), color=PALETTE[0], marker="o", markersize=3, label="local")
        if (glo > 0).any():
            ax.set_yscale("log")
            shown = np.concatenate([glo[glo > 0], loc[loc > 0]])
            decades = np.log10(shown.max() / shown.min())
            # a small panel has room for few labels: 1, 2, 5 per decade only over a short range
            ax.yaxis.set_major_locator(LogLocator(subs=(1, 2, 5) if decades < 1.2 else (1,), numticks=5))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        else:
            ax.set_yticks([0])
        if (loc == 0).all():   # a zero has no place on a log scale: say so instead
            ax.text(0.5, 0.12, "local = 0 at every k" if (glo > 0).any() else "local = global = 0",
                    transform=ax.transAxes, ha="center", fontsize=10, color=PALETTE[0])
        ax.set(title=q, xticks=ks[::3])
        ax.title.set_fontsize(10)
    for ax in axes.flat[len(queries):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("group size k")
    for c in range(ncols):             # the last row may be short: label the lowest panel of each column
        column = [ax for ax in axes[:, c] if ax.get_visible()]
        if column:
            column[-1].set_xlabel("group size k")
            column[-1].xaxis.set_tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel("sensitivity\n(log scale)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize=10)
    fig.suptitle(title)
    return fig


def plot_enumeration_cost(sizes: ArrayLike, brute_seconds: ArrayLike, exact_seconds: ArrayLike, xlabel: str, title: str,
                          extrapolated: ArrayLike | None = None) -> Figure:
    """Running time of brute force and of the exact engine, on a log scale.

    Chapter: *Global sensitivity from scratch* (the cost of enumeration).

    Parameters
    ----------
    sizes : sequence of int
        The x values (e.g. number of values in the universe).
    brute_seconds, exact_seconds : sequence of float
        Measured times; ``nan`` where not measured.
    xlabel, title : str
    extrapolated : sequence of float, optional
        Brute-force times predicted from exact neighbour counts (drawn dotted).

    Returns
    -------
    matplotlib.figure.Figure
    """
    sizes = np.asarray(sizes)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.2))
    ax.plot(sizes, brute_seconds, marker="o", color=PALETTE[3], label="brute force (measured)")
    if extrapolated is not None:
        ax.plot(sizes, extrapolated, marker=".", color=PALETTE[3], linestyle=":",
                label="brute force (predicted from neighbour counts)")
    ax.plot(sizes, exact_seconds, marker="s", label="exact engine (measured)", **line_style(0))
    ax.set(yscale="log", xlabel=xlabel, ylabel="time (seconds, log scale)", title=title)
    ax.set_xticks(sizes)
    ax.legend(loc="upper left")
    return fig


def plot_local_global_gap(panels: dict, title: str, global_label: str = "global") -> Figure:
    """Local and global sensitivity of each query, side by side on a log scale.

    Chapter: *Local sensitivity* (the gap on real data).

    Parameters
    ----------
    panels : dict
        ``{panel title: (local, global_)}`` where ``local`` and ``global_`` are
        pandas Series indexed by query name.
    title : str
        Figure title.
    global_label : str
        Legend label of the global values (see :func:`plot_local_global_log`).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per entry of ``panels``, stacked (narrow enough for a
        phone), one row per query; a filled blue circle for the local sensitivity, a
        black square for the global one, joined by a grey bar (the gap).  A
        local sensitivity of exactly 0 cannot sit on a log scale: it is drawn
        as an open circle at the left edge and labelled "0".
    """
    if not isinstance(panels, dict) or not panels:
        raise TypeError("panels must be a non-empty dict {title: (local Series, global Series)}")
    fig, axes = plt.subplots(len(panels), 1, figsize=(MAX_WIDTH_IN, 3.4 * len(panels) + 1.4), sharex=True,
                             squeeze=False)
    positive = [v for loc, glo in panels.values() for v in np.concatenate([loc.to_numpy(float), glo.to_numpy(float)])
                if v > 0]
    floor = 10 ** np.floor(np.log10(min(positive))) / 10 if positive else 1e-6
    for ax, (panel, (loc, glo)) in zip(axes[:, 0], panels.items(), strict=True):
        queries = list(loc.index)
        y = np.arange(len(queries))
        lv, gv = loc.to_numpy(float), glo.loc[queries].to_numpy(float)
        shown_l, shown_g = np.where(lv > 0, lv, floor), np.where(gv > 0, gv, floor)
        ax.hlines(y, shown_l, shown_g, color="0.75", linewidth=3, zorder=1)
        ax.scatter(shown_g, y, marker="s", color=PALETTE[-1], zorder=3, label=global_label)
        pos = lv > 0
        ax.scatter(shown_l[pos], y[pos], marker="o", color=PALETTE[0], zorder=4, label="local")
        if np.any(~pos):
            ax.scatter(shown_l[~pos], y[~pos], marker="o", facecolor="white", edgecolor=PALETTE[0], zorder=4,
                       label="local = 0 (drawn at the edge)")
            for yi in y[~pos]:
                ax.annotate("0", (floor, yi), xytext=(6, 4), textcoords="offset points", fontsize=10,
                            color=PALETTE[0])
        ax.set_xscale("log")
        ax.set_xlim(floor / 2, None)
        ax.set_yticks(y, queries)
        ax.invert_yaxis()  # first query on top
        ax.set(title=panel)
    axes[-1, 0].set_xlabel("sensitivity (log scale)")
    legend_below(fig, list(axes[:, 0]), ncols=2)  # a zero may appear in one panel only
    fig.suptitle(title)
    return fig
