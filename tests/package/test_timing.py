"""dpsens.timing, the one timer, checked with a virtual clock (no test depends on real time)."""
from __future__ import annotations

import pytest

from dpsens.timing import Stopwatch, best_seconds, median_ms


class VirtualClock:
    """A clock that moves only when the timed function says it worked ``cost`` seconds."""

    def __init__(self, costs):
        self.now = 0.0
        self.costs = iter(costs)
        self.calls = 0

    def __call__(self):
        return self.now

    def work(self):
        self.calls += 1
        self.now += next(self.costs)


def test_median_ms_is_the_median_of_the_timed_runs_after_a_warm_up():
    clock = VirtualClock([100.0, 0.003, 0.001, 0.002, 0.010, 0.002])    # the 100 s warm-up is not counted
    assert median_ms(clock.work, runs=5, clock=clock) == pytest.approx(2.0)
    assert clock.calls == 6


def test_best_seconds_loops_until_a_run_lasts_min_total_and_divides():
    clock = VirtualClock([0.001] * 1000)
    # runs of 1, 4, 16, 64 calls: 64 ms is the first to reach 50 ms; then 2 more runs of 64
    assert best_seconds(clock.work, repeat=3, min_total=0.05, warm_up=False, clock=clock) == pytest.approx(0.001)
    assert clock.calls == 1 + 4 + 16 + 64 + 2 * 64


def test_best_seconds_takes_the_smallest_run():
    clock = VirtualClock([1.0, 0.5, 0.25, 0.75])
    assert best_seconds(clock.work, repeat=3, clock=clock) == 0.25          # the 1.0 was the warm-up


def test_stopwatch_measures_its_block():
    clock = VirtualClock([0.125])
    with Stopwatch(clock) as sw:
        clock.work()
    assert (sw.seconds, sw.ms) == (0.125, 125.0)


@pytest.mark.parametrize("call, message", [
    (lambda: Stopwatch(clock=5), "clock must be a function"),
    (lambda: median_ms(lambda: None, runs=0), "runs"),
    (lambda: best_seconds(lambda: None, repeat=0), "repeat"),
    (lambda: best_seconds(lambda: None, min_total=-1), "min_total"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()
