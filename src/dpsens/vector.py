"""Queries that return several numbers: their L1, L2 and L∞ sensitivity, exactly, and histograms.

Chapter: *Many answers at once* (``chapters/vector.md``).  A vector query
``f: datasets -> R^d`` is released with noise calibrated to the largest
*norm* of the change between neighbours: L1 for Laplace noise, L2 for
Gaussian noise, L∞ for one coordinate at a time.

* :func:`vector_local_sensitivity`: several of the book's queries
  (:data:`dpsens.queries.QUERIES`) applied together to one column, exactly.
  Every *distinct* neighbour is visited once, as a vector of counts over the
  distinct values, and all the queries are evaluated from the counts at once
  (numpy, no per-neighbour Python loop): with ``V`` distinct values the work
  is about ``V^k`` neighbours of ``V`` numbers each, whatever the number of
  records: on the Adult ages (32,561 records, 73 values) k = 1 and 2 take
  milliseconds and k = 3 about half a second (``benchmarks/bench_vector.py``).
* :func:`vector_global_sensitivity`: the largest of those over every release
  whose size is in ``sizes``.  Under add/remove neighbours the size of a
  dataset is private, so a single size gives the global sensitivity only when
  the size is public; pass every size the data may have (all sizes of a
  pool, or ``n >= n_min`` for a public ``n_min``).
* :func:`grouped_local_sensitivity`: one query per group (records carry a
  group label, the groups are a public list): exact, by combining each
  group's own changes with a small dynamic programme over how the ``k``
  changed records fall into the groups.
* :func:`histogram_counts`, :func:`histogram_sensitivity`,
  :func:`noisy_histogram`: counts of disjoint bins; L1 sensitivity ``k``
  (add/remove) or ``2k`` (replace), whatever the number of bins.

The contribution bounds ``g q`` (L1) and ``√g q`` (L2) are
:func:`dpsens.transformations.per_id_sensitivity`; the clipping error is in
:mod:`dpsens.clipping`.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_data, as_int, as_positive, as_probability, check_rng
from .neighbors import Domain, count_releases, releases
from .mechanisms.gaussian import gaussian_sigma
from .mechanisms.noise import gaussian_noise, laplace_noise
from .neighbors import Pool, check_release, check_universe
from .queries import PERCENTILES, check_query
from .relation import Relation, as_relation

__all__ = ["NORMS", "vector_norm", "evaluate_from_counts", "vector_local_sensitivity", "vector_global_sensitivity",
           "grouped_local_sensitivity", "histogram_counts", "histogram_sensitivity", "noisy_histogram"]

#: The norms of a change vector the package measures.
NORMS = ("l1", "l2", "linf")

#: The queries that have a value on an empty dataset (0): a group may be emptied.
EMPTY_OK = {"count": 0.0, "sum": 0.0}

#: Refuse to evaluate more neighbours than this (about 8 bytes × values each).
MAX_ROWS = 4_000_000


def check_norm(norm: str) -> str:
    """Return ``norm`` if it is one of :data:`NORMS`, else raise ``ValueError``."""
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")
    return norm


def vector_norm(changes: ArrayLike, norm: str = "l1") -> np.ndarray:
    """The L1, L2 or L∞ norm of change vectors along the last axis.

    Chapter: *Many answers at once*.

    Examples
    --------
    >>> [float(vector_norm([3.0, -4.0], n)) for n in NORMS]
    [7.0, 5.0, 4.0]
    """
    norm = check_norm(norm)
    a = np.abs(np.asarray(changes, dtype=float))
    if norm == "l1":
        return a.sum(axis=-1)
    if norm == "l2":
        return np.sqrt((a ** 2).sum(axis=-1))
    return a.max(axis=-1)


def _query_names(queries: str | Sequence[str]) -> list[str]:
    if isinstance(queries, str):
        queries = [queries]
    names = [check_query(q)[0] for q in queries]
    if not names:
        raise ValueError("queries must name at least one query, e.g. ['mean', 'median']")
    return names


def evaluate_from_counts(queries: str | Sequence[str], grid: ArrayLike, counts: ArrayLike) -> np.ndarray:
    """The book's queries on datasets given as counts over sorted distinct values.

    Chapter: *Many answers at once*.  Row ``i`` of ``counts`` is a dataset
    holding ``counts[i, j]`` copies of ``grid[j]``; the result's row ``i``
    holds the queries' values on it, with numpy's semantics (population
    variance, linear interpolation between order statistics).  An empty row
    gives 0 for ``count`` and ``sum`` and NaN otherwise.

    Parameters
    ----------
    queries : list of str
        Names from :data:`dpsens.queries.QUERIES`.
    grid : array_like
        Sorted distinct values, length ``V``.
    counts : array_like of int
        Shape ``(m, V)`` (or ``(V,)`` for one dataset).

    Returns
    -------
    numpy.ndarray
        Shape ``(m, len(queries))``.

    Examples
    --------
    >>> evaluate_from_counts(["mean", "median"], [1.0, 2.0, 10.0], [[1, 1, 1], [2, 0, 1]])
    array([[4.33333333, 2.        ],
           [4.        , 1.        ]])
    """
    names = _query_names(queries)
    v = np.asarray(grid, dtype=float)
    C = np.atleast_2d(np.asarray(counts))
    Cf = C.astype(float)
    n = C.sum(axis=1).astype(np.int64)
    out = np.empty((C.shape[0], len(names)))
    with np.errstate(invalid="ignore", divide="ignore"):
        total = Cf @ v
        mean = total / n
        cum = None
        for j, name in enumerate(names):
            if name == "count":
                out[:, j] = n
            elif name == "sum":
                out[:, j] = total
            elif name == "mean":
                out[:, j] = mean
            elif name in ("var", "std"):
                var = (Cf * (v[None, :] - mean[:, None]) ** 2).sum(axis=1) / n
                out[:, j] = var if name == "var" else np.sqrt(var)
            else:
                p = 50.0 if name == "median" else float(PERCENTILES[name])
                if cum is None:
                    cum = np.cumsum(C, axis=1, dtype=np.int32 if n.max(initial=0) < 2 ** 31 else np.int64)
                h = (n - 1) * p / 100.0
                lo = np.floor(h).astype(np.int64)
                hi = np.minimum(lo + 1, n - 1)
                frac = h - lo
                a = v[np.minimum((cum <= lo[:, None]).sum(axis=1), len(v) - 1)]
                b = v[np.minimum((cum <= hi[:, None]).sum(axis=1), len(v) - 1)]
                out[:, j] = np.where(frac >= 0.5, b - (b - a) * (1 - frac), a + (b - a) * frac)
        empty = n == 0
        if empty.any():
            for j, name in enumerate(names):
                out[empty, j] = EMPTY_OK.get(name, np.nan)
    return out


def _combinations(V: int, size: int) -> np.ndarray:
    """Every non-decreasing tuple of ``size`` indices in ``range(V)``, one per row (numpy, no Python loop per row)."""
    C = np.arange(V, dtype=np.int64)[:, None]
    for _ in range(size - 1):
        last = C[:, -1]
        reps = V - last                                    # the next index runs from last to V - 1
        starts = np.cumsum(reps) - reps
        nxt = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(starts, reps) + np.repeat(last, reps)
        C = np.column_stack([np.repeat(C, reps, axis=0), nxt])
    return C


def _multisets(capacity: np.ndarray, size: int, limit: int) -> np.ndarray:
    """Every multiset of ``size`` items over ``len(capacity)`` values, at most ``capacity[j]`` of value j, as counts."""
    V = len(capacity)
    if size == 0:
        return np.zeros((1, V), dtype=np.int64)
    usable = np.flatnonzero(capacity > 0)
    total = math.comb(len(usable) + size - 1, size)
    if total > limit:
        raise ValueError(f"about {total:,} multisets of {size} values: more than the limit of {limit:,} "
                         f"(max_rows); use a smaller k or fewer distinct values")
    cols = usable[_combinations(len(usable), size)]
    flat = (np.arange(total, dtype=np.int64)[:, None] * V + cols).ravel()
    M = np.bincount(flat, minlength=total * V).reshape(total, V)
    if size == 1 or capacity[usable].min() >= size:    # no multiset can exceed a capacity: nothing to filter
        return M
    return M[np.all(M <= capacity, axis=1)]


def _setting(x, universe):
    """The value grid, the counts of ``x`` on it, and how many of each value can be added."""
    universe = check_universe(universe)
    x = check_release(x, universe) if len(x) else np.zeros(0)
    grid = np.unique(np.concatenate([x, universe.values]))
    cx = np.bincount(np.searchsorted(grid, x), minlength=len(grid)).astype(np.int64)
    if isinstance(universe, Pool):
        pool = np.bincount(np.searchsorted(grid, universe.values), minlength=len(grid)).astype(np.int64)
        addable = pool - cx                       # what is left of the pool, beyond x
    else:
        addable = np.where(np.isin(grid, universe.values), np.iinfo(np.int64).max // 4, 0)
    return grid, cx, addable, isinstance(universe, Pool)


def _neighbor_counts(cx, addable, removed: int, added: int, limit: int, keep_nonempty: bool):
    """Yield blocks of neighbour count vectors: ``removed`` records of x taken out, ``added`` put in.

    With a pool, the added records come from the pool minus what stays (a
    removed record can come back).  Blocks keep memory bounded.
    """
    R = _multisets(cx, removed, limit)
    if added == 0:
        rows = cx[None, :] - R
        yield rows[rows.sum(axis=1) >= 1] if keep_nonempty else rows
        return
    cap = addable + (cx if removed else 0)        # a removed value may be added again (pool)
    A = _multisets(np.minimum(cap, np.iinfo(np.int64).max // 4), added, limit)
    if len(R) * len(A) > limit:
        raise ValueError(f"{len(R) * len(A):,} neighbours: more than the limit of {limit:,} (max_rows); "
                         f"use a smaller k or fewer distinct values")
    if removed == 0:                              # additions only: every row is a neighbour, no mask to apply
        yield cx[None, :] + A
        return
    step = max(1, limit // 20 // max(len(A), 1))
    for start in range(0, len(R), step):
        block = cx[None, None, :] - R[start:start + step, None, :] + A[None, :, :]
        ok = np.all(A[None, :, :] <= (addable + R[start:start + step, None, :]), axis=2)
        yield block[ok]


def _relation_parts(k: int, neighbors: Relation) -> list[tuple[int, int]]:
    """``(removed, added)`` pairs that make up the relation at group size ``k``."""
    return [(k, 0), (0, k)] if neighbors is Relation.UNBOUNDED else [(k, k)]


@overload
def vector_local_sensitivity(x: ArrayLike, queries: str | Sequence[str], universe: Pool | Domain, k: int = 1,
                             neighbors: Relation | str = Relation.UNBOUNDED, norm: str = "l1", *,
                             return_neighbor: Literal[False] = False, max_rows: int = MAX_ROWS) -> float: ...


@overload
def vector_local_sensitivity(x: ArrayLike, queries: str | Sequence[str], universe: Pool | Domain, k: int = 1,
                             neighbors: Relation | str = Relation.UNBOUNDED, norm: str = "l1", *,
                             return_neighbor: Literal[True],
                             max_rows: int = MAX_ROWS) -> tuple[float, tuple | None]: ...


def vector_local_sensitivity(x: ArrayLike, queries: str | Sequence[str], universe: Pool | Domain, k: int = 1,
                             neighbors: Relation | str = Relation.UNBOUNDED, norm: str = "l1", *,
                             return_neighbor: bool = False,
                             max_rows: int = MAX_ROWS) -> float | tuple[float, tuple | None]:
    """Exact local sensitivity of several queries applied together to one column, in a norm.

    Chapter: *Many answers at once*.

    ``max over neighbours x' of ‖(f_1(x) − f_1(x'), ..., f_d(x) − f_d(x'))‖``
    where the neighbours are those of :func:`dpsens.enumerate_neighbors`:
    exactly ``k`` records added or removed (``"unbounded"``, never leaving an
    empty dataset) or ``k`` replaced (``"bounded"``).

    Parameters
    ----------
    x : array_like
        The dataset (a multiset of numbers inside the universe).
    queries : str or list of str
        Names from :data:`dpsens.queries.QUERIES`, e.g. ``["mean", "median"]``.
    universe : Pool or Domain
    k : int
        Group size, ``1 <= k <= len(x) - 1``.
    neighbors : Relation or {"unbounded", "bounded"}
    norm : {"l1", "l2", "linf"}
    return_neighbor : bool
        Also return one neighbour that reaches the maximum (a sorted tuple).
    max_rows : int
        Refuse settings with more distinct neighbours than this.

    Returns
    -------
    float, or (float, tuple)

    Examples
    --------
    >>> import dpsens as ds
    >>> vector_local_sensitivity([1, 2, 3, 10], ["mean", "median"], ds.Domain(range(11)))
    2.5
    """
    names = _query_names(queries)
    neighbors = as_relation(neighbors)
    norm = check_norm(norm)
    grid, cx, addable, _ = _setting(x, universe)
    k = as_int(k, "k", minimum=1, maximum=max(1, int(cx.sum()) - 1))
    base = evaluate_from_counts(names, grid, cx)[0]
    best, best_row = -1.0, None
    for removed, added in _relation_parts(k, neighbors):
        for block in _neighbor_counts(cx, addable, removed, added, as_int(max_rows, "max_rows", minimum=1),
                                      keep_nonempty=True):
            if len(block) == 0:
                continue
            sizes = vector_norm(evaluate_from_counts(names, grid, block) - base, norm)
            i = int(np.argmax(sizes))
            if sizes[i] > best:
                best, best_row = float(sizes[i]), block[i]
    best = max(best, 0.0)
    if return_neighbor:
        return best, tuple(np.repeat(grid, best_row).tolist()) if best_row is not None else None
    return best


def vector_global_sensitivity(queries: str | Sequence[str], universe: Pool | Domain, sizes: int | Iterable[int],
                              k: int = 1, neighbors: Relation | str = Relation.UNBOUNDED,
                              norm: str = "l1", *, max_releases: int = 200_000) -> float:
    """The largest :func:`vector_local_sensitivity` over every release whose size is in ``sizes``.

    Chapter: *Many answers at once*.

    Which number this is depends on what is public.  With ``"bounded"``
    neighbours (replace) the size ``n`` is public and ``sizes=n`` gives the
    global sensitivity.  With ``"unbounded"`` neighbours (add/remove) the
    size is private: ``sizes=n`` is only the largest change *at* size ``n``
    (valid if ``n`` is released separately); the global sensitivity is the
    maximum over every size the data may have -- for a pool of ``N`` people,
    ``sizes=range(2, N + 1)`` (every size must be at least 2: a one-person
    release is seen as the removal neighbour of a two-person one, and sizes
    beyond ``N - k`` have no additions), or ``range(n_min, ...)`` for a
    public lower bound.

    Parameters
    ----------
    queries, universe, k, neighbors, norm
        As in :func:`vector_local_sensitivity`.
    sizes : int or iterable of int
        Sizes of the releases to maximise over (each ``>= 2``, at most the pool's size).
    max_releases : int
        Refuse to enumerate more releases than this.

    Examples
    --------
    >>> import dpsens as ds
    >>> vector_global_sensitivity(["mean", "median"], ds.Domain([0, 1]), 3, neighbors="bounded")
    1.3333333333333333
    """
    universe = check_universe(universe)
    neighbors = as_relation(neighbors)
    size_list = [sizes] if isinstance(sizes, (int, np.integer)) else list(sizes)
    if not size_list:
        raise ValueError("sizes must hold at least one size")
    best = 0.0
    for n in size_list:
        n = as_int(n, "sizes", minimum=2, maximum=len(universe.values) if isinstance(universe, Pool) else None)
        if count_releases(universe, n) > max_releases:
            raise ValueError(f"{count_releases(universe, n):,} releases of size {n}: more than max_releases="
                             f"{max_releases:,}")
        kk = min(k, n - 1)
        if kk != k:
            continue
        for x in releases(universe, n):
            best = max(best, vector_local_sensitivity(x, queries, universe, k, neighbors, norm))
    return best


def _group_changes(values, query: str, universe, k: int, neighbors: Relation) -> dict:
    """Largest |change| of ``query`` on one group for each (removed, added) split with removed, added <= k."""
    grid, cx, addable, _ = _setting(values, universe)
    base = evaluate_from_counts([query], grid, cx)[0, 0]
    pairs = [(r, a) for r in range(k + 1) for a in range(k + 1)
             if (r + a) and (neighbors is Relation.BOUNDED or r == 0 or a == 0)]
    table = {}
    for r, a in pairs:
        if r > cx.sum():
            continue
        best = None
        for block in _neighbor_counts(cx, addable, r, a, MAX_ROWS, keep_nonempty=query not in EMPTY_OK):
            if len(block):
                best = max(best or 0.0, float(np.abs(evaluate_from_counts([query], grid, block)[:, 0] - base).max()))
        if best is not None:
            table[(r, a)] = best
    return table


def _place_changes(tables: list[dict], k: int, power: float | None) -> dict[tuple[int, int], float]:
    """``best[(r, a)]``: the largest objective with ``r`` removals and ``a`` additions spread over the groups.

    ``tables[i]`` maps ``(r, a)`` to the largest change of group ``i``'s query;
    the objective sums the changes to the power ``power`` (L1, L2), or takes
    their maximum (``power=None``, L∞).
    """
    def combine(acc: float, c: float) -> float:
        return max(acc, c) if power is None else acc + c ** power

    best = {(0, 0): 0.0}
    for table in tables:
        options = [((0, 0), 0.0)] + list(table.items())
        new: dict[tuple[int, int], float] = {}
        for (r0, a0), acc in best.items():
            for (r, a), c in options:
                key = (r0 + r, a0 + a)
                if key[0] > k or key[1] > k:
                    continue
                val = combine(acc, c)
                if val > new.get(key, -1.0):
                    new[key] = val
        best = new
    return best


def grouped_local_sensitivity(x: ArrayLike, groups: ArrayLike, query: str, universe: Domain,
                              labels: Iterable | None = None, k: int = 1,
                              neighbors: Relation | str = Relation.UNBOUNDED,
                              norm: str = "l1") -> float:
    """Exact local sensitivity of one query per group, released as a vector, in a norm.

    Chapter: *Many answers at once*.

    A record is a (group label, value) pair; the labels are a public list and
    every value lies in ``universe`` (a :class:`~dpsens.Domain`).  Add/remove
    neighbours add or remove ``k`` records of any labels; replace neighbours
    remove ``k`` records and add ``k`` (a replaced record may change group).
    Only the groups that gain or lose records move, so the change vector is
    computed group by group, and a dynamic programme over the groups finds how
    the ``k`` removals and additions are best shared out: for L1 and L2 the
    objective (sum of |change| or of change²) is a sum over groups; for L∞ it
    is a maximum.  A neighbour that empties a group is not counted for
    queries that have no value on an empty group (everything but ``count``
    and ``sum``); empty groups are only allowed for those two.

    Parameters
    ----------
    x : array_like
        The values.
    groups : array_like
        One label per value.
    query : str
        One name from :data:`dpsens.queries.QUERIES`.
    universe : Domain
    labels : sequence, optional
        The public list of groups (default: the labels present in ``groups``).
    k, neighbors, norm
        As in :func:`vector_local_sensitivity`.

    Examples
    --------
    >>> import dpsens as ds
    >>> grouped_local_sensitivity([1, 2, 3, 9], ["a", "a", "b", "b"], "sum", ds.Domain(range(10)),
    ...                           neighbors="bounded")
    18.0
    """
    query = _query_names(query)[0]
    neighbors = as_relation(neighbors)
    norm = check_norm(norm)
    if not isinstance(universe, Domain):
        raise TypeError(f"universe must be a Domain for a query per group, got {type(universe).__name__}")
    values = as_data(x, "x", allow_empty=True)
    g = np.asarray(groups, dtype=object).ravel()
    if len(g) != len(values):
        raise ValueError(f"groups must give one label per value: {len(g)} labels for {len(values)} values")
    labels = list(dict.fromkeys(g.tolist())) if labels is None else list(labels)
    if not labels:
        raise ValueError("labels must hold at least one group")
    unknown = set(g.tolist()) - set(labels)
    if unknown:
        raise ValueError(f"groups holds labels that are not in labels: {sorted(map(str, unknown))[:5]}")
    k = as_int(k, "k", minimum=1)
    if query not in EMPTY_OK and any(not np.any(g == lab) for lab in labels):
        raise ValueError(f"every group needs a record for {query!r} (it has no value on an empty group); "
                         f"use 'count' or 'sum', or drop the empty labels")
    tables = [_group_changes(values[g == lab], query, universe, k, neighbors) for lab in labels]
    power = {"l1": 1.0, "l2": 2.0}.get(norm)
    best = _place_changes(tables, k, power)
    targets = _relation_parts(k, neighbors)
    reached = [best[t] for t in targets if t in best]
    if not reached:
        return 0.0
    top = max(reached)
    return float(top if power is None else top ** (1 / power))


def histogram_counts(values: ArrayLike, bins: Sequence) -> np.ndarray:
    """Counts of ``values`` in disjoint bins: ``bins`` a list of labels, or bin edges for numbers.

    Chapter: *Many answers at once*.  With labels, every value must be one
    of them (a public list: a label with no record still gets its 0).  With
    edges ``e_0 < e_1 < ... < e_B`` (numbers), bin ``i`` is ``[e_i, e_{i+1})``,
    the last one closed; values outside the edges raise.

    Examples
    --------
    >>> histogram_counts(["a", "c", "a"], ["a", "b", "c"]).tolist()
    [2, 0, 1]
    >>> histogram_counts([17, 25, 90], [17, 30, 60, 91]).tolist()
    [2, 0, 1]
    """
    bins = list(bins)
    if len(bins) == 0:
        raise ValueError("bins must hold at least one label (or two edges); got an empty list")
    vals = np.asarray(values, dtype=object).ravel()
    numeric = all(isinstance(b, (int, float, np.integer, np.floating)) and not isinstance(b, bool) for b in bins)
    if numeric and len(bins) >= 2 and np.all(np.diff(np.asarray(bins, float)) > 0) and \
            all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals):
        edges = np.asarray(bins, dtype=float)
        num = vals.astype(float)
        if not np.all(np.isfinite(num)) or np.any((num < edges[0]) | (num > edges[-1])):
            raise ValueError(f"values must be finite and inside the edges [{edges[0]:g}, {edges[-1]:g}]")
        return np.histogram(num, bins=edges)[0].astype(np.int64)
    index = {b: i for i, b in enumerate(bins)}
    if len(index) != len(bins):
        raise ValueError("bins must not repeat a label")
    missing = [v for v in vals.tolist() if v not in index]
    if missing:
        raise ValueError(f"values must all be among the bins' labels; e.g. {missing[0]!r} is not")
    return np.bincount([index[v] for v in vals.tolist()], minlength=len(bins)).astype(np.int64)


def histogram_sensitivity(neighbors: Relation | str = Relation.UNBOUNDED, norm: str = "l1", k: int = 1,
                          n_bins: int = 2) -> float:
    """Global sensitivity of a histogram of disjoint bins, whatever its number of bins and records.

    Chapter: *Many answers at once*.  Each record is counted in exactly one
    bin.  Adding or removing ``k`` records changes the counts by a vector of
    non-negative (or non-positive) integers summing to ``k``: L1 ``k``, and
    L2 and L∞ at most ``k`` (all in one bin).  Replacing ``k`` records
    removes ``k`` and adds ``k``: L1 ``2k``, L2 ``√2 k``, L∞ ``k`` (all moved
    from one bin to another), when there are at least two bins -- with one
    bin a replacement changes nothing.  None of these depends on the size
    ``n``, so they hold whether ``n`` is public or not.

    Examples
    --------
    >>> [histogram_sensitivity(r, m) for r in ("unbounded", "bounded") for m in NORMS]
    [1.0, 1.0, 1.0, 2.0, 1.4142135623730951, 1.0]
    """
    neighbors = as_relation(neighbors)
    norm = check_norm(norm)
    k = as_int(k, "k", minimum=1)
    n_bins = as_int(n_bins, "n_bins", minimum=1)
    if neighbors is Relation.UNBOUNDED:
        return float(k)
    if n_bins == 1:
        return 0.0
    return {"l1": 2.0 * k, "l2": math.sqrt(2) * k, "linf": float(k)}[norm]


def noisy_histogram(counts: ArrayLike, epsilon: float, rng: np.random.Generator, mechanism: str = "laplace",
                    delta: float | None = None, neighbors: Relation | str = Relation.UNBOUNDED,
                    size: int | None = None) -> np.ndarray:
    """Counts plus independent noise in every bin: ε-DP (Laplace) or (ε, δ)-DP (analytic Gaussian).

    Chapter: *Many answers at once*.  Laplace noise of scale
    ``Δ₁/ε`` in every bin, or Gaussian noise with the analytic σ for
    ``Δ₂`` (:func:`dpsens.mechanisms.gaussian_sigma`), the sensitivities
    from :func:`histogram_sensitivity` for ``neighbors``.  The bins must be
    a public list (a label with count 0 gets noise too): choosing the bins
    from the data would leak which labels occur.

    Parameters
    ----------
    counts : array_like of int
        The exact counts, one per bin (at least one bin).
    epsilon : float
    rng : numpy.random.Generator
    mechanism : {"laplace", "gaussian"}
    delta : float, optional
        Needed for the Gaussian mechanism, in ``(0, 1)``.
    neighbors : Relation or {"unbounded", "bounded"}
    size : int, optional
        Number of independent releases (rows of the result).
    """
    c = np.asarray(counts)
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"counts must be a non-empty 1-D array of counts, got shape {c.shape}")
    if c.dtype.kind not in "iuf" or not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError("counts must be finite numbers >= 0")
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    neighbors = as_relation(neighbors)
    shape = c.shape if size is None else (as_int(size, "size", minimum=1),) + c.shape
    if mechanism == "laplace":
        scale = histogram_sensitivity(neighbors, "l1", n_bins=c.size) / epsilon
        return c + laplace_noise(scale, rng, shape) if scale > 0 else c + np.zeros(shape)
    if mechanism == "gaussian":
        if delta is None:
            raise ValueError("delta must be given for mechanism='gaussian', e.g. delta=1e-6")
        delta = as_probability(delta, "delta")
        sigma = gaussian_sigma(histogram_sensitivity(neighbors, "l2", n_bins=c.size), epsilon, delta, "analytic")
        return c + gaussian_noise(sigma, rng, shape) if sigma > 0 else c + np.zeros(shape)
    raise ValueError(f"mechanism must be 'laplace' or 'gaussian', got {mechanism!r}")

