"""Sample-and-aggregate measured: the source reproduced, the trade-off, the chunkings that fail.

Chapter: *Sample and aggregate*.  The experiments of the chapter, seeded and
tested: the source's version reproduced (:func:`source_chunks`, its chunk
means, its ``saa_avg_age``, ``gs_avg`` and ``plot_results`` lists, its error
measure :func:`pct_error`); the noiseless answers of random partitions
(:func:`partition_aggregates`, which the head-to-head comparisons of the part
use too) and the bias/noise trade-off (:func:`saa_error_profile`); overlapping
chunks (:func:`bootstrap_multiplicity`) and the positional counterexample.
The mechanism itself is :mod:`dpsens.mechanisms.sample_aggregate`; the
figures are in :mod:`dpsens.figures.sample_aggregate`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_int, as_positive, check_rng
from ..mechanisms.noise import laplace_noise
from ..mechanisms.sample_aggregate import chunk_answers
from ..queries import check_query

__all__ = ["source_chunks", "pct_error", "source_chunk_means", "source_saa_avg_age", "source_gs_avg",
           "source_plot_results", "partition_aggregates", "saa_error_profile", "bootstrap_multiplicity",
           "positional_median_counterexample"]

#: a query: a name of :data:`dpsens.QUERIES` or a function of a 1-D array
_Query = str | Callable[[np.ndarray], float]


def source_chunks(x: ArrayLike, k: int) -> list[np.ndarray]:
    """The chunks of *Programming Differential Privacy*'s ``saa_avg_age``.

    Chapter: *Sample and aggregate*.

    The source asks for ``k`` chunks but slices consecutive rows with
    ``chunk_size = ceil(n / k)``, which yields ``ceil(n / chunk_size)``
    chunks -- possibly fewer than ``k``, with a short last chunk -- while its
    noise is still calibrated to ``k``.  Reproduced here to count them.
    """
    x = as_data(x)
    k = as_int(k, "k", minimum=1, maximum=len(x))
    size = math.ceil(len(x) / k)
    return [x[i:i + size] for i in range(0, len(x), size)]


def pct_error(true: ArrayLike, released: ArrayLike) -> np.ndarray:
    """The source's error measure: ``|true − released| / true``, in percent.

    Chapter: *Sample and aggregate* (the histograms of percentage errors).

    Examples
    --------
    >>> float(pct_error(40.0, 41.0))
    2.5
    """
    truth = np.asarray(true, dtype=float)
    return np.abs(truth - np.asarray(released, dtype=float)) / truth * 100.0


def _source_means(prefix: np.ndarray, n: int, k: int, lower: float, upper: float) -> np.ndarray:
    """Clipped means of the source's chunks of ``ceil(n/k)`` consecutive rows, from the prefix sums."""
    size = math.ceil(n / k)
    starts = np.arange(0, n, size)
    ends = np.minimum(starts + size, n)
    return np.clip((prefix[ends] - prefix[starts]) / (ends - starts), lower, upper)


def _prefix(x: np.ndarray) -> np.ndarray:
    return np.concatenate(([0.0], np.cumsum(x)))


def _saa_avg_age(prefix, n, k, epsilon, rng, lower, upper) -> float:
    return _source_means(prefix, n, k, lower, upper).mean() + laplace_noise((upper - lower) / k / epsilon, rng)


def _gs_avg(x, u, epsilon, rng) -> float:
    clipped = np.minimum(x, u)
    noisy_sum = clipped.sum() + laplace_noise(u / (0.5 * epsilon), rng)
    noisy_count = len(x) + laplace_noise(1 / (0.5 * epsilon), rng)
    return noisy_sum / noisy_count


def source_chunk_means(x: ArrayLike, k: int, lower: float, upper: float) -> np.ndarray:
    """The clipped means of the chunks of :func:`source_chunks`, computed from prefix sums (no Python loop).

    Chapter: *Sample and aggregate* (the notes on the source's histograms).
    """
    x = as_data(x)
    k = as_int(k, "k", minimum=1, maximum=len(x))
    lower, upper = as_bounds(lower, upper)
    return _source_means(_prefix(x), len(x), k, lower, upper)


def source_saa_avg_age(x: ArrayLike, k: int, epsilon: float, rng: np.random.Generator, lower: float,
                       upper: float) -> float:
    """The source's ``saa_avg_age``: the mean of its clipped chunk means, plus noise calibrated to ``k`` chunks.

    Chapter: *Sample and aggregate* (the notes on the source's histograms).

    ``Lap((upper − lower)/k/ε)``: calibrated to the ``k`` asked for, not to
    the number of chunks :func:`source_chunks` actually makes.
    """
    x = as_data(x)
    k = as_int(k, "k", minimum=1, maximum=len(x))
    lower, upper = as_bounds(lower, upper)
    return float(_saa_avg_age(_prefix(x), len(x), k, as_positive(epsilon, "epsilon"), check_rng(rng), lower, upper))


def source_gs_avg(x: ArrayLike, u: float, epsilon: float, rng: np.random.Generator) -> float:
    """The source's ``gs_avg``: the data clipped above at ``u``, a noisy sum over a noisy count (``ε/2`` each).

    Chapter: *Sample and aggregate* (the notes on the source's histograms).
    """
    x = as_data(x)
    return float(_gs_avg(x, as_positive(u, "u"), as_positive(epsilon, "epsilon"), check_rng(rng)))


def source_plot_results(x: ArrayLike, k: int, epsilon: float, rng: np.random.Generator, lower: float,
                        upper: float) -> tuple[np.ndarray, np.ndarray]:
    """The two lists of percentage errors that the source's ``plot_results(k)`` draws -- whatever ``k`` is.

    Chapter: *Sample and aggregate* (the notes on the source's histograms).

    The source computes ``[pct_error(mean, saa_avg_age(k, ε)) for k in
    range(1, 1000)]`` and ``[pct_error(mean, gs_avg(df, u, ε)) for u in
    range(1, 1000)]``: the loop variable ``k`` hides the argument, and ``u``
    sweeps the clipping bound.  Reproduced with the same draws in the same
    order (all of :func:`source_saa_avg_age` first, then all of
    :func:`source_gs_avg`), the chunk means from prefix sums.

    Parameters
    ----------
    x : array_like
    k : int
        Ignored, as in the source.
    epsilon : float
    rng : numpy.random.Generator
    lower, upper : float
        Clipping bounds of the chunk means (the source's 20 and 80).

    Returns
    -------
    (saa, gs) : two numpy arrays of 999 percentage errors
    """
    x = as_data(x)
    as_int(k, "k", minimum=1)
    lower, upper = as_bounds(lower, upper)
    epsilon = as_positive(epsilon, "epsilon")
    check_rng(rng)
    if len(x) < 999:
        raise ValueError(f"x must hold at least 999 records (the source sweeps k up to 999), got {len(x)}")
    prefix, truth = _prefix(x), x.mean()
    saa = [pct_error(truth, _saa_avg_age(prefix, len(x), m, epsilon, rng, lower, upper)) for m in range(1, 1000)]
    gs = [pct_error(truth, _gs_avg(x, u, epsilon, rng)) for u in range(1, 1000)]
    return np.array(saa), np.array(gs)


def partition_aggregates(x: ArrayLike, func: _Query, n_chunks: int, lower: float, upper: float,
                         rng: np.random.Generator, n_partitions: int = 40) -> np.ndarray:
    """Noiseless sample-and-aggregate answers ``mean(clip(func(chunk)))`` for independent random partitions.

    Chapter: *Sample and aggregate*.

    Returns
    -------
    numpy.ndarray of shape (n_partitions,)
    """
    check_rng(rng)
    n_partitions = as_int(n_partitions, "n_partitions", minimum=1)
    return np.array([np.mean(chunk_answers(x, func, n_chunks, lower, upper, rng=rng, shuffle=True))
                     for _ in range(n_partitions)])


def saa_error_profile(x: ArrayLike, func: _Query, ks: Sequence[int], lower: float, upper: float, epsilon: float,
                      rng: np.random.Generator, n_partitions: int = 40, truth: float | None = None) -> pd.DataFrame:
    """Bias, partition spread, noise and root-mean-square error of sample-and-aggregate for each chunk count.

    Chapter: *Sample and aggregate*.

    For a release ``A = a(π) + Lap(b)`` with ``a(π)`` the noiseless answer of
    a random partition ``π`` and ``b = (upper − lower)/(kε)``, the mean
    squared error about ``truth`` splits exactly into
    ``(E a − truth)² + Var a + 2b²``.  The first two terms are estimated from
    ``n_partitions`` seeded partitions, the last is exact.

    Parameters
    ----------
    x : array_like
    func : str or callable
    ks : sequence of int
        Chunk counts.
    lower, upper : float
        Clipping bounds of the chunk answers.
    epsilon : float
    rng : numpy.random.Generator
    n_partitions : int
    truth : float, optional
        The value to estimate; ``func(x)`` by default.

    Returns
    -------
    pandas.DataFrame with columns ``k``, ``chunk_size``, ``bias``, ``partition_sd``, ``noise_sd``, ``rmse``.
    """
    x = as_data(x)
    _, f = check_query(func, allow_callable=True)
    lower, upper = as_bounds(lower, upper)
    epsilon = as_positive(epsilon, "epsilon")
    truth = float(f(x)) if truth is None else float(truth)
    rows = []
    for k in ks:
        a = partition_aggregates(x, func, k, lower, upper, rng, n_partitions)
        bias = float(a.mean() - truth)
        psd = float(a.std(ddof=1)) if a.size > 1 else 0.0
        noise_sd = math.sqrt(2) * (upper - lower) / (k * epsilon)
        rows.append({"k": int(k), "chunk_size": len(x) / k, "bias": bias, "partition_sd": psd,
                     "noise_sd": noise_sd, "rmse": math.sqrt(bias**2 + psd**2 + noise_sd**2)})
    return pd.DataFrame(rows)


def bootstrap_multiplicity(n: int, n_chunks: int, chunk_size: int, rng: np.random.Generator) -> np.ndarray:
    """How many chunks each record falls in when chunks are drawn *with replacement* (overlapping chunks).

    Chapter: *Sample and aggregate*.

    Each of ``n_chunks`` chunks is ``chunk_size`` record indices drawn
    uniformly with replacement, as a bootstrap would.  A record that falls in
    ``M`` chunks moves ``M`` clipped answers, so the average moves by up to
    ``M (upper − lower)/n_chunks``: ``M`` times the sensitivity the noise is
    calibrated to.

    Returns
    -------
    numpy.ndarray of length ``n``: the number of chunks holding each record.
    """
    n = as_int(n, "n", minimum=1)
    n_chunks = as_int(n_chunks, "n_chunks", minimum=1)
    chunk_size = as_int(chunk_size, "chunk_size", minimum=1)
    check_rng(rng)
    idx = rng.integers(0, n, size=(n_chunks, chunk_size))
    # a record counts once per chunk even if drawn twice into the same chunk
    chunk_of = np.repeat(np.arange(n_chunks), chunk_size)
    pairs = np.unique(np.stack([chunk_of, idx.ravel()]), axis=1)
    return np.bincount(pairs[1], minlength=n)


def positional_median_counterexample(n_pairs: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Two neighbouring datasets on which sample-and-aggregate over *positional* chunks of 3 jumps by 30.

    Chapter: *Sample and aggregate*.

    ``x`` repeats the blocks ``[80, 80, 20]`` and ``[20, 20, 20]``; chunks
    are consecutive triples, the answer is the chunk median clipped to
    ``[20, 80]``.  Removing the first record shifts every later record one
    position to the left: every ``[80, 80, 20]`` chunk becomes
    ``[80, 20, 20]``, whose median drops from 80 to 20.  Half of the chunk
    answers move by 60 although only one person left.

    Returns
    -------
    (x, x_prime) : numpy arrays; ``x_prime`` is ``x`` without its first record
    plus one trailing 20 so that both split into ``2·n_pairs`` chunks
    (removing a record and adding another: two unbounded steps, one bounded
    replacement -- the claimed sensitivity bound doubles at most).
    """
    n_pairs = as_int(n_pairs, "n_pairs", minimum=1)
    x = np.tile([80.0, 80.0, 20.0, 20.0, 20.0, 20.0], n_pairs)
    x_prime = np.append(x[1:], 20.0)
    return x, x_prime
