"""Cost of one sample-and-aggregate release on the Adult ages (chapter *Sample and aggregate*).

The chapter's error profile and explorer draw thousands of random partitions,
so one partition's chunk answers must be cheap.  ``dpsens`` reshapes the
balanced split into two 2-D blocks and reduces them with one numpy call
(``mechanisms.sample_aggregate.split_reduce``); the plain way loops over ``np.array_split``
in Python, as the source does.  Both are timed in the same run on the same
permuted data, and the results are checked to be equal.
"""
from __future__ import annotations


import numpy as np

import dpsens as ds
from dpsens import mechanisms as mech
from dpsens.timing import RUNS, median_ms


def main() -> None:
    ages = ds.load_ages().to_numpy(dtype=float)
    print(f"n = {len(ages)}; chunk answers of one random partition, median of {RUNS} runs")
    print(f"{'f':>7} {'k':>6} {'vectorised ms':>14} {'loop ms':>9} {'speed-up':>9}")
    for func in ("mean", "median"):
        loop_f = getattr(np, func)
        for k in (600, 6000, 16280):
            fast = lambda: mech.chunk_answers(ages, func, k, 20, 80, np.random.default_rng(1))  # noqa: E731
            slow = lambda: mech.chunk_answers(ages, loop_f, k, 20, 80, np.random.default_rng(1))  # noqa: E731
            assert np.allclose(fast(), slow())
            tf, ts = median_ms(fast), median_ms(slow)
            print(f"{func:>7} {k:>6} {tf:>14.2f} {ts:>9.2f} {ts / tf:>8.0f}x")


if __name__ == "__main__":
    main()
