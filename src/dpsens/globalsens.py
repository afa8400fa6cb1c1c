"""Exact global sensitivity of the ten queries.

Chapter: *Global sensitivity from scratch*.

Global sensitivity is the largest local sensitivity over every release of
size ``n`` from the universe.  Enumerating the releases is hopeless for a
realistic :class:`~dpsens.Domain` (ages 0..100 with ``n = 100`` have about
``10^59`` releases), so for a domain each query comes with an argument that
names a small family of releases and neighbours containing a worst case.
Write ``lo`` and ``hi`` for the smallest and largest value of the universe and
``w = hi - lo`` for its width.

Domain
------
``count``
    ``k`` (unbounded), ``0`` (bounded).

``sum``
    Unbounded: ``k * max(|lo|, |hi|)`` -- removing or adding ``k`` records
    changes the sum by their total; ``n`` copies of the extreme of largest
    magnitude realise it.  Bounded: ``k * w``, from ``k`` records moved from
    ``lo`` to ``hi``.

``mean``, ``median``, ``percentile_p``
    Each is a weighted sum ``sum_i c_i y_(i)`` of order statistics with
    ``c_i >= 0`` and ``sum_i c_i = 1``.  Writing ``y_(i) = lo + int_lo^hi
    1[y_(i) > s] ds`` gives the *layer-cake* identity ``f(y) = lo +
    int_lo^hi f(1[y > s]) ds``: thresholding at ``s`` turns a dataset into a
    0/1 dataset, and a neighbour into a neighbour of the thresholded release
    (in the domain {0, 1}).  Hence ``|f(x) - f(x')| <= w * G``, where ``G`` is
    the global sensitivity over the domain {0, 1}, and the bound is attained
    by ``x = lo + w z`` for the worst 0/1 release ``z`` and its worst
    neighbour.  A 0/1 release is fixed by its number of ones ``t``, and its
    neighbours only move ``t`` and the size, so ``G`` is a maximum over
    ``t = 0..n`` of closed forms.  For the mean this gives ``k w / n`` for
    both relations.

``var``
    Write a pair of neighbours as ``x = K + R`` and ``x' = K + A`` (common
    part ``K``; for removal ``A`` is empty, for addition ``R`` is).

    * Unbounded, variance *up* (``var(K + R) - var(K)``, ``|R| = r``):
      ``var(K + R) - var(K) = -(r/N) var(K) + (r/N) var(R) + (m r / N^2)
      (mean K - mean R)^2`` with ``m = |K|``, ``N = m + r``.  For a given
      mean of ``K`` the best ``K`` has zero variance, and the last term is
      largest when that mean is ``lo`` or ``hi``: ``K`` is ``m`` copies of an
      extreme.  The variance is convex in each element of ``R``, so ``R``
      lies on ``{lo, hi}``.  Candidates: two-valued datasets.
    * Unbounded, variance *down* (``var(K) - var(K + R)``): for fixed ``K``
      the best ``R`` minimises ``var(K + R)``, which is ``r`` copies of the
      domain value closest to the mean (argument (ii) of
      :mod:`dpsens.local`).  With ``R = r`` copies of ``d``, the objective is
      convex in each element of ``K`` when ``|K| >= 2`` (its second
      derivative is a positive multiple of ``m - 1 - m/N``), so ``K`` lies
      on ``{lo, hi}``; for ``|K| = 1`` it is at most 0.  Candidates:
      ``(m + 1) |D|``.
    * Bounded (``var(K + R) - var(K + A)``, ``|R| = |A| = k``; fewer
      replacements are included by adding back removed values): ``A`` is
      ``k`` copies of one value ``d`` as above; the variance is convex in each
      element of ``R``, so ``R`` lies on ``{lo, hi}``; and the difference is
      *linear* in each element of ``K`` (both datasets have ``n`` records, so
      the quadratic terms cancel), so ``K`` lies on ``{lo, hi}``.
      Candidates: ``(n - k + 1)(k + 1)|D|``.

``std``
    * Unbounded, *up*: as for the variance (``sqrt(var(K+R)) - sqrt(var(K))``
      decreases with ``var(K)`` at fixed means, and the same two-valued
      candidates remain).  *Down*: ``var(K + R) >= (m/N) var(K)``, so
      ``std(K) - std(K + R) <= std(K) (1 - sqrt(m/N)) <= (w/2)(1 -
      sqrt(m/N))`` (Popoviciu: a standard deviation on ``[lo, hi]`` is at
      most ``w/2``).  The engine checks that this bound does not exceed the
      *up* value it found (it never does: ``sqrt(r(1-r)) >= (1 - sqrt(r))/2``
      for ``r >= 1/2``), so the *up* value is the global sensitivity; if the
      check ever failed it would raise rather than guess.
    * Bounded: ``A`` is ``k`` copies of ``d`` and ``R`` lies on ``{lo, hi}``
      as for the variance.  For ``K`` the objective depends on ``(sum K,
      sum K^2)`` and, where it is positive, *decreases* in ``sum K^2`` at a
      fixed sum; so it is at most its value on the lower boundary of the
      convex hull of the achievable pairs, made of segments between
      ``|K|`` copies of two adjacent domain values.  Along a segment both
      variances are concave quadratics with the same leading coefficient,
      and at any critical point of ``sqrt(V1) - sqrt(V2)`` with ``V1 > V2``
      the second derivative is ``-(a + rho^2/4)(1/sqrt(V1) - 1/sqrt(V2)) >
      0``: a minimum.  So the maximum is at a segment end -- ``K`` is
      ``n - k`` copies of one domain value ``d'``.  Candidates:
      ``(k + 1)|D|^2``.

The engine does not walk through these candidates one by one.  On the
domain mapped to ``[-1, 1]``, each family is a quadratic in the number of
records at ``lo`` (concave, or linear in ``sum K`` for the bounded
variance), so its best member is one of the integers next to the top of the
parabola or an end of the range: a handful of candidates per domain value
(per pair of values for the bounded std).  The cost is ``O(|D|)``
(``O(|D|^2)``) whatever ``n`` and ``k`` are, and the differences are computed
as differences (no cancellation between two variances of size ``w^2`` when
the answer is of size ``w^2 k / n``).  For the order statistics, the maximum
over ``t = 0..n`` is likewise a maximum over the integers next to the
breakpoints of a few piecewise-linear functions of ``t``.  Values beyond the
floats (for example the sum on ``Domain([-1e308, 1e308])`` with ``k = 2``)
raise a ``ValueError`` rather than return ``inf``; ``n`` is at most
``10**300`` on a domain.

Pool
----
A pool whose every distinct value occurs at least ``n + k`` times behaves
exactly like the domain of its distinct values (every release and every
neighbour fits in it), and the domain arguments apply.  Otherwise:

* ``count``, ``sum``, ``mean`` have closed forms: the worst release holds the
  extreme records of the pool (``R`` = the ``k`` largest records and the rest
  of the release the smallest ones, or the mirror image, and so on; see
  :func:`_pool_sum_mean`).
* The other queries enumerate the distinct releases (at most
  ``max_releases``) with the exact local sensitivity of :mod:`dpsens.local`;
  beyond that limit a ``ValueError`` says so (no argument is available that
  would not risk a number that is too small).

A pool whose magnitudes are near the float limits (beyond ``2**1000``, or
outside ``[2**-400, 2**400]`` for ``var`` and ``std``) is divided by a power
of two (exact), and the answer multiplied back (every query is positively
homogeneous); an answer beyond the floats raises ``ValueError``.
"""
from __future__ import annotations

from math import comb
from typing import Callable

import numpy as np

from ._validate import as_int, check_result, rescaled_rounding, scale_back
from .local import available_values, local_sensitivity_sorted
from .neighbors import Domain, Pool, check_universe, count_releases, releases
from .queries import PERCENTILES, Query, check_query, rescale_exponent, scaling_degree
from .relation import Relation, as_relation

__all__ = ["exact_global_sensitivity", "MAX_RELEASES"]

#: Default limit on the releases enumerated for a pool (see
#: :func:`exact_global_sensitivity`).
MAX_RELEASES = 100_000

#: Largest release size ``n`` accepted on a Domain: every closed form below
#: costs the same for any ``n`` (and ``k``), but ``k / n`` and ``k * w`` must
#: stay within the floats.
MAX_DOMAIN_N = 10**300


# ------------------------------------------------------------ domain: order statistics

def _binary_quantile(z: int, N: int, p) -> int:
    """100 x percentile ``p`` (``None``: median) of ``z`` zeros and ``N - z`` ones (exact integers)."""
    if p is None:
        return 50 * (int((N - 1) // 2 >= z) + int(N // 2 >= z))
    return min(max((N - 1) * p - 100 * (z - 1), 0), 100)


def _binary_options(z: int, n: int, k: int, p, neighbors: Relation) -> list:
    """The query on the extreme neighbours of ``z`` zeros and ``n - z`` ones."""
    t = n - z
    if neighbors is Relation.UNBOUNDED:
        return [_binary_quantile(z - min(k, z), n - k, p),          # remove zeros first
                _binary_quantile(z - (k - min(k, t)), n - k, p),    # remove ones first
                _binary_quantile(z, n + k, p),                      # add ones
                _binary_quantile(z + k, n + k, p)]                  # add zeros
    return [_binary_quantile(z - min(k, z), n, p),                  # zeros -> ones
            _binary_quantile(z + min(k, t), n, p)]                  # ones -> zeros


def _binary_global(p, n: int, k: int, neighbors: Relation) -> float:
    """Global sensitivity of a percentile on the domain {0, 1} (layer-cake reduction).

    A 0/1 release is fixed by its number of zeros ``z``; the query on it and
    on each extreme neighbour is, as a function of ``z``, piecewise linear
    (the median: piecewise constant) with its pieces ending where the
    neighbour's zeros ``z' = z + s`` (``s`` in ``{0, k, -k}``, or a
    constant) cross a breakpoint of the percentile of ``N' = n - k, n, n + k``
    records (``z' = floor((N'-1) p / 100)`` and the next one; for the median
    ``(N'-1) // 2`` and ``N' // 2``), or where ``z`` or ``n - z`` crosses
    ``k``.  The absolute difference of two such functions is largest at an
    integer next to a breakpoint or at ``z = 0, n``, so the maximum over
    ``z = 0..n`` is a maximum over a few dozen candidates (exact integers),
    whatever ``n`` and ``k`` are.
    """
    sizes = (n - k, n, n + k) if neighbors is Relation.UNBOUNDED else (n,)
    points = {0, n, k, n - k}
    for N in sizes:
        breaks = ((N - 1) // 2, N // 2) if p is None else ((N - 1) * p // 100,)
        for b in breaks:
            for s in (0, k, -k):
                points.add(b - s)
    candidates = {z + e for z in points for e in range(-2, 4) if 0 <= z + e <= n}
    best = 0
    for z in candidates:
        fx = _binary_quantile(z, n, p)
        for o in _binary_options(z, n, k, p, neighbors):
            best = max(best, abs(o - fx))
    return best / 100


# ------------------------------------------------------------ domain: variance and std
#
# The arguments of the module docstring name the candidates; these closed forms
# find the best candidate without listing the releases, on the domain mapped to
# [-1, 1] (x = c + s u with centre c and half-width s), as fractions of n:
# kappa = k / n, mu = m / n, eta = y / n.  Nothing below grows with n or k.

def _floor_pair(v, lo: int, hi: int):
    """The two integers around ``v`` (array), clipped to ``[lo, hi]``, as floats."""
    f = np.floor(v)
    return [np.clip(f, lo, hi), np.clip(f + 1, lo, hi)]


def _two_valued_up(n: int, k: int) -> float:
    """Largest variance of a {-1, 1} dataset of size N with >= m records on one value.

    For ``(m, N) = (n - k, n)`` and ``(n, n + k)``: ``a`` records on one
    value and ``N - a`` on the other, ``a <= N - m = k``; ``a (N - a)`` grows
    up to ``a = N // 2``, so ``a = min(k, N // 2)``.
    """
    best = 0.0
    for N in (n, n + k):
        q = min(k, N // 2) / N
        best = max(best, 4 * q * (1 - q))
    return best


def _unbounded_var_down(u, n: int, k: int) -> float:
    """max over K on {-1, 1} and d in ``u`` of var(K) - var(K + k copies of d).

    With ``q`` the share of ``K`` (``m`` records) at -1, ``N = m + k`` and
    ``rho = m / N``: ``var(K + R) = rho var(K) + (m k / N^2)(mean K - d)^2``,
    so the objective is ``(k/N) [4 q (1 - q) - rho (1 - 2q - d)^2]``, a
    concave quadratic in ``q`` with its top at ``q* = (1 + rho (1 - d)) /
    (2 (1 + rho))``; the best ``a = q m`` is one of the integers next to
    ``q* m``.
    """
    best = 0.0
    for m in (n - k, n):
        N = m + k
        rho = m / N
        qstar = (1 + rho * (1 - u)) / (2 * (1 + rho))
        for a in _floor_pair(qstar * m, 0, m):
            q = a / m
            val = (k / N) * (4 * q * (1 - q) - rho * (1 - 2 * q - u) ** 2)
            best = max(best, float(np.max(val)))
    return best


def _bounded_diff(kappa, mu, e, eta, d):
    """var(K + R) - var(K + A) (both n records) for K = m records summing to ``m e``,
    R = b at -1 and k - b at 1 (``eta = (k - 2b) / n``), A = k copies of ``d``:
    ``(Q_R - Q_A)/n - (2 S_K (S_R - S_A) + S_R^2 - S_A^2)/n^2``."""
    return kappa * (1 - d * d) - 2 * mu * e * (eta - kappa * d) - eta * eta + (kappa * d) ** 2


def _bounded_var(u, n: int, k: int) -> float:
    """Bounded variance: K at one end (the difference is linear in sum K), R on {-1, 1}.

    Over ``sigma = -e = +-1`` the objective is ``kappa (1 - d^2) + 2 mu |eta
    - kappa d| - eta^2 + (kappa d)^2``, concave in ``eta`` on each side of
    ``kappa d`` with tops at ``eta = +-mu``: the best ``b`` is next to
    ``(k -+ m) / 2`` or ``(k - k d) / 2``, or ``0`` or ``k``.
    """
    m = n - k
    kappa, mu = k / n, m / n
    bs = [np.zeros_like(u), np.full_like(u, k)]
    for v in (m + 0 * u, -m + 0 * u, k * u):
        bs += _floor_pair((k - v) / 2, 0, k)
    best = 0.0
    for b in bs:
        eta = (k - 2 * b) / n
        for e in (-1.0, 1.0):
            best = max(best, float(np.max(_bounded_diff(kappa, mu, e, eta, u))))
    return best


def _bounded_std(u, n: int, k: int) -> float:
    """Bounded std: K = m copies of e, R on {-1, 1}, A = k copies of d (all pairs e, d).

    ``var(K + A) = mu kappa (e - d)^2`` does not depend on ``b``, and
    ``var(K + R)`` is concave in ``b`` (moving a record from 1 to -1 keeps
    the sum of squares), largest where the mean is 0: ``b`` next to ``(m e +
    k) / 2``, or ``0`` or ``k``.  The difference of the square roots is
    computed as ``(V1 - V2) / (sqrt(V1) + sqrt(V2))`` so that it keeps its
    digits when it is tiny next to the variances.
    """
    m = n - k
    kappa, mu = k / n, m / n
    e, d = u[:, None], u[None, :]
    v2 = mu * kappa * (e - d) ** 2
    bs = [np.zeros_like(e), np.full_like(e, k)] + _floor_pair((m * e + k) / 2, 0, k)
    best = 0.0
    for b in bs:
        diff = _bounded_diff(kappa, mu, e, (k - 2 * b) / n, d)
        v1 = np.maximum(v2 + diff, 0.0)
        den = np.sqrt(v1) + np.sqrt(v2)
        val = np.divide(diff, den, out=np.zeros_like(diff), where=den > 0)
        best = max(best, float(np.max(val)))
    return best


def _domain_var_std(name, u, n: int, k: int, neighbors: Relation) -> float:
    """Variance or std on the domain ``u`` mapped to [-1, 1] (multiply by s^2 or s)."""
    if neighbors is Relation.UNBOUNDED:
        up = _two_valued_up(n, k)
        if name == "std":
            up = float(np.sqrt(up))
            kappa = k / n
            bound = kappa / (1 + np.sqrt(1 - kappa))     # (w/2)(1 - sqrt((n-k)/n)), see docstring
            if bound > up * (1 + 1e-12) + 1e-300:
                raise ValueError("no proven exact method for this std setting (down bound exceeds up)")
            return up
        return max(up, _unbounded_var_down(u, n, k))
    return _bounded_std(u, n, k) if name == "std" else _bounded_var(u, n, k)


def _check_finite(name, value, what: str) -> float:
    """``value`` as a float, or a ValueError if it overflowed (never ``inf`` or ``nan``)."""
    if not np.isfinite(value):
        raise ValueError(
            f"the global sensitivity of {name!r} here is beyond the largest float (about 1.8e308); "
            f"{what}")
    return float(value)


def _domain_global(name: str, D: np.ndarray, n: int, k: int, neighbors: Relation) -> float:
    lo, hi = float(D[0]), float(D[-1])
    s = hi / 2 - lo / 2                    # half the width: hi - lo itself may overflow
    w = hi - lo if np.isfinite(hi - lo) else np.inf
    if name == "count":
        return float(k) if neighbors is Relation.UNBOUNDED else 0.0
    if name == "sum":
        value = float(k) * max(abs(lo), abs(hi)) if neighbors is Relation.UNBOUNDED else (
            k * w if np.isfinite(w) else (2.0 * k) * s)
    elif s == 0:                           # one value: nothing else moves
        value = 0.0
    elif name == "mean":
        value = k * w / n if np.isfinite(w) else s * (2 * k / n)
    elif name == "median" or name in PERCENTILES:
        g = _binary_global(PERCENTILES.get(name), n, k, neighbors)
        value = w * g if np.isfinite(w) else (2 * g) * s
    else:
        c = lo / 2 + hi / 2
        u = np.clip((np.asarray(D, dtype=float) - c) / s, -1.0, 1.0)
        g = _domain_var_std(name, u, n, k, neighbors)
        value = g * s if name == "std" else (g * s) * s
    return _check_finite(name, value, "use a domain with a narrower range of values"
                         + (" or a smaller k" if name == "sum" else ""))


# ------------------------------------------------------------ pool

def _pool_sum_mean(name: str, P: np.ndarray, n: int, k: int, neighbors: Relation) -> float:
    """Closed forms on a pool ``P`` (sorted).

    Sum, unbounded: removing ``R`` or adding ``A`` changes the sum by ``sum R``
    or ``sum A``; any ``k`` records of the pool can play either part (the
    release is built around them), so the answer is the larger magnitude of
    the sums of the ``k`` largest and the ``k`` smallest records.  Bounded:
    ``j <= min(k, |P| - n)`` records ``R`` of the release are replaced by
    ``j`` records ``A`` of the pool outside it; the change ``sum A - sum R``
    is largest with ``A`` the ``j`` largest and ``R`` the ``j`` smallest
    records of the pool (they are disjoint and fit in a release).

    Mean, unbounded removal: ``mean x - mean(x - R) = (k/n)(mean R - mean(x -
    R))`` with ``R`` and ``x - R`` disjoint parts of the pool, extreme when
    one is the top and the other the bottom of the pool.  Addition likewise
    with ``k/(n + k)`` (possible only if ``|P| >= n + k``).  Bounded: the sum's
    answer divided by ``n``.
    """
    M = len(P)
    if neighbors is Relation.BOUNDED:
        J = min(k, M - n)
        s = float(np.sum(P[M - J:]) - np.sum(P[:J])) if J > 0 else 0.0
        return s if name == "sum" else s / n
    if name == "sum":
        return float(max(abs(np.sum(P[M - k:])), abs(np.sum(P[:k]))))
    best = k / n * max(P[M - k:].mean() - P[:n - k].mean(), P[M - (n - k):].mean() - P[:k].mean())
    if M >= n + k:
        best = max(best, k / (n + k) * max(P[M - k:].mean() - P[:n].mean(),
                                           P[M - n:].mean() - P[:k].mean()))
    return float(best)


def _pool_releases(P, n):
    """Every distinct release of size n of the sorted pool P (rows of X) and the rest of the pool (rows of A)."""
    from itertools import combinations
    M = len(P)
    idx = np.array(list(combinations(range(M), n)), dtype=np.intp)
    X = P[idx]                                         # rows sorted: P sorted, indices increasing
    keep = list({row: i for i, row in reversed(list(enumerate(map(tuple, X.tolist()))))}.values())
    X, idx = X[keep], idx[keep]                        # one row per distinct multiset
    mask = np.ones((len(idx), M), dtype=bool)
    mask[np.arange(len(idx))[:, None], idx] = False
    A = np.broadcast_to(P, mask.shape)[mask].reshape(len(idx), M - n)
    return X, A


def _row_var(Y):
    """Variance of each row (two passes, like ``np.var``)."""
    mu = Y.sum(axis=1) / Y.shape[1]
    d = Y - mu[:, None]
    return (d * d).sum(axis=1) / Y.shape[1]


def _row_quantile(Y, p):
    """numpy's median (``p=None``) or linear percentile of each row of the row-sorted ``Y``."""
    N = Y.shape[1]
    if p is None:
        return (Y[:, (N - 1) // 2] + Y[:, N // 2]) / 2
    h = (N - 1) * (p / 100)
    i = int(np.floor(h))
    t = h - i
    a, b = Y[:, i], Y[:, min(i + 1, N - 1)]
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def _pool_batch(name: str, P: np.ndarray, n: int, k: int, neighbors: Relation) -> float:
    """Largest local sensitivity over every release of a pool, all releases at once.

    The same candidate neighbours as :mod:`dpsens.local` (its arguments hold
    for each release), evaluated for all releases with one numpy call per
    candidate; the query is numpy's own function on the rows.
    """
    X, A = _pool_releases(P, n)
    Ma = A.shape[1]
    if name in ("var", "std"):
        cat = lambda *parts: np.concatenate(parts, axis=1)                 # noqa: E731
        f = _row_var
    else:
        cat = lambda *parts: np.sort(np.concatenate(parts, axis=1), axis=1)   # noqa: E731
        p = PERCENTILES.get(name)
        f = lambda Y: _row_quantile(Y, p)                                  # noqa: E731
    fams = []                                          # (list of mins, list of maxes) per family
    if name in ("var", "std"):
        if neighbors is Relation.UNBOUNDED:
            m = n - k
            fams.append(([f(X[:, i:i + m]) for i in range(k + 1)],
                         [f(cat(X[:, :i], X[:, i + k:])) for i in range(n - k + 1)]))
            if Ma >= k:
                fams.append(([f(cat(X, A[:, t:t + k])) for t in range(Ma - k + 1)],
                             [f(cat(X, A[:, :p], A[:, Ma - k + p:])) for p in range(k + 1)]))
        else:
            lo, hi = [f(X)], [f(X)]
            for j in range(1, min(k, Ma) + 1):
                hi += [f(cat(X[:, :i], X[:, i + j:], A[:, :p], A[:, Ma - j + p:]))
                       for i in range(n - j + 1) for p in range(j + 1)]
                lo += [f(cat(X[:, i:i + n - j], A[:, t:t + j])) for i in range(j + 1) for t in range(Ma - j + 1)]
            fams.append((lo, hi))
    else:
        if neighbors is Relation.UNBOUNDED:
            fams.append(([f(X[:, :n - k])], [f(X[:, k:])]))
            if Ma >= k:
                fams.append(([f(cat(X, A[:, :k]))], [f(cat(X, A[:, Ma - k:]))]))
        else:
            fams.append(([f(cat(X[:, :n - j], A[:, :j])) for j in range(min(k, Ma) + 1)],
                         [f(cat(X[:, j:], A[:, Ma - j:])) for j in range(min(k, Ma) + 1)]))
    fx = f(X)
    if name == "std":
        fx = np.sqrt(fx)
        fams = [([np.sqrt(v) for v in lo], [np.sqrt(v) for v in hi]) for lo, hi in fams]
    best = 0.0
    for lo, hi in fams:
        best = max(best, float(np.max(np.max(hi, axis=0) - fx)), float(np.max(fx - np.min(lo, axis=0))))
    return best


def exact_global_sensitivity(query: Query, universe: Pool | Domain, n: int, k: int = 1,
                             neighbors: Relation | str = Relation.UNBOUNDED,
                             *, max_releases: int = MAX_RELEASES) -> float:
    """Exact global sensitivity (see the module docstring for the arguments).

    Chapter: *Global sensitivity from scratch*.

    Parameters and result as :func:`dpsens.global_sensitivity` with
    ``method="exact"``; ``max_releases`` limits the releases of a pool that
    are enumerated for ``median``, the percentiles, ``var`` and ``std``.

    Raises
    ------
    ValueError
        For a pool with more than ``max_releases`` releases and a query
        without a closed form.

    Examples
    --------
    >>> from dpsens import Domain
    >>> exact_global_sensitivity("median", Domain(range(101)), n=100)
    50.0
    """
    name, f = check_query(query)
    universe = check_universe(universe)
    n = as_int(n, "n", 2, len(universe.values) if isinstance(universe, Pool) else None)
    k = as_int(k, "k", 1, n - 1)
    neighbors = as_relation(neighbors)
    max_releases = as_int(max_releases, "max_releases", 0)
    if isinstance(universe, Domain):
        if n > MAX_DOMAIN_N:
            raise ValueError(f"n must be at most 10**300 for a Domain (the closed forms need k / n as a "
                             f"float); got n of {len(str(n))} digits")
        return _domain_global(name, universe.values, n, k, neighbors)
    e = rescale_exponent(name, universe.values)
    if e is not None:                      # magnitudes near the float limits: P / 2**e is exact
        scaled = np.ldexp(universe.values, -e)
        value = _pool_global(name, f, Pool(scaled), n, k, neighbors, max_releases)
        return scale_back(value, scaling_degree(name) * e, f"the global sensitivity of {name!r}",
                          rescaled_rounding(scaling_degree(name), scaled))
    return check_result(_pool_global(name, f, universe, n, k, neighbors, max_releases),
                        f"the global sensitivity of {name!r}")


def _pool_global(name: str, f: Callable, universe: Pool, n: int, k: int, neighbors: Relation,
                 max_releases: int) -> float:
    """Global sensitivity on a pool (see the module docstring)."""
    P = universe.values
    distinct, counts = np.unique(P, return_counts=True)
    if counts.min() >= n + k:              # every release and neighbour fits: same as a domain
        return _domain_global(name, distinct, n, k, neighbors)
    if name == "count":
        return float(k) if neighbors is Relation.UNBOUNDED else 0.0
    if name in ("sum", "mean"):
        return _pool_sum_mean(name, P, n, k, neighbors)
    total = count_releases(universe, n)
    if comb(len(P), n) <= max_releases and comb(len(P), n) * len(P) <= 4_000_000:
        # small pool: all releases at once (vectorised; memory about 8 bytes x 4M at most)
        return _pool_batch(name, P, n, k, neighbors)
    if total > max_releases:
        raise ValueError(
            f"the global sensitivity of {name!r} on this pool needs its {total:,} releases of size "
            f"n = {n} (more than max_releases = {max_releases:,}); no exact shortcut is proven for "
            "this query on a pool.  Pass a larger max_releases=..., or use a Domain of the pool's "
            "values if every value may repeat."
        )
    best = 0.0
    for x in releases(universe, n):
        xs = np.array(x)
        a = available_values(xs, universe, k)
        best = max(best, local_sensitivity_sorted(name, f, xs, a, k, neighbors))
    return float(best)
