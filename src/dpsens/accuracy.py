"""Accuracy: how far each mechanism's release falls from the answer, and what no mechanism can beat.

Chapter: *How accurate is it, and what can no mechanism beat?* (the accuracy
theorems of the Laplace and Gaussian mechanisms, the exponential mechanism,
propose-test-release, smooth sensitivity, sample-and-aggregate and inverse
sensitivity, each checked against a seeded simulation; the packing lower
bounds for a count, a histogram and a median; the local modulus and instance
optimality).

The failure probability of an accuracy statement is ``zeta`` (the chapter's
ζ: "error at most w with probability at least 1 − ζ"); β is kept for the
smooth-sensitivity parameter.  Nothing here draws noise by hand: the
simulation (:func:`simulate_accuracy`) releases with the package's own
mechanisms (:mod:`dpsens.mechanisms`) and the package's exact inverse
sensitivity (:mod:`dpsens.inverse`).  Quantiles are the order statistics of
:func:`dpsens.inverse.order_statistic` (numpy's ``method="lower"``), the
target of every median below.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd
from scipy.optimize import brentq
from scipy.special import ndtri

from ._validate import (as_bounds, as_data, as_int, as_nonnegative, as_positive, as_probability, as_quantile)
from .inverse import inverse_len_quantile, order_statistic
from .mechanisms.exponential import quantile_exponential, quantile_exponential_distribution, quantile_rank_utility
from .mechanisms.gaussian import gaussian_mechanism, gaussian_sigma
from .mechanisms.heavy_tailed import heavy_tailed_constants, polynomial_tail_cdf, sample_polynomial_tail
from .mechanisms.inverse_sensitivity import inverse_sensitivity_distribution, inverse_sensitivity_quantile
from .mechanisms.laplace import laplace_mechanism
from .mechanisms.ptr import ptr_pass_probability, ptr_from_distance, ptr_threshold
from .mechanisms.sample_aggregate import chunk_answers
from .mechanisms.smooth_noise import smooth_sensitivity_beta
from .smooth import distance_to_high_ls, smooth_sensitivity
from .relation import Relation, as_relation

__all__ = ["DELTA", "laplace_tail_bound", "gaussian_tail_bound", "gaussian_tail_exact", "heavy_tailed_tail_exact",
           "exponential_utility_bound", "rank_error", "rank_error_bound", "rank_value_bound", "ptr_refusal_bound",
           "local_modulus_quantile", "inverse_sensitivity_error_bound", "packing_failure_bound",
           "count_lower_bound", "histogram_lower_bound", "median_lower_bound", "local_minimax_lower_bound",
           "laplace_expected_max", "expected_abs_error", "simulate_accuracy", "saa_bias_noise"]

#: The δ of every (ε, δ) mechanism of the chapter: a public constant, fixed without looking at
#: the data (never a function of the private size n).
DELTA = 1e-6


def _zeta(zeta) -> float:
    return as_probability(zeta, "zeta")


def _aggregates(x, func, m, lower, upper, rng, n_partitions) -> np.ndarray:
    """Sample-and-aggregate's noiseless averages ``mean(clip(func(chunk)))`` for ``n_partitions`` partitions by
    independent labels (ε-DP under additions and removals, :func:`dpsens.mechanisms.chunk_answers`)."""
    n_partitions = as_int(n_partitions, "n_partitions", minimum=1)
    return np.array([np.mean(chunk_answers(x, func, m, lower, upper, rng=rng, partition="independent"))
                     for _ in range(n_partitions)])


# ------------------------------------------------------------------ tails of the noise
def laplace_tail_bound(sensitivity: float, epsilon: float, zeta: float) -> float:
    """``Δ/ε · ln(1/ζ)``: the error the Laplace mechanism exceeds with probability exactly ``ζ``.

    Chapter: *How accurate is it?* (the Laplace tail).  ``P(|Lap(b)| > b ln(1/ζ)) = ζ``.

    >>> round(laplace_tail_bound(1.0, 0.5, 0.05), 4)
    5.9915
    """
    sensitivity = as_positive(sensitivity, "sensitivity")
    return sensitivity / as_positive(epsilon, "epsilon") * math.log(1.0 / _zeta(zeta))


def gaussian_tail_bound(sigma: float, zeta: float) -> float:
    """``σ √(2 ln(2/ζ))``: a bound the Gaussian noise exceeds with probability at most ``ζ``.

    Chapter: *How accurate is it?* (the Gaussian tail; the proof is the chapter's,
    ``P(|N(0, σ²)| > s σ) <= 2 e^{−s²/2}``).  The exact value is :func:`gaussian_tail_exact`.
    """
    return as_positive(sigma, "sigma") * math.sqrt(2.0 * math.log(2.0 / _zeta(zeta)))


def gaussian_tail_exact(sigma: float, zeta: float) -> float:
    """``σ Φ⁻¹(1 − ζ/2)``: the error Gaussian noise exceeds with probability exactly ``ζ``.

    Chapter: *How accurate is it?*.
    """
    return as_positive(sigma, "sigma") * float(-ndtri(_zeta(zeta) / 2.0))


def heavy_tailed_tail_exact(scale: float, zeta: float, gamma: float = 4.0) -> float:
    """The ``w`` with ``P(|scale · Z| > w) = ζ``, ``Z`` of density ∝ ``1/(1+|z|^γ)``.

    Chapter: *How accurate is it?* (smooth sensitivity with heavy-tailed noise).
    Found by root-finding on :func:`dpsens.mechanisms.heavy_tailed.polynomial_tail_cdf`.
    """
    scale = as_positive(scale, "scale")
    zeta = _zeta(zeta)

    def excess(w):
        return 2.0 * (1.0 - float(polynomial_tail_cdf(w, gamma))) - zeta
    hi = 1.0
    while excess(hi) > 0:
        hi *= 2.0
    return scale * brentq(excess, 0.0, hi, xtol=1e-14, rtol=1e-12)


# ------------------------------------------------------------------ the exponential mechanism
def exponential_utility_bound(sensitivity: float, epsilon: float, zeta: float, measure_ratio: float) -> float:
    """``(2 GS_U / ε) (ln(μ(Z)/μ(S)) + ln(1/ζ))``: the score the exponential mechanism loses below OPT.

    Chapter: *How accurate is it?* (the utility theorem).  ``measure_ratio`` is
    ``μ(Z)/μ(S)``, with ``S`` the outputs whose score is OPT (``|Z|`` for a finite
    set of candidates, counting measure).  With probability at least ``1 − ζ``
    the released output's score is at least ``OPT`` minus this.
    """
    ratio = as_positive(measure_ratio, "measure_ratio")
    if ratio < 1:
        raise ValueError(f"measure_ratio must be >= 1 (S is part of Z), got {measure_ratio!r}")
    return 2.0 * as_positive(sensitivity, "sensitivity") / as_positive(epsilon, "epsilon") * (
        math.log(ratio) + math.log(1.0 / _zeta(zeta)))


def _rank_setup(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                neighbors: Relation) -> tuple[dict, np.ndarray, np.ndarray, float]:
    dist = quantile_exponential_distribution(x, q, epsilon, lower, upper, neighbors)
    length = dist["right"] - dist["left"]
    positive = length > 0
    opt = float(np.max(dist["utility"][positive]))
    return dist, length, positive, opt


def rank_error(x: ArrayLike, q: float, released: ArrayLike, lower: float, upper: float,
               neighbors: Relation | str = Relation.BOUNDED) -> np.ndarray:
    """``OPT − U(x, z)`` for released ``z``: how many records the rank of ``z`` is worse than the best.

    Chapter: *How accurate is it?*.  ``U(x, z) = −|#{x_i < z} − αn|`` is the rank
    score; OPT its largest value on a set of positive length (what the
    mechanism can release with positive density).
    """
    neighbors = as_relation(neighbors)
    _, _, _, opt = _rank_setup(x, q, 1.0, lower, upper, neighbors)
    return opt - np.asarray(quantile_rank_utility(x, q, released, neighbors))


def rank_error_bound(x: ArrayLike, q: float, epsilon: float, zeta: float, lower: float, upper: float,
                     neighbors: Relation | str = Relation.BOUNDED) -> float:
    """The utility theorem for the rank score over ``[lower, upper]``: the rank error exceeded w.p. at most ``ζ``.

    Chapter: *How accurate is it?*.  ``μ(Z) = upper − lower``; ``μ(S)`` the
    total length of the intervals whose score is OPT.
    """
    neighbors = as_relation(neighbors)
    dist, length, positive, opt = _rank_setup(x, q, epsilon, lower, upper, neighbors)
    best = float(np.sum(length[positive & (dist["utility"] == opt)]))
    return exponential_utility_bound(dist["sensitivity"], epsilon, zeta, (upper - lower) / best)


def rank_value_bound(x: ArrayLike, q: float, rank_bound: float, lower: float, upper: float,
                     neighbors: Relation | str = Relation.BOUNDED) -> float:
    """The largest ``|z − f(x)|`` over outputs ``z`` of positive density whose rank error is at most ``rank_bound``.

    Chapter: *How accurate is it?* (a rank-error bound read as an error in
    value, on these data; ``f(x)`` the order statistic).
    """
    rank_bound = as_nonnegative(rank_bound, "rank_bound")
    neighbors = as_relation(neighbors)
    dist, _, positive, opt = _rank_setup(x, q, 1.0, lower, upper, neighbors)
    target = order_statistic(x, q)
    keep = positive & (opt - dist["utility"] <= rank_bound + 1e-9)
    return float(np.max(np.maximum(np.abs(dist["left"][keep] - target), np.abs(dist["right"][keep] - target))))


# ------------------------------------------------------------------ propose-test-release
def ptr_refusal_bound(distance: float, epsilon: float, threshold: float) -> float:
    """``½ e^{−ε(D − T)}`` for ``D >= T`` (1 otherwise): a bound on PTR's probability of ⊥.

    Chapter: *How accurate is it?*.  The test draws ``D + Lap(1/ε)`` and refuses
    below ``T``; the exact probability is ``1 −``
    :func:`dpsens.mechanisms.ptr_pass_probability`, equal to this
    bound when ``D >= T``.
    """
    d = float(distance)
    if not d >= 0:
        raise ValueError(f"distance must be >= 0, got {distance!r}")
    epsilon = as_positive(epsilon, "epsilon")
    threshold = as_nonnegative(threshold, "threshold")
    if d < threshold:
        return 1.0
    return 0.5 * math.exp(-epsilon * (d - threshold)) if math.isfinite(d) else 0.0


# ------------------------------------------------------------------ the local modulus, inverse sensitivity
def _cells(x, lower, upper, candidates):
    """The points where ``len`` may change (and a point inside each gap): ``(t_eval, lo, hi)`` with the
    closure ``[lo, hi]`` of each cell (a data point, a bound, or an open gap)."""
    if candidates is not None:
        c = np.unique(as_data(candidates, "candidates"))
        return c, c, c
    pts = np.unique(np.concatenate(([lower], as_data(x), [upper])))
    mids = (pts[:-1] + pts[1:]) / 2
    return (np.concatenate((pts, mids)), np.concatenate((pts, pts[:-1])), np.concatenate((pts, pts[1:])))


def local_modulus_quantile(x: ArrayLike, q: float, t: ArrayLike, lower: float, upper: float,
                           neighbors: Relation | str = Relation.BOUNDED,
                           candidates: ArrayLike | None = None) -> float | np.ndarray:
    """``Ω_f(x; t) = sup{|f(y) − f(x)| : dist(x, y) <= t}`` for the ``q`` quantile, exactly.

    Chapter: *How accurate is it?* (instance optimality).

    ``{f(y) : dist(x, y) <= t}`` is ``{z : len(x; z) <= t}`` (:mod:`dpsens.inverse`),
    and ``len`` is constant on each data point, bound and open gap between
    them, so the supremum is over the closures of the cells with
    ``len <= t``.  With ``candidates`` (a public finite set) the maximum is
    over the candidates with ``len <= t`` instead.

    Parameters
    ----------
    x : array_like
    q : float
    t : int or array_like of int
        Distances, ``>= 0``.
    lower, upper : float
    neighbors : Relation or {"bounded", "unbounded"}
    candidates : array_like, optional

    Returns
    -------
    float or numpy.ndarray
    """
    x = as_data(x)
    q = as_quantile(q)
    lower, upper = as_bounds(lower, upper)
    neighbors = as_relation(neighbors)
    ts = np.asarray(t)
    if ts.size == 0 or np.any(ts < 0) or np.any(ts != np.floor(ts)):
        raise ValueError(f"t must be whole numbers >= 0, got {t!r}")
    target = order_statistic(x, q)
    points, lo, hi = _cells(x, lower, upper, candidates)
    length = np.asarray(inverse_len_quantile(x, q, points, lower, upper, neighbors))
    far = np.maximum(np.abs(lo - target), np.abs(hi - target))
    order = np.argsort(length, kind="stable")
    reach = np.maximum.accumulate(far[order])            # the largest |z - f(x)| over the cells up to each len
    idx = np.searchsorted(length[order], ts.ravel().astype(float), side="right")
    out = np.where(idx > 0, reach[np.maximum(idx - 1, 0)], 0.0).reshape(ts.shape)
    return float(out) if out.ndim == 0 else out


def inverse_sensitivity_error_bound(x: ArrayLike, q: float, epsilon: float, zeta: float, lower: float, upper: float,
                                    neighbors: Relation | str = Relation.BOUNDED,
                                    candidates: ArrayLike | None = None) -> dict:
    """The chapter's accuracy theorem for inverse sensitivity: ``|M(x) − f(x)| <= Ω_f(x; t − 1)`` w.p. ``>= 1 − ζ``.

    Chapter: *How accurate is it?*.

    With candidates (counting measure, ``f(x)`` among them):
    ``t = ⌈(2/ε) ln(|Z|/ζ)⌉``.  Over ``[lower, upper]`` (length measure): for
    each ``j``, ``t_j = j + ⌈(2/ε) ln((u − ℓ)/(ζ λ_j))⌉`` with ``λ_j`` the
    length of ``{z : len(x; z) <= j}``, and the smallest ``t_j`` is used.
    ``P(len(x; M) >= t) <= ζ``, and ``len(x; z) <= t − 1`` means
    ``|z − f(x)| <= Ω_f(x; t − 1)``.

    Returns
    -------
    dict
        ``t``, ``bound`` (``Ω_f(x; t − 1)``), ``j`` (None with candidates).
    """
    epsilon = as_positive(epsilon, "epsilon")
    zeta = _zeta(zeta)
    lower, upper = as_bounds(lower, upper)
    neighbors = as_relation(neighbors)
    dist = inverse_sensitivity_distribution(x, q, epsilon, lower, upper, neighbors, candidates)
    if candidates is not None:
        if not np.any(dist["len"] == 0):
            raise ValueError("candidates must contain f(x) (the order statistic) for this bound")
        t = math.ceil(2.0 / epsilon * math.log(dist["len"].size / zeta))
        j = None
    else:
        gap = dist["right"] - dist["left"]
        best: tuple[int, int] | None = None
        for jj in np.unique(dist["len"][np.isfinite(dist["len"])]):
            lam = float(np.sum(gap[dist["len"] <= jj]))
            tt = int(jj) + math.ceil(2.0 / epsilon * math.log((upper - lower) / (zeta * lam)))
            if best is None or tt < best[0]:
                best = (tt, int(jj))
        assert best is not None                   # f(x) itself has len 0: at least one finite len
        t, j = best
    bound = local_modulus_quantile(x, q, t - 1, lower, upper, neighbors, candidates)
    return {"t": int(t), "bound": float(bound), "j": j}


# ------------------------------------------------------------------ lower bounds
def packing_failure_bound(n_datasets: int, t: int, epsilon: float) -> float:
    """``(K − 1)/(e^{tε} + K − 1)``: the packing lemma's failure probability.

    Chapter: *What can no mechanism beat?*.  For ``K`` datasets within distance
    ``t`` of the first, and disjoint sets of outputs, every ε-DP mechanism
    misses its dataset's set with at least this probability on one of them.
    """
    n_datasets = as_int(n_datasets, "n_datasets", minimum=2)
    t = as_int(t, "t", minimum=0)
    epsilon = as_positive(epsilon, "epsilon")
    # (K − 1) e^{−tε} / (1 + (K − 1) e^{−tε}), without overflow for large tε
    a = (n_datasets - 1) * math.exp(-t * epsilon)
    return a / (1.0 + a)


def _best_t(values, ts):
    i = int(np.argmax(values))
    return float(values[i]), int(ts[i])


def count_lower_bound(epsilon: float, return_t: bool = False) -> float | tuple[float, int]:
    """``max_t t/(2(1 + e^{tε}))``: no ε-DP count has a smaller worst-case expected error.

    Chapter: *What can no mechanism beat?* (two datasets ``t`` records apart,
    counts ``t`` apart).  ``return_t`` also returns the best ``t``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    ts = np.arange(1, math.ceil(12.0 / epsilon) + 2, dtype=float)
    val, t = _best_t(ts / 2.0 * np.exp(-np.logaddexp(0.0, ts * epsilon)), ts)
    return (val, t) if return_t else val


def histogram_lower_bound(d: int, epsilon: float, return_t: bool = False) -> float | tuple[float, int]:
    """``max_t (t/2) d/(e^{tε} + d)``: no ε-DP histogram over ``d`` cells has a smaller worst-case expected
    largest error (add/remove neighbours).

    Chapter: *What can no mechanism beat?* (``d + 1`` datasets: a base and the
    base with ``t`` records added to one cell).
    """
    d = as_int(d, "d", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    ts = np.arange(1, math.ceil((math.log(d) + 12.0) / epsilon) + 2, dtype=float)
    # d/(e^{tε} + d) = 1/(1 + e^{tε − ln d})
    val, t = _best_t(ts / 2.0 * np.exp(-np.logaddexp(0.0, ts * epsilon - math.log(d))), ts)
    return (val, t) if return_t else val


def median_lower_bound(epsilon: float, lower: float, upper: float) -> float:
    """``(u − ℓ)/(2(1 + e^ε))``: no ε-DP median on ``[lower, upper]`` has a smaller worst-case expected error.

    Chapter: *What can no mechanism beat?* (two neighbours whose medians are
    ``lower`` and ``upper``, for either relation).
    """
    lower, upper = as_bounds(lower, upper)
    return (upper - lower) / 2.0 * math.exp(-float(np.logaddexp(0.0, as_positive(epsilon, "epsilon"))))


@overload
def local_minimax_lower_bound(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                              neighbors: Relation | str = Relation.BOUNDED, t_max: int | None = None,
                              return_t: Literal[False] = False) -> float: ...


@overload
def local_minimax_lower_bound(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                              neighbors: Relation | str = Relation.BOUNDED, t_max: int | None = None, *,
                              return_t: Literal[True]) -> tuple[float, int]: ...


@overload
def local_minimax_lower_bound(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                              neighbors: Relation | str = Relation.BOUNDED, t_max: int | None = None,
                              return_t: bool = False) -> float | tuple[float, int]: ...


def local_minimax_lower_bound(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                              neighbors: Relation | str = Relation.BOUNDED, t_max: int | None = None,
                              return_t: bool = False) -> float | tuple[float, int]:
    """``max_t Ω_f(x; t)/(2(1 + e^{tε}))``: every ε-DP mechanism has at least this expected error on ``x`` or on
    some dataset within distance ``t`` of it.

    Chapter: *What can no mechanism beat?* (instance optimality).  ``t`` runs
    from 1 to ``t_max`` (default ``len(x)``).
    """
    x = as_data(x)
    epsilon = as_positive(epsilon, "epsilon")
    neighbors = as_relation(neighbors)
    t_max = len(x) if t_max is None else as_int(t_max, "t_max", minimum=1)
    ts = np.arange(1, t_max + 1)
    omega = local_modulus_quantile(x, q, ts, lower, upper, neighbors)
    val, t = _best_t(omega / 2.0 * np.exp(-np.logaddexp(0.0, ts * epsilon)), ts)
    return (val, t) if return_t else val


def laplace_expected_max(d: int, scale: float) -> float:
    """``E max_j |Z_j|`` for ``d`` independent ``Lap(scale)``: ``scale · H_d`` (``H_d`` the d-th harmonic number).

    Chapter: *What can no mechanism beat?* (the Laplace histogram against the
    bound).  ``|Z_j|`` are independent exponentials; their maximum has mean
    ``scale (1 + 1/2 + ... + 1/d)``.
    """
    d = as_int(d, "d", minimum=1)
    return as_positive(scale, "scale") * float(np.sum(1.0 / np.arange(1, d + 1)))


def expected_abs_error(distribution: Mapping[str, ArrayLike], target: float) -> float:
    """``E|M − target|`` exactly, for a distribution of uniform intervals (and point masses).

    Chapter: *What can no mechanism beat?*.  ``distribution`` is a dict with
    ``left``, ``right`` and ``log_prob`` (as returned by
    :func:`dpsens.mechanisms.exponential.quantile_exponential_distribution` and
    :func:`dpsens.mechanisms.inverse_sensitivity.inverse_sensitivity_distribution`);
    on ``[a, b]`` the release is uniform, a point mass when ``a = b``.
    """
    a = np.asarray(distribution["left"], dtype=float)
    b = np.asarray(distribution["right"], dtype=float)
    p = np.exp(np.asarray(distribution["log_prob"], dtype=float))
    c = float(target)
    width = b - a
    inside = (a < c) & (c < b)
    with np.errstate(divide="ignore", invalid="ignore"):
        within = ((c - a) ** 2 + (b - c) ** 2) / (2.0 * width)
    mid = (a + b) / 2.0
    err = np.where(inside, within, np.abs(mid - c))
    return float(np.sum(p * err))


# ------------------------------------------------------------------ the seeded check
def simulate_accuracy(ages: ArrayLike, count: float, epsilon: float, zeta: float, rng: np.random.Generator,
                      runs: int = 2000, delta: float = DELTA, bounds: tuple[float, float] = (0.0, 100.0),
                      ptr_bound: float = 0.01, n_chunks: int = 600,
                      chunk_bounds: tuple[float, float] = (20.0, 80.0), n_partitions: int = 20) -> pd.DataFrame:
    """Each mechanism's accuracy bound at confidence ``1 − ζ`` beside its simulated error (seeded).

    Chapter: *How accurate is it?* (the table and the explorer).

    ``count`` is released by the Laplace (Δ = 1) and the analytic Gaussian
    (Δ₂ = 1, ``delta``) mechanisms -- a count moves by at most 1 under either
    relation, and ``n`` is not used.  The median of ``ages`` (target: the
    order statistic of :func:`dpsens.inverse.order_statistic`) is released
    under add/remove neighbours (``n`` private) by the exponential mechanism
    (rank score; its error in rank and in years), propose-test-release (ε/2
    for the test and for the release, proposed bound ``ptr_bound``),
    smooth sensitivity (Laplace, ``Lap(2S/ε)``: the Laplace mechanism with
    ``2 S_β(x)`` in place of the sensitivity; heavy-tailed, ``10 S/ε · Z``),
    sample-and-aggregate (``n_chunks`` chunks by independent labels, answers
    clipped to ``chunk_bounds``, ``n_partitions`` partitions each used
    equally often) and inverse sensitivity (whole years 0..100, and the
    interval).  Draws from ``rng`` in that order.

    Returns
    -------
    pandas.DataFrame
        One row per mechanism: ``mechanism``, ``error in``, ``bound``
        (exceeded with probability at most ζ), ``simulated`` (the ``1 − ζ``
        quantile of the simulated errors), ``share above bound``, ``n`` (the
        releases the errors are over; PTR's answers only), ``refused``
        (PTR's share of ⊥) and ``refusal bound``.
    """
    ages = as_data(ages, "ages")
    count = float(count)
    epsilon = as_positive(epsilon, "epsilon")
    zeta = _zeta(zeta)
    runs = as_int(runs, "runs", minimum=1)
    delta = as_probability(delta, "delta")
    lower, upper = as_bounds(*bounds)
    lo_c, hi_c = as_bounds(*chunk_bounds)
    rows = []

    def row(name, unit, bound, err, **extra):
        err = np.asarray(err, dtype=float)
        rows.append({"mechanism": name, "error in": unit, "bound": float(bound),
                     "simulated": float(np.quantile(err, 1 - zeta)) if err.size else np.nan,
                     "share above bound": float(np.mean(err > bound + 1e-9)) if err.size else np.nan,
                     "n": int(err.size), **extra})

    rel = laplace_mechanism(count, 1.0, epsilon, rng, size=runs)
    row("Laplace, count", "records", laplace_tail_bound(1.0, epsilon, zeta), np.abs(rel - count))
    sigma = gaussian_sigma(1.0, epsilon, delta, method="analytic")
    rel = gaussian_mechanism(count, 1.0, epsilon, delta, rng, size=runs, method="analytic")
    row("Gaussian (analytic), count", "records", gaussian_tail_bound(sigma, zeta), np.abs(rel - count))

    q, rel_name = 0.5, Relation.UNBOUNDED
    target = order_statistic(ages, q)
    rel = quantile_exponential(ages, q, epsilon, lower, upper, rng, rel_name, runs)
    rb = rank_error_bound(ages, q, epsilon, zeta, lower, upper, rel_name)
    row("exponential mechanism, median", "rank (records)", rb, rank_error(ages, q, rel, lower, upper, rel_name))
    row("exponential mechanism, median", "years", rank_value_bound(ages, q, rb, lower, upper, rel_name),
        np.abs(rel - target))

    distance = distance_to_high_ls(ages, "median", ptr_bound, lower, upper, rel_name)
    draws = [ptr_from_distance(target, distance, ptr_bound, epsilon / 2, delta, rng) for _ in range(runs)]
    given = np.array([g for g in draws if g is not None])
    threshold = ptr_threshold(epsilon / 2, delta)
    row("propose-test-release, median", "years", laplace_tail_bound(ptr_bound, epsilon / 2, zeta),
        np.abs(given - target), refused=1 - given.size / runs,
        **{"refusal bound": ptr_refusal_bound(distance, epsilon / 2, threshold),
           "refusal exact": 1 - ptr_pass_probability(distance, epsilon / 2, threshold)})

    s_lap = smooth_sensitivity(ages, "median", smooth_sensitivity_beta(epsilon, delta), lower, upper, rel_name)
    if s_lap > 0:
        rel = laplace_mechanism(target, 2 * s_lap, epsilon, rng, size=runs)
        row("smooth sensitivity, Laplace, median", "years", laplace_tail_bound(2 * s_lap, epsilon, zeta),
            np.abs(rel - target))
    s_ht = smooth_sensitivity(ages, "median", smooth_sensitivity_beta(epsilon, noise="heavy-tailed"), lower, upper,
                              rel_name)
    if s_ht > 0:
        scale = s_ht / heavy_tailed_constants(epsilon)[0]
        rel = target + scale * sample_polynomial_tail(rng, 4.0, runs)
        row("smooth sensitivity, heavy-tailed, median", "years", heavy_tailed_tail_exact(scale, zeta),
            np.abs(rel - target))

    agg = _aggregates(ages, "median", n_chunks, lo_c, hi_c, rng, n_partitions)
    picked = agg[np.arange(runs) % agg.size]
    rel = laplace_mechanism(picked, hi_c - lo_c, n_chunks * epsilon, rng)
    bias = float(np.max(np.abs(agg - target)))
    row(f"sample and aggregate, median, m = {n_chunks}", "years",
        bias + laplace_tail_bound(hi_c - lo_c, n_chunks * epsilon, zeta), np.abs(rel - target))

    grid = np.arange(math.ceil(lower), math.floor(upper) + 1.0)
    rel = inverse_sensitivity_quantile(ages, q, epsilon, lower, upper, rng, rel_name, runs, candidates=grid)
    row("inverse sensitivity, whole years, median", "years",
        inverse_sensitivity_error_bound(ages, q, epsilon, zeta, lower, upper, rel_name, grid)["bound"],
        np.abs(rel - target))
    rel = inverse_sensitivity_quantile(ages, q, epsilon, lower, upper, rng, rel_name, runs)
    row("inverse sensitivity, interval, median", "years",
        inverse_sensitivity_error_bound(ages, q, epsilon, zeta, lower, upper, rel_name)["bound"],
        np.abs(rel - target))
    return pd.DataFrame(rows)


def saa_bias_noise(x: ArrayLike, func: Callable[[np.ndarray], float], chunk_counts: Iterable[int], epsilon: float,
                   zeta: float, rng: np.random.Generator, chunk_bounds: tuple[float, float] = (20.0, 80.0),
                   n_partitions: int = 20, runs: int = 2000, target: float | None = None) -> pd.DataFrame:
    """Sample-and-aggregate's error as the number of chunks ``m`` varies: bias, noise, bound and simulation.

    Chapter: *How accurate is it?*.  For each ``m``, ``n_partitions``
    partitions by independent labels (add/remove neighbours); the bias is
    the largest ``|A − f(x)|`` over them (``A`` the average of the clipped
    chunk answers), the noise term ``(u − ℓ)/(mε) · ln(1/ζ)``; their sum is
    exceeded with probability at most ζ given the partition.  The simulation
    releases ``runs`` times with the Laplace mechanism on the partitions'
    averages, each used equally often.

    Returns
    -------
    pandas.DataFrame
        One row per ``m``: ``m``, ``bias``, ``noise``, ``bound``, ``simulated``
        (the ``1 − ζ`` quantile of the errors).
    """
    epsilon = as_positive(epsilon, "epsilon")
    zeta = _zeta(zeta)
    lo_c, hi_c = as_bounds(*chunk_bounds)
    runs = as_int(runs, "runs", minimum=1)
    target = float(np.median(as_data(x))) if target is None else float(target)
    rows = []
    for m in chunk_counts:
        m = as_int(m, "chunk_counts", minimum=1)
        agg = _aggregates(x, func, m, lo_c, hi_c, rng, n_partitions)
        rel = laplace_mechanism(agg[np.arange(runs) % agg.size], hi_c - lo_c, m * epsilon, rng)
        bias = float(np.max(np.abs(agg - target)))
        noise = laplace_tail_bound(hi_c - lo_c, m * epsilon, zeta)
        rows.append({"m": m, "bias": bias, "noise": noise, "bound": bias + noise,
                     "simulated": float(np.quantile(np.abs(rel - target), 1 - zeta))})
    return pd.DataFrame(rows)
