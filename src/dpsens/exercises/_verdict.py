"""What every exercise checker returns, and the rules they share.

Chapter: *For teachers* explains how checkers are used in class.

* Every public ``check_...`` is wrapped by :func:`checker`: the ``...``
  placeholder gives "not yet"; NaN, ±inf and answers of the wrong form give
  "wrong" with a hint, never an exception.
* Numbers are compared with a *relative* tolerance (:func:`close`):
  :data:`THREE_DIGITS` (0.5 %) for computed real numbers, :data:`EXACT`
  (round-off only) for exact values, and counts must be that whole number.
* A verdict never contains the answer: messages echo the student's value,
  never whether it is too small or too large.
* :func:`check_key` is the shared body of the checkers with one expected
  value: it compares the answer with the hashed key (:mod:`._key`, scheme in
  :mod:`._secret`), so no expected value is in the package.
"""
from __future__ import annotations

import functools
import html
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from . import _secret
from ._key import KEY

__all__ = ["NOT_YET", "CORRECT", "WRONG", "EXACT", "THREE_DIGITS", "ABS_FLOOR", "LIMIT_MESSAGE", "ANSWER_ERRORS",
           "NON_FINITE_HINT", "Verdict", "is_placeholder", "not_yet", "correct", "wrong", "format_answer",
           "as_number", "as_whole_number", "close", "use_variant", "key_entry", "check_key", "precision", "checker"]

NOT_YET = "not yet"
CORRECT = "correct"
WRONG = "wrong"


@dataclass(frozen=True)
class Verdict:
    """The outcome of a ``check_...`` call: a status, a message and a hint.

    ``status`` is ``"correct"``, ``"wrong"`` or ``"not yet"`` (the answer is
    still the ``...`` placeholder).  A verdict never contains the answer.
    ``bool(verdict)`` is true only when the answer is correct.
    """

    status: str
    message: str
    hint: str = ""

    @property
    def correct(self) -> bool:
        return self.status == CORRECT

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        # symbols from basic fonts (DejaVu), so they render in any browser
        icon = {CORRECT: "✔", WRONG: "✘", NOT_YET: "…"}[self.status]
        text = f"{icon} {self.status.capitalize()}: {self.message}"
        if self.hint and not self.correct:
            text += f"\n   Hint: {self.hint}"
        return text

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = {CORRECT: "#009E73", WRONG: "#D55E00", NOT_YET: "#0072B2"}[self.status]
        return (f'<div class="dpsens-verdict" style="border-left:4px solid {colour};padding:0.3em 0.8em">'
                f"<pre style='margin:0;white-space:pre-wrap'>{html.escape(str(self))}</pre></div>")


def is_placeholder(answer: object) -> bool:
    """True for the student notebook's ``...`` placeholder (or ``None``)."""
    return answer is ... or answer is None


def not_yet(what: str = "your answer") -> Verdict:
    return Verdict(NOT_YET, f"replace the `...` with {what} and run the cell again.")


def correct(message: str = "well done.") -> Verdict:
    return Verdict(CORRECT, message)


def wrong(message: str, hint: str = "") -> Verdict:
    return Verdict(WRONG, message, hint)


# ---------------------------------------------------------------- tolerances
#: Relative tolerance of an answer that is an exact number (a count, a distance,
#: a sum of whole values, 3.5 ...): only floating-point round-off is forgiven.
EXACT = 1e-9
#: Relative tolerance of a computed real number (a probability, a logarithm, a
#: smooth sensitivity ...): an answer rounded to 3 significant figures is
#: within 0.5 % of the true value (worst case 1.005 vs 1.00), so it passes,
#: while the classic slips (ln 50 for ln 100; 1.0e-5 for a value 8.6 % above it) are 8 % or
#: more off and fail.
THREE_DIGITS = 5e-3
#: Guard for an expected value of exactly 0, where a relative tolerance accepts nothing.
ABS_FLOOR = 1e-12
def format_answer(value: float) -> str:
    """A student's number as they typed it (enough digits that a rejected
    answer never prints like the expected one)."""
    return f"{value:.12g}"


def as_number(answer: object) -> float | None:
    """``answer`` as a finite float, or None when it is not one.

    Numbers, numpy scalars, 0-d arrays and numeric strings ("35") are read;
    ``True``/``False``, NaN, ±inf, lists, dicts, tables and other strings are not.
    """
    if isinstance(answer, (bool, np.bool_)):
        return None
    if isinstance(answer, str):
        answer = answer.strip()
    elif isinstance(answer, np.ndarray):
        if answer.ndim != 0:
            return None
    elif not isinstance(answer, (numbers.Real, np.generic)):
        return None
    try:
        value = float(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def as_whole_number(answer: object) -> int | None:
    """``answer`` as an int when it is a finite whole number (24, 24.0, "24"), else None."""
    value = as_number(answer)
    if value is None:
        return None
    nearest = round(value)
    if abs(value - nearest) > EXACT * max(1.0, abs(value)):
        return None
    return int(nearest)


def close(a: object, b: object, rel_tol: float = EXACT, abs_tol: float = ABS_FLOOR) -> bool:
    """Compare two numbers with a *relative* tolerance; False on non-numbers.

    The absolute tolerance is only a guard for an expected 0: an absolute
    tolerance as large as the relative one would accept 1.0e-5 for a value 8 % larger near 1e-5.
    """
    x, y = as_number(a), as_number(b)
    if x is None or y is None:
        return False
    return math.isclose(x, y, rel_tol=rel_tol, abs_tol=abs_tol)


_variants: dict[str, dict] = {}


def use_variant(blob: str | None) -> int:
    """Load a student's per-student key (a handout's hidden first cell does this): from then on the
    checkers of the exercises it covers answer for that student's variant.  Returns the seed
    (``None``: back to the book's exercises, seed 0)."""
    import json

    _variants.clear()
    if blob is None:
        return 0
    data = json.loads(blob)
    _variants.update(data["key"])
    return int(data["seed"])


def key_entry(exercise: str) -> dict:
    """The hashed key of ``exercise``: the student's variant when one is loaded, else the book's."""
    return _variants.get(exercise) or cast(dict, KEY[exercise])     # KEY is generated: its type is read as object


LIMIT_MESSAGE = ("this checker has taken {n} different answers in this session and takes no more "
                 "(a correct one included). Work the answer out rather than guessing; restarting "
                 "the kernel resets the count.")


def check_key(answer: object, exercise: str, what: str, hint: str = "", slips: dict | None = None,
              accept: dict | None = None) -> Verdict:
    """Shared body of the checkers with one expected answer, compared against the hashed key.

    ``exercise`` names the key's entry; ``slips`` maps the names of the entry's known slips to
    ``(message, hint)``; ``accept`` maps the names of entries that are correct too (another
    convention, stored as a slip in the key) to the message that says so.  Numbers are read as :func:`as_number` reads them; a whole-number answer
    must be whole; a collection of datasets is compared as a set.
    """
    if is_placeholder(answer):
        return not_yet(what)
    entry = key_entry(exercise)
    kind = entry["answer"][0][0]
    if kind != "set":
        value = as_number(answer)
        if value is None:
            kind_text = "a whole number" if kind == "int" else "a finite number"
            return wrong(f"expected {kind_text} for {what}, got {_describe(answer)}.", hint)
        if kind == "int" and as_whole_number(value) is None:
            return wrong(f"{format_answer(value)} is not a whole number, and {what} is one.", hint)
        shown = str(as_whole_number(value)) if kind == "int" else format_answer(value)
    outcome = _secret.judge(entry, exercise, answer)
    if outcome == "answer":
        return correct(f"{what} is right.")
    if outcome == "limit":
        return wrong(LIMIT_MESSAGE.format(n=_secret.MAX_TRIES), hint)
    if accept and outcome in accept:
        return correct(accept[outcome])
    if slips and outcome in slips:
        return wrong(*slips[outcome])
    if kind == "set":
        return wrong(f"that is not {what} ({precision(entry['answer'][0])}).", hint)
    return wrong(f"{shown} is not {what} ({precision(entry['answer'][0])}).", hint)


def precision(scheme: Sequence) -> str:
    """The precision an answer is accepted at, as a verdict states it (from the key's scheme).

    >>> precision(["rel", 0.005]), precision(["abs", 0.01]), precision(["int"])
    ('accepted: within 0.5 % of the value, e.g. 3 significant figures', 'accepted: within 0.01', 'accepted: exactly that whole number')
    """
    kind = scheme[0]
    if kind == "rel":
        if scheme[1] < 1e-6:
            return "accepted: the exact value, up to round-off"
        return f"accepted: within {scheme[1] * 100:g} % of the value, e.g. 3 significant figures"
    if kind == "abs":
        return f"accepted: within {scheme[1]:g}"
    if kind == "int":
        return "accepted: exactly that whole number"
    return "accepted: exactly that collection, in any order"


def _describe(answer) -> str:
    """A short description of a malformed answer (its type, or the non-finite value)."""
    value = None
    if isinstance(answer, (numbers.Real, np.generic, str)) and not isinstance(answer, (bool, np.bool_)):
        try:
            value = float(answer)
        except (TypeError, ValueError, OverflowError):
            value = None
    if value is not None and not math.isfinite(value):
        return f"{value} (not a finite number)"
    if isinstance(answer, str):
        return f"the text {answer[:20]!r}"
    return type(answer).__name__


# ---------------------------------------------------------------- robustness
#: Errors a malformed answer can raise inside a checker (wrong shape, text where
#: a number belongs, int(inf), ...): they become a "wrong" verdict.
ANSWER_ERRORS = (TypeError, ValueError, ArithmeticError, LookupError, AttributeError)
NON_FINITE_HINT = ("NaN or ±inf usually comes from a division by zero or an overflow (exp of a large "
                   "number) in the computation: check the formula, or work with logarithms.")


def checker(expects: str, hint: str = "") -> Callable[[Callable[..., Verdict]], Callable[..., Verdict]]:
    """Decorator of every public ``check_...`` function.

    ``expects`` describes the form of the answer ("a number", "a list of
    datasets, e.g. [[1, 2, 3]]").  The wrapped checker answers "not yet" for
    the placeholder, "wrong" for a non-finite number (NaN, ±inf) and "wrong"
    -- never an exception -- when the answer's form makes it raise one of
    :data:`ANSWER_ERRORS`.
    """
    def decorate(func):
        @functools.wraps(func)
        def wrapper(answer, *args, **kwargs) -> Verdict:
            if is_placeholder(answer):
                return not_yet(expects)
            if (isinstance(answer, (numbers.Real, np.generic)) and not isinstance(answer, (bool, np.bool_))
                    and as_number(answer) is None):
                return wrong(f"got {_describe(answer)}; give {expects}.", NON_FINITE_HINT)
            try:
                verdict = func(answer, *args, **kwargs)
            except ANSWER_ERRORS:
                return wrong(f"could not read this answer (got {_describe(answer)}); give {expects}.",
                             hint or f"the answer should be {expects}.")
            if not isinstance(verdict, Verdict):  # pragma: no cover - a bug of the checker itself
                raise TypeError(f"{func.__name__} returned {verdict!r}, not a Verdict")
            return verdict
        wrapper.expects = expects
        return wrapper
    return decorate
