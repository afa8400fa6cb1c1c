"""The distance between two tables, random neighbouring tables, and the largest change a transformation makes.

Chapter: *Sensitivity of transformations*.  The distance ``t`` between two
tables is the size of the symmetric difference of their rows as multisets
(:func:`symmetric_distance`); :func:`row_neighbor` and :func:`id_neighbor`
draw row-level and identifier-level neighbours; :func:`largest_change`
measures the worst change of a transformation over pairs of neighbours.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._validate import check_rng
from ._tables import check_columns, check_frame

__all__ = ["symmetric_distance", "largest_change", "row_neighbor", "id_neighbor"]


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
    a, b = check_frame(a, "a"), check_frame(b, "b")
    if sorted(map(str, a.columns)) != sorted(map(str, b.columns)):
        raise ValueError(f"a and b must have the same columns, got {list(a.columns)} and {list(b.columns)}")
    cols = list(a.columns)
    ca = Counter(map(tuple, a[cols].astype(object).itertuples(index=False, name=None)))
    cb = Counter(map(tuple, b[cols].astype(object).itertuples(index=False, name=None)))
    return sum(((ca - cb) + (cb - ca)).values())


def _as_vector(a, b):
    sa = a if isinstance(a, pd.Series) else pd.Series(a)
    sb = b if isinstance(b, pd.Series) else pd.Series(b)
    both = sa.index.union(sb.index)
    return sa.reindex(both, fill_value=0).astype(float), sb.reindex(both, fill_value=0).astype(float)


def largest_change(transform: Callable[[Any], Any], pairs: Iterable[tuple[Any, Any]], measure: str = "rows",
                   return_pair: bool = False) -> float | tuple[float, tuple[Any, Any]]:
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
    last: tuple[Any, Any] = (None, None)  # pairs often share x: transform it once
    for x, x_prime in pairs:
        seen += 1
        if last[0] is not x:
            last = (x, transform(x))
        a, b = last[1], transform(x_prime)
        d: float
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


def row_neighbor(df: pd.DataFrame, rng: np.random.Generator,
                 new_row: Callable[[np.random.Generator], dict]) -> pd.DataFrame:
    """A random row-level neighbour: one random row removed, or one new row added (each with probability 1/2).

    Chapter: *Sensitivity of transformations*.  ``new_row(rng)`` returns a
    dict for the added row.  An empty table always gains a row.
    """
    df = check_frame(df, "df")
    check_rng(rng)
    if not callable(new_row):
        raise TypeError(f"new_row must be a function of rng returning a dict, got {type(new_row).__name__}")
    if len(df) > 0 and rng.random() < 0.5:
        return df.drop(df.index[rng.integers(len(df))])
    return pd.concat([df, pd.DataFrame([new_row(rng)])], ignore_index=True)


def id_neighbor(df: pd.DataFrame, id_col: str, rng: np.random.Generator) -> pd.DataFrame:
    """An identifier-level neighbour: every row of one random identifier removed.

    Chapter: *Sensitivity of transformations*.
    """
    df = check_frame(df, "df")
    check_columns(df, id_col, "df")
    check_rng(rng)
    ids = df[id_col].unique()
    if len(ids) == 0:
        raise ValueError("df has no identifier to remove")
    return df[df[id_col] != ids[rng.integers(len(ids))]]
