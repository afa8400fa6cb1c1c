"""Sensitivity by enumeration: the from-scratch oracle.

Chapter: *Global sensitivity from scratch*.

This is the definition of sensitivity typed out as code.  It walks through
every neighbour of a release (local sensitivity), or through every release and
every one of its neighbours (global sensitivity), evaluates the query on each
and keeps the largest change.  It is slow -- the number of neighbours grows
like a binomial coefficient -- but it is obviously right, which is why the
fast exact algorithms of :mod:`dpsens.local` and
:mod:`dpsens.global_sensitivity` are tested against it.

Before it starts, the oracle counts the neighbours it would visit and refuses
to start beyond ``max_neighbors`` (raise the limit if you mean it).  For
global sensitivity the count itself can be long, so bounds per release and,
if they do not decide, a sample of releases come first: far above the limit
the refusal is immediate and gives the estimate.  With ``progress=True``,
runs (and counts) that take more than about a second show a progress bar; the
default is no bar, so that what a cell prints never depends on how busy the
machine is (the book's checked outputs must not change with the load).
:func:`source_evaluations` counts what the source notebook's own enumeration
would cost.
"""
from __future__ import annotations

import math
from math import comb

import numpy as np
from numpy.typing import ArrayLike
from tqdm.auto import tqdm

from ._validate import as_int, check_result
from .neighbors import (Domain, Pool, check_release, check_universe, count_neighbors, count_releases, iter_neighbors,
                        releases)
from .queries import Query, check_query, evaluate_safely
from .relation import Relation, as_relation

__all__ = ["bruteforce_local_sensitivity", "bruteforce_global_sensitivity", "MAX_NEIGHBORS", "source_evaluations"]

#: Default limit on the number of neighbours the oracle evaluates (about a
#: minute of work); pass ``max_neighbors=`` to raise it.
MAX_NEIGHBORS = 2_000_000


def _query_function(query):
    """The function the oracle evaluates: a named query keeps its digits at any magnitude
    (:func:`dpsens.queries.evaluate_safely`); a callable is used as it is."""
    name, f = check_query(query, allow_callable=True)
    if isinstance(query, str):
        return lambda v: evaluate_safely(name, v)
    return f


def _value(f, y) -> float:
    """The query on one dataset, refusing a value that overflowed (never a silent inf or nan)."""
    with np.errstate(over="ignore", invalid="ignore"):
        v = float(f(np.asarray(y, dtype=float)))
    if not math.isfinite(v):
        raise ValueError(
            f"the query gives {v} on a dataset of the enumeration (an overflow: the brute force "
            "evaluates the query as it is); use values of smaller magnitude, or method='exact', "
            "which rescales")
    return v


def _check_k(k, n: int) -> int:
    if n < 2:
        raise ValueError(f"a release needs at least 2 records so that k can be in 1..n-1; got n = {n}")
    return as_int(k, "k", 1, n - 1)


def _refuse(count: int, max_neighbors: int, what: str, prefix: str = "about"):
    if count > max_neighbors:
        raise ValueError(
            f"brute force would evaluate the query on {prefix + ' ' if prefix else ''}{count:,} "
            f"neighbouring datasets ({what}), "
            f"more than max_neighbors = {max_neighbors:,}. Use method='exact', or pass a larger "
            f"max_neighbors=... if you really want to wait for the enumeration."
        )


def bruteforce_local_sensitivity(x: ArrayLike, query: Query, universe: Pool | Domain, k: int = 1,
                                 neighbors: Relation | str = Relation.UNBOUNDED,
                                 *, max_neighbors: int = MAX_NEIGHBORS, progress: bool = False) -> float:
    """Local sensitivity by enumerating every neighbour of ``x``.

    Chapter: *Global sensitivity from scratch*.

    ``max |f(x) - f(x')|`` over every neighbour ``x'`` of ``x`` at group
    size ``k`` (see :func:`dpsens.enumerate_neighbors` for the relations).

    Parameters
    ----------
    x : array-like of numbers
        The release.
    query : str or callable
        A name from :data:`dpsens.QUERIES`, or any function of a 1-D array.
    universe : Pool or Domain
        Where the records of neighbours come from.
    k : int
        Group size, ``1 <= k <= len(x) - 1``.
    neighbors : Relation or {"unbounded", "bounded"}
        The neighbour relation.
    max_neighbors : int
        Refuse (``ValueError``) if more neighbours than this would be visited.
    progress : bool
        Show a progress bar if the run takes more than a second (default
        off: a bar appears or not depending on the machine's load, so it
        would make a notebook's output depend on timing).

    Returns
    -------
    float

    Examples
    --------
    >>> bruteforce_local_sensitivity([1, 2, 10], "median", Pool([1, 2, 3, 10, 11]))
    4.0
    """
    f = _query_function(query)
    x = check_release(x, universe)
    k = _check_k(k, len(x))
    neighbors = as_relation(neighbors)
    total = count_neighbors(x, universe, k, neighbors)
    _refuse(total, as_int(max_neighbors, "max_neighbors", 0), "one release")
    fx = _value(f, x)
    largest = 0.0
    for y in tqdm(iter_neighbors(x, universe, k, neighbors), total=total, delay=1,
                  disable=not progress, desc="neighbours", leave=False):
        largest = max(largest, abs(_value(f, y) - fx))
    return check_result(largest, "the sensitivity (the largest change of the query)")


def _distinct_lower(size: int, k: int, max_count: int) -> int:
    """At least this many distinct k-sub-multisets in any multiset of ``size`` records
    whose values occur at most ``max_count`` times each (0 if ``size < k``)."""
    if size < k:
        return 0
    distinct = -(-size // max_count)                       # at least this many distinct values
    return max(1, comb(distinct, k))                       # k distinct ones, or at least one choice


def _neighbor_bounds(universe, n: int, k: int, neighbors: Relation) -> tuple[int, int]:
    """Lower and upper bounds on the neighbours of any release of size n (no release needed).

    A release of ``n`` records whose values occur at most ``c`` times each has
    at least ``ceil(n / c)`` distinct values, hence at least ``C(ceil(n / c), k)``
    distinct ways to remove ``k`` of them; the same holds for what a pool has
    left to add.
    """
    if isinstance(universe, Pool):
        rest = len(universe.values) - n
        cmax = max(universe.counts().values())
        add = comb(rest, k) if neighbors is Relation.UNBOUNDED else comb(rest + k, k)
        low_remove = _distinct_lower(n, k, cmax)
        low_add = _distinct_lower(rest if neighbors is Relation.UNBOUNDED else rest + k, k, cmax)
    else:
        add = low_add = comb(len(universe.values) + k - 1, k)   # the same for every release
        low_remove = _distinct_lower(n, k, n)
    if neighbors is Relation.UNBOUNDED:
        return low_remove + low_add, comb(n, k) + add
    return low_remove * low_add, comb(n, k) * add


def _sample_releases(universe, n: int, size: int, seed: int = 0):
    """``size`` releases drawn uniformly (with replacement) from the distinct releases of size n."""
    import random

    counts = universe.counts() if isinstance(universe, Pool) else {v: n for v in universe.values.tolist()}
    items = sorted((float(v), int(c)) for v, c in counts.items())
    # ways[i][s]: distinct sub-multisets of s records from items[i:]
    ways = [[0] * (n + 1) for _ in range(len(items) + 1)]
    ways[-1][0] = 1
    for i in range(len(items) - 1, -1, -1):
        c, nxt, prefix = items[i][1], ways[i + 1], 0
        for s in range(n + 1):
            prefix += nxt[s]
            if s - c - 1 >= 0:
                prefix -= nxt[s - c - 1]
            ways[i][s] = prefix
    rng = random.Random(seed)
    for _ in range(size):
        r, need, x = rng.randrange(ways[0][n]), n, []
        for i, (v, c) in enumerate(items):
            for take in range(min(c, need) + 1):
                w = ways[i + 1][need - take]
                if r < w:
                    break
                r -= w
            x.extend([v] * take)
            need -= take
        yield tuple(x)


#: Releases sampled to estimate the neighbour count when the cheap bounds
#: do not decide (see :func:`bruteforce_global_sensitivity`).
SAMPLE_RELEASES = 1000


def _count_global(universe, n: int, k: int, neighbors: Relation, n_releases: int, max_neighbors: int,
                  progress: bool) -> int:
    """Neighbours a global brute force visits: exact, or an estimate far above the limit.

    Bounds on the neighbours per release decide most cases at once.  If they
    do not, a sample of releases estimates the total; far above the limit
    (more than twice) the estimate is returned and the caller refuses, far
    below (less than half) it runs; in between the releases are counted one
    by one (with a progress bar if that takes more than a second).
    """
    low, high = (n_releases * b for b in _neighbor_bounds(universe, n, k, neighbors))
    _refuse(low, max_neighbors, f"{n_releases:,} releases, at least {low // n_releases:,} neighbours each",
            prefix="at least")
    if high <= max_neighbors:
        return high
    if n_releases > SAMPLE_RELEASES:
        sample = [count_neighbors(x, universe, k, neighbors)
                  for x in _sample_releases(universe, n, SAMPLE_RELEASES)]
        estimate = round(n_releases * sum(sample) / len(sample))
        if estimate > 2 * max_neighbors:
            _refuse(estimate, max_neighbors, f"estimated from {SAMPLE_RELEASES:,} of the "
                                             f"{n_releases:,} releases")
        if 2 * estimate < max_neighbors:
            return estimate
    exact = 0
    for x in tqdm(releases(universe, n), total=n_releases, delay=1, disable=not progress,
                  desc="counting neighbours", unit="release", leave=False):
        exact += count_neighbors(x, universe, k, neighbors)
    _refuse(exact, max_neighbors, f"{n_releases:,} releases", prefix="")
    return exact


def bruteforce_global_sensitivity(query: Query, universe: Pool | Domain, n: int, k: int = 1,
                                  neighbors: Relation | str = Relation.UNBOUNDED,
                                  *, max_neighbors: int = MAX_NEIGHBORS, progress: bool = False) -> float:
    """Global sensitivity by enumerating every release and every neighbour.

    Chapter: *Global sensitivity from scratch*.

    The maximum of :func:`bruteforce_local_sensitivity` over every release
    of size ``n`` from the universe (see :func:`dpsens.releases`).  Parameters
    as there, with ``n`` the size of the releases.

    Examples
    --------
    >>> bruteforce_global_sensitivity("median", Pool([1, 2, 3, 10, 11]), n=3)
    4.5
    >>> bruteforce_global_sensitivity("median", Pool([1, 2, 3, 10, 11]), n=3, neighbors="bounded")
    8.0
    """
    f = _query_function(query)
    universe = check_universe(universe)
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = _check_k(k, n)
    neighbors = as_relation(neighbors)
    max_neighbors = as_int(max_neighbors, "max_neighbors", 0)
    n_releases = count_releases(universe, n)
    # every release has at least one neighbour: refuse at once when the releases alone are too
    # many (the per-release bounds need C(n, k), which is out of reach for astronomical n and k)
    _refuse(n_releases, max_neighbors, f"{n_releases:,} releases, at least one neighbour each",
            prefix="at least")
    _count_global(universe, n, k, neighbors, n_releases, max_neighbors, progress)
    largest = 0.0
    for x in tqdm(releases(universe, n), total=n_releases, delay=1, disable=not progress,
                  desc="releases", unit="release", leave=False):
        fx = _value(f, x)
        for y in iter_neighbors(x, universe, k, neighbors):
            largest = max(largest, abs(_value(f, y) - fx))
    return check_result(largest, "the sensitivity (the largest change of the query)")


def source_evaluations(n_values: int, n: int, k: int = 1, neighbors: Relation | str = Relation.UNBOUNDED) -> int:
    """Query evaluations, per query, of the source notebook's enumeration for ``n_values`` values and size ``n``.

    Chapter: *Global sensitivity from scratch* (the notes on the source:
    what its enumeration would cost).

    The source has no domains: it repeats every value ``n`` times and lists
    releases with ``itertools.combinations`` on that list of
    ``N = n_values · n`` entries, so it walks through *position* choices and
    meets each multiset many times.  Unbounded: each of the ``C(N, n)``
    releases is evaluated once, and so is each of its ``C(n, n - k)``
    removals and each of its ``C(N - n, k)`` additions (the positions it does
    not hold).  Bounded: releases are grouped by their ``n - k`` kept
    positions; a group holds the ``C(N - (n - k), k)`` completions, and each
    pair of two members is compared, two evaluations per pair.  A lower bound
    on the work, since the loops only add to it.

    Parameters
    ----------
    n_values : int
        Number of possible values (``>= 1``).
    n : int
        Size of the releases (``>= 1``).
    k : int
        Group size, ``1 <= k <= n``.
    neighbors : Relation or {"unbounded", "bounded"}

    Examples
    --------
    >>> source_evaluations(2, 2, 1, "unbounded")    # N = 4: 6 releases x (1 + 2 removals + 2 additions)
    30
    >>> source_evaluations(2, 2, 1, "bounded")      # 4 kept positions x 3 completions: 3 pairs, 2 each
    24
    """
    n_values = as_int(n_values, "n_values", 1)
    n = as_int(n, "n", 1)
    k = as_int(k, "k", 1, n)
    neighbors = as_relation(neighbors)
    size = n_values * n                                   # the list values * n
    if neighbors is Relation.UNBOUNDED:
        return comb(size, n) * (1 + comb(n, n - k) + comb(size - n, k))
    group = comb(size - (n - k), k)                       # completions of one kept (n - k)-tuple
    return comb(size, n - k) * group * (group - 1)        # two evaluations per pair inside a group
