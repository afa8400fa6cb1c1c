"""One numbering everywhere (issue 31, item 6): "Exercise 4.3" is the third exercise of chapter 4.

The one source of a chapter's number is ``_toc.yml`` read by
``booktoc.chapter_numbers`` (the parts marked ``numbered``, counted on across
parts, as Sphinx with sphinx-multitoc-numbering numbers them); an exercise's
number is ``booktoc.item_number(chapter, k)``.  Compared with it:

* the Colab notebooks (``notebooks/``) and the handouts (``handouts/``):
  their exercise headings and solution titles;
* the nbgrader course source (``tools/make_assignments.py``): every graded
  cell's id names its exercise (``local-answer-4-3``), one per exercise
  (the released notebooks are checked in ``tests/book/test_nbgrader.py`` with
  :func:`notebook_problems`);
* the teachers' table and the syllabus (``_ext/book_plan.py``);
* the built website (``_build/html``; marker ``browser``, run by ``make
  site-test`` after the book is built), the student edition
  (``_build/student/_build/html``), the single page the PDF is printed from
  and the PDFs (``make editions-test``): each exercise box, each solution
  title, each chapter heading, the teachers' table, the syllabus.

The built outputs are skipped when absent -- unless ``CI`` is set, where
they fail (as ``tests/book/test_site.py`` does).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from harness import IN_CI

import book_plan  # (_ext/, on sys.path by conftest)
import make_assignments as ma  # (tools/)
from booktoc import chapter_numbers, item_number, toc_files

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = chapter_numbers(ROOT)
CHAPTERS = {stem: info for _, stem, info in book_plan.book_chapters(ROOT) if info["exercises"]}
BUILDS = {"website": ROOT / "_build" / "html",
          "student website": ROOT / "_build" / "student" / "_build" / "html"}
#: the single page the PDF is printed from (the root page holds every chapter: tools/make_pdf.py)
SINGLE = {"PDF": ROOT / "_build" / "singlehtml" / f"{toc_files(ROOT)[0]}.html",
          "student PDF": ROOT / "_build" / "student" / "_build" / "singlehtml" / f"{toc_files(ROOT)[0]}.html"}
PDFS = {"PDF": ROOT / "_build" / "book.pdf", "student PDF": ROOT / "_build" / "student" / "book.pdf"}


def expected(stem: str) -> list[tuple[str, str]]:
    """``(label, "C.K")`` of every numbered exercise of a chapter, in order."""
    return [(ex["label"], ex["number"]) for ex in CHAPTERS[stem]["exercises"] if ex["number"]]


# --------------------------------------------------------------------------- the source of truth
def test_chapters_are_numbered_in_reading_order_and_every_exercise_is_in_one():
    docs = toc_files(ROOT)
    numbered = [d for d in docs if d in NUMBERS]
    assert [NUMBERS[d] for d in numbered] == list(range(1, len(numbered) + 1)), "in reading order, from 1"
    assert docs[0] not in NUMBERS, "the introduction (the root page) has no number"
    for doc in ("chapters/notation", "chapters/teachers", "chapters/syllabus", "chapters/references"):
        assert doc not in NUMBERS, f"{doc}: the back matter has no number"
    unnumbered = [stem for stem in CHAPTERS if f"chapters/{stem}" not in NUMBERS]
    assert not unnumbered, f"chapters with exercises outside a numbered part of _toc.yml: {unnumbered}"
    assert NUMBERS["chapters/dp"] == 1, "the first chapter after the introduction is chapter 1"


def test_chapter_numbers_run_on_across_parts_and_skip_unnumbered_parts(tmp_path):
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n"
        "  - caption: A\n    numbered: 1\n    chapters:\n      - file: c/a1\n      - file: c/a2.md\n"
        "  - caption: B\n    numbered: true\n    chapters:\n      - file: c/b1\n"
        "  - caption: Back\n    chapters:\n      - file: c/z\n")
    assert chapter_numbers(tmp_path) == {"c/a1": 1, "c/a2": 2, "c/b1": 3}
    assert item_number(4, 3) == "4.3" and item_number(None, 2) == "2"
    with pytest.raises(ValueError, match="k must be"):
        item_number(4, 0)


# --------------------------------------------------------------------------- notebooks and handouts
HEAD = re.compile(r"^(?:> )?\*\*Exercise (\S+?)(?: \(|\*\*)", re.M)
SOLUTION_TITLE = re.compile(r"Solution to Exercise (\S+?)(?: \(|</b>|\n|$)", re.M)


def notebook_problems(nb, stem: str) -> list[str]:
    """How the exercise numbers of a notebook of chapter ``stem`` (Colab copy, handout, nbgrader
    source or release) differ from the book's: its headings, solution titles and graded cells' ids."""
    numbers = [n for _, n in expected(stem)]
    problems = []
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    chapter = NUMBERS[f"chapters/{stem}"]
    if not re.search(rf"^# {chapter}\. \S", text, re.M):
        problems.append(f"{stem}: no title '# {chapter}. ...' (the chapter's number, as on the website)")
    if HEAD.findall(text) != numbers:
        problems.append(f"{stem}: headings {HEAD.findall(text)}, the book's {numbers}")
    solutions = SOLUTION_TITLE.findall(text + "\n" + code)
    if not set(solutions) <= set(numbers):
        problems.append(f"{stem}: solution titles {solutions}")
    ids = [c.metadata["nbgrader"]["grade_id"] for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    if ids:
        named = [re.fullmatch(rf"{re.escape(stem)}-(?:answer|proof)-(\d+)-(\d+)", i) for i in ids]
        if not all(named) or [f"{m[1]}.{m[2]}" for m in named] != numbers:
            problems.append(f"{stem}: graded ids {ids}, one per exercise {numbers}")
    return problems


@pytest.mark.parametrize("folder", ["notebooks", "handouts"])
def test_colab_notebooks_and_handouts_number_as_the_book(folder):
    problems = []
    for stem in CHAPTERS:
        problems += notebook_problems(nbformat.read(ROOT / folder / f"{stem}.ipynb", as_version=4), stem)
    assert not problems, problems


def test_nbgrader_ids_name_each_exercise_by_its_number():
    problems = []
    for stem in CHAPTERS:
        nb = ma.assignment(stem)
        problems += notebook_problems(nb, stem)
        graded = {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells
                  if c.metadata.get("nbgrader", {}).get("grade")}
        proofs = [n for ex, (_, n) in zip(CHAPTERS[stem]["exercises"], expected(stem), strict=True) if ex["proof"]]
        assert {ma.grade_id(stem, "proof", n) for n in proofs} <= set(graded), stem
    assert not problems, problems
    assert ma.grade_id("local", "answer", "4.3") == "local-answer-4-3"
    with pytest.raises(ValueError, match="number must be"):
        ma.grade_id("local", "answer", None)


# --------------------------------------------------------------------------- teachers' pages
def test_teachers_table_and_syllabus_name_exercises_by_their_number():
    chapters = book_plan.book_chapters(ROOT)
    table = "\n".join(book_plan.exercise_table(chapters))
    plans = "\n".join(book_plan.syllabus(chapters))
    for stem in CHAPTERS:
        for label, number in expected(stem):
            assert re.search(rf"\| {re.escape(number)} \| {{ref}}`{label}` \|", table), (stem, label, number)
            assert f"{{ref}}`Exercise {number} <{label}>`" in plans, (stem, label, number)
    assert not re.search(r"Ex\. \d", plans)
    page = (ROOT / "chapters" / "teachers.md").read_text()
    assert "C.K is the K-th exercise of\nchapter C" in page and "local-answer-4-3" in page


# --------------------------------------------------------------------------- what is built
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


EX_BOX = re.compile(r'<div class="exercise[^"]*" id="(?P<label>[^"]+)">\s*<p class="admonition-title">'
                    r'<span class="caption-number">Exercise (?P<n>[\d.]+) </span>')
SOLUTION_BOX = re.compile(r'Solution to<a class="reference internal" href="[^"]*#(?P<label>[^"]+)"> '
                          r'Exercise (?P<n>[\d.]+)\b')
CHAPTER_HEAD = re.compile(r'<h1><span class="section-number">(?P<n>\d+)\. </span>')


def page_problems(html: str, stem: str, solutions: bool) -> list[str]:
    """The exercise boxes (and their solutions) of one chapter's built page against the book's numbers."""
    want = expected(stem)
    got = [(m["label"], m["n"]) for m in EX_BOX.finditer(html)]
    problems = [] if got == want else [f"{stem}: exercises {got}, the book's {want}"]
    numbers = dict(want)
    sols = [(m["label"], m["n"]) for m in SOLUTION_BOX.finditer(html)]
    if any(numbers.get(label) != n for label, n in sols) or (solutions and not sols):
        problems.append(f"{stem}: solution titles {sols}")
    return problems


def _built(kind: str) -> Path:
    site = BUILDS[kind]
    if not (site / "index.html").exists():
        if IN_CI and kind == "website":
            pytest.fail(f"no built website at {site} under CI")
        pytest.skip(f"no {kind} at {site}")
    return site


@pytest.mark.browser
@pytest.mark.parametrize("kind", list(BUILDS))
def test_built_site_numbers_chapters_and_exercises_as_the_book(kind):
    site = _built(kind)
    problems = []
    for stem in CHAPTERS:
        html = _read(site / "chapters" / f"{stem}.html")
        problems += page_problems(html, stem, solutions=kind == "website")
        head = CHAPTER_HEAD.search(html)
        if not head or int(head["n"]) != NUMBERS[f"chapters/{stem}"]:
            problems.append(f"{stem}: chapter heading {head and head.group(0)}")
    for doc in toc_files(ROOT):
        if doc not in NUMBERS and (site / f"{doc}.html").exists():
            if CHAPTER_HEAD.search(_read(site / f"{doc}.html")):
                problems.append(f"{doc}: an unnumbered page with a number")
    assert not problems, problems


@pytest.mark.browser
@pytest.mark.parametrize("kind", list(BUILDS))
def test_built_teachers_table_and_syllabus_show_the_same_numbers(kind):
    site = _built(kind)
    syllabus = _read(site / "chapters" / "syllabus.html")
    rows = _read(site / "chapters" / "teachers.html").split("<tr") if kind == "website" else None
    for stem in CHAPTERS:
        for label, number in expected(stem):
            links = re.findall(rf'href="{stem}\.html#{label}"><span[^>]*>([^<]*)<', syllabus)
            assert links and set(links) == {f"Exercise {number}"}, (kind, stem, label, links)
            if rows:        # the student edition has a stub of the teachers' page
                row = next((r for r in rows if f'#{label}"' in r), "")
                assert f"<p>{number}</p>" in row and f"Exercise {number}<" in row, (stem, label, number)


@pytest.mark.browser
@pytest.mark.parametrize("kind", list(SINGLE))
def test_the_printed_book_numbers_as_the_site(kind):
    page = SINGLE[kind]
    if not page.exists():
        pytest.skip(f"no single-page build at {page} (make pdf / make pdf-student)")
    html = _read(page)
    problems = []
    for stem in CHAPTERS:
        for label, number in expected(stem):
            m = re.search(rf'id="{label}">\s*<p class="admonition-title"><span class="caption-number">'
                          rf'Exercise ([\d.]+) ', html)
            if not m or m.group(1) != number:
                problems.append(f"{kind}: {label} is {m and m.group(1)}, the book's {number}")
    assert not problems, problems
    pdf = PDFS[kind]
    if pdf.exists() and shutil.which("pdftotext"):
        text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True,
                                       text=True).stdout.split())
        missing = [n for stem in CHAPTERS for _, n in expected(stem) if f"Exercise {n}" not in text]
        assert not missing, f"{kind}: no 'Exercise {missing[0]}' ({len(missing)} missing)"
        assert not re.search(r"Exercise \d+(?!\d)(?!\.\d)", text), "an exercise numbered across the book"
