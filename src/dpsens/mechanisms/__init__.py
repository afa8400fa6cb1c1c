"""Mechanisms, one module per family: Laplace, Gaussian, heavy-tailed, PTR, smooth, sample-and-aggregate, exponential, inverse sensitivity.

Chapters: every chapter that adds noise -- the Laplace mechanism from the
*Introduction* on, and the part "Using local sensitivity safely" (*Why local
sensitivity leaks*, *Propose-test-release*, *Smooth sensitivity*, *Sample and
aggregate*), *The exponential mechanism and inverse sensitivity*, and
*Testing privately, and releasing what is stable* (sparse vector, the stable
histogram, private selection: used as modules, e.g.
``mech.sparse_vector.above_threshold``); each
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
:mod:`~dpsens.mechanisms.heavy_tailed`  noise ``∝ 1/(1+|z|^γ)`` (γ = 2: Cauchy) and Student's t for
                                    pure-ε smooth sensitivity
:mod:`~dpsens.mechanisms.ptr`       propose-test-release
:mod:`~dpsens.mechanisms.smooth_noise`  smooth-sensitivity noise (β, the mechanism, each noise's error)
:mod:`~dpsens.mechanisms.sample_aggregate`  sample-and-aggregate (its chapter's measurements are in
                                    :mod:`dpsens.experiments.sample_aggregate`)
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
                                    ``rounded_laplace_noise``: numpy's samplers or, with
                                    ``secure=True``, exact integer noise
:mod:`~dpsens.mechanisms.checks`    argument checks, ``check_rng``, the shared ``add_noise``
==================================  ==========================================================

The mechanisms themselves, and the few names the chapters call as
``mech.<name>`` (``from dpsens import mechanisms as mech``) or
``ds.mechanisms.<name>``, are imported here; everything else -- the argument
checks, the samplers, the exact distributions -- is used from its own module
(``mech.stable_histogram.stable_histogram``,
``ds.mechanisms.heavy_tailed.polynomial_tail_cdf``).  What the chapters
measure about the mechanisms -- seeded simulations of their errors, a
source's code reproduced -- is in :mod:`dpsens.experiments`, which imports
this package (never the reverse).

Summary of the privacy guarantees (one record added or removed, or replaced,
according to the ``neighbors`` argument of the sensitivity functions):

======================================  ============================================
function                                guarantee
======================================  ============================================
:func:`laplace_mechanism`               ε-DP if ``sensitivity`` is the *global* sensitivity
:func:`gaussian_mechanism`              (ε, δ)-DP if ``sensitivity`` is the global L2 sensitivity
:func:`ptr_from_distance`,              (2ε, δ)-DP: ε for the noisy test, ε for the release,
:func:`propose_test_release`            δ for passing the test by accident (default threshold)
:func:`smooth_sensitivity_mechanism`    (ε, δ)-DP with Laplace noise, ε-DP with heavy-tailed or
                                        Student's t noise
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

from . import (checks, exponential, gaussian, heavy_tailed, inverse_sensitivity, laplace, ptr,  # noqa: F401
               sample_aggregate, smooth_noise)
from . import noisy_max, piecewise, sparse_vector, stable_histogram  # noqa: F401
from . import discrete, noise, snapping  # noqa: F401
from .discrete import discrete_gaussian_mechanism, discrete_laplace_mechanism
from .exponential import exponential_mechanism, quantile_exponential
from .gaussian import (gaussian_delta, gaussian_epsilon, gaussian_laplace_crossover, gaussian_mechanism, gaussian_rho,
                       gaussian_sigma, zcdp_compose, zcdp_to_dp)
from .heavy_tailed import heavy_tailed_constants
from .inverse_sensitivity import inverse_sensitivity_quantile
from .laplace import laplace_mechanism, laplace_noise_scale, laplace_pdf, local_sensitivity_laplace, noisy_mean_sum_count
from .noise import gaussian_noise, laplace_noise
from .ptr import propose_test_release, ptr_from_distance, ptr_pass_probability, ptr_threshold
from .sample_aggregate import chunk_answers, sample_and_aggregate
from .smooth_noise import (laplace_dilation_slack, laplace_smooth_delta_bound, smooth_sensitivity_beta,
                           smooth_sensitivity_mechanism)
from .snapping import snapping_mechanism

__all__ = [
    # the mechanisms
    "laplace_mechanism", "gaussian_mechanism", "ptr_from_distance", "propose_test_release",
    "smooth_sensitivity_mechanism", "sample_and_aggregate", "exponential_mechanism", "quantile_exponential",
    "inverse_sensitivity_quantile", "discrete_laplace_mechanism", "discrete_gaussian_mechanism", "snapping_mechanism",
    "local_sensitivity_laplace",
    # what the chapters compute about them as ``mech.<name>`` / ``ds.mechanisms.<name>``
    "laplace_noise", "gaussian_noise", "laplace_noise_scale", "laplace_pdf", "noisy_mean_sum_count",
    "gaussian_sigma", "gaussian_delta", "gaussian_epsilon", "gaussian_rho", "gaussian_laplace_crossover",
    "zcdp_compose", "zcdp_to_dp", "heavy_tailed_constants", "ptr_threshold", "ptr_pass_probability",
    "smooth_sensitivity_beta", "laplace_dilation_slack", "laplace_smooth_delta_bound", "chunk_answers",
]
