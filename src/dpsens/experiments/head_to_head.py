"""The mechanisms of the part head to head: seeded simulations of their errors on one dataset.

Chapters: *Smooth sensitivity* (one comparison across ε:
:func:`rmse_across_epsilon`), *Sample and aggregate* (against the other
mechanisms: :func:`release_errors`) and *The exponential mechanism and
inverse sensitivity* (which mechanism for a median:
:func:`quantile_head_to_head`, printed with :func:`format_error`).  Each
function is one experiment of its chapter, written once and tested: which
mechanisms release the mean and the median, with which budget split and
which bounds, and in which order they draw from the one seeded
:class:`numpy.random.Generator` (so a chapter's numbers are reproduced
exactly).  Propose-test-release may refuse (⊥); its refusals are counted,
and its error is over the answers it gives.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validate import (as_bounds, as_data, as_int, as_positive, as_probability, as_quantile,
                         check_in_bounds, check_rng)
from ..mechanisms.exponential import quantile_exponential
from ..mechanisms.heavy_tailed import sample_polynomial_tail
from ..mechanisms.inverse_sensitivity import inverse_sensitivity_quantile
from ..mechanisms.laplace import laplace_mechanism, noisy_mean_sum_count
from ..mechanisms.noise import laplace_noise
from ..mechanisms.ptr import propose_test_release, ptr_from_distance
from ..mechanisms.sample_aggregate import chunk_answers
from ..mechanisms.smooth_noise import check_laplace_smooth_region, smooth_sensitivity_beta, smooth_sensitivity_mechanism
from ..relation import Relation, as_relation
from ..smooth import distance_to_high_ls, smooth_sensitivity
from .sample_aggregate import partition_aggregates

__all__ = ["rmse_across_epsilon", "release_errors", "quantile_head_to_head", "HEAD_TO_HEAD_MECHANISMS",
           "REFUSED_ALL", "format_error"]

#: the two queries the comparisons release
QUERIES = ("mean", "median")


def _check_per_query(mapping: object, name: str) -> dict:
    """``mapping`` with exactly the keys "mean" and "median", or a ValueError naming the argument."""
    if not isinstance(mapping, dict) or set(mapping) != set(QUERIES):
        raise ValueError(f"{name} must be a dict with the keys 'mean' and 'median', got {mapping!r}")
    return {q: mapping[q] for q in QUERIES}


def _ptr_releases(value: float, distance: float, bound: float, epsilon: float, delta: float, rng: np.random.Generator,
                  runs: int) -> np.ndarray:
    """The answers of ``runs`` propose-test-release calls that pass the test (⊥ left out)."""
    released = [ptr_from_distance(value, distance, bound, epsilon, delta, rng) for _ in range(runs)]
    return np.array([r for r in released if r is not None])


def rmse_across_epsilon(x: ArrayLike, epsilons: Sequence[float], delta: float, lower: float, upper: float,
                        rng: np.random.Generator, settings: dict, runs: int = 400) -> dict:
    """Root-mean-square error of three releases of the mean and the median, for each ε.

    Chapter: *Smooth sensitivity* (one comparison across ε).

    For each ``ε`` in ``epsilons`` and each query, in this order, ``runs``
    releases of:

    * **global sensitivity**: the mean as a noisy sum over a noisy count
      (:func:`~dpsens.mechanisms.laplace.noisy_mean_sum_count`, ``ε/2`` each); the
      median by the Laplace mechanism with the global sensitivity
      ``upper − lower`` (one record replaced can move it across the range);
    * **smooth sensitivity**: ``Lap(2S/ε)`` with ``S`` the exact β-smooth
      sensitivity, ``β = ε / (2 ln(2/δ))``;
    * **PTR**: :func:`~dpsens.mechanisms.ptr.ptr_from_distance` with the proposed
      bound, ``ε/2`` for the test and for the release, and the distance to
      high local sensitivity computed once (it depends on the data only).

    Parameters
    ----------
    x : array_like
        The data, inside ``[lower, upper]``.
    epsilons : sequence of float
    delta : float
        The δ of PTR and of the smooth-sensitivity β.
    lower, upper : float
    rng : numpy.random.Generator
    settings : dict
        ``{"mean": (relation, bound), "median": (relation, bound)}``: the
        neighbour relation of the sensitivities and PTR's proposed bound.
    runs : int

    Returns
    -------
    dict
        ``"rmse"``: ``{query: {"global sensitivity": [...], "PTR": [...],
        "smooth sensitivity": [...]}}``, one value per ε (PTR's is NaN when
        every run refused); ``"refused"``: ``{query: [...]}``, PTR's ⊥ per ε;
        ``"distance"``: ``{query: distance to high local sensitivity}``.
    """
    x = as_data(x)
    lower, upper = as_bounds(lower, upper)
    check_in_bounds(x, lower, upper)
    epsilons = [as_positive(e, "epsilons") for e in epsilons]
    delta = as_probability(delta, "delta")
    check_rng(rng)
    settings = _check_per_query(settings, "settings")
    for relation, bound in settings.values():
        as_relation(relation)
        as_positive(bound, "settings (the proposed bound)")
    runs = as_int(runs, "runs", minimum=1)
    true = {"mean": x.mean(), "median": float(np.median(x))}
    dist = {q: distance_to_high_ls(x, q, settings[q][1], lower, upper, settings[q][0]) for q in true}
    err: dict[str, dict[str, list[float]]] = {q: {"global sensitivity": [], "PTR": [], "smooth sensitivity": []}
                                              for q in true}
    refused: dict[str, list[int]] = {q: [] for q in true}
    for eps in epsilons:
        check_laplace_smooth_region(eps, delta)         # the Laplace calibration is proved only there
        beta = smooth_sensitivity_beta(eps, delta)
        for q in true:
            relation, bound = settings[q]
            if q == "mean":
                gs = noisy_mean_sum_count(x, lower, upper, eps, rng, size=runs)
            else:
                gs = laplace_mechanism(true[q], upper - lower, eps, rng, size=runs)
            s = smooth_sensitivity(x, q, beta, lower, upper, relation)
            ss = laplace_mechanism(true[q], 2 * s, eps, rng, size=runs)    # Lap(2S/ε)
            given = _ptr_releases(true[q], dist[q], bound, eps / 2, delta, rng, runs)
            err[q]["global sensitivity"].append(np.sqrt(np.mean((gs - true[q]) ** 2)))
            err[q]["smooth sensitivity"].append(np.sqrt(np.mean((ss - true[q]) ** 2)))
            err[q]["PTR"].append(np.sqrt(np.mean((given - true[q]) ** 2)) if given.size else np.nan)
            refused[q].append(runs - given.size)
    return {"rmse": err, "refused": refused, "distance": dist}


def release_errors(x: ArrayLike, chunk_counts: dict, epsilon: float, delta: float, rng: np.random.Generator,
                   ptr_bounds: dict, runs: int = 1000, data_bounds: tuple[float, float] = (0.0, 100.0),
                   chunk_bounds: tuple[float, float] = (20.0, 80.0),
                   n_partitions: int = 50) -> tuple[dict[tuple[str, str], np.ndarray], dict[str, int]]:
    """Absolute errors of ``runs`` releases of the mean and the median by four kinds of mechanism.

    Chapter: *Sample and aggregate* (against the other mechanisms).

    For each query, in this order (total budget ``ε`` each; the
    sensitivities under records added or removed):

    * **global sensitivity**: the mean as a noisy sum over a noisy count of
      the data clipped to ``data_bounds``; the median by the Laplace
      mechanism with its global sensitivity ``(upper − lower)/2``;
    * **propose-test-release** with the proposed bound of ``ptr_bounds``,
      ``ε/2`` for the test and for the release: one full
      :func:`~dpsens.mechanisms.ptr.propose_test_release` gives the distance,
      then ``runs`` releases from it;
    * **smooth sensitivity**, ``Lap(2S/ε)``: the mechanism once for its noise
      scale, then ``runs`` Laplace draws;
    * **sample and aggregate** for each chunk count ``m`` of
      ``chunk_counts`` (ascending): ``n_partitions`` random balanced
      partitions (answers clipped to ``chunk_bounds``), then each release
      picks one of them at random and adds ``Lap((u − ℓ)/(mε))`` -- ε-DP
      for records *replaced* only (the balanced partition), unlike the
      others, which are private under additions and removals.

    Parameters
    ----------
    x : array_like
        The data, inside ``data_bounds``.
    chunk_counts : dict
        ``{"mean": [m, ...], "median": [m, ...]}`` (repeats are dropped).
    epsilon, delta : float
    rng : numpy.random.Generator
    ptr_bounds : dict
        ``{"mean": bound, "median": bound}``.
    runs : int
    data_bounds, chunk_bounds : (float, float)
    n_partitions : int

    Returns
    -------
    (errors, refused)
        ``errors``: ``{(query, mechanism label): numpy array of absolute
        errors}`` (PTR's without its ⊥ answers); ``refused``: ``{query:
        number of ⊥}``.
    """
    x = as_data(x)
    lower, upper = as_bounds(*data_bounds)
    check_in_bounds(x, lower, upper)
    chunk_lower, chunk_upper = as_bounds(*chunk_bounds)
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    check_rng(rng)
    chunk_counts = {q: sorted({as_int(m, "chunk_counts", minimum=1) for m in ms})
                    for q, ms in _check_per_query(chunk_counts, "chunk_counts").items()}
    ptr_bounds = {q: as_positive(b, "ptr_bounds") for q, b in _check_per_query(ptr_bounds, "ptr_bounds").items()}
    runs = as_int(runs, "runs", minimum=1)
    true = {"mean": x.mean(), "median": np.median(x)}
    errors, refused = {}, {}
    for q in QUERIES:
        if q == "mean":
            gs = noisy_mean_sum_count(x, lower, upper, epsilon, rng, size=runs)
            errors[(q, "global sensitivity: noisy sum / noisy count")] = np.abs(gs - true[q])
        else:
            gs_median = (upper - lower) / 2
            gs = laplace_mechanism(true[q], gs_median, epsilon, rng, size=runs)
            errors[(q, f"global sensitivity: Laplace, GS = {gs_median:g}")] = np.abs(gs - true[q])
        first = propose_test_release(x, q, ptr_bounds[q], epsilon / 2, delta, lower, upper, rng,
                                     neighbors="unbounded", details=True)
        given = _ptr_releases(true[q], first["distance"], ptr_bounds[q], epsilon / 2, delta, rng, runs)
        refused[q] = runs - given.size
        errors[(q, f"propose-test-release, bound {ptr_bounds[q]:g}")] = np.abs(given - true[q])
        sm = smooth_sensitivity_mechanism(x, q, epsilon, delta, lower, upper, rng, neighbors="unbounded",
                                          details=True)
        errors[(q, "smooth sensitivity, Laplace")] = np.abs(laplace_noise(sm["noise_scale"], rng, runs))
        for m in chunk_counts[q]:
            agg = partition_aggregates(x, q, m, chunk_lower, chunk_upper, rng, n_partitions=n_partitions)
            rel = agg[rng.integers(0, agg.size, runs)] + laplace_noise((chunk_upper - chunk_lower) / (m * epsilon),
                                                                       rng, runs)
            errors[(q, f"sample and aggregate, m = {m}")] = np.abs(rel - true[q])
    return errors, refused


#: the mechanisms of :func:`quantile_head_to_head`, in the order they draw from the generator
HEAD_TO_HEAD_MECHANISMS = (
    "propose-test-release (ε, δ)", "smooth sensitivity, Laplace (ε, δ)", "smooth sensitivity, heavy-tailed (ε)",
    "sample and aggregate (ε)", "exponential mechanism (ε)", "inverse sensitivity (ε)",
    "inverse sensitivity, whole years (ε)",
)


def quantile_head_to_head(x: ArrayLike, quantiles: Sequence[float], epsilons: Sequence[float], delta: float,
                          rng: np.random.Generator, runs: int = 1000, bounds: tuple[float, float] = (0.0, 100.0),
                          ptr_bound: float = 0.01, n_chunks: int = 600,
                          chunk_bounds: tuple[float, float] = (20.0, 80.0), n_partitions: int = 20,
                          neighbors: Relation | str = Relation.UNBOUNDED, grid: ArrayLike | None = None,
                          ) -> tuple[dict[tuple[float, float, str], np.ndarray], pd.DataFrame]:
    """Absolute errors of six mechanisms releasing quantiles of ``x``, for each ε (seeded).

    Chapter: *The exponential mechanism and inverse sensitivity* (which
    mechanism for a median?).

    For each quantile ``q`` (0.5 -> ``"median"``, 0.9 -> ``"percentile_90"``
    for the mechanisms that take a query name) and each ε, in this order,
    ``runs`` releases of :data:`HEAD_TO_HEAD_MECHANISMS`, every one with the
    same ε and the relation ``neighbors``; the two with a δ use the same
    public ``delta``, the other four are pure ε-DP:

    * **PTR**: ε/2 for the test and for the release (so (ε, δ) in all),
      proposed bound ``ptr_bound``; the exact distance is computed once;
    * **smooth sensitivity, Laplace**: ``Lap(2S/ε)``, ``β = ε/(2 ln(2/δ))``;
    * **smooth sensitivity, heavy-tailed**: noise ``10 S/ε · Z``,
      ``Z ∝ 1/(1+|z|^4)``, ``β = ε/10``;
    * **sample and aggregate**: ``n_chunks`` chunks (answers clipped to
      ``chunk_bounds``; balanced random partitions for ``"bounded"``,
      independent labels for ``"unbounded"``), ``n_partitions`` partitions
      drawn once, each release picks one and adds ``Lap((u − ℓ)/(mε))``;
    * **exponential mechanism** with the rank utility and **inverse
      sensitivity**, both over the public ``bounds``; and inverse
      sensitivity over the public candidates ``grid`` (default: the whole
      numbers in ``bounds``).

    Every mechanism's error is against the same target, the book's quantile
    ``np.quantile(x, q)`` (numpy's default linear interpolation; chapter
    *Neighbouring datasets*).  PTR and smooth sensitivity release noise around
    it; inverse sensitivity aims at the order statistic ``x_(r_α)``
    (:func:`dpsens.inverse.order_statistic`) and the exponential mechanism at
    the points with ``αn`` records below, which differ from it on data with a
    gap at the quantile -- an error the table then counts.  Where PTR refused
    every run its error columns are NaN: print them with
    :func:`format_error`.

    Returns
    -------
    (errors, table)
        ``errors``: ``{(q, ε, mechanism): numpy array of absolute errors}``
        (PTR's without its ⊥); ``table``: a pandas DataFrame with one row per
        (q, ε, mechanism): ``median |error|``, ``90th pct |error|``,
        ``refused`` (share of ⊥).
    """
    x = as_data(x)
    lower, upper = as_bounds(*bounds)
    check_in_bounds(x, lower, upper)
    chunk_lower, chunk_upper = as_bounds(*chunk_bounds)
    quantiles = [as_quantile(q, "quantiles") for q in quantiles]
    names = {0.5: "median", 0.25: "percentile_25", 0.75: "percentile_75", 0.9: "percentile_90"}
    for q in quantiles:
        if q not in names:
            raise ValueError(f"quantiles must be among {sorted(names)} (the book's query names), got {q!r}")
    epsilons = [as_positive(e, "epsilons") for e in epsilons]
    delta = as_probability(delta, "delta")
    check_rng(rng)
    runs = as_int(runs, "runs", minimum=1)
    ptr_bound = as_positive(ptr_bound, "ptr_bound")
    n_chunks = as_int(n_chunks, "n_chunks", minimum=1)
    neighbors = as_relation(neighbors)
    partition = "balanced" if neighbors is Relation.BOUNDED else "independent"
    grid = np.arange(math.ceil(lower), math.floor(upper) + 1.0) if grid is None else grid
    errors, rows = {}, []
    for q in quantiles:
        name, true = names[q], float(np.quantile(x, q))
        distance = distance_to_high_ls(x, name, ptr_bound, lower, upper, neighbors)
        agg = np.array([np.mean(chunk_answers(x, name, n_chunks, chunk_lower, chunk_upper, rng=rng,
                                              partition=partition)) for _ in range(n_partitions)])
        for eps in epsilons:
            out: dict[str, float | np.ndarray] = {}
            given = _ptr_releases(true, distance, ptr_bound, eps / 2, delta, rng, runs)
            out[HEAD_TO_HEAD_MECHANISMS[0]] = given
            check_laplace_smooth_region(eps, delta)     # the Laplace calibration is proved only there
            s_lap = smooth_sensitivity(x, name, smooth_sensitivity_beta(eps, delta), lower, upper, neighbors)
            out[HEAD_TO_HEAD_MECHANISMS[1]] = true + laplace_noise(2 * s_lap / eps, rng, runs)
            s_ht = smooth_sensitivity(x, name, smooth_sensitivity_beta(eps, noise="heavy-tailed"), lower, upper, neighbors)
            out[HEAD_TO_HEAD_MECHANISMS[2]] = true + 10 * s_ht / eps * sample_polynomial_tail(rng, 4.0, runs)
            out[HEAD_TO_HEAD_MECHANISMS[3]] = agg[rng.integers(0, agg.size, runs)] + laplace_noise(
                (chunk_upper - chunk_lower) / (n_chunks * eps), rng, runs)
            out[HEAD_TO_HEAD_MECHANISMS[4]] = quantile_exponential(x, q, eps, lower, upper, rng, neighbors, runs)
            out[HEAD_TO_HEAD_MECHANISMS[5]] = inverse_sensitivity_quantile(x, q, eps, lower, upper, rng,
                                                                          neighbors, runs)
            out[HEAD_TO_HEAD_MECHANISMS[6]] = inverse_sensitivity_quantile(x, q, eps, lower, upper, rng, neighbors,
                                                                          runs, candidates=grid)
            for mech_name, released in out.items():
                err = np.abs(np.asarray(released, dtype=float) - true)
                errors[(q, eps, mech_name)] = err
                rows.append({"q": q, "epsilon": eps, "mechanism": mech_name,
                             "median |error|": float(np.median(err)) if err.size else np.nan,
                             "90th pct |error|": float(np.percentile(err, 90)) if err.size else np.nan,
                             "refused": 1 - err.size / runs})
    return errors, pd.DataFrame(rows)


#: what :func:`format_error` prints for an error column left NaN because PTR refused every run
REFUSED_ALL = "refused (all runs)"


def format_error(value: float, spec: str = ".2g") -> str:
    """An error of :func:`quantile_head_to_head`'s table as text: ``REFUSED_ALL`` for NaN (PTR refused every run).

    Chapter: *The exponential mechanism and inverse sensitivity* (the head-to-head table).

    Examples
    --------
    >>> format_error(0.01234), format_error(float("nan"))
    ('0.012', 'refused (all runs)')
    """
    value = float(value)
    return REFUSED_ALL if math.isnan(value) else format(value, spec)
