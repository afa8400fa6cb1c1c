"""The package's one timer: a stopwatch, and the two statistics the benchmarks report.

Chapters: *Global sensitivity from scratch* and *Local sensitivity* (how
long the brute force and the exact engines take, glued into the prose),
*The median visualisation grid* (its live explorer shows how long a redraw
took); no chapter prints a timing in a checked output (it would depend on
the load of the machine).  Every script in ``benchmarks/``
measures with these helpers (``from dpsens.timing import ...``), so that the
speed-ups quoted in ``CONTRIBUTING.md`` and ``benchmarks/README.md`` are all
measured the same way, in the same run.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ._validate import as_int

__all__ = ["RUNS", "Stopwatch", "median_ms", "best_seconds"]

#: Default number of timed runs of :func:`median_ms`.
RUNS = 15


class Stopwatch:
    """Time a block: ``with Stopwatch() as sw: ...``, then ``sw.seconds``.

    Chapters: *Global sensitivity from scratch*, *Local sensitivity*, *The median
    visualisation grid* (the live explorer's redraw time).

    Parameters
    ----------
    clock : callable
        ``time.perf_counter`` (wall time, default) or ``time.process_time``
        (this process's CPU time: steadier on a shared machine).

    Examples
    --------
    >>> ticks = iter([10.0, 10.25])
    >>> with Stopwatch(clock=lambda: next(ticks)) as sw:
    ...     pass
    >>> sw.seconds, sw.ms
    (0.25, 250.0)
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        if not callable(clock):
            raise TypeError(f"clock must be a function returning seconds, e.g. time.perf_counter; got {clock!r}")
        self.clock = clock
        self.seconds = float("nan")

    def __enter__(self) -> "Stopwatch":
        self._start = self.clock()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = float(self.clock() - self._start)

    @property
    def ms(self) -> float:
        """The measured time in milliseconds."""
        return 1000.0 * self.seconds


def median_ms(func: Callable[[], object], runs: int = RUNS, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time of ``func()`` in milliseconds, over ``runs`` calls after one warm-up call.

    Chapter: none (``benchmarks/``).

    Examples
    --------
    >>> ticks = iter([0.0, 0.001, 1.0, 1.003, 2.0, 2.002])
    >>> round(median_ms(lambda: None, runs=3, clock=lambda: next(ticks)), 9)
    2.0
    """
    runs = as_int(runs, "runs", minimum=1)
    func()  # warm-up
    times = []
    for _ in range(runs):
        with Stopwatch(clock) as sw:
            func()
        times.append(sw.seconds)
    return 1000 * float(np.median(times))


def best_seconds(func: Callable[[], object], repeat: int = 3, min_total: float = 0.0, warm_up: bool = True,
                 clock: Callable[[], float] = time.perf_counter) -> float:
    """Smallest time of one call of ``func()`` in seconds, over ``repeat`` timed runs.

    Chapter: *Global sensitivity from scratch* (the cost of enumeration); ``benchmarks/``.

    Each run calls ``func`` ``loops`` times and counts ``elapsed / loops``;
    ``loops`` starts at 1 and is multiplied by 4 until a run lasts at least
    ``min_total`` seconds (so that very fast functions are not timed at the
    clock's resolution).  With ``warm_up`` one untimed call comes first.

    Examples
    --------
    >>> ticks = iter([0.0, 0.5, 1.0, 1.25, 2.0, 2.75])
    >>> best_seconds(lambda: None, repeat=3, warm_up=False, clock=lambda: next(ticks))
    0.25
    """
    repeat = as_int(repeat, "repeat", minimum=1)
    if isinstance(min_total, bool) or not isinstance(min_total, (int, float)) or not min_total >= 0:
        raise ValueError(f"min_total must be a number of seconds >= 0, got {min_total!r}")
    if warm_up:
        func()
    loops = 1
    while True:
        with Stopwatch(clock) as sw:
            for _ in range(loops):
                func()
        if sw.seconds >= min_total:
            break
        loops *= 4
    times = [sw.seconds / loops]
    for _ in range(repeat - 1):
        with Stopwatch(clock) as sw:
            for _ in range(loops):
                func()
        times.append(sw.seconds / loops)
    return min(times)
