"""The documents of ``_toc.yml`` in reading order: one reader for the whole project.

Used by the Sphinx extension ``book_plan`` (the "For teachers" tables),
``tools/make_student.py`` (Colab copies and student notebooks) and
``tests/test_site.py`` (every page opened in the browser).
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml


def toc_files(root: Path) -> list[str]:
    """Paths of every document of ``root/_toc.yml``, root first, without the suffix.

    Parameters
    ----------
    root : Path
        The book's folder (the one holding ``_toc.yml``).

    Returns
    -------
    list of str
        For example ``["chapters/intro", "chapters/neighbours", ...]``.
    """
    toc = yaml.safe_load((Path(root) / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for e in entries or []:
            if "file" in e:
                files.append(e["file"])
            walk(e.get("sections"))
            walk(e.get("chapters"))
    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return [re.sub(r"\.(md|ipynb)$", "", f) for f in files]
