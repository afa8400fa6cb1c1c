"""Tests of the figure functions of the sensitivity chapters (dpsens.figures.sensitivity) and of the style's
legibility measure (dpsens.figures.style):
structure, labels and legends, and that the plotted numbers are the data's."""
from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import dpsens as ds


def _table(scale):
    ks = [1, 2, 3, 4]
    return pd.DataFrame({q: [scale * (i + 1) * k for k in ks] for i, q in enumerate(ds.QUERIES)},
                        index=pd.Index(ks, name="k"))


def test_sensitivity_vs_k_one_panel_row_per_data_column():
    fig = ds.figures.sensitivity.plot_sensitivity_vs_k({"a": _table(1.0), "b": _table(2.0)}, title="T", ylabel="GS")
    axes = np.array(fig.axes).reshape(2, 2)                  # rows: data columns; columns: units
    assert [ax.get_title() for ax in axes[:, 0]] == ["a: data units", "b: data units"]
    assert [ax.get_title() for ax in axes[:, 1]] == ["a: count, sum, var", "b: count, sum, var"]
    for ax in axes.flat:
        assert list(ax.get_xticks()) == [1, 2, 3, 4]          # whole numbers only
    left = {line.get_label() for line in axes[0, 0].lines}
    right = {line.get_label() for line in axes[0, 1].lines}
    assert left == set(ds.figures.sensitivity.SAME_UNITS) and right == set(ds.figures.sensitivity.OTHER_UNITS)
    line = next(ln for ln in axes[1, 1].lines if ln.get_label() == "sum")
    np.testing.assert_array_equal(line.get_ydata(), _table(2.0)["sum"].to_numpy())
    names = [t.get_text() for t in fig.legends[0].get_texts()]   # one legend below, every query once
    assert sorted(names) == sorted(ds.figures.sensitivity.SAME_UNITS + ds.figures.sensitivity.OTHER_UNITS)
    assert fig.get_size_inches()[0] <= ds.figures.style.MAX_WIDTH_IN
    assert fig._suptitle.get_text() == "T" and "GS" in axes[0, 0].get_ylabel()
    styles = {(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in axes[0, 0].lines}
    assert len(styles) == len(axes[0, 0].lines)               # every line distinguishable
    plt.close(fig)


def test_sensitivity_vs_k_rejects_non_dict():
    with pytest.raises(TypeError):
        ds.figures.sensitivity.plot_sensitivity_vs_k([_table(1.0)], title="T")


def test_local_vs_global_small_multiples():
    glob, loc = _table(2.0), _table(1.0)
    fig = ds.figures.sensitivity.plot_local_vs_global(loc, glob, title="L vs G")
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == list(ds.QUERIES)
    ax = visible[3]  # sum
    labels = [ln.get_label() for ln in ax.lines]
    assert labels == ["global", "local"]
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), loc["sum"].to_numpy())
    assert fig.legends
    plt.close(fig)


def test_enumeration_cost_log_scale():
    fig = ds.figures.sensitivity.plot_enumeration_cost([2, 3, 4], [1e-3, 1e-2, 1e-1], [1e-4, 1e-4, 1e-4], xlabel="m",
                                         title="cost", extrapolated=[1e-3, 1e-2, 1e-1])
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and len(ax.lines) == 3 and ax.get_legend() is not None
    plt.close(fig)


def test_local_global_gap_draws_zero_at_the_edge():
    loc = pd.Series({"mean": 0.002, "median": 0.0, "sum": 100.0})
    glo = pd.Series({"mean": 0.003, "median": 50.0, "sum": 100.0})
    fig = ds.figures.sensitivity.plot_local_global_gap({"unbounded": (loc, glo)}, title="gap")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["mean", "median", "sum"]
    assert [t.get_text() for t in ax.texts] == ["0"]          # the zero is labelled, not hidden
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["global", "local", "local = 0 (drawn at the edge)"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]                 # first query on top
    plt.close(fig)


# ---------------------------------------------------------------- legibility and split figures (issue 15)
def test_smallest_text_pt_is_the_smallest_visible_text():
    fig, ax = plt.subplots()
    ax.set_title("title", fontsize=14)
    ax.set_xlabel("x", fontsize=11)
    ax.tick_params(labelsize=8.5)
    ax.text(0.5, 0.5, "note", fontsize=7.5)
    hidden = ax.text(0.2, 0.2, "hidden", fontsize=2)
    hidden.set_visible(False)
    ax.text(0.3, 0.3, "   ", fontsize=1)                                    # blank: nothing to read
    ax.text(30.0, 30.0, "far outside", fontsize=3, transform=ax.transAxes)  # not in the figure
    assert ds.widgets.png.smallest_text_pt(fig) == 7.5
    fig.dpsens_text_pt = [6.0]                                   # text drawn as paths (the grid)
    assert ds.widgets.png.smallest_text_pt(fig) == 6.0
    plt.close(fig)
    empty = plt.figure()
    assert ds.widgets.png.smallest_text_pt(empty) is None
    plt.close(empty)
    with pytest.raises(TypeError, match="fig"):
        ds.widgets.png.smallest_text_pt("not a figure")


def test_figure_png_records_the_smallest_text_in_image_pixels():
    import io

    from PIL import Image

    from dpsens.widgets.png import MIN_TEXT_KEY, figure_png
    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.set_title("t", fontsize=12)
    ax.tick_params(labelsize=9)
    png = figure_png(fig)
    im = Image.open(io.BytesIO(png))
    assert im.size == (400, 300)
    assert float(im.text[MIN_TEXT_KEY]) == pytest.approx(9 * 100 / 72, abs=1e-3)
    png2 = figure_png(fig, dpi=200)                       # rendered at another dpi: pixels scale
    im2 = Image.open(io.BytesIO(png2))
    assert im2.size == (800, 600)
    assert float(im2.text[MIN_TEXT_KEY]) == pytest.approx(9 * 200 / 72, abs=1e-3)
    plt.close(fig)


def _tables(ks=range(1, 5)):
    k = list(ks)
    local = pd.DataFrame({q: [0.5 * i for i in k] for q in ds.QUERIES}, index=pd.Index(k, name="k"))
    glob = pd.DataFrame({q: [1.0 * i for i in k] for q in ds.QUERIES}, index=pd.Index(k, name="k"))
    local["median"] = 0.0
    return local, glob


def test_local_vs_global_panels_fit_the_page_column():
    local, glob = _tables()
    fig = ds.figures.sensitivity.plot_local_vs_global(local, glob, title="T")
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == list(ds.QUERIES)          # ten panels, one per query
    assert fig.get_size_inches()[0] <= 10.5                                 # four panels a row
    shown = min(1.0, 688 / (fig.get_size_inches()[0] * fig.dpi))            # the page's text column
    assert ds.widgets.png.smallest_text_pt(fig) * fig.dpi / 72 * shown >= 9
    plt.close(fig)


def test_local_global_log_one_relation_per_figure():
    local, glob = _tables(range(1, 11))
    fig = ds.figures.sensitivity.plot_local_global_log({"unbounded": local}, {"unbounded": glob}, "T", relation="unbounded")
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == list(ds.QUERIES)
    median = visible[list(ds.QUERIES).index("median")]
    assert "local = 0 at every k" in [t.get_text() for t in median.texts]
    assert all(ax.get_yscale() == "log" for ax in visible)
    assert fig.get_suptitle() == "T" and [t.get_text() for t in fig.legends[0].get_texts()] == ["global", "local"]
    shown = min(1.0, 688 / (fig.get_size_inches()[0] * fig.dpi))
    assert ds.widgets.png.smallest_text_pt(fig) * fig.dpi / 72 * shown >= 9
    plt.close(fig)
    with pytest.raises(ValueError, match="relation"):
        ds.figures.sensitivity.plot_local_global_log({"unbounded": local}, {"unbounded": glob}, "T", relation="bounded")


# ------------------------------------------------------------------ legible on a phone
def test_default_style_keeps_10pt_text_9px_high_on_a_phone():
    from dpsens.figures import style
    width_in, _ = style.STYLE["figure.figsize"]
    assert width_in == style.MAX_WIDTH_IN == 5.0
    # 10 pt in a 5-in figure shown 358 px wide (a 390 px phone's column): 10 * 358 / (72 * 5) = 9.94 px
    assert style.MIN_FONT_PT * 358 / (72 * width_in) == pytest.approx(9.944, abs=1e-3)
    # at 120 dpi the figure is 600 px, shown at that size in the 688 px desktop column: 16.7 px text
    assert width_in * style.STYLE["figure.dpi"] == 600
    assert style.MIN_FONT_PT * style.STYLE["figure.dpi"] / 72 == pytest.approx(16.667, abs=1e-3)


def _phone_figures():
    """One call of every figure function of dpsens.figures but the grid's, with small inputs."""
    f = ds.figures
    tab = _table(1.0)
    fpr = np.logspace(-6, 0, 20)
    prof = pd.DataFrame({"k": [2, 10, 100], "bias": [0.01, 0.1, 1.0], "partition_sd": [0.01, 0.05, 0.1],
                         "noise_sd": [40.0, 8.0, 0.8]})
    prof["rmse"] = np.sqrt(prof["bias"] ** 2 + prof["partition_sd"] ** 2 + prof["noise_sd"] ** 2)
    ages = np.random.default_rng(0).integers(17, 91, 400).astype(float)
    series = pd.Series({"mean": 0.1, "median": 0.0}), pd.Series({"mean": 1.0, "median": 50.0})
    return {
        "dp.plot_laplace_mechanism": lambda: f.dp.plot_laplace_mechanism(100, (1, 2, 5), 1.0),
        "dp.plot_neighboring_laplace": lambda: f.dp.plot_neighboring_laplace(100.0, 101.0, 1.0),
        "dp.plot_group_log_ratios": lambda: f.dp.plot_group_log_ratios(100.0, 2.0, 1.0, (1, 2, 3)),
        "dp.plot_privacy_loss": lambda: f.dp.plot_privacy_loss([-0.5, 0.2, 1.0], 100.0, 101.0, 1.0),
        "sensitivity.plot_sensitivity_vs_k": lambda: f.sensitivity.plot_sensitivity_vs_k(
            {"school_year": tab, "absence_days": tab}, title="Scenario (a), school table as a pool, n = 6: "
                                                               "unbounded global sensitivity"),
        "sensitivity.plot_local_vs_global": lambda: f.sensitivity.plot_local_vs_global(tab, tab, title="L vs G"),
        "sensitivity.plot_local_global_log": lambda: f.sensitivity.plot_local_global_log(
            {"u": tab}, {"u": 2 * tab}, title="log", relation="u"),
        "sensitivity.plot_enumeration_cost": lambda: f.sensitivity.plot_enumeration_cost(
            [2, 3], [1e-3, 1e-2], [1e-4, 1e-4], xlabel="m", title="cost"),
        "sensitivity.plot_local_global_gap": lambda: f.sensitivity.plot_local_global_gap(
            {"unbounded": series, "bounded": series}, title="gap"),
        "audit.plot_release_densities": lambda: f.audit.plot_release_densities([2, 2.5], [4, 0.5], ["x", "x′"]),
        "audit.plot_attack_roc": lambda: f.audit.plot_attack_roc({"attack": (fpr, fpr ** 0.2)}, 1.0),
        "audit.plot_privacy_loss": lambda: f.audit.plot_privacy_loss([0, 1], [0, 1.7], [0, 1.7], [0, 1.6], 1.0),
        "audit.plot_audit": lambda: f.audit.plot_audit([0.5, 1], {"m": [0.2, 0.4]}),
        "audit.plot_posterior": lambda: f.audit.plot_posterior(
            [f"[{i}, {i}, 10]" for i in range(35)], np.full(35, 1 / 35), {"a": np.full(35, 1 / 35),
                                                                        "b": np.full(35, 1 / 35)}),
        "audit.plot_leak_pair": lambda: f.audit.plot_leak_pair(("x", 2.0, 4.0, "x'", 2.5, 0.5), 1.0),
        "ptr.plot_error_histograms": lambda: f.ptr.plot_error_histograms({"a": [0.1, 0.5], "b": [0.2, 1.0]},
                                                                         title="errors", xlabel="error"),
        "ptr.plot_ptr_tradeoff": lambda: f.ptr.plot_ptr_tradeoff([0.1, 1.0], {"d": [0.0, 40.0]}, 0.5, 20.0, "ptr"),
        "smooth.plot_smooth_curve": lambda: f.smooth.plot_smooth_curve([0, 1, 2], {"A": [0.5, 4.0, 5.0]}, "curve"),
        "smooth.plot_error_vs_epsilon": lambda: f.smooth.plot_error_vs_epsilon([0.5, 1.0], {"a": [2.0, 1.0]},
                                                                               "error", "rmse"),
        "smooth.plot_smooth_explorer": lambda: f.smooth.plot_smooth_explorer(ages, sample_size=200),
        "smooth.plot_leak_closed": lambda: f.smooth.plot_leak_closed([2, 2.5], [4, 0.5], [4.2, 4.1], ["x", "x′"],
                                                                     1.0),
        "sample_aggregate.plot_saa_tradeoff": lambda: f.sample_aggregate.plot_saa_tradeoff({"mean": prof}, 1.0),
        "sample_aggregate.plot_saa_explorer": lambda: f.sample_aggregate.plot_saa_explorer(
            ages, 20, 1.0, n_partitions=4, draws=3, profile=prof),
        "sample_aggregate.plot_error_comparison": lambda: f.sample_aggregate.plot_error_comparison(
            {"mean: global sensitivity": [0.1, 1.0], "mean: sample and aggregate, k = 600": [0.2, 2.0]}),
        "sample_aggregate.plot_pct_histograms": lambda: f.sample_aggregate.plot_pct_histograms(
            {"a": [0.1, 1.0], "b": [0.5, 5.0]}, title="pct"),
        "proportions.plot_proportion_source_figures": lambda: f.proportions.plot_proportion_source_figures(
            trials=500),
        "proportions.plot_proportion_errors": lambda: f.proportions.plot_proportion_errors(epsilons=(0.5, 1.0),
                                                                                           trials=100),
        "proportions.plot_proportion_leak": lambda: f.proportions.plot_proportion_leak(),
        "proportions.plot_proportion_explorer": lambda: f.proportions.plot_proportion_explorer(n=100),
        "transformations.plot_measured_vs_bound": lambda: f.transformations.plot_measured_vs_bound(
            pd.DataFrame({"measured": [1.0, 2.0], "bound": [1.0, 2.0]},
                         index=["filter (rows)", "truncate to 2 rows per person"])),
        "transformations.plot_contribution_noise": lambda: f.transformations.plot_contribution_noise(),
        "transformations.plot_row_vs_id": lambda: f.transformations.plot_row_vs_id(),
        "exponential.plot_output_distributions": lambda: f.exponential.plot_output_distributions(ages[:2000], 0.9,
                                                                                                  0.1),
        "exponential.plot_head_to_head": lambda: f.exponential.plot_head_to_head(
            pd.DataFrame({"q": [0.5, 0.5, 0.9, 0.9], "epsilon": [0.1, 1.0, 0.1, 1.0],
                          "mechanism": ["exponential mechanism (ε)"] * 4, "median |error|": [0.5, 0.4, 0.0, 0.3]}),
            "head to head"),
        "exponential.plot_exponential_toy": lambda: f.exponential.plot_exponential_toy(
            [1, 2, 3, 4, 5], [[0.19, 0.314, 0.116, 0.19, 0.19], [0.2] * 5],
            ["x = [1, 2, 2, 4, 5]", "x′ = [1, 2, 3, 4, 5]"], 1.0),
        "exponential.plot_reachable_intervals": lambda: f.exponential.plot_reachable_intervals(
            [(5.8, 12.2), (5.0, 11.6), (7.4, 13.0), (6.9, 15.4), (5.6, 16.3)],
            ["remove 1", "remove 2", "remove 4", "remove 7", "remove 9"], 8.56, "variance of x = 8.56",
            "variance after one removal and one addition",
            "x = [1, 2, 4, 7, 9]: one bar per removed record"),
        "vector.plot_noisy_histogram": lambda: f.vector.plot_noisy_histogram(ages, 0.1, 1e-6, seed=1),
        "accuracy.plot_worst_case_bounds": lambda: f.accuracy.plot_worst_case_bounds(
            epsilons=[0.1, 1.0, 5.0], cells=[2, 100, 10 ** 5]),
        "accuracy.plot_instance_bounds": lambda: f.accuracy.plot_instance_bounds(ages[:101], epsilons=[0.1, 1.0]),
        "accuracy.plot_accuracy_check": lambda: f.accuracy.plot_accuracy_check(
            ds.accuracy.simulate_accuracy(ages, 150, 0.5, 0.05, np.random.default_rng(0), runs=50, n_chunks=20,
                                          n_partitions=2), 0.5, 0.95),
        "vector.plot_clipping_error": lambda: f.vector.plot_clipping_error(
            np.concatenate([np.zeros(300), np.random.default_rng(1).pareto(1.2, 100) * 1000]), 0.1,
            np.random.default_rng(2).choice(["a", "b", "c"], 400), group_name="group"),
        "composition.plot_accountants": lambda: f.composition.plot_accountants("laplace", 10.0, 1e-6, max_releases=100),
        "stability.plot_svt_losses": lambda: f.stability.plot_svt_losses(
            [1, 2, 3], {v: [0.5, 1.0 + i / 4, 1.5 + i / 2] for i, v in enumerate(f.stability.VARIANT_LABELS)}, 1.0),
        "stability.plot_stable_histogram": lambda: f.stability.plot_stable_histogram(
            {"a": 400, "b": 60, "c": 20, "d": 3, "e": 1}, {"a": 401.5, "b": 58.2}, 1.0, 1e-6),
        "stability.plot_selection": lambda: f.stability.plot_selection([3, 2, 1, 0], 1.0),
        "floating.plot_reachable_doubles": lambda: f.floating.plot_reachable_doubles(0.0, 1.0, 1.0, 0.4375, count=20),
        "floating.plot_identifying_fraction": lambda: f.floating.plot_identifying_fraction(
            [(0.0, 1.0), (10.0, 11.0)], [0.1, 1.0], releases=200),
        "floating.plot_discrete_noise": lambda: f.floating.plot_discrete_noise(3, 4, draws=2000, seed=1),
    }


def test_every_figure_function_is_covered_by_the_phone_test():
    import inspect

    covered = set(_phone_figures())
    modules = sorted(p.stem for p in pathlib.Path(ds.figures.__file__).parent.glob("*.py")
                     if p.stem not in ("__init__", "style", "glyphs", "grid"))   # the grid: left out, as before
    assert {"dp", "accuracy", "composition", "stability", "floating"} <= set(modules)
    for module in modules:
        mod = getattr(ds.figures, module)
        for name in mod.__all__:
            if name.startswith("plot_") and inspect.isfunction(getattr(mod, name)):
                assert f"{module}.{name}" in covered, f"{module}.{name} is not checked for a phone"


@pytest.mark.parametrize("name", sorted(_phone_figures()))
def test_every_figure_is_legible_on_a_phone(name):
    """At most 5 in wide, no text under 10 pt, no title wider than the figure (as rendered)."""
    import io

    from PIL import Image

    from dpsens.figures import style
    from dpsens.widgets.png import MIN_TEXT_KEY, figure_png, smallest_text_pt
    with matplotlib.rc_context(style.STYLE):
        fig = _phone_figures()[name]()
    assert fig.get_size_inches()[0] <= style.MAX_WIDTH_IN + 1e-9
    png = figure_png(fig)
    im = Image.open(io.BytesIO(png))
    width = im.size[0]
    px = float(im.text[MIN_TEXT_KEY])
    assert px * 358 / width >= 9.0, f"{name}: text {px * 358 / width:.1f} px high at 358 px"
    assert smallest_text_pt(fig) >= 10
    renderer = fig.canvas.get_renderer()
    texts = [fig._suptitle] if fig._suptitle is not None else []
    texts += [ax.title for ax in fig.axes if ax.get_visible()]
    texts += [ax.xaxis.label for ax in fig.axes if ax.get_visible()]
    for t in texts:
        if t.get_text():
            box = t.get_window_extent(renderer)
            assert box.x0 >= -1 and box.x1 <= fig.bbox.width + 1, f"{name}: {t.get_text()!r} is clipped"
    plt.close(fig)


def test_fit_titles_wraps_only_titles_too_wide():
    from dpsens.figures import style
    from dpsens.widgets.png import fit_titles
    with matplotlib.rc_context(style.STYLE):
        fig, (a, b) = plt.subplots(1, 2)
    a.set_title("short")
    b.set_title("a rather long title that cannot fit above half of a five inch figure")
    fig.suptitle("fits")
    assert fit_titles(fig) is True
    assert a.get_title() == "short" and fig._suptitle.get_text() == "fits"
    assert "\n" in b.get_title() and b.get_title().replace("\n", " ") == (
        "a rather long title that cannot fit above half of a five inch figure")
    fig.canvas.draw()
    assert b.title.get_window_extent().width <= b.bbox.width
    assert fit_titles(fig, drawn=True) is False          # nothing left to wrap
    with pytest.raises(TypeError, match="fig"):
        fit_titles("not a figure")
    plt.close(fig)


def test_legend_below_lists_each_label_once_under_the_axes():
    from dpsens.figures import style
    with matplotlib.rc_context(style.STYLE):
        fig, (a, b) = plt.subplots(2, 1)
    a.plot([0, 1], label="x")
    b.plot([0, 1], label="x")
    b.plot([1, 0], label="y")
    leg = style.legend_below(fig, ncols=2)
    assert [t.get_text() for t in leg.get_texts()] == ["x", "y"]
    assert ds.widgets.describe_figure(fig).endswith("legend: x, y.")   # the alt text still names them
    fig.canvas.draw()
    assert leg.get_window_extent().y1 <= b.get_tightbbox().y0 + 1   # under the lowest axes' labels
    with pytest.raises(ValueError, match="ncols"):
        style.legend_below(fig, ncols=0)
    plt.close(fig)
