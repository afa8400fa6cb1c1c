"""The book's one figure style: palette, line styles, matplotlib settings, figure sizes.

Chapter: every chapter (each calls :func:`use_style`, re-exported as
``ds.use_style``, once at the top; *Neighbouring datasets* draws with
:func:`line_style`); *For teachers* (the browser test of the website reads
the smallest text that :func:`dpsens.widgets.png.figure_png` records in every PNG).

Colours come from the Okabe--Ito palette, which stays distinguishable for the
common forms of colour blindness, and every series also differs by line
style, so lines differ in print too.  Figures are at most
:data:`MAX_WIDTH_IN` inches wide, so that their smallest text (10 pt) is
still 9 px high on a phone (:data:`STYLE` explains the arithmetic);
:func:`legend_below` and :func:`dpsens.widgets.png.fit_titles` keep legends off the data and
titles inside so narrow a figure.  The smallest text a reader sees in a
figure (``smallest_text_pt``), ``fit_titles`` and ``figure_png`` (a compact
PNG that records that text, ``MIN_TEXT_KEY``) live in
:mod:`dpsens.widgets.png`, the display layer below the figures.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend

from .._validate import as_int
from ..widgets.alt_text import enable_alt_text

__all__ = ["PALETTE", "LINESTYLES", "MAX_WIDTH_IN", "BOXED_WIDTH_IN", "MIN_FONT_PT", "STYLE", "use_style",
           "line_style", "legend_below"]


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
STYLE: dict[Any, Any] = {
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


def use_style() -> None:
    """Apply the book's matplotlib style and, in IPython, give displayed figures an alt text.

    Chapter: *Introduction* (every chapter calls it once, at the top).

    Besides the matplotlib style, registers the IPython formatter of
    :func:`dpsens.widgets.alt_text.enable_alt_text`, so that every figure a notebook
    displays carries a description on the website.  ``import dpsens`` alone
    changes nothing outside the package.
    """
    mpl.rcParams.update(STYLE)
    enable_alt_text()


def line_style(i: int) -> dict:
    """Colour and line style for the ``i``-th series of a figure (``i >= 0``).

    Chapter: every chapter's figures (the book's one shared style).
    """
    i = as_int(i, "i", minimum=0)
    return {"color": PALETTE[i % 7], "linestyle": LINESTYLES[(i // 7 + i) % len(LINESTYLES)]}


def legend_below(fig: Figure, axes: Axes | Sequence[Axes] | None = None, ncols: int = 1,
                 **kwargs: Any) -> Legend:
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
        panels = list(fig.axes)
    elif isinstance(axes, Axes):
        panels = [axes]
    else:
        panels = list(axes)
    handles, labels = [], []
    for ax in panels:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    return fig.legend(handles, labels, loc="outside lower center", ncols=ncols, **kwargs)

