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

from .._validate import as_bounds, as_data, as_positive, as_quantile, check_in_bounds, check_relation
from .checks import as_size, check_rng

__all__ = ["exponential_log_probabilities", "exponential_mechanism", "rank_utility_sensitivity",
           "quantile_rank_utility", "quantile_exponential_distribution", "quantile_exponential",
           "interval_log_probabilities_sample"]


#: below this, exp underflows to 0 in double precision (and numpy's underflow path is slow)
_EXP_FLOOR = -745.0


def _exp_below_one(d: np.ndarray) -> np.ndarray:
    """``exp(d)`` for ``d <= 0``, computed only where it does not underflow (0 elsewhere)."""
    return np.exp(d, out=np.zeros(d.shape), where=d > _EXP_FLOOR)


def _logsumexp(w: np.ndarray) -> float:
    top = np.max(w)
    if not np.isfinite(top):
        raise ValueError("every candidate has probability zero (all log-weights are -inf)")
    return float(top + np.log(np.sum(_exp_below_one(w - top))))


def exponential_log_probabilities(utilities, sensitivity, epsilon, log_base=None, monotone: bool = False):
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


def interval_log_probabilities_sample(log_p, rng, size=None):
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


def exponential_mechanism(utilities, sensitivity, epsilon, rng, log_base=None, monotone: bool = False, size=None):
    """Draw candidate indices by the exponential mechanism (see :func:`exponential_log_probabilities`).

    Chapter: *The exponential mechanism and inverse sensitivity*.

    ε-DP if ``sensitivity`` is the utility's sensitivity Δu (over every
    candidate and every pair of neighbours) and ``log_base`` does not depend
    on the data; with ``monotone=True`` only if the utility is monotone.
    """
    log_p = exponential_log_probabilities(utilities, sensitivity, epsilon, log_base, monotone)
    return interval_log_probabilities_sample(log_p, rng, size)


def rank_utility_sensitivity(q, neighbors: str = "bounded") -> float:
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
    check_relation(neighbors)
    steps = [(-1, 0), (0, 0), (1, 0)] if neighbors == "bounded" else [(1, 1), (0, 1), (-1, -1), (0, -1)]
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


def quantile_rank_utility(x, q, r, neighbors: str = "bounded"):
    """``u(x, r) = −|#{i : x_i < r} − q n|`` at the points ``r`` (a number or an array).

    Chapter: *The exponential mechanism and inverse sensitivity*.  The same
    utility for both relations; ``neighbors`` is only checked (under
    ``"unbounded"`` the size n inside is private, and so is the utility).
    """
    x = np.sort(as_data(x))
    q = as_quantile(q)
    check_relation(neighbors)
    r = np.asarray(r, dtype=float)
    out = -np.abs(np.searchsorted(x, r, side="left") - q * len(x))
    return float(out) if out.ndim == 0 else out


def quantile_exponential_distribution(x, q, epsilon, lower, upper, neighbors: str = "bounded") -> dict:
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
    neighbors : {"bounded", "unbounded"}
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


def _release_data(x, lower, upper):
    """The data of :func:`quantile_exponential` as ``(edges, ranks)``: the intervals of positive or
    zero length ``[edges[j], edges[j+1]]`` and the count of data below each (``ranks[j]``).

    Fast paths (same result as :func:`_quantile_setup`, same errors): a float64 array is sorted and
    checked at its ends only (a NaN sorts last); small-range integer data are counted with
    ``np.bincount`` (no comparison sort), keeping only the intervals of positive length, whose
    probabilities and cumulative sums are the full list's (a zero-length interval adds exactly 0).
    Anything else goes through the full checks of :func:`dpsens._validate.as_data`.
    """
    if type(x) is np.ndarray and x.ndim == 1 and x.size and x.dtype.kind in "iu":
        lo, hi = int(x.min()), int(x.max())
        if lo >= lower and hi <= upper and max(-lo, hi) <= 2**53 and hi - lo <= _COUNTING_RANGE * (x.size + 64):
            counts = np.bincount(x.astype(np.int64, copy=False) - lo)
            values = np.flatnonzero(counts)
            ranks = np.concatenate(([0], np.cumsum(counts[values])))
            edges = np.concatenate(([lower], (values + lo).astype(float), [upper]))
            return edges, ranks
    if type(x) is np.ndarray and x.ndim == 1 and x.size and x.dtype == np.float64:
        edges = np.empty(x.size + 2)                  # sorted in place between the bounds: one copy
        edges[0], edges[1:-1], edges[-1] = lower, x, upper
        edges[1:-1].sort()
        first, last = float(edges[1]), float(edges[-2])
        if lower <= first and last <= upper:          # False for a NaN (sorted last); infinities are outside
            return edges, None
    xs = np.sort(as_data(x))
    check_in_bounds(xs, lower, upper)
    return np.concatenate(([lower], xs, [upper])), None


def _release_window(n, q, factor, edges, ranks):
    """``(start, w)``: the log-weights ``w`` of the intervals ``start, start + 1, ...`` outside which every
    interval has probability exactly 0 (log-weight more than ``_NEGLIGIBLE`` below the largest).

    Each weight is computed by the same floating-point operations as :func:`_quantile_log_weights`, so
    the weights, their cumulative sums and the draws are bit for bit those of the full list.  For
    sorted data (``ranks`` None, interval ``i`` has rank ``i``) only a window around the rank ``q n``
    is computed: every interval has length at most ``upper − lower``, so interval ``i`` has log-weight at
    most ``log(upper − lower) − factor |i − q n|``, below the window's largest minus ``_NEGLIGIBLE``
    outside it.
    """
    def weights(i, left, right):
        w = i.astype(float, copy=False)
        w -= q * n
        np.abs(w, out=w)
        w *= -factor
        with np.errstate(divide="ignore"):
            w += np.log(right - left)
        return w

    if ranks is not None:
        return 0, weights(ranks, edges[:-1], edges[1:])
    centre = min(n, max(0, int(round(q * n))))
    half = 512
    if n <= 2 * half:
        return 0, weights(np.arange(n + 1, dtype=float), edges[:-1], edges[1:])
    while True:
        a, b = max(0, centre - half), min(n, centre + half)
        w = weights(np.arange(a, b + 1, dtype=float), edges[a:b + 1], edges[a + 1:b + 2])
        top = float(np.max(w))
        if np.isfinite(top) or (a == 0 and b == n):
            break
        half *= 4
    # the margin 1 of _NEGLIGIBLE, widened by the rounding of weights of a huge magnitude
    reach = (math.log(edges[-1] - edges[0]) - top + _NEGLIGIBLE + 1e-9 * (abs(top) + factor * n)) / factor
    if not np.isfinite(top) or not reach < n:
        a, b = 0, n
    else:
        a, b = min(a, max(0, math.floor(q * n - reach) - 1)), max(b, min(n, math.ceil(q * n + reach) + 1))
    return a, weights(np.arange(a, b + 1, dtype=float), edges[a:b + 1], edges[a + 1:b + 2])


def quantile_exponential(x, q, epsilon, lower, upper, rng, neighbors: str = "bounded", size=None):
    """Release the ``q`` quantile of ``x`` by the exponential mechanism with the rank utility.

    Chapter: *The exponential mechanism and inverse sensitivity*.

    ε-DP for the chosen relation (the proof is in the chapter); ``lower``
    and ``upper`` must be public.  Cost: one sort (none for integer data of
    a small range, which are counted), then ``O(n)`` at most, usually only a
    window of ``O((log((upper − lower)/gap) + 745) / ε)`` intervals around
    the rank ``q n`` (outside it every probability is exactly 0 in double
    precision); each draw one uniform number for the interval and one for
    the point inside it.  The draws are those of the exact distribution
    :func:`quantile_exponential_distribution`, bit for bit the same as
    computing every interval's weight (``tests/test_exponential.py``).

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
    factor = epsilon / (2 * rank_utility_sensitivity(q, neighbors))
    rng = check_rng(rng)
    size = as_size(size)
    edges, ranks = _release_data(x, lower, upper)
    n = len(edges) - 2 if ranks is None else int(ranks[-1])
    start, w = _release_window(n, q, factor, edges, ranks)
    w -= w.max()
    cdf = np.cumsum(_exp_below_one(w))
    total = cdf[-1]
    # the first interval whose cumulative sum exceeds the draw (never one of probability zero); a draw
    # rounded up to the total goes to the last interval of positive probability
    if size is None:                                  # Python floats: the same IEEE operations, less overhead
        i = int(np.searchsorted(cdf, rng.random() * total, side="right"))
        i = start + (i if i < len(cdf) else int(np.searchsorted(cdf, total, side="left")))
        left, right = float(edges[i]), float(edges[i + 1])
        return min(left + rng.random() * (right - left), right)
    last = int(np.searchsorted(cdf, total, side="left"))
    idx = start + np.minimum(np.searchsorted(cdf, rng.random(size=size) * total, side="right"), last)
    left, right = edges[idx], edges[idx + 1]
    out = np.minimum(left + rng.random(size=size) * (right - left), right)
    return float(out) if np.ndim(out) == 0 else out
