"""Shared timing helper of the benchmark scripts (run them from the project root)."""
from __future__ import annotations

import time

import numpy as np

RUNS = 15


def median_ms(func, runs: int = RUNS, clock=time.perf_counter) -> float:
    """Median time of ``func()`` in milliseconds, over ``runs`` calls after one warm-up call.

    ``clock`` is wall time by default; ``time.process_time`` gives this
    process's CPU time (steadier on a shared machine).
    """
    func()  # warm-up
    times = []
    for _ in range(runs):
        t0 = clock()
        func()
        times.append(clock() - t0)
    return 1000 * float(np.median(times))
