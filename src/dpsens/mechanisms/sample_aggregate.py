"""Sample-and-aggregate: the mechanism.

Chapter: *Sample and aggregate*.  The chunk answers on a data-independent
partition (:func:`chunk_answers`, fast for the vectorised queries through
:func:`split_reduce`) and their noisy average (:func:`sample_and_aggregate`).
What the chapter measures about it -- the source's version reproduced, the
bias/noise trade-off, overlapping and positional chunks -- is in
:mod:`dpsens.experiments.sample_aggregate`; its figures in
:mod:`dpsens.figures.sample_aggregate`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_int, as_positive, check_rng
from ..queries import check_query
from ..relation import Relation, as_relation
from .discrete import as_integer_values
from .laplace import laplace_mechanism
from .noise import laplace_noise

__all__ = ["chunk_answers", "split_reduce", "sample_and_aggregate", "VECTORISED"]

# ------------------------------------------------------------------------------------------ the mechanism

def chunk_answers(x: ArrayLike, func: str | Callable[[np.ndarray], float], n_chunks: int, lower: float,
                  upper: float, rng: np.random.Generator | None = None, shuffle: bool = True,
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
VECTORISED: dict[str, Callable[..., ArrayLike]] = {"mean": np.mean, "median": np.median, "sum": np.sum}


def split_reduce(x: np.ndarray, k: int, reduce: Callable[..., ArrayLike]) -> np.ndarray:
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


@overload
def sample_and_aggregate(x: ArrayLike, func: str | Callable[[np.ndarray], float], n_chunks: int, lower: float,
                         upper: float, epsilon: float, rng: np.random.Generator, shuffle: bool = True,
                         details: Literal[False] = False, partition: str | None = None,
                         neighbors: Relation | str = Relation.BOUNDED, secure: bool = False) -> float: ...


@overload
def sample_and_aggregate(x: ArrayLike, func: str | Callable[[np.ndarray], float], n_chunks: int, lower: float,
                         upper: float, epsilon: float, rng: np.random.Generator, shuffle: bool = True,
                         *, details: Literal[True], partition: str | None = None,
                         neighbors: Relation | str = Relation.BOUNDED, secure: bool = False) -> dict: ...


@overload
def sample_and_aggregate(x: ArrayLike, func: str | Callable[[np.ndarray], float], n_chunks: int, lower: float,
                         upper: float, epsilon: float, rng: np.random.Generator, shuffle: bool = True,
                         details: bool = False, partition: str | None = None,
                         neighbors: Relation | str = Relation.BOUNDED, secure: bool = False) -> float | dict: ...


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
        than ε (:func:`~dpsens.experiments.sample_aggregate.positional_median_counterexample`); use
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
    neighbors = as_relation(neighbors)
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
