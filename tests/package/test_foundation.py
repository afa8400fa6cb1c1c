"""Tests of the package basics: queries, universes, neighbours, data, style."""
from collections import Counter
from itertools import combinations, product

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dpsens as ds
from dpsens import neighbors as nb_mod

from profiles import examples


# ---------------------------------------------------------------- queries
def test_queries_are_the_ten_of_the_sources():
    assert list(ds.QUERIES) == ["mean", "median", "count", "sum", "std", "var",
                                "percentile_25", "percentile_50", "percentile_75", "percentile_90"]


def test_queries_follow_numpy_semantics_on_a_hand_example():
    x = [1, 2, 3, 10, 11]
    # values worked out by hand: mean 27/5, var = mean of squares - mean^2 = 235/5 - 5.4^2
    assert ds.evaluate("mean", x) == pytest.approx(5.4)
    assert ds.evaluate("median", x) == 3
    assert ds.evaluate("count", x) == 5
    assert ds.evaluate("sum", x) == 27
    assert ds.evaluate("var", x) == pytest.approx(235 / 5 - 5.4**2)
    assert ds.evaluate("std", x) == pytest.approx(np.sqrt(235 / 5 - 5.4**2))
    # linear interpolation: position p/100*(n-1) in the sorted data
    assert ds.evaluate("percentile_25", x) == 2          # position 1
    assert ds.evaluate("percentile_75", x) == 10         # position 3
    assert ds.evaluate("percentile_90", x) == pytest.approx(10 + 0.6 * 1)  # position 3.6
    assert ds.evaluate("median", [1, 2, 3, 10]) == 2.5   # even n: mean of the middle two


def test_unknown_query_lists_the_valid_names():
    with pytest.raises(ValueError, match="query must be one of .*'median'"):
        ds.evaluate("medain", [1, 2])
    with pytest.raises(TypeError, match="query must be a query name"):
        ds.evaluate(3, [1, 2])


def test_custom_callable_only_where_allowed():
    from dpsens.queries import check_query
    name, f = check_query(np.max, allow_callable=True)
    assert f([1, 5]) == 5
    with pytest.raises(TypeError, match="bruteforce"):
        check_query(np.max)


@pytest.mark.parametrize("bad, exc, msg", [
    ([], ValueError, "must not be empty"),
    ([1, np.nan], ValueError, "NaN"),
    ([1, np.inf], ValueError, "finite"),
    (["a", "b"], TypeError, "numbers only"),
    ("123", TypeError, "string"),
    (5, TypeError, "single number"),
    ([[1, 2], [3, 4]], ValueError, "one-dimensional"),
])
def test_bad_data_is_refused_with_a_clear_message(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        ds.evaluate("mean", bad)
    for _name, f in ds.QUERIES.items():        # each query function checks its input too
        with pytest.raises(exc, match=msg):
            f(bad)


def test_query_functions_agree_with_numpy():
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0])
    expected = {"mean": np.mean(x), "median": np.median(x), "count": 6.0, "sum": np.sum(x),
                "std": np.std(x), "var": np.var(x), **{f"percentile_{p}": np.percentile(x, p)
                                                        for p in (25, 50, 75, 90)}}
    for name, f in ds.QUERIES.items():
        assert f(list(x)) == f(pd.Series(x)) == pytest.approx(expected[name], rel=1e-15), name
        assert f.__name__ == name and "Chapter:" in f.__doc__


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: nb_mod.format_multiset("ab"), TypeError, "values must be a sequence"),
    (lambda: nb_mod.format_multiset(5), TypeError, "values must be a sequence"),
    (lambda: list(nb_mod.submultisets([1, 2], 1)), TypeError, "counts must map"),
    (lambda: list(nb_mod.submultisets({1: 2}, -1)), ValueError, "size must be"),
    (lambda: nb_mod.count_submultisets({1: 2}, "a"), TypeError, "size must be an integer"),
    (lambda: nb_mod.count_submultisets({1: 2.5}, 1), TypeError, r"counts\[1\] must be an integer"),
    (lambda: nb_mod.count_submultisets({"a": 1}, 1), TypeError, "finite numbers as keys"),
    (lambda: ds.load_adult(["train"]), TypeError, "split must be the string"),
    (lambda: ds.load_adult("validation"), ValueError, "split must be one of"),
    (lambda: ds.figures.style.line_style("a"), TypeError, "i must be an integer"),
    (lambda: ds.figures.style.line_style(-1), ValueError, "i must be an integer in"),
])
def test_helpers_refuse_bad_input(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_pandas_series_is_accepted():
    assert ds.evaluate("sum", pd.Series([1, 2, 3])) == 6


# ---------------------------------------------------------------- universes
def test_universes_sort_and_domain_drops_repeats():
    assert ds.Pool([3, 1, 1]).values.tolist() == [1, 1, 3]
    assert ds.Domain([3, 1, 1]).values.tolist() == [1, 3]
    assert ds.Pool([1, 2]) != ds.Domain([1, 2])
    assert ds.Pool([2, 1]) == ds.Pool([1, 2])


@pytest.mark.parametrize("bad, exc", [([], ValueError), ([np.nan], ValueError), (["x"], TypeError)])
def test_bad_universe_values(bad, exc):
    with pytest.raises(exc, match="values"):
        ds.Pool(bad)
    with pytest.raises(exc, match="values"):
        ds.Domain(bad)


def test_release_must_fit_its_universe():
    with pytest.raises(ValueError, match="not part of its pool"):
        ds.enumerate_neighbors([2, 2, 2], ds.Pool([1, 2, 2, 3]))
    with pytest.raises(ValueError, match="not in Domain"):
        ds.enumerate_neighbors([1, 4], ds.Domain([1, 2, 3]))
    with pytest.raises(TypeError, match="universe must be dpsens.Pool"):
        ds.enumerate_neighbors([1, 2], [1, 2, 3])


def test_k_and_relation_are_checked():
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 2\]"):
        ds.enumerate_neighbors([1, 2, 2], ds.Domain([1, 2]), k=3)
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 2\]"):
        ds.enumerate_neighbors([1, 2, 2], ds.Domain([1, 2]), k=0)
    with pytest.raises(TypeError, match="k must be an integer"):
        ds.enumerate_neighbors([1, 2, 2], ds.Domain([1, 2]), k=1.5)
    with pytest.raises(ValueError, match="neighbors must be one of"):
        ds.enumerate_neighbors([1, 2, 2], ds.Domain([1, 2]), neighbors="replace")
    with pytest.raises(ValueError, match="single record"):
        ds.enumerate_neighbors([1], ds.Domain([1, 2]))


# ---------------------------------------------------------------- neighbours vs an independent oracle
def _oracle_neighbors(x, universe, k, relation):
    """Independent enumeration: index combinations of raw lists, then dedupe."""
    x = sorted(float(v) for v in x)
    out = set()
    removals = {tuple(sorted(x[i] for i in range(len(x)) if i not in idx))
                for idx in combinations(range(len(x)), k)}
    def additions(kept):
        if isinstance(universe, ds.Pool):
            rest = list((Counter(universe.values.tolist()) - Counter(kept)).elements())
            return {tuple(sorted(rest[i] for i in idx)) for idx in combinations(range(len(rest)), k)}
        return {tuple(sorted(p)) for p in product(universe.values.tolist(), repeat=k)}
    if relation == "unbounded":
        out |= removals
        out |= {tuple(sorted(x + list(a))) for a in additions(x)}
    else:
        for kept in removals:
            out |= {tuple(sorted(list(kept) + list(a))) for a in additions(list(kept))}
    return out


small_values = st.lists(st.integers(0, 4), min_size=2, max_size=6)


@settings(max_examples=examples(120), deadline=None)
@given(x=small_values, extra=st.lists(st.integers(0, 5), max_size=4), k=st.integers(1, 3),
       relation=st.sampled_from(["unbounded", "bounded"]), kind=st.sampled_from(["pool", "domain"]))
def test_enumeration_matches_an_independent_oracle(x, extra, k, relation, kind):
    k = min(k, len(x) - 1)
    universe = ds.Pool(x + extra) if kind == "pool" else ds.Domain(x + extra)
    got = ds.enumerate_neighbors(x, universe, k, relation)
    assert len(got) == len(set(got)), "each neighbour listed once"
    assert set(got) == _oracle_neighbors(x, universe, k, relation)


@settings(max_examples=examples(80), deadline=None)
@given(counts=st.dictionaries(st.integers(0, 6), st.integers(1, 3), min_size=1, max_size=5),
       size=st.integers(0, 8))
def test_submultiset_count_matches_listing(counts, size):
    listed = list(nb_mod.submultisets(counts, size))
    assert len(listed) == len(set(listed)) == nb_mod.count_submultisets(counts, size)
    raw = [v for v, c in counts.items() for _ in range(c)]
    assert set(listed) == {tuple(sorted(float(raw[i]) for i in idx)) for idx in combinations(range(len(raw)), size)}


def test_count_neighbors_counts_choices_of_the_enumeration():
    # unbounded from a domain of 3 values, x = [1, 2, 2], k = 1: 2 distinct removals + 3 additions
    assert ds.count_neighbors([1, 2, 2], ds.Domain([1, 2, 3]), 1) == 5
    # bounded: 2 removals x 3 additions
    assert ds.count_neighbors([1, 2, 2], ds.Domain([1, 2, 3]), 1, "bounded") == 6
    # pool: removing the 1 leaves pool-kept = {1, 3}; removing a 2 leaves {2, 3}
    assert ds.count_neighbors([1, 2, 2], ds.Pool([1, 2, 2, 3]), 1, "bounded") == 4


def test_releases_of_pool_and_domain():
    school = ds.Pool([1, 2, 2, 2, 5, 5, 7, 8, 9, 9])
    listed = list(ds.releases(school, 6))
    assert len(listed) == len(set(listed)) == ds.count_releases(school, 6)
    # distinct 3-subsets of five distinct values: C(5, 3)
    assert ds.count_releases(ds.Pool([1, 2, 3, 10, 11]), 3) == 10
    # multisets of size 4 from 3 values: C(3 + 4 - 1, 4) = 15
    assert len(list(ds.releases(ds.Domain([1, 2, 3]), 4))) == 15 == ds.count_releases(ds.Domain([1, 2, 3]), 4)
    with pytest.raises(ValueError, match="n must be an integer"):
        ds.count_releases(ds.Pool([1, 2]), 3)


def _hand_written_random_neighbors(x, rng, relation, count, lo, hi):
    """The loop the PTR and smooth chapters used before the package had random_neighbors."""
    out = []
    for _ in range(count):
        if relation == "bounded":
            y = x.copy()
            y[rng.integers(len(x))] = rng.integers(lo, hi + 1)
        elif rng.random() < 0.5:
            y = np.delete(x, rng.integers(len(x)))
        else:
            y = np.append(x, rng.integers(lo, hi + 1))
        out.append(y.astype(float))
    return out


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_random_neighbors_are_the_chapters_loop_and_real_neighbors(relation):
    domain = ds.Domain(range(101))
    for seed in range(5):
        x = np.random.default_rng(seed).integers(0, 101, size=7).astype(float)
        got = nb_mod.random_neighbors(x, domain, 40, relation, np.random.default_rng(100 + seed))
        want = _hand_written_random_neighbors(x, np.random.default_rng(100 + seed), relation, 40, 0, 100)
        assert len(got) == 40 and all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
        listed = set(ds.enumerate_neighbors(x, domain, 1, relation))
        assert all(tuple(sorted(y)) in listed or tuple(sorted(y)) == tuple(sorted(x)) for y in got)
    if relation == "unbounded":           # both kinds of step occur, each about half the time
        sizes = [len(y) for y in nb_mod.random_neighbors(x, domain, 2000, relation, np.random.default_rng(7))]
        assert set(sizes) == {6, 8} and 900 < sizes.count(6) < 1100


def test_random_neighbors_refuse_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match="Domain"):
        nb_mod.random_neighbors([1, 2], ds.Pool([1, 2, 3]), 1, "bounded", rng)
    with pytest.raises(ValueError, match="x"):
        nb_mod.random_neighbors([1, 7], ds.Domain([1, 2]), 1, "bounded", rng)
    with pytest.raises(ValueError, match="two records"):
        nb_mod.random_neighbors([1], ds.Domain([1, 2]), 1, "unbounded", rng)
    with pytest.raises(ValueError, match="count"):
        nb_mod.random_neighbors([1, 2], ds.Domain([1, 2]), 0, "unbounded", rng)
    with pytest.raises(TypeError, match="Generator"):
        nb_mod.random_neighbors([1, 2], ds.Domain([1, 2]), 1, "unbounded", 42)


def test_format_multiset():
    assert ds.neighbors.format_multiset((2.0, 1.0, 2.5)) == "[1, 2, 2.5]"


# ---------------------------------------------------------------- data
def test_load_adult_train_and_test():
    train = ds.load_adult()
    assert train.shape == (32561, 15)
    assert list(train.columns[:3]) == ["age", "workclass", "fnlwgt"]
    assert train["age"].dtype == np.int64
    assert isinstance(train["sex"].dtype, pd.CategoricalDtype)
    # published facts about the training file: ages 17..90, 7,841 incomes above 50K
    assert (train["age"].min(), train["age"].max()) == (17, 90)
    assert (train["income"] == ">50K").sum() == 7841
    assert train["workclass"].isna().sum() == 1836   # the '?' entries
    test = ds.load_adult("test")
    assert test.shape == (16281, 15)
    assert set(test["income"].unique()) == {"<=50K", ">50K"}
    with pytest.raises(ValueError, match="split must be one of"):
        ds.load_adult("validation")


def test_data_found_from_another_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(ds.load_ages()) == 32561


def test_missing_data_folder_gives_instructions(tmp_path, monkeypatch):
    monkeypatch.setenv("DPSENS_DATA", str(tmp_path))
    monkeypatch.setattr(ds.data, "__file__", str(tmp_path / "a" / "b" / "data.py"))
    with pytest.raises(FileNotFoundError, match="pip install -e"):
        ds.data.data_dir()


# ---------------------------------------------------------------- plots and style
def test_style_and_laplace_figure():
    import matplotlib
    matplotlib.use("Agg")
    ds.use_style()
    fig = ds.figures.dp.plot_laplace_mechanism(100, (1, 2), epsilon=0.5)
    ax = fig.axes[0]
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    assert len(ax.get_legend().get_texts()) == 3
    # the density integrates to one and has the right peak 1/(2b), b = 2/0.5
    t = np.linspace(-200, 200, 400001)
    pdf = ds.mechanisms.laplace_pdf(t, 4.0)
    assert np.trapezoid(pdf, t) == pytest.approx(1, abs=1e-6)
    assert pdf.max() == pytest.approx(1 / 8)
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0"):
        ds.figures.dp.plot_laplace_mechanism(0, (1,), epsilon=0)
    with pytest.raises(ValueError, match="sensitivities"):
        ds.figures.dp.plot_laplace_mechanism(0, (-1,), epsilon=1)


# ---------------------------------------------------------------- exercises of the neighbours chapter
def test_neighbor_checkers():
    ex = ds.exercises
    assert ex.check_neighbor_count(...).status == "not yet"
    assert ex.check_neighbor_count(5).correct
    assert ex.check_neighbor_count(6).status == "wrong"
    assert ex.check_neighbor_count("five").status == "wrong"
    assert ex.check_bounded_neighbors(...).status == "not yet"
    assert ex.check_bounded_neighbors([[1, 2], [2, 3], [1, 3]]).correct
    assert ex.check_bounded_neighbors([[2, 3], [1, 3]]).correct          # without x itself: the other convention
    assert ex.check_bounded_neighbors([[2, 3]]).status == "wrong"
    assert ex.check_bounded_neighbors([[1, 2], [2, 3], [1, 3], [3, 3]]).status == "wrong"  # 3,3 keeps no record
    assert ex.check_bounded_neighbors(5).status == "wrong"
    def good(x, y):
        return sum(((Counter(x) - Counter(y)) + (Counter(y) - Counter(x))).values())
    assert ex.check_symmetric_difference(good).correct
    assert ex.check_symmetric_difference(lambda x, y: abs(len(x) - len(y))).status == "wrong"
    assert ex.check_symmetric_difference(lambda x, y: len(set(x) ^ set(y))).status == "wrong"
    assert ex.check_symmetric_difference(lambda x, y: None).status == "not yet"
    assert ex.check_symmetric_difference(...).status == "not yet"
    # a verdict never shows the expected answer
    assert "5" not in str(ex.check_neighbor_count(4))
