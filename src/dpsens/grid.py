"""The sensitivity grid: every release, every neighbour, every change.

Chapter: *The median visualisation grid*.

A grid makes the two definitions of sensitivity visible at once.  Its rows
are the possible releases ``x`` of size ``n`` from a universe, its cells the
neighbours ``x'`` of each release, and each cell holds ``|f(x) - f(x')|``:

* the maximum of a row is the **local** sensitivity of that release;
* the maximum of the whole grid is the **global** sensitivity.

The module also reproduces the bounded computation of the source text
*local sensitivity from scratch*, which compares the neighbours of a release
*with each other* (inside each group that keeps the same ``n - k`` records)
instead of with the release itself.  On the median grid that variant reports
8 on rows where the anchored definition gives 7.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.patches import Rectangle

from ._validate import as_int, check_relation
from .neighbors import (Domain, Pool, _additions, check_release, check_universe, count_neighbors,
                        count_releases, enumerate_neighbors, releases, submultisets)
from .plots import PALETTE
from .queries import check_query

#: The source's universe for the median grid, X = {1, 2, 3, 10, 11} (a pool:
#: releases are 3-subsets, so there are ten of them).
SOURCE_UNIVERSE = (1, 2, 3, 10, 11)

#: Universes offered by the grid explorer.  Keys are the labels shown to the
#: reader; values are the universes.
UNIVERSE_PRESETS = {
    "Pool {1, 2, 3, 10, 11} (source)": Pool(SOURCE_UNIVERSE),
    "Pool {1, 2, 3, 4, 5} (evenly spaced)": Pool([1, 2, 3, 4, 5]),
    "Pool {1, 2, 3, 4, 100} (one outlier)": Pool([1, 2, 3, 4, 100]),
    "Pool {1, 2, 2, 5, 9} (repeats)": Pool([1, 2, 2, 5, 9]),
    "Domain {1, 2, 3} (values reusable)": Domain([1, 2, 3]),
}

#: Largest grid the plotting function draws; bigger ones get a message.
MAX_ROWS = 20
MAX_COLS = 12

# Highlight colours (Okabe--Ito): row maximum and overall maximum.
ROW_MAX_COLOUR = PALETTE[1]      # orange, solid outline
GLOBAL_MAX_COLOUR = PALETTE[3]   # vermilion, hatched fill + star


def resolve_universe(universe):
    """Return a :class:`Pool`/:class:`Domain` for a universe or a preset label.

    Chapter: *The median visualisation grid*.

    Parameters
    ----------
    universe : Pool, Domain or str
        A universe, or one of the keys of :data:`UNIVERSE_PRESETS`.

    Raises
    ------
    ValueError
        If a string is not a preset label (the message lists the labels).
    TypeError
        If ``universe`` is neither a universe nor a string.
    """
    if isinstance(universe, str):
        if universe not in UNIVERSE_PRESETS:
            raise ValueError(f"universe must be a Pool, a Domain or one of {list(UNIVERSE_PRESETS)}, "
                             f"got {universe!r}")
        return UNIVERSE_PRESETS[universe]
    return check_universe(universe)


@dataclass(frozen=True)
class SensitivityGrid:
    """The cells of a sensitivity grid (see :func:`sensitivity_grid`).

    Attributes
    ----------
    rows : tuple of tuple
        The releases ``x`` (sorted tuples), one per row.
    row_values : numpy.ndarray
        ``f(x)`` for each row.
    neighbours : tuple of tuple of tuple
        The neighbours ``x'`` of each row, in the order of the cells.
    cells : numpy.ndarray
        ``|f(x) - f(x')|``, shape ``(rows, max neighbours)``; rows with fewer
        neighbours are padded with NaN.
    """

    universe: object
    n: int
    k: int
    query: str
    neighbors: str
    rows: tuple
    row_values: np.ndarray
    neighbours: tuple
    cells: np.ndarray

    @property
    def local(self) -> np.ndarray:
        """Local sensitivity of each release: the maximum of its row."""
        return np.nanmax(self.cells, axis=1)

    @property
    def global_sensitivity(self) -> float:
        """Global sensitivity: the maximum over the whole grid."""
        return float(np.nanmax(self.cells))

    @property
    def shape(self) -> tuple[int, int]:
        return self.cells.shape


def grid_size(universe, n: int, k: int = 1, neighbors: str = "unbounded") -> tuple[int, int]:
    """Rows and columns a grid would have, computed from counts only.

    Chapter: *The median visualisation grid*.

    Lets a caller refuse a grid that is too big *before* enumerating it.  The
    column count is the largest number of (removed, added) choices of a row
    (:func:`~dpsens.count_neighbors`), an upper bound for its distinct
    neighbours.

    Examples
    --------
    >>> grid_size(Pool([1, 2, 3, 10, 11]), 3)
    (10, 5)
    """
    universe = resolve_universe(universe)
    check_relation(neighbors)
    n_rows = count_releases(universe, n)
    k = as_int(k, "k", 1, n - 1) if n > 1 else as_int(k, "k", 1, 1)
    if n_rows > 10 * MAX_ROWS:
        return n_rows, -1  # too many rows to even look at the columns
    n_cols = max(count_neighbors(x, universe, k, neighbors) for x in releases(universe, n))
    return n_rows, n_cols


def sensitivity_grid(universe, n: int, k: int = 1, query: str = "median",
                     neighbors: str = "unbounded", include_self: bool = False) -> SensitivityGrid:
    """Every release of size ``n``, its neighbours, and ``|f(x) - f(x')|``.

    Chapter: *The median visualisation grid*.

    Parameters
    ----------
    universe : Pool, Domain or str
        Where records come from (or a key of :data:`UNIVERSE_PRESETS`).
    n : int
        Size of a release, ``n >= 2``.
    k : int
        Group size (Hamming distance), ``1 <= k <= n - 1``.
    query : str
        One of :data:`dpsens.QUERIES`.
    neighbors : {"unbounded", "bounded"}
        The neighbour relation (see :func:`~dpsens.enumerate_neighbors`).
    include_self : bool
        A bounded enumeration also yields ``x`` itself (remove a record, put
        the same value back).  Its cell is always 0, so by default it is left
        out of the grid; the maxima do not change.

    Returns
    -------
    SensitivityGrid

    Raises
    ------
    ValueError
        For a bad universe, size, group size, query or relation.

    Examples
    --------
    >>> g = sensitivity_grid(Pool([1, 2, 3, 10, 11]), n=3, k=1, query="median")
    >>> g.shape, g.global_sensitivity
    ((10, 5), 4.5)
    """
    universe = resolve_universe(universe)
    name, f = check_query(query)
    check_relation(neighbors)
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = as_int(k, "k", 1, n - 1)
    rows, values, neigh, diffs = [], [], [], []
    for x in releases(universe, n):
        fx = f(np.asarray(x))
        nbrs = [y for y in enumerate_neighbors(x, universe, k, neighbors) if include_self or y != x]
        rows.append(x)
        values.append(fx)
        neigh.append(tuple(nbrs))
        diffs.append([abs(fx - f(np.asarray(y))) for y in nbrs])
    width = max(len(d) for d in diffs)
    cells = np.full((len(rows), width), np.nan)
    for i, d in enumerate(diffs):
        cells[i, : len(d)] = d
    return SensitivityGrid(universe, n, k, name, neighbors, tuple(rows), np.asarray(values),
                           tuple(neigh), cells)


def source_bounded_local(x, universe, k: int = 1, query: str = "median", return_pair: bool = False):
    """The source text's bounded "local sensitivity" of ``x`` (a flawed variant).

    Chapter: *The median visualisation grid*.

    The source groups the bounded neighbours of ``x`` by the ``n - k``
    records they keep, then takes the largest ``|f(a) - f(b)|`` over pairs
    ``a, b`` *inside a group* -- neither of which need be ``x``.  Two such
    neighbours are at distance ``2k`` from each other through ``x``, so this
    can exceed the local sensitivity ``max |f(x) - f(x')|`` (it is bounded by
    twice it).  Global sensitivity is not affected: over all releases the
    pairs inside the groups are exactly the pairs of bounded neighbours.

    Parameters
    ----------
    x : array-like
        The release.
    universe : Pool or Domain
    k : int
        Records replaced, ``1 <= k <= len(x) - 1``.
    query : str
        One of :data:`dpsens.QUERIES`.
    return_pair : bool
        Also return the pair ``(a, b)`` of neighbours that attains the value.

    Returns
    -------
    float, or (float, (tuple, tuple)) if ``return_pair``

    Examples
    --------
    >>> source_bounded_local([1, 3, 10], Pool([1, 2, 3, 10, 11]))
    8.0
    """
    universe = resolve_universe(universe)
    _, f = check_query(query)
    x = check_release(x, universe)
    k = as_int(k, "k", 1, len(x) - 1)
    xc = Counter(x.tolist())
    best, pair = -1.0, None
    for removed in submultisets(xc, k):
        kept = xc - Counter(removed)
        kept_t = tuple(sorted(kept.elements()))
        group = [tuple(sorted(kept_t + a)) for a in _additions(universe, kept, k)]
        vals = np.array([f(np.asarray(y)) for y in group])
        lo, hi = int(np.argmin(vals)), int(np.argmax(vals))
        if vals[hi] - vals[lo] > best:
            best, pair = float(vals[hi] - vals[lo]), (group[lo], group[hi])
    return (best, pair) if return_pair else best


def _fmt(t: tuple) -> str:
    return "{" + ",".join(f"{v:g}" for v in t) + "}"


def _change(x: tuple, y: tuple) -> str:
    """How neighbour ``y`` differs from ``x``: "−3", "+10" or "3→10"."""
    cx, cy = Counter(x), Counter(y)
    out = ",".join(f"{v:g}" for v in sorted((cx - cy).elements()))
    into = ",".join(f"{v:g}" for v in sorted((cy - cx).elements()))
    if out and into:
        return f"{out}→{into}"
    return f"−{out}" if out else f"+{into}"


def _message_figure(text: str, title: str):
    fig = plt.figure(figsize=(8, 2.2), layout="none")
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.8))
    ax.set_axis_off()
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=11, transform=ax.transAxes)
    ax.set_title(title)
    return fig


# Layout of a grid figure, in inches (fixed, so no layout engine has to
# measure text).  The cells of a row are written as ONE string in a
# monospaced font, each cell padded to the same number of characters, so the
# text lines up with the cell borders: one text object per row instead of one
# per cell keeps a redraw fast (matplotlib spends most of its time per text).
# DejaVu Sans Mono glyphs are 0.602 em wide; matplotlib rounds the advance
# to whole pixels, so the font size is chosen to make it exactly 6 px at
# 100 dpi (and 9, 12, 18 px at 150, 200, 300 dpi): the text then stays
# aligned with the cells at the usual resolutions.
_MONO_ADVANCE = 0.602
_CHAR_IN = 0.06
_FONT = _CHAR_IN * 72 / _MONO_ADVANCE     # about 7.18 points
_CELL_H, _TOP, _BOTTOM, _GAP = 0.34, 0.95, 0.5, 0.3



def _row_labels(g: SensitivityGrid) -> list[str]:
    return [f"{_fmt(x)}: {fx:g}" for x, fx in zip(g.rows, g.row_values)]


def _cell_texts(g: SensitivityGrid) -> list[list[str]]:
    local, top = g.local, g.global_sensitivity
    out = []
    for i, x in enumerate(g.rows):
        row = []
        for j, y in enumerate(g.neighbours[i]):
            v = g.cells[i, j]
            mark = "★" if v == top else ("▲" if v == local[i] else " ")
            row.append(f"{_change(x, y)}: {v:g}{mark}")
        out.append(row)
    return out


def _draw_grid(ax, g: SensitivityGrid, labels: list[str], texts: list[list[str]], width: int) -> None:
    n_rows, n_cols = g.cells.shape
    vmax = g.global_sensitivity if g.global_sensitivity > 0 else 1.0
    shade = np.ma.masked_invalid(g.cells / vmax)
    cmap = plt.get_cmap("Blues").with_extremes(bad="white")
    ax.imshow(shade, cmap=cmap, vmin=0.0, vmax=2.2, aspect="auto",
              extent=(-0.5, n_cols - 0.5, n_rows - 0.5, -0.5), interpolation="nearest")
    local, top = g.local, g.global_sensitivity
    hatched = [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(g.cells == top))]
    ax.add_collection(PatchCollection(hatched, facecolor="none", hatch="///", alpha=0.4, linewidth=0,
                                      edgecolor=GLOBAL_MAX_COLOUR, match_original=False))
    boxes, colours, widths, styles = [], [], [], []
    for i, j in zip(*np.nonzero(g.cells == local[:, None])):
        glob = g.cells[i, j] == top
        boxes.append(Rectangle((j - 0.45, i - 0.42), 0.9, 0.84))
        colours.append(GLOBAL_MAX_COLOUR if glob else ROW_MAX_COLOUR)
        widths.append(2.2 if glob else 1.6)
        styles.append("-" if glob else "--")
    ax.add_collection(PatchCollection(boxes, facecolor="none", edgecolor=colours, linewidths=widths,
                                      linestyles=styles))
    # one text per row: the row label, right-aligned in its own columns, then the cells
    lab_w = max(len(s) for s in labels) + 2
    for i, row in enumerate(texts):
        line = labels[i].rjust(lab_w - 2) + "  " + "".join(t.center(width) for t in row).rstrip()
        ax.text(-0.5 - lab_w / width, i, line, ha="left", va="center", family="DejaVu Sans Mono",
                fontsize=_FONT, clip_on=False)
    ax.set_axis_off()
    ax.text(0.5, -0.12 / (_CELL_H * n_rows), "each cell: a neighbour x′ (−removed, +added, a→b replaced)\n"
            "and the change |f(x) − f(x′)|", transform=ax.transAxes, ha="center", va="top", fontsize=8)
    ax.text(-0.5 - 2 / width, -0.55, "release x: f(x)", ha="right", va="bottom", fontsize=8, fontweight="bold")
    ax.set_title(f"{g.neighbors}: global sensitivity {g.global_sensitivity:g}", fontsize=10, pad=14)


def _too_big(universe, n, k, neighbors):
    try:
        n_rows, n_cols = grid_size(universe, n, k, neighbors)
    except (TypeError, ValueError) as exc:
        return str(exc)
    if n_rows > MAX_ROWS or n_cols > MAX_COLS or n_cols < 0:
        cols = "many" if n_cols < 0 else str(n_cols)
        return (f"This grid would have {n_rows} rows and up to {cols} neighbours per row:\n"
                f"too many to read (the limit is {MAX_ROWS} rows and {MAX_COLS} neighbours).\n"
                "Choose a smaller n or k, or a smaller universe.")
    return None


def plot_sensitivity_grid(universe=SOURCE_UNIVERSE, n: int = 3, k: int = 1, query: str = "median",
                          neighbors: str = "both"):
    """Draw the sensitivity grid of a query; row and overall maxima highlighted.

    Chapter: *The median visualisation grid*.

    Each cell names a neighbour ``x'`` by how it differs from the row's
    release (``−3``: a 3 removed, ``+10``: a 10 added, ``3→10``: a 3
    replaced by a 10) and shows ``|f(x) - f(x')|``, shaded by size.  The
    maximum of each row (the release's local sensitivity, ``LS``) has a
    dashed orange outline, bold text and a triangle; the maximum of the whole
    grid (the global sensitivity) is hatched, has a solid vermilion outline
    and a star -- shape and pattern carry the meaning, colour only repeats
    it.

    Parameters
    ----------
    universe : Pool, Domain, str or sequence of numbers
        A universe, a key of :data:`UNIVERSE_PRESETS`, or plain values (read
        as a :class:`Pool`, as in the source).  Default: the source's
        ``{1, 2, 3, 10, 11}``.
    n, k : int
        Release size and group size.
    query : str
        One of :data:`dpsens.QUERIES`.
    neighbors : {"both", "unbounded", "bounded"}
        One relation, or both side by side.

    Returns
    -------
    matplotlib.figure.Figure
        The grid(s); or, for input that would give an unreadable grid (more
        than :data:`MAX_ROWS` rows or :data:`MAX_COLS` neighbours) or invalid
        input, a figure that says so -- never a frozen kernel.
    """
    if not isinstance(universe, (str, Pool, Domain)):
        try:
            universe = Pool(universe)
        except (TypeError, ValueError) as exc:
            return _message_figure(str(exc), "Cannot draw this grid")
    relations = ["unbounded", "bounded"] if neighbors == "both" else [neighbors]
    try:
        universe = resolve_universe(universe)
        for r in relations:
            check_relation(r)
        check_query(query)
        problems = [p for p in (_too_big(universe, n, k, r) for r in relations) if p]
    except (TypeError, ValueError) as exc:
        problems = [str(exc)]
    if problems:
        return _message_figure(problems[0], "Cannot draw this grid")
    grids = [sensitivity_grid(universe, n, k, query, r) for r in relations]
    labels = [_row_labels(g) for g in grids]
    texts = [_cell_texts(g) for g in grids]
    chars = [3 + max(len(t) for row in tx for t in row) for tx in texts]
    lefts = [0.25 + _CHAR_IN * (2 + max(len(s) for s in lab)) for lab in labels]
    widths = [c * _CHAR_IN * g.cells.shape[1] for c, g in zip(chars, grids)]
    fig_w = sum(max(lf + w, 3.9) for lf, w in zip(lefts, widths)) + _GAP * (len(grids) - 1) + 0.2
    fig_h = _TOP + _BOTTOM + _CELL_H * max(g.cells.shape[0] for g in grids)
    fig = plt.figure(figsize=(fig_w, fig_h), layout="none")
    x0 = 0.0
    for g, lab, tx, c, left, w in zip(grids, labels, texts, chars, lefts, widths):
        h = _CELL_H * g.cells.shape[0]
        ax = fig.add_axes(((x0 + left) / fig_w, (fig_h - _TOP - h) / fig_h, w / fig_w, h / fig_h))
        _draw_grid(ax, g, lab, tx, c)
        x0 += max(left + w, 3.9) + _GAP
    fig.suptitle(f"f = {query} on {universe!r}, n = {n}, k = {k}\n"
                 "▲ row maximum = local sensitivity;  ★ overall maximum = global",
                 fontsize=10, y=1 - 0.08 / fig_h, va="top")
    return fig


def plot_source_comparison(universe=SOURCE_UNIVERSE, n: int = 3, k: int = 1, query: str = "median"):
    """Bounded local sensitivity per release: the definition against the source's variant.

    Chapter: *The median visualisation grid*.

    One row per release; a filled circle for the anchored definition
    ``max |f(x) - f(x')|`` and an open square for the source's
    neighbour-against-neighbour value (:func:`source_bounded_local`).  Rows
    where the two differ are shaded.

    Returns
    -------
    matplotlib.figure.Figure
    """
    universe = resolve_universe(universe if isinstance(universe, (str, Pool, Domain)) else Pool(universe))
    g = sensitivity_grid(universe, n, k, query, "bounded")
    src = np.array([source_bounded_local(x, universe, k, query) for x in g.rows])
    anchored = g.local
    y = np.arange(len(g.rows))
    fig, ax = plt.subplots(figsize=(7.5, 1.4 + 0.36 * len(y)))
    for i in np.flatnonzero(~np.isclose(src, anchored)):
        ax.axhspan(i - 0.45, i + 0.45, color=PALETTE[6], alpha=0.35, lw=0)
    ax.plot(anchored, y, "o", color=PALETTE[0], ms=8, label="definition: max |f(x) − f(x′)|")
    ax.plot(src, y, "s", mfc="none", mec=PALETTE[3], mew=2, ms=11,
            label="source: max |f(a) − f(b)| over neighbours a, b")
    ax.set_yticks(y)
    ax.set_yticklabels([f"x = {_fmt(x)}" for x in g.rows])
    ax.invert_yaxis()
    hi = float(max(np.max(src), np.max(anchored)))
    ax.set_xlim(-0.05 * hi, 1.08 * hi if hi > 0 else 1)
    ax.set(xlabel=f"bounded local sensitivity of the {query} (k = {k})",
           title="Bounded local sensitivity: definition vs source (shaded: they differ)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2)
    return fig
