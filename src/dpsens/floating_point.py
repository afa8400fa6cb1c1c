"""The floating-point attack on the book's own Laplace mechanism (Mironov 2012): which doubles can it output?

Chapter: *Noise a computer can actually sample* (``chapters/floating.md``).
:func:`dpsens.mechanisms.laplace_mechanism` adds ``rng.laplace(0.0, b)`` to
the answer.  numpy's ``Generator.laplace`` (numpy 2.x, ``random_laplace`` in
``numpy/random/src/distributions/distributions.c``) draws one uniform double
``U = j / 2**53`` (``j``: the top 53 bits of one 64-bit output of the bit
generator; ``j = 0`` is redrawn) and returns ``0 - b*log((2 - U) - U)`` when
``U >= 1/2`` and ``0 + b*log(U + U)`` otherwise, with the C library's ``log``
-- the function Python's :func:`math.log` calls, which is *not* numpy's own
``np.log`` (they differ in the last bit on a few thousand of a million
arguments).  So the release ``z = value + noise`` is one of at most ``2**53 - 1``
doubles, each a deterministic function of ``j``; :func:`laplace_release`
computes it bit for bit, and :func:`is_reachable` decides whether a given
double is among the releases of a given value.  A release that the
neighbouring value cannot produce identifies the input with certainty: the
privacy loss there is infinite.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_int, as_positive, check_rng
from .mechanisms.checks import as_value
from .mechanisms.laplace import laplace_mechanism, laplace_noise_scale

__all__ = ["uniform_index", "numpy_laplace_noise", "laplace_release", "is_reachable", "AttackResult",
           "identifying_fraction", "J_MAX"]

#: The largest index j of numpy's 53-bit uniform ``U = j / 2**53``.
J_MAX = 2 ** 53 - 1
_C_LOG = np.frompyfunc(math.log, 1, 1)


def uniform_index(raw: ArrayLike) -> np.ndarray:
    """The index ``j`` (``U = j / 2**53``) numpy's ``next_double`` makes of 64-bit bit-generator outputs: ``raw >> 11``.

    Chapter: *Noise a computer can actually sample*.  With
    ``rng.bit_generator.random_raw(n)`` on a copy of a Generator's state this
    recovers the ``j`` behind each of its next ``n`` Laplace draws (none of
    them 0, which numpy would redraw).
    """
    return (np.asarray(raw, dtype=np.uint64) >> np.uint64(11)).astype(np.int64)


def numpy_laplace_noise(j: ArrayLike, scale: float) -> np.ndarray:
    """The noise ``rng.laplace(0.0, scale)`` returns when its uniform index is ``j`` (``1 <= j < 2**53``), bit for bit.

    Chapter: *Noise a computer can actually sample*.  Non-decreasing in ``j``:
    negative for ``j < 2**52``, ``>= 0`` from there on.

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> j = uniform_index(np.random.default_rng(3).bit_generator.random_raw(4))
    >>> bool(np.array_equal(numpy_laplace_noise(j, 2.0), rng.laplace(0.0, 2.0, size=4)))
    True
    """
    scale = as_positive(scale, "scale")
    j = np.asarray(j, dtype=np.int64)
    if np.any(j < 1) or np.any(j > J_MAX):
        raise ValueError("j must be in [1, 2**53 - 1] (numpy redraws j = 0)")
    u = j.astype(np.float64) * (1.0 / 9007199254740992.0)         # exact: j < 2**53
    upper = u >= 0.5
    arg = np.where(upper, (2.0 - u) - u, u + u)
    logs = np.asarray(_C_LOG(arg), dtype=np.float64)
    return np.where(upper, 0.0 - scale * logs, 0.0 + scale * logs)


def laplace_release(value: ArrayLike, scale: float, j: ArrayLike) -> np.ndarray:
    """``value + numpy_laplace_noise(j, scale)`` in double precision: the release of the book's Laplace mechanism.

    Chapter: *Noise a computer can actually sample*.  Non-decreasing in ``j``.
    """
    value = as_value(value)
    return value + numpy_laplace_noise(j, scale)


def is_reachable(z: ArrayLike, value: float, scale: float, window: int = 4) -> np.ndarray:
    """Whether each double in ``z`` is a possible release ``laplace_release(value, scale, j)`` for some ``j``.

    Chapter: *Noise a computer can actually sample*.  The release is
    non-decreasing in ``j``, so a bisection over ``1 <= j < 2**53`` (53 steps,
    all outputs at once) finds the first ``j`` whose release is ``>= z``; the
    answer is whether some ``j`` within ``window`` of it gives ``z`` exactly (the
    window guards against a last-bit wobble of the C library's ``log``;
    ``tests/package/test_floating.py`` checks the answers against brute-force
    enumeration of every ``j`` of an interval).

    Returns
    -------
    numpy.ndarray of bool
    """
    z = np.atleast_1d(np.asarray(z, dtype=np.float64))
    scale = as_positive(scale, "scale")
    window = as_int(window, "window", minimum=0)
    lo = np.ones(z.shape, dtype=np.int64)                # release(lo - 1) < z is the invariant (lo = 1: vacuous)
    hi = np.full(z.shape, J_MAX + 1, dtype=np.int64)     # release(hi) >= z, or hi = 2**53 (beyond the last)
    while np.any(lo < hi):
        mid = (lo + hi) // 2
        active = lo < hi
        below = np.zeros(z.shape, dtype=bool)
        below[active] = laplace_release(value, scale, mid[active]) < z[active]
        lo = np.where(active & below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)
    found = np.zeros(z.shape, dtype=bool)
    for offset in range(-window, window + 1):
        j = np.clip(lo + offset, 1, J_MAX)
        found |= laplace_release(value, scale, j) == z
    return found


@dataclass(frozen=True)
class AttackResult:
    """What :func:`identifying_fraction` measured.

    Attributes
    ----------
    releases : int
        Releases drawn from ``M(x)``.
    identifying : int
        Of these, how many ``M(x')`` cannot output: each proves the input was ``x``.
    fraction : float
        ``identifying / releases``.
    """

    releases: int
    identifying: int

    @property
    def fraction(self) -> float:
        return self.identifying / self.releases


def identifying_fraction(value: float, value_prime: float, sensitivity: float, epsilon: float,
                         rng: np.random.Generator, releases: int = 10_000) -> AttackResult:
    """Draw releases of ``laplace_mechanism(value, ...)`` and count those ``value_prime`` can never produce.

    Chapter: *Noise a computer can actually sample*.  The attacker knows the
    two candidate answers ``f(x) = value`` and ``f(x') = value_prime`` (at
    most ``sensitivity`` apart) and the mechanism; on seeing ``z`` it checks
    whether ``z`` is a possible release of ``value_prime``
    (:func:`is_reachable`).  If not, the input was ``x``, with certainty.

    Parameters
    ----------
    value, value_prime : float
        The answers on the two neighbouring datasets.
    sensitivity, epsilon : float
        The mechanism's calibration, ``b = sensitivity / epsilon``.
    rng : numpy.random.Generator
        Source of the releases (the mechanism's own).
    releases : int
        How many releases to draw, ``>= 1``.

    Returns
    -------
    AttackResult
    """
    checked, checked_prime = as_value(value, "value"), as_value(value_prime, "value_prime")
    if not isinstance(checked, float) or not isinstance(checked_prime, float):
        raise TypeError("value and value_prime must be single numbers")
    value, value_prime = checked, checked_prime
    scale = laplace_noise_scale(sensitivity, epsilon)
    if abs(value - value_prime) > float(sensitivity):
        raise ValueError(f"value and value_prime must be at most sensitivity = {sensitivity} apart, "
                         f"got {value} and {value_prime}")
    releases = as_int(releases, "releases", minimum=1)
    z = laplace_mechanism(value, sensitivity, epsilon, check_rng(rng), size=releases)
    hits = is_reachable(z, value_prime, scale)
    return AttackResult(releases=releases, identifying=int((~hits).sum()))
