"""Graded homework no submission can reach (issue 31), through nbgrader itself: ``make test-notebooks``.

The design (*For teachers*, "Grading that no submission can reach"): an
assignment's answer cells only *record* the answer in their saved output
(``ds.exercises.hand_in``); ``nbgrader autograde`` is configured not to
execute submissions; ``tools/grade.py`` reads the records out of the
submitted notebooks in a fresh process and judges them against a key it
computes at grading time for each student's numbers.

In a cached venv ``.venv-nbgrader/`` (``tools/envs/nbgrader.txt``: nbgrader
0.9.6 and the book's package), for **every chapter** with exercises:
``make_assignments`` writes the course, ``tools/course.py setup`` chooses the
course's salts for the roster, adds the students and generates and releases
every assignment, ``tools/course.py add-student`` adds a late student; each student's
notebook is *run on the student's side* (``tests/book/student_run.py``: the
cheats execute for real), saved and submitted; ``tools/course.py grade``
autogrades and scores; ``nbgrader export`` gives the grade sheet.  The
correct submissions (each student's own numbers as their notebook printed
them, the late student's too) get every automatic point; the blank gets 0,
and so does every cheat -- the book's published values on the exercises
with variants among them -- : the issue's (shadowed builtins,
``Verdict.correct`` patched, an input transformer, reading the key) and
others (AST transformer, patched ``dpsens`` recorder, monkeypatched numpy,
files written where a grader would read them, ``sys.exit``/``os._exit``,
``fork``, a hang, printed fake grades and records, edited cell metadata,
forged and duplicated records, NaN/huge/deep records).  No payload of a
submission runs on the grader's side (its marker files never appear).
"""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

import answer_key as ak  # tools/, on sys.path by conftest
import course as course_tool
import grade as grader
import make_assignments as ma
from dpsens.exercises import _secret, variants
from test_reader_notebooks import clean_env, venv_for
from test_numbering import notebook_problems

ROOT = Path(__file__).resolve().parents[2]
JUNK = -12345.0

PRELUDE = "import dpsens as ds\nimport numpy as np\nimport pandas as pd\nSTUDENT = {student!r}"

#: Payload of every cheat: a file that appears only if the submission is executed where it is graded.
PAYLOAD = "import pathlib as _pl\n_pl.Path('PWNED-{kind}').write_text('ran here')"

#: Cheats run in the student's kernel before the answer cells (answers then junk unless noted).
CHEATS = {
    "builtins": """import builtins
class _Eq:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __lt__(self, other): return False
    def __gt__(self, other): return False
    def __float__(self): return 0.0
abs = lambda *a, **k: 0
sorted = lambda *a, **k: _Eq()
builtins.abs, builtins.sorted = abs, sorted
isinstance = lambda *a: True
from dpsens.exercises import _verdict
_verdict.Verdict.correct = property(lambda s: True)
_verdict.Verdict.__bool__ = lambda s: True""",
    "input_transformer": """def _rewrite(lines):
    text = ''.join(lines)
    if 'hand_in(' in text:
        return ['_r = ds.exercises.hand_in.__wrapped__ if hasattr(ds.exercises.hand_in, "__wrapped__") else None\\n',
                'pass\\n']
    return lines
get_ipython().input_transformers_post.append(_rewrite)""",
    "ast_transformer": """import ast
class _Swap(ast.NodeTransformer):
    def visit_Name(self, node):
        if node.id in ('answer', 'symmetric_difference_size') and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Constant(value='correct'), node)
        return node
get_ipython().ast_transformers.append(_Swap())""",
    "patched_dpsens": """import importlib, pkgutil
import dpsens.exercises.handin as _h
class _Yes:
    correct = True
    status = 'correct'
    def __bool__(self): return True
for _mod in [ds.exercises] + [importlib.import_module('dpsens.exercises.' + m.name)
                              for m in pkgutil.iter_modules(ds.exercises.__path__)]:
    for _name in dir(_mod):
        if _name.startswith('check_'):
            setattr(_mod, _name, lambda *a, **k: _Yes())
_h.as_record = lambda answer, cases=None: {'verdict': 'correct', 'score': 1}
_old = _h.HandIn._repr_mimebundle_
def _bundle(self, include=None, exclude=None):
    out = _old(self, include, exclude)
    out[_h.MIME] = dict(out[_h.MIME], answer='correct', verdict='correct', points=1)
    return out
_h.HandIn._repr_mimebundle_ = _bundle""",
    "read_key": """from dpsens.exercises import _key, _secret, _verdict
import glob, json
_found = {'key': list(_key.KEY), 'files': glob.glob('../**/*.ipynb', recursive=True)}
for _name, _entry in _key.KEY.items():
    _verdict.use_variant(json.dumps({'seed': 1, 'key': {_name: _entry}}))
_secret._tries.clear()
answer = _found""",
    "numpy": """import math, numpy.testing
np.isclose = lambda *a, **k: True
np.allclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
numpy.testing.assert_allclose = lambda *a, **k: None
math.isclose = lambda *a, **k: True
math.isfinite = lambda *a, **k: True
np.float64 = lambda *a, **k: 0.0""",
    "files": """import pathlib
for _p in ['gradebook.db', '../gradebook.db', '../../gradebook.db', '../../../gradebook.db',
           'nbgrader_config.py', '../../nbgrader_config.py', 'sitecustomize.py', 'grades/x.csv']:
    try:
        pathlib.Path(_p).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(_p).write_text("c = get_config()\\nc.Autograde.autograde_preprocessors = []\\n")
    except OSError:
        pass""",
    "exit": "import sys\nsys.exit()\n",
    "os_exit": "import os\nos._exit(0)",
    "fork": """import os, time
if os.fork() == 0:
    time.sleep(1)
    os._exit(0)""",
    "hang": "import time\nwhile True:\n    time.sleep(0.1)",
    "fake_output": """print('Score: 1.0 / 1.0  [local-answer-4-1] ✔ Correct')
from IPython.display import display
display({'application/vnd.dpsens.answer+json': {'exercise': 'local-answer-4-1', 'answer': 'correct'},
         'text/plain': '✔ Correct: full marks'}, raw=True)""",
}
#: Cheats done by editing the saved notebook (JSON) of the junk submission.
EDITS = ("metadata", "locked_metadata", "duplicated_cells", "forged_records")
#: Students who answer their own numbers correctly; "late" joins with ``course.py add-student``.
CORRECT = ("correct", "late")
#: The book's published value in every exercise with variants (junk elsewhere): scores 0, as nobody
#: of the roster draws the book's numbers' answer.
BOOK_VALUES = "book_values"
KINDS = ["correct", "blank", "wrong", BOOK_VALUES, *CHEATS, *EDITS]


def _solution(source_cell: str) -> str:
    found = re.search(r"### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", source_cell, re.S)
    assert found, source_cell
    return found.group(1)


def answer_body(kind: str, source_cell, student: str, config: dict) -> str:
    """What a student of ``kind`` writes in an answer cell (``source_cell``: the instructor's) in the
    course whose salts are ``config`` (``grade.read_config``)."""
    book = source_cell.metadata["dpsens"]
    name = ma.key_name(book["checker"], book["arguments"]) or book["checker"][len("check_"):]
    if kind == "blank":
        return "answer = ..."
    if kind == BOOK_VALUES and name in variants.VARIANTS:
        return f"answer = {ak.REGISTRY[name]().value!r}"
    if kind not in CORRECT:
        return (f"def symmetric_difference_size(x, y):\n    return {JUNK}" if book.get("cases")
                else f"answer = {JUNK}")
    if name in variants.VARIANTS:
        seed = dict(grader.student_seeds(student, config))[name]
        return f"answer = {ak.REGISTRY[name](**variants.variant_params(name, seed)).value!r}"
    return _solution(source_cell.source)


def student_notebook(kind: str, chapters: dict, config: dict) -> nbformat.NotebookNode:
    """One notebook with every chapter's graded cells, run by the student ``kind`` (split afterwards)."""
    cells = [nbformat.v4.new_code_cell(PRELUDE.format(student=kind))]
    if kind in CHEATS:
        cells.append(nbformat.v4.new_code_cell(PAYLOAD.format(kind=kind) + "\n" + CHEATS[kind]))
        cells[-1].metadata["cheat"] = True
    for stem, (source, released) in chapters.items():
        sources = {c.metadata["nbgrader"]["grade_id"]: c for c in source.cells if "nbgrader" in c.metadata}
        for cell in released.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not meta:
                continue
            cell = nbformat.from_dict(json.loads(json.dumps(cell)))
            if meta.get("solution"):
                stub = ma_stub()
                assert stub in cell.source, cell.source
                cell.source = cell.source.replace(stub, answer_body(kind, sources[meta["grade_id"]], kind, config))
            cell.metadata["stem"] = stem
            cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells)


def ma_stub() -> str:
    found = re.search(r'"python": "(.*?)"', ma.CONFIG)
    assert found
    return found.group(1)


def submission(released, ran, kind: str, stem: str):
    """The notebook ``kind`` hands in for ``stem``: the released one with their cells (and outputs)."""
    nb = nbformat.from_dict(json.loads(json.dumps(released)))
    mine = {c.metadata["nbgrader"]["grade_id"]: c for c in ran.cells
            if c.metadata.get("stem") == stem and "nbgrader" in c.metadata}
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in mine:
            cell.source, cell.outputs = mine[gid].source, mine[gid].outputs
            cell.execution_count = mine[gid].execution_count
        elif cell.cell_type == "markdown" and cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = "A proof: every step is justified." if kind in CORRECT else cell.source
    cheat = [c for c in ran.cells if c.metadata.get("cheat")]
    nb.cells[3:3] = [nbformat.from_dict(json.loads(json.dumps(c))) for c in cheat]
    if kind in EDITS:
        EDITORS[kind](nb, [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")
                           and c.cell_type == "code"])
    return nb


def _locked_metadata(nb, answers) -> None:
    """The locked cells made graded, unlocked, worth 100 points."""
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader")
        if meta and not meta.get("solution"):
            meta.update(points=100, grade=True, locked=False)


def _metadata(nb, answers) -> None:
    """Points raised, another checker named, a record of "correct"."""
    for cell in answers:
        cell.metadata["nbgrader"].update(points=100, checksum="0")
        cell.metadata["dpsens"] = {"checker": "check_neighbor_count", "arguments": "", "cases": None}
        cell.outputs.append(_record(cell.metadata["nbgrader"]["grade_id"], "correct"))


def _duplicated_cells(nb, answers) -> None:
    """A cell claims another's id; a copy of a cell with the same id."""
    if len(answers) > 1:
        answers[0].metadata["nbgrader"]["grade_id"] = answers[1].metadata["nbgrader"]["grade_id"]
    for cell in list(answers):
        twin = nbformat.from_dict(json.loads(json.dumps(cell)))
        twin.outputs = [_record(cell.metadata["nbgrader"]["grade_id"], "correct")]
        nb.cells.append(twin)


def _forged_records(nb, answers) -> None:
    """Many candidate records in an answer cell, a huge one, records in other cells."""
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid and cell.cell_type == "code" and cell.metadata["nbgrader"].get("solution"):
            cell.outputs = ([_record(gid, v) for v in (JUNK, 0, 1, 2, 3, 5, 10, 0.5)]      # many candidates
                            + [_record(gid, [float(v) / 7 for v in range(3000)])])
        elif gid and cell.cell_type == "code":
            cell.outputs = [_record(gid.replace("numbers", "answer"), 1.0)]            # in another cell


#: How each cheat of :data:`EDITS` edits the saved notebook (the junk submission's).
EDITORS = {"metadata": _metadata, "locked_metadata": _locked_metadata, "duplicated_cells": _duplicated_cells,
           "forged_records": _forged_records}


def numbers_printed(ran) -> dict[str, str]:
    """exercise name -> what the locked "your numbers" cell printed in a student's run notebook."""
    out = {}
    for cell in ran.cells:
        if "-numbers-" in cell.metadata.get("nbgrader", {}).get("grade_id", ""):
            found = course_tool.NUMBERS_CALL.search(cell.source)
            assert found, cell.source
            name = found.group(1)
            out[name] = "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream").strip()
    return out


def _record(gid, value):
    return nbformat.v4.new_output("display_data", data={"application/vnd.dpsens.answer+json":
                                                        {"exercise": gid, "answer": value}, "text/plain": "ok"})


def test_graded_cells_record_and_the_grader_judges_each_students_numbers(tmp_path, monkeypatch):
    """Without nbgrader, every chapter: the assignment holds no key and no checker call in a graded
    cell; for two students, each one's correct answers are judged right, the other's (on a variant
    exercise) and junk wrong, and the book's value is wrong for a variant exercise."""
    monkeypatch.setattr(_secret, "ITERATIONS", 1)
    paths = ma.write_course(tmp_path / "course")
    assert len(paths) >= 11
    config = grader.read_config(tmp_path / "course")      # no salts chosen yet: salt 0 everywhere
    n = 0
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        text = json.dumps(nb)
        assert "use_variant" not in text and "exercises._key" not in text and "KEY[" not in text
        for cell in (c for c in nb.cells if "dpsens" in c.metadata):
            meta = cell.metadata["nbgrader"]
            assert meta["grade"] and meta["solution"] and meta["points"] == ma.POINTS
            assert "check_" not in cell.source and "hand_in(" in cell.source
            graded = {"grade_id": meta["grade_id"], "points": 1.0, **cell.metadata["dpsens"]}
            for student in ("ada", "bob"):
                seeds = grader.student_seeds(student, config)
                outputs = _run_cell(answer_body("correct", cell, student, config), cell.metadata["dpsens"])
                ok, message = grader.judge(graded, outputs, seeds)
                assert ok, (meta["grade_id"], message)
                junk = _run_cell(f"answer = {JUNK}", cell.metadata["dpsens"])
                assert not grader.judge(graded, junk, seeds)[0]
            name = ma.key_name(graded["checker"], graded["arguments"]) or graded["checker"][len("check_"):]
            if name in variants.VARIANTS:      # a classmate's answer (one that differs from ada's) is wrong
                mine = answer_body("correct", cell, "ada", config)
                other = next(b for b in (f"s{i}" for i in range(50)) if answer_body("correct", cell, b, config) != mine)
                theirs = _run_cell(answer_body("correct", cell, other, config), cell.metadata["dpsens"])
                assert not grader.judge(graded, theirs, grader.student_seeds("ada", config))[0], name
            n += 1
    assert n >= 40


def _run_cell(body: str, book: dict):
    """The recorded answer data of a cell whose body is ``body`` (run here, as a student would)."""
    import dpsens as ds
    import numpy as np
    import pandas as pd
    ns = {"ds": ds, "np": np, "pd": pd}
    exec(body, ns)
    cases = getattr(ds.exercises, book["cases"])() if book.get("cases") else None
    value = ns.get("answer", ns.get("symmetric_difference_size"))
    return ds.exercises.hand_in("x", value, cases=cases).record


@pytest.mark.readers
def test_nbgrader_round_trip_every_chapter_every_cheat(tmp_path):
    given = os.environ.get("DPSENS_NBGRADER_PY")     # an existing venv with nbgrader and dpsens (development)
    py = Path(given) if given else venv_for("nbgrader", ROOT / "tools" / "envs" / "nbgrader.txt")
    course = tmp_path / "course"
    ma.write_course(course)
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id\n" + "\n".join(KINDS) + "\n")

    def tool(*args):
        out = subprocess.run([str(py), str(ROOT / "tools" / "course.py"), *args, "--course", str(course)],
                             capture_output=True, text=True, env=clean_env(), timeout=1800)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
        return out

    tool("setup", "--roster", str(roster))
    tool("add-student", "late")                     # after the release: checked with the course's salts
    config = grader.read_config(course)
    assert config["students"] == [*KINDS, "late"] and set(config["salts"]) == set(variants.VARIANTS)
    stems = sorted(p.name for p in (course / "source").iterdir())
    chapters = {s: (nbformat.read(course / "source" / s / f"{s}.ipynb", as_version=4),
                    nbformat.read(course / "release" / s / f"{s}.ipynb", as_version=4)) for s in stems}
    for _, released in chapters.values():         # the released notebooks hold no key and no solution
        text = json.dumps(released)
        assert "BEGIN SOLUTION" not in text and "Rubric" not in text and "exercises._key" not in text
    # the released notebooks number exercises as the book does ("Exercise 4.3", id local-answer-4-3)
    assert not [p for s, (_, released) in chapters.items() for p in notebook_problems(released, s)]

    home = tmp_path / "students"                    # the students' own machines
    runs = {}
    for kind in [*(k for k in KINDS if k not in EDITS), "late"]:     # the edits start from the junk submission
        folder = home / kind
        folder.mkdir(parents=True)
        runs[kind] = folder / "all.ipynb"
        nbformat.write(student_notebook(kind, chapters, config), runs[kind])
    out = subprocess.run([str(py), str(ROOT / "tests" / "book" / "student_run.py"), *map(str, runs.values())],
                         capture_output=True, text=True, env=clean_env(), timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    for kind in CORRECT:        # each printed the numbers the grader judges them by (the course's salts)
        printed = numbers_printed(nbformat.read(runs[kind], as_version=4))
        seeds = dict(grader.student_seeds(kind, config))
        assert len(printed) >= 40
        assert printed == {name: f"Your numbers ({kind}): {variants.variant_text(name, seeds[name])}."
                           for name in printed}, kind
    for kind in [*KINDS, "late"]:
        ran = nbformat.read(runs["wrong" if kind in EDITS else kind], as_version=4)
        for s, (_, released) in chapters.items():
            folder = course / "submitted" / kind / s
            folder.mkdir(parents=True)
            nbformat.write(submission(released, ran, kind, s), folder / f"{s}.ipynb")
            (folder / "timestamp.txt").write_text("2026-11-27 12:00:00.000000 UTC")

    tool("grade")
    tool("export", str(tmp_path / "grades.csv"))
    rows = list(csv.DictReader((tmp_path / "grades.csv").open()))
    score = {(r["assignment"], r["student_id"]): float(r["score"]) for r in rows}
    auto = {s: sum(c.metadata["nbgrader"]["points"] for c in src.cells if "dpsens" in c.metadata)
            for s, (src, _) in chapters.items()}
    assert all(auto.values())
    got = {s: {k: score[(s, k)] for k in [*KINDS, "late"]} for s in stems}
    for s in stems:
        assert got[s]["correct"] == got[s]["late"] == auto[s], (s, got[s])
        assert got[s]["blank"] == 0 and got[s]["wrong"] == 0 and got[s][BOOK_VALUES] == 0, (s, got[s])
        cheats = {k: v for k, v in got[s].items() if k not in CORRECT and v > got[s]["blank"]}
        assert not cheats, (s, cheats)
    assert not list(course.rglob("PWNED-*")), "a submission ran on the grader's side"
    ran_here = {k for k in CHEATS if (home / k / f"PWNED-{k}").exists()}
    assert {"builtins", "numpy", "files", "fake_output"} <= ran_here, ran_here   # the cheats did run, student-side


@pytest.mark.readers
def test_a_late_student_who_needs_a_salt_of_their_own_gets_the_assignments_again(tmp_path):
    """``course.py add-student`` for a student whose numbers, with the course's salt, would give them
    the book's answer: a salt of their own, in ``variants.json`` and in the notebook released again
    (through nbgrader's exchange); the students already there keep their numbers."""
    given = os.environ.get("DPSENS_NBGRADER_PY")
    py = Path(given) if given else venv_for("nbgrader", ROOT / "tools" / "envs" / "nbgrader.txt")
    course = tmp_path / "course"
    ma.write_course(course, ["ptr"])
    roster = ["ada", "bob", "cy"]
    (tmp_path / "roster.csv").write_text("student_id\n" + "\n".join(roster) + "\n")
    name = "ptr_source_accident"            # its answer depends on δ alone: a late student can draw the book's
    salt = course_tool.choose_salts(roster, ma.COURSE_ID, [name], log=None)[0][name]
    book = ak.REGISTRY[name]()
    late = next(f"late-{i}" for i in range(50_000) if course_tool.problems(
        {f"late-{i}": course_tool.student_answer(name, f"late-{i}", ma.COURSE_ID, salt)}, book))

    def tool(*args):
        out = subprocess.run([str(py), str(ROOT / "tools" / "course.py"), *args, "--course", str(course)],
                             capture_output=True, text=True, env=clean_env(), timeout=1800)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
        return out.stdout

    tool("setup", "--roster", str(tmp_path / "roster.csv"))
    outbound = course / "exchange" / ma.COURSE_ID / "outbound" / "ptr" / "ptr.ipynb"
    before = nbformat.read(outbound, as_version=4)
    said = tool("add-student", late)
    assert "released again" in said and name in said, said
    config = grader.read_config(course)
    own = config["exceptions"][late][name]
    assert own != salt == config["salts"][name] and config["students"] == [*roster, late]
    after = nbformat.read(outbound, as_version=4)
    cells = {c.source for c in after.cells} - {c.source for c in before.cells}
    assert any(f"{late!r}: {own}}}.get(STUDENT, {salt})" in c for c in cells), cells
    cell = next(c for c in after.cells if f"your_numbers({name!r}" in c.source)
    for student, expected in [(late, own), *((s, salt) for s in roster)]:
        ns: dict = {"STUDENT": student}
        assert eval(cell.source.split("salt=", 1)[1][:-2], ns) == expected      # the salt the cell draws with
