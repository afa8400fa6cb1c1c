"""Propose-test-release: thresholds, the probability of passing by accident, and the mechanism.

Chapter: *Propose-test-release* (also used by *Smooth sensitivity* and
*Sample and aggregate* for comparison).
"""
from __future__ import annotations

import math
import numbers
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import (as_bounds, as_data, as_nonnegative, as_positive, as_probability, check_in_bounds,
                         check_rng)
from ..queries import check_query
from ..smooth import distance_to_high_ls
from .checks import as_value
from .discrete import as_integer_values, as_rational
from .laplace import laplace_mechanism
from .noise import laplace_noise
from ..relation import Relation, as_relation

__all__ = ["PTR_THRESHOLDS", "ptr_threshold", "ptr_pass_probability", "ptr_from_distance",
           "propose_test_release"]


PTR_THRESHOLDS = ("dwork-roth", "tight", "source")
"""Threshold variants of :func:`ptr_threshold`."""


def ptr_threshold(epsilon: float, delta: float, variant: str = "dwork-roth") -> float:
    """The threshold ``T`` of the propose-test-release test ``D + Lap(1/ε) >= T``.

    Chapter: *Propose-test-release*.

    ``D`` is the distance (number of records to add or remove) from the data
    to the nearest dataset whose local sensitivity exceeds the proposed bound.
    The release is unsafe only when ``D = 0``, where the test passes by
    accident with probability ``½ e^{−εT}``; that probability must be ``<= δ``.
    δ must be a public constant: the source's ``1/n**2`` is a function of the
    private size under additions and removals, and so would the threshold be.

    Parameters
    ----------
    epsilon : float
        Budget of the test, ``> 0``.
    delta : float
        In ``(0, 1)``.
    variant : {"dwork-roth", "tight", "source"}
        ``"dwork-roth"`` (default): ``T = ln(1/δ)/ε`` (Dwork & Roth 2014,
        Sec. 7.2 style), accidental pass ``δ/2``.  ``"tight"``:
        ``T = ln(1/(2δ))/ε``, accidental pass exactly ``δ``; defined for
        ``δ <= 1/2`` only (a larger δ raises ValueError).  ``"source"``:
        ``T = ln(2/δ)/(2ε)`` as in *Programming Differential Privacy*, whose
        accidental pass ``½ sqrt(δ/2)`` is far above δ -- kept to reproduce and
        correct the source.

    Returns
    -------
    float

    Examples
    --------
    >>> round(ptr_threshold(1.0, 1e-6), 3)          # the book's public delta
    13.816
    >>> round(ptr_threshold(1.0, 1e-6, "source"), 3)
    7.254
    """
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    if variant == "dwork-roth":
        return math.log(1.0 / delta) / epsilon
    if variant == "tight":
        if delta > 0.5:
            raise ValueError(f"delta = {delta:g}: the 'tight' threshold ln(1/(2 delta))/epsilon is defined for "
                             f"delta <= 1/2 only (the accidental pass at D = 0 is 1/2 e^(-epsilon T) <= 1/2 "
                             f"for T >= 0); use delta <= 0.5 or variant='dwork-roth'")
        return math.log(1.0 / (2.0 * delta)) / epsilon
    if variant == "source":
        return math.log(2.0 / delta) / (2.0 * epsilon)
    raise ValueError(f"threshold must be one of {PTR_THRESHOLDS} or a number, got {variant!r}")


def ptr_pass_probability(distance: float, epsilon: float, threshold: float, secure: bool = False) -> float:
    """The probability that PTR's test passes at a distance: ``P(distance + Lap(1/ε) >= threshold)``, exactly.

    Chapter: *Propose-test-release*.

    At any distance ``D``; at ``D = 0`` it is the accidental pass (releasing
    with too little noise), which must not exceed δ, and at larger ``D`` the
    chance of an answer.  ``secure=True``: the test's noise is discrete
    Laplace ``Lap_Z(1/ε)`` (``ε`` read as the decimal it prints as) and ``D``
    an integer, so the test passes when the noise is at least
    ``m = ⌈T − D⌉``: probability ``q^m/(1+q)`` for ``m >= 1`` and
    ``1 − q^{1−m}/(1+q)`` otherwise, ``q = e^{−ε}``.  At ``D = 0`` with
    ``T = ln(1/δ)/ε`` that is at most ``δ/(1 + e^{−ε}) < δ``.
    ``distance=math.inf`` (no dataset has a local sensitivity above the
    bound, as :func:`ptr_from_distance` accepts) gives 1.
    """
    epsilon = as_positive(epsilon, "epsilon")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not np.isfinite(threshold):
        raise TypeError(f"threshold must be a finite number, got {threshold!r}")
    if isinstance(distance, numbers.Real) and not isinstance(distance, bool) and distance == math.inf:
        return 1.0
    d = as_nonnegative(distance, "distance")
    if secure:
        if d != math.floor(d):
            raise ValueError(f"distance must be a whole number with secure=True (integer noise), got {distance!r}")
        q = math.exp(-float(as_rational(epsilon, "epsilon")))
        m = math.ceil(float(threshold) - d)
        return q ** m / (1.0 + q) if m >= 1 else 1.0 - q ** (1 - m) / (1.0 + q)
    gap = float(threshold) - d
    if gap >= 0:
        return 0.5 * math.exp(-epsilon * gap)
    return 1.0 - 0.5 * math.exp(epsilon * gap)


def _resolve_threshold(threshold, epsilon, delta) -> float:
    """A named threshold (see :func:`ptr_threshold`) or a finite number ``>= 0``.

    A negative threshold is refused: the test would then pass at distance 0
    with probability above ½, so the δ of the mechanism would exceed ½.
    """
    if isinstance(threshold, str):
        return ptr_threshold(epsilon, delta, threshold)
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise TypeError(f"threshold must be one of {PTR_THRESHOLDS} or a finite number >= 0, got {threshold!r}")
    if not math.isfinite(float(threshold)):
        raise ValueError(f"threshold must be one of {PTR_THRESHOLDS} or a finite number >= 0, got {threshold!r}")
    if threshold < 0:
        raise ValueError(
            f"threshold must be >= 0, got {threshold!r}: a negative threshold lets the test pass at "
            "distance 0 with probability above 1/2"
        )
    return float(threshold)


def ptr_from_distance(value: float, distance: float, bound: float, epsilon: float, delta: float,
                      rng: np.random.Generator, threshold: str | float = "dwork-roth", details: bool = False,
                      secure: bool = False) -> float | None | dict:
    """Propose-test-release given the exact distance to high local sensitivity.

    Chapter: *Propose-test-release*.

    1. (proposed) ``bound`` on the local sensitivity;
    2. test: ``noisy = distance + Lap(1/ε)``; if ``noisy < T`` return ⊥ (``None``);
    3. release ``value + Lap(bound/ε)``.

    With the default threshold ``T = ln(1/δ)/ε`` the whole mechanism is
    (2ε, δ)-DP: the test is ε-DP because the distance has global sensitivity 1,
    the release is ε-DP whenever the local sensitivity is at most ``bound``,
    and the release happens with too little noise (``distance = 0``) with
    probability at most δ/2 <= δ.  Running it costs (2ε, δ) *also when it
    returns ⊥*.  Give each step ε/2 for a total of (ε, δ).

    Parameters
    ----------
    value : float
        Exact query answer.
    distance : int or float
        ``>= 0``: how many steps (records added/removed, or replaced) lead to a
        dataset whose local sensitivity exceeds ``bound``
        (``dpsens.smooth.distance_to_high_ls``); ``math.inf`` if none does.
    bound : float
        Proposed bound on the local sensitivity, ``> 0``.
    epsilon, delta : float
        Budget of *each* step, and the failure probability.
    rng : numpy.random.Generator
        Randomness; the test noise is drawn first, then the release noise.
    threshold : {"dwork-roth", "tight", "source"} or float
        See :func:`ptr_threshold`; a number must be finite and ``>= 0``
        (``ValueError`` otherwise).  The test passes by accident at distance 0
        with probability ``½ e^{−εT}``.
    details : bool
        If true return a dict with ``released`` (value or None),
        ``noisy_distance``, ``threshold``, ``passed``.
    secure : bool
        False (default): numpy's floating-point Laplace noise, the book's
        illustrations (*Noise a computer can actually sample*).  True: the
        test adds discrete Laplace noise ``Lap_Z(1/ε)`` to the integer
        distance, and the release is the discrete Laplace mechanism
        (``value`` and ``bound`` must be integers), both sampled exactly
        (:func:`~dpsens.mechanisms.noise.laplace_noise`,
        :func:`~dpsens.mechanisms.laplace.laplace_mechanism` with
        ``secure=True``).  The threshold must then keep the exact accidental
        pass :func:`ptr_pass_probability` ``(0, ε, T, secure=True)`` at most δ
        (the default does: ``δ/(1 + e^{−ε})``); otherwise ValueError.

    Returns
    -------
    float or None, or dict if ``details`` (int or None with ``secure=True``).
    """
    answer = as_value(value)
    if np.ndim(answer) != 0:
        raise ValueError("value must be a single number for propose-test-release")
    if isinstance(distance, numbers.Real) and not isinstance(distance, bool) and distance == math.inf:
        distance = math.inf          # no dataset has local sensitivity above the bound: always safe
    else:
        distance = as_nonnegative(distance, "distance")
    bound = as_positive(bound, "bound")
    epsilon = as_positive(epsilon, "epsilon")
    delta = as_probability(delta, "delta")
    rng = check_rng(rng)
    t = _resolve_threshold(threshold, epsilon, delta)
    released: float | None
    if secure:
        as_integer_values(answer, "value")                 # refused before any noise is drawn
        as_integer_values(bound, "bound")
        if distance != math.inf and distance != math.floor(distance):
            raise ValueError(f"distance must be a whole number (or math.inf) with secure=True, got {distance!r}")
        accidental = ptr_pass_probability(0, epsilon, t, secure=True)
        if accidental > delta:
            raise ValueError(f"threshold {t:.6g}: with discrete Laplace noise the test passes at distance 0 with "
                             f"probability {accidental:.4g} > delta = {delta:g}; use threshold='dwork-roth' "
                             f"or a larger threshold")
        noisy = distance + laplace_noise(1 / as_rational(epsilon, "epsilon"), rng, secure=True)
        passed = bool(noisy >= t)
        whole_bound = int(as_integer_values(bound, "bound"))
        released = int(laplace_mechanism(answer, whole_bound, epsilon, rng, secure=True)) if passed else None
    else:
        noisy = distance + laplace_noise(1.0 / epsilon, rng)
        passed = bool(noisy >= t)
        released = float(answer + laplace_noise(bound / epsilon, rng)) if passed else None
    if details:
        return {"released": released, "noisy_distance": float(noisy), "threshold": t, "passed": passed,
                "distance": distance}
    return released


@overload
def propose_test_release(x: ArrayLike, query: str, bound: float, epsilon: float, delta: float, lower: float,
                         upper: float, rng: np.random.Generator, threshold: str | float = "dwork-roth",
                         neighbors: Relation | str = Relation.BOUNDED, details: Literal[False] = False,
                         secure: bool = False) -> float | None: ...


@overload
def propose_test_release(x: ArrayLike, query: str, bound: float, epsilon: float, delta: float, lower: float,
                         upper: float, rng: np.random.Generator, threshold: str | float = "dwork-roth",
                         neighbors: Relation | str = Relation.BOUNDED, *, details: Literal[True],
                         secure: bool = False) -> dict: ...


@overload
def propose_test_release(x: ArrayLike, query: str, bound: float, epsilon: float, delta: float, lower: float,
                         upper: float, rng: np.random.Generator, threshold: str | float = "dwork-roth",
                         neighbors: Relation | str = Relation.BOUNDED, details: bool = False,
                         secure: bool = False) -> float | None | dict: ...


def propose_test_release(x: ArrayLike, query: str, bound: float, epsilon: float, delta: float, lower: float,
                         upper: float, rng: np.random.Generator, threshold: str | float = "dwork-roth",
                         neighbors: Relation | str = Relation.BOUNDED, details: bool = False,
                         secure: bool = False) -> float | None | dict:
    """Propose-test-release for a query on data clipped to ``[lower, upper]``.

    Chapter: *Propose-test-release*.

    Computes ``query(x)`` and the exact distance
    ``dpsens.distance_to_high_ls(x, query, bound, lower, upper, neighbors)``
    and hands both to :func:`ptr_from_distance`.  Costs (2ε, δ) with the
    default threshold (ε for the test, ε for the release), whether or not it
    returns ⊥.

    Parameters
    ----------
    x : array_like
        Data, every value in ``[lower, upper]`` (clip first).
    query : str
        A query name from :data:`dpsens.QUERIES`.
    bound : float
        Proposed bound on the local sensitivity, ``> 0``.
    epsilon, delta : float
    lower, upper : float
        Bounds of the data domain.
    rng : numpy.random.Generator
    threshold : {"dwork-roth", "tight", "source"} or float
        A finite number ``>= 0``, or a name (see :func:`ptr_threshold`).
        ``"source"`` reproduces *Programming Differential Privacy*
        (``ln(2/δ)/(2ε)``), which passes by accident far more often than δ.
    neighbors : Relation or {"bounded", "unbounded"}
        The neighbour relation of the distance (default ``"bounded"``, as in
        :mod:`dpsens.smooth`); the source's mean example is ``"unbounded"``.
    details : bool
        Return a dict (see :func:`ptr_from_distance`).
    secure : bool
        Exact discrete Laplace noise for the test and the release (the
        answer and ``bound`` must be integers); see :func:`ptr_from_distance`.

    Returns
    -------
    float or None (⊥), or dict.
    """
    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    neighbors = as_relation(neighbors)
    bound = as_positive(bound, "bound")
    distance = distance_to_high_ls(x, name, bound, lower, upper, neighbors)
    return ptr_from_distance(f(x), distance, bound, epsilon, delta, rng, threshold=threshold, details=details,
                             secure=secure)
