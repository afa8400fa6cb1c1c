"""Tests of dpsens.transformations: every stability rule is never exceeded over
random neighbours (seeded) and is reached exactly on a worst case; truncations
checked against their definitions; the calculator; the exercise checkers."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from dpsens import transformations as T
from dpsens.figures import transformations as figures
from dpsens.exercises import transformations as EX

from profiles import PROFILE


def _sorted_rows(df):
    return sorted(tuple(map(str, r)) for r in df[sorted(df.columns)].itertuples(index=False, name=None))


def _brute_distance(a, b):
    """Symmetric difference by walking two sorted row lists (independent of the package)."""
    ra, rb = _sorted_rows(a), _sorted_rows(b)
    i = j = d = 0
    while i < len(ra) and j < len(rb):
        if ra[i] == rb[j]:
            i, j = i + 1, j + 1
        elif ra[i] < rb[j]:
            i, d = i + 1, d + 1
        else:
            j, d = j + 1, d + 1
    return d + (len(ra) - i) + (len(rb) - j)


def test_symmetric_distance_against_sorted_merge():
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = pd.DataFrame({"k": rng.integers(0, 3, rng.integers(0, 7)), "v": 0})
        a["v"] = rng.integers(0, 2, len(a))
        b = pd.DataFrame({"v": rng.integers(0, 2, rng.integers(0, 7))})
        b["k"] = rng.integers(0, 3, len(b))
        assert T.symmetric_distance(a, b) == _brute_distance(a, b)
    with pytest.raises(ValueError, match="same columns"):
        T.symmetric_distance(pd.DataFrame({"a": [1]}), pd.DataFrame({"b": [1]}))


# ---------------------------------------------------------------------------
# flat map: stability m
# ---------------------------------------------------------------------------
def _split(row):
    return [{"title": row["title"], "genre": g} for g in row["genres"].split("|") if g]


def test_flat_map_keeps_at_most_m_rows_and_removal_of_each_row_costs_min_len_m():
    films = pd.DataFrame({"title": ["a", "b", "c", "d"],
                          "genres": ["", "drama", "drama|horror", "action|comedy|drama|horror|sci-fi"]})
    out = T.flat_map(films, _split, max_rows=3)
    assert out.groupby("title").size().to_dict() == {"b": 1, "c": 2, "d": 3}
    # exhaustively: removing each film changes the output by min(#genres, 3)
    for i in range(len(films)):
        changed = T.symmetric_distance(out, T.flat_map(films.drop(index=i), _split, 3))
        assert changed == min(len([g for g in films.genres[i].split("|") if g]), 3)


def test_flat_map_bound_over_random_neighbors_and_reached():
    rng = np.random.default_rng(1)
    for m in (1, 2, 3):
        pairs = ((x, T.row_neighbor(x, rng, lambda g: T.films_table(g, 1).iloc[0].to_dict()))
                 for x in (T.films_table(rng, 5) for _ in range(60)))
        assert T.largest_change(lambda d, m=m: T.flat_map(d, _split, m), pairs) == m


# ---------------------------------------------------------------------------
# public join: stability = largest key multiplicity of the public table
# ---------------------------------------------------------------------------
def test_public_join_stability_is_max_multiplicity_exhaustively():
    states = T.states_table()
    assert T.max_key_multiplicity(states, "zipcode") == 2
    people = T.people_table(np.random.default_rng(2), 4)
    base = T.public_join(people, states, "zipcode")
    changes = []
    for z in (10001, 37752, 60601, 94105, 99999):  # add one person in each ZIP code
        grown = pd.concat([people, pd.DataFrame([{"name": "new", "age": 30, "zipcode": z}])], ignore_index=True)
        changes.append(T.symmetric_distance(base, T.public_join(grown, states, "zipcode")))
    assert changes == [1, 2, 1, 1, 0]


def test_public_join_random_neighbors():
    rng = np.random.default_rng(3)
    states = T.states_table()
    pairs = ((x, T.row_neighbor(x, rng, lambda g: T.people_table(g, 1).iloc[0].to_dict()))
             for x in (T.people_table(rng, 5) for _ in range(80)))
    assert T.largest_change(lambda d: T.public_join(d, states, "zipcode"), pairs) == 2


# ---------------------------------------------------------------------------
# truncation
# ---------------------------------------------------------------------------
def test_truncate_rows_per_id_definition_and_order_independence():
    rng = np.random.default_rng(4)
    for _ in range(50):
        df = pd.DataFrame({"id": rng.integers(0, 4, 15), "v": rng.integers(0, 5, 15)})
        for limit in (1, 2, 3):
            out = T.truncate_rows_per_id(df, "id", limit)
            sizes = df.groupby("id").size()
            assert out.groupby("id").size().to_dict() == {k: min(v, limit) for k, v in sizes.items()}
            assert set(out.index) <= set(df.index)
            shuffled = df.sample(frac=1, random_state=int(rng.integers(1000)))
            assert _sorted_rows(T.truncate_rows_per_id(shuffled, "id", limit)) == _sorted_rows(out)
            rnd = T.truncate_rows_per_id(df, "id", limit, rng=rng)
            assert rnd.groupby("id").size().to_dict() == {k: min(v, limit) for k, v in sizes.items()}


def test_truncation_stabilities_exhaustive_single_row_changes():
    """Adding or removing any one row moves drop_excess output by <= 2 and
    drop_non_unique output by <= 1; both bounds are reached."""
    rng = np.random.default_rng(5)
    worst = {"drop_excess": 0, "drop_non_unique": 0}
    for _ in range(30):
        df = pd.DataFrame({"id": rng.integers(0, 3, 7), "v": rng.integers(0, 4, 7)})
        neighbor_tables = [df.drop(index=i) for i in df.index]
        neighbor_tables += [pd.concat([df, pd.DataFrame([{"id": i, "v": v}])], ignore_index=True)
                             for i, v in itertools.product(range(3), range(5))]
        for y in neighbor_tables:
            worst["drop_excess"] = max(worst["drop_excess"], T.symmetric_distance(
                T.truncate_rows_per_id(df, "id", 2), T.truncate_rows_per_id(y, "id", 2)))
            worst["drop_non_unique"] = max(worst["drop_non_unique"], T.symmetric_distance(
                T.drop_non_unique(df, "id"), T.drop_non_unique(y, "id")))
    assert worst == T.TRUNCATION_STABILITY == {"drop_excess": 2, "drop_non_unique": 1}


def test_group_truncation_definition():
    df = T.purchases_table(np.random.default_rng(6), n_users=6, n_shops=5, max_rows=5)
    out = T.truncate_rows_per_group_per_id(T.truncate_groups_per_id(df, "user_id", "shop", 2),
                                           "user_id", "shop", 3)
    assert out.groupby("user_id")["shop"].nunique().max() <= 2
    assert out.groupby(["user_id", "shop"]).size().max() <= 3
    # a user keeps min(#shops, 2) shops, each with min(#rows, 3) rows
    for uid, rows in df.groupby("user_id"):
        kept = out[out.user_id == uid]
        assert kept["shop"].nunique() == min(rows["shop"].nunique(), 2)
        for shop, k in kept.groupby("shop").size().items():
            assert k == min(int((rows["shop"] == shop).sum()), 3)


# ---------------------------------------------------------------------------
# private join: q_1 κ_2 t_2 + q_2 κ_1 t_1 (the guide's T_l S_r M_r + T_r S_l M_l)
# ---------------------------------------------------------------------------
def test_private_join_numbers_of_the_guide():
    assert T.private_join_stability(2, 2) == 8
    assert T.private_join_stability(1, 2, left_truncation="drop_non_unique") == 4
    assert T.private_join_stability(1, 2) == 6


def test_private_join_pairs_each_tables_distance_with_its_own_truncation():
    """t_1 = 2 rows added to Users (drop_excess(1), κ_1 = 2), t_2 = 1 row to Purchases (drop_excess(3),
    κ_2 = 2).  Each added user evicts the kept user of its key: 2 · 2 changed Users rows, each joined
    with the 3 purchases of its key, 12 rows; the added purchase evicts a kept one: 2 changed rows,
    each joined with the 1 kept user, 2 rows.  14 = q_1 κ_2 t_2 + q_2 κ_1 t_1; pairing each t with
    the other table's κ (1 · 2 · 2 + 3 · 2 · 1 = 10) would be too small."""
    users = pd.DataFrame({"user_id": [2, 0, 1], "name": ["n17", "n42", "n24"]})
    purchases = pd.DataFrame({"user_id": [0, 0, 0, 1, 1, 1, 2, 2, 2],
                              "item": ["i21", "i17", "i16", "i5", "i23", "i44", "i26", "i7", "i42"]})
    users2 = pd.concat([users, pd.DataFrame({"user_id": [2, 0], "name": ["n71", "n82"]})], ignore_index=True)
    purchases2 = pd.concat([purchases, pd.DataFrame({"user_id": [1], "item": ["i67"]})], ignore_index=True)
    moved = T.symmetric_distance(T.private_join(users, purchases, "user_id", 1, 3),
                                 T.private_join(users2, purchases2, "user_id", 1, 3))
    assert moved == 14
    assert T.private_join_stability(1, 3, left_max_rows=2, right_max_rows=1) == 14
    assert T.private_join_stability(1, 3, left_max_rows=1, right_max_rows=2) == 10


def _join_pairs(rng, n_x, n_nb):
    for _ in range(n_x):
        u, p = T.users_purchases_tables(rng, 2, 3, min_rows=1)
        for _ in range(n_nb):
            yield (u, p), (
                T.row_neighbor(u, rng, lambda g: {"user_id": int(g.integers(2)), "name": f"name {int(g.integers(100))}"}),
                T.row_neighbor(p, rng, lambda g: {"user_id": int(g.integers(2)), "item": f"item {int(g.integers(100))}"}))


#: Seeded tables for the private join: 60 (x 10 neighbours) in the full profile; the quick one takes
#: the first 25 of the same draws, which reach the bound already (first at pairs 60, 240 and 25).
JOIN_TABLES = 60 if PROFILE == "full" else 25


@pytest.mark.parametrize("args, seed", [((2, 2, "drop_excess", "drop_excess"), 11),
                                        ((1, 2, "drop_non_unique", "drop_excess"), 12),
                                        ((1, 2, "drop_excess", "drop_excess"), 13)])
def test_private_join_bound_reached_never_exceeded(args, seed):
    bound = T.private_join_stability(*args)
    found, (x, y) = T.largest_change(lambda d: T.private_join(d[0], d[1], "user_id", *args),
                                     _join_pairs(np.random.default_rng(seed), JOIN_TABLES, 10), return_pair=True)
    assert found == bound
    # the worst pair really is a pair of neighbours: one row more or less in each table
    assert T.symmetric_distance(x[0], y[0]) == 1 and T.symmetric_distance(x[1], y[1]) == 1


def test_join_on_identifier_gives_a_times_b():
    a, b = 2, 3
    rng = np.random.default_rng(14)

    def joined(d):
        return T.truncate_rows_per_id(d[0], "user_id", a).merge(T.truncate_rows_per_id(d[1], "user_id", b),
                                                                on="user_id")

    def pairs():
        for _ in range(150):
            u, p = T.users_purchases_tables(rng, 3, 4)
            uid = int(rng.integers(3))
            yield (u, p), (u[u.user_id != uid], p[p.user_id != uid])
    assert T.largest_change(joined, pairs()) == a * b


# ---------------------------------------------------------------------------
# contributions per identifier: L1 g r, L2 sqrt(g) r
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("g, r", [(1, 2), (3, 2), (2, 4)])
def test_per_id_bounds_random_and_worst_case(g, r):
    def counts(d):
        d = T.truncate_rows_per_group_per_id(T.truncate_groups_per_id(d, "user_id", "shop", g), "user_id", "shop", r)
        return d.groupby("shop").size()
    rng = np.random.default_rng(20 + g + r)
    xs = [T.purchases_table(rng, 4, 4, 5) for _ in range(40)]
    pairs = [(x, T.id_neighbor(x, "user_id", rng)) for x in xs for _ in range(3)]
    l1, l2 = T.largest_change(counts, pairs, "l1"), T.largest_change(counts, pairs, "l2")
    assert l1 <= T.per_id_sensitivity(g, r, "l1") and l2 <= T.per_id_sensitivity(g, r, "l2") + 1e-12
    # the worst case: user 0 in g + 1 shops with r + 1 rows in each
    worst = pd.DataFrame([{"user_id": 0, "shop": f"s{s}"} for s in range(g + 1) for _ in range(r + 1)]
                         + [{"user_id": 1, "shop": "s0"}])
    pair = [(worst, worst[worst.user_id != 0])]
    assert T.largest_change(counts, pair, "l1") == g * r
    assert math.isclose(T.largest_change(counts, pair, "l2"), math.sqrt(g) * r)
    assert T.per_id_sensitivity(g, r, "l1") == g * r
    assert math.isclose(T.per_id_sensitivity(g, r, "l2"), math.sqrt(g) * r)


def test_without_truncation_a_person_moves_the_count_by_their_rows():
    df = pd.DataFrame({"user_id": [0] * 40 + list(range(1, 11))})
    pairs = [(df, df[df.user_id != u]) for u in range(11)]
    assert T.largest_change(len, pairs, "abs") == 40
    assert T.largest_change(lambda d: len(T.truncate_rows_per_id(d, "user_id", 2)), pairs, "abs") == 2


# ---------------------------------------------------------------------------
# the calculator
# ---------------------------------------------------------------------------
def test_row_stability_calculator():
    plan = T.RowStability(1).flat_map(3)
    assert plan.rows == 3 and plan.count_sensitivity() == 3
    plan = plan.public_join(2).filter()
    assert plan.rows == 6 and plan.sum_sensitivity(-5, 2) == 30
    assert str(plan).startswith("protect 1 row(s) -> flat map (x3) -> 3")
    joined = T.RowStability(1).private_join(T.RowStability(1), 2, 2)
    assert joined.rows == 8
    # a flat map before the join multiplies that side's protected change
    assert T.RowStability(1).flat_map(2).private_join(T.RowStability(1), 2, 2).rows == 2 * 2 * 1 + 2 * 2 * 2
    with pytest.raises(ValueError, match="max_rows"):
        T.RowStability(0)
    with pytest.raises(TypeError, match="other"):
        T.RowStability(1).private_join(3, 2, 2)


def test_bad_inputs_name_the_argument():
    df = pd.DataFrame({"id": [1, 2]})
    with pytest.raises(ValueError, match="max_rows"):
        T.truncate_rows_per_id(df, "id", 0)
    with pytest.raises(ValueError, match="no column"):
        T.truncate_rows_per_id(df, "user", 1)
    with pytest.raises(TypeError, match="rng"):
        T.truncate_rows_per_id(df, "id", 1, rng=3)
    with pytest.raises(TypeError, match="DataFrame"):
        T.flat_map([1, 2], lambda r: [r], 1)
    with pytest.raises(ValueError, match="norm"):
        T.per_id_sensitivity(2, 2, "linf")
    with pytest.raises(ValueError, match="left_truncation"):
        T.private_join_stability(2, 2, left_truncation="drop_some")
    with pytest.raises(ValueError, match="left_threshold"):
        T.private_join_stability(2, 2, left_truncation="drop_non_unique")
    with pytest.raises(ValueError, match="right_max_rows"):
        T.private_join(df, df, "id", 1, None)
    with pytest.raises(ValueError, match="measure"):
        T.largest_change(len, [(df, df)], "l3")


def test_figures_have_titles_labels_legends():
    results = pd.DataFrame({"measured": [3, 2], "bound": [3, 2]}, index=["flat map", "public join"])
    for fig in (figures.plot_measured_vs_bound(results), figures.plot_contribution_noise(max_groups_limit=8),
                figures.plot_row_vs_id()):
        for ax in fig.axes:
            assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
            assert ax.get_legend() is not None or fig.legends    # in the axes, or below them
        fig.clf()


# ---------------------------------------------------------------------------
# checkers
# ---------------------------------------------------------------------------
def test_checker_plan():
    assert EX.check_plan_sensitivity(...).status == "not yet"
    assert EX.check_plan_sensitivity(4 * 3 * 50).correct
    assert EX.check_plan_sensitivity(12).status == "wrong"
    assert EX.check_plan_sensitivity(350).status == "wrong"


def test_checker_private_join():
    assert EX.check_private_join_sensitivity(...).status == "not yet"
    assert EX.check_private_join_sensitivity(1 * 2 * 1 + 3 * 1 * 1).correct
    assert EX.check_private_join_sensitivity(1 * 2 * 1 + 3 * 2 * 1).status == "wrong"
    assert EX.check_private_join_sensitivity(3).status == "wrong"


def test_checker_worst_case():
    assert EX.check_worst_case_purchases(...).status == "not yet"
    good = pd.DataFrame({"user_id": [0] * 9, "shop": ["a"] * 3 + ["b"] * 3 + ["c"] * 3})
    assert EX.check_worst_case_purchases(good).correct
    assert EX.check_worst_case_purchases(good.iloc[:5]).status == "wrong"   # only 3 + 2 rows
    assert EX.check_worst_case_purchases(pd.DataFrame({"user_id": [1], "shop": ["a"]})).status == "wrong"
    assert EX.check_worst_case_purchases([1, 2]).status == "wrong"


def test_a_chain_of_flat_maps_and_a_clamped_sum_meet_their_rules_on_random_film_tables():
    """Exercise ex-transformations-proof-chain, on 200 seeded pairs of neighbouring film tables: a 3-stable
    flat map then a 2-stable one change at most 3 * 2 rows, and a clamped sum over [l, u] = [-20, 10]
    moves by at most max(|l|, |u|) = 20."""
    rng = np.random.default_rng(16)
    lo, hi = -20, 10
    pairs = []
    for _ in range(40):
        x = T.films_table(rng, n_films=6)
        for _ in range(5):
            pairs.append((x, T.row_neighbor(x, rng, lambda g: T.films_table(g, 1).iloc[0].to_dict())))

    def chain(d):
        return T.flat_map(T.flat_map(d, _split, 3), lambda row: [dict(row), dict(row)], 2)

    def clamped_sum(d):
        return float(np.clip(d["genres"].str.len().to_numpy() - 15, lo, hi).sum())

    assert 0 < T.largest_change(chain, pairs) <= 3 * 2
    assert 0 < T.largest_change(clamped_sum, pairs, measure="abs") <= max(abs(lo), abs(hi))
