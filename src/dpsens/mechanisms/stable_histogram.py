"""Releasing what is stable: distance to instability, and the histogram over an unbounded set of labels.

Chapter: *Testing privately, and releasing what is stable*.  Both work with
**add/remove neighbours** (one record added or removed; the size ``n`` is
private and never used) and a public ``δ``.

* Distance to instability (Dwork and Roth 2014, Sec. 7.3): a function ``f``
  whose value does not change within distance ``D(x)`` of the data can be
  released *without noise* when a noisy ``D(x) + Lap(1/ε)`` clears
  ``ln(1/(2δ))/ε`` -- the same test as propose-test-release
  (:func:`dpsens.mechanisms.ptr.ptr_threshold`, variant ``"tight"``).  Here
  ``f`` is the mode of a column of labels (⊥ when the largest count is
  shared), whose distance is ``max(c_(1) − c_(2) − 1, 0)``.
* The stable histogram: the count of every label that occurs gets noise
  ``Lap(1/ε)``, and a label is released only when its noisy count reaches
  ``η = 1 + ln(1/(2δ))/ε``; labels that do not occur are never looked at, so
  the set of possible labels need not be known.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_nonnegative, as_positive, as_probability, check_rng
from .noise import laplace_noise
from .ptr import ptr_pass_probability, ptr_threshold

#: the type of a value :func:`stable_release` releases (or refuses)
T = TypeVar("T")

__all__ = ["label_counts", "mode_instability_distance", "stable_release", "stable_histogram_threshold",
           "stable_histogram", "stable_histogram_release_probability"]


def label_counts(labels: Iterable[Hashable]) -> dict:
    """``{label: count}`` of the labels that occur, largest count first (ties in the labels' order).

    Chapter: *Testing privately, and releasing what is stable*.

    >>> label_counts(["b", "a", "b"])
    {'b': 2, 'a': 1}
    """
    if isinstance(labels, (str, bytes)):
        raise TypeError("labels must be a sequence of labels (a column), not a single string")
    counts = Counter(np.asarray(labels, dtype=object).tolist())
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))))


def _counts(counts) -> np.ndarray:
    c = np.asarray(list(counts.values()) if isinstance(counts, dict) else counts, dtype=float)
    if c.ndim != 1 or np.any(c < 0) or not np.all(np.isfinite(c)) or np.any(c != np.round(c)):
        raise ValueError(f"counts must be whole numbers >= 0 (one per label), got {counts!r}")
    return c


def mode_instability_distance(counts: dict[Hashable, int] | ArrayLike) -> int:
    """``D(x) = max(c_(1) − c_(2) − 1, 0)``: how many records can be added or removed with the mode unchanged.

    Chapter: *Testing privately, and releasing what is stable*.  ``c_(1)``
    and ``c_(2)`` are the largest and second-largest counts (``c_(2) = 0`` for
    a single label: a new label can always be added).  Each record added or
    removed closes the gap by at most 1, and after ``c_(1) − c_(2)`` steps the
    largest count is shared (the mode is ⊥); so ``D`` changes by at most 1
    between neighbours, and ``D(x) >= 1`` means every neighbour has the same mode.

    >>> mode_instability_distance([10, 4, 4])
    5
    >>> mode_instability_distance([3, 3])
    0
    """
    c = np.sort(_counts(counts))[::-1]
    if c.size == 0 or c[0] == 0:
        return 0
    second = c[1] if c.size > 1 else 0.0
    return int(max(c[0] - second - 1, 0))


def stable_release(value: T, distance: float, epsilon: float, delta: float, rng: np.random.Generator) -> T | None:
    """Release ``value`` when ``distance + Lap(1/ε) >= ln(1/(2δ))/ε``, else ``None`` (⊥).

    Chapter: *Testing privately, and releasing what is stable*.  (ε, δ)-DP
    when ``distance`` is the distance to instability of the function that
    gave ``value`` (it changes by at most 1 between neighbours, and
    ``distance >= 1`` means no neighbour has another value): proved in the
    chapter.  No noise is added to ``value`` itself.

    Parameters
    ----------
    value : object
        The exact answer ``f(x)``, released as it is when the test passes.
    distance : int
        ``D_f(x)``, a whole number of records ``>= 0`` (e.g. :func:`mode_instability_distance`).
    epsilon : float
        The test's budget, ``> 0``.
    delta : float
        A public constant in ``(0, 1/2]``, chosen before seeing the data.
    rng : numpy.random.Generator

    Returns
    -------
    object or None
        ``value``, or ``None`` for ⊥.
    """
    distance = as_nonnegative(distance, "distance")
    if not distance.is_integer():
        raise ValueError(f"distance must be a whole number of records >= 0 (the distance to instability "
                         f"D_f(x)), got {distance!r}")
    threshold = ptr_threshold(epsilon, delta, "tight")
    rng = check_rng(rng)
    return value if distance + laplace_noise(1.0 / as_positive(epsilon, "epsilon"), rng) >= threshold else None


def stable_histogram_threshold(epsilon: float, delta: float) -> float:
    """``η = 1 + ln(1/(2δ))/ε``: a label with one record clears it with probability exactly ``δ``.

    Chapter: *Testing privately, and releasing what is stable*.

    >>> round(stable_histogram_threshold(1.0, 1e-6), 4)
    14.1224
    """
    return 1.0 + ptr_threshold(epsilon, delta, "tight")


def stable_histogram(labels: Iterable[Hashable], epsilon: float, delta: float, rng: np.random.Generator) -> dict:
    """Noisy counts ``c + Lap(1/ε)`` of the labels that occur, kept only above :func:`stable_histogram_threshold`.

    Chapter: *Testing privately, and releasing what is stable*.  (ε, δ)-DP
    under add/remove neighbours, whatever the set of possible labels
    (proved in the chapter).

    Parameters
    ----------
    labels : sequence
        One label per record (a column); a missing value is a label too.
    epsilon : float
    delta : float
        A public constant, chosen before seeing the data (never from ``n``).
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``{label: noisy count}`` of the released labels, largest exact count first.
    """
    counts = label_counts(labels)
    b = 1.0 / as_positive(epsilon, "epsilon")
    threshold = stable_histogram_threshold(epsilon, delta)
    rng = check_rng(rng)
    noisy = np.array(list(counts.values()), dtype=float) + laplace_noise(b, rng, len(counts))
    return {label: float(z) for label, z in zip(counts, noisy, strict=True) if z >= threshold}


def stable_histogram_release_probability(counts: ArrayLike, epsilon: float, delta: float) -> np.ndarray:
    """``P(c + Lap(1/ε) >= η)`` for each count ``c`` (exact): the chance that the label is released.

    Chapter: *Testing privately, and releasing what is stable*.

    >>> float(stable_histogram_release_probability([1], 1.0, 1e-6)[0])  # doctest: +ELLIPSIS
    1.0000000000...e-06
    """
    c = _counts(counts)
    epsilon = as_positive(epsilon, "epsilon")
    threshold = stable_histogram_threshold(epsilon, as_probability(delta, "delta"))
    return np.array([ptr_pass_probability(v, epsilon, threshold) for v in c])
