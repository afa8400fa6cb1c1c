"""Plumbing stays out of readers' sight in the chapters of issue 22: no visible glue(...) call.

A ``glue(...)`` call in a shown code cell prints nothing but puts the
plumbing on the page; the chapters keep it in cells tagged ``remove-cell``
(the value still reaches the notebooks' copies through the nbval references).
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```\s*$", re.M | re.S)


@pytest.mark.parametrize("stem", ["global", "local", "neighbours"])
def test_no_visible_glue_call(stem):
    text = (ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8")
    visible = [cell for cell in CELL.findall(text)
               if re.search(r"^\s*glue\(", cell, re.M) and not re.search(r":tags:.*remove-(cell|input)", cell)]
    assert not visible, visible


def _lines_opening_a_list_inside_maths(text: str) -> list:
    """Lines of prose that start with ``+ ``, ``- `` or ``* `` while an inline ``$...$`` of the same
    paragraph is still open: Markdown reads them as a list item and the formula falls apart (the
    printed book showed the TeX source of one such formula)."""
    found, open_dollar, in_code = [], False, False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_code:
            in_code = stripped != "```"
            continue
        if stripped.startswith("```{code-cell}"):
            in_code, open_dollar = True, False
            continue
        if not stripped or stripped == "$$" or stripped.startswith("```"):
            open_dollar = False
            continue
        if open_dollar and re.match(r"[+*-] ", stripped):
            found.append((number, line))
        if stripped.replace("$$", "").count("$") % 2 == 1:
            open_dollar = not open_dollar
    return found


def test_the_guard_finds_a_list_marker_inside_maths():
    assert _lines_opening_a_list_inside_maths("so $a \\le b\n+ c$, and\n\n- a real item $x$\n") == [(2, "+ c$, and")]


@pytest.mark.parametrize("path", sorted((ROOT / "chapters").glob("*.md")), ids=lambda p: p.stem)
def test_no_line_of_an_inline_formula_starts_like_a_list_item(path):
    assert not _lines_opening_a_list_inside_maths(path.read_text(encoding="utf-8"))
