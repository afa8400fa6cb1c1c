"""Checkers for the exercises of the chapter *The median visualisation grid*.

The expected values are in the hashed key (:mod:`._key`); the release
exercise is checked by enumeration.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..grid import source_bounded_local
from ..neighbors import Domain, check_release, enumerate_neighbors
from ._verdict import Verdict, check_key, checker, correct, wrong

__all__ = ["check_grid_row", "check_rows_at_global", "check_twice_local"]


@checker("a number")
def check_grid_row(answer: object) -> Verdict:
    """Exercise *One row by hand*: the unbounded local sensitivity (k = 1) of
    the median at x = {1, 3, 10}, universe the pool {1, 2, 3, 10, 11}.

    Precision: exact (a difference of medians of whole numbers), up to float round-off."""
    return check_key(
        answer, "grid_row", "the local sensitivity of x = {1, 3, 10}",
        "list the five neighbours: three removals (the median of two records is their mean) and the "
        "two additions 2 and 11 (the median of four records is the mean of the middle two).",
    )


@checker("a list of releases, each a list of three values from X", "a list of lists such as [[a, b, c], ...].")
def check_rows_at_global(answer: Any) -> Verdict:
    """Exercise *Rows that reach the global value*: every release of the bounded
    median grid with k = 2 (two records replaced; universe the pool
    {1, 2, 3, 10, 11}, n = 3) whose local sensitivity equals the global
    sensitivity.

    Precision: the exact set of releases (order in the list does not matter)."""
    try:
        given = [[float(v) for v in x] for x in answer]
    except (TypeError, ValueError):
        return wrong("give a list of releases, each a list of three numbers.", "a list of lists such as [[a, b, c], ...].")
    if any(len(x) != 3 for x in given):
        return wrong("every release has three records.", "a row of the grid is a 3-subset of the universe.")
    return check_key(
        answer, "rows_at_global", "the set of releases that reach the global sensitivity",
        "a median of three members of X is 2, 3 or 10, so the largest change is 8; find every release whose "
        "median can move between 2 and 10 when two records are replaced (use the definition "
        "max |f(x) - f(x')|, not the source's neighbour-against-neighbour value).",
        {"k1_rows": ("these are the rows of the k = 1 grid drawn above; with k = 2 more rows get there.",
                     "with two replacements a release keeps one record and takes two new ones: which "
                     "releases can then move their median from 2 to 10 or back?")})


@checker("a release: a list of three values from {0, 1, 2}", "give three values from {0, 1, 2}.")
def check_twice_local(answer: object) -> Verdict:
    """Exercise *When the source's variant doubles*: a release of size 3 from the domain
    {0, 1, 2} for which the source's bounded value for the mean (k = 1) is
    exactly twice the local sensitivity.

    Precision: any such release; the ratio is compared up to float round-off."""
    domain = Domain([0, 1, 2])
    try:
        x = check_release(answer, domain)
    except (TypeError, ValueError) as exc:
        return wrong(f"not a release of the domain {{0, 1, 2}}: {exc}", "give three values from {0, 1, 2}.")
    if len(x) != 3:
        return wrong(f"the release must have 3 records, yours has {len(x)}.", "n = 3 in this exercise.")
    g_local = _anchored_bounded_mean(x, domain)
    src = source_bounded_local(x, domain, 1, "mean")
    if np.isclose(src, 2 * g_local) and g_local > 0:
        return correct(f"the source reports {src:.4g}, twice the local sensitivity {g_local:.4g}.")
    return wrong(f"for this release the source reports {src:.4g} and the local sensitivity is {g_local:.4g} "
                 f"(ratio {src / g_local:.3g}).",
                 "the two neighbours compared by the source can lie on opposite sides of f(x); when is "
                 "every removed record exactly in the middle of what can replace it?")


def _anchored_bounded_mean(x, domain) -> float:
    fx = float(np.mean(x))
    return max(abs(fx - float(np.mean(y))) for y in enumerate_neighbors(x, domain, 1, "bounded"))
