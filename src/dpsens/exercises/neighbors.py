"""Checkers for the exercises of the chapter *Neighbouring datasets*.

The expected values are in the hashed key (:mod:`._key`); the function
exercise is run on :func:`symmetric_difference_cases` and its outputs are
compared with the key's hashed outputs.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _secret
from ._verdict import Verdict, check_key, checker, correct, is_placeholder, key_entry, not_yet, wrong

__all__ = ["check_neighbor_count", "check_bounded_neighbors", "check_symmetric_difference",
           "symmetric_difference_cases"]


@checker("your count (a whole number)")
def check_neighbor_count(answer: object) -> Verdict:
    """Exercise *Counting neighbours*: distinct unbounded neighbours (k = 1)
    of x = [1, 2, 2] when the domain is {1, 2, 3}.

    Precision: a count, so exactly that whole number (a float or a numeric text is read as the number)."""
    return check_key(answer, "neighbor_count", "the number of neighbours",
                     "count the removals and the additions separately; removing either of two equal records gives the "
                     "same multiset.")


@checker("a list of neighbouring datasets, each a list of two values", "a list of lists such as [[a, b], [c, d]].")
def check_bounded_neighbors(answer: Any) -> Verdict:
    """Exercise *Replacing from a pool*: every distinct bounded neighbour (k = 1)
    of x = [1, 2] drawn from the pool [1, 2, 3, 3], as a collection of lists.

    Precision: the exact set of datasets (order and repeats in the list do not matter)."""
    try:
        given = [[float(v) for v in d] for d in answer]
    except (TypeError, ValueError):     # not a list of lists, or entries that are not numbers ("a")
        return wrong("give a list of datasets, each a list of numbers.",
                     "a list of lists such as [[a, b], [c, d]].")
    if any(len(d) != 2 for d in given):
        return wrong("every bounded neighbour keeps the size of x (2 records).",
                     "a bounded neighbour removes one record and adds one.")
    return check_key(answer, "bounded_neighbors", "the set of bounded neighbours",
                     "a new record must come from the pool minus the records kept; and did you include the "
                     "neighbour that gives back the value it removed?",
                     accept={"without_x": "that is every bounded neighbour other than x itself; the package also "
                                          "counts x (a record replaced by an equal value), so its list has one more."})


def symmetric_difference_cases() -> list[tuple[list, list]]:
    """The 45 pairs of datasets on which a student's distance function is run."""
    rng = np.random.default_rng(2026)
    cases = [([1, 2, 2], [1, 2]), ([1, 2], [2, 1]), ([1, 1, 1], [1]), ([1, 2, 3], [4, 5]), ([5], [5, 5, 5, 6])]
    cases += [(rng.integers(0, 4, rng.integers(1, 7)).tolist(), rng.integers(0, 4, rng.integers(1, 7)).tolist())
              for _ in range(40)]
    return cases


@checker("your function")
def check_symmetric_difference(func: object) -> Verdict:
    """Exercise *Distance between multisets*: ``func(x, y)`` must return the
    size of the symmetric difference of two multisets.

    Precision: exact (a count) on every one of 45 test pairs."""
    if is_placeholder(func):
        return not_yet("your function")
    if not callable(func):
        return wrong(f"expected a function of two datasets, got {type(func).__name__}.")
    entry = key_entry("symmetric_difference")
    cases = symmetric_difference_cases()
    for i, (a, b) in enumerate(cases):
        try:
            got = func(list(a), list(b))
        except Exception as exc:  # a student's bug, reported rather than raised
            return wrong(f"your function raised {type(exc).__name__}: {exc} on x={a}, y={b}.")
        if is_placeholder(got):
            return not_yet("the body of your function")
        t = _secret.token(got, ("int",))
        if t is None or _secret.digest(entry["salt"], f"{i}:{t}") != entry["cases"][i]:
            return wrong(f"wrong result for x={a}, y={b}.",
                         "multisets: compare counts of each value; order must not matter, repeats must.")
    return correct(f"right on all {len(cases)} test pairs.")
