"""Mironov's snapping mechanism: clamp, add floating-point Laplace noise, round to a power-of-two grid, clamp.

Chapter: *Noise a computer can actually sample* (``chapters/floating.md``).
Mironov (2012), Section 5.2: for a query of sensitivity 1 and noise scale
``λ`` (Mironov's letter, kept here; the chapter writes ``b``), release
``clamp_B(round_Λ(clamp_B(f(x)) + S·λ·ln(U*)))`` where ``S`` is a fair sign,
``U*`` a uniform double on (0, 1) drawn with full precision
(every double ``d`` with probability the length of ``[d, next double)``:
a geometric exponent and 52 uniform mantissa bits), ``Λ`` the smallest power
of two ``>= λ`` and ``round_Λ`` rounding to the nearest multiple of ``Λ``.
Mironov's theorem (cited from the statement in Section 5.2 of the paper):
if ``λ < B < 2**46·λ`` the release is ``(1/λ + 2**-49·B/λ)``-DP.  The
theorem assumes a correctly rounded logarithm; this module uses the C
library's ``log`` (through :func:`math.log`), whose last bit is not proven
correct, so the implementation follows the theorem's algorithm but not, to
the last bit, its assumption.  A sensitivity ``Δ`` that is a power of two is
handled by running the mechanism on ``f/Δ`` (exact) and multiplying back.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_positive, check_rng
from .checks import Size, as_size, as_value

__all__ = ["snapping_parameters", "snapping_epsilon", "snapping_mechanism", "sample_full_precision_uniform"]

_C_LOG = np.frompyfunc(math.log, 1, 1)


def _power_of_two_at_least(x: float) -> float:
    mantissa, exponent = math.frexp(x)                   # x = mantissa * 2**exponent, mantissa in [0.5, 1)
    return x if mantissa == 0.5 else math.ldexp(1.0, exponent)


def snapping_parameters(sensitivity: float, epsilon: float, bound: float) -> dict:
    """The snapping mechanism's parameters in the query's units: ``λ``, the grid ``Λ``, the clamp ``B`` and ``ε'``.

    Chapter: *Noise a computer can actually sample*.

    Parameters
    ----------
    sensitivity : float
        Δ, a power of two (1, 2, 0.5, ...), so that ``f/Δ`` is computed
        exactly; round a sensitivity up to one.
    epsilon : float
        The target ``ε > 0``: the noise scale on ``f/Δ`` is ``λ = 1/ε``.
    bound : float
        ``B``: answers and releases are clamped to ``[-B, B]``; Mironov's
        theorem needs ``Δλ < B < 2**46·Δλ``.

    Returns
    -------
    dict
        ``scale`` (``Δλ``), ``grid`` (``ΔΛ``, a power of two), ``bound`` (``B``)
        and ``epsilon`` (``ε' = 1/λ + 2**-49·(B/Δ)/λ``, rounded up), the
        guarantee.

    Raises
    ------
    ValueError
        If ``sensitivity`` is not a power of two, or ``bound`` is outside the theorem's range.

    Examples
    --------
    >>> p = snapping_parameters(1.0, 0.5, 1000.0)
    >>> p["grid"], p["epsilon"] > 0.5
    (2.0, True)
    """
    delta_f = as_positive(sensitivity, "sensitivity")
    if math.frexp(delta_f)[0] != 0.5:
        raise ValueError(f"sensitivity must be a power of two (1, 2, 0.5, ...) so that f/sensitivity is exact; "
                         f"got {sensitivity!r}: round it up to {_power_of_two_at_least(delta_f)!r}")
    epsilon = as_positive(epsilon, "epsilon")
    bound = as_positive(bound, "bound")
    lam = 1.0 / epsilon
    b_unit = bound / delta_f                             # exact: delta_f is a power of two
    if not lam < b_unit < 2.0 ** 46 * lam:
        raise ValueError(f"bound must satisfy scale < bound < 2**46 * scale with scale = sensitivity/epsilon = "
                         f"{delta_f * lam!r} (Mironov's theorem); got bound = {bound!r}")
    eps_prime = math.nextafter(1.0 / lam + 2.0 ** -49 * b_unit / lam, math.inf)
    return {"scale": delta_f * lam, "grid": delta_f * _power_of_two_at_least(lam), "bound": bound,
            "epsilon": eps_prime}


def snapping_epsilon(sensitivity: float, epsilon: float, bound: float) -> float:
    """The guarantee ``ε' = ε + 2**-49·(B/Δ)·ε`` of :func:`snapping_mechanism` (Mironov 2012, Section 5.2).

    Chapter: *Noise a computer can actually sample*.
    """
    return snapping_parameters(sensitivity, epsilon, bound)["epsilon"]


def sample_full_precision_uniform(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """Uniform doubles on (0, 1) with full precision: ``U* = (1 + m/2**52)·2**-(e+1)``.

    Chapter: *Noise a computer can actually sample*.  ``e`` is the number of
    leading zero bits of an endless stream of fair bits (53 at a time), ``m``
    52 fair bits: each double ``d`` comes out with probability the length of
    ``[d, next double after d)``, as Mironov's proof assumes.
    """
    n = int(np.prod(size))
    exponent = np.zeros(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        word = rng.integers(0, 2 ** 53, size=pending.size)
        zero = word == 0
        exponent[pending[zero]] += 53
        bits = np.frexp(word[~zero].astype(np.float64))[1]         # bit length, exact: word < 2**53
        exponent[pending[~zero]] += 53 - bits
        pending = pending[zero]
    mantissa = rng.integers(0, 2 ** 52, size=n) + 2 ** 52
    return np.ldexp(mantissa.astype(np.float64), -(exponent + 1) - 52).reshape(size)


def snapping_mechanism(value: ArrayLike, sensitivity: float, epsilon: float, bound: float, rng: np.random.Generator,
                       size: Size = None) -> float | np.ndarray:
    """Release ``value`` by Mironov's snapping mechanism: ``ε'``-DP (:func:`snapping_epsilon`) for sensitivity Δ.

    Chapter: *Noise a computer can actually sample*.  On ``g = value/Δ``:
    ``clamp_B(round_Λ(clamp_B(g) + S·λ·ln(U*)))`` with ``λ = 1/ε``, then
    times Δ.  Every release is a multiple of the grid ``ΔΛ`` in ``[-B, B]``.

    Parameters
    ----------
    value : float or array_like
        The exact answer(s).
    sensitivity : float
        Δ, a power of two.
    epsilon : float
        ``ε > 0`` (the guarantee is the slightly larger ``ε'``).
    bound : float
        ``B``, with ``Δ/ε < B < 2**46·Δ/ε``.
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    float or numpy.ndarray
    """
    params = snapping_parameters(sensitivity, epsilon, bound)
    delta_f = float(sensitivity)
    lam, grid, b_unit = params["scale"] / delta_f, params["grid"] / delta_f, params["bound"] / delta_f
    value = as_value(value)
    rng = check_rng(rng)
    size = as_size(size)
    shape = size if size is not None else np.shape(value)
    clamped = np.clip(np.asarray(value, dtype=float) / delta_f, -b_unit, b_unit)
    u = sample_full_precision_uniform(rng, shape)
    sign = np.where(rng.integers(0, 2, size=shape) == 1, -1.0, 1.0)
    noisy = clamped + sign * (lam * np.asarray(_C_LOG(u), dtype=np.float64))
    out = np.clip(np.round(noisy / grid) * grid, -b_unit, b_unit) * delta_f
    return float(out) if np.ndim(out) == 0 else out
