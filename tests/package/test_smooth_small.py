"""The small-n dense pass of the smooth sensitivity (``dpsens.smooth._small``) against independent definitions.

Chapter: *Smooth sensitivity*.  Every case calls the dense pass directly (so a fallback to the general engines
cannot hide an error) and compares it with the full engine (the divide and conquer over every pair, itself
checked against the breadth-first search over the neighbour graph in ``tests/package/test_smooth.py``) and, for small n,
with ``max_t e^{-beta t} A(t)`` over the whole curve ``A`` (computed one distance at a time, independent of any
pair search): tied integer data, continuous data, bounds wider than the data, n = 1, 2, 3, every percentile
the package accepts, both relations, small and large beta.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpsens import smooth as sm
from dpsens.data import load_ages
from dpsens.queries import PERCENTILES
from dpsens.relation import Relation
from dpsens.smooth import _engines as engines
from dpsens.smooth._candidates import Data
from dpsens.smooth import _small as small

QUANTILES = ["median", *PERCENTILES]


def _data(kind, n, rng):
    if kind == "ages":
        return rng.integers(17, 91, n).astype(float)
    if kind == "few":
        return rng.choice(rng.integers(20, 60, int(rng.integers(1, 5))).astype(float), n)
    if kind == "uniform":
        return rng.uniform(0, 100, n)
    if kind == "bounds":
        return rng.choice([0.0, 100.0], n)
    return np.round(rng.normal(50, 3, n), 1).clip(0, 100)            # near-ties


def _check(xs, name, beta, lo, up, relation, curve_too):
    """The dense pass (if it answers) equals the full engine, and the definition on the curve."""
    fn = engines.case(name, Relation(relation)).dense
    if fn is None:
        return False
    got = fn(Data(xs, name, float(lo), float(up)), beta)
    if got is None:
        return False
    s, t = got
    full, _ = engines.engine(name, xs, float(lo), float(up), Relation(relation)).smooth(beta)
    full = max(float(full), 0.0)
    assert s == pytest.approx(full, rel=1e-12, abs=0.0), (name, relation, beta, lo, up, len(xs))
    if full == 0.0:
        assert s == 0.0
    a = sm.ls_at_distance(xs, name, t, lo, up, relation)                 # t* attains S
    assert math.exp(-beta * t) * a == pytest.approx(s, rel=1e-9, abs=1e-300)
    if curve_too:
        curve = sm.ls_curve(xs, name, len(xs) + 2, lo, up, relation)
        assert s == pytest.approx(np.max(np.exp(-beta * np.arange(len(xs) + 3)) * curve), rel=1e-9, abs=1e-300)
    return True


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_dense_pass_equals_the_full_engine_and_the_curve_on_small_data(relation):
    """n = 2..40 (one record is refused, as by ds.local_sensitivity), every query, tied and continuous data, bounds equal to or far wider than the data."""
    rng = np.random.default_rng(7 if relation == "bounded" else 8)
    used = 0
    for trial in range(60):
        n = int(rng.integers(2, 4)) if trial % 3 == 0 else int(rng.integers(4, 41))
        kind = ["ages", "few", "uniform", "bounds", "near"][trial % 5]
        xs = np.sort(_data(kind, n, rng))
        lo, up = ((0, 100) if trial % 2 else (-500, 1000)) if kind != "ages" else ((0, 125) if trial % 2 else (17, 90))
        beta = float(rng.choice([0.02, 0.1, 0.5, 2.0]))
        for name in QUANTILES:
            used += _check(xs, name, beta, lo, up, relation, True)
    assert used > 150                        # the dense pass answered (no fallback) in most cases


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_dense_pass_equals_the_full_engine_at_the_benchmark_size(relation):
    """n in the hundreds to 2048 with the book's beta: integer ages with bounds [0, 125], continuous data."""
    rng = np.random.default_rng(26 if relation == "bounded" else 27)
    used = 0
    for trial in range(8):
        n = int(rng.integers(100, 1500))
        kind = ["ages", "uniform", "few", "near"][trial % 4]
        xs = np.sort(_data(kind, n, rng))
        lo, up = (0, 125) if kind == "ages" else (0, 100)
        beta = 1 / (2 * math.log(2 * n ** 2)) if trial % 2 else float(rng.choice([0.005, 0.2]))
        for name in QUANTILES:
            used += _check(xs, name, beta, lo, up, relation, False)
    assert used >= 15                        # (with beta = 0.005 the reach often exceeds SMALL_REACH: general engines)


@pytest.mark.slow
@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_dense_pass_equals_the_full_engine_many_cases(relation):
    """The same on 120 seeded cases per relation up to the size where the dense pass stops (2048)."""
    rng = np.random.default_rng(2600 if relation == "bounded" else 2601)
    for trial in range(120):
        n = int(rng.integers(2, 2049))
        kind = ["ages", "uniform", "few", "near", "bounds"][trial % 5]
        xs = np.sort(_data(kind, n, rng))
        lo, up = ((0, 125) if trial % 2 else (17, 90)) if kind == "ages" else ((0, 100) if trial % 3 else (-1e3, 1e4))
        beta = float(rng.choice([1e-3, 0.02, 1 / (2 * math.log(2 * n ** 2 + 2)), 0.3, 3.0]))
        for name in QUANTILES:
            _check(xs, name, beta, lo, up, relation, n <= 60)


def test_public_functions_take_the_dense_pass_and_keep_their_values():
    """``smooth_sensitivity`` at n <= 2048 goes through the dense pass; numbers recorded before it existed."""
    rng = np.random.default_rng(5)
    ages = np.sort(rng.choice(np.arange(17.0, 91.0), 1000))
    b = 1 / (2 * math.log(2 * 1000 ** 2))
    for name in QUANTILES:
        for relation in ("bounded", "unbounded"):
            s, t = sm.smooth_sensitivity_argmax(ages, name, b, 0, 125, relation)
            full, _ = engines.engine(name, ages, 0.0, 125.0, Relation(relation)).smooth(b)
            assert s == pytest.approx(full, rel=1e-12)


def test_pairs_with_a_right_at_upper_decide_many_cases_and_are_exact(monkeypatch):
    """With records added or removed the pairs whose right is the padding ``upper`` are scored apart from the
    reach search.  On data with bounds wider than the data and small beta they often decide S: without them
    the dense pass would be wrong in some cases below (shown by leaving them out), with them it equals the
    full engine in every case."""
    rng = np.random.default_rng(90)
    cases = []
    for trial in range(40):
        n = int(rng.integers(5, 200))
        xs = np.sort(_data(["ages", "uniform", "bounds", "near"][trial % 4], n, rng))
        cases.append((xs, float(rng.choice([0.01, 0.05, 0.3])), (0.0, 125.0) if trial % 2 else (0.0, 100.0)))
    got = []
    for xs, beta, (lo, up) in cases:
        for name in ("percentile_25", "percentile_75", "percentile_90"):
            s = small.percentile_unbounded_small(Data(xs, name, lo, up), beta)
            assert s is not None
            full = max(engines.engine(name, xs, lo, up, Relation.UNBOUNDED).smooth(beta)[0], 0.0)
            assert s[0] == pytest.approx(full, rel=1e-12, abs=0.0), (name, beta, len(xs))
            got.append(s[0])
    none = tuple(np.array([], dtype=v.dtype) for v in small._top_pairs(90, 10, 11))
    monkeypatch.setattr(small, "_top_pairs", lambda P, n, cap: none)
    without = [small.percentile_unbounded_small(Data(xs, name, lo, up), beta)[0]
               for xs, beta, (lo, up) in cases for name in ("percentile_25", "percentile_75", "percentile_90")]
    assert sum(a != b for a, b in zip(got, without, strict=True)) >= 10


def _mid_cases(seed, count, n_max):
    """Seeded mid-size cases (above ``SMALL_N``, where the dense pass is tried before the reach search):
    continuous data, integer ages, bounds far wider than the data, near-ties; the book's beta and others."""
    rng = np.random.default_rng(seed)
    for trial in range(count):
        n = int(rng.integers(2049, n_max + 1))
        kind = ["uniform", "ages", "near", "bounds", "few"][trial % 5]
        xs = np.sort(rng.choice(ds_ages(), n) if kind == "ages" else _data(kind, n, rng))
        if kind == "ages":
            lo, up = (0, 125) if trial % 2 else (17, 90)
        else:
            lo, up = (0, 100) if trial % 3 else (-1e3, 1e4)
        beta = 1 / (2 * math.log(2 * n ** 2)) if trial % 2 else float(rng.choice([0.005, 0.05, 0.3]))
        yield xs, beta, lo, up


def ds_ages():
    """The Adult ages (integers 17..90, heavy ties): the book's kind of data."""
    return load_ages().to_numpy(dtype=float)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_dense_pass_equals_the_full_engine_above_small_n(relation):
    """n in 2,049..4,000: the dense pass (reach up to LARGE_REACH, the reach doubled while the floor is weak)
    equals the full engine, and the public function returns the same value."""
    used = 0
    for xs, beta, lo, up in _mid_cases(31 if relation == "bounded" else 32, 5, 4000):
        for name in ("median", "percentile_25", "percentile_90"):
            used += _check(xs, name, beta, lo, up, relation, False)
            s = sm.smooth_sensitivity(xs, name, beta, lo, up, relation)
            full = max(float(engines.engine(name, xs, float(lo), float(up), Relation(relation)).smooth(beta)[0]), 0.0)
            assert s == pytest.approx(full, rel=1e-12, abs=0.0)
    assert used >= 3                         # (the unbounded median has no dense pass: O(n) candidates)


@pytest.mark.slow
@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_dense_pass_equals_the_full_engine_above_small_n_many_cases(relation):
    """The same on 30 seeded cases per relation with n up to 20,000, every quantile."""
    for xs, beta, lo, up in _mid_cases(2602 if relation == "bounded" else 2603, 30, 20_000):
        for name in QUANTILES:
            _check(xs, name, beta, lo, up, relation, False)
            s = sm.smooth_sensitivity(xs, name, beta, lo, up, relation)
            full = max(float(engines.engine(name, xs, float(lo), float(up), Relation(relation)).smooth(beta)[0]), 0.0)
            assert s == pytest.approx(full, rel=1e-12, abs=0.0)


def test_tied_data_with_a_long_reach_take_the_dense_pass_above_small_n():
    """30,000 integer ages, unbounded 25th percentile: every pair within the first reach lies inside a run of
    ties (a floor of about 0), so the reach doubles; the dense pass answers (no fallback) with the full
    engine's value at a distance beyond the first reach."""
    xs = np.sort(np.random.default_rng(0).choice(ds_ages(), 30_000))
    beta = 1 / (2 * math.log(2 * 30_000 ** 2))
    got = small.percentile_unbounded_small(Data(xs, "percentile_25", 0.0, 125.0), beta)
    assert got is not None and got[1] > 256
    full = engines.engine("percentile_25", xs, 0.0, 125.0, Relation.UNBOUNDED).smooth(beta)
    assert got[0] == pytest.approx(full[0], rel=1e-12, abs=0.0)


@pytest.mark.parametrize("relation", ["bounded", "unbounded"])
def test_a_subnormal_smooth_value_far_inside_a_run_is_exact(relation):
    """The percentile deep inside a run of 5,000 ties with a large beta: the best value ``e^{-beta t} A(t)``
    is subnormal, so ``sup / best`` overflows; the reach bounds use ``ln sup - ln best`` and the value is
    the full engine's (an OverflowError before)."""
    xs = np.repeat([29.0, 43.0, 45.0], [100, 5000, 900])
    for name in ("percentile_75", "percentile_90"):
        s, t = sm.smooth_sensitivity_argmax(xs, name, 1.2, 0, 100, relation)
        full = max(float(engines.engine(name, xs, 0.0, 100.0, Relation(relation)).smooth(1.2)[0]), 0.0)
        assert s == pytest.approx(full, rel=1e-9, abs=0.0)
    s, _ = sm.smooth_sensitivity_argmax(xs, "percentile_75", 1.2, 0, 100, "bounded")
    assert 0 < s < 2.2e-308
