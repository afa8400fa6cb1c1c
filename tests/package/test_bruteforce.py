"""The from-scratch oracle: hand-checked values, its limit and its progress bar."""
from itertools import combinations

import numpy as np
import pytest

import dpsens as ds
from dpsens import bruteforce as bf
from dpsens.bruteforce import (bruteforce_global_sensitivity, bruteforce_local_sensitivity,
                               iter_neighbors)

GRID = ds.Pool([1, 2, 3, 10, 11])


def test_median_grid_row_by_hand():
    # x = {1, 2, 10}: removals give medians 6, 5.5, 1.5; additions of 3 and 11 give 2.5 and 6.
    assert bruteforce_local_sensitivity([1, 2, 10], "median", GRID) == 4.0
    # bounded: replacing 1 by 11 gives {2, 10, 11}, median 10, a change of 8.
    assert bruteforce_local_sensitivity([1, 2, 10], "median", GRID, neighbors="bounded") == 8.0


def test_variance_interior_move_by_hand():
    # var{0,0,0,8,8} = 15.36; var{0,0,0,2,8} = 9.6 (the interior move wins).
    x = [0, 0, 0, 8, 8]
    assert bruteforce_local_sensitivity(x, "var", ds.Domain(range(9)), neighbors="bounded") \
        == pytest.approx(15.36 - 9.6)


def test_count_matches_the_definition():
    x = [1, 2, 2, 5]
    for k in (1, 2, 3):
        assert bruteforce_local_sensitivity(x, "count", ds.Domain([1, 2, 5]), k) == k
        assert bruteforce_local_sensitivity(x, "count", ds.Domain([1, 2, 5]), k, "bounded") == 0


def test_neighbors_are_those_of_enumerate_neighbors():
    for universe in (ds.Pool([1, 2, 2, 5, 9, 9]), ds.Domain([0, 3, 4])):
        x = [2, 5, 9] if isinstance(universe, ds.Pool) else [0, 3, 3]
        for k in (1, 2):
            for rel in ("unbounded", "bounded"):
                got = list(iter_neighbors(x, universe, k, rel))
                assert len(got) == ds.count_neighbors(x, universe, k, rel)
                assert {tuple(sorted(y)) for y in got} == set(ds.enumerate_neighbors(x, universe, k, rel))


def test_global_is_max_of_local_over_releases_records_view():
    # Independent re-implementation on records (positions), as the source does.
    pool = [1, 2, 2, 5, 9]
    n, k = 3, 1
    best = 0.0
    for idx in combinations(range(len(pool)), n):
        x = [pool[i] for i in idx]
        rest = [pool[i] for i in range(len(pool)) if i not in idx]
        fx = np.mean(x)
        for r in combinations(range(n), k):
            best = max(best, abs(fx - np.mean([x[i] for i in range(n) if i not in r])))
        for a in combinations(range(len(rest)), k):
            best = max(best, abs(fx - np.mean(x + [rest[i] for i in a])))
    assert bruteforce_global_sensitivity("mean", ds.Pool(pool), n, k) == pytest.approx(best)


def test_callable_range_by_hand():
    spread = lambda v: float(np.max(v) - np.min(v))  # noqa: E731
    # x = {1, 2, 10}, range 9; remove 1 -> 8 (change 1); remove 10 -> 1 (change 8); add 11 -> 10 (change 1)
    assert ds.local_sensitivity([1, 2, 10], spread, GRID, method="bruteforce") == 8.0


def test_refuses_beyond_limit_with_estimate():
    x = list(range(20))
    with pytest.raises(ValueError, match=r"about [\d,]+ neighbouring datasets.*max_neighbors"):
        bruteforce_local_sensitivity(x, "mean", ds.Domain(range(50)), k=5, max_neighbors=1000)
    with pytest.raises(ValueError, match="max_neighbors"):
        ds.global_sensitivity("mean", ds.Domain(range(20)), n=6, k=2, method="bruteforce")
    # raising the limit lets it run
    assert bruteforce_local_sensitivity([1, 2, 3], "sum", ds.Domain([1, 2, 3]), max_neighbors=10) == 3.0
    with pytest.raises(ValueError, match="max_neighbors"):
        bruteforce_local_sensitivity([1, 2, 3], "sum", ds.Domain([1, 2, 3]), max_neighbors=5)


def test_global_refuses_at_once_when_the_bounds_decide(monkeypatch):
    # 705,432 releases of 11 distinct records, each with 11 removals and 11 additions:
    # the bound per release settles it, no release is listed and no neighbour counted.
    import dpsens.bruteforce as bf

    def must_not_run(*args, **kwargs):
        raise AssertionError("the exact count was started")

    monkeypatch.setattr(bf, "count_neighbors", must_not_run)
    monkeypatch.setattr(bf, "releases", must_not_run)
    with pytest.raises(ValueError, match=r"at least 15,519,504 neighbouring datasets \(705,432 releases, "
                                         r"at least 22 neighbours each\).*pass a larger max_neighbors"):
        ds.global_sensitivity("median", ds.Pool(range(22)), 11, method="bruteforce")


def test_global_refuses_from_a_sample_when_far_above(monkeypatch):
    # Repeated values make the bounds loose (122,718 .. 3,886,070); a sample of releases
    # estimates about 1.29 million and the refusal comes without counting all 20,453 releases.
    import dpsens.bruteforce as bf
    pool = ds.Pool([0] * 8 + [1] * 8 + list(range(2, 14)))
    calls = []
    real = bf.count_neighbors
    monkeypatch.setattr(bf, "count_neighbors", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(bf, "releases", lambda *a: pytest.fail("the exact count was started"))
    with pytest.raises(ValueError, match=r"about 1,2\d\d,\d{3} neighbouring datasets \(estimated from "
                                         r"1,000 of the 20,453 releases\).*max_neighbors"):
        bruteforce_global_sensitivity("sum", pool, 10, 1, "bounded", max_neighbors=200_000)
    assert len(calls) == bf.SAMPLE_RELEASES


def test_global_counts_exactly_near_the_limit():
    # school years, bounded, k = 2: 3,918 neighbour choices over 53 releases.
    pool = ds.Pool([1, 2, 2, 2, 5, 5, 7, 8, 9, 9])
    with pytest.raises(ValueError, match=r"on 3,918 neighbouring datasets \(53 releases\)"):
        bruteforce_global_sensitivity("mean", pool, 6, 2, "bounded", max_neighbors=3917)
    assert bruteforce_global_sensitivity("mean", pool, 6, 2, "bounded", max_neighbors=3918) == \
        pytest.approx(ds.global_sensitivity("mean", pool, 6, 2, "bounded"))


def test_progress_bar_appears_on_slow_runs(capsys, monkeypatch):
    # slow on tqdm's own clock, a virtual one: each query takes 0.1 s of it, 1.6 s in all, over
    # the bar's 1 s delay whatever the machine's speed or load (no sleep, no real time)
    import tqdm.std

    now = [0.0]
    monkeypatch.setattr(tqdm.std, "time", lambda: now[0])

    def slow_mean(v):
        now[0] += 0.1
        return float(np.mean(v))

    bruteforce_local_sensitivity(list(range(8)), slow_mean, ds.Domain(range(8)), k=1, progress=True)
    err = capsys.readouterr().err
    assert "neighbours" in err and "%" in err


def test_bad_input():
    with pytest.raises(ValueError, match="k must be"):
        bruteforce_local_sensitivity([1, 2, 3], "mean", GRID, k=3)
    with pytest.raises(ValueError, match="not part of its pool"):
        bruteforce_local_sensitivity([1, 1, 2], "mean", GRID)
    with pytest.raises(ValueError, match="query must be one of"):
        bruteforce_local_sensitivity([1, 2, 3], "mode", GRID)
    with pytest.raises(ValueError, match="neighbors must be"):
        bruteforce_global_sensitivity("mean", GRID, 3, neighbors="replace")
    with pytest.raises(ValueError, match="n must be"):
        bruteforce_global_sensitivity("mean", GRID, 6)


def _count_source_loops(n_values, n, k, relation):
    """Evaluations of the source's loops, counted by running them (positions of ``values * n``)."""
    from itertools import combinations

    positions = range(n_values * n)
    count = 0
    if relation == "unbounded":
        for x in combinations(positions, n):
            count += 1                                                  # f(x)
            count += sum(1 for _ in combinations(x, n - k))             # f of each removal
            rest = [p for p in positions if p not in x]
            count += sum(1 for _ in combinations(rest, k))              # f of each addition
        return count
    for kept in combinations(positions, n - k):
        rest = [p for p in positions if p not in kept]
        group = list(combinations(rest, k))
        count += 2 * sum(1 for _ in combinations(group, 2))             # both values of each pair
    return count


@pytest.mark.parametrize("relation", ["unbounded", "bounded"])
def test_source_evaluations_count_what_the_source_loops_do(relation):
    for n_values, n, k in [(2, 2, 1), (3, 2, 2), (2, 3, 1), (3, 3, 2), (2, 4, 3), (4, 2, 1)]:
        assert bf.source_evaluations(n_values, n, k, relation) == _count_source_loops(n_values, n, k, relation)
    # the chapter's case, 20 values and n = 6 (C(120, 6) = 3,652,745,460 release tuples)
    assert bf.source_evaluations(20, 6, 1, "unbounded") == 3_652_745_460 * (1 + 6 + 114)


def test_source_evaluations_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="k"):
        bf.source_evaluations(20, 6, 7)
    with pytest.raises(ValueError, match="neighbors"):
        bf.source_evaluations(20, 6, 1, "replace")
