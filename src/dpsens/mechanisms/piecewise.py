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

Within a piece every term is written as ``c e^{a (r - ref)}`` with ``ref`` a
point of the piece, where each factor's terms are at most 1 in absolute
value, so shifts in the thousands (counts of the Adult data) neither
overflow nor underflow before the product is formed.
"""
from __future__ import annotations

import math
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

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {self.kind!r}")
        if not math.isfinite(self.shift):
            raise ValueError(f"shift must be finite, got {self.shift!r}")
        as_positive(self.scale, "scale")

    def terms(self, left: bool, ref: float) -> list[tuple[float, float]]:
        """The factor on a piece left (``left=True``) or right of its shift, as ``[(a, c), ...]`` meaning
        ``sum c e^{a (r - ref)}``."""
        k, s, b = self.kind, self.shift, self.scale
        d = ref - s                                    # <= 0 on a left piece, >= 0 on a right piece
        if k == "below":
            return [(0.0, 1.0)] if left else []
        if k == "above":
            return [] if left else [(0.0, 1.0)]
        if k.startswith("laplace"):
            if left:                                           # (1/2) e^{(r - s)/b}, r < s
                term = (1.0 / b, 0.5 * math.exp(d / b))
                if k == "laplace_cdf":
                    return [term]
                return [(0.0, 1.0), (term[0], -term[1])] if k == "laplace_sf" else [(term[0], term[1] / b)]
            term = (-1.0 / b, 0.5 * math.exp(-d / b))          # (1/2) e^{-(r - s)/b}, r >= s
            if k == "laplace_cdf":
                return [(0.0, 1.0), (term[0], -term[1])]
            return [term] if k == "laplace_sf" else [(term[0], term[1] / b)]
        if left:
            return []
        tail = (-1.0 / b, math.exp(-d / b))                  # e^{-(r - s)/b}, r >= s
        if k == "exponential_cdf":
            return [(0.0, 1.0), (tail[0], -tail[1])]
        return [(tail[0], tail[1] / b)]


def laplace_cdf(shift, scale) -> Factor:
    """``P(Z < r - shift)``, ``Z ~ Lap(scale)``: a noisy value ``shift + Z`` below ``r``."""
    return Factor("laplace_cdf", float(shift), as_positive(scale, "scale"))


def laplace_sf(shift, scale) -> Factor:
    """``P(Z >= r - shift)``, ``Z ~ Lap(scale)``: a noisy value ``shift + Z`` at or above ``r``."""
    return Factor("laplace_sf", float(shift), as_positive(scale, "scale"))


def laplace_pdf_factor(shift, scale) -> Factor:
    """The density of ``shift + Z`` at ``r``, ``Z ~ Lap(scale)``."""
    return Factor("laplace_pdf", float(shift), as_positive(scale, "scale"))


def exponential_cdf(shift, scale) -> Factor:
    """``P(Z < r - shift)`` for ``Z`` exponential with mean ``scale``."""
    return Factor("exponential_cdf", float(shift), as_positive(scale, "scale"))


def exponential_pdf(shift, scale) -> Factor:
    """The density of ``shift + Z`` at ``r``, ``Z`` exponential with mean ``scale``."""
    return Factor("exponential_pdf", float(shift), as_positive(scale, "scale"))


def step_below(shift) -> Factor:
    """``1[r < shift]``."""
    return Factor("below", float(shift))


def step_above(shift) -> Factor:
    """``1[r >= shift]``."""
    return Factor("above", float(shift))


def _piece_integral(terms: dict, lo: float, hi: float, ref: float) -> float:
    """``∫_lo^hi sum c e^{a (r - ref)} dr`` for ``terms = {a: c}``, ``ref`` in ``[lo, hi]``."""
    total = 0.0
    for a, c in terms.items():
        if c == 0.0:
            continue
        if a == 0.0:
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError("the integrand does not vanish at infinity: its integral is infinite")
            total += c * (hi - lo)
            continue
        if (a > 0 and hi == math.inf) or (a < 0 and lo == -math.inf):
            raise ValueError("the integrand grows without bound at infinity: its integral is infinite")
        mag = math.log(abs(c))
        sign = math.copysign(1.0, c)
        # e^{a (hi - ref)} and e^{a (lo - ref)}, each formed in log space
        top = sign * math.exp(mag + a * (hi - ref)) if math.isfinite(hi) else 0.0
        bottom = sign * math.exp(mag + a * (lo - ref)) if math.isfinite(lo) else 0.0
        total += (top - bottom) / a
    return total


def integrate(factors, constant: float = 1.0) -> float:
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
    for lo, hi in zip(edges[:-1], edges[1:]):
        if lo == hi:
            continue
        ref = lo if math.isfinite(lo) else hi          # a cut exists: every factor has a shift
        terms = {0.0: 1.0}
        for f in factors:
            left = hi <= f.shift                       # pieces never straddle a shift
            new: dict = {}
            for a1, c1 in terms.items():
                for a2, c2 in f.terms(left, ref):
                    key = round(a1 + a2, 12)
                    new[key] = new.get(key, 0.0) + c1 * c2
            terms = new
            if not terms:
                break
        if terms:
            total += _piece_integral(terms, lo, hi, ref)
    return max(total, 0.0) * constant
