"""Numeric extremes: a right answer or a clear error, never a wrong number (issue 14).

Property tests over magnitudes from 1e-300 to 1e300 with mixed signs, huge
distances ``t``, group sizes ``k`` and release sizes ``n``, and exotic dtypes.
The references are independent: exact ``fractions.Fraction`` arithmetic over
every neighbour (or release) listed by :func:`dpsens.enumerate_neighbors` /
:func:`dpsens.releases`, closed forms from the literature, and homogeneity
(``f(c x) = c f(x)``) against a computation at ordinary magnitudes.  The rule
checked everywhere: the result is finite and agrees with the reference, or a
``ValueError`` says the value is beyond the floats -- and then the exact value
really is (about 1.8e308 or more); never ``inf``, ``nan``, an
``OverflowError`` or an error from inside numpy.
"""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import dpsens as ds
from dpsens.smooth import ls_at_distance, ls_curve, smooth_sensitivity

from profiles import examples

QUERIES = list(ds.QUERIES)
RELATIONS = ("unbounded", "bounded")
FLOAT_MAX = Fraction(np.finfo(float).max)
# derandomize: the same examples on every run, so CI never meets a case no developer ran
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


# ------------------------------------------------------------------ strategies and exact references

@st.composite
def magnitude(draw, lo=-300, hi=300):
    """A float of magnitude 10**lo .. 10**hi (either sign, or 0)."""
    if draw(st.integers(0, 15)) == 0:
        return 0.0
    m = draw(st.floats(1.0, 9.99))
    return float(draw(st.sampled_from([-1, 1])) * m * 10.0 ** draw(st.integers(lo, hi)))


def data(min_size=1, max_size=6, lo=-300, hi=300):
    return st.lists(magnitude(lo, hi), min_size=min_size, max_size=max_size)


def fsqrt(v: Fraction) -> float:
    """sqrt of a non-negative Fraction, correctly scaled even beyond the floats."""
    if v == 0:
        return 0.0
    e = (v.numerator.bit_length() - v.denominator.bit_length()) // 2
    return math.ldexp(math.sqrt(v / Fraction(4) ** e), e) if e >= 0 else \
        math.ldexp(math.sqrt(v * Fraction(4) ** -e), e)


def exact_query(name: str, x) -> Fraction | float:
    """numpy's definition of the query in exact arithmetic (std: a correctly scaled float)."""
    v = sorted(Fraction(a) for a in x)
    n = len(v)
    if name == "count":
        return Fraction(n)
    if name == "sum":
        return sum(v, Fraction(0))
    mean = sum(v, Fraction(0)) / n
    if name == "mean":
        return mean
    if name in ("var", "std"):
        var = sum(((a - mean) ** 2 for a in v), Fraction(0)) / n
        return var if name == "var" else fsqrt(var)
    p = 50 if name == "median" else int(name.split("_")[1])
    if name == "median":
        return v[(n - 1) // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    h = Fraction((n - 1) * p, 100)
    i = math.floor(h)
    g = h - i
    return v[i] + g * (v[min(i + 1, n - 1)] - v[i])


def degree(name):
    return {"count": 0, "var": 2}.get(name, 1)


def tolerance(name, scale: Fraction) -> Fraction:
    """Rounding allowance: relative to the data's largest magnitude (floating sums and
    variances are backward stable, not exact), in the query's units."""
    rel = Fraction(1, 10**7) if name == "std" else Fraction(1, 10**9)
    return rel * scale ** degree(name) + Fraction(1, 10**300) * Fraction(1, 10**20)


def assert_agrees(got_or_error, exact, name, scale, what=""):
    """``got_or_error``: a float, or the ValueError raised.  ``exact``: Fraction or float."""
    exact = Fraction(exact)
    if isinstance(got_or_error, Exception):
        assert isinstance(got_or_error, ValueError), f"{what}: {type(got_or_error).__name__}: {got_or_error}"
        assert "beyond the largest float" in str(got_or_error), f"{what}: unclear error: {got_or_error}"
        assert abs(exact) > FLOAT_MAX * Fraction(9, 10), f"{what}: refused, but the exact value {float(exact):g} fits"
        return
    assert isinstance(got_or_error, float) and math.isfinite(got_or_error), f"{what}: {got_or_error!r}"
    assert abs(exact) <= FLOAT_MAX * Fraction(11, 10), f"{what}: {got_or_error} for an exact value beyond the floats"
    assert abs(Fraction(got_or_error) - exact) <= tolerance(name, scale), (
        f"{what}: got {got_or_error!r}, exact {float(exact)!r}")


def attempt(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except ValueError as e:
        return e


# ------------------------------------------------------------------ the queries themselves

@settings(max_examples=examples(300), **SETTINGS)
@given(x=data(), name=st.sampled_from(QUERIES))
def test_queries_over_every_magnitude(x, name):
    scale = max(Fraction(abs(a)) for a in x)
    assert_agrees(attempt(ds.QUERIES[name], x), exact_query(name, x), name, scale, f"{name}({x})")
    assert_agrees(attempt(ds.evaluate, name, x), exact_query(name, x), name, scale, f"evaluate {name}")


def test_the_examples_of_the_issue():
    assert ds.QUERIES["std"]([-1e308, 1e308]) == 1e308
    with pytest.raises(ValueError, match="var of x is beyond the largest float"):
        ds.QUERIES["var"]([-1e308, 1e308])
    assert ds.QUERIES["mean"]([1e308, 1e308]) == 1e308
    assert ds.QUERIES["median"]([1.7e308, 1.7e308]) == 1.7e308
    assert ds.QUERIES["std"]([0.0, 1e-300]) == 5e-301          # numpy alone underflows to 0
    assert ds.global_sensitivity("mean", ds.Domain([-1.5e308, 1.5e308]), 2) == 1.5e308
    assert ds.global_sensitivity("mean", ds.Domain([-1.5e308, 1.5e308]), 10, k=3) == pytest.approx(9e307)
    with pytest.raises(ValueError, match="beyond the largest float"):
        ds.global_sensitivity("sum", ds.Domain([-1.5e308, 1.5e308]), 10, neighbors="bounded")


# ------------------------------------------------------------------ local and global sensitivity

def exact_local(name, x, universe, k, rel):
    fx = exact_query(name, x)
    return max(abs(Fraction(exact_query(name, y)) - Fraction(fx))
               for y in ds.enumerate_neighbors(x, universe, k, rel))


@st.composite
def small_domain_case(draw):
    values = draw(st.lists(magnitude(), min_size=2, max_size=4, unique=True))
    assume(len(set(values)) >= 2)
    D = ds.Domain(values)
    x = draw(st.lists(st.sampled_from(list(D.values)), min_size=2, max_size=4))
    k = draw(st.integers(1, len(x) - 1))
    return D, x, k


@settings(max_examples=examples(150), **SETTINGS)
@given(case=small_domain_case(), name=st.sampled_from(QUERIES), rel=st.sampled_from(RELATIONS))
def test_local_sensitivity_over_every_magnitude(case, name, rel):
    D, x, k = case
    scale = max(Fraction(abs(float(v))) for v in D.values)
    got = attempt(ds.local_sensitivity, x, name, D, k, rel)
    assert_agrees(got, exact_local(name, x, D, k, rel), name, scale, f"LS {name} {rel} x={x} D={D} k={k}")
    brute = attempt(ds.local_sensitivity, x, name, D, k, rel, method="bruteforce")
    if not isinstance(brute, Exception):        # the oracle may refuse (it does not rescale), never lie
        assert_agrees(brute, exact_local(name, x, D, k, rel), name, scale, "brute force")
    else:
        assert "the query gives" in str(brute) or "beyond the largest float" in str(brute), brute


@settings(max_examples=examples(80), **SETTINGS)
@given(values=st.lists(magnitude(), min_size=2, max_size=3, unique=True), n=st.integers(2, 3),
       name=st.sampled_from(QUERIES), rel=st.sampled_from(RELATIONS))
def test_global_sensitivity_over_every_magnitude(values, n, name, rel):
    assume(len(set(values)) >= 2)
    D = ds.Domain(values)
    scale = max(Fraction(abs(float(v))) for v in D.values)
    exact = max(exact_local(name, list(r), D, 1, rel) for r in ds.releases(D, n))
    got = attempt(ds.global_sensitivity, name, D, n, 1, rel)
    assert_agrees(got, exact, name, scale, f"GS {name} {rel} D={D} n={n}")
    P = ds.Pool(list(D.values) * 2)                      # a pool: the engine's other path
    exact_p = max(exact_local(name, list(r), P, 1, rel) for r in ds.releases(P, n))
    assert_agrees(attempt(ds.global_sensitivity, name, P, n, 1, rel), exact_p, name, scale, f"GS pool {name}")


# ------------------------------------------------------------------ huge n and k on a domain

def var_two_values(n: int) -> Fraction:
    """Global sensitivity of the variance on {0, 1} at k = 1 (both relations): one record
    moved to (or added at) the other end of n - 1 equal ones, (n - 1) / n**2."""
    return Fraction(n - 1, n * n)


@settings(max_examples=examples(100), **SETTINGS)
@given(n=st.one_of(st.integers(2, 10**6), st.integers(10**6, 10**300)),
       w=st.floats(1e-100, 1e100), rel=st.sampled_from(RELATIONS))
def test_huge_n_closed_forms(n, w, rel):
    D = ds.Domain([0.0, w])
    W = Fraction(w)
    got = {q: ds.global_sensitivity(q, D, n, 1, rel) for q in QUERIES}
    assert all(math.isfinite(v) and v >= 0 for v in got.values()), got
    assert Fraction(got["mean"]) == pytest.approx(W / n, rel=1e-12)
    assert got["var"] == pytest.approx(float(var_two_values(n) * W * W), rel=1e-9)
    assert got["std"] == pytest.approx(fsqrt(var_two_values(n) * W * W), rel=1e-9)
    for q in ("median", *[q for q in QUERIES if q.startswith("percentile")]):
        assert 0 <= got[q] <= w


def binary_scan(p, n, k, rel) -> Fraction:
    """Reference for the order statistics: every release of n values from {0, 1} and its
    extreme neighbours, in exact arithmetic (the layer-cake reduction of dpsens.globalsens)."""
    def q(z, N):                                   # z zeros, N - z ones
        v = [0] * z + [1] * (N - z)
        return Fraction(exact_query("median" if p is None else f"percentile_{p}", v))
    best = Fraction(0)
    for z in range(n + 1):
        t = n - z
        fx = q(z, n)
        if rel == "unbounded":
            opts = [q(z - min(k, z), n - k), q(z - (k - min(k, t)), n - k), q(z, n + k), q(z + k, n + k)]
        else:
            opts = [q(z - min(k, z), n), q(z + min(k, t), n)]
        best = max(best, max(abs(o - fx) for o in opts))
    return best


@settings(max_examples=examples(120), **SETTINGS)
@given(n=st.integers(2, 120), data=st.data(), p=st.sampled_from([None, 25, 50, 75, 90]),
       rel=st.sampled_from(RELATIONS))
def test_order_statistics_without_the_scan(n, data, p, rel):
    k = data.draw(st.integers(1, n - 1))
    name = "median" if p is None else f"percentile_{p}"
    got = ds.global_sensitivity(name, ds.Domain([0, 1]), n, k, rel)
    assert got == pytest.approx(float(binary_scan(p, n, k, rel)), abs=1e-12)


def test_order_statistics_against_the_brute_force_at_small_n():
    D = ds.Domain([0, 1])
    for n in range(2, 6):
        for k in range(1, n):
            for rel in RELATIONS:
                for q in ("median", "percentile_25", "percentile_90"):
                    assert ds.global_sensitivity(q, D, n, k, rel) == pytest.approx(
                        ds.global_sensitivity(q, D, n, k, rel, method="bruteforce"), abs=1e-12)


@settings(max_examples=examples(60), **SETTINGS)
@given(n=st.integers(10**6, 10**300), data=st.data(), name=st.sampled_from(QUERIES),
       rel=st.sampled_from(RELATIONS))
def test_huge_n_and_k_give_finite_values_in_range(n, data, name, rel):
    k = data.draw(st.one_of(st.integers(1, 10), st.integers(1, n - 1)))
    D = ds.Domain(range(17, 91))
    got = ds.global_sensitivity(name, D, n, k, rel)
    assert math.isfinite(got) and got >= 0
    cap = {"count": k, "sum": k * 90, "var": (73 / 2) ** 2, "std": 73 / 2}.get(name, 73)
    assert got <= cap * (1 + 1e-9)


def test_n_beyond_the_limit_is_refused_clearly():
    with pytest.raises(ValueError, match=r"n must be at most 10\*\*300 for a Domain"):
        ds.global_sensitivity("median", ds.Domain([0, 1]), 10**301)
    assert ds.global_sensitivity("median", ds.Domain([0, 1]), 10**30) == 0.5


# ------------------------------------------------------------------ smooth sensitivity: huge t and bounds

SMOOTH_QUERIES = ["mean", "sum", "count", "median", "percentile_25", "percentile_75", "percentile_90"]


@settings(max_examples=examples(60), **SETTINGS)
@given(x=st.lists(st.integers(0, 20), min_size=2, max_size=7), name=st.sampled_from(SMOOTH_QUERIES),
       rel=st.sampled_from(RELATIONS),
       huge=st.sampled_from([2**63, 2**64 - 1, 2**200, 1e19, 1e300, np.uint64(2**64 - 1), np.int64(2**63 - 1)]))
def test_huge_t_is_the_constant_tail_of_A(x, name, rel, huge):
    n = len(x)
    tail = ls_at_distance(x, name, n + 5, 0, 20, rel)            # A is constant from n + 1 on
    assert ls_at_distance(x, name, huge, 0, 20, rel) == tail
    arr = ls_at_distance(x, name, np.array([0, n + 5, huge], dtype=type(huge) if isinstance(huge, np.generic)
                                           else (float if isinstance(huge, float) else object)), 0, 20, rel)
    assert arr[-1] == tail and arr[1] == tail


def test_huge_t_examples_of_the_issue():
    assert ls_at_distance([1, 2, 3], "median", 2**63, 0, 10) == 10.0
    assert ls_at_distance([1, 2, 3], "median", np.uint64(2**63), 0, 10) == 10.0
    assert ls_at_distance([1, 2, 3], "median", 1e19, 0, 10) == 10.0
    with pytest.raises(ValueError, match=r"t_max must be at most 10,000,000"):
        ls_curve([1, 2, 3], "median", 1e19, 0, 10)
    assert list(ls_curve([1, 2, 3], "median", 6, 0, 10)) == [1.0, 8.0, 9.0, 10.0, 10.0, 10.0, 10.0]
    for bad in (-1, 1.5, float("inf"), True):
        with pytest.raises((TypeError, ValueError), match="t"):
            ls_at_distance([1, 2, 3], "median", bad, 0, 10)


@settings(max_examples=examples(60), **SETTINGS)
@given(x=st.lists(st.floats(0, 1), min_size=2, max_size=6), name=st.sampled_from(SMOOTH_QUERIES),
       rel=st.sampled_from(RELATIONS), c=st.sampled_from([1e-300, 3e-200, 7e150, 1e300, 1.5e305, 1e306]),
       beta=st.sampled_from([0.05, 1.0, 10.0]))
def test_smooth_sensitivity_scales_with_the_data(x, name, rel, c, beta):
    """S(c x; c lower, c upper) = c S(x; lower, upper): the huge-bounds path against ordinary magnitudes."""
    base = smooth_sensitivity(x, name, beta, 0.0, 1.0, rel)
    got = attempt(smooth_sensitivity, [c * v for v in x], name, beta, 0.0, c, rel)
    expected = Fraction(base) * (Fraction(c) if name != "count" else 1)
    assert_agrees(got, expected, "mean", Fraction(c), f"S {name} {rel} c={c}")
    # the distance and the curve are unit-free / scale the same way
    A = ls_at_distance([c * v for v in x], name, [0, 1, 2], 0.0, c, rel)
    A1 = ls_at_distance(x, name, [0, 1, 2], 0.0, 1.0, rel)
    scale = c if name != "count" else 1.0
    assert np.allclose(A, A1 * scale, rtol=1e-9, atol=1e-12 * scale)


def test_smooth_with_bounds_near_the_float_limit():
    # bounded mean: A(0) = max(upper - x0, x_max - lower) / n, A(t >= 1) = (upper - lower) / n
    x, lo, hi, beta = [1.0, 2.0, 3.0], -1.5e308, 1.5e308, 1.0
    a0 = max(Fraction(hi) - 1, 3 - Fraction(lo)) / 3
    a1 = (Fraction(hi) - Fraction(lo)) / 3
    want = max(a0, a1 * Fraction(math.exp(-beta)))
    assert smooth_sensitivity(x, "mean", beta, lo, hi) == pytest.approx(float(want), rel=1e-12)
    # bounded median: A reaches upper - lower = 3e308, so S with a small beta is beyond the floats
    with pytest.raises(ValueError, match=r"beyond the largest float.*upper - lower"):
        smooth_sensitivity(x, "median", 0.01, lo, hi)
    # NRS07: A(t) = max_s (X_{m+s} - X_{m+s-t-1}) (padded with lo, hi): A(0) = 1,
    # A(1) = hi - 2, A(2) = hi - lo; with beta = 50 the maximum is e^-50 A(1)
    assert smooth_sensitivity(x, "median", 50.0, lo, hi) == pytest.approx(math.exp(-50) * (hi - 2), rel=1e-12)
    assert smooth_sensitivity(x, "median", 50.0, -1e3, 1e3) == 1.0        # there A(0) = 1 wins


# ------------------------------------------------------------------ booleans and exotic dtypes

@pytest.mark.parametrize("bad", [[True, False, True], np.array([True, False]), pd.Series([True, False]),
                                 pd.Series([True, False], dtype="boolean"), [1, True, 2]])
def test_booleans_are_refused_as_data_and_universes(bad):
    for call in (lambda: ds.QUERIES["mean"](bad), lambda: ds.Domain(bad), lambda: ds.Pool(bad),
                 lambda: ds.local_sensitivity(bad, "mean", ds.Domain([0, 1, 2])),
                 lambda: smooth_sensitivity(bad, "median", 1.0, 0, 1)):
        with pytest.raises(TypeError, match=r"int or float.*not booleans"):
            call()


EXOTIC = {
    "int8": np.array([3, -7, 100], dtype=np.int8),
    "uint8": np.array([3, 7, 200], dtype=np.uint8),
    "uint64": np.array([3, 7, 2**63 + 5], dtype=np.uint64),
    "float16": np.array([1.5, -2.25, 1000], dtype=np.float16),
    "float32": np.array([1e30, -2.5, 3e-30], dtype=np.float32),
    "longdouble": np.array([1.25, 2.5, -3.75], dtype=np.longdouble),
    "Int64": pd.Series([3, -7, 100], dtype="Int64"),
    "Float64": pd.Series([1.5, -2.25, 1000.0], dtype="Float64"),
    "Fraction": [Fraction(1, 3), Fraction(-2, 7), Fraction(5)],
    "Decimal": [Decimal("1.5"), Decimal("-2.25"), Decimal("1e300")],
    "python ints": [10**18 + 1, -(10**18), 3],
}


@pytest.mark.parametrize("kind", list(EXOTIC))
def test_exotic_dtypes_give_the_float64_answer(kind):
    x = EXOTIC[kind]
    as_float = [float(v) for v in (x.tolist() if hasattr(x, "tolist") else x)]
    for name in QUERIES:
        got = attempt(ds.QUERIES[name], x)
        assert_agrees(got, exact_query(name, as_float), name, max(Fraction(abs(v)) for v in as_float), kind)


@pytest.mark.parametrize("bad, error, match", [
    (np.array([1, 2, np.longdouble("1e400")], dtype=np.longdouble), ValueError, "beyond the float range"),
    ([10**400, 1], ValueError, "beyond the float range"),
    (pd.Series([1, None, 3], dtype="Int64"), ValueError, "missing values"),
    ([Decimal("NaN"), Decimal(1)], ValueError, "finite numbers"),
    ([1 + 2j, 3], TypeError, "int or float"),
    ([None, 1], TypeError, "int or float"),
])
def test_values_that_are_not_finite_floats_are_refused(bad, error, match):
    with pytest.raises(error, match=match):
        ds.QUERIES["mean"](bad)
    with pytest.raises(error, match=match):
        ds.Domain(bad)


@pytest.mark.parametrize("k", [1, 10**29])
def test_brute_force_refuses_astronomical_sizes_at_once(k):
    # C(n, k) for n = 10**30 and k = 10**29 is out of reach: the refusal must not need it
    with pytest.raises(ValueError, match=r"at least 1,000,000,000,000,000,000,000,000,000,001 neighbouring"):
        ds.global_sensitivity("median", ds.Domain([0, 1]), 10**30, k, method="bruteforce")


@pytest.mark.parametrize("a", [1.0, 1e150, 1e247, 1e300])
def test_equal_variances_near_the_float_limits_are_zero_not_an_overflow(a):
    """Found by the property test above: every release of 3 from the pool {0, 0, -a, -a} has
    the variance 2a²/9, so the bounded global sensitivity is exactly 0.  Computed on the
    rescaled pool the two variances differ by a rounding error, which scaled back by 2**(2e)
    once overflowed (a refusal although the exact answer fits)."""
    pool = ds.Pool([0.0, -a] * 2)
    assert ds.global_sensitivity("var", pool, 3, 1, "bounded") == 0.0
    if a == 1.0:
        assert ds.global_sensitivity("var", pool, 3, 1, "bounded", method="bruteforce") == 0.0
