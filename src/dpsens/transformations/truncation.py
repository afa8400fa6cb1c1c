"""Truncation: at most ``q`` rows per identifier, at most ``g`` groups per identifier, non-unique keys dropped.

Chapter: *Sensitivity of transformations* (identifier-level protection and the
private join).  Nothing about an identifier's influence is bounded until its
rows are truncated; :data:`TRUNCATION_STABILITY` gives the stability ``κ`` of
the two strategies of the source's guide.  Every truncation is stable: which
rows survive depends only on the rows themselves.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validate import as_int, check_rng
from ._tables import check_columns, check_frame, keep_first_per_key, row_priority

__all__ = ["TRUNCATION_STABILITY", "truncate_rows_per_id", "drop_non_unique", "truncate_groups_per_id",
           "truncate_rows_per_group_per_id"]

#: Stability ``κ`` of the two truncation strategies of the source's guide: keeping
#: at most ``q`` rows per key (adding one row can bring one row in and push one
#: out, distance 2) and dropping every key that is not unique (distance 1).
TRUNCATION_STABILITY = {"drop_excess": 2, "drop_non_unique": 1}


def truncate_rows_per_id(df: pd.DataFrame, id_col: str | Sequence[str], max_rows: int,
                         rng: np.random.Generator | None = None) -> pd.DataFrame:
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
    df = check_frame(df, "df")
    cols = check_columns(df, id_col, "df")
    max_rows = as_int(max_rows, "max_rows", minimum=1)
    return keep_first_per_key(df, cols, max_rows, row_priority(df, check_rng(rng, allow_none=True)))


def drop_non_unique(df: pd.DataFrame, key: str | Sequence[str]) -> pd.DataFrame:
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
    df = check_frame(df, "df")
    cols = check_columns(df, key, "df")
    return df[~df.duplicated(cols, keep=False)]


def truncate_groups_per_id(df: pd.DataFrame, id_col: str, group_col: str | Sequence[str], max_groups: int,
                           rng: np.random.Generator | None = None) -> pd.DataFrame:
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
    df = check_frame(df, "df")
    ids = check_columns(df, id_col, "df")
    groups = check_columns(df, group_col, "df")
    max_groups = as_int(max_groups, "max_groups", minimum=1)
    rng = check_rng(rng, allow_none=True)
    pairs = df[ids + groups].drop_duplicates()
    chosen = keep_first_per_key(pairs, ids, max_groups, row_priority(pairs, rng))
    mask = pd.MultiIndex.from_frame(df[ids + groups]).isin(pd.MultiIndex.from_frame(chosen[ids + groups]))
    return df[mask]


def truncate_rows_per_group_per_id(df: pd.DataFrame, id_col: str, group_col: str | Sequence[str], max_rows: int,
                                   rng: np.random.Generator | None = None) -> pd.DataFrame:
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
    df = check_frame(df, "df")
    ids = check_columns(df, id_col, "df")
    groups = check_columns(df, group_col, "df")
    return truncate_rows_per_id(df, ids + groups, max_rows, rng=rng)
