"""Sphinx extension: the Binder and Colab buttons open ``notebooks/<stem>.ipynb``.

Chapter: *For teachers*.

The chapters are MyST markdown; Colab only opens ``.ipynb`` files, and a
plain Jupyter opens ``.md`` as a notebook only with jupytext set up.  So
``tools/make_student.py colab`` keeps a committed plain-Jupyter ``.ipynb``
copy of every chapter in ``notebooks/`` (first cell: install the book's
package when it is missing), and this extension points the launch buttons
that sphinx-book-theme builds from ``repository.url`` in ``_config.yml`` at
those copies; Binder opens them in JupyterLab
(``launch_buttons.notebook_interface``) from the environment in ``binder/``.
Pages without a copy keep the theme's links.  The student edition
(``DPSENS_EDITION=student``) points them at ``handouts/<stem>.ipynb``, the
student notebooks without solutions.  ``DPSENS_BOOK_REF`` (a release tag)
replaces the branch in the launch links, so a course can pin a release.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _retarget(buttons, old: str, new: str) -> int:
    n = 0
    for b in buttons or []:
        if not isinstance(b, dict):
            continue
        if isinstance(b.get("url"), str) and old in b["url"] and b.get("text") in ("Binder", "Colab", "JupyterHub"):
            b["url"] = b["url"].replace(old, new)
            n += 1
        n += _retarget(b.get("buttons"), old, new)
    return n


def _launch_copies(app, pagename, templatename, context, doctree):
    stem = pagename.rsplit("/", 1)[-1]
    if not (NOTEBOOKS / f"{stem}.ipynb").exists():
        return
    folder = "handouts" if os.environ.get("DPSENS_EDITION", "").strip().lower() == "student" else "notebooks"
    _retarget(context.get("header_buttons"), f"{pagename}.md", f"{folder}/{stem}.ipynb")
    ref = os.environ.get("DPSENS_BOOK_REF")
    branch = (app.config.html_theme_options or {}).get("repository_branch", "main")
    if ref and ref != branch:
        for old, new in ((f"/blob/{branch}/", f"/blob/{ref}/"), (f"/{branch}?", f"/{ref}?")):
            _retarget(context.get("header_buttons"), old, new)


def setup(app):
    app.connect("html-page-context", _launch_copies, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
