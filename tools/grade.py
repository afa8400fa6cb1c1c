"""The instructor's grader: scores the answers handed in with an nbgrader course, in a fresh process.

Chapter: *For teachers* (grading that no submission can reach).

Run after ``nbgrader autograde <assignment>`` (which, as ``make course``
configures it, records the submissions in the gradebook without executing
them)::

    python tools/grade.py --course DIR ASSIGNMENT [ASSIGNMENT ...]

For every submission of each assignment in the gradebook, it reads the
submitted notebook as JSON data (``submitted/<student>/<assignment>/``) --
nothing in it is executed -- and, for each graded answer cell of the
instructor's *source* notebook (grade id, points, checker and its other
arguments are taken from there, never from the submission), the one answer
that :func:`dpsens.exercises.hand_in` recorded in that cell's saved output.
The answer is judged by the book's checker, here in this process, against
a key computed now from the teacher's registry ``tools/answer_key.py`` for
that student's numbers: for each exercise with variants, the seed
``ds.exercises.student_seed(student, course, salt)`` with the exercise's
salt in the course's ``variants.json`` (written by ``tools/course.py``, the
same salt the student's notebook drew their numbers with; :func:`student_seeds`);
nothing of the key was in the assignment.  Each answer's score (its points
or 0) is written into nbgrader's gradebook as the cell's score, so
``nbgrader export`` and the formgrader show it; the proofs stay for the
human grader.  ``<course>/grades/<assignment>.csv`` lists every answer's
verdict, for the feedback.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import answer_key as ak  # noqa: E402  (the teacher's registry: expected values computed here)
import dpsens.exercises as ex  # noqa: E402
from dpsens.exercises import _secret, handin  # noqa: E402

#: Largest submitted notebook read (bytes); a larger one scores 0.
MAX_NOTEBOOK = 20_000_000
#: The course's salts (``tools/course.py``), in the course's folder.
VARIANTS_FILE = "variants.json"


def read_config(course: Path) -> dict:
    """The course's ``variants.json``: ``course`` (its id), ``students``, ``salts`` (exercise -> salt)
    and ``exceptions`` (student -> {exercise: salt}); a course without one draws with salt 0."""
    path = Path(course) / VARIANTS_FILE
    config = json.loads(path.read_text()) if path.is_file() else {}
    return {"course": config.get("course", "dpsens"), "students": list(config.get("students", [])),
            "salts": dict(config.get("salts", {})), "exceptions": dict(config.get("exceptions", {}))}


def student_seeds(student: str, config: dict) -> tuple[tuple[str, int], ...]:
    """Each variant exercise's seed for ``student`` in the course of ``config`` (:func:`read_config`):
    ``(name, seed)`` pairs, the salt of the exercise (or the student's own) folded in."""
    own = config["exceptions"].get(student, {})
    return tuple((name, ex.student_seed(student, config["course"], own.get(name, config["salts"].get(name, 0))))
                 for name in ex.VARIANTS)


def graded_cells(source: Path) -> list[dict]:
    """The graded answer cells of the instructor's source notebook: grade id, points, checker."""
    nb = json.loads(source.read_text())
    out = []
    for cell in nb["cells"]:
        meta, book = cell["metadata"].get("nbgrader", {}), cell["metadata"].get("dpsens")
        if meta.get("grade") and meta.get("solution") and book:
            out.append({"grade_id": meta["grade_id"], "points": float(meta["points"]), **book})
    return out


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON data")


def submitted_outputs(path: Path) -> dict[str, list]:
    """grade id -> the saved outputs of the one cell with that id in the submitted notebook (a cell
    whose id appears more than once is left out: none of them is graded)."""
    if not path.is_file() or path.stat().st_size > MAX_NOTEBOOK:
        return {}
    try:
        nb = json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_constant)
        cells = nb["cells"]
    except (ValueError, KeyError, TypeError, RecursionError, UnicodeDecodeError):
        return {}
    found: dict[str, list] = {}
    seen: dict[str, int] = {}
    for cell in cells if isinstance(cells, list) else []:
        meta = cell.get("metadata", {}).get("nbgrader", {}) if isinstance(cell, dict) else {}
        gid = meta.get("grade_id") if isinstance(meta, dict) else None
        if isinstance(gid, str):
            seen[gid] = seen.get(gid, 0) + 1
            found[gid] = cell.get("outputs", []) if cell.get("cell_type") == "code" else []
    return {gid: outs for gid, outs in found.items() if seen[gid] == 1}


@lru_cache(maxsize=None)
def _book_entry(name: str) -> dict:
    return ak.entry(name, ak.REGISTRY[name]())


@lru_cache(maxsize=None)
def student_key(seeds: tuple[tuple[str, int], ...]) -> str:
    """The key of every exercise for the student whose seeds are ``seeds`` (:func:`student_seeds`): the
    variants' from their numbers, the others the book's -- computed here, from the registry."""
    mine = dict(seeds)
    key = {name: (ak.variant_key(name, mine[name])[0] if name in mine else _book_entry(name)) for name in ak.REGISTRY}
    return json.dumps({"seed": seeds[0][1] if seeds else 0, "key": key})


def _arguments(text: str) -> dict:
    """The checker's other arguments, as the source notebook writes them (``size=4``)."""
    import ast
    if not text:
        return {}
    call = ast.parse(f"f({text})", mode="eval").body
    if not isinstance(call, ast.Call):
        raise ValueError(f"the checker's arguments must be keywords (size=4), got {text!r}")
    return {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def judge(cell: dict, data, seeds: tuple[tuple[str, int], ...]) -> tuple[bool, str]:
    """Whether the recorded ``data`` answers ``cell``'s exercise for the student whose seeds are
    ``seeds`` (:func:`student_seeds`)."""
    ex.use_variant(student_key(seeds))
    try:
        _secret._tries.clear()          # the practice checkers' cap on tries is for students, not the grader
        cases = getattr(ex, cell["cases"])() if cell.get("cases") else None
        answer = handin.from_record(data, cases)
        verdict = getattr(ex, cell["checker"])(answer, **_arguments(cell.get("arguments", "")))
    finally:
        ex.use_variant(None)            # the book's own key again: no student's key outlives their grading
    return verdict.correct, str(verdict).splitlines()[0]


def grade(course: Path, assignment: str) -> list[dict]:
    """Score every submission of ``assignment`` in ``course``'s gradebook; returns the rows of the report."""
    from nbgrader.api import Gradebook
    course = course.resolve()
    meta = json.loads((course / "source" / assignment / f"{assignment}.ipynb").read_text())["metadata"]
    config = dict(read_config(course), course=meta.get("dpsens", {}).get("course", "dpsens"))
    cells = graded_cells(course / "source" / assignment / f"{assignment}.ipynb")
    rows = []
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for submission in gb.find_assignment(assignment).submissions:
            student = submission.student.id
            if not (course / "autograded" / student / assignment).is_dir():
                continue            # refused by nbgrader autograde (edited locked cells): it scores 0
            seeds = student_seeds(student, config)
            outputs = submitted_outputs(course / "submitted" / student / assignment / f"{assignment}.ipynb")
            for cell in cells:
                data, note = handin.recorded_answer(outputs.get(cell["grade_id"], []), cell["grade_id"])
                ok, message = judge(cell, data, seeds) if note == "recorded" else (False, note)
                g = gb.find_grade(cell["grade_id"], assignment, assignment, student)
                g.manual_score = cell["points"] if ok else 0.0
                g.needs_manual_grade = False
                rows.append({"student_id": student, "grade_id": cell["grade_id"],
                             "score": g.manual_score, "max_score": cell["points"], "verdict": message})
            gb.db.commit()
    report = course / "grades" / f"{assignment}.csv"
    report.parent.mkdir(exist_ok=True)
    with report.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["student_id", "grade_id", "score", "max_score", "verdict"])
        w.writeheader()
        w.writerows(rows)
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--course", type=Path, default=Path.cwd())
    ap.add_argument("assignments", nargs="+")
    a = ap.parse_args(argv)
    _secret.ITERATIONS = 1      # here the key is computed and compared in one process: no need to be slow
    for assignment in a.assignments:
        rows = grade(a.course, assignment)
        students = {r["student_id"] for r in rows}
        print(f"{assignment}: scored {len(rows)} answers of {len(students)} submissions "
              f"(report: {a.course / 'grades' / (assignment + '.csv')})")


if __name__ == "__main__":
    main()
