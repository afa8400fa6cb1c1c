"""Figures of *Testing privately, and releasing what is stable*: sparse vector's exact loss, the stable histogram, private selection.

Chapter: *Testing privately, and releasing what is stable*.  The numbers
come from :mod:`dpsens.mechanisms.sparse_vector`,
:mod:`dpsens.mechanisms.stable_histogram` and
:mod:`dpsens.mechanisms.noisy_max`; the explorer's view
(:func:`sparse_vector_explorer_view`) runs sparse vector on the Adult
education levels and computes the realised privacy loss of its output exactly.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validate import as_int, as_positive, as_probability
from ..data import load_adult
from ..mechanisms.noisy_max import expected_error, selection_distribution
from ..mechanisms.sparse_vector import output_probability, sparse_vector, sparse_vector_runs
from ..mechanisms.stable_histogram import label_counts, stable_histogram_release_probability, stable_histogram_threshold
from .style import MAX_WIDTH_IN, PALETTE, legend_below, line_style

__all__ = ["VARIANT_LABELS", "plot_svt_losses", "column_counts", "plot_stable_histogram", "plot_selection",
           "education_queries", "sparse_vector_realised_loss", "sparse_vector_explorer_view"]

#: How the figures name the variants of :data:`dpsens.mechanisms.sparse_vector.SVT_VARIANTS`.
VARIANT_LABELS = {
    "correct": "correct (Dwork–Roth)",
    "no-threshold-noise": "no threshold noise",
    "no-query-noise": "no query noise",
    "keep-going": "keeps going after ⊤",
    "noisy-value": "reports the noisy value",
}


def plot_svt_losses(ms: ArrayLike, losses: dict, epsilon: float = 1.0) -> Figure:
    """The largest exact privacy loss of each variant over a family of changes, against the number of queries ``d``.

    Chapter: *Testing privately, and releasing what is stable*.  ``losses``
    maps a variant to its losses at ``ms`` (``inf`` is drawn at the top of
    the axes, marked "∞").  ``ms`` are the numbers of queries.
    """
    epsilon = as_positive(epsilon, "epsilon")
    ms = np.asarray(ms)
    finite = [v for row in losses.values() for v in row if math.isfinite(v)]
    top = max(finite + [epsilon]) * 1.25
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.4))
    for i, (variant, row) in enumerate(losses.items()):
        row = np.asarray(row, dtype=float)
        shown = np.where(np.isfinite(row), row, top)
        style = line_style(i)
        # markers of decreasing size, so that variants with equal losses stay visible on top of each other
        ax.plot(ms, shown, marker="osD^v"[i % 5], ms=10 - 1.5 * i, label=VARIANT_LABELS.get(variant, variant), **style)
        for m, v in zip(ms, row, strict=True):
            if not math.isfinite(v):
                ax.annotate("∞", (m, top), textcoords="offset points", xytext=(0, 4), ha="center",
                            color=style["color"])
    ax.axhline(epsilon, color=PALETTE[-1], lw=1.2, ls="--", label=f"the budget ε = {epsilon:g}")
    ax.set_ylim(0, top * 1.12)
    ax.set(title="Exact privacy loss of AboveThreshold variants",
           xlabel="number of queries d", ylabel="largest |L| over the changes")
    legend_below(fig, ncols=2)
    return fig


def column_counts(column: str = "native-country") -> dict:
    """``{label: count}`` of an Adult column, a missing value counted as the label ``"(missing)"``.

    Chapter: *Testing privately, and releasing what is stable*.
    """
    values = load_adult()[column].astype(object)
    return label_counts(values.where(values.notna(), "(missing)").to_numpy())


def plot_stable_histogram(counts: dict, released: dict, epsilon: float, delta: float,
                          epsilons: Sequence[float] = (0.1, 0.5, 1.0)) -> Figure:
    """The counts of a long-tailed column, the stable histogram's threshold and what one release kept.

    Chapter: *Testing privately, and releasing what is stable*.  Top: every
    label's exact count (log scale) by rank, filled where the seeded release
    ``released`` kept it, and the threshold ``η``.  Bottom: each label's
    exact probability of being released at each ε of ``epsilons``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    c = np.array(list(counts.values()), dtype=float)
    rank = np.arange(1, c.size + 1)
    kept = np.array([label in released for label in counts])
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 6.6), sharex=True)
    ax1.plot(rank[kept], c[kept], "o", color=PALETTE[0], label="released (one seeded run)")
    ax1.plot(rank[~kept], c[~kept], "o", mfc="none", color=PALETTE[3], label="not released")
    t = stable_histogram_threshold(epsilon, delta)
    ax1.axhline(t, color=PALETTE[-1], lw=1.2, ls="--", label=f"threshold η = {t:.1f} (ε = {epsilon:g})")
    ax1.set(yscale="log", title=f"Stable histogram, δ = {delta:g}", ylabel="exact count (log scale)")
    for i, e in enumerate(epsilons):
        ax2.plot(rank, stable_histogram_release_probability(c, e, delta), marker=".", label=f"ε = {e:g}",
                 **line_style(i + 1))
    ax2.set(title="Probability that a label is released", xlabel="label, by rank of its count",
            ylabel="P(released)")
    legend_below(fig, ncols=2)
    return fig


def plot_selection(scores: ArrayLike, epsilon: float, epsilons: ArrayLike | None = None,
                   mechanisms: Sequence[str] = ("exponential-mechanism", "permute-and-flip", "rnm-laplace")) -> Figure:
    """Exact output distributions of the selection mechanisms on ``scores``, and their expected error against ε.

    Chapter: *Testing privately, and releasing what is stable*.
    """
    epsilon = as_positive(epsilon, "epsilon")
    g = np.asarray(scores, dtype=float)
    epsilons = np.geomspace(0.1, 10, 25) if epsilons is None else np.asarray(epsilons, dtype=float)
    names = {"exponential-mechanism": "exponential mechanism", "permute-and-flip": "permute-and-flip",
             "rnm-laplace": "noisy max, Laplace", "rnm-exponential": "noisy max, exponential",
             "rnm-gumbel": "noisy max, Gumbel"}
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 6.6))
    width = 0.8 / len(mechanisms)
    x = np.arange(g.size)
    for i, mech in enumerate(mechanisms):
        p = selection_distribution(g, epsilon, mech)
        ax1.bar(x + (i - (len(mechanisms) - 1) / 2) * width, p, width, color=PALETTE[i], label=names[mech],
                hatch=["", "//", ".."][i % 3], edgecolor="white")
        err = [expected_error(g, selection_distribution(g, e, mech)) for e in epsilons]
        ax2.plot(epsilons, err, **line_style(i))
    ax1.set_xticks(x, [f"{v:g}" for v in g])
    ax1.set(title=f"Exact output distributions, ε = {epsilon:g}", xlabel="score U of the candidate",
            ylabel="P(selected)")
    ax2.set(xscale="log", title="Expected error U* − U (colours as above)", xlabel="ε (log scale)",
            ylabel="expected error")
    legend_below(fig, axes=[ax1], ncols=2)
    return fig


def education_queries() -> tuple[list, np.ndarray]:
    """The explorer's queries: the Adult education levels in alphabetical order and their counts.

    Chapter: *Testing privately, and releasing what is stable*.
    """
    counts = column_counts("education")
    labels = sorted(counts)
    return labels, np.array([counts[k] for k in labels], dtype=float)


def sparse_vector_realised_loss(answers: ArrayLike, threshold: float, pattern: Sequence[bool], epsilon: float,
                                c: int) -> float:
    """The largest ``|ln P_x(o) / P_x'(o)|`` of the output ``o = pattern`` over the neighbours ``x'``.

    Chapter: *Testing privately, and releasing what is stable*.  The
    answers are counts (one record added or removed moves one of them by 1),
    so the neighbours are the ``2m`` vectors with one count ±1.
    """
    q = np.asarray(answers, dtype=float)
    worst = 0.0
    for start, stop, p in sparse_vector_runs(q, threshold, pattern, epsilon, c):
        for j in range(start, stop):            # a query not asked does not change the output's probability
            for step in (-1.0, 1.0):
                y = q[start:].copy()
                y[j - start] += step
                p_y = output_probability(y, threshold, pattern[start:stop], epsilon / c)
                worst = max(worst, abs(math.log(p / p_y)))
    return worst


def sparse_vector_explorer_view(threshold: float = 2000.0, epsilon: float = 1.0, c: int = 2, seed: int = 0) -> Figure:
    """The explorer's view: sparse vector on the Adult education counts, its answers and realised loss.

    Chapter: *Testing privately, and releasing what is stable*.  The
    queries ask, education level by level in alphabetical order, "are at
    least η = ``threshold`` people at this level?"; sparse vector answers
    until its ``c``-th ⊤ (the chapter's K).
    """
    epsilon = as_positive(epsilon, "epsilon")
    c = as_int(c, "c", minimum=1)
    labels, q = education_queries()
    pattern = sparse_vector(q, threshold, epsilon, c, np.random.default_rng(as_int(seed, "seed", minimum=0)))
    loss = sparse_vector_realised_loss(q, threshold, pattern, epsilon, c)
    y = np.arange(q.size)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 5.6))
    ax.barh(y, q, color=PALETTE[5], label="exact count")
    answered = len(pattern)
    yes = [i for i in range(answered) if pattern[i]]
    no = [i for i in range(answered) if not pattern[i]]
    ax.plot(q[yes], yes, ">", color=PALETTE[0], ms=9, label="answered ⊤ (above)")
    ax.plot(q[no], no, "o", mfc="none", color=PALETTE[3], ms=8, label="answered ⊥")
    ax.axvline(threshold, color=PALETTE[-1], lw=1.2, ls="--", label=f"threshold η = {threshold:g}")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set(title=f"Sparse vector, K = {c}, ε = {epsilon:g}: {answered} of {q.size} asked;\n"
                 f"realised privacy loss {loss:.2g} (budget ε = {epsilon:g})", xlabel="people with this education",
           ylabel="education level (alphabetical)")
    legend_below(fig, ncols=2)
    return fig
