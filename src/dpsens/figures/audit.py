"""Figures of the attacks that measure privacy loss: release densities, ROC curves, audits, posteriors.

Chapter: *Why local sensitivity leaks* (all of them); *Proportions vs
frequencies* and *Smooth sensitivity* draw their attacks with
:func:`plot_attack_roc`.

The numbers come from :mod:`dpsens.audit`.
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_positive
from ..audit import dp_tpr_bound
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["plot_release_densities", "plot_attack_roc", "plot_privacy_loss", "plot_audit", "plot_posterior",
           "plot_leak_pair"]


def plot_release_densities(locs: Sequence[float], scales: Sequence[float], labels: Sequence[str],
                           epsilon: float = 1.0, xlim: tuple[float, float] = (-10.0, 15.0),
                           title: str | None = None) -> Figure:
    """Densities of the released value ``loc + Lap(scale)`` for several datasets, linear and log scale.

    Chapter: *Why local sensitivity leaks*.  The lower panel (log scale) shows
    the tails, where the ratio of two densities with different scales grows
    without bound.  A scale of 0 (the exact answer is released) is drawn as an
    arrow on the upper panel.  The legend is below the panels.

    Returns
    -------
    matplotlib.figure.Figure
    """
    epsilon = as_positive(epsilon, "epsilon")
    t = np.linspace(xlim[0], xlim[1], 2001)
    fig, axes = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 6.6), sharex=True)
    for i, (loc, b, lab) in enumerate(zip(locs, scales, labels, strict=True)):
        st = line_style(i)
        if b == 0:
            axes[0].annotate("", xy=(loc, 1.0), xytext=(loc, 0.0),
                             arrowprops={"arrowstyle": "-|>", "color": st["color"], "lw": 2})
            axes[0].plot([], [], label=f"{lab}: exact answer {loc:g} (point mass)", **st)
            continue
        dens = np.exp(-np.abs(t - loc) / b) / (2 * b)
        axes[0].plot(t, dens, lw=2, label=f"{lab}: {loc:g} + Lap({b:g})", **st)
        axes[1].plot(t, dens, lw=2, **st)
    axes[0].set(xlim=xlim, ylabel="probability density", title="linear scale")
    axes[1].set_yscale("log")
    axes[1].set(xlim=xlim, ylim=(1e-12, 2), xlabel="released value", ylabel="density (log scale)",
                title="log scale: the tails")
    legend_below(fig, axes[0])
    fig.suptitle(title or f"Noise scaled to local sensitivity, ε = {epsilon:g}")
    return fig


def plot_attack_roc(curves: dict, epsilon: float, delta: float = 0.0, title: str | None = None) -> Figure:
    """ROC curves of attacks against the largest TPR an (ε, δ)-DP mechanism allows.

    Chapter: *Why local sensitivity leaks*.

    Parameters
    ----------
    curves : dict
        ``label -> (fpr, tpr)``.
    epsilon, delta : float
        The promised guarantee; the region above its boundary is impossible
        for a DP mechanism and is shaded.
    """
    fig, ax = plt.subplots()
    f = np.logspace(-6, 0, 400)
    bound = dp_tpr_bound(f, epsilon, delta)
    promise = f"ε = {epsilon:g}" + (f", δ = {delta:g}" if delta > 0 else "")
    ax.fill_between(f, bound, 1.0, color=PALETTE[3], alpha=0.12, label=f"impossible under {promise}")
    ax.plot(f, bound, color=PALETTE[-1], lw=1.2, label=f"{promise} boundary")
    for i, (lab, (fpr, tpr)) in enumerate(curves.items()):
        fpr = np.asarray(fpr, float)
        keep = fpr > 0
        ax.plot(fpr[keep], np.asarray(tpr, float)[keep], lw=2, label=lab, **line_style(i))
    ax.set_xscale("log")
    ax.set(xlim=(1e-6, 1), ylim=(0, 1.01), xlabel="false-positive rate (log scale)",
           ylabel="true-positive rate", title=title or "Telling two neighbouring datasets apart")
    fig.set_size_inches(MAX_WIDTH_IN, 4.6)
    legend_below(fig)
    return fig


def plot_privacy_loss(thresholds: ArrayLike, exact: ArrayLike, point: ArrayLike, lower: ArrayLike, epsilon: float,
                      title: str | None = None) -> Figure:
    """Privacy loss of the events ``{|Z − m| > τ}``: exact, estimated, and confidence lower bound.

    Chapter: *Why local sensitivity leaks*.
    """
    fig, ax = plt.subplots()
    c = np.asarray(thresholds, float)
    ax.plot(c, exact, lw=2, label="exact privacy loss of the event", **line_style(0))
    ax.plot(c, np.where(np.isfinite(point), point, np.nan), lw=1.5, label="simulation estimate", **line_style(1))
    ax.plot(c, lower, lw=2, label="95 % lower bound (Clopper–Pearson)", **line_style(2))
    ax.axhline(epsilon, color=PALETTE[-1], lw=1.2, ls="--", label=f"promised ε = {epsilon:g}")
    ax.set(xlabel="attack threshold τ (distance of the release from 2.5)", ylabel="ln P(event | x) / P(event | x′)",
           title=title or "Privacy loss of the attack event, against the promise")
    fig.set_size_inches(MAX_WIDTH_IN, 4.6)
    legend_below(fig)
    return fig


def plot_audit(promised: ArrayLike, measured: dict, title: str | None = None) -> Figure:
    """Audited lower bound on ε against the promised ε, one line per mechanism.

    Chapter: *Why local sensitivity leaks*.

    Parameters
    ----------
    promised : array_like
    measured : dict
        ``label -> array`` of lower bounds, aligned with ``promised``.
    """
    promised = np.asarray(promised, float)
    fig, ax = plt.subplots()
    ax.plot(promised, promised, color=PALETTE[-1], lw=1.2, ls="--", label="measured = promised")
    ax.fill_between(promised, promised, max(promised.max(), max(np.max(v) for v in measured.values())) * 1.1,
                    color=PALETTE[3], alpha=0.1, label="proof that the promise is broken")
    for i, (lab, vals) in enumerate(measured.items()):
        ax.plot(promised, vals, marker="o", lw=2, label=lab, **line_style(i))
    ax.set(xlabel="promised ε", ylabel="audited lower bound on ε (95 %)",
           title=title or "Empirical privacy loss against the promised ε")
    fig.set_size_inches(MAX_WIDTH_IN, 4.4)
    legend_below(fig)
    return fig


def plot_posterior(labels: Sequence[str], prior: ArrayLike, posteriors: dict, floor: float = 1e-8,
                   title: str | None = None) -> Figure:
    """Posterior/prior ratio of each candidate dataset after one release, per mechanism (log scale).

    Chapter: *Why local sensitivity leaks*.  Horizontal bars, one row per
    candidate (first on top), so that the candidates' names stay legible on
    a narrow figure.

    Parameters
    ----------
    labels : list of str
    prior : array_like
    posteriors : dict
        ``label -> array`` of posterior probabilities.
    floor : float
        Ratios below it (including exact zeros) are drawn at the floor.
    """
    prior = np.asarray(prior, float)
    labels = list(labels)
    k = len(posteriors)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 0.09 * k * len(labels) + 2.4))
    width = 0.8 / k
    pos = np.arange(len(labels))
    for i, (lab, post) in enumerate(posteriors.items()):
        ratio = np.maximum(np.asarray(post, float) / prior, floor)
        ax.barh(pos + (i - (k - 1) / 2) * width, ratio, height=width, color=PALETTE[i], label=lab, left=0)
    ax.axvline(1.0, color=PALETTE[-1], lw=1)
    ax.set_xscale("log")
    ax.set_yticks(pos, labels)
    ax.set(xlim=(floor / 2, 1e4), ylim=(len(labels) - 0.5, -0.5), ylabel="candidate dataset",
           xlabel=f"posterior / prior (log scale, floor {floor:g})",
           title=title or "What one release tells the adversary")
    ax.grid(axis="y", visible=False)
    legend_below(fig)
    return fig


def plot_leak_pair(pair: dict, epsilon: float = 1.0, xlim: tuple[float, float] = (-10.0, 15.0)) -> Figure:
    """Log densities of ``median + Lap(LS/ε)`` on two neighbours and the privacy loss between them.

    Chapter: *Why local sensitivity leaks* (the explorer over ε and the pair).

    Parameters
    ----------
    pair : tuple
        ``(label_x, median_x, ls_x, label_x2, median_x2, ls_x2)`` with both
        local sensitivities > 0.
    epsilon : float

    Returns
    -------
    matplotlib.figure.Figure
        Top: both densities on a log scale.  Bottom: the privacy loss
        ``ln p_x(z)/p_x'(z)`` against the band ``[−ε, ε]`` that ε-DP would
        keep it in.
    """
    epsilon = as_positive(epsilon, "epsilon")
    lab_a, m_a, ls_a, lab_b, m_b, ls_b = pair
    ba, bb = as_positive(ls_a, "ls_x") / epsilon, as_positive(ls_b, "ls_x2") / epsilon
    t = np.linspace(xlim[0], xlim[1], 1601)
    log_pa = -np.log(2 * ba) - np.abs(t - m_a) / ba
    log_pb = -np.log(2 * bb) - np.abs(t - m_b) / bb
    fig, axes = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 7.0), sharex=True)
    axes[0].plot(t, log_pa / np.log(10), lw=2, label=f"{lab_a}: {m_a:g} + Lap({ba:g})", **line_style(0))
    axes[0].plot(t, log_pb / np.log(10), lw=2, label=f"{lab_b}: {m_b:g} + Lap({bb:g})", **line_style(1))
    axes[0].set(xlim=xlim, ylabel="log10 of the density", title="the two release distributions")
    loss = log_pa - log_pb
    axes[1].fill_between(t, -epsilon, epsilon, color=PALETTE[2], alpha=0.2, label=f"allowed by ε = {epsilon:g}")
    axes[1].plot(t, loss, lw=2, color=PALETTE[3], label="privacy loss ln p_x(z) / p_x′(z)")
    outside = float(np.mean(np.abs(loss) > epsilon))
    axes[1].set(xlim=xlim, xlabel="released value z", ylabel="privacy loss (nats)",
                title=f"loss outside [−ε, ε] on {100 * outside:.0f} % of the axis shown")
    legend_below(fig)
    fig.suptitle(f"Noise scaled to local sensitivity, ε = {epsilon:g}")
    return fig
