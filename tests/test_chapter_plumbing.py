"""Plumbing stays out of readers' sight in the chapters of issue 22: no visible glue(...) call.

A ``glue(...)`` call in a shown code cell prints nothing but puts the
plumbing on the page; the chapters keep it in cells tagged ``remove-cell``
(the value still reaches the notebooks' copies through the nbval references).
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```\s*$", re.M | re.S)


@pytest.mark.parametrize("stem", ["global", "local", "neighbours"])
def test_no_visible_glue_call(stem):
    text = (ROOT / "chapters" / f"{stem}.md").read_text(encoding="utf-8")
    visible = [cell for cell in CELL.findall(text)
               if re.search(r"^\s*glue\(", cell, re.M) and not re.search(r":tags:.*remove-(cell|input)", cell)]
    assert not visible, visible
