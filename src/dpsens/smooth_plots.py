"""Figures of the chapters *Propose-test-release* and *Smooth sensitivity*.

Chapter: *Propose-test-release*, *Smooth sensitivity*.

Every function is pure: plain arguments in, a :class:`matplotlib.figure.Figure`
out, with a title, labelled axes and a legend.  Nothing is drawn on a global
figure, so the functions can be wrapped by ``dpsens.widgets.explorer``.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from . import mechanisms as mech
from . import smooth as sm
from .data import N_AGES
from .plots import PALETTE, line_style

__all__ = ["plot_error_histograms", "plot_ptr_tradeoff", "plot_smooth_curve", "plot_error_vs_epsilon",
           "plot_smooth_explorer"]


def plot_error_histograms(errors: dict, title: str, xlabel: str, bins: int = 40):
    """Overlaid histograms of absolute errors, one per mechanism (``{label: array}``).

    Chapter: *Propose-test-release*.
    """
    fig, ax = plt.subplots()
    finite = np.concatenate([np.asarray(v, dtype=float) for v in errors.values()])
    edges = np.histogram_bin_edges(finite, bins=bins)
    for i, (label, v) in enumerate(errors.items()):
        ax.hist(np.asarray(v, dtype=float), bins=edges, alpha=0.55, color=PALETTE[i], label=label,
                histtype="stepfilled", edgecolor=PALETTE[i])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("number of releases")
    ax.legend()
    return fig


def plot_ptr_tradeoff(bounds, distances: dict, epsilon: float, threshold: float, title: str):
    """Probability of ⊥ and noise of the release against the proposed bound.

    Chapter: *Propose-test-release*.

    Parameters
    ----------
    bounds : array_like
        Proposed bounds ``Δ̂`` (x axis, log scale).
    distances : dict
        ``{label: array of D(x, Δ̂)}``, exact distances for each bound (one curve each).
    epsilon : float
        Budget of each step (test noise ``Lap(1/ε)``, release noise ``Lap(Δ̂/ε)``).
    threshold : float
        The test threshold ``T``.
    """
    bounds = np.asarray(bounds, dtype=float)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    for i, (label, d) in enumerate(distances.items()):
        fail = [1.0 - mech.ptr_accidental_pass_probability(float(di), epsilon, threshold)
                if np.isfinite(di) else 0.0 for di in d]
        ax1.plot(bounds, fail, marker="o", ms=3, label=label, **line_style(i))
    ax1.set_xscale("log")
    ax1.set_xlabel("proposed bound Δ̂ on the local sensitivity (years)")
    ax1.set_ylabel("probability of ⊥ (no answer)")
    ax1.set_title("Too small a bound: the test fails")
    ax1.legend()
    ax2.plot(bounds, math.sqrt(2) * bounds / epsilon, color=PALETTE[2], label="std of Lap(Δ̂/ε)")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("proposed bound Δ̂ on the local sensitivity (years)")
    ax2.set_ylabel("noise standard deviation (years)")
    ax2.set_title("Too large a bound: more noise")
    ax2.legend()
    fig.suptitle(title)
    return fig


def plot_smooth_curve(ks, curves: dict, title: str, ylabel: str = r"$e^{-\beta t} A^{(t)}(x)$", logy: bool = True,
                      marks: dict | None = None):
    """``e^{-βt} A^{(t)}(x)`` (or any curves) against the distance t, with optional marked maxima.

    Chapter: *Smooth sensitivity*.

    Parameters
    ----------
    ks : array_like
        Distances (x axis).
    curves : dict
        ``{label: values at ks}``.
    marks : dict, optional
        ``{label: (t, value)}`` points to mark (e.g. the maximum).
    """
    ks = np.asarray(ks)
    fig, ax = plt.subplots()
    for i, (label, v) in enumerate(curves.items()):
        v = np.asarray(v, dtype=float)
        if logy:
            v = np.where(v > 0, v, np.nan)
        ax.plot(ks, v, label=label, **line_style(i))
    for j, (label, (k, v)) in enumerate((marks or {}).items()):
        ax.plot([k], [v], marker="o", ls="none", color=PALETTE[(j + len(curves)) % 7], label=label)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("distance t (records changed)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def plot_error_vs_epsilon(epsilons, errors: dict, title: str, ylabel: str):
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
    ax.legend()
    return fig


def plot_smooth_explorer(data, epsilon: float = 1.0, delta_exp: int = 2, sample_size: int = N_AGES,
                         query: str = "median", lower: float = 0.0, upper: float = 100.0,
                         neighbors: str = "bounded", seed: int = 0, n_points: int = 160):
    """The smooth-sensitivity curve and the resulting noise for a subsample of ``data``.

    Chapter: *Smooth sensitivity* (the interactive explorer).

    Left: ``e^{-βk} A(k)`` with ``β = ε / (2 ln(2/δ))`` and ``δ = 1/n^delta_exp``
    (n the sample size), its maximum ``S`` marked.  Right: the density of the
    released value's noise ``Lap(2S/ε)``, with the global-sensitivity Laplace
    noise ``Lap((upper-lower)/ε)`` for comparison.

    Parameters
    ----------
    data : array_like
        The full data (e.g. the Adult ages); a seeded subsample of
        ``sample_size`` records is used.
    epsilon : float
    delta_exp : int
        δ = 1/n^delta_exp.
    sample_size : int
    query, lower, upper, neighbors
        As in :func:`dpsens.smooth_sensitivity`.
    seed : int
        Seed of the subsample.
    n_points : int
        Number of distances drawn on the curve.
    """
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
    a = sm.ls_at_distance(x, query, ks, lower, upper, neighbors)
    w = np.exp(-beta * ks) * a
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    ax1.plot(ks, np.where(a > 0, a, np.nan), label="$A^{(t)}(x)$ (0 not drawn)", **line_style(1))
    ax1.plot(ks, np.where(w > 0, w, np.nan), label=r"$e^{-\beta t} A^{(t)}(x)$", **line_style(0))
    if s > 0:
        ax1.plot([t_star], [s], "o", color=PALETTE[3], label=f"$S_\\beta$ = {s:.3g} at t = {t_star}")
    ax1.set_yscale("log")
    ax1.set_xlabel("distance t (records changed)")
    ax1.set_ylabel(f"sensitivity of the {query} (years)")
    ax1.set_title(f"β = {beta:.4f}, n = {n}")
    ax1.legend()
    gs_scale = (upper - lower) / epsilon
    ss_scale = 2 * s / epsilon
    width = 4 * max(ss_scale, 1e-3)
    z = np.linspace(-width, width, 400)
    ax2.plot(z, np.exp(-np.abs(z) / ss_scale) / (2 * ss_scale) if ss_scale > 0 else np.zeros_like(z),
             label=f"smooth: Lap(2$S_\\beta$/ε), scale {ss_scale:.3g}", **line_style(0))
    ax2.plot(z, np.exp(-np.abs(z) / gs_scale) / (2 * gs_scale), label=f"global: Lap({gs_scale:.3g})",
             **line_style(2))
    ax2.set_yscale("log")
    ax2.set_xlabel("noise added to the release (years)")
    ax2.set_ylabel("density")
    ax2.set_title(f"noise, ε = {epsilon:g}, δ = 1/n^{delta_exp}")
    ax2.legend()
    fig.suptitle(f"Smooth sensitivity of the {query} of {n} ages")
    return fig
