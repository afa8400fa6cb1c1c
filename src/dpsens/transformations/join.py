"""The join of two private tables, each truncated first, and the rule for its stability.

Chapter: *Sensitivity of transformations* (the private join):
:func:`private_join` truncates both sides, then joins;
:func:`private_join_stability` bounds how far apart the joins of neighbouring
tables can be (the source's rule, with each table's distance paired with its
own truncation).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validate import as_int, check_rng
from ._tables import check_columns, check_frame
from .truncation import TRUNCATION_STABILITY, drop_non_unique, truncate_rows_per_id

__all__ = ["private_join", "private_join_stability"]


def private_join(left: pd.DataFrame, right: pd.DataFrame, on: str | Sequence[str], left_max_rows: int | None = None,
                 right_max_rows: int | None = None, left_truncation: str = "drop_excess",
                 right_truncation: str = "drop_excess", rng: np.random.Generator | None = None) -> pd.DataFrame:
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
    left, right = check_frame(left, "left"), check_frame(right, "right")
    cols = check_columns(left, on, "left")
    check_columns(right, cols, "right")
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
