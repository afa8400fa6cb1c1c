"""How thorough a test run is: ``DPSENS_TEST_PROFILE=quick`` (the default, ``make test``) or ``full``
(``make test-full``, which ``.ci/run`` calls too).

The property tests ask :func:`examples` for their number of hypothesis examples: ``examples(n)`` is
``n`` scaled by the profile, so each test keeps its relative weight (the baseline ``n`` is what the
suite ran before the profiles existed; ``full`` runs twice that, ``quick`` a quarter, at least 10).
Tests marked ``@pytest.mark.slow`` (exhaustive brute-force enumerations that take many seconds each)
run in the ``full`` profile only; ``tests/conftest.py`` deselects them in ``quick``.
A test whose check is an exhaustive pass over many cases asks :func:`cases` for their number: the quick
profile runs a smaller instance of the same check, the full profile all of it.
"""
from __future__ import annotations

import os

PROFILES = {"quick": 0.25, "full": 2.0}

PROFILE = os.environ.get("DPSENS_TEST_PROFILE", "quick").strip().lower() or "quick"
if PROFILE not in PROFILES:
    raise ValueError(f"DPSENS_TEST_PROFILE must be one of {sorted(PROFILES)}, got {PROFILE!r}")


def examples(n: int) -> int:
    """The number of hypothesis examples for a test whose baseline is ``n``, in this run's profile."""
    return max(10, round(n * PROFILES[PROFILE]))


def cases(quick: int, full: int) -> int:
    """How many cases an exhaustive check runs in this run's profile: ``quick`` (the smaller instance of the
    same check that ``make test`` runs) or ``full`` (``make test-full``)."""
    if not 0 < quick <= full:
        raise ValueError(f"cases needs 0 < quick <= full, got quick={quick}, full={full}")
    return full if PROFILE == "full" else quick
