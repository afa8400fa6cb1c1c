"""The seeded comparisons of the mechanisms (dpsens.experiments.head_to_head).

Each is checked against the loop its chapter ran before it moved into the
package (written out here with the same seeded Generator: the same numbers
must come out), and against what the mechanisms' noise scales imply.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpsens as ds
from dpsens import mechanisms as mech
from dpsens.experiments import head_to_head
from dpsens.experiments import sample_aggregate as saa_exp

#: small integer "ages": the engines and the mechanisms run in a fraction of a second on them
AGES = np.random.default_rng(11).integers(17, 91, size=400).astype(float)
SETTINGS = {"mean": ("unbounded", 0.05), "median": ("bounded", 0.5)}


def _smooth_chapter_loop(ages, eps_grid, delta, lower, upper, rng, setting, runs):
    """The smooth chapter's cell "One comparison across ε", as it was."""
    true = {"mean": ages.mean(), "median": float(np.median(ages))}
    dist = {q: ds.distance_to_high_ls(ages, q, setting[q][1], lower, upper, setting[q][0]) for q in true}
    err = {q: {"global sensitivity": [], "PTR": [], "smooth sensitivity": []} for q in true}
    refused = {q: [] for q in true}
    for eps in eps_grid:
        b = mech.smooth_sensitivity_beta(eps, delta)
        for q in true:
            relation, prop = setting[q]
            if q == "mean":
                gs = mech.noisy_mean_sum_count(ages, lower, upper, eps, rng, size=runs)
            else:
                gs = ds.laplace_mechanism(true[q], upper - lower, eps, rng, size=runs)
            S = ds.smooth_sensitivity(ages, q, b, lower, upper, relation)
            ss = ds.laplace_mechanism(true[q], 2 * S, eps, rng, size=runs)
            ptr = [mech.ptr_from_distance(true[q], dist[q], prop, eps / 2, delta, rng) for _ in range(runs)]
            given = np.array([v for v in ptr if v is not None])
            err[q]["global sensitivity"].append(np.sqrt(np.mean((gs - true[q]) ** 2)))
            err[q]["smooth sensitivity"].append(np.sqrt(np.mean((ss - true[q]) ** 2)))
            err[q]["PTR"].append(np.sqrt(np.mean((given - true[q]) ** 2)) if given.size else np.nan)
            refused[q].append(runs - given.size)
    return err, refused, dist


def test_rmse_across_epsilon_is_the_chapters_loop():
    eps_grid, delta = [0.1, 1.0, 4.0], 1e-4
    got = head_to_head.rmse_across_epsilon(AGES, eps_grid, delta, 0.0, 100.0, np.random.default_rng(2007),
                                      settings=SETTINGS, runs=30)
    err, refused, dist = _smooth_chapter_loop(AGES, eps_grid, delta, 0.0, 100.0, np.random.default_rng(2007),
                                              SETTINGS, 30)
    assert got["distance"] == dist and got["refused"] == refused
    assert list(got["rmse"]["mean"]) == ["global sensitivity", "PTR", "smooth sensitivity"]
    for q in err:
        for name in err[q]:
            np.testing.assert_array_equal(got["rmse"][q][name], err[q][name])


def test_rmse_across_epsilon_matches_the_noise_scales():
    """With many runs each RMSE is the standard deviation its noise scale implies."""
    eps, delta, runs = 2.0, 1e-4, 4000
    got = head_to_head.rmse_across_epsilon(AGES, [eps], delta, 0.0, 100.0, np.random.default_rng(1),
                                      settings=SETTINGS, runs=runs)["rmse"]
    # the median by the Laplace mechanism with GS = 100: sd sqrt(2) * 100 / eps
    assert got["median"]["global sensitivity"][0] == pytest.approx(math.sqrt(2) * 100 / eps, rel=0.05)
    beta = mech.smooth_sensitivity_beta(eps, delta)
    s = ds.smooth_sensitivity(AGES, "mean", beta, 0.0, 100.0, "unbounded")
    assert got["mean"]["smooth sensitivity"][0] == pytest.approx(math.sqrt(2) * 2 * s / eps, rel=0.05)


def test_rmse_across_epsilon_counts_refusals_and_checks_its_arguments():
    # PTR cannot pass when the threshold ln(1/δ)/(ε/2) exceeds the distance: every run refuses
    got = head_to_head.rmse_across_epsilon(AGES, [0.01], 1e-6, 0.0, 100.0, np.random.default_rng(3),
                                      settings=SETTINGS, runs=20)
    assert got["distance"]["median"] < mech.ptr_threshold(0.005, 1e-6)
    assert got["refused"]["median"] == [20] and np.isnan(got["rmse"]["median"]["PTR"][0])
    with pytest.raises(ValueError, match="settings"):
        head_to_head.rmse_across_epsilon(AGES, [1.0], 1e-4, 0.0, 100.0, np.random.default_rng(3),
                                    settings={"mean": ("unbounded", 0.05)})
    with pytest.raises(ValueError, match="epsilons"):
        head_to_head.rmse_across_epsilon(AGES, [0.0], 1e-4, 0.0, 100.0, np.random.default_rng(3), settings=SETTINGS)


def _saa_chapter_loop(ages, best, epsilon, delta, rng, runs, lower, upper):
    """The sample-and-aggregate chapter's cell "Against the other mechanisms", as it was."""
    true = {"mean": ages.mean(), "median": np.median(ages)}
    ptr_bound = {"mean": 0.005, "median": 0.01}
    errors, failures = {}, {}
    for q in ("mean", "median"):
        if q == "mean":
            gs = mech.noisy_mean_sum_count(ages, 0, 100, epsilon, rng, size=runs)
            errors[(q, "global sensitivity: noisy sum / noisy count")] = np.abs(gs - true[q])
        else:
            gs = mech.laplace_mechanism(true[q], 50, epsilon, rng, size=runs)
            errors[(q, "global sensitivity: Laplace, GS = 50")] = np.abs(gs - true[q])
        first = mech.propose_test_release(ages, q, ptr_bound[q], epsilon / 2, delta, 0, 100, rng,
                                          neighbors="unbounded", details=True)
        ptr = [mech.ptr_from_distance(true[q], first["distance"], ptr_bound[q], epsilon / 2, delta, rng)
               for _ in range(runs)]
        ok = np.array([r for r in ptr if r is not None])
        failures[q] = runs - ok.size
        errors[(q, f"propose-test-release, bound {ptr_bound[q]:g}")] = np.abs(ok - true[q])
        sm = mech.smooth_sensitivity_mechanism(ages, q, epsilon, delta, 0, 100, rng, neighbors="unbounded",
                                               details=True)
        errors[(q, "smooth sensitivity, Laplace")] = np.abs(rng.laplace(0, sm["noise_scale"], runs))
        for k in sorted({600, best[q]}):
            agg = saa_exp.partition_aggregates(ages, q, k, lower, upper, rng, n_partitions=50)
            rel = agg[rng.integers(0, agg.size, runs)] + rng.laplace(0, (upper - lower) / (k * epsilon), runs)
            errors[(q, f"sample and aggregate, m = {k}")] = np.abs(rel - true[q])
    return errors, failures


def test_release_errors_is_the_chapters_loop():
    ages = np.random.default_rng(5).integers(17, 91, size=1300).astype(float)
    best = {"mean": 650, "median": 40}
    got, refused = head_to_head.release_errors(ages, {q: {600, best[q]} for q in best}, 1.0, 1e-4,
                                          np.random.default_rng(2025), ptr_bounds={"mean": 0.005, "median": 0.01},
                                          runs=25, data_bounds=(0, 100), chunk_bounds=(20.0, 80.0))
    want, failures = _saa_chapter_loop(ages, best, 1.0, 1e-4, np.random.default_rng(2025), 25, 20.0, 80.0)
    assert refused == failures
    assert list(got) == list(want)                  # the same labels, in the same order (table and figure)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key])


def test_release_errors_global_sensitivity_baseline_and_arguments():
    # the median's Laplace release with GS = (100 - 0)/2: mean absolute error b = 50/ε
    errors, _ = head_to_head.release_errors(AGES, {"mean": [2], "median": [2]}, 2.0, 1e-3, np.random.default_rng(8),
                                       ptr_bounds={"mean": 1.0, "median": 1.0}, runs=4000)
    assert np.mean(errors[("median", "global sensitivity: Laplace, GS = 50")]) == pytest.approx(25.0, rel=0.05)
    with pytest.raises(ValueError, match="ptr_bounds"):
        head_to_head.release_errors(AGES, {"mean": [2], "median": [2]}, 1.0, 1e-3, np.random.default_rng(8),
                               ptr_bounds={"mean": 1.0})
    with pytest.raises(ValueError, match="chunk_counts"):
        head_to_head.release_errors(AGES, {"mean": [0], "median": [2]}, 1.0, 1e-3, np.random.default_rng(8),
                               ptr_bounds={"mean": 1.0, "median": 1.0})
