"""The public entry points: ``local_sensitivity`` and ``global_sensitivity``.

Chapters: *Global sensitivity from scratch* and *Local sensitivity*.

Both take ``method="exact"`` (the default: the algorithms of
:mod:`dpsens.local` and :mod:`dpsens.globalsens`, milliseconds) or
``method="bruteforce"`` (the enumeration of :mod:`dpsens.bruteforce`, which
also accepts any callable as the query).  The two give the same numbers to
floating-point precision; the tests check it on thousands of random cases.

Properties the tests check (and why they hold):

* **global >= local** for every release: global is the maximum of local.
* **Shift**: moving the data and the universe by a constant ``c`` moves
  every neighbour by ``c`` too; the mean, median and percentiles move by
  ``c``, the variance, std and count do not move, so their changes are
  unchanged.  The sum moves by ``size * c``, which cancels between ``x`` and
  a bounded neighbour (same size) but not an unbounded one (``k c`` more or
  less).  So every sensitivity except the unbounded sum's is unchanged.
* **Monotone in k**: bounded neighbours at ``k`` include those at ``k - 1``
  (replacing up to ``k`` records), so every bounded sensitivity, local and
  global, is non-decreasing in ``k``.  Unbounded neighbours are *exactly* ``k``
  away, and no such claim holds in general (the variance of
  ``{0, 5, 5, 5, 10}`` on the domain ``{0, 1, 5, 10}`` can change by 15 at
  ``k = 3`` but only by 10 at ``k = 4``); the unbounded count (``k``) and the
  unbounded sum of data of one sign are non-decreasing.
"""
from __future__ import annotations

from .bruteforce import MAX_NEIGHBORS, bruteforce_global_sensitivity, bruteforce_local_sensitivity
from .globalsens import MAX_RELEASES, exact_global_sensitivity
from .local import exact_local_sensitivity
from .queries import check_query

__all__ = ["local_sensitivity", "global_sensitivity", "METHODS"]

METHODS = ("exact", "bruteforce")


def _check_method(method, query):
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    check_query(query, allow_callable=method == "bruteforce")


def local_sensitivity(x, query, universe, k: int = 1, neighbors: str = "unbounded",
                      method: str = "exact", *, max_neighbors: int = MAX_NEIGHBORS,
                      progress: bool = False) -> float:
    """Local sensitivity ``max |f(x) - f(x')|`` over the neighbours ``x'`` of ``x``.

    Chapter: *Local sensitivity*.

    Parameters
    ----------
    x : array-like of numbers
        The release (order is ignored), at least two records, each part of
        the universe.
    query : str or callable
        A name from :data:`dpsens.QUERIES` (``"mean"``, ``"median"``,
        ``"count"``, ``"sum"``, ``"std"``, ``"var"``, ``"percentile_25"``,
        ``"percentile_50"``, ``"percentile_75"``, ``"percentile_90"``); a
        callable only with ``method="bruteforce"``.
    universe : Pool or Domain
        Where new records come from: a :class:`~dpsens.Pool` (the records of
        the pool not in ``x``) or a :class:`~dpsens.Domain` (any value, any
        number of times).
    k : int
        Group size, ``1 <= k <= len(x) - 1``.
    neighbors : {"unbounded", "bounded"}
        ``"unbounded"``: exactly ``k`` records removed, or exactly ``k``
        records added.  ``"bounded"``: ``k`` records removed and ``k`` added
        (at most ``k`` replaced); each neighbour is compared with ``x``.
    method : {"exact", "bruteforce"}
        ``"exact"``: the algorithms of :mod:`dpsens.local`.  ``"bruteforce"``:
        enumerate every neighbour (:mod:`dpsens.bruteforce`).
    max_neighbors : int
        ``method="bruteforce"`` only: refuse to enumerate more neighbours.
    progress : bool
        ``method="bruteforce"`` only: progress bar on runs over a second
        (default off, so that printed output never depends on timing).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Unknown query name, method or relation; ``k`` outside ``1..n-1``;
        ``x`` empty, holding NaN, not part of its pool or holding values
        outside its domain; too many neighbours for the brute force.
    TypeError
        Non-numeric data, a universe that is not a Pool or Domain, a callable
        query with ``method="exact"``.

    Examples
    --------
    >>> import dpsens as ds
    >>> ds.local_sensitivity([1, 2, 10], "median", ds.Pool([1, 2, 3, 10, 11]))
    4.0
    >>> round(ds.local_sensitivity([0, 0, 0, 8, 8], "var", ds.Domain(range(9)), neighbors="bounded"), 2)
    5.76
    """
    _check_method(method, query)
    if method == "bruteforce":
        return bruteforce_local_sensitivity(x, query, universe, k, neighbors,
                                            max_neighbors=max_neighbors, progress=progress)
    return exact_local_sensitivity(x, query, universe, k, neighbors)


def global_sensitivity(query, universe, n: int, k: int = 1, neighbors: str = "unbounded",
                       method: str = "exact", *, max_neighbors: int = MAX_NEIGHBORS,
                       max_releases: int = MAX_RELEASES, progress: bool = False) -> float:
    """Global sensitivity: the largest local sensitivity over every release of size ``n``.

    Chapter: *Global sensitivity from scratch*.

    Parameters
    ----------
    query, k, neighbors, method, max_neighbors, progress
        As in :func:`local_sensitivity`, with ``1 <= k <= n - 1``.
    universe : Pool or Domain
        The releases are the sub-multisets of size ``n`` of a pool, or the
        multisets of ``n`` values of a domain.
    n : int
        Size of the releases (at least 2; at most the pool's size).
    max_releases : int
        ``method="exact"`` on a pool, for ``median``, the percentiles,
        ``var`` and ``std``: refuse to enumerate more releases.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As in :func:`local_sensitivity`; also ``n`` out of range.

    Examples
    --------
    >>> import dpsens as ds
    >>> ds.global_sensitivity("median", ds.Pool([1, 2, 3, 10, 11]), n=3, neighbors="bounded")
    8.0
    >>> ds.global_sensitivity("mean", ds.Domain(range(101)), n=100, k=2)
    2.0
    """
    _check_method(method, query)
    if method == "bruteforce":
        return bruteforce_global_sensitivity(query, universe, n, k, neighbors,
                                             max_neighbors=max_neighbors, progress=progress)
    return exact_global_sensitivity(query, universe, n, k, neighbors, max_releases=max_releases)
