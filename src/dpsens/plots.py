"""One plotting style for the whole book, and the figures chapters share.

Chapter: every chapter calls :func:`use_style` once; the figures are
explained where they first appear.

Colours come from the Okabe--Ito palette, which stays distinguishable for the
common forms of colour blindness.  Every figure function takes plain
arguments, returns a :class:`matplotlib.figure.Figure` with a title, labelled
axes and a legend, and draws nothing else -- widgets wrap these functions.
"""
from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from cycler import cycler

from ._validate import as_positive

#: Okabe--Ito colour-blind-safe palette (black last: it is for reference lines).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]

#: Line styles cycled alongside the colours, so lines differ in print too.
LINESTYLES = ["-", "--", "-.", ":"]

STYLE = {
    "figure.figsize": (8.0, 4.5),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.constrained_layout.use": True,
    "axes.prop_cycle": cycler(color=PALETTE[:7]),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "font.size": 10,
    "image.cmap": "viridis",
}


def use_style() -> None:
    """Apply the book's matplotlib style (call once at the top of a chapter).

    Chapter: *Introduction*.
    """
    mpl.rcParams.update(STYLE)


def line_style(i: int) -> dict:
    """Colour and line style for the ``i``-th series of a figure."""
    return {"color": PALETTE[i % 7], "linestyle": LINESTYLES[(i // 7 + i) % len(LINESTYLES)]}


def laplace_pdf(t, scale: float) -> np.ndarray:
    """Density of the Laplace distribution with location 0: ``exp(-|t|/b) / (2b)``.

    Chapter: *Introduction*.
    """
    scale = as_positive(scale, "scale")
    t = np.asarray(t, dtype=float)
    return np.exp(-np.abs(t) / scale) / (2 * scale)


def plot_laplace_mechanism(true_value: float = 0.0, sensitivities=(1.0, 2.0, 5.0), epsilon: float = 1.0,
                           width: float | None = None):
    """Densities of ``true_value + Lap(sensitivity / epsilon)`` for several sensitivities.

    Chapter: *Introduction* -- the one figure that says why sensitivity
    matters: noise scale grows in proportion to it.

    Parameters
    ----------
    true_value : float
        The exact answer the noise is centred on.
    sensitivities : sequence of positive float
        One curve per sensitivity.
    epsilon : float
        Privacy parameter, > 0.
    width : float, optional
        Half-width of the x range; by default six times the largest scale.

    Returns
    -------
    matplotlib.figure.Figure
    """
    epsilon = as_positive(epsilon, "epsilon")
    sens = [as_positive(s, "sensitivities") for s in np.atleast_1d(sensitivities)]
    if not sens:
        raise ValueError("sensitivities must hold at least one positive number")
    width = 6 * max(sens) / epsilon if width is None else as_positive(width, "width")
    t = np.linspace(true_value - width, true_value + width, 801)
    fig, ax = plt.subplots()
    for i, s in enumerate(sens):
        b = s / epsilon
        ax.plot(t, laplace_pdf(t - true_value, b), label=f"sensitivity {s:g} (scale b = {b:g})", **line_style(i))
    ax.axvline(true_value, color=PALETTE[-1], lw=1, alpha=0.6, label="true answer")
    ax.set(title=f"Laplace mechanism, ε = {epsilon:g}: noise grows with sensitivity",
           xlabel="released value", ylabel="probability density")
    ax.legend()
    return fig
