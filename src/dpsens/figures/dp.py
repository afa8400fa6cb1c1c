"""Figures of the Laplace mechanism and of differential privacy itself.

Chapter: *Introduction* (:func:`plot_laplace_mechanism`, why sensitivity
matters) and *Differential privacy in one chapter* (part "Foundations": the
densities on two neighbours and their log-ratio, group privacy, the privacy
loss random variable).

The computations come from :mod:`dpsens.dp` and
:func:`dpsens.mechanisms.laplace_pdf`.  Symbols follow the book's *Notation*
page: ``b`` the Laplace scale, ``ε`` the privacy parameter, ``k`` the group
size.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import dp
from .._validate import as_int, as_positive
from ..mechanisms.laplace import laplace_pdf
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_laplace_mechanism", "plot_neighboring_laplace", "plot_group_log_ratios", "plot_privacy_loss"]


def plot_laplace_mechanism(true_value: float = 0.0, sensitivities: Sequence[float] = (1.0, 2.0, 5.0),
                           epsilon: float = 1.0, width: float | None = None) -> Figure:
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
    ax.set(title=f"Laplace mechanism, ε = {epsilon:g}:\nnoise grows with sensitivity",
           xlabel="released value", ylabel="probability density")
    ax.legend(loc="upper right")
    return fig


def plot_neighboring_laplace(value: float, neighbor_value: float, scale: float, width: float | None = None) -> Figure:
    """The two output densities of the Laplace mechanism on neighbours, and their log-ratio.

    Chapter: *Differential privacy in one chapter*.

    Top: densities of ``f(x) + Lap(b)`` and ``f(x') + Lap(b)``.  Bottom: the
    log-ratio of the two (the privacy loss at each output) between the lines
    ``±|f(x) - f(x')|/b``, which it never crosses.

    Parameters
    ----------
    value, neighbor_value : float
        The exact answers ``f(x)`` and ``f(x')``.
    scale : float
        The Laplace scale ``b > 0``.
    width : float, optional
        Half-width of the output range around the two answers; six scales by default.
    """
    scale = as_positive(scale, "scale")
    width = 6 * scale if width is None else as_positive(width, "width")
    lo, hi = min(value, neighbor_value) - width, max(value, neighbor_value) + width
    z = np.linspace(lo, hi, 1201)
    bound = abs(value - neighbor_value) / scale
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 6.4), sharex=True)
    top.plot(z, laplace_pdf(z - value, scale), label=f"output on x: f(x) = {value:g}", **line_style(0))
    top.plot(z, laplace_pdf(z - neighbor_value, scale), label=f"output on x′: f(x′) = {neighbor_value:g}",
             **line_style(1))
    top.set(ylabel="probability density", title=f"Laplace mechanism on two neighbours, b = {scale:g}")
    top.legend(loc="upper left", fontsize=10)
    bottom.plot(z, dp.laplace_log_ratio(z, value, neighbor_value, scale), color=PALETTE[2],
                label="ln p(z) / p′(z)  (privacy loss at z)")
    for sign in (1, -1):
        bottom.axhline(sign * bound, color=PALETTE[-1], lw=1, ls="--",
                       label=f"±ε = ±{bound:g}" if sign == 1 else None)
    bottom.set(xlabel="released value z", ylabel="log-ratio of densities", ylim=(-1.6 * bound - 0.1, 1.6 * bound + 0.1),
               title="Their log-ratio never leaves [−ε, ε]")
    bottom.legend(loc="upper right")
    return fig


def plot_group_log_ratios(value: float, scale: float, sensitivity: float, group_sizes: Sequence[int] = (1, 2, 3),
                          width: float | None = None) -> Figure:
    """Log-ratio of the output densities on ``x`` and on a dataset ``k`` records away, for several ``k``.

    Chapter: *Differential privacy in one chapter* (group privacy).

    The dataset ``k`` records away has answer ``f(x) + k·Δ`` at worst, with
    ``Δ = sensitivity``; its curve stays within ``±kε``, ``ε = Δ/b``.
    """
    scale = as_positive(scale, "scale")
    sensitivity = as_positive(sensitivity, "sensitivity")
    ks = [as_int(k, "group_sizes", minimum=1) for k in group_sizes]
    if not ks:
        raise ValueError("group_sizes must hold at least one group size k >= 1")
    eps = sensitivity / scale
    width = 6 * scale if width is None else as_positive(width, "width")
    z = np.linspace(value - width, value + max(ks) * sensitivity + width, 1201)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.2))
    for i, k in enumerate(ks):
        style = line_style(i)
        ax.plot(z, dp.laplace_log_ratio(z, value, value + k * sensitivity, scale),
                label=f"k = {k} records changed: within ±{k * eps:g}", **style)
        ax.axhline(k * eps, color=style["color"], lw=0.8, ls=":")
        ax.axhline(-k * eps, color=style["color"], lw=0.8, ls=":")
    ax.set(xlabel="released value z", ylabel="ln p(z) / p′(z)",
           title=f"Group privacy: k records cost kε (here ε = {eps:g})")
    legend_below(fig)
    return fig


def plot_privacy_loss(samples: ArrayLike, value: float, neighbor_value: float, scale: float) -> Figure:
    """Empirical distribution function of privacy-loss draws against the exact one.

    Chapter: *Differential privacy in one chapter* (the privacy loss random variable).
    """
    samples = np.sort(np.asarray(samples, dtype=float))
    if samples.size == 0:
        raise ValueError("samples must not be empty")
    scale = as_positive(scale, "scale")
    a = abs(value - neighbor_value) / scale
    grid = np.linspace(-a - 0.25 * max(a, 0.4), a + 0.25 * max(a, 0.4), 801)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.2))
    ax.plot(grid, dp.privacy_loss_cdf(grid, value, neighbor_value, scale), label="exact P(L ≤ value)",
            **line_style(0))
    ax.step(samples, np.arange(1, samples.size + 1) / samples.size, where="post", color=PALETTE[1],
            ls="--", label=f"{samples.size:,} simulated releases")
    mean = dp.expected_privacy_loss(value, neighbor_value, scale)
    ax.axvline(mean, color=PALETTE[2], lw=1, ls="-.", label="mean E[L] (an exercise asks for its value)")
    for sign in (1, -1):
        ax.axvline(sign * a, color=PALETTE[-1], lw=1, ls=":", label=f"±ε = ±{a:g}" if sign == 1 else None)
    ax.set(xlabel="value of the privacy loss L", ylabel="P(L ≤ value)",
           title="Privacy loss of the Laplace mechanism:\nnever above ε")
    ax.legend(loc="upper left")
    return fig

