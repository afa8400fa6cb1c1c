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

:func:`plot_sensitivity_grid` draws a grid (fast enough to redraw live) and
:func:`grid_explorer` wraps it in a live ipywidgets explorer.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from ._validate import as_int, check_relation
from .neighbors import (Domain, Pool, additions, check_release, check_universe, count_neighbors,
                        count_releases, enumerate_neighbors, releases, submultisets)
from .figures.style import PALETTE, figure_png
from .queries import check_query
from .timing import Stopwatch
from .widgets import display_live, image_layout, live_bundle

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

    Raises
    ------
    ValueError, TypeError
        For the inputs :func:`sensitivity_grid` refuses (``n < 2``, ``n``
        larger than a pool, ``k`` outside ``[1, n - 1]``, a bad relation).

    Examples
    --------
    >>> grid_size(Pool([1, 2, 3, 10, 11]), 3)
    (10, 5)
    """
    universe = resolve_universe(universe)
    check_relation(neighbors)
    # the same checks as sensitivity_grid, so a size that passes here can be drawn
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = as_int(k, "k", 1, n - 1)
    n_rows = count_releases(universe, n)
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
        group = [tuple(sorted(kept_t + a)) for a in additions(universe, kept, k)]
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
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=11, transform=ax.transAxes, wrap=True)
    ax.set_title(title)
    return fig


def _compact(count: int) -> str:
    """A count for a message: ``792``, ``12,650`` or ``1.2e+17`` (never 150 digits)."""
    if count < 10**6:
        return f"{count:,}"
    digits = str(count)
    mantissa = round(int(digits[:3]) / 10)          # two significant digits, rounded
    exponent = len(digits) - 1
    if mantissa >= 100:                              # 9.96e+k rounds up to 1.0e+(k+1)
        mantissa, exponent = mantissa // 10, exponent + 1
    return f"{mantissa // 10}.{mantissa % 10}e+{exponent:02d}"


# Layout of a grid figure, in inches (fixed, so no layout engine has to
# measure text).  Cells and row labels are written in a monospaced font on a
# grid of character slots: DejaVu Sans Mono glyphs are 0.602 em wide, so at
# about 7.18 points a slot is 0.06 inch.
_MONO_ADVANCE = 0.602
_CHAR_IN = 0.06
_FONT = _CHAR_IN * 72 / _MONO_ADVANCE     # about 7.18 points
_CELL_H, _TOP, _BOTTOM, _STACK_GAP = 0.34, 0.95, 0.5, 0.55
_MAX_WIDTH_IN = 13.0                      # wider than this is unreadable on a page

# How the text is drawn.  Matplotlib rasterises a Text glyph by glyph in
# Python (about 0.1 ms a glyph, spaces included), and a grid holds about a
# thousand of them -- most of a redraw.  So the cell and row texts, the
# caption and the "release x" header are drawn as glyph *outlines*: each
# glyph's path is computed once per process and cached, a figure places
# copies of them and draws ALL of its text as one path (one draw call).  The
# text stays vector (crisp at any dpi, in PNG, SVG and PDF).  Titles stay
# real Text objects: they are few, and the alt text is built from them.
_GLYPHS: dict = {}
_STRINGS: dict = {}


def _glyph(ch: str, bold: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """Outline of one character of the cell font (points, origin on the baseline), cached."""
    key = (ch, bold)
    if key not in _GLYPHS:
        prop = FontProperties(family=["DejaVu Sans Mono", "DejaVu Sans"], size=_FONT,
                              weight="bold" if bold else "normal")
        try:
            path = TextPath((0, 0), ch, prop=prop)
            _GLYPHS[key] = (np.asarray(path.vertices, float), np.asarray(path.codes, np.uint8))
        except (AttributeError, TypeError, ValueError):   # a glyph without outline (a space)
            _GLYPHS[key] = None
    return _GLYPHS[key]


def _string(s: str, size: float, bold: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """Outline of a fixed string in DejaVu Sans (points) and its width, cached."""
    key = (s, size, bold)
    if key not in _STRINGS:
        path = TextPath((0, 0), s, size=size, prop=FontProperties(family="DejaVu Sans",
                                                                  weight="bold" if bold else "normal"))
        _STRINGS[key] = (np.asarray(path.vertices, float), np.asarray(path.codes, np.uint8),
                         float(path.get_extents().x1))
    return _STRINGS[key]


class _Ink:
    """Collects text outlines in figure inches; :meth:`artist` draws them as one path."""

    def __init__(self):
        self.verts, self.codes = [], []

    def mono(self, x: float, y: float, s: str, ha: str = "center", bold_from: int | None = None) -> None:
        """Monospaced ``s`` with its baseline at height ``y`` (inches), aligned at ``x``.

        Characters from index ``bold_from`` on are bold.
        """
        step = _CHAR_IN * 72
        x0 = 72 * x - {"left": 0.0, "center": 0.5, "right": 1.0}[ha] * step * len(s)
        for c, ch in enumerate(s):
            g = None if ch == " " else _glyph(ch, bold_from is not None and c >= bold_from)
            if g is not None:
                self.verts.append(g[0] + (x0 + c * step, 72 * y))
                self.codes.append(g[1])

    def line(self, x: float, y: float, s: str, size: float, ha: str = "center", bold: bool = False) -> None:
        """A fixed string of the sans-serif font, baseline at ``y`` (inches), aligned at ``x``."""
        verts, codes, width = _string(s, size, bold)
        self.verts.append(verts + (72 * x - {"left": 0.0, "center": 0.5, "right": 1.0}[ha] * width, 72 * y))
        self.codes.append(codes)

    def artist(self, fig):
        path = Path(np.concatenate(self.verts), np.concatenate(self.codes))
        return PathPatch(path, transform=Affine2D().scale(1 / 72) + fig.dpi_scale_trans,
                         facecolor="black", edgecolor="none", linewidth=0, zorder=3)


def _row_labels(g: SensitivityGrid) -> list[str]:
    return [f"{_fmt(x)}: {fx:.4g}" for x, fx in zip(g.rows, g.row_values)]


def _cell_texts(g: SensitivityGrid) -> list[list[str]]:
    """The text of each cell: the neighbour's change, then ``|f(x) - f(x')|`` and a mark.

    The mark is ``★`` on a cell at the global maximum, ``▲`` on another
    row maximum, nothing elsewhere.
    """
    local, top = g.local, g.global_sensitivity
    out = []
    for i, x in enumerate(g.rows):
        row = []
        for j, y in enumerate(g.neighbours[i]):
            v = g.cells[i, j]
            mark = "★" if v == top else ("▲" if v == local[i] else "")
            row.append(f"{_change(x, y)}: {v:.3g}{mark}")     # three digits keep the cells narrow
        out.append(row)
    return out


def _draw_grid(fig, ink: _Ink, rect: tuple, g: SensitivityGrid, labels: list[str],
               texts: list[list[str]]) -> None:
    """One panel: cells shaded by value (one image), maxima outlined, text into ``ink``.

    ``rect`` is the panel's cell area (left, bottom, width, height) in inches.
    """
    left, bottom, w, h = rect
    fig_w, fig_h = fig.get_size_inches()
    n_rows, n_cols = g.cells.shape
    ax = fig.add_axes((left / fig_w, bottom / fig_h, w / fig_w, h / fig_h))
    ax.set_axis_off()
    vmax = g.global_sensitivity if g.global_sensitivity > 0 else 1.0
    shade = np.ma.masked_invalid(g.cells / vmax)
    ax.imshow(shade, cmap=_CMAP, vmin=0.0, vmax=2.2, aspect="auto",
              extent=(-0.5, n_cols - 0.5, n_rows - 0.5, -0.5), interpolation="nearest")
    ax.set(xlim=(-0.5, n_cols - 0.5), ylim=(n_rows - 0.5, -0.5))
    local, top = g.local, g.global_sensitivity
    hatched = [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(g.cells == top))]
    ax.add_collection(PatchCollection(hatched, facecolor="none", hatch="///", alpha=0.4, linewidth=0,
                                      edgecolor=GLOBAL_MAX_COLOUR, match_original=False), autolim=False)
    boxes, colours, widths, styles = [], [], [], []
    for i, j in zip(*np.nonzero(g.cells == local[:, None])):
        glob = g.cells[i, j] == top
        boxes.append(Rectangle((j - 0.45, i - 0.42), 0.9, 0.84))
        colours.append(GLOBAL_MAX_COLOUR if glob else ROW_MAX_COLOUR)
        widths.append(2.2 if glob else 1.6)
        styles.append("-" if glob else "--")
    ax.add_collection(PatchCollection(boxes, facecolor="none", edgecolor=colours, linewidths=widths,
                                      linestyles=styles), autolim=False)
    # pad=14 points as before; an explicit y skips matplotlib's title placement,
    # which would measure the (hidden) tick labels on every draw
    ax.set_title(f"{g.neighbors}: global sensitivity {g.global_sensitivity:g}", fontsize=10, y=1.0, pad=14)
    # text: baselines a little below each row's centre, so digits sit in the middle
    top_in = bottom + h
    cell_w = w / n_cols
    drop = 0.3645 * _FONT / 72                      # half the height of a digit, in inches
    for i, (label, row) in enumerate(zip(labels, texts)):
        y = top_in - (i + 0.5) * _CELL_H - drop
        ink.mono(left - 2 * _CHAR_IN, y, label, ha="right")
        for j, t in enumerate(row):
            at_max = g.cells[i, j] == local[i]
            ink.mono(left + (j + 0.5) * cell_w, y, t, bold_from=t.index(":") + 1 if at_max else None)
    ink.line(left - 2 * _CHAR_IN, top_in + 0.04, "release x: f(x)", 8, ha="right", bold=True)
    ink.line(left + w / 2, bottom - 0.24, "each cell: a neighbour x′ (−removed, +added, a→b replaced)", 8)
    ink.line(left + w / 2, bottom - 0.38, "and the change |f(x) − f(x′)|", 8)


_CMAP = plt.get_cmap("Blues").with_extremes(bad="white")


def _too_big(universe, n, k, neighbors):
    """Why a grid cannot be drawn (a message for the reader), or None if it can."""
    try:
        n_rows, n_cols = grid_size(universe, n, k, neighbors)
    except (TypeError, ValueError) as exc:
        return str(exc)
    if n_rows > MAX_ROWS or n_cols > MAX_COLS or n_cols < 0:
        size = (f"{_compact(n_rows)} rows" if n_cols < 0
                else f"{_compact(n_rows)} rows and up to {_compact(n_cols)} neighbours per row")
        return (f"This grid would have {size}:\n"
                f"too many to read (the limit is {MAX_ROWS} rows and {MAX_COLS} neighbours per row).\n"
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
    dashed orange outline, a bold value and a triangle; the maximum of the
    whole grid (the global sensitivity) is hatched, has a solid vermilion
    outline and a star -- shape and pattern carry the meaning, colour only
    repeats it.

    The function is pure (arguments in, a new figure out) and fast enough
    for a live explorer: the default grid draws in well under 100 ms (see
    ``benchmarks/bench_grid.py``).

    Parameters
    ----------
    universe : Pool, Domain, str or sequence of numbers
        A universe, a key of :data:`UNIVERSE_PRESETS`, or plain values (read
        as a :class:`Pool`, as in the source).  Default: the source's
        ``{1, 2, 3, 10, 11}``.
    n, k : int
        Release size (``n >= 2``) and group size (``1 <= k <= n - 1``).
    query : str
        One of :data:`dpsens.QUERIES`.
    neighbors : {"both", "unbounded", "bounded"}
        One relation, or both, stacked one above the other (each at full
        width, so the cells stay legible on a page).

    Returns
    -------
    matplotlib.figure.Figure
        The grid(s); or, for input that would give an unreadable grid (more
        than :data:`MAX_ROWS` rows or :data:`MAX_COLS` neighbours, or labels
        too long for a page) or invalid input, a figure that says so --
        never an exception, never a frozen kernel.
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
    chars = [2 + max(len(t) for row in tx for t in row) for tx in texts]
    lefts = [0.25 + _CHAR_IN * (2 + max(len(s) for s in lab)) for lab in labels]
    widths = [c * _CHAR_IN * g.cells.shape[1] for c, g in zip(chars, grids)]
    # two relations are stacked, one above the other, each at the full width:
    # side by side, the page would shrink the cells' text below legibility
    fig_w = max(max(lf + w, 3.9) for lf, w in zip(lefts, widths)) + 0.2
    if fig_w > _MAX_WIDTH_IN:
        return _message_figure(
            f"This grid would be {fig_w:.0f} inches wide: the values are too long to read.\n"
            "Use values with fewer digits, or a smaller n or k.", "Cannot draw this grid")
    heights = [_CELL_H * g.cells.shape[0] for g in grids]
    fig_h = _TOP + sum(heights) + _BOTTOM * len(grids) + _STACK_GAP * (len(grids) - 1)
    fig = plt.figure(figsize=(fig_w, fig_h), layout="none")
    ink = _Ink()
    y_top = fig_h - _TOP
    for g, lab, tx, left, w, h in zip(grids, labels, texts, lefts, widths, heights):
        _draw_grid(fig, ink, (left, y_top - h, w, h), g, lab, tx)
        y_top -= h + _BOTTOM + _STACK_GAP
    fig.add_artist(ink.artist(fig))
    fig.suptitle(f"f = {query} on {universe!r}, n = {n}, k = {k}\n"
                 "▲ row maximum = local sensitivity;  ★ overall maximum = global",
                 fontsize=10, y=1 - 0.08 / fig_h, va="top")
    fig.dpsens_cells = texts       # the cell texts, for tests and screen readers' alt text
    fig.dpsens_text_pt = [_FONT, 8.0]   # sizes of the text drawn as paths (figures.style.smallest_text_pt)
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


# --------------------------------------------------------------------------- live explorer
#: Most values the live explorer reads from its text box (a bigger universe
#: gives an unreadable grid for every n >= 2 anyway).
MAX_VALUES = 40


def parse_values(text: str, max_values: int = MAX_VALUES) -> list[float]:
    """Read universe values typed by a reader: numbers separated by commas or spaces.

    Chapter: *The median visualisation grid* (the live explorer's text box).

    Braces, brackets and semicolons are ignored, so ``"{1, 2, 3, 10, 11}"``
    and ``"1 2 3 10 11"`` both work.

    Raises
    ------
    ValueError
        With a message for the reader: an entry that is not a number, no
        values at all, a value that is not finite, or more than
        ``max_values`` values.

    Examples
    --------
    >>> parse_values("{1, 2, 3, 10, 11}")
    [1.0, 2.0, 3.0, 10.0, 11.0]
    """
    if not isinstance(text, str):
        raise ValueError(f"type the values as text, e.g. 1, 2, 3, 10, 11 (got {type(text).__name__})")
    cleaned = text
    for ch in "{}[]();":
        cleaned = cleaned.replace(ch, " ")
    parts = [p for p in cleaned.replace(",", " ").split() if p]
    if not parts:
        raise ValueError("type at least two values, separated by commas, e.g. 1, 2, 3, 10, 11")
    if len(parts) > max_values:
        raise ValueError(f"{len(parts)} values: at most {max_values} can make a readable grid")
    values = []
    for p in parts:
        try:
            v = float(p.replace("−", "-"))
        except ValueError:
            raise ValueError(f"{p[:20]!r} is not a number; separate the values by commas, "
                             "e.g. 1, 2, 3, 10, 11") from None
        if not np.isfinite(v):
            raise ValueError(f"{p[:20]!r} is not a finite number")
        values.append(v)
    return values


def plot_grid_from_text(values: str = "1, 2, 3, 10, 11", kind: str = "pool", n: int = 3, k: int = 1,
                        query: str = "median", neighbors: str = "unbounded"):
    """:func:`plot_sensitivity_grid` for values typed as text -- never raises.

    Chapter: *The median visualisation grid* (what the live explorer draws).

    Parameters
    ----------
    values : str
        The universe's values, e.g. ``"1, 2, 3, 10, 11"`` (see :func:`parse_values`).
    kind : {"pool", "domain"}
        Read the values as a :class:`Pool` (each record used once, as in the
        source) or a :class:`Domain` (values reusable).
    n, k, query, neighbors
        As in :func:`plot_sensitivity_grid`.

    Returns
    -------
    matplotlib.figure.Figure
        The grid, or a figure with a message for input that cannot be read
        or would give an unreadable grid.
    """
    try:
        parsed = parse_values(values)
        if kind not in ("pool", "domain"):
            raise ValueError(f"kind must be 'pool' or 'domain', got {kind!r}")
        universe = Pool(parsed) if kind == "pool" else Domain(parsed)
    except (TypeError, ValueError) as exc:
        return _message_figure(f"Cannot read the universe: {exc}", "Cannot draw this grid")
    return plot_sensitivity_grid(universe, n, k, query, neighbors)


class GridExplorer:
    """A live explorer of :func:`plot_grid_from_text` (built by :func:`grid_explorer`).

    Chapter: *The median visualisation grid*.

    In a kernel with ipywidgets it displays as controls and an image that is
    redrawn on every change; elsewhere (a static page, nbviewer, GitHub) it
    displays as the current figure with a note that the controls need a
    running kernel.  :meth:`redraw` is what a control change calls; it
    never raises (bad input gives a message figure) and records the time it
    took in :attr:`last_ms`.
    """

    RELATIONS = ("unbounded", "bounded", "both")

    def __init__(self, values: str, kind: str, n: int, k: int, query: str, neighbors: str,
                 max_n: int = 8):
        self.settings = {"values": values, "kind": kind, "n": n, "k": k, "query": query,
                         "neighbors": neighbors}
        self.max_n = max_n
        self.last_ms = float("nan")
        self.png = b""
        self._widget = None
        self.redraw()

    def redraw(self, **changes) -> bytes:
        """Apply ``changes`` to the settings, draw, and return the PNG."""
        self.settings.update(changes)
        with Stopwatch() as sw:
            fig = plot_grid_from_text(**self.settings)
            try:
                self.png = figure_png(fig)
                self.message = fig.axes[0].texts[0].get_text() if fig.axes and fig.axes[0].get_title() == \
                    "Cannot draw this grid" else None
            finally:
                plt.close(fig)
        self.last_ms = sw.ms
        return self.png

    def _status(self) -> str:
        s = self.settings
        what = f"{s['query']} on a {s['kind']} of {{{s['values'].strip(' {}[]')}}}, n = {s['n']}, k = {s['k']}"
        if self.message:
            return f"{what}: not drawn (see the message). {self.last_ms:.0f} ms"
        return f"{what}, {s['neighbors']}: drawn in {self.last_ms:.0f} ms"

    def widget(self):
        """The ipywidgets view (built once, reused)."""
        if self._widget is not None:
            return self._widget
        import html

        import ipywidgets as w

        from .queries import QUERIES

        s = self.settings
        style = {"description_width": "9em"}
        wide = w.Layout(width="32em", max_width="100%")
        controls = {
            "values": w.Text(value=s["values"], description="universe values", continuous_update=False,
                             placeholder="e.g. 1, 2, 3, 10, 11", style=style, layout=wide),
            # buttons as wide as their labels (the default width cut "Pool (each value ...")
            "kind": w.ToggleButtons(options=[("Pool (each value once)", "pool"),
                                             ("Domain (values reusable)", "domain")],
                                    value=s["kind"], description="universe is a",
                                    style={**style, "button_width": "auto"},
                                    layout=w.Layout(width="42em", max_width="100%")),
            "n": w.IntSlider(value=s["n"], min=2, max=self.max_n, description="release size n",
                             continuous_update=False, style=style, layout=wide),
            "k": w.IntSlider(value=s["k"], min=1, max=max(1, s["n"] - 1, s["k"]),
                             description="group size k", continuous_update=False, style=style, layout=wide),
            "neighbors": w.Dropdown(options=list(self.RELATIONS), value=s["neighbors"], description="relation",
                                    style=style, layout=w.Layout(width="20em")),
            "query": w.Dropdown(options=list(QUERIES), value=s["query"], description="query", style=style,
                                layout=w.Layout(width="20em")),
        }
        image = w.Image(value=self.png, format="png", layout=w.Layout(**image_layout(self.png)))
        status = w.HTML(html.escape(self._status()))

        busy = []

        def update(change):
            if busy:  # a change made below (k follows n): drawn once, by the outer call
                return
            busy.append(True)
            try:
                name = next(key for key, c in controls.items() if c is change["owner"])
                changes = {name: change["new"]}
                if name == "n":  # k ranges over 1..n-1; the slider follows n
                    controls["k"].max = max(1, change["new"] - 1)
                    changes["k"] = controls["k"].value
                png = self.redraw(**changes)
                image.layout = w.Layout(**image_layout(png))
                image.value = png
                status.value = html.escape(self._status())
            finally:
                busy.clear()

        for c in controls.values():
            c.observe(update, names="value")
        top = w.VBox(list(controls.values()), layout=w.Layout(align_items="flex-start", width="100%"))
        box = w.VBox([top, image, status], layout=w.Layout(align_items="flex-start", width="100%"))
        box.add_class("dpsens-grid-explorer")
        box._dpsens_controls = controls  # for tests
        box._dpsens_image = image
        box._dpsens_status = status
        self._widget = box
        return box

    def _static_bundle(self) -> dict:
        import base64
        import html

        note = ("Live grid explorer: its controls need a running Python kernel with ipywidgets "
                "(open this notebook in Binder or Colab). Showing the current grid.")
        b64 = base64.b64encode(self.png).decode("ascii")
        return {
            "text/plain": f"<dpsens live grid explorer: {self._status()}>",
            "text/html": (f'<div class="dpsens-grid-explorer"><p><em>{html.escape(note)}</em></p>'
                          f'<img src="data:image/png;base64,{b64}" alt="{html.escape(self._status(), quote=True)}" '
                          'style="max-width:100%;height:auto"></div>'),
        }

    def _repr_mimebundle_(self, include=None, exclude=None):
        return live_bundle(self._static_bundle(), self.widget)

    def _ipython_display_(self):
        """Display through :func:`IPython.display.display`: works with ipywidgets 7 and 8."""
        display_live(self._static_bundle(), self.widget)


def grid_explorer(values: str = "1, 2, 3, 10, 11", kind: str = "pool", n: int = 3, k: int = 1,
                  query: str = "median", neighbors: str = "unbounded") -> GridExplorer:
    """A live explorer of the sensitivity grid: type a universe, move n and k, pick a query.

    Chapter: *The median visualisation grid*.

    Unlike :func:`dpsens.widgets.explorer` nothing is precomputed: every
    change of a control calls :func:`plot_sensitivity_grid` (through
    :func:`plot_grid_from_text`) and shows the new figure, so it needs a
    running kernel (Jupyter, Binder, Colab).  Controls: a text box for the
    universe's values (comma-separated numbers), Pool or Domain, sliders
    for ``n`` (2..8) and ``k``, the relation (unbounded, bounded or both
    side by side) and all ten queries.  Input that cannot be read, is
    invalid (``k >= n``, ``n`` larger than a pool) or would give an
    unreadable grid shows a message figure instead; the status line under
    the figure says how long the redraw took.

    Returns
    -------
    GridExplorer
        Displays as ipywidgets in a kernel.

    Examples
    --------
    >>> ex = grid_explorer(neighbors="bounded")
    >>> ex.message is None, ex.png[:4] == b"\\x89PNG"
    (True, True)
    >>> _ = ex.redraw(values="1, 2, x")
    >>> ex.message
    "Cannot read the universe: 'x' is not a number; separate the values by commas, e.g. 1, 2, 3, 10, 11"
    """
    return GridExplorer(values, kind, n, k, query, neighbors)
