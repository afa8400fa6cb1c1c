"""Global sensitivity under the group relation: symmetric difference at most ``k``.

Chapters: *Neighbouring datasets* (the relation, and why it is not the union
of the other two) and *Global sensitivity from scratch*.

Group privacy is stated for datasets at symmetric difference at most ``k``:
any mix of ``r`` removals and ``s`` additions with ``r + s <= k``.  The local
sensitivity under this relation (``neighbors="symmetric"``) is exact for
every query (:mod:`dpsens.local`, the *mixed* families).  Its neighbours
change the size, so, as for add/remove neighbours, the maximum over the
releases of size ``n`` below is a global sensitivity only when ``n`` is
public (:mod:`dpsens.privatesize`; the supremum over every size is not
implemented for this relation).  The maximum over the releases of size
``n`` is:

``count``
    ``k`` (adding ``k`` records).
``sum`` on a domain
    ``k max(|lo|, |hi|)``: the change is ``sum A - sum R``, at most ``(r +
    s) max(|lo|, |hi|)``, and adding ``k`` copies of the extreme of largest
    magnitude attains it.
``mean`` on a domain
    ``k w / n`` as for the other relations.  By the layer-cake reduction of
    :mod:`dpsens.globalsens` (valid for a pair of any sizes) it is ``w``
    times the value on {0, 1}.  There, with ``t`` ones, removing ``r`` zeros
    and adding ``s`` ones moves the mean by ``(t + s)/(n - r + s) - t/n``,
    linear in ``t``: at ``t = 0`` it is ``s/(n - r + s)``, at ``t = n - r``
    it is ``r/n`` (the mirror move gives the same values).  And ``s/(n - r +
    s) <= (r + s)/n`` because ``(r + s)(n - r + s) - s n = r (n - r) + s^2 >=
    0``; so the largest is ``k/n``, at ``r = k``.
``median``, ``percentile_p`` on a domain
    The layer-cake reduction of :mod:`dpsens.globalsens` holds here too:
    thresholding both members of a pair at ``s`` maps ``x - R + A`` to
    ``t(x) - t(R) + t(A)``, still at symmetric distance at most ``k`` (a
    removed and an added record that become equal only cancel), so the
    answer is ``w`` times the value on {0, 1}, attained at ``lo + w z``.  On
    {0, 1} a release is its number of zeros ``z``; for each family ``(r,
    s)`` the percentile is largest after removing zeros first and adding
    ones, smallest after removing ones first and adding zeros (each order
    statistic is monotone, :mod:`dpsens.local`).  The engine evaluates these
    in exact integers for every ``z = 0..n`` and every family: ``O(n k^2)``,
    for ``n`` up to ``MAX_BINARY_N``.
anything else (``var``, ``std``; every query but the count on a pool; percentiles beyond ``MAX_BINARY_N``)
    No closed form is proven here.  The package enumerates the releases of
    size ``n`` and takes the exact local sensitivity of each (at most
    ``max_releases`` of them; beyond that it raises a ``ValueError`` rather
    than return a bound).  The neighbours-of-neighbours shortcut -- the
    larger of the unbounded value at ``k`` and the bounded one at ``k // 2``
    -- is only a lower bound: on ``x = [6, 10, 10, 10, 10]`` and the domain
    {0, 1, 2, 6, 10}, removing the 6 and adding two 0s moves the variance by
    19.66, while no neighbour at symmetric distance at most 3 under the other
    two relations moves it by more than 18.88.
"""
from __future__ import annotations

import numpy as np

from ._validate import as_int, check_result
from .globalsens import MAX_RELEASES, exact_global_sensitivity
from .local import available_values, local_sensitivity_sorted, mixed_families
from .neighbors import Domain, Pool, check_universe, count_releases, releases
from .queries import PERCENTILES, Query, check_query
from .relation import Relation

__all__ = ["symmetric_global_sensitivity", "MAX_BINARY_N"]

#: Largest ``n`` for the exact percentile computation on a domain (``O(n k^2)`` integers).
MAX_BINARY_N = 10**6


def _binary_percentile(z, N: int, p):
    """100 x percentile ``p`` (``None``: median) of ``z`` zeros and ``N - z`` ones, ``z`` an int array."""
    if p is None:
        return 50 * (((N - 1) // 2 >= z).astype(np.int64) + (N // 2 >= z).astype(np.int64))
    return np.clip((N - 1) * p - 100 * (z - 1), 0, 100)


def _binary_symmetric(p, n: int, k: int) -> float:
    """Global sensitivity of a percentile on {0, 1} under symmetric difference <= k (module docstring)."""
    z = np.arange(n + 1, dtype=np.int64)
    fx = _binary_percentile(z, n, p)
    best = 0
    for r, s in mixed_families(n, k, k):
        N = n - r + s
        up = _binary_percentile(z - np.minimum(r, z), N, p)                       # zeros out, ones in
        down = _binary_percentile(z - (r - np.minimum(r, n - z)) + s, N, p)       # ones out, zeros in
        best = max(best, int(np.max(up - fx)), int(np.max(fx - down)))
    return best / 100


def symmetric_global_sensitivity(query: Query, universe: Pool | Domain, n: int, k: int = 1, *,
                                 max_releases: int = MAX_RELEASES) -> float:
    """Global sensitivity over the releases of size ``n`` under symmetric difference at most ``k``.

    Chapter: *Neighbouring datasets*.

    Parameters
    ----------
    query : str
        A name from :data:`dpsens.QUERIES`.
    universe : Pool or Domain
        Where the records come from.
    n : int
        Size of the releases, at least 2 (the size is public here; see
        :mod:`dpsens.privatesize` when it is not).
    k : int
        Largest symmetric difference, ``1 <= k <= n - 1``.
    max_releases : int
        Most releases enumerated where no closed form is proven.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Bad ``n`` or ``k``; more than ``max_releases`` releases to enumerate.

    Examples
    --------
    >>> from dpsens import Domain
    >>> symmetric_global_sensitivity("mean", Domain(range(101)), n=100, k=2)
    2.0
    """
    name, f = check_query(query)
    universe = check_universe(universe)
    pool_size = None if isinstance(universe, Domain) else len(universe.values)
    n = as_int(n, "n", 2, pool_size)
    k = as_int(k, "k", 1, n - 1)
    max_releases = as_int(max_releases, "max_releases", 0)
    if name == "count":
        return float(k)
    if isinstance(universe, Domain) and name in ("sum", "mean"):
        return exact_global_sensitivity(name, universe, n, k, Relation.UNBOUNDED)   # the same closed forms
    if isinstance(universe, Domain) and (name == "median" or name in PERCENTILES) and n <= MAX_BINARY_N:
        w = float(universe.values[-1]) - float(universe.values[0])
        return check_result(w * _binary_symmetric(PERCENTILES.get(name), n, k),
                            f"the global sensitivity of {name!r}")
    total = count_releases(universe, n)
    if total > max_releases:
        raise ValueError(
            f"the global sensitivity of {name!r} under the symmetric relation needs the {total:,} releases "
            f"of size n = {n} (more than max_releases = {max_releases:,}); no exact shortcut is proven "
            "for this query under this relation.  Pass a larger max_releases=..., or a smaller universe.")
    best = 0.0
    for x in releases(universe, n):
        xs = np.array(x, dtype=float)
        a = available_values(xs, universe, k)
        best = max(best, local_sensitivity_sorted(name, f, xs, a, k, Relation.SYMMETRIC))
    return check_result(best, f"the global sensitivity of {name!r}")
