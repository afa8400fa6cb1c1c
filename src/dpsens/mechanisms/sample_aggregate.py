"""Sample-and-aggregate: the mechanism, and everything the chapter measures about it.

Chapter: *Sample and aggregate* (the comparisons of the part use
:func:`partition_aggregates` too).  One module for the concept, in four
parts: the mechanism (:func:`chunk_answers` on a data-independent partition,
:func:`sample_and_aggregate`, the noisy average); the source's version
reproduced (:func:`source_chunks`, its chunk means, its ``saa_avg_age``,
``gs_avg`` and ``plot_results`` lists); what the chapter measures (noiseless
answers of random partitions, the bias/noise trade-off
:func:`saa_error_profile`, overlapping chunks, the positional counterexample).
Its figures are in :mod:`dpsens.figures.sample_aggregate`.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd

from .._validate import as_bounds, as_data, as_int, as_positive, check_relation, check_rng
from ..queries import check_query
from .discrete import as_integer_values
from .laplace import laplace_mechanism
from .noise import laplace_noise
from ..relation import Relation

__all__ = ["chunk_answers", "split_reduce", "sample_and_aggregate", "VECTORISED",
           "source_chunks", "pct_error", "source_chunk_means", "source_saa_avg_age", "source_gs_avg",
           "source_plot_results", "partition_aggregates", "saa_error_profile", "bootstrap_multiplicity",
           "positional_median_counterexample"]

# ------------------------------------------------------------------------------------------ the mechanism

def chunk_answers(x, func, n_chunks, lower, upper, rng=None, shuffle: bool = True,
                  partition: str = "balanced") -> np.ndarray:
    """Clipped answers of ``func`` on ``n_chunks`` disjoint chunks of ``x``.

    Chapter: *Sample and aggregate*.

    The partition never looks at the values.

    * ``partition="balanced"`` (default): with ``shuffle=True`` a uniformly
      random partition into chunks whose sizes differ by at most one (a
      permutation drawn from ``rng``, then ``np.array_split``); with
      ``shuffle=False`` the chunks are consecutive positions of ``x`` in the
      given order (only safe if that order does not depend on the values).
      A replaced record changes one chunk, so sample-and-aggregate is ε-DP
      for **bounded** neighbours.  Adding a record can change the sizes of
      two chunks (the balanced split of ``n + 1`` records is not the balanced
      split of ``n`` plus one), so for unbounded neighbours the simple
      argument only gives 2ε.
    * ``partition="independent"``: every record gets its own uniformly random
      chunk label (``rng.integers(0, n_chunks, n)``), whatever the other
      records are, so adding or removing a record changes its own chunk only:
      ε-DP for **unbounded** neighbours.  Chunk sizes are random; an empty
      chunk answers the midpoint ``(lower + upper)/2``.

    Parameters
    ----------
    x : array_like
    func : str or callable
        A query name or a function of a 1-D array returning a number.
    n_chunks : int
        ``1 <= n_chunks <= len(x)``.
    lower, upper : float
        Clipping bounds of the *answers*.
    rng : numpy.random.Generator, optional
        Required unless ``partition="balanced"`` and ``shuffle=False``.
    shuffle : bool
        ``partition="balanced"`` only.
    partition : {"balanced", "independent"}

    Returns
    -------
    numpy.ndarray of shape (n_chunks,)
    """
    x = as_data(x)
    name, f = check_query(func, allow_callable=True)
    lower, upper = as_bounds(lower, upper)
    n_chunks = as_int(n_chunks, "n_chunks", minimum=1)
    if n_chunks > len(x):
        raise ValueError(
            f"n_chunks must be at most len(x) = {len(x)} so that no chunk is empty, got n_chunks={n_chunks}"
        )
    if partition == "independent":
        rng = check_rng(rng)
        labels = rng.integers(0, n_chunks, size=len(x))
        order = np.argsort(labels, kind="stable")
        counts = np.bincount(labels, minlength=n_chunks)
        chunks = np.split(x[order], np.cumsum(counts)[:-1])
        answers = np.array([float(f(c)) if len(c) else (lower + upper) / 2 for c in chunks])
        return np.clip(answers, lower, upper)
    if partition != "balanced":
        raise ValueError(f"partition must be 'balanced' or 'independent', got {partition!r}")
    if shuffle:
        rng = check_rng(rng)
        x = x[rng.permutation(len(x))]
    if isinstance(func, str) and func in VECTORISED:
        answers = split_reduce(x, n_chunks, VECTORISED[func])
    else:
        answers = np.array([float(f(chunk)) for chunk in np.array_split(x, n_chunks)])
    return np.clip(answers, lower, upper)


#: queries whose chunk answers :func:`split_reduce` computes in one numpy call
VECTORISED = {"mean": np.mean, "median": np.median, "sum": np.sum}


def split_reduce(x: np.ndarray, k: int, reduce) -> np.ndarray:
    """``[reduce(c) for c in np.array_split(x, k)]`` without the Python loop.

    Chapter: *Sample and aggregate* (``benchmarks/bench_sample_aggregate.py``
    times it against the loop).

    ``np.array_split`` makes ``r = n mod k`` chunks of ``q + 1`` values, then
    ``k − r`` chunks of ``q``; each group is one 2-D reshape.
    """
    q, r = divmod(len(x), k)
    head = x[: r * (q + 1)].reshape(r, q + 1)
    tail = x[r * (q + 1):].reshape(k - r, q)
    parts = []
    if r:
        parts.append(reduce(head, axis=1))
    if k - r:
        parts.append(reduce(tail, axis=1))
    return np.concatenate(parts).astype(float)


def sample_and_aggregate(x: ArrayLike, func: str | Callable[[np.ndarray], float], n_chunks: int, lower: float,
                         upper: float, epsilon: float, rng: np.random.Generator, shuffle: bool = True,
                         details: bool = False, partition: str | None = None,
                         neighbors: Relation | str = Relation.BOUNDED, secure: bool = False) -> float | dict:
    """Sample-and-aggregate: noisy average of clipped answers on disjoint chunks.

    Chapter: *Sample and aggregate*.

    ``mean(clip(func(chunk_i), lower, upper)) + Lap((upper − lower)/(n_chunks·ε))``.
    ε-DP for any ``func``: each record lies in exactly one chunk, so adding,
    removing or changing it moves one clipped answer by at most
    ``upper − lower`` and the average by ``(upper − lower)/n_chunks``.  This
    needs the chunks to be *disjoint* and chosen *without looking at the data*
    (see :func:`chunk_answers`), and ``n_chunks`` fixed in advance.  The
    relation is explicit: ``neighbors="bounded"`` (the default: records
    replaced, ``n`` public) uses the balanced random partition, ε-DP under
    replacement only; ``neighbors="unbounded"`` (records added or removed,
    ``n`` private) uses independent chunk labels, ε-DP under additions and
    removals.  The balanced partition with ``neighbors="unbounded"`` is
    refused: adding a record can change two chunks, so it is only 2ε-DP there.

    Parameters
    ----------
    x : array_like
    func : str or callable
    n_chunks : int
    lower, upper : float
        Clipping bounds for the chunk answers (not for the data).
    epsilon : float
    rng : numpy.random.Generator
        Used for the partition (if ``shuffle``) and then for the noise.
    shuffle : bool
        Must be true (the default): the chunks come from a random partition.
        ``False`` (chunks by position in ``x``) is refused: positional chunks
        depend on the other records and the chapter shows them losing far more
        than ε (:func:`positional_median_counterexample`); use
        :func:`chunk_answers` to study them.
    details : bool
        If true return a dict with ``released``, ``answers``, ``noise_scale``.
    partition : {None, "balanced", "independent"}
        See :func:`chunk_answers`; ``None`` (default): ``"balanced"`` for
        bounded neighbours, ``"independent"`` for unbounded ones.
    neighbors : Relation or {"bounded", "unbounded"}
        The relation the guarantee is for (default ``"bounded"``).
    secure : bool
        False (default): numpy's floating-point Laplace noise, the book's
        illustrations (*Noise a computer can actually sample*).  True: the
        chunk answers (after clipping) and ``upper − lower`` must be whole
        numbers; the sum of the answers, of sensitivity ``upper − lower``,
        gets exact discrete Laplace noise ``Lap_Z((upper − lower)/ε)``
        (:func:`~dpsens.mechanisms.laplace.laplace_mechanism` with
        ``secure=True``), and is divided by ``n_chunks`` (post-processing).

    Returns
    -------
    float, or dict.

    Raises
    ------
    ValueError
        If ``n_chunks > len(x)``, ``n_chunks < 1``, ``epsilon <= 0``,
        ``lower > upper``, an unknown ``neighbors``,
        ``partition="balanced"`` with ``neighbors="unbounded"``, or
        ``shuffle=False``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    if not (isinstance(shuffle, (bool, np.bool_)) and shuffle):
        raise ValueError(f"shuffle must be True for a release, got {shuffle!r}: chunks by position depend on the "
                         "other records and are not epsilon-DP (see positional_median_counterexample); "
                         "chunk_answers(..., shuffle=False) computes them for study")
    neighbors = check_relation(neighbors)
    if partition is None:
        partition = "balanced" if neighbors is Relation.BOUNDED else "independent"
    if partition == "balanced" and neighbors is Relation.UNBOUNDED:
        raise ValueError("partition='balanced' is epsilon-DP for neighbors='bounded' only (adding a record can "
                         "change the sizes of two chunks, so only 2 epsilon under additions and removals); "
                         "use partition='independent' (or leave partition=None) with neighbors='unbounded'")
    rng = check_rng(rng)
    if secure:
        width = int(as_integer_values(float(upper) - float(lower), "upper - lower"))
    answers = chunk_answers(x, func, n_chunks, lower, upper, rng=rng, shuffle=shuffle, partition=partition)
    scale = (float(upper) - float(lower)) / (len(answers) * epsilon)
    if secure:
        total = int(np.sum(as_integer_values(answers, "the clipped chunk answers")))
        released = float(laplace_mechanism(total, width, epsilon, rng, secure=True)) / len(answers)
    else:
        released = float(np.mean(answers) + laplace_noise(scale, rng))
    if details:
        return {"released": released, "answers": answers, "noise_scale": scale}
    return released



# ------------------------------------------------------------- the source reproduced, and what the chapter measures

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


def pct_error(true, released):
    """The source's error measure: ``|true − released| / true``, in percent.

    Chapter: *Sample and aggregate* (the histograms of percentage errors).

    Examples
    --------
    >>> float(pct_error(40.0, 41.0))
    2.5
    """
    return np.abs(true - released) / true * 100.0


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


def source_chunk_means(x, k, lower, upper) -> np.ndarray:
    """The clipped means of the chunks of :func:`source_chunks`, computed from prefix sums (no Python loop).

    Chapter: *Sample and aggregate* (the notes on the source's histograms).
    """
    x = as_data(x)
    k = as_int(k, "k", minimum=1, maximum=len(x))
    lower, upper = as_bounds(lower, upper)
    return _source_means(_prefix(x), len(x), k, lower, upper)


def source_saa_avg_age(x, k, epsilon, rng, lower, upper) -> float:
    """The source's ``saa_avg_age``: the mean of its clipped chunk means, plus noise calibrated to ``k`` chunks.

    Chapter: *Sample and aggregate* (the notes on the source's histograms).

    ``Lap((upper − lower)/k/ε)``: calibrated to the ``k`` asked for, not to
    the number of chunks :func:`source_chunks` actually makes.
    """
    x = as_data(x)
    k = as_int(k, "k", minimum=1, maximum=len(x))
    lower, upper = as_bounds(lower, upper)
    return float(_saa_avg_age(_prefix(x), len(x), k, as_positive(epsilon, "epsilon"), check_rng(rng), lower, upper))


def source_gs_avg(x, u, epsilon, rng) -> float:
    """The source's ``gs_avg``: the data clipped above at ``u``, a noisy sum over a noisy count (``ε/2`` each).

    Chapter: *Sample and aggregate* (the notes on the source's histograms).
    """
    x = as_data(x)
    return float(_gs_avg(x, as_positive(u, "u"), as_positive(epsilon, "epsilon"), check_rng(rng)))


def source_plot_results(x, k, epsilon, rng, lower, upper) -> tuple[np.ndarray, np.ndarray]:
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
    rng = check_rng(rng)
    if len(x) < 999:
        raise ValueError(f"x must hold at least 999 records (the source sweeps k up to 999), got {len(x)}")
    prefix, truth = _prefix(x), x.mean()
    saa = [pct_error(truth, _saa_avg_age(prefix, len(x), m, epsilon, rng, lower, upper)) for m in range(1, 1000)]
    gs = [pct_error(truth, _gs_avg(x, u, epsilon, rng)) for u in range(1, 1000)]
    return np.array(saa), np.array(gs)


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
