"""Tests for dpsens.audit (empirical privacy loss) and the checkers of the chapter *Why local sensitivity leaks*."""
from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from scipy import stats

matplotlib.use("Agg")

import dpsens as ds
from dpsens import audit, mechanisms as mech
from dpsens.exercises import leak


def test_clopper_pearson_against_scipy_and_closed_forms():
    for k, n in [(0, 100), (5, 20), (20, 20), (37, 1000)]:
        lo, hi = audit.clopper_pearson(k, n, 0.05)
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)
    assert audit.clopper_pearson(0, 100)[1] == pytest.approx(1 - 0.025 ** (1 / 100))
    assert audit.clopper_pearson(20, 20)[0] == pytest.approx(0.025 ** (1 / 20))
    with pytest.raises(ValueError):
        audit.clopper_pearson(5, 4)


def test_dp_tpr_bound():
    assert audit.dp_tpr_bound(0.0, 1.0, 0.01) == pytest.approx(0.01)
    assert audit.dp_tpr_bound(1.0, 1.0) == 1.0
    f = np.linspace(0, 1, 11)
    assert np.allclose(audit.dp_tpr_bound(f, 0.0), f)                # eps = 0: no test beats guessing
    e = math.e
    # the two constraints meet at FPR = 1/(1+e)
    assert audit.dp_tpr_bound(1 / (1 + e), 1.0) == pytest.approx(e / (1 + e))


def test_threshold_rates():
    tpr, fpr, kx, ky = audit.threshold_rates([1, 2, 3, 4], [0, 0, 1, 5], [0.5, 2, 10])
    assert list(kx) == [4, 2, 0] and list(ky) == [2, 1, 0]
    assert list(tpr) == [1.0, 0.5, 0.0] and list(fpr) == [0.5, 0.25, 0.0]


def test_laplace_event_probability_against_scipy():
    for loc, b, center, c in [(2, 4, 2.5, 3.0), (2.5, 0.5, 2.5, 1.0), (0, 1, 3, 0.5), (0, 2, 0, 30.0)]:
        d = stats.laplace(loc, b)
        want = d.sf(center + c) + d.cdf(center - c)
        assert audit.laplace_event_probability(loc, b, center, c) == pytest.approx(want, rel=1e-10)
    assert audit.laplace_event_probability(2.0, 0.0, 2.5, 0.4) == 1.0
    assert audit.laplace_event_probability(2.0, 0.0, 2.5, 0.6) == 0.0


def test_a_correct_mechanism_passes_the_audit_and_the_broken_one_fails():
    rng = np.random.default_rng(3)
    n = 100_000
    # Laplace(scale 1) on answers 0 and 1: true privacy loss exactly 1
    a = mech.laplace_mechanism(0.0, 1.0, 1.0, rng, size=n)
    b = mech.laplace_mechanism(1.0, 1.0, 1.0, rng, size=n)
    res = audit.privacy_loss_lower_bounds(-a, -b, np.linspace(-8, 8, 161))
    assert np.all(res["lower"] <= 1.0)
    assert res["lower"].max() > 0.8                               # and the audit is not toothless
    aud = audit.audit_epsilon(a, b, np.linspace(-8, 8, 161))
    assert 0.5 < aud["epsilon_lower"] <= 1.0
    assert (aud["event"], aud["direction"]) in {("<", "x/x'"), (">", "x'/x")}
    # the mirror image gives the same kind of bound
    assert 0.5 < audit.audit_epsilon(b, a, np.linspace(-8, 8, 161))["epsilon_lower"] <= 1.0
    # the local-sensitivity pair of the chapter
    x = mech.local_sensitivity_laplace(2.0, 4.0, 1.0, rng, size=n)
    y = mech.local_sensitivity_laplace(2.5, 0.5, 1.0, rng, size=n)
    aud = audit.audit_epsilon(np.abs(x - 2.5), np.abs(y - 2.5), np.linspace(0, 10, 201))
    assert aud["epsilon_lower"] > 5 and (aud["event"], aud["direction"]) == (">", "x/x'")
    one = audit.privacy_loss_lower_bounds(np.abs(x - 2.5), np.abs(y - 2.5), [2.0], two_sided=False)
    exact = math.log(audit.laplace_event_probability(2, 4, 2.5, 2.0) / audit.laplace_event_probability(2.5, 0.5, 2.5, 2.0))
    assert one["lower"][0] <= exact <= one["point"][0] + 0.2
    assert abs(one["point"][0] - exact) < 0.15


def test_posterior_laplace():
    locs, scales = np.array([1.0, 2.0, 2.0, 3.0]), np.array([1.0, 0.0, 2.0, 0.0])
    post = audit.posterior_laplace(2.0, locs, scales)
    assert list(post) == [0.0, 1.0, 0.0, 0.0]                         # the exact answer 2 hits a point mass
    post = audit.posterior_laplace(2.3, locs, scales, prior=[0.1, 0.2, 0.3, 0.4])
    dens = np.array([0.1 * stats.laplace(1, 1).pdf(2.3), 0, 0.3 * stats.laplace(2, 2).pdf(2.3), 0])
    assert np.allclose(post, dens / dens.sum())
    far = audit.posterior_laplace(1e4, np.array([0.0, 0.0]), np.array([1.0, 2.0]))
    assert far[1] == pytest.approx(1.0) and far.sum() == pytest.approx(1.0)


def test_figures_have_titles_and_labels():
    figs = [
        ds.figures.audit.plot_release_densities([2, 2.5], [4, 0.5], ["x", "x'"]),
        ds.figures.audit.plot_release_densities([2, 2], [4, 0.0], ["x", "x'"]),
        ds.figures.audit.plot_attack_roc({"a": ([1e-4, 0.1, 1], [0.3, 0.6, 1])}, 1.0),
        ds.figures.audit.plot_privacy_loss([0, 1], [0, 1.7], [0, 1.7], [0, 1.6], 1.0),
        ds.figures.audit.plot_audit([0.5, 1], {"m": [0.2, 0.4]}),
        ds.figures.audit.plot_posterior(["a", "b"], [0.5, 0.5], {"m": [0.0, 1.0]}),
        ds.figures.audit.plot_leak_pair(("x", 2.0, 4.0, "x'", 2.5, 0.5), 1.0),
    ]
    for fig in figs:
        ax = fig.axes[0]
        assert fig.axes[-1].get_xlabel() and ax.get_ylabel()   # stacked panels share the lowest x label
        assert ax.get_title() or fig._suptitle is not None
        assert ax.get_legend() is not None or fig.legends       # in the axes, or below them
        matplotlib.pyplot.close(fig)


# ------------------------------------------------------------------ checkers of the leak chapter

def test_leak_checkers():
    assert leak.check_leak_local_sensitivity(...).status == "not yet"
    assert leak.check_leak_local_sensitivity(4.0).correct
    assert leak.check_leak_local_sensitivity(0.5).status == "wrong"

    p_x = 0.5 * math.exp(-3.5 / 4) + 0.5 * math.exp(-2.5 / 4)
    worked = math.log(p_x / math.exp(-6))
    assert abs(worked - 5.2578) < 1e-3
    assert leak.check_leak_event_loss(worked).correct
    assert leak.check_leak_event_loss(...).status == "not yet"
    assert leak.check_leak_event_loss(math.log(p_x / (0.5 * math.exp(-6)))).status == "wrong"  # one tail only

    c = (5 - math.log(math.cosh(1 / 8))) / 1.75
    assert leak.check_leak_threshold(c).correct
    assert leak.check_leak_threshold(round(c, 2)).correct
    assert leak.check_leak_threshold(5 / 1.75 + 0.5).status == "wrong"
    assert leak.check_leak_threshold(2.0).status == "wrong"
    assert leak.check_leak_threshold("x").status == "wrong"
    assert leak.check_leak_threshold(...).status == "not yet"

    zero = [[1, 1, 1], [2, 2, 2], [3, 3, 3], [10, 10, 10], [11, 11, 11]]
    assert leak.check_leak_discarded(zero).correct
    assert leak.check_leak_discarded(zero[::-1]).correct
    assert leak.check_leak_discarded(zero[:4]).status == "wrong"
    assert leak.check_leak_discarded(zero + [[1, 1, 2]]).status == "wrong"
    assert leak.check_leak_discarded(...).status == "not yet"
    # the chapter asks about four records: the median (mean of the two middle values) cannot
    # move by adding or removing one record exactly when the two middle records are equal
    from itertools import combinations_with_replacement
    four = [list(c) for c in combinations_with_replacement([1, 2, 3, 10, 11], 4) if c[1] == c[2]]
    assert len(four) == 35
    assert leak.check_leak_discarded(four, size=4).correct
    assert leak.check_leak_discarded(four[:-1], size=4).status == "wrong"
    assert leak.check_leak_discarded([[v] * 4 for v in (1, 2, 3, 10, 11)], size=4).status == "wrong"
    # malformed answers get a verdict with a hint, never an exception
    for bad in ("abc", [["a", "b", "c"]], 5, [[1, 2]], [None], {"x": 1}):
        verdict = leak.check_leak_discarded(bad)
        assert verdict.status == "wrong", bad
    assert leak.check_leak_discarded("abc").hint
    for verdict in (leak.check_leak_threshold(2.0), leak.check_leak_discarded(zero[:4])):
        assert "2.85" not in str(verdict)                               # never reveals the answer


def test_leak_checkers_agree_with_brute_force_local_sensitivity():
    """The checker's LS agrees with a brute-force walk over explicitly built neighbours."""
    X = [1, 2, 3, 10, 11]
    x = [2, 2, 10]
    nbs = [x[:i] + x[i + 1:] for i in range(3)] + [x + [v] for v in X]
    brute = max(abs(np.median(x) - np.median(nb)) for nb in nbs)
    assert brute == 4.0
    assert ds.exercises.check_leak_local_sensitivity(brute).correct


def test_leak_pair_loss_panel_is_the_exact_log_ratio():
    fig = ds.figures.audit.plot_leak_pair(("x", 2.0, 4.0, "x'", 2.5, 0.5), 2.0)
    t, loss = fig.axes[1].lines[0].get_data()
    want = np.log(stats.laplace(2.0, 2.0).pdf(t) / stats.laplace(2.5, 0.25).pdf(t))
    assert np.allclose(loss, want)
    matplotlib.pyplot.close(fig)
    with pytest.raises(ValueError):
        ds.figures.audit.plot_leak_pair(("x", 2.0, 0.0, "x'", 2.5, 0.5), 1.0)
