"""Exact integrals of products of Laplace and exponential densities, distribution functions and steps.

Chapter: *Testing privately, and releasing what is stable* (the exact
privacy loss of sparse vector and of its broken variants, the exact output
distribution of report-noisy-max).  Every probability those mechanisms give
an output is an integral over one real variable ``r`` (the threshold's
noise, or the winning noisy score) of a product of factors such as
``F(r - s)``, ``1 - F(r - s)`` and ``f(r - s)`` for Laplace or exponential
noise, and of indicators ``1[r < s]``.  Between consecutive shifts ``s`` each
factor is a sum of at most two exponentials ``c e^{a r}``, so the product is
a finite sum of exponentials there and its integral has a closed form.
:func:`integrate` computes it piece by piece; the only error is
floating-point rounding (the tests compare it with adaptive quadrature).

Within a piece every term is kept as ``sign · e^{log|c| + a (r − ref)}``,
``ref`` an end of the piece, with ``log|c|`` in log space: a term can be
tiny at one end of a long piece and of order 1 at the other, so shifts in
the thousands (counts of the Adult data) neither overflow nor underflow
before the term is evaluated where it matters.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .._validate import as_nonnegative, as_positive

__all__ = ["Factor", "laplace_cdf", "laplace_sf", "laplace_pdf_factor", "exponential_cdf", "exponential_pdf",
           "step_below", "step_above", "integrate"]

_KINDS = ("laplace_cdf", "laplace_sf", "laplace_pdf", "exponential_cdf", "exponential_pdf", "below", "above")


@dataclass(frozen=True)
class Factor:
    """One factor of an integrand in ``r``: ``kind`` at shift ``shift`` with noise scale ``scale``.

    ``laplace_cdf``: ``P(Z < r - shift)`` for ``Z ~ Lap(scale)``; ``laplace_sf``: ``P(Z >= r - shift)``;
    ``laplace_pdf``: the density of ``Z`` at ``r - shift``; ``exponential_cdf`` / ``exponential_pdf``:
    the same for ``Z`` exponential with mean ``scale`` (``Z >= 0``); ``below``: ``1[r < shift]``;
    ``above``: ``1[r >= shift]`` (``scale`` unused).
    """

    kind: str
    shift: float
    scale: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {self.kind!r}")
        if not math.isfinite(self.shift):
            raise ValueError(f"shift must be finite, got {self.shift!r}")
        as_positive(self.scale, "scale")

    def terms(self, left: bool, ref: float) -> list[tuple[float, float, float]]:
        """The factor on a piece left (``left=True``) or right of its shift, as ``[(a, log|c|, sign), ...]``
        meaning ``sum sign e^{log|c| + a (r - ref)}``."""
        k, s, b = self.kind, self.shift, self.scale
        d = ref - s                                    # <= 0 on a left piece, >= 0 on a right piece
        one = (0.0, 0.0, 1.0)
        if k == "below":
            return [one] if left else []
        if k == "above":
            return [] if left else [one]
        half = math.log(0.5)
        if k.startswith("laplace"):
            if left:                                           # (1/2) e^{(r - s)/b}, r < s
                a, log_c = 1.0 / b, half + d / b
            else:                                              # (1/2) e^{-(r - s)/b}, r >= s
                a, log_c = -1.0 / b, half - d / b
            tail = (a, log_c, 1.0)
            if k == "laplace_pdf":
                return [(a, log_c - math.log(b), 1.0)]
            # the cdf is the tail below s and 1 - tail above; the survival function the reverse
            if (k == "laplace_cdf") == left:
                return [tail]
            return [one, (a, log_c, -1.0)]
        if left:
            return []
        a, log_c = -1.0 / b, -d / b                            # e^{-(r - s)/b}, r >= s
        if k == "exponential_cdf":
            return [one, (a, log_c, -1.0)]
        return [(a, log_c - math.log(b), 1.0)]


def laplace_cdf(shift: float, scale: float) -> Factor:
    """``P(Z < r - shift)``, ``Z ~ Lap(scale)``: a noisy value ``shift + Z`` below ``r``."""
    return Factor("laplace_cdf", float(shift), as_positive(scale, "scale"))


def laplace_sf(shift: float, scale: float) -> Factor:
    """``P(Z >= r - shift)``, ``Z ~ Lap(scale)``: a noisy value ``shift + Z`` at or above ``r``."""
    return Factor("laplace_sf", float(shift), as_positive(scale, "scale"))


def laplace_pdf_factor(shift: float, scale: float) -> Factor:
    """The density of ``shift + Z`` at ``r``, ``Z ~ Lap(scale)``."""
    return Factor("laplace_pdf", float(shift), as_positive(scale, "scale"))


def exponential_cdf(shift: float, scale: float) -> Factor:
    """``P(Z < r - shift)`` for ``Z`` exponential with mean ``scale``."""
    return Factor("exponential_cdf", float(shift), as_positive(scale, "scale"))


def exponential_pdf(shift: float, scale: float) -> Factor:
    """The density of ``shift + Z`` at ``r``, ``Z`` exponential with mean ``scale``."""
    return Factor("exponential_pdf", float(shift), as_positive(scale, "scale"))


def step_below(shift: float) -> Factor:
    """``1[r < shift]``."""
    return Factor("below", float(shift))


def step_above(shift: float) -> Factor:
    """``1[r >= shift]``."""
    return Factor("above", float(shift))


def _combine(parts: list[tuple[float, float]]) -> tuple[float, float]:
    """``sum sign e^{log}`` over ``parts = [(log, sign), ...]``, as ``(log|total|, sign)``."""
    if len(parts) == 1:
        return parts[0]
    parts = [(log, sign) for log, sign in parts if sign != 0.0 and log > -math.inf]
    if not parts:
        return -math.inf, 0.0
    top = max(log for log, _ in parts)
    total = sum(sign * math.exp(log - top) for log, sign in parts)
    if total == 0.0:
        return -math.inf, 0.0
    return top + math.log(abs(total)), math.copysign(1.0, total)


def _piece_integral(terms: dict, lo: float, hi: float, ref: float) -> float:
    """``∫_lo^hi sum sign e^{log|c| + a (r - ref)} dr`` for ``terms = {a: (log|c|, sign)}``."""
    total = 0.0
    for a, (log_c, sign) in terms.items():
        if sign == 0.0:
            continue
        if a == 0.0:
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError("the integrand does not vanish at infinity: its integral is infinite")
            total += sign * math.exp(log_c) * (hi - lo)
            continue
        if (a > 0 and hi == math.inf) or (a < 0 and lo == -math.inf):
            raise ValueError("the integrand grows without bound at infinity: its integral is infinite")
        # the term at hi and at lo, each formed in log space (each is at most a few in absolute value)
        top = math.exp(log_c + a * (hi - ref)) if math.isfinite(hi) else 0.0
        bottom = math.exp(log_c + a * (lo - ref)) if math.isfinite(lo) else 0.0
        total += sign * (top - bottom) / a
    return total


def integrate(factors: Sequence[Factor], constant: float = 1.0) -> float:
    """``constant * ∫ prod(factors)(r) dr`` over the real line, exactly (up to rounding).

    Chapter: *Testing privately, and releasing what is stable*.

    Parameters
    ----------
    factors : sequence of Factor
        At least one factor that vanishes at both ends (a density), or steps that bound the range.
    constant : float
        A factor that does not depend on ``r``, ``>= 0``.

    Returns
    -------
    float
        The integral, ``>= 0`` (a tiny negative rounding result is returned as 0).

    Raises
    ------
    ValueError
        If the integral is infinite.

    Examples
    --------
    >>> round(integrate([laplace_pdf_factor(0.0, 1.0)]), 12)
    1.0
    >>> round(integrate([laplace_pdf_factor(0.0, 1.0), step_above(0.0)]), 12)
    0.5
    """
    factors = list(factors)
    if not all(isinstance(f, Factor) for f in factors):
        raise TypeError("factors must be Factor objects (laplace_cdf(...), step_below(...), ...)")
    constant = as_nonnegative(constant, "constant")
    cuts = sorted({f.shift for f in factors})
    edges = [-math.inf] + cuts + [math.inf]
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        if lo == hi:
            continue
        ref = lo if math.isfinite(lo) else hi          # a cut exists: every factor has a shift
        terms: dict = {0.0: (0.0, 1.0)}
        for f in factors:
            left = hi <= f.shift                       # pieces never straddle a shift
            parts: dict = {}
            for a1, (l1, s1) in terms.items():
                for a2, l2, s2 in f.terms(left, ref):
                    parts.setdefault(round(a1 + a2, 12), []).append((l1 + l2, s1 * s2))
            terms = {a: _combine(p) for a, p in parts.items()}
            if not terms:
                break
        if terms:
            total += _piece_integral(terms, lo, hi, ref)
    return max(total, 0.0) * constant
