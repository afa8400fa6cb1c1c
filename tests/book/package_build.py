"""The package's build input, copied clean: for the tests that build a wheel
(tests/book/test_notebook_files.py) or install the package non-editable as Binder
does (tests/book/test_reader_notebooks.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def package_source(dest: Path) -> Path:
    """A clean copy of what building the package reads (no stale ``build/`` from earlier in-tree builds)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, dest / name)
    for name in ("src", "data"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    return dest
