"""The sensitivity grid: every release, every neighbour, every change.

Chapter: *The median visualisation grid*.

A grid makes the two definitions of sensitivity visible at once.  Its rows
are the possible releases ``x`` of size ``n`` from a universe, its cells the
neighbours ``x'`` of each release, and each cell holds ``|f(x) - f(x')|``:

* the maximum of a row is the **local** sensitivity of that release;
* the maximum of the whole grid is the **global** sensitivity.

The module also reproduces the bounded computation of the source text
*local sensitivity from scratch*, which compares the neighbours of a release
*with each other* (inside each group that keeps the same ``n - k`` records)
instead of with the release itself.  On the median grid that variant reports
8 on rows where the anchored definition gives 7.

The grid's figures and its live explorer are in :mod:`dpsens.figures.grid`;
:func:`parse_values` reads the universe a reader types into that explorer.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_int
from .neighbors import (Domain, Pool, additions, check_release, check_universe, count_neighbors,
                        count_releases, enumerate_neighbors, releases, submultisets)
from .queries import check_query
from .relation import Relation, as_relation

__all__ = ["SOURCE_UNIVERSE", "UNIVERSE_PRESETS", "MAX_ROWS", "MAX_COLS", "MAX_VALUES", "SensitivityGrid",
           "resolve_universe", "grid_size", "sensitivity_grid", "source_bounded_local", "parse_values"]

#: The source's universe for the median grid, X = {1, 2, 3, 10, 11} (a pool:
#: releases are 3-subsets, so there are ten of them).
SOURCE_UNIVERSE = (1, 2, 3, 10, 11)

#: Universes offered by the grid explorer.  Keys are the labels shown to the
#: reader; values are the universes.
UNIVERSE_PRESETS: dict[str, Pool | Domain] = {
    "Pool {1, 2, 3, 10, 11} (source)": Pool(SOURCE_UNIVERSE),
    "Pool {1, 2, 3, 4, 5} (evenly spaced)": Pool([1, 2, 3, 4, 5]),
    "Pool {1, 2, 3, 4, 100} (one outlier)": Pool([1, 2, 3, 4, 100]),
    "Pool {1, 2, 2, 5, 9} (repeats)": Pool([1, 2, 2, 5, 9]),
    "Domain {1, 2, 3} (values reusable)": Domain([1, 2, 3]),
}

#: Largest grid worth showing (rows, neighbours per row): the figures answer a bigger one with a message.
MAX_ROWS = 20
MAX_COLS = 12


def resolve_universe(universe: Pool | Domain | str) -> Pool | Domain:
    """Return a :class:`Pool`/:class:`Domain` for a universe or a preset label.

    Chapter: *The median visualisation grid*.

    Parameters
    ----------
    universe : Pool, Domain or str
        A universe, or one of the keys of :data:`UNIVERSE_PRESETS`.

    Raises
    ------
    ValueError
        If a string is not a preset label (the message lists the labels).
    TypeError
        If ``universe`` is neither a universe nor a string.
    """
    if isinstance(universe, str):
        if universe not in UNIVERSE_PRESETS:
            raise ValueError(f"universe must be a Pool, a Domain or one of {list(UNIVERSE_PRESETS)}, "
                             f"got {universe!r}")
        return UNIVERSE_PRESETS[universe]
    return check_universe(universe)


@dataclass(frozen=True)
class SensitivityGrid:
    """The cells of a sensitivity grid (see :func:`sensitivity_grid`).

    Attributes
    ----------
    rows : tuple of tuple
        The releases ``x`` (sorted tuples), one per row.
    row_values : numpy.ndarray
        ``f(x)`` for each row.
    neighbors : Relation
        The neighbour relation, ``Relation.UNBOUNDED`` or ``Relation.BOUNDED``
        (equal to the strings ``"unbounded"``, ``"bounded"``).
    neighbor_datasets : tuple of tuple of tuple
        The neighbour datasets ``x'`` of each row, in the order of the cells.
    cells : numpy.ndarray
        ``|f(x) - f(x')|``, shape ``(rows, max neighbours)``; rows with fewer
        neighbours are padded with NaN.
    """

    universe: object
    n: int
    k: int
    query: str
    neighbors: Relation
    rows: tuple
    row_values: np.ndarray
    neighbor_datasets: tuple
    cells: np.ndarray

    @property
    def local(self) -> np.ndarray:
        """Local sensitivity of each release: the maximum of its row."""
        return np.nanmax(self.cells, axis=1)

    @property
    def global_sensitivity(self) -> float:
        """Global sensitivity: the maximum over the whole grid."""
        return float(np.nanmax(self.cells))

    @property
    def shape(self) -> tuple[int, int]:
        return self.cells.shape


def grid_size(universe: Pool | Domain | str, n: int, k: int = 1,
              neighbors: Relation | str = Relation.UNBOUNDED) -> tuple[int, int]:
    """Rows and columns a grid would have, computed from counts only.

    Chapter: *The median visualisation grid*.

    Lets a caller refuse a grid that is too big *before* enumerating it.  The
    column count is the largest number of (removed, added) choices of a row
    (:func:`~dpsens.count_neighbors`), an upper bound for its distinct
    neighbours.

    Raises
    ------
    ValueError, TypeError
        For the inputs :func:`sensitivity_grid` refuses (``n < 2``, ``n``
        larger than a pool, ``k`` outside ``[1, n - 1]``, a bad relation).

    Examples
    --------
    >>> grid_size(Pool([1, 2, 3, 10, 11]), 3)
    (10, 5)
    """
    universe = resolve_universe(universe)
    neighbors = as_relation(neighbors)
    # the same checks as sensitivity_grid, so a size that passes here can be drawn
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = as_int(k, "k", 1, n - 1)
    n_rows = count_releases(universe, n)
    if n_rows > 10 * MAX_ROWS:
        return n_rows, -1  # too many rows to even look at the columns
    n_cols = max(count_neighbors(x, universe, k, neighbors) for x in releases(universe, n))
    return n_rows, n_cols


def sensitivity_grid(universe: Pool | Domain | str, n: int, k: int = 1, query: str = "median",
                     neighbors: Relation | str = Relation.UNBOUNDED, include_self: bool = False) -> SensitivityGrid:
    """Every release of size ``n``, its neighbours, and ``|f(x) - f(x')|``.

    Chapter: *The median visualisation grid*.

    Parameters
    ----------
    universe : Pool, Domain or str
        Where records come from (or a key of :data:`UNIVERSE_PRESETS`).
    n : int
        Size of a release, ``n >= 2``.
    k : int
        Group size (Hamming distance), ``1 <= k <= n - 1``.
    query : str
        One of :data:`dpsens.QUERIES`.
    neighbors : Relation or {"unbounded", "bounded"}
        The neighbour relation (see :func:`~dpsens.enumerate_neighbors`).
    include_self : bool
        A bounded enumeration also yields ``x`` itself (remove a record, put
        the same value back).  Its cell is always 0, so by default it is left
        out of the grid; the maxima do not change.

    Returns
    -------
    SensitivityGrid

    Raises
    ------
    ValueError
        For a bad universe, size, group size, query or relation.

    Examples
    --------
    >>> g = sensitivity_grid(Pool([1, 2, 3, 10, 11]), n=3, k=1, query="median")
    >>> g.shape, g.global_sensitivity
    ((10, 5), 4.5)
    """
    universe = resolve_universe(universe)
    name, f = check_query(query)
    neighbors = as_relation(neighbors)
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = as_int(k, "k", 1, n - 1)
    rows, values, neigh, diffs = [], [], [], []
    for x in releases(universe, n):
        fx = f(np.asarray(x))
        nbrs = [y for y in enumerate_neighbors(x, universe, k, neighbors) if include_self or y != x]
        rows.append(x)
        values.append(fx)
        neigh.append(tuple(nbrs))
        diffs.append([abs(fx - f(np.asarray(y))) for y in nbrs])
    width = max(len(d) for d in diffs)
    cells = np.full((len(rows), width), np.nan)
    for i, d in enumerate(diffs):
        cells[i, : len(d)] = d
    return SensitivityGrid(universe, n, k, name, neighbors, tuple(rows), np.asarray(values),
                           tuple(neigh), cells)


@overload
def source_bounded_local(x: ArrayLike, universe: Pool | Domain | str, k: int = 1, query: str = "median",
                         return_pair: Literal[False] = False) -> float: ...


@overload
def source_bounded_local(x: ArrayLike, universe: Pool | Domain | str, k: int = 1, query: str = "median", *,
                         return_pair: Literal[True]) -> tuple[float, tuple[tuple, tuple] | None]: ...


@overload
def source_bounded_local(x: ArrayLike, universe: Pool | Domain | str, k: int = 1, query: str = "median",
                         return_pair: bool = False) -> float | tuple[float, tuple[tuple, tuple] | None]: ...


def source_bounded_local(x: ArrayLike, universe: Pool | Domain | str, k: int = 1, query: str = "median",
                         return_pair: bool = False) -> float | tuple[float, tuple[tuple, tuple] | None]:
    """The source text's bounded "local sensitivity" of ``x`` (a flawed variant).

    Chapter: *The median visualisation grid*.

    The source groups the bounded neighbours of ``x`` by the ``n - k``
    records they keep, then takes the largest ``|f(a) - f(b)|`` over pairs
    ``a, b`` *inside a group* -- neither of which need be ``x``.  Two such
    neighbours are at distance ``2k`` from each other through ``x``, so this
    can exceed the local sensitivity ``max |f(x) - f(x')|`` (it is bounded by
    twice it).  Global sensitivity is not affected: over all releases the
    pairs inside the groups are exactly the pairs of bounded neighbours.

    Parameters
    ----------
    x : array-like
        The release.
    universe : Pool or Domain
    k : int
        Records replaced, ``1 <= k <= len(x) - 1``.
    query : str
        One of :data:`dpsens.QUERIES`.
    return_pair : bool
        Also return the pair ``(a, b)`` of neighbours that attains the value.

    Returns
    -------
    float, or (float, (tuple, tuple)) if ``return_pair``

    Examples
    --------
    >>> source_bounded_local([1, 3, 10], Pool([1, 2, 3, 10, 11]))
    8.0
    """
    universe = resolve_universe(universe)
    _, f = check_query(query)
    x = check_release(x, universe)
    k = as_int(k, "k", 1, len(x) - 1)
    xc = Counter(x.tolist())
    best, pair = -1.0, None
    for removed in submultisets(xc, k):
        kept = xc - Counter(removed)
        kept_t = tuple(sorted(kept.elements()))
        group = [tuple(sorted(kept_t + a)) for a in additions(universe, kept, k)]
        vals = np.array([f(np.asarray(y)) for y in group])
        lo, hi = int(np.argmin(vals)), int(np.argmax(vals))
        if vals[hi] - vals[lo] > best:
            best, pair = float(vals[hi] - vals[lo]), (group[lo], group[hi])
    return (best, pair) if return_pair else best


# --------------------------------------------------------------------------- a universe typed by a reader
#: Most values the live explorer reads from its text box (a bigger universe
#: gives an unreadable grid for every n >= 2 anyway).
MAX_VALUES = 40


def parse_values(text: str, max_values: int = MAX_VALUES) -> list[float]:
    """Read universe values typed by a reader: numbers separated by commas or spaces.

    Chapter: *The median visualisation grid* (the live explorer's text box).

    Braces, brackets and semicolons are ignored, so ``"{1, 2, 3, 10, 11}"``
    and ``"1 2 3 10 11"`` both work.

    Raises
    ------
    ValueError
        With a message for the reader: an entry that is not a number, no
        values at all, a value that is not finite, or more than
        ``max_values`` values.

    Examples
    --------
    >>> parse_values("{1, 2, 3, 10, 11}")
    [1.0, 2.0, 3.0, 10.0, 11.0]
    """
    if not isinstance(text, str):
        raise ValueError(f"type the values as text, e.g. 1, 2, 3, 10, 11 (got {type(text).__name__})")
    cleaned = text
    for ch in "{}[]();":
        cleaned = cleaned.replace(ch, " ")
    parts = [p for p in cleaned.replace(",", " ").split() if p]
    if not parts:
        raise ValueError("type at least two values, separated by commas, e.g. 1, 2, 3, 10, 11")
    if len(parts) > max_values:
        raise ValueError(f"{len(parts)} values: at most {max_values} can make a readable grid")
    values = []
    for p in parts:
        try:
            v = float(p.replace("−", "-"))
        except ValueError:
            raise ValueError(f"{p[:20]!r} is not a number; separate the values by commas, "
                             "e.g. 1, 2, 3, 10, 11") from None
        if not np.isfinite(v):
            raise ValueError(f"{p[:20]!r} is not a finite number")
        values.append(v)
    return values

