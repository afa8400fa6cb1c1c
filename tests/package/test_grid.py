"""Tests of dpsens.grid (the sensitivity grid) and the median-grid exercise checkers.

Expected values come from hand computation (the median grid of the source,
X = {1, 2, 3, 10, 11}, n = 3, k = 1) and from an independent brute force
written here with itertools, not from the code under test.
"""
from __future__ import annotations

import itertools
from collections import Counter

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import dpsens as ds
from dpsens import grid
from dpsens.figures import grid as grid_figures
from dpsens.exercises import median_grid as ex

X = ds.Pool([1, 2, 3, 10, 11])


# --- an independent brute force over plain Python lists -------------------

def _releases(values, n):
    return sorted({tuple(sorted(c)) for c in itertools.combinations(values, n)})


def _neighbours(x, values, k, relation):
    """Neighbours of x drawn from a pool given as a list (records used once)."""
    out = set()
    rest_of = lambda kept: list((Counter(values) - Counter(kept)).elements())  # noqa: E731
    removals = {tuple(sorted(r)) for r in itertools.combinations(x, k)}
    if relation == "unbounded":
        for r in removals:
            out.add(tuple(sorted((Counter(x) - Counter(r)).elements())))
        for a in itertools.combinations(rest_of(x), k):
            out.add(tuple(sorted(x + a)))
    else:
        for r in removals:
            kept = tuple(sorted((Counter(x) - Counter(r)).elements()))
            for a in itertools.combinations(rest_of(kept), k):
                out.add(tuple(sorted(kept + a)))
    return out


def _brute_local(x, values, k, relation, f):
    fx = f(np.array(x, float))
    return max(abs(fx - f(np.array(y, float))) for y in _neighbours(x, values, k, relation))


# --- the source's median grid, by hand -------------------------------------

def test_median_grid_shape_and_global_values():
    unb = grid.sensitivity_grid(X, 3, 1, "median", "unbounded")
    bnd = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    assert len(unb.rows) == len(bnd.rows) == 10          # C(5, 3) releases
    assert unb.shape == (10, 5)                          # 3 removals + 2 additions
    assert bnd.shape == (10, 6)                          # 3 x 2 replacements, x itself left out
    assert unb.global_sensitivity == 4.5                 # {1,2,11} minus the 1: median 2 -> 6.5
    assert bnd.global_sensitivity == 8.0                 # {1,2,10}: 1 -> 11 moves the median 2 -> 10


def test_median_grid_rows_by_hand():
    unb = grid.sensitivity_grid(X, 3, 1, "median", "unbounded")
    bnd = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    lu = dict(zip(unb.rows, unb.local, strict=True))
    lb = dict(zip(bnd.rows, bnd.local, strict=True))
    # {1,3,10}: median 3; neighbours' medians 6.5, 5.5, 2, 2.5, 6.5 -> 3.5
    assert lu[(1.0, 3.0, 10.0)] == 3.5
    # {1,2,3}: median 2; removals 2.5, 2, 1.5; additions 2.5, 2.5 -> 0.5
    assert lu[(1.0, 2.0, 3.0)] == 0.5
    # bounded {1,3,10}: replace 3 by 2 -> 2 (change 1), by 11 -> 10 (change 7)
    assert lb[(1.0, 3.0, 10.0)] == 7.0
    assert lb[(1.0, 2.0, 3.0)] == 1.0
    top = {x for x, v in lb.items() if v == 8.0}
    assert top == {(1.0, 2.0, 10.0), (1.0, 2.0, 11.0), (1.0, 10.0, 11.0), (2.0, 10.0, 11.0)}


def test_cells_are_absolute_changes_of_listed_neighbours():
    g = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    for i, x in enumerate(g.rows):
        fx = np.median(x)
        for j, y in enumerate(g.neighbor_datasets[i]):
            assert g.cells[i, j] == abs(fx - np.median(y))
            assert len(y) == 3 and y != x
        assert np.all(np.isnan(g.cells[i, len(g.neighbor_datasets[i]):]))


def test_include_self_adds_a_zero_cell_only():
    with_self = grid.sensitivity_grid(X, 3, 1, "median", "bounded", include_self=True)
    without = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    assert with_self.shape[1] == without.shape[1] + 1
    np.testing.assert_array_equal(with_self.local, without.local)


@pytest.mark.parametrize("relation", ["unbounded", "bounded"])
@pytest.mark.parametrize("query", list(ds.QUERIES))
@pytest.mark.parametrize("values,n,k", [([1, 2, 3, 10, 11], 3, 1), ([1, 2, 2, 5, 9, 9], 4, 2),
                                        ([0, 1, 4, 4, 7], 3, 2)])
def test_row_maxima_match_independent_brute_force(values, n, k, relation, query):
    f = ds.QUERIES[query]
    g = grid.sensitivity_grid(ds.Pool(values), n, k, query, relation)
    assert list(g.rows) == [tuple(map(float, r)) for r in _releases(values, n)]
    for x, ls in zip(g.rows, g.local, strict=True):
        assert ls == pytest.approx(_brute_local(x, values, k, relation, f), abs=1e-12)
    expected_global = max(_brute_local(x, values, k, relation, f) for x in _releases(values, n))
    assert g.global_sensitivity == pytest.approx(expected_global, abs=1e-12)


def test_count_grid_is_constant():
    assert set(grid.sensitivity_grid(X, 3, 2, "count", "unbounded").local) == {2.0}
    assert grid.sensitivity_grid(X, 3, 2, "count", "bounded").global_sensitivity == 0.0


def test_domain_universe_lets_values_repeat():
    g = grid.sensitivity_grid(ds.Domain([1, 2]), 2, 1, "sum", "unbounded")
    assert g.rows == ((1.0, 1.0), (1.0, 2.0), (2.0, 2.0))
    assert (2.0, 2.0, 2.0) in g.neighbor_datasets[2]            # a domain can add a third 2
    assert g.global_sensitivity == 2.0


# --- the source's bounded variant ------------------------------------------

def _source_variant_brute(x, values, k, f):
    """The source's loops, transcribed: groups by kept records, all pairs inside a group."""
    best = 0.0
    for kept in itertools.combinations(x, len(x) - k):
        rest = list((Counter(values) - Counter(kept)).elements())
        group = [list(kept) + list(a) for a in itertools.combinations(rest, k)]
        for a, b in itertools.combinations(group, 2):
            best = max(best, abs(f(np.array(a, float)) - f(np.array(b, float))))
    return best


def test_source_variant_reports_8_on_four_rows_where_definition_gives_7():
    bnd = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    diff = {x: (grid.source_bounded_local(x, X), ls) for x, ls in zip(bnd.rows, bnd.local, strict=True)
            if grid.source_bounded_local(x, X) != ls}
    assert diff == {(1.0, 3.0, 10.0): (8.0, 7.0), (1.0, 3.0, 11.0): (8.0, 7.0),
                    (2.0, 3.0, 10.0): (8.0, 7.0), (2.0, 3.0, 11.0): (8.0, 7.0)}
    value, (a, b) = grid.source_bounded_local([1, 3, 10], X, return_pair=True)
    assert value == 8.0 and {a, b} == {(1.0, 2.0, 10.0), (1.0, 10.0, 11.0)}


@pytest.mark.parametrize("query", ["median", "mean", "var", "percentile_90"])
def test_source_variant_matches_transcribed_loops_and_bounds(query):
    values = [1, 2, 2, 5, 9, 12]
    f = ds.QUERIES[query]
    for k in (1, 2):
        for x in _releases(values, 4):
            src = grid.source_bounded_local(x, ds.Pool(values), k, query)
            assert src == pytest.approx(_source_variant_brute(x, values, k, f), abs=1e-12)
            ls = _brute_local(x, values, k, "bounded", f)
            assert ls - 1e-12 <= src <= 2 * ls + 1e-12      # never below, at most twice


def test_source_variant_global_equals_definition_global():
    for query in ds.QUERIES:
        bnd = grid.sensitivity_grid(X, 3, 1, query, "bounded")
        src = max(grid.source_bounded_local(x, X, 1, query) for x in bnd.rows)
        assert src == pytest.approx(bnd.global_sensitivity)


# --- sizes, validation, figures --------------------------------------------

def test_grid_size_from_counts():
    assert grid.grid_size(X, 3, 1, "unbounded") == (10, 5)
    assert grid.grid_size(X, 3, 1, "bounded") == (10, 9)   # choices, x itself counted 3 times
    assert grid.grid_size(ds.Domain(range(50)), 10, 1)[1] == -1  # too many rows to look further


@pytest.mark.parametrize("kwargs,err", [
    ({"n": 3, "k": 3}, ValueError), ({"n": 6}, ValueError), ({"query": "mode"}, ValueError),
    ({"neighbors": "replace"}, ValueError), ({"n": 2.5}, TypeError),
])
def test_bad_input_raises_with_clear_message(kwargs, err):
    args = {"universe": X, "n": 3, "k": 1, "query": "median", "neighbors": "unbounded", **kwargs}
    with pytest.raises(err):
        grid.sensitivity_grid(**args)


def test_unknown_preset_lists_presets():
    with pytest.raises(ValueError, match="Pool"):
        grid.resolve_universe("no such universe")


def test_plot_default_has_two_panels_and_marks_the_maxima():
    fig = grid_figures.plot_sensitivity_grid()
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["unbounded: global sensitivity 4.5", "bounded: global sensitivity 8"]
    unb, bnd = fig.dpsens_cells
    assert sum(t.count("★") for row in bnd for t in row) == 8   # eight cells of the bounded grid reach 8
    assert sum(t.count("★") for row in unb for t in row) == 2   # {1,2,11} and {1,10,11} lose the 1
    assert sum(t.count("▲") for row in unb for t in row) == 17  # the other row maxima (4+2+0+2+1+0+2+1+2+3)
    assert unb[0] == ["−3: 0.5▲", "−2: 0", "−1: 0.5▲", "+10: 0.5▲", "+11: 0.5▲"]
    assert "★" in fig._suptitle.get_text() and "▲" in fig._suptitle.get_text()
    plt.close(fig)


def test_plot_draws_every_cell_text_as_one_path():
    """Cells, labels and captions are glyph outlines in one artist; titles stay Text."""
    fig = grid_figures.plot_sensitivity_grid(neighbors="unbounded")
    fig.canvas.draw()
    ink = [a for a in fig.artists if a.get_path().vertices.size]
    assert len(ink) == 1
    # the path spans the labels left of the cells to the last column, and the caption below
    box = ink[0].get_window_extent()
    cells = fig.axes[0].get_window_extent()
    assert box.x0 < cells.x0 and box.y0 < cells.y0 and box.x1 <= fig.bbox.x1
    assert not fig.axes[0].texts                                # no per-row Text objects left
    plt.close(fig)


def test_compact_counts():
    assert grid_figures._compact(792) == "792"
    assert grid_figures._compact(12_650) == "12,650"
    assert grid_figures._compact(123_456_789_012_345_678) == "1.2e+17"
    assert grid_figures._compact(9_960_000) == "1.0e+07"
    assert grid_figures._compact(10**150) == "1.0e+150"


@pytest.mark.parametrize("kwargs,says", [
    ({"universe": list(range(12)), "n": 5}, "792 rows:"),
    ({"universe": "Domain {1, 2, 3} (values reusable)", "n": 4, "k": 2, "neighbors": "bounded"},
     "15 rows and up to 24 neighbours per row"),
    ({"n": 3, "k": 3}, "group size k (records changed) must be from 1 to n − 1 = 2"),   # invalid k
    ({"n": 1}, "n must be"),                               # n >= 2 (used to raise)
    ({"n": 0, "k": 1}, "n must be"),
    ({"n": 6}, "A pool of 5 values has no release of n = 6 records"),   # more records than the pool holds
    ({"n": 2.5}, "n must be an integer"),
    ({"query": "mode"}, "mode"),
    ({"neighbors": "replace"}, "replace"),
    ({"universe": []}, ""),
    ({"universe": ["a", "b"]}, ""),
    ({"universe": ds.Domain(range(100)), "n": 50}, "1.3e+40 rows"),   # not a 40-digit integer
    ({"universe": [123456789.123, 2e9, 3.5e-7, 4, 5]}, "too long to read"),
])
def test_plot_refuses_unreadable_or_invalid_grids_with_a_message(kwargs, says):
    fig = grid_figures.plot_sensitivity_grid(**kwargs)
    assert fig.axes[0].get_title() == "Cannot draw this grid"
    text = fig.axes[0].texts[0].get_text()
    assert text and says in text
    assert len(text) < 400                                 # a message, not a wall of digits
    plt.close(fig)


def test_grid_size_checks_n_like_sensitivity_grid():
    with pytest.raises(ValueError, match="n must be"):
        grid.grid_size(X, 1)
    with pytest.raises(ValueError, match="n must be"):
        grid.grid_size(X, 6)
    with pytest.raises(ValueError, match="k must be"):
        grid.grid_size(X, 3, 3)


def test_plot_source_comparison_shades_the_four_rows():
    fig = grid_figures.plot_source_comparison()
    ax = fig.axes[0]
    assert len(ax.patches) == 4
    assert fig.legends and ax.get_xlabel()
    assert ax.get_yticklabels()[0].get_text() == "x = [1, 2, 3]"          # a dataset: square brackets
    plt.close(fig)


# --- exercise checkers ------------------------------------------------------

def test_check_grid_row():
    assert ex.check_grid_row(...).status == "not yet"
    assert ex.check_grid_row(3.5).correct
    assert ex.check_grid_row(7).status == "wrong"


def test_check_rows_at_global():
    """Bounded, k = 2: the releases with median 2 or 10 reach 8 (by hand: a median of three
    members of X is 2, 3 or 10; two replacements move a median of 2 to 10 and back)."""
    assert ex.check_rows_at_global(...).status == "not yet"
    right = [[1, 2, 3], [1, 2, 10], [1, 2, 11], [1, 10, 11], [2, 10, 11], [3, 10, 11]]
    assert ex.check_rows_at_global(right).correct
    assert ex.check_rows_at_global(right[::-1]).correct
    k1_rows = [[1, 2, 10], [1, 2, 11], [1, 10, 11], [2, 10, 11]]          # the answer for k = 1
    verdict = ex.check_rows_at_global(k1_rows)
    assert verdict.status == "wrong" and "k = 1" in str(verdict)
    every_row = right + [[1, 3, 10], [1, 3, 11], [2, 3, 10], [2, 3, 11]]
    assert ex.check_rows_at_global(every_row).status == "wrong"
    assert ex.check_rows_at_global(right[:2]).status == "wrong"
    assert ex.check_rows_at_global(5).status == "wrong"
    assert ex.check_rows_at_global([[1, 2]]).status == "wrong"


def test_exercise_answers_are_not_printed_before_the_exercises():
    """The chapter must not show an exercise's answer above it (table, figure or explorer)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "chapters" / "median_grid.md").read_text()
    row_ex = text.index(":label: ex-median_grid-row")
    assert text.index("grid.grid_table(universe") > row_ex                # the grid comes after
    assert text.index("LS unbounded") > row_ex                            # so does the table
    top_ex = text.index(":label: ex-median_grid-top")
    assert "k=2" not in text[:top_ex].replace(" ", "")                    # no k = 2 grid above it
    assert text.index("ds.widgets.explorer(") > top_ex                    # nor an explorer


def test_check_twice_local():
    assert ex.check_twice_local(...).status == "not yet"
    assert ex.check_twice_local([1, 1, 1]).correct
    assert ex.check_twice_local([0, 1, 2]).status == "wrong"
    assert ex.check_twice_local([1, 1]).status == "wrong"
    assert ex.check_twice_local([1, 1, 5]).status == "wrong"


@pytest.mark.parametrize("universe,n,k", [(X, 3, 1), (ds.Pool([1, 2, 2, 5, 9, 9]), 4, 2),
                                          (ds.Domain([1, 2, 3]), 4, 2)])
def test_grid_maxima_equal_the_exact_engine(universe, n, k):
    for relation in ("unbounded", "bounded"):
        for query in ds.QUERIES:
            g = grid.sensitivity_grid(universe, n, k, query, relation)
            for x, ls in zip(g.rows, g.local, strict=True):
                assert ls == pytest.approx(ds.local_sensitivity(x, query, universe, k=k, neighbors=relation),
                                           abs=1e-9)
            assert g.global_sensitivity == pytest.approx(
                ds.global_sensitivity(query, universe, n, k=k, neighbors=relation), abs=1e-9)


# --- the live explorer ------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("1, 2, 3, 10, 11", [1, 2, 3, 10, 11]), ("{1, 2, 3, 10, 11}", [1, 2, 3, 10, 11]),
    ("1 2 2.5", [1, 2, 2.5]), ("[−1; 0, 4]", [-1, 0, 4]), (" 7 ", [7]),
])
def test_parse_values(text, expected):
    assert grid.parse_values(text) == expected


@pytest.mark.parametrize("text,match", [
    ("", "at least two values"), ("1, 2, x", "'x' is not a number"), ("1, nan", "not a finite number"),
    ("1, inf", "not a finite number"), (", ".join(["1"] * 41), "41 values: at most 40"), (None, "as text"),
])
def test_parse_values_refuses_with_a_message(text, match):
    with pytest.raises(ValueError, match=match):
        grid.parse_values(text)


@pytest.mark.parametrize("kwargs,says", [
    ({"values": "1, 2, x"}, "Cannot read the universe: 'x' is not a number"),
    ({"values": ""}, "Cannot read the universe"),
    ({"values": "5"}, "A pool of 1 value has no release"),           # a pool of one value, n = 3
    ({"values": "1, 2, 3", "kind": "set"}, "kind must be"),
    ({"values": "1, 2, 3", "kind": "domain", "n": 8, "k": 7}, "rows"),
    ({"n": 3, "k": 3}, "must be from 1 to n − 1 = 2"),
])
def test_plot_grid_from_text_answers_bad_input_with_a_message(kwargs, says):
    fig = grid_figures.plot_grid_from_text(**kwargs)
    assert fig.axes[0].get_title() == "Cannot draw this grid"
    assert says in fig.axes[0].texts[0].get_text()
    plt.close(fig)


def test_plot_grid_from_text_draws_a_domain():
    fig = grid_figures.plot_grid_from_text("1, 2, 3", kind="domain", n=2, query="sum", neighbors="unbounded")
    assert fig.axes[0].get_title() == "unbounded: global sensitivity 3"
    assert fig.dpsens_cells[0][0][:2] == ["−1: 1", "+1: 1"]       # {1,1}: remove a 1, add a 1
    plt.close(fig)


# --- the grid as a table -------------------------------------------------

def _cells(table_html):
    """(style, text) of every neighbour cell of an HTML table, row by row (tags stripped)."""
    import html as htmlmod
    import re
    rows = re.findall(r"<tr><th scope=\"row\"[^>]*>(.*?)</th><td[^>]*>(.*?)</td>(.*?)</tr>", table_html)
    return [(htmlmod.unescape(x), fx, [(s, htmlmod.unescape(re.sub(r"<[^>]+>", "", c)))
                                      for s, c in re.findall(r'<td style="([^"]*)">(.*?)</td>', rest)])
            for x, fx, rest in rows]


def test_grid_table_shows_the_source_grid_with_its_maxima_marked():
    t = grid_figures.grid_table()
    tables = t.html.split("</table>")[:-1]
    assert len(tables) == 2                                          # unbounded, then bounded
    assert "unbounded neighbours (records added or removed): global sensitivity 4.5" in tables[0]
    assert "bounded neighbours (records replaced): global sensitivity 8" in tables[1]
    unb, bnd = _cells(tables[0]), _cells(tables[1])
    assert [x for x, _, _ in unb] == ["[1, 2, 3]", "[1, 2, 10]", "[1, 2, 11]", "[1, 3, 10]", "[1, 3, 11]",
                                      "[1, 10, 11]", "[2, 3, 10]", "[2, 3, 11]", "[2, 10, 11]", "[3, 10, 11]"]
    x, fx, cells = unb[0]                                            # [1, 2, 3], median 2: by hand
    assert fx == "2" and [c for _, c in cells] == ["−3: 0.5▲", "−2: 0", "−1: 0.5▲", "+10: 0.5▲", "+11: 0.5▲"]
    assert ["dashed" in s for s, _ in cells] == [True, False, True, True, True]
    solid = [c for _, _, row in unb + bnd for s, c in row if "outline:2px solid" in s]
    assert len(solid) == 2 + 8 and all(c.endswith("★") for c in solid)   # as in the figure: 2 and 8 cells
    assert [c for _, _, row in unb for s, c in row if "outline:2px solid" in s] == ["−1: 4.5★", "−11: 4.5★"]
    # darker is larger: the shade of a 0 change is lighter than that of the global maximum
    zero = next(s for s, c in cells if c == "−2: 0")
    assert "background:#f7fbff" in zero                             # the lightest blue of the colour map
    assert t.dpsens_cells[0][0] == [c for _, c in cells]


def test_grid_table_answers_bad_input_with_a_sentence():
    assert grid_figures.grid_table(list(range(12)), n=5).dpsens_alt.startswith(
        "Cannot draw this grid: This grid would have 792 rows")
    msg = grid_figures.grid_table_from_text("1, 2, x")
    assert "<table" not in msg.html and "&#x27;x&#x27; is not a number" in msg.html
    assert msg.dpsens_alt.startswith("Cannot draw this grid: Cannot read the universe: 'x' is not a number")


def test_grid_table_text_is_the_pages_own():
    """No font size is set inside the tables: they are as legible as the page's text, on any screen."""
    t = grid_figures.grid_table()
    for table in t.html.split("</table>")[:-1]:
        assert "font-size" not in table[table.index("<table"):]


def _live():
    """The live explorer's widget, and a function that sets a control to a value (not an index)."""
    pytest.importorskip("ipywidgets")
    ex = grid_figures.grid_explorer()
    box = ex.widget()
    controls = dict(zip(ex.names, box._dpsens_controls, strict=True))

    def choose(name, value):
        i = ex.names.index(name)
        if i in ex.texts:
            controls[name].value = value
        else:
            controls[name].value = next(j for j, (_, v) in enumerate(ex.options[i]) if v == value)

    def shown():
        """The alt text of the view the explorer shows (a table: an HTML view)."""
        return next(alt for content, alt in ex.views.values() if content == box._dpsens_html.value)

    return ex, box, controls, choose, shown


def test_live_explorer_is_the_one_explorer_class_with_lazy_views():
    ex, box, controls, choose, shown = _live()
    assert isinstance(ex, ds.widgets.Explorer) and ex.lazy and list(ex.views) == [ex.default]
    assert list(controls) == ["values", "kind", "n", "k", "neighbors", "query"]
    assert [v for _, v in ex.options[ex.names.index("query")]] == list(ds.QUERIES)      # all ten queries
    assert [v for _, v in ex.options[ex.names.index("neighbors")]] == ["unbounded", "bounded", "both"]
    assert "<table" in box._dpsens_html.value and box._dpsens_image.layout.display == "none"
    assert "drawn in" in box._dpsens_status.value
    assert shown().startswith("Sensitivity grid, f = median on Pool([1, 2, 3, 10, 11])")


def test_live_explorer_redraws_on_every_control_and_answers_slips_with_a_message():
    ex, box, controls, choose, shown = _live()
    first = box._dpsens_html.value
    choose("neighbors", "bounded")
    assert box._dpsens_html.value != first and "neighbours = replace (bounded)" in shown()
    choose("query", "mean")
    assert shown().startswith("Sensitivity grid, f = mean")
    controls["values"].value = "1, 2, oops"                            # a typo: a message, no exception
    assert shown().startswith("Cannot draw this grid: Cannot read the universe: 'oops' is not a number")
    controls["values"].value = "1, 2, 3, 4, 100"
    assert shown().startswith("Sensitivity grid, f = mean on Pool([1, 2, 3, 4, 100])")
    choose("n", 4)
    choose("k", 3)
    assert "too many to read" in shown()                               # 16 bounded choices per row
    choose("n", 2)                                                     # k = 3 > n - 1: said in words
    assert "must be from 1 to n − 1 = 1" in shown()
    choose("k", 1)
    choose("kind", "domain")
    assert shown().startswith("Sensitivity grid, f = mean on Domain([1, 2, 3, 4, 100]), n = 2, k = 1")
    assert "drawn in" in box._dpsens_status.value
    assert all(ms > 0 for ms in ex.compute_ms.values())
    typed = [v for _, v in ex.options[0]]
    assert typed == ["1, 2, 3, 10, 11", "1, 2, oops", "1, 2, 3, 4, 100"]   # each text typed once


def test_live_explorer_text_box_and_reader_labels():
    ex, box, controls, choose, shown = _live()
    import ipywidgets as w

    assert isinstance(controls["values"], w.Text) and controls["values"].placeholder == "e.g. 1, 2, 3, 10, 11"
    assert [c.description for c in controls.values()] == [
        "universe values", "universe is a", "release size n", "group size k", "neighbours", "query f"]
    assert [label for label, _ in controls["kind"].options] == ["Pool (each value once)", "Domain (values reusable)"]


def test_live_explorer_outside_a_kernel_shows_its_first_view():
    ex = grid_figures.grid_explorer(neighbors="both")
    bundle = ex._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" not in bundle    # no kernel in pytest
    page = bundle["text/html"]
    assert 'data-views="1"' in page                                    # the first view only
    assert '<div class="dpsens-explorer-html"' in page and "<img" not in page   # a table, not an image
    assert '<option value="0" selected>1, 2, 3, 10, 11</option>' in page     # the text box, as typed so far


def test_bounded_global_sensitivity_is_at_most_twice_the_unbounded():
    """Exercise ex-median_grid-proof-twice: GS bounded <= 2 GS unbounded (a replacement is a removal then an
    addition), on the chapter's grid (the median of X, n = 3, k = 1) and on 20 seeded random pools, every
    query.  The other direction has no bound: the count's bounded sensitivity is 0, its unbounded 1."""
    unb = grid.sensitivity_grid(X, 3, 1, "median", "unbounded")
    bnd = grid.sensitivity_grid(X, 3, 1, "median", "bounded")
    assert bnd.global_sensitivity <= 2 * unb.global_sensitivity
    rng = np.random.default_rng(16)
    for _ in range(20):
        pool = ds.Pool(rng.integers(0, 20, size=7))
        for q in ds.QUERIES:
            gs_b = ds.global_sensitivity(q, pool, 4, k=1, neighbors="bounded")
            gs_u = ds.global_sensitivity(q, pool, 4, k=1, neighbors="unbounded")
            assert gs_b <= 2 * gs_u + 1e-9, (q, gs_b, gs_u)
    assert ds.global_sensitivity("count", pool, 4, k=1, neighbors="bounded") == 0
    assert ds.global_sensitivity("count", pool, 4, k=1, neighbors="unbounded") == 1
