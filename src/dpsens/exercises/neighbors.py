"""Checkers for the exercises of the chapter *Neighbouring datasets*."""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..neighbors import Domain, Pool, enumerate_neighbors
from ._verdict import Verdict, check_number, checker, correct, is_placeholder, not_yet, wrong

__all__ = ["check_neighbor_count", "check_bounded_neighbors", "check_symmetric_difference"]


@checker("your count (a whole number)")
def check_neighbor_count(answer) -> Verdict:
    """Exercise *Counting neighbours*: distinct unbounded neighbours (k = 1)
    of x = [1, 2, 2] when the domain is {1, 2, 3}.

    Precision: a count, so exactly that whole number (5.0 and "5" are read as 5)."""
    expected = len(enumerate_neighbors([1, 2, 2], Domain([1, 2, 3]), k=1))
    return check_number(
        answer, expected, "the number of neighbours",
        "count the removals and the additions separately; removing either 2 gives the same multiset.",
        integer=True,
    )


@checker("a list of neighbouring datasets, each a list of two values", "a list of lists such as [[a, b], [c, d]].")
def check_bounded_neighbors(answer) -> Verdict:
    """Exercise *Replacing from a pool*: every distinct bounded neighbour (k = 1)
    of x = [1, 2] drawn from the pool [1, 2, 3, 3], as a collection of lists.

    Both conventions are accepted: with ``x`` itself (the package's and the
    sources': "at most k replaced") or without it (``x' != x``).

    Precision: the exact set of datasets (order and repeats in the list do not matter)."""
    try:
        given = {tuple(sorted(float(v) for v in ds)) for ds in answer}
    except (TypeError, ValueError):     # not a list of lists, or entries that are not numbers ("a")
        return wrong("give a list of datasets, each a list of numbers.",
                     "a list of lists such as [[a, b], [c, d]].")
    expected = set(enumerate_neighbors([1, 2], Pool([1, 2, 3, 3]), k=1, neighbors="bounded"))
    if any(len(ds) != 2 for ds in given):
        return wrong("every bounded neighbour keeps the size of x (2 records).",
                     "a bounded neighbour removes one record and adds one.")
    if given == expected:
        return correct("that is every bounded neighbour, each once (x itself included, as the package counts it).")
    if given == expected - {(1.0, 2.0)}:
        return correct("that is every bounded neighbour other than x itself; the package also counts x "
                       "(a record replaced by an equal value), so its list has one more.")
    if given < expected:
        return wrong(f"{len(expected - given)} neighbour(s) missing.",
                     "did you include the neighbour that gives back the value it removed? "
                     "A replacement may be drawn from what the pool still holds.")
    return wrong("some of these are not neighbours of x.",
                 "a new record must come from the pool minus the records kept: "
                 "the pool has one 1 and one 2 only.")


def _reference_distance(a, b) -> int:
    ca, cb = Counter(np.asarray(a, float).tolist()), Counter(np.asarray(b, float).tolist())
    return sum(((ca - cb) + (cb - ca)).values())


@checker("your function")
def check_symmetric_difference(func) -> Verdict:
    """Exercise *Distance between multisets*: ``func(x, y)`` must return the
    size of the symmetric difference of two multisets.

    Precision: exact (a count) on every one of 45 test pairs."""
    if is_placeholder(func):
        return not_yet("your function")
    if not callable(func):
        return wrong(f"expected a function of two datasets, got {type(func).__name__}.")
    rng = np.random.default_rng(2026)
    cases = [([1, 2, 2], [1, 2]), ([1, 2], [2, 1]), ([1, 1, 1], [1]), ([1, 2, 3], [4, 5]), ([5], [5, 5, 5, 6])]
    cases += [(rng.integers(0, 4, rng.integers(1, 7)).tolist(), rng.integers(0, 4, rng.integers(1, 7)).tolist())
              for _ in range(40)]
    for a, b in cases:
        try:
            got = func(list(a), list(b))
        except Exception as exc:  # a student's bug, reported rather than raised
            return wrong(f"your function raised {type(exc).__name__}: {exc} on x={a}, y={b}.")
        want = _reference_distance(a, b)
        if is_placeholder(got):
            return not_yet("the body of your function")
        if got != want:
            return wrong(f"wrong result for x={a}, y={b}.",
                         "multisets: compare counts of each value; order must not matter, repeats must.")
    return correct(f"right on all {len(cases)} test pairs.")
