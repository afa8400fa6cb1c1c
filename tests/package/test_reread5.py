"""Third reading (reread5): the std's smooth upper bound on data far from 0.

The local sensitivity of the population standard deviation at distance 0 is computed here from the
definition with exact rationals (the data's floats converted exactly, square roots to 50 digits):
bounded, one record replaced by ``lower``, ``upper`` or the mean of the others (the neighbour's variance
is a quadratic in the new value, so its extremes are there); unbounded, ``lower``, ``upper`` or the mean
added, or one record removed.  ``smooth_sensitivity_bound`` must be at least that (it is at least its
``B(0)``), up to a few rounding errors of double precision -- not up to the data's ulp over the width,
which on ``[1e9, 1e9 + 3]`` was 1.5e-7 of it before the deviations were taken from a record.
"""
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

from dpsens.smooth import smooth_sensitivity_bound

getcontext().prec = 50


def _var(ys):
    mu = sum(ys, Fraction(0)) / len(ys)
    return sum((y - mu) ** 2 for y in ys) / len(ys)


def _sqrt(q):
    return Decimal(q.numerator).sqrt() / Decimal(q.denominator).sqrt() if q else Decimal(0)


def _exact_ls_std(x, lower, upper, neighbors):
    xs, lo, hi = [Fraction(v) for v in x], Fraction(lower), Fraction(upper)
    if neighbors == "bounded":
        others = [xs[:i] + xs[i + 1:] for i in range(len(xs))]
        nbrs = [r + [v] for r in others for v in (lo, hi, sum(r, Fraction(0)) / len(r))]
    else:
        nbrs = [xs + [v] for v in (lo, hi, sum(xs, Fraction(0)) / len(xs))]
        nbrs += [xs[:i] + xs[i + 1:] for i in range(len(xs))]
    s = _sqrt(_var(xs))
    return max(abs(_sqrt(_var(y)) - s) for y in nbrs)


CASES = [
    ([1000000002.999997] * 5, 1e9, 1e9 + 3),                       # equal records: np.mean's rounding
    ([1e9 + 1.9041125, 1e9 + 1.0672845, 1e9 + 1.93361, 1e9 + 1.5, 1e9 + 2.601025, 1e9 + 1.5], 1e9, 1e9 + 3),
    ([123457.1445] * 4 + [123456.97381073404, 123457.31726868782], 123456.789, 123457.5),
    ([-1000000.5705352256, -1000000.6666666666, -1000000.6666666666, -1000000.9651045413], -1e6 - 1, -1e6),
    ([1000.5] * 4 + [1000.3333333333334], 1000.0, 1001.0),
]


@pytest.mark.parametrize("neighbors", ["bounded", "unbounded"])
@pytest.mark.parametrize("x, lower, upper", CASES)
def test_std_bound_at_least_exact_ls_on_offset_data(x, lower, upper, neighbors):
    true = _exact_ls_std(x, lower, upper, neighbors)
    got = Decimal(smooth_sensitivity_bound(np.array(x), "std", 50.0, lower, upper, neighbors))
    assert got >= true * (1 - Decimal("1e-13")), (float(true), float(got))
