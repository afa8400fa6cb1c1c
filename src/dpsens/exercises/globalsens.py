"""Checkers for the exercises of the chapter *Global sensitivity from scratch*.

The expected values are in the hashed key (:mod:`._key`); the release
exercise is checked by enumeration (:mod:`dpsens.grid`), which is
independent of the exact engine the chapter teaches.
"""
from __future__ import annotations

import numpy as np

from ..grid import sensitivity_grid
from ..neighbors import Domain, check_release
from ._verdict import Verdict, check_key, checker, correct, wrong

__all__ = ["check_global_sum", "check_bounded_mean", "check_variance_worst_release"]

DRIVING = Domain([1, 2, 3])


@checker("a number")
def check_global_sum(answer: object) -> Verdict:
    """Exercise *Group size and the sum*: unbounded global sensitivity of the sum of
    the absence days (pool of ten, n = 6) at group size 2.  The size-n value
    (n public); for the sum it is the same at every size, so it is also the
    private-size value of :mod:`dpsens.privatesize`.

    Precision: exact (a sum of whole numbers of days), up to float round-off."""
    return check_key(answer, "global_sum", "the unbounded global sensitivity of the sum at k = 2",
                     "adding or removing two records changes the sum by their total: which two records "
                     "of the pool are the largest?")


@checker("a number")
def check_bounded_mean(answer: object) -> Verdict:
    """Exercise *The bounded mean on a domain*: bounded global sensitivity of the
    mean on the domain {1, 2, 3}, n = 4, k = 2.

    Precision: exact (a simple fraction), up to float round-off."""
    return check_key(answer, "bounded_mean", "the bounded global sensitivity of the mean at k = 2",
                     "replacing k records changes the total by at most k times the width of the domain; "
                     "the size stays n.")


@checker("a release: a list of four values from {1, 2, 3}", "give four values from {1, 2, 3}.")
def check_variance_worst_release(answer: object) -> Verdict:
    """Exercise *Where the variance is worst*: a release of size 4
    from the domain {1, 2, 3} whose unbounded local sensitivity of the
    variance (k = 1) equals the global sensitivity.

    Precision: any such release; the local and global sensitivities are
    compared up to float round-off."""
    try:
        x = tuple(check_release(answer, DRIVING).tolist())
    except (TypeError, ValueError) as exc:
        return wrong(f"not a release of the domain {{1, 2, 3}}: {exc}", "give four values from {1, 2, 3}.")
    if len(x) != 4:
        return wrong(f"the release must have 4 records, yours has {len(x)}.", "n = 4 in this exercise.")
    g = sensitivity_grid(DRIVING, 4, 1, "var", "unbounded")
    local = float(g.local[g.rows.index(x)])
    if np.isclose(local, g.global_sensitivity):
        return correct("at this release one record carries the largest possible change of the variance.")
    return wrong("at this release the local sensitivity is below the global sensitivity.",
                 "the most spread-out release is not the answer: look for a tight group with one record "
                 "far away.")
