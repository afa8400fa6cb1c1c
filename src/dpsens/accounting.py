"""Composition theorems in closed form: advanced, optimal (Kairouz et al.), Rényi DP and zCDP, exact Gaussian.

Chapter: *Composing releases, and counting the budget exactly*, which states
and proves (or cites) each formula here.  Everything is a function of the
per-release parameters and the number of releases J (``releases``; the book
keeps ``k`` for the group size); the exact privacy
loss distribution of Laplace releases is :mod:`dpsens.pld`.

* :func:`advanced_composition` -- Dwork, Rothblum and Vadhan (2010): a bound.
* :func:`optimal_composition_delta`, :func:`optimal_composition_epsilon` --
  the exact privacy profile of J ε-DP mechanisms composed (Kairouz, Oh and
  Viswanath 2015), computed in log space so that J = 1000 is exact to
  round-off.
* :func:`laplace_rdp`, :func:`gaussian_rdp`, :func:`rdp_epsilon` -- Rényi DP
  (Mironov 2017) of Laplace and Gaussian releases, composed by adding, and
  converted to (ε, δ) by the standard or the improved conversion
  (Canonne, Kamath and Steinke 2020; Balle et al. 2020).
* :func:`zcdp_epsilon_improved` -- ρ-zCDP converted through every Rényi order.
* :func:`gaussian_composition_epsilon` -- the exact ε of a sequence of
  Gaussian releases: one Gaussian with ``Δ/σ = sqrt(Σ (Δ_i/σ_i)²)``
  (Dong, Roth and Su 2022), then the analytic Gaussian profile.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from scipy import optimize, special

from ._validate import as_int, as_positive, as_probability
from .mechanisms.gaussian import gaussian_epsilon

__all__ = ["advanced_composition", "optimal_composition_delta", "optimal_composition_epsilon", "laplace_rdp",
           "gaussian_rdp", "rdp_epsilon", "zcdp_epsilon_improved", "gaussian_composition_epsilon",
           "releases_as_pairs", "CONVERSIONS"]

#: The two RDP -> (ε, δ) conversions: Mironov (2017) Proposition 3, and the improved one of
#: Canonne, Kamath and Steinke (2020) / Balle et al. (2020).
CONVERSIONS = ("standard", "improved")


def _log1mexp(x: np.ndarray) -> np.ndarray:
    """``log(1 - e^x)`` for ``x <= 0``, accurate near 0 and for very negative ``x``."""
    x = np.asarray(x, dtype=float)
    return np.where(x > -math.log(2), np.log(-np.expm1(np.minimum(x, -1e-300))), np.log1p(-np.exp(x)))


def advanced_composition(epsilon: float, releases: int, delta_prime: float,
                         delta: float = 0.0) -> tuple[float, float]:
    """The advanced composition bound for ``releases`` = J adaptively chosen (ε, δ)-DP mechanisms.

    Chapter: *Composing releases*.  Dwork, Rothblum and Vadhan (2010); Dwork
    and Roth (2014), Theorem 3.20: the composition is (ε', Jδ + δ')-DP with
    ``ε' = ε sqrt(2J ln(1/δ')) + J ε (e^ε − 1)``.  A bound, not exact.
    (The book keeps ``k`` for the group size; J counts releases.)

    Parameters
    ----------
    epsilon : float
        The ε of each mechanism, ``> 0``.
    releases : int
        The number J of mechanisms, ``>= 1``.
    delta_prime : float
        The extra slack δ' in ``(0, 1)``.
    delta : float, optional
        The δ of each mechanism, in ``[0, 1)`` (0: pure ε-DP mechanisms).

    Returns
    -------
    (float, float)
        ``(ε', J δ + δ')``.

    Examples
    --------
    >>> round(advanced_composition(0.1, 100, 1e-6)[0], 4)
    6.3082
    """
    epsilon = as_positive(epsilon, "epsilon")
    k = as_int(releases, "releases", minimum=1)
    delta_prime = as_probability(delta_prime, "delta_prime")
    delta = 0.0 if delta == 0 else as_probability(delta, "delta")
    eps_total = epsilon * math.sqrt(2 * k * math.log(1 / delta_prime)) + k * epsilon * math.expm1(epsilon)
    return eps_total, k * delta + delta_prime


def _rr_terms(epsilon: float, k: int):
    """Log P-masses and log Q-masses of the k-fold randomised response, by the number l of 'flips',
    for l with privacy loss (k - 2l) ε > 0, together with those losses."""
    ls = np.arange(0, k // 2 + 1, dtype=float)
    ls = ls[(k - 2 * ls) > 0]
    log_binom = special.gammaln(k + 1) - special.gammaln(ls + 1) - special.gammaln(k - ls + 1)
    log_norm = k * (epsilon + math.log1p(math.exp(-epsilon)))         # k ln(1 + e^ε)
    log_p = log_binom + (k - ls) * epsilon - log_norm
    log_q = log_binom + ls * epsilon - log_norm
    return log_p, log_q, (k - 2 * ls) * epsilon


def optimal_composition_delta(epsilon: float, releases: int, epsilon_total: float) -> float:
    """The exact smallest δ for which every composition of ``releases`` = J ε-DP mechanisms is (ε_total, δ)-DP.

    Chapter: *Composing releases*.  Kairouz, Oh and Viswanath (2015),
    Theorem 3.3: J randomised responses are the worst case, so the answer is
    their privacy profile::

        δ(ε_total) = Σ_{l : (J−2l)ε > ε_total} C(J, l) (e^{(J−l)ε} − e^{ε_total + lε}) / (1 + e^ε)^J

    (at ``ε_total = (J − 2i)ε`` this is their theorem's δ_i).  Each term is
    computed in log space and summed with log-sum-exp: exact to round-off
    for J in the thousands.

    Parameters
    ----------
    epsilon : float
        The ε of each mechanism, ``> 0``.
    releases : int
        J, ``>= 1``.
    epsilon_total : float
        ``>= 0``.

    Examples
    --------
    >>> round(optimal_composition_delta(math.log(2), 1, 0.0), 12)     # (2 - 1)/(1 + 2)
    0.333333333333
    """
    epsilon = as_positive(epsilon, "epsilon")
    k = as_int(releases, "releases", minimum=1)
    if isinstance(epsilon_total, bool) or not isinstance(epsilon_total, (int, float, np.floating, np.integer)) \
            or not math.isfinite(epsilon_total) or epsilon_total < 0:
        raise ValueError(f"epsilon_total must be a finite number >= 0, got {epsilon_total!r}")
    log_p, _, loss = _rr_terms(epsilon, k)
    keep = loss > epsilon_total
    if not keep.any():
        return 0.0
    log_terms = log_p[keep] + _log1mexp(epsilon_total - loss[keep])
    return float(np.exp(special.logsumexp(log_terms)))


def optimal_composition_epsilon(epsilon: float, releases: int, delta: float) -> float:
    """The exact smallest ε_total for which every composition of ``releases`` = J ε-DP mechanisms is (ε_total, δ)-DP.

    Chapter: *Composing releases*.  The inverse of
    :func:`optimal_composition_delta`, in closed form: between two
    consecutive losses ``(J−2i)ε`` the profile is ``A_i − e^{ε_total} B_i``
    (``A_i``, ``B_i`` the P- and Q-masses of the ``i`` largest losses), so
    ``ε_total = ln((A_i − δ) / B_i)`` on the piece that holds δ.

    Examples
    --------
    >>> round(optimal_composition_epsilon(0.1, 100, 1e-6), 4)
    4.7746
    """
    epsilon = as_positive(epsilon, "epsilon")
    k = as_int(releases, "releases", minimum=1)
    delta = as_probability(delta, "delta")
    log_p, log_q, loss = _rr_terms(epsilon, k)
    log_a = np.logaddexp.accumulate(log_p)    # log_a[i - 1] = ln A_i, the P-mass of the i largest losses
    log_b = np.logaddexp.accumulate(log_q)    # log_b[i - 1] = ln B_i, their Q-mass
    if math.exp(log_a[-1]) - math.exp(log_b[-1]) <= delta:                  # δ(0) is already small enough
        return 0.0
    # δ at the loss values loss[1], loss[2], ...: A_i - e^{loss[i]} B_i, increasing in i
    at_loss = np.exp(log_a[:-1]) - np.exp(loss[1:] + log_b[:-1])
    above = np.flatnonzero(at_loss > delta)
    i = int(above[0]) + 1 if len(above) else len(loss)      # the piece (loss[i], loss[i-1]] holds the answer
    return max(0.0, math.log(math.exp(float(log_a[i - 1])) - delta) - float(log_b[i - 1]))


def laplace_rdp(scale: float, sensitivity: float, order: float) -> float:
    """The Rényi divergence of order ``order`` between Laplace noise at two points ``sensitivity`` apart.

    Chapter: *Composing releases*.  Mironov (2017), Proposition 6 (exact for
    the Laplace mechanism): with ``a = sensitivity/scale`` and order ω > 1,
    ``(1/(ω−1)) ln( ω/(2ω−1) e^{(ω−1)a} + (ω−1)/(2ω−1) e^{−ωa} )``.
    """
    b = as_positive(scale, "scale")
    delta_f = as_positive(sensitivity, "sensitivity")
    w = _as_order(order)
    a = delta_f / b
    log_mix = np.logaddexp(math.log(w / (2 * w - 1)) + (w - 1) * a, math.log((w - 1) / (2 * w - 1)) - w * a)
    return float(log_mix / (w - 1))


def gaussian_rdp(sigma: float, sensitivity: float, order: float) -> float:
    """The Rényi divergence of order ω of Gaussian noise: ``ω Δ₂² / (2σ²)`` (ρ ω with ρ of the zCDP).

    Chapter: *Composing releases* (proved in *Many answers at once*).
    """
    sigma = as_positive(sigma, "sigma")
    delta_f = as_positive(sensitivity, "sensitivity")
    return _as_order(order) * delta_f ** 2 / (2 * sigma ** 2)


def _as_order(order) -> float:
    if isinstance(order, bool) or not isinstance(order, (int, float, np.floating, np.integer)) \
            or not math.isfinite(order) or order <= 1:
        raise ValueError(f"order must be a finite number > 1 (a Rényi order), got {order!r}")
    return float(order)


def releases_as_pairs(releases: Iterable[tuple[float, float]], name: str) -> list[tuple[float, float]]:
    """Check a list of ``(scale, sensitivity)`` pairs (Laplace) or ``(sigma, sensitivity)`` pairs (Gaussian).

    Chapter: *Composing releases*.  Both numbers must be finite and > 0: an
    infinite sensitivity has no noise that makes it private.
    """
    pairs = []
    for item in releases:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"{name} must be a list of (noise, sensitivity) pairs, got the item {item!r}")
        noise, sens = item
        if isinstance(sens, (int, float)) and not isinstance(sens, bool) and math.isinf(sens):
            raise ValueError(f"{name}: the sensitivity is infinite, so no noise makes the release private; "
                             "bound it first (clip the values)")
        pairs.append((as_positive(noise, f"{name}: the noise"), as_positive(sens, f"{name}: the sensitivity")))
    return pairs


def _rdp_to_dp(rdp: float, order: float, log_delta: float, conversion: str) -> float:
    if conversion == "standard":                      # Mironov (2017), Proposition 3
        return rdp - log_delta / (order - 1)
    return rdp + math.log1p(-1 / order) - (log_delta + math.log(order)) / (order - 1)


def rdp_epsilon(delta: float, laplace: Iterable[tuple[float, float]] = (), gaussian: Iterable[tuple[float, float]] = (), conversion: str = "improved",
                orders: Iterable[float] | None = None) -> tuple[float, float]:
    """The ε at δ from Rényi DP accounting of a sequence of Laplace and Gaussian releases.

    Chapter: *Composing releases*.  The Rényi divergences of the releases at
    one order ω add up (Mironov 2017, Proposition 1); the sum converts to
    (ε, δ) by ``conversion``:

    * ``"standard"``: ``ε = R(ω) + ln(1/δ)/(ω − 1)`` (Mironov 2017, Proposition 3);
    * ``"improved"``: ``ε = R(ω) + ln(1 − 1/ω) − (ln δ + ln ω)/(ω − 1)``
      (Canonne, Kamath and Steinke 2020; Balle et al. 2020),

    minimised over ω: over ``orders`` if given (e.g. ``dp_accounting``'s),
    else over every ω > 1 (a bounded scalar minimisation in ``ln(ω − 1)``,
    started from the best of a grid).  A bound, not exact.

    Parameters
    ----------
    delta : float
        In ``(0, 1)``.
    laplace, gaussian : sequence of (float, float)
        ``(scale b, L1 sensitivity)`` per Laplace release, ``(σ, L2 sensitivity)`` per Gaussian release.
    conversion : {"standard", "improved"}
    orders : sequence of float, optional
        Rényi orders, each ``> 1``.

    Returns
    -------
    (float, float)
        ε and the order that gives it.
    """
    delta = as_probability(delta, "delta")
    lap = releases_as_pairs(laplace, "laplace")
    gau = releases_as_pairs(gaussian, "gaussian")
    if not lap and not gau:
        raise ValueError("give at least one release (laplace=[(scale, sensitivity), ...] or gaussian=[...])")
    if conversion not in CONVERSIONS:
        raise ValueError(f"conversion must be one of {CONVERSIONS}, got {conversion!r}")
    log_delta = math.log(delta)
    rho = sum(s ** 2 / (2 * n ** 2) for n, s in gau)
    lap_counts: dict[float, int] = {}
    for b, s in lap:
        lap_counts[s / b] = lap_counts.get(s / b, 0) + 1

    def eps_at(order: float) -> float:
        total = rho * order + sum(c * laplace_rdp(1.0, a, order) for a, c in lap_counts.items())
        return _rdp_to_dp(total, order, log_delta, conversion)

    if orders is not None:
        given = [_as_order(o) for o in orders]
        values = [eps_at(o) for o in given]
        best = int(np.argmin(values))
        return max(0.0, values[best]), given[best]
    grid = 1 + np.exp(np.linspace(math.log(1e-3), math.log(1e5), 400))
    values = [eps_at(float(o)) for o in grid]
    j = int(np.argmin(values))
    lo, hi = math.log(grid[max(j - 1, 0)] - 1), math.log(grid[min(j + 1, len(grid) - 1)] - 1)
    res = optimize.minimize_scalar(lambda t: eps_at(1 + math.exp(t)), bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-10})
    order, eps = (1 + math.exp(res.x), float(res.fun)) if res.fun < values[j] else (float(grid[j]), values[j])
    return max(0.0, eps), order


def zcdp_epsilon_improved(rho: float, delta: float) -> float:
    """ρ-zCDP converted to (ε, δ) through every Rényi order with the improved conversion.

    Chapter: *Composing releases*.  ρ-zCDP is Rényi DP with ``R(ω) = ρ ω`` at
    every order; minimising the improved conversion over ω gives a smaller ε
    than ``ρ + 2 sqrt(ρ ln(1/δ))`` (:func:`dpsens.mechanisms.zcdp_to_dp`).
    """
    rho = as_positive(rho, "rho")
    delta = as_probability(delta, "delta")
    log_delta = math.log(delta)

    def eps_at(t: float) -> float:
        order = 1 + math.exp(t)
        return _rdp_to_dp(rho * order, order, log_delta, "improved")

    guess = math.log(math.sqrt(math.log(1 / delta) / rho))        # the standard conversion's best ω - 1, roughly
    res = optimize.minimize_scalar(eps_at, bounds=(guess - 8, guess + 8), method="bounded", options={"xatol": 1e-12})
    return max(0.0, float(res.fun))


def gaussian_composition_epsilon(delta: float, gaussian: Iterable[tuple[float, float]]) -> float:
    """The exact ε at δ of a sequence of Gaussian releases (Gaussian DP composition).

    Chapter: *Composing releases*.  Release ``i`` with noise σ_i on a query of
    L2 sensitivity Δ_i is, in the worst case, a test between ``N(0, 1)`` and
    ``N(Δ_i/σ_i, 1)``; composed, between ``N(0, 1)`` and ``N(ϑ, 1)`` with
    ``ϑ = sqrt(Σ (Δ_i/σ_i)²)`` (Dong, Roth and Su 2022, Corollary 3.3).  Its
    exact profile is the analytic Gaussian's with ``Δ/σ = ϑ``
    (:func:`dpsens.mechanisms.gaussian_epsilon`).

    Examples
    --------
    >>> round(gaussian_composition_epsilon(1e-6, [(10.0, 1.0)] * 4), 4)
    0.8341
    """
    delta = as_probability(delta, "delta")
    pairs = releases_as_pairs(gaussian, "gaussian")
    if not pairs:
        raise ValueError("gaussian must hold at least one (sigma, sensitivity) pair")
    nu = math.sqrt(sum((s / n) ** 2 for n, s in pairs))
    return gaussian_epsilon(1.0, nu, delta)
