"""An nbgrader course from the chapters: one assignment per chapter (``make assignments``, ``make course``).

Chapter: *For teachers* (running a graded course; grading that no submission can reach).

For each chapter the student handout (``tools/make_student.py``) becomes
``<course>/source/<stem>/<stem>.ipynb`` with nbgrader's cell metadata:

* each exercise's answer cell is a **graded answer** (nbgrader's "manually
  graded answer", :data:`POINTS` point): its ``answer = ...`` lines are a
  ``### BEGIN SOLUTION`` region holding the book's value, which ``nbgrader
  generate_assignment`` replaces by a stub, and its ``check_...`` line is
  replaced by ``ds.exercises.hand_in(<grade id>, answer, STUDENT)``, which
  only records the answer in the cell's saved output.  No cell of the
  assignment decides a grade and no key is in it: after ``nbgrader
  autograde`` (configured here *not to execute* the submissions: no
  student code runs on the grader's machine) the instructor's
  ``tools/grade.py`` reads the recorded answers out of the submitted
  notebooks, in a fresh process, and writes each answer's score into
  nbgrader's gradebook;
* an exercise with per-student numbers (``ds.exercises.VARIANTS``) gets a
  locked cell above its answer cell showing the student's numbers
  (``course.numbers_source``: ``your_numbers(name, STUDENT, course,
  salt=...)``; ``tools/course.py setup`` writes the course's salts in);
* each proof exercise's answer cell is a **manually graded** Markdown answer
  (:data:`PROOF_POINTS` points) whose solution region holds the rubric.

Each graded cell's nbgrader id names its exercise by the book's number:
``local-answer-4-3`` is the answer to Exercise 4.3 (the third of chapter 4),
``local-proof-4-2`` the proof of Exercise 4.2 (:func:`grade_id`), as the
website, the PDF, the handout and the teachers' page number it.

``<course>/nbgrader_config.py`` sets the course id, the course root (the
folder of the file itself, wherever it is copied) and the exchange.  Usage::

    python tools/make_assignments.py [--course DIR] [stem ...]   # default _build/nbgrader
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


sys.path.insert(0, str(ROOT / "tools"))
import answer_key as ak  # noqa: E402  (the teacher's answer key)
import course as course_tool  # noqa: E402  (the course's salts: the numbers cells)
import make_student as ms  # noqa: E402  (the student notebooks)

POINTS = 1
PROOF_POINTS = 3
COURSE_ID = "dpsens"
CHECK_CALL = re.compile(r"^\s*(?:\w+\.)*(check_\w+)\((.*)\)\s*(#.*)?$", re.MULTILINE)
RUBRIC = """**Rubric ({points} points).** {points}: every step follows from the definitions or from a result of the
chapter, with the inequalities in the right direction. 2: the right idea with one gap or an unjustified step.
1: a correct special case, or the right idea stated without an argument. 0: otherwise. The worked proof is in the
*Solution* box of the exercise on the public website."""
STUDENT_CELL = """# Your student id, as the course knows you: on the course's JupyterHub it is your user name.
# Elsewhere, type it: STUDENT = "..."
import os
STUDENT = os.environ.get("JUPYTERHUB_USER", "")"""


def key_name(checker: str, args: str) -> str | None:
    """The registry entry an answer cell's checker is graded against (None: graded by the reloaded checker)."""
    name = checker[len("check_"):]
    if name == "leak_discarded":
        size = re.search(r"size\s*=\s*(\d+)", args)
        return f"leak_discarded_{size.group(1) if size else 3}"
    if name in ak.REGISTRY and ak.REGISTRY[name]().cases is None:
        return name
    return None


#: An exercise's heading in a handout (``> **Exercise 4.3 (title)**``, or unquoted when gated).
EXERCISE_HEAD = re.compile(r"^(?:> )?\*\*Exercise (\d+(?:\.\d+)*)\b", re.MULTILINE)


def grade_id(stem: str, kind: str, number: str) -> str:
    """The nbgrader id of a cell of Exercise ``number`` ("4.3") of chapter ``stem``: ``local-answer-4-3``.

    ``kind`` is ``answer``, ``proof`` or ``numbers``; the dot becomes a hyphen (nbgrader's ids
    become names in its gradebook and its forms)."""
    if kind not in ("answer", "proof", "numbers"):
        raise ValueError(f"kind must be 'answer', 'proof' or 'numbers', got {kind!r}")
    if not re.fullmatch(r"\d+(\.\d+)*", number or ""):
        raise ValueError(f"number must be an exercise's number such as '4.3', got {number!r}")
    return f"{stem}-{kind}-{number.replace('.', '-')}"


def _meta(grade_id: str, *, grade: bool, solution: bool, locked: bool, points: int = 0, task: bool = False):
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution,
            "task": task}
    if grade:
        meta["points"] = points
    return meta


#: The instructor's solution of the exercises graded by their reloaded checker ("any example such that").
EXAMPLES = {
    "check_variance_worst_release": "[1, 1, 1, 3]",
    "check_twice_local": "[1, 1, 1]",
    "check_proportion_leak_pair": "([1, 999], [0, 999])",
    "check_worst_case_purchases": "pd.DataFrame({'user_id': [0] * 6, 'shop': ['a'] * 3 + ['b'] * 3})",
    "check_symmetric_difference": ("lambda x, y: sum(((__import__('collections').Counter(x) - "
                                   "__import__('collections').Counter(y)) + (__import__('collections').Counter(y) - "
                                   "__import__('collections').Counter(x))).values())"),
}


#: The instructor's solution of the "write a function" exercises.
FUNCTIONS = {
    "check_symmetric_difference": ("def symmetric_difference_size(x, y):\n"
                                   "    from collections import Counter\n"
                                   "    cx, cy = Counter(x), Counter(y)\n"
                                   "    return sum(((cx - cy) + (cy - cx)).values())"),
}


class _Source(str):
    """Code written into a solution as is (``repr`` gives the text)."""

    def __repr__(self):
        return str(self)


def solution_value(checker: str, args: str) -> object:
    name = key_name(checker, args)
    if name is None:
        return _Source(EXAMPLES[checker]) if checker in EXAMPLES else None
    value = ak.REGISTRY[name]().value
    return [list(d) for d in value] if isinstance(value, list) else value


def cases_function(checker: str) -> str | None:
    """The public test cases of a "write a function" exercise: ``ds.exercises.<name>_cases``."""
    import dpsens.exercises as ex
    name = f"{checker[len('check_'):]}_cases"
    return name if hasattr(ex, name) else None


def split_args(args: str) -> tuple[str, str]:
    """``"answer, size=4"`` -> ``("answer", "size=4")``: the answer and the checker's other arguments."""
    first, _, rest = args.partition(",")
    return first.strip(), rest.strip()


def assignment(stem: str, course_id: str = COURSE_ID) -> nbformat.NotebookNode:
    """The nbgrader source notebook of chapter ``stem``."""
    import dpsens.exercises as ex
    nb = ms.student_notebook(ms.read_chapter(stem), stem)
    cells: list = []
    number: str = ""
    used: set[str] = set()
    student = nbformat.v4.new_code_cell(STUDENT_CELL)
    student.metadata["tags"] = ["student-id"]
    for cell in nb.cells:
        if cell.cell_type == "markdown" and (heads := EXERCISE_HEAD.findall(cell.source)):
            number = heads[-1]          # the exercise the next answer cell belongs to
        if cell.cell_type == "markdown" and cell.source.startswith("**Your proof**"):
            gid = _unique(grade_id(stem, "proof", number), used)
            cell.source = ("### BEGIN SOLUTION\n" + RUBRIC.format(points=PROOF_POINTS) + "\n### END SOLUTION\n\n"
                           + cell.source)
            cell.metadata["nbgrader"] = _meta(gid, grade=True, solution=True, locked=False,
                                              points=PROOF_POINTS)
            cells.append(cell)
            continue
        calls = CHECK_CALL.findall(cell.source) if cell.cell_type == "code" else []
        placeholders = re.findall(r"^(\w+)\s*=\s*\.\.\.\s*(?:#.*)?$", cell.source, re.MULTILINE)
        function = bool(calls) and not placeholders and "...  # your code here" in cell.source
        if not (calls and (placeholders or function)):
            cells.append(cell)
            continue
        gid = _unique(grade_id(stem, "answer", number), used)
        checker, args, _ = calls[0]
        variable, extra = split_args(args)
        value = solution_value(checker, args)
        check_lines = [line for line in cell.source.splitlines() if CHECK_CALL.match(line)]
        if function:        # "write a function": the solution is the function's code
            body = FUNCTIONS.get(checker) or "\n".join(line for line in cell.source.splitlines()
                                                       if line not in check_lines).strip()
        else:
            body = "\n".join(f"{v} = {value!r}" if value is not None else f"{v} = ...  # the worked solution"
                             for v in placeholders)
        cases = cases_function(checker) if function else None
        record = f"ds.exercises.hand_in({gid!r}, {variable}, STUDENT"
        record += f", cases=ds.exercises.{cases}())" if cases else ")"
        name = key_name(checker, args) or checker[len("check_"):]       # leak_discarded(size=4): leak_discarded_4
        if name in ex.VARIANTS:
            numbers = nbformat.v4.new_code_cell(course_tool.numbers_source(name, course_id))
            numbers.metadata["nbgrader"] = _meta(grade_id(stem, "numbers", number), grade=False, solution=False, locked=True)
            cells.append(numbers)
        cell.source = "### BEGIN SOLUTION\n" + body + "\n### END SOLUTION\n" + record
        cell.metadata["nbgrader"] = _meta(gid, grade=True, solution=True, locked=False, points=POINTS)
        cell.metadata["dpsens"] = {"checker": checker, "arguments": extra, "cases": cases}
        cell.outputs, cell.execution_count = [], None
        cells.append(cell)
    nb.cells = cells[:2] + [student] + cells[2:]
    nb.metadata.pop("jupytext", None)
    nb.metadata["dpsens"] = {"course": course_id}
    return nb


def _unique(gid: str, used: set) -> str:
    """``gid``, refused when an earlier cell has it (one graded cell per exercise)."""
    if gid in used:
        raise ValueError(f"two graded cells would be {gid!r}: one answer cell per exercise")
    used.add(gid)
    return gid


CONFIG = '''import os

from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.preprocessors import AssignLatePenalties, CheckCellMetadata, IgnorePattern, LimitOutput, SaveAutoGrades

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
# the course is the folder of this file, wherever it is copied
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.Exchange.root = {exchange}
# autograde does not execute a submission: no student code runs on this machine.  It records the
# submissions in the gradebook; tools/grade.py then scores every answer from the submitted notebooks.
c.Autograde.autograde_preprocessors = [IgnorePattern, ClearMetadataPreprocessor, LimitOutput, SaveAutoGrades,
                                       AssignLatePenalties, CheckCellMetadata]
c.ClearSolutions.code_stub = {{"python": "answer = ...  # your answer here (see the exercise above)"}}
'''


def write_course(course: Path, stems=None, exchange: Path | None = None, course_id: str = COURSE_ID) -> list[Path]:
    """The course source of ``stems`` (default every chapter with exercises) in ``course``, with its
    ``nbgrader_config.py`` (exchange: ``exchange``, default ``<course>/exchange``)."""
    course = course.resolve()
    course.mkdir(parents=True, exist_ok=True)
    if exchange is None:
        where = "os.path.join(os.path.dirname(os.path.abspath(__file__)), 'exchange')"
        (course / "exchange").mkdir(exist_ok=True)
    else:
        exchange.mkdir(parents=True, exist_ok=True)
        where = repr(str(exchange.resolve()))
    (course / "nbgrader_config.py").write_text(CONFIG.format(course_id=course_id, exchange=where))
    paths = []
    for stem in stems or ms.toc_chapters():
        nb = assignment(stem, course_id)
        if not any("nbgrader" in c.metadata for c in nb.cells):
            continue        # a chapter without exercises
        path = course / "source" / stem / f"{stem}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ms.render(nb))
        paths.append(path)
    return paths


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--course", type=Path, default=ROOT / "_build" / "nbgrader")
    ap.add_argument("--course-id", default=COURSE_ID)
    ap.add_argument("stems", nargs="*")
    a = ap.parse_args()
    for p in write_course(a.course, a.stems, course_id=a.course_id):
        print(f"wrote {p}")
