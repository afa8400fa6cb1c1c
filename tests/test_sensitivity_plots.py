"""Tests of the figure functions of the sensitivity chapters (dpsens.figures.sensitivity) and of the style's
legibility measure (dpsens.figures.style):
structure, labels and legends, and that the plotted numbers are the data's."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import dpsens as ds  # noqa: E402


def _table(scale):
    ks = [1, 2, 3, 4]
    return pd.DataFrame({q: [scale * (i + 1) * k for k in ks] for i, q in enumerate(ds.QUERIES)},
                        index=pd.Index(ks, name="k"))


def test_sensitivity_vs_k_one_panel_column_per_data_column():
    fig = ds.figures.sensitivity.plot_sensitivity_vs_k({"a": _table(1.0), "b": _table(2.0)}, title="T", ylabel="GS")
    axes = np.array(fig.axes).reshape(2, 2)
    assert [ax.get_title() for ax in axes[0]] == ["a", "b"]
    for ax in axes.flat:
        assert list(ax.get_xticks()) == [1, 2, 3, 4]          # whole numbers only
    top = {line.get_label() for line in axes[0, 0].lines}
    bottom = {line.get_label() for line in axes[1, 0].lines}
    assert top == set(ds.figures.sensitivity.SAME_UNITS) and bottom == set(ds.figures.sensitivity.OTHER_UNITS)
    line = next(ln for ln in axes[1, 1].lines if ln.get_label() == "sum")
    np.testing.assert_array_equal(line.get_ydata(), _table(2.0)["sum"].to_numpy())
    assert axes[0, 1].get_legend() is not None and axes[1, 1].get_legend() is not None
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
    assert ds.figures.style.smallest_text_pt(fig) == 7.5
    fig.dpsens_text_pt = [6.0]                                   # text drawn as paths (the grid)
    assert ds.figures.style.smallest_text_pt(fig) == 6.0
    plt.close(fig)
    empty = plt.figure()
    assert ds.figures.style.smallest_text_pt(empty) is None
    plt.close(empty)
    with pytest.raises(TypeError, match="fig"):
        ds.figures.style.smallest_text_pt("not a figure")


def test_figure_png_records_the_smallest_text_in_image_pixels():
    import io

    from PIL import Image

    from dpsens.figures import style
    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.set_title("t", fontsize=12)
    ax.tick_params(labelsize=9)
    png = style.figure_png(fig)
    im = Image.open(io.BytesIO(png))
    assert im.size == (400, 300)
    assert float(im.text[style.MIN_TEXT_KEY]) == pytest.approx(9 * 100 / 72, abs=1e-3)
    png2 = style.figure_png(fig, dpi=200)                       # rendered at another dpi: pixels scale
    im2 = Image.open(io.BytesIO(png2))
    assert im2.size == (800, 600)
    assert float(im2.text[style.MIN_TEXT_KEY]) == pytest.approx(9 * 200 / 72, abs=1e-3)
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
    assert ds.figures.style.smallest_text_pt(fig) * fig.dpi / 72 * shown >= 9
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
    assert ds.figures.style.smallest_text_pt(fig) * fig.dpi / 72 * shown >= 9
    plt.close(fig)
    with pytest.raises(ValueError, match="relation"):
        ds.figures.sensitivity.plot_local_global_log({"unbounded": local}, {"unbounded": glob}, "T", relation="bounded")
