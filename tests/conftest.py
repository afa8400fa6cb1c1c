"""Test-run settings shared by every test file: the profile (see ``tests/profiles.py``), and
``tools/``, ``_ext/`` and ``tests/`` on ``sys.path`` so that a test imports a book script
(``import make_student``) or a helper shared by both folders (``import profiles``) by name, one
way everywhere.

The tests live in two folders: ``tests/package/`` tests the package ``src/dpsens`` (values
against independent computations, properties, brute force, the package's layout);
``tests/book/`` tests the book's machinery (chapters' sources, notebooks and handouts, the site
and its editions, numbering, nbgrader, the tools).  Each folder's own helpers sit beside its
tests (``tests/package/sources.py``; ``tests/book/harness.py``, ``package_build.py``,
``student_run.py``, ``exercise_precision.py``); ``profiles.py`` and ``kernels.py`` serve both.

``DPSENS_TEST_PROFILE=quick`` (default; ``make test``): property tests run a quarter of their
baseline examples and the tests marked ``slow`` are deselected.  ``DPSENS_TEST_PROFILE=full``
(``make test-full``, run by ``.ci/run``): twice the baseline examples, every slow test.
"""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import settings

# The book's scripts (tools/), Sphinx extensions (_ext/) and the shared helpers (tests/) are
# imported by name in the tests.
ROOT = Path(__file__).resolve().parents[1]
for _folder in ("tools", "_ext", "tests"):
    if str(ROOT / _folder) not in sys.path:
        sys.path.insert(0, str(ROOT / _folder))

from profiles import PROFILE  # noqa: E402  (tests/, on sys.path just above)

# no deadline anywhere: the machine is shared, and a test's speed is never its verdict
settings.register_profile("quick", deadline=None)
settings.register_profile("full", deadline=None)
settings.load_profile(PROFILE)


def pytest_report_header(config):
    return f"dpsens test profile: {PROFILE} (DPSENS_TEST_PROFILE; quick deselects the tests marked slow)"


def pytest_collection_modifyitems(config, items):
    if PROFILE == "full":
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
