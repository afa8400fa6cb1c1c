"""The table checks and the stable row choice shared by the transformations (chapter *Sensitivity of transformations*).

A private module: its public names are for the other modules of
:mod:`dpsens.transformations` only.  Every truncation keeps rows in an order
that depends on the rows themselves (a hash of their content, or an explicit
random draw), never on their position in the table.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["check_frame", "check_columns", "row_priority", "keep_first_per_key"]


def check_frame(df: object, name: str) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}")
    return df


def check_columns(df: pd.DataFrame, columns: str | Sequence[str], name: str) -> list:
    cols = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{name} has no column(s) {missing}; its columns are {list(df.columns)}")
    return cols


def row_priority(df: pd.DataFrame, rng: np.random.Generator | None) -> np.ndarray:
    """Order in which rows are kept: a hash of the row's content (so the choice
    depends on the rows, not on where they sit), or random numbers from ``rng``."""
    if rng is not None:
        return rng.random(len(df))
    if len(df) == 0:
        return np.zeros(0, dtype=np.uint64)
    return pd.util.hash_pandas_object(df, index=False).to_numpy()


def keep_first_per_key(df: pd.DataFrame, keys: list, limit: int, priority: np.ndarray) -> pd.DataFrame:
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
