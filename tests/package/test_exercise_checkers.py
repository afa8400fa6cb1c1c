"""Properties every exercise checker must have, whatever the chapter.

* robustness: any malformed answer (``...``, None, text, NaN, ±inf, a list, a
  dict, an empty table, nested lists with text) gives a Verdict that is not
  "correct" -- never an exception;
* tolerance: computed real numbers are compared with a relative tolerance of
  0.5 % (an answer rounded to 3 significant figures passes, the classic slips
  do not), exact numbers and counts up to float round-off only;
* no giveaway: no message or hint of a "wrong" verdict contains the expected
  value (formatted in the usual ways), and an answer off by one gets the same
  message as any other wrong answer (no "too small" / "too large").
  The attacks of issue 27 on the package itself are in ``tests/book/test_answer_leaks.py``.

The checkers are discovered (every public ``check_...`` of the submodules of
:mod:`dpsens.exercises`), so a new checker is tested without touching this file.
"""
from __future__ import annotations

import importlib
import math
import pkgutil
import re

import numpy as np
import pandas as pd
import pytest

import dpsens as ds
import dpsens.exercises as EX
from dpsens.exercises import _secret, _verdict


@pytest.fixture(autouse=True)
def _fresh_tries():
    """Each test starts with a fresh count of tries (as after a kernel restart)."""
    _secret._tries.clear()
    yield
    _secret._tries.clear()


def _discover() -> dict:
    found = {}
    for info in pkgutil.iter_modules(EX.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{EX.__name__}.{info.name}")
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("check_") and callable(obj) and obj.__module__ == module.__name__:
                found[name] = obj
    return found


CHECKERS = _discover()

N = 32561
DELTA = 1e-6                 # the book's public delta (dp.md)
_AGES_MEAN = float(ds.load_ages().to_numpy(float).mean())

def _analytic_sigma(l2: float, epsilon: float, delta: float) -> float:
    """The analytic Gaussian's σ (Balle and Wang 2018, Theorem 8) by bisection on its exact condition."""
    def phi(t):
        return 0.5 * math.erfc(-t / math.sqrt(2))

    def achieved_delta(s):
        return phi(l2 / (2 * s) - epsilon * s / l2) - math.exp(epsilon) * phi(-l2 / (2 * s) - epsilon * s / l2)
    lo, hi = 1e-3, 1e3
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if achieved_delta(mid) > delta else (lo, mid)
    return hi


def _kov_epsilon(eps: float, k: int, delta: float) -> float:
    """The optimal composition's ε (Kairouz et al.) by bisection on its profile, summed term by term."""
    def profile(e):
        return sum(math.comb(k, j) * (math.exp((k - j) * eps) - math.exp(e + j * eps))
                   for j in range(k + 1) if (k - 2 * j) * eps > e) / (1 + math.exp(eps)) ** k
    lo, hi = 0.0, k * eps
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if profile(mid) > delta else (lo, mid)
    return hi


def _gaussian_epsilon_nu(nu: float, delta: float) -> float:
    """The analytic Gaussian's ε for Δ/σ = ν, by bisection on Φ(ν/2 − ε/ν) − e^ε Φ(−ν/2 − ε/ν) = δ."""
    def phi(t):
        return 0.5 * math.erfc(-t / math.sqrt(2))
    lo, hi = 0.0, 50.0
    for _ in range(200):
        mid = (lo + hi) / 2
        d = phi(nu / 2 - mid / nu) - math.exp(mid) * phi(-nu / 2 - mid / nu)
        lo, hi = (mid, hi) if d > delta else (lo, mid)
    return hi


def _dp_accounting_laplace(scale: float, k: int, delta: float) -> float:
    """Google's dp_accounting PLD accountant (an independent implementation; pessimistic, grid 1e-4)."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_laplace_mechanism(scale, value_discretization_interval=1e-4).self_compose(k).get_epsilon_for_delta(delta)


def _private_bound_above() -> float:
    """P(ũ > the largest capital gain below the top code): the exponential mechanism's weights written out per
    gap between distinct gains (length × e^{-ε₁ |#below - α n| / (2 max(α, 1 - α))}), α = 0.99, ε₁ = 0.05."""
    gains = np.sort(ds.load_adult()["capital-gain"].to_numpy(float))
    edges = np.unique(np.concatenate([[0.0], gains, [99_999.0]]))
    below = np.searchsorted(gains, edges[:-1], side="right")
    log_w = np.log(np.diff(edges)) - 0.05 * np.abs(below - 0.99 * len(gains)) / (2 * 0.99)
    w = np.exp(log_w - log_w.max())
    return float(w[-1] / w.sum())


# The answers, worked out independently (mostly by hand, see the chapters' solutions).
# kind: "count" = whole number, exact; "exact" = exact real, round-off only; "real" = computed real, 0.5 %.
ANSWERS = {
    "check_dp_density_ratio": (math.exp(3 / 2), "real"),           # e^{|100 - 103| / 2}
    "check_dp_household_budget": (3 * (1 / 5) * 2, "exact"),         # 3 releases of ε = 1/5, a group of 2
    "check_dp_expected_loss": (math.exp(-1), "real"),                # E[L] = ε + e^{-ε} - 1 at ε = 1
    "check_neighbor_count": (5, "count"),
    "check_leak_local_sensitivity": (4.0, "exact"),
    "check_leak_event_loss": (math.log((0.5 * math.exp(-3.5 / 4) + 0.5 * math.exp(-2.5 / 4)) / math.exp(-6)),
                              "real"),
    "check_grid_row": (3.5, "exact"),
    "check_global_sum": (35, "exact"),
    "check_bounded_mean": (1.0, "exact"),
    "check_local_sum": (20, "exact"),
    "check_adult_mean_local": ((100 - _AGES_MEAN) / (N + 1), "real"),
    "check_median_k": (401, "count"),
    "check_proportion_halfwidth": (math.log(100) / 1000, "real"),
    "check_proportion_vector_change": (16 / 90, "real"),
    "check_plan_sensitivity": (600, "exact"),
    "check_private_join_sensitivity": (5, "exact"),
    "check_saa_source_chunks": (5427, "count"),
    "check_saa_source_epsilon": (6000 / 5427, "real"),
    "check_saa_overlap_epsilon": (24, "count"),
    "check_saa_chunks_for_noise": (math.ceil(math.sqrt(2) * 60 / 0.05), "count"),
    "check_ptr_source_accident": (0.5 * math.sqrt(DELTA / 2), "real"),
    "check_ptr_release_distance": (math.ceil(math.log(1 / DELTA) + math.log(50)), "count"),
    "check_ptr_median_distance": (1685, "count"),
    "check_smooth_beta": (1 / (2 * math.log(2 / DELTA)), "real"),
    "check_smooth_turning_point": (math.floor(N - 1 / math.expm1(1 / (2 * math.log(2 / DELTA)))) + 1, "count"),
    "check_smooth_median_direct": (0.7301206443289684, "real"),
    # the median of ages[:2001], beta = 0.5/6, by the direct formula over every t, over psi = 0.5 sqrt(3)/4,
    # times scipy's 0.75 quantile of Student(3)
    "check_smooth_student_error": (1.5353860714602239, "real"),
    "check_leak_threshold": ((5 - math.log(math.cosh(1 / 8))) / 1.75, "two decimals"),
    # the two intervals next to the 858 ages of 37: scores -457.5 and -400.5, lengths 1, eps = 0.1, GS_U = 1
    "check_em_tie_probability": (1 / (1 + math.exp(0.1 * 57 / 2)), "real"),
    "check_inverse_len_median": (2044, "count"),
    "check_rank_score_sensitivity": (2, "exact"),
    # adding 90 to [20, 21, 22, 80, 90]: the mean moves 323/6 - 233/5, the median from 22 to 51
    "check_mean_median_l1": (323 / 6 - 233 / 5 + 29, "real"),
    "check_gaussian_per_count": (_analytic_sigma(5.0, 1.0, 1e-6), "real"),
    "check_crossover_d": (next(d for d in range(1, 1000)
                               if math.sqrt(d) * _analytic_sigma(1.0, 0.5, 1e-8) < math.sqrt(2) * d / 0.5), "count"),
    "check_zcdp_epsilon": (10 / 32 + 2 * math.sqrt(10 / 32 * math.log(1e6)), "real"),   # ρ = 10 · 1/(2·4²)
    "check_advanced_epsilon": (0.05 * math.sqrt(800 * math.log(1e6)) + 400 * 0.05 * math.expm1(0.05), "real"),
    "check_optimal_epsilon": (_kov_epsilon(0.1, 40, 1e-6), "real"),
    "check_gaussian_exact_epsilon": (_gaussian_epsilon_nu(math.sqrt(10) / 4, 1e-6), "real"),
    "check_laplace_pld_epsilon": (_dp_accounting_laplace(10.0, 200, 1e-6), "real"),
    # six comparisons without threshold noise (Lap(4), threshold 2): five ⊥ ratios F(2)/F(1), one ⊤ ratio e^{1/4}
    "check_svt_free_threshold_loss": (5 * math.log((1 - math.exp(-0.5) / 2) / (1 - math.exp(-0.25) / 2)) + 0.25,
                                      "real"),
    "check_stable_threshold": (1 + math.log(1 / (2 * 1e-8)) / 0.25, "real"),           # ½ e^{-ε(η-1)} = δ
    # the two largest occupation counts (a missing value a label), minus one
    "check_mode_distance": (int(np.diff(ds.load_adult()["occupation"].astype(object).fillna("?")
                                        .value_counts().to_numpy()[1::-1])[0]) - 1, "count"),
    # six orders of (2, 1, 0): tails probabilities a = 1 - e^{-1/2}, c = 1 - e^{-1}
    "check_pf_best_probability": ((2 + (1 - math.exp(-0.5)) + (1 - math.exp(-1)) +
                                   2 * (1 - math.exp(-0.5)) * (1 - math.exp(-1))) / 6, "real"),
    "check_private_bound_above": (_private_bound_above(), "real"),
}
REAL = [name for name, (_, kind) in ANSWERS.items() if kind == "real"]
COUNTS = [name for name, (_, kind) in ANSWERS.items() if kind == "count"]
EXACT = [name for name, (_, kind) in ANSWERS.items() if kind == "exact"]

BAD_ANSWERS = {
    "Ellipsis": ..., "None": None, "text": "abc", "nan": float("nan"), "inf": float("inf"),
    "-inf": -float("inf"), "np.nan": np.float64("nan"), "text nan": "nan", "text inf": "inf",
    "list": [1, 2], "dict": {"a": 1}, "empty dict": {}, "empty list": [], "empty DataFrame": pd.DataFrame(),
    "[[1, 'a']]": [[1, "a"]], "[['x', 1, 1]]": [["x", 1, 1]], "[[]]": [[]], "[None]": [None],
    "nested nan": [[float("nan"), 1, 1]], "complex": 1j, "bool": True, "object": object(),
}


def test_every_checker_is_discovered_and_decorated():
    assert len(CHECKERS) >= 32
    assert set(ANSWERS) <= set(CHECKERS)
    assert set(CHECKERS) == {name for name in dir(EX) if name.startswith("check_")}    # all re-exported
    for name, func in CHECKERS.items():
        assert hasattr(func, "expects"), f"{name} is not wrapped by _verdict.checker"
        assert "Precision" in (func.__doc__ or ""), f"{name}'s docstring does not say what precision it accepts"


@pytest.mark.parametrize("bad", list(BAD_ANSWERS.values()), ids=list(BAD_ANSWERS))
@pytest.mark.parametrize("name", sorted(CHECKERS))
def test_malformed_answers_get_a_verdict_never_an_exception(name, bad):
    verdict = CHECKERS[name](bad)
    assert isinstance(verdict, EX.Verdict)
    assert not verdict.correct
    assert verdict.status == ("not yet" if bad is ... or bad is None else "wrong")
    str(verdict), verdict._repr_html_()


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_the_answer_is_correct_also_as_text_and_numpy(name):
    expected, _ = ANSWERS[name]
    check = CHECKERS[name]
    assert check(expected).correct
    assert check(np.float64(expected)).correct
    assert check(repr(float(expected))).correct


# ------------------------------------------------------------------ tolerance
def test_audit_examples():
    assert not EX.check_ptr_source_accident(3.3e-4)                          # 7 % off the true 3.536e-4
    assert not EX.check_proportion_halfwidth(0.004)
    assert not EX.check_proportion_halfwidth(math.log(50) / 1000)           # the one-sided / 98 % interval
    assert EX.check_smooth_beta(0.0345)
    assert EX.check_proportion_vector_change(0.1778)
    assert EX.check_proportion_vector_change(0.178)


def test_close_is_relative_only():
    assert _verdict.close(1.086e-5, 1.0858e-5, _verdict.THREE_DIGITS)
    assert not _verdict.close(1.0e-5, 1.0858e-5, _verdict.THREE_DIGITS)
    assert not _verdict.close(1e-6, 0.0, _verdict.THREE_DIGITS)
    assert _verdict.close(0.0, 0.0)
    assert not _verdict.close("abc", 1.0) and not _verdict.close(float("nan"), float("nan"))


@pytest.mark.parametrize("name", REAL)
def test_real_answers_accept_three_significant_figures(name):
    e, _ = ANSWERS[name]
    check = CHECKERS[name]
    for ok in (float(f"{e:.3g}"), float(f"{e:.4g}"), float(f"{e:.6g}"), e * 1.004, e / 1.004):
        assert check(ok).correct, (name, ok)
    for bad in (e * 1.006, e / 1.006, e * 1.08, e / 1.08, e * 1.15, e / 1.15, float(f"{e:.1g}")):
        if math.isclose(bad, e, rel_tol=5e-3):
            continue        # a one-digit rounding that happens to be close enough
        assert not check(bad), (name, bad)
    assert check(e * 1.02).message.replace(_verdict.format_answer(e * 1.02), "X") == \
        check(e * 1.3).message.replace(_verdict.format_answer(e * 1.3), "X")     # no "close": no bisection


@pytest.mark.parametrize("name", EXACT + COUNTS)
def test_exact_answers_forgive_round_off_only(name):
    e, _ = ANSWERS[name]
    check = CHECKERS[name]
    assert check(e * (1 + 1e-13)).correct
    assert not check(e * (1 + 1e-6))
    assert "close" not in check(e * (1 + 1e-6)).message
    assert "close" not in check(e + 1).message


@pytest.mark.parametrize("name", COUNTS)
def test_counts_must_be_whole(name):
    e, _ = ANSWERS[name]
    check = CHECKERS[name]
    assert check(float(e)).correct and check(str(int(e))).correct
    assert check(e + 0.5).status == "wrong"
    assert check(e - 0.5).status == "wrong"


def test_leak_threshold_accepts_two_decimals_either_way():
    c, _ = ANSWERS["check_leak_threshold"]
    assert EX.check_leak_threshold(round(c, 2)).correct
    assert EX.check_leak_threshold(math.ceil(c * 100) / 100).correct      # the smallest 2-decimal c reaching 5
    assert not EX.check_leak_threshold(round(c, 2) - 0.01)
    assert not EX.check_leak_threshold(round(c, 2) + 0.02)


def test_classic_slips_are_rejected():
    assert not EX.check_smooth_beta(1 / (2 * math.log(1 / DELTA)))         # ln(1/δ) instead of ln(2/δ)
    assert not EX.check_smooth_beta(1 / (2 * math.log(2 * N ** 2)))        # δ = 1/n² with the private n
    assert not EX.check_ptr_source_accident(DELTA)
    assert not EX.check_saa_source_epsilon(1.0)
    assert not EX.check_adult_mean_local((90 - _AGES_MEAN) / (N - 1))      # the worst removal
    assert not EX.check_proportion_vector_change(8 / 90)                    # a single proportion


# ------------------------------------------------------------------ no giveaway
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _spellings(e: float) -> set[str]:
    forms = {repr(float(e)), f"{e:g}", f"{e:.3g}", f"{e:.4g}", f"{e:.5g}"}
    if float(e).is_integer():
        forms.add(str(int(e)))
    return forms


def _wrong_values(e: float) -> list[float]:
    values = [0.0, -1.0, 1e6, e / 2, e * 2, e * 10, e / 10, e * 0.9, e * 1.1, e * 0.97, e * 1.03,
              e * 0.985, e * 1.015, e + 1, e - 1, e + 2, e - 2, e + 7, e - 7]
    return [v for v in values if not math.isclose(v, e, rel_tol=1e-2)]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_wrong_verdicts_never_contain_the_answer(name):
    e, _ = ANSWERS[name]
    check = CHECKERS[name]
    forms = _spellings(e)
    wrong_values = _wrong_values(e)
    assert len(wrong_values) >= 10
    for value in wrong_values:
        verdict = check(value)
        assert not verdict.correct, (name, value)
        text = verdict.message + " " + verdict.hint
        echoes = {repr(value), f"{value:g}", _verdict.format_answer(value)} | ({str(int(value))} if float(value).is_integer() else set())
        for echo in echoes:                                       # the student's own number, echoed back
            text = re.sub(rf"(?<![\d.]){re.escape(echo)}(?![\d.])", "ANSWER", text)
        tokens = set(_NUMBER.findall(text))
        assert not tokens & forms, (name, value, str(verdict))


@pytest.mark.parametrize("name", COUNTS)
def test_off_by_one_is_not_singled_out(name):
    """An answer one short (or one over) gets the message any too-small (too-large) answer gets."""
    e, _ = ANSWERS[name]
    check = CHECKERS[name]

    def shape(k):
        verdict = check(k)
        return verdict.status, verdict.message.replace(str(k), "K"), verdict.hint

    assert shape(e - 1) == shape(e - 7)
    assert shape(e + 1) == shape(e + 7)


def _dataset_spellings(ds_):
    ints = [int(v) for v in ds_]
    floats = [float(v) for v in ds_]
    return {str(ints), str(tuple(ints)), str(floats), str(tuple(floats))}


@pytest.mark.parametrize("name, given, missing", [
    ("check_leak_discarded", [[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [10, 10, 10], [11, 11, 11]]),
    ("check_rows_at_global", [[1, 2, 10]], [[1, 2, 3], [1, 2, 11], [1, 10, 11], [2, 10, 11], [3, 10, 11]]),
    ("check_bounded_neighbors", [[1, 3]], [[1, 2], [2, 3]]),
])
def test_set_answers_do_not_list_what_is_missing(name, given, missing):
    verdict = CHECKERS[name](given)
    assert verdict.status == "wrong"
    for ds_ in missing:
        for form in _dataset_spellings(ds_):
            assert form not in str(verdict), (name, form)
