"""The nbgrader round trip (issue 27), with nbgrader itself: ``make test-notebooks``.

In a cached venv ``.venv-nbgrader/`` (``tools/envs/nbgrader.txt``: nbgrader
0.9.6 and the book's package), a real course directory and gradebook:

1. ``tools/make_assignments.py`` writes the course source of one chapter
   (*Sensitivity of transformations*: three autograded answers, one proof);
2. ``nbgrader generate_assignment`` and ``release_assignment``;
3. four synthetic submissions of the released notebook: every answer
   correct; every answer wrong; one that redefines every checker (in
   ``ds.exercises`` and in its modules) and leaves the answers blank; one
   whose first answer cell loops forever;
4. ``nbgrader autograde``, then ``nbgrader export`` to CSV.

The scores must be exactly: 3 of 6 for the correct submission (the proof's 3
points wait for a human), 0 for the others; the looping one is interrupted
after the configured timeout with a message saying so.
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import make_assignments as ma  # tools/, on sys.path by conftest
from test_reader_notebooks import clean_env, venv_for

ROOT = Path(__file__).resolve().parents[1]
STEM = "transformations"


SPOOF = """import dpsens as ds
import importlib, pkgutil
class _Yes:
    correct = True
    def __bool__(self):
        return True
for _mod in [ds.exercises] + [importlib.import_module('dpsens.exercises.' + m.name)
                              for m in pkgutil.iter_modules(ds.exercises.__path__)]:
    for _name in dir(_mod):
        if _name.startswith('check_'):
            setattr(_mod, _name, lambda *a, **k: _Yes())"""


def _nbgrader(py: Path, course: Path, *args: str) -> subprocess.CompletedProcess:
    env = clean_env(PATH=f"{py.parent}{os.pathsep}{os.environ.get('PATH', '')}")   # nbgrader runs `alembic`
    out = subprocess.run([str(py.parent / "nbgrader"), *args], cwd=course, capture_output=True, text=True,
                         env=env, timeout=1200)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    return out


def _submission(released, source, kind: str):
    nb = nbformat.from_dict(json.loads(json.dumps(released)))
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells if "nbgrader" in c.metadata}
    first = True
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("solution"):
            continue
        if cell.cell_type == "markdown":
            cell.source = "A proof: every step is justified." if kind == "correct" else ""
            continue
        stub = "# YOUR CODE HERE\nraise NotImplementedError()"
        assert stub in cell.source, cell.source
        if kind == "correct":
            body = re.search(r"### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", solutions[meta["grade_id"]], re.S).group(1)
        elif kind == "wrong":
            body = "answer = -12345.0"
        elif kind == "loop" and first:
            body = "while True:\n    pass"
        else:
            body = "answer = ..."
        cell.source = cell.source.replace(stub, body)
        first = False
    if kind == "spoof":
        nb.cells.insert(0, nbformat.v4.new_code_cell(SPOOF))
    return nb


def test_every_chapter_becomes_an_assignment_whose_hidden_tests_grade_the_key(tmp_path):
    """Without nbgrader: each answer cell has a graded test after it; run in-process, the hidden test
    passes the solution and fails a wrong answer and the spoof (checkers redefined, answer blank)."""
    import dpsens as ds
    paths = ma.write_course(tmp_path / "course")
    assert len(paths) >= 11                                      # every chapter with exercises
    n_tests = 0
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        meta = [c.metadata.get("nbgrader") for c in nb.cells]
        for i, m in enumerate(meta):
            if m and m["solution"] and not m["grade"]:
                test = meta[i + 1]
                assert test and test["grade"] and test["locked"] and test["points"] == ma.POINTS
                solution = re.search(r"### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", nb.cells[i].source, re.S).group(1)
                hidden = nb.cells[i + 1].source
                assert "ds.exercises" not in hidden             # never the student-side checkers
                namespace = {"ds": ds, "pd": __import__("pandas"), "np": __import__("numpy")}
                exec(solution, namespace)
                exec(hidden, namespace)                           # the solution passes
                variable = re.match(r"(?:def )?(\w+)", solution).group(1)
                for bad in (-12345.0, ...):
                    spoofed = dict(namespace, **{variable: bad})
                    with pytest.raises(Exception):
                        exec(hidden, spoofed)
                n_tests += 1
            if m and m["grade"] and m["solution"]:
                assert nb.cells[i].cell_type == "markdown" and m["points"] == ma.PROOF_POINTS
                assert "Rubric" in nb.cells[i].source
    assert n_tests >= 35                                        # every numeric exercise of the book (35 in 0.2.0)


@pytest.mark.readers
def test_nbgrader_round_trip_scores_exactly(tmp_path):
    given = os.environ.get("DPSENS_NBGRADER_PY")     # an existing venv with nbgrader and dpsens (development)
    py = Path(given) if given else venv_for("nbgrader", ROOT / "tools" / "envs" / "nbgrader.txt")
    course = tmp_path / "course"
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_assignments.py"), "--course", str(course), STEM],
                   check=True, capture_output=True)
    source = nbformat.read(course / "source" / STEM / f"{STEM}.ipynb", as_version=4)
    graded = [c.metadata["nbgrader"] for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")]
    auto = sum(m["points"] for m in graded if not m["solution"])
    manual = sum(m["points"] for m in graded if m["solution"])
    assert (auto, manual) == (3, 3)

    _nbgrader(py, course, "generate_assignment", STEM, "--force")
    released_path = course / "release" / STEM / f"{STEM}.ipynb"
    text = released_path.read_text()
    assert "BEGIN HIDDEN TESTS" not in text and "600.0" not in text and "Rubric" not in text
    _nbgrader(py, course, "release_assignment", STEM)
    assert (course / "exchange" / "dpsens" / "outbound" / STEM / f"{STEM}.ipynb").exists()

    released = nbformat.read(released_path, as_version=4)
    kinds = ["correct", "wrong", "spoof", "loop"]
    for kind in kinds:
        _nbgrader(py, course, "db", "student", "add", kind)
        folder = course / "submitted" / kind / STEM
        folder.mkdir(parents=True)
        nbformat.write(_submission(released, source, kind), folder / f"{STEM}.ipynb")
        (folder / "timestamp.txt").write_text("2026-11-25 12:00:00.000000 UTC")

    _nbgrader(py, course, "autograde", STEM, "--force")
    looped = nbformat.read(course / "autograded" / "loop" / STEM / f"{STEM}.ipynb", as_version=4)
    errors = [o for c in looped.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors and any("Timeout" in o.ename or "timed out" in " ".join(o.traceback) + o.evalue for o in errors), \
        [(o.ename, o.evalue) for o in errors]

    _nbgrader(py, course, "export", "--to", str(tmp_path / "grades.csv"))
    rows = {r["student_id"]: r for r in csv.DictReader((tmp_path / "grades.csv").open())}
    scores = {k: (float(rows[k]["score"]), float(rows[k]["max_score"])) for k in kinds}
    assert scores == {"correct": (3.0, 6.0), "wrong": (0.0, 6.0), "spoof": (0.0, 6.0), "loop": (0.0, 6.0)}
    shutil.rmtree(course / "autograded", ignore_errors=True)
