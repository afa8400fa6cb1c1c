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

from numpy.typing import ArrayLike

from .bruteforce import MAX_NEIGHBORS, bruteforce_global_sensitivity, bruteforce_local_sensitivity
from .globalsens import MAX_RELEASES, exact_global_sensitivity
from .groupsens import symmetric_global_sensitivity
from .local import exact_local_sensitivity
from .neighbors import Domain, Pool
from .privatesize import SIZES, private_size_global_sensitivity
from .queries import Query, check_query
from .relation import EXACT_RELATIONS, Relation, as_relation

__all__ = ["local_sensitivity", "global_sensitivity", "METHODS"]

METHODS = ("exact", "bruteforce")


def _check_method(method: str, query: Query, neighbors: Relation | str) -> Relation:
    """Check ``method`` and ``query``; return ``neighbors`` as a :class:`Relation` (the one conversion)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    check_query(query, allow_callable=method == "bruteforce")
    neighbors = as_relation(neighbors, EXACT_RELATIONS)
    if neighbors is Relation.SYMMETRIC and method != "exact":
        raise ValueError('neighbors="symmetric" (the group relation) has method="exact" only; '
                         "the brute force enumerates the two other relations")
    return neighbors


def local_sensitivity(x: ArrayLike, query: Query, universe: Pool | Domain, k: int = 1,
                      neighbors: Relation | str = Relation.UNBOUNDED,
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
        Group size, ``1 <= k <= len(x) - 1``.  Only removals need the upper
        limit (removing ``n`` records would leave nothing); the package
        keeps the one range for every relation, so a bounded ``k = n``
        (every record replaced) is not computed.
    neighbors : Relation or {"unbounded", "bounded", "symmetric"}
        ``"unbounded"``: exactly ``k`` records removed, or exactly ``k``
        records added.  ``"bounded"``: ``k`` records removed and ``k`` added
        (at most ``k`` replaced); each neighbour is compared with ``x``.
        ``"symmetric"``: the group relation of group privacy, symmetric
        difference at most ``k`` (any ``r`` removed and ``s`` added with
        ``1 <= r + s <= k``); ``method="exact"`` only.
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
    neighbors = _check_method(method, query, neighbors)
    if method == "bruteforce":
        return bruteforce_local_sensitivity(x, query, universe, k, neighbors,
                                            max_neighbors=max_neighbors, progress=progress)
    return exact_local_sensitivity(x, query, universe, k, neighbors)


def global_sensitivity(query: Query, universe: Pool | Domain, n: int | None = None, k: int = 1,
                       neighbors: Relation | str = Relation.UNBOUNDED,
                       method: str = "exact", *, size: str = "public", n_min: int | None = None,
                       max_neighbors: int = MAX_NEIGHBORS, max_releases: int = MAX_RELEASES,
                       progress: bool = False) -> float:
    """Global sensitivity: the largest change over neighbours, with the size public or private.

    Chapter: *Global sensitivity from scratch*.

    ``size="public"`` (the default): the largest local sensitivity over every
    release of size ``n`` -- the global sensitivity only when ``n`` is
    public: bounded neighbours, or a size released separately (and paid
    for).  ``size="private"``: under add/remove neighbours the size is
    protected too, and the global sensitivity is the supremum over every
    pair of neighbours whose sizes are at least ``n_min``, the public lower
    bound (1 if none); see :mod:`dpsens.privatesize`.

    Parameters
    ----------
    query, k, neighbors, method, max_neighbors, progress
        As in :func:`local_sensitivity`, with ``1 <= k <= n - 1``.
    universe : Pool or Domain
        The releases are the sub-multisets of size ``n`` of a pool, or the
        multisets of ``n`` values of a domain.
    n : int
        ``size="public"`` only: size of the releases (at least 2; at most
        the pool's size).
    size : {"public", "private"}
        Whether the size of the data is public (``n``) or private
        (``n_min``; ``neighbors="unbounded"`` and ``method="exact"`` only:
        bounded neighbours never change the size, and no enumeration covers
        every size).  ``neighbors="symmetric"`` changes the size too, but
        only its size-``n`` value is implemented: a global sensitivity when
        ``n`` is public.
    n_min : int, optional
        ``size="private"`` only: public lower bound on every dataset's size
        (default 1: no bound).
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
    >>> ds.global_sensitivity("mean", ds.Domain(range(101)), size="private")
    50.0
    >>> round(ds.global_sensitivity("mean", ds.Domain(range(101)), size="private", n_min=1000), 4)
    0.0999
    """
    neighbors = _check_method(method, query, neighbors)
    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}, got {size!r}")
    if size == "private":
        if n is not None:
            raise ValueError('size="private" takes no n (the size is not known); pass n_min=..., '
                             "the public lower bound on the size, or leave it out (1)")
        if neighbors is Relation.SYMMETRIC:
            raise ValueError('size="private" is not implemented for neighbors="symmetric" (its neighbours '
                             "change the size too, so its size-n value assumes a public n); use "
                             'neighbors="unbounded", or a public size n')
        if neighbors is not Relation.UNBOUNDED or method != "exact":
            raise ValueError('size="private" needs neighbors="unbounded" and method="exact": bounded '
                             "neighbours keep the size (it is public), and no enumeration covers every size")
        return private_size_global_sensitivity(query, universe, 1 if n_min is None else n_min, k,
                                               max_releases=max_releases)
    if n_min is not None:
        raise ValueError('n_min is for size="private"; with size="public" pass n, the known size')
    if n is None:
        raise ValueError('n (the size of the releases) is needed with size="public"; '
                         'or pass size="private" (and n_min) if the size is not public')
    if neighbors is Relation.SYMMETRIC:
        return symmetric_global_sensitivity(query, universe, n, k, max_releases=max_releases)
    if method == "bruteforce":
        return bruteforce_global_sensitivity(query, universe, n, k, neighbors,
                                             max_neighbors=max_neighbors, progress=progress)
    return exact_global_sensitivity(query, universe, n, k, neighbors, max_releases=max_releases)
