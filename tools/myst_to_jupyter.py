"""The one converter from the book's MyST chapters to plain Jupyter notebooks.

Chapter: *For teachers* (how the Binder/Colab copies and the handouts are made).

``tools/make_student.py`` uses it for both kinds of ``.ipynb`` it writes:
the Binder/Colab copies in ``notebooks/`` and the ``make student`` handouts.
Jupyter, JupyterLab and Colab render CommonMark with HTML and ``$...$``
maths, but none of MyST's directives and roles; so every MyST construct in a
Markdown cell is rewritten here as plain Markdown:

* directives (backtick or colon fences) through the table :data:`DIRECTIVES`,
  e.g. ``{exercise}`` -> a quoted block headed "Exercise N (title)",
  ``{prf:definition}`` -> a quoted "Definition N (title)", admonitions ->
  quoted blocks, dropdowns (and ``:class: dropdown``) -> ``<details>``,
  ``{solution-start}`` ... ``{solution-end}`` -> the solution prose in a
  collapsed ``<details>`` block and its code cells collapsed;
* roles through the table :data:`ROLES`: ``{glue:text}`` -> the glued value
  (recorded in ``tests/notebooks/<stem>.ipynb`` by
  ``tools/nbval_notebooks.py record``: the executed build's values, committed,
  so converting needs no kernel), ``{cite}`` -> "(Author, Year)" linked to
  the book's references page -- in a set of notebooks (:attr:`Book.local`)
  to a last cell listing the chapter's references in full, so that no
  citation needs the internet -- ``{ref}``/``{numref}``/``{doc}`` -> links to
  the chapter's notebook in the same folder when it is one of
  :attr:`Book.local` (``<stem>.ipynb#anchor``: the chapters and the
  back-matter pages they link, such as the notation, have notebooks beside
  each other), otherwise to the page of the website (``html.baseurl`` in
  ``_config.yml``), or to no page at all (the text alone) for a page in
  :attr:`Book.unlinked` (the teachers' page, from a student handout);
* a formula spread over several lines inside a quoted block (a theorem,
  proof, exercise or admonition) is put on one line: JupyterLab takes the
  maths out before parsing the quote, and would typeset its "> " markers;
* ``(label)=`` targets -> HTML anchors; ``% comments`` and ``+++`` dropped.

Code cells tagged ``remove-cell`` (the book's hidden plumbing) are dropped
when no later cell uses a name they set, otherwise kept collapsed
(``metadata.jupyter.source_hidden`` for Jupyter, a Colab form for Colab);
``remove-input``/``hide-input`` cells are collapsed the same way.

A directive or role without an entry in the tables raises
:class:`ConversionError` naming it: nothing MyST-only may leak into a
notebook silently (``tests/book/test_student.py`` converts every chapter).
"""
from __future__ import annotations

import ast
import base64
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
from booktoc import chapter_numbers, item_number, toc_files  # noqa: E402  (_toc.yml: pages, numbering)


class ConversionError(ValueError):
    """A MyST construct the converter has no plain-Jupyter rendering for."""


# --------------------------------------------------------------------------- the book
@dataclass
class Target:
    """Where a label points: page stem, the text a ``{ref}`` shows, anchor, number."""
    stem: str
    title: str
    anchor: str | None
    kind: str = "section"
    number: str | None = None               # "4.3": booktoc.item_number


@dataclass
class Book:
    """What a chapter's links and citations need to know about the whole book."""
    base_url: str
    pages: dict[str, str]                   # page path ("chapters/local") -> title
    targets: dict[str, Target]              # label -> target
    citations: dict[str, str]               # bibtex key -> "Author, Year"
    chapters: dict[str, int] = field(default_factory=dict)  # stem -> chapter number (booktoc.chapter_numbers)
    #: Chapters whose notebook sits beside the one being written (the same set, e.g. handouts/):
    #: a link to one of them opens that notebook (``<stem>.ipynb#anchor``), not the website,
    #: so that the links work in a lab without internet.
    local: frozenset[str] = frozenset()
    #: bibtex key -> the full reference as one line of text; in a set of notebooks (:attr:`local`)
    #: a citation links the chapter's own list of references, added as its last cell.
    entries: dict[str, str] = field(default_factory=dict)
    #: Pages a cross-reference names without linking (its text alone): the teachers' page in a student
    #: handout, which links neither the public site (its solutions) nor the student site's stub of it.
    unlinked: frozenset[str] = frozenset()

    def page_url(self, stem_or_path: str, anchor: str | None = None) -> str:
        path = stem_or_path if "/" in stem_or_path else f"chapters/{stem_or_path}"
        return f"{self.base_url}{path}.html" + (f"#{anchor}" if anchor else "")

    def target_url(self, stem_or_path: str, anchor: str | None = None, here: str | None = None) -> str:
        """Where a cross-reference from chapter ``here`` to ``stem_or_path#anchor`` goes.

        A chapter in :attr:`local` is linked as its notebook (``#anchor`` alone within the same
        notebook), any other page as the website's page.
        """
        stem = stem_or_path[len("chapters/"):] if stem_or_path.startswith("chapters/") else stem_or_path
        if "/" not in stem and stem in self.local:
            if stem == here and anchor:
                return f"#{anchor}"
            return f"{stem}.ipynb" + (f"#{anchor}" if anchor else "")
        return self.page_url(stem_or_path, anchor)

    def markdown_link(self, text: str, stem_or_path: str, anchor: str | None = None, here: str | None = None) -> str:
        """``[text](url)`` of a cross-reference (:meth:`target_url`), or ``text`` alone to a page in
        :attr:`unlinked`."""
        stem = stem_or_path.rsplit("/", 1)[-1]
        if stem in self.unlinked:
            return text
        return f"[{text}]({self.target_url(stem_or_path, anchor, here)})"


DIRECTIVE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{(?P<name>[^}\s]+)\}[ \t]*(?P<arg>.*?)\s*$")
PLAIN_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?!\{)")
LABEL = re.compile(r"^\((?P<label>[^()\s]+)\)=\s*$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
ROLE = re.compile(r"(?<![`\w])\{(?P<name>[\w:.-]+)\}`(?P<content>[^`]+)`")
OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?$")
MATH_LABEL = re.compile(r"^(?P<dollars>\$\$)\s*\((?P<label>[^()\s]+)\)\s*$")

PRF_KINDS = {k: k.capitalize() for k in (
    "definition", "theorem", "lemma", "proposition", "corollary", "axiom", "conjecture", "criterion",
    "example", "remark", "property", "observation", "algorithm", "assumption", "notation")}
ADMONITION_TITLES = {"note": "Note", "tip": "Tip", "hint": "Hint", "important": "Important",
                     "warning": "Warning", "caution": "Caution", "attention": "Attention",
                     "danger": "Danger", "error": "Error", "seealso": "See also", "todo": "To do"}


def _fence_end(lines: list[str], start: int, fence: str) -> int:
    """Index of the line closing a fence opened at ``start`` (CommonMark rules)."""
    char, n = fence[0], len(fence)
    close = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{n},}}\s*$")
    for j in range(start + 1, len(lines)):
        if close.match(lines[j]):
            return j
    return len(lines)


def _split_options(body: list[str]) -> tuple[dict, list[str]]:
    """A directive's ``:key: value`` (or ``---`` YAML) options, then its content."""
    options: dict = {}
    if body and body[0].strip() == "---":
        end = next((i for i in range(1, len(body)) if body[i].strip() == "---"), None)
        if end is not None:
            options = yaml.safe_load("\n".join(body[1:end])) or {}
            return options, body[end + 1:]
    i = 0
    while i < len(body) and (m := OPTION.match(body[i].strip())):
        options[m.group("key")] = (m.group("value") or "").strip()
        i += 1
    return options, body[i:]


def _title_after(lines: list[str], i: int) -> tuple[str | None, int]:
    """The heading text (and level) following line ``i`` over blank lines, if any."""
    for line in lines[i + 1:]:
        if not line.strip():
            continue
        m = HEADING.match(line)
        return (m.group("title"), len(m.group("hashes"))) if m else (None, 0)
    return None, 0


def _plain_title(text: str) -> str:
    """A heading or directive title without Markdown emphasis or roles."""
    text = ROLE.sub(lambda m: m.group("content").split("<")[0].strip(), text)
    return re.sub(r"[*_`]", "", text).strip()


def _citation_text(entry) -> str:
    from pybtex.richtext import Text

    def clean(s: str) -> str:
        return Text.from_latex(s).render_as("text")

    people = entry.persons.get("author") or entry.persons.get("editor") or []
    last = [clean(" ".join(p.prelast_names + p.last_names)) for p in people]
    if not last:
        who = clean(entry.fields.get("title", "?"))
    elif len(last) == 1:
        who = last[0]
    elif len(last) == 2:
        who = f"{last[0]} and {last[1]}"
    else:
        who = f"{last[0]} et al."
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


def load_book(root: Path = ROOT) -> Book:
    """Labels, page titles and citations of the book at ``root``."""
    chapters = chapter_numbers(root)
    cfg = yaml.safe_load((root / "_config.yml").read_text())
    base = (cfg.get("html") or {}).get("baseurl")
    if not base:
        raise ConversionError("_config.yml has no html.baseurl: the notebooks' links need the website's address")
    base = base.rstrip("/") + "/"
    pages, targets = {}, {}
    for path in toc_files(root):
        md = root / f"{path}.md"
        if md.exists():
            page_title = _page_targets(md, chapters.get(path), targets)
            pages[path] = page_title or md.stem
    citations, entries = _bibliography(root / "references.bib")
    return Book(base, pages, targets, citations, {p.rsplit("/", 1)[-1]: c for p, c in chapters.items()},
                entries=entries)


def _page_targets(md: Path, chapter, targets: dict) -> str | None:
    """Add the labelled targets of the page ``md`` (chapter number ``chapter``) to ``targets``; its title."""
    stem = md.stem
    lines = md.read_text().split("\n")
    page_title, counters = None, {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if (m := DIRECTIVE.match(line)):
            end = _fence_end(lines, i, m.group("fence"))
            options, _ = _split_options(lines[i + 1:end])
            _directive_target(stem, chapter, m, options, counters, targets)
            i = end + 1
            continue
        if (m := PLAIN_FENCE.match(line)):
            i = _fence_end(lines, i, m.group("fence")) + 1
            continue
        if (m := LABEL.match(line)):
            title, level = _title_after(lines, i)
            top = level == 1 and page_title is None
            targets[m.group("label")] = Target(stem, _plain_title(title or m.group("label")),
                                               None if top else m.group("label"))
        elif (m := HEADING.match(line)) and len(m.group("hashes")) == 1 and page_title is None:
            page_title = _plain_title(m.group("title"))
        i += 1
    return page_title


def _directive_target(stem: str, chapter, m: re.Match, options: dict, counters: dict, targets: dict) -> None:
    """Count the directive ``m`` (an exercise or a proof item, numbered in ``counters``) and add its label,
    if it has one, to ``targets``."""
    name = m.group("name")
    kind = name.split(":")[-1]
    if (name in ("exercise", "exercise-start") or name.startswith("prf:")) and "nonumber" not in options:
        kind = "exercise" if name.startswith("exercise") else kind
        counters[kind] = counters.get(kind, 0) + 1
        if "label" in options:
            number = item_number(chapter, counters[kind])
            word = "Exercise" if kind == "exercise" else PRF_KINDS.get(kind, kind.capitalize())
            title = _plain_title(m.group("arg")) or f"{word} {number}"
            targets[options["label"]] = Target(stem, title, options["label"], kind, number)
    elif "label" in options or "name" in options:
        label = options.get("label") or options.get("name")
        targets[label] = Target(stem, _plain_title(m.group("arg")) or label, label, kind)


def _bibliography(bib: Path) -> tuple[dict, dict]:
    """``(citations, entries)`` of ``references.bib``: each key's short citation and its full entry as text."""
    citations, entries = {}, {}
    if bib.exists():
        from pybtex.database import parse_file
        from pybtex.plugin import find_plugin
        data = parse_file(str(bib))
        for key, entry in data.entries.items():
            citations[key] = _citation_text(entry)
        style = find_plugin("pybtex.style.formatting", "plain")()
        for formatted in style.format_entries(data.entries.values()):
            entries[formatted.key] = " ".join(formatted.text.render_as("text").split())
    return citations, entries


# --------------------------------------------------------------------------- one chapter
@dataclass
class Directive:
    name: str
    arg: str
    options: dict
    body: str          # the raw content, options removed


@dataclass
class Chapter:
    """The conversion state of one chapter."""
    stem: str
    book: Book
    glue: dict[str, dict]                   # glue name -> mime bundle
    counters: dict[str, int] = field(default_factory=dict)
    exercises: dict[str, tuple[str, str]] = field(default_factory=dict)   # label -> (number, title)
    solution: str | None = None             # label of the gated solution being read, across cells
    cited: list[str] = field(default_factory=list)   # bibtex keys cited, in order of first citation
    titled: bool = False                    # the chapter's title (its "# " heading) is written

    def fail(self, what: str) -> ConversionError:
        return ConversionError(
            f"chapters/{self.stem}.md: {what} has no plain-Jupyter rendering; "
            "add one to DIRECTIVES or ROLES in tools/myst_to_jupyter.py")

    def number(self, kind: str) -> str:
        """The next number of ``kind`` in this chapter, as the book shows it ("4.3": booktoc.item_number)."""
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return item_number(self.book.chapters.get(self.stem), self.counters[kind])

    # ---- markdown
    def markdown(self, text: str) -> str:
        """A Markdown cell's MyST text as plain Jupyter Markdown."""
        lines, out, i = text.split("\n"), [], 0
        while i < len(lines):
            line = lines[i]
            if (m := DIRECTIVE.match(line)):
                end = _fence_end(lines, i, m.group("fence"))
                options, body = _split_options(lines[i + 1:end])
                d = Directive(m.group("name"), m.group("arg"), options, "\n".join(body).strip("\n"))
                handler = DIRECTIVES.get(d.name)
                if handler is None:
                    raise self.fail(f"the directive {{{d.name}}}")
                out.append(handler(self, d))
                i = end + 1
                continue
            if (m := PLAIN_FENCE.match(line)):
                end = _fence_end(lines, i, m.group("fence"))
                out.extend(lines[i:end + 1])
                i = end + 1
                continue
            if (m := LABEL.match(line)):
                if out and out[-1].strip():
                    out.append("")   # a block of its own: right after a table, a row of the table in Jupyter
                out.append(f'<a id="{m.group("label")}"></a>')
            elif line.startswith("% ") or line.strip() in ("%", "+++") or line.startswith("+++ "):
                pass  # MyST comment / block break
            elif (m := MATH_LABEL.match(line)):
                out.append(m.group("dollars"))
            elif (m := HEADING.match(line)) and len(m.group("hashes")) == 1 and not self.titled:
                # the chapter's title, with its number as on the website ("# 4. Local sensitivity")
                self.titled = True
                number = self.book.chapters.get(self.stem)
                out.append("# " + (f"{number}. " if number else "") + self.inline(m.group("title")))
            else:
                out.append(self.inline(line))
            i += 1
        return _tidy("\n".join(out))

    def inline(self, text: str) -> str:
        def sub(m):
            handler = ROLES.get(m.group("name"))
            if handler is None:
                raise self.fail(f"the role {{{m.group('name')}}}")
            return handler(self, m.group("name"), m.group("content"))
        return ROLE.sub(sub, text)

    # ---- pieces used by the handlers
    def glued(self, key: str, role: str) -> dict:
        if "::" in key:
            raise self.fail(f"{{{role}}}`{key}` (glue from another document)")
        if key not in self.glue:
            raise ConversionError(
                f"chapters/{self.stem}.md: no recorded value for the glued name {key!r}; run "
                f"`python tools/nbval_notebooks.py record {self.stem}` (it keeps the glued values "
                f"in tests/notebooks/{self.stem}.ipynb)")
        return self.glue[key]

    def link(self, label: str, text: str | None = None) -> str:
        t = self.book.targets.get(label)
        if t is None:
            raise ConversionError(f"chapters/{self.stem}.md: no label {label!r} in the book")
        return self.book.markdown_link(text or t.title, t.stem, t.anchor, self.stem)


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _open_maths(line: str) -> bool:
    """Whether ``line`` leaves a ``$$`` display or a ``$`` formula open (code spans and ``\\$`` aside)."""
    line = re.sub(r"`[^`]*`", "", line.replace("\\$", ""))
    displays = line.count("$$")
    return displays % 2 == 1 or (line.count("$") - 2 * displays) % 2 == 1


def _one_line_maths(text: str) -> str:
    """Every formula spread over several lines put on one line (fenced code left alone).

    JupyterLab (and Jupyter Notebook) take the maths out of a Markdown cell *before* parsing the
    Markdown: in a quoted block, the "> " that starts each line of a multi-line ``$$`` display (or
    of a ``$`` formula broken across lines) would be typeset as part of the formula (issue 35).  On
    one line, the quote's "> " stays outside the maths; MathJax still shows a display as a display.
    TeX reads a line break as a space, and no display of the book holds a ``%`` comment (checked by
    ``tests/book/test_notebook_files.py``).
    """
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        if (m := PLAIN_FENCE.match(line)):
            end = _fence_end(lines, i, m.group("fence"))
            out.extend(lines[i:end + 1])
            i = end + 1
            continue
        if _open_maths(line):
            j = i + 1
            while j < len(lines) and lines[j].strip() and _open_maths("\n".join(lines[i:j + 1])):
                j += 1
            if j < len(lines) and lines[j].strip():
                indent = line[:len(line) - len(line.lstrip())]
                out.append(indent + " ".join(piece.strip() for piece in lines[i:j + 1]))
                i = j + 1
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _quote(text: str) -> str:
    text = _one_line_maths(text)
    return "\n".join(("> " + line) if line.strip() else ">" for line in text.split("\n"))


def _details(summary: str, body: str, open_: bool = False) -> str:
    return (f"<details{' open' if open_ else ''}>\n<summary><b>{summary}</b></summary>\n\n"
            f"{body}\n\n</details>")


def _boxed(ch: Chapter, d: Directive, heading: str) -> str:
    """A quoted block with a bold heading, or a <details> block for ``:class: dropdown``."""
    body = ch.markdown(d.body)
    anchor = f'<a id="{d.options["label"]}"></a>\n\n' if d.options.get("label") else ""
    if "dropdown" in str(d.options.get("class", "")).split():
        return anchor + _details(heading, body)
    return anchor + _quote(f"**{heading}**\n\n{body}" if body else f"**{heading}**")


# --------------------------------------------------------------------------- directives
def _exercise_head(ch: Chapter, d: Directive) -> tuple[str, str]:
    """(anchor, bold heading "Exercise C.K (title)") of an exercise; numbers it unless ``:nonumber:``."""
    n = None if "nonumber" in d.options else ch.number("exercise")
    title = ch.inline(d.arg)
    if d.options.get("label"):
        ch.exercises[d.options["label"]] = (n, _plain_title(d.arg))
    anchor = f'<a id="{d.options["label"]}"></a>\n\n' if d.options.get("label") else ""
    head = "**Exercise" + (f" {n}" if n else "") + (f" ({title})" if title else "") + "**"
    return anchor, head


def d_exercise(ch: Chapter, d: Directive) -> str:
    anchor, head = _exercise_head(ch, d)
    body = ch.markdown(d.body)
    return anchor + _quote(f"{head}\n\n{body}" if body else head)


def d_exercise_start(ch: Chapter, d: Directive) -> str:
    """A gated exercise (``{exercise-start}`` ... ``{exercise-end}``): its heading, then its cells."""
    anchor, head = _exercise_head(ch, d)
    body = ch.markdown(d.body)
    return anchor + (f"{head}\n\n{body}" if body else head)


def _solution_summary(ch: Chapter, label: str) -> str:
    if label not in ch.exercises:
        raise ConversionError(f"chapters/{ch.stem}.md: a solution to {label!r}, which is no exercise above it")
    n, title = ch.exercises[label]
    return "Solution to Exercise" + (f" {n}" if n else "") + (f" ({title})" if title else "")


def d_solution(ch: Chapter, d: Directive) -> str:
    return _details(_solution_summary(ch, d.arg.strip()), ch.markdown(d.body))


def d_solution_start(ch: Chapter, d: Directive) -> str:
    return f"\0SOLUTION-START {d.arg.strip()}\0"   # cells split here by _solution_pieces


def d_solution_end(ch: Chapter, d: Directive) -> str:
    return "\0SOLUTION-END\0"


def d_prf(ch: Chapter, d: Directive) -> str:
    kind = d.name.split(":", 1)[1]
    if kind == "proof":
        body = ch.markdown(d.body)
        text = f"*Proof.* {body} $\\square$" if "\n" not in body else f"*Proof.*\n\n{body}\n\n$\\square$"
        if "dropdown" in str(d.options.get("class", "")).split():
            return _details("Proof", body + "\n\n$\\square$")
        return _quote(text)
    word = PRF_KINDS.get(kind)
    if word is None:
        raise ch.fail(f"the directive {{{d.name}}}")
    heading = f"{word}" + ("" if "nonumber" in d.options else f" {ch.number(kind)}")
    if d.arg:
        heading += f" ({ch.inline(d.arg)})"
    return _boxed(ch, d, heading)


def d_admonition(ch: Chapter, d: Directive) -> str:
    title = ch.inline(d.arg) if d.name == "admonition" else ADMONITION_TITLES[d.name]
    if d.name != "admonition" and d.arg:  # ```{note} text on the first line
        d = Directive(d.name, "", d.options, d.arg + "\n" + d.body)
    return _boxed(ch, d, title or "Note")


def d_dropdown(ch: Chapter, d: Directive) -> str:
    return _details(ch.inline(d.arg) or "Details", ch.markdown(d.body))


def d_math(ch: Chapter, d: Directive) -> str:
    anchor = f'<a id="{d.options["label"]}"></a>\n\n' if d.options.get("label") else ""
    return f"{anchor}$$\n{d.body.strip()}\n$$"


def d_code(ch: Chapter, d: Directive) -> str:
    return f"```{d.arg}\n{d.body}\n```"


def d_figure(ch: Chapter, d: Directive) -> str:
    src = d.arg if re.match(r"^[a-z]+://", d.arg) else f"../chapters/{d.arg}"
    alt = d.options.get("alt", "")
    caption = ch.markdown(d.body)
    text = f"![{alt}]({src})"
    return text + (f"\n\n*{caption}*" if caption and d.name == "figure" else "")


def d_quote(ch: Chapter, d: Directive) -> str:
    head = f"**{ch.inline(d.arg)}**\n\n" if d.arg else ""
    return _quote(head + ch.markdown(d.body))


def d_rubric(ch: Chapter, d: Directive) -> str:
    return f"**{ch.inline(d.arg)}**"


def d_drop(ch: Chapter, d: Directive) -> str:
    return ""


def d_bibliography(ch: Chapter, d: Directive) -> str:
    return f"The references are listed on the book's [References]({ch.book.page_url('references')}) page."


def d_website_table(ch: Chapter, d: Directive) -> str:
    return f"*(A table generated when the website is built: see [this page on the website]({ch.book.page_url(ch.stem)}).)*"


def d_raw(ch: Chapter, d: Directive) -> str:
    if d.arg.strip().lower() not in ("html", "markdown", "md"):
        return ""
    return d.body


def _mime_markdown(bundle: dict) -> str:
    if "text/markdown" in bundle:
        return bundle["text/markdown"]
    for mime in ("image/png", "image/jpeg"):
        if mime in bundle:
            return f'<img src="data:{mime};base64,{bundle[mime].strip()}" alt="figure"/>'
    if "image/svg+xml" in bundle:
        return f'<img src="data:image/svg+xml;base64,{base64.b64encode(bundle["image/svg+xml"].encode()).decode()}"/>'
    if "text/latex" in bundle:
        return bundle["text/latex"]
    if "text/html" in bundle:
        return bundle["text/html"]
    return bundle.get("text/plain", "")


def d_glue(ch: Chapter, d: Directive) -> str:
    value = _mime_markdown(ch.glued(d.arg.strip(), d.name))
    if d.name == "glue:math":
        value = f"$$\n{value.strip('$')}\n$$"
    caption = ch.markdown(d.body)
    return value + (f"\n\n*{caption}*" if caption else "")


DIRECTIVES: dict[str, Callable[[Chapter, Directive], str]] = {
    "exercise": d_exercise,
    "exercise-start": d_exercise_start,
    "exercise-end": d_drop,
    "solution": d_solution,
    "solution-start": d_solution_start,
    "solution-end": d_solution_end,
    **{f"prf:{k}": d_prf for k in [*PRF_KINDS, "proof"]},
    "admonition": d_admonition,
    **{k: d_admonition for k in ADMONITION_TITLES},
    "dropdown": d_dropdown,
    "card": d_quote,
    "math": d_math,
    "code-block": d_code, "code": d_code, "sourcecode": d_code,
    "figure": d_figure, "image": d_figure,
    "epigraph": d_quote, "pull-quote": d_quote, "highlights": d_quote, "sidebar": d_quote,
    "margin": d_quote, "topic": d_quote,
    "rubric": d_rubric,
    "bibliography": d_bibliography,
    "toctree": d_drop, "tableofcontents": d_drop, "index": d_drop,
    # the book's own tables (_ext/book_plan.py), built with the website
    "book-chapters": d_website_table, "book-exercises": d_website_table,
    "book-time": d_website_table, "book-syllabus": d_website_table, "book-objectives": d_website_table,
    "raw": d_raw,
    "glue": d_glue, "glue:any": d_glue, "glue:figure": d_glue, "glue:md": d_glue, "glue:math": d_glue,
}


# --------------------------------------------------------------------------- roles
def r_glue_text(ch: Chapter, name: str, content: str) -> str:
    from myst_nb.core.variables import format_plain_text
    parts = content.rsplit(":", 1)   # as myst-nb reads ``key:format``
    key, fmt = (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "s")
    bundle = ch.glued(key, name)
    if "text/plain" not in bundle:
        raise ConversionError(f"chapters/{ch.stem}.md: the glued {key!r} has no text value")
    return format_plain_text(bundle["text/plain"], fmt)


def r_glue_any(ch: Chapter, name: str, content: str) -> str:
    bundle = ch.glued(content, name)
    if "text/markdown" in bundle or name == "glue:md":
        return bundle.get("text/markdown", bundle.get("text/plain", ""))
    from myst_nb.core.variables import format_plain_text
    return format_plain_text(bundle.get("text/plain", ""), "")


#: The anchor of the list of references a notebook of a set ends with.
REFERENCES_ANCHOR = "chapter-references"


def references_cell(ch: Chapter):
    """The chapter's references in full, sorted by author and year: where its citations link."""
    keys = sorted(ch.cited, key=lambda k: ch.book.citations[k])
    items = "\n".join(f"- {ch.book.citations[k]}: {_escape_markdown(ch.book.entries.get(k, ''))}" for k in keys)
    return nbformat.v4.new_markdown_cell(f'<a id="{REFERENCES_ANCHOR}"></a>\n## References\n\n{items}')


def _escape_markdown(text: str) -> str:
    """A reference as literal Markdown: no emphasis, no maths."""
    return re.sub(r"([\\`*_$<\[\]])", r"\\\1", text)


def r_cite(ch: Chapter, name: str, content: str) -> str:
    keys = [k.strip() for k in content.split(",")]
    missing = [k for k in keys if k not in ch.book.citations]
    if missing:
        raise ConversionError(f"chapters/{ch.stem}.md: {{cite}} of {missing}, not in references.bib")
    if ch.book.local:       # a set of notebooks: the chapter's own references, last cell (no internet needed)
        url = f"#{REFERENCES_ANCHOR}"
        ch.cited += [k for k in keys if k not in ch.cited]
    else:
        url = ch.book.page_url("references")
    texts = [ch.book.citations[k] for k in keys]
    if name in ("cite:t", "cite:ts"):
        return "; ".join(f"[{t.rsplit(', ', 1)[0]} ({t.rsplit(', ', 1)[1]})]({url})" for t in texts)
    return f"([{'; '.join(texts)}]({url}))"


def _text_and_label(content: str) -> tuple[str | None, str]:
    m = re.match(r"^(?P<text>.*?)\s*<(?P<label>[^<>]+)>$", content.strip(), re.S)
    return (m.group("text"), m.group("label")) if m else (None, content.strip())


def r_ref(ch: Chapter, name: str, content: str) -> str:
    text, label = _text_and_label(content)
    return ch.link(label, text)


def r_numref(ch: Chapter, name: str, content: str) -> str:
    text, label = _text_and_label(content)
    t = ch.book.targets.get(label)
    if t is None:
        raise ConversionError(f"chapters/{ch.stem}.md: no label {label!r} in the book")
    word = "Exercise" if t.kind == "exercise" else PRF_KINDS.get(t.kind, t.kind.capitalize())
    numbered = f"{word} {t.number}" if t.number else t.title
    shown = text.replace("%s", str(t.number)).replace("{number}", str(t.number)) if text else numbered
    return ch.book.markdown_link(shown, t.stem, t.anchor, ch.stem)


def r_doc(ch: Chapter, name: str, content: str) -> str:
    text, target = _text_and_label(content)
    path = target.lstrip("/") if target.startswith("/") else f"chapters/{target}"
    path = str(Path(path).with_suffix("")) if path.endswith(".md") else path
    return ch.book.markdown_link(text or ch.book.pages.get(path, target), path, None, ch.stem)


def r_math(ch: Chapter, name: str, content: str) -> str:
    return f"${content}$"


def r_eq(ch: Chapter, name: str, content: str) -> str:
    return f"({content})"


def r_text(ch: Chapter, name: str, content: str) -> str:
    text, _ = _text_and_label(content)
    return text or content


def r_abbr(ch: Chapter, name: str, content: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", content)


def r_code(ch: Chapter, name: str, content: str) -> str:
    return f"`{content}`"


def r_html_tag(tag: str):
    return lambda ch, name, content: f"<{tag}>{content}</{tag}>"


def r_download(ch: Chapter, name: str, content: str) -> str:
    text, target = _text_and_label(content)
    return f"`{text or target}`"


ROLES: dict[str, Callable[[Chapter, str, str], str]] = {
    "glue:text": r_glue_text, "glue": r_glue_any, "glue:any": r_glue_any, "glue:md": r_glue_any,
    "cite": r_cite, "cite:p": r_cite, "cite:ps": r_cite, "cite:t": r_cite, "cite:ts": r_cite,
    "ref": r_ref, "numref": r_numref, "doc": r_doc,
    "math": r_math, "eq": r_eq,
    "term": r_text, "abbr": r_abbr, "code": r_code, "kbd": r_html_tag("kbd"),
    "sub": r_html_tag("sub"), "sup": r_html_tag("sup"), "download": r_download,
    "index": lambda ch, name, content: "",
}


# --------------------------------------------------------------------------- whole notebooks
def _bound_names(tree: ast.AST) -> set[str]:
    """Names a cell binds or changes in place (``df["x"] = ...`` changes ``df``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                while isinstance(t, (ast.Subscript, ast.Attribute)):
                    t = t.value
                if isinstance(t, ast.Name):
                    names.add(t.id)
    return names


def _used_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set(re.findall(r"[A-Za-z_]\w*", source))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _code(source: str) -> str:
    """A cell's Python (IPython magics and shell lines blanked) for ``ast``."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))


def collapse(cell, title: str) -> None:
    """Keep a code cell but fold its code away (JupyterLab/Notebook, and Colab's forms)."""
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    cell.metadata["cellView"] = "form"
    if not cell.source.startswith("# @title") and not cell.source.startswith("#@title"):
        cell.source = f"# @title {title}\n" + cell.source


def convert(nb, stem: str, book: Book, glue: dict[str, dict]):
    """The plain-Jupyter version of chapter notebook ``nb`` (a new object).

    Markdown cells through :meth:`Chapter.markdown`; a gated solution's prose
    in ``<details>`` blocks and its code cells collapsed; ``remove-cell``
    code dropped or collapsed (see the module docstring).
    """
    nb = nbformat.from_dict(nb)
    ch = Chapter(stem, book, glue)
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cells += _markdown_cells(ch, cell)
            continue
        if cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if ch.solution is not None or "solution" in tags:
                label = ch.solution
                collapse(cell, (_solution_summary(ch, label) if label else "Worked solution") + " (code)")
            elif "remove-input" in tags or "hide-input" in tags:
                collapse(cell, "Code that makes the output below")
        cells.append(cell)
    nb.cells = _drop_unused_setup(cells)
    if ch.cited:
        nb.cells.append(references_cell(ch))
    return nb


def _markdown_cells(ch: Chapter, cell) -> list:
    """The Markdown cell ``cell`` converted: one cell per piece between the gated-solution markers."""
    cells = []
    for piece in _solution_pieces(ch, ch.markdown(cell.source)):
        if piece.strip():
            cells.append(nbformat.v4.new_markdown_cell(piece))
            cells[-1].metadata.update({k: v for k, v in cell.metadata.items() if k != "tags"})
    return cells


def _drop_unused_setup(cells: list) -> list:
    """``cells`` without the remove-cell code that no later cell uses a name of (the others collapsed)."""
    kept, used_later = [], set()
    for cell in reversed(cells):
        if cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if "remove-cell" in tags:
                try:
                    bound = _bound_names(ast.parse(_code(cell.source)))
                except SyntaxError:
                    bound = {"?"}
                if not (bound & used_later):
                    continue
                collapse(cell, "Set-up code the chapter hides (run it; no need to read it)")
            used_later |= _used_names(_code(cell.source))
        kept.append(cell)
    return kept[::-1]


def _solution_pieces(ch: Chapter, text: str) -> list[str]:
    """Split a converted Markdown cell at the gated-solution markers; wrap solution prose.

    ``ch.solution`` carries the label of an open ``{solution-start}`` across
    cells (its code cells are collapsed while it is set).
    """
    out = []
    parts = re.split(r"\0(SOLUTION-START [^\0]*|SOLUTION-END)\0", text)
    for k, part in enumerate(parts):
        if k % 2 == 1:
            ch.solution = part.split(" ", 1)[1].strip() if part.startswith("SOLUTION-START") else None
            continue
        part = part.strip("\n")
        if part.strip():
            out.append(_details(_solution_summary(ch, ch.solution), part) if ch.solution else part)
    return out


LEFTOVERS = re.compile(
    r"```\{|:::\{|^:label:|^:class:|^:tags:|\{glue(:\w+)?\}`|\{cite(:\w+)?\}`|\{ref\}`|\{numref\}`|\{doc\}`"
    r"|^\([\w:.-]+\)=\s*$|\{prf:|\{solution-|\{exercise\}|\{code-cell\}|\{[\w:-]+\}`[^`]+`",
    re.MULTILINE)


def leftovers(text: str) -> list[str]:
    """MyST-only syntax left in a Markdown text (outside code spans that quote it)."""
    found = []
    for m in LEFTOVERS.finditer(text):
        start = m.start()
        if start and text[start - 1] == "`" and not m.group(0).startswith("```"):
            continue  # quoted in inline code, e.g. "`{glue:text}`"
        found.append(text[max(0, start - 20):m.end() + 20].replace("\n", " "))
    return found
