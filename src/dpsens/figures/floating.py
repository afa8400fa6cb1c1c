"""Figures of *Noise a computer can actually sample*: the doubles a Laplace release can be, the attack's success, exact discrete noise.

Chapter: *Noise a computer can actually sample*.  The numbers come from
:mod:`dpsens.floating_point` (which doubles the book's Laplace mechanism can
output, and how often a release identifies its input) and
:mod:`dpsens.mechanisms.discrete` (the exact samplers and their
probabilities).
"""
from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .._validate import as_int, as_positive
from ..floating_point import identifying_fraction, is_reachable
from ..mechanisms.discrete import (discrete_gaussian_pmf, discrete_laplace_pmf, sample_discrete_gaussian,
                                   sample_discrete_laplace)
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["consecutive_doubles", "plot_reachable_doubles", "plot_identifying_fraction", "plot_discrete_noise"]


def consecutive_doubles(start: float, count: int) -> np.ndarray:
    """``count`` consecutive doubles from ``start`` upwards (each the next representable number after the last)."""
    count = as_int(count, "count", minimum=1)
    out = np.empty(count)
    out[0] = float(start)
    for i in range(1, count):
        out[i] = np.nextafter(out[i - 1], np.inf)
    return out


def plot_reachable_doubles(value: float, value_prime: float, scale: float, start: float, count: int = 40) -> Figure:
    """Which of ``count`` consecutive doubles from ``start`` are possible releases of ``value`` and of ``value_prime``.

    Chapter: *Noise a computer can actually sample*.  The releases are the
    book's Laplace mechanism's, ``value + rng.laplace(0.0, scale)``
    (:func:`dpsens.floating_point.is_reachable`).
    """
    scale = as_positive(scale, "scale")
    z = consecutive_doubles(start, count)
    a = is_reachable(z, value, scale)
    b = is_reachable(z, value_prime, scale)
    i = np.arange(len(z))
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 2.9))
    ax.plot(i[a], np.ones(a.sum()), "o", color=PALETTE[0], ms=7, label=f"a possible release of f(x) = {value:g}")
    ax.plot(i[b], np.zeros(b.sum()), "s", color=PALETTE[3], ms=7,
            label=f"a possible release of f(x') = {value_prime:g}")
    ax.plot(i[~a], np.ones((~a).sum()), ".", color="0.7", ms=4)
    ax.plot(i[~b], np.zeros((~b).sum()), ".", color="0.7", ms=4, label="impossible (grey)")
    ax.set_yticks([0, 1], ["f(x')", "f(x)"])
    ax.set_ylim(-0.6, 1.6)
    ax.set(title=f"Doubles from z₀ = {start:.4f}... up, b = {scale:g}",
           xlabel="consecutive doubles (steps of one ulp)", ylabel="input")
    legend_below(fig)
    return fig


def plot_identifying_fraction(pairs: Sequence[tuple[float, float]], epsilons: Sequence[float], releases: int = 2000,
                              seed: int = 0) -> Figure:
    """The fraction of releases of ``f(x)`` that ``f(x')`` cannot produce, against ε, one line per pair of answers.

    Chapter: *Noise a computer can actually sample*.  ``pairs`` is a list of
    ``(f(x), f(x'))`` one apart (a count, sensitivity 1); each point is
    :func:`dpsens.floating_point.identifying_fraction` with ``releases``
    seeded releases.
    """
    epsilons = [as_positive(e, "epsilon") for e in epsilons]
    seed = as_int(seed, "seed", minimum=0)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 3.8))
    for i, (v, vp) in enumerate(pairs):
        frac = [identifying_fraction(v, vp, 1.0, e, np.random.default_rng([seed, i, j]), releases).fraction
                for j, e in enumerate(epsilons)]
        ax.plot(epsilons, frac, marker="o", label=f"f(x) = {v:g}, f(x') = {vp:g}", **line_style(i))
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.set(title="Releases that prove the input was x", xlabel="ε (Laplace scale b = 1/ε)",
           ylabel="fraction of releases")
    legend_below(fig)
    return fig


def plot_discrete_noise(scale: float, sigma: float, draws: int = 100_000, seed: int = 0) -> Figure:
    """Frequencies of exact discrete Laplace and discrete Gaussian draws against their exact probabilities.

    Chapter: *Noise a computer can actually sample*.
    """
    draws = as_int(draws, "draws", minimum=1)
    rng = np.random.default_rng(as_int(seed, "seed", minimum=0))
    lap = sample_discrete_laplace(scale, rng, size=draws)
    gau = sample_discrete_gaussian(sigma, rng, size=draws)
    reach = int(max(3 * float(sigma), 4 * float(scale))) + 1
    k = np.arange(-reach, reach + 1)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 3.8))
    for i, (name, sample, pmf) in enumerate([(f"discrete Laplace, b = {scale}", lap, discrete_laplace_pmf(k, scale)),
                                             (f"discrete Gaussian, σ = {sigma}", gau,
                                              discrete_gaussian_pmf(k, sigma))]):
        freq = np.array([(sample == v).mean() for v in k])
        ax.plot(k, freq, drawstyle="steps-mid", label=f"{name}: {draws:,} draws", **line_style(i))
        ax.plot(k, pmf, "o", ms=4, color=PALETTE[i], label=f"{name}: exact probability")
    ax.set(title="Exact samplers against exact probabilities", xlabel="noise z (an integer)",
           ylabel="probability")
    legend_below(fig)
    return fig
