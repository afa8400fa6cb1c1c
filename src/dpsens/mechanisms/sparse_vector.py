"""AboveThreshold and sparse vector, their broken variants, and the exact privacy loss of each.

Chapter: *Testing privately, and releasing what is stable*.  AboveThreshold
(Dwork and Roth 2014, Sec. 3.6) compares each query's answer ``f_i(x)``
plus noise ``Z_i ~ Lap(4Δ/ε)`` with the threshold ``η`` plus noise
``Z_0 ~ Lap(2Δ/ε)``, says ⊥ ("below") until the first ⊤ ("above"), and
stops there; sparse vector runs it ``c`` times in a row (the chapter's
``K``), each with ``ε/c`` and a fresh threshold noise, so that it answers up
to ``c`` ⊤ (Dwork and Roth's *Sparse*, Theorem 3.25 with δ = 0).  Every query has sensitivity at most Δ
under the chapter's relation (their answers may move in different
directions between neighbours).

:data:`SVT_VARIANTS` names the correct algorithm and four ways of changing
it that break its privacy, with the noise each draws: three of the kinds
Lyu, Su and Li (2017) found in published versions (no query noise, no cap
on the ⊤ answers, the noisy value released), and no threshold noise.  :func:`output_probability` is the exact probability (or density, for
a released noisy value) of one output of any variant, an integral over the
threshold noise computed in closed form by :mod:`.piecewise`;
:func:`exact_privacy_loss` enumerates every output of a pair of neighbouring
answer vectors and returns each output's privacy loss
``ln P(M(x) = o) / P(M(x') = o)``.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd

from .._validate import as_int, as_positive, check_rng
from .noise import laplace_noise
from .piecewise import integrate, laplace_cdf, laplace_pdf_factor, laplace_sf, step_above, step_below

__all__ = ["SVT_VARIANTS", "svt_noise_scales", "above_threshold", "sparse_vector", "variant_outputs",
           "output_probability", "exact_privacy_loss", "worst_case_loss", "sparse_vector_output_probability",
           "sparse_vector_runs",            "neighbour_changes", "worst_case_over_changes"]

#: The variants: what each does (three of the broken ones are of the kinds Lyu, Su and Li 2017 found in print;
#: "no-threshold-noise" shows what the threshold noise is for).
SVT_VARIANTS = {
    "correct": "threshold noise Lap(2Δ/ε), query noise Lap(4Δ/ε), stop at the first ⊤ (Dwork and Roth)",
    "no-threshold-noise": "no noise on the threshold; query noise Lap(4Δ/ε); stop at the first ⊤",
    "no-query-noise": "threshold noise Lap(2Δ/ε); no noise on the queries; stop at the first ⊤",
    "keep-going": "the correct noises, but the same threshold noise is kept and the answers go on after a ⊤",
    "noisy-value": "the correct noises, stop at the first ⊤ and release that query's noisy value",
}


def _variant(variant: str) -> str:
    if variant not in SVT_VARIANTS:
        raise ValueError(f"variant must be one of {sorted(SVT_VARIANTS)}, got {variant!r}")
    return variant


def svt_noise_scales(epsilon: float, sensitivity: float = 1.0, variant: str = "correct") -> tuple[float, float]:
    """``(threshold scale, query scale)`` of ``variant`` at ``epsilon``; 0 means no noise.

    Chapter: *Testing privately, and releasing what is stable*.

    >>> svt_noise_scales(1.0)
    (2.0, 4.0)
    >>> svt_noise_scales(0.5, variant="no-query-noise")
    (4.0, 0.0)
    """
    variant = _variant(variant)
    epsilon = as_positive(epsilon, "epsilon")
    delta_q = as_positive(sensitivity, "sensitivity")
    rho = 0.0 if variant == "no-threshold-noise" else 2.0 * delta_q / epsilon
    nu = 0.0 if variant == "no-query-noise" else 4.0 * delta_q / epsilon
    return rho, nu


def _answers(answers, name: str = "answers") -> np.ndarray:
    q = np.asarray(answers, dtype=float)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)):
        raise ValueError(f"{name} must be a non-empty 1-D sequence of finite numbers, got {answers!r}")
    return q


def _finite(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def above_threshold(answers: ArrayLike, threshold: float, epsilon: float, rng: np.random.Generator,
                    sensitivity: float = 1.0, variant: str = "correct") -> list[bool | float]:
    """Run AboveThreshold (or one of its broken variants) over the answers, in order.

    Chapter: *Testing privately, and releasing what is stable*.

    ε-DP for ``variant="correct"`` when every query has sensitivity at most
    ``sensitivity`` (Dwork and Roth 2014, Sec. 3.6; proved in the chapter);
    the other variants are **not** ε-DP (the chapter computes their loss).

    Parameters
    ----------
    answers : sequence of float
        The exact answers ``f_1(x), ..., f_d(x)`` (the analyst's queries on the data).
    threshold : float
        The public threshold ``η``.
    epsilon : float
    rng : numpy.random.Generator
    sensitivity : float
        Δ, the largest change of any one query between neighbours.
    variant : str
        A key of :data:`SVT_VARIANTS`.

    Returns
    -------
    list
        One entry per query answered: ``False`` (⊥), ``True`` (⊤), or for
        ``"noisy-value"`` the released noisy value (a float) in place of the
        final ⊤.  It stops after the first ⊤ except for ``"keep-going"``.
    """
    variant = _variant(variant)
    q = _answers(answers)
    threshold = _finite(threshold, "threshold")
    rng = check_rng(rng)
    b_rho, b_nu = svt_noise_scales(epsilon, sensitivity, variant)
    noisy_t = threshold + (laplace_noise(b_rho, rng) if b_rho > 0 else 0.0)
    out = []
    for qi in q:
        noisy_q = qi + (laplace_noise(b_nu, rng) if b_nu > 0 else 0.0)
        above = noisy_q >= noisy_t
        if above and variant == "noisy-value":
            out.append(float(noisy_q))
            return out
        out.append(bool(above))
        if above and variant != "keep-going":
            return out
    return out


def sparse_vector(answers: ArrayLike, threshold: float, epsilon: float, c: int, rng: np.random.Generator,
                  sensitivity: float = 1.0) -> list[bool]:
    """Sparse vector: up to ``c`` ⊤, by ``c`` runs of AboveThreshold with ``ε/c`` each.

    Chapter: *Testing privately, and releasing what is stable*.  ε-DP by
    composition (Dwork and Roth 2014, Sec. 3.6, algorithm *Sparse*): after
    each ⊤ the threshold noise is drawn afresh.

    Returns
    -------
    list of bool
        ⊥ (False) / ⊤ (True) for each query answered; it stops at the
        ``c``-th ⊤ or when the queries run out.
    """
    q = _answers(answers)
    c = as_int(c, "c", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    rng = check_rng(rng)
    out: list[bool] = []
    while len(out) < len(q) and sum(out) < c:
        out.extend(bool(v) for v in above_threshold(q[len(out):], threshold, epsilon / c, rng, sensitivity))
    return out


def variant_outputs(variant: str, m: int) -> list[tuple[bool, ...]]:
    """Every output pattern of ``variant`` on ``m`` queries (a noisy value's position counts as ⊤).

    >>> variant_outputs("correct", 2)
    [(True,), (False, True), (False, False)]
    """
    m = as_int(m, "m", minimum=1)
    if _variant(variant) == "keep-going":
        return list(itertools.product((True, False), repeat=m))
    return [(False,) * k + (True,) for k in range(m)] + [(False,) * m]


def output_probability(answers: ArrayLike, threshold: float, pattern: Sequence[bool], epsilon: float,
                       sensitivity: float = 1.0, variant: str = "correct", value: float | None = None) -> float:
    """The exact probability that ``variant`` outputs ``pattern`` (or its density at a noisy ``value``).

    Chapter: *Testing privately, and releasing what is stable*.

    ``P = ∫ p_0(s) ∏_{i ⊥} P(f_i(x) + Z_i < η + s) ∏_{i ⊤} P(f_i(x) + Z_i ≥ η + s) ds``
    with ``p_0`` the density of the threshold noise ``Z_0`` and ``Z_i`` the
    queries' noise; for ``"noisy-value"`` the last factor is the density of
    ``f_j(x) + Z_j`` at ``value`` times ``1[value ≥ η + s]``.  Computed in closed form
    (:func:`dpsens.mechanisms.piecewise.integrate`), or as a product when
    the threshold has no noise.

    Parameters
    ----------
    answers : sequence of float
        ``f_1(x), ..., f_d(x)`` (at least as many as ``pattern`` is long).
    pattern : sequence of bool
        ⊥ (False) / ⊤ (True) for the first ``len(pattern)`` queries.
    value : float, optional
        Only for ``"noisy-value"`` with a pattern ending in ⊤: the released value.
    """
    variant = _variant(variant)
    q = _answers(answers)
    pattern = tuple(bool(p) for p in pattern)
    if not pattern or len(pattern) > len(q):
        raise ValueError(f"pattern must hold between 1 and {len(q)} entries, got {len(pattern)}")
    if variant != "keep-going" and any(pattern[:-1]):
        raise ValueError(f"variant {variant!r} stops at the first ⊤: a ⊤ may only come last")
    if variant != "keep-going" and not pattern[-1] and len(pattern) != len(q):
        raise ValueError("a pattern without ⊤ must answer every query")
    noisy_value = variant == "noisy-value" and pattern[-1]
    if not noisy_value and value is not None:
        raise ValueError("value is only for variant 'noisy-value' with a pattern ending in ⊤")
    z = _finite(value, "value") if noisy_value else math.nan      # the released value (noisy-value only)
    threshold = _finite(threshold, "threshold")
    b_rho, b_nu = svt_noise_scales(epsilon, sensitivity, variant)
    factors, constant = [], 1.0
    for i, above in enumerate(pattern):
        s = q[i] - threshold               # ⊥ at i  <=>  q_i + ν_i < T + r  <=>  ν_i < r - s  (r: threshold noise)
        if noisy_value and i == len(pattern) - 1:
            constant = float(np.exp(-abs(z - q[i]) / b_nu) / (2 * b_nu))        # density of q_k + ν_k at value
            factors.append(step_below(z - threshold))                          # and value >= T + r
        elif b_nu == 0.0:
            factors.append(step_below(s) if above else step_above(s))          # ⊤: r <= s; ⊥: r > s
        else:
            factors.append(laplace_sf(s, b_nu) if above else laplace_cdf(s, b_nu))
    if b_rho == 0.0:
        return _at_zero(factors) * constant
    return integrate(factors + [laplace_pdf_factor(0.0, b_rho)], constant)


def _at_zero(factors) -> float:
    """The product of the factors at ``r = 0`` (a threshold without noise)."""
    out = 1.0
    for f in factors:
        if f.kind == "below":
            out *= 1.0 if 0.0 < f.shift else 0.0
        elif f.kind == "above":
            out *= 1.0 if 0.0 >= f.shift else 0.0
        else:
            z = (0.0 - f.shift) / f.scale
            cdf = 0.5 * math.exp(z) if z < 0 else 1.0 - 0.5 * math.exp(-z)
            out *= cdf if f.kind == "laplace_cdf" else 1.0 - cdf
    return out


def _pattern_text(pattern, value=None) -> str:
    text = "".join("⊤" if p else "⊥" for p in pattern)
    return text if value is None else f"{text[:-1]}z={value:g}"


def exact_privacy_loss(answers_x: ArrayLike, answers_xprime: ArrayLike, threshold: float, epsilon: float,
                       sensitivity: float = 1.0, variant: str = "correct",
                       values: ArrayLike | None = None) -> pd.DataFrame:
    """Every output of ``variant`` on the answers of two neighbours, with its exact probabilities and loss.

    Chapter: *Testing privately, and releasing what is stable*.

    Parameters
    ----------
    answers_x, answers_xprime : sequence of float
        The answers ``q_i(x)`` and ``q_i(x')`` of the same queries on two
        neighbouring datasets (each pair at most ``sensitivity`` apart).
    threshold, epsilon, sensitivity, variant :
        As in :func:`above_threshold`.
    values : sequence of float, optional
        For ``"noisy-value"``: the released values at which the densities are
        compared (the output is continuous, so the table holds a grid of
        them; any one output whose loss exceeds ε already breaks ε-DP).

    Returns
    -------
    pandas.DataFrame
        One row per output: ``output`` (e.g. ``"⊥⊥⊤"``), ``p_x``, ``p_xprime``
        (probabilities, or densities at a noisy value) and ``loss`` =
        ``ln(p_x / p_xprime)`` (``±inf`` when one of them is 0; outputs
        impossible under both are left out).
    """
    variant = _variant(variant)
    qx, qy = _answers(answers_x, "answers_x"), _answers(answers_xprime, "answers_xprime")
    if qx.shape != qy.shape:
        raise ValueError(f"answers_x and answers_xprime must have the same length, got {qx.size} and {qy.size}")
    delta_q = as_positive(sensitivity, "sensitivity")
    if np.max(np.abs(qx - qy)) > delta_q * (1 + 1e-12):
        raise ValueError(f"each query may move by at most sensitivity = {delta_q:g} between neighbours, "
                         f"got a change of {np.max(np.abs(qx - qy)):g}")
    if variant == "noisy-value":
        if values is None or np.size(values) == 0:
            raise ValueError("variant 'noisy-value' needs the released values to compare (values=[...])")
        values = [_finite(float(v), "values") for v in np.ravel(values)]
    elif values is not None:
        raise ValueError("values is only for variant 'noisy-value'")
    rows = []
    for (label, px), (_, py) in zip(_all_outputs(qx, threshold, epsilon, delta_q, variant, values),
                                    _all_outputs(qy, threshold, epsilon, delta_q, variant, values), strict=True):
        if px == 0.0 and py == 0.0:
            continue
        loss = math.inf if py == 0.0 else (-math.inf if px == 0.0 else math.log(px / py))
        rows.append({"output": label, "p_x": px, "p_xprime": py, "loss": loss})
    return pd.DataFrame(rows, columns=["output", "p_x", "p_xprime", "loss"])


def _all_outputs(q, threshold, epsilon, sensitivity, variant, values) -> list[tuple[str, float]]:
    """``(output, probability)`` for every output of ``variant`` on the answers ``q`` (checked by the caller)."""
    return [(_pattern_text(pattern, v), output_probability(q, threshold, pattern, epsilon, sensitivity, variant, v))
            for pattern in variant_outputs(variant, q.size)
            for v in (values if variant == "noisy-value" and pattern[-1] else [None])]


def _losses(base, other) -> list[float]:
    out = []
    for (_, px), (_, py) in zip(base, other, strict=True):
        if px > 0.0 or py > 0.0:
            out.append(math.inf if px == 0.0 or py == 0.0 else abs(math.log(px / py)))
    return out


def worst_case_loss(answers_x: ArrayLike, answers_xprime: ArrayLike, threshold: float, epsilon: float,
                    sensitivity: float = 1.0, variant: str = "correct", values: ArrayLike | None = None) -> float:
    """The largest ``|loss|`` over every output of :func:`exact_privacy_loss` (both directions).

    Chapter: *Testing privately, and releasing what is stable*.  ``variant``
    is ε-DP on this pair exactly when the result is at most ε (for
    ``"noisy-value"``: on the grid ``values``, a lower bound on the worst case).
    """
    table = exact_privacy_loss(answers_x, answers_xprime, threshold, epsilon, sensitivity, variant, values)
    return float(np.max(np.abs(table["loss"].to_numpy())))


def sparse_vector_output_probability(answers: ArrayLike, threshold: float, pattern: Sequence[bool], epsilon: float,
                                     c: int, sensitivity: float = 1.0) -> float:
    """The exact probability that :func:`sparse_vector` outputs ``pattern``.

    Chapter: *Testing privately, and releasing what is stable*.  The
    threshold noise is fresh after each ⊤, so the probability is the product
    over the runs of AboveThreshold (each ending at a ⊤, the last possibly
    at the end of the queries) of their probabilities at ``ε/c``.
    """
    q = _answers(answers)
    c = as_int(c, "c", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    pattern = tuple(bool(p) for p in pattern)
    if not pattern or len(pattern) > len(q) or sum(pattern) > c:
        raise ValueError(f"pattern must hold 1 to {len(q)} entries with at most c = {c} ⊤, got {pattern!r}")
    if sum(pattern) < c and len(pattern) < len(q):
        raise ValueError("sparse vector answers until the c-th ⊤ or the last query: the pattern stops early")
    if sum(pattern) == c and not pattern[-1]:
        raise ValueError("sparse vector stops at the c-th ⊤: nothing may follow it")
    return math.prod(p for _, _, p in sparse_vector_runs(q, threshold, pattern, epsilon, c, sensitivity))


def sparse_vector_runs(answers: ArrayLike, threshold: float, pattern: Sequence[bool], epsilon: float, c: int,
                       sensitivity: float = 1.0) -> list[tuple[int, int, float]]:
    """The runs of AboveThreshold in a sparse-vector output: ``(start, stop, probability)`` of each.

    Chapter: *Testing privately, and releasing what is stable*.  A run covers
    the queries ``start, ..., stop − 1`` and ends at a ⊤ (or at the last
    query); its probability is that of AboveThreshold at ``ε/c`` on them.
    The output's probability is their product
    (:func:`sparse_vector_output_probability`, which checks the pattern).
    """
    q = _answers(answers)
    c = as_int(c, "c", minimum=1)
    epsilon = as_positive(epsilon, "epsilon")
    pattern = tuple(bool(p) for p in pattern)
    runs, start = [], 0
    for i, above in enumerate(pattern):
        if above or i == len(pattern) - 1:
            runs.append((start, i + 1, output_probability(q[start:], threshold, pattern[start:i + 1], epsilon / c,
                                                          sensitivity)))
            start = i + 1
    return runs


def neighbour_changes(m: int, kind: str = "exhaustive") -> list[np.ndarray]:
    """Changes ``q(x') − q(x)`` of ``m`` sensitivity-1 queries between neighbours, for the exact tests.

    Chapter: *Testing privately, and releasing what is stable*.
    ``"exhaustive"``: every vector in ``{−1, 0, 1}^m`` (``3^m`` of them);
    ``"structured"``: the vectors ``(u, ..., u, w)`` with ``u, w`` in
    ``{−1, 0, 1}`` and ``(−1, ..., −1, 1, ..., 1)`` split anywhere -- few
    enough for large ``m``.

    >>> len(neighbour_changes(3)), len(neighbour_changes(3, "structured"))
    (27, 10)
    """
    m = as_int(m, "m", minimum=1)
    if kind == "exhaustive":
        return [np.array(d, dtype=float) for d in itertools.product((-1, 0, 1), repeat=m)]
    if kind != "structured":
        raise ValueError(f"kind must be 'exhaustive' or 'structured', got {kind!r}")
    found = {(a,) * (m - 1) + (b,) for a in (-1, 0, 1) for b in (-1, 0, 1)}
    found |= {(-1,) * k + (1,) * (m - k) for k in range(m + 1)}
    return [np.array(d, dtype=float) for d in sorted(found)]


def worst_case_over_changes(m: int, epsilon: float, variant: str = "correct", kind: str = "exhaustive",
                            threshold: float = 0.0, values: ArrayLike | None = None) -> float:
    """The largest ``|loss|`` of ``variant`` over every output and every change of :func:`neighbour_changes`.

    Chapter: *Testing privately, and releasing what is stable*.  The
    answers on ``x`` are all ``threshold`` (where a query is hardest to call),
    those on ``x'`` differ by the change; sensitivity 1.
    """
    threshold = _finite(threshold, "threshold")
    base = np.full(as_int(m, "m", minimum=1), threshold)
    variant = _variant(variant)
    if (variant == "noisy-value") != (values is not None):
        raise ValueError("values (the released values to compare) go with variant 'noisy-value' only")
    if values is not None:
        values = [_finite(float(v), "values") for v in np.ravel(values)]
    reference = _all_outputs(base, threshold, epsilon, 1.0, variant, values)
    return max(max(_losses(reference, _all_outputs(base + d, threshold, epsilon, 1.0, variant, values)))
               for d in neighbour_changes(m, kind))
