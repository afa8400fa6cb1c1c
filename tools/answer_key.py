"""The teacher's answer key: every graded exercise's answer function, and the hashed key it writes.

This file is NOT part of the package a student installs (``tools/`` is not in
the wheel).  Each exercise is a function registered with :func:`exercise`
returning a :class:`Key`: the expected value, the scheme that makes it
discrete (``dpsens.exercises._secret``: ``INT``, ``EXACT``, ``REL3``,
``abs_(a)``, ``SET``) and optional known slips (values that get a specific
hint).  The answer functions compute the values independently of the engine
each chapter teaches (enumeration, order statistics, closed forms).

Usage::

    python tools/answer_key.py write          # src/dpsens/exercises/_key.py (commit it)
    python tools/answer_key.py check          # fails when _key.py is out of date
    python tools/answer_key.py show           # the answers, for the teacher
    python tools/answer_key.py roster FILE [COURSE]   # the teacher's sheet: each student's numbers and answers

``FILE`` is a CSV with a ``student_id`` column; ``COURSE`` a course's folder (``make course``) or a
course id; a student's numbers are drawn from ``ds.exercises.student_seed(student_id, course, salt)``
with each exercise's salt in the course's ``variants.json`` (``tools/course.py``; seed 0 is the
book's own numbers).  Graded notebooks ship no key: ``tools/grade.py`` computes each student's
expected values from this registry at grading time.

Adding an exercise (the recipe of ``dpsens/exercises/__init__.py``): move the
computation of the expected value out of the checker into a function here,
register it under the name the checker passes to ``check_key``, run ``write``.
"""
from __future__ import annotations

import csv
import hashlib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import dpsens as ds  # noqa: E402
import dpsens.grid  # noqa: E402
import dpsens.proportions  # noqa: E402
import dpsens.smooth  # noqa: E402
import dpsens.transformations  # noqa: E402
from dpsens.exercises import _secret  # noqa: E402
from dpsens.exercises.variants import VARIANTS, variant_params  # noqa: E402

KEY_FILE = ROOT / "src" / "dpsens" / "exercises" / "_key.py"

INT = ("int",)
EXACT = ("rel", 1e-9)
REL3 = ("rel", 5e-3)
SET = ("set",)


def abs_(a: float) -> tuple:
    return ("abs", a)


@dataclass
class Key:
    """One exercise's answer: ``value`` under ``scheme``; ``slips`` maps a slip's name to a value
    (same scheme) or ``(scheme, value)``; ``cases`` (function exercises) lists expected outputs."""

    value: object = None
    scheme: tuple = EXACT
    slips: dict = field(default_factory=dict)
    cases: list | None = None


REGISTRY: dict[str, Callable[..., Key]] = {}


def exercise(name: str) -> Callable[[Callable[..., Key]], Callable[..., Key]]:
    def register(func: Callable[..., Key]) -> Callable[..., Key]:
        REGISTRY[name] = func
        return func
    return register


# =============================================================== dp
@exercise("dp_density_ratio")
def dp_density_ratio(fx=100.0, fxp=103.0, b=2.0) -> Key:
    loss = abs(fxp - fx) / b
    return Key(math.exp(loss), REL3, {"log": loss, "no_scale": math.exp(abs(fxp - fx))})


@exercise("dp_household_budget")
def dp_household_budget(releases=3, b=5.0, group=2) -> Key:
    per = 1.0 / b
    return Key(releases * per * group, EXACT, {"one_person": releases * per, "one_release": per * group})


@exercise("dp_expected_loss")
def dp_expected_loss(gap=1.0, b=1.0) -> Key:
    epsilon = abs(gap) / b
    return Key(epsilon + math.exp(-epsilon) - 1, REL3, {"epsilon": epsilon})


# =============================================================== neighbours
@exercise("neighbor_count")
def neighbor_count(x=(1, 2, 2), top=3) -> Key:
    return Key(len(ds.neighbors.enumerate_neighbors(list(x), ds.neighbors.Domain(range(1, top + 1)), k=1)), INT)


@exercise("bounded_neighbors")
def bounded_neighbors(x=(1, 2), pool=(1, 2, 3, 3)) -> Key:
    every = list(ds.neighbors.enumerate_neighbors(list(x), ds.neighbors.Pool(list(pool)), k=1, neighbors="bounded"))
    # the package counts x itself (a record replaced by an equal value); the answer without it is right too
    others = [d for d in every if sorted(map(float, d)) != sorted(map(float, x))]
    return Key(every, SET, {"without_x": (SET, others)})


@exercise("symmetric_difference")
def symmetric_difference() -> Key:
    from dpsens.exercises.neighbors import symmetric_difference_cases

    def reference(a, b):
        ca, cb = Counter(float(v) for v in a), Counter(float(v) for v in b)
        return sum(((ca - cb) + (cb - ca)).values())
    return Key(None, INT, cases=[reference(a, b) for a, b in symmetric_difference_cases()])


# =============================================================== leak
_X = ds.neighbors.Domain([1, 2, 3, 10, 11])


def _ls_median(x, domain=_X) -> float:
    m = float(np.median(x))
    return max(abs(m - float(np.median(nb))) for nb in ds.neighbors.enumerate_neighbors(x, domain, k=1))


def _event_prob(loc, scale, center, c):
    """P(|loc + Lap(scale) - center| > c), both tails without cancellation."""
    def cdf(t):
        z = (t - loc) / scale
        return 0.5 * math.exp(z) if z < 0 else 1 - 0.5 * math.exp(-z)

    def sf(t):
        z = (t - loc) / scale
        return 0.5 * math.exp(-z) if z > 0 else 1 - 0.5 * math.exp(z)
    return sf(center + c) + cdf(center - c)


_PAIR = ([1, 2, 10], [1, 2, 3, 10])         # the chapter's neighbours x and x'


@lru_cache(maxsize=None)
def _pair_ls(which: int) -> float:
    return _ls_median(_PAIR[which])


def _event_loss(c: float, epsilon: float = 1.0) -> float:
    """The loss of the event |Z - 2.5| > c for the chapter's pair, noise LS / epsilon."""
    x, xp = _PAIR
    return math.log(_event_prob(float(np.median(x)), _pair_ls(0) / epsilon, 2.5, c)
                    / _event_prob(float(np.median(xp)), _pair_ls(1) / epsilon, 2.5, c))


@exercise("leak_local_sensitivity")
def leak_local_sensitivity(x=(2, 2, 10), domain=(1, 2, 3, 10, 11)) -> Key:
    return Key(_ls_median(list(x), ds.neighbors.Domain(list(domain))), EXACT)


@exercise("leak_event_loss")
def leak_event_loss(epsilon=1.0, tau=3.0) -> Key:
    return Key(_event_loss(tau, epsilon), REL3)


@exercise("leak_threshold")
def leak_threshold(epsilon=1.0, loss=5.0) -> Key:
    lo, hi = 0.5, 50.0
    while _event_loss(hi, epsilon) < loss:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _event_loss(mid, epsilon) >= loss else (mid, hi)
    return Key(hi, abs_(0.01))


def _discarded(size, domain=(1, 2, 3, 10, 11)):
    dom = ds.neighbors.Domain(list(domain))
    return [tuple(map(float, r)) for r in ds.neighbors.releases(dom, size) if _ls_median(r, dom) == 0]


@exercise("leak_discarded_3")
def leak_discarded_3(domain=(1, 2, 3, 10, 11)) -> Key:
    return Key(_discarded(3, domain), SET)


@exercise("leak_discarded_4")
def leak_discarded_4(domain=(1, 2, 3, 10, 11)) -> Key:
    return Key(_discarded(4, domain), SET)


# =============================================================== median grid
@exercise("grid_row")
def grid_row(x=(1, 3, 10), pool=ds.grid.SOURCE_UNIVERSE) -> Key:
    g = ds.grid.sensitivity_grid(ds.neighbors.Pool(list(pool)), 3, 1, "median", "unbounded")
    return Key(float(g.local[g.rows.index(tuple(sorted(map(float, x))))]), EXACT)


@exercise("rows_at_global")
def rows_at_global(pool=ds.grid.SOURCE_UNIVERSE) -> Key:
    def top(k):
        g = ds.grid.sensitivity_grid(ds.neighbors.Pool(list(pool)), 3, k, "median", "bounded")
        return [x for x, ls in zip(g.rows, g.local, strict=True) if ls == g.global_sensitivity]
    return Key(top(2), SET, {"k1_rows": top(1)})


# =============================================================== global
@exercise("global_sum")
def global_sum(pool=(1, 2, 3, 4, 5, 6, 7, 8, 15, 20)) -> Key:
    return Key(ds.grid.sensitivity_grid(ds.neighbors.Pool(list(pool)), 6, 2, "sum",
                                   "unbounded").global_sensitivity, EXACT)


@exercise("bounded_mean")
def bounded_mean(domain=(1, 2, 3), n=4, k=2) -> Key:
    return Key(ds.grid.sensitivity_grid(ds.neighbors.Domain(list(domain)), n, k, "mean", "bounded").global_sensitivity,
               EXACT)


# =============================================================== local
@lru_cache(maxsize=1)
def _all_ages():
    return ds.load_ages().to_numpy(float)


def _ages(rows=None):
    """The Adult ages, sorted (the first ``rows`` records of the data, or all)."""
    return np.sort(_all_ages()[:rows])


@exercise("local_sum")
def local_sum(released=(1, 2, 3, 4, 5, 6), others=(7, 8, 15, 20)) -> Key:
    x = list(released)
    pool = ds.neighbors.Pool(x + list(others))
    return Key(max(abs(sum(x) - float(np.sum(y))) for y in ds.neighbors.enumerate_neighbors(x, pool, 1, "unbounded")),
               EXACT)


@exercise("adult_mean_local")
def adult_mean_local(rows=None, top=100) -> Key:
    x = _ages(rows)
    n, m = len(x), float(np.mean(x))
    remove = max(x[-1] - m, m - x[0]) / (n - 1)
    add = max(top - m, m) / (n + 1)
    return Key(max(remove, add), REL3)


@exercise("median_k")
def median_k(rows=None, years=1) -> Key:
    x = _ages(rows)
    m = len(x) // 2
    return Key(next(k for k in range(1, m + 1) if max(x[m + k] - x[m], x[m] - x[m - k]) >= years), INT)


# =============================================================== proportions
@exercise("proportion_halfwidth")
def proportion_halfwidth(n=2000, epsilon=0.5) -> Key:
    b = 1 / (n * epsilon)
    return Key(math.log(100) * b, REL3, {"source": (("rel", 1e-3), -math.log(0.505) * b),
                                         "count": (("rel", 1e-3), math.log(100) / epsilon),
                                         "one_sided": math.log(50) * b})


@exercise("proportion_vector_change")
def proportion_vector_change(counts=(2, 3, 5)) -> Key:
    return Key(ds.proportions.proportion_local_sensitivity(list(counts), "unbounded", "l1"), REL3,
               {"single": ds.proportions.source_proportion_sensitivity(list(counts))})


# =============================================================== transformations
@exercise("plan_sensitivity")
def plan_sensitivity(rows=4, repeats=3, upper=50) -> Key:
    return Key(ds.transformations.RowStability(1).flat_map(rows).public_join(repeats).sum_sensitivity(0, upper), EXACT,
               {"rows": rows * repeats, "added": (rows + repeats) * upper})


@exercise("private_join_sensitivity")
def private_join_sensitivity(purchases=3, user_rows=1, purchase_rows=1) -> Key:
    def pj(users_truncation):
        return ds.transformations.private_join_stability(1, purchases, users_truncation, "drop_excess",
                                                         user_rows, purchase_rows)
    # one table alone: the Purchases term q2 κ1 t1 (Users drop_non_unique, κ1 = 1)
    return Key(pj("drop_non_unique"), EXACT, {"excess_users": pj("drop_excess"), "one_table": purchases * user_rows})


# =============================================================== sample and aggregate
N = ds.data.N_AGES


@lru_cache(maxsize=None)
def _raw_ages() -> np.ndarray:
    """The ages in the data's order (exercises on their first n take ``_raw_ages()[:n]``), read once."""
    ages = ds.load_ages().to_numpy(dtype=float)
    ages.flags.writeable = False
    return ages


@lru_cache(maxsize=None)
def _adult():
    return ds.load_adult()


def _source_count(n, k):
    n = N if n is None else n               # a variant's n = None: all the ages
    return math.ceil(n / math.ceil(n / k))


@exercise("saa_source_chunks")
def saa_source_chunks(n=None, m=6000) -> Key:
    return Key(_source_count(n, m), INT)


@exercise("saa_source_epsilon")
def saa_source_epsilon(n=None, m=6000, epsilon=1.0) -> Key:
    return Key(epsilon * m / _source_count(n, m), REL3, {"intended": (EXACT, epsilon)})


@exercise("saa_overlap_epsilon")
def saa_overlap_epsilon(n=None, chunks=6000, size=55, draw_seed=2023) -> Key:
    n = N if n is None else n
    idx = np.sort(np.random.default_rng(draw_seed).integers(0, n, size=(chunks, size)), axis=1)
    first = np.ones(idx.shape, dtype=bool)           # a record drawn twice into one chunk counts once
    first[:, 1:] = idx[:, 1:] != idx[:, :-1]
    return Key(int(np.bincount(idx[first], minlength=n).max()), INT)


@exercise("saa_chunks_for_noise")
def saa_chunks_for_noise(lower=20, upper=80, epsilon=1.0, sd=0.05) -> Key:
    width = (upper - lower) / epsilon
    return Key(math.ceil(math.sqrt(2) * width / sd), INT, {"scale": math.ceil(width / sd)})


# =============================================================== PTR
DELTA = 1e-6          # the book's public delta (dp.md): never 1/n^2 with the private size n


@exercise("ptr_source_accident")
def ptr_source_accident(epsilon=1.0, delta=DELTA) -> Key:
    threshold = math.log(2 / delta) / (2 * epsilon)
    return Key(0.5 * math.exp(-epsilon * threshold), REL3, {"delta": delta})


@exercise("ptr_release_distance")
def ptr_release_distance(epsilon=1.0, delta=DELTA) -> Key:
    return Key(math.ceil(math.log(1 / delta) / epsilon + math.log(50) / epsilon), INT)


@exercise("ptr_median_distance")
def ptr_median_distance(n=None, bound=2) -> Key:
    return Key(ds.smooth.distance_to_high_ls(_raw_ages()[:n], "median", float(bound), 0, 100, "bounded"), INT)


# =============================================================== smooth
def _beta(n, epsilon=1.0):
    """beta at delta = 1/n^2: only where n is public (the bounded exercise on 2,001 ages)."""
    return epsilon / (2 * math.log(2 * n ** 2))


BETA = 1.0 / (2 * math.log(2 / DELTA))      # epsilon = 1, the book's public delta


@exercise("smooth_beta")
def smooth_beta(epsilon=1.0, delta=DELTA) -> Key:
    return Key(epsilon / (2 * math.log(2 / delta)), REL3, {"ln_1_over_delta": epsilon / (2 * math.log(1 / delta)),
                                                           "delta_1_over_n_squared": _beta(N, epsilon)})


@exercise("smooth_turning_point")
def smooth_turning_point(n=None, epsilon=1.0, delta=DELTA) -> Key:
    n = N if n is None else n
    k = np.arange(0, n + 1)
    logs = -epsilon / (2 * math.log(2 / delta)) * k + np.log(100.0) - np.log(n - k + 1.0)
    return Key(int(np.nonzero(np.diff(logs) > 0)[0][0]), INT)


@exercise("smooth_median_direct")
def smooth_median_direct(n=2001, epsilon=1.0) -> Key:
    return Key(ds.smooth.smooth_sensitivity(_raw_ages()[:n], "median", _beta(n, epsilon), 0, 100, "bounded"), REL3)


@exercise("smooth_student_error")
def smooth_student_error(n=2001, epsilon=0.5, df=3.0) -> Key:
    from scipy import stats
    x = _raw_ages()[:n]
    psi, beta = epsilon * math.sqrt(df) / (df + 1), epsilon / (2 * max(1.0, df))
    scale = ds.smooth.smooth_sensitivity(x, "median", beta, 0, 100, "bounded") / psi
    s_laplace = ds.smooth.smooth_sensitivity(x, "median", epsilon / (2 * math.log(2 / 1e-6)), 0, 100, "bounded")
    q = float(stats.t.ppf(0.75, df))
    return Key(scale * q, REL3, {"scale_only": scale, "laplace_beta": s_laplace / psi * q})


# =============================================================== exponential mechanism
@exercise("em_tie_probability")
def em_tie_probability(epsilon=0.1) -> Key:
    from dpsens.mechanisms.exponential import quantile_exponential_distribution
    dist = quantile_exponential_distribution(_raw_ages(), 0.5, epsilon, 0.0, 100.0, "bounded")
    p = float(np.exp(dist["log_prob"])[(dist["left"] == 36.0) & (dist["right"] == 37.0)].sum())
    return Key(p, REL3, {"other_interval": 1 - p})


@exercise("inverse_len_median")
def inverse_len_median(n=None, target=40) -> Key:
    from dpsens.inverse import inverse_len_quantile
    return Key(int(inverse_len_quantile(_raw_ages()[:n], 0.5, float(target), 0.0, 100.0, "bounded")), INT)


@exercise("rank_score_sensitivity")
def rank_score_sensitivity() -> Key:
    # a replacement: one record leaves below / at / above z, one joins below / at / above z
    sides = [(1, 0), (0, 0), (0, 1)]
    gs = max(abs((new[0] - old[0]) - (new[1] - old[1])) for old in sides for new in sides)
    return Key(float(gs), EXACT, {"one_count": 1.0})


# =============================================================== vector
@exercise("mean_median_l1")
def mean_median_l1(lower=17, upper=90, x=(20, 21, 22, 80, 90)) -> Key:
    from dpsens.vector import vector_local_sensitivity
    dom = ds.neighbors.Domain(range(lower, upper + 1))
    both = vector_local_sensitivity(x, ["mean", "median"], dom, norm="l1")
    alone = sum(vector_local_sensitivity(x, [q], dom) for q in ("mean", "median"))
    return Key(both, REL3, {} if math.isclose(alone, both, rel_tol=5e-3) else {"separate_sum": alone})


@exercise("gaussian_per_count")
def gaussian_per_count(groups=25, epsilon=1.0, delta=1e-6) -> Key:
    from dpsens.mechanisms.gaussian import gaussian_sigma, per_coordinate_noise_std

    def sigma(l2):
        return gaussian_sigma(l2, epsilon, delta, method="analytic")
    return Key(sigma(math.sqrt(groups)), REL3, {"one_count": sigma(1.0), "l1": sigma(float(groups)),
                                                "classic": math.sqrt(2 * math.log(1.25 / delta)) * math.sqrt(groups)
                                                / epsilon, "laplace": per_coordinate_noise_std(groups, epsilon)})


@exercise("crossover_d")
def crossover_d(epsilon=0.5, delta=1e-8, ratio=1.0) -> Key:
    from dpsens.mechanisms.gaussian import gaussian_laplace_crossover, per_coordinate_noise_std

    def wins(d):        # the Gaussian's sd per answer below ratio x the Laplace's
        return per_coordinate_noise_std(d, epsilon, delta, "gaussian") < ratio * per_coordinate_noise_std(d, epsilon)
    lo, hi = 0, 1       # wins(hi), not wins(lo): the Gaussian's sd grows as sqrt(d), the Laplace's as d
    while not wins(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if wins(mid) else (mid, hi)
    assert ratio != 1.0 or hi == gaussian_laplace_crossover(epsilon, delta)
    return Key(hi, INT)


@exercise("zcdp_epsilon")
def zcdp_epsilon(releases=10, sigma=4.0, delta=1e-6) -> Key:
    from dpsens.mechanisms.gaussian import gaussian_rho, zcdp_compose, zcdp_to_dp
    rho = zcdp_compose([gaussian_rho(sigma, 1.0)] * releases)
    return Key(zcdp_to_dp(rho, delta), REL3,
               {"per_release_sum": releases * zcdp_to_dp(gaussian_rho(sigma, 1.0), delta), "rho": rho})


@exercise("private_bound_above")
def private_bound_above(alpha=0.99, epsilon=0.05) -> Key:
    from dpsens.mechanisms.exponential import quantile_exponential_distribution
    gains = _adult()["capital-gain"].to_numpy()
    below_top = gains[gains < gains.max()].max()

    def above(neighbors):
        dist = quantile_exponential_distribution(gains, alpha, epsilon, 0.0, 99_999.0, neighbors=neighbors)
        return float(np.exp(dist["log_prob"][dist["left"] >= below_top]).sum())
    exact, bounded = above("unbounded"), above("bounded")
    return Key(exact, REL3, {} if math.isclose(exact, bounded, rel_tol=5e-3) else {"bounded": bounded})


# =============================================================== accuracy
@exercise("laplace_tail")
def laplace_tail(epsilon=0.25, zeta=0.01) -> Key:
    b = 1.0 / epsilon                                      # a count: sensitivity 1
    return Key(b * math.log(1 / zeta), REL3, {"one_sided": b * math.log(1 / (2 * zeta)), "no_log": b})


@exercise("gaussian_tail")
def gaussian_tail(epsilon=1.0, delta=1e-6, zeta=0.05) -> Key:
    from scipy.stats import norm
    from dpsens.mechanisms.gaussian import gaussian_sigma
    sigma = gaussian_sigma(1.0, epsilon, delta, method="analytic")
    return Key(float(sigma * norm.isf(zeta / 2)), REL3, {"chernoff": sigma * math.sqrt(2 * math.log(2 / zeta)),
                                                         "one_sided": float(sigma * norm.isf(zeta))})


@exercise("em_utility_bound")
def em_utility_bound(top=100, epsilon=1.0, zeta=0.01) -> Key:
    loss = 2 / epsilon * (math.log(top + 1) + math.log(1 / zeta))
    return Key(loss, REL3, {"no_factor_2": loss / 2})


@exercise("histogram_lower_bound")
def histogram_lower_bound(d=5000, epsilon=0.5) -> Key:
    # direct maximisation over whole t (the bound falls after its peak, near ln(d)/ε)
    best, t = 0.0, 1
    while t <= 10 * (math.log(d) + 10) / epsilon:
        best = max(best, t / 2 * d / (math.exp(t * epsilon) + d))
        t += 1
    s = np.linspace(0.01, 10 * (math.log(d) + 10) / epsilon, 200001)
    real_t = float(np.max(s / 2 * d / (np.exp(s * epsilon) + d)))
    return Key(best, REL3, {} if math.isclose(real_t, best, rel_tol=5e-3) else {"real_t": real_t})
# =============================================================== composition
@exercise("advanced_epsilon")
def advanced_epsilon(releases=400, b=20.0, delta=1e-6) -> Key:
    from dpsens.accounting import advanced_composition
    first = math.sqrt(2 * releases * math.log(1 / delta)) / b
    return Key(advanced_composition(1 / b, releases, delta)[0], REL3, {"basic": releases / b, "first_term": first})


@exercise("optimal_epsilon")
def optimal_epsilon(releases=40, epsilon=0.1) -> Key:
    from dpsens.accounting import advanced_composition, optimal_composition_epsilon
    return Key(optimal_composition_epsilon(epsilon, releases, 1e-6), REL3,
               {"advanced": advanced_composition(epsilon, releases, 1e-6)[0], "basic": releases * epsilon})


@exercise("gaussian_exact_epsilon")
def gaussian_exact_epsilon(releases=10, sigma=4.0, delta=1e-6) -> Key:
    from dpsens.accounting import gaussian_composition_epsilon, rdp_epsilon
    from dpsens.mechanisms.gaussian import gaussian_epsilon, gaussian_rho, zcdp_to_dp
    each = [(sigma, 1.0)] * releases
    return Key(gaussian_composition_epsilon(delta, each), REL3,
               {"zcdp": zcdp_to_dp(releases * gaussian_rho(sigma, 1.0), delta), "rdp": rdp_epsilon(delta, gaussian=each)[0],
                "basic": releases * gaussian_epsilon(sigma, 1.0, delta / releases)})


@exercise("laplace_pld_epsilon")
def laplace_pld_epsilon(releases=200, b=10.0, delta=1e-6) -> Key:
    from dpsens.accounting import rdp_epsilon
    from dpsens.pld import pld_epsilon
    counts = [(b, 1.0)] * releases
    bracket = pld_epsilon(delta, laplace=counts, rtol=1e-3)      # the midpoint: within 0.05 % of the exact ε
    # no slip for the optimal composition of 200 0.1-DP mechanisms: 1.8 % above, too close to tell apart
    return Key((bracket.lower + bracket.upper) / 2, REL3, {"rdp": rdp_epsilon(delta, laplace=counts)[0]})
# =============================================================== stability (sparse vector, stable release, selection)
@exercise("svt_free_threshold_loss")
def svt_free_threshold_loss(threshold=2.0, epsilon=1.0) -> Key:
    from dpsens.mechanisms.sparse_vector import output_probability

    def loss(eta):
        o = (False,) * 5 + (True,)
        return math.log(output_probability([0.0] * 6, eta, o, epsilon, variant="no-threshold-noise")
                        / output_probability([1.0] * 5 + [-1.0], eta, o, epsilon, variant="no-threshold-noise"))
    return Key(loss(threshold), REL3, {"worst_case": loss(0.0)})


@exercise("stable_threshold")
def stable_threshold(epsilon=0.25, delta=1e-8) -> Key:
    from dpsens.mechanisms.stable_histogram import stable_histogram_threshold
    return Key(stable_histogram_threshold(epsilon, delta), REL3,
               {"no_one": stable_histogram_threshold(epsilon, delta) - 1.0,
                "dwork_roth": 1.0 + math.log(1.0 / delta) / epsilon})


@exercise("mode_distance")
def mode_distance(column="occupation", rows=None) -> Key:
    from dpsens.mechanisms.stable_histogram import mode_instability_distance
    col = _adult()[column].astype(object)[:rows]
    counts = Counter(col.where(col.notna(), "(missing)"))
    d = mode_instability_distance(list(counts.values()))
    return Key(int(d), INT)


@exercise("pf_best_probability")
def pf_best_probability(scores=(2, 1, 0), epsilon=1.0) -> Key:
    from dpsens.mechanisms.noisy_max import selection_distribution
    best = int(np.argmax(scores))
    return Key(float(selection_distribution(scores, epsilon, "permute-and-flip")[best]), REL3,
               {"em": float(selection_distribution(scores, epsilon, "exponential-mechanism")[best])})
# =============================================================== noise a computer can actually sample
@exercise("discrete_laplace_zero")
def discrete_laplace_zero(b=2.0) -> Key:
    total = 1 + 2 * sum(math.exp(-k / b) for k in range(1, 2000))     # the normalising sum, term by term
    return Key(1 / total, REL3, {"density": 1 / (2 * b)})


@exercise("snapping_epsilon")
def snapping_epsilon(epsilon=0.3, log2_bound=40) -> Key:
    lam, bound = 1 / epsilon, 2.0 ** log2_bound
    grid = 2.0 ** math.ceil(math.log2(lam))                             # smallest power of two >= λ (4 for 1/0.3)
    return Key(1 / lam + 2.0 ** -49 * bound / lam, abs_(1e-6),
               {"grid": 1 / grid + 2.0 ** -49 * bound / grid, "target": epsilon})


@exercise("rounded_sensitivity")
def rounded_sensitivity(sensitivity=1) -> Key:
    # answers in steps of 1/8, halves included, over [-2, 2]: round(a + 2j) = round(a) + 2j covers the rest
    grid = np.arange(-16, 17) / 8
    moves = np.arange(0, 8 * sensitivity + 1) / 8
    worst = np.abs(np.round(grid[:, None]) - np.round(grid[:, None] + moves[None, :])).max()
    return Key(int(worst), INT, {"unchanged": (INT, sensitivity)} if worst != sensitivity else {})


@exercise("discrete_gaussian_delta")
def discrete_gaussian_delta(epsilon=1.0, sigma=3.0) -> Key:
    k = np.arange(-400, 401, dtype=float)
    w = np.exp(-k ** 2 / (2 * sigma ** 2))
    p, p_shift = w / w.sum(), np.exp(-(k - 1) ** 2 / (2 * sigma ** 2)) / w.sum()
    exact = float(np.maximum(0.0, p - math.exp(epsilon) * p_shift).sum())
    rho = 1 / (2 * sigma ** 2)
    zcdp = math.exp(-((epsilon - rho) / 2) ** 2 / rho)                 # ε = ρ + 2√(ρ ln(1/δ)) solved for δ
    return Key(exact, REL3, {"zcdp": zcdp})


# =============================================================== writing the key
def salt(name: str, variant: str = "") -> str:
    return hashlib.sha256(f"dpsens answer key|{name}|{variant}".encode()).hexdigest()[:32]


def _hashes(s: str, value, scheme) -> list:
    return [scheme_list(scheme), sorted(_secret.digest(s, t) for t in _secret.tokens_near(value, scheme))]


def scheme_list(scheme: tuple) -> list:
    return list(scheme)


def entry(name: str, key: Key, variant: str = "") -> dict:
    """One exercise of the hashed key."""
    s = salt(name, variant)
    out: dict[str, object] = {"salt": s}
    if key.cases is not None:
        out["cases"] = [_secret.digest(s, f"{i}:{_secret.token(v, key.scheme)}") for i, v in enumerate(key.cases)]
        return out
    out["answer"] = _hashes(s, key.value, key.scheme)
    if key.slips:
        slips = {}
        for slip, v in key.slips.items():
            scheme, v = v if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], tuple) else (key.scheme, v)
            slips[slip] = _hashes(s, v, scheme)
        out["slips"] = slips
    return out


def answers() -> dict[str, Key]:
    return {name: func() for name, func in REGISTRY.items()}


def render_key() -> str:
    keys = answers()
    lines = ['"""The answer key as salted hashes: no answer can be read back from it.', "",
             "Chapter: *For teachers* (grading).  Generated by ``python tools/answer_key.py write`` from",
             "the teacher's registry ``tools/answer_key.py`` (not shipped); do not edit.  The scheme is",
             "described in :mod:`dpsens.exercises._secret`.", '"""', "", '__all__ = ["KEY"]', "", "KEY = {"]
    for name in sorted(keys):
        lines.append(f"    {name!r}: {json.dumps(entry(name, keys[name]), separators=(', ', ': '))},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def variant_key(name: str, seed: int) -> tuple[dict, Key]:
    """The hashed entry and the answer of exercise ``name`` for the student with ``seed``."""
    key = REGISTRY[name](**variant_params(name, seed))
    return entry(name, key, variant=str(seed)), key


def _shown(value) -> str:
    """An answer on the teacher's sheet: a number to 6 significant figures, a set of datasets as a list."""
    if isinstance(value, (list, tuple)):
        return repr([[float(v) for v in d] for d in value])
    return f"{value:.6g}"


def roster(path: Path, course: str = "dpsens") -> None:
    """The teacher's sheet of a roster: read a CSV with a ``student_id`` column, write
    ``<path>.key.csv`` with each student's numbers and answers.  ``course`` is a course's folder
    (``make course``: its ``variants.json`` gives each exercise's salt, as in the graded notebooks)
    or a course id (every salt 0).  It is for the teacher only: nothing of it goes to students, and
    ``tools/grade.py`` does not need it."""
    import grade   # tools/: the grader's reading of a course's salts (one way to find a student's seeds)
    config = (grade.read_config(Path(course)) if Path(course).is_dir()
              else {"course": course, "students": [], "salts": {}, "exceptions": {}})
    rows = list(csv.DictReader(path.open()))
    with open(path.with_suffix(".key.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student_id"] + [f"{name} ({k})" for name in VARIANTS
                                     for k in variant_params(name, 0)] + [f"{n} answer" for n in VARIANTS])
        for row in rows:
            seeds = dict(grade.student_seeds(row["student_id"].strip(), config))
            mine = {name: variant_params(name, seeds[name]) for name in VARIANTS}  # drawn once, the answers unhashed
            w.writerow([row["student_id"]] + [v for name in VARIANTS for v in mine[name].values()]
                       + [_shown(REGISTRY[name](**mine[name]).value) for name in VARIANTS])
    print(f"wrote {path.with_suffix('.key.csv')}")


def main(argv: list[str]) -> None:
    cmd = argv[1] if len(argv) > 1 else "show"
    if cmd == "write":
        KEY_FILE.write_text(render_key())
        print(f"wrote {KEY_FILE.relative_to(ROOT)}")
    elif cmd == "check":
        if KEY_FILE.read_text() != render_key():
            sys.exit("src/dpsens/exercises/_key.py is out of date: run `python tools/answer_key.py write`.")
        print("the key matches the registry")
    elif cmd == "show":
        for name, key in sorted(answers().items()):
            print(f"{name:28s} {key.cases if key.cases is not None else key.value!r}")
    elif cmd == "roster":
        roster(Path(argv[2]), *argv[3:4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
