"""The teachers' tables and the syllabus (``_ext/book_plan.py``): counts, times and plans.

The counts are checked on a small chapter written here, whose words, code
cells and exercises are counted by hand; the session split against brute
force over every way of cutting the chapters; and the book itself for the
proof exercises the syllabus assigns as homework.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
import book_plan as bp  # noqa: E402
from booktoc import toc_files  # noqa: E402

CHAPTER = """---
kernelspec:
  name: python3
---

# A tiny chapter

One two three four five.

```{code-cell} ipython3
x = 1
```

```{code-cell} ipython3
:tags: [remove-cell]
hidden = 2
```

## Counting

```{exercise} Count it
:label: ex-tiny-count

Six seven.
```

```{code-cell} ipython3
answer = ...
ds.exercises.check_tiny(answer)
```

```{solution-start} ex-tiny-count
:class: dropdown
```

Eight nine.

```{code-cell} ipython3
:tags: [solution]
answer = 3
```

```{solution-end}
```

```{exercise} Proof: it is so
:label: ex-tiny-proof
:class: proof-exercise

Ten.
```
"""


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.md"
    path.write_text(CHAPTER)
    return bp.chapter_info(path)


def test_counts_of_a_hand_counted_chapter(tiny):
    # prose words: "A tiny chapter" (3), "One ... five" (5), "Counting" (1), the exercise lines
    # "exercise Count it" + "label ex tiny count" + "Six seven" (3 + 4 + 2), the solution
    # "solution start ex tiny count" + "class dropdown" + "Eight nine" + "solution end" (5 + 2 + 2 + 2),
    # the proof "exercise Proof it is so" + "label ex tiny proof" + "class proof exercise" + "Ten" (5 + 4 + 3 + 1)
    assert tiny["title"] == "A tiny chapter"
    assert tiny["words"] == 3 + 5 + 1 + 9 + 11 + 13
    # visible code cells: `x = 1` and the student's answer cell (not the hidden one, not the solution)
    assert tiny["code_cells"] == 2
    assert [(e["label"], e["proof"], e["checker"]) for e in tiny["exercises"]] == [
        ("ex-tiny-count", False, "check_tiny"), ("ex-tiny-proof", True, "")]


def test_minutes_at_the_stated_rates(tiny):
    rates = {"words_per_minute": 42, "code_cell": 2.0, "exercise": 7.0, "proof": 30.0}
    m = bp.minutes(tiny, rates)
    assert m == {"reading": 1.0, "code": 4.0, "exercises": 7.0, "proofs": 30.0, "total": 42.0}
    class_time, in_class, homework = bp.split_work(tiny, rates)
    # the only numeric exercise is the chapter's last one: homework, with the proof
    assert class_time == 5.0 and in_class == []
    assert [e["label"] for e in homework] == ["ex-tiny-count", "ex-tiny-proof"]


def brute_force_partition(times, k):
    """The smallest largest group sum over every way of cutting ``times`` into at most k groups."""
    n = len(times)
    best = float("inf")
    for j in range(1, min(k, n) + 1):
        for cuts in itertools.combinations(range(1, n), j - 1):
            bounds = (0,) + cuts + (n,)
            best = min(best, max(sum(times[a:b]) for a, b in itertools.pairwise(bounds)))
    return best


@pytest.mark.parametrize("seed", range(30))
def test_partition_is_optimal_against_brute_force(seed):
    import random
    rnd = random.Random(seed)
    times = [rnd.randint(1, 90) for _ in range(rnd.randint(1, 9))]
    k = rnd.randint(1, 6)
    groups = bp.partition(times, k)
    assert [i for g in groups for i in g] == list(range(len(times)))   # in order, each once
    assert 1 <= len(groups) <= k and all(groups)
    assert max(sum(times[i] for i in g) for g in groups) == brute_force_partition(times, k)


def test_partition_rejects_a_bad_number_of_sessions():
    with pytest.raises(ValueError, match="k must be a positive"):
        bp.partition([1, 2], 0)


def chapter_infos():
    out = []
    for doc in toc_files(ROOT):
        path = ROOT / f"{doc}.md"
        front = bp.FRONT.match(path.read_text()) if path.exists() else None
        if front and "kernelspec" in front.group(0):
            out.append((path.stem, bp.chapter_info(path)))
    return out


#: The chapters that must hold a proof exercise: every chapter from *Local sensitivity* on (issue 16).
PROOF_CHAPTERS = ["local", "median_grid", "leak", "ptr", "smooth", "sample_aggregate", "exponential", "vector", "proportions",
                  "transformations", "stability", "composition", "accuracy", "floating"]


@pytest.mark.parametrize("stem", PROOF_CHAPTERS)
def test_chapter_has_a_proof_exercise_with_a_worked_proof(stem):
    path = ROOT / "chapters" / f"{stem}.md"
    info = bp.chapter_info(path)
    proofs = [e for e in info["exercises"] if e["proof"]]
    assert proofs, f"{stem}: no proof exercise"
    text = path.read_text()
    for e in proofs:
        assert e["label"] and e["checker"] == "", f"{stem}: a proof exercise needs a label and no checker"
        assert f"{{solution-start}} {e['label']}" in text, f"{stem}: {e['label']} has no worked solution"


def test_the_syllabus_plans_cover_the_book_in_order():
    work = [bp.split_work(info)[0] for _, info in chapter_infos()]
    for _, _, sessions in bp.PLANS:
        groups = bp.partition(work, sessions)
        assert [i for g in groups for i in g] == list(range(len(work)))
        assert len(groups) == min(sessions, len(work))


def _taught_chapters() -> list[str]:
    """The chapters of ``_toc.yml`` that teach: every part's chapters but the back matter (and not the root)."""
    import yaml
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [Path(c["file"]).stem for part in toc["parts"] if part.get("caption") != "Back matter"
            for c in part["chapters"]]


PREREQUISITES = re.compile(r"^```\{admonition\} What you need first\n:class: prerequisites\n\n(?P<body>.*?)\n```$",
                           re.M | re.S)


@pytest.mark.parametrize("stem", _taught_chapters())
def test_chapter_says_what_you_need_first(stem):
    """Issue 35: below the learning objectives, 2-5 bullets, each linking what the chapter uses from earlier."""
    text = (ROOT / "chapters" / f"{stem}.md").read_text()
    objectives = re.search(r"^```\{admonition\} Learning objectives\n.*?^```\n", text, re.M | re.S)
    assert objectives, f"{stem}: no learning objectives"
    box = PREREQUISITES.match(text, objectives.end() + 1)
    assert box, f"{stem}: no 'What you need first' box (:class: prerequisites) right below the learning objectives"
    items = [line for line in box.group("body").split("\n") if line.startswith("- ")]
    assert 2 <= len(items) <= 5 and len(items) == len(box.group("body").strip().split("\n")), \
        f"{stem}: the box holds 2 to 5 bullet points, one a line"
    unlinked = [item for item in items if not re.search(r"\{(ref|numref|doc)\}`", item)]
    assert not unlinked, f"{stem}: bullets without a link: {unlinked}"
    # {ref} reaches (label)= targets only (a theorem's :label: is sphinx-proof's, unknown to {ref})
    targets = {m for path in (ROOT / "chapters").glob("*.md")
               for m in re.findall(r"^\(([^()\s]+)\)=\s*$", path.read_text(), re.M)}
    labels = [m.group(1) or m.group(2) for item in items
              for m in re.finditer(r"\{ref\}`(?:[^`<]*<([^>]+)>|([^`<]+))`", item)]
    assert labels and not [lab for lab in labels if lab not in targets], f"{stem}: {{ref}} to unknown targets"


def test_the_prerequisites_box_is_a_titled_box_with_links_in_the_handouts():
    import make_student as ms
    text = "\n".join(c.source for c in ms.student_notebook(ms.read_chapter("vector"), "vector").cells)
    box = text[text.index("> **What you need first**"):]
    box = box[:box.index("\n\n")]
    assert box.count("](") >= 4 and "](dp.ipynb#sec-dp-definition)" in box, box
