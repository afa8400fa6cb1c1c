"""Sphinx extension: tables of the book's chapters and exercises, read from the sources.

Chapter: *For teachers*.

Two directives for the "For teachers" page, so its lists never drift from
the chapters:

``{book-chapters}``
    One row per chapter of ``_toc.yml`` (in reading order): title (linked),
    Binder and Colab links (to ``notebooks/<stem>.ipynb``, repository from
    ``_config.yml``), the number of exercises and a rough class time
    (reading at 150 words a minute plus 10 minutes per exercise).
``{book-exercises}``
    One row per exercise: chapter, exercise (linked), what it practises and
    the checker a student calls.  What it practises is the exercise's title
    (the words after the directive name, as in ``{exercise} Counting
    unbounded neighbours``); an exercise without a title falls back to the
    ``##`` heading above it.

The page is re-read whenever a chapter or ``_toc.yml`` changes.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from booktoc import toc_files

EX_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{exercise\}(?P<title>.*)$")
CODE_CELL = re.compile(r"^(`{3,})\{code-cell\}.*?^\1[ \t]*$", re.M | re.S)
FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)
CHECK = re.compile(r"\bcheck_\w+")


def chapter_info(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    body = FRONT.sub("", text)
    prose = CODE_CELL.sub("", body)
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
        label, j = None, i + 1
        while j < len(lines) and lines[j].strip() != m.group("fence"):
            lm = re.match(r"^:label:\s*(\S+)", lines[j])
            label = label or (lm.group(1) if lm else None)
            j += 1
        rest = "\n".join(lines[i:j + 40])
        check = CHECK.search(rest)
        practises = m.group("title").strip() or heading
        exercises.append({"label": label, "practises": practises, "checker": check.group(0) if check else ""})
    return {"title": title, "words": words, "exercises": exercises}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


class _Table(SphinxDirective):
    has_content = False

    def _chapters(self):
        srcdir = Path(self.env.srcdir)
        self.env.note_dependency(str(srcdir / "_toc.yml"))
        out = []
        for f in toc_files(srcdir):
            path = srcdir / f"{f}.md"
            if not path.exists() or path.stem == Path(self.env.docname).name:
                continue
            self.env.note_dependency(str(path))
            front = FRONT.match(path.read_text(encoding="utf-8"))
            if not front or "kernelspec" not in front.group(0):
                continue  # not a chapter notebook (e.g. the references)
            out.append((f, path.stem, chapter_info(path)))
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
        lines = ["| Chapter | Run it | Exercises | Rough class time |", "| --- | --- | --- | --- |"]
        for doc, stem, info in self._chapters():
            n = len(info["exercises"])
            if (srcdir / "notebooks" / f"{stem}.ipynb").exists() and url:
                nb = f"notebooks/{stem}.ipynb"
                run = (f"[Binder](https://mybinder.org/v2/gh/{org_repo}/{branch}?urlpath=tree/{nb}) · "
                       f"[Colab](https://colab.research.google.com/github/{org_repo}/blob/{branch}/{nb})")
            else:
                run = "–"
            minutes = f"{5 * math.ceil((info['words'] / 150 + 10 * n) / 5):d} min"
            lines.append(f"| {{doc}}`{_cell(info['title'])} </{doc}>` | {run} | {n} | {minutes} |")
        return self._render(lines)


class BookExercises(_Table):
    def run(self):
        lines = ["| Chapter | Exercise | Practises | Checker (in `ds.exercises`) |", "| --- | --- | --- | --- |"]
        for doc, stem, info in self._chapters():
            for ex in info["exercises"]:
                label = f"{{ref}}`{ex['label']}`" if ex["label"] else "–"
                checker = f"`{ex['checker']}`" if ex["checker"] else "–"
                lines.append(f"| {{doc}}`{_cell(info['title'])} </{doc}>` | {label} | "
                             f"{_cell(ex['practises'])} | {checker} |")
        return self._render(lines)


def setup(app):
    app.add_directive("book-chapters", BookChapters)
    app.add_directive("book-exercises", BookExercises)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
