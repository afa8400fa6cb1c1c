"""Sphinx extension: every page light on a phone and usable with a screen reader (issue 25).

Chapter: *For teachers* (the website on a phone, on slow Wi-Fi and with
assistive technology; ``make site-audit`` measures it with Lighthouse and
``tests/book/test_site.py`` with axe-core).

Once the site is written (``build-finished``), every HTML page is rewritten:

* **Images out of the HTML.**  The figures and the explorers' views reach
  the page as ``data:`` PNGs (the executed notebooks carry them so);
  each becomes a file ``_images/dpsens/<hash>.png``.  A figure's ``<img>``
  gets its ``width`` and ``height`` (no layout shift) and, after the first
  one, ``loading="lazy"``; an explorer's other views are files its script
  fetches only when a control reaches them, so a page loads its text and the
  default view of each explorer, nothing more.  An explorer's HTML views
  (the median grid's tables) likewise become files ``<hash>.html``, fetched
  when a control reaches them, each with a twin ``<hash>.js`` the script
  loads instead from ``file://`` (where browsers refuse ``fetch``); the
  default view stays in the page.  (The single-page build that ``make pdf``
  prints keeps every image eager and every view inline.)
* **Icons without the icon script.**  The theme draws its few icons with
  Font Awesome's 1.5 MB script; each ``<i class="fa-...">`` of the page
  becomes the same icon as inline SVG (its path read from the theme's own
  copy of the script, at build time) and the script is no longer loaded.
* **Maths typeset at build time.**  MathJax 3 in Node (``mathjax-full``,
  pinned in ``_ext/mathjax_render/package.json``; ``npm ci`` the first
  time) turns every formula into MathJax's CHTML, with the formula as MathML
  for screen readers, and each page gets the style sheet of its characters
  (the fonts are the bundled MathJax's): no MathJax runs in the reader's
  browser, nothing moves once the text is shown.  Without Node, and in the
  single-page build that ``make pdf`` prints, MathJax (bundled,
  ``_vendor/``) is loaded ``async`` at the end of the page instead.
* **Accessibility fixes** for what the theme and sphinxcontrib-bibtex write:
  the reference list's ``role="list"`` without list items and the deprecated
  ``doc-biblioentry`` role are removed; a table wider than a phone scrolls
  inside a focusable region with a name, so it can be scrolled from the
  keyboard.
* **No failed request, one round trip less**: the theme's ``theme.css`` only
  ``@import``s Sphinx's ``basic.css`` (a request after a request before the
  text, and axe-core, resolving the import against the page, asked for
  ``/basic.css`` at the site root, a 404); ``basic.css`` is put in its place.
* **Long proofs folded**: a proof the chapter marks ``:class: fold``
  (``{prf:proof}``) keeps its box, but its content is in a closed
  ``<details>`` whose ``<summary>`` names it ("Proof of Theorem 8.1"):
  a closed box's content is neither styled nor laid out until the reader
  opens it (from the keyboard or a screen reader too, as any disclosure;
  the browser's find-in-page opens it on a match, and printing the page
  opens every one).  The single-page build that ``make pdf`` prints keeps
  every proof open.
* **Lazy layout with true placeholders**: every section of a page gets its
  height, measured in headless Chromium once the page is final
  (``_ext/section_heights.py``), as the placeholder that ``legible.css``'s
  ``content-visibility: auto`` shows while the section is off screen.
* **Icon fonts as small subsets**: the admonitions' icons come from Font
  Awesome's fonts (a 157 kB woff2 and others); the glyphs the style sheets
  use are subset (fontTools, which matplotlib already needs) into ``data:``
  fonts of a few kB at the end of ``legible.css``, so no font file is fetched.

Nothing is fetched from another host; the pages still work from ``file://``.
"""
from __future__ import annotations

import base64
import hashlib
import html as htmllib
import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from dpsens.widgets.static_html import SCRIPT

import css_prune  # _ext/, beside this file
import section_heights  # _ext/, beside this file

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

THEME_FA = "scripts/fontawesome.js"
IMG_DIR = Path("_images") / "dpsens"

_DATA_IMG = re.compile(r'<img\b([^>]*?)\ssrc="data:image/png;base64,([A-Za-z0-9+/=]+)"([^>]*)>')
_EXPLORER_DATA = re.compile(r'(<script type="application/json" class="dpsens-explorer-data">)(.*?)(</script>)', re.S)
_EXPLORER_SCRIPT = re.compile(r'<script>\(function\(\)\{\s*var root=document\.getElementById\("([^"]+)"\).*?\}\)\(\);</script>', re.S)
_FA_SCRIPT = re.compile(r'<script[^>]*src="[^"]*fontawesome\.js[^"]*"[^>]*></script>\s*')
_FA_PRELOAD = re.compile(r'<link[^>]*href="[^"]*fontawesome\.js[^"]*"[^>]*>\s*')
_FA_ICON = re.compile(r'<i\b([^>]*?)class="([^"]*\bfa-[^"]*)"([^>]*)>\s*</i>')
_MATHJAX = re.compile(r'<script\b([^>]*)src="([^"]*mathjax/tex-mml-chtml\.js[^"]*)"([^>]*)></script>\s*')
_SCRIPT_SRC = re.compile(r'<script\b([^>]*)\ssrc="([^"]+)"([^>]*)></script>')
_SEARCH_SCRIPTS = re.compile(r'<script\b[^>]*src="[^"]*(searchtools\.js|language_data\.js|searchindex\.js)[^"]*"[^>]*>'
                             r'</script>\s*')
_FA_DEF = re.compile(r'([A-Za-z0-9_$"\-]+):\[(\d+),(\d+),\[[^\]]*\],"[0-9a-f]+",("[^"]*")\]')
_STYLE_PREFIX = {"fa-brands": "fab", "fab": "fab", "fa-regular": "far", "far": "far", "fa-solid": "fas", "fas": "fas"}
_FA_NOT_NAMES = {"fa-brands", "fa-regular", "fa-solid", "fab", "far", "fas", "fa-lg", "fa-fw", "fa-xs", "fa-sm",
                 "fa-2x", "fa-spin", "fa-pull-left", "fa-pull-right"}


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) of a PNG from its header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def font_awesome_icons(script: str) -> dict:
    """``{(prefix, name): (width, height, path)}`` from Font Awesome's ``all.js``-style script.

    The script defines the brands, regular and solid sets one after the other,
    each ending with its registration ``d("fab", ...)``, ``d("far", ...)``,
    ``d("fas", ...)``.
    """
    icons = {}
    bounds = [(m.start(), m.group(1)) for m in re.finditer(r'd\("(fab|far|fas)",', script)]
    start = 0
    for end, prefix in bounds:
        for m in _FA_DEF.finditer(script, start, end):
            name = m.group(1).strip('"')
            icons[(prefix, name)] = (int(m.group(2)), int(m.group(3)), json.loads(m.group(4)))
        start = end
    return icons


_INLINE_CODE = re.compile(r'(<code class="docutils literal notranslate">)(.*?)(</code>)', re.S)


def code_break_points(text: str) -> str:
    """Inline code (``ds.exercises.check_private_join_sensitivity(answer)``) may break after each dot
    and before a call's parenthesis (``<wbr>``), so that on a phone it breaks between names rather than inside one; ``legible.css``
    breaks inside a name only if that name alone is longer than the line.  A dot before a digit
    (``0.5``) is not a break point."""
    def names(m):
        parts = re.split(r"(<[^>]*>)", m.group(2))
        parts = [p if p.startswith("<") else
                 re.sub(r"(?<=[A-Za-z0-9_])\((?=[A-Za-z_])", "<wbr>(", re.sub(r"\.(?=[A-Za-z_])", ".<wbr>", p))
                 for p in parts]
        return m.group(1) + "".join(parts) + m.group(3)
    return _INLINE_CODE.sub(names, text)


_OUTPUT_PRE = re.compile(r'(<div class="output [^"]*">\s*<div class="highlight">\s*)<pre>')
_CODE_PRE = re.compile(r'(<div class="highlight">\s*)<pre>')


def scroll_regions(text: str) -> str:
    """Every box that may scroll sideways on a phone takes the keyboard focus, so it can be scrolled
    without a mouse (axe: scrollable-region-focusable): the tables of cell outputs (pandas, styled
    tables, the sensitivity grids, also inside the explorers' views), the theme's container of a
    prose table (class ``table``), display equations, printed output (a ``<pre>`` that never wraps on a
    phone, named "Cell output") and code (wrapped at spaces only, named "Code").  Marked when the page is built, whatever the screen; a table keeps its role (only ``tabindex`` is added)."""
    text = re.sub(r'<table (?=[^>]*(?:class=(\\?)"(?:dataframe|dpsens-grid-table)\1|id=(\\?)"T_))(?![^>]*tabindex)',
                  lambda m: f'<table tabindex={m.group(1) or m.group(2) or ""}"0{m.group(1) or m.group(2) or ""}" ',
                  text)
    # the theme's scrolling container of a prose table: focusable from the start (the theme's own
    # test, made lazy by lazy_theme_scripts, takes it out of the tab order if it does not scroll)
    text = text.replace('<div class="pst-scrollable-table-container">',
                        '<div class="pst-scrollable-table-container" tabindex="0">')
    # printed output never wraps (legible.css): a block wider than the column scrolls, so it takes the focus,
    # with a name (a role that may have one); the theme's tab-stop test drops it from the tab order if it fits
    text = _OUTPUT_PRE.sub(r'\1<pre tabindex="0" role="group" aria-label="Cell output">', text)
    # code wraps at spaces only: a line with a name longer than the column scrolls, named the same way
    text = _CODE_PRE.sub(r'\1<pre tabindex="0" role="group" aria-label="Code">', text)
    return re.sub(r'(<mjx-container class="MathJax" jax="CHTML" display="true")(?! tabindex)', r'\1 tabindex="0"', text)


_DIV = re.compile(r"<div\b|</div>")
_FOLD = re.compile(r'<div class="(?=[^"]*\bproof\b)(?=[^"]*\bfold\b)[^"]*"[^>]*>')
_STATEMENT = re.compile(r'<div class="proof (?:theorem|lemma|proposition|corollary)\b[^"]*"[^>]*>\s*'
                        r'<p class="admonition-title"><span class="caption-number">([^<]+?)\s*</span>')
#: Opens every folded proof before the page is printed from the browser (a closed box prints closed).
FOLD_PRINT_SCRIPT = ('<script>addEventListener("beforeprint",function(){document.querySelectorAll('
                     '"details.dpsens-fold").forEach(function(d){d.open=true})});</script>\n')


def div_end(text: str, start: int) -> int:
    """The index of the ``</div>`` that closes the ``<div`` at ``start`` (the divs between balanced)."""
    depth = 0
    for m in _DIV.finditer(text, start):
        depth += 1 if m.group(0) == "<div" else -1
        if depth == 0:
            return m.start()
    raise ValueError(f"unclosed <div> at {start}: {text[start:start + 80]!r}")


def _proved(text: str, start: int) -> str | None:
    """The number ("Theorem 8.1") of the statement whose box ends right before ``start``, if any."""
    before = None
    for m in _STATEMENT.finditer(text, 0, start):
        before = m
    if before is None:
        return None
    end = div_end(text, before.start())
    return before.group(1).strip() if text[end + len("</div>"):start].strip() == "" else None


def fold_proofs(text: str) -> str:
    """Each proof marked ``:class: fold`` with its content in a closed ``<details class="dpsens-fold">``,
    its ``<summary>`` "Proof of <the statement right before it>" (or "Proof"); the box itself stays.
    A closed box is not laid out, so a chapter's long proofs cost a phone nothing until opened; pages
    with one get :data:`FOLD_PRINT_SCRIPT`, so that a printed page shows them."""
    out, pos = [], 0
    for m in _FOLD.finditer(text):
        if m.start() < pos or "<details" in text[m.end():m.end() + 40]:
            continue        # inside a proof folded already, or folded by an earlier build
        end = div_end(text, m.start())
        number = _proved(text, m.start())
        label = f"Proof of {number}" if number else "Proof"
        out.append(f'{text[pos:m.end()]}\n<details class="dpsens-fold"><summary>{label}</summary>'
                   f'{text[m.end():end]}</details>\n')
        pos = end
    if not out:
        return text
    out.append(text[pos:])
    text = "".join(out)
    if FOLD_PRINT_SCRIPT not in text:
        text = text.replace("</body>", FOLD_PRINT_SCRIPT + "</body>", 1)
    return text


class Rewriter:
    """Rewrites the pages of one build (see the module docstring)."""

    def __init__(self, outdir: Path, lazy: bool, icons: dict, typeset: set | frozenset = frozenset()) -> None:
        self.outdir, self.lazy, self.icons, self.typeset = Path(outdir), lazy, icons, typeset
        (self.outdir / IMG_DIR).mkdir(parents=True, exist_ok=True)
        self.unknown_icons = set()

    def image_file(self, png: bytes) -> Path:
        name = hashlib.sha1(png).hexdigest()[:20] + ".png"
        path = self.outdir / IMG_DIR / name
        if not path.exists():
            path.write_bytes(png)
        return path

    def url(self, path: Path, page: Path) -> str:
        return Path(os.path.relpath(path, page.parent)).as_posix()

    def page(self, page: Path) -> None:
        text = page.read_text(encoding="utf-8")
        new = self.rewrite(text, page)
        if new != text:
            page.write_text(new, encoding="utf-8")

    def rewrite(self, text: str, page: Path) -> str:
        if self.lazy:
            text = fold_proofs(text)
        text = self.explorer_views(text, page)
        text = self.images(text, page)
        text = self.icons_inline(text)
        text = self.mathjax(text, typeset=page in self.typeset)
        text = self.scripts(text, page)
        text = self.a11y(text)
        return text

    # ---- images -------------------------------------------------------------------
    def images(self, text: str, page: Path) -> str:
        count = [0]

        def swap(m):
            png = base64.b64decode(m.group(2))
            width, height = png_size(png)
            attrs = m.group(1) + m.group(3)
            extra = f' width="{width}" height="{height}"' if " width=" not in attrs else ""
            count[0] += 1
            if self.lazy and count[0] > 1 and "loading=" not in attrs:
                extra += ' loading="lazy"'
            extra += ' decoding="async"'
            return f'<img{m.group(1)} src="{self.url(self.image_file(png), page)}"{extra}{m.group(3)}>'
        return _DATA_IMG.sub(swap, text)

    def fragment_file(self, fragment: str) -> Path:
        """An explorer's HTML view as ``_images/dpsens/<hash>.html`` (what the explorer's script fetches)
        and its twin ``<hash>.js`` (what it loads with a ``<script>`` from ``file://``, where a browser
        refuses ``fetch``), written once; returns the ``.html`` file."""
        fragment = scroll_regions(fragment)
        name = hashlib.sha1(fragment.encode("utf-8")).hexdigest()[:20]
        path = self.outdir / IMG_DIR / f"{name}.html"
        if not path.exists():
            path.write_text(fragment, encoding="utf-8")
            js = f"(window.dpsensFragments=window.dpsensFragments||{{}})[{json.dumps(name)}]={json.dumps(fragment)};\n"
            path.with_suffix(".js").write_text(js, encoding="utf-8")
        return path

    def explorer_views(self, text: str, page: Path) -> str:
        def swap(m):
            data = json.loads(m.group(2))
            for i, src in enumerate(data["sources"]):
                if src.startswith("data:image/png;base64,"):
                    png = base64.b64decode(src.split(",", 1)[1])
                    data["sources"][i] = self.url(self.image_file(png), page)
                elif "<" in src and self.lazy:
                    # an HTML view (the grid tables): a file fetched when a control reaches it; the
                    # default view stays in the page (the script keeps the explorer's box as it is)
                    data["sources"][i] = self.url(self.fragment_file(src), page)
            body = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
            return m.group(1) + body + m.group(3)
        text = _EXPLORER_DATA.sub(swap, text)
        # the explorers' script as the package writes it now (it reads URLs as well as data: URIs),
        # whatever version of the package executed the cached notebook
        return _EXPLORER_SCRIPT.sub(lambda m: "<script>" + SCRIPT.replace("__ID__", m.group(1)) + "</script>", text)

    # ---- icons --------------------------------------------------------------------
    def icons_inline(self, text: str) -> str:
        if not self.icons:
            return text
        text = _FA_SCRIPT.sub("", text)
        text = _FA_PRELOAD.sub("", text)

        def swap(m):
            classes = m.group(2).split()
            prefix = next((_STYLE_PREFIX[c] for c in classes if c in _STYLE_PREFIX), "fas")
            names = [c[3:] for c in classes if c.startswith("fa-") and c not in _FA_NOT_NAMES]
            for name in names:
                for pre in (prefix, "fas", "fab", "far"):
                    if (pre, name) in self.icons:
                        w, h, d = self.icons[(pre, name)]
                        cls = " ".join(["svg-inline--fa"] + [c for c in classes if c not in _STYLE_PREFIX])
                        return (f'<svg class="{cls}" aria-hidden="true" focusable="false" '
                                f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">'
                                f'<path fill="currentColor" d="{d}"></path></svg>')
            self.unknown_icons.add(m.group(2))
            return m.group(0)
        return _FA_ICON.sub(swap, text)

    # ---- maths --------------------------------------------------------------------
    def mathjax(self, text: str, typeset: bool = False) -> str:
        """No MathJax on a page typeset at build time or without maths; elsewhere loaded after the text."""
        m = _MATHJAX.search(text)
        if not m:
            return text
        text = text[:m.start()] + text[m.end():]
        if typeset or not ('class="math' in text or "\\(" in text):
            return text
        tag = f'<script async="async" src="{m.group(2)}"></script>\n'
        return text.replace("</body>", tag + "</body>", 1)

    # ---- scripts ------------------------------------------------------------------
    def scripts(self, text: str, page: Path) -> str:
        """Nothing blocks the text: the search index only on the search page, every script deferred
        (``documentation_options.js``, which inline scripts use at once, is inlined)."""
        if page.name != "search.html":
            text = _SEARCH_SCRIPTS.sub("", text)

        def swap(m):
            attrs = m.group(1) + m.group(3)
            src = m.group(2)
            if "documentation_options.js" in src:
                path = (page.parent / src.split("?", 1)[0]).resolve()
                if path.exists():
                    return "<script>" + path.read_text(encoding="utf-8").replace("</", "<\\/") + "</script>"
            if re.search(r"\b(defer|async)\b", attrs) or "mathjax" in src:
                return m.group(0)
            return f'<script{m.group(1)} defer src="{src}"{m.group(3)}></script>'
        return _SCRIPT_SRC.sub(swap, text)

    # ---- accessibility ------------------------------------------------------------
    def a11y(self, text: str) -> str:
        text = code_break_points(text)
        text = re.sub(r'\srole="doc-biblioentry"', "", text)
        text = re.sub(r'<div role="list" class="citation-list">', '<div class="citation-list">', text)
        text = re.sub(r'(<div class="citation-list")\s+role="list"', r"\1", text)
        return scroll_regions(text)


#: Font Awesome's faces the theme's style sheets use, and the TTF each is subset from.
FA_FACES = [("Font Awesome 6 Free", 900, "fa-solid-900.ttf"), ("Font Awesome 6 Free", 400, "fa-regular-400.ttf"),
            ("Font Awesome 6 Brands", 400, "fa-brands-400.ttf")]


def icon_codepoints(css_files: list) -> set:
    """The private-use code points (Font Awesome icons) the style sheets use outside Font Awesome's own
    ``.fa-*`` classes (the admonitions' icons, the theme's variables ``--pst-icon-*``)."""
    points = set()
    for css in css_files:
        text = Path(css).read_text(encoding="utf-8", errors="replace")
        for selector, body in re.findall(r"([^{}]*)\{([^{}]*)\}", text):
            if ".fa-" in selector or re.search(r"\.fa\b", selector):
                continue   # Font Awesome's own classes: the pages' <i class="fa-..."> are inline SVG now
            points |= {ord(c) for c in body if 0xE000 <= ord(c) <= 0xF8FF}
            points |= {int(h, 16) for h in re.findall(r"\\(f[0-9a-f]{3}|e[0-9a-f]{3})\b", body, re.I)}
    return points


def icon_font_css(outdir: Path) -> str:
    """``@font-face`` rules that replace the theme's icon fonts (157 kB, 118 kB, ... of woff2) by
    subsets holding only the glyphs the style sheets use, inline as ``data:`` URIs (a few kB):
    the admonitions' icons stay, and no font file is fetched."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    static = outdir / "_static"
    points = icon_codepoints([p for p in static.rglob("*.css") if "mathjax" not in str(p)])
    rules = []
    for family, weight, ttf in FA_FACES:
        src = static / "vendor" / "fontawesome" / "webfonts" / ttf
        if not src.exists() or not points:
            continue
        font = TTFont(str(src))
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = []
        sub = subset.Subsetter(options)
        sub.populate(unicodes=sorted(points))
        sub.subset(font)
        import io

        buf = io.BytesIO()
        font.flavor = "woff"
        font.save(buf)
        b64 = base64.b64encode(buf.getvalue()).decode("ascii")
        rules.append(f'@font-face{{font-family:"{family}";font-style:normal;font-weight:{weight};'
                     f'font-display:block;src:url(data:font/woff;base64,{b64}) format("woff")}}')
    return "\n".join(rules)


# --------------------------------------------------------------------------- maths at build time
MATHJAX_NODE = Path(__file__).resolve().parent / "mathjax_render"
_MATH = re.compile(r'(<(span|div) class="math notranslate nohighlight"[^>]*>)(.*?)(</\2>)', re.S)
_MATHJAX_CONFIG = re.compile(r'<script>window\.MathJax = \{.*?\}</script>\s*')
#: MathJax's assistive-MathML style: the MathML is read by screen readers, not shown.
ASSISTIVE_CSS = """mjx-container[jax="CHTML"]{position:relative}
mjx-assistive-mml{position:absolute!important;top:0;left:0;clip:rect(1px,1px,1px,1px);padding:1px 0 0 0!important;
border:0!important;display:block!important;width:auto!important;overflow:hidden!important;user-select:none}
mjx-assistive-mml[display="block"]{width:100%!important}"""


def _tex(inner: str, display: bool) -> str:
    tex = htmllib.unescape(inner).strip()
    pair = ("\\[", "\\]") if display else ("\\(", "\\)")
    if tex.startswith(pair[0]) and tex.endswith(pair[1]):
        tex = tex[2:-2].strip()
    return tex


def mathjax_node_ready() -> bool:
    """Whether Node can typeset (``npm ci`` of the pinned ``mathjax-full`` first, if needed)."""
    if not shutil.which("node"):
        return False
    if not (MATHJAX_NODE / "node_modules" / "mathjax-full").exists():
        if not shutil.which("npm"):
            return False
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=MATHJAX_NODE,
                              capture_output=True, text=True)
        if done.returncode != 0:
            return False
    return True


def _put_typeset(text: str, rendered: list) -> str:
    """``text`` with its formulas not typeset yet replaced, in order, by ``rendered`` (MathJax's output for
    each; None where MathJax failed: that formula is left as it is)."""
    outputs = iter(rendered)

    def swap(m: re.Match) -> str:
        if "<mjx-container" in m.group(3):
            return m.group(0)
        out = next(outputs)
        return m.group(0) if out is None else m.group(1) + out + m.group(4)
    return _MATH.sub(swap, text)


def typeset_pages(outdir: Path, pages: list) -> tuple[set, list]:
    """Typeset the maths of ``pages`` with MathJax in Node: each formula becomes MathJax's CHTML (with
    its MathML for screen readers), each page gets the style sheet of its characters.  Returns the
    pages now free of TeX (they need no MathJax in the browser) and MathJax's error messages."""
    fonts = outdir / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2"
    jobs, texts = [], []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        # (a page written by an earlier build and not rewritten since is typeset already: skipped)
        items = [{"tex": _tex(m.group(3), m.group(2) == "div"), "display": m.group(2) == "div"}
                 for m in _MATH.finditer(text) if "<mjx-container" not in m.group(3)]
        texts.append(text)
        jobs.append({"fontURL": Path(os.path.relpath(fonts, page.parent)).as_posix(), "items": items})
    done = subprocess.run(["node", str(MATHJAX_NODE / "render.js")], input=json.dumps(jobs), capture_output=True,
                          text=True, check=True)
    results = json.loads(done.stdout)
    clean, errors = set(), []
    for page, text, job, result in zip(pages, texts, jobs, results, strict=True):
        if not job["items"]:
            if "dpsens-mathjax-css" in text:
                clean.add(page)
            continue
        text = _put_typeset(text, result["html"])
        errors += [f"{page.name}: {e}" for e in result["errors"]]
        if not result["errors"]:
            clean.add(page)
            text = _MATHJAX_CONFIG.sub("", text)
        style = f'<style id="dpsens-mathjax-css">{result["css"]}\n{ASSISTIVE_CSS}</style>\n'
        text = text.replace("</head>", style + "</head>", 1)
        page.write_text(text, encoding="utf-8")
    return clean, errors


_STYLESHEET = re.compile(r'[ \t]*<link (?=[^>]*rel="stylesheet")(?![^>]*media="print")[^>]*href="([^"]+)"[^>]*/?>\s*')
_SCRIPT_PRELOAD = re.compile(r'[ \t]*<link rel="preload" as="script"[^>]*>\s*')
_CSS_URL = re.compile(r"""url\((['"]?)(?!data:|/|#|https?:)([^'")]+)\1\)""")


def drop_icon_font_faces(outdir: Path) -> None:
    """Remove the theme's ``@font-face`` rules for Font Awesome's font files: the subsets of
    :func:`icon_font_css` take their place, so the browser has no reason to fetch the full fonts."""
    for css in (outdir / "_static" / "styles").glob("*.css"):
        text = css.read_text(encoding="utf-8")
        new = re.sub(r"@font-face\{[^{}]*webfonts/fa-[^{}]*\}", "", text)
        if new != text:
            css.write_text(new, encoding="utf-8")


def rebase_css_urls(css: str, folder: str) -> str:
    """``css`` moved into ``_static`` from ``_static/<folder>``: each relative ``url()`` prefixed with ``folder``."""
    return _CSS_URL.sub(lambda m: f"url({m.group(1)}{folder}/{m.group(2)}{m.group(1)})", css)


class StyleBundles:
    """One style sheet per page instead of thirteen: the page's screen style sheets, in their order,
    concatenated into ``_static/bundle-<hash>.css`` (their ``url()`` rewritten), so the text waits
    for one request, not for the slowest of many; given the site's ``vocabulary``
    (``_ext/css_prune.py``), without the rules no page can use."""

    MANIFEST = "bundles.json"

    def __init__(self, outdir: Path, vocabulary: css_prune.Vocabulary | None = None) -> None:
        self.outdir = outdir
        self.vocabulary = vocabulary
        self.made = {}
        # the bundles of earlier builds, made again from the style sheets as they are now (a page
        # that Sphinx did not write again still links its bundle, which must not go stale)
        manifest = outdir / "_static" / self.MANIFEST
        if manifest.exists():
            for names in json.loads(manifest.read_text(encoding="utf-8")).values():
                files = [outdir / n for n in names]
                if all(f.exists() for f in files):
                    self.bundle(files)

    def save(self) -> None:
        manifest = {p.name: [Path(os.path.relpath(f, self.outdir)).as_posix() for f in key]
                    for key, p in self.made.items()}
        (self.outdir / "_static" / self.MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")

    def bundle(self, files: list) -> Path:
        key = tuple(Path(f) for f in files)
        if key not in self.made:
            parts = []
            for f in files:
                text = f.read_text(encoding="utf-8")
                rel = Path(os.path.relpath(f.parent, self.outdir / "_static")).as_posix()
                if rel != ".":
                    text = rebase_css_urls(text, rel)
                text = re.sub(r"@charset[^;]*;", "", text)
                parts.append(f"/* {f.name} */\n{text}")
            body = "\n".join(parts)
            if self.vocabulary is not None:
                body = css_prune.prune_css(body, self.vocabulary)
            names = "\n".join(Path(os.path.relpath(f, self.outdir)).as_posix() for f in key)
            name = f"bundle-{hashlib.sha1(names.encode()).hexdigest()[:12]}.css"
            (self.outdir / "_static" / name).write_text(body, encoding="utf-8")
            self.made[key] = self.outdir / "_static" / name
        return self.made[key]

    def rewrite(self, text: str, page: Path) -> str:
        head_end = text.find("</head>")
        if head_end < 0:
            return text
        head = text[:head_end]
        links = list(_STYLESHEET.finditer(head))
        files = []
        for m in links:
            f = (page.parent / m.group(1).split("?", 1)[0]).resolve()
            if not f.exists() or "@import" in f.read_text(encoding="utf-8"):
                return text      # something this bundler does not handle: keep the page as it is
            files.append(f)
        if len(files) < 2:
            return text
        url = Path(os.path.relpath(self.bundle(files), page.parent)).as_posix()
        first = links[0]
        new_head = (head[:first.start()] + f'    <link rel="stylesheet" href="{url}" />\n' +
                    _STYLESHEET.sub(lambda m: "", head[first.start():]))
        new_head = _SCRIPT_PRELOAD.sub("", new_head)
        return new_head + text[head_end:]


#: pydata-sphinx-theme's tab stops: on load it reads the size of every code block and output of the
#: page to decide which scroll (a layout of the whole page, 0.7 s of main thread on a phone for the
#: smooth chapter).  The same test, made as each element comes near the screen.
_THEME_TAB_STOPS = ".forEach(e=>{e.tabIndex=e.scrollWidth>e.clientWidth||e.scrollHeight>e.clientHeight?0:-1})"
_LAZY_TAB_STOPS = ".forEach(e=>{window.dpsensTabStops.observe(e)})"
_TAB_STOP_OBSERVER = ("window.dpsensTabStops=new IntersectionObserver(function(es){es.forEach(function(x){"
                      "if(x.isIntersecting){var e=x.target;e.tabIndex=e.scrollWidth>e.clientWidth||"
                      "e.scrollHeight>e.clientHeight?0:-1;}});},{rootMargin:\"400px\"});\n")


#: pydata-sphinx-theme's back-to-top button reads the header's box when the page is parsed, which
#: forces a layout of the whole page before anything is shown (0.3-0.4 s of main thread on a phone
#: for the accuracy chapter); read when the reader first scrolls instead (the header stays put).
_THEME_HEADER_BOX = ('var e=document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
                     'window.addEventListener("scroll",function(){')
_LAZY_HEADER_BOX = ('var e=null;window.addEventListener("scroll",function(){'
                    'e=e||document.getElementsByClassName("bd-header")[0].getBoundingClientRect();')

#: The theme's scripts made lazier: (file under ``_static``, what it says, what it says instead, a
#: preamble).  Each is applied only when its text occurs exactly once (the theme it was written for).
THEME_SCRIPT_PATCHES = (
    ("scripts/pydata-sphinx-theme.js", _THEME_TAB_STOPS, _LAZY_TAB_STOPS, _TAB_STOP_OBSERVER),
    ("scripts/bootstrap.js", _THEME_HEADER_BOX, _LAZY_HEADER_BOX, ""),
)


def lazy_theme_scripts(outdir: Path) -> None:
    """Apply :data:`THEME_SCRIPT_PATCHES`; a script is left as it is if its text is not the one a
    patch was written against (or was patched already)."""
    for name, before, after, preamble in THEME_SCRIPT_PATCHES:
        js = outdir / "_static" / name
        if not js.exists():
            continue
        text = js.read_text(encoding="utf-8")
        if text.count(before) == 1:
            js.write_text(preamble + text.replace(before, after), encoding="utf-8")


def inline_basic_css(outdir: Path) -> None:
    """The theme's ``styles/theme.css`` only ``@import``s ``../basic.css``: put Sphinx's ``basic.css`` in its
    place.  One round trip less before the text, and no request for ``/basic.css`` at the site root
    (axe-core resolves an ``@import`` against the page when it reads the style sheets)."""
    theme, basic = outdir / "_static" / "styles" / "theme.css", outdir / "_static" / "basic.css"
    if not (theme.exists() and basic.exists()):
        return
    text = theme.read_text(encoding="utf-8")
    if '@import "../basic.css";' in text:
        body = re.sub(r"url\((['\"]?)(?!data:|/|https?:)", r"url(\1../", basic.read_text(encoding="utf-8"))
        theme.write_text(text.replace('@import "../basic.css";', body), encoding="utf-8")


def _typeset(app: Sphinx, outdir: Path, pages: list) -> set:
    """The pages typeset at build time (none in the single-page build, or without Node)."""
    if app.builder.name == "singlehtml":   # the printed edition keeps MathJax in the browser (tools/make_pdf.py)
        return set()
    if not mathjax_node_ready():
        logger.info("lean_pages: no node/npm, so the maths is typeset in the browser (MathJax loaded after the text)")
        return set()
    typeset, errors = typeset_pages(outdir, pages)
    for e in errors:
        logger.warning(f"lean_pages: MathJax could not typeset {e}")
    return typeset


def _legible_css(app: Sphinx, outdir: Path) -> None:
    """``_static/legible.css`` afresh from the source, with the icon subsets appended."""
    legible = outdir / "_static" / "legible.css"
    source = Path(app.srcdir) / "_static" / "legible.css"
    if source.exists():
        # the book's own style sheet afresh: a build in which no page changed does not copy the
        # static files again, and the copy in _build carries the icon subsets appended below
        shutil.copyfile(source, legible)
    if legible.exists() and "dpsens icon subsets" not in legible.read_text(encoding="utf-8"):
        with legible.open("a", encoding="utf-8") as f:
            f.write("\n/* dpsens icon subsets (_ext/lean_pages.py) */\n" + icon_font_css(outdir) + "\n")


def _finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    fa = outdir / "_static" / THEME_FA
    icons = font_awesome_icons(fa.read_text(encoding="utf-8")) if fa.exists() else {}
    pages = sorted(outdir.rglob("*.html"))
    typeset = _typeset(app, outdir, pages)
    rewriter = Rewriter(outdir, lazy=app.builder.name != "singlehtml", icons=icons, typeset=typeset)
    for page in pages:
        rewriter.page(page)
    inline_basic_css(outdir)
    drop_icon_font_faces(outdir)
    lazy_theme_scripts(outdir)
    _legible_css(app, outdir)
    bundles = StyleBundles(outdir, css_prune.site_vocabulary(outdir))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        new = bundles.rewrite(text, page)
        if new != text:
            page.write_text(new, encoding="utf-8")
    bundles.save()
    if app.builder.name == "html":
        # last: the placeholders are measured on the pages as they are served (their HTML and style sheet)
        section_heights.annotate(outdir, pages, log=logger.info)
    if rewriter.unknown_icons:
        logger.warning(f"lean_pages: icons not found in Font Awesome: {rewriter.unknown_icons}")


def setup(app: Sphinx) -> dict:
    # late: after the theme writes its pygments.css (pydata-sphinx-theme, also at build-finished)
    app.connect("build-finished", _finished, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
