"""Notebooks generated from the chapters: student handouts and Binder/Colab copies.

The chapters (``chapters/<stem>.md``, MyST markdown notebooks) are the only
source.  This tool derives two kinds of ``.ipynb`` from them, both through the
one converter ``tools/myst_to_jupyter.py`` (every MyST directive and role as
plain Jupyter Markdown -- exercises as "Exercise N (title)" blocks, glued
numbers as their values, cross-references to a chapter or to a reading page
(:data:`READING_PAGES`, the notation) as links to its notebook in the same
folder, other links to the website -- in a handout the student site, and the
teachers' page not linked -- and the book's hidden plumbing cells dropped or
folded away):

``student`` (``make student``) -> ``student/<stem>.ipynb`` (not committed)
    Handouts for a class.  Every worked solution is removed:

    * the prose of ``{solution-start}`` ... ``{solution-end}`` blocks and of
      plain ``{solution}`` directives is dropped;
    * a code cell tagged ``solution`` (or any code cell inside a solution
      block) is emptied to a ``...`` placeholder that keeps its checker call:
      ``answer = <worked computation>`` + ``ds.exercises.check_x(answer)``
      becomes ``answer = ...`` + the same check line.  When the exercise
      already has a student cell calling the same checker (the book's
      convention), the emptied copy would only repeat it, so it is left out;
    * the ``# NBVAL_CHECK_OUTPUT`` test markers are removed;
    * everything else is kept, after a first cell saying how to use the
      notebook and the set-up cell of the Colab copies (so a handout also runs
      in Colab).

``colab`` (``make colab``) -> ``notebooks/<stem>.ipynb`` (committed)
    The full chapter, each worked solution folded in a ``<details>`` block
    (its code cells collapsed), after a set-up cell that installs the book's
    package where it is missing (Colab: ``pip install --no-deps
    "git+<repository>@<ref>"`` -- pip builds it in a temporary folder, so
    nothing, solutions included, lands in the student's folder -- and ``pip
    install`` of only those requirements that are absent: nothing Colab has is
    upgraded).  The cell shows one line: Colab's ``# @title`` form
    (``cellView: form``) and JupyterLab's ``source_hidden`` fold the rest.
    ``<ref>`` is ``repository.branch`` or ``DPSENS_BOOK_REF`` (a release tag)
    at generation; ``DPSENS_BOOK_REPO``/``DPSENS_BOOK_BRANCH`` override both at
    run time (the tests use a local clone).  The website's Colab and Binder
    launch buttons open these copies (``_ext/launch_notebooks.py``).
    ``make colab`` also writes ``handouts/<stem>.ipynb`` (committed), the
    student notebooks, which the *student* site's launch buttons open.
    Both folders also hold a notebook of each reading page (:data:`READING_PAGES`:
    the notation, which every chapter links), so that no link from one
    notebook to another page of the set needs the internet.
    ``check-colab`` fails when either is out of date (``tests/book/test_student.py``
    runs the same check).

The glued numbers come from ``tests/notebooks/<stem>.ipynb``, where
``tools/nbval_notebooks.py record`` keeps them from the executed chapter: so
converting needs no kernel, and re-recording a chapter (required after any
change to it) refreshes its numbers.

Usage: ``python tools/make_student.py student|colab|check-colab [stem ...]``.
"""
from __future__ import annotations

import ast
import dataclasses
import os
import re
import sys
from pathlib import Path

import jupytext
import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
from booktoc import toc_files  # noqa: E402  (the one reader of _toc.yml)

sys.path.insert(0, str(ROOT / "tools"))
import myst_to_jupyter as m2j  # noqa: E402  (the MyST -> Jupyter converter)
from nbval_notebooks import glue_values  # noqa: E402  (the glued values of the executed chapters)

CHAPTERS = ROOT / "chapters"
STUDENT = ROOT / "student"
COLAB = ROOT / "notebooks"
HANDOUTS = ROOT / "handouts"   # the student notebooks, committed: the student site's launch buttons open them
MARK = re.compile(r"^# NBVAL_CHECK_OUTPUT[ \t]*\n?", re.MULTILINE)
FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}")
CHECK = re.compile(r"^\s*(?:\w+\.)*(check_\w+)\((.*)\)\s*(#.*)?$")


def repository() -> tuple[str, str]:
    """(repository URL, branch) from _config.yml -- the one place they are set."""
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = cfg.get("repository", {})
    return repo["url"].rstrip("/"), repo.get("branch", "main")


def toc_chapters() -> list[str]:
    """Stems of the executable chapters listed in _toc.yml, in reading order."""
    files = toc_files(ROOT)
    stems = []
    for f in files:
        path = ROOT / (f + ".md")
        if path.parent == CHAPTERS and path.exists():
            nb = jupytext.read(path)
            if "kernelspec" in nb.metadata and any(c.cell_type == "code" for c in nb.cells):
                stems.append(path.stem)
    return stems


#: Back-matter pages without code that the chapters link (each chapter links the notation where it first
#: uses a symbol): each gets a notebook beside the chapters' in notebooks/ and handouts/ (no set-up cell,
#: nothing to run), so that those links work in a lab without internet.  Not the teachers' page (for
#: teachers: a handout names it without a link, :data:`TEACHER_PAGES`); not the references page (a
#: notebook lists its own references in its last cell).
READING_PAGES = ("notation",)
#: Pages for teachers: a student handout shows a cross-reference to one as its text alone -- the public
#: site's page leads to the solutions, the student site serves only a stub of it (_ext/editions.py).
TEACHER_PAGES = frozenset({"teachers"})


def handout_stems() -> list[str]:
    """Stems with a notebook in notebooks/ and handouts/: the chapters, then the :data:`READING_PAGES`
    in _toc.yml."""
    toc = set(toc_files(ROOT))
    return toc_chapters() + [p for p in READING_PAGES if f"chapters/{p}" in toc]


def read_chapter(stem: str):
    return jupytext.read(CHAPTERS / f"{stem}.md")


_BOOK = []


def book() -> m2j.Book:
    """Labels, page titles and citations of the whole book (read once); a link to another chapter or
    to a reading page opens its notebook in the same folder (each has one in notebooks/ and handouts/:
    :func:`handout_stems`), a link to any other page the website."""
    if not _BOOK:
        _BOOK.append(dataclasses.replace(m2j.load_book(ROOT), local=frozenset(handout_stems())))
    return _BOOK[0]


def version() -> str:
    """The book's version: ``dpsens.__version__``, read from the source (pyproject takes it from there)."""
    text = (ROOT / "src" / "dpsens" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE).group(1)


def student_site() -> str:
    """Where the student edition of the website lives (``make book-student``, published under
    ``<html.baseurl>student/`` unless ``DPSENS_STUDENT_SITE`` says otherwise): the handouts link there,
    never to the public site with its solutions."""
    return os.environ.get("DPSENS_STUDENT_SITE") or book().base_url + "student/"


def requirements() -> list[str]:
    """The package's run-time requirements (pyproject ``dependencies`` + the ``widgets`` extra)."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"]) + list(project.get("optional-dependencies", {}).get("widgets", []))


# --------------------------------------------------------------------------- student
def _strip_solution_prose(text: str, inside: bool) -> tuple[str, bool]:
    """Drop solution blocks from a markdown cell; ``inside`` carries a gated block across cells."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m and m.group("name") in ("solution-start", "solution", "solution-end"):
            fence = m.group("fence")
            j = i + 1  # skip to the directive's closing fence
            while j < len(lines) and lines[j].strip() != fence:
                j += 1
            name = m.group("name")
            inside = name == "solution-start"
            i = j + 1
            continue
        if not inside:
            out.append(line)
        i += 1
    return "\n".join(out).strip("\n"), inside


PROOF = re.compile(r"^(?:`{3,}|:{3,})\{exercise\}\s*(Proof\b.*?)\s*$", re.MULTILINE)


def _proof_parts(text: str) -> list[tuple[str, str | None]]:
    """``text`` cut after each proof exercise's closing fence: ``[(part, proof title or None), ...]``.

    The answer cell of a proof exercise follows its statement directly, even where the Markdown cell
    goes on (e.g. into the next exercise, when no code cell stands between them)."""
    parts: list[tuple[str, str | None]] = []
    start = 0
    for m in PROOF.finditer(text):
        if m.start() < start:
            continue
        fence = re.match(r"`{3,}|:{3,}", m.group(0)).group(0)
        close = re.compile(rf"^{re.escape(fence)}\s*$", re.MULTILINE).search(text, m.end())
        end = close.end() if close else len(text)
        parts.append((text[start:end].strip("\n"), m.group(1)))
        start = end
    parts.append((text[start:].strip("\n"), None))
    return parts


def proof_answer_cell(title: str):
    """The answer cell a handout gives a proof exercise (a Markdown cell the student writes in)."""
    cell = nbformat.v4.new_markdown_cell(
        f"**Your proof** ({title.strip()}). *Double-click this cell and write your proof here; maths "
        "between dollar signs, as in $k \\cdot \\Delta$.*")
    cell.metadata["tags"] = ["proof-answer"]
    return cell


def checker_lines(source: str) -> list[str]:
    """The ``check_...(...)`` call lines of a cell."""
    return [line for line in source.splitlines() if CHECK.match(line)]


def placeholder(source: str) -> str:
    """``answer = ...`` for each name the checker calls receive, then the check lines."""
    checks = checker_lines(source)
    if not checks:
        return "...  # your code here"
    names = []
    for line in checks:
        call = ast.parse(line.strip()).body[0].value
        for arg in list(call.args) + [k.value for k in call.keywords]:
            if isinstance(arg, ast.Name) and arg.id not in names:
                names.append(arg.id)
    body = [f"{n} = ...  # your answer here" for n in names] or ["...  # your code here"]
    return "\n".join(body + checks)


def student_notebook(nb, stem: str | None = None):
    """The student version of a chapter notebook (a new object), as plain Jupyter.

    ``stem`` names the chapter whose recorded glue values fill ``{glue:text}``.
    """
    if stem in READING_PAGES:
        return reading_notebook(nb, stem, student=True)
    nb = nbformat.from_dict(nb)  # deep copy
    cells, inside, seen_checks = [], False, set()
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text, inside = _strip_solution_prose(cell.source, inside)
            for part, title in _proof_parts(text):
                if part.strip():
                    piece = nbformat.from_dict(cell)
                    piece.source = part
                    cells.append(piece)
                if title is not None:
                    cells.append(proof_answer_cell(title))
            continue
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        tags = cell.metadata.get("tags", [])
        cell.source = MARK.sub("", cell.source)
        if "solution" in tags or inside:
            checks = checker_lines(cell.source)
            if checks and all(CHECK.match(c).group(1) in seen_checks for c in checks):
                continue  # the student cell of this exercise is already there
            cell.source = placeholder(cell.source)
            cell.metadata["tags"] = [t for t in tags if t != "solution"] + ["exercise"]
            cell.outputs, cell.execution_count = [], None
        else:
            seen_checks.update(CHECK.match(c).group(1) for c in checker_lines(cell.source))
        cells.append(cell)
    title = next((line[2:] for c in nb.cells if c.cell_type == "markdown"
                  for line in c.source.splitlines() if line.startswith("# ")), "")
    intro = nbformat.v4.new_markdown_cell(
        f"**Student notebook{': ' + title if title else ''}** (book version {version()}). Generated from "
        "the book's chapter: the worked solutions are removed. Run the set-up cell below first, then the "
        "cells from the top; in each exercise cell replace `...` with your answer and run it again -- the "
        "`check_...` call tells you whether it is right, with a hint if not. A proof exercise has an "
        "answer cell: write your proof there.")
    intro.metadata["tags"] = ["student-intro"]
    setup = setup_cell()  # so a handout also runs in Colab
    nb.cells = cells
    nb = m2j.convert(nb, stem or "?", student_links(), glue_values(stem) if stem else {})
    nb.cells = [intro, setup] + list(nb.cells)
    _plain_metadata(nb)
    return nb


def student_links() -> m2j.Book:
    """The book as a handout links it: the student site only, the teachers' pages not at all."""
    return dataclasses.replace(book(), base_url=student_site(), unlinked=TEACHER_PAGES)


# --------------------------------------------------------------------------- reading pages
def reading_notebook(nb, stem: str, student: bool):
    """A :data:`READING_PAGES` page as a notebook: a first cell saying what it is, then the page as plain
    Jupyter (no set-up cell: it has no code).  ``student``: the handout (links as :func:`student_links`)."""
    nb = m2j.convert(nbformat.from_dict(nb), stem, student_links() if student else book(), {})
    site = student_site() + f"chapters/{stem}.html" if student else book().page_url(stem)
    first = nbformat.v4.new_markdown_cell(
        f"*The book's page {book().pages.get(f'chapters/{stem}', stem)} as a notebook (book version "
        f"{version()}), beside the chapters' notebooks so that their links to it work without internet; "
        f"generated by `tools/make_student.py colab`. Nothing to run. Also [on the website]({site}).*")
    first.metadata["tags"] = ["student-intro" if student else "colab-note"]
    nb.cells = [first] + list(nb.cells)
    _plain_metadata(nb)
    return nb


# --------------------------------------------------------------------------- colab
def install_ref() -> str:
    """The git ref the set-up cells install the package from: ``DPSENS_BOOK_REF`` (a release tag
    such as ``v0.2.0``, set when a course's notebooks are generated) or ``repository.branch``."""
    return os.environ.get("DPSENS_BOOK_REF") or repository()[1]


def setup_source() -> str:
    url, _ = repository()
    ref = install_ref()
    reqs = requirements()
    names = [re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0] for r in reqs]
    pairs = ", ".join(f"({n!r}, {r!r})" for n, r in zip(names, reqs, strict=True))
    return f'''# @title Set-up: run this cell first (it installs the book's package where it is missing) {{ display-mode: "form" }}
# Where `dpsens` is missing (Colab, a plain Jupyter) pip installs it from the
# book's repository at a fixed release or branch -- into the Python
# environment, not into this folder -- plus only those of its requirements
# that are absent: nothing installed is upgraded.  Elsewhere it does nothing.
import importlib
import importlib.util
import os
import sys

if importlib.util.find_spec("dpsens") is None:
    import subprocess
    from importlib.metadata import PackageNotFoundError, version

    REPO = os.environ.get("DPSENS_BOOK_REPO", "{url}")
    BRANCH = os.environ.get("DPSENS_BOOK_BRANCH", "{ref}")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # a bare VCS URL: pip 23 refuses a "name @ git+file:..." requirement
    if subprocess.run(pip + ["--no-deps", f"git+{{REPO}}@{{BRANCH}}"]).returncode != 0:
        raise RuntimeError(
            f"Could not install the book's package dpsens from {{REPO}} at {{BRANCH}} (pip's message is "
            "above: no internet, the repository unreachable, or git missing). Two ways out: "
            "(1) the wheel -- ask your teacher for dpsens-<version>-py3-none-any.whl, upload it next to "
            "this notebook and run  %pip install dpsens-<version>-py3-none-any.whl  in a cell, then this "
            "cell again; (2) a copy of the book -- in its folder run  pip install -r binder/requirements.txt"
            "  and open this notebook with that Python.") from None

    def _missing(name):
        try:
            version(name)
            return False
        except PackageNotFoundError:
            return True

    absent = [req for name, req in [{pairs}] if _missing(name)]
    if absent:
        subprocess.run(pip + absent, check=True)
    importlib.invalidate_caches()
if importlib.util.find_spec("myst_nb") is None:
    # The chapters `glue` numbers into the book's text; here a glued value
    # is simply shown (or skipped when display=False).
    import types

    def _glue(name, variable, display=True):
        if display:
            from IPython.display import display as show
            show(variable)

    _myst_nb = types.ModuleType("myst_nb")
    _myst_nb.glue = _glue
    sys.modules["myst_nb"] = _myst_nb'''


def setup_cell():
    """The set-up cell: one visible line (Colab's form title; folded in JupyterLab)."""
    cell = nbformat.v4.new_code_cell(setup_source())
    cell.metadata["tags"] = ["colab-setup"]
    cell.metadata["cellView"] = "form"                       # Colab: show the title only
    cell.metadata["jupyter"] = {"source_hidden": True}        # JupyterLab / Notebook 7: folded
    return cell


def colab_notebook(nb, stem: str):
    """The Binder/Colab copy of a chapter: a set-up cell, then the chapter as plain Jupyter."""
    if stem in READING_PAGES:
        return reading_notebook(nb, stem, student=False)
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = MARK.sub("", cell.source)
    nb = m2j.convert(nb, stem, book(), glue_values(stem))
    url, branch = repository()
    note = nbformat.v4.new_markdown_cell(
        f"*This notebook is generated from [`chapters/{stem}.md`]({url}/blob/{branch}/chapters/{stem}.md) "
        "by `tools/make_student.py colab`; edit the chapter, not this file. Run the first cell once: "
        "it installs the book's package where it is missing (Colab). The chapter is also a page of "
        f"[the book's website]({book().page_url(stem)}). Book version {version()}.*")
    note.metadata["tags"] = ["colab-note"]
    setup = setup_cell()
    nb.cells = [note, setup] + list(nb.cells)
    _plain_metadata(nb)
    return nb


def _plain_metadata(nb) -> None:
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}


def _normalise(nb):
    """Stable cell ids and no outputs, so regenerating gives identical files."""
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def render(nb) -> str:
    return nbformat.writes(_normalise(nb)) + "\n"


def write_student(stems=None) -> list[Path]:
    STUDENT.mkdir(exist_ok=True)
    paths = []
    for stem in stems or toc_chapters():
        path = STUDENT / f"{stem}.ipynb"
        path.write_text(render(student_notebook(read_chapter(stem), stem)))
        paths.append(path)
    return paths


def _write_generated(folder: Path, make, stems=None) -> list[Path]:
    folder.mkdir(exist_ok=True)
    live = set(handout_stems())
    paths = []
    for stem in stems or sorted(live):
        path = folder / f"{stem}.ipynb"
        text = render(make(read_chapter(stem), stem))
        # Rewrite only what changed: `make test` runs this beside the tests
        # that read these files.
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        paths.append(path)
    if not stems:
        for old in folder.glob("*.ipynb"):
            if old.stem not in live:
                old.unlink()
    return paths


def write_colab(stems=None) -> list[Path]:
    """notebooks/ (the public site's launch buttons) and handouts/ (the student site's), both committed."""
    return _write_generated(COLAB, colab_notebook, stems) + _write_generated(HANDOUTS, student_notebook, stems)


def stale_colab() -> list[str]:
    """Problems with notebooks/ and handouts/: missing, out of date or without a chapter."""
    live = handout_stems()
    bad = []
    for folder, make in ((COLAB, colab_notebook), (HANDOUTS, student_notebook)):
        for stem in live:
            path = folder / f"{stem}.ipynb"
            if not path.exists():
                bad.append(f"{folder.name}/{stem}.ipynb is missing")
            elif path.read_text() != render(make(read_chapter(stem), stem)):
                bad.append(f"{folder.name}/{stem}.ipynb is out of date with chapters/{stem}.md")
        bad += [f"{folder.name}/{p.name} has no chapter in _toc.yml" for p in folder.glob("*.ipynb")
                if p.stem not in live]
    return bad


if __name__ == "__main__":
    cmd, args = (sys.argv[1] if len(sys.argv) > 1 else "student"), sys.argv[2:]
    if cmd == "student":
        for p in write_student(args):
            print(f"wrote {p.relative_to(ROOT)}")
    elif cmd == "colab":
        for p in write_colab(args):
            print(f"wrote {p.relative_to(ROOT)}")
    elif cmd == "check-colab":
        problems = stale_colab()
        if problems:
            sys.exit("\n".join(problems) + "\nRun `make colab` and commit notebooks/.")
        print("notebooks/ matches the chapters")
    else:
        sys.exit(__doc__)
