"""The book's one figure style: palette, line styles, matplotlib settings, legibility, PNG rendering.

Chapter: every chapter (each calls :func:`use_style`, re-exported as
``ds.use_style``, once at the top; *Neighbouring datasets* draws with
:func:`line_style`); *For teachers* (the browser test of the website reads
the smallest text that :func:`figure_png` records in every PNG).

Colours come from the Okabe--Ito palette, which stays distinguishable for the
common forms of colour blindness, and every series also differs by line
style, so lines differ in print too.  Figures are at most
:data:`MAX_WIDTH_IN` inches wide, so that their smallest text (10 pt) is
still 9 px high on a phone (:data:`STYLE` explains the arithmetic);
:func:`legend_below` and :func:`fit_titles` keep legends off the data and
titles inside so narrow a figure.  :func:`smallest_text_pt` measures the
smallest text a reader sees in a figure and :func:`figure_png` renders a
figure to a compact PNG that carries it (:data:`MIN_TEXT_KEY`), so the site's
browser test can check that, as displayed, figure text is at least 9 px high
on a desktop and on a phone.
"""
from __future__ import annotations

import io

import matplotlib as mpl
from cycler import cycler
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from .._validate import as_int

__all__ = ["PALETTE", "LINESTYLES", "MAX_WIDTH_IN", "BOXED_WIDTH_IN", "MIN_FONT_PT", "STYLE", "MIN_TEXT_KEY", "use_style",
           "line_style", "legend_below", "fit_titles", "smallest_text_pt", "figure_png"]


#: Okabe--Ito colour-blind-safe palette (black last: it is for reference lines).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]

#: Line styles cycled alongside the colours, so lines differ in print too.
LINESTYLES = ["-", "--", "-.", ":"]

#: Widest figure, in inches, whose smallest text stays legible on a phone.
#:
#: Text of ``p`` points in a figure ``W`` inches wide, shown ``C`` CSS pixels
#: wide, is ``p * C / (72 * W)`` pixels high, whatever the dpi.  A phone
#: (390 px) gives a figure a column of at most 358 px, so 10 pt text is at
#: least 9 px high there when ``W <= 10 * 358 / (72 * 9) = 5.5`` in; 5.0 in
#: leaves room for an output area's padding (text 9.9 px at 358 px, 9 px
#: down to a 324 px column).
MAX_WIDTH_IN = 5.0

#: Width, in inches, of a figure shown inside a box (a "Notes on the source"
#: dropdown, an admonition): the box's border and padding leave it about
#: 320 px on a phone, where 10 pt text needs ``W <= 10 * 320 / (72 * 9)``,
#: about 4.9 in; 4.5 in gives 9.9 px.
BOXED_WIDTH_IN = 4.5

#: Smallest font size, in points, of any text in a figure of the book.
MIN_FONT_PT = 10

#: The matplotlib settings :func:`use_style` applies.
#:
#: Figures are :data:`MAX_WIDTH_IN` inches wide by default.  The dpi only
#: sets the size on a desktop: at 120 dpi a 5-in figure is 600 px, shown at
#: its natural size in the 688 px column of a 1280 px window, where 10 pt
#: text is 16.7 px high -- about the size of the body text around it.
STYLE = {
    "figure.figsize": (MAX_WIDTH_IN, 3.6),
    "figure.dpi": 120,
    "savefig.dpi": 120,
    "figure.constrained_layout.use": True,
    "axes.prop_cycle": cycler(color=PALETTE[:7]),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "figure.titlesize": 12,
    "legend.fontsize": MIN_FONT_PT,
    "legend.frameon": False,
    "font.size": MIN_FONT_PT,
    "xtick.labelsize": MIN_FONT_PT,
    "ytick.labelsize": MIN_FONT_PT,
    "image.cmap": "viridis",
}


def smallest_text_pt(fig) -> float | None:
    """Font size, in points, of the smallest text a reader sees in ``fig``.

    Chapter: every chapter's figures (the browser test checks that, as
    displayed on the page, this text is at least 9 px high).

    Looks at every visible, non-empty text artist that lies (at least partly)
    inside the figure once it is drawn -- titles, axis and tick labels,
    legends, annotations -- and at the sizes a figure lists in its
    ``dpsens_text_pt`` attribute (text drawn as paths, as the sensitivity
    grid does).  Draws the figure if it has not been drawn yet.

    Parameters
    ----------
    fig : matplotlib.figure.Figure

    Returns
    -------
    float or None
        The smallest size in points, or None for a figure without text.
    """
    from matplotlib.text import Text

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else None
    if renderer is None:  # pragma: no cover - every canvas the book uses is Agg-based
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
    bbox = fig.bbox
    sizes = [float(s) for s in getattr(fig, "dpsens_text_pt", ())]
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        try:
            box = t.get_window_extent(renderer)
        except (RuntimeError, ValueError):  # pragma: no cover - text without a position
            continue
        if box.width <= 0 or box.x1 < bbox.x0 or box.x0 > bbox.x1 or box.y1 < bbox.y0 or box.y0 > bbox.y1:
            continue
        sizes.append(float(t.get_fontsize()))
    return min(sizes) if sizes else None


def use_style() -> None:
    """Apply the book's matplotlib style and, in IPython, give displayed figures an alt text.

    Chapter: *Introduction* (every chapter calls it once, at the top).

    Besides the matplotlib style, registers the IPython formatter of
    :func:`dpsens.widgets.enable_alt_text`, so that every figure a notebook
    displays carries a description on the website.  ``import dpsens`` alone
    changes nothing outside the package.
    """
    mpl.rcParams.update(STYLE)
    from ..widgets import enable_alt_text   # lazy: widgets imports the plotting stack

    enable_alt_text()


def line_style(i: int) -> dict:
    """Colour and line style for the ``i``-th series of a figure (``i >= 0``).

    Chapter: every chapter's figures (the book's one shared style).
    """
    i = as_int(i, "i", minimum=0)
    return {"color": PALETTE[i % 7], "linestyle": LINESTYLES[(i // 7 + i) % len(LINESTYLES)]}


def legend_below(fig: Figure, axes=None, ncols: int = 1, **kwargs):
    """One legend for ``fig``, below its axes, where it cannot cover any data.

    Chapter: every chapter's figures (a narrow figure has no room for a
    legend inside its axes).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure with constrained layout (the book's style), which makes room
        for the legend under the axes.
    axes : Axes or sequence of Axes, optional
        Whose labelled artists to list (default: every axes of ``fig``); a
        label seen twice is listed once.
    ncols : int
        Columns of the legend.
    **kwargs
        Passed on to :meth:`matplotlib.figure.Figure.legend`.

    Returns
    -------
    matplotlib.legend.Legend
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    ncols = as_int(ncols, "ncols", minimum=1)
    if axes is None:
        axes = fig.axes
    elif not isinstance(axes, (list, tuple)):
        axes = [axes]
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    return fig.legend(handles, labels, loc="outside lower center", ncols=ncols, **kwargs)


def fit_titles(fig: Figure, drawn: bool = False) -> bool:
    """Wrap every title and x-axis label of ``fig`` that is wider than its room, so that none is clipped.

    Chapter: every chapter's figures (:func:`figure_png` calls it before
    rendering).

    The figure's title may take the figure's width, an axes title its axes'
    width, an x-axis label (centred under its axes) the width that keeps it
    inside the figure.  A text too wide is broken between words into lines
    short enough (each of its lines separately).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    drawn : bool
        Whether ``fig`` has just been drawn (its text positions are current);
        otherwise it is drawn first.

    Returns
    -------
    bool
        Whether a title changed (the figure must be drawn again).
    """
    import textwrap

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if not drawn:
        canvas.draw()
    renderer = canvas.get_renderer()
    titles = [(fig._suptitle, fig.bbox.width * 0.98)] if fig._suptitle is not None else []
    for ax in fig.axes:
        if ax.get_visible():
            titles += [(t, ax.bbox.width) for t in (ax.title, ax._left_title, ax._right_title)]
            centre = (ax.bbox.x0 + ax.bbox.x1) / 2
            titles.append((ax.xaxis.label, 2 * min(centre - fig.bbox.x0, fig.bbox.x1 - centre) * 0.98))
    changed = False
    for text, room in titles:
        content = text.get_text()
        if not content.strip() or not text.get_visible() or "$" in content:
            continue
        width = text.get_window_extent(renderer).width
        if width <= room:
            continue
        longest = max(len(line) for line in content.split("\n"))
        chars = max(12, int(longest * room / width) - 1)
        text.set_text("\n".join(textwrap.fill(line, chars) for line in content.split("\n")))
        changed = True
    return changed


#: PNG text key of :func:`figure_png`: the smallest text of the figure, in image pixels.
MIN_TEXT_KEY = "dpsens:min-text-px"


def figure_png(fig: Figure, dpi: float | None = None) -> bytes:
    """Render ``fig`` to compact PNG bytes (256-colour palette, white background).

    The PNG carries a text chunk :data:`MIN_TEXT_KEY`: the height of the
    figure's smallest text (:func:`smallest_text_pt`) in pixels
    of the image, which the browser test scales by the displayed width.
    Titles wider than their room are wrapped first (:func:`fit_titles`).

    Drawing the figure dominates the cost; the palette PNG is about a third
    of the size of matplotlib's RGBA PNG and indistinguishable for line and
    bar charts, which keeps pages with many precomputed views light.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    old_dpi = fig.dpi
    if dpi is not None:
        fig.set_dpi(dpi)
    try:
        # draw on the figure's own Agg canvas when it has one (figures pyplot
        # manages stay usable), else on a fresh Agg canvas
        canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
        canvas.draw()
        if fit_titles(fig, drawn=True):
            canvas.draw()
        rgba = Image.frombuffer("RGBA", canvas.get_width_height(physical=True),
                                bytes(canvas.buffer_rgba()), "raw", "RGBA", 0, 1)
        # the smallest text, in pixels of this image: the browser test scales it
        # by the displayed width to check legibility on the page
        smallest = smallest_text_pt(fig)
        info = PngInfo()
        if smallest is not None:
            info.add_text(MIN_TEXT_KEY, f"{smallest * fig.dpi / 72:.3f}")
    finally:
        if dpi is not None:
            fig.set_dpi(old_dpi)
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(white, rgba).convert("RGB")
    buf = io.BytesIO()
    rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buf, format="png", compress_level=6,
                                                                     pnginfo=info)
    return buf.getvalue()
