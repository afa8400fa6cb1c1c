"""Shared timing helper of the benchmark scripts (run them from the project root)."""
from __future__ import annotations

import time

import numpy as np

RUNS = 15


def median_ms(func, runs: int = RUNS) -> float:
    """Median wall time of ``func()`` in milliseconds, over ``runs`` calls after one warm-up call."""
    func()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return 1000 * float(np.median(times))
