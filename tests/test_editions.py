"""The student edition of the website and the printed book (``make editions-test``).

Not part of ``make test`` (each is one more build of the book):

* the **student website** (``make book-student``,
  ``_build/student/_build/html``) holds every exercise of every chapter and
  no solution -- no solution box, no worked-solution cell, and not one
  sentence of any worked solution -- while the public site
  (``_build/html``, when built) holds them;
* the **PDF** (``make pdf``, ``_build/book.pdf`` and ``_build/book-letter.pdf``)
  has A4 and Letter pages, the title of every page of the book, the text of
  a worked solution, typeset maths (no TeX source left over) and the
  figures.

Skipped when the builds are absent -- unless ``CI`` is set, where they fail.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = ROOT / "_build" / "html"
STUDENT = ROOT / "_build" / "student" / "_build" / "html"
PDFS = {"A4": ROOT / "_build" / "book.pdf", "Letter": ROOT / "_build" / "book-letter.pdf"}
#: page sizes in PostScript points (A4: 210 x 297 mm; Letter: 8.5 x 11 in)
SIZES = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}

import book_plan  # noqa: E402
from booktoc import toc_files  # noqa: E402

import make_pdf  # noqa: E402  (tools/, on sys.path by conftest)

pytestmark = pytest.mark.browser
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def cannot_run(reason: str):
    if IN_CI:
        pytest.fail(f"the editions test cannot run under CI: {reason}")
    pytest.skip(reason)


def chapters() -> list[Path]:
    """The chapter sources of _toc.yml that hold exercises."""
    paths = [ROOT / f"{doc}.md" for doc in toc_files(ROOT)]
    return [p for p in paths if p.exists() and book_plan.chapter_info(p)["exercises"]]


SOLUTION = re.compile(r"^```\{solution-start\}[^\n]*\n(?::[^\n]*\n)*```\n(?P<body>.*?)^```\{solution-end\}",
                      re.M | re.S)


def solution_sentences(path: Path) -> list[str]:
    """From each worked solution, its longest run of plain words (no maths or markup, five words or more)."""
    out = []
    for m in SOLUTION.finditer(path.read_text(encoding="utf-8")):
        prose = re.sub(r"^(`{3,}).*?^\1", "", m.group("body"), flags=re.M | re.S)  # drop code cells
        runs = [" ".join(r.split()).strip(" ,") for r in re.findall(r"[A-Za-z][A-Za-z ,\n]+", prose)]
        runs = [r for r in runs if len(r.split()) >= 5]
        if runs:
            out.append(max(runs, key=len))
    return out


def page_text(html: str) -> str:
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(text.replace("&#8217;", "'").replace("&#39;", "'").split())


@pytest.fixture(scope="module")
def student_site():
    if not (STUDENT / "index.html").exists():
        cannot_run(f"no student edition at {STUDENT} (run `make book-student`)")
    return STUDENT


def test_the_known_solution_sentences_exist():
    # the student test below is only as strong as the sentences it looks for
    found = {p.stem: solution_sentences(p) for p in chapters()}
    assert all(found.values()), f"chapters without a recognisable solution sentence: {found}"


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.stem)
def test_student_site_has_every_exercise_and_no_solution(student_site, path):
    html = (student_site / "chapters" / f"{path.stem}.html").read_text(encoding="utf-8")
    info = book_plan.chapter_info(path)
    labels = [e["label"] for e in info["exercises"]]
    for label in labels:
        assert f'id="{label}"' in html, f"{path.stem}: exercise {label} missing from the student site"
    assert len(re.findall(r'class="[^"]*\bexercise\b[^"]*admonition', html)) == len(labels)
    assert not re.search(r'class="[^"]*\bsolution\b', html), f"{path.stem}: a solution box is left"
    assert "tag_solution" not in html, f"{path.stem}: a worked-solution code cell is left"
    text = page_text(html)
    for sentence in solution_sentences(path):
        assert sentence not in text, f"{path.stem}: solution text on the student site: {sentence!r}"
    public_page = PUBLIC / "chapters" / f"{path.stem}.html"
    if public_page.exists() and public_page.stat().st_mtime >= path.stat().st_mtime:
        # and the public site, when built from this version of the chapter, keeps them
        public = page_text(public_page.read_text(encoding="utf-8"))
        assert all(s in public for s in solution_sentences(path))


@pytest.fixture(scope="module")
def pdf_texts():
    if not all(p.exists() for p in PDFS.values()):
        cannot_run("no PDF in _build/ (run `make pdf`)")
    if not shutil.which("pdftotext"):
        cannot_run("pdftotext not found (Debian: apt-get install poppler-utils)")
    out = {}
    for paper, pdf in PDFS.items():
        info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
        text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
        images = subprocess.run(["pdfimages", "-list", str(pdf)], check=True, capture_output=True, text=True).stdout
        out[paper] = (info, text, images)
    return out


@pytest.mark.parametrize("paper", list(PDFS))
def test_pdf_pages_titles_solutions_maths_figures(pdf_texts, paper):
    info, text, images = pdf_texts[paper]
    w, h = (float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    # Chromium rounds the paper to hundredths of an inch: A4 comes out 595.92 x 842.88 pt
    assert abs(w - SIZES[paper][0]) <= 1.5 and abs(h - SIZES[paper][1]) <= 1.5, (w, h)
    assert int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1)) > 50
    assert make_pdf.missing_titles(PDFS[paper], make_pdf.page_titles()) == []
    flat = " ".join(text.split())
    sentence = solution_sentences(chapters()[0])[0]
    assert sentence in flat, "the public PDF should print the worked solutions"
    assert "\\frac" not in text and "\\varepsilon" not in text, "TeX source left untypeset"
    n_figures = len(images.strip().splitlines()) - 2
    assert n_figures >= 40, f"only {n_figures} images in the PDF"
