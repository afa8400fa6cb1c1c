"""The precision each exercise's statement states, derived from the teacher's key (issue 35).

Shared by ``tests/book/test_exercise_statements.py``: :func:`exercises` reads a
chapter's ``{exercise}`` blocks and the checker each one's student cell calls;
:func:`stated_precision` is the sentence the statement must hold, from the
scheme of the checker's key in ``tools/answer_key.py`` (``REL3``: within
0.5 %, ``abs_(a)``: within a, ``INT``/``EXACT``/``SET``: exact) or, for the
checkers that test a property rather than a value, from :data:`PROPERTY`.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{exercise\}(?P<title>.*)$", re.M)
CHECKER = re.compile(r"\bcheck_(\w+)\(")
NEXT = re.compile(r"^(`{3,}|:{3,})\{(solution|solution-start|exercise)\}", re.M)

#: Checkers that accept any answer with a property, and the exercise whose key they use.
PROPERTY = {
    "variance_worst_release": "any release with that property is accepted (checked exactly, up to float round-off)",
    "twice_local": "any release with that property is accepted (checked exactly, up to float round-off)",
    "proportion_leak_pair": "any pair with that property is accepted (the ratio is computed exactly)",
    "worst_case_purchases": "any table with that property is accepted (the L1 change must be exactly 6)",
    "symmetric_difference": "your function must give the exact count on every one of 45 test pairs",
}
#: A checker whose key has another name (``check_leak_discarded(answer, size)``).
KEY_NAME = {"leak_discarded": "leak_discarded_{size}"}


def exercises(text: str) -> list[dict]:
    """Every ``{exercise}`` of a chapter: title, body span (start, end of its content) and checker name."""
    out = []
    for m in OPEN.finditer(text):
        close = re.compile(rf"^{re.escape(m.group('fence'))}\s*$", re.M).search(text, m.end())
        after = text[close.end():]
        nxt = NEXT.search(after)
        student = after[:nxt.start()] if nxt else after
        check = CHECKER.search(student)
        out.append({"title": m.group("title").strip(), "start": m.end(), "end": close.start(),
                    "body": text[m.end():close.start()], "checker": check.group(1) if check else None,
                    "call": student[check.start():student.find("\n", check.start())] if check else ""})
    return out


def scheme_sentence(scheme: tuple) -> str:
    kind = scheme[0]
    if kind == "rel" and scheme[1] == 5e-3:
        return "within 0.5 % of the exact value (3 significant figures are enough)"
    if kind == "rel" and scheme[1] <= 1e-6:
        return "the exact value (a number or an expression such as `2/3`; only float round-off is tolerated)"
    if kind == "rel":
        return f"within {scheme[1]:.3g} relative"
    if kind == "abs":
        return f"within {scheme[1]:g} of the exact value"
    if kind == "int":
        return "exactly the whole number"
    if kind == "set":
        return "exactly the right datasets (their order and repeats in your list do not matter)"
    raise ValueError(f"no sentence for the scheme {scheme!r}")


def stated_precision(checker: str, call: str, registry) -> str:
    """The sentence an exercise checked by ``check_<checker>`` must state (after "*Accepted:* ")."""
    if checker in PROPERTY:
        return PROPERTY[checker]
    name = checker
    if checker in KEY_NAME:
        size = re.search(r"size\s*=\s*(\d+)|,\s*(\d+)\s*\)", call)
        name = KEY_NAME[checker].format(size=(size.group(1) or size.group(2)) if size else 3)
    return scheme_sentence(registry[name]().scheme)
