"""The sensitivity grid shown to a reader: as an HTML table, as a figure, and its live explorer.

Chapter: *The median visualisation grid*.

:func:`grid_table` shows a grid computed by :func:`dpsens.grid.sensitivity_grid`
as an HTML table -- real text at the page's size, legible on a wide screen
and on a phone (where it scrolls inside the column) -- and is what the
chapter and its explorers show; :func:`grid_table_from_text` reads a universe
typed by a reader, and :func:`grid_explorer` is the live explorer of it, an
explorer of :func:`dpsens.widgets.explorer`.  :func:`plot_sensitivity_grid`
draws the same grid as a matplotlib figure (an image for slides or print;
its text is drawn as glyph outlines, :mod:`dpsens.figures.glyphs`), and
:func:`plot_source_comparison` compares the definition of bounded local
sensitivity with the source's variant.  Every function answers input it
cannot show with a message that says why, never an exception.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..grid import (MAX_COLS, MAX_ROWS, SOURCE_UNIVERSE, SensitivityGrid, grid_size, parse_values, resolve_universe,
                    sensitivity_grid, source_bounded_local)
from ..neighbors import Domain, Pool, format_multiset
from ..queries import QUERIES, check_query
from ..relation import as_relation
from ..widgets import Explorer, TextBox, explorer
from .glyphs import CHAR_IN, MONO_PT, Ink
from .style import PALETTE

__all__ = ["ROW_MAX_COLOUR", "GLOBAL_MAX_COLOUR", "CannotDraw", "GridTable", "grid_table", "grid_table_from_text",
           "plot_sensitivity_grid", "plot_source_comparison", "plot_grid_from_text", "grid_explorer"]

# Highlight colours (Okabe--Ito): row maximum and overall maximum.
ROW_MAX_COLOUR = PALETTE[1]      # orange, solid outline
GLOBAL_MAX_COLOUR = PALETTE[3]   # vermilion, hatched fill + star


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
    fig.dpsens_alt = f"{title}: {' '.join(text.split()).rstrip('.')}."  # type: ignore[attr-defined]  # the description
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


# Layout of a grid figure, in inches (fixed, so no layout engine has to measure text);
# the cells' text is monospaced, on slots glyphs.CHAR_IN wide.
_CELL_H, _TOP, _BOTTOM, _STACK_GAP = 0.34, 0.95, 0.5, 0.55
_MAX_WIDTH_IN = 13.0                      # wider than this is unreadable on a page


def _row_labels(g: SensitivityGrid) -> list[str]:
    return [f"{format_multiset(x)}: {fx:.4g}" for x, fx in zip(g.rows, g.row_values, strict=True)]


def _cell_texts(g: SensitivityGrid) -> list[list[str]]:
    """The text of each cell: the neighbour's change, then ``|f(x) - f(x')|`` and a mark.

    The mark is ``★`` on a cell at the global maximum, ``▲`` on another
    row maximum, nothing elsewhere.
    """
    local, top = g.local, g.global_sensitivity
    out = []
    for i, x in enumerate(g.rows):
        row = []
        for j, y in enumerate(g.neighbor_datasets[i]):
            v = g.cells[i, j]
            mark = "★" if v == top else ("▲" if v == local[i] else "")
            row.append(f"{_change(x, y)}: {v:.3g}{mark}")     # three digits keep the cells narrow
        out.append(row)
    return out


def _draw_grid(fig, ink: Ink, rect: tuple, g: SensitivityGrid, labels: list[str],
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
    hatched = [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(g.cells == top), strict=True)]
    ax.add_collection(PatchCollection(hatched, facecolor="none", hatch="///", alpha=0.4, linewidth=0,
                                      edgecolor=GLOBAL_MAX_COLOUR, match_original=False), autolim=False)
    boxes, colours, widths, styles = [], [], [], []
    for i, j in zip(*np.nonzero(g.cells == local[:, None]), strict=True):
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
    drop = 0.3645 * MONO_PT / 72                      # half the height of a digit, in inches
    for i, (label, row) in enumerate(zip(labels, texts, strict=True)):
        y = top_in - (i + 0.5) * _CELL_H - drop
        ink.mono(left - 2 * CHAR_IN, y, label, ha="right")
        for j, t in enumerate(row):
            at_max = g.cells[i, j] == local[i]
            ink.mono(left + (j + 0.5) * cell_w, y, t, bold_from=t.index(":") + 1 if at_max else None)
    ink.line(left - 2 * CHAR_IN, top_in + 0.04, "release x: f(x)", 8, ha="right", bold=True)
    ink.line(left + w / 2, bottom - 0.24, "each cell: a neighbour x′ (−removed, +added, a→b replaced)", 8)
    ink.line(left + w / 2, bottom - 0.38, "and the change |f(x) − f(x′)|", 8)


_CMAP = plt.get_cmap("Blues").with_extremes(bad="white")


def _too_big(universe, n, k, neighbors):
    """Why a grid cannot be drawn (a message for the reader), or None if it can."""
    if isinstance(n, int) and isinstance(k, int) and n >= 2:    # the usual slips, said in the reader's terms
        if isinstance(universe, Pool) and n > len(universe.values):
            size = len(universe.values)
            remedy = f"choose n from 2 to {size}" if size >= 2 else "type at least two values"
            return (f"A pool of {size} value{'s' if size != 1 else ''} has no release of n = {n} records:\n"
                    f"{remedy}, or read the values as a domain.")
        if not 1 <= k <= n - 1:
            return (f"The group size k (records changed) must be from 1 to n − 1 = {n - 1}\n"
                    f"in a release of n = {n} records.")
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


class CannotDraw(ValueError):
    """A grid that cannot be shown: its message is the reason, in the reader's words."""


def _grids(universe, n, k, query, neighbors) -> tuple:
    """``(universe, [grid of each relation])`` for a grid worth showing; else raise :class:`CannotDraw`.

    ``universe`` may be plain values (read as a :class:`Pool`), ``neighbors``
    may be ``"both"``.
    """
    if not isinstance(universe, (str, Pool, Domain)):
        try:
            universe = Pool(universe)
        except (TypeError, ValueError) as exc:
            raise CannotDraw(str(exc)) from None
    relations = ["unbounded", "bounded"] if neighbors == "both" else [neighbors]
    try:
        universe = resolve_universe(universe)
        for r in relations:
            try:
                as_relation(r)
            except ValueError:
                raise ValueError(f"neighbors must be one of ('both', 'unbounded', 'bounded'), got {r!r}") from None
        check_query(query)
        problems = [p for p in (_too_big(universe, n, k, r) for r in relations) if p]
    except (TypeError, ValueError) as exc:
        problems = [str(exc)]
    if problems:
        raise CannotDraw(problems[0])
    return universe, [sensitivity_grid(universe, n, k, query, r) for r in relations]


def _universe_from_text(values: str, kind: str):
    """The universe a reader typed; a ValueError (for the reader) if it cannot be read."""
    parsed = parse_values(values)
    if kind not in ("pool", "domain"):
        raise ValueError(f"kind must be 'pool' or 'domain', got {kind!r}")
    return Pool(parsed) if kind == "pool" else Domain(parsed)


def plot_sensitivity_grid(universe: Pool | Domain | Sequence[float] = SOURCE_UNIVERSE, n: int = 3, k: int = 1,
                          query: str = "median", neighbors: str = "both") -> Figure:
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
    try:
        universe, grids = _grids(universe, n, k, query, neighbors)
    except CannotDraw as exc:
        return _message_figure(str(exc), "Cannot draw this grid")
    labels = [_row_labels(g) for g in grids]
    texts = [_cell_texts(g) for g in grids]
    chars = [2 + max(len(t) for row in tx for t in row) for tx in texts]
    lefts = [0.25 + CHAR_IN * (2 + max(len(s) for s in lab)) for lab in labels]
    widths = [c * CHAR_IN * g.cells.shape[1] for c, g in zip(chars, grids, strict=True)]
    # two relations are stacked, one above the other, each at the full width:
    # side by side, the page would shrink the cells' text below legibility
    fig_w = max(max(lf + w, 3.9) for lf, w in zip(lefts, widths, strict=True)) + 0.2
    if fig_w > _MAX_WIDTH_IN:
        return _message_figure(
            f"This grid would be {fig_w:.0f} inches wide: the values are too long to read.\n"
            "Use values with fewer digits, or a smaller n or k.", "Cannot draw this grid")
    heights = [_CELL_H * g.cells.shape[0] for g in grids]
    fig_h = _TOP + sum(heights) + _BOTTOM * len(grids) + _STACK_GAP * (len(grids) - 1)
    fig = plt.figure(figsize=(fig_w, fig_h), layout="none")
    ink = Ink()
    y_top = fig_h - _TOP
    for g, lab, tx, left, w, h in zip(grids, labels, texts, lefts, widths, heights, strict=True):
        _draw_grid(fig, ink, (left, y_top - h, w, h), g, lab, tx)
        y_top -= h + _BOTTOM + _STACK_GAP
    fig.add_artist(ink.artist(fig))
    fig.suptitle(f"f = {query} on {universe!r}, n = {n}, k = {k}\n"
                 "▲ row maximum = local sensitivity;  ★ overall maximum = global",
                 fontsize=10, y=1 - 0.08 / fig_h, va="top")
    fig.dpsens_cells = texts  # type: ignore[attr-defined]  # the cell texts, for tests and screen readers' alt text
    fig.dpsens_text_pt = [MONO_PT, 8.0]  # type: ignore[attr-defined]  # sizes of the text drawn as paths
    return fig


def plot_source_comparison(universe: Pool | Domain | Sequence[float] = SOURCE_UNIVERSE, n: int = 3, k: int = 1,
                           query: str = "median") -> Figure:
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
    # narrow: shown whole on a phone (a 350-px column), its 10-point text stays above 9 px
    fig, ax = plt.subplots(figsize=(4.6, 2.0 + 0.36 * len(y)))
    for i in np.flatnonzero(~np.isclose(src, anchored)):
        ax.axhspan(i - 0.45, i + 0.45, color=PALETTE[6], alpha=0.35, lw=0)
    ax.plot(anchored, y, "o", color=PALETTE[0], ms=8, label="definition: max |f(x) − f(x′)|")
    ax.plot(src, y, "s", mfc="none", mec=PALETTE[3], mew=2, ms=11,
            label="source: max |f(y) − f(y′)|, y, y′ of one group")
    ax.set_yticks(y)
    ax.set_yticklabels([f"x = {format_multiset(x)}" for x in g.rows])
    ax.invert_yaxis()
    hi = float(max(np.max(src), np.max(anchored)))
    ax.set_xlim(-0.05 * hi, 1.08 * hi if hi > 0 else 1)
    ax.set(xlabel=f"bounded local sensitivity\nof the {query} (k = {k})",
           title="Bounded local sensitivity:\ndefinition vs source (shaded: they differ)")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=1)
    return fig


def plot_grid_from_text(values: str = "1, 2, 3, 10, 11", kind: str = "pool", n: int = 3, k: int = 1,
                        query: str = "median", neighbors: str = "unbounded") -> Figure:
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
        universe = _universe_from_text(values, kind)
    except (TypeError, ValueError) as exc:
        return _message_figure(f"Cannot read the universe: {exc}", "Cannot draw this grid")
    return plot_sensitivity_grid(universe, n, k, query, neighbors)


# --------------------------------------------------------------------------- the grid as an HTML table
# Real text at the page's font size: legible at any width (on a phone the table scrolls inside the
# column), selectable, and read by screen readers as a table.  Inline styles, so that it looks the
# same on the website, in JupyterLab, Colab and an explorer's static page.
_CELL = "padding:0.2em 0.45em;border:1px solid #d9d9d9;text-align:left;vertical-align:middle;color:#000"
_HEAD = "padding:0.2em 0.45em;border:1px solid #d9d9d9;text-align:left;font-weight:600;background:#fff;color:#000"
_HATCH = "repeating-linear-gradient(135deg,rgba(213,94,0,0.33) 0 2px,transparent 2px 6px)"
_RELATION = {"unbounded": "unbounded neighbours (records added or removed)",
             "bounded": "bounded neighbours (records replaced)"}


class GridTable:
    """A sensitivity grid as an HTML table: what :func:`grid_table` returns.

    Chapter: *The median visualisation grid*.

    Displays as the table in a notebook and on the website (``_repr_html_``),
    and is an HTML view for :func:`dpsens.widgets.explorer`.  ``dpsens_alt``
    says in one sentence what it shows; ``dpsens_cells`` holds the text of
    the cells, one list of rows per relation (as the figure's).
    """
    def __init__(self, html_text: str, alt: str, cells: Sequence = ()) -> None:
        self.html, self.dpsens_alt, self.dpsens_cells = html_text, alt, list(cells)

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return f"<GridTable: {self.dpsens_alt}>"


def _message_table(text: str) -> GridTable:
    msg = " ".join(text.split())
    return GridTable(f'<p class="dpsens-grid-message" style="margin:0.5em 0"><b>Cannot draw this grid:</b> '
                     f'{html.escape(text).replace(chr(10), "<br>")}</p>', f"Cannot draw this grid: {msg.rstrip('.')}.")


def _html_grid(g: SensitivityGrid, texts: list[list[str]]) -> str:
    """One relation's table: a row per release, its value, then a cell per neighbour."""
    local, top = g.local, g.global_sensitivity
    vmax = top if top > 0 else 1.0
    rows = []
    for i, (x, fx) in enumerate(zip(g.rows, g.row_values, strict=True)):
        cells = []
        for j in range(g.cells.shape[1]):
            if j >= len(texts[i]):                       # rows with fewer neighbours: an empty cell
                cells.append(f'<td style="{_CELL};background:#fff"></td>')
                continue
            v = g.cells[i, j]
            shade = to_hex(_CMAP(v / vmax / 2.2))        # the figure's colours: at most a mid blue
            change, value = texts[i][j].split(": ", 1)
            style, value = f"{_CELL};background:{shade}", html.escape(value)
            if v == top:
                style = (f"{_CELL};background:{_HATCH},{shade};"
                         f"outline:2px solid {GLOBAL_MAX_COLOUR};outline-offset:-3px")
                value = f"<b>{value}</b>"
            elif v == local[i]:
                style += f";outline:2px dashed {ROW_MAX_COLOUR};outline-offset:-3px"
                value = f"<b>{value}</b>"
            cells.append(f'<td style="{style}"><span style="white-space:nowrap">{html.escape(change)}:</span> '
                         f'<span style="white-space:nowrap">{value}</span></td>')
        rows.append(f'<tr><th scope="row" style="{_HEAD};white-space:nowrap">{html.escape(format_multiset(x))}</th>'
                    f'<td style="{_CELL};background:#fff">{fx:.4g}</td>{"".join(cells)}</tr>')
    return (f'<table class="dpsens-grid-table" style="border-collapse:collapse;width:auto;table-layout:auto;'
            f'margin:0.2em 0 0.8em;font-variant-numeric:tabular-nums;line-height:1.35">'
            f'<caption style="caption-side:top;text-align:left;font-weight:600;padding:0.2em 0">'
            f'{_RELATION.get(g.neighbors, g.neighbors)}: global sensitivity {g.global_sensitivity:g}</caption>'
            f'<thead><tr><th scope="col" style="{_HEAD}">release x</th><th scope="col" style="{_HEAD}">f(x)</th>'
            f'<th scope="colgroup" colspan="{g.cells.shape[1]}" style="{_HEAD}">its neighbours x′: what changed, '
            f'then |f(x) − f(x′)|</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def grid_table(universe: Pool | Domain | Sequence[float] = SOURCE_UNIVERSE, n: int = 3, k: int = 1,
               query: str = "median", neighbors: str = "both") -> GridTable:
    """The sensitivity grid of a query as an HTML table; row and overall maxima marked.

    Chapter: *The median visualisation grid* (the grid the chapter shows, and
    its explorers).

    The same grid as :func:`plot_sensitivity_grid`, as a table of text at the
    page's font size -- legible on a wide screen and on a phone, where it
    scrolls sideways inside the text column.  A row is a release ``x``
    (written with square brackets, a multiset) and ``f(x)``; each cell names a
    neighbour ``x'`` by how it differs from ``x`` (``−3``: a 3 removed,
    ``+10``: a 10 added, ``3→10``: a 3 replaced by a 10) and gives
    ``|f(x) - f(x')|``, on a background that darkens with it.  The maximum of
    each row (the release's local sensitivity) is bold, with a dashed orange
    outline and a ▲; the maximum of the whole grid (the global sensitivity)
    is bold, hatched, with a solid vermilion outline and a ★ -- shapes and
    pattern carry the meaning, colour only repeats it.

    Parameters
    ----------
    universe, n, k, query, neighbors
        As in :func:`plot_sensitivity_grid`; ``neighbors="both"`` gives one
        table per relation, the unbounded one first.

    Returns
    -------
    GridTable
        Displays as the table(s), or -- for invalid input or a grid too big
        to read -- as a sentence that says why (never an exception).

    Examples
    --------
    >>> t = grid_table(neighbors="unbounded")
    >>> t.dpsens_cells[0][0]
    ['−3: 0.5▲', '−2: 0', '−1: 0.5▲', '+10: 0.5▲', '+11: 0.5▲']
    >>> grid_table(n=3, k=3).dpsens_alt
    'Cannot draw this grid: The group size k (records changed) must be from 1 to n − 1 = 2 in a release of n = 3 records.'
    """
    try:
        universe, grids = _grids(universe, n, k, query, neighbors)
    except CannotDraw as exc:
        return _message_table(str(exc))
    texts = [_cell_texts(g) for g in grids]
    title = f"f = {query} on {universe!r}, n = {n}, k = {k}"
    legend = ("▲ bold, dashed orange outline: the largest change of its row, the local sensitivity of that "
              "release. ★ bold, hatched, solid vermilion outline: the largest change of the whole grid, the "
              "global sensitivity. Darker cells changed more.")
    body = "".join(_html_grid(g, tx) for g, tx in zip(grids, texts, strict=True))
    page = (f'<div class="dpsens-grid" style="max-width:100%;overflow-x:auto">'
            f'<p style="font-weight:600;margin:0.3em 0">{html.escape(title)}</p>{body}'
            f'<p style="font-size:0.9em;margin:0 0 0.5em">{html.escape(legend)}</p></div>')
    alt = (f"Sensitivity grid, {title}: " + "; ".join(
        f"{g.neighbors}, global sensitivity {g.global_sensitivity:g}, local sensitivity of each release "
        + ", ".join(f"{format_multiset(x)} {v:g}" for x, v in zip(g.rows, g.local, strict=True)) for g in grids) + ".")
    return GridTable(page, alt, texts)


def grid_table_from_text(values: str = "1, 2, 3, 10, 11", kind: str = "pool", n: int = 3, k: int = 1,
                         query: str = "median", neighbors: str = "unbounded") -> GridTable:
    """:func:`grid_table` for values typed as text -- never raises.

    Chapter: *The median visualisation grid* (what the live explorer shows).

    Parameters
    ----------
    values, kind
        The universe as typed, read as a pool or a domain (see
        :func:`plot_grid_from_text`).
    n, k, query, neighbors
        As in :func:`grid_table`.
    """
    try:
        universe = _universe_from_text(values, kind)
    except (TypeError, ValueError) as exc:
        return _message_table(f"Cannot read the universe: {exc}")
    return grid_table(universe, n, k, query, neighbors)


def grid_explorer(values: str = "1, 2, 3, 10, 11", kind: str = "pool", n: int = 3, k: int = 1,
                  query: str = "median", neighbors: str = "unbounded") -> Explorer:
    """A live explorer of the sensitivity grid: type a universe, move n and k, pick a query.

    Chapter: *The median visualisation grid*.

    An explorer of :func:`grid_table_from_text` built by
    :func:`dpsens.widgets.explorer` with lazy views: nothing is precomputed,
    every change of a control makes the grid it asks for (once; moving back
    shows the cached view), so it needs a running kernel (Jupyter, Binder,
    Colab).  Controls: a text box for the universe's values
    (comma-separated numbers), Pool or Domain, sliders for ``n`` (2..8) and
    ``k`` (1..7), the relation (unbounded, bounded or both) and all ten
    queries.  Input that cannot be read, is invalid (``k >= n``, ``n``
    larger than a pool) or would give an unreadable grid shows a message
    instead; the status line under the grid says how long it took to make.

    Parameters
    ----------
    values, kind, n, k, query, neighbors
        The view shown first (see :func:`grid_table_from_text`).

    Returns
    -------
    dpsens.widgets.Explorer
        Displays as ipywidgets in a kernel.

    Examples
    --------
    >>> ex = grid_explorer(neighbors="bounded")
    >>> ex.lazy, len(ex.views), ex.view()[0].count("<table")
    (True, 1, 1)
    >>> ex.view(values="1, 2, x")[1].split(" Shown for")[0]
    "Cannot draw this grid: Cannot read the universe: 'x' is not a number; separate the values by commas, e.g. 1, 2, 3, 10, 11."
    """
    return explorer(
        grid_table_from_text,
        {"values": TextBox(values, placeholder="e.g. 1, 2, 3, 10, 11"),
         "kind": {"Pool (each value once)": "pool", "Domain (values reusable)": "domain"},
         "n": list(range(2, 9)), "k": list(range(1, 8)),
         "neighbors": {"add/remove (unbounded)": "unbounded", "replace (bounded)": "bounded", "both": "both"},
         "query": list(QUERIES)},
        defaults={"kind": kind, "n": n, "k": k, "neighbors": neighbors, "query": query},
        labels={"values": "universe values", "kind": "universe is a", "n": "release size n",
                "k": "group size k", "neighbors": "neighbours", "query": "query f"},
        title="The sensitivity grid of a universe you type", lazy=True)
