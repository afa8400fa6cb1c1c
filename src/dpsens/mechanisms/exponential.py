"""The exponential mechanism, and the private quantile it gives with the rank utility.

Chapter: *The exponential mechanism and inverse sensitivity* (sections on the
mechanism, on private medians and percentiles of the Adult ages, and the
comparison "which mechanism for a median?").

The exponential mechanism (McSherry & Talwar 2007) picks an output ``r`` with
probability (or density, against a base measure that does not depend on the
data) proportional to ``exp(ε u(x, r) / (2 Δu))``, where ``Δu`` is the
sensitivity of the *utility*: the largest change of ``u(x, r)`` over
neighbours ``x, x'`` and every ``r``.  It is ε-DP; when the utility is
*monotone* (between any neighbours, ``u(x', r) − u(x, r)`` has the same sign
for every ``r``) the factor 2 can be dropped.

For a quantile the outputs are the points of the public interval
``[lower, upper]`` and the utility is the **rank utility** (Smith 2011;
Gillenwater, Joseph & Kulesza 2021)::

    u(x, r) = −| #{i : x_i < r} − q n |,

constant on each interval between consecutive sorted data points.  So the
mechanism picks an interval with probability ∝ length · exp(ε u / (2Δu)) and
then a point uniformly inside it.  Intervals of length zero (ties) get
probability zero.  All weights are kept in log space and normalised by
log-sum-exp, so nothing overflows or underflows to a wrong answer at
``n = 10^6``; an interval is drawn by inverting the cumulative probabilities
with one uniform number per draw.

Assumptions, stated where they matter: ``lower`` and ``upper`` are public
(chosen without looking at the data); with ``neighbors="bounded"`` (one
record replaced) the size ``n`` is public, with ``neighbors="unbounded"``
(one record added or removed) ``n`` is private and is used only inside the
utility, whose sensitivity accounts for it.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_bounds, as_data, as_positive, as_quantile, check_in_bounds, check_rng
from .checks import Size, as_size
from ..relation import Relation, as_relation

__all__ = ["exponential_log_probabilities", "exponential_mechanism", "rank_utility_sensitivity",
           "quantile_rank_utility", "quantile_exponential_distribution", "quantile_exponential",
           "interval_log_probabilities_sample"]


#: below this, exp underflows to 0 in double precision (and numpy's underflow path is slow)
_EXP_FLOOR = -745.0


def _exp_below_one(d: np.ndarray) -> np.ndarray:
    """``exp(d)`` for ``d <= 0``, computed only where it does not underflow (0 elsewhere)."""
    out = np.zeros(d.shape)
    keep = d > _EXP_FLOOR
    out[keep] = np.exp(d[keep])
    return out


def _logsumexp(w: np.ndarray) -> float:
    top = np.max(w)
    if not np.isfinite(top):
        raise ValueError("every candidate has probability zero (all log-weights are -inf)")
    return float(top + np.log(np.sum(_exp_below_one(w - top))))


def exponential_log_probabilities(utilities: ArrayLike, sensitivity: float, epsilon: float,
                                  log_base: ArrayLike | None = None, monotone: bool = False) -> np.ndarray:
    """Log-probabilities of the exponential mechanism over a finite list of candidates.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    ``log P(r) = log_base(r) + c ε u(r) / Δu − log Z`` with ``c = 1/2``, or
    ``c = 1`` if ``monotone`` (a monotone utility, see the module docstring);
    ``log_base`` (e.g. the log-length of an interval) defaults to 0.
    ``−inf`` log-weights are allowed (candidates of probability zero).
    """
    u = np.asarray(utilities, dtype=float)
    if u.ndim != 1 or u.size == 0:
        raise ValueError("utilities must be a non-empty 1-D sequence of numbers")
    if np.any(np.isnan(u)) or np.any(u == np.inf):
        raise ValueError("utilities must be finite numbers or -inf")
    sensitivity = as_positive(sensitivity, "sensitivity")
    epsilon = as_positive(epsilon, "epsilon")
    factor = (1.0 if monotone else 0.5) * epsilon / sensitivity
    w = factor * u                     # -inf stays -inf (factor > 0)
    if log_base is not None:
        b = np.asarray(log_base, dtype=float)
        if b.shape != u.shape or np.any(np.isnan(b)) or np.any(b == np.inf):
            raise ValueError("log_base must have the shape of utilities and hold finite numbers or -inf")
        w = w + b
    return w - _logsumexp(w)


def interval_log_probabilities_sample(log_p: np.ndarray, rng: np.random.Generator,
                                      size: Size = None) -> int | np.ndarray:
    """Indices drawn with probabilities ``∝ exp(log_p)`` (normalised or not): one uniform number per
    draw, inverted on the cumulative sums.

    Chapter: *The exponential mechanism and inverse sensitivity*.  Exact up to
    floating-point rounding of the cumulative sums (relative 1e-16 per term).
    """
    rng = check_rng(rng)
    size = as_size(size)
    cdf = np.cumsum(_exp_below_one(log_p - np.max(log_p)))
    draw = rng.random(size=size) * cdf[-1]
    # the first index whose cumulative sum exceeds the draw: never a probability-zero candidate
    # (its cumulative sum equals its predecessor's, which already exceeds the draw)
    idx = np.minimum(np.searchsorted(cdf, draw, side="right"), len(cdf) - 1)
    return int(idx) if np.ndim(idx) == 0 else idx


def exponential_mechanism(utilities: ArrayLike, sensitivity: float, epsilon: float, rng: np.random.Generator,
                          log_base: ArrayLike | None = None, monotone: bool = False,
                          size: Size = None) -> int | np.ndarray:
    """Draw candidate indices by the exponential mechanism (see :func:`exponential_log_probabilities`).

    Chapter: *The exponential mechanism and inverse sensitivity*.

    ε-DP if ``sensitivity`` is the utility's sensitivity Δu (over every
    candidate and every pair of neighbours) and ``log_base`` does not depend
    on the data; with ``monotone=True`` only if the utility is monotone.
    """
    log_p = exponential_log_probabilities(utilities, sensitivity, epsilon, log_base, monotone)
    return interval_log_probabilities_sample(log_p, rng, size)


def rank_utility_sensitivity(q: float, neighbors: Relation | str = Relation.BOUNDED) -> float:
    """The sensitivity of the rank utility ``−|#{x_i < r} − q n|``, computed over the kinds of step.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    One step changes the count below ``r`` by ``d`` and the size by ``dn``:
    replacing a record gives ``(d, dn)`` in ``{(−1, 0), (0, 0), (1, 0)}``;
    adding one ``(1, 1)`` or ``(0, 1)``, removing one ``(−1, −1)`` or
    ``(0, −1)``.  ``|u(x, r) − u(x', r)| <= |d − q dn|`` (triangle
    inequality), and each of the listed changes happens for some data and
    ``r`` with equality, so ``Δu`` is the largest ``|d − q dn|``: 1 for
    replacement, ``max(q, 1 − q)`` for additions and removals.
    """
    q = as_quantile(q)
    neighbors = as_relation(neighbors)
    steps = [(-1, 0), (0, 0), (1, 0)] if neighbors is Relation.BOUNDED else [(1, 1), (0, 1), (-1, -1), (0, -1)]
    return max(abs(d - q * dn) for d, dn in steps)


def _quantile_setup(x, q, lower, upper):
    xs = np.sort(as_data(x))
    q = as_quantile(q)
    lower, upper = as_bounds(lower, upper)
    if not lower < upper:
        raise ValueError(f"lower must be < upper (the outputs are the points of [lower, upper]), "
                         f"got lower = upper = {lower!r}")
    if xs[0] < lower or xs[-1] > upper:          # the sorted ends suffice; the full check names a value
        check_in_bounds(xs, lower, upper)
    return xs, q, lower, upper


def _quantile_log_weights(xs, q, factor, lower, upper):
    """``(edges, w)``: interval ``i`` is ``[edges[i], edges[i+1]]`` with log-weight
    ``w[i] = log(length) − factor |i − q n|`` (``factor = ε / (2 GS_U)``), in a few passes over memory."""
    n = len(xs)
    edges = np.concatenate(([lower], xs, [upper]))
    w = np.arange(n + 1, dtype=float)
    w -= q * n
    np.abs(w, out=w)
    w *= -factor
    with np.errstate(divide="ignore"):
        w += np.log(np.diff(edges))
    return edges, w


def quantile_rank_utility(x: ArrayLike, q: float, r: ArrayLike,
                          neighbors: Relation | str = Relation.BOUNDED) -> float | np.ndarray:
    """``u(x, r) = −|#{i : x_i < r} − q n|`` at the points ``r`` (a number or an array).

    Chapter: *The exponential mechanism and inverse sensitivity*.  The same
    utility for both relations; ``neighbors`` is only checked (under
    ``"unbounded"`` the size n inside is private, and so is the utility).
    """
    x = np.sort(as_data(x))
    q = as_quantile(q)
    neighbors = as_relation(neighbors)
    r = np.asarray(r, dtype=float)
    out = -np.abs(np.searchsorted(x, r, side="left") - q * len(x))
    return float(out) if out.ndim == 0 else out


def quantile_exponential_distribution(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float,
                                      neighbors: Relation | str = Relation.BOUNDED) -> dict:
    """The exact output distribution of the exponential-mechanism quantile.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    Parameters
    ----------
    x : array_like
        Non-empty data inside ``[lower, upper]``.
    q : float
        The quantile, in (0, 1).
    epsilon : float
    lower, upper : float
        Public bounds, ``lower < upper``.
    neighbors : Relation or {"bounded", "unbounded"}
        Fixes ``Δu`` (:func:`rank_utility_sensitivity`).

    Returns
    -------
    dict
        ``left``, ``right`` (the ``n + 1`` intervals between ``lower``, the
        sorted data and ``upper``), ``utility`` (rank utility inside each),
        ``log_prob`` (log-probability of each interval; ``−inf`` for length
        0), ``sensitivity`` (Δu).  Inside an interval the output is uniform.
    """
    xs, q, lower, upper = _quantile_setup(x, q, lower, upper)
    epsilon = as_positive(epsilon, "epsilon")
    neighbors = as_relation(neighbors)
    du = rank_utility_sensitivity(q, neighbors)
    edges, w = _quantile_log_weights(xs, q, epsilon / (2 * du), lower, upper)
    utility = -np.abs(np.arange(len(xs) + 1) - q * len(xs))
    return {"left": edges[:-1], "right": edges[1:], "utility": utility, "log_prob": w - _logsumexp(w),
            "sensitivity": du}


#: intervals whose log-weight is this far below the largest get probability exactly 0 in
#: :func:`interval_log_probabilities_sample` (``exp`` of it underflows; see ``_EXP_FLOOR``), with a margin of 1
_NEGLIGIBLE = -_EXP_FLOOR + 1.0

#: integer data whose range is at most this many times n (plus this many) are counted, not sorted
_COUNTING_RANGE = 4

#: float data at least this long are partitioned around the rank q n rather than sorted whole
_PARTITION_MIN = 4096


def _log_weights(i, edges, q, n, factor):
    """Log-weights ``log(length) − factor |i − q n|`` of the intervals ``[edges[j], edges[j+1]]`` of ranks
    ``i`` (floats), by the same floating-point operations as :func:`_quantile_log_weights`."""
    w = i - q * n
    np.abs(w, out=w)
    w *= -factor
    with np.errstate(divide="ignore"):
        w += np.log(edges[1:] - edges[:-1])
    return w


def _window(n, q, factor, edges_between, span, limit=None):
    """``(i, w, edges)`` for the intervals ``a..b`` of sorted data outside which every interval has
    probability exactly 0, or ``None`` if that window is wider than ``limit``.

    ``edges_between(a, b)`` returns the points ``lower, x_(0), ..., x_(n−1), upper`` from place ``a``
    to ``b + 1``; ``span`` is ``upper − lower``.  Every interval has length at most ``upper − lower``, so interval ``i`` has
    log-weight at most ``log(upper − lower) − factor |i − q n|``: more than ``_NEGLIGIBLE`` below the
    largest weight of a first window around ``q n`` outside the final one, where ``exp`` of the
    difference underflows and :func:`interval_log_probabilities_sample` would give it 0 too.
    """
    def at(a, b):
        edges = edges_between(a, b)
        i = np.arange(a, b + 1, dtype=float)
        return i, _log_weights(i, edges, q, n, factor), edges

    # a first window as wide as the final one is for gaps of the typical (upper − lower) / n
    guess = (math.log(n) + _NEGLIGIBLE) / factor
    half = int(guess) + 32 if guess < n else n
    if n <= 2 * half or n <= 1024:
        return at(0, n)
    centre = min(n, max(0, int(round(q * n))))
    while True:
        a0, b0 = max(0, centre - half), min(n, centre + half)
        i, w, edges = at(a0, b0)
        top = float(np.max(w))
        if np.isfinite(top) or (a0 == 0 and b0 == n):
            break
        half *= 4
    if not np.isfinite(top):
        return None if limit is not None and n > limit else (i, w, edges)
    # the margin 1 of _NEGLIGIBLE, widened by the rounding of weights of a huge magnitude
    reach = (math.log(span) - top + _NEGLIGIBLE + 1e-9 * (abs(top) + factor * n)) / factor
    a, b = (0, n) if not reach < n else (max(0, math.floor(q * n - reach) - 1), min(n, math.ceil(q * n + reach) + 1))
    if a0 <= a and b <= b0:                           # inside the first window: a slice of it
        return i[a - a0:b - a0 + 1], w[a - a0:b - a0 + 1], edges[a - a0:b - a0 + 2]
    if limit is not None and b - a > limit:
        return None
    return at(a, b)


def _partitioned(x, lower, upper):
    """``edges_between`` of :func:`_window` for float data, by partial sorting (``numpy.partition``) of a
    copy: the order statistics of places ``a − 1..b`` only, exactly those of a full sort."""
    y = x.copy()
    n = len(y)

    def edges_between(a, b):
        i0, i1 = max(a - 1, 0), min(b, n - 1)
        y.partition([i0, i1] if i0 < i1 else [i0])
        inner = np.sort(y[i0:i1 + 1])
        return np.concatenate(([lower] if a == 0 else [], inner, [upper] if b == n else []))
    return y, edges_between


def _release_intervals(x, q, factor, lower, upper):
    """``(i, w, edges)``: interval ``j`` is ``[edges[j], edges[j+1]]``, holds ``i[j]`` data below it and
    has log-weight ``w[j]``; every interval left out has probability exactly 0.

    Fast paths (same results as :func:`_quantile_setup` with :func:`_quantile_log_weights`, same
    errors): small-range integer data are counted with ``np.bincount`` (no comparison sort), giving the
    intervals between distinct values (the zero-length ones left out add exactly 0 to every cumulative
    sum); long float64 data are partitioned around the rank ``q n`` and only the window of
    :func:`_window` is sorted; other float64 data are sorted in place between the bounds and checked
    at their ends (a NaN sorts last).  Anything else goes through :func:`dpsens._validate.as_data`.
    """
    plain = type(x) is np.ndarray and x.ndim == 1 and x.size
    if plain and x.dtype.kind in "iu":
        lo, hi = int(x.min()), int(x.max())
        if lo >= lower and hi <= upper and max(-lo, hi) <= 2**53 and hi - lo <= _COUNTING_RANGE * (x.size + 64):
            counts = np.bincount(x.astype(np.int64, copy=False) - lo)
            values = np.flatnonzero(counts)
            i = np.concatenate(([0], np.cumsum(counts[values]))).astype(float)
            edges = np.concatenate(([lower], (values + lo).astype(float), [upper]))
            return i, _log_weights(i, edges, q, len(x), factor), edges
    # partition when the window (guessed with typical gaps (upper − lower)/n; the guess only picks the
    # path) is under half the data
    if plain and x.dtype == np.float64 and x.size >= _PARTITION_MIN and \
            4 * (math.log(x.size) + _NEGLIGIBLE) / factor < x.size:
        lo, hi = float(x.min()), float(x.max())      # NaN for a NaN: refused by the comparisons
        if lower <= lo and hi <= upper:
            y, between = _partitioned(x, lower, upper)
            found = _window(len(x), q, factor, between, upper - lower, limit=len(x) // 2)
            if found is not None:
                return found
            y.sort()
            edges = np.concatenate(([lower], y, [upper]))
            return _window(len(x), q, factor, lambda a, b: edges[a:b + 2], upper - lower)
    edges = None
    if plain and x.dtype == np.float64:
        edges = np.empty(x.size + 2)                  # sorted in place between the bounds: one copy
        edges[0], edges[1:-1], edges[-1] = lower, x, upper
        edges[1:-1].sort()
        if not (lower <= float(edges[1]) and float(edges[-2]) <= upper):
            edges = None
    if edges is None:
        xs = np.sort(as_data(x))
        check_in_bounds(xs, lower, upper)
        edges = np.concatenate(([lower], xs, [upper]))
    return _window(len(edges) - 2, q, factor, lambda a, b: edges[a:b + 2], upper - lower)


def quantile_exponential(x: ArrayLike, q: float, epsilon: float, lower: float, upper: float, rng: np.random.Generator,
                         neighbors: Relation | str = Relation.BOUNDED, size: Size = None) -> float | np.ndarray:
    """Release the ``q`` quantile of ``x`` by the exponential mechanism with the rank utility.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    ε-DP for the chosen relation (the proof is in the chapter); ``lower``
    and ``upper`` must be public.  Cost: at most one sort and ``O(n)``;
    integer data of a small range are counted instead (``np.bincount``),
    and only the window of ``O((log((upper − lower)/gap) + 745) / ε)``
    intervals around the rank ``q n`` is weighted (outside it every
    probability is exactly 0 in double precision), for long float data after
    a partition (``numpy.partition``) rather than a sort when the window is
    under half the data.  Each draw takes one uniform number for the
    interval and one for the point inside it.  The draws are those of the
    exact distribution :func:`quantile_exponential_distribution`, bit for
    bit what computing every interval's weight gives
    (``tests/package/test_quantile_release.py``).

    Returns
    -------
    float, or numpy.ndarray of ``size`` draws.
    """
    q = as_quantile(q)
    epsilon = as_positive(epsilon, "epsilon")
    lower, upper = as_bounds(lower, upper)
    if not lower < upper:
        raise ValueError(f"lower must be < upper (the outputs are the points of [lower, upper]), "
                         f"got lower = upper = {lower!r}")
    neighbors = as_relation(neighbors)
    factor = epsilon / (2 * rank_utility_sensitivity(q, neighbors))
    rng = check_rng(rng)
    size = as_size(size)
    _, w, edges = _release_intervals(x, q, factor, lower, upper)
    w -= w.max()
    # when nothing underflows, exp of the whole array: the same values as _exp_below_one, in one pass
    cdf = np.cumsum(np.exp(w) if w.min() > _EXP_FLOOR else _exp_below_one(w))
    total = cdf[-1]
    # the first interval whose cumulative sum exceeds the draw (never one of probability zero); a draw
    # rounded up to the total goes to the last interval of positive probability
    if size is None:                                  # Python floats: the same IEEE operations, less overhead
        i = int(np.searchsorted(cdf, rng.random() * total, side="right"))
        i = i if i < len(cdf) else int(np.searchsorted(cdf, total, side="left"))
        left, right = float(edges[i]), float(edges[i + 1])
        return min(left + rng.random() * (right - left), right)
    last = int(np.searchsorted(cdf, total, side="left"))
    idx = np.minimum(np.searchsorted(cdf, rng.random(size=size) * total, side="right"), last)
    left, right = edges[idx], edges[idx + 1]
    out = np.minimum(left + rng.random(size=size) * (right - left), right)
    return float(out) if np.ndim(out) == 0 else out
