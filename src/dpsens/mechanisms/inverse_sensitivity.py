"""The inverse sensitivity mechanism (Asi & Duchi 2020) for quantiles: density ∝ exp(−ε len(x; t) / 2).

Chapter: *The exponential mechanism and inverse sensitivity* (the mechanism,
its explorer, and the comparison "which mechanism for a median?").

The mechanism is the exponential mechanism with utility ``−len_f(x; t)``,
the fewest steps to a dataset on which ``f`` equals ``t``
(:mod:`dpsens.inverse`), over the outputs ``t`` in the public interval
``[lower, upper]`` with the uniform base measure.  ``len`` changes by at most
one between neighbours (a route from ``x'`` is one step longer from ``x``), so
the release is ε-DP, for either relation.

For a quantile, ``len`` is constant on each open gap between consecutive
distinct values of ``lower``, the data and ``upper``; the data values
themselves form a finite set of probability zero.  So the release picks a
gap with probability ∝ length · exp(−ε len / 2) (log space, log-sum-exp) and a
point uniformly inside it.  On whole-number data such as the ages the exact
answer is never released; the output lies in a gap next to it.  With a
public finite set of ``candidates`` instead (e.g. the whole years 0..100,
chosen without looking at the data), the base measure is the counting
measure and ``t`` is drawn with probability ∝ exp(−ε len(x; t) / 2) among
them -- the same proof, and on the ages the exact answer comes out.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_positive, as_quantile, check_in_bounds, check_rng
from ..inverse import inverse_len_quantile
from .checks import Size, as_size
from .exponential import exponential_log_probabilities, interval_log_probabilities_sample
from ..relation import Relation, as_relation

__all__ = ["inverse_sensitivity_distribution", "inverse_sensitivity_quantile"]


def inverse_sensitivity_distribution(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                                     neighbors: Relation | str = Relation.BOUNDED,
                                     candidates: ArrayLike | None = None) -> dict:
    """The exact output distribution of the inverse sensitivity mechanism for the ``q`` quantile.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    Parameters
    ----------
    x : array_like
        Non-empty data inside ``[lower, upper]``.
    q : float
        In (0, 1); the quantile is the order statistic of :func:`dpsens.inverse.quantile_rank`.
    epsilon : float
    lower, upper : float
        Public bounds, ``lower < upper``.
    neighbors : Relation or {"bounded", "unbounded"}
        The relation of ``len`` (bounded: ``n`` public; unbounded: ``n`` private).
    candidates : array_like, optional
        A public finite set of outputs inside ``[lower, upper]``; by default
        every point of ``[lower, upper]``.

    Returns
    -------
    dict
        ``left``, ``right`` (the gaps; for ``candidates`` both equal the
        candidates), ``len`` (inside each), ``log_prob``.
    """
    x = as_data(x)
    q = as_quantile(q)
    epsilon = as_positive(epsilon, "epsilon")
    lower, upper = as_bounds(lower, upper)
    if not lower < upper:
        raise ValueError(f"lower must be < upper (the outputs are the points of [lower, upper]), "
                         f"got lower = upper = {lower!r}")
    check_in_bounds(x, lower, upper)
    neighbors = as_relation(neighbors)
    if candidates is not None:
        cands = np.unique(as_data(candidates, "candidates"))
        check_in_bounds(cands, lower, upper, "candidates")
        length = inverse_len_quantile(x, q, cands, lower, upper, neighbors)
        log_prob = exponential_log_probabilities(-length, 1.0, epsilon)
        return {"left": cands, "right": cands, "len": length, "log_prob": log_prob}
    edges = np.unique(np.concatenate(([lower], x, [upper])))
    left, right = edges[:-1], edges[1:]
    length = inverse_len_quantile(x, q, (left + right) / 2, lower, upper, neighbors)
    log_prob = exponential_log_probabilities(-length, 1.0, epsilon, log_base=np.log(right - left))
    return {"left": left, "right": right, "len": length, "log_prob": log_prob}


def inverse_sensitivity_quantile(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                                 rng: np.random.Generator, neighbors: Relation | str = Relation.BOUNDED,
                                 size: Size = None, candidates: ArrayLike | None = None) -> float | np.ndarray:
    """Release the ``q`` quantile of ``x`` by the inverse sensitivity mechanism (ε-DP).

    Chapter: *The exponential mechanism and inverse sensitivity*.

    Returns
    -------
    float, or numpy.ndarray of ``size`` draws.
    """
    neighbors = as_relation(neighbors)
    dist = inverse_sensitivity_distribution(x, q, epsilon, lower, upper, neighbors, candidates)
    rng = check_rng(rng)
    idx = interval_log_probabilities_sample(dist["log_prob"], rng, size)
    left, right = dist["left"][idx], dist["right"][idx]
    out = np.minimum(left + rng.random(size=as_size(size)) * (right - left), right)
    return float(out) if np.ndim(out) == 0 else out
