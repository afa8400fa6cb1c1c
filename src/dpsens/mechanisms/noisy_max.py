"""Private selection: report-noisy-max with Laplace, exponential or Gumbel noise, and permute-and-flip.

Chapter: *Testing privately, and releasing what is stable*.  Each mechanism
picks one of ``d`` candidates from their scores ``U_1, ..., U_d`` (each
score moving by at most Δ between neighbours).  Report-noisy-max adds
independent noise to every score and reports the index of the largest;
permute-and-flip (McKenna and Sheldon 2020) visits the candidates in a
random order and stops at candidate ``i`` with probability
``exp(ε (U_i − U*) / (2Δ))``, ``U*`` the best score.  Noise scales: ``2Δ/ε``
(``Δ/ε`` when the scores are monotone: between neighbours they all move in
the same direction, as counts do when a record is added or removed).

Exact output distributions: the exponential mechanism and report-noisy-max
with Gumbel noise in closed form (they are the same distribution);
permute-and-flip by a sum over the subsets of the candidates visited first;
report-noisy-max with Laplace or exponential noise by the integral over the
winning noisy score, in closed form (:mod:`.piecewise`).
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_positive, check_rng
from .checks import as_size
from .exponential import exponential_log_probabilities
from .noise import laplace_noise
from .piecewise import exponential_cdf, exponential_pdf, integrate, laplace_cdf, laplace_pdf_factor

__all__ = ["RNM_NOISES", "selection_scale", "report_noisy_max", "permute_and_flip", "selection_distribution",
           "expected_error"]

#: The noises of report-noisy-max.
RNM_NOISES = ("laplace", "exponential", "gumbel")

#: The mechanisms :func:`selection_distribution` knows.
_MECHANISMS = ("exponential-mechanism", "permute-and-flip", "rnm-laplace", "rnm-exponential", "rnm-gumbel")


def _scores(scores) -> np.ndarray:
    g = np.asarray(scores, dtype=float)
    if g.ndim != 1 or g.size < 1 or not np.all(np.isfinite(g)):
        raise ValueError(f"scores must be a non-empty 1-D sequence of finite numbers, got {scores!r}")
    return g


def selection_scale(epsilon: float, sensitivity: float = 1.0, monotone: bool = False) -> float:
    """The noise scale ``2Δ/ε`` (``Δ/ε`` for monotone scores) of every selection mechanism here.

    Chapter: *Testing privately, and releasing what is stable*.

    >>> selection_scale(0.5)
    4.0
    >>> selection_scale(0.5, monotone=True)
    2.0
    """
    return (1.0 if monotone else 2.0) * as_positive(sensitivity, "sensitivity") / as_positive(epsilon, "epsilon")


def report_noisy_max(scores: ArrayLike, epsilon: float, rng: np.random.Generator, sensitivity: float = 1.0,
                     noise: str = "laplace", monotone: bool = False, size: int | None = None) -> int | np.ndarray:
    """The index of the largest noisy score (report-noisy-max).

    Chapter: *Testing privately, and releasing what is stable*.  ε-DP with
    noise of scale :func:`selection_scale` for ``noise`` = ``"laplace"``
    (proved in the chapter), ``"exponential"`` (the same distribution as
    permute-and-flip) or ``"gumbel"`` (the same distribution as the
    exponential mechanism).

    Parameters
    ----------
    scores : sequence of float
    epsilon : float
    rng : numpy.random.Generator
    sensitivity : float
        Δ, the largest change of any score between neighbours.
    noise : {"laplace", "exponential", "gumbel"}
    monotone : bool
        The scores move in the same direction between any two neighbours.
    size : int, optional
        Number of independent draws (an array of indices); one ``int`` by default.
    """
    g = _scores(scores)
    if noise not in RNM_NOISES:
        raise ValueError(f"noise must be one of {RNM_NOISES}, got {noise!r}")
    b = selection_scale(epsilon, sensitivity, monotone)
    rng = check_rng(rng)
    size = as_size(size)
    shape = (g.size,) if size is None else (size, g.size)
    if noise == "laplace":
        z = laplace_noise(b, rng, shape)
    elif noise == "exponential":
        z = rng.exponential(b, size=shape)
    else:
        z = rng.gumbel(0.0, b, size=shape)
    idx = np.argmax(g + z, axis=-1)
    return int(idx) if size is None else idx


def permute_and_flip(scores: ArrayLike, epsilon: float, rng: np.random.Generator, sensitivity: float = 1.0,
                     monotone: bool = False, size: int | None = None) -> int | np.ndarray:
    """Permute-and-flip (McKenna and Sheldon 2020): the first candidate, in a random order, whose coin lands heads.

    Chapter: *Testing privately, and releasing what is stable*.  Candidate
    ``i``'s coin lands heads with probability ``exp((U_i − U*)/b)``, ``b``
    from :func:`selection_scale`; the best candidate's always does, so the
    walk stops.  ε-DP (McKenna and Sheldon 2020, cited from the statement in
    their paper).
    """
    g = _scores(scores)
    b = selection_scale(epsilon, sensitivity, monotone)
    rng = check_rng(rng)
    size = as_size(size)
    p = np.exp((g - g.max()) / b)
    n = 1 if size is None else size
    out = np.empty(n, dtype=int)
    for k in range(n):
        for i in rng.permutation(g.size):
            if rng.random() < p[i]:
                out[k] = i
                break
    return int(out[0]) if size is None else out


def _pf_distribution(p: np.ndarray) -> np.ndarray:
    """P(permute-and-flip outputs i) = p_i · Σ_{S ⊆ others} |S|! (d−1−|S|)! / d! · ∏_{j ∈ S} (1 − p_j):
    the candidates ``S`` come before ``i`` in the order and all flip tails."""
    d = p.size
    out = np.zeros(d)
    for i in range(d):
        others = np.delete(1.0 - p, i)
        # elementary symmetric sums e_k of the others' tail probabilities
        e = np.zeros(d)
        e[0] = 1.0
        for t in others:
            e[1:] = e[1:] + t * e[:-1]
        weights = np.array([math.factorial(k) * math.factorial(d - 1 - k) / math.factorial(d) for k in range(d)])
        out[i] = p[i] * float(np.dot(weights, e))
    return out


def selection_distribution(scores: ArrayLike, epsilon: float, mechanism: str, sensitivity: float = 1.0,
                           monotone: bool = False) -> np.ndarray:
    """The exact probability that ``mechanism`` selects each candidate.

    Chapter: *Testing privately, and releasing what is stable*.

    Parameters
    ----------
    scores : sequence of float
    epsilon : float
    mechanism : str
        ``"exponential-mechanism"`` (probability ``∝ exp(U_i/b)``),
        ``"permute-and-flip"``, ``"rnm-laplace"``, ``"rnm-exponential"`` or
        ``"rnm-gumbel"``, all with the scale ``b`` of :func:`selection_scale`.
    sensitivity : float
    monotone : bool

    Returns
    -------
    numpy.ndarray
        Probabilities, one per candidate, summing to 1 (up to rounding).

    Examples
    --------
    >>> selection_distribution([1.0, 1.0], 1.0, "permute-and-flip").tolist()
    [0.5, 0.5]
    """
    g = _scores(scores)
    if mechanism not in _MECHANISMS:
        raise ValueError(f"mechanism must be one of {_MECHANISMS}, got {mechanism!r}")
    b = selection_scale(epsilon, sensitivity, monotone)
    if mechanism in ("exponential-mechanism", "rnm-gumbel"):
        # exp(g/b) = exp(c ε g / Δ) with c = 1/2, or 1 if monotone
        return np.exp(exponential_log_probabilities(g, sensitivity, epsilon, monotone=monotone))
    if mechanism == "permute-and-flip":
        return _pf_distribution(np.exp((g - g.max()) / b))
    pdf, cdf = (laplace_pdf_factor, laplace_cdf) if mechanism == "rnm-laplace" else (exponential_pdf, exponential_cdf)
    out = np.array([integrate([pdf(g[i], b)] + [cdf(g[j], b) for j in range(g.size) if j != i])
                    for i in range(g.size)])
    return out


def expected_error(scores: ArrayLike, probabilities: ArrayLike) -> float:
    """``Σ_i P(i) (U* − U_i)``: how far below the best score the selected candidate's score is, on average.

    Chapter: *Testing privately, and releasing what is stable*.

    >>> expected_error([3.0, 1.0], [0.75, 0.25])
    0.5
    """
    g = _scores(scores)
    p = np.asarray(probabilities, dtype=float)
    if p.shape != g.shape or np.any(p < 0) or not math.isclose(float(p.sum()), 1.0, rel_tol=1e-9, abs_tol=1e-9):
        raise ValueError("probabilities must be a probability vector with one entry per score")
    return float(np.dot(p, g.max() - g))
