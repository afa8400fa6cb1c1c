"""The site's style sheet without the rules no page can use (issue 35: every page fast on a phone).

Chapter: *For teachers* (the website on a phone; ``make site-audit`` measures it).

``_ext/lean_pages.py`` bundles a page's thirteen style sheets into one; about
570 kB of it is the themes' (pydata-sphinx-theme alone is 396 kB, most of
it Bootstrap and every Font Awesome icon's class).  A phone parses all of it
before it shows the text and matches every element against it.  This
module keeps a rule's selector only when every class, id and element name
it requires occurs somewhere in the built site -- in a page, or as a word of
a script in ``_static`` (the themes' scripts add classes such as ``show``
at run time) -- and drops the rules left with no selector.  It is
conservative: attribute selectors, pseudo-classes and whatever sits inside
``:not(...)``, ``:is(...)`` or ``:where(...)`` never cause a drop, and
``@font-face``, ``@keyframes`` and any at-rule it does not know are kept as
they are.  A rule can only go when it could never match, so no page looks
different.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import tinycss2

__all__ = ["Vocabulary", "prune_css", "site_vocabulary"]

_TAG = re.compile(r"<([a-zA-Z][\w:-]*)")
_CLASS_ATTR = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_ID_ATTR = re.compile(r"""\sid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_WORD = re.compile(r"[A-Za-z_][\w-]*")
_INLINE_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
_SCRIPT_SRC = re.compile(r"""<script\b[^>]*\ssrc\s*=\s*["']([^"']+)["']""", re.I)
#: the at-rules whose content is rules again, pruned the same way
_GROUPING = {"media", "supports", "layer", "container", "document"}


@dataclass
class Vocabulary:
    """What the site's pages and scripts can put in the document: element names, classes, ids."""

    tags: set = field(default_factory=set)
    classes: set = field(default_factory=set)
    ids: set = field(default_factory=set)

    def add_html(self, text: str) -> None:
        """Add the elements, classes and ids written in an HTML text (a page, or a view it fetches)."""
        self.tags.update(t.lower() for t in _TAG.findall(text))
        for m in _CLASS_ATTR.finditer(text):
            self.classes.update((m.group(1) or m.group(2) or m.group(3) or "").split())
        for m in _ID_ATTR.finditer(text):
            self.ids.add(m.group(1) or m.group(2) or m.group(3) or "")

    def add_script(self, text: str) -> None:
        """Add every word of a script as a possible class, id and element name (a script may add
        any of them)."""
        words = set(_WORD.findall(text))
        self.classes.update(words)
        self.ids.update(words)
        self.tags.update(w.lower() for w in words)


def site_vocabulary(outdir: Path) -> Vocabulary:
    """The vocabulary of a built site: its HTML pages and views, their inline scripts and the
    scripts they load (a script the site ships but no page loads, such as the Font Awesome script
    the icons no longer need, adds nothing)."""
    outdir = Path(outdir)
    vocab, loaded = Vocabulary(), set()
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8", errors="replace")
        vocab.add_html(text)
        for inline in _INLINE_SCRIPT.findall(text):
            vocab.add_script(inline)
        for src in _SCRIPT_SRC.findall(text):
            if "://" not in src:
                loaded.add((page.parent / src.split("?", 1)[0]).resolve())
    for script in sorted(loaded) + sorted(outdir.glob("_images/**/*.js")):   # + explorers' views
        if script.is_file():
            vocab.add_script(script.read_text(encoding="utf-8", errors="replace"))
    return vocab


def _required(selector: str) -> tuple:
    """The classes, ids and element names a (complex) selector needs in the document to match."""
    s = re.sub(r"\[[^\]]*\]", " ", selector)                      # attribute selectors: never required
    while True:                                                   # functional pseudo-classes, nested
        t = re.sub(r"::?[\w-]+\([^()]*\)", "", s)
        if t == s:
            break
        s = t
    s = re.sub(r"::?[\w-]+", "", s)                               # pseudo-classes and pseudo-elements
    classes = set(re.findall(r"\.(-?[_a-zA-Z][\w-]*)", s))
    ids = set(re.findall(r"#(-?[_a-zA-Z][\w-]*)", s))
    tags = {t.lower() for t in re.findall(r"(?:^|[\s>+~])([a-zA-Z][\w-]*)", s)}
    return classes, ids, tags


def _can_match(selector: str, vocab: Vocabulary) -> bool:
    if "\\" in selector:
        return True                                               # escaped names: keep, never guess
    classes, ids, tags = _required(selector)
    return classes <= vocab.classes and ids <= vocab.ids and tags <= vocab.tags


def _split_selectors(prelude: str) -> list:
    """Split a selector list at its top-level commas (not those inside ``:is(a, b)``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return [p.strip() for p in parts if p.strip()]


def _prune_rules(rules: list, vocab: Vocabulary) -> str:
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = [s for s in _split_selectors(tinycss2.serialize(rule.prelude)) if _can_match(s, vocab)]
            if kept:
                out.append(",".join(kept) + "{" + tinycss2.serialize(rule.content) + "}")
        elif rule.type == "at-rule" and rule.lower_at_keyword in _GROUPING and rule.content is not None:
            inner = _prune_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                          skip_whitespace=True), vocab)
            if inner:
                out.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{inner}}}")
        elif rule.type in ("at-rule",):
            out.append(tinycss2.serialize([rule]))
        # comments, whitespace and parse errors are dropped (a parse error was ignored by browsers too)
    return "\n".join(out)


def prune_css(css: str, vocab: Vocabulary) -> str:
    """``css`` with every selector removed that needs a class, id or element the site never has.

    >>> v = Vocabulary({"p", "div"}, {"note"}, set())
    >>> prune_css(".note p{color:red}.warning{color:blue}@media print{.warning{x:y}}", v)
    '.note p{color:red}'
    """
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return _prune_rules(rules, vocab)
