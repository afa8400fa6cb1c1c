"""Handing in an answer for grading: the record a graded notebook saves, and how a grader reads it back.

Chapter: *For teachers* (section "Grading that no submission can reach").

In a graded assignment (``make course``, ``tools/make_assignments.py``) an
answer cell ends with :func:`hand_in` instead of a ``check_...`` call.  It
judges nothing: it shows "recorded" and saves the answer, as plain JSON data,
in the cell's output (MIME type :data:`MIME`).  The grade is computed after
the deadline by the instructor's tool ``tools/grade.py``, in a fresh
process, from that saved data and the answer key computed at grading time
for the student's own numbers; no code of the submission runs there.  A
student can make the saved record say anything -- which is no more than
choosing an answer.

:func:`as_record` turns an answer into JSON data (numbers, text, lists,
tables; a function into its outputs on its exercise's public test cases);
:func:`from_record` turns that data back into an answer for a checker.
"""
from __future__ import annotations

import html
import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["MIME", "HandIn", "as_record", "from_record", "hand_in", "recorded_answer"]

#: The MIME type of a handed-in answer in a notebook's saved outputs.
MIME = "application/vnd.dpsens.answer+json"
#: Largest record a grader reads (characters of JSON); larger ones count as no answer.
MAX_RECORD = 200_000
#: Deepest nesting of lists a grader reads back.
MAX_DEPTH = 6


def as_record(answer: object, cases: Iterable[Sequence] | None = None) -> Any:
    """``answer`` as JSON data: ``None`` for the ``...`` placeholder, numbers, text and lists as they
    are, a table as ``{"table": {"columns": [...], "rows": [...]}}``, a function as
    ``{"outputs": [...]}`` (its results on ``cases``, a list of argument tuples), anything else
    as ``{"unreadable": "<type>"}``."""
    if answer is ... or answer is None:
        return None
    if isinstance(answer, (bool, np.bool_, numbers.Real, np.integer, np.floating, str)):
        return _scalar_record(answer)
    if isinstance(answer, np.ndarray):
        return as_record(answer.tolist())
    if isinstance(answer, pd.DataFrame):
        return {"table": {"columns": [str(c) for c in answer.columns],
                          "rows": [[as_record(v) for v in row] for row in answer.itertuples(index=False)]}}
    if isinstance(answer, (list, tuple)):
        return [as_record(v) for v in answer]
    if isinstance(answer, (set, frozenset)):
        return sorted((as_record(v) for v in answer), key=repr)
    if callable(answer) and cases is not None:
        return {"outputs": [_output_record(answer, args) for args in cases]}
    return {"unreadable": type(answer).__name__}


def _scalar_record(answer: bool | np.bool_ | numbers.Real | np.integer | np.floating | str) -> Any:
    """The record of a truth value, a number or a text."""
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    if isinstance(answer, (numbers.Integral, np.integer)):
        return int(answer)
    if isinstance(answer, str):
        return answer
    x = float(answer)
    return x if math.isfinite(x) else {"not finite": repr(x)}


def _output_record(func: Callable, args: Iterable) -> Any:
    """The record of ``func``'s result on the arguments ``args`` (each given as a list), or of its error."""
    try:
        return as_record(func(*[list(a) for a in args]))
    except Exception as exc:  # a student's bug: recorded, graded as wrong
        return {"error": type(exc).__name__}


class _Outputs:
    """A function answer read back: returns, call after call, the outputs recorded on the test cases
    (and raises when called with other arguments than the cases', in their order)."""

    def __init__(self, outputs, cases):
        self._outputs, self._cases, self._calls = list(outputs), [tuple(map(list, c)) for c in cases], 0

    def __call__(self, *args):
        i = self._calls
        self._calls += 1
        if i >= len(self._cases) or tuple(map(list, args)) != self._cases[i]:
            raise ValueError("called on arguments that are not the recorded test cases")
        out = self._outputs[i] if i < len(self._outputs) else None
        if isinstance(out, dict):
            raise ValueError("the function failed on this case when it was handed in")
        return out


def _depth(data, level=0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(data, list):
        return max([_depth(v, level + 1) for v in data] or [level + 1])
    if isinstance(data, dict):
        return max([_depth(v, level + 1) for v in data.values()] or [level + 1])
    return level


def from_record(data: Any, cases: Sequence[Sequence] | None = None) -> Any:
    """The answer that :func:`as_record` recorded as ``data`` (a grader's side): ``...`` for no
    answer or an unreadable one; a table becomes a :class:`pandas.DataFrame`; recorded outputs
    become a function that gives them back on ``cases``."""
    if data is None or _depth(data) > MAX_DEPTH:
        return ...
    if isinstance(data, dict):
        if set(data) == {"table"} and isinstance(data["table"], dict):
            table = data["table"]
            columns, rows = table.get("columns"), table.get("rows")
            if (isinstance(columns, list) and isinstance(rows, list)
                    and all(isinstance(r, list) and len(r) == len(columns) for r in rows)):
                return pd.DataFrame(rows, columns=columns)
        if set(data) == {"outputs"} and isinstance(data["outputs"], list) and cases is not None:
            return _Outputs(data["outputs"], cases)
        return ...
    return data


class HandIn:
    """What :func:`hand_in` returns: shown as "recorded", saved as :data:`MIME` data in the output."""

    def __init__(self, exercise: str, record: Any, student: str | None) -> None:
        self.exercise, self.record, self.student = exercise, record, student

    def __repr__(self) -> str:
        if self.record is None:
            return f"… Exercise {self.exercise}: no answer yet (replace the placeholder and run the cell again)."
        return (f"✔ Recorded for grading (Exercise {self.exercise}): save the notebook after running it; "
                "it is graded after the deadline, against your own numbers.")

    def _repr_html_(self) -> str:
        return f"<pre class='dpsens-handin'>{html.escape(repr(self))}</pre>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": repr(self), "text/html": self._repr_html_(),
                MIME: {"exercise": self.exercise, "student": self.student, "answer": self.record}}


def hand_in(exercise: str, answer: object, student: str | None = None,
            cases: Iterable[Sequence] | None = None) -> HandIn:
    """Record ``answer`` to exercise ``exercise`` (its nbgrader id) for grading; judges nothing.

    ``student`` is the id the notebook's numbers were drawn for; ``cases`` (function exercises)
    the argument tuples the function is run on.

    >>> hand_in("ex-1", 0.5)._repr_mimebundle_()["application/vnd.dpsens.answer+json"]["answer"]
    0.5
    """
    if not isinstance(exercise, str) or not exercise:
        raise ValueError(f"exercise must be a non-empty text (the answer's grade id), got {exercise!r}")
    return HandIn(exercise, as_record(answer, cases), None if student is None else str(student))


def recorded_answer(outputs: Iterable[dict], exercise: str) -> tuple[object, str]:
    """The recorded answer data in one cell's saved ``outputs`` (a list of output dicts) for
    ``exercise``, and a note: ``(None, note)`` unless exactly one record of that exercise is there
    and it is readable."""
    found = []
    for out in outputs if isinstance(outputs, list) else []:
        data = out.get("data") if isinstance(out, dict) else None
        record = data.get(MIME) if isinstance(data, dict) else None
        if record is not None:
            found.append(record)
    if not found:
        return None, "no recorded answer (run the cell and save the notebook before handing it in)"
    if len(found) > 1:
        return None, f"{len(found)} records in one cell: none is graded"
    record = found[0]
    if not (isinstance(record, dict) and record.get("exercise") == exercise and "answer" in record):
        return None, "the record is not this exercise's"
    if len(repr(record["answer"])) > MAX_RECORD:
        return None, "the recorded answer is too large to be one"
    return record["answer"], "recorded"

