"""Figures of smooth sensitivity: the curve e^{-βt} A^{(t)}(x), errors against ε, the explorer, the leak closed.

Chapter: *Smooth sensitivity*.

The sensitivities come from :mod:`dpsens.smooth`, the privacy loss of two
Laplace releases from :func:`dpsens.dp.laplace_privacy_loss`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import smooth as sm
from ..data import N_AGES
from ..dp import laplace_privacy_loss
from ..relation import Relation, as_relation
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_smooth_curve", "plot_error_vs_epsilon", "plot_smooth_explorer", "plot_leak_closed"]


def plot_smooth_curve(ks: ArrayLike, curves: dict, title: str, ylabel: str = r"$e^{-\beta t} A^{(t)}(x)$",
                      logy: bool = True, marks: dict | None = None, zero_floor: float | None = None) -> Figure:
    """``e^{-βt} A^{(t)}(x)`` (or any curves) against the distance t, with optional marked maxima.

    Chapter: *Smooth sensitivity*.

    Parameters
    ----------
    ks : array_like
        Distances (x axis).
    curves : dict
        ``{label: values at ks}``.
    marks : dict, optional
        ``{label: (t, value)}`` points to mark (the maximum, say).
    zero_floor : float, optional
        With ``logy``, draw zeros too: the axis is linear below this value
        and logarithmic above it (matplotlib's ``symlog``), so a stretch
        where the curve is 0 -- the median's plateau -- shows as a flat line
        at the bottom instead of a gap.
    """
    ks = np.asarray(ks)
    if zero_floor is not None and not (float(zero_floor) > 0 and math.isfinite(float(zero_floor))):
        raise ValueError(f"zero_floor must be a finite number > 0 or None, got {zero_floor!r}")
    fig, ax = plt.subplots()
    for i, (label, v) in enumerate(curves.items()):
        v = np.asarray(v, dtype=float)
        if logy and zero_floor is None:
            v = np.where(v > 0, v, np.nan)
        ax.plot(ks, v, label=label, **line_style(i))
    for j, (label, (k, v)) in enumerate((marks or {}).items()):
        ax.plot([k], [v], marker="o", ls="none", color=PALETTE[(j + len(curves)) % 7], label=label)
    if logy and zero_floor is not None:
        ax.set_yscale("symlog", linthresh=float(zero_floor), linscale=0.5)
        ax.set_ylim(bottom=0)
    elif logy:
        ax.set_yscale("log")
    ax.set_xlabel("distance t (records changed)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    rows = len(curves) + len(marks or {})
    fig.set_size_inches(MAX_WIDTH_IN, 3.4 + 0.2 * rows)
    legend_below(fig)
    return fig


def plot_error_vs_epsilon(epsilons: ArrayLike, errors: dict, title: str, ylabel: str) -> Figure:
    """Error of several mechanisms against ε on log-log axes (``{label: errors at epsilons}``).

    Chapter: *Smooth sensitivity*.
    """
    fig, ax = plt.subplots()
    for i, (label, v) in enumerate(errors.items()):
        ax.plot(epsilons, v, marker="o", label=label, **line_style(i))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("privacy budget ε")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.set_size_inches(MAX_WIDTH_IN, 3.4 + 0.2 * len(errors))
    legend_below(fig)
    return fig


def plot_smooth_explorer(data: ArrayLike, epsilon: float = 1.0, delta_exp: int = 2, sample_size: int = N_AGES,
                         query: str = "median", lower: float = 0.0, upper: float = 100.0,
                         neighbors: Relation | str = Relation.BOUNDED, seed: int = 0, n_points: int = 160) -> Figure:
    """The smooth-sensitivity curve and the resulting noise for a subsample of ``data``.

    Chapter: *Smooth sensitivity* (the interactive explorer).

    Top: ``e^{-βk} A(k)`` with ``β = ε / (2 ln(2/δ))`` and ``δ = 1/n^delta_exp``
    (n the sample size), its maximum ``S`` marked.  Bottom: the density of the
    released value's noise ``Lap(2S/ε)``, with the global-sensitivity Laplace
    noise ``Lap((upper-lower)/ε)`` for comparison.

    Parameters
    ----------
    data : array_like
        The full data (e.g. the Adult ages); a seeded subsample of
        ``sample_size`` records is used.
    epsilon : float
    delta_exp : int
        δ = 1/n^delta_exp: allowed because n is public under the bounded
        relation; any other ``neighbors`` raises ValueError.
    sample_size : int
    query, lower, upper
        As in :func:`dpsens.smooth_sensitivity`.
    neighbors : Relation or {"bounded"}
        Only the bounded relation (δ is computed from n).
    seed : int
        Seed of the subsample.
    n_points : int
        Number of distances drawn on the curve.
    """
    neighbors = as_relation(neighbors)
    if neighbors is not Relation.BOUNDED:
        raise ValueError(f"neighbors={neighbors.value!r}: this explorer sets delta = 1/n^delta_exp from the size n of the "
                         f"data, which is public only for neighbors='bounded' (records replaced); under "
                         f"additions and removals n is private and delta must not depend on it")
    data = np.asarray(data, dtype=float)
    rng = np.random.default_rng(seed)
    x = data if sample_size >= len(data) else rng.choice(data, size=sample_size, replace=False)
    n = len(x)
    delta = float(n) ** (-delta_exp)
    beta = epsilon / (2 * math.log(2 / delta))
    s, t_star = sm.smooth_sensitivity_argmax(x, query, beta, lower, upper, neighbors)
    k_max = int(min(n + 2, max(3 * t_star, math.ceil(math.log(max(upper - lower, 1e-300) / max(s, 1e-300)) / beta)
                               if s > 0 else n + 2, 10)))
    ks = np.unique(np.concatenate((np.linspace(0, k_max, n_points).astype(int), [t_star])))
    a = np.asarray(sm.ls_at_distance(x, query, ks, lower, upper, neighbors))
    w = np.exp(-beta * ks) * a
    # the axis spans what matters: from 1/1000 of the smallest of S and the
    # first positive A(k) up to the largest A(k); far out e^{-βk} A(k) would
    # run down to 1e-300 and squash everything else
    positive = a[a > 0]
    top = float(positive.max()) if positive.size else 1.0
    floor = min(s if s > 0 else top, float(positive.min()) if positive.size else top) / 1e3
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.4))
    ax1.plot(ks, np.where(a > 0, a, np.nan), label="$A^{(t)}(x)$ (0 not drawn)", **line_style(1))
    ax1.plot(ks, np.where(w >= floor, w, np.nan), label=r"$e^{-\beta t} A^{(t)}(x)$", **line_style(0))
    if s > 0:
        ax1.plot([t_star], [s], "o", color=PALETTE[3], label=f"$S_\\beta$ = {s:.3g} at t = {t_star}")
    ax1.set_yscale("log")
    ax1.set_ylim(floor, top * 3)
    ax1.set_xlim(0, max(int(ks.max()), 1))            # from distance 0: the plateau where A = 0 shows
    ax1.set_xlabel("distance t (records changed)")
    ax1.set_ylabel(f"sensitivity of the {query} (years)")
    ax1.set_title(f"ε = {epsilon:g}, δ = 1/n^{delta_exp}, n = {n:,}")
    ax1.legend()
    gs_scale = (upper - lower) / epsilon
    ss_scale = 2 * s / epsilon
    gs_density = 1 / (2 * gs_scale)
    if ss_scale > 0:
        # four smooth scales either side: the smooth noise's whole shape, however small it is
        z = np.linspace(-4 * ss_scale, 4 * ss_scale, 401)
        ss_density = np.exp(-np.abs(z) / ss_scale) / (2 * ss_scale)
        ax2.plot(z, ss_density, label=f"smooth: Lap(2$S_\\beta$/ε), scale {ss_scale:.3g}", **line_style(0))
        low = min(float(ss_density.min()), gs_density * np.exp(-4 * ss_scale / gs_scale)) / 3
        high = max(float(ss_density.max()), gs_density) * 100
    else:
        z = np.linspace(-1.0, 1.0, 401)
        ax2.axvline(0.0, label="smooth: $S_\\beta$ = 0, no noise", **line_style(0))
        low, high = gs_density / 3, gs_density * 3
    ax2.plot(z, np.exp(-np.abs(z) / gs_scale) / (2 * gs_scale), label=f"global: Lap({gs_scale:.3g})",
             **line_style(2))
    ax2.set_yscale("log")
    ax2.set_ylim(low, high)
    ax2.locator_params(axis="x", nbins=5)           # tick labels such as -0.0004 must not run together
    ax2.set_xlabel("noise added to the release (years)")
    ax2.set_ylabel("density (log scale)")
    ax2.set_title(f"noise, ε = {epsilon:g}, δ = 1/n^{delta_exp}")
    ax2.legend(loc="upper right")
    fig.suptitle(f"Smooth sensitivity of the {query} of {n} ages")
    return fig


def plot_leak_closed(locs: Sequence[float], local_scales: Sequence[float], smooth_scales: Sequence[float],
                     labels: Sequence[str], epsilon: float, xlim: tuple[float, float] = (-30.0, 35.0),
                     title: str | None = None) -> Figure:
    """Local against smooth-sensitivity noise on one pair of neighbours: densities and privacy loss.

    Chapter: *Smooth sensitivity* (the pair the chapter *Why local
    sensitivity leaks* attacks).

    Parameters
    ----------
    locs : pair of float
        ``f(x)`` and ``f(x')``.
    local_scales, smooth_scales : pair of float
        Laplace scales on ``x`` and ``x'``: ``LS/ε`` and ``2 S_β/ε``.
    labels : pair of str
        Names of the two datasets.
    epsilon : float
        The promised ε (the band ``|L| <= ε`` is shaded).
    xlim : pair of float
        Range of released values.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: the four release densities (log scale; local dashed,
        smooth solid, one colour per dataset), and the privacy loss ``L(z)``
        of each mechanism against the band ``[-ε, ε]``; one legend below.
    """
    epsilon = float(epsilon)
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    t = np.linspace(float(xlim[0]), float(xlim[1]), 2001)
    fig, axes = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.4), sharex=True)
    for name, scales, ls in (("local", local_scales, "--"), ("smooth", smooth_scales, "-")):
        for i, (loc, b, lab) in enumerate(zip(locs, scales, labels, strict=True)):
            dens = np.exp(-np.abs(t - loc) / b) / (2 * b)
            axes[0].plot(t, dens, lw=2, color=PALETTE[i], linestyle=ls,
                         label=f"{lab}, {name}: Lap({b:.3g})")
    axes[0].set_yscale("log")
    axes[0].set(ylim=(1e-12, 2), ylabel="probability density (log)",
                title="released value: median + Laplace noise")
    axes[1].axhspan(-epsilon, epsilon, color=PALETTE[2], alpha=0.15, label=f"|L| ≤ ε = {epsilon:g}")
    for j, (name, scales, ls) in enumerate((("local sensitivity", local_scales, "--"),
                                            ("smooth sensitivity", smooth_scales, "-"))):
        axes[1].plot(t, laplace_privacy_loss(t, locs, scales), lw=2, linestyle=ls, color=PALETTE[3 + j],
                     label=f"noise scaled to {name}")
    axes[1].set(ylim=(-4 * epsilon, 8 * epsilon), xlim=xlim, xlabel="released value z",
                ylabel="privacy loss L(z)", title="privacy loss ln p_x(z) / p_x′(z)")
    legend_below(fig, ncols=2)
    fig.suptitle(title or "Local against smooth sensitivity on one pair of neighbours")
    return fig
