"""The neighbour relation as a type (issue 36, item 1): :class:`dpsens.Relation`.

* Every public function that takes ``neighbors=`` gives the same result for
  the string a chapter passes and for the member of :class:`~dpsens.Relation`
  (exact equality, the same seeded generator for the mechanisms).
* A wrong relation raises ``ValueError`` naming ``neighbors`` and listing the
  valid names.
* No module of the package compares a value with the literal strings
  ``"bounded"``, ``"unbounded"`` or ``"symmetric"`` (read with :mod:`ast`).
"""
from __future__ import annotations

import ast
import dataclasses
import pathlib

import numpy as np
import pytest

import dpsens as ds
from dpsens import accuracy, bruteforce, globalsens, grid, inverse, local, neighbors, proportions, vector
from dpsens.mechanisms import exponential, inverse_sensitivity, ptr, sample_aggregate, smooth_noise
from dpsens.queries import check_query
from dpsens.relation import EXACT_RELATIONS, RELATIONS, Relation, as_relation

X = [1.0, 2.0, 3.0, 7.0, 9.0]
DOMAIN = ds.Domain(range(10))
POOL = ds.Pool([1, 2, 3, 7, 9, 10, 11])
AGES = [23.0, 31.0, 35.0, 41.0, 44.0, 52.0, 58.0, 60.0, 63.0, 70.0]


def _rng():
    return np.random.default_rng(36)


def _local_sorted(rel):
    name, f = check_query("var")
    xs = np.array(X)
    a = local.available_values(xs, DOMAIN, 1)
    return local.local_sensitivity_sorted(name, f, xs, a, 1, rel)


def _grid(rel):
    g = grid.sensitivity_grid(POOL, 3, 1, "median", rel)
    return {f.name: getattr(g, f.name) for f in dataclasses.fields(g) if f.name != "universe"}


#: name -> (function of the relation, relations it takes); each returns plain values, arrays or dicts.
CASES = {
    "iter_neighbors": (lambda r: list(neighbors.iter_neighbors([1, 2, 2], DOMAIN, 1, r)), RELATIONS),
    "enumerate_neighbors": (lambda r: neighbors.enumerate_neighbors([1, 2, 3], POOL, 1, r), RELATIONS),
    "random_neighbors": (lambda r: neighbors.random_neighbors(X, DOMAIN, 5, r, _rng()), RELATIONS),
    "count_neighbors": (lambda r: neighbors.count_neighbors(X, POOL, 2, r), RELATIONS),
    "local_sensitivity_sorted": (_local_sorted, EXACT_RELATIONS),
    "exact_local_sensitivity": (lambda r: local.exact_local_sensitivity(X, "std", DOMAIN, 2, r), EXACT_RELATIONS),
    "exact_global_sensitivity": (lambda r: globalsens.exact_global_sensitivity("var", POOL, 4, 1, r), RELATIONS),
    "ds.local_sensitivity": (lambda r: ds.local_sensitivity(X, "median", DOMAIN, 2, r), EXACT_RELATIONS),
    "ds.local_sensitivity bruteforce": (
        lambda r: ds.local_sensitivity(X, "mean", POOL, 1, r, method="bruteforce"), RELATIONS),
    "ds.global_sensitivity": (lambda r: ds.global_sensitivity("median", POOL, 3, 1, r), EXACT_RELATIONS),
    "ds.global_sensitivity private size": (
        lambda r: ds.global_sensitivity("mean", DOMAIN, neighbors=r, size="private", n_min=5),
        (Relation.UNBOUNDED,)),
    "bruteforce_local_sensitivity": (
        lambda r: bruteforce.bruteforce_local_sensitivity(X, "var", DOMAIN, 1, r), RELATIONS),
    "bruteforce_global_sensitivity": (
        lambda r: bruteforce.bruteforce_global_sensitivity("median", POOL, 3, 1, r), RELATIONS),
    "source_evaluations": (lambda r: bruteforce.source_evaluations(3, 3, 1, r), RELATIONS),
    "grid_size": (lambda r: grid.grid_size(POOL, 3, 1, r), RELATIONS),
    "sensitivity_grid": (_grid, RELATIONS),
    "vector_local_sensitivity": (
        lambda r: vector.vector_local_sensitivity(X, ["mean", "median"], DOMAIN, 1, r, "l2", return_neighbor=True),
        RELATIONS),
    "vector_global_sensitivity": (
        lambda r: vector.vector_global_sensitivity(["mean", "median"], ds.Domain([0, 1, 2]), 3, 1, r), RELATIONS),
    "grouped_local_sensitivity": (
        lambda r: vector.grouped_local_sensitivity(X, ["a", "b", "a", "b", "a"], "mean", DOMAIN, neighbors=r),
        RELATIONS),
    "histogram_sensitivity": (lambda r: vector.histogram_sensitivity(r, "l2", 2, 3), RELATIONS),
    "noisy_histogram": (lambda r: vector.noisy_histogram([3, 0, 5], 1.0, _rng(), neighbors=r, size=4), RELATIONS),
    "proportion_changes": (lambda r: proportions.proportion_changes([1, 2, 5], r), RELATIONS),
    "proportion_local_sensitivity": (
        lambda r: proportions.proportion_local_sensitivity([1, 2, 5], r, "l1"), RELATIONS),
    "proportion_global_sensitivity": (lambda r: proportions.proportion_global_sensitivity(40, r), RELATIONS),
    "inverse_len_quantile": (
        lambda r: inverse.inverse_len_quantile(X, 0.5, [0.5, 2.5, 8.0], 0.0, 10.0, r), RELATIONS),
    "inverse_len": (lambda r: inverse.inverse_len(X, "var", [1.0, 9.0, 30.0], 0.0, 10.0, r), RELATIONS),
    "rank_error": (lambda r: accuracy.rank_error(AGES, 0.5, [30.0, 50.0], 0.0, 100.0, r), RELATIONS),
    "rank_error_bound": (lambda r: accuracy.rank_error_bound(AGES, 0.5, 1.0, 0.1, 0.0, 100.0, r), RELATIONS),
    "rank_value_bound": (lambda r: accuracy.rank_value_bound(AGES, 0.5, 2.0, 0.0, 100.0, r), RELATIONS),
    "local_modulus_quantile": (
        lambda r: accuracy.local_modulus_quantile(AGES, 0.5, [0, 1, 3], 0.0, 100.0, r), RELATIONS),
    "inverse_sensitivity_error_bound": (
        lambda r: accuracy.inverse_sensitivity_error_bound(AGES, 0.5, 1.0, 0.1, 0.0, 100.0, r), RELATIONS),
    "local_minimax_lower_bound": (
        lambda r: accuracy.local_minimax_lower_bound(AGES, 0.5, 1.0, 0.0, 100.0, r, return_t=True), RELATIONS),
    "rank_utility_sensitivity": (lambda r: exponential.rank_utility_sensitivity(0.3, r), RELATIONS),
    "quantile_rank_utility": (lambda r: exponential.quantile_rank_utility(AGES, 0.5, [30.0, 50.0], r), RELATIONS),
    "quantile_exponential_distribution": (
        lambda r: exponential.quantile_exponential_distribution(AGES, 0.5, 1.0, 0.0, 100.0, r), RELATIONS),
    "quantile_exponential": (
        lambda r: exponential.quantile_exponential(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), r, size=5), RELATIONS),
    "inverse_sensitivity_distribution": (
        lambda r: inverse_sensitivity.inverse_sensitivity_distribution(AGES, 0.5, 1.0, 0.0, 100.0, r), RELATIONS),
    "inverse_sensitivity_quantile": (
        lambda r: inverse_sensitivity.inverse_sensitivity_quantile(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), r, size=5),
        RELATIONS),
    "propose_test_release": (
        lambda r: ptr.propose_test_release(AGES, "median", 10.0, 1.0, 1e-6, 0.0, 100.0, _rng(), neighbors=r,
                                           details=True), RELATIONS),
    "sample_and_aggregate": (
        lambda r: sample_aggregate.sample_and_aggregate(AGES, np.median, 3, 0.0, 100.0, 1.0, _rng(), details=True,
                                                        neighbors=r), RELATIONS),
    "smooth_sensitivity_mechanism": (
        lambda r: smooth_noise.smooth_sensitivity_mechanism(AGES, "median", 1.0, 1e-6, 0.0, 100.0, _rng(),
                                                            neighbors=r, details=True), RELATIONS),
    "smooth_noise_error": (
        lambda r: smooth_noise.smooth_noise_error(AGES, "median", 1.0, 1e-6, 0.0, 100.0, neighbors=r), RELATIONS),
}

PAIRS = [pytest.param(name, rel, id=f"{name}-{rel.value}") for name, (_, rels) in CASES.items() for rel in rels]


@pytest.mark.parametrize("name, relation", PAIRS)
def test_string_and_member_give_the_same_result(name, relation):
    function = CASES[name][0]
    from_string = function(relation.value)
    from_member = function(relation)
    assert type(relation.value) is str
    np.testing.assert_equal(from_member, from_string)


def test_the_relations_give_different_results_where_they_should():
    # a guard against a comparison that is never true: the cases must see the relation
    for name in ("count_neighbors", "exact_global_sensitivity", "proportion_global_sensitivity",
                 "rank_utility_sensitivity", "inverse_len_quantile", "histogram_sensitivity"):
        function = CASES[name][0]
        assert function("bounded") != pytest.approx(function("unbounded")), name


def test_known_values_under_each_relation():
    # independent of the code: by hand
    assert neighbors.count_neighbors([1, 2], ds.Domain([1, 2]), 1, "bounded") == 4       # 2 removals x 2 values
    assert neighbors.count_neighbors([1, 2], ds.Domain([1, 2]), 1, Relation.UNBOUNDED) == 4   # 2 out, 2 in
    assert exponential.rank_utility_sensitivity(0.5, Relation.BOUNDED) == 1.0
    assert proportions.proportion_global_sensitivity(40, Relation.BOUNDED) == 1 / 40
    assert proportions.proportion_global_sensitivity(40, Relation.UNBOUNDED) == 0.5
    assert vector.histogram_sensitivity(Relation.BOUNDED, "l1") == 2.0
    assert vector.histogram_sensitivity("unbounded", "l1") == 1.0
    # the median of [1, 2, 3, 7, 9] (3) at group size 2 on the domain 0..9: remove 1 and 2, or add two 9s,
    # gives 7 (4 up); only replacing two records (bounded) reaches [3, 7, 9, 9, 9] with median 9 (6 up)
    name, f = check_query("median")
    xs = np.array(X)
    a = local.available_values(xs, DOMAIN, 2)
    for relation, expected in (("unbounded", 4.0), ("bounded", 6.0), ("symmetric", 4.0)):
        assert local.local_sensitivity_sorted(name, f, xs, a, 2, relation) == expected
        assert local.local_sensitivity_sorted(name, f, xs, a, 2, Relation(relation)) == expected
        assert ds.local_sensitivity(X, "median", DOMAIN, 2, relation) == expected


def test_a_member_is_its_string():
    assert Relation("bounded") is Relation.BOUNDED
    assert Relation("unbounded") is Relation.UNBOUNDED
    assert Relation("symmetric") is Relation.SYMMETRIC
    assert Relation.BOUNDED == "bounded" and str(Relation.UNBOUNDED) == "unbounded"
    assert f"{Relation.SYMMETRIC}" == "symmetric"
    assert ds.Relation is Relation
    assert as_relation("bounded") is Relation.BOUNDED and as_relation(Relation.BOUNDED) is Relation.BOUNDED


WRONG = ["replace", "Bounded", "", None, 1, ("bounded",)]


ENTRY_POINTS = {
    "ds.local_sensitivity": (lambda r: ds.local_sensitivity(X, "median", DOMAIN, neighbors=r), EXACT_RELATIONS),
    "ds.global_sensitivity": (lambda r: ds.global_sensitivity("median", DOMAIN, 4, neighbors=r), EXACT_RELATIONS),
    "ds.enumerate_neighbors": (lambda r: ds.enumerate_neighbors(X, DOMAIN, neighbors=r), RELATIONS),
    "ds.bruteforce.bruteforce_global_sensitivity": (
        lambda r: ds.bruteforce.bruteforce_global_sensitivity("median", POOL, 3, neighbors=r), RELATIONS),
    "vector_local_sensitivity": (
        lambda r: vector.vector_local_sensitivity(X, ["mean"], DOMAIN, neighbors=r), RELATIONS),
    "proportion_changes": (lambda r: proportions.proportion_changes([1, 2], r), RELATIONS),
    "inverse_len": (lambda r: inverse.inverse_len(X, "mean", 3.0, 0.0, 10.0, r), RELATIONS),
    "mechanisms.quantile_exponential": (
        lambda r: ds.mechanisms.quantile_exponential(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), r), RELATIONS),
    "ds.sample_and_aggregate": (
        lambda r: ds.sample_and_aggregate(AGES, np.median, 3, 0.0, 100.0, 1.0, _rng(), neighbors=r), RELATIONS),
    "ds.mechanisms.smooth_sensitivity_mechanism": (
        lambda r: ds.mechanisms.smooth_sensitivity_mechanism(AGES, "median", 1.0, 1e-6, 0.0, 100.0, _rng(), neighbors=r),
        RELATIONS),
    "ds.mechanisms.propose_test_release": (
        lambda r: ds.mechanisms.propose_test_release(AGES, "median", 10.0, 1.0, 1e-6, 0.0, 100.0, _rng(), neighbors=r),
        RELATIONS),
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
@pytest.mark.parametrize("wrong", WRONG, ids=repr)
def test_a_wrong_relation_names_the_argument_and_the_valid_ones(name, wrong):
    function, allowed = ENTRY_POINTS[name]
    with pytest.raises(ValueError) as info:
        function(wrong)
    message = str(info.value)
    assert message.startswith("neighbors must be one of (")
    for relation in allowed:
        assert repr(relation.value) in message
    assert repr(wrong) in message


def test_symmetric_is_refused_where_it_is_not_defined():
    with pytest.raises(ValueError, match=r"neighbors must be one of \('unbounded', 'bounded'\), got 'symmetric'"):
        ds.enumerate_neighbors(X, DOMAIN, neighbors="symmetric")
    with pytest.raises(ValueError, match="got <Relation.SYMMETRIC: 'symmetric'>"):
        ds.mechanisms.quantile_exponential(AGES, 0.5, 1.0, 0.0, 100.0, _rng(), Relation.SYMMETRIC)


# ------------------------------------------------------------------ no string comparisons left
PKG = pathlib.Path(__file__).resolve().parents[2] / "src" / "dpsens"
RELATION_NAMES = {"bounded", "unbounded", "symmetric"}

#: Every module of the package (issue 36 item 1).
CONVERTED_MODULES = sorted(PKG.rglob("*.py"))


def _string_comparisons(source: str) -> list[int]:
    """Lines where a value is compared (==, !=, is, in, ...) with a relation's name as a literal string."""
    def names(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in RELATION_NAMES
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(names(e) for e in node.elts)
        return False

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(names(n) for n in [node.left, *node.comparators]):
            lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and names(node.value):
            lines.append(node.lineno)
    return lines


def test_the_detector_finds_string_comparisons():
    assert _string_comparisons('if neighbors == "bounded":\n    pass\n') == [1]
    assert _string_comparisons('ok = r in ("unbounded", "bounded")\n') == [1]
    assert _string_comparisons('ok = "symmetric" != r\n') == [1]
    assert _string_comparisons('ok = r is Relation.BOUNDED\nf(neighbors="bounded")\n') == []


@pytest.mark.parametrize("path", CONVERTED_MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_no_module_compares_with_a_relation_string(path):
    found = _string_comparisons(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PKG)} compares with a relation's name as a string on lines {found}"
