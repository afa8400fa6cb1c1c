"""Alt text for every figure: a description from its titles, axis labels and legend.

Chapter: *For teachers* (how figures get their descriptions); every chapter
calls :func:`enable_alt_text` through ``ds.use_style()``.

:func:`describe_figure` builds an alt text from a figure's titles, axis
labels and legend entries.  :func:`dpsens.use_style`, which every chapter
calls first, calls :func:`enable_alt_text` (importing the package changes
nothing in IPython), so *every* figure a notebook displays also gets a
``text/html`` ``<img>`` with that alt text -- the representation the website
uses.  Set ``fig.dpsens_alt = "..."`` to write the description yourself, or
end a cell with ``ds.widgets.show(fig, alt=...)``.  Write titles, axis labels
(with units) and legends: they are the alt text.
"""
from __future__ import annotations

import base64
import html

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure, FigureBase
from matplotlib.legend import Legend

from .png import figure_png

__all__ = ["describe_figure", "show", "enable_alt_text", "figure_html", "ImageWithAlt"]


def describe_figure(fig: Figure) -> str:
    """An alt text for ``fig`` from its titles, axis labels and legend entries.

    Chapter: *For teachers*.

    Parameters
    ----------
    fig : matplotlib.figure.Figure

    Returns
    -------
    str
        For example ``"Figure: Laplace mechanism. x axis: released value;
        y axis: probability density; curves: sensitivity 1, sensitivity 2."``

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1], label="identity")
    >>> _ = ax.set(title="A line", xlabel="x", ylabel="y"); _ = ax.legend()
    >>> describe_figure(fig)
    'Figure: A line. x axis: x; y axis: y; legend: identity.'
    >>> plt.close(fig)
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    parts = []
    suptitle = getattr(fig, "_suptitle", None)
    sup = suptitle.get_text() if suptitle is not None else ""
    if sup:
        parts.append(sup)
    panels = [text for text in map(_describe_axes, fig.axes) if text]
    if len(panels) > 1:
        panels = [f"panel {i + 1}: {p}" for i, p in enumerate(panels)]
    parts.extend(panels)
    for legend in fig.legends:      # a legend of the whole figure (below its panels)
        labels = _legend_labels(legend)
        if labels:
            parts.append("legend: " + ", ".join(labels))
    body = ". ".join(p.rstrip(".") for p in parts) if parts else "a figure"
    return f"Figure: {body}."


def _legend_labels(legend: Legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts() if t.get_text()]


def _describe_axes(ax: Axes) -> str:
    """One panel's part of the alt text: its title, axis labels and legend ("" for a hidden panel or one
    with nothing to say)."""
    if not ax.get_visible() or not ax.axison and not ax.get_title():
        return ""
    title = ax.get_title() or ax.get_title("left") or ax.get_title("right")
    axes_text = []
    if ax.get_xlabel():
        axes_text.append(f"x axis: {ax.get_xlabel()}")
    if ax.get_ylabel():
        axes_text.append(f"y axis: {ax.get_ylabel()}")
    legend = ax.get_legend()
    labels = _legend_labels(legend) if legend is not None else []
    if labels:
        axes_text.append("legend: " + ", ".join(labels))
    if axes_text:
        return (title + ". " if title else "") + "; ".join(axes_text)
    return title


class ImageWithAlt:
    """A displayed figure: ``image/png`` for notebooks plus ``text/html`` with alt text."""

    def __init__(self, png: bytes, alt: str):
        self.png, self.alt = png, alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        b64 = base64.b64encode(self.png).decode("ascii")
        return {
            "text/plain": f"<figure: {self.alt}>",
            "text/html": f'<img class="dpsens-figure" src="data:image/png;base64,{b64}" '
                         f'alt="{html.escape(self.alt, quote=True)}" style="max-width:100%;height:auto">',
            "image/png": b64,
        }


def show(fig: Figure, alt: str | None = None, close: bool = True) -> ImageWithAlt:
    """Display ``fig`` as an image with alt text (end a cell with ``ds.widgets.show(fig)``).

    Chapter: *For teachers*.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    alt : str, optional
        The alt text; by default :func:`describe_figure` writes one from the
        figure's titles, axis labels and legend.
    close : bool
        Close the figure so the notebook does not render it a second time.

    Returns
    -------
    object
        Displays as ``text/html`` (``<img alt=...>``, used by the website) and
        ``image/png``.
    """
    if alt is not None and not isinstance(alt, str):
        raise TypeError(f"alt must be a string or None, got {type(alt).__name__}")
    png = figure_png(fig)
    text = alt if alt else describe_figure(fig)
    if close:
        plt.close(fig)
    return ImageWithAlt(png, text)


def figure_html(fig: FigureBase) -> str | None:
    """The ``text/html`` of a displayed figure: an ``<img>`` with its alt text (None for a sub-figure).

    Chapter: *For teachers*.  The formatter :func:`enable_alt_text` registers.
    """
    if not isinstance(fig, Figure):  # a SubFigure: not displayed on its own
        return None
    alt = getattr(fig, "dpsens_alt", None) or describe_figure(fig)
    b64 = base64.b64encode(figure_png(fig)).decode("ascii")
    return (f'<img class="dpsens-figure" src="data:image/png;base64,{b64}" '
            f'alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto">')


def enable_alt_text() -> bool:
    """Give every matplotlib figure a notebook shows an alt text (on the website too).

    Chapter: *For teachers*.

    Registers an IPython ``text/html`` formatter for figures: besides the usual
    ``image/png``, a displayed figure gets an ``<img>`` whose alt text is
    ``fig.dpsens_alt`` if set, else :func:`describe_figure` (title, axis
    labels, legend).  myst-nb prefers ``text/html`` on the website, so every
    figure there carries a description.  Called by :func:`dpsens.use_style`
    (the first cell of every chapter); harmless to call again.

    Returns
    -------
    bool
        True if a formatter was registered (running inside IPython).
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    ip = get_ipython()
    if ip is None:
        return False
    # Registered for FigureBase, not Figure: matplotlib's inline backend pops
    # every formatter registered for Figure itself when it (re)configures; the
    # lookup follows the class hierarchy, so Figure still finds this one.
    ip.display_formatter.formatters["text/html"].for_type(FigureBase, figure_html)
    return True
