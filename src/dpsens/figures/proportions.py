"""Figures of proportions versus frequencies: the source's figures, errors against ε, the leak, the explorer.

Chapter: *Proportions vs frequencies*.

The releases and sensitivities come from :mod:`dpsens.proportions`.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .._validate import as_int, as_positive, as_probability
from ..mechanisms.laplace import laplace_pdf
from ..proportions import (METHODS, as_counts, count_and_total_release, counts_release, histogram_release,
                           n_public_release, proportion_errors, source_proportion_sensitivity, source_release)
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_proportion_source_figures", "plot_proportion_errors", "plot_proportion_leak",
           "plot_proportion_explorer"]


def plot_proportion_source_figures(n: int = 1000, c_min: int = 100, epsilon: float = 1.0, trials: int = 20000,
                                   seed: int = 0) -> Figure:
    """The source's two figures for one setting: histograms and a Q-Q plot, stacked.

    Chapter: *Proportions vs frequencies*.  Two labels with counts
    ``c_min`` and ``n - c_min``; the proportion of the smaller one is
    released (a) from noisy counts, ``(k + Lap(1/ε)) / n``, and (b) the
    source's way, ``k/n + Lap(Δ/ε)`` with its local Δ.  In the Q-Q plot the
    points lie on a line of slope ``Δ n`` (< 1): the source's noise is
    narrower -- only because its Δ is a local sensitivity.
    """
    n = as_int(n, "n", minimum=2)
    c_min = as_int(c_min, "c_min", minimum=1, maximum=n // 2)
    counts = np.array([c_min, n - c_min])
    rng = np.random.default_rng(as_int(seed, "seed", minimum=0))
    freq = counts_release(counts, epsilon, rng, size=trials)[:, 0]
    prop = source_release(counts, epsilon, rng, size=trials)[:, 0]
    delta = source_proportion_sensitivity(counts)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 8.2))
    lo, hi = np.quantile(np.concatenate([freq, prop]), [0.001, 0.999])
    bins = np.linspace(lo, hi, 60).tolist()
    ax1.hist(freq, bins=bins, density=True, alpha=0.55, color=PALETTE[0],
             label="Laplace on counts, / n\n(scale 1/(nε))")
    ax1.hist(prop, bins=bins, density=True, alpha=0.55, color=PALETTE[1],
             label=f"Laplace on proportions\n(scale Δ/ε, Δ = {delta:.3g})")
    ax1.axvline(c_min / n, color=PALETTE[-1], lw=1, label=f"true proportion {c_min / n:g}")
    ax1.set(title=f"Noisy proportion, n = {n}, smallest count {c_min}, ε = {epsilon:g}",
            xlabel="released proportion of the smaller label", ylabel="density")
    ax1.set_ylim(top=1.7 * ax1.get_ylim()[1])      # room for the legend above the histograms
    ax1.legend(loc="upper left")
    q = np.linspace(0.005, 0.995, 199)
    qf, qp = np.quantile(freq, q), np.quantile(prop, q)
    ax2.plot(qf, qp, ".", color=PALETTE[2], ms=4, label="quantiles (0.5 % ... 99.5 %)")
    lims = [qf.min(), qf.max()]
    ax2.plot(lims, lims, color=PALETTE[-1], lw=1, ls="--", label="y = x (same distribution)")
    centre = c_min / n
    ax2.plot(lims, [centre + delta * n * (v - centre) for v in lims], color=PALETTE[3], lw=1,
             label=f"slope Δ·n = {delta * n:.3f}")
    ax2.set(title="Q-Q plot: proportions vs counts", xlabel="quantile, Laplace on counts / n",
            ylabel="quantile, Laplace on proportions")
    ax2.legend(loc="upper left")
    return fig


def plot_proportion_errors(counts: Sequence[int] = (100, 900),
                           epsilons: Sequence[float] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
                           trials: int = 4000, seed: int = 0, label: int = 0) -> Figure:
    """Error of one released proportion against ε, for the four releases.

    Chapter: *Proportions vs frequencies*.  Log-log axes; the source's
    release is drawn dotted because it is not private; the legend is below.
    """
    errs = proportion_errors(counts, epsilons, trials, np.random.default_rng(as_int(seed, "seed", minimum=0)),
                             label=label)
    k = as_counts(counts)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.6))
    markers = {"source": "x", "n_public": "o", "histogram": "s", "count_and_total": "^"}
    for i, name in enumerate(METHODS):
        style = line_style(i)
        if name == "source":
            style["linestyle"] = ":"
        ax.plot(errs.index, errs[name], marker=markers[name], label=METHODS[name], **style)
    ax.set(xscale="log", yscale="log",
           title=f"Error of the released proportion {k[label]}/{k.sum()} (seeded, {trials} releases per point)",
           xlabel="privacy parameter ε (log scale)", ylabel="root-mean-square error (log scale)")
    legend_below(fig)
    return fig


def plot_proportion_leak(counts_x: Sequence[int] = (1, 500, 499), counts_xprime: Sequence[int] = (0, 500, 499),
                         label: int = 1, epsilon: float = 1.0) -> Figure:
    """The source's release of one proportion under two neighbouring datasets.

    Chapter: *Proportions vs frequencies*.  Top: the two densities of the
    release (Laplace, centred on each dataset's proportion, with each
    dataset's own local scale).  Bottom: the privacy loss ``ln(p_x / p_x')``
    against the released value, with the band ``[-ε, ε]`` that differential
    privacy would impose.
    """
    kx, kxp = as_counts(counts_x, "counts_x"), as_counts(counts_xprime, "counts_xprime")
    epsilon = as_positive(epsilon, "epsilon")
    label = as_int(label, "label", minimum=0, maximum=kx.size - 1)
    px, pxp = kx[label] / kx.sum(), kxp[label] / kxp.sum()
    bx = source_proportion_sensitivity(kx) / epsilon
    bxp = source_proportion_sensitivity(kxp) / epsilon
    width = 6 * max(bx, bxp)
    t = np.linspace(min(px, pxp) - width, max(px, pxp) + width, 1201)
    fx, fxp = laplace_pdf(t - px, bx), laplace_pdf(t - pxp, bxp)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.4))
    ax1.plot(t, fx, label=f"x: counts {tuple(kx.tolist())}, scale {bx:.2e}", **line_style(0))
    ax1.plot(t, fxp, label=f"x': counts {tuple(kxp.tolist())}, scale {bxp:.2e}", **line_style(1))
    ax1.set(title=f"Released proportion of label {label}, ε = {epsilon:g}", xlabel="released proportion",
            ylabel="density")
    loss = (np.log(bxp / bx) - np.abs(t - px) / bx + np.abs(t - pxp) / bxp)
    ax2.plot(t, loss, color=PALETTE[2], label="privacy loss ln(p_x(z) / p_x'(z))")
    ax2.axhspan(-epsilon, epsilon, color=PALETTE[5], alpha=0.25, label=f"allowed by ε-DP: [−{epsilon:g}, {epsilon:g}]")
    ax2.set(title="Privacy loss leaves the ε band", xlabel="released proportion", ylabel="ln of density ratio")
    legend_below(fig)
    return fig


def plot_proportion_explorer(n: int = 1000, share: float = 0.1, epsilon: float = 1.0, seed: int = 0) -> Figure:
    """Distributions of the released proportion of the smaller label, four ways, with 99 % intervals.

    Chapter: *Proportions vs frequencies* (the interactive explorer).  Two
    labels; the smaller has ``c_min = round(share * n)`` records (at least 1),
    the other ``n - c_min``.
    """
    n = as_int(n, "n", minimum=2)
    share = as_probability(share, "share")
    if share > 0.5:
        raise ValueError(f"share must be the share of the *smaller* label, in (0, 0.5], got {share!r}")
    c_min = max(1, int(round(share * n)))
    epsilon = as_positive(epsilon, "epsilon")
    counts = np.array([c_min, n - c_min])
    rng = np.random.default_rng(as_int(seed, "seed", minimum=0))
    draws = {"source": source_release(counts, epsilon, rng, size=20000)[:, 0],
             "n_public": n_public_release(counts, epsilon, rng, size=20000, label=0),
             "histogram": histogram_release(counts, epsilon, rng, size=20000)[:, 0],
             "count_and_total": count_and_total_release(counts, epsilon, rng, size=20000)[:, 0]}
    truth = c_min / n
    allv = np.concatenate(list(draws.values()))
    lo, hi = np.quantile(allv, [0.002, 0.998])
    bins = np.linspace(lo, hi, 70).tolist()
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 5.0))
    for i, (name, d) in enumerate(draws.items()):
        lo, hi = np.quantile(d, [0.005, 0.995])
        ax.hist(d, bins=bins, density=True, histtype="step", lw=1.6, color=line_style(i)["color"],
                linestyle=line_style(i)["linestyle"],
                label=f"{METHODS[name]}; 99 %: ±{(hi - lo) / 2:.2g}")
    ax.axvline(truth, color=PALETTE[-1], lw=1, label=f"true proportion {truth:.3g}")
    ax.set(title=f"n = {n}, smallest count {c_min}, ε = {epsilon:g}", xlabel="released proportion",
           ylabel="density (20,000 seeded draws)")
    legend_below(fig)
    return fig
