"""Text drawn as glyph outlines: fast, crisp figures with a great deal of text (the sensitivity grid).

Chapter: *The median visualisation grid* (its grid figure, which the live
explorer redraws on every change).

Matplotlib rasterises a ``Text`` glyph by glyph in Python (about 0.1 ms a
glyph, spaces included), and a grid holds about a thousand of them -- most of
a redraw.  :class:`Ink` instead collects the *outlines* of the glyphs: each
glyph's path is computed once per process and cached, a figure places copies
of them and draws all of its text as one path (one draw call).  The text stays
vector (crisp at any dpi, in PNG, SVG and PDF).  Monospaced text sits on a
grid of character slots :data:`CHAR_IN` wide; a figure that draws text this
way lists the sizes in its ``dpsens_text_pt`` attribute, so that
:func:`dpsens.widgets.png.smallest_text_pt` still sees them.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

__all__ = ["MONO_ADVANCE", "CHAR_IN", "MONO_PT", "Ink"]

#: Width of a DejaVu Sans Mono glyph, in em.
MONO_ADVANCE = 0.602
#: Width of one character slot of monospaced text, in inches.
CHAR_IN = 0.06
#: Size of the monospaced font, in points, that makes a glyph one slot wide (about 7.18).
MONO_PT = CHAR_IN * 72 / MONO_ADVANCE

# glyph and string outlines, computed once per process
_GLYPHS: dict = {}
_STRINGS: dict = {}


def _glyph(ch: str, bold: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """Outline of one character of the cell font (points, origin on the baseline), cached."""
    key = (ch, bold)
    if key not in _GLYPHS:
        prop = FontProperties(family=["DejaVu Sans Mono", "DejaVu Sans"], size=MONO_PT,
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


class Ink:
    """Collects text outlines in figure inches; :meth:`artist` draws them as one path."""

    def __init__(self):
        self.verts, self.codes = [], []

    def mono(self, x: float, y: float, s: str, ha: str = "center", bold_from: int | None = None) -> None:
        """Monospaced ``s`` with its baseline at height ``y`` (inches), aligned at ``x``.

        Characters from index ``bold_from`` on are bold.
        """
        step = CHAR_IN * 72
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

    def artist(self, fig: Figure) -> PathPatch:
        path = Path(np.concatenate(self.verts), np.concatenate(self.codes))
        return PathPatch(path, transform=Affine2D().scale(1 / 72) + fig.dpi_scale_trans,
                         facecolor="black", edgecolor="none", linewidth=0, zorder=3)
