"""Sample-and-aggregate in practice: the source's chunking, the bias/noise trade-off, overlapping chunks.

Chapter: *Sample and aggregate*.

The mechanism itself is :func:`dpsens.mechanisms.sample_and_aggregate`; this
module holds what the chapter measures about it, :mod:`dpsens.figures.sample_aggregate`
its figures.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ._validate import as_bounds, as_data, as_int, as_positive
from .deprecation import moved
from .mechanisms import check_rng, chunk_answers
from .queries import check_query

__all__ = ["source_chunks", "partition_aggregates", "saa_error_profile", "bootstrap_multiplicity",
           "positional_median_counterexample"]


def source_chunks(x, k) -> list[np.ndarray]:
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


def partition_aggregates(x, func, n_chunks, lower, upper, rng, n_partitions: int = 40) -> np.ndarray:
    """Noiseless sample-and-aggregate answers ``mean(clip(func(chunk)))`` for independent random partitions.

    Chapter: *Sample and aggregate*.

    Returns
    -------
    numpy.ndarray of shape (n_partitions,)
    """
    rng = check_rng(rng)
    n_partitions = as_int(n_partitions, "n_partitions", minimum=1)
    return np.array([np.mean(chunk_answers(x, func, n_chunks, lower, upper, rng=rng, shuffle=True))
                     for _ in range(n_partitions)])


def saa_error_profile(x, func, ks, lower, upper, epsilon, rng, n_partitions: int = 40, truth=None) -> pd.DataFrame:
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


def bootstrap_multiplicity(n, n_chunks, chunk_size, rng) -> np.ndarray:
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
    rng = check_rng(rng)
    idx = rng.integers(0, n, size=(n_chunks, chunk_size))
    # a record counts once per chunk even if drawn twice into the same chunk
    chunk_of = np.repeat(np.arange(n_chunks), chunk_size)
    pairs = np.unique(np.stack([chunk_of, idx.ravel()]), axis=1)
    return np.bincount(pairs[1], minlength=n)


def positional_median_counterexample(n_pairs: int = 50):
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



# The chapter's figures moved to dpsens.figures.sample_aggregate; their old names keep working, with a warning.
__getattr__ = moved(__name__, {name: f"dpsens.figures.sample_aggregate.{name}" for name in (
    "plot_saa_tradeoff", "plot_saa_explorer", "plot_error_comparison", "plot_pct_histograms")})
