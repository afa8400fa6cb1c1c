"""A figure as the reader sees it: its smallest text, titles that fit, a compact PNG.

Chapter: every chapter's figures (each is shown as the PNG :func:`figure_png`
renders); *For teachers* (the browser test of the website reads the smallest
text that :func:`figure_png` records in every PNG, and the explorers of every
chapter are made of such PNGs).

:func:`smallest_text_pt` measures the smallest text a reader sees in a
figure, :func:`fit_titles` wraps titles wider than their room, and
:func:`figure_png` renders a figure to a palette PNG that carries its smallest
text in image pixels (:data:`MIN_TEXT_KEY`), so the site's browser test can
check that, as displayed, figure text is at least 9 px high on a desktop and
on a phone.  The lowest layer of the display code: it imports only
matplotlib and Pillow (:mod:`dpsens.figures.style` re-exports these names).
"""
from __future__ import annotations

import io
import textwrap

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image
from PIL.PngImagePlugin import PngInfo

__all__ = ["MIN_TEXT_KEY", "smallest_text_pt", "fit_titles", "figure_png"]


def smallest_text_pt(fig: Figure) -> float | None:
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
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else None
    if renderer is None:  # pragma: no cover - every canvas the book uses is Agg-based
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
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
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if not drawn:
        canvas.draw()
    renderer = canvas.get_renderer()
    suptitle = getattr(fig, "_suptitle", None)
    titles = [(suptitle, fig.bbox.width * 0.98)] if suptitle is not None else []
    for ax in fig.axes:
        if ax.get_visible():
            titles += [(t, ax.bbox.width) for t in (ax.title, ax._left_title, ax._right_title)]  # type: ignore[attr-defined]
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
