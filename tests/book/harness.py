"""What several tests of the book share: a made-up chapter's jupytext header, and the rule for a
test that cannot run here (skip locally, fail under CI).

* :data:`JUPYTEXT_HEADER` is the header every ``chapters/*.md`` starts with; :func:`myst_chapter`
  puts it before a made-up chapter's text (``tests/book/test_student.py`` writes one to a file,
  ``tests/book/test_notebook_files.py`` reads one with jupytext).
* :data:`IN_CI` is true when the environment variable ``CI`` is set (``.ci/run`` sets it);
  :func:`cannot_run` then fails the test instead of skipping it, so that CI never passes a
  browser, PDF or JupyterLab test that did not run (``tests/book/test_site.py``,
  ``test_editions.py``, ``test_lab_rendering.py``, ``test_numbering.py``).
"""
from __future__ import annotations

import os
import pathlib
import shutil
import textwrap

import pytest

JUPYTEXT_HEADER = textwrap.dedent('''\
    ---
    jupytext:
      text_representation:
        extension: .md
        format_name: myst
    kernelspec:
      display_name: Python 3
      language: python
      name: python3
    ---
    ''')

IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def myst_chapter(text: str) -> str:
    """``text`` (dedented) as a chapter's source: the jupytext header, then the text."""
    return JUPYTEXT_HEADER + textwrap.dedent(text)


def cannot_run(reason: str) -> None:
    """Skip the test locally; under CI, where it must run, fail it, naming ``reason``."""
    if IN_CI:
        pytest.fail(f"this test cannot run under CI: {reason}")
    pytest.skip(reason)


#: Debian's Chromium, which the browser tests drive through Playwright (never `playwright install`).
CHROMIUM = os.environ.get("DPSENS_CHROMIUM", "/usr/bin/chromium")


def playwright_or_skip():
    """Playwright's ``sync_playwright``, once Chromium and the playwright package are known to be there
    (else :func:`cannot_run`: a skip, or a failure in CI)."""
    if not (pathlib.Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        cannot_run(f"Chromium not found at {CHROMIUM} (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        cannot_run("the playwright package is not installed (pip install -r requirements.txt)")
    return sync_playwright
