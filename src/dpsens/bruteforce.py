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
to start beyond ``max_neighbors`` (raise the limit if you mean it).  Runs that
take more than about a second show a progress bar.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb

import numpy as np
from tqdm.auto import tqdm

from ._validate import as_int, check_relation
from .neighbors import (Pool, check_release, check_universe, count_neighbors, count_releases,
                        releases, submultisets)
from .queries import check_query

__all__ = ["bruteforce_local_sensitivity", "bruteforce_global_sensitivity", "iter_neighbors",
           "MAX_NEIGHBORS"]

#: Default limit on the number of neighbours the oracle evaluates (about a
#: minute of work); pass ``max_neighbors=`` to raise it.
MAX_NEIGHBORS = 2_000_000


def _additions(universe, kept: Counter, k: int):
    """Every multiset of ``k`` new values: from the pool minus ``kept``, or any domain values."""
    if isinstance(universe, Pool):
        return submultisets(universe.counts() - kept, k)
    return combinations_with_replacement(universe.values.tolist(), k)


def iter_neighbors(x, universe, k: int = 1, neighbors: str = "unbounded"):
    """Yield the neighbours of ``x`` one (removed, added) choice at a time.

    Chapter: *Global sensitivity from scratch*.

    The same neighbours as :func:`dpsens.enumerate_neighbors`, generated
    lazily and possibly more than once (two choices can give the same
    multiset); exactly :func:`dpsens.count_neighbors` of them.
    """
    x = check_release(x, universe)
    check_relation(neighbors)
    xc = Counter(x.tolist())
    for removed in submultisets(xc, k):
        kept = xc - Counter(removed)
        if neighbors == "unbounded":
            yield tuple(kept.elements())                     # k records removed
        else:
            for added in _additions(universe, kept, k):      # k removed, k added
                yield tuple(kept.elements()) + added
    if neighbors == "unbounded":
        for added in _additions(universe, xc, k):            # k records added
            yield tuple(x.tolist()) + added


def _check_k(k, n: int) -> int:
    if n < 2:
        raise ValueError(f"a release needs at least 2 records so that k can be in 1..n-1; got n = {n}")
    return as_int(k, "k", 1, n - 1)


def _refuse(count: int, max_neighbors: int, what: str):
    if count > max_neighbors:
        raise ValueError(
            f"brute force would evaluate the query on about {count:,} neighbouring datasets ({what}), "
            f"more than max_neighbors = {max_neighbors:,}. Use method='exact', or pass a larger "
            f"max_neighbors=... if you really want to wait for the enumeration."
        )


def bruteforce_local_sensitivity(x, query, universe, k: int = 1, neighbors: str = "unbounded",
                                 *, max_neighbors: int = MAX_NEIGHBORS, progress: bool = True) -> float:
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
    neighbors : {"unbounded", "bounded"}
        The neighbour relation.
    max_neighbors : int
        Refuse (``ValueError``) if more neighbours than this would be visited.
    progress : bool
        Show a progress bar if the run takes more than a second.

    Returns
    -------
    float

    Examples
    --------
    >>> bruteforce_local_sensitivity([1, 2, 10], "median", Pool([1, 2, 3, 10, 11]))
    4.0
    """
    _, f = check_query(query, allow_callable=True)
    x = check_release(x, universe)
    k = _check_k(k, len(x))
    check_relation(neighbors)
    total = count_neighbors(x, universe, k, neighbors)
    _refuse(total, as_int(max_neighbors, "max_neighbors", 0), "one release")
    fx = f(x)
    largest = 0.0
    for y in tqdm(iter_neighbors(x, universe, k, neighbors), total=total, delay=1,
                  disable=not progress, desc="neighbours", leave=False):
        largest = max(largest, abs(f(np.array(y)) - fx))
    return float(largest)


def _neighbour_bounds(universe, n: int, k: int, neighbors: str) -> tuple[int, int]:
    """Lower and upper bounds on the neighbours of any release of size n (no release needed)."""
    if isinstance(universe, Pool):
        rest = len(universe.values) - n
        add = comb(rest, k) if neighbors == "unbounded" else comb(rest + k, k)
        low = 1
    else:
        add = low = comb(len(universe.values) + k - 1, k)   # the same for every release
    high = comb(n, k) + add if neighbors == "unbounded" else comb(n, k) * add
    return low, high


def bruteforce_global_sensitivity(query, universe, n: int, k: int = 1, neighbors: str = "unbounded",
                                  *, max_neighbors: int = MAX_NEIGHBORS, progress: bool = True) -> float:
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
    _, f = check_query(query, allow_callable=True)
    universe = check_universe(universe)
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = _check_k(k, n)
    check_relation(neighbors)
    max_neighbors = as_int(max_neighbors, "max_neighbors", 0)
    n_releases = count_releases(universe, n)
    low, high = (n_releases * b for b in _neighbour_bounds(universe, n, k, neighbors))
    _refuse(low, max_neighbors, f"{n_releases:,} releases")
    estimate = high
    if high > max_neighbors:          # the upper bound is loose: count exactly before refusing
        estimate = sum(count_neighbors(x, universe, k, neighbors) for x in releases(universe, n))
    _refuse(estimate, max_neighbors, f"{n_releases:,} releases")
    largest = 0.0
    with tqdm(total=estimate, delay=1, disable=not progress, desc="neighbours", leave=False) as bar:
        for x in releases(universe, n):
            fx = f(np.array(x))
            for y in iter_neighbors(x, universe, k, neighbors):
                largest = max(largest, abs(f(np.array(y)) - fx))
                bar.update()
    return float(largest)
