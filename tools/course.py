"""A ready nbgrader course, and its grading, in one command each (``make course``, ``make grade``).

Chapter: *For teachers* (running a graded course; per-student numbers).

Runs in a Python that has nbgrader 0.9.6 and the book's package
(``tools/envs/nbgrader.txt``), on a course source written by
``tools/make_assignments.py``::

    python tools/course.py setup --course DIR --roster ROSTER.csv   # salts chosen, students added, all released
    python tools/course.py add-student --course DIR ID [...]        # a late student: checked, added, re-released
    python tools/course.py grade --course DIR [ASSIGNMENT ...]      # autograde (no execution), then tools/grade.py
    python tools/course.py export --course DIR grades.csv           # nbgrader's grade sheet

``setup`` chooses the course's **salts** (:func:`choose_salts`): each
student's numbers of an exercise are drawn from their id, the course id and
that exercise's salt (``ds.exercises.student_seed``); the draws in the
installed package know nothing of the answers, so here, on the
instructor's machine, every student's answer is computed from the teacher's
registry ``tools/answer_key.py`` and the salt of an exercise is the first of
0, 1, 2, ... with which nobody's answer is the book's published one and no
answer is accepted for more than two students (:func:`problems`).  The
salts go into ``<course>/variants.json`` (the grader's config:
``tools/grade.py`` reads them) and into each source notebook's locked
"your numbers" cells (``your_numbers(name, STUDENT, course, salt=...)``).
It then adds every student of the roster (a CSV with a ``student_id``
column; ``first_name``, ``last_name`` and ``email`` are used when present)
to the gradebook, generates every assignment of ``source/`` and releases it
to the exchange (created if missing).  ``add-student`` checks a late
student's answers against the roster's with the course's salts; an exercise
where they fail gets a salt of that student's own (:func:`late_salts`),
recorded in ``variants.json`` and in the notebooks, which are generated and
released again (nothing changes for the students already there).
``grade`` runs ``nbgrader autograde`` on every submission collected in
``submitted/`` (as the course's config makes it: recorded, not executed),
then scores every answer with ``tools/grade.py``.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


#: The course salts tried for an exercise before some students get a salt of their own.
COURSE_SALTS = 8
#: The most salts tried for one student's own.
MAX_SALT = 400
#: The most students a correct answer may be accepted for (the student's own included).
MAX_SHARED = 2


def _registry() -> ModuleType:
    import answer_key as ak     # the teacher's registry: the answers are computed here, never in the package
    return ak


@lru_cache(maxsize=None)
def student_answer(name: str, student: str, course_id: str, salt: int) -> Any:
    """The key (``answer_key.Key``) of exercise ``name`` for ``student``, whose numbers are drawn with ``salt``
    (computed once per process: a late student's check reuses the roster's)."""
    from dpsens.exercises import student_seed, variant_params
    ak = _registry()
    return ak.REGISTRY[name](**variant_params(name, student_seed(student, course_id, salt)))


def _accepts(key: Any, value: object) -> bool:
    """Whether a student whose key is ``key`` would be given the point for ``value``."""
    from dpsens.exercises import _secret
    t = _secret.token(value, key.scheme)
    return t is not None and t in set(_secret.tokens_near(key.value, key.scheme))


def problems(keys: dict[str, Any], book: Any, new: set[str] | None = None) -> list[str]:
    """What is wrong with a roster's answers to one exercise (``keys``: student -> key): a student
    whose answer is the book's published one (either accepted for the other), or an answer accepted
    for more than :data:`MAX_SHARED` students.  ``new``: only the problems that involve these
    students (a late student's check)."""
    found = []
    for student, key in keys.items():
        if (new is None or student in new) and (_accepts(key, book.value) or _accepts(book, key.value)):
            found.append(f"{student} draws the book's answer")
    for student, key in keys.items():
        shared = [s for s, other in keys.items() if _accepts(key, other.value)]
        if len(shared) > MAX_SHARED and (new is None or student in new or new & set(shared)):
            found.append(f"the answer of {student} is accepted for {', '.join(shared)}")
    return found


def _variant_names(names: Iterable[str] | None = None) -> list[str]:
    from dpsens.exercises import VARIANTS
    return list(VARIANTS) if names is None else [n for n in names if n in VARIANTS]


def choose_salts(students: list[str], course_id: str, names: Iterable[str] | None = None,
                 log: Callable[[str], object] | None = print) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """The salts of the roster ``students``: ``(salts, exceptions)``, each exercise's course salt and,
    per student, the exercises where they draw with a salt of their own.

    Deterministic (the same roster gets the same salts): an exercise's course salt is the first of
    0, 1, ..., :data:`COURSE_SALTS` - 1 with which :func:`problems` finds nothing; when none does,
    the one with the fewest problems, and then the students are taken in the roster's order and
    each keeps the course salt unless it gives them the book's answer or one accepted for more than
    two students so far -- then they get the first fresh salt that does not (:func:`_fit`)."""
    if len(set(students)) != len(students) or not all(isinstance(s, str) and s.strip() for s in students):
        raise ValueError("students must be distinct, non-empty student ids")
    ak = _registry()
    salts: dict[str, int] = {}
    exceptions: dict[str, dict[str, int]] = {}
    for name in _variant_names(names):
        book = ak.REGISTRY[name]()
        tried = {}
        for salt in range(COURSE_SALTS):
            tried[salt] = len(problems({s: student_answer(name, s, course_id, salt) for s in students}, book))
            if not tried[salt]:
                break
        salts[name] = salt = min(tried, key=lambda k: (tried[k], k))
        if tried[salt]:
            keys: dict = {}
            for student in students:
                own = _fit(name, book, keys, student, course_id, [salt], COURSE_SALTS)
                keys[student] = student_answer(name, student, course_id, own)
                if own != salt:
                    exceptions.setdefault(student, {})[name] = own
        if log and (salt or tried[salt]):
            mine = sorted(s for s, e in exceptions.items() if name in e)
            log(f"{name}: course salt {salt}" + (f", own salts for {', '.join(mine)}" if mine else ""))
    return salts, exceptions


def _fit(name: str, book: Any, keys: dict[str, Any], student: str, course_id: str, first: list[int], fresh: int) -> int:
    """The first salt of ``first``, then of ``fresh``, ``fresh + 1``, ..., with which ``student``'s answer
    to ``name`` raises no problem among ``keys`` (the answers of the students already placed)."""
    for salt in [*first, *range(fresh, fresh + MAX_SALT)]:
        if not problems({**keys, student: student_answer(name, student, course_id, salt)}, book, {student}):
            return salt
    raise RuntimeError(f"no salt up to {fresh + MAX_SALT} gives {student} an answer to {name!r} of their own")


def salt_of(config: dict, student: str, name: str) -> int:
    """The salt of exercise ``name`` for ``student`` in a course's ``variants.json``."""
    return config.get("exceptions", {}).get(student, {}).get(name, config["salts"].get(name, 0))


def late_salts(config: dict, student: str, names: Iterable[str] | None = None) -> dict[str, int]:
    """The salts of a student added after ``setup``: for each exercise whose course salt gives them
    the book's answer or an answer accepted for more than two students (with the roster of
    ``config``), a salt of their own -- the first above every salt the course uses that passes;
    returns those exceptions (empty when the course's salts do)."""
    ak, mine = _registry(), {}
    course_id, roster = config["course"], [s for s in config["students"] if s != student]
    for name in _variant_names(names or list(config["salts"])):
        book = ak.REGISTRY[name]()
        keys = {s: student_answer(name, s, course_id, salt_of(config, s, name)) for s in roster}
        start = config["salts"].get(name, 0)
        fresh = max([start, COURSE_SALTS - 1, *(e[name] for e in config.get("exceptions", {}).values() if name in e)])
        salt = _fit(name, book, keys, student, course_id, [start], fresh + 1)
        if salt != start:
            mine[name] = salt
    return mine


def course_id_of(course: Path) -> str:
    """The course id the source notebooks draw the numbers with (``make_assignments --course-id``)."""
    import json
    for a in assignments(course):
        meta = json.loads((course / "source" / a / f"{a}.ipynb").read_text())["metadata"]
        return meta.get("dpsens", {}).get("course", "dpsens")
    return "dpsens"


def numbers_source(name: str, course_id: str, salt: int = 0, own: dict | None = None) -> str:
    """The code of the locked cell that prints a student's numbers of exercise ``name``
    (``tools/make_assignments.py`` writes it): drawn with the course's salt ``salt`` of the exercise,
    or with ``own[student]`` for a student with a salt of their own (:func:`late_salts`)."""
    which = f"{dict(sorted(own.items()))!r}.get(STUDENT, {salt})" if own else str(salt)
    return f"print(ds.exercises.your_numbers({name!r}, STUDENT, {course_id!r}, salt={which}))"


#: The call of a numbers cell, its exercise's name captured.
NUMBERS_CALL = re.compile(r"your_numbers\('(\w+)', STUDENT, ")


def set_salts(path: Path, config: dict) -> None:
    """Write the salts of ``config`` (a course's ``variants.json``: ``salts`` per exercise,
    ``exceptions`` per student) into the numbers cells of the source notebook ``path``."""
    import nbformat
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        numbers = "-numbers-" in cell.metadata.get("nbgrader", {}).get("grade_id", "")
        found = NUMBERS_CALL.search(cell.source) if numbers else None
        if found:
            name = found.group(1)
            own = {s: e[name] for s, e in config.get("exceptions", {}).items() if name in e}
            cell.source = numbers_source(name, config["course"], config["salts"].get(name, 0), own)
    nbformat.write(nb, path)


def write_salts(course: Path, config: dict) -> None:
    """``config`` into ``<course>/variants.json`` and into the numbers cells of every source notebook."""
    import json

    import grade as grader
    (course / grader.VARIANTS_FILE).write_text(json.dumps(config, indent=1, sort_keys=True) + "\n")
    for a in assignments(course):
        set_salts(course / "source" / a / f"{a}.ipynb", config)


def api(course: Path, force_release: bool = False) -> Any:
    """nbgrader's API on ``course`` with the course's own ``nbgrader_config.py`` (``force_release``:
    a release replaces the one already in the exchange)."""
    # nbgrader runs `alembic` (its database migrations) from the PATH: this Python's own
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    if force_release:
        config.ExchangeReleaseAssignment.force = True
    Path(config.Exchange.root).mkdir(parents=True, exist_ok=True)
    return NbGraderAPI(CourseDirectory(config=config), config=config)


def _ok(result: dict, what: str) -> None:
    if not result.get("success"):
        sys.exit(f"{what} failed:\n{result.get('error', '')}\n{result.get('log', '')[-3000:]}")


def assignments(course: Path) -> list[str]:
    return sorted(p.name for p in (course / "source").iterdir() if (p / f"{p.name}.ipynb").is_file())


def roster_ids(roster: Path) -> list[dict]:
    """The rows of a roster CSV (a ``student_id`` column), ids stripped."""
    rows = list(csv.DictReader(roster.open()))
    if not rows or "student_id" not in rows[0]:
        raise SystemExit(f"{roster}: a roster is a CSV with a student_id column")
    return [dict(r, student_id=r["student_id"].strip()) for r in rows]


def _release(nb, course: Path) -> None:
    for a in assignments(course):
        _ok(nb.generate_assignment(a, force=True), f"generate_assignment {a}")
        _ok(nb.release_assignment(a), f"release_assignment {a}")


def setup(course: Path, roster: Path | None) -> None:
    course = course.resolve()
    os.chdir(course)
    rows = roster_ids(roster) if roster is not None else []
    course_id, students = course_id_of(course), [r["student_id"] for r in rows]
    salts, exceptions = choose_salts(students, course_id) if rows else ({}, {})
    config = {"course": course_id, "students": students, "salts": salts, "exceptions": exceptions}
    write_salts(course, config)
    nb = api(course)
    with nb.gradebook as gb:
        for row in rows:
            extra = {k: row[k] for k in ("first_name", "last_name", "email") if row.get(k)}
            gb.update_or_create_student(row["student_id"], **extra)
    _release(nb, course)
    print(f"course {nb.course_id} in {course}: {len(assignments(course))} assignments released to "
          f"{nb.exchange_root}")


def add_student(course: Path, students: list[str]) -> None:
    """Students added after ``setup``: each checked with the course's salts (:func:`late_salts`),
    added to the gradebook, and the assignments generated and released again when a salt of their
    own had to be written in."""
    import grade as grader
    course = course.resolve()
    os.chdir(course)
    config = grader.read_config(course)
    changed = False
    for student in (s.strip() for s in students):
        if student in config["students"]:
            continue
        config["students"].append(student)
        own = late_salts(config, student)
        if own:
            config.setdefault("exceptions", {})[student] = own
            changed = True
            print(f"{student}: a salt of their own for {', '.join(sorted(own))}")
        write_salts(course, config)
    nb = api(course, force_release=changed)
    with nb.gradebook as gb:
        for student in students:
            gb.update_or_create_student(student.strip())
    if changed:
        _release(nb, course)
    print(f"course {nb.course_id}: {len(config['students'])} students"
          + ("; assignments released again" if changed else ""))


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
    ap.add_argument("command", choices=["setup", "add-student", "grade", "export"])
    ap.add_argument("--course", type=Path, required=True)
    ap.add_argument("--roster", type=Path)
    ap.add_argument("rest", nargs="*")
    a = ap.parse_intermixed_args(argv)
    if a.command == "setup":
        setup(a.course, a.roster)
    elif a.command == "add-student":
        add_student(a.course, a.rest)
    elif a.command == "grade":
        grade(a.course, a.rest)
    else:
        export(a.course, Path(a.rest[0]) if a.rest else a.course / "grades.csv")


if __name__ == "__main__":
    main()
