"""Universes and neighbouring datasets.

Chapter: *Neighbouring datasets*, and every chapter after it
(:func:`random_neighbors`: the hidden checks of *Propose-test-release* and
*Smooth sensitivity*).

A dataset is a *multiset* of numbers: order does not matter, repeats do.  The
package represents one as a sorted tuple.  Two kinds of universe say where the
records of a dataset and of its neighbours come from:

* :class:`Pool` -- a finite population (itself a multiset), as in the
  sources' school table.  A release is a sub-multiset of the pool, and a
  neighbour can only gain records that the pool still has once the kept
  records are taken out (nobody appears twice).
* :class:`Domain` -- a set of possible values, as in the sources' mood and
  driving scores.  A release holds any values of the domain, each any number
  of times, and a neighbour can gain any value of the domain.

Neighbour relations at group size (Hamming distance) ``k``, as in the sources:

* ``"unbounded"`` -- exactly ``k`` records removed, or exactly ``k`` records
  added (never a mix);
* ``"bounded"`` -- ``k`` records removed and ``k`` records added, so the size
  stays ``n`` and at most ``k`` records are replaced.  Each neighbour is
  compared with the release itself.

:func:`iter_neighbors` is the one generator of neighbours (listed by
:func:`enumerate_neighbors`, counted by :func:`count_neighbors`);
:func:`random_neighbors` draws a few at random where listing them all would
take too long.
"""
from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Mapping
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Iterator

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_data, as_int, check_rng
from .relation import Relation, as_relation

__all__ = ["Pool", "Domain", "check_universe", "check_release", "submultisets", "count_submultisets", "additions",
           "iter_neighbors", "enumerate_neighbors", "random_neighbors", "format_multiset", "count_neighbors",
           "releases", "count_releases"]


class _Universe:
    kind = "universe"

    def __init__(self, values):
        arr = as_data(values, name="values")
        self.values = np.sort(arr)
        self.values.setflags(write=False)

    @property
    def distinct(self) -> np.ndarray:
        """The distinct values, sorted."""
        return np.unique(self.values)

    @property
    def lower(self) -> float:
        """The smallest value a record can take."""
        return float(self.values[0])

    @property
    def upper(self) -> float:
        """The largest value a record can take."""
        return float(self.values[-1])

    def __eq__(self, other):
        return type(self) is type(other) and np.array_equal(self.values, other.values)

    def __hash__(self):
        return hash((type(self).__name__, self.values.tobytes()))

    def __repr__(self):
        vals = ", ".join(f"{v:g}" for v in self.values[:12])
        more = ", ..." if len(self.values) > 12 else ""
        return f"{type(self).__name__}([{vals}{more}])"


class Pool(_Universe):
    """A finite population (multiset) that releases are drawn from.

    Chapter: *Neighbouring datasets*.

    Parameters
    ----------
    values : array-like of numbers
        The population, repeats allowed (two students can have the same
        number of school years).

    Examples
    --------
    >>> Pool([1, 2, 2, 5])
    Pool([1, 2, 2, 5])
    """
    kind = "pool"

    def counts(self) -> Counter:
        """Multiplicity of each value in the pool."""
        return Counter(self.values.tolist())


class Domain(_Universe):
    """A set of possible values, each usable any number of times.

    Chapter: *Neighbouring datasets*.

    Parameters
    ----------
    values : array-like of numbers
        The possible values; repeats are dropped.

    Examples
    --------
    >>> Domain([3, 1, 2, 2])
    Domain([1, 2, 3])
    """
    kind = "domain"

    def __init__(self, values: ArrayLike) -> None:
        super().__init__(values)
        self.values = np.unique(self.values)
        self.values.setflags(write=False)


def check_universe(universe: Any) -> Pool | Domain:
    """Return ``universe`` if it is a :class:`Pool` or :class:`Domain`, else raise ``TypeError``.

    Chapter: *Neighbouring datasets* (the two universes).
    """
    if not isinstance(universe, (Pool, Domain)):
        raise TypeError(
            "universe must be dpsens.Pool(values) (a finite population) or "
            f"dpsens.Domain(values) (a set of possible values), got {type(universe).__name__}"
        )
    return universe


def check_release(x: object, universe: Pool | Domain) -> np.ndarray:
    """Validate a release ``x`` against its universe and return it sorted.

    Chapter: *Neighbouring datasets* (a release is drawn from its universe).

    Raises
    ------
    ValueError
        If ``x`` is not a sub-multiset of a :class:`Pool`, or holds a value
        outside a :class:`Domain`.
    """
    universe = check_universe(universe)
    x = np.sort(as_data(x, name="x"))
    if isinstance(universe, Pool):
        missing = Counter(x.tolist()) - universe.counts()
        if missing:
            v, c = next(iter(missing.items()))
            raise ValueError(
                f"x is not part of its pool: it holds {c} more record(s) of value {v:g} than "
                f"{universe!r} has; a release must be a sub-multiset of the pool"
            )
    else:
        bad = ~np.isin(x, universe.values)
        if np.any(bad):
            raise ValueError(
                f"x holds value {x[bad][0]:g}, which is not in {universe!r}; every record must be "
                "a value of the domain"
            )
    return x


def _check_counts(counts, size) -> tuple[dict, int]:
    """``counts`` as {number: int multiplicity >= 0} and ``size`` as an int >= 0, or raise."""
    if not isinstance(counts, Mapping):
        raise TypeError(
            "counts must map each value to its multiplicity, e.g. {1: 1, 2: 2} or a "
            f"collections.Counter, got {type(counts).__name__}"
        )
    clean = {}
    for v, c in counts.items():
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(float(v)):
            raise TypeError(f"counts must have finite numbers as keys, got the key {v!r}")
        clean[v] = as_int(c, f"counts[{v!r}]", minimum=0)
    return clean, as_int(size, "size", minimum=0)


def submultisets(counts: Counter | dict, size: int) -> Iterator[tuple]:
    """Yield every distinct sub-multiset of ``size`` elements, as sorted tuples.

    Chapter: *Neighbouring datasets*.

    ``counts`` maps value -> multiplicity.  Each distinct multiset is yielded
    once, so a pool with repeated values gives no duplicates.

    Examples
    --------
    >>> list(submultisets({1: 1, 2: 2}, 2))
    [(1.0, 2.0), (2.0, 2.0)]
    """
    counts, size = _check_counts(counts, size)
    items = sorted((float(v), c) for v, c in counts.items() if c > 0)
    suffix = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]

    def rec(i: int, need: int, prefix: tuple):
        if need == 0:
            yield prefix
            return
        if i == len(items) or suffix[i] < need:
            return
        v, c = items[i]
        for take in range(min(c, need), -1, -1):
            yield from rec(i + 1, need - take, prefix + (v,) * take)

    yield from rec(0, size, ())


def count_submultisets(counts: Counter | dict, size: int) -> int:
    """Number of distinct sub-multisets of ``size`` elements (without listing them).

    Chapter: *Global sensitivity from scratch* (the cost of enumeration).

    Examples
    --------
    >>> count_submultisets({1: 1, 2: 2}, 2)
    2
    """
    counts, size = _check_counts(counts, size)
    poly = [1]
    for c in counts.values():
        new = [0] * (len(poly) + int(c))
        for i, a in enumerate(poly):
            if a:
                for j in range(int(c) + 1):
                    new[i + j] += a
        poly = new[: size + 1]
    return poly[size] if size < len(poly) else 0


def additions(universe: Pool | Domain, kept: Counter, k: int) -> Iterator[tuple]:
    """Every multiset of ``k`` new values a neighbour can add: from the pool minus ``kept``, or any domain values.

    Chapter: *Neighbouring datasets* (used by :func:`iter_neighbors` and the
    grid of *The median visualisation grid*).

    Parameters
    ----------
    universe : Pool or Domain
    kept : collections.Counter
        The records that stay (a pool's values they use are not available again).
    k : int
        How many values to add.

    Yields
    ------
    tuple
        Sorted tuples of ``k`` values, each multiset once.
    """
    if isinstance(universe, Pool):
        yield from submultisets(universe.counts() - kept, k)
    else:
        yield from combinations_with_replacement(universe.values.tolist(), k)


def _count_additions(universe: Pool | Domain, kept: Counter, k: int) -> int:
    if isinstance(universe, Pool):
        return count_submultisets(universe.counts() - kept, k)
    return comb(len(universe.values) + k - 1, k)


def iter_neighbors(x: ArrayLike, universe: Pool | Domain, k: int = 1,
                   neighbors: Relation | str = Relation.UNBOUNDED) -> Iterator[tuple]:
    """Yield the neighbours of ``x`` one (removed, added) choice at a time: the one neighbour generator.

    Chapters: *Neighbouring datasets* (through :func:`enumerate_neighbors`)
    and *Global sensitivity from scratch* (the brute force walks it).

    The same neighbours as :func:`enumerate_neighbors`, generated lazily,
    unsorted and possibly more than once (two choices can give the same
    multiset); exactly :func:`count_neighbors` of them.

    Parameters
    ----------
    x : array-like of numbers
        The released dataset (a multiset; order is ignored).
    universe : Pool or Domain
    k : int
        Group size, ``>= 1`` (the callers check ``k <= len(x) - 1``).
    neighbors : Relation or {"unbounded", "bounded"}

    Examples
    --------
    Remove 1 and add 1 or 2, then remove 2 and add 1 or 2 (``x`` itself twice):

    >>> list(iter_neighbors([1, 2], Domain([1, 2]), neighbors="bounded"))
    [(2.0, 1.0), (2.0, 2.0), (1.0, 1.0), (1.0, 2.0)]
    """
    x = check_release(x, universe)
    neighbors = as_relation(neighbors)
    k = as_int(k, "k", minimum=1)
    xc = Counter(x.tolist())
    for removed in submultisets(xc, k):
        kept = xc - Counter(removed)
        if neighbors is Relation.UNBOUNDED:
            yield tuple(kept.elements())                     # k records removed
        else:
            for added in additions(universe, kept, k):       # k removed, k added
                yield tuple(kept.elements()) + added
    if neighbors is Relation.UNBOUNDED:
        for added in additions(universe, xc, k):             # k records added
            yield tuple(x.tolist()) + added


def enumerate_neighbors(x: ArrayLike, universe: Pool | Domain, k: int = 1,
                        neighbors: Relation | str = Relation.UNBOUNDED) -> list[tuple]:
    """List every distinct neighbour of ``x`` at group size ``k``.

    Chapter: *Neighbouring datasets*.

    Parameters
    ----------
    x : array-like of numbers
        The released dataset (a multiset; order is ignored).
    universe : Pool or Domain
        Where new records come from.
    k : int
        Group size: records removed and/or added, ``1 <= k <= len(x) - 1``
        (``k >= 1`` for additions only would allow ``k = n`` too, but then the
        removal side would empty the dataset; the book never lets a dataset
        become empty).
    neighbors : Relation or {"unbounded", "bounded"}
        ``"unbounded"``: exactly ``k`` records removed, or exactly ``k``
        added.  ``"bounded"``: ``k`` removed and ``k`` added (so at most ``k``
        replaced).

    Returns
    -------
    list of tuple
        Each neighbour as a sorted tuple of floats, each listed once, smaller
        datasets first, then in lexicographic order.  For
        ``"bounded"`` the list can contain ``x`` itself (remove a record and
        add the same value back), which changes no query.

    Examples
    --------
    >>> enumerate_neighbors([1, 2], Domain([1, 2]), k=1)
    [(1.0,), (2.0,), (1.0, 1.0, 2.0), (1.0, 2.0, 2.0)]
    >>> enumerate_neighbors([1, 2], Domain([1, 2]), k=1, neighbors="bounded")
    [(1.0, 1.0), (1.0, 2.0), (2.0, 2.0)]
    """
    x = check_release(x, universe)
    neighbors = as_relation(neighbors)
    k = as_int(k, "k", 1, len(x) - 1) if len(x) > 1 else _no_k(x)
    distinct = {tuple(sorted(y)) for y in iter_neighbors(x, universe, k, neighbors)}
    return sorted(distinct, key=lambda t: (len(t), t))


def random_neighbors(x: ArrayLike, universe: Domain, count: int, neighbors: Relation | str = Relation.UNBOUNDED,
                     rng: np.random.Generator | None = None) -> list[np.ndarray]:
    """``count`` neighbours of ``x`` at group size 1, drawn at random: for checks on data too many to enumerate.

    Chapters: *Propose-test-release* and *Smooth sensitivity* (the hidden
    cells that check their proofs on random datasets and neighbours).

    Each neighbour is drawn on its own, from ``rng`` in this order.
    ``"bounded"``: a value drawn uniformly from the domain replaces a record
    drawn uniformly by position.  ``"unbounded"``: with probability 1/2
    (``rng.random() < 0.5``) a record drawn uniformly by position is removed,
    otherwise a value drawn uniformly from the domain is added at the end.
    Each draw is, as a multiset, one of the neighbours
    :func:`enumerate_neighbors` lists; the other records keep their order.

    Parameters
    ----------
    x : array-like of numbers
        The dataset, at least two records, every value in the domain.
    universe : Domain
        Where new values come from.  A :class:`Pool` is refused: what it can
        still give depends on the records kept (use :func:`enumerate_neighbors`).
    count : int
        Number of neighbours, ``>= 1``.
    neighbors : Relation or {"unbounded", "bounded"}
    rng : numpy.random.Generator

    Returns
    -------
    list of numpy.ndarray
        ``count`` datasets of floats.

    Examples
    --------
    >>> ys = random_neighbors([3, 1, 2], Domain(range(5)), 3, "bounded", np.random.default_rng(0))
    >>> [len(y) for y in ys], all(np.sum(y != [3, 1, 2]) <= 1 for y in ys)
    ([3, 3, 3], True)
    """
    if isinstance(universe, Pool):
        raise TypeError("universe must be a dpsens.Domain: random_neighbors draws new values from a domain; "
                        "for a Pool, list the neighbours with enumerate_neighbors")
    x = as_data(x, name="x")
    check_release(x, universe)
    if len(x) < 2:
        raise ValueError(f"x must hold at least two records so that no neighbour is empty, got {len(x)}")
    count = as_int(count, "count", minimum=1)
    neighbors = as_relation(neighbors)
    rng = check_rng(rng)
    values = universe.values
    out = []
    for _ in range(count):
        if neighbors is Relation.BOUNDED:
            value = values[rng.integers(len(values))]
            y = x.copy()
            y[rng.integers(len(x))] = value
        elif rng.random() < 0.5:
            y = np.delete(x, rng.integers(len(x)))
        else:
            y = np.append(x, values[rng.integers(len(values))])
        out.append(y)
    return out


def format_multiset(values: ArrayLike) -> str:
    """Write a multiset as ``[1, 2, 2.5]`` (sorted, whole numbers without ``.0``).

    Chapter: *Neighbouring datasets*.

    Examples
    --------
    >>> format_multiset((2.0, 1.0, 2.5))
    '[1, 2, 2.5]'
    """
    values = as_data(values, name="values", allow_empty=True)
    return "[" + ", ".join(f"{v:g}" for v in np.sort(values)) + "]"


def _no_k(x: np.ndarray) -> int:
    raise ValueError(
        f"x has a single record, so no group size k in 1..n-1 exists (n = {len(x)}); "
        "neighbours need at least two records so that none is empty"
    )


def count_neighbors(x: ArrayLike, universe: Pool | Domain, k: int = 1,
                    neighbors: Relation | str = Relation.UNBOUNDED) -> int:
    """How many (removed, added) choices :func:`enumerate_neighbors` walks through.

    Chapter: *Global sensitivity from scratch* (the cost of enumeration).

    The count is exact for the enumeration (distinct removed multisets times
    distinct added multisets); distinct neighbours can be fewer.
    """
    x = check_release(x, universe)
    neighbors = as_relation(neighbors)
    k = as_int(k, "k", 1, max(len(x) - 1, 1))
    xc = Counter(x.tolist())
    if neighbors is Relation.UNBOUNDED:
        return count_submultisets(xc, k) + _count_additions(universe, xc, k)
    if isinstance(universe, Domain):
        return count_submultisets(xc, k) * _count_additions(universe, xc, k)
    return sum(_count_additions(universe, xc - Counter(r), k) for r in submultisets(xc, k))


def releases(universe: Pool | Domain, n: int) -> Iterator[tuple]:
    """Yield every distinct release of size ``n`` from the universe.

    Chapter: *Global sensitivity from scratch*.

    From a :class:`Pool`: the distinct sub-multisets of size ``n``.  From a
    :class:`Domain`: every multiset of ``n`` values of the domain.
    """
    universe = check_universe(universe)
    n = as_int(n, "n", 1, len(universe.values) if isinstance(universe, Pool) else None)
    if isinstance(universe, Pool):
        yield from submultisets(universe.counts(), n)
    else:
        yield from combinations_with_replacement(universe.values.tolist(), n)


def count_releases(universe: Pool | Domain, n: int) -> int:
    """Number of distinct releases of size ``n`` (see :func:`releases`).

    Chapter: *Global sensitivity from scratch* (the cost of enumeration).
    """
    universe = check_universe(universe)
    n = as_int(n, "n", 1, len(universe.values) if isinstance(universe, Pool) else None)
    if isinstance(universe, Pool):
        return count_submultisets(universe.counts(), n)
    return comb(len(universe.values) + n - 1, n)
