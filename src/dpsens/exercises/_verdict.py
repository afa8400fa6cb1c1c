"""What every exercise checker returns.

Chapter: *For teachers* explains how checkers are used in class.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass

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


def is_placeholder(answer) -> bool:
    """True for the student notebook's ``...`` placeholder (or ``None``)."""
    return answer is ... or answer is None


def not_yet(what: str = "your answer") -> Verdict:
    return Verdict(NOT_YET, f"replace the `...` with {what} and run the cell again.")


def correct(message: str = "well done.") -> Verdict:
    return Verdict(CORRECT, message)


def wrong(message: str, hint: str = "") -> Verdict:
    return Verdict(WRONG, message, hint)


def close(a, b, tol: float = 1e-9) -> bool:
    """Compare two numbers with a relative/absolute tolerance, False on non-numbers."""
    try:
        return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)
    except (TypeError, ValueError):
        return False


def check_number(answer, expected: float, what: str, hint: str, tol: float = 1e-9) -> Verdict:
    """Shared body of the numeric checkers: placeholder, type, value."""
    if is_placeholder(answer):
        return not_yet(what)
    try:
        value = float(answer)
    except (TypeError, ValueError):
        return wrong(f"expected a number for {what}, got {type(answer).__name__}.", hint)
    if close(value, expected, tol):
        return correct(f"{what} is right.")
    return wrong(f"{value:g} is not {what}.", hint)
