"""The exponential-mechanism quantile against its peer, Google's ``dp_multiq`` ``ind_exp`` (issue 36, Speed).

``dpsens.mechanisms.quantile_exponential`` (bounded relation: the rank
utility ``−|i − q n|`` with sensitivity 1, as the peer) against
``benchmarks/multiq_ind_exp.py`` (the peer's algorithm written from
Gillenwater, Joseph & Kulesza 2021) and against one ``np.sort`` of the same
data, all measured in the same run: at n = 10^3 .. 10^6, on uniform floats
on [0, 100] and on tied integer data like the Adult ages (int64 in 17..90,
bounds [0, 100]); the median, ε = 1 (``--epsilon=0.1`` for another).

Each time is the median over interleaved rounds (package, peer and sort
take turns, so a change of machine load hits all three), each round timing
enough calls to last about 2 ms.  Printed: milliseconds per call, the
ratios peer ÷ package (goal: >= 1 at every n) and package ÷ sort (goal:
<= 1.2 at n >= 10^4).  That the two have the same output distribution is
tested in ``tests/package/test_quantile_release.py``; no timing is asserted anywhere.

``--len`` times instead the unbounded quantile's ``len`` (``dpsens.inverse.inverse_len_quantile``)
at every gap and data point of uniform data, against one sort.

Run from the repository root: ``nice -n 10 .venv/bin/python benchmarks/bench_quantile.py``
(``--quick``: n <= 10^5).  Where the time goes: integer data of a small range are counted
(``np.bincount``), long float data partitioned around the rank ``q n`` and only the
``O((log n + 745) / ε)`` intervals of nonzero probability sorted (see ``dpsens.mechanisms.exponential``),
so the package can take well under one sort.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

from dpsens import inverse
from dpsens.mechanisms import exponential as em

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multiq_ind_exp  # the peer, next to this script


def _per_call_ms(func, calls):
    start = time.perf_counter()
    for _ in range(calls):
        func()
    return 1000 * (time.perf_counter() - start) / calls


def side_by_side(funcs, rounds):
    """Median milliseconds per call of each of ``funcs`` (a dict), over interleaved rounds."""
    calls = {}
    for name, f in funcs.items():
        f()                                           # warm-up, and a first estimate of the cost
        calls[name] = max(1, int(2.0 / max(_per_call_ms(f, 1), 1e-4)))
    times = {name: [] for name in funcs}
    order = list(funcs)
    for r in range(rounds):
        for name in order[r % len(order):] + order[:r % len(order)]:
            times[name].append(_per_call_ms(funcs[name], calls[name]))
    return {name: float(np.median(t)) for name, t in times.items()}


def main(sizes, epsilon=1.0):
    print(f"epsilon = {epsilon}; load average: {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")
    print(f"{'data':>8} {'n':>9} {'package':>10} {'peer':>10} {'np.sort':>9} {'peer/pkg':>9} {'pkg/sort':>9}")
    rng = np.random.default_rng(7)
    for kind in ("uniform", "ages"):
        for n in sizes:
            x = rng.uniform(0, 100, n) if kind == "uniform" else rng.integers(17, 91, n)
            funcs = {"package": lambda: em.quantile_exponential(x, 0.5, epsilon, 0.0, 100.0, rng, "bounded"),
                     "peer": lambda: multiq_ind_exp.ind_exp(x, 0.5, epsilon, 0.0, 100.0, rng),
                     "sort": lambda: np.sort(x)}
            t = side_by_side(funcs, rounds=21 if n <= 10**5 else 9)
            print(f"{kind:>8} {n:9d} {t['package']:10.3f} {t['peer']:10.3f} {t['sort']:9.3f} "
                  f"{t['peer'] / t['package']:9.2f} {t['package'] / t['sort']:9.2f}")


def unbounded_len(sizes):
    """``inverse_len_quantile(..., "unbounded")`` at every gap and every point of uniform data (2n − 1 values of t)."""
    print("unbounded len of the median and the 90th percentile at all 2n - 1 gaps and points; one call")
    print(f"{'n':>9} {'q':>5} {'seconds':>9} {'np.sort (s)':>12} {'÷ sort':>11}")
    rng = np.random.default_rng(3)
    for n in sizes:
        x = rng.uniform(0, 100, n)
        xs = np.sort(x)
        t = np.concatenate(((xs[:-1] + xs[1:]) / 2, xs))
        for q in (0.5, 0.9):
            start = time.perf_counter()
            inverse.inverse_len_quantile(x, q, t, 0.0, 100.0, "unbounded")
            seconds = time.perf_counter() - start
            sort = min(_per_call_ms(lambda: np.sort(x), 1) for _ in range(3)) / 1000
            print(f"{n:9d} {q:5} {seconds:9.3f} {sort:12.4f} {seconds / sort:11.0f}")


if __name__ == "__main__":
    if "--len" in sys.argv:
        unbounded_len([10**3, 10**4] if "--quick" in sys.argv else [10**3, 10**4, 10**5, 10**6])
        sys.exit()
    eps = [float(a.split("=")[1]) for a in sys.argv if a.startswith("--epsilon=")]
    main([10**3, 10**4, 10**5] if "--quick" in sys.argv else [10**3, 10**4, 10**5, 10**6], *eps[:1])
