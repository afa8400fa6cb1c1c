"""A ready nbgrader course, and its grading, in one command each (``make course``, ``make grade``).

Chapter: *For teachers* (running a graded course).

Runs in a Python that has nbgrader 0.9.6 and the book's package
(``tools/envs/nbgrader.txt``), on a course source written by
``tools/make_assignments.py``::

    python tools/course.py setup --course DIR --roster ROSTER.csv   # students added, every assignment released
    python tools/course.py grade --course DIR [ASSIGNMENT ...]      # autograde (no execution), then tools/grade.py
    python tools/course.py export --course DIR grades.csv           # nbgrader's grade sheet

``setup`` adds every student of the roster (a CSV with a ``student_id``
column; ``first_name``, ``last_name`` and ``email`` are used when present)
to the gradebook, generates every assignment of ``source/`` and releases it
to the exchange (created if missing); each student's numbers are drawn from
their id when their notebook runs (``ds.exercises.your_numbers``), so the
roster needs no seeds.  ``grade`` runs ``nbgrader autograde`` on every
submission collected in ``submitted/`` (as the course's config makes it:
recorded, not executed), then scores every answer with ``tools/grade.py``.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


def api(course: Path):
    """nbgrader's API on ``course`` with the course's own ``nbgrader_config.py``."""
    # nbgrader runs `alembic` (its database migrations) from the PATH: this Python's own
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    Path(config.Exchange.root).mkdir(parents=True, exist_ok=True)
    return NbGraderAPI(CourseDirectory(config=config), config=config)


def _ok(result: dict, what: str) -> None:
    if not result.get("success"):
        sys.exit(f"{what} failed:\n{result.get('error', '')}\n{result.get('log', '')[-3000:]}")


def assignments(course: Path) -> list[str]:
    return sorted(p.name for p in (course / "source").iterdir() if (p / f"{p.name}.ipynb").is_file())


def setup(course: Path, roster: Path | None) -> None:
    course = course.resolve()
    os.chdir(course)
    nb = api(course)
    if roster is not None:
        with nb.gradebook as gb:
            for row in csv.DictReader(roster.open()):
                extra = {k: row[k] for k in ("first_name", "last_name", "email") if row.get(k)}
                gb.update_or_create_student(row["student_id"].strip(), **extra)
    for a in assignments(course):
        _ok(nb.generate_assignment(a, force=True), f"generate_assignment {a}")
        _ok(nb.release_assignment(a), f"release_assignment {a}")
    print(f"course {nb.course_id} in {course}: {len(assignments(course))} assignments released to "
          f"{nb.exchange_root}")


def readable(path: Path) -> bool:
    """Whether nbgrader can autograde the submitted notebook ``path``: valid nbgrader metadata and no
    grade id twice."""
    import json

    from nbformat import from_dict
    from nbgrader.nbgraderformat import MetadataValidator
    try:
        nb = from_dict(json.loads(path.read_text(encoding="utf-8")))
        MetadataValidator().validate_nb(nb)
    except Exception:       # not JSON, not a notebook, metadata nbgrader rejects
        return False
    ids = [c.metadata["nbgrader"].get("grade_id") for c in nb.cells if "nbgrader" in c.metadata]
    return len(ids) == len(set(ids))


def grade(course: Path, names: list[str]) -> None:
    import grade as grader
    course = course.resolve()
    os.chdir(course)
    nb = api(course)
    grader._secret.ITERATIONS = 1     # the key is computed and compared in this process: no need to be slow
    for a in names or assignments(course):
        if not (course / "submitted").is_dir():
            break
        # nbgrader stops a whole run at a submission whose cell metadata it cannot read (a duplicated
        # graded cell, a locked cell made graded): such a submission is left out, and scores 0
        students = sorted(p.parent.name for p in (course / "submitted").glob(f"*/{a}"))
        refused = [s for s in students if not readable(course / "submitted" / s / a / f"{a}.ipynb")]
        nb.coursedir.student_id_exclude = ",".join(refused)
        if not nb.autograde(a, "*", force=True, create=True).get("success"):
            for student in (s for s in students if s not in refused):   # one at a time, to find it
                if not nb.autograde(a, student, force=True, create=True).get("success"):
                    refused.append(student)
        nb.coursedir.student_id_exclude = ""
        if refused:
            print(f"{a}: nbgrader refused the submissions of {', '.join(sorted(refused))} (they score 0)")
        rows = grader.grade(course, a)
        print(f"{a}: {len(rows)} answers scored")


def export(course: Path, to: Path) -> None:
    import subprocess
    out = subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "export", "--to", str(to.resolve())],
                         cwd=course, capture_output=True, text=True)
    if out.returncode:
        sys.exit(out.stderr[-3000:])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["setup", "grade", "export"])
    ap.add_argument("--course", type=Path, required=True)
    ap.add_argument("--roster", type=Path)
    ap.add_argument("rest", nargs="*")
    a = ap.parse_intermixed_args(argv)
    if a.command == "setup":
        setup(a.course, a.roster)
    elif a.command == "grade":
        grade(a.course, a.rest)
    else:
        export(a.course, Path(a.rest[0]) if a.rest else a.course / "grades.csv")


if __name__ == "__main__":
    main()
