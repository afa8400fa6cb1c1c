"""Sparse vector, stable release and private selection (chapter *Testing privately, and releasing what is stable*).

Every exact probability is checked against an independent computation:
adaptive quadrature of the integrals written from the definitions (scipy),
enumeration of permutations for permute-and-flip, closed forms worked by
hand, breadth-first search over datasets for the distance to instability;
every sampler against the exact distribution by a chi-square test at a
fixed seed (failing below p = 0.001).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate as si
from scipy import stats

from dpsens.figures import stability as fig_stability
from dpsens.mechanisms import noisy_max as nm
from dpsens.mechanisms import piecewise as pw
from dpsens.mechanisms import sparse_vector as sv
from dpsens.mechanisms import stable_histogram as sh

P_MIN = 1e-3


# ------------------------------------------------------------------ helpers written from the definitions
def lap_cdf(t, b):
    return 0.5 * math.exp(t / b) if t < 0 else 1 - 0.5 * math.exp(-t / b)


def lap_pdf(t, b):
    return math.exp(-abs(t) / b) / (2 * b)


def quad(f, points, lo=-200.0, hi=200.0):
    """∫ f over [lo, hi], split at the kinks."""
    cuts = sorted({lo, hi, *[p for p in points if lo < p < hi]})
    return sum(si.quad(f, a, b, epsabs=1e-14, epsrel=1e-12, limit=200)[0] for a, b in itertools.pairwise(cuts))


def svt_probability_by_quadrature(q, threshold, pattern, epsilon):
    """P(AboveThreshold outputs pattern): ∫ p_0(r) ∏ P(q_i + Z_i <(>=) T + r) dr, by quadrature."""
    b0, b = 2 / epsilon, 4 / epsilon

    def f(r):
        out = lap_pdf(r, b0)
        for qi, above in zip(q, pattern, strict=False):    # a run may stop before the last query
            c = lap_cdf(threshold + r - qi, b)
            out *= (1 - c) if above else c
        return out
    return quad(f, [0.0] + [qi - threshold for qi in q])


# ------------------------------------------------------------------ piecewise integrals
@pytest.mark.parametrize("seed", range(8))
def test_piecewise_integrals_match_quadrature(seed):
    rng = np.random.default_rng(seed)
    shifts = rng.uniform(-5, 5, size=4)
    scales = rng.choice([0.5, 1.0, 2.0], size=4)
    kinds = rng.choice(["laplace_cdf", "laplace_sf", "exponential_cdf"], size=3)
    factors = [pw.laplace_pdf_factor(shifts[0], scales[0])] + [pw.Factor(str(k), s, b) for k, s, b in
                                                               zip(kinds, shifts[1:], scales[1:], strict=True)]

    def value(f, r):
        t = (r - f.shift) / f.scale
        if f.kind == "laplace_cdf":
            return lap_cdf(t, 1.0)
        if f.kind == "laplace_sf":
            return 1 - lap_cdf(t, 1.0)
        if f.kind == "laplace_pdf":
            return lap_pdf(t, 1.0) / f.scale
        return 0.0 if t < 0 else 1 - math.exp(-t)

    expected = quad(lambda r: math.prod(value(f, r) for f in factors), list(shifts))
    assert math.isclose(pw.integrate(factors), expected, rel_tol=1e-9, abs_tol=1e-14)


def test_piecewise_far_shifts_do_not_overflow():
    # counts in the thousands with noise of scale 4: the answer is a product of probabilities near 1
    got = pw.integrate([pw.laplace_pdf_factor(3000, 2), pw.laplace_cdf(1000, 4), pw.laplace_sf(5000, 4)])
    assert math.isclose(got, 1.0, rel_tol=1e-12)
    with pytest.raises(ValueError, match="infinite"):
        pw.integrate([pw.laplace_cdf(0.0, 1.0)])
    with pytest.raises(ValueError, match="kind must be"):
        pw.Factor("normal", 0.0)


# ------------------------------------------------------------------ AboveThreshold: exact probabilities
@pytest.mark.parametrize("seed", range(5))
def test_output_probability_matches_quadrature(seed):
    rng = np.random.default_rng(seed)
    q = rng.integers(-3, 4, size=4).astype(float)
    for pattern in sv.variant_outputs("correct", 4):
        got = sv.output_probability(q, 0.5, pattern, 1.0)
        assert math.isclose(got, svt_probability_by_quadrature(q, 0.5, pattern, 1.0), rel_tol=1e-8)


@pytest.mark.parametrize("variant", ["correct", "no-threshold-noise", "no-query-noise", "keep-going"])
def test_output_probabilities_sum_to_one(variant):
    q = np.array([0.0, 2.0, -1.0, 1.0])
    total = sum(sv.output_probability(q, 0.5, o, 0.7, variant=variant) for o in sv.variant_outputs(variant, 4))
    assert math.isclose(total, 1.0, rel_tol=1e-10)


def test_noisy_value_densities_integrate_to_one():
    q = np.array([0.0, 1.0, -1.0])
    total = sv.output_probability(q, 0.0, (False,) * 3, 1.0, variant="noisy-value")
    for k in range(3):
        pattern = (False,) * k + (True,)
        total += quad(lambda z, pattern=pattern: sv.output_probability(q, 0.0, pattern, 1.0, variant="noisy-value",
                                                                       value=z),
                      [-1.0, 0.0, 1.0], -150, 150)
    assert math.isclose(total, 1.0, rel_tol=1e-7)


def test_losses_worked_by_hand():
    # no threshold noise: each comparison is Lap(4/ε) against 0, ratio e^{1/4} each (ε = 1)
    for d in range(1, 7):
        x, xp = np.zeros(d), np.array([1.0] * (d - 1) + [-1.0])
        table = sv.exact_privacy_loss(x, xp, 0.0, 1.0, variant="no-threshold-noise")
        assert math.isclose(table["loss"].abs().max(), d / 4, rel_tol=1e-12)
    # no query noise: ⊥⊤ needs 0 < r <= 0 on x but -1 < r <= 1 on x'
    table = sv.exact_privacy_loss([0.0, 0.0], [-1.0, 1.0], 0.0, 1.0, variant="no-query-noise")
    assert table.set_index("output").loc["⊥⊤", "loss"] == -math.inf
    # one query, correct: P(Z_1 >= Z_0) = 1/2 on x; on x' (answer -1) P(Z_1 - Z_0 >= 1) by quadrature
    p = sv.output_probability([-1.0], 0.0, (True,), 1.0)
    assert math.isclose(p, svt_probability_by_quadrature([-1.0], 0.0, (True,), 1.0), rel_tol=1e-10)
    assert math.isclose(sv.output_probability([0.0], 0.0, (True,), 1.0), 0.5, rel_tol=1e-12)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_correct_above_threshold_passes_the_exhaustive_exact_test(epsilon):
    for d in (1, 2, 3, 4):
        assert sv.worst_case_over_changes(d, epsilon, "correct") <= epsilon * (1 + 1e-12)


@pytest.mark.parametrize("threshold", [-2.0, 3.0])
def test_correct_passes_away_from_the_threshold_too(threshold):
    base = np.zeros(3)
    for d in sv.neighbour_changes(3):
        assert sv.worst_case_loss(base, base + d, threshold, 1.0) <= 1.0 + 1e-12


def test_every_broken_variant_fails_the_structured_exact_test_at_five_queries():
    values = [-40.0, -20.0, -10.0, -5.0, 0.0, 5.0]
    for variant in ("no-threshold-noise", "no-query-noise", "keep-going", "noisy-value"):
        loss = sv.worst_case_over_changes(5, 1.0, variant, "structured",
                                          values=values if variant == "noisy-value" else None)
        assert loss > 1.0, variant
    assert sv.worst_case_over_changes(5, 1.0, "correct", "structured") < 1.0


@pytest.mark.parametrize("d", [1, 2, 3, 4, pytest.param(5, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", list(sv.SVT_VARIANTS))
def test_the_structured_family_holds_the_exhaustive_worst_case(variant, d):
    values = [-40.0, -10.0, 0.0] if variant == "noisy-value" else None
    exhaustive = sv.worst_case_over_changes(d, 1.0, variant, "exhaustive", values=values)
    structured = sv.worst_case_over_changes(d, 1.0, variant, "structured", values=values)
    assert structured == exhaustive or math.isclose(structured, exhaustive, rel_tol=1e-12)


def _patterns_of(draws) -> list[tuple]:
    return [tuple(bool(v) for v in d) for d in draws]


@pytest.mark.parametrize("variant", ["correct", "no-threshold-noise", "no-query-noise", "keep-going"])
def test_samplers_draw_the_exact_distribution(variant):
    q, threshold, epsilon, n = np.array([0.0, 1.5, -1.0, 2.0]), 1.0, 1.0, 20_000
    rng = np.random.default_rng(2026)
    drawn = _patterns_of(sv.above_threshold(q, threshold, epsilon, rng, variant=variant) for _ in range(n))
    outputs = sv.variant_outputs(variant, 4)
    probs = np.array([sv.output_probability(q, threshold, o, epsilon, variant=variant) for o in outputs])
    observed = np.array([sum(1 for d in drawn if d == o) for o in outputs])
    keep = probs * n >= 5
    expected = probs[keep] / probs[keep].sum() * observed[keep].sum()
    assert observed[~keep].sum() <= max(10, 3 * probs[~keep].sum() * n + 10)
    assert stats.chisquare(observed[keep], expected).pvalue > P_MIN


def test_noisy_value_sampler_stops_at_the_first_above_and_releases_a_number():
    rng = np.random.default_rng(1)
    for _ in range(200):
        out = sv.above_threshold([0.0, 0.0, 5.0], 1.0, 1.0, rng, variant="noisy-value")
        assert all(v is False for v in out[:-1]) and (isinstance(out[-1], float) or out[-1] is False)


def test_sparse_vector_sampler_and_exact_distribution():
    q, threshold, epsilon, c, n = np.array([0.0, 2.0, -1.0, 1.0, 0.5]), 0.5, 1.0, 2, 20_000
    rng = np.random.default_rng(7)
    drawn = _patterns_of(sv.sparse_vector(q, threshold, epsilon, c, rng) for _ in range(n))
    outputs = sorted(set(drawn))
    probs = np.array([sv.sparse_vector_output_probability(q, threshold, o, epsilon, c) for o in outputs])
    assert probs.sum() > 0.999                    # the outputs drawn cover (almost) all the probability
    observed = np.array([drawn.count(o) for o in outputs])
    keep = probs * n >= 5
    assert stats.chisquare(observed[keep], probs[keep] / probs[keep].sum() * observed[keep].sum()).pvalue > P_MIN


def test_sparse_vector_is_epsilon_dp_on_every_output_and_change():
    q, epsilon, c = np.zeros(4), 1.0, 2
    outputs = [o for k in range(1, 5) for o in itertools.product((False, True), repeat=k)
               if (sum(o) == c and o[-1]) or (sum(o) < c and k == 4)]
    total = sum(sv.sparse_vector_output_probability(q, 0.0, o, epsilon, c) for o in outputs)
    assert math.isclose(total, 1.0, rel_tol=1e-10)
    for d in sv.neighbour_changes(4):
        for o in outputs:
            p = sv.sparse_vector_output_probability(q, 0.0, o, epsilon, c)
            pp = sv.sparse_vector_output_probability(q + d, 0.0, o, epsilon, c)
            assert abs(math.log(p / pp)) <= epsilon + 1e-12


def test_sparse_vector_bad_input():
    with pytest.raises(ValueError, match="variant must be one of"):
        sv.above_threshold([1.0], 0.0, 1.0, np.random.default_rng(0), variant="nope")
    with pytest.raises(TypeError, match="rng"):
        sv.sparse_vector([1.0], 0.0, 1.0, 1, 42)
    with pytest.raises(ValueError, match="c must be"):
        sv.sparse_vector([1.0], 0.0, 1.0, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="at most sensitivity"):
        sv.exact_privacy_loss([0.0], [2.0], 0.0, 1.0)
    with pytest.raises(ValueError, match="a ⊤ may only come last"):
        sv.output_probability([0.0, 0.0], 0.0, (True, False), 1.0)
    with pytest.raises(ValueError, match="values"):
        sv.exact_privacy_loss([0.0], [1.0], 0.0, 1.0, variant="noisy-value")


# ------------------------------------------------------------------ private selection
def pf_by_permutations(g, epsilon):
    """Permute-and-flip's distribution by walking every order (the definition)."""
    g = np.asarray(g, float)
    p = np.exp(epsilon * (g - g.max()) / 2)
    out = np.zeros(g.size)
    perms = list(itertools.permutations(range(g.size)))
    for order in perms:
        alive = 1.0
        for i in order:
            out[i] += alive * p[i]
            alive *= 1 - p[i]
    return out / len(perms)


def rnm_by_quadrature(g, epsilon, noise):
    b = 2 / epsilon
    out = []
    for i in range(len(g)):
        if noise == "laplace":
            def f(t, i=i):
                return lap_pdf(t - g[i], b) * math.prod(lap_cdf(t - g[j], b) for j in range(len(g)) if j != i)
        else:
            def f(t, i=i):
                return (math.exp(-(t - g[i]) / b) / b if t >= g[i] else 0.0) * math.prod(
                    (1 - math.exp(-(t - g[j]) / b)) if t >= g[j] else 0.0 for j in range(len(g)) if j != i)
        out.append(quad(f, list(g), -300, 300))
    return np.array(out)


@pytest.mark.parametrize("g", [[2.0, 1.0, 0.0], [3.0, 2.0, 2.0, 0.0], [0.5, -1.0, 4.0, 4.0, 1.0]])
def test_selection_distributions_match_independent_computations(g):
    eps = 1.0
    softmax = np.exp(np.asarray(g) * eps / 2) / np.exp(np.asarray(g) * eps / 2).sum()
    assert np.allclose(nm.selection_distribution(g, eps, "exponential-mechanism"), softmax, atol=1e-14)
    assert np.allclose(nm.selection_distribution(g, eps, "rnm-gumbel"), softmax, atol=1e-14)
    pf = pf_by_permutations(g, eps)
    assert np.allclose(nm.selection_distribution(g, eps, "permute-and-flip"), pf, atol=1e-13)
    assert np.allclose(nm.selection_distribution(g, eps, "rnm-exponential"), pf, atol=1e-10)   # Ding et al. 2021
    assert np.allclose(nm.selection_distribution(g, eps, "rnm-laplace"), rnm_by_quadrature(g, eps, "laplace"),
                       atol=1e-9)
    assert np.allclose(nm.selection_distribution(g, eps, "rnm-exponential"),
                       rnm_by_quadrature(g, eps, "exponential"), atol=1e-9)


def test_pf_by_hand():
    a, c = 1 - math.exp(-0.5), 1 - math.exp(-1.0)
    assert math.isclose(nm.selection_distribution([2, 1, 0], 1.0, "permute-and-flip")[0], (2 + a + c + 2 * a * c) / 6,
                        rel_tol=1e-13)


@pytest.mark.parametrize("mechanism", ["exponential-mechanism", "permute-and-flip", "rnm-laplace", "rnm-exponential"])
def test_selection_is_epsilon_dp_on_every_change(mechanism):
    g, eps = np.array([1.0, 0.0, 0.0, -1.0]), 1.0
    p = nm.selection_distribution(g, eps, mechanism)
    for d in itertools.product((-1, 0, 1), repeat=4):
        pp = nm.selection_distribution(g + np.array(d), eps, mechanism)
        assert np.max(np.abs(np.log(p / pp))) <= eps + 1e-9, d
    # monotone scores (all moving up by 0 or 1) with half the noise
    pm = nm.selection_distribution(g, eps, mechanism, monotone=True)
    for d in itertools.product((0, 1), repeat=4):
        pp = nm.selection_distribution(g + np.array(d), eps, mechanism, monotone=True)
        assert np.max(np.abs(np.log(pm / pp))) <= eps + 1e-9, d


@pytest.mark.parametrize("seed", range(10))
def test_permute_and_flip_never_worse_than_the_exponential_mechanism(seed):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 6, size=int(rng.integers(2, 7))).astype(float)
    for eps in (0.1, 1.0, 5.0):
        em = nm.expected_error(g, nm.selection_distribution(g, eps, "exponential-mechanism"))
        pf = nm.expected_error(g, nm.selection_distribution(g, eps, "permute-and-flip"))
        assert pf <= em + 1e-12


@pytest.mark.parametrize("name", ["permute-and-flip", "rnm-laplace", "rnm-exponential", "rnm-gumbel"])
def test_selection_samplers_draw_the_exact_distribution(name):
    g, n = [3.0, 2.0, 2.0, 0.0], 20_000
    rng = np.random.default_rng(99)
    if name == "permute-and-flip":
        draws = nm.permute_and_flip(g, 1.0, rng, size=n)
    else:
        draws = nm.report_noisy_max(g, 1.0, rng, noise=name.split("-")[1], size=n)
    observed = np.bincount(draws, minlength=4)
    assert stats.chisquare(observed, n * nm.selection_distribution(g, 1.0, name)).pvalue > P_MIN


def test_selection_bad_input():
    with pytest.raises(ValueError, match="noise must be one of"):
        nm.report_noisy_max([1.0], 1.0, np.random.default_rng(0), noise="cauchy")
    with pytest.raises(ValueError, match="mechanism must be one of"):
        nm.selection_distribution([1.0], 1.0, "argmax")
    with pytest.raises(ValueError, match="scores"):
        nm.permute_and_flip([], 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="probability vector"):
        nm.expected_error([1.0, 2.0], [0.5, 0.6])


# ------------------------------------------------------------------ stability and the stable histogram
def mode(counts):
    top = max(counts, default=0)
    winners = [i for i, v in enumerate(counts) if v == top and v > 0]
    return winners[0] if len(winners) == 1 else None


def bfs_distance(counts):
    """The fewest additions/removals that change the mode (a 4th label, absent, may be added), minus 1."""
    start = mode(counts)
    frontier, seen, t = [tuple(counts) + (0,)], {tuple(counts) + (0,)}, 0
    while True:
        t += 1
        nxt = []
        for cur in frontier:
            for j in range(len(cur)):
                for step in (-1, 1):
                    y = list(cur)
                    y[j] += step
                    if y[j] < 0 or tuple(y) in seen:
                        continue
                    if mode(y) != start:
                        return t - 1
                    seen.add(tuple(y))
                    nxt.append(tuple(y))
        frontier = nxt


def test_mode_distance_against_breadth_first_search():
    for counts in itertools.product(range(5), repeat=3):
        if sum(counts):
            assert sh.mode_instability_distance(list(counts)) == bfs_distance(list(counts)), counts
    assert sh.mode_instability_distance([7]) == 6
    assert sh.mode_instability_distance({"a": 4, "b": 4}) == 0


def test_stable_release_passes_with_the_exact_probability():
    rng, n = np.random.default_rng(3), 200_000
    passes = sum(sh.stable_release("a", 0, 2.0, 0.01, rng) is not None for _ in range(n))
    # P(Lap(1/ε) >= ln(1/(2δ))/ε) = δ exactly
    assert stats.binomtest(passes, n, 0.01).pvalue > P_MIN


def test_stable_release_refuses_a_distance_that_is_not_a_whole_number():
    """D_f(x) counts records: 2.5 is no distance to instability (rev3's reading)."""
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="distance must be a whole number"):
        sh.stable_release("a", 2.5, 1.0, 1e-6, rng)
    with pytest.raises(ValueError, match="distance"):
        sh.stable_release("a", -1, 1.0, 1e-6, rng)
    assert sh.stable_release("a", 3.0, 1.0, 0.5, rng) in ("a", None)      # a whole float is a distance


def test_stable_release_is_epsilon_delta_dp_exactly():
    """The theorem's two cases, by the Laplace CDF written out: f(x) = f(x') with D_f moving by 1
    (ratio of pass probabilities at most e^ε both ways), and f(x) != f(x') with D = 0 on both sides
    (each releases its own value with probability exactly δ)."""
    for eps, delta in ((0.1, 1e-6), (1.0, 1e-3), (2.0, 0.25)):
        T = math.log(1 / (2 * delta)) / eps
        def passes(d, T=T, eps=eps):                           # P(d + Lap(1/ε) >= T), the survival function
            s = (T - d) * eps
            return 0.5 * math.exp(-s) if s >= 0 else 1 - 0.5 * math.exp(s)

        def fails(d, T=T, eps=eps):                            # P(d + Lap(1/ε) < T), without cancellation
            s = (T - d) * eps
            return 1 - 0.5 * math.exp(-s) if s >= 0 else 0.5 * math.exp(s)
        for d in range(0, 200):
            for a, b in ((passes(d), passes(d + 1)), (fails(d), fails(d + 1))):
                assert a <= math.exp(eps) * b * (1 + 1e-12) and b <= math.exp(eps) * a * (1 + 1e-12)
        assert math.isclose(passes(0), delta, rel_tol=1e-12)


def test_stable_histogram_threshold_and_release_probabilities():
    for eps, delta in ((1.0, 1e-6), (0.5, 1e-5), (2.0, 1e-8)):
        eta = sh.stable_histogram_threshold(eps, delta)
        assert math.isclose(eta, 1 + math.log(1 / (2 * delta)) / eps, rel_tol=1e-14)
        p = sh.stable_histogram_release_probability([1, 5, 1000], eps, delta)
        assert math.isclose(p[0], delta, rel_tol=1e-10)
        assert math.isclose(p[1], 1 - lap_cdf(eta - 5, 1 / eps), rel_tol=1e-12)


def test_stable_histogram_release_frequencies():
    labels = ["a"] * 30 + ["b"] * 15 + ["c"] * 1
    eps, delta, n = 1.0, 1e-3, 20_000
    rng = np.random.default_rng(4)
    releases = [sh.stable_histogram(labels, eps, delta, rng) for _ in range(n)]
    exact = sh.stable_histogram_release_probability([30, 15, 1], eps, delta)
    for label, p in zip("abc", exact, strict=True):
        k = sum(label in r for r in releases)
        assert stats.binomtest(k, n, p).pvalue > P_MIN, label


def test_stable_histogram_is_epsilon_delta_dp_on_a_new_label():
    """x' = x plus one record of a new label: the exact probability of every set of released labels."""
    eps, delta = 1.0, 1e-3
    counts_x, counts_xp = [3, 20], [3, 20, 1]
    px = sh.stable_histogram_release_probability(counts_x, eps, delta)
    pxp = sh.stable_histogram_release_probability(counts_xp, eps, delta)
    # events on which labels are released (the noisy values, ε-DP post-processed, are left aside)
    for released in itertools.product((False, True), repeat=3):
        a = math.prod(p if r else 1 - p for p, r in zip(px, released[:2], strict=True)) * (0.0 if released[2] else 1.0)
        b = math.prod(p if r else 1 - p for p, r in zip(pxp, released, strict=True))
        assert a <= math.exp(eps) * b + delta + 1e-15 and b <= math.exp(eps) * a + delta + 1e-15


def test_stability_bad_input():
    with pytest.raises(ValueError, match="counts must be whole numbers"):
        sh.mode_instability_distance([1.5, 2])
    with pytest.raises(TypeError, match="labels must be a sequence"):
        sh.label_counts("abc")
    with pytest.raises(ValueError, match="delta"):
        sh.stable_histogram_threshold(1.0, 0.0)
    with pytest.raises(TypeError, match="rng"):
        sh.stable_histogram(["a"], 1.0, 1e-6, None)


# ------------------------------------------------------------------ claims of the chapter checked independently
def lyu_algorithm1_probability(q, pattern, epsilon, k_max):
    """P(output = pattern) for Lyu, Su and Li's Algorithm 1 (one threshold noise Lap(2/ε) kept for the whole
    run, query noise Lap(4K/ε), stop at the K-th ⊤), threshold 0, by quadrature over the threshold noise."""
    b0, b = 2 / epsilon, 4 * k_max / epsilon

    def f(s):
        out = lap_pdf(s, b0)
        for qi, above in zip(q, pattern, strict=False):    # a run may stop before the last query
            c = lap_cdf(s - qi, b)
            out *= (1 - c) if above else c
        return out
    return quad(f, [0.0, *q])


def test_lyu_algorithm1_keeps_the_threshold_noise_and_is_epsilon_dp():
    """The chapter: keeping one threshold noise is fine with query noise scaled to K and a stop at the K-th ⊤
    (Lyu, Su and Li 2017, Algorithm 1): the exact loss of every output and every change of 4 queries, K = 2."""
    eps, k_max, d = 1.0, 2, 4
    outputs = [o for k in range(1, d + 1) for o in itertools.product((False, True), repeat=k)
               if (sum(o) == k_max and o[-1]) or (sum(o) < k_max and k == d)]
    base = np.zeros(d)
    p = [lyu_algorithm1_probability(base, o, eps, k_max) for o in outputs]
    assert math.isclose(sum(p), 1.0, rel_tol=1e-9)
    worst = max(abs(math.log(px / lyu_algorithm1_probability(base + np.array(ch), o, eps, k_max)))
                for ch in itertools.product((-1.0, 0.0, 1.0), repeat=d) for o, px in zip(outputs, p, strict=True))
    assert 0.4 < worst <= eps            # 0.448: far below ε, yet not trivially 0


@pytest.mark.slow
def test_the_figures_numbers_against_independent_quadrature():
    """The values the chapter glues at d = 7 (structured family) and its exhaustive table at d = 4, from
    quadrature written here; 'no threshold noise' and 'noisy value' lose exactly dε/4 (values far below)."""
    def worst(d, variant, changes):
        outs = (list(itertools.product((True, False), repeat=d)) if variant == "keep-going"
                else [(False,) * k + (True,) for k in range(d)] + [(False,) * d])
        ref = [svt_probability_by_quadrature(np.zeros(d), 0.0, o, 1.0) if variant == "correct"
               else keep_going_probability(np.zeros(d), o) for o in outs]
        return max(abs(math.log(px / (svt_probability_by_quadrature(np.array(ch, float), 0.0, o, 1.0)
                                       if variant == "correct" else keep_going_probability(np.array(ch, float), o))))
                   for ch in changes for o, px in zip(outs, ref, strict=True))

    def keep_going_probability(q, pattern):
        def f(s):
            out = lap_pdf(s, 2.0)
            for qi, above in zip(q, pattern, strict=False):    # a run may stop before the last query
                c = lap_cdf(s - qi, 4.0)
                out *= (1 - c) if above else c
            return out
        return quad(f, [0.0, *q])

    structured = [np.array(c, float) for c in sv.neighbour_changes(7, "structured")]
    assert math.isclose(sv.worst_case_over_changes(7, 1.0, "keep-going", "structured"),
                        worst(7, "keep-going", structured), rel_tol=1e-8)
    exhaustive4 = list(itertools.product((-1, 0, 1), repeat=4))
    assert math.isclose(sv.worst_case_over_changes(4, 1.0, "correct"), worst(4, "correct", exhaustive4),
                        rel_tol=1e-8)
    assert math.isclose(sv.worst_case_over_changes(7, 1.0, "no-threshold-noise", "structured"), 7 / 4,
                        rel_tol=1e-12)
    assert math.isclose(sv.worst_case_over_changes(7, 1.0, "noisy-value", "structured", values=[-40.0, 0.0]),
                        7 / 4, rel_tol=1e-6)



def test_the_explorers_realised_loss_is_far_below_epsilon_in_every_view():
    """The chapter: 'the realised loss is far below ε in every view' (27 views); the largest, at η = 1000,
    ε = 0.1, K = 2, recomputed by quadrature written here (runs of AboveThreshold at ε/K, every count ±1)."""
    labels, q = fig_stability.education_queries()
    worst = {}
    for threshold, eps, c in itertools.product([500.0, 1000.0, 2000.0], [0.1, 0.5, 1.0], [1, 2, 3]):
        pattern = sv.sparse_vector(q, threshold, eps, c, np.random.default_rng(0))
        worst[threshold, eps, c] = fig_stability.sparse_vector_realised_loss(q, threshold, pattern, eps, c) / eps
    assert max(worst.values()) < 0.2

    threshold, eps, c = 1000.0, 0.1, 2
    pattern = sv.sparse_vector(q, threshold, eps, c, np.random.default_rng(0))
    b0, b = 2 * c / eps, 4 * c / eps

    def run_probability(answers, run):
        def f(s):
            out = lap_pdf(s, b0)
            for qi, above in zip(answers, run, strict=False):    # a run may stop before the last query
                cdf = lap_cdf(threshold + s - qi, b)
                out *= (1 - cdf) if above else cdf
            return out
        return quad(f, [0.0] + [qi - threshold for qi in answers], -3000.0, 3000.0)

    mine, start = 0.0, 0
    for i, above in enumerate(pattern):
        if above or i == len(pattern) - 1:
            run = pattern[start:i + 1]
            p = run_probability(q[start:i + 1], run)
            for j in range(start, i + 1):
                for step in (-1.0, 1.0):
                    y = q[start:i + 1].copy()
                    y[j - start] += step
                    mine = max(mine, abs(math.log(p / run_probability(y, run))))
            start = i + 1
    assert math.isclose(mine / eps, worst[threshold, eps, c], rel_tol=1e-6)


def test_selection_figure_names_the_score_as_the_text_does():
    """The chapter and the notation page call the score U and the best score U*; the figure says so too
    (it said g, the vector chapter's number of groups: issue 35's student)."""
    import matplotlib.pyplot as plt
    fig = fig_stability.plot_selection([2.0, 1.0, 0.0], 1.0, epsilons=[0.5, 1.0])
    top, bottom = fig.axes[:2]
    assert top.get_xlabel() == "score U of the candidate"
    assert bottom.get_title().startswith("Expected error U* − U")
    assert [t.get_text() for t in top.get_xticklabels()] == ["2", "1", "0"]
    plt.close(fig)
