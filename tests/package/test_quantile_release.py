"""The fast exponential-mechanism quantile (issue 36, Speed) against the formula it replaced.

``dpsens.mechanisms.exponential.quantile_exponential`` counts small-range
integer data instead of sorting them and computes only the window of
intervals whose probability is not exactly 0 in double precision.  Checked
here: (1) its interval probabilities are those of the full formula (every
one of the ``n + 1`` intervals, ``log(length) − ε|i − q n| / (2 Δu)``,
normalised), to the last bit; (2) with the same seed it gives bit for bit the
draws of the old implementation (kept below as ``old_release``), on uniform,
tied, integer and extreme settings; (3) its samples match the peer of
``benchmarks/multiq_ind_exp.py`` (written from Gillenwater, Joseph & Kulesza
2021) in distribution.  No timing is asserted.
"""
from __future__ import annotations

import itertools
import os
import sys

import numpy as np
import pytest
from scipy import stats

from dpsens.mechanisms import exponential as em

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "benchmarks"))
import multiq_ind_exp  # (the independent peer, in benchmarks/)


def old_weights(x, q, epsilon, lower, upper, neighbors="bounded"):
    """``(edges, p)``: the implementation before issue 36, every interval's unnormalised probability."""
    xs = np.sort(np.asarray(x, dtype=float))
    n = len(xs)
    factor = epsilon / (2 * em.rank_utility_sensitivity(q, neighbors))
    edges = np.concatenate(([lower], xs, [upper]))
    w = np.arange(n + 1, dtype=float)
    w -= q * n
    np.abs(w, out=w)
    w *= -factor
    with np.errstate(divide="ignore"):
        w += np.log(np.diff(edges))
    d = w - np.max(w)
    p = np.zeros(d.shape)
    keep = d > -745.0
    p[keep] = np.exp(d[keep])
    return edges, p


def old_release(x, q, epsilon, lower, upper, rng, neighbors="bounded", size=None):
    """The release before issue 36: :func:`old_weights`, then one inverse-CDF draw and a uniform point."""
    edges, p = old_weights(x, q, epsilon, lower, upper, neighbors)
    cdf = np.cumsum(p)
    draw = rng.random(size=size) * cdf[-1]
    idx = np.minimum(np.searchsorted(cdf, draw, side="right"), len(cdf) - 1)
    left, right = edges[idx], edges[idx + 1]
    out = np.minimum(left + rng.random(size=size) * (right - left), right)
    return float(out) if np.ndim(out) == 0 else out


def _datasets():
    rng = np.random.default_rng(36)
    yield "uniform", rng.uniform(0, 100, 3000), 0.0, 100.0
    yield "one point", np.array([5.0]), 0.0, 10.0
    yield "at the bounds", np.array([0.0, 0.0, 3.0, 10.0, 10.0]), 0.0, 10.0
    yield "ages int64", rng.integers(17, 91, 5000), 0.0, 100.0
    yield "ages float", rng.integers(17, 91, 5000).astype(float), 0.0, 100.0
    yield "ages int8", rng.integers(17, 91, 700).astype(np.int8), 17.0, 90.0
    yield "negative ints", rng.integers(-120, 120, 900), -128.0, 127.0
    yield "wide ints", rng.integers(0, 10**9, 800), 0.0, 1e9
    yield "list", [1, 2, 2, 3.5, 7], 0.0, 8.0
    yield "float32", rng.uniform(-1, 1, 500).astype(np.float32), -1.0, 1.0
    yield "tiny gaps", 1.0 + rng.integers(0, 3, 2000) * 1e-12, 0.0, 2.0
    yield "long ties", np.repeat([1.0, 2.0, 2.5, 7.0], [9000, 40000, 30000, 21000]), 0.0, 10.0
    yield "uniform 2e4", rng.uniform(0, 1, 20000), 0.0, 1.0
    yield "uniform 1e5, skewed", rng.beta(0.5, 3, 100_000), 0.0, 1.0
    yield "ties 3e4, float", rng.integers(0, 50, 30_000) * 0.5, 0.0, 25.0


SETTINGS = list(itertools.product([0.1, 0.5, 0.93], [1e-3, 0.1, 1.0, 30.0, 1e4], ["bounded", "unbounded"]))


@pytest.mark.parametrize("name,x,lower,upper", list(_datasets()), ids=[d[0] for d in _datasets()])
def test_draws_are_bit_for_bit_the_old_implementation(name, x, lower, upper):
    for k, (q, eps, relation) in enumerate(SETTINGS):
        new = em.quantile_exponential(x, q, eps, lower, upper, np.random.default_rng(k), relation, size=300)
        old = old_release(x, q, eps, lower, upper, np.random.default_rng(k), relation, size=300)
        np.testing.assert_array_equal(new, old, err_msg=f"{name}, q={q}, eps={eps}, {relation}")
        one = em.quantile_exponential(x, q, eps, lower, upper, np.random.default_rng(k), relation)
        assert one == old_release(x, q, eps, lower, upper, np.random.default_rng(k), relation)


@pytest.mark.parametrize("name,x,lower,upper", list(_datasets()), ids=[d[0] for d in _datasets()])
def test_interval_probabilities_are_the_full_formulas(name, x, lower, upper):
    """The window's weights equal the full formula's, bit for bit; every interval left out (outside the
    window, or of length 0 when counted) has weight exactly 0 in the full formula."""
    for q, eps, relation in SETTINGS:
        _, p_full = old_weights(x, q, eps, lower, upper, relation)
        factor = eps / (2 * em.rank_utility_sensitivity(q, relation))
        xa = np.asarray(x) if isinstance(x, list) else x
        i, w, edges = em._release_intervals(xa, q, factor, float(lower), float(upper))
        d = w - np.max(w)
        p_new = np.zeros(len(p_full))
        p_new[i.astype(int)] = np.where(d > -745.0, np.exp(d), 0.0)
        np.testing.assert_array_equal(p_new, p_full, err_msg=f"{name}, q={q}, eps={eps}, {relation}")


def test_window_is_small_for_moderate_epsilon():
    """At ε = 1 only a few thousand of the million intervals are computed (the rest are exactly 0), and
    the data are partitioned, not sorted: the window's edges are the sorted data's."""
    x = np.random.default_rng(1).uniform(0, 100, 10**6)
    i, w, edges = em._release_intervals(x, 0.5, 0.5, 0.0, 100.0)
    assert len(w) < 5000 and i[0] <= 500_000 <= i[-1]
    np.testing.assert_array_equal(edges, np.sort(x)[int(i[0]) - 1:int(i[-1]) + 1])


def test_counting_path_needs_no_sort_and_handles_out_of_bounds():
    ages = np.random.default_rng(2).integers(17, 91, 10**5)
    i, _, edges = em._release_intervals(ages, 0.5, 0.5, 0.0, 100.0)
    values, counts = np.unique(ages, return_counts=True)
    np.testing.assert_array_equal(edges, np.concatenate(([0.0], values, [100.0])))
    np.testing.assert_array_equal(i, np.concatenate(([0], np.cumsum(counts))))
    with pytest.raises(ValueError, match="outside"):
        em.quantile_exponential(ages, 0.5, 1.0, 20.0, 100.0, np.random.default_rng(0))
    for bad in (np.array([1.0, np.nan]), np.r_[np.ones(5000), np.nan]):
        with pytest.raises(ValueError, match="NaN"):
            em.quantile_exponential(bad, 0.5, 1.0, 0.0, 2.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="outside"):
        em.quantile_exponential(np.r_[np.ones(5000), 3.0], 0.5, 1.0, 0.0, 2.0, np.random.default_rng(0))


@pytest.mark.parametrize("kind", ["uniform", "ages"])
def test_same_distribution_as_the_peer(kind):
    """Exact interval probabilities equal the peer's (to 1e-12), and 20,000 draws of each pass KS."""
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 100, 400) if kind == "uniform" else rng.integers(17, 91, 400)
    p_peer = multiq_ind_exp.interval_probabilities(x, 0.5, 0.5, 0.0, 100.0)
    p_package = np.exp(em.quantile_exponential_distribution(x, 0.5, 0.5, 0.0, 100.0, "bounded")["log_prob"])
    np.testing.assert_allclose(p_package, p_peer, rtol=0, atol=1e-12)
    ours = em.quantile_exponential(x, 0.5, 0.5, 0.0, 100.0, np.random.default_rng(1), size=20_000)
    peer_rng = np.random.default_rng(2)
    theirs = np.array([multiq_ind_exp.ind_exp(x, 0.5, 0.5, 0.0, 100.0, peer_rng) for _ in range(20_000)])
    assert stats.ks_2samp(ours, theirs).pvalue > 1e-3
