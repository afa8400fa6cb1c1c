"""Second reading (reread2) of rev1's corrections to *Differential privacy in one chapter*, *Neighbouring
datasets*, *Global sensitivity*, *Local sensitivity*, *The median visualisation grid* and *Why local sensitivity
leaks*, and of two sentences in *vector* and *proportions*.

Every number is recomputed from the definitions -- events enumerated, neighbours enumerated, the book's
quantile written from its formula, Laplace probabilities from the closed-form CDF -- never from the package
function under test (the package is only compared against the brute force).
"""
from __future__ import annotations

import math
import re
from itertools import chain, combinations
from pathlib import Path

import numpy as np
import pytest

import dpsens as ds
from dpsens import audit

ROOT = Path(__file__).resolve().parents[2]


def _text(stem):
    return re.sub(r"\s+", " ", (ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8"))


def _events(k):
    """Every set of outputs of a mechanism with outputs 0..k-1."""
    return chain.from_iterable(combinations(range(k), r) for r in range(k + 1))


def _is_dp(p, q, eps, delta, tol=1e-12):
    """(eps, delta)-DP of a pair of output distributions, both orders, every event."""
    return all(sum(a[s] for s in S) <= math.exp(eps) * sum(b[s] for s in S) + delta + tol
               for S in _events(len(p)) for a, b in ((p, q), (q, p)))


# ------------------------------------------------------------------ dp.md: delta is not a loss tail

@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
def test_the_coin_of_dp_md_is_eps_delta_dp_but_its_loss_exceeds_eps_more_often_than_delta(eps):
    delta = 1 / (math.exp(eps) + 2)
    for d in (delta, delta / 10, 1e-6):
        p = [(1 + math.exp(eps)) * d, 1 - (1 + math.exp(eps)) * d]     # heads, tails on x
        q = [d, 1 - d]                                                   # on x'
        assert _is_dp(p, q, eps, d)
        loss_heads = math.log(p[0] / q[0])
        assert loss_heads == pytest.approx(math.log(1 + math.exp(eps))) and loss_heads > eps
        assert p[0] > d                                                  # P(L > eps) on x exceeds delta
    # the stated condition delta <= 1/(e^eps + 2) is the exact one: just above it the coin fails
    d = 1.01 * delta
    assert not _is_dp([(1 + math.exp(eps)) * d, 1 - (1 + math.exp(eps)) * d], [d, 1 - d], eps, d)
    assert "$\\delta \\le 1/(e^{\\varepsilon} + 2)$" in _text("dp")


def test_a_loss_tail_of_at_most_delta_gives_eps_delta_dp_on_random_discrete_mechanisms():
    """dp.md, 'The privacy loss': loss above eps with probability <= delta (both orders) => (eps, delta)-DP,
    checked on every event of 2,000 random pairs of distributions on six outputs."""
    rng = np.random.default_rng(20261128)
    checked = 0
    for _ in range(2000):
        p, q = rng.dirichlet(np.ones(6) * 0.7), rng.dirichlet(np.ones(6) * 0.7)
        eps = rng.uniform(0.05, 2.0)
        tail_x = p[np.log(p / q) > eps].sum()
        tail_y = q[np.log(q / p) > eps].sum()
        delta = max(tail_x, tail_y)
        assert _is_dp(p, q, eps, delta)
        checked += 1
    assert checked == 2000


# ------------------------------------------------------------------ median_grid.md: the outlier universe

def _quantile(values, alpha):
    """The book's Q_alpha, from its formula (notation page), 1-based rank r = floor(alpha (n-1)) + 1."""
    s = sorted(values)
    n = len(s)
    r = math.floor(alpha * (n - 1)) + 1
    frac = alpha * (n - 1) + 1 - r
    return s[r - 1] + (frac * (s[r] - s[r - 1]) if r < n else 0.0)


def _pool_gs(pool, n, query, relation):
    """Size-n value: max over n-subsets of the pool and their k = 1 neighbours (a pool: each member once)."""
    best = 0.0
    for x in combinations(pool, n):
        if relation == "unbounded":
            nbs = [x[:i] + x[i + 1:] for i in range(n)] + [x + (a,) for a in pool if a not in x]
        else:
            nbs = [x[:i] + x[i + 1:] + (a,) for i in range(n) for a in pool if a not in x]
        best = max(best, max(abs(query(y) - query(x)) for y in nbs))
    return best


@pytest.mark.parametrize("n, relation, median_gs, mean_gs", [
    (3, "unbounded", 49.0, 32.833333333333336), (3, "bounded", 2.0, 33.0),
    (4, "unbounded", 1.0, 24.5), (4, "bounded", 1.0, 24.75),
])
def test_outlier_universe_size_n_values_with_the_interpolated_median(n, relation, median_gs, mean_gs):
    pool = (1, 2, 3, 4, 100)
    med = _pool_gs(pool, n, lambda v: _quantile(v, 0.5), relation)
    mean = _pool_gs(pool, n, lambda v: sum(v) / len(v), relation)
    assert med == pytest.approx(median_gs) and mean == pytest.approx(mean_gs)
    assert ds.global_sensitivity("median", ds.Pool(list(pool)), n, k=1, neighbors=relation) == pytest.approx(med)
    assert ds.global_sensitivity("mean", ds.Pool(list(pool)), n, k=1, neighbors=relation) == pytest.approx(mean)
    # the book's quantile is numpy's default, and the worst add/remove pair is [1, 2, 100] without the 1
    assert _quantile([2, 100], 0.5) == 51.0 == np.quantile([2, 100], 0.5)


def test_median_grid_names_its_unbounded_maxima_size_n_values():
    text = _text("median_grid")
    assert "the median's size-3 value" in text and "*size-$n$ values* of {ref}`chap-global`" in text


# ------------------------------------------------------------------ global.md: a lower bound from a noisy count

def _lap_cdf(t, b):
    return 0.5 * math.exp(t / b) if t < 0 else 1 - 0.5 * math.exp(-t / b)


def _hockey_stick(m_x, f_x, m_y, f_y, eps, e1, e2, margin):
    """sup_S P(S | x) - e^eps P(S | x') for (floor of the noisy count, noisy mean), by quadrature.

    Count: m + Lap(1/e1), floored to j; bound b = max(1, j - margin); mean of records in [0, 1] released with
    Laplace noise of scale GS(b)/e2, GS(b) = 1/(b + 1): the largest change of a mean on [0, 1] between
    datasets of at least b records (b zeros against b zeros and a one)."""
    z = np.linspace(-40.0, 40.0, 160_001)
    dz = z[1] - z[0]
    total = 0.0
    for j in range(min(m_x, m_y) - 60, max(m_x, m_y) + 60):
        px = _lap_cdf(j + 1 - m_x, 1 / e1) - _lap_cdf(j - m_x, 1 / e1)
        py = _lap_cdf(j + 1 - m_y, 1 / e1) - _lap_cdf(j - m_y, 1 / e1)
        if px < 1e-15:
            continue
        scale = (1 / (max(1, j - margin) + 1)) / e2
        dens_x = np.exp(-np.abs(z - f_x) / scale) / (2 * scale)
        dens_y = np.exp(-np.abs(z - f_y) / scale) / (2 * scale)
        total += float(np.sum(np.maximum(px * dens_x - math.exp(eps) * py * dens_y, 0.0)) * dz)
    return total


@pytest.mark.parametrize("m", [4, 15])
def test_a_lower_bound_from_a_noisy_count_costs_at_most_its_failure_probability(m):
    """global.md, 'The size: public or private': the two releases are (e1 + e2, delta)-DP with delta the
    probability that the bound exceeds the size less one -- here P(Lap(1/e1) >= margin)."""
    e1 = e2 = 0.5
    margin = 8
    p_bad = 1 - _lap_cdf(margin, 1 / e1)           # floor(m + L) - margin > m - 1  <=>  L >= margin
    for pair in ((m, 1 / m, m - 1, 0.0), (m - 1, 0.0, m, 1 / m)):   # the one removed, both orders
        assert _hockey_stick(*pair, e1 + e2, e1, e2, margin) <= p_bad
    # and the delta is needed: without the margin the bound is often too large and the slack is real
    assert _hockey_stick(m, 1 / m, m - 1, 0.0, e1 + e2, e1, e2, 0) > 1e-3


# ------------------------------------------------------------------ audit: inputs that would make a false claim

def test_audit_refuses_a_negative_delta_that_would_prove_a_false_epsilon():
    rng = np.random.default_rng(3)
    sx, sy = rng.laplace(0.0, 1.0, 4000), rng.laplace(1.0, 1.0, 4000)    # a 1-DP pair
    thresholds = np.linspace(-3, 3, 13)
    assert audit.audit_epsilon(sx, sy, thresholds)["epsilon_lower"] <= 1.0
    for call in (lambda: audit.audit_epsilon(sx, sy, thresholds, delta=-0.3),
                 lambda: audit.privacy_loss_lower_bounds(sx, sy, thresholds, delta=-0.3),
                 lambda: audit.privacy_loss_lower_bounds(sx, sy, thresholds, delta=2.0)):
        with pytest.raises(ValueError, match="delta"):
            call()
    with pytest.raises(TypeError, match="delta"):
        audit.dp_tpr_bound(0.1, 1.0, delta=np.array([0.1, 0.2]))
    for name, call in (("scores_x", lambda: audit.audit_epsilon(np.full(10, np.nan), sy, thresholds)),
                       ("scores_y", lambda: audit.privacy_loss_lower_bounds(sx, [], thresholds))):
        with pytest.raises(ValueError, match=name):
            call()


# ------------------------------------------------------------------ the same slips outside rev1's chapters

def test_an_exact_size_is_never_said_to_be_paid_for():
    for stem in ("vector", "global", "local", "neighbours"):
        assert not re.search(r"released separately,? (\(?and )?paid", _text(stem)), stem
    assert "not even $(\\varepsilon, \\delta)$-DP for any $\\delta < 1$" in _text("neighbours")


def test_the_tpr_fpr_bound_in_proportions_is_derived_and_its_characterisation_cited_from_the_statement():
    text = _text("proportions")
    assert "1 - \\mathrm{FPR} \\le e^\\varepsilon (1 - \\mathrm{TPR})" in text
    assert "cited from the statement in {cite}`kairouz2015composition`" in text


def test_posterior_refuses_a_released_value_that_is_not_a_number():
    with pytest.raises(ValueError, match="t must be"):
        audit.posterior_laplace(float("nan"), [1.0, 2.0], [1.0, 1.0])
    post = audit.posterior_laplace(1.5, [1.0, 2.0], [1.0, 0.5])
    dens = np.array([math.exp(-0.5 / 1.0) / 2.0, math.exp(-0.5 / 0.5) / 1.0])   # Laplace densities at 1.5
    assert post == pytest.approx(dens / dens.sum())
