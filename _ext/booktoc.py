"""The documents of ``_toc.yml`` in reading order: one reader for the whole project.

Used by the Sphinx extension ``book_plan`` (the "For teachers" tables),
``tools/make_student.py`` (Colab copies and student notebooks),
``tools/make_assignments.py`` (nbgrader ids) and ``tests/book/test_site.py``
(every page opened in the browser).

It is also the one source of the book's numbering (issue 31, item 6):
:func:`chapter_numbers` gives each chapter of a part marked ``numbered`` in
``_toc.yml`` its number, as Sphinx numbers it (the parts' toctrees numbered
one after the other: Jupyter Book's sphinx-multitoc-numbering), and
:func:`item_number` writes an exercise's (or definition's) number as
"C.K", K its place in the chapter -- the number the website, the PDF, the
notebooks, the handouts, the nbgrader ids and the teachers' pages show.
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


def chapter_numbers(root: Path) -> dict[str, int]:
    """The number of each numbered chapter of ``root/_toc.yml``.

    The chapters of the parts marked ``numbered`` are numbered from 1 in
    reading order, the count running on from one part to the next (Sphinx
    with sphinx-multitoc-numbering, which Jupyter Book turns on); the root
    page and the chapters of unnumbered parts (the back matter) have no
    number.

    Parameters
    ----------
    root : Path
        The book's folder (the one holding ``_toc.yml``).

    Returns
    -------
    dict of str to int
        For example ``{"chapters/dp": 1, "chapters/neighbours": 2, ...}``.
    """
    toc = yaml.safe_load((Path(root) / "_toc.yml").read_text())
    numbers: dict[str, int] = {}
    for part in toc.get("parts", []):
        if not part.get("numbered"):
            continue
        for entry in part.get("chapters") or []:
            if "file" in entry:
                numbers[re.sub(r"\.(md|ipynb)$", "", entry["file"])] = len(numbers) + 1
    return numbers


def item_number(chapter: int | None, k: int) -> str:
    """The number the book shows for the ``k``-th exercise (or definition, ...) of a chapter.

    Parameters
    ----------
    chapter : int or None
        The chapter's number (:func:`chapter_numbers`); None for an unnumbered page.
    k : int
        The item's place among the chapter's numbered items of its kind, from 1.

    Returns
    -------
    str
        ``"C.K"`` in a numbered chapter (``item_number(4, 3) == "4.3"``), ``"K"`` elsewhere.
    """
    if k < 1:
        raise ValueError(f"k must be a place in the chapter counted from 1, got {k!r}")
    return f"{chapter}.{k}" if chapter else str(k)
