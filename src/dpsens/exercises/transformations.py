"""Checkers for the exercises of the chapter *Sensitivity of transformations*.

The expected values are in the hashed key (:mod:`._key`); the table exercise
is checked by running the truncations on the student's table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..transformations import truncate_groups_per_id, truncate_rows_per_group_per_id
from ._verdict import Verdict, check_key, checker, correct, wrong

__all__ = ["check_plan_sensitivity", "check_private_join_sensitivity", "check_worst_case_purchases"]


@checker("a number")
def check_plan_sensitivity(answer: object) -> Verdict:
    """Exercise *Chaining a flat map, a public join and a clamped sum*: flat map (at most 4 rows per row), public
    join (a key repeats at most 3 times), sum of ``amount`` clamped to [0, 50],
    one row protected.

    Precision: exact (a product of whole numbers), up to float round-off."""
    return check_key(answer, "plan_sensitivity", "the sensitivity of the sum",
                     "multiply the stabilities of the steps, then by the largest |value| a row can add.",
                     {"rows": ("that is the number of rows one person can move; the query is a sum.",
                               "each of those rows moves the sum by at most the clamping bound."),
                      "added": ("stabilities of successive steps do not add up.",
                                "each public-joined row comes from one flat-mapped row, which comes from one "
                                "input row.")})


@checker("a number")
def check_private_join_sensitivity(answer: object) -> Verdict:
    """Exercise *The stability of a private join*: Users truncated with drop_non_unique, Purchases with
    drop_excess(3), both protecting one added or removed row.

    Precision: exact (a whole number of rows), up to float round-off."""
    return check_key(answer, "private_join_sensitivity", "the stability of the join",
                     "q₁·κ₂·t₂ + q₂·κ₁·t₁, with q the rows kept per key, κ the stabilities of the "
                     "truncations and t = 1 row protected in each table.",
                     {"excess_users": ("that would be drop_excess(1) on the Users table, whose stability is 2.",
                                       "drop_non_unique has stability 1."),
                      "one_table": ("both tables are private: a change in either one moves the join.",
                                    "add the two terms q₁·κ₂·t₂ and q₂·κ₁·t₁.")})


def _group_counts(df: pd.DataFrame) -> pd.Series:
    df = truncate_groups_per_id(df, "user_id", "shop", 2)
    df = truncate_rows_per_group_per_id(df, "user_id", "shop", 3)
    return df.groupby("shop").size()


@checker("a pandas DataFrame with columns user_id and shop",
         "for example pd.DataFrame({'user_id': [0, 0], 'shop': ['a', 'b']}).")
def check_worst_case_purchases(answer: object) -> Verdict:
    """Exercise *Reaching the L1 bound of per-group counts*: a purchases table (columns ``user_id`` and
    ``shop``) in which removing user 0 moves the per-shop counts, after
    truncation to 2 shops and 3 rows per shop per user, by L1 = 6 (the bound).

    Precision: any such table; the L1 change is a whole number and must be exactly 6."""
    if not isinstance(answer, pd.DataFrame) or not {"user_id", "shop"} <= set(answer.columns):
        return wrong("give a pandas DataFrame with (at least) the columns 'user_id' and 'shop'.",
                     "for example pd.DataFrame({'user_id': [0, 0], 'shop': ['a', 'b']}).")
    if not (answer["user_id"] == 0).any():
        return wrong("user 0 has no rows: removing it changes nothing.")
    before = _group_counts(answer)
    after = _group_counts(answer[answer["user_id"] != 0])
    both = before.index.union(after.index)
    change = float(np.abs(before.reindex(both, fill_value=0) - after.reindex(both, fill_value=0)).sum())
    if change == 6:
        return correct("removing user 0 moves the counts by exactly the L1 bound g·q = 6.")
    return wrong(f"removing user 0 moves the counts by {change:g} in L1, not 6.",
                 "after truncation a user keeps at most 2 shops and 3 rows in each: give user 0 enough of both.")
