"""How thorough a test run is: ``DPSENS_TEST_PROFILE=quick`` (the default, ``make test``) or ``full``
(``make test-full``, which ``.ci/run`` calls too).

The property tests ask :func:`examples` for their number of hypothesis examples: ``examples(n)`` is
``n`` scaled by the profile, so each test keeps its relative weight (the baseline ``n`` is what the
suite ran before the profiles existed; ``full`` runs twice that, ``quick`` a quarter, at least 10).
Tests marked ``@pytest.mark.slow`` (exhaustive brute-force enumerations that take many seconds each)
run in the ``full`` profile only; ``tests/conftest.py`` deselects them in ``quick``.
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
