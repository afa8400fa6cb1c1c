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
"""
from __future__ import annotations

from math import comb

import numpy as np

from ._validate import as_int, check_relation
from .local import available_values, local_sensitivity_sorted
from .neighbors import Domain, Pool, check_universe, count_releases, releases
from .queries import PERCENTILES, check_query

__all__ = ["exact_global_sensitivity", "MAX_RELEASES"]

#: Default limit on the releases enumerated for a pool (see
#: :func:`exact_global_sensitivity`).
MAX_RELEASES = 100_000


# ------------------------------------------------------------ domain: order statistics

def _binary_quantile(z, N, p):
    """Percentile ``p`` (``None``: median) of ``z`` zeros and ``N - z`` ones, vectorised."""
    z = np.asarray(z, dtype=float)
    if p is None:
        a = ((N - 1) // 2 >= z).astype(float)
        b = (N // 2 >= z).astype(float)
        return (a + b) / 2
    return np.clip((N - 1) * (p / 100) - z + 1, 0.0, 1.0)


def _binary_global(p, n, k, neighbors) -> float:
    """Global sensitivity of a percentile on the domain {0, 1} (layer-cake reduction)."""
    t = np.arange(n + 1)                  # number of ones in the release
    z = n - t                             # number of zeros
    fx = _binary_quantile(z, n, p)
    if neighbors == "unbounded":
        options = [
            _binary_quantile(z - np.minimum(k, z), n - k, p),        # remove zeros first
            _binary_quantile(z - (k - np.minimum(k, t)), n - k, p),  # remove ones first
            _binary_quantile(z, n + k, p),                           # add ones
            _binary_quantile(z + k, n + k, p),                       # add zeros
        ]
    else:
        options = [_binary_quantile(z - np.minimum(k, z), n, p),     # zeros -> ones
                   _binary_quantile(z + np.minimum(k, t), n, p)]     # ones -> zeros
    return float(max(np.max(np.abs(o - fx)) for o in options))


# ------------------------------------------------------------ domain: variance and std

def _var_counts(vals, counts):
    """Variance of datasets given as value columns and count columns (broadcasting)."""
    N = sum(counts)
    mu = sum(v * c for v, c in zip(vals, counts)) / N
    return sum(c * (v - mu) ** 2 for v, c in zip(vals, counts)) / N     # two passes: 0 stays 0


def _two_valued_up(w, n, k, neighbors_sizes, sqrt: bool):
    """Largest var (or std) of a {0, w} dataset of size N with >= m records on one value."""
    best = 0.0
    for m, N in neighbors_sizes:
        a = np.arange(N + 1)
        ok = np.maximum(a, N - a) >= m
        v = w * w * a * (N - a) / N**2
        v = np.sqrt(v) if sqrt else v
        best = max(best, float(v[ok].max()))
    return best


def _domain_var_std(name, D, n, k, neighbors) -> float:
    lo, hi = float(D[0]), float(D[-1])
    c = (lo + hi) / 2                      # centre for rounding
    D = D - c
    lo, hi, w = lo - c, hi - c, hi - lo
    sqrt = name == "std"
    f = np.sqrt if sqrt else (lambda v: v)
    if neighbors == "unbounded":
        up = _two_valued_up(w, n, k, [(n - k, n), (n, n + k)], sqrt)
        if sqrt:
            bound = (w / 2) * (1 - np.sqrt((n - k) / n))      # the "down" bound, see docstring
            if bound > up * (1 + 1e-12) + 1e-300:
                raise ValueError("no proven exact method for this std setting (down bound exceeds up)")
            return up
        down = 0.0
        for m, r in ((n - k, k), (n, k)):                      # K of size m, R = r copies of d
            a = np.arange(m + 1)[:, None]                      # a records of K at lo
            d = D[None, :]
            vk = _var_counts([lo, hi], [a, m - a])
            vkr = _var_counts([lo, hi, d], [a, m - a, r])
            down = max(down, float(np.max(vk - vkr)))
        return max(up, down)
    m = n - k
    if not sqrt:                           # K: a at lo; R: b at lo; A = k copies of d
        a = np.arange(m + 1)[:, None]
        d = D[None, :]
        v2 = _var_counts([lo, hi, d], [a, m - a, k])
        best = 0.0
        for b in range(k + 1):             # one b at a time keeps memory at (n - k + 1) |D|
            v1 = _var_counts([lo, hi], [a + b, m - a + k - b])
            best = max(best, float(np.max(v1 - v2)))
        return best
    dk = D[:, None, None]                  # K = m copies of d'; R: b at lo; A = k copies of d
    b = np.arange(k + 1)[None, :, None]
    d = D[None, None, :]
    v1 = _var_counts([dk, lo, hi], [m, b, k - b])
    v2 = _var_counts([dk, d], [m, k])
    return float(np.max(np.sqrt(v1) - np.sqrt(v2)))


def _domain_global(name, D, n, k, neighbors) -> float:
    lo, hi = float(D[0]), float(D[-1])
    w = hi - lo
    if name == "count":
        return float(k) if neighbors == "unbounded" else 0.0
    if name == "sum":
        return k * max(abs(lo), abs(hi)) if neighbors == "unbounded" else k * w
    if name == "mean":
        return k * w / n
    if name == "median" or name in PERCENTILES:
        return w * _binary_global(PERCENTILES.get(name), n, k, neighbors)
    return _domain_var_std(name, np.asarray(D, dtype=float), n, k, neighbors)


# ------------------------------------------------------------ pool

def _pool_sum_mean(name, P, n, k, neighbors) -> float:
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
    if neighbors == "bounded":
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


def _pool_batch(name, P, n, k, neighbors) -> float:
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
        if neighbors == "unbounded":
            m = n - k
            fams.append(([f(X[:, i:i + m]) for i in range(k + 1)],
                         [f(cat(X[:, :i], X[:, i + k:])) for i in range(n - k + 1)]))
            if Ma >= k:
                fams.append(([f(cat(X, A[:, l:l + k])) for l in range(Ma - k + 1)],
                             [f(cat(X, A[:, :p], A[:, Ma - k + p:])) for p in range(k + 1)]))
        else:
            lo, hi = [f(X)], [f(X)]
            for j in range(1, min(k, Ma) + 1):
                hi += [f(cat(X[:, :i], X[:, i + j:], A[:, :p], A[:, Ma - j + p:]))
                       for i in range(n - j + 1) for p in range(j + 1)]
                lo += [f(cat(X[:, i:i + n - j], A[:, l:l + j])) for i in range(j + 1) for l in range(Ma - j + 1)]
            fams.append((lo, hi))
    else:
        if neighbors == "unbounded":
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


def exact_global_sensitivity(query, universe, n: int, k: int = 1, neighbors: str = "unbounded",
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
    check_relation(neighbors)
    max_releases = as_int(max_releases, "max_releases", 0)
    if isinstance(universe, Domain):
        return _domain_global(name, universe.values, n, k, neighbors)
    P = universe.values
    distinct, counts = np.unique(P, return_counts=True)
    if counts.min() >= n + k:              # every release and neighbour fits: same as a domain
        return _domain_global(name, distinct, n, k, neighbors)
    if name == "count":
        return float(k) if neighbors == "unbounded" else 0.0
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
