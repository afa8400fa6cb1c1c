"""Tests for sample-and-aggregate (the chapter *Sample and aggregate*): the mechanism
(dpsens.mechanisms.sample_aggregate), its experiments (dpsens.experiments.sample_aggregate) and its checkers."""
from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from scipy import stats

matplotlib.use("Agg")

from dpsens import mechanisms as mech
from dpsens.exercises import sample_aggregate as sa
from dpsens.experiments import sample_aggregate as saa_exp
from dpsens.figures import sample_aggregate as saa_figures

N_AGES = 32561


def test_source_chunks_reproduce_the_source():
    x = np.arange(N_AGES, dtype=float)
    chunks = saa_exp.source_chunks(x, 600)
    # by hand: ceil(32561/600) = 55 rows per chunk; 592 * 55 = 32560, so 593 chunks, the last with 1 row
    assert len(chunks[0]) == 55 and len(chunks) == 593 and len(chunks[-1]) == 1
    assert np.array_equal(np.concatenate(chunks), x)
    assert len(saa_exp.source_chunks(x[:-1], 600)) == 592
    assert len(saa_exp.source_chunks(x, 6000)) == 5427


def test_error_profile_decomposition_matches_simulated_releases():
    rng = np.random.default_rng(0)
    x = rng.integers(17, 91, size=2000).astype(float)
    k, eps = 50, 0.5
    prof = saa_exp.saa_error_profile(x, "median", [k], 20, 80, eps, np.random.default_rng(1), n_partitions=200)
    row = prof.iloc[0]
    assert row["noise_sd"] == pytest.approx(math.sqrt(2) * 60 / (k * eps))
    # direct simulation of the full mechanism
    g = np.random.default_rng(2)
    rel = np.array([mech.sample_and_aggregate(x, "median", k, 20, 80, eps, g) for _ in range(2000)])
    rmse = math.sqrt(np.mean((rel - np.median(x)) ** 2))
    assert rmse == pytest.approx(row["rmse"], rel=0.08)
    # the mean of equal-sized chunk means is the overall mean: no bias, no spread
    prof = saa_exp.saa_error_profile(x, "mean", [40], -1e9, 1e9, 1.0, np.random.default_rng(3), n_partitions=10)
    assert abs(prof.iloc[0]["bias"]) < 1e-9 and prof.iloc[0]["partition_sd"] < 1e-9


def test_bootstrap_multiplicity_against_a_loop():
    n, k, m = 500, 300, 7
    fast = saa_exp.bootstrap_multiplicity(n, k, m, np.random.default_rng(9))
    idx = np.random.default_rng(9).integers(0, n, size=(k, m))
    slow = np.zeros(n, dtype=int)
    for row in idx:
        for r in set(row.tolist()):
            slow[r] += 1
    assert np.array_equal(fast, slow)
    assert fast.sum() == sum(len(set(r)) for r in idx.tolist())


def test_positional_counterexample_breaks_the_bound_random_chunks_do_not():
    x, xp = saa_exp.positional_median_counterexample(50)
    assert len(x) == len(xp) == 300
    # x' is x with one 80 replaced by a 20 (as multisets)
    assert np.sum(x == 80) - np.sum(xp == 80) == 1 and np.sum(xp == 20) - np.sum(x == 20) == 1
    a = mech.chunk_answers(x, "median", 100, 20, 80, shuffle=False).mean()
    b = mech.chunk_answers(xp, "median", 100, 20, 80, shuffle=False).mean()
    assert (a, b) == (50.0, 20.0)
    assert abs(a - b) > 10 * 2 * 60 / 100
    # with a random partition, coupled through the same permutation of record *identities*, the change
    # stays within the bound: replace the first record's value only (the others keep their chunks)
    x_rep = x.copy()
    x_rep[0] = 20.0
    for seed in range(20):
        ca = mech.chunk_answers(x, "median", 100, 20, 80, np.random.default_rng(seed))
        cb = mech.chunk_answers(x_rep, "median", 100, 20, 80, np.random.default_rng(seed))
        assert abs(ca.mean() - cb.mean()) <= 60 / 100 + 1e-12
        assert np.sum(ca != cb) <= 1


def test_noisy_mean_sum_count_distribution():
    x = np.full(1000, 40.0)
    rel = mech.noisy_mean_sum_count(x, 0, 100, 1.0, np.random.default_rng(5), size=20_000)
    # simulate the same quotient independently with scipy
    g = np.random.default_rng(6)
    ref = (40_000 + stats.laplace(0, 200).rvs(20_000, random_state=g)) / (1000 + stats.laplace(0, 2).rvs(
        20_000, random_state=g))
    assert stats.ks_2samp(rel, ref).pvalue > 0.01
    assert isinstance(mech.noisy_mean_sum_count(x, 0, 100, 1.0, np.random.default_rng(5)), float)


def test_figures():
    x = np.random.default_rng(0).integers(17, 91, size=3000).astype(float)
    prof = saa_exp.saa_error_profile(x, "median", [10, 100, 1000], 20, 80, 1.0, np.random.default_rng(1), 5)
    for fig in (saa_figures.plot_saa_tradeoff({"median": prof}, 1.0, marker_k=100),
                saa_figures.plot_saa_explorer(x, 100, 0.5, "median", profile=prof, n_partitions=5, draws=4),
                saa_figures.plot_saa_explorer(x, 100, 0.5, "mean", n_partitions=5, draws=4),
                saa_figures.plot_error_comparison({"a": [0.1, 0.2], "b": [1, 2]})):
        for ax in fig.axes:
            assert ax.get_xlabel() and (ax.get_title() or fig.get_suptitle()) and \
                (ax.get_legend() is not None or fig.legends)
        matplotlib.pyplot.close(fig)


def test_saa_checkers():
    assert sa.check_saa_source_chunks(...).status == "not yet"
    assert sa.check_saa_source_chunks(5427).correct
    assert sa.check_saa_source_chunks(6000).status == "wrong"

    assert sa.check_saa_source_epsilon(...).status == "not yet"
    assert sa.check_saa_source_epsilon(6000 / 5427).correct
    assert sa.check_saa_source_epsilon(1.0).status == "wrong"
    assert sa.check_saa_source_epsilon(5427 / 6000).status == "wrong"

    worked = float(saa_exp.bootstrap_multiplicity(N_AGES, 6000, 55, np.random.default_rng(2023)).max())
    assert sa.check_saa_overlap_epsilon(worked).correct
    assert sa.check_saa_overlap_epsilon(...).status == "not yet"
    assert sa.check_saa_overlap_epsilon(10.13).status == "wrong"        # the mean multiplicity

    assert sa.check_saa_chunks_for_noise(math.ceil(math.sqrt(2) * 60 / 0.05)).correct
    assert sa.check_saa_chunks_for_noise(1697).status == "wrong"
    assert sa.check_saa_chunks_for_noise(1200).status == "wrong"       # scale, not sd
    assert sa.check_saa_chunks_for_noise(5000).status == "wrong"
    assert sa.check_saa_chunks_for_noise(...).status == "not yet"
    assert "1698" not in str(sa.check_saa_chunks_for_noise(1697))


def test_error_comparison_colours_one_per_method_and_title_fits():
    rng = np.random.default_rng(4)
    errors = {f"{q}: {m}": rng.exponential(s, 50)
              for q in ("mean", "median")
              for m, s in (("global sensitivity: Laplace", 1.0), ("smooth sensitivity, Laplace", 0.1),
                           ("sample and aggregate, k = 600", 2.0), ("sample and aggregate, k = 2", 3.0))}
    title = "Absolute error of the released mean and median age, ε = 1, 1,000 releases each"
    fig = saa_figures.plot_error_comparison(errors, title=title)
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["mean", "median"]   # one panel per query
    by_method = {}
    for ax in fig.axes:
        faces = [matplotlib.colors.to_hex(p.get_facecolor()) for p in ax.patches]
        labels = [t.get_text().replace("\n", " ") for t in ax.get_yticklabels()]   # long ones wrapped
        assert labels == [m for m, _ in (("global sensitivity: Laplace", 0), ("smooth sensitivity, Laplace", 0),
                                         ("sample and aggregate, k = 600", 0), ("sample and aggregate, k = 2", 0))]
        for label, face in zip(labels, faces, strict=True):
            by_method.setdefault(label.split(":")[0].split(",")[0], set()).add(face)
        assert ax.get_xscale() == "log"
    # the same mechanism has the same colour in both panels; different mechanisms differ
    assert all(len(c) == 1 for c in by_method.values()), by_method
    assert len({next(iter(c)) for c in by_method.values()}) == 3
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["root-mean-square error", "global sensitivity", "smooth sensitivity", "sample and aggregate"]
    assert fig.axes[-1].get_xlabel() == "absolute error (years, log scale)"
    # the long title is wrapped, and drawn inside the figure (not clipped)
    sup = fig.get_suptitle()
    assert sup.replace("\n", " ") == title and "\n" in sup
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width
    matplotlib.pyplot.close(fig)
    with pytest.raises(ValueError, match="colour_keys"):
        saa_figures.plot_error_comparison({"a": [1.0]}, colour_keys=["x", "y"])


def test_pct_histograms_labels_and_counts():
    v = {"a": np.array([0.0, 1e-3, 1.0, 10.0]), "b": np.array([2.0, 3.0])}
    fig = saa_figures.plot_pct_histograms(v, title="T", floor=1e-4)
    ax = fig.axes[0]
    assert ax.get_title() == "T" and ax.get_ylabel() == "number of releases"
    assert ax.get_xscale() == "log" and "below 0.0001 %" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert len(ax.patches) == 2                        # one histogram per label
    matplotlib.pyplot.close(fig)
    with pytest.raises(ValueError, match="errors"):
        saa_figures.plot_pct_histograms({"a": [-1.0]}, title="T")
    with pytest.raises(ValueError, match="floor"):
        saa_figures.plot_pct_histograms({"a": [1.0]}, title="T", floor=0)


def test_source_chunks_cut_the_data_as_the_source_does():
    # by hand: ceil(100/7) = 15 rows per chunk, so six chunks of 15 and one of 10
    assert [len(c) for c in saa_exp.source_chunks(np.arange(100.0), 7)] == [15] * 6 + [10]


def test_source_chunk_means_are_the_means_of_the_source_chunks():
    x = np.random.default_rng(4).integers(17, 91, size=3257).astype(float)
    for k in (1, 10, 600, 999, 3257):
        want = np.clip([c.mean() for c in saa_exp.source_chunks(x, k)], 20, 80)
        np.testing.assert_allclose(saa_exp.source_chunk_means(x, k, 20, 80), want, rtol=1e-12)
    # clipping: chunks of one record each, every mean is the record itself, clipped to [20, 80]
    np.testing.assert_array_equal(saa_exp.source_chunk_means(x, len(x), 20, 80), np.clip(x, 20, 80))


def test_source_plot_results_ignores_k_and_draws_like_the_source():
    x = np.random.default_rng(6).integers(17, 91, size=1200).astype(float)
    calls = [saa_exp.source_plot_results(x, k, 1.0, np.random.default_rng(93), 20.0, 80.0) for k in (10, 1000, 6000)]
    assert all(np.array_equal(c[i], calls[0][i]) for c in calls for i in (0, 1))   # the same lists, whatever k
    saa_list, gs_list = calls[0]
    assert saa_list.shape == gs_list.shape == (999,)
    # the source's functions written out with explicit chunks, the same seeded draws in the same order
    g = np.random.default_rng(93)
    truth = x.mean()
    want_saa = [abs(truth - (np.clip([c.mean() for c in saa_exp.source_chunks(x, m)], 20, 80).mean()
                             + g.laplace(0.0, 60 / m / 1.0))) / truth * 100 for m in range(1, 1000)]
    want_gs = [abs(truth - (np.minimum(x, u).sum() + g.laplace(0.0, u / 0.5)) / (len(x) + g.laplace(0.0, 2.0)))
               / truth * 100 for u in range(1, 1000)]
    np.testing.assert_allclose(saa_list, want_saa, rtol=1e-9)
    np.testing.assert_allclose(gs_list, want_gs, rtol=1e-9)
    # the public one-release functions draw the same numbers
    g1, g2 = np.random.default_rng(1), np.random.default_rng(1)
    assert saa_exp.source_saa_avg_age(x, 7, 1.0, g1, 20, 80) == pytest.approx(
        np.clip([c.mean() for c in saa_exp.source_chunks(x, 7)], 20, 80).mean() + g2.laplace(0.0, 60 / 7))
    assert saa_exp.source_gs_avg(x, 50, 1.0, g1) == pytest.approx(
        (np.minimum(x, 50).sum() + g2.laplace(0.0, 100.0)) / (len(x) + g2.laplace(0.0, 2.0)))
    assert saa_exp.pct_error(50.0, np.array([45.0, 55.0])).tolist() == [10.0, 10.0]
    with pytest.raises(ValueError, match="999"):
        saa_exp.source_plot_results(x[:500], 10, 1.0, np.random.default_rng(0), 20, 80)


def test_pct_histograms_width_for_a_box():
    from dpsens.figures.style import BOXED_WIDTH_IN, MAX_WIDTH_IN
    from dpsens.widgets.png import smallest_text_pt

    v = {"a": np.array([0.5, 1.0, 10.0])}
    fig = saa_figures.plot_pct_histograms(v, title="T", width_in=BOXED_WIDTH_IN)
    assert fig.get_size_inches()[0] == pytest.approx(BOXED_WIDTH_IN)
    # shown 320 px wide (a dropdown on a 390 px phone), its smallest text is at least 9 px: p * 320 / (72 W)
    assert smallest_text_pt(fig) * 320 / (72 * BOXED_WIDTH_IN) >= 9.0
    matplotlib.pyplot.close(fig)
    with pytest.raises(ValueError, match="width_in must be at most"):
        saa_figures.plot_pct_histograms(v, title="T", width_in=MAX_WIDTH_IN + 1)
