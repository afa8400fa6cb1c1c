"""The exact discrete samplers' shortcuts, by exact enumeration (Fractions) of every random outcome.

A second reader's check of ``dpsens.mechanisms.discrete``: each shortcut is run with stand-in
sources of randomness that play every outcome in turn (a depth-first search that re-runs the code
with a longer prefix of prescribed values each time it asks for a new one), and the probability of
each result is summed exactly.  Nothing expected is taken from the code under test:

- the coin with probability e^(-num/den) (CKS Algorithm 1, its first rounds settled by one big
  uniform integer) and the e^-1 coin (one integer below 20!): the exact probabilities of
  "heads and the loop stopped by round J", "tails and stopped by round J" and "still running after
  round J", against the loop's law P(K > k) = iota^k / k!.  A big integer is enumerated by strata
  (between consecutive thresholds, where the result must be constant: several points of each
  stratum are played and must agree);
- the geometric count cut from one stream of coins (the leftover heads of a block carried over):
  every resolved outcome (V_1, ..., V_n) has probability exactly p^(sum V) (1 - p)^n, with the
  coin replaced by one of rational probability p (the cutting does not depend on p);
- the first successes of batches of independent attempts: the first n values are exactly
  independent draws of the law of a success.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from dpsens.mechanisms import discrete as D


class _Ask(Exception):
    """The code asked for a value beyond the prefix: ``high`` (an integer's bound) or ``size`` (coins)."""

    def __init__(self, what):
        super().__init__(what)
        self.what = what


class _Stop(Exception):
    """The enumeration stops here (the loop went past round J, or too many calls)."""


def _search(run, branches):
    """Depth-first over every outcome: ``run(prefix)`` returns a result or raises ``_Ask``/``_Stop``;
    ``branches(what)`` lists ``(value, probability)`` for the next value.  Returns {result: probability}
    with the key ``"stopped"`` for the probability of the outcomes left unresolved."""
    law, stack = {}, [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            key = run(prefix)
        except _Stop:
            key = "stopped"
        except _Ask as ask:
            stack.extend((prefix + (v,), weight * p) for v, p in branches(ask.what))
            continue
        law[key] = law.get(key, Fraction(0)) + weight
    return law


class _PlayedIntegers:
    """A stand-in generator: ``integers`` returns the prefix's values in turn (``size`` must be 1)."""

    def __init__(self, prefix, den, last_round):
        self.prefix, self.i, self.den, self.last_round = prefix, 0, den, last_round

    def integers(self, low, high, size, dtype):
        assert low == 0 and size == 1
        if self.i > 0 and high // self.den > self.last_round:    # a coin of round k asks below den * k
            raise _Stop
        if self.i == len(self.prefix):
            raise _Ask((high, self.i == 0))
        value = self.prefix[self.i]
        self.i += 1
        assert 0 <= value < high
        return np.array([value], dtype=dtype)


def _scripted(prefix, calls, dtype):
    """A stand-in source of blocks (coins, or attempts' values): its ``k``-th call returns the prefix's
    ``k``-th block as an array of ``dtype``; ``_Ask(size)`` once the prefix runs out, ``_Stop`` after
    ``calls`` calls."""
    blocks, count = iter(prefix), [0]

    def source(size, rng=None):
        count[0] += 1
        if count[0] > calls:
            raise _Stop
        block = next(blocks, None)
        if block is None:
            raise _Ask(size)
        return np.array(block, dtype=dtype)
    return source


def _strata(cuts):
    """``branches`` for an integer below ``high`` (``first``: the first one drawn): the strata between the cut points, each played at
    several points (which must give the same result: checked in :func:`_coin_law`)."""
    def branches(what):
        high, first = what
        points = sorted({0, high} | {c for c in cuts(high, first) if 0 < c < high})
        out = []
        for a, b in itertools.pairwise(points):
            reps = sorted({a, b - 1, (a + b) // 2})
            out += [(v, Fraction(b - a, high * len(reps))) for v in reps]
        return out
    return branches


def _coin_law(coin, den, last_round, cuts):
    law = _search(lambda prefix: bool(coin(_PlayedIntegers(prefix, den, last_round))), _strata(cuts))
    return law.get(True, Fraction(0)), law.get(False, Fraction(0)), law.get("stopped", Fraction(0))


def _loop_law(iota, last_round):
    """CKS Algorithm 1: K = the round whose coin (probability iota/k) comes up tails; heads iff K odd."""
    passed = [iota ** k / math.factorial(k) for k in range(last_round + 1)]        # P(K > k)
    heads = sum(passed[k - 1] - passed[k] for k in range(1, last_round + 1, 2))
    tails = sum(passed[k - 1] - passed[k] for k in range(2, last_round + 1, 2))
    return heads, tails, passed[last_round]


@pytest.mark.parametrize("den, nums", [(1, None), (2, None), (3, None), (7, None), (2 ** 20, (0, 1, 12345, 2 ** 20 - 1))])
@pytest.mark.parametrize("depth", [1, 2, 3, None])
def test_fraction_coin_by_exact_enumeration(den, nums, depth):
    m = D._chain_depth(den) if depth is None else depth
    last_round = m + 3
    for num in range(den + 1) if nums is None else nums:
        thresholds = [num ** k * den ** (m - k) * math.factorial(m) // math.factorial(k) for k in range(1, m + 1)]

        def cuts(high, first, thresholds=thresholds, num=num):
            return thresholds if first else [num]          # the first (big) integer, or a coin of a later round

        law = _coin_law(lambda rng, num=num: D._bernoulli_exp_fraction(np.array([num], dtype=np.int64), den, rng,
                                                                        depth)[0], den, last_round, cuts)
        assert law == _loop_law(Fraction(num, den), last_round)


def test_e_minus_one_coin_by_exact_enumeration():
    top = math.factorial(20)
    law = _coin_law(lambda rng: D._bernoulli_exp_minus_one(1, rng)[0], 1, 24,
                    lambda high, first: [top // math.factorial(k) for k in range(1, 21)] if first else [1])
    assert law == _loop_law(Fraction(1), 24)


@pytest.mark.parametrize("n, calls", [(1, 3), (2, 2), (3, 1)])
def test_geometric_cut_from_one_stream_by_exact_enumeration(n, calls, monkeypatch):
    p = Fraction(2, 5)

    def run(prefix):
        monkeypatch.setattr(D, "_bernoulli_exp_minus_one", _scripted(prefix, calls, bool))
        return tuple(int(v) for v in D._geometric_exp1(n, None))

    def branches(size):
        return [(block, p ** sum(block) * (1 - p) ** (size - sum(block)))
                for block in itertools.product((True, False), repeat=size)]

    law = _search(run, branches)
    stopped = law.pop("stopped", Fraction(0))
    assert sum(law.values()) + stopped == 1
    assert all(prob == p ** sum(v) * (1 - p) ** n for v, prob in law.items())
    assert max(sum(v) + n for v in law) > 10 * (calls > 1)       # outcomes that carried heads across blocks


@pytest.mark.parametrize("n, calls", [(1, 3), (2, 2)])
def test_first_successes_of_batches_by_exact_enumeration(n, calls):
    rate, value_law = Fraction(1, 5), {0: Fraction(2, 3), 1: Fraction(1, 3)}

    def run(prefix):
        return tuple(int(v) for v in D._first_successes(_scripted(prefix, calls, np.int64), n))

    def branches(k):
        # j of the k attempts succeed (binomial), their values independent; only the first n values can be kept,
        # so later ones are played as 0 with their probabilities summed out
        out = []
        for j in range(k + 1):
            pj = math.comb(k, j) * rate ** j * (1 - rate) ** (k - j)
            for head in itertools.product((0, 1), repeat=min(j, n)):
                out.append((head + (0,) * (j - len(head)), pj * math.prod((value_law[y] for y in head), start=Fraction(1))))
        return out

    law = _search(run, branches)
    resolved = 1 - law.pop("stopped", Fraction(0))
    assert resolved > Fraction(99, 100)
    assert all(prob == resolved * math.prod(value_law[y] for y in v) for v, prob in law.items())
