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

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from harness import cannot_run  # tests/book/harness.py

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "_build" / "html"
STUDENT = ROOT / "_build" / "student" / "_build" / "html"
PDFS = {"A4": ROOT / "_build" / "book.pdf", "Letter": ROOT / "_build" / "book-letter.pdf"}
#: page sizes in PostScript points (A4: 210 x 297 mm; Letter: 8.5 x 11 in)
SIZES = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}

import book_plan  # noqa: E402
from booktoc import toc_files  # noqa: E402

import make_pdf  # noqa: E402  (tools/, on sys.path by conftest)

pytestmark = pytest.mark.browser


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


# --------------------------------------------------------------------------- the student site, crawled
# Issue 31, item 4: every file the student site serves -- pages, the search index, alt texts, explorer
# views, downloads, _static -- and the student PDF hold no worked solution and no graded answer (the
# book answers of tools/answer_key.py in the forms a checker accepts: tests/book/test_answer_leaks.py).
from test_answer_leaks import COINCIDENCES, _found  # noqa: E402

import editions  # noqa: E402  (_ext/: the student edition's stub of the teachers' page)

STUDENT_PDF = ROOT / "_build" / "student" / "book.pdf"
#: a gated worked solution, from its start to its end directive (book_plan.SOLUTION_BLOCK)
SOLUTION_ANY = book_plan.SOLUTION_BLOCK
#: pages' attributes that carry words a reader meets (alt text, tooltips, labels of explorers)
TEXT_ATTRIBUTES = re.compile(r'\b(?:alt|title|aria-label|aria-valuetext|data-labels|content)="([^"]*)"')
EXPLORER_DATA = re.compile(r'<script type="application/json" class="dpsens-explorer-data">(.*?)</script>', re.S)
#: the book's repository (chapters/, notebooks/ and tools/ hold the solutions and the key)
REPOSITORY = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
#: links the student site may hold into it: the licence, changes and citation in every page's footer, the
#: Colab button's handout (tests/book/test_answer_leaks.py checks it opens handouts/ only) and a file of the
#: package the students install anyway (src/dpsens/)
REPO_FILES_ALLOWED = re.compile(r"/blob/[^/]+/(?:LICENSE|CHANGELOG\.md|CITATION\.cff|handouts/\w+\.ipynb|src/dpsens/\S+)$")
#: Numbers only the built pages show (alt texts) that equal an answer by coincidence: form -> what it is.
PAGE_COINCIDENCES = {
    ("median_grid", "gaussian_exact_epsilon=3.75"): "the local sensitivity of the toy release [2, 3, 10] in the "
                                                    "alt text of a bar chart (and its explorer's views)",
}
#: files that hold every chapter's text (or an explorer's views, named by a digest): a coincidence of a
#: chapter may be in them too
SHARED_FILES = re.compile(r"^(?:searchindex\.js|objects\.inv|book\.pdf|_images/dpsens/\w+\.(?:html|js))$")
#: Packages whose static files the site copies as they are (the theme, its extensions, MathJax in _vendor/):
#: a copy of one of their files is not the book's text.
VENDORED = ("pydata_sphinx_theme", "sphinx_book_theme", "sphinx", "sphinx_design", "sphinx_copybutton",
            "sphinx_togglebutton", "sphinx_exercise", "sphinx_proof", "sphinx_thebe", "myst_nb", "jupyter_book",
            "sphinx_comments", "sphinxcontrib")


def _solution_free_sources() -> tuple[str, str]:
    """(what the student edition is built from, what it leaves out): the pages of _toc.yml with their worked
    solutions cut, the teachers' stub for the teachers' page; and the solutions and the teachers' page."""
    shown, hidden = [], []
    for doc in toc_files(ROOT):
        path = ROOT / f"{doc}.md"
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        if doc == "chapters/teachers":
            shown.append(editions.TEACHERS_STUB)
            hidden.append(text)
            continue
        hidden += [m.group(0) for m in SOLUTION_ANY.finditer(text)]
        shown.append(SOLUTION_ANY.sub("", text))
    shown.append((ROOT / "references.bib").read_text(encoding="utf-8"))   # the bibliography page
    for path in (ROOT / "tests" / "notebooks").glob("*.ipynb"):      # the printed outputs a page shows
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code" and "solution" not in cell["metadata"].get("tags", []):
                shown += ["".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                          for o in cell.get("outputs", [])]
    return "\n".join(shown), "\n".join(hidden)


def hidden_stems() -> set[str]:
    """Word stems (Sphinx's English stemmer, as its search index) found only in what the student edition
    leaves out -- a worked solution or the teachers' page -- never in what it shows."""
    from sphinx.search.en import SearchEnglish
    stem = SearchEnglish({}).stem
    shown, hidden = _solution_free_sources()

    def stems(text):
        return {stem(w.lower()) for w in re.findall(r"[A-Za-z]{4,}", text)}
    return stems(hidden) - stems(shown)


def _png_text(data: bytes) -> str:
    """The text chunks of a PNG (tEXt, iTXt): metadata a figure file carries."""
    import struct
    out, i = [], 8
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind in (b"tEXt", b"iTXt"):
            out.append(data[i + 8:i + 8 + size].decode("latin-1"))
        i += 12 + size
    return "\n".join(out)


def vendored_digests() -> set[str]:
    """SHA-1 of every file of the packages in :data:`VENDORED` and of ``_vendor/``."""
    import hashlib
    import importlib.util
    roots = [ROOT / "_vendor"]
    for name in VENDORED:
        spec = importlib.util.find_spec(name)
        roots += [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    return {hashlib.sha1(p.read_bytes()).hexdigest() for r in roots for p in r.rglob("*")
            if p.is_file() and p.suffix in (".js", ".css", ".json", ".html", ".svg", ".txt")}


def served_texts(site: Path) -> dict[str, str]:
    """What a reader can read in each file the site serves: a page's text, its attributes' words and its
    explorers' view descriptions; the search index; any other text file whole; a PNG's text chunks.
    Verbatim copies of the theme's and MathJax's files (:func:`vendored_digests`) are left out."""
    import hashlib
    import zlib
    vendored = vendored_digests()
    out = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = str(path.relative_to(site))
        data = path.read_bytes()
        if rel.startswith("_static/") and hashlib.sha1(data).hexdigest() in vendored:
            continue
        if path.suffix == ".html":
            html = data.decode("utf-8", "replace")
            views = []
            for block in EXPLORER_DATA.findall(html):
                views += [v[1] for v in json.loads(block)["views"].values()]
            out[rel] = "\n".join([page_text(html), *TEXT_ATTRIBUTES.findall(html), *views])
        elif path.suffix == ".png":
            out[rel] = _png_text(data)
        elif path.name == "objects.inv":
            out[rel] = zlib.decompress(data.split(b"\n", 4)[4]).decode("utf-8", "replace")
        elif path.suffix in (".js", ".json", ".txt", ".md", ".ipynb", ".py", ".svg", ".xml", ".csv"):
            # (style sheets carry no text a reader reads, and numbers such as font-weight: 600)
            out[rel] = data.decode("utf-8", "replace")
    return out


def answers_in(texts: dict[str, str]) -> list[str]:
    """Graded answers found in the texts: any but the listed coincidences, each in its chapter's page (or a
    file of every chapter's text, :data:`SHARED_FILES`)."""
    allowed = set(COINCIDENCES) | set(PAGE_COINCIDENCES)

    def coincidence(rel, found):
        return any((stem, found) in allowed for stem in ([rel[len("chapters/"):-len(".html")]]
                                                         if rel.startswith("chapters/") else [])) or \
            (SHARED_FILES.match(rel) and any(form == found for _, form in allowed))
    return [f"{rel}: {f}" for rel, text in texts.items() for f in _found(text) if not coincidence(rel, f)]


@pytest.fixture(scope="module")
def student_files(student_site):
    return served_texts(student_site)


def test_student_site_serves_no_source_no_download_and_no_way_to_the_solutions(student_site, student_files):
    files = [str(p.relative_to(student_site)) for p in student_site.rglob("*") if p.is_file()]
    assert not [f for f in files if f.startswith(("_sources/", "_downloads/"))], "page sources or downloads"
    assert not [f for f in files if f.endswith((".md", ".ipynb", ".py"))], "a chapter's source or notebook"
    bad = []
    for rel, html in ((f, (student_site / f).read_text(encoding="utf-8")) for f in files if f.endswith(".html")):
        for url in re.findall(r'href="(https?://[^"]+)"', html):
            if "mybinder.org" in url or "jupyterhub" in url or f"{REPOSITORY.split('github.com/')[-1]}/" in url \
                    and "github.com" not in url and "colab" not in url:
                bad.append(f"{rel}: {url}")
            elif url.startswith(REPOSITORY) and not REPO_FILES_ALLOWED.search(url.split("?")[0]):
                bad.append(f"{rel}: {url}")
            elif "colab.research.google.com" in url and "/handouts/" not in url:
                bad.append(f"{rel}: {url}")
    assert not bad, bad[:10]
    teachers = student_files["chapters/teachers.html"]
    assert "answer_key" not in teachers and "make grade" not in teachers


def test_student_site_holds_no_worked_solution_anywhere(student_site, student_files):
    sentences = [s for p in chapters() for s in solution_sentences(p)]
    found = [f"{rel}: {s!r}" for rel, text in student_files.items()
             for s in sentences if s in " ".join(text.split())]
    assert not found, found[:10]
    assert not [rel for rel, text in student_files.items() if "Solution to Exercise" in text]
    # the search index: no word stem found only in a worked solution or the teachers' page
    index = student_files["searchindex.js"]
    data = json.loads(index[index.index("(") + 1:index.rindex(")")])
    terms = set(data["terms"]) | set(data["titleterms"])
    hidden = hidden_stems()
    assert len(hidden) > 50, "the search is only as strong as the words it looks for"
    assert not hidden & terms, sorted(hidden & terms)[:20]


def test_student_site_holds_no_graded_answer(student_files):
    found = answers_in(student_files)
    assert not found, found[:20]


def test_student_pdf_holds_no_worked_solution_and_no_graded_answer():
    if not STUDENT_PDF.exists():
        cannot_run(f"no student PDF at {STUDENT_PDF} (run `make pdf-student`)")
    if not shutil.which("pdftotext"):
        cannot_run("pdftotext not found (Debian: apt-get install poppler-utils)")
    text = " ".join(subprocess.run(["pdftotext", str(STUDENT_PDF), "-"], check=True, capture_output=True,
                                   text=True).stdout.split())
    assert len(text) > 100_000, "the student PDF holds the book"
    assert not [s for p in chapters() for s in solution_sentences(p) if s in text]
    assert "Solution to Exercise" not in text
    found = answers_in({"book.pdf": text})
    assert not found, found


def test_the_crawl_finds_a_planted_answer_solution_and_source(tmp_path):
    """The crawl's own check, on a made-up site: an answer in an alt text, in an explorer's view, in a
    PNG's text chunk and in a data file; a solution sentence; a page source; a copy of a theme file."""
    import struct
    import zlib
    from test_answer_leaks import ANSWER_FORMS

    name, forms = next((n, f) for n, f in sorted(ANSWER_FORMS.items()) if any("." in x for x in f))
    form = sorted(x for x in forms if "." in x)[0]
    sentence = next(s for p in chapters() for s in solution_sentences(p))
    (tmp_path / "chapters").mkdir()
    views = json.dumps({"sources": [], "views": {"0": [0, f"Figure: loss {form}"]}})
    (tmp_path / "chapters" / "a.html").write_text(
        f'<p>{sentence}</p><img src="x.png" alt="mean {form}">'
        f'<script type="application/json" class="dpsens-explorer-data">{views}</script>')
    chunk = b"tEXt" + b"Comment\x00" + form.encode()
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(chunk) - 4) + chunk + struct.pack(">I", zlib.crc32(chunk))
    (tmp_path / "x.png").write_bytes(png)
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "views.json").write_text(json.dumps({"alt": form}))
    theme = Path(__import__("pydata_sphinx_theme").__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    vendored = next(p for p in sorted(theme.rglob("*.js")))
    (tmp_path / "_static" / vendored.name).write_bytes(vendored.read_bytes())
    texts = served_texts(tmp_path)
    assert f"_static/{vendored.name}" not in texts, "a verbatim theme file is not the book's text"
    found = answers_in(texts)
    assert {f.split(": ")[0] for f in found} == {"chapters/a.html", "x.png", "_static/views.json"}, found
    assert all(f.endswith(f"{name}={form}") for f in found)
    assert sentence in " ".join(texts["chapters/a.html"].split())
    assert {"click", "editor"}.isdisjoint(hidden_stems()), "the bibliography is shown on the student site"
    assert {"gradebook", "roster", "cheat"} <= hidden_stems(), "the teachers' page is not"
