"""Global sensitivity under add/remove neighbours when the size of the data is private.

Chapters: *Global sensitivity from scratch* (the definition and the mean's
value), *Local sensitivity* (the Adult ages' comparison), *Neighbouring
datasets* (why add/remove makes the size private).

:func:`dpsens.global_sensitivity` with ``size="public"`` (its default) is the
largest change over the neighbours of the releases of one size ``n``.  That
number is a global sensitivity only when ``n`` is public: bounded
neighbours (the size never changes), or a size released separately and paid
for.  Under add/remove neighbours the size is part of what is protected --
a neighbour has another size -- so the noise scale may not depend on it.
The honest global sensitivity is then the supremum over *every* pair of
neighbours, of every size; with a public lower bound ``n_min`` on the size
(every possible dataset has at least ``n_min`` records), over every pair of
neighbours whose sizes are both at least ``n_min``.

Write ``GS_n`` for the size-``n`` value (removals ``n -> n - k`` and
additions ``n -> n + k``) and ``P_N`` for the largest change over the pairs
of sizes ``N`` and ``N + k``.  Then ``GS_n = max(P_{n-k}, P_n)`` and the
private-size value is::

    GS_priv(n_min) = sup_{N >= n_min} P_N = sup_{n >= n_min + k} GS_n.

Write ``lo``, ``hi`` for the ends of the domain, ``w = hi - lo``.  For a
:class:`~dpsens.Domain` each query has an exact form:

``count``
    ``k`` at every size.
``sum``
    ``k max(|lo|, |hi|)`` at every size (adding ``k`` copies of the extreme).
``mean``
    ``GS_n = k w / n`` (module :mod:`dpsens.globalsens`) decreases in ``n``,
    so the supremum is at the smallest admissible size:
    ``k w / (n_min + k)`` -- the pair ``n_min`` records at ``lo`` and the
    same with ``k`` records at ``hi`` added.  With no lower bound
    (``n_min = 1``): ``k w / (k + 1)``, ``w / 2`` for ``k = 1``.
``median``, ``percentile_p``
    By the layer-cake reduction of :mod:`dpsens.globalsens` (it holds for a
    pair of any two sizes), ``GS_n = w G_n`` with ``G_n`` the value on the
    domain {0, 1}.  Two facts fix the supremum.  (a) *Monotone along a
    period*: with ``T = 100`` and ``L = p`` (``T = 2``, ``L = 1`` for the
    median), adding ``L`` zeros and ``T - L`` ones to both members of a pair
    of 0/1 datasets keeps it a pair of neighbours and changes neither value
    (the percentile of ``z`` zeros among ``N`` is ``clip((N - 1) p / 100 - z
    + 1, 0, 1)``, unchanged by ``N -> N + T``, ``z -> z + L``; ``p`` is an
    integer, :data:`dpsens.queries.PERCENTILES`), so
    ``G_{n+T} >= G_n``.  (b) *Periodic from* ``N0``: once ``min(p, 100 -
    p)(n - 1) / 100 >= 2k + 3``, a release with fewer than ``k`` zeros or
    ones has every neighbour's percentile equal to its own (all 1, or all
    0), and every other release's change depends only on ``(n - 1) p / 100 -
    z``, i.e. on ``n`` modulo ``T``; that change is zero unless ``(n - 1) p
    / 100 - z`` lies in ``(-k - 1, k)`` (a neighbour shifts it by at most
    ``k``), and for ``n >= N0`` the values ``z = k .. n - k`` give it every
    value of its residue class in ``[-k - 4, k + 3]``; so ``G_{n+T} = G_n``.  Hence the
    supremum over ``n >= n_min + k`` is the largest ``G_n`` over the ``T``
    sizes from ``max(n_min + k, N0)`` on.
``var``, ``std``
    Every pair has a larger member of ``N' >= n`` records for ``GS_n``, and
    ``|var(x) - var(x')| <= w^2 k / N'``: writing the larger as ``K + R``
    (``|R| = k``), ``var(K + R) - var(K) = (k/N')(var R - var K) + (|K|
    k/N'^2)(mean K - mean R)^2``; with ``mean R`` at distance ``u`` and ``v``
    from the ends (``u + v = w``), ``var R <= u v`` and ``|mean K - mean R|
    <= max(u, v)``, so the rise is at most ``(k/N') max(u, v)(u + v) <= w^2
    k / N'``, and the fall at most ``(k/N') var K <= w^2 k / (4 N')``.  For
    the std, ``|sqrt a - sqrt b| <= sqrt |a - b|`` gives ``w sqrt(k / N')``.
    The engine takes ``GS_n`` for ``n = n_min + k, n_min + k + 1, ...`` and
    stops at the first ``n`` whose bound is at most the best value found: no
    later size can beat it.  Since ``GS_{n_min+k}`` is at least the
    two-valued value ``w^2 q (1 - q)``, ``q = k / (n_min + k)``, the search
    stops by ``n >= (n_min + k)^2 / n_min``: about ``k + k^2 / n_min + 1``
    sizes, at most about ``2k + 1`` when ``n_min >= k``.

For a :class:`~dpsens.Pool` the sizes are at most the pool's size; the
engine takes the largest ``GS_n`` over ``n = n_min + k .. |pool|``.
"""
from __future__ import annotations

import math

from ._validate import as_int
from .globalsens import exact_global_sensitivity
from .neighbors import Domain, Pool, check_universe
from .queries import PERCENTILES, Query, check_query
from .relation import Relation

__all__ = ["private_size_global_sensitivity", "SIZES"]

#: The two readings of the size of the data: ``"public"`` (the size-``n``
#: value) and ``"private"`` (the supremum over every size >= ``n_min``).
SIZES = ("public", "private")

#: Most sizes the variance or std search may visit before it gives up (it
#: never needs nearly as many: see the module docstring).
_MAX_STEPS = 100_000


def _percentile_sizes(p, start: int, k: int) -> range:
    """The ``T`` sizes whose largest value is the supremum over ``n >= start`` (module docstring)."""
    period = 2 if p is None else 100
    q = 50 if p is None else min(p, 100 - p)
    n0 = math.ceil(100 * (2 * k + 3) / q) + 1
    first = max(start, n0)
    return range(first, first + period)


def private_size_global_sensitivity(query: Query, universe: Pool | Domain, n_min: int = 1, k: int = 1, *,
                                    max_releases: int | None = None) -> float:
    """Global sensitivity under add/remove neighbours when the size is private.

    Chapter: *Global sensitivity from scratch*.

    The largest change of ``query`` between two datasets that differ by
    ``k`` added (or removed) records, over every pair whose sizes are both at
    least ``n_min`` -- the public lower bound on the size (``n_min = 1``:
    none).  Unlike the size-``n`` value of
    :func:`dpsens.global_sensitivity` (``size="public"``), it does not
    depend on the size of the data, so noise scaled to it reveals nothing
    about that size.  The module docstring proves each query's method.

    Parameters
    ----------
    query : str
        A name from :data:`dpsens.QUERIES`.
    universe : Pool or Domain
        Where the records come from (a pool also caps the size at its own).
    n_min : int
        Public lower bound on the size of every dataset, at least 1.
    k : int
        Group size, at least 1.
    max_releases : int, optional
        Passed to :func:`dpsens.globalsens.exact_global_sensitivity` for each
        size of a pool.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``n_min`` or ``k`` below 1; a pool with fewer than ``n_min + k``
        records (no pair of neighbours fits in it).

    Examples
    --------
    >>> from dpsens import Domain
    >>> private_size_global_sensitivity("mean", Domain([0, 100]))
    50.0
    >>> round(private_size_global_sensitivity("mean", Domain([0, 100]), n_min=30_000), 6)
    0.003333
    """
    name, _ = check_query(query)
    universe = check_universe(universe)
    n_min = as_int(n_min, "n_min", 1)
    k = as_int(k, "k", 1)
    start = n_min + k                          # GS_n for n >= start covers every admissible pair
    extra = {} if max_releases is None else {"max_releases": max_releases}

    def gs(n: int) -> float:
        return exact_global_sensitivity(name, universe, n, k, Relation.UNBOUNDED, **extra)

    if not isinstance(universe, Domain):
        size = len(universe.values)
        if size < start:
            raise ValueError(f"a pool of {size} records holds no pair of neighbours with sizes >= n_min = "
                             f"{n_min} that differ by k = {k} records; need n_min + k <= {size}")
        return max(gs(n) for n in range(start, size + 1))
    if name in ("count", "sum", "mean"):       # count, sum: the same at every size; mean: k w / n decreases
        return gs(start)
    if name == "median" or name in PERCENTILES:
        return max(gs(n) for n in _percentile_sizes(PERCENTILES.get(name), start, k))
    w = float(universe.values[-1]) - float(universe.values[0])
    best, n = 0.0, start
    for _ in range(_MAX_STEPS):
        best = max(best, gs(n))
        n += 1
        bound = w * w * k / n if name == "var" else w * math.sqrt(k / n)
        if bound <= best:
            return best
    raise ValueError(f"the search over sizes for {name!r} did not end within {_MAX_STEPS} sizes "
                     "(it should end after about k + 1); please report this setting")  # pragma: no cover
