"""The exponential-mechanism quantile against its peer, Google's ``dp_multiq`` ``ind_exp`` (issue 36, Speed).

``dpsens.mechanisms.quantile_exponential`` (bounded relation: the rank
utility ``−|i − q n|`` with sensitivity 1, as the peer) against
``benchmarks/multiq_ind_exp.py`` (the peer's algorithm written from
Gillenwater, Joseph & Kulesza 2021) and against one ``np.sort`` of the same
data, all measured in the same run: at n = 10^3 .. 10^6, on uniform floats
on [0, 100] and on tied integer data like the Adult ages (int64 in 17..90,
bounds [0, 100]); the median and ε = 1.

Each time is the median over interleaved rounds (package, peer and sort
take turns, so a change of machine load hits all three), each round timing
enough calls to last about 2 ms.  Printed: milliseconds per call, the
ratios peer ÷ package (goal: >= 1 at every n) and package ÷ sort (goal:
<= 1.2 at n >= 10^4).  That the two have the same output distribution is
tested in ``tests/test_quantile_release.py``; no timing is asserted anywhere.

Run from the repository root: ``nice -n 10 .venv/bin/python benchmarks/bench_quantile.py``
(``--quick``: n <= 10^5).
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

from dpsens.mechanisms import exponential as em

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multiq_ind_exp  # noqa: E402  (the peer, next to this script)


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


def main(sizes):
    print(f"load average: {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")
    print(f"{'data':>8} {'n':>9} {'package':>10} {'peer':>10} {'np.sort':>9} {'peer/pkg':>9} {'pkg/sort':>9}")
    rng = np.random.default_rng(7)
    for kind in ("uniform", "ages"):
        for n in sizes:
            x = rng.uniform(0, 100, n) if kind == "uniform" else rng.integers(17, 91, n)
            funcs = {"package": lambda: em.quantile_exponential(x, 0.5, 1.0, 0.0, 100.0, rng, "bounded"),
                     "peer": lambda: multiq_ind_exp.ind_exp(x, 0.5, 1.0, 0.0, 100.0, rng),
                     "sort": lambda: np.sort(x)}
            t = side_by_side(funcs, rounds=21 if n <= 10**5 else 9)
            print(f"{kind:>8} {n:9d} {t['package']:10.3f} {t['peer']:10.3f} {t['sort']:9.3f} "
                  f"{t['peer'] / t['package']:9.2f} {t['package'] / t['sort']:9.2f}")


if __name__ == "__main__":
    main([10**3, 10**4, 10**5] if "--quick" in sys.argv else [10**3, 10**4, 10**5, 10**6])
