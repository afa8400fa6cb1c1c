"""``CONTRIBUTING.md``'s checklist for adding a chapter and its module map, checked (issue 36, item 8).

* Every chapter of ``_toc.yml`` outside the back matter has what the checklist
  asks for: its nbval reference (``tests/notebooks/<stem>.ipynb``), its
  reader's notebook (``notebooks/``) and handout (``handouts/``), the
  *Learning objectives* and *What you need first* boxes at its top, and, if it
  has a proof exercise, its place in ``PROOF_CHAPTERS`` of
  ``tests/book/test_book_plan.py``.
* The module map of ``CONTRIBUTING.md`` names every module of ``src/dpsens``
  and nothing that does not exist.
* Every module of ``figures/`` is reachable as ``ds.figures.<module>`` and every checker
  module of ``exercises/`` is imported by ``exercises/__init__.py``.
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import yaml

import book_plan as bp  # (_ext/, on sys.path by conftest)

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "src" / "dpsens"
GUIDE = ROOT / "CONTRIBUTING.md"


def teaching_chapters() -> list[str]:
    """The stems of the chapters in the parts of ``_toc.yml`` other than the back matter."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [Path(c["file"]).name for part in toc["parts"] if part["caption"] != "Back matter"
            for c in part["chapters"]]


def proof_chapters() -> list[str]:
    """``PROOF_CHAPTERS`` as ``tests/book/test_book_plan.py`` writes it (read, not imported: it is a test module)."""
    text = (ROOT / "tests" / "book" / "test_book_plan.py").read_text(encoding="utf-8")
    listed = re.search(r"^PROOF_CHAPTERS = \[(.*?)\]", text, re.S | re.M)
    return re.findall(r'"(\w+)"', listed.group(1))


STEMS = teaching_chapters()


def test_the_toc_has_the_teaching_chapters():
    assert len(STEMS) >= 17 and "accuracy" in STEMS and "notation" not in STEMS


@pytest.mark.parametrize("stem", STEMS)
def test_every_chapter_has_its_generated_notebooks(stem):
    for folder in ("tests/notebooks", "notebooks", "handouts"):
        assert (ROOT / folder / f"{stem}.ipynb").exists(), (
            f"{folder}/{stem}.ipynb is missing: see CONTRIBUTING.md, 'Adding a chapter'")


@pytest.mark.parametrize("stem", STEMS)
def test_every_chapter_opens_with_its_objectives_and_prerequisites(stem):
    text = (ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8")
    assert text.count(":class: learning-objectives") == 1, f"{stem}: no Learning objectives box"
    assert text.count(":class: prerequisites") == 1, f"{stem}: no 'What you need first' box"
    assert text.index(":class: learning-objectives") < text.index(":class: prerequisites")
    assert bp.objectives(ROOT / "chapters" / f"{stem}.md"), f"{stem}: the teachers' page finds no objective"


@pytest.mark.parametrize("stem", STEMS)
def test_every_chapter_with_a_proof_exercise_is_in_the_book_plan(stem):
    info = bp.chapter_info(ROOT / "chapters" / f"{stem}.md")
    if any(e["proof"] for e in info["exercises"]):
        assert stem in proof_chapters(), f"add {stem!r} to PROOF_CHAPTERS in tests/book/test_book_plan.py"


def module_map(text: str) -> list[str]:
    """The paths the module column of the guide's module map names (relative to ``src/dpsens``)."""
    section = text.split("### The package: one module per concept", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ---")][1:]
    paths = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert len(cells) == 3, row
        paths += re.findall(r"`([\w<>]+(?:/[\w<>]+)*(?:\.py|/))`", cells[1])
    return paths


def _matches(named: str, module: str) -> bool:
    pattern = re.escape(named).replace(re.escape("<chapter>"), r"[a-z]\w*")
    return re.fullmatch(pattern, module) is not None


def test_the_module_map_names_every_module_and_only_modules():
    named = module_map(GUIDE.read_text(encoding="utf-8"))
    modules = sorted(str(p.relative_to(PKG)) for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)
    folders = sorted(str(p.parent.relative_to(PKG)) + "/" for p in PKG.rglob("__init__.py") if p.parent != PKG)
    missing_on_disk = [n for n in named if not any(_matches(n, m) for m in modules + folders)]
    assert missing_on_disk == [], "the module map names modules that do not exist"
    unnamed = [m for m in modules if m != "__init__.py" and not m.endswith("/__init__.py")
               and not any(_matches(n, m) for n in named)]
    assert unnamed == [], "add these modules to the module map of CONTRIBUTING.md"


def test_the_map_reader_finds_each_form():
    text = """### The package: one module per concept

| concept | module in `src/dpsens/` | chapters |
| --- | --- | --- |
| a | `dp.py` (figures: `figures/dp.py`) | `x.py` in the chapter column is not read |
| b | `smooth/`: `smooth/_small.py`, `bench_smooth.py --small` | c |
| c | `exercises/<chapter>.py` | d |
"""
    assert module_map(text) == ["dp.py", "figures/dp.py", "smooth/", "smooth/_small.py", "exercises/<chapter>.py"]
    assert _matches("exercises/<chapter>.py", "exercises/floating.py")
    assert not _matches("exercises/<chapter>.py", "exercises/_key.py")
    assert not _matches("dp.py", "figures/dp.py")


def test_the_readme_is_the_readers_page_and_points_here():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "CONTRIBUTING.md" in readme
    assert len(readme.splitlines()) <= 200, "README.md is the readers' page: developers' material goes here"
    for stem in STEMS:                       # the chapters in one list, by title
        title = bp.chapter_info(ROOT / "chapters" / f"{stem}.md")["title"]
        assert " ".join(title.split()) in " ".join(readme.split()), f"README.md does not list {title!r}"


def test_every_figures_module_and_every_checker_module_is_reachable():
    """A chapter's figures are ``ds.figures.<module>`` (imported by ``figures/__init__.py``);
    its checkers are ``ds.exercises.check_...`` (imported in ``exercises/__init__.py``)."""
    import dpsens as ds

    figures = sorted(p.stem for p in (PKG / "figures").glob("*.py") if p.stem != "__init__")
    assert [m for m in figures if not inspect.ismodule(getattr(ds.figures, m, None))] == []
    init = (PKG / "exercises" / "__init__.py").read_text(encoding="utf-8")
    checkers = sorted(p.stem for p in (PKG / "exercises").glob("*.py")
                      if not p.stem.startswith("_") and p.stem not in ("variants", "handin"))   # not checker modules
    assert [m for m in checkers if f"from .{m} import *" not in init] == []
