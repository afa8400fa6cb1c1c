"""Mechanisms, one module per family: Laplace, Gaussian, heavy-tailed, PTR, smooth, sample-and-aggregate, exponential, inverse sensitivity.

Chapters: every chapter that adds noise -- the Laplace mechanism from the
*Introduction* on, and the part "Using local sensitivity safely" (*Why local
sensitivity leaks*, *Propose-test-release*, *Smooth sensitivity*, *Sample and
aggregate*), *The exponential mechanism and inverse sensitivity*, and
*Testing privately, and releasing what is stable* (sparse vector, the stable
histogram, private selection: used as modules, e.g.
``from dpsens.mechanisms import sparse_vector``); each
module's docstring names its own.

Every mechanism takes a seeded :class:`numpy.random.Generator` as ``rng`` and
draws all of its randomness from it, so that a figure or a test can be
reproduced exactly.  Inputs are validated: ``epsilon > 0``, ``0 < delta < 1``,
``lower <= upper`` and data inside ``[lower, upper]`` (the checks are in
:mod:`dpsens.mechanisms.checks`).

==================================  ==========================================================
module                              holds
==================================  ==========================================================
:mod:`~dpsens.mechanisms.laplace`   Laplace mechanism and its density, noisy mean (sum / count),
                                    the broken local-sensitivity variant
:mod:`~dpsens.mechanisms.gaussian`  Gaussian mechanism (classic and analytic σ), zCDP, Gaussian vs Laplace
:mod:`~dpsens.mechanisms.heavy_tailed`  noise ``∝ 1/(1+|z|^γ)`` for pure-ε smooth sensitivity
:mod:`~dpsens.mechanisms.ptr`       propose-test-release
:mod:`~dpsens.mechanisms.smooth_noise`  smooth-sensitivity noise (β, the mechanism)
:mod:`~dpsens.mechanisms.sample_aggregate`  sample-and-aggregate, and what its chapter measures
                                    about it (the source's chunking, error profiles, figures)
:mod:`~dpsens.mechanisms.exponential`  the exponential mechanism; the private quantile with the
                                    rank utility (exact sampling over intervals)
:mod:`~dpsens.mechanisms.inverse_sensitivity`  the inverse sensitivity mechanism for quantiles
:mod:`~dpsens.mechanisms.sparse_vector`  AboveThreshold, sparse vector, broken variants, exact loss
:mod:`~dpsens.mechanisms.stable_histogram`  distance to instability, the stable histogram
:mod:`~dpsens.mechanisms.noisy_max`  report-noisy-max, permute-and-flip, exact selection distributions
:mod:`~dpsens.mechanisms.piecewise`  exact integrals of Laplace/exponential densities and CDFs
:mod:`~dpsens.mechanisms.discrete`  discrete Laplace and discrete Gaussian noise sampled exactly with
                                    integer arithmetic (*Noise a computer can actually sample*)
:mod:`~dpsens.mechanisms.snapping`  Mironov's snapping mechanism (same chapter)
:mod:`~dpsens.mechanisms.noise`     the one place noise is drawn: ``laplace_noise``, ``gaussian_noise``,
                                    numpy's samplers or, with ``secure=True``, exact integer noise
:mod:`~dpsens.mechanisms.checks`    argument checks, ``check_rng``, the shared ``add_noise``
:mod:`~dpsens.mechanisms.compare`   the mechanisms side by side: the seeded error simulations of
                                    *Smooth sensitivity* and *Sample and aggregate*
==================================  ==========================================================

Every mechanism and check is re-exported here, so ``dpsens.mechanisms.laplace_mechanism``
and ``from dpsens.mechanisms import ptr_threshold`` work as before; the
chapter *Sample and aggregate* uses the rest of its module as
``from dpsens.mechanisms import sample_aggregate as saa``.

Summary of the privacy guarantees (one record added or removed, or replaced,
according to the ``neighbors`` argument of the sensitivity functions):

======================================  ============================================
function                                guarantee
======================================  ============================================
:func:`laplace_mechanism`               ε-DP if ``sensitivity`` is the *global* sensitivity
:func:`gaussian_mechanism`              (ε, δ)-DP if ``sensitivity`` is the global L2 sensitivity
:func:`ptr_from_distance`,              (2ε, δ)-DP: ε for the noisy test, ε for the release,
:func:`propose_test_release`            δ for passing the test by accident (default threshold)
:func:`smooth_sensitivity_mechanism`    (ε, δ)-DP with Laplace noise, ε-DP with heavy-tailed noise
:func:`sample_and_aggregate`            ε-DP (chunks disjoint and chosen without looking at the data;
                                        bounded neighbours, or ``partition="independent"``)
:func:`quantile_exponential`            ε-DP (public bounds; either relation, see its module)
:func:`inverse_sensitivity_quantile`    ε-DP (public bounds; either relation)
:func:`discrete_laplace_mechanism`      ε-DP for an integer query of global sensitivity Δ
:func:`discrete_gaussian_mechanism`     ρ-zCDP, ρ = Δ²/(2σ²), for an integer query of sensitivity Δ
:func:`snapping_mechanism`              ε'-DP, ε' = ε(1 + 2^-49 B/Δ), Δ a power of two
:func:`local_sensitivity_laplace`       **not** differentially private (teaching example only)
======================================  ============================================
"""
from __future__ import annotations

from . import (checks, compare, exponential, gaussian, heavy_tailed, inverse_sensitivity, laplace, ptr,  # noqa: F401
               sample_aggregate, smooth_noise)
from . import noisy_max, piecewise, sparse_vector, stable_histogram  # noqa: F401
from . import discrete, noise, snapping  # noqa: F401
from .discrete import discrete_gaussian_mechanism, discrete_laplace_mechanism
from .snapping import snapping_mechanism
from .noise import gaussian_noise, laplace_noise
from .checks import add_noise, as_nonnegative, as_size, as_value, check_rng
from .exponential import exponential_mechanism, quantile_exponential, rank_utility_sensitivity
from .gaussian import (gaussian_delta, gaussian_epsilon, gaussian_laplace_crossover, gaussian_mechanism, gaussian_rho, gaussian_sigma,
                       per_coordinate_noise_std, zcdp_compose, zcdp_sigma, zcdp_to_dp)
from .heavy_tailed import (check_gamma, heavy_tailed_constants, polynomial_tail_cdf, polynomial_tail_pdf,
                           sample_polynomial_tail)
from .inverse_sensitivity import inverse_sensitivity_quantile
from .laplace import laplace_mechanism, laplace_noise_scale, laplace_pdf, local_sensitivity_laplace, noisy_mean_sum_count
from .ptr import PTR_THRESHOLDS, propose_test_release, ptr_pass_probability, ptr_from_distance, ptr_threshold
from .sample_aggregate import chunk_answers, sample_and_aggregate, split_reduce
from .smooth_noise import (SMOOTH_NOISES, laplace_dilation_slack, laplace_smooth_delta_bound, smooth_sensitivity_beta,
                           smooth_sensitivity_mechanism)

__all__ = [
    "check_rng", "laplace_noise_scale", "laplace_mechanism", "gaussian_sigma", "gaussian_delta",
    "gaussian_mechanism", "polynomial_tail_pdf", "polynomial_tail_cdf", "sample_polynomial_tail",
    "heavy_tailed_constants", "ptr_threshold", "ptr_pass_probability", "ptr_from_distance",
    "propose_test_release", "smooth_sensitivity_beta", "smooth_sensitivity_mechanism", "chunk_answers",
    "sample_and_aggregate", "noisy_mean_sum_count", "local_sensitivity_laplace", "PTR_THRESHOLDS",
    "split_reduce", "SMOOTH_NOISES", "laplace_dilation_slack", "laplace_smooth_delta_bound", "add_noise", "as_nonnegative", "as_size", "as_value", "check_gamma", "laplace_pdf",
    "exponential_mechanism", "quantile_exponential", "rank_utility_sensitivity", "inverse_sensitivity_quantile",
    "split_reduce", "gaussian_epsilon", "gaussian_rho", "zcdp_sigma", "zcdp_compose", "zcdp_to_dp", "gaussian_laplace_crossover",
    "per_coordinate_noise_std", "add_noise", "as_nonnegative", "as_size", "as_value", "check_gamma", "laplace_pdf",
    "discrete_laplace_mechanism", "discrete_gaussian_mechanism", "snapping_mechanism", "laplace_noise", "gaussian_noise",
]
