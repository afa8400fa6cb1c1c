"""Measuring privacy loss by attacking a mechanism: empirical ε, attack ROC, posterior of an adversary.

Chapter: *Why local sensitivity leaks*.

A mechanism ``M`` is ε-DP if for every pair of neighbouring datasets ``x, x'``
and every event ``S``: ``P[M(x) ∈ S] <= e^ε P[M(x') ∈ S] (+ δ)``.  An attacker
who must decide between ``x`` and ``x'`` from one output picks an event ``S``
("say x when the output falls in S"); its true-positive rate ``P[M(x) ∈ S]``
and false-positive rate ``P[M(x') ∈ S]`` then satisfy

    TPR <= e^ε FPR + δ     and     1 − FPR <= e^ε (1 − TPR) + δ.

Running the mechanism many times (seeded) estimates both rates; one-sided
Clopper--Pearson bounds turn the estimates into a *lower bound* on the ε the
mechanism can possibly satisfy -- an audit.  A correct mechanism passes (the
bound stays below the promised ε); a broken one fails.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_nonnegative, as_probability

__all__ = [
    "clopper_pearson", "dp_tpr_bound", "threshold_rates", "privacy_loss_lower_bounds", "audit_epsilon",
    "laplace_event_probability", "posterior_laplace",
]


def _alpha(alpha) -> float:
    return as_probability(alpha, "alpha")


def _delta(delta) -> float:
    """``0`` (pure DP) or a probability strictly between 0 and 1."""
    return 0.0 if np.ndim(delta) == 0 and delta == 0 else as_probability(delta, "delta")


def _scores(scores, name: str) -> np.ndarray:
    """Scores of one dataset: a non-empty array of finite numbers."""
    out = np.asarray(scores, dtype=float).ravel()
    if out.size == 0 or not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must hold at least one score, all finite numbers")
    return out


def _rate(fpr) -> np.ndarray:
    """False-positive rates: finite numbers in ``[0, 1]``."""
    rate = np.asarray(fpr, dtype=float)
    if not np.all(np.isfinite(rate)) or np.any(rate < 0) or np.any(rate > 1):
        raise ValueError(f"fpr must hold rates in [0, 1], got {fpr!r}")
    return rate


def clopper_pearson(successes: ArrayLike, trials: int,
                    alpha: float = 0.05) -> tuple[float | np.ndarray, float | np.ndarray]:
    """Exact two-sided ``1 − alpha`` confidence interval for a binomial proportion.

    Chapter: *Why local sensitivity leaks*.

    Each side has error ``alpha/2``, so ``lo`` alone is a one-sided
    ``1 − alpha/2`` lower bound.  Vectorised over ``successes``.

    Returns
    -------
    (lo, hi) : floats or arrays

    Examples
    --------
    >>> lo, hi = clopper_pearson(0, 100)
    >>> lo, round(hi, 4)
    (0.0, 0.0362)
    """
    from scipy import stats

    alpha = _alpha(alpha)
    k = np.asarray(successes, dtype=float)
    n = float(trials)
    if n <= 0 or np.any(k < 0) or np.any(k > n):
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got successes={successes!r}, "
                         f"trials={trials!r}")
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def dp_tpr_bound(fpr: ArrayLike, epsilon: float, delta: float = 0.0) -> float | np.ndarray:
    """The largest true-positive rate any test can reach at false-positive rate ``fpr`` against an (ε, δ)-DP mechanism.

    Chapter: *Why local sensitivity leaks*.

    ``min(1, e^ε·FPR + δ, 1 − e^{−ε}(1 − δ − FPR))``: the definition applied
    to the attacker's event and, with the datasets swapped, to its complement
    (the two inequalities characterise (ε, δ)-DP: Kairouz, Oh & Viswanath
    2015, cited from the statement).  ``fpr`` must hold rates in ``[0, 1]``,
    ``epsilon >= 0`` and ``delta`` is 0 or in ``(0, 1)``.
    """
    epsilon = as_nonnegative(epsilon, "epsilon")
    delta = _delta(delta)
    fpr = _rate(fpr)
    out = np.minimum.reduce([np.ones_like(fpr), math.exp(epsilon) * fpr + delta,
                             1 - math.exp(-epsilon) * (1 - delta - fpr)])
    out = np.clip(out, 0.0, 1.0)
    return float(out) if out.ndim == 0 else out


def threshold_rates(scores_x: ArrayLike, scores_y: ArrayLike,
                    thresholds: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fractions of ``scores_x`` and ``scores_y`` strictly above each threshold.

    Chapter: *Why local sensitivity leaks*.

    For the attack "say x when the score exceeds c": the first array is the
    true-positive rate, the second the false-positive rate.

    Returns
    -------
    (rate_x, rate_y, count_x, count_y) : arrays
    """
    sx, sy = np.sort(np.asarray(scores_x, float)), np.sort(np.asarray(scores_y, float))
    c = np.asarray(thresholds, float)
    kx = sx.size - np.searchsorted(sx, c, side="right")
    ky = sy.size - np.searchsorted(sy, c, side="right")
    return kx / sx.size, ky / sy.size, kx, ky


def privacy_loss_lower_bounds(scores_x: ArrayLike, scores_y: ArrayLike, thresholds: ArrayLike, alpha: float = 0.05,
                              delta: float = 0.0, two_sided: bool = True) -> dict[str, np.ndarray]:
    """Point estimate and confidence lower bound of the privacy loss of each event ``{score > c}``.

    Chapter: *Why local sensitivity leaks*.

    For the event ``S_c = {score > c}``: point estimate
    ``log(p̂_x / p̂_y)`` (``inf`` if ``p̂_y = 0``) and lower bound
    ``log((lo_x − δ) / hi_y)`` from Clopper--Pearson bounds (each at level
    ``alpha/2``).  With ``two_sided`` (default) also the complement
    ``{score <= c}`` in the other direction, and the larger of the two is
    returned.  A lower bound above the
    promised ε (at this confidence, for this threshold) proves that the
    mechanism is not ε-DP.  The scores must be finite numbers and ``delta``
    0 or in ``(0, 1)`` (a negative ``delta`` would inflate the bound).

    Returns
    -------
    dict with arrays ``threshold``, ``point``, ``lower``.
    """
    alpha, delta = _alpha(alpha), _delta(delta)
    scores_x, scores_y = _scores(scores_x, "scores_x"), _scores(scores_y, "scores_y")
    px, py, kx, ky = threshold_rates(scores_x, scores_y, thresholds)
    nx, ny = np.size(scores_x), np.size(scores_y)
    lo_x, _ = clopper_pearson(kx, nx, alpha)
    _, hi_y = clopper_pearson(ky, ny, alpha)
    # complement events, roles swapped: P_y(score <= c) vs P_x(score <= c)
    lo_yc, _ = clopper_pearson(ny - ky, ny, alpha)
    _, hi_xc = clopper_pearson(nx - kx, nx, alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        point = np.log(px / py)
        lower = np.log(np.clip(lo_x - delta, 0, None) / hi_y)
        if two_sided:
            point = np.maximum(point, np.log((1 - py) / (1 - px)))
            lower = np.maximum(lower, np.log(np.clip(lo_yc - delta, 0, None) / hi_xc))
    lower = np.where(np.isfinite(lower), lower, -np.inf)
    return {"threshold": np.asarray(thresholds, float), "point": point, "lower": np.maximum(lower, 0.0)}


def audit_epsilon(scores_x: ArrayLike, scores_y: ArrayLike, thresholds: ArrayLike,
                  alpha: float = 0.05, delta: float = 0.0) -> dict:
    """One statistically valid lower bound on ε: choose the event on one half, measure it on the other.

    Chapter: *Why local sensitivity leaks*.

    Candidate events are ``{score > c}`` and ``{score < c}`` for every
    threshold ``c``, each compared in both directions (likelier under x than
    under x', and the reverse) -- DP bounds all four.  The event with the
    largest lower bound on the first half of each sample is fixed, then its
    lower bound is evaluated once on the second halves.  Choosing on fresh
    data keeps the confidence level honest (no maximum over many tests); the
    result holds with probability at least ``1 − alpha``.  The scores must
    be finite numbers and ``delta`` 0 or in ``(0, 1)``.

    Returns
    -------
    dict with ``epsilon_lower``, ``threshold``, ``event`` (``">"`` or
    ``"<"``), ``direction`` (``"x/x'"`` or ``"x'/x"``) and ``point`` (the
    estimate on the second half).
    """
    sx, sy = _scores(scores_x, "scores_x"), _scores(scores_y, "scores_y")
    delta = _delta(delta)
    c = np.asarray(thresholds, float).ravel()
    hx, hy = sx.size // 2, sy.size // 2
    if hx < 1 or hy < 1:
        raise ValueError("need at least two scores from each dataset")
    if c.size == 0 or not np.all(np.isfinite(c)):
        raise ValueError(f"thresholds must hold at least one finite number, got {thresholds!r}")
    # (event, direction, sign, first sample, second sample) -- {score < c} is {-score > -c}
    options = [(">", "x/x'", 1.0, sx, sy), (">", "x'/x", 1.0, sy, sx),
               ("<", "x/x'", -1.0, sx, sy), ("<", "x'/x", -1.0, sy, sx)]
    best: tuple | None = None
    for event, direction, sign, a, b in options:
        ha, hb = a.size // 2, b.size // 2
        lower = privacy_loss_lower_bounds(sign * a[:ha], sign * b[:hb], sign * c, alpha, delta,
                                          two_sided=False)["lower"]
        i = int(np.argmax(lower))
        if best is None or lower[i] > best[0]:
            best = (lower[i], i, event, direction, sign, a, b)
    assert best is not None                       # four options, each a candidate
    _, i, event, direction, sign, a, b = best
    ha, hb = a.size // 2, b.size // 2
    second = privacy_loss_lower_bounds(sign * a[ha:], sign * b[hb:], [sign * c[i]], alpha, delta, two_sided=False)
    return {"epsilon_lower": float(second["lower"][0]), "threshold": float(c[i]), "event": event,
            "direction": direction, "point": float(second["point"][0])}


def laplace_event_probability(loc: float, scale: float, center: float, c: ArrayLike) -> float | np.ndarray:
    """``P(|Z − center| > c)`` for ``Z = loc + Lap(scale)``; ``scale = 0`` is a point mass at ``loc``.

    Chapter: *Why local sensitivity leaks*.

    ``scale`` must be a finite number ``>= 0``.
    """
    scale = as_nonnegative(scale, "scale")
    c = np.asarray(c, float)
    if scale == 0:
        out = (np.abs(loc - center) > c).astype(float)
    else:
        def cdf(t):
            z = (t - loc) / scale
            return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))

        def sf(t):
            z = (t - loc) / scale
            return np.where(z > 0, 0.5 * np.exp(-np.maximum(z, 0)), 1 - 0.5 * np.exp(np.minimum(z, 0)))
        out = np.clip(sf(center + c) + cdf(center - c), 0.0, 1.0)   # two tails, no cancellation
    return float(out) if out.ndim == 0 else out


def posterior_laplace(t: float, locs: ArrayLike, scales: ArrayLike, prior: ArrayLike | None = None) -> np.ndarray:
    """Posterior over candidate datasets after seeing one release ``t = f(x) + Lap(scale_x)``.

    Chapter: *Why local sensitivity leaks*.

    Candidate ``i`` releases ``locs[i] + Lap(scales[i])``; a scale of 0 means
    the exact answer (a point mass).  If ``t`` equals the answer of some
    point-mass candidates, only they keep posterior mass (a density is
    infinitely smaller than a point mass); otherwise every point-mass candidate
    is excluded and the others are weighted by their Laplace densities.

    ``locs`` and ``scales`` (finite, ``>= 0``) give one entry per candidate;
    ``prior`` (default uniform) must be a probability vector over them:
    non-negative, of the same length, summing to 1.

    Returns
    -------
    numpy.ndarray of posterior probabilities (sums to 1).
    """
    t = float(t)
    if not math.isfinite(t):
        raise ValueError(f"t must be a finite number (the released value), got {t!r}")
    locs, scales = np.asarray(locs, float).ravel(), np.asarray(scales, float).ravel()
    if locs.size == 0 or scales.shape != locs.shape:
        raise ValueError(f"locs and scales must be non-empty and of one length, got {locs.size} and {scales.size}")
    if not np.all(np.isfinite(locs)) or not np.all(np.isfinite(scales)) or np.any(scales < 0):
        raise ValueError("locs must be finite numbers and scales finite numbers >= 0")
    prior = np.full(locs.size, 1.0 / locs.size) if prior is None else np.asarray(prior, float).ravel()
    if (prior.shape != locs.shape or not np.all(np.isfinite(prior)) or np.any(prior < 0)
            or not np.isclose(prior.sum(), 1.0)):
        raise ValueError(f"prior must be a probability vector over the {locs.size} candidates "
                         f"(non-negative, summing to 1), got {prior!r}")
    point = scales == 0
    hit = point & (locs == t)
    if np.any(hit):
        w = np.where(hit, prior, 0.0)
        return w / w.sum()
    s = np.where(point, 1.0, scales)
    logw = np.where(point, -np.inf, np.log(prior) - np.log(2 * s) - np.abs(t - locs) / s)
    logw -= np.max(logw)
    w = np.exp(logw)
    return w / w.sum()

