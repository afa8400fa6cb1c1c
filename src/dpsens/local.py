"""Exact local sensitivity of the ten queries, without enumerating neighbours.

Chapter: *Local sensitivity*.

Notation.  ``x`` is the release, sorted, with ``n`` records; ``k`` the group
size.  The *available* values are the values a neighbour may gain: for a
:class:`~dpsens.Pool` the multiset ``pool - x``; for a
:class:`~dpsens.Domain` every domain value, ``k`` times each (no neighbour
can use a value more than ``k`` times, so this is the same as "any number of
times").  ``a`` is the sorted available multiset and ``M`` its size.

The neighbours fall into three *families*:

* **removal** (unbounded): ``x - R`` with ``|R| = k``, ``R`` inside ``x``;
* **addition** (unbounded): ``x + A`` with ``|A| = k``, ``A`` inside ``a``
  (empty if ``M < k``: a pool with too few records left);
* **replacement** (bounded): ``x - R + A`` with ``|R| = |A| = j`` for
  ``j = 0..min(k, M)``, ``R`` inside ``x`` and ``A`` inside ``a``.

  The bounded relation of :func:`dpsens.enumerate_neighbors` removes *exactly*
  ``k`` records and adds ``k`` values from the universe minus the kept records.
  This is the same set: a value added back after being removed cancels, so
  exactly ``k`` removed and ``k`` added is the same as *up to* ``k`` records
  replaced by values from the pool minus ``x`` (for a pool) or by any domain
  values (for a domain); conversely ``j < k`` replacements are padded with
  ``k - j`` records removed and added back.

* **mixed** (the group relation ``"symmetric"``: symmetric difference at
  most ``k``): ``x - R + A`` with ``|R| = r``, ``|A| = s`` for every
  ``r + s <= k`` (``(r, s) != (0, 0)``), ``R`` inside ``x`` and ``A`` inside
  ``a``.  A value removed and added back cancels, so these families are
  every neighbour at symmetric distance ``1..k``.  The families of the two
  other relations are among them (``(k, 0)``, ``(0, k)``, ``(j, j)`` for
  ``2 j <= k``), but not all of them: the group relation is *not* the union
  of the other two (``x - R + A`` with ``|R| != |A|``, both non-empty, is
  in neither), and its local sensitivity can exceed theirs.

Every argument below is made for one family of fixed ``(|R|, |A|)``, so it
holds for the mixed families as it does for the others.

For each family the engine computes the smallest and the largest value ``f``
takes on it; the local sensitivity is the largest of ``max f - f(x)`` and
``f(x) - min f`` over the families.  Each query below says why its
extremes are found among a few (or ``O(n k)``) candidates.

``count``
    ``n - k`` or ``n + k`` on every unbounded neighbour, ``n`` on every
    bounded one: local sensitivity ``k`` (unbounded) or ``0`` (bounded).

``sum`` and ``mean``
    The sum of a neighbour is ``sum(x) - sum(R) + sum(A)``.  For a fixed
    family size it is largest when ``R`` holds the smallest records of ``x``
    and ``A`` the largest available values (any other choice can be improved
    one element at a time), smallest the other way round.  The mean divides
    by the neighbour's size, fixed within a family.  For replacements the
    ``j`` best swaps (``i``-th smallest record out, ``i``-th largest value in)
    are tried for every ``j <= k``.

``median`` and ``percentile_p``
    numpy's percentile with linear interpolation is a non-negative weighted
    sum of two order statistics, so it can only grow when each order
    statistic grows.  Among all neighbours of a family of fixed size, the one
    that drops the smallest records and adds the largest available values has
    *every* order statistic at least as large as any other neighbour's (if a
    multiset ``B`` is obtained from ``B'`` by raising elements, its ``i``-th
    smallest element is at least that of ``B'``).  So the largest percentile
    of the family is the percentile of that neighbour, and the smallest that
    of the mirror image.  For replacements the ``min(k, M) + 1`` sizes ``j``
    are compared.  The order statistics of ``x[s:e]`` merged with at most
    ``k`` added values are read in ``O(k log k)`` without sorting ``x`` again.

``var`` and ``std``
    ``std = sqrt(var)`` is increasing in ``var``, so both need only the
    smallest and the largest variance of each family.  Two facts carry the
    argument:

    (i) *Largest variance.*  As a function of any one element, the variance
        of a multiset of fixed size is a convex quadratic.  So if a kept
        record (or a chosen available value) lies strictly between two
        removed records (two unchosen values), moving it to one of them does
        not lower the variance; the index span of the removed (unchosen)
        ones shrinks each time, so after finitely many moves the removed
        records form a *contiguous window* of sorted ``x`` and the chosen
        values are the ``p`` smallest and ``j - p`` largest available ones.
        Candidates: ``O(n)`` windows for removal, ``k + 1`` splits for
        addition, ``O(n k^2)`` (window, split) pairs for replacement.
    (ii) *Smallest variance.*  ``var(y) = min_c mean((y - c)^2)``, attained at
        the mean ``c`` of ``y``.  Take a minimiser ``y = K + A`` (kept records
        ``K``, added values ``A``) and its mean ``c``.  Replacing ``K`` by the
        ``|K|`` records of ``x`` closest to ``c`` and ``A`` by the ``|A|``
        available values closest to ``c`` does not increase
        ``sum((y - c)^2)``, hence not the variance.  The records closest to
        ``c`` form a contiguous window of sorted ``x``, the values a
        contiguous window of ``a``.  Candidates: ``k + 1`` kept windows for
        removal, ``M - k + 1`` added windows for addition, and all pairs of
        windows for replacement.  This is why the worst *decrease* can put
        new values in the interior: on ``x = {0, 0, 0, 8, 8}`` and the domain
        ``0..8``, replacing one 8 by a 2 lowers the variance by 5.76, more
        than any move to 0 or 8.

Each candidate's variance comes in ``O(1)`` from prefix sums of the
(centred) values and their squares, so the whole computation is
``O(n log n)`` for the sort plus ``O(n k^2 + |D| k^3)`` arithmetic, done in
numpy.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_int, rescaled_rounding, scale_back
from .neighbors import Domain, Pool, check_release, check_universe
from .queries import PERCENTILES, Query, check_query, rescale_exponent, scaling_degree
from .relation import EXACT_RELATIONS, Relation, as_relation

__all__ = ["exact_local_sensitivity", "available_values", "local_sensitivity_sorted", "mixed_families"]


# ---------------------------------------------------------------- helpers

def available_values(x: ArrayLike, universe: Pool | Domain, k: int) -> np.ndarray:
    """The sorted multiset of values a neighbour of ``x`` may gain.

    Chapter: *Local sensitivity*.

    For a :class:`~dpsens.Pool`: the pool minus the release (a multiset
    difference).  For a :class:`~dpsens.Domain`: every domain value ``k``
    times.

    Examples
    --------
    >>> from dpsens import Pool, Domain
    >>> available_values([2, 5], Pool([1, 2, 2, 5, 9]), k=2).tolist()
    [1.0, 2.0, 9.0]
    >>> available_values([2, 5], Domain([0, 1]), k=2).tolist()
    [0.0, 0.0, 1.0, 1.0]
    """
    xs = np.sort(np.asarray(x, dtype=float))
    if isinstance(universe, Pool):
        vals, counts = np.unique(universe.values, return_counts=True)
        xv, xc = np.unique(xs, return_counts=True)
        pos = np.searchsorted(vals, xv)
        counts = counts.copy()
        counts[pos] -= xc
        return np.repeat(vals, np.maximum(counts, 0))
    return np.repeat(universe.values, k)


def _order_stat(xs, s: int, e: int, add, r: int) -> float:
    """The ``r``-th smallest (0-based) of ``xs[s:e]`` merged with the sorted small array ``add``.

    At most ``len(add)`` added values can precede ``xs[s + i]``, so the
    records ``xs[s : s + r - len(add)]`` all rank below ``r``; the answer is
    among the next ``len(add) + 1`` records and ``add``.
    """
    lo = max(s, s + r - len(add))
    window = np.concatenate([xs[lo:min(e, s + r + 1)], add])
    window.sort()
    return float(window[r - (lo - s)])


def _percentile(xs, s: int, e: int, add, p: float | None) -> float:
    """numpy's percentile ``p`` (``None``: the median) of ``xs[s:e]`` merged with ``add``."""
    size = e - s + len(add)
    if p is None:                                   # np.median: mean of the two middle values
        a = _order_stat(xs, s, e, add, (size - 1) // 2)
        b = _order_stat(xs, s, e, add, size // 2)
        return (a + b) / 2
    h = (size - 1) * (p / 100)                      # numpy's 'linear' method, same arithmetic
    i = int(np.floor(h))
    t = h - i
    a = _order_stat(xs, s, e, add, i)
    b = _order_stat(xs, s, e, add, min(i + 1, size - 1))
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def _range_sum_mean(xs: np.ndarray, a: np.ndarray, k: int, neighbors: Relation, mean: bool) -> list:
    """(min, max) of the sum or mean over each family; see the module docstring."""
    n, M, S = len(xs), len(a), float(np.sum(xs))
    out = []
    if neighbors is Relation.UNBOUNDED:
        lo, hi = S - np.sum(xs[n - k:]), S - np.sum(xs[:k])
        out.append((lo / (n - k), hi / (n - k)) if mean else (lo, hi))
        if M >= k:
            lo, hi = S + np.sum(a[:k]), S + np.sum(a[M - k:])
            out.append((lo / (n + k), hi / (n + k)) if mean else (lo, hi))
    else:
        J = min(k, M)
        up = np.concatenate([[0.0], np.cumsum(a[::-1][:J] - xs[:J])])      # j-th best swaps upward
        down = np.concatenate([[0.0], np.cumsum(a[:J] - xs[::-1][:J])])    # and downward
        lo, hi = S + down.min(), S + up.max()
        out.append((lo / n, hi / n) if mean else (lo, hi))
    return out


def _range_percentile(xs: np.ndarray, a: np.ndarray, k: int, neighbors: Relation, p: float | None) -> list:
    n, M = len(xs), len(a)
    empty = a[:0]
    out = []
    if neighbors is Relation.UNBOUNDED:
        out.append((_percentile(xs, 0, n - k, empty, p), _percentile(xs, k, n, empty, p)))
        if M >= k:
            out.append((_percentile(xs, 0, n, a[:k], p), _percentile(xs, 0, n, a[M - k:], p)))
    else:
        for j in range(min(k, M) + 1):
            out.append((_percentile(xs, 0, n - j, a[:j], p), _percentile(xs, j, n, a[M - j:], p)))
    return out


def _var(S, Q, N):
    return Q / N - (S / N) ** 2


def _range_var(xs: np.ndarray, a: np.ndarray, k: int, neighbors: Relation) -> list:
    """(min, max) of the variance over each family, by the window arguments (i) and (ii).

    The candidates are scored with prefix sums; the winners are then rebuilt
    and their variance recomputed with ``np.var`` (two passes), so that a
    neighbour with variance 0 gets exactly 0 (its square root, the std, would
    otherwise inherit a rounding error of order ``sqrt(eps)``).
    """
    n, M = len(xs), len(a)
    c = xs[n // 2]                                   # centre the data: better rounding
    xc, ac = xs - c, a - c
    X1 = np.concatenate([[0.0], np.cumsum(xc)])
    X2 = np.concatenate([[0.0], np.cumsum(xc * xc)])
    A1 = np.concatenate([[0.0], np.cumsum(ac)])
    A2 = np.concatenate([[0.0], np.cumsum(ac * ac)])
    Sx, Qx = X1[n], X2[n]

    def v(*parts):                                   # exact variance of a rebuilt neighbour
        return float(np.var(np.concatenate(parts)))

    out = []
    if neighbors is Relation.UNBOUNDED:
        m = n - k
        v1 = _var(Sx - (X1[k:] - X1[:n - k + 1]), Qx - (X2[k:] - X2[:n - k + 1]), m)
        i = int(np.argmax(v1))                       # (i) removed window x[i:i+k]
        vmax = v(xs[:i], xs[i + k:])
        v2 = _var(X1[m:] - X1[:k + 1], X2[m:] - X2[:k + 1], m)
        i = int(np.argmin(v2))                       # (ii) kept window x[i:i+m]
        out.append((v(xs[i:i + m]), vmax))
        if M >= k:
            N = n + k
            ps = np.arange(k + 1)                    # (i) p smallest and k - p largest values
            v1 = _var(Sx + A1[ps] + A1[M] - A1[M - k + ps], Qx + A2[ps] + A2[M] - A2[M - k + ps], N)
            p = int(np.argmax(v1))
            vmax = v(xs, a[:p], a[M - k + p:])
            v2 = _var(Sx + A1[k:] - A1[:M - k + 1], Qx + A2[k:] - A2[:M - k + 1], N)
            t = int(np.argmin(v2))                   # (ii) added window a[t:t+k]
            out.append((v(xs, a[t:t + k]), vmax))
    else:
        best_hi, arg_hi = _var(Sx, Qx, n), (0, 0, 0)
        best_lo, arg_lo = best_hi, (0, 0, 0)
        for j in range(1, min(k, M) + 1):
            Sr, Qr = Sx - (X1[j:] - X1[:n - j + 1]), Qx - (X2[j:] - X2[:n - j + 1])
            for p in range(j + 1):                   # (i) removed window x[i:i+j], p smallest
                s = A1[p] + A1[M] - A1[M - j + p]    #     and j - p largest values
                q = A2[p] + A2[M] - A2[M - j + p]
                vals = _var(Sr + s, Qr + q, n)
                i = int(np.argmax(vals))
                if vals[i] > best_hi:
                    best_hi, arg_hi = vals[i], (j, i, p)
            ii = np.arange(j + 1)[:, None]           # (ii) kept window x[i:i+n-j] ...
            tt = np.arange(M - j + 1)[None, :]       # ... and added window a[t:t+j]
            vals = _var(X1[ii + n - j] - X1[ii] + A1[tt + j] - A1[tt],
                        X2[ii + n - j] - X2[ii] + A2[tt + j] - A2[tt], n)
            i, t = (int(u) for u in np.unravel_index(int(np.argmin(vals)), vals.shape))
            if vals[i, t] < best_lo:
                best_lo, arg_lo = vals[i, t], (j, i, t)
        j, i, p = arg_hi
        vmax = v(xs[:i], xs[i + j:], a[:p], a[M - j + p:])
        j, i, t = arg_lo
        vmin = v(xs[i:i + n - j], a[t:t + j])
        out.append((vmin, vmax))
    return out


def mixed_families(n: int, M: int, k: int) -> list[tuple[int, int]]:
    """The ``(r, s)`` families of the group relation: ``r`` records removed, ``s`` values added.

    Chapter: *Neighbouring datasets*.  Every pair with ``1 <= r + s <= k``,
    ``r <= n - 1`` (the validation keeps ``k <= n - 1``)
    and ``s <= M`` (the available values).

    Examples
    --------
    >>> mixed_families(5, 10, 2)
    [(0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]
    """
    return [(r, s) for r in range(0, min(k, n - 1) + 1) for s in range(0, min(k - r, M) + 1)
            if r + s >= 1]


def _family_sum_mean(xs, a, r, s, mean: bool):
    """(min, max) of the sum or mean over the family ``x - R + A``, ``|R| = r``, ``|A| = s``."""
    n, M, S = len(xs), len(a), float(np.sum(xs))
    lo = S - np.sum(xs[n - r:]) + np.sum(a[:s])
    hi = S - np.sum(xs[:r]) + np.sum(a[M - s:])
    N = n - r + s
    return (lo / N, hi / N) if mean else (lo, hi)


def _family_var(xs, a, r, s):
    """(min, max) of the variance over the family ``(r, s)``, by the window arguments (i) and (ii).

    (i): the removed records are a window ``x[i:i+r]``, the added values the
    ``p`` smallest and ``s - p`` largest available ones; (ii): the kept
    records are a window ``x[i:i+n-r]``, the added values a window
    ``a[t:t+s]``.  Winners are rebuilt and their variance recomputed with
    ``np.var``, as in :func:`_range_var`.
    """
    n, M = len(xs), len(a)
    N = n - r + s
    c = xs[n // 2]
    xc, ac = xs - c, a - c
    X1 = np.concatenate([[0.0], np.cumsum(xc)])
    X2 = np.concatenate([[0.0], np.cumsum(xc * xc)])
    A1 = np.concatenate([[0.0], np.cumsum(ac)])
    A2 = np.concatenate([[0.0], np.cumsum(ac * ac)])
    i = np.arange(n - r + 1)[:, None]                # (i) removed window x[i:i+r] ...
    p = np.arange(s + 1)[None, :]                    # ... p smallest, s - p largest values
    vals = _var(X1[n] - X1[i + r] + X1[i] + A1[p] + A1[M] - A1[M - s + p],
                X2[n] - X2[i + r] + X2[i] + A2[p] + A2[M] - A2[M - s + p], N)
    i, p = np.unravel_index(int(np.argmax(vals)), vals.shape)
    vmax = float(np.var(np.concatenate([xs[:i], xs[i + r:], a[:p], a[M - s + p:]])))
    i = np.arange(r + 1)[:, None]                    # (ii) kept window x[i:i+n-r] ...
    t = np.arange(M - s + 1)[None, :]                # ... and added window a[t:t+s]
    vals = _var(X1[i + n - r] - X1[i] + A1[t + s] - A1[t], X2[i + n - r] - X2[i] + A2[t + s] - A2[t], N)
    i, t = np.unravel_index(int(np.argmin(vals)), vals.shape)
    vmin = float(np.var(np.concatenate([xs[i:i + n - r], a[t:t + s]])))
    return vmin, vmax


def _mixed_ranges(name, xs, a, k):
    """(min, max) of query ``name`` over each family of the group relation (see :func:`mixed_families`)."""
    n, M = len(xs), len(a)
    out = []
    for r, s in mixed_families(n, M, k):
        if name in ("sum", "mean"):
            out.append(_family_sum_mean(xs, a, r, s, mean=name == "mean"))
        elif name == "median" or name in PERCENTILES:
            p = PERCENTILES.get(name)
            out.append((_percentile(xs, 0, n - r, a[:s], p), _percentile(xs, r, n, a[M - s:], p)))
        else:
            lo, hi = _family_var(xs, a, r, s)
            out.append((np.sqrt(max(lo, 0.0)), np.sqrt(max(hi, 0.0))) if name == "std" else (lo, hi))
    return out


def _ranges(name: str, xs: np.ndarray, a: np.ndarray, k: int, neighbors: Relation) -> list:
    """(min, max) of query ``name`` over each neighbour family of sorted ``xs``."""
    if neighbors is Relation.SYMMETRIC:
        return _mixed_ranges(name, xs, a, k)
    if name in ("sum", "mean"):
        return _range_sum_mean(xs, a, k, neighbors, mean=name == "mean")
    if name == "median":
        return _range_percentile(xs, a, k, neighbors, None)
    if name in PERCENTILES:
        return _range_percentile(xs, a, k, neighbors, PERCENTILES[name])
    if name in ("var", "std"):
        ranges = _range_var(xs, a, k, neighbors)
        if name == "std":
            ranges = [(np.sqrt(max(lo, 0.0)), np.sqrt(max(hi, 0.0))) for lo, hi in ranges]
        return ranges
    raise AssertionError(name)  # pragma: no cover  (check_query lets only the ten names through)


def local_sensitivity_sorted(name: str, f: Callable[[np.ndarray], float], xs: np.ndarray, a: np.ndarray, k: int,
                             neighbors: Relation | str) -> float:
    """Local sensitivity of sorted, validated ``xs`` with available values ``a`` (no checks).

    Chapter: *Global sensitivity from scratch* (the exact global sensitivity
    maximises it over releases).  ``name, f`` come from
    :func:`dpsens.queries.check_query`, ``a`` from :func:`available_values`;
    ``neighbors`` is converted like everywhere else (a member passes through).
    """
    neighbors = as_relation(neighbors, EXACT_RELATIONS)
    if name == "count":
        return 0.0 if neighbors is Relation.BOUNDED else float(k)
    fx = f(xs)
    best = 0.0
    for lo, hi in _ranges(name, xs, a, k, neighbors):
        best = max(best, hi - fx, fx - lo)
    return float(best)


def exact_local_sensitivity(x: ArrayLike, query: Query, universe: Pool | Domain, k: int = 1,
                            neighbors: Relation | str = Relation.UNBOUNDED) -> float:
    """Exact local sensitivity without enumeration (see the module docstring for the arguments).

    Chapter: *Local sensitivity*.

    Parameters and result as :func:`dpsens.local_sensitivity` with
    ``method="exact"``.

    Examples
    --------
    >>> from dpsens import Domain
    >>> round(exact_local_sensitivity([0, 0, 0, 8, 8], "var", Domain(range(9)), neighbors="bounded"), 4)
    5.76
    """
    name, f = check_query(query)
    universe = check_universe(universe)
    xs = check_release(x, universe)
    n = len(xs)
    if n < 2:
        raise ValueError(f"x must hold at least 2 records so that k can be in 1..n-1; got n = {n}")
    k = as_int(k, "k", 1, n - 1)
    neighbors = as_relation(neighbors, EXACT_RELATIONS)
    a = available_values(xs, universe, k)
    e = rescale_exponent(name, xs, a)
    if e is None:
        return local_sensitivity_sorted(name, f, xs, a, k, neighbors)
    # magnitudes near the float limits: compute on x / 2**e (exact) and scale back
    xs, a = np.ldexp(xs, -e), np.ldexp(a, -e)
    value = local_sensitivity_sorted(name, f, xs, a, k, neighbors)
    return scale_back(value, scaling_degree(name) * e, f"the local sensitivity of {name!r}",
                      rescaled_rounding(scaling_degree(name), xs, a))
