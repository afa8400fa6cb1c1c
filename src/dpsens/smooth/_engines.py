"""The engines behind :mod:`dpsens.smooth`, and the derivation of each: exact ``A(t)`` and smooth maxima.

Chapters: *Propose-test-release* and *Smooth sensitivity* (through the
public functions of :mod:`dpsens.smooth`, which check the arguments and call
:func:`engine` and :func:`smooth_and_distance`).  Each engine gives ``A(t)``
for an array of ``t``, ``sup A`` with a ``t`` reaching it, and the smooth
maximum ``max_t e^{-beta t} A(t)`` with its maximising ``t``.

The neighbour graph
-------------------
Datasets are finite multisets of numbers in the real interval
``[lower, upper]``.  One step is

* ``neighbors="bounded"``: one record replaced by any value in
  ``[lower, upper]`` (the size ``n`` never changes);
* ``neighbors="unbounded"``: one record added (any value in
  ``[lower, upper]``) or removed.  A dataset never becomes empty.

``LS(y)`` is the local sensitivity of a query at ``y`` over one step,
``A(t) = max{LS(y) : y within t steps of x}`` (so ``A(0) = LS(x)``),
``D(b) = min{t : A(t) > b}`` the distance to a dataset with local
sensitivity above ``b``, and the beta-smooth sensitivity is
``S = max_{t >= 0} e^{-beta t} A(t)`` over *every* ``t``.

How each query is computed exactly
----------------------------------
*Order statistics and interpolated percentiles, bounded.*  numpy's linear
percentile at position ``h = (n-1)q`` is ``Q(h) = (1-g) y_i + g y_{i+1}``
(``i = floor(h)``, ``g = h - i``), the piecewise linear function through the
sorted values.  Replacing one record moves every order statistic by at most
one index, and moving a low record to ``upper`` moves all of them up at once,
so ``LS(y) = max(Q(h+1) - Q(h), Q(h) - Q(h-1))`` with the data padded by
``lower`` below and ``upper`` above.  Each of the two windows is
``alpha (y_{j+1} - y_j) + gamma (y_{j+2} - y_{j+1})`` (``alpha = 1-g``,
``gamma = g``).  A dataset within ``t`` replacements agrees with the sorted
``x`` around the window up to a cut: the records between two kept indices
are moved to the ends.  The value is linear in the middle order statistic,
so it is maximal when the middle one is next to one end of the cut, which
leaves two families of pairs ``(left, right)`` of padded indices, with cost
``right - left - 1`` (the number of records moved):

* ``alpha (X_b - X_p) + gamma (X_{b+1} - X_b)``, ``-1 <= p <= j < b <= n``;
* ``gamma (X_q - X_a) + alpha (X_a - X_{a-1})``, ``-1 <= a <= j+1 < q <= n``.

numpy's median of an even number of records is the mean of the two middle
values, i.e. ``i = n/2 - 1`` and ``g = 1/2``: a replaced record moves *both*
middle order statistics, so its windows are ``(y_{j+2} - y_j)/2`` and both
families of pairs are needed; the odd case is ``g = 0``.
With ``g = 0`` this is Nissim, Raskhodnikova & Smith's (2007) formula
``A(t) = max_{s=0..t+1} (X_{m+s} - X_{m+s-t-1})``.  The smooth sensitivity is
``max over pairs of e^{-beta cost} (R(right) - L(left))``; for a fixed left the
best right is a monotone function of ``L(left)`` (NRS07, Sec. 3.1), so a
divide and conquer over the lefts sorted by ``L`` finds it in
``O(n log n)``.

*Median, unbounded.*  Adding or removing a record moves the median by half a
gap: ``LS(y) = (y_{k+1} - y_k)/2`` maximised over the middle pairs (the pair
around the median element for odd size, the central pair for even size).
To make ``(X_p, X_b)`` such a pair all records between them are removed
(``b - p - 1`` steps) and the two sides are balanced by adding or removing
records at the ends (``max(0, |p - (n-1-b)| - 1)`` more steps).  For a fixed
``p`` the cost is non-decreasing in ``b`` and the gap increasing, so only
``O(n)`` pairs can be optimal; the curve, the distance and the smooth
sensitivity come from that list in ``O(n)`` after sorting.

*Other percentiles, unbounded* (:class:`_PercentileUnbounded`).  Let
``q = p/100``.  Mirroring the data (``v -> lower + upper - v``) maps the
``q`` percentile to the ``1 - q`` one and leaves ``A`` unchanged, so take
``q > 1/2``.  For ``y`` of size ``m`` let ``h = q(m-1)`` and ``Q_y`` the
piecewise linear function through the sorted ``y``, padded with ``lower``
below and ``upper`` above; it is non-decreasing.  Adding ``upper`` gives
``Q_y(h+q)``, adding ``lower`` ``Q_y(h-(1-q))``, removing the largest record
``Q_y(h-q)``, the smallest ``Q_y(h+1-q)``, and adding or removing any other
value lands between these (each order statistic of the neighbour lies
between two adjacent ones of ``y``).  So for ``m >= 2``
``LS(y) = max(U, D)``, ``U = Q_y(h+q) - Q_y(h)``, ``D = Q_y(h) - Q_y(h-q)``,
and ``LS = max(q (upper - y_0), (1-q)(y_0 - lower))`` for ``m = 1`` (three
candidates: keep ``x_0`` or ``x_{n-1}``, ``n - 1`` steps, or a new record,
``n + 1``).  Each of ``U``, ``D`` is a *window* of ``k = 2`` or ``3``
consecutive order statistics from rank ``rho(m)``, worth
``alpha (y_1 - y_0) + gamma (y_2 - y_1)`` (weights from the fractional part
of ``h``; the top one may be the padding).  Which ``y`` are worst:

1. An added value can be moved to ``lower`` or ``upper`` without lowering a
   window: outside the window ranks do not change; as the first (last)
   element it leaves, and the next order statistic further out takes its
   place; as the middle one the value is linear in it, so move it onto a
   neighbour's value and it is first or last.  So ``y`` is ``L`` copies of
   ``lower``, the kept records, ``H`` copies of ``upper``.
2. Name the window's elements by padded indices ``p < c < b`` of the sorted
   ``x`` (``X_{-2} = X_{-1} = lower``, ``X_n = X_{n+1} = upper`` are added
   values).  The records strictly between ``p`` and ``b`` other than ``c``
   are removed, and ``rho(m)`` elements below and ``sigma(m) = m - rho - k``
   above come from adding or removing at the ends: the fewest steps are
   ``|p - rho| + |n-1-b - sigma| + (b - p + 1 - k)``.  The value is linear in
   ``X_c``, so ``c = p + 1`` or ``c = b - 1`` (two *families*).
3. If ``p > rho(m)`` records below are removed; the pair ``(p-1, b)`` costs
   the same and is worth at least as much.  Likewise on the right.  So
   ``p <= rho(m)``, ``b >= n-1-sigma(m)``, only additions at the ends, and
   the cost is ``2(b - p) + m - n + 2 - 2k``.
4. The weights depend on ``m`` through ``m mod T`` only
   (``T = 100/gcd(p, 100)``); in a class, ``m -> m + T`` raises ``rho`` by
   ``qT`` and ``sigma`` by ``(1-q)T < T/2``.  For a pair the smallest ``m`` of
   the class meeting both conditions is best.  If the condition on
   ``sigma`` is the binding one, some ``(p, b + j)``, ``j <= (1-q)T``, meets
   both with ``m - T``: ``T - 2j > 0`` steps cheaper, worth at least as much.
   So every candidate uses ``m = mu(p)``, the smallest size of the class with
   ``rho >= p``, and any ``b >= lo(p) = max(n-1-sigma(mu(p)), p + k - 1)``,
   at cost ``2b + lam(p)``.

Unlike the median this is not an ``O(n)`` list: a pair with extra copies of
``upper`` is not dominated, since moving ``p`` down costs 2 per record and
saves only ``1/q < 2`` in ``m``.  ``A(t)`` takes, for each left ``p`` of each
(window, class), the largest allowed ``b`` (the value is non-decreasing in
``b`` up to ``n``; ``b = n + 1``, both top elements at ``upper``, apart): one
vectorised pass over the ``O(T t)`` lefts whose cheapest pair costs at most
``t``.  The smooth sensitivity is ``max e^{-beta (2b + lam(p))} (R(b) - L(p))``
over pairs with ``b >= lo(p)``; cutting each left's suffix of rights into
aligned dyadic blocks gives rectangles on which the monotonicity of NRS07
holds, solved together by one divide and conquer: ``O(n log^2 n)`` for each
of the ``2T`` (window, class) problems and two families, after pairs too long
to beat a lower bound (``e^{-beta t} A(t)`` on a grid of ``t``) are dropped.

*Mean, sum, count.*  Closed forms (bounded), and for the unbounded mean an
exact search over how many records are removed and how many added (see
:class:`_MeanUnbounded`).

*Variance and standard deviation* raise ``ValueError`` here: no exact
algorithm is implemented, and this package does not return approximations
silently.  :func:`smooth_sensitivity_bound` gives a provable beta-smooth
*upper bound* for them (see :mod:`dpsens.smooth._variance` for the proof).

*Speed.*  ``smooth_sensitivity`` of the order statistics and percentiles
first builds engines restricted to the pairs within a *reach* of the
percentile's index, whose maximum is a lower bound including every candidate
of cost ``<= reach``; an upper bound ``U(t) >= A(t)`` (the spread of the
padded sorted data over the indices a dataset within ``t`` steps can use)
then shows that no ``t > reach`` can beat it, or the reach grows (the full
engine past ``n/8``).  On typical data only a few hundred distances matter,
so the cost is the sort plus ``O(reach log^2 reach)``.
"""
from __future__ import annotations

import math

import numpy as np

from ..queries import PERCENTILES

__all__ = ["engine", "smooth_and_distance"]


# --------------------------------------------------------------------------------------------
# engines: each gives A(t) for an array of t, sup A with a t reaching it, and the smooth max
# --------------------------------------------------------------------------------------------

class _Candidates:
    """A(t) = max{value_i : cost_i <= t} for a finite list of (cost, value)."""

    def __init__(self, cost, value):
        cost = np.asarray(cost, dtype=np.int64)
        value = np.asarray(value, dtype=float)
        order = np.argsort(cost, kind="stable")
        self.cost = cost[order]
        self.value = value[order]
        self.cummax = np.maximum.accumulate(self.value)
        self.sup = float(self.cummax[-1])
        self.t_sup = int(self.cost[np.argmax(self.cummax >= self.sup)])

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        idx = np.searchsorted(self.cost, t, side="right") - 1
        return np.where(idx >= 0, self.cummax[np.maximum(idx, 0)], 0.0)

    def smooth(self, beta, t_max=None):
        with np.errstate(under="ignore"):
            w = np.exp(-beta * self.cost.astype(float)) * self.value
        k = int(np.argmax(w))
        return float(w[k]), int(self.cost[k])


class _Constant:
    """A(0) = a0, A(t) = a1 for t >= 1 (bounded mean/sum/count, unbounded sum/count)."""

    def __init__(self, a0, a1):
        self.a0, self.a1 = float(a0), float(max(a0, a1))
        self.sup = self.a1
        self.t_sup = 0 if self.a0 >= self.a1 else 1

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        return np.where(t >= 1, self.a1, self.a0)

    def smooth(self, beta):
        s1 = math.exp(-beta) * self.a1
        return (self.a0, 0) if self.a0 >= s1 else (s1, 1)


def _quantile_position(name, n):
    """(i, g) with numpy's value ``(1-g) y_i + g y_{i+1}`` for the query on n sorted values."""
    if name == "median":
        if n % 2:
            return (n - 1) // 2, 0.0
        return n // 2 - 1, 0.5
    q = PERCENTILES[name] / 100.0
    h = n * q + (1 + q * (1 - 1 - 1)) - 1   # numpy's _compute_virtual_index for method="linear"
    i = int(np.floor(h))
    g = float(h - i)
    if i >= n - 1:
        i, g = n - 1, 0.0
    return i, g


def _padded(xs, lower, upper):
    """``X(k)``: the sorted data padded with ``lower`` below index 0 and ``upper`` from index n on."""
    n = len(xs)

    def X(k):
        k = np.asarray(k, dtype=np.int64)
        return np.where(k < 0, lower, np.where(k >= n, upper, xs[np.clip(k, 0, max(n - 1, 0))]))
    return X


def _needed_reach(eng, beta, best, reach):
    """Largest ``t > reach`` at which ``e^{-beta t} min(U(t), sup)`` exceeds ``best`` (``reach`` if none).

    Beyond ``ln(sup/best)/beta`` the factor ``e^{-beta t} sup`` alone is at most ``best``, and beyond
    ``t_sup`` A is constant, so only distances up to the smaller of the two are looked at.
    """
    t_hi = eng.t_sup
    if best > 0:
        t_hi = min(t_hi, int(math.ceil(math.log(eng.sup / best) / beta)) + 1)
    if t_hi <= reach:
        return reach
    t = np.arange(reach + 1, t_hi + 1)
    with np.errstate(under="ignore"):
        bound = np.exp(-beta * t) * np.minimum(eng.U(t), eng.sup)
    over = np.nonzero(bound > best)[0]
    return int(t[over[-1]]) if over.size else reach


def _smooth_by_reach(make, n, beta, reach=64):
    """The smooth sensitivity from engines restricted to the pairs of cost ``<= reach``.

    ``make(reach)`` builds a restricted engine (``make(None)`` the full one) whose ``smooth(beta, t_max)``
    returns the maximum over a set of *real* candidates (so a lower bound on ``S``) that contains every
    candidate of cost ``<= reach``, and whose ``U(t) >= A(t)``.  If no ``t > reach`` can beat it
    (:func:`_needed_reach`), it is ``S``: exact.  Otherwise the reach grows to the largest distance that
    could, and beyond an eighth of ``n`` the full engine is used.
    """
    if reach < n // 8:
        # a first reach from a cheap lower bound (A on a few distances), so that one pass usually suffices
        eng = make(reach)
        grid = np.unique(np.round(1.3 ** np.arange(0, 1 + int(math.log(reach) / math.log(1.3)))).astype(np.int64))
        with np.errstate(under="ignore"):
            floor = float(np.max(np.exp(-beta * np.concatenate(([0], grid))) * eng.A(np.concatenate(([0], grid)))))
        reach = max(reach, _needed_reach(eng, beta, floor, reach))
    while reach < n // 8:
        eng = make(reach)
        best, cost = eng.smooth(beta, t_max=reach)
        need = _needed_reach(eng, beta, max(best, 0.0), reach)
        if need <= reach:
            return best, cost
        reach = max(2 * reach, need)
    return make(None).smooth(beta)


class _PairProblem:
    """max over lefts in [lo, hi] and rights in [rlo, rhi] of R(r) - L(l), cost r - l - 1 (r > l always)."""

    def __init__(self, L, lo, hi, R, rlo, rhi):
        self.lo, self.hi, self.rlo, self.rhi = lo, hi, rlo, rhi
        self.L = np.asarray(L, dtype=float)      # L[k] is the value at left position lo + k
        self.R = np.asarray(R, dtype=float)      # R[k] is the value at right position rlo + k
        self.sufmin = np.minimum.accumulate(self.L[::-1])[::-1]

    def A(self, t):
        """max over pairs with cost <= t (t a scalar)."""
        rmax = min(self.rhi, self.hi + t + 1)
        if rmax < self.rlo:
            return -np.inf
        r = np.arange(self.rlo, rmax + 1)
        start = np.maximum(self.lo, r - t - 1) - self.lo
        return float(np.max(self.R[r - self.rlo] - self.sufmin[start]))

    def smooth(self, beta, floor=0.0):
        """max over all pairs of e^{-beta(r-l-1)} (R - L); pairs longer than needed to beat ``floor`` are skipped."""
        lo, hi, rlo, rhi = self.lo, self.hi, self.rlo, self.rhi
        if floor > 0:
            span = float(np.max(self.R) - np.min(self.L))
            if span <= floor:
                return -np.inf, 0
            K = int(math.ceil(math.log(span / floor) / beta)) + 1
            lo = max(lo, rlo - 1 - K)
            rhi = min(rhi, hi + 1 + K)
        Lpos = np.arange(lo, hi + 1)
        Lval = self.L[Lpos - self.lo]
        Rpos = np.arange(rlo, rhi + 1)
        Rval = self.R[Rpos - self.rlo]
        return _pair_smooth(Lval, Lpos, Rval, Rpos, beta)


def _pair_smooth(Lval, Lpos, Rval, Rpos, beta):
    """max_{l, r} e^{-beta (Rpos_r - Lpos_l - 1)} (Rval_r - Lval_l), every right after every left.

    For a fixed left the (largest) best right is non-decreasing in ``Lval``:
    the score of a later right relative to an earlier one grows with ``Lval``
    (Nissim, Raskhodnikova & Smith 2007, Sec. 3.1).  Divide and conquer over
    the lefts sorted by ``Lval``, one vectorised pass per level, works in
    log space so that long distances do not underflow.
    Returns (max value, cost of the maximising pair).
    """
    order = np.argsort(Lval, kind="stable")
    return _pair_smooth_nodes(np.asarray(Lval)[order], np.asarray(Lpos)[order], np.array([0]),
                              np.array([len(Lval) - 1]), np.asarray(Rval), np.asarray(Rpos),
                              np.array([0]), np.array([len(Rval) - 1]), beta)


def _pair_smooth_nodes(Lv, Lp, a, b, Rval, Rpos, c, d, beta):
    """:func:`_pair_smooth` for many independent rectangles at once.

    Node ``k`` pairs the lefts ``Lv[a_k..b_k]`` (sorted by value within the
    node) with the rights ``Rval[c_k..d_k]`` (``Rpos`` non-decreasing within
    the node), every pair allowed; the cost of a pair is
    ``Rpos_r - Lpos_l - 1``.  The argument of :func:`_pair_smooth` only uses
    that the cost of a pair is a cost of the left plus a non-decreasing cost
    of the right, so it holds in every node.  Returns (max value, its cost).
    """
    a, b, c, d = (np.asarray(v, dtype=np.int64) for v in (a, b, c, d))
    best_score, best_cost, best_diff = -np.inf, 0, 0.0
    # nodes: left-rank interval [a, b], right interval [c, d]
    while a.size:
        mid = (a + b) // 2
        lengths = d - c + 1
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        node = np.repeat(np.arange(a.size), lengths)
        ridx = np.arange(lengths.sum()) - starts[node] + c[node]
        diff = Rval[ridx] - Lv[mid[node]]
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(diff > 0, np.log(np.where(diff > 0, diff, 1.0)), -np.inf) \
                - beta * (Rpos[ridx] - Lp[mid[node]] - 1)
        segmax = np.maximum.reduceat(score, starts)
        is_max = score == segmax[node]
        # largest maximising right of each node (an all -inf node takes its last right)
        arg = np.maximum.reduceat(np.where(is_max, ridx, -1), starts)
        k = int(np.argmax(segmax))
        if segmax[k] > best_score:
            best_score = float(segmax[k])
            best_cost = int(Rpos[arg[k]] - Lp[mid[k]] - 1)
            best_diff = float(Rval[arg[k]] - Lv[mid[k]])
        left = a <= mid - 1
        right = mid + 1 <= b
        a, b, c, d = (np.concatenate((a[left], mid[right] + 1)), np.concatenate((mid[left] - 1, b[right])),
                      np.concatenate((c[left], arg[right])), np.concatenate((arg[left], d[right])))
    if best_score == -np.inf:
        return -np.inf, 0
    return best_diff * math.exp(-beta * best_cost), best_cost


class _PerDistance:
    """An engine that computes ``A(t)`` one distance at a time (``_A1``); ``A`` maps it over an array of t."""

    def A(self, t):
        t = np.asarray(t, dtype=np.int64)
        out = np.empty(t.shape)
        flat = out.reshape(-1)
        for k, tk in enumerate(t.reshape(-1)):
            flat[k] = self._A1(int(tk))
        return out


class _QuantileBounded(_PerDistance):
    """Bounded relation, order statistics and interpolated percentiles (see the module docstring).

    With ``reach`` set, only the lefts and rights that a pair of cost ``<= reach`` can use are kept (a
    pair's indices are within ``reach + 2`` of the window): ``A(t)`` is then exact for ``t <= reach``
    and a lower bound beyond, ``smooth`` a lower bound that includes every pair of cost ``<= reach``
    (see :func:`_smooth_by_reach`); ``sup`` is then only an upper bound.
    """

    def __init__(self, xs, name, lower, upper, reach=None):
        n = len(xs)
        self.n = n
        i, g = _quantile_position(name, n)
        self.i = i
        alpha, gamma = 1.0 - g, g
        self.val = val = _padded(xs, lower, upper)
        R = n + 2 if reach is None else int(reach)

        self.problems = []
        for j in {i, i - 1}:
            if j < -1 or j > n - 1:
                continue
            p = np.arange(max(-1, j - R - 1), j + 1)
            bb = np.arange(j + 1, min(n, j + R + 2) + 1)
            self.problems.append(_PairProblem(alpha * val(p), int(p[0]), j,
                                              alpha * val(bb) + gamma * (val(bb + 1) - val(bb)), j + 1, int(bb[-1])))
            if gamma > 0 and j + 2 <= n:
                aa = np.arange(max(-1, j - R), j + 2)
                qq = np.arange(j + 2, min(n, j + R + 3) + 1)
                self.problems.append(_PairProblem(gamma * val(aa) - alpha * (val(aa) - val(aa - 1)), int(aa[0]), j + 1,
                                                  gamma * val(qq), j + 2, int(qq[-1])))
        self.sup = float(self.A(np.array([n]))[0]) if reach is None else float(upper - lower)
        self.t_sup = n

    def U(self, t):
        """An upper bound on ``A(t)``: every pair of cost ``<= t`` lies in the padded indices
        ``[i - t - 2, i + t + 2]`` and its value is at most the spread of its indices."""
        t = np.asarray(t, dtype=np.int64)
        return self.val(self.i + t + 3) - self.val(self.i - t - 3)

    def _A1(self, t: int) -> float:
        return max(0.0, max(pr.A(min(t, self.n)) for pr in self.problems))

    def smooth(self, beta, t_max=None):
        # a cheap lower bound first, to skip pairs too long to matter
        floor, t = float(self.A(np.array([0]))[0]), 1
        t_max = self.n if t_max is None else min(self.n, t_max)
        while t <= t_max:
            floor = max(floor, math.exp(-beta * t) * float(self.A(np.array([t]))[0]))
            t *= 2
        best, cost = 0.0, 0
        for pr in self.problems:
            v, c = pr.smooth(beta, floor=floor * (1 - 1e-9) if floor > 0 else 0.0)
            if v > best:
                best, cost = v, c
        return best, cost


def _median_unbounded(xs, lower, upper, reach=None):
    """(cost, value) candidates for the median with one record added or removed.

    With ``reach < n - 3`` only the candidates that can cost ``<= reach`` are listed: a pair
    ``(p, b)`` has ``b >= n - p - 2`` and costs at least ``b - p - 1 >= n - 2p - 3``, so
    ``p >= (n - 3 - reach)/2``; the pairs with an inserted end and the one-record datasets cost
    at least ``n - 1``.
    """
    n = len(xs)
    restricted = reach is not None and reach < n - 3
    pmin = max(-1, (n - 3 - int(reach)) // 2 - 1) if restricted else -1
    val = _padded(xs, lower, upper)
    ps, bs = [], []
    p = np.arange(pmin, n)
    for off in (-2, -1, 0):
        b = n - 1 - p + off + 1          # b in {n-p-2, n-p-1, n-p}
        ok = (b > p) & (b <= n)
        ps.append(p[ok]); bs.append(b[ok])
    if not restricted:
        ps.append(np.full(n + 1, -1)); bs.append(np.arange(0, n + 1))       # lower element inserted at `lower`
        ps.append(np.arange(-1, n)); bs.append(np.full(n + 1, n))           # upper element inserted at `upper`
    p = np.concatenate(ps); b = np.concatenate(bs)
    pplus = np.maximum(p, 0)
    qplus = np.maximum(n - 1 - b, 0)
    cost = (b - p - 1) + (p < 0) + (b > n - 1) + np.maximum(0, np.abs(pplus - qplus) - 1)
    value = (val(b) - val(p)) / 2.0
    if restricted:
        cand = _Candidates(cost, value)
        cand.sup, cand.t_sup = (upper - lower) / 2.0, n + 1     # bounds only: the list is partial
        c = (n - 1) // 2                                         # U: as for the other percentiles
        cand.U = lambda t: val(c + 2 * np.asarray(t, dtype=np.int64) + 5) - val(c - 2 * np.asarray(t, dtype=np.int64) - 5)
        return cand
    # a single remaining record: only additions are possible, LS = max(upper - y, y - lower)/2
    # (a kept record, or a new record at `lower`/`upper` once every original one is removed)
    cost = np.concatenate((cost, [n - 1, n - 1, n + 1]))
    value = np.concatenate((value, [(upper - xs[0]) / 2.0, (xs[-1] - lower) / 2.0, (upper - lower) / 2.0]))
    return _Candidates(cost, value)


def _percentile_windows(P, g100):
    """The two windows of the local sensitivity of the percentile ``q = P/100 > 1/2`` at a size with
    fractional position ``g = g100/100``, as ``(k, off, alpha, gamma)``: ``k`` consecutive order
    statistics starting at rank ``i + off``, value ``alpha (y_1 - y_0) + gamma (y_2 - y_1)`` (``k = 3``)
    or ``alpha (y_1 - y_0)`` (``k = 2``); weights in hundredths."""
    if g100 + P <= 100:                       # up: [h, h+q] inside one cell
        up = (2, 0, P, 0)
    else:
        up = (3, 0, 100 - g100, g100 + P - 100)
    if g100 >= P:                             # down: [h-q, h] inside one cell
        down = (2, 0, P, 0)
    elif g100 == 0:
        down = (2, -1, P, 0)
    else:
        down = (3, -1, P - g100, g100)
    return up, down


def _suffix_blocks(length):
    """Aligned dyadic blocks covering ``[0, length_i)`` for every ``i``: (owner, j, s), block ``[s, s + 2^j)``."""
    owners, js, ss = [], [], []
    for j in range(int(length.max()).bit_length()):
        sel = np.nonzero((length >> j) & 1)[0]
        if sel.size:
            owners.append(sel)
            js.append(np.full(sel.size, j, dtype=np.int64))
            ss.append((length[sel] >> (j + 1)) << (j + 1))
    return np.concatenate(owners), np.concatenate(js), np.concatenate(ss)


class _PercentileUnbounded(_PerDistance):
    """Exact A(t) and smooth sensitivity of ``percentile_p`` (p != 50), one record added or removed.

    See the module docstring for the argument.  Data are mirrored so that ``q > 1/2``.  Candidates are
    triples (window, class of the size ``m`` mod ``T``, pair ``(p, b)`` of padded indices) with cost
    ``2b + lam(p)`` and rights ``b >= lo(p)``; plus the three one-record datasets.
    """

    def __init__(self, xs, name, lower, upper, reach=None):
        P = PERCENTILES[name]
        if P < 50:
            # mirror by negation (exact in floating point; ``lower + upper - x`` rounds the spacing of
            # the data away when the bounds are much larger than the data)
            xs, lower, upper = -xs[::-1], -upper, -lower
            P = 100 - P
        if not 50 < P < 100:
            raise AssertionError(P)
        n = len(xs)
        self.n, self.lower, self.upper = n, float(lower), float(upper)
        # X(k) = X[k + 2] for k in [-2, n + 1], unscaled: the weights (hundredths) are divided by 100,
        # so no value is ever scaled up (bounds near the largest float do not overflow)
        self.X = X = np.concatenate(([lower, lower], xs, [upper, upper]))
        q = P / 100.0
        self.sup = q * (upper - lower)
        self.t_sup = n + 1
        # a single record left (m = 1): only additions, LS = max(q (upper - y), (1 - q)(y - lower))
        self.single_cost = np.array([n - 1, n - 1, n + 1])
        self.single_value = np.array([q * (upper - xs[0]), (1 - q) * (xs[-1] - lower), q * (upper - lower)])
        gcd = math.gcd(P, 100)
        T, Q = 100 // gcd, P // gcd          # one class step: m += T, rank += Q, ranks above += T - Q
        # With ``reach`` set, only lefts within 2 reach + 6 of the rank c of the percentile are kept: the
        # window's first element p has rank rho(m) in [i_m - 1, i_m] in a dataset of size m, each step
        # changes the rank of a kept record and m by at most one, so a candidate of cost t has
        # |p - c| <= 2t + 2.  A(t) is then exact for t <= reach, a lower bound beyond (every candidate is
        # a real dataset), and ``smooth`` a lower bound including every candidate of cost <= reach.
        self.c = c = (P * (n - 1)) // 100
        self.val = _padded(xs, lower, upper)
        if reach is None:
            plo, phi = -2, n
        else:
            plo, phi = max(-2, c - 2 * int(reach) - 6), min(n, c + 2 * int(reach) + 7)
        self.problems = []
        for r in range(T):
            m0 = r if r >= 2 else r + T       # smallest size >= 2 in the class
            i0, g100 = divmod(P * (m0 - 1), 100)
            for k, off, alpha, gamma in _percentile_windows(P, g100):
                rho0 = i0 + off
                sig0 = m0 - rho0 - k
                p = np.arange(max(plo, -2 if k == 3 else -1), phi)
                j = np.maximum(0, -((rho0 - p) // Q))          # fewest class steps with rank >= p
                m = m0 + T * j
                lo = np.maximum(n - 1 - (sig0 + (T - Q) * j), p + k - 1)
                lam = m - n + 2 - 2 * k - 2 * p
                bmax = n + 1 if k == 3 else n
                cmin = 2 * lo + lam
                keep = (lo <= bmax) & (cmin <= n + 1)
                self.problems.append((k, alpha / 100.0, gamma / 100.0, p[keep], lam[keep], lo[keep]))
        cat = lambda idx: np.concatenate([pr[idx] for pr in self.problems])  # noqa: E731
        size = [len(pr[3]) for pr in self.problems]
        E = dict(p=cat(3), lam=cat(4), lo=cat(5),
                 k=np.repeat([pr[0] for pr in self.problems], size),
                 alpha=np.repeat([pr[1] for pr in self.problems], size).astype(float),
                 gamma=np.repeat([pr[2] for pr in self.problems], size).astype(float))
        cmin = 2 * E["lo"] + E["lam"]
        order = np.argsort(cmin, kind="stable")
        self.cmin = cmin[order]
        self.E = {key: v[order] for key, v in E.items()}

    def U(self, t):
        """An upper bound on ``A(t)``: a dataset y of size m within t steps has, for every padded rank r,
        ``X_{r-t} <= y_(r) <= X_{r+t}`` (one step moves each order statistic by at most one index),
        ``LS(y) <= y_(i+2) - y_(i-1)`` with ``i = floor(q(m-1))`` in ``[c - t - 1, c + t + 1]``."""
        t = np.asarray(t, dtype=np.int64)
        return self.val(self.c + 2 * t + 5) - self.val(self.c - 2 * t - 5)

    # ------------------------------------------------------------------ A(t)
    def _A1(self, t):
        n, X = self.n, self.X
        if t >= n + 1:
            return self.sup
        ok1 = self.single_cost <= t
        best = float(np.max(self.single_value[ok1])) if ok1.any() else 0.0
        e = int(np.searchsorted(self.cmin, t, side="right"))
        if e == 0:
            return best
        E = {key: v[:e] for key, v in self.E.items()}
        p, lo, al, ga, is3 = E["p"], E["lo"], E["alpha"], E["gamma"], E["k"] == 3
        hi = (t - E["lam"]) // 2
        bs = np.clip(np.minimum(hi, n), -2, n + 1)
        ok = bs >= lo
        Xp, Xb = X[p + 2], X[bs + 2]
        Xb1, Xp1 = X[np.maximum(bs + 1, 0)], X[np.minimum(p + 3, n + 3)]
        v = np.where(is3, -np.inf, al * (Xb - Xp))
        f1 = np.where(p >= -1, al * (Xb1 - Xp) + ga * (Xb - Xb1), -np.inf)
        f2 = np.where(p <= n - 2, al * (Xp1 - Xp) + ga * (Xb - Xp1), -np.inf)
        v = np.where(is3, np.maximum(f1, f2), v)
        v = np.where(ok, v, -np.inf)
        # the window's top two at `upper` (c = n, b = n + 1)
        top = is3 & (hi >= n + 1) & (lo <= n + 1) & (p >= -1)
        v = np.maximum(v, np.where(top, al * (X[n + 3] - Xp), -np.inf))
        return max(best, float(np.max(v)))

    # ------------------------------------------------------------------ smooth
    def smooth(self, beta, t_max=None):
        n, X = self.n, self.X
        if self.sup <= 0:
            return 0.0, 0
        with np.errstate(under="ignore"):
            w = np.exp(-beta * self.single_cost.astype(float)) * self.single_value
        kbest = int(np.argmax(w))
        best, best_t = float(w[kbest]), int(self.single_cost[kbest])
        # a lower bound from A on a geometric grid of distances, to skip pairs too long to matter
        grid = np.unique(np.concatenate((np.arange(0, min(n + 1, 32) + 1),
                                         np.round(1.15 ** np.arange(1, 200)).astype(np.int64))))
        floor = best
        for t in grid[grid <= (n + 1 if t_max is None else min(n + 1, t_max))]:
            if math.exp(-beta * int(t)) * self.sup <= floor:
                break                  # no longer distance can beat the bound
            floor = max(floor, math.exp(-beta * int(t)) * self._A1(int(t)))
        K = n + 1
        if floor > 0:
            K = min(K, int(math.floor(math.log(self.sup / floor) / beta)) + 2)
        if t_max is not None:
            K = min(K, int(t_max))      # restricted: the caller bounds every longer distance itself
        # the pair problems, families split: lefts (L, Lpos), rights (R, Rpos = 2b), b >= lo(p)
        chunk, size = [], 0
        for k, al, ga, p, lam, lo in self.problems:
            # (family, largest right): k = 2; k = 3 with c = b - 1 (c = n at b = n + 1); k = 3 with c = p + 1
            for fam, bmax in ((("pair", n),) if k == 2 else (("c=b-1", n + 1), ("c=p+1", n))):
                hiK = np.minimum(bmax, (K - lam) // 2)
                sel = (lo <= hiK) & ((p <= n - 2) if fam == "c=p+1" else (p >= -1))
                if not sel.any():
                    continue
                top = int(hiK[sel].max())
                base = int(lo[sel].min())
                b = np.arange(base, top + 1)
                ps = p[sel]
                if fam == "pair":
                    L, R = al * X[ps + 2], al * X[b + 2]
                elif fam == "c=b-1":
                    L, R = al * X[ps + 2], (al - ga) * X[b + 1] + ga * X[b + 2]
                else:
                    L, R = al * X[ps + 2] - (al - ga) * X[ps + 3], ga * X[b + 2]
                chunk.append((L, -lam[sel] - 1, top - lo[sel] + 1, top, base, R, 2 * b))
                size += int(sel.sum()) * max(1, (top - base + 1).bit_length())
                if size > 4_000_000:
                    v, c = self._solve(chunk, beta)
                    if v > best:
                        best, best_t = v, c
                    chunk, size = [], 0
        if chunk:
            v, c = self._solve(chunk, beta)
            if v > best:
                best, best_t = v, c
        return best, best_t

    @staticmethod
    def _solve(chunk, beta):
        """Every problem of the chunk: lefts with suffixes of rights, cut into aligned blocks (rectangles)."""
        Ls, Lps, probs, js, ss, Rv, Rp, roff, tops, bases = [], [], [], [], [], [], [], [], [], []
        off = 0
        for ip, (L, Lp, length, top, base, R, Rpos) in enumerate(chunk):
            owner, j, s = _suffix_blocks(length)
            Ls.append(L[owner]); Lps.append(Lp[owner]); js.append(j); ss.append(s)
            probs.append(np.full(owner.size, ip))
            Rv.append(R); Rp.append(Rpos); roff.append(off); tops.append(top); bases.append(base)
            off += len(R)
        L, Lp, prob, j, s = (np.concatenate(v) for v in (Ls, Lps, probs, js, ss))
        order = np.lexsort((L, s, j, prob))
        L, Lp, prob, j, s = L[order], Lp[order], prob[order], j[order], s[order]
        new = np.ones(L.size, dtype=bool)
        new[1:] = (prob[1:] != prob[:-1]) | (j[1:] != j[:-1]) | (s[1:] != s[:-1])
        a = np.nonzero(new)[0]
        b = np.concatenate((a[1:] - 1, [L.size - 1]))
        pr, jj, sn = prob[a], j[a], s[a]
        roff, tops, bases = np.array(roff), np.array(tops), np.array(bases)
        hi_b = tops[pr] - sn                          # block: b in [top - s - 2^j + 1, top - s]
        lo_b = hi_b - (np.int64(1) << jj) + 1
        c = roff[pr] + lo_b - bases[pr]
        d = roff[pr] + hi_b - bases[pr]
        v, cost = _pair_smooth_nodes(L, Lp, a, b, np.concatenate(Rv), np.concatenate(Rp), c, d, beta)
        return v, cost


class _MeanUnbounded(_PerDistance):
    """Exact A(t) of the mean, one record added or removed.

    A dataset within t steps is ``x`` with ``r`` records removed and ``a``
    values added, ``r + a <= t``.  Since removing a record and adding its value
    back changes nothing, the sets with ``(r, a)`` grow along ``(r+1, a+1)``
    (for ``r < n``), so ``A(t)`` is the maximum over ``r + a`` in
    ``{t-1, t}``, ``r <= n-1``, plus the datasets made of new values only
    (``r = n``, ``a >= 1``, which never beat ``(upper-lower)/2``, reached at
    ``t = n + 1`` by ``{lower, upper}``).  For given ``(r, a)`` each of the four
    terms of the local sensitivity (add ``upper``/``lower``, remove the
    largest/smallest record) is maximised separately; for the "upward" terms
    the mean should be as small as possible: keep the ``n - r`` smallest
    records and add copies of ``lower``, with the largest record being either
    an added ``upper`` or the kept maximum of ``x``.  The downward terms are
    the mirror image.
    """

    def __init__(self, xs, lower, upper):
        self.n = n = len(xs)
        self.lower, self.upper = lower, upper
        self.xs = xs
        self.P = np.concatenate(([0.0], np.cumsum(xs)))                 # sums of the k smallest
        xr = -xs[::-1]                          # mirror image by negation (exact), sorted, on [-upper, -lower]
        self.Pr = np.concatenate(([0.0], np.cumsum(xr)))
        self.xr = xr
        self.sup = (upper - lower) / 2.0
        self.t_sup = n + 1

    def _G_side(self, r, a, P, xs, lo, up):
        n = self.n
        m = (n - r + a).astype(float)
        keep = n - r
        s_small = P[keep]
        mu1 = (s_small + a * lo) / m
        best = (up - mu1) / (m + 1)                               # add `upper`
        with np.errstate(divide="ignore", invalid="ignore"):
            # remove the maximum, which is an added `upper` (a >= 1)
            so = s_small + (a - 1) * lo
            v1 = np.where((a >= 1) & (m >= 2), (m - 1) * up - so, -np.inf) / (m * np.maximum(m - 1, 1))
            # remove the maximum, which is the kept largest record of x
            so2 = P[np.maximum(keep - 1, 0)] + a * lo
            v2 = np.where((keep >= 1) & (m >= 2), (m - 1) * xs[-1] - so2, -np.inf) / (m * np.maximum(m - 1, 1))
        return np.maximum(best, np.maximum(v1, v2))

    def G(self, r, a):
        return np.maximum(self._G_side(r, a, self.P, self.xs, self.lower, self.upper),
                          self._G_side(r, a, self.Pr, self.xr, -self.upper, -self.lower))

    def _A1(self, t):
        n = self.n
        if t >= n + 1:
            return self.sup
        best = 0.0
        for tt in (t - 1, t):
            if tt < 0:
                continue
            r = np.arange(0, min(tt, n - 1) + 1)
            a = tt - r
            best = max(best, float(np.max(self.G(r, a))))
        return best

    def smooth(self, beta):
        """Best-first over t: every dataset of size m >= 2 has LS <= (upper-lower)/m (add: /(m+1);
        remove: |mean - extreme|/(m-1) <= (upper-lower)(m-1)/m/(m-1)), and within t steps m >= n - t,
        so e^{-beta t} A(t) <= e^{-beta t} (upper-lower)/max(n-t, 2).  Distances are evaluated in order
        of that bound until it falls below the best exact value found."""
        n = self.n
        best, arg = self._A1(0), 0
        width = self.upper - self.lower
        t_hi = n + 1
        if best > 0:                   # beyond ln(sup/best)/beta even the supremum cannot win
            t_hi = min(t_hi, int(math.ceil(math.log(self.sup / best) / beta)) + 1)
        ts = np.arange(1, t_hi + 1)
        with np.errstate(under="ignore"):
            ub = np.exp(-beta * ts) * np.minimum(self.sup, width / np.maximum(n - ts, 2))
        order = np.argsort(-ub, kind="stable")
        i, block = 0, 16
        while i < len(order) and ub[order[i]] > best:
            chunk = order[i:i + block]
            chunk = chunk[ub[chunk] > best]
            vals = np.exp(-beta * ts[chunk]) * self.A(ts[chunk])
            k = int(np.argmax(vals))
            if vals[k] > best:
                best, arg = float(vals[k]), int(ts[chunk][k])
            i += block
            block = min(2 * block, 1024)
        return best, arg


def smooth_and_distance(name, xs, lower, upper, neighbors, beta):
    """``(S, t*)``: the smooth sensitivity of sorted, checked ``xs`` and a distance ``t*`` attaining it.

    Chapter: *Smooth sensitivity*.  The quantiles through :func:`_smooth_by_reach`, the rest directly.
    """
    n = len(xs)
    if name in PERCENTILES or name == "median":
        if neighbors == "bounded":
            return _smooth_by_reach(lambda r: _QuantileBounded(xs, name, lower, upper, reach=r), n, beta)
        if name in ("median", "percentile_50"):
            return _smooth_by_reach(lambda r: _median_unbounded(xs, lower, upper, reach=r), n, beta)
        return _smooth_by_reach(lambda r: _PercentileUnbounded(xs, name, lower, upper, reach=r), n, beta)
    return engine(name, xs, lower, upper, neighbors).smooth(beta)


def engine(name, xs, lower, upper, neighbors):
    """The engine of one query and relation on sorted, checked ``xs`` in ``[lower, upper]``.

    Chapters: *Propose-test-release* and *Smooth sensitivity*.  It has ``A(t)`` (an array of
    ``t``), ``sup``, ``t_sup`` and ``smooth(beta)``.
    """
    n = len(xs)
    width = upper - lower
    if name == "count":
        return _Constant(0.0, 0.0) if neighbors == "bounded" else _Constant(1.0, 1.0)
    if name in ("sum", "mean"):
        if neighbors == "bounded":
            scale = 1.0 if name == "sum" else 1.0 / n
            return _Constant(max(upper - xs[0], xs[-1] - lower) * scale, width * scale)
        if name == "sum":
            m = max(abs(lower), abs(upper))
            return _Constant(m, m)
        return _MeanUnbounded(xs, lower, upper)
    if neighbors == "bounded":
        return _QuantileBounded(xs, name, lower, upper)
    if name in ("median", "percentile_50"):
        return _median_unbounded(xs, lower, upper)
    return _PercentileUnbounded(xs, name, lower, upper)
