"""An nbgrader course source from the chapters: one assignment per chapter (``make assignments``).

Chapter: *For teachers* (running a graded course).

For each chapter the student handout (``tools/make_student.py``) becomes
``<course>/source/<stem>/<stem>.ipynb`` with nbgrader's cell metadata:

* each exercise's answer cell is an **autograded answer** (``solution``):
  its ``answer = ...`` lines are a ``### BEGIN SOLUTION`` region holding the
  key's value, which ``nbgrader generate_assignment`` replaces by ``raise
  NotImplementedError()``;
* right after it, a locked **test cell** (``grade``, :data:`POINTS` points)
  whose tests are ``### BEGIN HIDDEN TESTS`` (removed from the students'
  copy, put back when grading).  They compare the answer with the
  teacher's registry ``tools/answer_key.py`` -- the value is written into the
  hidden test, with the exercise's tolerance -- never with the student-side
  checkers, so a submission that redefines ``check_...`` gains nothing.  An
  exercise whose answer is "any example such that ..." (or a function) is
  graded by the package's checker *reloaded* from its source
  (``importlib.reload``), which undoes any redefinition in the notebook;
* each proof exercise's answer cell is a **manually graded** Markdown answer
  (:data:`PROOF_POINTS` points) whose solution region holds the rubric.

``<course>/nbgrader_config.py`` sets the course id, a per-cell timeout
(:data:`TIMEOUT` s, so a submission that loops forever is interrupted and
graded) and where the exchange is.  Usage::

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
import make_student as ms  # noqa: E402  (the student notebooks)

POINTS = 1
PROOF_POINTS = 3
TIMEOUT = 120   # seconds per cell: the chapters' slowest cell takes about 30 s on a loaded 2-core machine
CHECK_CALL = re.compile(r"^\s*(?:\w+\.)*(check_\w+)\((.*)\)\s*(#.*)?$", re.MULTILINE)
RUBRIC = """**Rubric ({points} points).** {points}: every step follows from the definitions or from a result of the
chapter, with the inequalities in the right direction. 2: the right idea with one gap or an unjustified step.
1: a correct special case, or the right idea stated without an argument. 0: otherwise. The worked proof is in the
*Solution* box of the exercise on the public website."""


def key_name(checker: str, args: str) -> str | None:
    """The registry entry an answer cell's checker is graded against (None: graded by the reloaded checker)."""
    name = checker[len("check_"):]
    if name == "leak_discarded":
        size = re.search(r"size\s*=\s*(\d+)", args)
        return f"leak_discarded_{size.group(1) if size else 3}"
    if name in ak.REGISTRY and ak.REGISTRY[name]().cases is None:
        return name
    return None


def hidden_test(checker: str, args: str, variable: str) -> str:
    """The hidden test of one answer cell."""
    name = key_name(checker, args)
    lines = ["### BEGIN HIDDEN TESTS"]
    if name is None:
        module = next(m for m in _checker_modules() if hasattr(m, checker)).__name__
        lines += ["import importlib as _il",
                  f"_m = _il.reload(_il.import_module({module!r}))   # undoes any redefinition in the notebook",
                  f"assert _m.{checker}({args}).correct, 'not accepted by the reloaded checker'"]
    else:
        key = ak.REGISTRY[name]()
        kind = key.scheme[0]
        if kind == "set":
            want = sorted({tuple(float(v) for v in d) for d in key.value})
            lines += [f"_want = {want!r}",
                      f"_got = sorted({{tuple(sorted(float(v) for v in d)) for d in {variable}}})",
                      "assert _got == _want, 'not the expected set'"]
        else:
            lines += [f"_x = float({variable})", "assert _x == _x and abs(_x) != float('inf'), 'not a finite number'"]
            v = float(key.value)
            if kind == "int":
                lines.append(f"assert abs(_x - {v!r}) <= 1e-9 * max(1.0, abs({v!r})), 'wrong'")
            elif kind == "rel":
                lines.append(f"assert abs(_x - {v!r}) <= {key.scheme[1]!r} * abs({v!r}) + 1e-12, 'wrong'")
            else:
                lines.append(f"assert abs(_x - {v!r}) <= {key.scheme[1]!r}, 'wrong'")
    lines.append("### END HIDDEN TESTS")
    return "\n".join(lines)


def _checker_modules():
    import importlib
    import pkgutil

    import dpsens.exercises as ex
    return [importlib.import_module(f"{ex.__name__}.{m.name}") for m in pkgutil.iter_modules(ex.__path__)
            if not m.name.startswith("_")]


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


def solution_value(checker: str, args: str):
    name = key_name(checker, args)
    if name is None:
        return _Source(EXAMPLES[checker]) if checker in EXAMPLES else None
    value = ak.REGISTRY[name]().value
    return [list(d) for d in value] if isinstance(value, list) else value


def assignment(stem: str):
    """The nbgrader source notebook of chapter ``stem``."""
    nb = ms.student_notebook(ms.read_chapter(stem), stem)
    cells, n = [], 0
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("**Your proof**"):
            n += 1
            cell.source = ("### BEGIN SOLUTION\n" + RUBRIC.format(points=PROOF_POINTS) + "\n### END SOLUTION\n\n"
                           + cell.source)
            cell.metadata["nbgrader"] = _meta(f"{stem}-proof-{n}", grade=True, solution=True, locked=False,
                                              points=PROOF_POINTS)
            cells.append(cell)
            continue
        calls = CHECK_CALL.findall(cell.source) if cell.cell_type == "code" else []
        placeholders = re.findall(r"^(\w+)\s*=\s*\.\.\.\s*(?:#.*)?$", cell.source, re.MULTILINE)
        function = bool(calls) and not placeholders and "...  # your code here" in cell.source
        if not (calls and (placeholders or function)):
            cells.append(cell)
            continue
        n += 1
        checker, args, _ = calls[0]
        value = solution_value(checker, args)
        check_lines = [line for line in cell.source.splitlines() if CHECK_CALL.match(line)]
        if function:        # "write a function": the solution is the function's code
            body = FUNCTIONS.get(checker) or "\n".join(line for line in cell.source.splitlines()
                                                       if line not in check_lines).strip()
        else:
            body = "\n".join(f"{v} = {value!r}" if value is not None else f"{v} = ...  # the worked solution"
                             for v in placeholders)
        cell.source = "### BEGIN SOLUTION\n" + body + "\n### END SOLUTION\n" + "\n".join(check_lines)
        cell.metadata["nbgrader"] = _meta(f"{stem}-answer-{n}", grade=False, solution=True, locked=False)
        cell.outputs = []
        test = nbformat.v4.new_code_cell(f"# Graded: the answer above ({POINTS} point)\n"
                                         + hidden_test(checker, args, placeholders[0] if placeholders else args))
        test.metadata["nbgrader"] = _meta(f"{stem}-test-{n}", grade=True, solution=False, locked=True,
                                          points=POINTS)
        cells += [cell, test]
    nb.cells = cells
    nb.metadata.pop("jupytext", None)
    return nb


CONFIG = '''c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "dpsens"
c.CourseDirectory.root = {root!r}
c.Exchange.root = {exchange!r}
# a submission that loops forever is interrupted after this many seconds per cell, then graded
c.Execute.timeout = {timeout}
c.Execute.interrupt_on_timeout = True
c.Execute.iopub_timeout = 60
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
'''


def write_course(course: Path, stems=None, exchange: Path | None = None) -> list[Path]:
    course = course.resolve()
    exchange = (exchange or course / "exchange").resolve()
    course.mkdir(parents=True, exist_ok=True)
    exchange.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(CONFIG.format(root=str(course), exchange=str(exchange),
                                                             timeout=TIMEOUT))
    paths = []
    for stem in stems or ms.toc_chapters():
        nb = assignment(stem)
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
    ap.add_argument("stems", nargs="*")
    a = ap.parse_args()
    for p in write_course(a.course, a.stems):
        print(f"wrote {p.relative_to(a.course.resolve().parent) if p.is_relative_to(a.course.resolve().parent) else p}")
