"""Noise calibrated to the smooth sensitivity: the smoothing parameter β and the mechanism.

Chapter: *Smooth sensitivity* (also used by *Sample and aggregate* for
comparison).  The smooth sensitivity itself is computed by :mod:`dpsens.smooth`.
"""
from __future__ import annotations

import math

from .._validate import as_bounds, as_data, as_positive, as_probability, check_in_bounds, check_relation
from ..queries import check_query
from ..smooth import smooth_sensitivity
from .checks import check_rng
from .heavy_tailed import heavy_tailed_constants, sample_polynomial_tail

__all__ = ["smooth_sensitivity_beta", "smooth_sensitivity_mechanism"]


def smooth_sensitivity_beta(epsilon, delta=None, noise: str = "laplace", gamma: float = 4.0) -> float:
    """Smoothing parameter β of the smooth-sensitivity framework.

    Chapter: *Smooth sensitivity*.

    ``noise="laplace"``: ``β = ε / (2 ln(2/δ))`` for (ε, δ)-DP (needs δ).
    ``noise="cauchy"``: ``β = ε / (2(γ+1))`` for ε-DP with noise
    ``∝ 1/(1+|z|^γ)`` (δ is ignored), Nissim, Raskhodnikova & Smith 2007, Cor. 2.4.
    """
    epsilon = as_positive(epsilon, "epsilon")
    if noise == "laplace":
        if delta is None:
            raise ValueError("delta is required for noise='laplace' (the Laplace variant is (epsilon, delta)-DP)")
        delta = as_probability(delta, "delta")
        return epsilon / (2.0 * math.log(2.0 / delta))
    if noise == "cauchy":
        return heavy_tailed_constants(epsilon, gamma)[1]
    raise ValueError(f"noise must be 'laplace' or 'cauchy', got {noise!r}")


def smooth_sensitivity_mechanism(x, query, epsilon, delta, lower, upper, rng, noise: str = "laplace",
                                 neighbors: str = "bounded", gamma: float = 4.0, details: bool = False):
    """Release ``query(x)`` with noise calibrated to its β-smooth sensitivity.

    Chapter: *Smooth sensitivity*.

    * ``noise="laplace"`` -- (ε, δ)-DP: ``β = ε/(2 ln(2/δ))``,
      ``S = dpsens.smooth_sensitivity(x, query, β, lower, upper, neighbors)``,
      release ``query(x) + Lap(2S/ε)``.
    * ``noise="cauchy"`` -- pure ε-DP (``delta`` may be None): ``β = ε/(2(γ+1))``
      and release ``query(x) + 2(γ+1)·S/ε · Z`` with ``Z`` of density
      ``∝ 1/(1+|z|^γ)`` (default γ = 4: noise ``10 S/ε · Z``, variance of Z = 1).

    Parameters
    ----------
    x : array_like
        Data inside ``[lower, upper]``.
    query : str
    epsilon : float
    delta : float or None
    lower, upper : float
    rng : numpy.random.Generator
    noise : {"laplace", "cauchy"}
    gamma : float
        Tail exponent of the heavy-tailed noise, ``> 1``.
    neighbors : {"bounded", "unbounded"}
        Relation of the smooth sensitivity (default ``"bounded"``, as in :mod:`dpsens.smooth`).
    details : bool
        If true return a dict with ``released``, ``beta``, ``smooth_sensitivity``,
        ``noise_scale``.

    Returns
    -------
    float, or dict.
    """
    name, f = check_query(query, allow_callable=False)
    lower, upper = as_bounds(lower, upper)
    x = as_data(x)
    check_in_bounds(x, lower, upper)
    check_relation(neighbors)
    beta = smooth_sensitivity_beta(epsilon, delta, noise=noise, gamma=gamma)
    rng = check_rng(rng)
    s = float(smooth_sensitivity(x, name, beta, lower, upper, neighbors))
    epsilon = float(epsilon)
    if noise == "laplace":
        scale = 2.0 * s / epsilon
        z = rng.laplace(0.0, 1.0)
    else:
        alpha = heavy_tailed_constants(epsilon, gamma)[0]
        scale = s / alpha
        z = sample_polynomial_tail(rng, gamma)
    released = float(f(x) + scale * z)
    if details:
        return {"released": released, "beta": beta, "smooth_sensitivity": s, "noise_scale": scale}
    return released
