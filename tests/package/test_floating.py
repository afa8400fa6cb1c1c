"""Noise a computer can actually sample: the floating-point attack, snapping, exact discrete noise.

Every expected value here is computed independently of the code under test:
numpy's own ``rng.laplace`` (the replica must match it bit for bit),
brute-force enumeration of every uniform index of an interval (the
reachable doubles), probabilities summed from their definitions (the
samplers' chi-square tests, the exact δ, the Rényi divergence), and OpenDP's
samplers and privacy maps.  Random draws use fixed seeds; OpenDP's samplers
cannot be seeded, so their comparison uses a two-sample test at level 1e-6.
"""
from __future__ import annotations

import ast
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import dpsens as ds
from dpsens import floating_point as F
from dpsens.mechanisms import discrete as D
from dpsens.mechanisms import snapping as S
from dpsens.mechanisms.gaussian import gaussian_rho


# ----------------------------------------------------------------- numpy's Laplace sampler, bit for bit
@pytest.mark.parametrize("scale", [1.0, 2.5, 1 / 0.3, 100.0])
def test_replica_matches_numpys_laplace_bit_for_bit(scale):
    n = 200_000
    drawn = np.random.default_rng(11).laplace(0.0, scale, size=n)
    j = F.uniform_index(np.random.default_rng(11).bit_generator.random_raw(n))
    assert np.all(j > 0)                                  # numpy redraws j = 0; none here
    assert np.array_equal(F.numpy_laplace_noise(j, scale), drawn)


def test_replica_is_the_books_laplace_mechanism():
    n = 50_000
    z = ds.laplace_mechanism(7.0, 1.0, 0.5, np.random.default_rng(4), size=n)
    j = F.uniform_index(np.random.default_rng(4).bit_generator.random_raw(n))
    assert np.array_equal(F.laplace_release(7.0, 2.0, j), z)


def test_numpys_np_log_is_not_the_samplers_log():
    """The reason the replica calls math.log: np.log differs in the last bit on some arguments."""
    j = F.uniform_index(np.random.default_rng(11).bit_generator.random_raw(200_000))
    u = j * 2.0 ** -53
    arg = np.where(u >= 0.5, (2.0 - u) - u, u + u)
    assert not np.array_equal(np.log(arg), np.array([math.log(a) for a in arg]))


def test_replica_is_monotone_on_random_runs():
    rng = np.random.default_rng(2)
    for start in rng.integers(1, 2 ** 53 - 5000, size=20):
        z = F.laplace_release(1.0, 1.0, np.arange(start, start + 5000))
        assert np.all(np.diff(z) >= 0)


# ----------------------------------------------------------------- which doubles are reachable
def _brute_force_window(value, scale, lo_noise, hi_noise, pad=3000):
    """Every release of ``value`` whose uniform index lies in a range covering noises in [lo_noise, hi_noise]."""
    def index_of(noise):                                   # the inverse of the sampler, approximately
        if noise >= 0:
            return int(round(2 ** 53 - 2 ** 52 * math.exp(-noise / scale)))
        return int(round(2 ** 52 * math.exp(noise / scale)))
    a, b = index_of(lo_noise) - pad, index_of(hi_noise) + pad
    j = np.arange(max(a, 1), min(b, 2 ** 53 - 1) + 1)
    return F.laplace_release(value, scale, j)


@pytest.mark.parametrize("value, value_prime, scale, start", [
    (0.0, 1.0, 1.0, 0.9416235335369018), (0.0, 1.0, 2.0, -0.3), (10.0, 11.0, 10.0, 10.5),
    (100.0, 101.0, 100.0, 99.0), (1.0, 0.0, 1.0, -1.7)])
def test_reachable_agrees_with_enumerating_every_index(value, value_prime, scale, start):
    z = np.empty(400)
    z[0] = start
    for i in range(1, len(z)):
        z[i] = np.nextafter(z[i - 1], np.inf)
    for v in (value, value_prime):
        releases = _brute_force_window(v, scale, z[0] - v, z[-1] - v)
        assert releases[0] < z[0] and releases[-1] > z[-1]        # the window covers every z
        expected = np.isin(z, releases)
        assert np.array_equal(F.is_reachable(z, v, scale), expected)
    assert 0 < np.isin(z, _brute_force_window(value, scale, z[0] - value, z[-1] - value)).sum() < len(z)


def test_identifying_fraction_counts_what_brute_force_counts():
    n = 300
    result = F.identifying_fraction(0.0, 1.0, 1.0, 1.0, np.random.default_rng(8), releases=n)
    z = np.random.default_rng(8).laplace(0.0, 1.0, size=n)          # the same releases, drawn by numpy
    identifying = 0
    for one in z:
        releases = _brute_force_window(1.0, 1.0, one - 1.0, one - 1.0, pad=200)
        identifying += not np.isin(one, releases)
    assert result.identifying == identifying
    assert result.releases == n and result.fraction == identifying / n
    assert result.fraction > 0.5                     # the attack works: most releases identify x


def test_identifying_fraction_errors():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="sensitivity"):
        F.identifying_fraction(0.0, 3.0, 1.0, 1.0, rng)
    with pytest.raises(ValueError, match="epsilon"):
        F.identifying_fraction(0.0, 1.0, 1.0, 0.0, rng)
    with pytest.raises(TypeError, match="rng"):
        F.identifying_fraction(0.0, 1.0, 1.0, 1.0, 42)
    with pytest.raises(ValueError, match="j must be"):
        F.numpy_laplace_noise(0, 1.0)


# ----------------------------------------------------------------- exact samplers against exact probabilities
def _chi_square_pvalue(sample, pmf_of):
    """Pearson's chi-square of integer draws against probabilities; the cells with an expected count below 5
    are pooled into the two tails (each tail's probability summed over a range far beyond the draws)."""
    n = len(sample)
    reach = int(np.abs(sample).max()) + 20_000
    ks = np.arange(-reach, reach + 1)
    p = pmf_of(ks)
    central = ks[p * n >= 5]
    first, last = central[0], central[-1]
    observed = np.concatenate([[(sample < first).sum()], [(sample == k).sum() for k in central],
                               [(sample > last).sum()]])
    expected = n * np.concatenate([[p[ks < first].sum()], p[(ks >= first) & (ks <= last)], [p[ks > last].sum()]])
    mask = expected > 0
    stat = ((observed[mask] - expected[mask]) ** 2 / expected[mask]).sum()
    return stats.chi2.sf(stat, mask.sum() - 1)


def _laplace_pmf(scale):
    b = float(scale)
    norm = sum(math.exp(-abs(k) / b) for k in range(-int(60 * b) - 60, int(60 * b) + 61))
    return lambda k: np.exp(-np.abs(np.asarray(k, float)) / b) / norm


def _gaussian_pmf(sigma):
    s = float(sigma)
    norm = sum(math.exp(-k * k / (2 * s * s)) for k in range(-int(60 * s) - 60, int(60 * s) + 61))
    return lambda k: np.exp(-np.asarray(k, float) ** 2 / (2 * s * s)) / norm


@pytest.mark.parametrize("scale, seed", [(0.3, 1), (2, 2), (Fraction(10, 3), 3), (25, 4), (1000, 5)])
def test_discrete_laplace_chi_square(scale, seed):
    sample = D.sample_discrete_laplace(scale, np.random.default_rng(seed), size=200_000)
    assert sample.dtype == np.int64
    assert _chi_square_pvalue(sample, _laplace_pmf(scale)) > 1e-3


@pytest.mark.parametrize("sigma, seed", [(0.5, 1), (3, 2), (10.5, 3), (Fraction(7, 3), 4), (200, 5),
                                         (1000, 6)])
def test_discrete_gaussian_chi_square(sigma, seed):
    sample = D.sample_discrete_gaussian(sigma, np.random.default_rng(seed), size=200_000)
    assert _chi_square_pvalue(sample, _gaussian_pmf(sigma)) > 1e-3


@pytest.mark.parametrize("exponent, seed", [(0, 1), (0.25, 2), (1, 3), (2.5, 4), (Fraction(7, 3), 5), (9, 6)])
def test_bernoulli_exp_frequency(exponent, seed):
    n = 400_000
    heads = int(D.sample_bernoulli_exp(exponent, np.random.default_rng(seed), size=n).sum())
    p = math.exp(-float(exponent))
    if p == 1.0:
        assert heads == n
    else:
        assert stats.binomtest(heads, n, p).pvalue > 1e-3


class _EnumeratingRng:
    """A stand-in generator: its first ``integers`` call returns every value below ``high`` once (an
    enumeration of the uniform integer), or the values given; every later call returns ``high - 1`` (every
    later coin of a chain comes up tails)."""

    def __init__(self, first=None):
        self.first, self.calls = first, 0

    def integers(self, low, high, size, dtype):
        self.calls += 1
        if self.calls == 1:
            out = np.arange(high) if self.first is None else np.asarray(self.first)
            assert out.size == size
            return out.astype(dtype)
        return np.full(size, high - 1, dtype=dtype)


@pytest.mark.parametrize("den", [1, 3, 5])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_one_integer_settles_the_chains_first_coins_by_enumeration(den, depth):
    """Every uniform integer W below den^m m! enumerated once: the heads among them are exactly
    M (sum over odd k <= m of P[K = k] + [m + 1 odd] P[K > m]), with P[K > k] = gamma^k/k! (Fractions);
    the chains that pass all m coins meet only tails afterwards (stand-in generator), so stop at K = m + 1."""
    size = den ** depth * math.factorial(depth)
    for num in range(den + 1):
        gamma = Fraction(num, den)
        passed = [gamma ** k / math.factorial(k) for k in range(depth + 1)]      # P[K > k]
        expected = sum(passed[k - 1] - passed[k] for k in range(1, depth + 1, 2))
        expected += passed[depth] if (depth + 1) % 2 == 1 else 0
        heads = D._bernoulli_exp_fraction(np.full(size, num, dtype=np.int64), den, _EnumeratingRng(), depth)
        assert Fraction(int(heads.sum()), size) == expected


def test_e_minus_one_coin_thresholds_against_brute_force():
    """The e^-1 coin settles 20 coins with one W below 20!: at every threshold 20!/k! and one below it, heads
    iff K = 1 + #{k <= 20 : W < 20!/k!} is odd (Python integers); W = 0 goes on to coin 21 (tails: K = 21)."""
    top = math.factorial(20)
    w = sorted({0, 1, top - 1} | {top // math.factorial(k) - d for k in range(2, 21) for d in (0, 1)})
    heads = D._bernoulli_exp_minus_one(len(w), _EnumeratingRng(w))
    brute = [(1 + sum(v < top // math.factorial(k) for k in range(1, 21))) % 2 == 1 for v in w]
    assert heads.tolist() == brute


@pytest.mark.parametrize("num, den, depth, seed", [(1, 3, 1, 1), (1, 3, 2, 2), (7, 10, 3, 3), (7, 10, None, 4),
                                                   (5, 2 ** 40, None, 5), (1, 1, None, 6)])
def test_bernoulli_exp_fraction_frequency_at_every_depth(num, den, depth, seed):
    n = 400_000
    heads = D._bernoulli_exp_fraction(np.full(n, num, dtype=np.int64), den, np.random.default_rng(seed), depth)
    assert stats.binomtest(int(heads.sum()), n, math.exp(-num / den)).pvalue > 1e-3


@pytest.mark.parametrize("block, seed", [(3, 1), (200_000, 2)])
def test_geometric_from_a_cut_stream_of_coins(block, seed):
    """V ~ P(v) = e^-v (1 - 1/e), drawn in many short calls (the carried successes of a block matter) and in
    one long call."""
    rng = np.random.default_rng(seed)
    v = np.concatenate([D._geometric_exp1(block, rng) for _ in range(200_000 // block)])
    assert _chi_square_pvalue(v, lambda k: np.where(k >= 0, np.exp(-np.maximum(k, 0)) * (1 - math.exp(-1)), 0.0)) > 1e-3


def test_gaussian_exponents_against_python_integers():
    """eta = (|y| c t - a)^2 / (2 a c t^2) as whole part and remainder, in int64 and (for magnitudes whose
    square does not fit) with Python integers, against divmod of Python integers."""
    for a, c, t, mags in [(441, 4, 11, [0, 1, 5, 11, 400]), (9, 1, 4, [0, 3, 50]),
                          (2271049, 100, 151, [0, 150, 2_000_000, 5_000_000])]:
        magnitude = np.array(mags, dtype=np.int64)
        whole, num = D._gaussian_exponents(magnitude, a, c, t)
        den = 2 * a * c * t * t
        assert [(int(w), int(r)) for w, r in zip(whole, num, strict=True)] == [divmod((m * c * t - a) ** 2, den)
                                                                              for m in mags]


def test_pmfs_match_their_definitions():
    k = np.arange(-30, 31)
    assert np.allclose(D.discrete_laplace_pmf(k, 2.5), _laplace_pmf(2.5)(k), rtol=1e-12, atol=0)
    assert np.allclose(D.discrete_gaussian_pmf(k, 3.5), _gaussian_pmf(3.5)(k), rtol=1e-12, atol=0)


def test_samplers_are_reproducible_and_shaped():
    a = D.sample_discrete_gaussian(2, np.random.default_rng(3), size=(4, 5))
    b = D.sample_discrete_gaussian(2, np.random.default_rng(3), size=(4, 5))
    assert a.shape == (4, 5) and np.array_equal(a, b)
    assert isinstance(D.sample_discrete_laplace(2, np.random.default_rng(0)), int)
    assert isinstance(D.discrete_laplace_mechanism(5, 1, 0.5, np.random.default_rng(0)), int)
    out = D.discrete_laplace_mechanism(np.array([1, 2, 3]), 1, 0.5, np.random.default_rng(0))
    assert out.shape == (3,) and out.dtype == np.int64


# ----------------------------------------------------------------- privacy, from the probabilities
@pytest.mark.parametrize("epsilon, sensitivity", [(0.5, 1), (1.0, 2), (Fraction(1, 3), 3)])
def test_discrete_laplace_privacy_loss_is_epsilon(epsilon, sensitivity):
    """max_k ln P[f(x) + Y = k] / P[f(x') + Y = k] over |f(x) - f(x')| <= Δ is exactly ε with b = Δ/ε."""
    b = sensitivity / Fraction(str(epsilon)) if not isinstance(epsilon, Fraction) else sensitivity / epsilon
    pmf = _laplace_pmf(b)
    k = np.arange(-200, 201)
    worst = max(np.max(np.abs(np.log(pmf(k)) - np.log(pmf(k - shift)))) for shift in range(1, sensitivity + 1))
    assert worst == pytest.approx(float(epsilon), rel=1e-9)


@pytest.mark.parametrize("epsilon, sigma, sensitivity", [(0.5, 2, 1), (1.0, 3, 1), (2.0, 1.5, 1), (1.0, 5, 2),
                                                         (0.1, 10, 1)])
def test_discrete_gaussian_delta_against_summed_privacy_loss(epsilon, sigma, sensitivity):
    pmf = _gaussian_pmf(sigma)
    k = np.arange(-2000, 2001)
    brute = np.maximum(0.0, pmf(k) - math.exp(epsilon) * pmf(k - sensitivity)).sum()
    assert D.discrete_gaussian_delta(epsilon, sigma, sensitivity) == pytest.approx(brute, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("sigma, sensitivity", [(1, 1), (3, 1), (2.5, 2)])
@pytest.mark.parametrize("alpha", [1.5, 2.0, 5.0, 20.0])
def test_discrete_gaussian_renyi_divergence_is_within_zcdp(sigma, sensitivity, alpha):
    """D_α(N_Z(Δ, σ²) || N_Z(0, σ²)) <= α Δ²/(2σ²) = α ρ, summed over the integers."""
    s2 = float(sigma) ** 2
    k = np.arange(-600, 601, dtype=float)
    log_norm = np.log(np.exp(-k ** 2 / (2 * s2)).sum())
    log_p, log_q = -(k - sensitivity) ** 2 / (2 * s2) - log_norm, -k ** 2 / (2 * s2) - log_norm
    terms = alpha * log_p + (1 - alpha) * log_q
    d_alpha = (terms.max() + math.log(np.exp(terms - terms.max()).sum())) / (alpha - 1)
    assert d_alpha <= alpha * gaussian_rho(float(sigma), float(sensitivity)) * (1 + 1e-12)


# ----------------------------------------------------------------- OpenDP's samplers and maps
@pytest.fixture
def dp():
    """OpenDP's prelude (the tests that use it are skipped when it is not installed)."""
    prelude = pytest.importorskip("opendp.prelude", reason="opendp is not installed (pip install opendp==0.16.0)")
    prelude.enable_features("contrib")
    return prelude


def _same_distribution(a, b):
    values = np.union1d(a, b)
    table = np.array([[np.sum(a == v) for v in values], [np.sum(b == v) for v in values]])
    table = table[:, table.sum(axis=0) >= 10]
    return stats.chi2_contingency(table)[1]


def test_discrete_laplace_agrees_with_opendp(dp):
    n = 30_000
    scale = 2.0
    meas = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)
    theirs = np.array(meas([0] * n))
    ours = D.sample_discrete_laplace(scale, np.random.default_rng(21), size=n)
    assert _same_distribution(ours, theirs) > 1e-6
    assert meas.map(1) == pytest.approx(1 / scale)            # OpenDP: ε = Δ/b, our calibration b = Δ/ε


def test_discrete_gaussian_agrees_with_opendp(dp):
    n = 20_000
    sigma = 3.0
    meas = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int), scale=sigma)
    theirs = np.array(meas([0] * n))
    ours = D.sample_discrete_gaussian(sigma, np.random.default_rng(22), size=n)
    assert _same_distribution(ours, theirs) > 1e-6
    assert meas.map(1) == pytest.approx(gaussian_rho(sigma, 1.0))
    assert meas.map(2) == pytest.approx(gaussian_rho(sigma, 2.0))


# ----------------------------------------------------------------- snapping
def test_snapping_releases_lie_on_the_grid_within_the_bound():
    p = S.snapping_parameters(1.0, 0.5, 64.0)
    assert p["grid"] == 2.0 and p["scale"] == 2.0
    z = S.snapping_mechanism(np.full(50_000, 60.0), 1.0, 0.5, 64.0, np.random.default_rng(1))
    assert np.all(np.abs(z) <= 64.0) and np.all(z % 2.0 == 0)
    assert (z == 64.0).mean() > 0.1                         # the outer clamp binds near the bound


def test_snapping_grid_and_guarantee_by_hand():
    # ε = 0.3: λ = 1/0.3 = 3.33.., Λ = 4; with Δ = 2 the grid is 8 in the query's units
    p = S.snapping_parameters(2.0, 0.3, 1000.0)
    assert p["grid"] == 8.0 and p["scale"] == pytest.approx(2 / 0.3)
    lam = 1 / 0.3
    assert p["epsilon"] == pytest.approx(1 / lam + 2.0 ** -49 * 500.0 / lam, rel=1e-15)
    assert p["epsilon"] >= 1 / lam + 2.0 ** -49 * 500.0 / lam
    assert S.snapping_epsilon(1.0, 1.0, 2.0 ** 40) == pytest.approx(1 + 2.0 ** -9)


def test_snapping_distribution_is_laplace_on_the_grid():
    """Away from the clamp, P(release = mΛ) is the Laplace mass of [mΛ - Λ/2, mΛ + Λ/2) around the answer."""
    n = 200_000
    z = S.snapping_mechanism(0.7, 1.0, 1.0, 1000.0, np.random.default_rng(5), size=n)
    cells = np.arange(-12, 13)
    cdf = stats.laplace(loc=0.7, scale=1.0).cdf
    p = cdf(cells + 0.5) - cdf(cells - 0.5)
    observed = np.array([(z == c).sum() for c in cells])
    keep = n * p >= 5
    rest = n - observed[keep].sum()
    stat = ((observed[keep] - n * p[keep]) ** 2 / (n * p[keep])).sum() + (rest - n * (1 - p[keep].sum())) ** 2 / (
        n * (1 - p[keep].sum()))
    assert stats.chi2.sf(stat, keep.sum()) > 1e-3


def test_full_precision_uniform():
    u = S.sample_full_precision_uniform(np.random.default_rng(3), (400_000,))
    assert np.all((u > 0) & (u < 1))
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    # below 2**-20 a 53-bit uniform has only 2**33 values; full precision keeps 52 mantissa bits there too
    small = S.sample_full_precision_uniform(np.random.default_rng(4), (2_000_000,))
    tiny = small[small < 2.0 ** -18]
    assert len(tiny) > 0 and np.any(np.frexp(tiny)[0] * 2.0 ** 53 % 2 == 1)


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("call, error, match", [
    (lambda r: D.sample_discrete_laplace(0, r), ValueError, "scale"),
    (lambda r: D.sample_discrete_laplace(-1.5, r), ValueError, "scale"),
    (lambda r: D.sample_discrete_laplace("2", r), TypeError, "scale"),
    (lambda r: D.sample_discrete_laplace(float("nan"), r), ValueError, "scale"),
    (lambda r: D.sample_discrete_gaussian(0, r), ValueError, "sigma"),
    (lambda r: D.sample_discrete_gaussian(0.123456789, r), ValueError, "sigma"),
    (lambda r: D.sample_bernoulli_exp(-1, r), ValueError, "exponent"),
    (lambda r: D.discrete_laplace_mechanism(3.5, 1, 1.0, r), ValueError, "value"),
    (lambda r: D.discrete_laplace_mechanism("3", 1, 1.0, r), TypeError, "value"),
    (lambda r: D.discrete_laplace_mechanism(3, 1.5, 1.0, r), TypeError, "sensitivity"),
    (lambda r: D.discrete_laplace_mechanism(3, 0, 1.0, r), ValueError, "sensitivity"),
    (lambda r: D.discrete_laplace_mechanism(3, 1, 0.0, r), ValueError, "epsilon"),
    (lambda r: D.discrete_gaussian_mechanism(True, 1, 2.0, r), TypeError, "value"),
    (lambda r: D.discrete_laplace_mechanism(3, 1, 1.0, 7), TypeError, "rng"),
    (lambda r: S.snapping_mechanism(3.0, 3.0, 1.0, 100.0, r), ValueError, "power of two"),
    (lambda r: S.snapping_mechanism(3.0, 1.0, 1.0, 0.5, r), ValueError, "bound"),
    (lambda r: S.snapping_mechanism(3.0, 1.0, 1.0, 2.0 ** 47, r), ValueError, "bound"),
    (lambda r: S.snapping_mechanism(3.0, 1.0, -1.0, 100.0, r), ValueError, "epsilon"),
    (lambda r: S.snapping_mechanism(np.nan, 1.0, 1.0, 100.0, r), ValueError, "value"),
])
def test_bad_input_raises_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call(np.random.default_rng(0))


def test_a_float_epsilon_is_read_as_its_decimal():
    assert D.as_rational(0.3, "epsilon") == Fraction(3, 10)
    assert D.as_rational(2, "epsilon") == 2


# ----------------------------------------------------------------- one noise path
ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "src" / "dpsens"
NOISE_MODULE = PKG / "mechanisms" / "noise.py"
DRAWS = {"laplace", "normal"}


def _draw_calls(source: str) -> list[int]:
    """Lines of every call ``<anything>.laplace(...)`` or ``<anything>.normal(...)`` (rng.laplace, np.random.normal)."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DRAWS)


def _code_cells(text: str) -> list[str]:
    """The Python of every code cell of a MyST chapter: cell options (``:tags: ...``) and magics blanked."""
    cells = [m.group(1) for m in re.finditer(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.S)]
    return ["\n".join("" if re.match(r"\s*(:\w|%|!)", line) else line for line in cell.split("\n"))
            for cell in cells]


def test_the_checker_finds_hand_written_draws():
    assert _draw_calls("z = v + rng.laplace(0.0, b)\nw = np.random.normal(0, 1, 5)\n") == [1, 2]
    assert _draw_calls("z = laplace_noise(b, rng)\ns = 'rng.laplace(0, 1)'\n") == []
    cells = _code_cells("text `rng.laplace(0, 1)`\n```{code-cell} ipython3\nx = rng.normal(0, 1)\n```\n")
    assert [_draw_calls(c) for c in cells] == [[1]]


def test_no_module_draws_laplace_or_gaussian_noise_by_hand():
    """Every Laplace and Gaussian draw of the package goes through dpsens.mechanisms.noise (and its secure= choice)."""
    found = {str(p.relative_to(PKG)): lines for p in sorted(PKG.rglob("*.py")) if p != NOISE_MODULE
             for lines in [_draw_calls(p.read_text(encoding="utf-8"))] if lines}
    assert found == {}


def test_no_chapter_draws_laplace_or_gaussian_noise_by_hand():
    found = {}
    for path in sorted((ROOT / "chapters").glob("*.md")):
        lines = [line for cell in _code_cells(path.read_text(encoding="utf-8")) for line in _draw_calls(cell)]
        if lines:
            found[path.name] = lines
    assert found == {}


@pytest.mark.parametrize("seed", [0, 5])
def test_the_noise_path_is_numpys_sampler_unless_secure(seed):
    assert np.array_equal(ds.mechanisms.laplace_noise(2.5, np.random.default_rng(seed), 1000),
                          np.random.default_rng(seed).laplace(0.0, 2.5, size=1000))
    assert np.array_equal(ds.mechanisms.gaussian_noise(1.5, np.random.default_rng(seed), (3, 4)),
                          np.random.default_rng(seed).normal(0.0, 1.5, size=(3, 4)))
    secure = ds.mechanisms.laplace_noise(2.5, np.random.default_rng(seed), 1000, secure=True)
    assert secure.dtype == np.int64
    assert np.array_equal(secure, D.sample_discrete_laplace(2.5, np.random.default_rng(seed), 1000))


def test_secure_mechanisms_release_integers_with_their_guarantee():
    z = ds.laplace_mechanism(40, 1, 0.5, np.random.default_rng(1), size=100_000, secure=True)
    assert z.dtype == np.int64
    assert _chi_square_pvalue(z - 40, _laplace_pmf(2)) > 1e-3
    with pytest.raises(ValueError, match="value"):
        ds.laplace_mechanism(40.5, 1, 0.5, np.random.default_rng(1), secure=True)
    g = ds.gaussian_mechanism(40, 1, 0.5, 1e-6, np.random.default_rng(2), size=10, method="analytic", secure=True)
    assert g.dtype == np.int64


@pytest.mark.parametrize("epsilon, delta", [(0.5, 1e-6), (1.0, 1e-5), (2.0, 1e-8)])
def test_secure_gaussian_sigma_meets_delta_exactly(epsilon, delta, monkeypatch):
    """The σ the secure Gaussian mechanism samples with: at least the continuous calibration, exact δ at most delta."""
    from dpsens.mechanisms import gaussian as G
    used = {}
    monkeypatch.setattr(G, "discrete_gaussian_mechanism", lambda value, d, sigma, rng, size: used.setdefault("s", sigma))
    ds.gaussian_mechanism(3, 1, epsilon, delta, np.random.default_rng(0), method="analytic", secure=True)
    sigma = used["s"]
    assert float(sigma) >= G.gaussian_sigma(1.0, epsilon, delta, "analytic")
    pmf = _gaussian_pmf(sigma)
    k = np.arange(-3000, 3001)
    assert np.maximum(0.0, pmf(k) - math.exp(epsilon) * pmf(k - 1)).sum() <= delta * (1 + 1e-9)


def test_secure_sigma_rounds_up_to_what_the_sampler_takes():
    from dpsens.mechanisms.noise import secure_sigma
    for s in (0.3, 1.0, 4.8471234, 123.456789, 9876.54321, 13_776):
        r = secure_sigma(s)
        assert r >= Fraction(repr(s)) and float(r) <= s * (1 + 1e-3) + 1
        D.sample_discrete_gaussian(r, np.random.default_rng(0), 10)         # accepted by the exact sampler
    with pytest.raises(ValueError, match="sigma must be at most 13776"):
        secure_sigma(13_776.5)


# --- second reader's independent checks ---------------------------------------------------------

def _own_release(value, scale, j):
    """numpy's random_laplace written out by hand for one index j (no package code)."""
    u = math.ldexp(float(j), -53)
    if u >= 0.5:
        return value + (0.0 - scale * math.log((2.0 - u) - u))
    return value + (0.0 + scale * math.log(u + u))


def _own_reachable(z, value, scale):
    """Bracket j around the real inverse of the noise at z - value, widen until it brackets, then bisect."""
    top = 2 ** 53
    n = z - value
    j0 = int(top / 2 * math.exp(n / scale)) if n < 0 else top - int(top / 2 * math.exp(-n / scale))
    width = 64
    while True:
        lo, hi = max(1, j0 - width), min(top - 1, j0 + width)
        if (lo == 1 or _own_release(value, scale, lo) < z) and (hi == top - 1 or _own_release(value, scale, hi) > z):
            break
        width *= 4
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _own_release(value, scale, mid) < z:
            lo = mid
        else:
            hi = mid
    return _own_release(value, scale, lo) == z or _own_release(value, scale, hi) == z


@pytest.mark.parametrize("value, value_prime, seed", [(0.0, 1.0, 2012), (1.0, 0.0, 2013)])
def test_chapter_attack_counts_by_an_independent_search(value, value_prime, seed):
    """The chapter's 10,000 releases (seeds 2012, 2013), recounted with a hand-written sampler and search."""
    raw = np.random.default_rng(seed).bit_generator.random_raw(50)
    draws = np.random.default_rng(seed).laplace(0.0, 1.0, 50)
    assert [_own_release(0.0, 1.0, int(r) >> 11) for r in raw] == list(draws)      # the hand-written sampler is numpy's
    z = value + np.random.default_rng(seed).laplace(0.0, 1.0, 10_000)
    own = sum(not _own_reachable(float(one), value_prime, 1.0) for one in z)
    result = F.identifying_fraction(value, value_prime, 1.0, 1.0, np.random.default_rng(seed), 10_000)
    assert result.identifying == own
    assert 0.79 < own / 10_000 < 0.83


@pytest.mark.parametrize("gap, half_even, half_up", [(1, 2, 1), (2, 2, 2), (3, 4, 3), (0.5, 1, 1), (1.5, 2, 2)])
def test_sensitivity_after_rounding_by_enumeration(gap, half_even, half_up):
    """np.round (half to even) adds 1 to an odd integer sensitivity only; rounding half up gives ceil(Δ)."""
    grid = [Fraction(k, 8) for k in range(-40, 41)]
    pairs = [(a, a + d) for a in grid for d in grid if 0 <= d <= gap]
    assert max(abs(np.round(float(a)) - np.round(float(b))) for a, b in pairs) == half_even
    assert max(abs(math.floor(a + Fraction(1, 2)) - math.floor(b + Fraction(1, 2))) for a, b in pairs) == half_up
