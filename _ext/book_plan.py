"""Sphinx extension: the teachers' tables and syllabus, computed from the chapter sources.

Chapter: *For teachers* (and *Syllabus*).

Directives for the back-matter pages, so what they say never drifts from
the chapters:

``{book-chapters}``
    One row per chapter of ``_toc.yml`` (in reading order): title (linked),
    Binder and Colab links (to ``notebooks/<stem>.ipynb``, repository from
    ``_config.yml``), the number of exercises (proofs among them) and the
    estimated time (see ``RATES``).
``{book-exercises}``
    One row per exercise: chapter, its number "C.K" (chapter C's K-th exercise: the "Exercise C.K" of
    the chapter's page, the PDF, its notebook, its handout and its nbgrader ids -- one numbering,
    ``booktoc.item_number``), exercise (linked), what it practises and
    the checker a student calls, or *proof* for a proof exercise (one with
    ``:class: proof-exercise``, with a worked solution but no checker).  What it
    practises is the exercise's title (the words after the directive name,
    as in ``{exercise} Counting unbounded neighbours``); an exercise without
    a title falls back to the ``##`` heading above it.
``{book-objectives}``
    Each chapter's learning objectives: the items of the ``{admonition}
    Learning objectives`` box (``:class: learning-objectives``) at its top.
``{book-time}``
    The rates, and the counts and minutes they give for each chapter.
``{book-syllabus}``
    One-, two-, four-, eight- and twelve-week plans (``PLANS``; grading weights of
    the longer ones in ``WEIGHTS``): the chapters split, in
    order, into sessions of balanced length (``partition``); in class the
    reading, the code and every exercise but the last numeric one; the last
    numeric exercise and the proofs are the homework.

The pages are re-read whenever a chapter or ``_toc.yml`` changes.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from booktoc import chapter_numbers, item_number, toc_files

EX_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{exercise\}(?P<title>.*)$")
CODE_CELL = re.compile(r"^(`{3,})\{code-cell\}.*?^\1[ \t]*$", re.M | re.S)
FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)
CHECK = re.compile(r"\bcheck_\w+")
SOLUTION_BLOCK = re.compile(r"^(`{3,}|:{3,})\{solution-start\}.*?^(`{3,}|:{3,})\{solution-end\}", re.M | re.S)
HIDDEN = re.compile(r"^:tags:.*\b(remove-cell|solution)\b", re.M)

#: Minutes a careful first reading takes, per unit.  Calibrated on the book
#: before its proof exercises (23,500 words, 208 visible code cells, 32
#: numeric exercises): 150 words a minute for technical prose with maths,
#: one minute to read, run and look at the output of each visible code cell,
#: ten minutes per numeric exercise (with its checker, 8-15 minutes) give
#: 11.4 hours, near the "about 12 hours" a careful reading with the code and
#: exercises takes; the old estimate (prose and exercises only) said 8.4.
#: A short proof takes about twice a numeric exercise.
RATES = {"words_per_minute": 150, "code_cell": 1.0, "exercise": 10.0, "proof": 20.0}

#: The syllabus's plans: (name, weeks, sessions in all).
PLANS = [("One week (intensive)", 1, 5), ("Two weeks", 2, 6), ("Four weeks", 4, 8),
         ("Eight weeks", 8, 8), ("Twelve weeks (a semester module)", 12, 12)]

#: Suggested grading weights of the longer plans (issue 31): the automatically graded answers
#: (tools/grade.py, one point each), the proofs (by hand, with the rubric) and a final piece of work.
WEIGHTS = {
    "Eight weeks": "answers graded by `make grade` 30 %, proofs (rubric, by hand) 40 %, a final "
                   "written exam on the proofs and the choice of a mechanism 30 %",
    "Twelve weeks (a semester module)": "answers graded by `make grade` 25 %, proofs (rubric, by hand) "
                                        "35 %, a project (a sensitivity analysis of a real query, with its "
                                        "proof, in a notebook) 20 %, a final exam 20 %",
}


def chapter_info(path: Path, chapter: int | None = None) -> dict:
    """Title, prose words, visible code cells and exercises of one MyST chapter.

    ``chapter`` is the chapter's number (``booktoc.chapter_numbers``; None for an unnumbered
    page): an exercise's ``number`` is the "C.K" the book shows (``booktoc.item_number``), None
    for an exercise marked ``:nonumber:``.

    Words are counted in the prose only (code cells removed, the worked
    solutions included: a reader reads them after trying).  Code cells count
    when a reader sees them: not tagged ``remove-cell`` and not a worked
    solution (those belong to the exercise's time).
    """
    text = path.read_text(encoding="utf-8")
    body = FRONT.sub("", text)
    prose = CODE_CELL.sub("", body)
    outside_solutions = SOLUTION_BLOCK.sub("", body)
    cells = [m.group(0) for m in CODE_CELL.finditer(outside_solutions)]
    code_cells = sum(1 for c in cells if not HIDDEN.search(c))
    title = next((line[2:].strip() for line in body.splitlines() if line.startswith("# ")), path.stem)
    words = len(re.findall(r"\w+", prose))
    exercises, heading = [], title
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("## "):
            heading = line[3:].strip()
        m = EX_OPEN.match(line)
        if not m:
            continue
        label, proof, numbered, j = None, False, True, i + 1
        while j < len(lines) and lines[j].strip() != m.group("fence"):
            lm = re.match(r"^:label:\s*(\S+)", lines[j])
            label = label or (lm.group(1) if lm else None)
            proof = proof or bool(re.match(r"^:class:.*\bproof-exercise\b", lines[j]))
            numbered = numbered and not re.match(r"^:nonumber:", lines[j])
            j += 1
        rest = "\n".join(lines[i:j + 40])
        check = None if proof else CHECK.search(rest)
        practises = m.group("title").strip() or heading
        number = item_number(chapter, sum(1 for ex in exercises if ex["number"]) + 1) if numbered else None
        exercises.append({"label": label, "practises": practises, "proof": proof, "number": number,
                          "checker": check.group(0) if check else ""})
    return {"title": title, "words": words, "code_cells": code_cells, "exercises": exercises}


OBJECTIVES = re.compile(r"^(`{3,}|:{3,})\{admonition\} Learning objectives\n(.*?)^\1[ \t]*$", re.M | re.S)


def objectives(path: Path) -> list[str]:
    """The learning objectives listed at the top of a chapter (empty when it has none)."""
    m = OBJECTIVES.search(path.read_text(encoding="utf-8"))
    if not m:
        return []
    return [line[2:].strip().rstrip(";.") for line in m.group(2).splitlines() if line.startswith("- ")]


def minutes(info: dict, rates: dict = RATES) -> dict:
    """Minutes of reading, code, numeric exercises and proofs of a chapter, and their total."""
    n_proofs = sum(ex["proof"] for ex in info["exercises"])
    out = {"reading": info["words"] / rates["words_per_minute"],
           "code": info["code_cells"] * rates["code_cell"],
           "exercises": (len(info["exercises"]) - n_proofs) * rates["exercise"],
           "proofs": n_proofs * rates["proof"]}
    out["total"] = sum(out.values())
    return out


def split_work(info: dict, rates: dict = RATES) -> tuple[float, list[dict], list[dict]]:
    """(class minutes, exercises done in class, homework) for a chapter.

    In class: the reading, the code and every numeric exercise but the last
    (the hardest: each chapter's exercises go from easy to hard).  Homework:
    the last numeric exercise and every proof.
    """
    numeric = [ex for ex in info["exercises"] if not ex["proof"]]
    in_class, homework = numeric[:-1], numeric[-1:] + [ex for ex in info["exercises"] if ex["proof"]]
    m = minutes(info, rates)
    return m["reading"] + m["code"] + len(in_class) * rates["exercise"], in_class, homework


def partition(times: list[float], k: int) -> list[list[int]]:
    """Split ``times`` (in order) into at most ``k`` contiguous groups with the smallest largest sum.

    Returns the groups as lists of indices; exact (dynamic programming over
    the split points), ties broken towards earlier splits.
    """
    if k < 1:
        raise ValueError(f"k must be a positive number of groups, got {k!r}")
    n = len(times)
    k = min(k, n)
    if n == 0:
        return []
    prefix = [0.0]
    for t in times:
        prefix.append(prefix[-1] + t)
    # best[j][i]: smallest largest sum splitting the first i items into j groups
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(k + 1)]
    cut = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0.0
    for j in range(1, k + 1):
        for i in range(1, n + 1):
            for s in range(j - 1, i):
                v = max(best[j - 1][s], prefix[i] - prefix[s])
                if v < best[j][i] - 1e-12:
                    best[j][i], cut[j][i] = v, s
    groups, i = [], n
    for j in range(k, 0, -1):
        s = cut[j][i]
        groups.append(list(range(s, i)))
        i = s
    return [g for g in reversed(groups) if g]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _hm(m: float) -> str:
    """Minutes as '2 h 35 min' (rounded up to 5 minutes)."""
    m = 5 * math.ceil(m / 5 - 1e-9)
    return f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


def _ex(ex: dict) -> str:
    """An exercise as the syllabus names it: "Exercise C.K" (as on the chapter's page, in the PDF, the
    notebooks and the handouts), linked to it."""
    name = f"Exercise {ex['number']}" if ex.get("number") else _cell(ex["practises"])
    ref = f"{{ref}}`{name} <{ex['label']}>`" if ex["label"] else name
    return ref + (" (proof)" if ex["proof"] else "")


def book_chapters(srcdir: Path) -> list[tuple[str, str, dict]]:
    """``(document, stem, chapter_info)`` of every chapter notebook of ``srcdir/_toc.yml``, in order,
    each exercise numbered as the book numbers it (``booktoc.chapter_numbers``)."""
    numbers = chapter_numbers(srcdir)
    out = []
    for f in toc_files(srcdir):
        path = srcdir / f"{f}.md"
        if not path.exists():
            continue
        front = FRONT.match(path.read_text(encoding="utf-8"))
        if not front or "kernelspec" not in front.group(0):
            continue  # not a chapter notebook (e.g. the references)
        out.append((f, path.stem, chapter_info(path, numbers.get(f))))
    return out


class _Table(SphinxDirective):
    has_content = False

    def _chapters(self):
        srcdir = Path(self.env.srcdir)
        self.env.note_dependency(str(srcdir / "_toc.yml"))
        out = []
        for f, stem, info in book_chapters(srcdir):
            if stem == Path(self.env.docname).name:
                continue
            self.env.note_dependency(str(srcdir / f"{f}.md"))
            out.append((f, stem, info))
        return out

    def _render(self, lines: list[str]) -> list[nodes.Node]:
        container = nodes.container(classes=["book-plan"])
        self.state.nested_parse(StringList(lines, source=self.env.docname), self.content_offset, container)
        return [container]


class BookChapters(_Table):
    def run(self):
        opts = self.config.html_theme_options or {}
        url = (opts.get("repository_url") or "").rstrip("/")
        branch = opts.get("repository_branch") or "main"
        org_repo = url.split("github.com/", 1)[-1]
        srcdir = Path(self.env.srcdir)
        lines = ["| Chapter | Run it | Exercises (proofs) | Time |", "| --- | --- | --- | --- |"]
        for doc, stem, info in self._chapters():
            n = len(info["exercises"])
            n_proofs = sum(ex["proof"] for ex in info["exercises"])
            if (srcdir / "notebooks" / f"{stem}.ipynb").exists() and url:
                nb = f"notebooks/{stem}.ipynb"
                run = (f"[Binder](https://mybinder.org/v2/gh/{org_repo}/{branch}?urlpath=tree/{nb}) · "
                       f"[Colab](https://colab.research.google.com/github/{org_repo}/blob/{branch}/{nb})")
            else:
                run = "–"
            count = f"{n} ({n_proofs})" if n_proofs else f"{n}"
            lines.append(f"| {{doc}}`{_cell(info['title'])} </{doc}>` | {run} | {count} | "
                         f"{_hm(minutes(info)['total'])} |")
        return self._render(lines)


def exercise_table(chapters: list[tuple[str, str, dict]]) -> list[str]:
    """The teachers' table of exercises (``{book-exercises}``): one row per exercise, its number "C.K"."""
    lines = ["| Chapter | No. | Exercise | Practises | Checker (in `ds.exercises`) |",
             "| --- | ---: | --- | --- | --- |"]
    for doc, _stem, info in chapters:
        for ex in info["exercises"]:
            label = f"{{ref}}`{ex['label']}`" if ex["label"] else "–"
            checker = ("proof (no checker)" if ex["proof"]
                       else f"`{ex['checker']}`" if ex["checker"] else "–")
            lines.append(f"| {{doc}}`{_cell(info['title'])} </{doc}>` | {ex['number'] or '–'} | {label} | "
                         f"{_cell(ex['practises'])} | {checker} |")
    return lines


class BookExercises(_Table):
    def run(self):
        return self._render(exercise_table(self._chapters()))


class BookObjectives(_Table):
    def run(self):
        srcdir = Path(self.env.srcdir)
        lines = []
        for doc, _stem, info in self._chapters():
            items = objectives(srcdir / f"{doc}.md")
            if items:
                lines += [f"**{{doc}}`{_cell(info['title'])} </{doc}>`**: " + "; ".join(items) + ".", ""]
        return self._render(lines)


class BookTime(_Table):
    def run(self):
        r = RATES
        lines = [f"Rates: **{r['words_per_minute']} words a minute** of prose (solutions included), "
                 f"**{r['code_cell']:g} minute per visible code cell** (read, run, look at the output), "
                 f"**{r['exercise']:g} minutes per numeric exercise** and **{r['proof']:g} minutes per "
                 "proof**.", "",
                 "| Chapter | Words | Code cells | Exercises | Proofs | Reading | Code | Exercises "
                 "and proofs | Total |",
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        tot = {"words": 0, "code_cells": 0, "ex": 0, "proofs": 0, "reading": 0.0, "code": 0.0,
               "work": 0.0, "total": 0.0}
        for doc, _stem, info in self._chapters():
            m = minutes(info)
            n_proofs = sum(ex["proof"] for ex in info["exercises"])
            row = {"words": info["words"], "code_cells": info["code_cells"],
                   "ex": len(info["exercises"]) - n_proofs, "proofs": n_proofs, "reading": m["reading"],
                   "code": m["code"], "work": m["exercises"] + m["proofs"], "total": m["total"]}
            for key in tot:
                tot[key] += row[key]
            lines.append(f"| {{doc}}`{_cell(info['title'])} </{doc}>` | {row['words']:,} | "
                         f"{row['code_cells']} | {row['ex']} | {row['proofs']} | {row['reading']:.0f} min | "
                         f"{row['code']:.0f} min | {row['work']:.0f} min | {_hm(row['total'])} |")
        lines.append(f"| **All chapters** | {tot['words']:,} | {tot['code_cells']} | {tot['ex']} | "
                     f"{tot['proofs']} | {tot['reading']:.0f} min | {tot['code']:.0f} min | "
                     f"{tot['work']:.0f} min | **{tot['total'] / 60:.1f} hours** |")
        return self._render(lines)


def syllabus(chapters: list[tuple[str, str, dict]]) -> list[str]:
    """The syllabus's plans (``{book-syllabus}``): sessions, class time, exercises in class, homework."""
    work = [split_work(info) for _, _, info in chapters]
    out = []
    for name, weeks, sessions in PLANS:
        groups = partition([w[0] for w in work], sessions)
        longest = max(sum(work[i][0] for i in g) for g in groups)
        homework = sum(len(work[i][2]) for g in groups for i in g)
        out += [f"**{name}**: {len(groups)} sessions over {weeks} week{'s' * (weeks > 1)}, the "
                f"longest {_hm(longest)} in class; {homework} exercises as homework.", "",
                "| Session | Chapters | Class time | Exercises in class | Homework |",
                "| --- | --- | --- | --- | --- |"]
        for s, g in enumerate(groups, 1):
            docs = ", ".join(f"{{doc}}`{_cell(chapters[i][2]['title'])} </{chapters[i][0]}>`" for i in g)
            in_class = ", ".join(_ex(ex) for i in g for ex in work[i][1]) or "–"
            home = ", ".join(_ex(ex) for i in g for ex in work[i][2]) or "–"
            out.append(f"| {s} | {docs} | {_hm(sum(work[i][0] for i in g))} | {in_class} | {home} |")
        if name in WEIGHTS:
            out += ["", f"Suggested grading weights: {WEIGHTS[name]}."]
        out.append("")
    return out


class BookSyllabus(_Table):
    def run(self):
        return self._render(syllabus(self._chapters()))


def setup(app):
    app.add_directive("book-chapters", BookChapters)
    app.add_directive("book-exercises", BookExercises)
    app.add_directive("book-time", BookTime)
    app.add_directive("book-objectives", BookObjectives)
    app.add_directive("book-syllabus", BookSyllabus)
    return {"version": "1.1", "parallel_read_safe": True, "parallel_write_safe": True}
