"""Sample-and-aggregate: chunk answers on a data-independent partition, and the noisy average.

Chapter: *Sample and aggregate*.  What the chapter measures about the
mechanism (error profiles, the source's chunking, figures) is in
:mod:`dpsens.aggregate`.
"""
from __future__ import annotations

import numpy as np

from .._validate import as_bounds, as_data, as_int, as_positive
from ..queries import check_query
from .checks import check_rng

__all__ = ["chunk_answers", "split_reduce", "sample_and_aggregate", "VECTORISED"]


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


def sample_and_aggregate(x, func, n_chunks, lower, upper, epsilon, rng, shuffle: bool = True,
                         details: bool = False, partition: str = "balanced"):
    """Sample-and-aggregate: noisy average of clipped answers on disjoint chunks.

    Chapter: *Sample and aggregate*.

    ``mean(clip(func(chunk_i), lower, upper)) + Lap((upper − lower)/(n_chunks·ε))``.
    ε-DP for any ``func``: each record lies in exactly one chunk, so adding,
    removing or changing it moves one clipped answer by at most
    ``upper − lower`` and the average by ``(upper − lower)/n_chunks``.  This
    needs the chunks to be *disjoint* and chosen *without looking at the data*
    (see :func:`chunk_answers`), and ``n_chunks`` fixed in advance.  With the
    default balanced random partition the guarantee is for bounded
    neighbours (records replaced, ``n`` public); use
    ``partition="independent"`` for ε under additions and removals.

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
    details : bool
        If true return a dict with ``released``, ``answers``, ``noise_scale``.
    partition : {"balanced", "independent"}
        See :func:`chunk_answers`.

    Returns
    -------
    float, or dict.

    Raises
    ------
    ValueError
        If ``n_chunks > len(x)``, ``n_chunks < 1``, ``epsilon <= 0`` or
        ``lower > upper``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    answers = chunk_answers(x, func, n_chunks, lower, upper, rng=rng, shuffle=shuffle, partition=partition)
    scale = (float(upper) - float(lower)) / (len(answers) * epsilon)
    released = float(np.mean(answers) + rng.laplace(0.0, scale))
    if details:
        return {"released": released, "answers": answers, "noise_scale": scale}
    return released
