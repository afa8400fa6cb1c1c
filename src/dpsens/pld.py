"""Privacy loss distributions: the exact (ε, δ) of a sequence of Laplace and Gaussian releases, bracketed.

Chapter: *Composing releases, and counting the budget exactly*, which
defines the privacy loss distribution (PLD), proves the two bounds computed
here and compares them with Google's ``dp_accounting``.

A release with Laplace noise of scale b on a query of L1 sensitivity Δ
has, in the worst case (outputs centred at 0 and Δ), the privacy loss
``L = (|z − Δ| − |z|)/b`` in ``[−a, a]``, ``a = Δ/b``: an atom ``+a`` of
probability 1/2, an atom ``−a`` of probability ``e^{−a}/2`` and a density
``e^{−a/2} e^{l/2}/4`` in between.  Gaussian releases compose exactly into
one Gaussian with ``ϑ = sqrt(Σ (Δ_i/σ_i)²)``, whose loss is ``N(ϑ²/2, ϑ²)``.
The losses of independent releases add, and

    δ(ε) = E[(1 − e^{ε − L_1 − ... − L_J})_+]

increases with every ``L_i``.  Rounding each loss *up* to a grid of step
``h`` therefore gives an upper bound on δ(ε) (a valid guarantee), rounding
it *down* a lower bound, and the two differ by a shift of at most ``J h``
in ε.  The rounded distributions are convolved by FFT; the mass an FFT of
finite length folds back is bounded by Hoeffding's inequality and added to
(or taken from) the bounds.  What is not bounded is floating-point
round-off in the FFT (about 1e-16 of the total mass per entry).

:func:`compare_accountants` puts every accountant of the chapter side by
side (the table behind its figure and explorer).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import fft, special

from ._validate import as_int, as_positive, as_probability
from .accounting import (advanced_composition, gaussian_composition_epsilon, optimal_composition_epsilon,
                         rdp_epsilon, releases_as_pairs)
from .mechanisms.gaussian import gaussian_epsilon, zcdp_to_dp

__all__ = ["PldBounds", "pld_delta", "pld_epsilon", "compare_accountants", "ACCOUNTANTS", "TAIL"]

#: The tail mass left out, per side, when the Gaussian loss is cut to a finite window, and the most mass
#: the FFT may fold back (both added to the upper bound on δ and taken from the lower one).
TAIL = 1e-20
_Z_TAIL = float(-special.ndtri(TAIL))          # Φ(−z) = TAIL
_MAX_LENGTH = 2 ** 24
_PASSES = 4


@dataclass(frozen=True)
class PldBounds:
    """An exact quantity bracketed: ``lower <= exact <= upper``; ``upper`` is a valid privacy guarantee.

    ``interval`` is the grid step ``h`` of the losses."""

    lower: float
    upper: float
    interval: float


def _laplace_masses(a: float, h: float, up: bool) -> tuple[int, np.ndarray]:
    """The loss of one Laplace release (a = Δ/b) on the grid: first index and masses (rounded up or down)."""
    rnd = math.ceil if up else math.floor
    steps = a / h
    if abs(steps - round(steps)) <= 1e-9 * max(1.0, steps):     # a on the grid (up to the division's round-off)
        steps = float(round(steps))
    lo, hi = rnd(-steps), rnd(steps)
    masses = np.zeros(hi - lo + 1)
    masses[hi - lo] += 0.5                          # the atom +a (z <= 0)
    masses[0] += 0.5 * math.exp(-a)                 # the atom -a (z >= Δ)
    # the density e^{-a/2} e^{l/2} / 4 on (-a, a), cell by cell: cells ((j-1)h, jh] (up) or [jh, (j+1)h) (down)
    j = np.arange(lo, hi + 1, dtype=float)
    left = np.clip((j - 1) * h if up else j * h, -a, a)
    right = np.clip(j * h if up else (j + 1) * h, -a, a)
    masses += 0.5 * np.exp(-a / 2 + left / 2) * np.expm1((right - left) / 2)
    return lo, masses


def _gaussian_masses(nu: float, h: float, up: bool) -> tuple[int, np.ndarray, float]:
    """The loss N(ϑ²/2, ϑ²) on the grid, cut at ``_Z_TAIL`` standard deviations: first index, masses and
    the mass treated as an infinite loss (upper bound only)."""
    mean = nu ** 2 / 2
    rnd = math.ceil if up else math.floor
    lo, hi = rnd((mean - _Z_TAIL * nu) / h), rnd((mean + _Z_TAIL * nu) / h)
    j = np.arange(lo, hi + 1, dtype=float)
    left = (j - 1) * h if up else j * h
    right = j * h if up else (j + 1) * h
    za, zb = (left - mean) / nu, (right - mean) / nu
    masses = np.where(za > 0, special.ndtr(-za) - special.ndtr(-zb), special.ndtr(zb) - special.ndtr(za))
    below = float(special.ndtr(za[0]))           # loss below the window
    above = float(special.ndtr(-zb[-1]))         # loss above the window
    if up:
        masses[0] += below                       # rounded up to the first cell
        return lo, masses, above                 # treated as an infinite loss
    masses[-1] += above                          # rounded down to the last cell; the mass below: loss -inf
    return lo, masses, 0.0


def _components(laplace, gaussian, h: float, up: bool):
    """The distinct rounded single-release loss distributions, with how often each is composed."""
    parts, p_inf = [], 0.0
    for a, count in Counter(s / b for b, s in laplace).items():
        lo, masses = _laplace_masses(a, h, up)
        parts.append((lo, masses, count))
    if gaussian:
        nu = math.sqrt(sum((s / n) ** 2 for n, s in gaussian))
        lo, masses, p_inf = _gaussian_masses(nu, h, up)
        parts.append((lo, masses, 1))
    return parts, p_inf


def _length(parts) -> tuple[int, bool]:
    """The FFT length, and whether it holds the whole support (else the fold-back is at most TAIL)."""
    width = sum(c * (len(m) - 1) for _, m, c in parts) + 1
    spread = sum(c * (len(m) - 1) ** 2 for _, m, c in parts)          # Hoeffding: Σ c (range)²
    t = math.sqrt(spread * math.log(2 / TAIL) / 2)
    window = int(2 * (t + sum(c for _, _, c in parts) / 2 + 2)) + 1
    if width <= window:
        return fft.next_fast_len(width, real=True), True
    return fft.next_fast_len(window, real=True), False


def _compose(parts) -> tuple[np.ndarray, np.ndarray, float]:
    """Convolve ``count`` copies of each part: the grid indices and masses of the sum, and the fold-back bound."""
    n, whole = _length(parts)
    if n > _MAX_LENGTH:
        raise ValueError(f"the loss grid would need {n:,} points (more than {_MAX_LENGTH:,}); "
                         "ask for a larger rtol")
    spectrum = np.ones(n // 2 + 1, dtype=complex)
    base = 0
    for lo, masses, count in parts:
        shift = 0 if whole else int(round(float(np.dot(np.arange(len(masses)), masses) / masses.sum())))
        arr = np.zeros(n)
        arr[(np.arange(len(masses)) - shift) % n] = masses
        spectrum *= fft.rfft(arr) ** count
        base += count * (lo + shift)
    out = np.maximum(fft.irfft(spectrum, n), 0.0)
    if whole:
        return base + np.arange(n), out, 0.0
    out = np.roll(out, n // 2)
    return base - n // 2 + np.arange(n), out, TAIL


def _check(laplace, gaussian):
    lap = releases_as_pairs(laplace, "laplace")
    gau = releases_as_pairs(gaussian, "gaussian")
    if not lap and not gau:
        raise ValueError("give at least one release (laplace=[(scale, sensitivity), ...] or gaussian=[...])")
    return lap, gau


def _delta(epsilon: float, values: np.ndarray, masses: np.ndarray, p_inf: float) -> float:
    above = values > epsilon
    return p_inf + float(np.sum(masses[above] * -np.expm1(epsilon - values[above])))


def pld_delta(epsilon: float, laplace: Iterable[tuple[float, float]] = (), gaussian: Iterable[tuple[float, float]] = (), interval: float = 1e-3) -> PldBounds:
    """Lower and upper bounds on the exact δ(ε) of a sequence of Laplace and Gaussian releases.

    Chapter: *Composing releases*.

    Parameters
    ----------
    epsilon : float
        ``>= 0``.
    laplace, gaussian : sequence of (float, float)
        ``(scale b, L1 sensitivity)`` per Laplace release, ``(σ, L2 sensitivity)`` per Gaussian release.
    interval : float
        The grid step ``h`` of the losses, ``> 0``.
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating, np.integer)) \
            or not math.isfinite(epsilon) or epsilon < 0:
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon!r}")
    h = as_positive(interval, "interval")
    lap, gau = _check(laplace, gaussian)
    bounds = []
    for up in (False, True):
        parts, p_inf = _components(lap, gau, h, up)
        idx, masses, fold = _compose(parts)
        d = _delta(float(epsilon), idx * h, masses, p_inf)
        bounds.append(min(1.0, d + fold) if up else max(0.0, d - fold))
    return PldBounds(float(bounds[0]), float(bounds[1]), h)


def _epsilon(delta: float, values: np.ndarray, masses: np.ndarray) -> float:
    """The smallest ε >= 0 with Σ_{s > ε} m (1 − e^{ε − s}) <= delta, exactly for the discrete distribution."""
    keep = masses > 0
    s, m = values[keep], masses[keep]
    if len(s) == 0:
        return 0.0
    tail = np.cumsum(m[::-1])[::-1]                                    # A_j = Σ_{i >= j} m_i
    log_b = np.logaddexp.accumulate((np.log(m) - s)[::-1])[::-1]       # ln B_j = ln Σ_{i >= j} m_i e^{-s_i}
    at_grid = tail[1:] - np.exp(s[:-1] + log_b[1:])                    # δ(s_{j-1}) for j = 1, 2, ...
    too_big = np.flatnonzero(at_grid > delta)
    j = int(too_big[-1]) + 1 if len(too_big) else 0                    # ε lies in (s_{j-1}, s_j]
    if tail[j] <= delta:
        return 0.0
    return max(0.0, math.log(float(tail[j]) - delta) - float(log_b[j]))


def pld_epsilon(delta: float, laplace: Iterable[tuple[float, float]] = (), gaussian: Iterable[tuple[float, float]] = (), rtol: float = 1e-3) -> PldBounds:
    """Lower and upper bounds on the exact ε at δ of a sequence of Laplace and Gaussian releases.

    Chapter: *Composing releases*.  A coarse grid (step ``a/16`` for the
    first Laplace release's ``a = Δ/b``, so that its atoms ±a lie on the
    grid) gives a first bracket; the step is then made finer, in proportion,
    until ``upper − lower <= rtol · lower`` (at most four passes; the bracket
    returned is valid whatever its width).  ``upper`` is a valid guarantee;
    ``lower`` is not.

    Parameters
    ----------
    delta : float
        In ``(0, 1)``.
    laplace, gaussian : sequence of (float, float)
        ``(scale b, L1 sensitivity)`` per Laplace release, ``(σ, L2 sensitivity)`` per Gaussian release.
    rtol : float
        The relative width of the bracket, in ``(0, 1)``.

    Examples
    --------
    >>> b = pld_epsilon(1e-6, laplace=[(10.0, 1.0)] * 100)
    >>> bool(b.lower <= b.upper <= 1.001 * b.lower)
    True
    """
    delta = as_probability(delta, "delta")
    rtol = as_probability(rtol, "rtol")
    lap, gau = _check(laplace, gaussian)
    # the grid step: a whole fraction of the first Laplace release's reach a, so that its atoms ±a lie on the
    # grid and only its continuous part is rounded; refined until the bracket is narrow enough
    reach = lap[0][1] / lap[0][0] if lap else 2 * _Z_TAIL * math.sqrt(sum((s / n) ** 2 for n, s in gau))
    h = reach / 16
    for _ in range(_PASSES):
        bounds = []
        for up in (False, True):
            parts, p_inf = _components(lap, gau, h, up)
            idx, masses, fold = _compose(parts)
            target = delta - p_inf - fold if up else delta + fold
            bounds.append(math.inf if target <= 0 else _epsilon(target, idx * h, masses))
        lower, upper = bounds
        if lower == 0.0 or upper - lower <= rtol * lower:
            break
        # the bracket's width is proportional to h: aim at 90 % of the tolerance, at most 64 times finer
        h *= max(0.9 * rtol * lower / (upper - lower), 1 / 64)
        h = reach / math.ceil(reach / h)
    return PldBounds(float(lower), float(upper), float(h))


#: The accountants :func:`compare_accountants` runs, in the order of its columns.
ACCOUNTANTS = ("basic", "advanced", "optimal (KOV)", "zCDP", "RDP", "exact")


def compare_accountants(mechanism: str, noise: float, delta: float, releases: ArrayLike, sensitivity: float = 1.0,
                        rtol: float = 1e-3) -> pd.DataFrame:
    """The ε at δ of J identical releases, for each J in ``releases``, by every accountant of the chapter.

    Chapter: *Composing releases*.  ``mechanism="laplace"``: noise of scale
    ``b = noise`` on a query of L1 sensitivity Δ, an ε₀-DP release with
    ``ε₀ = Δ/b``.  Columns: ``basic`` (``J ε₀``), ``advanced``
    (:func:`dpsens.accounting.advanced_composition` with δ' = δ),
    ``optimal (KOV)`` (the exact optimum over *every* ε₀-DP mechanism),
    ``zCDP`` (ε₀-DP is ε₀²/2-zCDP, Bun and Steinke 2016, Proposition 1.4;
    converted by ρ + 2√(ρ ln(1/δ))), ``RDP`` (Laplace's own Rényi DP, the
    improved conversion over every order) and ``exact`` (the upper end of the
    PLD bracket of :func:`pld_epsilon`).

    ``mechanism="gaussian"``: noise σ = ``noise`` on a query of L2
    sensitivity Δ.  ``basic``: each release's exact ε at δ/J, added up;
    ``advanced``: each release's exact ε at δ/(2J), with δ' = δ/2;
    ``optimal (KOV)`` is NaN (the theorem used here is for pure ε-DP);
    ``zCDP``: ρ = JΔ²/(2σ²); ``RDP``; ``exact``: one Gaussian with
    ``√J Δ/σ`` (:func:`dpsens.accounting.gaussian_composition_epsilon`).
    """
    if mechanism not in ("laplace", "gaussian"):
        raise ValueError(f"mechanism must be 'laplace' or 'gaussian', got {mechanism!r}")
    noise = as_positive(noise, "noise")
    delta = as_probability(delta, "delta")
    sens = as_positive(sensitivity, "sensitivity")
    ks = [as_int(k, "releases", minimum=1) for k in np.atleast_1d(releases)]
    if not ks:
        raise ValueError("releases must hold at least one number of releases J >= 1")
    rows = {}
    for k in ks:
        if mechanism == "laplace":
            eps0 = sens / noise
            lap = [(noise, sens)] * k
            rows[k] = [k * eps0, advanced_composition(eps0, k, delta)[0], optimal_composition_epsilon(eps0, k, delta),
                       zcdp_to_dp(k * eps0 ** 2 / 2, delta), rdp_epsilon(delta, laplace=lap)[0],
                       pld_epsilon(delta, laplace=lap, rtol=rtol).upper]
        else:
            gau = [(noise, sens)] * k
            eps_half = gaussian_epsilon(noise, sens, delta / (2 * k))
            rows[k] = [k * gaussian_epsilon(noise, sens, delta / k),
                       advanced_composition(eps_half, k, delta / 2, delta / (2 * k))[0] if eps_half > 0 else 0.0,
                       math.nan, zcdp_to_dp(k * sens ** 2 / (2 * noise ** 2), delta), rdp_epsilon(delta, gaussian=gau)[0],
                       gaussian_composition_epsilon(delta, gau)]
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(ACCOUNTANTS)).rename_axis("J")
