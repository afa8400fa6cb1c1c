"""Row-level transformations that multiply rows: the flat map and the join with a public table.

Chapter: *Sensitivity of transformations* (flat maps, public joins).  A flat
map that makes at most ``μ`` rows of one row, or a join with a public table
whose key repeats at most ``μ`` times, is ``μ``-stable: tables at distance
``t`` give tables at distance at most ``μ t``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import pandas as pd

from .._validate import as_int
from ._tables import check_columns, check_frame

__all__ = ["flat_map", "max_key_multiplicity", "public_join"]


def flat_map(df: pd.DataFrame, func: Callable[[pd.Series], Iterable], max_rows: int) -> pd.DataFrame:
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
    df = check_frame(df, "df")
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


def max_key_multiplicity(public: pd.DataFrame, on: str | Sequence[str]) -> int:
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
    public = check_frame(public, "public")
    cols = check_columns(public, on, "public")
    if len(public) == 0:
        return 0
    return int(public.groupby(cols, dropna=False).size().max())


def public_join(private: pd.DataFrame, public: pd.DataFrame, on: str | Sequence[str]) -> pd.DataFrame:
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
    private, public = check_frame(private, "private"), check_frame(public, "public")
    cols = check_columns(private, on, "private")
    check_columns(public, cols, "public")
    return private.merge(public, on=cols, how="inner")
