"""Sensitivity of table transformations: flat maps, joins, truncation.

Chapter: *Sensitivity of transformations*.

A query rarely runs on the raw private table: rows are expanded (a flat map),
joined with other tables, grouped.  Each step can make one person's influence
larger.  This module holds the steps, written on plain pandas DataFrames, and
the rules that bound how far apart two neighbouring tables can be after them.

Two ways of saying what is protected:

* **row-level** -- neighbouring tables differ by adding or removing rows
  (``max_rows`` of them, usually one).  The distance ``t`` between two tables
  is the size of the *symmetric difference* of their rows, as multisets
  (:func:`symmetric_distance`).  A transformation is *κ-stable* if inputs at
  distance ``t`` give outputs at distance at most ``κ t``; a count then has
  sensitivity ``κ t``.  A flat map or a public join makes at most ``μ`` rows
  of one row (it is ``μ``-stable).
* **identifier-level** -- neighbouring tables differ by *all* the rows of one
  identifier (a person who may own many rows).  Nothing is bounded until the
  rows of each identifier are truncated: at most ``q`` rows per identifier, or
  at most ``g`` groups and ``q`` rows per group.

The letters are the book's (chapter *Notation*); the chapter translates them
into those of the source's guide.

Every truncation here is *stable*: which rows survive depends only on the rows
themselves (a hash of their content, or an explicit random draw), never on
their position in the table, so adding one row can evict at most one other.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validate import as_bounds, as_int, check_rng
from .deprecation import moved, renamed

__all__ = [
    "symmetric_distance", "flat_map", "max_key_multiplicity", "public_join",
    "truncate_rows_per_id", "drop_non_unique", "truncate_groups_per_id",
    "truncate_rows_per_group_per_id", "private_join", "TRUNCATION_STABILITY",
    "private_join_stability", "per_id_sensitivity", "RowStability",
    "largest_change", "row_neighbor", "id_neighbor", "GENRES", "films_table", "states_table",
    "people_table", "users_purchases_tables", "purchases_table",
]

#: Stability ``κ`` of the two truncation strategies of the source's guide: keeping
#: at most ``q`` rows per key (adding one row can bring one row in and push one
#: out, distance 2) and dropping every key that is not unique (distance 1).
TRUNCATION_STABILITY = {"drop_excess": 2, "drop_non_unique": 1}


# ---------------------------------------------------------------------------
# input checks
# ---------------------------------------------------------------------------
def _check_frame(df, name: str) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}")
    return df


def _check_columns(df: pd.DataFrame, columns, name: str) -> list:
    cols = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{name} has no column(s) {missing}; its columns are {list(df.columns)}")
    return cols


def _priority(df: pd.DataFrame, rng) -> np.ndarray:
    """Order in which rows are kept: a hash of the row's content (so the choice
    depends on the rows, not on where they sit), or random numbers from ``rng``."""
    if rng is not None:
        return rng.random(len(df))
    if len(df) == 0:
        return np.zeros(0, dtype=np.uint64)
    return pd.util.hash_pandas_object(df, index=False).to_numpy()


def _keep_first_per_key(df: pd.DataFrame, keys: list, limit: int, priority: np.ndarray) -> pd.DataFrame:
    order = np.lexsort([priority])  # by priority; ties keep table order
    if len(keys) == 1:
        # rank of each row within its key, in priority order -- groupby(...).cumcount()
        # in numpy: the chapters call this thousands of times on tiny tables, where
        # pandas' groupby costs ~3 ms a call (same rows kept; NaN keys form one group
        # as with dropna=False)
        codes, _ = pd.factorize(df[keys[0]].to_numpy()[order], use_na_sentinel=False)
        by_key = np.argsort(codes, kind="stable")
        sorted_codes = codes[by_key]
        starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
        rank = np.empty(len(codes), dtype=np.int64)
        rank[by_key] = np.arange(len(codes)) - np.repeat(starts, np.diff(np.r_[starts, len(codes)]))
        keep = rank < limit
    else:
        keep = df.iloc[order].groupby(keys, sort=False, dropna=False).cumcount().to_numpy() < limit
    if df.index.is_monotonic_increasing and df.index.is_unique:
        return df.iloc[np.sort(order[keep])]  # original order: what sort_index() gives
    return df.iloc[order][keep].sort_index()


# ---------------------------------------------------------------------------
# measuring distances
# ---------------------------------------------------------------------------
def symmetric_distance(a: pd.DataFrame, b: pd.DataFrame) -> int:
    """Number of rows in the symmetric difference of two tables, as multisets.

    Chapter: *Sensitivity of transformations*.  Row order and the index are
    ignored; a row that appears twice in ``a`` and once in ``b`` counts once.

    Parameters
    ----------
    a, b : pandas.DataFrame
        Tables with the same columns.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the columns differ.

    Examples
    --------
    >>> import pandas as pd
    >>> symmetric_distance(pd.DataFrame({"x": [1, 2, 2]}), pd.DataFrame({"x": [2, 3]}))
    3
    """
    a, b = _check_frame(a, "a"), _check_frame(b, "b")
    if sorted(map(str, a.columns)) != sorted(map(str, b.columns)):
        raise ValueError(f"a and b must have the same columns, got {list(a.columns)} and {list(b.columns)}")
    cols = list(a.columns)
    ca = Counter(map(tuple, a[cols].astype(object).itertuples(index=False, name=None)))
    cb = Counter(map(tuple, b[cols].astype(object).itertuples(index=False, name=None)))
    return sum(((ca - cb) + (cb - ca)).values())


# ---------------------------------------------------------------------------
# row-level transformations
# ---------------------------------------------------------------------------
def flat_map(df: pd.DataFrame, func, max_rows: int) -> pd.DataFrame:
    """Map every row to zero or more rows, keeping at most ``max_rows`` of them.

    Chapter: *Sensitivity of transformations*.  The result is
    ``max_rows``-stable: one input row more or less changes at most
    ``max_rows`` output rows, whatever ``func`` actually returns.

    Parameters
    ----------
    df : pandas.DataFrame
        The input table.
    func : callable
        ``func(row)`` gets a row (a ``pandas.Series``) and returns a list of
        dicts, one per output row.
    max_rows : int
        Largest number of output rows kept per input row (the first ones), >= 1.

    Returns
    -------
    pandas.DataFrame
        The output rows, in order.

    Examples
    --------
    >>> import pandas as pd
    >>> films = pd.DataFrame({"title": ["A", "B"], "genres": ["x|y|z|w", "y"]})
    >>> out = flat_map(films, lambda r: [{"genre": g} for g in r["genres"].split("|")], max_rows=3)
    >>> out["genre"].tolist()
    ['x', 'y', 'z', 'y']
    """
    df = _check_frame(df, "df")
    max_rows = as_int(max_rows, "max_rows", minimum=1)
    if not callable(func):
        raise TypeError(f"func must be a function of one row returning a list of dicts, got {type(func).__name__}")
    rows = []
    for _, row in df.iterrows():
        out = func(row)
        if out is None:
            continue
        rows.extend(list(out)[:max_rows])
    return pd.DataFrame(rows)


def max_key_multiplicity(public: pd.DataFrame, on) -> int:
    """Largest number of rows that share one value of the join key ``on``.

    Chapter: *Sensitivity of transformations*.  For a join with a *public*
    table this is the stability of the join: a private row matches at most
    this many public rows.

    Examples
    --------
    >>> import pandas as pd
    >>> max_key_multiplicity(pd.DataFrame({"zip": [1, 2, 2], "state": ["a", "b", "c"]}), "zip")
    2
    """
    public = _check_frame(public, "public")
    cols = _check_columns(public, on, "public")
    if len(public) == 0:
        return 0
    return int(public.groupby(cols, dropna=False).size().max())


def public_join(private: pd.DataFrame, public: pd.DataFrame, on) -> pd.DataFrame:
    """Inner join of a private table with a public one.

    Chapter: *Sensitivity of transformations*.  Stability:
    :func:`max_key_multiplicity` of the public table -- a property of the
    public table only, so it may be looked at freely.

    Parameters
    ----------
    private, public : pandas.DataFrame
    on : str or list of str
        The join key, a column of both tables.

    Returns
    -------
    pandas.DataFrame
        One row per matching (private row, public row) pair.

    Raises
    ------
    TypeError, ValueError
        If a table is not a DataFrame or lacks the key.

    Examples
    --------
    >>> import pandas as pd
    >>> people = pd.DataFrame({"name": ["Susie"], "zip": [37752]})
    >>> len(public_join(people, pd.DataFrame({"zip": [37752, 37752], "state": ["TN", "KY"]}), "zip"))
    2
    """
    private, public = _check_frame(private, "private"), _check_frame(public, "public")
    cols = _check_columns(private, on, "private")
    _check_columns(public, cols, "public")
    return private.merge(public, on=cols, how="inner")


def truncate_rows_per_id(df: pd.DataFrame, id_col, max_rows: int, rng=None) -> pd.DataFrame:
    """Keep at most ``max_rows`` rows for each value of ``id_col`` (the source's
    ``DropExcess`` / ``MaxRowsPerID``).

    Chapter: *Sensitivity of transformations*.

    Parameters
    ----------
    df : pandas.DataFrame
    id_col : str or list of str
        The identifier (or join key) whose rows are limited.
    max_rows : int
        Rows kept per identifier, >= 1.
    rng : numpy.random.Generator, optional
        If given, the rows kept are a uniformly random subset.  If None, the
        rows with the smallest hash of their content are kept: deterministic,
        and independent of the order of the table, so that neighbouring tables
        make the same choices.

    Returns
    -------
    pandas.DataFrame
        The kept rows, in their original order, with their original index.

    Notes
    -----
    Stability 2 at row level: adding one row to a key that already has
    ``max_rows`` rows may bring it in and push another out.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"user": [1, 1, 1, 2], "item": ["a", "b", "c", "d"]})
    >>> truncate_rows_per_id(df, "user", 2).groupby("user").size().tolist()
    [2, 1]
    """
    df = _check_frame(df, "df")
    cols = _check_columns(df, id_col, "df")
    max_rows = as_int(max_rows, "max_rows", minimum=1)
    return _keep_first_per_key(df, cols, max_rows, _priority(df, check_rng(rng, allow_none=True)))


def drop_non_unique(df: pd.DataFrame, key) -> pd.DataFrame:
    """Drop every row whose ``key`` appears more than once (the source's ``DropNonUnique``).

    Chapter: *Sensitivity of transformations*.  Stability 1: adding a row
    either adds it (new key), removes the one row it now collides with, or
    changes nothing.

    Parameters
    ----------
    df : pandas.DataFrame
    key : str or list of str

    Returns
    -------
    pandas.DataFrame
        The rows whose key is unique, with their original index.

    Examples
    --------
    >>> import pandas as pd
    >>> drop_non_unique(pd.DataFrame({"id": [1, 1, 2]}), "id")["id"].tolist()
    [2]
    """
    df = _check_frame(df, "df")
    cols = _check_columns(df, key, "df")
    return df[~df.duplicated(cols, keep=False)]


def truncate_groups_per_id(df: pd.DataFrame, id_col: str, group_col, max_groups: int, rng=None) -> pd.DataFrame:
    """Keep the rows of at most ``max_groups`` distinct groups per identifier (``MaxGroupsPerID``).

    Chapter: *Sensitivity of transformations*.  Which groups an identifier
    keeps depends only on the (identifier, group) pair (a hash of it), or on
    ``rng`` if given.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"user": [1, 1, 1, 2], "shop": ["a", "b", "b", "a"]})
    >>> kept = truncate_groups_per_id(df, "user", "shop", 1)
    >>> kept.groupby("user")["shop"].nunique().tolist()
    [1, 1]
    """
    df = _check_frame(df, "df")
    ids = _check_columns(df, id_col, "df")
    groups = _check_columns(df, group_col, "df")
    max_groups = as_int(max_groups, "max_groups", minimum=1)
    rng = check_rng(rng, allow_none=True)
    pairs = df[ids + groups].drop_duplicates()
    chosen = _keep_first_per_key(pairs, ids, max_groups, _priority(pairs, rng))
    mask = pd.MultiIndex.from_frame(df[ids + groups]).isin(pd.MultiIndex.from_frame(chosen[ids + groups]))
    return df[mask]


def truncate_rows_per_group_per_id(df: pd.DataFrame, id_col: str, group_col, max_rows: int,
                                   rng=None) -> pd.DataFrame:
    """Keep at most ``max_rows`` rows per (identifier, group) (``MaxRowsPerGroupPerID``).

    Chapter: *Sensitivity of transformations*.  Same choice rule as
    :func:`truncate_rows_per_id`, with the pair (identifier, group) as the key.

    Parameters
    ----------
    df : pandas.DataFrame
    id_col, group_col : str
    max_rows : int
        Rows kept per (identifier, group), >= 1.
    rng : numpy.random.Generator, optional

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"user": [1, 1, 1, 1], "shop": ["a", "a", "a", "b"]})
    >>> truncate_rows_per_group_per_id(df, "user", "shop", 2).groupby("shop").size().tolist()
    [2, 1]
    """
    df = _check_frame(df, "df")
    ids = _check_columns(df, id_col, "df")
    groups = _check_columns(df, group_col, "df")
    return truncate_rows_per_id(df, ids + groups, max_rows, rng=rng)


def private_join(left: pd.DataFrame, right: pd.DataFrame, on, left_max_rows: int | None = None,
                 right_max_rows: int | None = None, left_truncation: str = "drop_excess",
                 right_truncation: str = "drop_excess", rng=None) -> pd.DataFrame:
    """Join two private tables after truncating each on the join key.

    Chapter: *Sensitivity of transformations*.  Each side is truncated with
    ``"drop_excess"`` (at most ``*_max_rows`` rows per key, see
    :func:`truncate_rows_per_id`) or ``"drop_non_unique"`` (see
    :func:`drop_non_unique`; then ``*_max_rows`` is 1 and may be omitted).
    The stability is :func:`private_join_stability`.

    Parameters
    ----------
    left, right : pandas.DataFrame
    on : str or list of str
        The join key.
    left_max_rows, right_max_rows : int or None
        Truncation thresholds ``q_1``, ``q_2``: rows kept per key.
    left_truncation, right_truncation : {"drop_excess", "drop_non_unique"}
    rng : numpy.random.Generator, optional
        Random instead of hash-based choice of the rows kept.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError
        For an unknown truncation, a missing threshold, or a threshold other
        than 1 with ``drop_non_unique``.

    Examples
    --------
    >>> import pandas as pd
    >>> users = pd.DataFrame({"uid": [1, 2, 2], "name": ["a", "b", "c"]})
    >>> buys = pd.DataFrame({"uid": [1, 1, 1, 2], "item": ["x", "y", "z", "w"]})
    >>> len(private_join(users, buys, "uid", None, 2, left_truncation="drop_non_unique"))
    2
    """
    left, right = _check_frame(left, "left"), _check_frame(right, "right")
    cols = _check_columns(left, on, "left")
    _check_columns(right, cols, "right")
    rng = check_rng(rng, allow_none=True)
    sides = []
    for name, df, limit, how in (("left", left, left_max_rows, left_truncation),
                                 ("right", right, right_max_rows, right_truncation)):
        if how not in TRUNCATION_STABILITY:
            raise ValueError(f"{name}_truncation must be one of {tuple(TRUNCATION_STABILITY)}, got {how!r}")
        if how == "drop_non_unique":
            if limit not in (None, 1):
                raise ValueError(f"{name}_max_rows must be 1 or None with drop_non_unique, got {limit!r}")
            sides.append(drop_non_unique(df, cols))
        else:
            if limit is None:
                raise ValueError(f"{name}_max_rows is needed with drop_excess (rows kept per key), got None")
            sides.append(truncate_rows_per_id(df, cols, limit, rng=rng))
    return sides[0].merge(sides[1], on=cols, how="inner")


# ---------------------------------------------------------------------------
# the rules
# ---------------------------------------------------------------------------
def private_join_stability(left_threshold: int, right_threshold: int, left_truncation: str = "drop_excess",
                           right_truncation: str = "drop_excess", left_max_rows: int = 1,
                           right_max_rows: int = 1) -> int:
    """Row distance of a private join's output, ``q_1 κ_2 t_2 + q_2 κ_1 t_1``.

    Chapter: *Sensitivity of transformations*.  Side 1 is the left table,
    side 2 the right.  ``q`` are the truncation thresholds, the rows kept per
    key (1 for ``drop_non_unique``), ``κ`` the stabilities of the truncations
    (:data:`TRUNCATION_STABILITY`), ``t`` the distances of each table's
    neighbours: the rows its protected change may add or remove.  A change of
    the right table is at most ``κ_2 t_2`` changed truncated right rows, each
    matching at most ``q_1`` kept left rows; and symmetrically.

    Parameters
    ----------
    left_threshold, right_threshold : int
        ``q_1``, ``q_2``, >= 1 (1 with ``drop_non_unique``).
    left_truncation, right_truncation : {"drop_excess", "drop_non_unique"}
        The truncation of each side, whose stability is ``κ_1``, ``κ_2``.
    left_max_rows, right_max_rows : int
        ``t_1``, ``t_2``: rows added or removed by each table's protected
        change (the ``max_rows`` of the guide's ``AddMaxRows``), >= 0.

    Returns
    -------
    int

    Examples
    --------
    The three cases of the source's guide:

    >>> private_join_stability(2, 2)
    8
    >>> private_join_stability(1, 2, left_truncation="drop_non_unique")
    4
    >>> private_join_stability(1, 2)
    6
    """
    terms = {}
    for name, q, how, t in (("left", left_threshold, left_truncation, left_max_rows),
                            ("right", right_threshold, right_truncation, right_max_rows)):
        if how not in TRUNCATION_STABILITY:
            raise ValueError(f"{name}_truncation must be one of {tuple(TRUNCATION_STABILITY)}, got {how!r}")
        q = as_int(q, f"{name}_threshold", minimum=1)
        if how == "drop_non_unique" and q != 1:
            raise ValueError(f"{name}_threshold must be 1 with drop_non_unique, got {q}")
        terms[name] = (q, TRUNCATION_STABILITY[how], as_int(t, f"{name}_max_rows", minimum=0))
    (q1, kappa1, t1), (q2, kappa2, t2) = terms["left"], terms["right"]
    return q1 * kappa2 * t2 + q2 * kappa1 * t1


def per_id_sensitivity(max_groups: int = 1, max_rows_per_group: int = 1, norm: str = "l1") -> float:
    """Sensitivity of per-group counts when each identifier keeps at most
    ``max_groups`` groups and ``max_rows_per_group`` rows in each.

    Chapter: *Sensitivity of transformations*.  Removing an identifier
    lowers at most ``g = max_groups`` counts, each by at most
    ``q = max_rows_per_group``: the L1 norm of the change is at most ``g q``
    (Laplace noise), its L2 norm at most ``sqrt(g) q`` (Gaussian noise).  With
    ``max_groups=1`` this is the ``MaxRowsPerID`` rule: ``q``.

    Parameters
    ----------
    max_groups, max_rows_per_group : int
        The truncation bounds, >= 1.
    norm : {"l1", "l2"}

    Examples
    --------
    >>> per_id_sensitivity(4, 3, "l1"), per_id_sensitivity(4, 3, "l2")
    (12.0, 6.0)
    """
    g = as_int(max_groups, "max_groups", minimum=1)
    q = as_int(max_rows_per_group, "max_rows_per_group", minimum=1)
    if norm == "l1":
        return float(g * q)
    if norm == "l2":
        return float(math.sqrt(g) * q)
    raise ValueError(f"norm must be 'l1' (Laplace) or 'l2' (Gaussian), got {norm!r}")


@dataclass(frozen=True)
class RowStability:
    """A small stability calculator for row-level protection.

    Chapter: *Sensitivity of transformations*.  Start from the protected
    change (``max_rows`` rows added or removed: the distance ``t``), apply the
    transformations of a query in order, and read off the sensitivity of the
    final aggregate.  Every step multiplies the distance between neighbouring
    tables by its stability ``κ``; ``rows`` is the distance after the last
    step.  The object is immutable, each step returns a new one.

    Examples
    --------
    >>> plan = RowStability(max_rows=1).flat_map(3).public_join(2)
    >>> plan.rows, plan.count_sensitivity(), plan.sum_sensitivity(0, 10)
    (6, 6.0, 60.0)
    >>> print(plan)
    protect 1 row(s) -> flat map (x3) -> 3 -> public join (x2) -> 6
    """

    max_rows: int = 1
    rows: int = field(default=None)  # type: ignore[assignment]
    steps: tuple = ()

    def __post_init__(self):
        as_int(self.max_rows, "max_rows", minimum=1)
        if self.rows is None:
            object.__setattr__(self, "rows", int(self.max_rows))

    def _then(self, label: str, factor: int) -> "RowStability":
        return RowStability(self.max_rows, self.rows * factor, self.steps + ((label, self.rows * factor),))

    def flat_map(self, max_rows: int) -> "RowStability":
        """A flat map producing at most ``max_rows`` rows per input row (``μ``-stable, ``μ = max_rows``)."""
        mu = as_int(max_rows, "max_rows", minimum=1)
        return self._then(f"flat map (x{mu})", mu)

    def public_join(self, max_multiplicity: int) -> "RowStability":
        """A join with a public table whose join key repeats at most ``max_multiplicity`` times (``μ``)."""
        mu = as_int(max_multiplicity, "max_multiplicity", minimum=1)
        return self._then(f"public join (x{mu})", mu)

    def filter(self) -> "RowStability":
        """A filter or a row-by-row map: 1-stable."""
        return self._then("filter/map (x1)", 1)

    def private_join(self, other: "RowStability", left_threshold: int, right_threshold: int,
                     left_truncation: str = "drop_excess", right_truncation: str = "drop_excess") -> "RowStability":
        """Join with another private table (``other``), truncating both sides.

        This table is side 1 (left), ``other`` side 2 (right); their ``rows``
        are ``t_1`` and ``t_2`` of :func:`private_join_stability`.
        """
        if not isinstance(other, RowStability):
            raise TypeError(f"other must be a RowStability for the right table, got {type(other).__name__}")
        rows = private_join_stability(left_threshold, right_threshold, left_truncation, right_truncation,
                                      self.rows, other.rows)
        return RowStability(self.max_rows, rows, self.steps + (("private join", rows),))

    def count_sensitivity(self) -> float:
        """Sensitivity of the number of rows (any norm: it is one number)."""
        return float(self.rows)

    def sum_sensitivity(self, lower: float, upper: float) -> float:
        """Sensitivity of the sum of a column clamped to ``[lower, upper]``."""
        lower, upper = as_bounds(lower, upper)
        return float(self.rows * max(abs(lower), abs(upper)))

    def __str__(self) -> str:
        parts = [f"protect {self.max_rows} row(s)"] + [f"{label} -> {rows}" for label, rows in self.steps]
        return " -> ".join(parts)


# ---------------------------------------------------------------------------
# measuring the largest change over random neighbours
# ---------------------------------------------------------------------------
def _as_vector(a, b):
    sa = a if isinstance(a, pd.Series) else pd.Series(a)
    sb = b if isinstance(b, pd.Series) else pd.Series(b)
    both = sa.index.union(sb.index)
    return sa.reindex(both, fill_value=0).astype(float), sb.reindex(both, fill_value=0).astype(float)


def largest_change(transform, pairs, measure: str = "rows", return_pair: bool = False):
    """Largest distance between ``transform(x)`` and ``transform(x')`` over pairs of neighbours.

    Chapter: *Sensitivity of transformations* -- the measured side of every
    rule: it must never exceed the rule's bound, and must equal it on a
    worst-case example.

    Parameters
    ----------
    transform : callable
        Maps one dataset (a DataFrame, or whatever the pairs hold) to a table,
        a number or a Series of group counts.
    pairs : iterable of (x, x_prime)
        Neighbouring datasets.
    measure : {"rows", "abs", "l1", "l2"}
        ``"rows"``: :func:`symmetric_distance` of two tables; ``"abs"``:
        ``|f(x) - f(x')|`` for numbers; ``"l1"``/``"l2"``: norm of the
        difference of two Series (or dicts) aligned on their index, a missing
        group counting as 0.

    return_pair : bool
        Also return the first pair that reached the largest change.

    Returns
    -------
    float, or (float, (x, x_prime)) with ``return_pair=True``

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = [(pd.DataFrame({"x": [1, 2]}), pd.DataFrame({"x": [1]}))]
    >>> largest_change(lambda t: t.assign(y=t["x"]), pairs), largest_change(len, pairs, "abs")
    (1.0, 1.0)
    """
    if not callable(transform):
        raise TypeError(f"transform must be a function of one dataset, got {type(transform).__name__}")
    if measure not in ("rows", "abs", "l1", "l2"):
        raise ValueError(f"measure must be one of 'rows', 'abs', 'l1', 'l2', got {measure!r}")
    worst = 0.0
    seen = 0
    last = (None, None)  # pairs often share x: transform it once
    for x, x_prime in pairs:
        seen += 1
        if last[0] is not x:
            last = (x, transform(x))
        a, b = last[1], transform(x_prime)
        if measure == "rows":
            d = symmetric_distance(a, b)
        elif measure == "abs":
            d = abs(float(a) - float(b))
        else:
            va, vb = _as_vector(a, b)
            diff = (va - vb).to_numpy()
            d = float(np.abs(diff).sum()) if measure == "l1" else float(np.sqrt((diff ** 2).sum()))
        if d > worst or seen == 1:
            worst, arg = float(d), (x, x_prime)
    if seen == 0:
        raise ValueError("pairs must hold at least one pair of neighbouring datasets")
    return (worst, arg) if return_pair else worst


def row_neighbor(df: pd.DataFrame, rng, new_row) -> pd.DataFrame:
    """A random row-level neighbour: one random row removed, or one new row added (each with probability 1/2).

    Chapter: *Sensitivity of transformations*.  ``new_row(rng)`` returns a
    dict for the added row.  An empty table always gains a row.
    """
    df = _check_frame(df, "df")
    rng = check_rng(rng)
    if not callable(new_row):
        raise TypeError(f"new_row must be a function of rng returning a dict, got {type(new_row).__name__}")
    if len(df) > 0 and rng.random() < 0.5:
        return df.drop(df.index[rng.integers(len(df))])
    return pd.concat([df, pd.DataFrame([new_row(rng)])], ignore_index=True)


def id_neighbor(df: pd.DataFrame, id_col: str, rng) -> pd.DataFrame:
    """An identifier-level neighbour: every row of one random identifier removed.

    Chapter: *Sensitivity of transformations*.
    """
    df = _check_frame(df, "df")
    _check_columns(df, id_col, "df")
    rng = check_rng(rng)
    ids = df[id_col].unique()
    if len(ids) == 0:
        raise ValueError("df has no identifier to remove")
    return df[df[id_col] != ids[rng.integers(len(ids))]]


row_neighbour = renamed(row_neighbor, "row_neighbour")
id_neighbour = renamed(id_neighbor, "id_neighbour")


# ---------------------------------------------------------------------------
# small example tables (the situations of the source's guide)
# ---------------------------------------------------------------------------
#: Genres of the film example.
GENRES = ("action", "comedy", "drama", "horror", "romance", "sci-fi")


def films_table(rng, n_films: int = 6, max_genres: int = 5) -> pd.DataFrame:
    """A random table of films, each with 0 to ``max_genres`` genres joined by ``|``.

    Chapter: *Sensitivity of transformations* (flat maps).
    """
    rng = check_rng(rng)
    n_films = as_int(n_films, "n_films", minimum=0)
    max_genres = as_int(max_genres, "max_genres", minimum=0, maximum=len(GENRES))
    rows = []
    for i in range(n_films):
        k = int(rng.integers(0, max_genres + 1))
        rows.append({"title": f"film {int(rng.integers(1000))}",
                     "genres": "|".join(sorted(rng.choice(GENRES, size=k, replace=False)))})
    return pd.DataFrame(rows, columns=["title", "genres"])


def states_table() -> pd.DataFrame:
    """The public ZIP-code table of the public-join example: one ZIP code lies in two states.

    Chapter: *Sensitivity of transformations*.
    """
    return pd.DataFrame({"zipcode": [10001, 37752, 37752, 60601, 94105],
                         "state": ["NY", "TN", "KY", "IL", "CA"]})


def people_table(rng, n_people: int = 6, zipcodes=(10001, 37752, 60601, 94105, 99999)) -> pd.DataFrame:
    """A random private table of people (name, age, ZIP code).  99999 is in no state.

    Chapter: *Sensitivity of transformations* (public joins).
    """
    rng = check_rng(rng)
    n_people = as_int(n_people, "n_people", minimum=0)
    return pd.DataFrame({"name": [f"person {int(v)}" for v in rng.integers(1000, size=n_people)],
                         "age": rng.integers(18, 90, size=n_people),
                         "zipcode": rng.choice(np.asarray(zipcodes), size=n_people)})


def users_purchases_tables(rng, n_ids: int = 3, max_rows: int = 4,
                           min_rows: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two random private tables sharing ``user_id``: Users (with accidental
    duplicates) and Purchases, ``min_rows`` to ``max_rows`` rows per identifier in each.

    Chapter: *Sensitivity of transformations* (private joins).
    """
    rng = check_rng(rng)
    n_ids = as_int(n_ids, "n_ids", minimum=1)
    max_rows = as_int(max_rows, "max_rows", minimum=0)
    min_rows = as_int(min_rows, "min_rows", minimum=0, maximum=max_rows)
    users, purchases = [], []
    for uid in range(n_ids):
        users += [{"user_id": uid, "name": f"name {int(rng.integers(100))}"}
                  for _ in range(int(rng.integers(min_rows, max_rows + 1)))]
        purchases += [{"user_id": uid, "item": f"item {int(rng.integers(100))}"}
                      for _ in range(int(rng.integers(min_rows, max_rows + 1)))]
    return (pd.DataFrame(users, columns=["user_id", "name"]),
            pd.DataFrame(purchases, columns=["user_id", "item"]))


def purchases_table(rng, n_users: int = 5, n_shops: int = 4, max_rows: int = 4) -> pd.DataFrame:
    """A random table of purchases (user_id, shop, amount): each user buys in a
    random set of shops, 1 to ``max_rows`` times in each.

    Chapter: *Sensitivity of transformations* (contributions per identifier).
    """
    rng = check_rng(rng)
    n_users = as_int(n_users, "n_users", minimum=1)
    n_shops = as_int(n_shops, "n_shops", minimum=1)
    max_rows = as_int(max_rows, "max_rows", minimum=1)
    rows = []
    for uid in range(n_users):
        shops = rng.choice(n_shops, size=int(rng.integers(1, n_shops + 1)), replace=False)
        for shop in shops:
            rows += [{"user_id": uid, "shop": f"shop {int(shop)}", "amount": int(rng.integers(1, 100))}
                     for _ in range(int(rng.integers(1, max_rows + 1)))]
    return pd.DataFrame(rows, columns=["user_id", "shop", "amount"])


# The chapter's figures moved to dpsens.figures.transformations; their old names keep working, with a warning.
__getattr__ = moved(__name__, {name: f"dpsens.figures.transformations.{name}" for name in (
    "plot_measured_vs_bound", "plot_contribution_noise", "plot_row_vs_id")})
