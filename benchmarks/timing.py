"""Shared timing helper of the benchmark scripts (run them from the project root).

The timer lives in the package (:mod:`dpsens.timing`); this module re-exports
it so that every script says ``from timing import ...``.
"""
from __future__ import annotations

from dpsens.timing import RUNS, Stopwatch, best_seconds, median_ms

__all__ = ["RUNS", "Stopwatch", "best_seconds", "median_ms"]
