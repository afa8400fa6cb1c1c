"""Where OpenDP computes the same stability or sensitivity as dpsens, the two must agree.

OpenDP's transformations carry a *stability map*: given how far apart two
inputs may be (``d_in``, here the symmetric distance between two datasets),
``t.map(d_in)`` is how far apart the outputs may be.  That is exactly what the
rules of *Sensitivity of transformations* and *Proportions vs frequencies*
compute.  Skipped when OpenDP is not installed.
"""
from __future__ import annotations

import math

import pytest

from dpsens import proportions as P
from dpsens import transformations as T

dp = pytest.importorskip("opendp.prelude", reason="opendp is not installed (pip install opendp==0.16.0)")
dp.enable_features("contrib")

SYMMETRIC = dp.symmetric_distance()


@pytest.mark.parametrize("d_in", [1, 2, 3, 7])
def test_count_sensitivity_equals_protected_rows(d_in):
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), SYMMETRIC)
    assert count.map(d_in) == T.RowStability(max_rows=d_in).count_sensitivity()


@pytest.mark.parametrize("bounds", [(0, 10), (-3, 10), (-50, 4)])
@pytest.mark.parametrize("d_in", [1, 3])
def test_clamped_sum_sensitivity(bounds, d_in):
    pipeline = dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T=int)), SYMMETRIC, bounds=bounds) >> dp.t.then_sum()
    assert pipeline.map(d_in) == T.RowStability(max_rows=d_in).sum_sensitivity(*bounds)


@pytest.mark.parametrize("d_in", [1, 2, 5])
def test_count_by_categories_l1_and_l2(d_in):
    """With no bound on how many groups the changed rows touch, the worst case
    puts them all in one group: L1 = L2 = d_in, i.e. g = 1 group, r = d_in rows."""
    domain = dp.vector_domain(dp.atom_domain(T=str))
    l1 = dp.t.make_count_by_categories(domain, SYMMETRIC, categories=["a", "b", "c"], MO="L1Distance<i32>")
    l2 = dp.t.make_count_by_categories(domain, SYMMETRIC, categories=["a", "b", "c"], MO="L2Distance<f64>",
                                       TOA="f64")
    assert l1.map(d_in) == T.per_id_sensitivity(1, d_in, "l1")
    assert math.isclose(l2.map(d_in), T.per_id_sensitivity(1, d_in, "l2"))


@pytest.mark.parametrize("n", [10, 1000])
def test_proportion_with_public_n_is_a_mean_of_indicators(n):
    """n public: a replaced record is symmetric distance 2.  OpenDP's mean of
    0/1 indicators over a dataset of known size n has sensitivity 1/n, the
    count of one label 1, the histogram (L1) 2."""
    sized_float = dp.vector_domain(dp.atom_domain(T=float, bounds=(0.0, 1.0)), size=n)
    mean = dp.t.make_mean(sized_float, SYMMETRIC)
    # OpenDP adds a tiny allowance for floating-point rounding
    assert mean.map(2) == pytest.approx(P.proportion_global_sensitivity(n, "bounded", "linf"), rel=1e-9)
    assert mean.map(2) >= P.proportion_global_sensitivity(n, "bounded", "linf")

    sized_int = dp.vector_domain(dp.atom_domain(T=int, bounds=(0, 1)), size=n)
    assert dp.t.make_sum(sized_int, SYMMETRIC).map(2) == P.proportion_global_sensitivity(n, "bounded") * n

    sized_str = dp.vector_domain(dp.atom_domain(T=str), size=n)
    hist = dp.t.make_count_by_categories(sized_str, SYMMETRIC, categories=["a", "b"], MO="L1Distance<i32>")
    assert hist.map(2) == pytest.approx(P.proportion_global_sensitivity(n, "bounded", "l1") * n)


def test_histogram_with_private_n_has_l1_sensitivity_one():
    """n private (one record added or removed): the noisy histogram of
    :func:`dpsens.proportions.histogram_release` uses Lap(1/ε) per count; OpenDP's
    Laplace on the count vector at that scale costs exactly ε."""
    eps = 0.5
    hist = dp.t.make_count_by_categories(dp.vector_domain(dp.atom_domain(T=str)), SYMMETRIC,
                                         categories=["a", "b"], MO="L1Distance<i32>")
    assert hist.map(1) == 1
    meas = hist >> dp.m.then_laplace(scale=1 / eps)
    assert meas.map(1) == pytest.approx(eps)
