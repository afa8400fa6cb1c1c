"""Second reading of the neighbour relation as a type (issue 36 item 1, engineer "relrev").

A plain string that reaches an ``is Relation.X`` comparison takes the wrong
branch silently, so:

* every public function of every public module of :mod:`dpsens` that takes a
  relation (``neighbors=``, or ``relation=``) is found by introspection and
  called with the string and with the member; the results must be equal.  A
  new such function without a row in :data:`CASES` (or a reason in
  :data:`NOT_CALLED`) fails the completeness test;
* a wrong relation raises a ``ValueError`` naming ``neighbors`` and listing
  the valid names (or, for the explorers that never raise, says so in their
  message);
* a wrong branch taken for both forms is caught by an independent brute
  force written from the definitions of *Neighbouring datasets* (neighbours
  enumerated here, by hand, with :mod:`itertools`): local and global
  sensitivity of the ten queries, the count of (removed, added) choices, the
  neighbours themselves, a vector and a per-group release, and ``len(x; t)``
  of the inverse sensitivity mechanism by breadth-first search.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections import Counter
from itertools import combinations, combinations_with_replacement

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import dpsens as ds
from dpsens import (accuracy, bruteforce, globalsens, grid, inverse, local, neighbors, proportions, queries, smooth,
                    vector)
from dpsens.figures import accuracy as fig_accuracy
from dpsens.figures import exponential as fig_exponential
from dpsens.figures import grid as fig_grid
from dpsens.figures import sensitivity as fig_sensitivity
from dpsens.figures import smooth as fig_smooth
from dpsens.experiments import head_to_head
from dpsens.mechanisms import exponential, inverse_sensitivity, ptr, sample_aggregate, smooth_noise
from dpsens.relation import EXACT_RELATIONS, RELATIONS, Relation

X = [1.0, 2.0, 3.0, 7.0, 9.0]
DOMAIN = ds.Domain(range(10))
POOL = ds.Pool([1, 2, 3, 7, 9, 10, 11])
AGES = [23.0, 31.0, 35.0, 41.0, 44.0, 52.0, 58.0, 60.0, 63.0, 70.0]
BOUNDED_ONLY = (Relation.BOUNDED,)


def _rng():
    return np.random.default_rng(2036)


# ------------------------------------------------------------------ comparable summaries of results
def _figure(fig) -> list:
    """What a figure shows: titles, labels, line data, texts, bar sizes, legend labels, cell texts."""
    out = [getattr(fig, "dpsens_cells", None), fig._suptitle.get_text() if fig._suptitle else ""]
    for ax in fig.axes:
        out.append((ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), ax.get_xscale(), ax.get_yscale()))
        out.extend(np.asarray(line.get_xydata(), dtype=float).tolist() for line in ax.get_lines())
        out.extend(t.get_text() for t in ax.texts)
        out.extend((p.get_x(), p.get_width(), p.get_height()) for p in ax.patches if hasattr(p, "get_width"))
        legend = ax.get_legend()
        if legend is not None:
            out.extend(t.get_text() for t in legend.get_texts())
    out.extend(t.get_text() for legend in fig.legends for t in legend.get_texts())
    plt.close(fig)
    return out


def _table(t) -> tuple:
    return t.dpsens_alt, t.dpsens_cells, t._repr_html_() if hasattr(t, "_repr_html_") else None


def _grid_fields(g) -> dict:
    return {f.name: getattr(g, f.name) for f in dataclasses.fields(g) if f.name != "universe"}


def _explorer(e) -> tuple:
    return e.view_at(tuple(e.default))[0]


def _head_to_head(r):
    errors, table = head_to_head.quantile_head_to_head(AGES, [0.5], [1.0], 1e-6, _rng(), runs=5, n_chunks=2,
                                                  n_partitions=2, neighbors=r)
    return {str(key): value for key, value in errors.items()}, table.to_dict()


def _local_sorted(r):
    name, f = queries.check_query("std")
    xs = np.array(X)
    return local.local_sensitivity_sorted(name, f, xs, local.available_values(xs, DOMAIN, 2), 2, r)


def _log_figure(r):
    ks = [1, 2, 3]
    frame = {rel: pd.DataFrame({q: [1.0 + i + (rel == "bounded") for i in range(3)] for q in ds.QUERIES}, index=ks)
             for rel in ("unbounded", "bounded")}
    return _figure(fig_sensitivity.plot_local_global_log(frame, frame, "t", r))


#: qualified name -> (function of the relation, the relations it takes)
CASES = {
    # sensitivity engines
    "dpsens.sensitivity.local_sensitivity": (
        lambda r: [ds.local_sensitivity(X, q, DOMAIN, 2, r) for q in ds.QUERIES], EXACT_RELATIONS),
    "dpsens.sensitivity.global_sensitivity": (
        lambda r: [ds.global_sensitivity(q, ds.Domain([0, 1, 4]), 3, 1, r) for q in ds.QUERIES], EXACT_RELATIONS),
    "dpsens.local.exact_local_sensitivity": (
        lambda r: [local.exact_local_sensitivity(X, q, POOL, 1, r) for q in ds.QUERIES], EXACT_RELATIONS),
    "dpsens.local.local_sensitivity_sorted": (_local_sorted, EXACT_RELATIONS),
    "dpsens.globalsens.exact_global_sensitivity": (
        lambda r: [globalsens.exact_global_sensitivity(q, POOL, 3, 1, r) for q in ds.QUERIES], RELATIONS),
    "dpsens.bruteforce.bruteforce_local_sensitivity": (
        lambda r: [bruteforce.bruteforce_local_sensitivity(X, q, DOMAIN, 1, r) for q in ds.QUERIES], RELATIONS),
    "dpsens.bruteforce.bruteforce_global_sensitivity": (
        lambda r: bruteforce.bruteforce_global_sensitivity("median", POOL, 3, 1, r), RELATIONS),
    "dpsens.bruteforce.source_evaluations": (lambda r: bruteforce.source_evaluations(4, 3, 1, r), RELATIONS),
    # neighbours and grids
    "dpsens.neighbors.iter_neighbors": (lambda r: list(neighbors.iter_neighbors([1, 2, 2], DOMAIN, 2, r)), RELATIONS),
    "dpsens.neighbors.enumerate_neighbors": (
        lambda r: neighbors.enumerate_neighbors([1, 2, 3], POOL, 2, r), RELATIONS),
    "dpsens.neighbors.random_neighbors": (lambda r: neighbors.random_neighbors(X, DOMAIN, 5, r, _rng()), RELATIONS),
    "dpsens.neighbors.count_neighbors": (lambda r: neighbors.count_neighbors(X, POOL, 2, r), RELATIONS),
    "dpsens.grid.grid_size": (lambda r: grid.grid_size(POOL, 3, 1, r), RELATIONS),
    "dpsens.grid.sensitivity_grid": (lambda r: _grid_fields(grid.sensitivity_grid(POOL, 3, 1, "var", r)), RELATIONS),
    # vectors, histograms, proportions
    "dpsens.vector.vector_local_sensitivity": (
        lambda r: vector.vector_local_sensitivity(X, ["mean", "median"], DOMAIN, 1, r, "l2", return_neighbor=True),
        RELATIONS),
    "dpsens.vector.vector_global_sensitivity": (
        lambda r: vector.vector_global_sensitivity(["mean", "var"], ds.Domain([0, 1, 2]), 3, 1, r), RELATIONS),
    "dpsens.vector.grouped_local_sensitivity": (
        lambda r: [vector.grouped_local_sensitivity(X, list("abaab"), q, DOMAIN, k=2, neighbors=r, norm=m)
                   for q in ("mean", "sum", "median") for m in ("l1", "l2", "linf")], RELATIONS),
    "dpsens.vector.histogram_sensitivity": (
        lambda r: [vector.histogram_sensitivity(r, m, 2, b) for m in ("l1", "l2", "linf") for b in (1, 3)], RELATIONS),
    "dpsens.vector.noisy_histogram": (
        lambda r: vector.noisy_histogram([3, 0, 5], 1.0, _rng(), "gaussian", 1e-6, neighbors=r, size=3), RELATIONS),
    "dpsens.proportions.proportion_changes": (lambda r: proportions.proportion_changes([1, 2, 5], r), RELATIONS),
    "dpsens.proportions.proportion_local_sensitivity": (
        lambda r: [proportions.proportion_local_sensitivity([1, 2, 5], r, m) for m in ("l1", "linf")],
        RELATIONS),
    "dpsens.proportions.proportion_global_sensitivity": (
        lambda r: proportions.proportion_global_sensitivity(40, r), RELATIONS),
    # inverse sensitivity and accuracy
    "dpsens.inverse.inverse_len_quantile": (
        lambda r: inverse.inverse_len_quantile(X, 0.5, [0.5, 2.5, 3.0, 8.0], 0.0, 10.0, r), RELATIONS),
    "dpsens.inverse.inverse_len": (
        lambda r: [inverse.inverse_len(X, q, [1.0, 4.0, 9.0], 0.0, 10.0, r) for q in ("mean", "sum", "count")],
        RELATIONS),
    "dpsens.accuracy.rank_error": (lambda r: accuracy.rank_error(AGES, 0.5, [30.0, 50.0], 0.0, 100.0, r), RELATIONS),
    "dpsens.accuracy.rank_error_bound": (
        lambda r: accuracy.rank_error_bound(AGES, 0.5, 1.0, 0.1, 0.0, 100.0, r), RELATIONS),
    "dpsens.accuracy.rank_value_bound": (
        lambda r: accuracy.rank_value_bound(AGES, 0.5, 2.0, 0.0, 100.0, r), RELATIONS),
    "dpsens.accuracy.local_modulus_quantile": (
        lambda r: accuracy.local_modulus_quantile(AGES, 0.5, [0, 1, 3], 0.0, 100.0, r), RELATIONS),
    "dpsens.accuracy.inverse_sensitivity_error_bound": (
        lambda r: accuracy.inverse_sensitivity_error_bound(AGES, 0.5, 1.0, 0.1, 0.0, 100.0, r), RELATIONS),
    "dpsens.accuracy.local_minimax_lower_bound": (
        lambda r: accuracy.local_minimax_lower_bound(AGES, 0.5, 1.0, 0.0, 100.0, r, return_t=True), RELATIONS),
    # mechanisms
    "dpsens.mechanisms.exponential.rank_utility_sensitivity": (
        lambda r: exponential.rank_utility_sensitivity(0.3, r), RELATIONS),
    "dpsens.mechanisms.exponential.quantile_rank_utility": (
        lambda r: exponential.quantile_rank_utility(AGES, 0.5, [30.0, 50.0], r), RELATIONS),
    "dpsens.mechanisms.exponential.quantile_exponential_distribution": (
        lambda r: exponential.quantile_exponential_distribution(AGES, 0.5, 1.0, 0.0, 100.0, r), RELATIONS),
    "dpsens.mechanisms.exponential.quantile_exponential": (
        lambda r: exponential.quantile_exponential(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), r, size=5), RELATIONS),
    "dpsens.mechanisms.inverse_sensitivity.inverse_sensitivity_distribution": (
        lambda r: inverse_sensitivity.inverse_sensitivity_distribution(AGES, 0.5, 1.0, 0.0, 100.0, r), RELATIONS),
    "dpsens.mechanisms.inverse_sensitivity.inverse_sensitivity_quantile": (
        lambda r: inverse_sensitivity.inverse_sensitivity_quantile(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), r, size=5),
        RELATIONS),
    "dpsens.mechanisms.ptr.propose_test_release": (
        lambda r: ptr.propose_test_release(AGES, "median", 10.0, 1.0, 1e-6, 0.0, 100.0, _rng(), neighbors=r,
                                           details=True), RELATIONS),
    "dpsens.mechanisms.sample_aggregate.sample_and_aggregate": (
        lambda r: sample_aggregate.sample_and_aggregate(AGES, np.median, 3, 0.0, 100.0, 1.0, _rng(), details=True,
                                                        neighbors=r), RELATIONS),
    "dpsens.mechanisms.smooth_noise.smooth_sensitivity_mechanism": (
        lambda r: smooth_noise.smooth_sensitivity_mechanism(AGES, "median", 1.0, 1e-6, 0.0, 100.0, _rng(),
                                                            neighbors=r, details=True), RELATIONS),
    "dpsens.mechanisms.smooth_noise.smooth_noise_error": (
        lambda r: smooth_noise.smooth_noise_error(AGES, "median", 1.0, 1e-6, 0.0, 100.0, neighbors=r), RELATIONS),
    "dpsens.experiments.head_to_head.quantile_head_to_head": (_head_to_head, RELATIONS),
    # smooth sensitivity (dpsens.smooth: read only on this branch)
    "dpsens.smooth.ls_at_distance": (
        lambda r: smooth.ls_at_distance(AGES, "median", [0, 1, 2, 5], 0.0, 100.0, r), RELATIONS),
    "dpsens.smooth.ls_curve": (lambda r: smooth.ls_curve(AGES, "mean", 6, 0.0, 100.0, r), RELATIONS),
    "dpsens.smooth.distance_to_high_ls": (
        lambda r: smooth.distance_to_high_ls(AGES, "median", 10.0, 0.0, 100.0, r), RELATIONS),
    "dpsens.smooth.smooth_sensitivity_argmax": (
        lambda r: smooth.smooth_sensitivity_argmax(AGES, "median", 0.1, 0.0, 100.0, r), RELATIONS),
    "dpsens.smooth.smooth_sensitivity": (
        lambda r: [smooth.smooth_sensitivity(AGES, q, 0.1, 0.0, 100.0, r) for q in ("mean", "count", "percentile_90")],
        RELATIONS),
    "dpsens.smooth.smooth_sensitivity_bound": (
        lambda r: smooth.smooth_sensitivity_bound(AGES, "var", 0.1, 0.0, 100.0, r), RELATIONS),
    # figures and explorers
    "dpsens.figures.accuracy.instance_errors": (
        lambda r: fig_accuracy.instance_errors(AGES, [0.5, 2.0], neighbors=r), RELATIONS),
    "dpsens.figures.accuracy.plot_instance_bounds": (
        lambda r: _figure(fig_accuracy.plot_instance_bounds(AGES, [0.5, 2.0], neighbors=r)), RELATIONS),
    "dpsens.figures.exponential.plot_output_distributions": (
        lambda r: _figure(fig_exponential.plot_output_distributions(AGES, 0.5, 1.0, neighbors=r)), RELATIONS),
    "dpsens.figures.grid.plot_sensitivity_grid": (
        lambda r: _figure(fig_grid.plot_sensitivity_grid(POOL, 3, 1, "median", r)), RELATIONS),
    "dpsens.figures.grid.plot_grid_from_text": (
        lambda r: _figure(fig_grid.plot_grid_from_text("1, 2, 3, 10", "domain", 3, 1, "mean", r)), RELATIONS),
    "dpsens.figures.grid.grid_table": (lambda r: _table(fig_grid.grid_table(POOL, 3, 2, "var", r)), RELATIONS),
    "dpsens.figures.grid.grid_table_from_text": (
        lambda r: _table(fig_grid.grid_table_from_text("1, 2, 3, 10", "pool", 3, 1, "sum", r)), RELATIONS),
    "dpsens.figures.grid.grid_explorer": (lambda r: _explorer(fig_grid.grid_explorer(neighbors=r)), RELATIONS),
    "dpsens.figures.sensitivity.plot_local_global_log": (_log_figure, RELATIONS),
    "dpsens.figures.smooth.plot_smooth_explorer": (
        lambda r: _figure(fig_smooth.plot_smooth_explorer(AGES, sample_size=10, neighbors=r, n_points=12)),
        BOUNDED_ONLY),
}

#: public callables with a relation argument that are not called above, and why
NOT_CALLED = {
    "dpsens.relation.as_relation": "the conversion itself (tests/test_relation.py)",
    "dpsens.grid.SensitivityGrid": "a result: its neighbors field is written by sensitivity_grid (a member)",
}


def _public_relation_callables() -> set[str]:
    """Every public callable of every public module of dpsens whose signature has ``neighbors`` or ``relation``."""
    found = set()
    names = ["dpsens"] + [m.name for m in pkgutil.walk_packages(ds.__path__, "dpsens.")]
    for module_name in names:
        if any(part.startswith("_") for part in module_name.split(".")):
            continue
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None)
        if public is None:
            public = [n for n, o in vars(module).items()
                      if not n.startswith("_") and getattr(o, "__module__", None) == module_name]
        for name in public:
            obj = getattr(module, name)
            if not callable(obj):
                continue
            try:
                parameters = inspect.signature(obj).parameters
            except (TypeError, ValueError):
                continue
            if "neighbors" in parameters or "relation" in parameters:
                found.add(f"{obj.__module__}.{obj.__qualname__}")
    return found


def test_every_public_function_with_a_relation_is_called():
    found = _public_relation_callables()
    assert found - set(CASES) - set(NOT_CALLED) == set(), "add a row to CASES (or a reason to NOT_CALLED)"
    assert set(CASES) - found == set(), "a row of CASES names no public function"


PAIRS = [pytest.param(name, rel, id=f"{name.removeprefix('dpsens.')}-{rel.value}")
         for name, (_, rels) in CASES.items() for rel in rels]


@pytest.mark.parametrize("name, relation", PAIRS)
def test_the_string_and_the_member_give_the_same_result(name, relation):
    function = CASES[name][0]
    np.testing.assert_equal(function(relation), function(relation.value))


# ------------------------------------------------------------------ wrong relations
#: the grid's figures and tables never raise (an explorer calls them with what a reader types): they say why
NEVER_RAISES = {"dpsens.figures.grid.grid_table", "dpsens.figures.grid.grid_table_from_text",
                "dpsens.figures.grid.plot_sensitivity_grid", "dpsens.figures.grid.plot_grid_from_text",
                "dpsens.figures.grid.grid_explorer"}


@pytest.mark.parametrize("wrong", ["replace", "Bounded", None], ids=repr)
@pytest.mark.parametrize("name", [n for n in CASES if n not in NEVER_RAISES])
def test_a_wrong_relation_is_a_value_error_naming_the_argument(name, wrong):
    function, allowed = CASES[name]
    with pytest.raises(ValueError) as info:
        function(wrong)
    message = str(info.value)
    argument = "relation" if name.endswith("plot_local_global_log") else "neighbors"
    assert argument in message and repr(wrong) in message
    for relation in allowed:
        assert repr(relation.value) in message, message


GRID_SAYS = {
    "dpsens.figures.grid.grid_table": lambda r: fig_grid.grid_table(POOL, 3, 1, "median", r).dpsens_alt,
    "dpsens.figures.grid.grid_table_from_text": lambda r: fig_grid.grid_table_from_text(neighbors=r).dpsens_alt,
    "dpsens.figures.grid.plot_sensitivity_grid": lambda r: fig_grid.plot_sensitivity_grid(neighbors=r).dpsens_alt,
    "dpsens.figures.grid.plot_grid_from_text": lambda r: fig_grid.plot_grid_from_text(neighbors=r).dpsens_alt,
}


@pytest.mark.parametrize("name", sorted(GRID_SAYS))
def test_a_wrong_relation_in_a_grid_says_which_are_valid(name):
    said = GRID_SAYS[name]("replace")
    plt.close("all")
    assert "neighbors must be one of" in said and "'replace'" in said, said
    for valid in ("'both'", "'unbounded'", "'bounded'"):
        assert valid in said, said


def test_the_grid_explorer_takes_a_member_and_refuses_a_wrong_relation_by_name():
    assert fig_grid.grid_explorer(neighbors=Relation.BOUNDED).view()[0] == \
        fig_grid.grid_explorer(neighbors="bounded").view()[0]
    with pytest.raises(ValueError, match=r"defaults\['neighbors'\] = 'replace' is not one of "
                                         r"controls\['neighbors'\] = \['unbounded', 'bounded', 'both'\]"):
        fig_grid.grid_explorer(neighbors="replace")


# ------------------------------------------------------------------ independent brute force
NUMPY = {"mean": np.mean, "median": np.median, "count": len, "sum": np.sum, "var": np.var, "std": np.std,
         **{name: (lambda y, p=p: np.percentile(y, p)) for name, p in queries.PERCENTILES.items()}}
#: (removed, added) sizes of each relation at group size k (chapter *Neighbouring datasets*)
PARTS = {
    "unbounded": lambda k: [(k, 0), (0, k)],
    "bounded": lambda k: [(k, k)],
    "symmetric": lambda k: [(r, s) for r in range(k + 1) for s in range(k + 1) if 1 <= r + s <= k],
}


def _neighbours_by_hand(x, values, k, relation, pool=False):
    """Every neighbour of ``x`` (sorted tuples): ``r`` records removed, ``s`` values added from ``values``
    (a domain: any value any number of times; a pool: what the pool has left once the ``r`` are removed, so
    that a bounded neighbour replaces at most ``k`` records)."""
    x = tuple(sorted(x))
    out = set()
    for r, s in PARTS[relation](k):
        if r > len(x) - 1:                                 # the book's datasets keep at least one record
            continue
        for removed in set(combinations(x, r)):
            rest = list((Counter(x) - Counter(removed)).elements())
            if pool:
                left = list((Counter(values) - Counter(rest)).elements())
                added_sets = set(combinations(sorted(left), s))
            else:
                added_sets = combinations_with_replacement(sorted(set(values)), s)
            for added in added_sets:
                out.add(tuple(sorted(rest + list(added))))
    return out


def _ls_by_hand(x, q, values, k, relation, pool=False):
    f = NUMPY[q]
    fx = float(f(np.array(x, dtype=float)))
    return max(abs(float(f(np.array(y, dtype=float))) - fx) for y in _neighbours_by_hand(x, values, k, relation, pool))


BRUTE_X = [0, 1, 1, 4, 6]
BRUTE_VALUES = [0, 1, 2, 4, 6, 9]
POOL_VALUES = [0, 1, 1, 2, 4, 4, 6, 9]


@pytest.mark.parametrize("relation", EXACT_RELATIONS, ids=str)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_local_sensitivity_against_neighbours_enumerated_by_hand(relation, k):
    for form in (relation, relation.value):
        for q in ds.QUERIES:
            expected = _ls_by_hand(BRUTE_X, q, BRUTE_VALUES, k, relation.value)
            got = ds.local_sensitivity(BRUTE_X, q, ds.Domain(BRUTE_VALUES), k, form)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (q, form)
            expected = _ls_by_hand(BRUTE_X, q, POOL_VALUES, k, relation.value, pool=True)
            got = ds.local_sensitivity(BRUTE_X, q, ds.Pool(POOL_VALUES), k, form)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (q, form, "pool")


@pytest.mark.parametrize("relation", EXACT_RELATIONS, ids=str)
@pytest.mark.parametrize("k", [1, 2])
def test_global_sensitivity_against_releases_enumerated_by_hand(relation, k):
    values, n = [0, 1, 3, 8], 4
    releases = list(combinations_with_replacement(values, n))
    pool_values = [0, 1, 1, 3, 8, 8]
    pool_releases = set(combinations(pool_values, n))
    for form in (relation, relation.value):
        for q in ds.QUERIES:
            expected = max(_ls_by_hand(x, q, values, k, relation.value) for x in releases)
            got = ds.global_sensitivity(q, ds.Domain(values), n, k, form)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (q, form)
            expected = max(_ls_by_hand(x, q, pool_values, k, relation.value, pool=True) for x in pool_releases)
            got = ds.global_sensitivity(q, ds.Pool(pool_values), n, k, form)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (q, form, "pool")


@pytest.mark.parametrize("relation", RELATIONS, ids=str)
def test_neighbours_and_their_count_against_the_definitions(relation):
    for form in (relation, relation.value):
        for k in (1, 2):
            expected = _neighbours_by_hand(BRUTE_X, BRUTE_VALUES, k, relation.value)
            got = {tuple(sorted(y)) for y in ds.enumerate_neighbors(BRUTE_X, ds.Domain(BRUTE_VALUES), k, form)}
            assert got == {tuple(map(float, y)) for y in expected}
            # the count: distinct removed multisets times (bounded) or plus (unbounded) distinct added ones
            removed = len(set(combinations(sorted(BRUTE_X), k)))
            added = len(list(combinations_with_replacement(BRUTE_VALUES, k)))
            expected_count = removed * added if relation is Relation.BOUNDED else removed + added
            assert neighbors.count_neighbors(BRUTE_X, ds.Domain(BRUTE_VALUES), k, form) == expected_count


@pytest.mark.parametrize("relation", RELATIONS, ids=str)
def test_vector_and_grouped_sensitivity_against_neighbours_by_hand(relation):
    x, values = [1, 2, 2, 5], [0, 1, 2, 5, 7]
    for form in (relation, relation.value):
        for k in (1, 2):
            fx = np.array([np.mean(x), np.median(x), np.var(x)])
            expected = max(float(np.linalg.norm(np.array([np.mean(y), np.median(y), np.var(y)]) - fx, 2))
                           for y in _neighbours_by_hand(x, values, k, relation.value))
            got = vector.vector_local_sensitivity(x, ["mean", "median", "var"], ds.Domain(values), k, form, "l2")
            assert got == pytest.approx(expected, rel=1e-12)
    # two groups a and b of (label, value) records; a record may move to the other group when replaced
    records = [("a", 1), ("a", 2), ("b", 5), ("b", 7)]
    labelled = [(g, v) for g in "ab" for v in values]
    for form in (relation, relation.value):
        for (norm, order), k in ((("l1", 1), 1), (("l2", 2), 1), (("linf", np.inf), 1), (("l2", 2), 2)):
            fx = np.array([np.sum([v for g, v in records if g == lab]) for lab in "ab"])
            best = 0.0
            for y in _neighbours_by_hand(records, labelled, k, relation.value):
                fy = np.array([np.sum([v for g, v in y if g == lab]) for lab in "ab"])
                best = max(best, float(np.linalg.norm(fy - fx, order)))
            got = vector.grouped_local_sensitivity([v for _, v in records], [g for g, _ in records], "sum",
                                                   ds.Domain(values), k=k, neighbors=form, norm=norm)
            assert got == pytest.approx(best, rel=1e-12), (norm, k, form)


@pytest.mark.parametrize("relation", RELATIONS, ids=str)
def test_inverse_len_quantile_against_a_breadth_first_search(relation):
    """``len(x; t)``: the fewest steps (one record replaced, or one added or removed) to a dataset whose
    ``q`` order statistic is ``t``; only a value's side of ``t`` matters, so the values ``lower``, ``upper``,
    ``t`` and the data's own are enough."""
    x, lower, upper = (1.0, 2.0, 3.0, 7.0, 9.0), 0.0, 10.0
    for q in (0.5, 0.25, 0.9):
        for t in (0.0, 1.5, 3.0, 5.0, 9.0, 10.0):
            values = sorted(set(x) | {lower, upper, t})
            frontier, seen, steps = {x}, {x}, 0
            while not any(inverse.order_statistic(y, q) == t for y in frontier):
                steps += 1
                nxt = set()
                for y in frontier:
                    for i in range(len(y)):
                        if relation is Relation.BOUNDED:
                            nxt.update(tuple(sorted(y[:i] + y[i + 1:] + (v,))) for v in values)
                        elif len(y) > 1:
                            nxt.add(y[:i] + y[i + 1:])
                    if relation is Relation.UNBOUNDED:
                        nxt.update(tuple(sorted(y + (v,))) for v in values)
                frontier = nxt - seen
                seen |= frontier
            for form in (relation, relation.value):
                assert inverse.inverse_len_quantile(list(x), q, t, lower, upper, form) == steps, (q, t, form)


def test_inverse_len_of_the_count_by_hand():
    # the count of 5 records moves only by adding or removing: |t - 5| steps; replacing never moves it
    for form in (Relation.UNBOUNDED, "unbounded"):
        assert inverse.inverse_len(X, "count", [5.0, 3.0, 8.0], 0.0, 10.0, form).tolist() == [0.0, 2.0, 3.0]
    for form in (Relation.BOUNDED, "bounded"):
        assert inverse.inverse_len(X, "count", [5.0, 3.0, 8.0], 0.0, 10.0, form).tolist() == [0.0, np.inf, np.inf]


@pytest.mark.parametrize("relation", RELATIONS, ids=str)
def test_the_rank_utility_sensitivity_against_neighbours_by_hand(relation):
    """``U(x, z) = -|#{x_i < z} - q n|``: its largest change over neighbours, every release of 3 values of a
    small domain and every candidate ``z``, equals the sensitivity the exponential mechanism uses."""
    values, zs = [0, 1, 2, 3], [-0.5, 0.5, 1.0, 1.5, 2.5, 3.5]

    def u(y, z, q):
        return -abs(sum(v < z for v in y) - q * len(y))

    for q in (0.3, 0.5, 0.9):
        expected = max(abs(u(x, z, q) - u(y, z, q)) for x in combinations_with_replacement(values, 3)
                       for y in _neighbours_by_hand(x, values, 1, relation.value) for z in zs)
        for form in (relation, relation.value):
            assert exponential.rank_utility_sensitivity(q, form) == pytest.approx(expected, rel=1e-12), (q, form)
