"""The unbounded quantile's ``len`` (issue 36, Speed): the O(d)-per-cell search against the full scan.

``dpsens.inverse.inverse_len_quantile(..., "unbounded")`` used to scan every
final size ``m'`` within the cost at ``m' = n`` (``O(n)`` per distinct cell
``(a, e, b)``); for ``q = p/d`` with ``d <= 64`` it now evaluates at most
``12 d`` candidates per cell.  Checked here against that scan (written out
below, from the module docstring's formula) on every cell of every ``n`` up
to 30 and on random cells of larger ``n``, and end to end on data with ties
and on a ``q`` of a larger denominator (which keeps the scan).  No timing is
asserted.
"""
from __future__ import annotations

import numpy as np
import pytest

from dpsens import inverse


def scan_len(n, a, e, b, q):
    """min over every final size m' in [max(1, n − c), n + c] (c the cost at m' = n): the old search."""
    fr = inverse._fraction(q)

    def cost(m):
        K = (fr.numerator * (m - 1)) // fr.denominator
        keep_a, keep_b = min(a, K), min(b, m - 1 - K)
        return (a - keep_a) + (b - keep_b) + abs(e - (m - keep_a - keep_b))
    c = cost(n)
    return min(cost(m) for m in range(max(1, n - c), n + c + 1))


QS = [0.5, 0.9, 0.1, 0.25, 0.75, 1 / 3, 0.3, 0.05, 13 / 64, 0.6]


@pytest.mark.parametrize("q", QS)
def test_every_cell_small_n(q):
    fr = inverse._fraction(q)
    assert fr.denominator <= inverse._PERIOD_MAX
    for n in range(1, 31):
        cells = np.array([(a, e, n - a - e) for a in range(n + 1) for e in range(n + 1 - a)])
        got = inverse._len_quantile_unbounded_cells(n, cells[:, 0], cells[:, 1], cells[:, 2], fr)
        expected = [scan_len(n, *map(int, cell), q) for cell in cells]
        np.testing.assert_array_equal(got, expected, err_msg=f"q = {q}, n = {n}")


@pytest.mark.parametrize("q", QS)
def test_random_cells_larger_n(q):
    rng = np.random.default_rng(36)
    fr = inverse._fraction(q)
    for n in (97, 1000, 4001):
        a = rng.integers(0, n + 1, 120)
        e = np.array([rng.integers(0, n - ai + 1) for ai in a])
        e[:20] = 0                                   # t between data points
        b = n - a - e
        got = inverse._len_quantile_unbounded_cells(n, a, e, b, fr)
        expected = [scan_len(n, int(ai), int(ei), int(bi), q) for ai, ei, bi in zip(a, e, b, strict=True)]
        np.testing.assert_array_equal(got, expected, err_msg=f"q = {q}, n = {n}")


@pytest.mark.parametrize("q", [0.5, 0.9, 0.37])
def test_end_to_end_with_ties(q):
    """Every gap and every data point of tied data; 0.37 (denominator 100) takes the scan."""
    rng = np.random.default_rng(7)
    x = rng.integers(0, 40, 300).astype(float)
    xs = np.unique(x)
    t = np.concatenate(([-1.0, 0.0], xs, (xs[:-1] + xs[1:]) / 2, [39.5, 50.0, 51.0]))
    got = inverse.inverse_len_quantile(x, q, t, 0, 50, "unbounded")
    n = len(x)
    expected = [np.inf if ti < 0 or ti > 50 else
                scan_len(n, int(np.sum(x < ti)), int(np.sum(x == ti)), int(np.sum(x > ti)), q) for ti in t]
    np.testing.assert_array_equal(got, expected)
    assert got[0] == np.inf and got[-1] > 0
