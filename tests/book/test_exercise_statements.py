"""Every exercise says the precision its checker accepts (issue 35, item 11).

The sentence is derived from the teacher's key (``tools/answer_key.py``: the
scheme each exercise's answer is bucketed with) by
``tests/book/exercise_precision.py``, so a change of tolerance in the key fails
here until the statement says it.  The schemes' meaning is checked against
the hashing itself (``dpsens.exercises._secret``): 0.5 % is accepted, 1 % is
not, for ``REL3``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import answer_key as ak  # (tools/, on sys.path by conftest)
import exercise_precision as ep  # (tests/)
from dpsens.exercises import _secret

ROOT = Path(__file__).resolve().parents[2]
STEMS = sorted(p.stem for p in (ROOT / "chapters").glob("*.md"))


@pytest.mark.parametrize("stem", STEMS)
def test_each_exercise_states_its_precision(stem):
    text = (ROOT / "chapters" / f"{stem}.md").read_text()
    for e in ep.exercises(text):
        if e["checker"] is None:
            assert "proof-exercise" in e["body"], f"{stem}: exercise {e['title']!r} has neither a checker nor a proof"
            continue
        sentence = f"*Accepted:* {ep.stated_precision(e['checker'], e['call'], ak.REGISTRY)}."
        assert sentence in e["body"], f"{stem}: exercise {e['title']!r} must state: {sentence}"


def test_the_book_has_checked_exercises():
    checked = [e for stem in STEMS for e in ep.exercises((ROOT / "chapters" / f"{stem}.md").read_text())
               if e["checker"]]
    assert len(checked) >= 40


@pytest.mark.parametrize("value", [0.0547, 3.0, 1234.5])
def test_the_stated_tolerances_are_those_the_key_applies(value):
    """What "within 0.5 %" and "within 0.01" promise, on the hashing scheme itself."""
    def accepted(answer, scheme):
        return _secret.token(answer, scheme) in set(_secret.tokens_near(value, scheme))
    assert accepted(value * 1.0049, ak.REL3) and accepted(value * 0.9951, ak.REL3)
    assert not accepted(value * 1.01, ak.REL3) and not accepted(value * 0.99, ak.REL3)
    assert accepted(float(f"{value:.3g}"), ak.REL3)                    # 3 significant figures are enough
    assert accepted(value + 0.0099, ak.abs_(0.01)) and not accepted(value + 0.02, ak.abs_(0.01))
