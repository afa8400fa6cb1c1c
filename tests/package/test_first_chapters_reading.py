"""Issue 32, second expert reading (rev1) of *Differential privacy in one chapter*, *Neighbouring datasets*,
*Global sensitivity*, *Local sensitivity*, *The median visualisation grid* and *Why local sensitivity leaks*.

Every number is recomputed here from the definitions -- a multiset enumeration of neighbours, numpy-free
quantiles, scipy's normal distribution -- never from the package function under test.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, stats

import dpsens as ds
from dpsens import audit, grid

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ an enumeration written from the definitions

def _median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _var(values):
    m = sum(values) / len(values)
    return sum((v - m) ** 2 for v in values) / len(values)


def _sub_multisets(x, k):
    return {tuple(sorted(c)) for c in combinations(sorted(x), k)}


def _minus(a, b):
    return sorted((Counter(a) - Counter(b)).elements())


def _unbounded_pool_neighbours(x, pool, k):
    """Exactly k records removed, or exactly k members of the pool not in x added."""
    out = {tuple(_minus(x, r)) for r in _sub_multisets(x, k)}
    out |= {tuple(sorted(list(x) + list(a))) for a in _sub_multisets(_minus(pool, x), k)}
    return out


ABSENCE_DAYS = [1, 2, 3, 4, 5, 6, 7, 8, 15, 20]


def test_local_variance_of_the_released_absence_days_rises_to_k_2_then_falls():
    """local.md: 32.9, 37.6, 33.2, 29.6 -- the change grows from k = 1 to k = 2 and falls after (the text said
    "declines with k")."""
    x = ABSENCE_DAYS[:6]
    by_hand = [max(abs(_var(y) - _var(x)) for y in _unbounded_pool_neighbours(x, ABSENCE_DAYS, k))
               for k in range(1, 5)]
    assert by_hand == pytest.approx([32.92006802721088, 37.583333333333336, 33.18209876543210, 29.57333333333333])
    assert by_hand[0] < by_hand[1] > by_hand[2] > by_hand[3]
    package = [ds.local_sensitivity(x, "var", ds.Pool(ABSENCE_DAYS), k=k, neighbors="unbounded") for k in range(1, 5)]
    assert package == pytest.approx(by_hand, rel=1e-12)
    text = (ROOT / "chapters" / "local.md").read_text(encoding="utf-8")
    assert "variance declines with" not in text and "stops growing after $k = 2$" in text


def test_the_source_compares_two_neighbours_of_each_other_and_stays_within_twice_the_local_sensitivity():
    """median_grid.md: the two datasets the source compares keep the same n - k records, so they are bounded
    neighbours of each other; only the triangle inequality through x bounds the source's value by 2 LS."""
    universe = [1, 2, 3, 10, 11]
    for x in combinations(universe, 3):
        anchored, source = 0.0, 0.0
        for removed in x:
            kept = [v for v in x if v != removed]
            group = [tuple(sorted(kept + [a])) for a in universe if a not in kept]      # removed value included
            for y in group:
                anchored = max(anchored, abs(_median(y) - _median(x)))
                for y2 in group:
                    assert len(_minus(y, y2)) <= 1 and len(_minus(y2, y)) <= 1          # one replacement apart
                    source = max(source, abs(_median(y) - _median(y2)))
        assert anchored <= source <= 2 * anchored
        assert grid.source_bounded_local(x, ds.Pool(universe), 1, "median") == source
    text = (ROOT / "chapters" / "median_grid.md").read_text(encoding="utf-8")
    assert "distance $2k$ from each" not in text


def test_the_size_under_add_remove_cannot_be_paid_for():
    """global.md / local.md: an exact size is not epsilon-DP for add/remove neighbours at any epsilon (the
    releases 'n' and 'n + 1' have probability ratio 1/0), so the size-n value never becomes a global
    sensitivity by 'releasing and paying for' the size."""
    for stem in ("global", "local"):
        text = (ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8")
        assert not re.search(r"released separately\s*(\(and\s*)?paid", text), stem
        assert "not\n$\\varepsilon$-DP for any $\\varepsilon$" in text or \
               "not $\\varepsilon$-DP for any $\\varepsilon$" in text.replace("\n", " "), stem


def _exact_gaussian_delta(epsilon, a):
    """delta(eps) of one Gaussian release with Delta_2 / sigma = a (Balle-Wang's formula, written out)."""
    return stats.norm.cdf(a / 2 - epsilon / a) - math.exp(epsilon) * stats.norm.cdf(-a / 2 - epsilon / a)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("delta", [1e-6, 1e-3])
def test_an_exactly_calibrated_gaussian_has_its_loss_above_epsilon_more_often_than_delta(epsilon, delta):
    """dp.md: (eps, delta)-DP does not mean 'loss above eps with probability at most delta'. The Gaussian
    mechanism with sigma calibrated exactly: its loss L ~ N(a^2/2, a^2) exceeds eps with probability
    Phi(a/2 - eps/a), strictly more than delta."""
    a = optimize.brentq(lambda s: _exact_gaussian_delta(epsilon, s) - delta, 1e-6, 50.0, xtol=1e-14)
    p_loss_above = stats.norm.sf(epsilon, loc=a * a / 2, scale=a)
    assert p_loss_above == pytest.approx(stats.norm.cdf(a / 2 - epsilon / a), rel=1e-9)
    assert p_loss_above > 1.5 * delta
    # a quadrature of E[max(0, 1 - e^(eps - L))] gives the same delta (the profile, not the tail)
    z = np.linspace(a * a / 2 - 40 * a, a * a / 2 + 40 * a, 400_001)
    dens = stats.norm.pdf(z, loc=a * a / 2, scale=a)
    profile = np.trapezoid(np.maximum(0.0, 1 - np.exp(epsilon - z)) * dens, z)
    assert profile == pytest.approx(delta, rel=1e-4)


# ------------------------------------------------------------------ the audit refuses what it cannot mean

@pytest.mark.parametrize("call, argument", [
    (lambda: audit.dp_tpr_bound(2.0, 1.0), "fpr"),
    (lambda: audit.dp_tpr_bound([0.1, -0.1], 1.0), "fpr"),
    (lambda: audit.dp_tpr_bound(0.1, -1.0), "epsilon"),
    (lambda: audit.dp_tpr_bound(0.1, 1.0, delta=1.5), "delta"),
    (lambda: audit.audit_epsilon(np.ones(10), np.ones(10), []), "thresholds"),
    (lambda: audit.laplace_event_probability(2.0, -1.0, 2.5, 1.0), "scale"),
    (lambda: audit.posterior_laplace(1.0, [1.0, 2.0], [1.0, 1.0], [0.6, 0.6]), "prior"),
    (lambda: audit.posterior_laplace(1.0, [1.0, 2.0], [1.0, 1.0], [1.5, -0.5]), "prior"),
    (lambda: audit.posterior_laplace(1.0, [1.0, 2.0], [1.0, 1.0], [1.0]), "prior"),
    (lambda: audit.posterior_laplace(1.0, [1.0, 2.0], [1.0, -1.0]), "scales"),
    (lambda: audit.posterior_laplace(1.0, [1.0, 2.0], [1.0]), "scales"),
])
def test_audit_functions_refuse_inputs_they_cannot_mean_and_name_the_argument(call, argument):
    with pytest.raises(ValueError, match=argument):
        call()


def test_the_tpr_bound_is_the_definition_on_an_event_and_its_complement():
    """leak.md derives TPR <= e^eps FPR and 1 - FPR <= e^eps (1 - TPR) from the definition; the largest TPR
    over a randomised-response pair (the extreme eps-DP mechanism) at each FPR meets the bound exactly."""
    eps = 1.0
    p = math.exp(eps) / (1 + math.exp(eps))              # P(say 1 | x), and 1 - p under x'
    for fpr in np.linspace(0.0, 1.0, 41):
        # the best test at this false-positive rate (Neyman-Pearson: randomise on the likelier output)
        best = p / (1 - p) * fpr if fpr <= 1 - p else p + (fpr - (1 - p)) * (1 - p) / p
        assert audit.dp_tpr_bound(fpr, eps) == pytest.approx(min(best, 1.0), abs=1e-12)


def _bounded_pool_neighbours(x, pool, k):
    """k records replaced by members of the pool not kept."""
    out = set()
    for removed in _sub_multisets(x, k):
        kept = _minus(x, removed)
        out |= {tuple(sorted(kept + list(a))) for a in _sub_multisets(_minus(pool, kept), k)}
    return out


@pytest.mark.parametrize("n, relation, median_gs, mean_gs", [
    (3, "bounded", 2.0, 33.0), (3, "unbounded", 49.0, 197 / 6), (4, "unbounded", 1.0, 24.5), (4, "bounded", 1.0, 24.75),
])
def test_the_outlier_universe_median_is_robust_only_with_a_middle_record(n, relation, median_gs, mean_gs):
    """median_grid.md: on the pool {1, 2, 3, 4, 100}, n = 3, the bounded median moves by 2 (mean 33), but the
    add/remove median by 49 ([1, 2, 100] without the 1 has median 51), more than the mean's 32.83; at n = 4
    the add/remove neighbours have a middle record again (1 against 24.5)."""
    pool = [1, 2, 3, 4, 100]
    neighbours = _bounded_pool_neighbours if relation == "bounded" else _unbounded_pool_neighbours
    releases = {tuple(sorted(c)) for c in combinations(pool, n)}

    def gs(f):
        return max(abs(f(y) - f(x)) for x in releases for y in neighbours(x, pool, 1))

    assert gs(_median) == pytest.approx(median_gs) and gs(lambda v: sum(v) / len(v)) == pytest.approx(mean_gs)
    for query, want in (("median", median_gs), ("mean", mean_gs)):
        assert ds.global_sensitivity(query, ds.Pool(pool), n, k=1, neighbors=relation) == pytest.approx(want)
