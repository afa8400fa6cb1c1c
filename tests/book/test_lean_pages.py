"""The page rewriting of ``_ext/lean_pages.py`` (issue 25), on small pages written here.

The built site itself is measured by ``make site-audit`` (Lighthouse, axe-core);
these tests pin what each rewrite does, without a build.
"""
from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[2]
import lean_pages  # noqa: E402

from dpsens import widgets  # noqa: E402


def _png(slope: float) -> bytes:
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, slope])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def _page(tmp_path: Path, body: str) -> Path:
    page = tmp_path / "chapters" / "p.html"
    page.parent.mkdir(parents=True)
    page.write_text(f"<html><head>\n<script src=\"../_static/doctools.js?v=1\"></script>\n"
                    f"<script src=\"../searchindex.js\"></script>\n</head><body>{body}</body></html>")
    return page


def test_figures_become_files_with_their_size_and_only_later_ones_lazy(tmp_path):
    pngs = [_png(1), _png(2)]
    imgs = "".join(f'<img class="dpsens-figure" src="data:image/png;base64,{base64.b64encode(p).decode()}" alt="a">'
                   for p in pngs)
    page = _page(tmp_path, imgs)
    lean_pages.Rewriter(tmp_path, lazy=True, icons={}).page(page)
    text = page.read_text()
    assert "data:image" not in text
    files = sorted((tmp_path / "_images" / "dpsens").glob("*.png"))
    assert sorted(f.read_bytes() for f in files) == sorted(pngs)
    w, h = lean_pages.png_size(pngs[0])
    assert f'width="{w}" height="{h}"' in text
    assert text.count('loading="lazy"') == 1                       # the first figure is not lazy
    assert '<script defer src="../_static/doctools.js?v=1">' in text  # nothing blocks the text
    assert "searchindex.js" not in text                              # the index only on the search page


def test_explorer_views_become_files_the_script_fetches(tmp_path):
    def line(slope):
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.plot([0, 1], [0, slope])
        ax.set(title="line", xlabel="x", ylabel="y")
        return fig
    ex = widgets.explorer(line, {"slope": [1.0, 2.0, 3.0]})
    page = _page(tmp_path, ex.to_html())
    lean_pages.Rewriter(tmp_path, lazy=True, icons={}).page(page)
    text = page.read_text()
    assert "data:image" not in text
    data = json.loads(text.split('class="dpsens-explorer-data">', 1)[1].split("</script>", 1)[0])
    assert all(s.startswith("../_images/dpsens/") and s.endswith(".png") for s in data["sources"])
    assert len(data["sources"]) == 3
    for src in data["sources"]:
        assert (page.parent / src).exists()
    # the shown <img> is the default view's file; the script treats a source as an image unless it
    # holds "<" (inline HTML) or ends in ".html" (an HTML view's file)
    assert f'src="{data["sources"][data["views"]["0"][0]]}"' in text
    assert 'function isHtml(s){return s.indexOf("<")>=0||/\\.html$/.test(s);}' in text


def test_icons_become_inline_svg_and_the_icon_script_goes(tmp_path):
    icons = {("fas", "rocket"): (512, 512, "M0 0L1 1z"), ("fab", "github"): (496, 512, "M2 2z")}
    page = _page(tmp_path, '<script defer src="../_static/scripts/fontawesome.js?digest=x"></script>'
                           '<i class="fas fa-rocket"></i><i class="fab fa-github"></i>')
    lean_pages.Rewriter(tmp_path, lazy=True, icons=icons).page(page)
    text = page.read_text()
    assert "fontawesome.js" not in text and "<i " not in text
    assert text.count('<svg class="svg-inline--fa') == 2 and 'viewBox="0 0 496 512"' in text
    assert 'aria-hidden="true"' in text


def test_font_awesome_sets_are_read_with_their_prefix():
    script = ('x={rocket:[512,512,[],"f135","M1z"]};d("fab",p);'
              'y={file:[384,512,[],"f15b","M2z"]};d("far",p);'
              'z={file:[384,512,[],"f15b","M3z"],rocket:[512,512,[],"f135","M4z"]};d("fas",p)')
    icons = lean_pages.font_awesome_icons(script)
    assert icons[("far", "file")][2] == "M2z" and icons[("fas", "file")][2] == "M3z"
    assert icons[("fab", "rocket")][2] == "M1z" and icons[("fas", "rocket")] == (512, 512, "M4z")


def test_output_tables_take_the_focus_and_keep_their_role():
    html = ('<table border="1" class="dataframe"><tr><td>1</td></tr></table>'
            '<table class="table"><tr><td>2</td></tr></table>'
            '{"s":"<table class=\\"dpsens-grid-table\\" style=\\"x\\">"}')
    out = lean_pages.scroll_regions(html)
    assert '<table tabindex="0" border="1" class="dataframe">' in out
    assert '<table class="table">' in out                            # the prose's table: the theme's container
    assert '<table tabindex=\\"0\\" class=\\"dpsens-grid-table\\"' in out   # inside an explorer's JSON
    assert "role=" not in out


class _Table:
    """An HTML view, as the grid explorer's tables are (anything with ``_repr_html_``)."""

    def __init__(self, n):
        self.n = n

    def _repr_html_(self):
        return f'<table class="dpsens-grid-table"><tr><td>view {self.n}</td></tr></table>'


def test_explorer_html_views_become_fragment_files_except_the_default(tmp_path):
    ex = widgets.explorer(lambda n: _Table(n), {"n": [1, 2, 3]}, alt=lambda n: f"table {n}")
    page = _page(tmp_path, ex.to_html())
    lean_pages.Rewriter(tmp_path, lazy=True, icons={}).page(page)
    text = page.read_text()
    data = json.loads(text.split('class="dpsens-explorer-data">', 1)[1].split("</script>", 1)[0])
    assert len(data["sources"]) == 3
    assert all(s.startswith("../_images/dpsens/") and s.endswith(".html") for s in data["sources"])
    assert "view 2" not in text and "view 3" not in text           # the other views are not in the page
    assert text.count("view 1") == 1                                # the default view: in the page, once
    for n, src in enumerate(data["sources"], start=1):
        fragment = (page.parent / src).read_text()
        assert f"<td>view {n}</td>" in fragment and 'tabindex="0"' in fragment   # scrolls from the keyboard
        # the twin the script loads from file://, where fetch is refused: the same HTML
        name = Path(src).stem
        js = (page.parent / src).with_suffix(".js").read_text()
        prefix = f'(window.dpsensFragments=window.dpsensFragments||{{}})["{name}"]='
        assert js.startswith(prefix) and json.loads(js[len(prefix):].strip().rstrip(";")) == fragment
    assert "fetch(s)" in text and 'location.protocol!=="file:"' in text


def test_the_printed_single_page_keeps_every_html_view_inline(tmp_path):
    ex = widgets.explorer(lambda n: _Table(n), {"n": [1, 2]}, alt=lambda n: f"table {n}")
    page = _page(tmp_path, ex.to_html())
    lean_pages.Rewriter(tmp_path, lazy=False, icons={}).page(page)
    text = page.read_text()
    assert "view 1" in text and "view 2" in text
    assert not list((tmp_path / "_images" / "dpsens").glob("*.html"))


def test_printed_output_takes_the_focus_with_a_name_once():
    """Printed output never wraps on a phone (legible.css), so a block wider than the column scrolls: it is
    focusable, with a role that may carry its name; so is code (it wraps at spaces only); once only."""
    html = ('<div class="cell_input docutils container"><div class="highlight-ipython3 notranslate">'
            '<div class="highlight"><pre><span></span>x = 1</pre></div></div></div>'
            '<div class="cell_output docutils container">\n<div class="output stream highlight-myst-ansi notranslate">'
            '<div class="highlight"><pre><span></span>   a   b\nx  1.0  2.0\n</pre></div></div></div>')
    out = lean_pages.scroll_regions(html)
    assert out.count('<pre tabindex="0" role="group" aria-label="Cell output">') == 1
    assert '<div class="highlight"><pre tabindex="0" role="group" aria-label="Code"><span></span>x = 1' in out
    assert lean_pages.scroll_regions(out) == out


def test_section_placeholders_cover_every_width_between_the_measured_ones():
    """A placeholder is never shorter than a height measured, and covers text that shrinks and images that
    grow between two widths: the tallest height plus the images' growth from the narrowest width."""
    import section_heights as sh

    # (width, section height, images' height): text 900 -> 500 px, images 100 -> 300 px
    samples = [(320, 1000, 100), (575, 800, 300)]
    p = sh.placeholder(samples)
    assert p >= 1000 + 200
    assert p == sh.placeholder(list(reversed(samples)))
    # a section of text only: the tallest (narrowest) height, plus the margin
    assert sh.placeholder([(320, 400, 0), (412, 300, 0)]) == round(400 * (1 + sh.MARGIN[0]) + sh.MARGIN[1])
    rows = {"a": [(w, 100.0, 0.0) for w in sh.PHONE_WIDTHS + sh.WIDE_WIDTHS]}
    assert sh.heights_of(rows) == {"a": (sh.placeholder(rows["a"][:4]), sh.placeholder(rows["a"][4:]))}


def test_section_placeholders_are_written_once_on_unique_sections():
    import section_heights as sh

    text = ('<article class="bd-article"><section id="top"><h1>T</h1>'
            '<section id="one"><h2>1</h2></section><section class="x" id="two"><h2>2</h2></section>'
            '<section id="dup"></section><section id="dup"></section></section></article>')
    out = sh.annotate_text(text, {"one": (700, 300), "two": (900, 400), "dup": (1, 1)})
    assert '<section id="one" style="--dpsens-h-phone:700px;--dpsens-h-wide:300px">' in out
    assert '<section class="x" id="two" style="--dpsens-h-phone:900px;--dpsens-h-wide:400px">' in out
    assert out.count("dpsens-h") == 4                              # an id that is not unique: left laid out
    assert sh.annotate_text(out, {"one": (700, 300), "two": (900, 400)}) == out   # a rebuild changes nothing
    assert sh.strip(out) == text
    assert sh.annotate_text(out, {}) == text                       # not measured: laid out at load


def test_section_heights_are_measured_once_per_page_content(tmp_path, monkeypatch):
    """The heights are kept under a hash of the page and its style sheets: a page is measured again only
    when either changes, and a build without Chromium leaves every section laid out."""
    import section_heights as sh

    out = tmp_path / "html"
    (out / "_static").mkdir(parents=True)
    css = out / "_static" / "bundle.css"
    css.write_text("p{}")
    page = out / "p.html"
    page.write_text('<link rel="stylesheet" href="_static/bundle.css" /><article class="bd-article">'
                    '<section id="t"><section id="s"></section></section></article>')
    calls = []

    def fake(pages):
        calls.append(list(pages))
        return {str(p): {"s": [(w, 50.0, 0.0) for w in sh.PHONE_WIDTHS + sh.WIDE_WIDTHS]} for p in pages}
    monkeypatch.setattr(sh, "measure", fake)
    assert sh.annotate(out, [page], log=lambda m: None) == 1
    assert "--dpsens-h-phone" in page.read_text()
    assert sh.annotate(out, [page], log=lambda m: None) == 0 and len(calls) == 2 and calls[1] == []
    css.write_text("p{margin:0}")
    sh.annotate(out, [page], log=lambda m: None)
    assert calls[2] == [page]
    monkeypatch.setattr(sh, "measure", lambda pages: None)
    css.write_text("p{margin:1px}")
    sh.annotate(out, [page], log=lambda m: None)
    assert "--dpsens-h-phone" not in page.read_text()


def test_inline_code_breaks_between_names_only_once():
    html = ('<p><code class="docutils literal notranslate"><span class="pre">ds.exercises.check_x(answer)</span>'
            '</code> and <code class="docutils literal notranslate"><span class="pre">0.5</span></code></p>')
    out = lean_pages.code_break_points(html)
    assert '<span class="pre">ds.<wbr>exercises.<wbr>check_x<wbr>(answer)</span>' in out
    assert '<span class="pre">0.5</span>' in out
    assert lean_pages.code_break_points(out) == out


# ------------------------------------------------------------------ the style sheet without dead rules
import css_prune  # noqa: E402


def _site(tmp_path: Path) -> Path:
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "theme.js").write_text('el.classList.add("show"); document.createElement("dialog")')
    (tmp_path / "_static" / "unused.js").write_text('x.classList.add("fa-never")')     # shipped, never loaded
    (tmp_path / "p.html").write_text(
        '<html><head><script src="_static/theme.js?v=1"></script></head><body>'
        '<div class="note box" id="top"><p>text</p><mjx-container class="MathJax"></mjx-container></div>'
        '<script>root.classList.toggle("dpsens-open")</script></body></html>')
    return tmp_path


def test_the_vocabulary_is_the_pages_and_the_scripts_they_load(tmp_path):
    v = css_prune.site_vocabulary(_site(tmp_path))
    assert {"note", "box", "MathJax", "show", "dpsens-open"} <= v.classes
    assert {"div", "p", "mjx-container", "dialog"} <= v.tags and "top" in v.ids
    assert "fa-never" not in v.classes                   # a script no page loads adds nothing


def test_pruning_keeps_exactly_the_selectors_the_site_can_match(tmp_path):
    v = css_prune.site_vocabulary(_site(tmp_path))
    css = (".note p, .warning p{color:red}"                     # one selector of two kept
           "#top>.box:hover::before{content:'a'}"               # pseudo-classes never required
           "div:not(.absent) p{margin:0}"                       # nor what :not() names
           "[data-theme=dark] .show{color:#fff}"                # attributes never required; .show added by a script
           ".fa-never{content:'x'}"                             # only in a script no page loads
           "table.note{x:y}"                                    # no <table> on the site
           ".no\\74 e{content:'esc'}"                             # escapes read as CSS reads them: .note
           ".fa-\\31 0{content:'esc'}"                          # .fa-10: no such class
           "@media (max-width: 30em){.warning{x:y}.box{z:w}}"   # grouping rules pruned inside
           "@media print{.warning{x:y}}"                        # and dropped when empty
           "@font-face{font-family:F;src:url(f.woff2)}"         # other at-rules as they are
           "@keyframes spin{from{a:b}to{a:c}}"
           ":root{--c:1}dpsens-unknown{x:y}")
    out = css_prune.prune_css(css, v)
    assert out.split("\n") == [
        ".note p{color:red}", '#top>.box:hover::before{content:"a"}', "div:not(.absent) p{margin:0}",
        "[data-theme=dark] .show{color:#fff}", '.note{content:"esc"}',
        "@media (max-width: 30em){.box{z:w}}", "@font-face{font-family:F;src:url(f.woff2)}",
        "@keyframes spin{from{a:b}to{a:c}}", ":root{--c:1}"]


def test_selector_lists_split_at_top_level_commas_only():
    assert css_prune._split_selectors(":is(.a, .b) p, .c") == [":is(.a, .b) p", ".c"]
    assert css_prune._split_selectors('a[title="x,y"], b') == ['a[title="x,y"]', "b"]


def test_every_theme_script_patch_applies_once_to_the_pinned_theme(tmp_path):
    import pydata_sphinx_theme
    static = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    for name, before, _after, _preamble in lean_pages.THEME_SCRIPT_PATCHES:
        text = (static / name).read_text(encoding="utf-8")
        assert text.count(before) == 1, name
        (tmp_path / "_static" / Path(name).parent).mkdir(parents=True, exist_ok=True)
        (tmp_path / "_static" / name).write_text(text, encoding="utf-8")
    lean_pages.lazy_theme_scripts(tmp_path)
    boot = (tmp_path / "_static" / "scripts" / "bootstrap.js").read_text(encoding="utf-8")
    assert "getBoundingClientRect();window" not in boot            # no layout forced while the page loads
    assert 'e=e||document.getElementsByClassName("bd-header")[0].getBoundingClientRect()' in boot
    lean_pages.lazy_theme_scripts(tmp_path)                         # a second build changes nothing
    assert (tmp_path / "_static" / "scripts" / "bootstrap.js").read_text(encoding="utf-8") == boot


_THEOREM = ('<div class="proof theorem admonition" id="thm-a">\n<p class="admonition-title">'
            '<span class="caption-number">Theorem 8.1 </span> (A statement)</p>\n'
            '<section class="theorem-content" id="proof-content">\n<p>It holds.</p>\n</section>\n</div>')
_FOLDED = ('<div class="proof admonition fold" id="proof">\n<p>Proof. First step.</p>\n'
           '<div class="math notranslate nohighlight">x</div>\n<p>Last step.</p>\n</div>')


def test_a_proof_marked_fold_is_a_closed_box_named_after_its_statement(tmp_path):
    """A proof marked ``:class: fold`` keeps its box; its content, nested boxes included, is in a closed
    ``<details>`` whose summary names the statement right before it; an unmarked proof is left as it is;
    the page opens the boxes before it is printed; a second build changes nothing."""
    plain = '<div class="proof admonition" id="proof">\n<p>Proof. Short.</p>\n</div>'
    lone = '<p>Text.</p>\n<div class="proof admonition fold" id="proof">\n<p>Proof. Alone.</p>\n</div>'
    page = _page(tmp_path, _THEOREM + _FOLDED + "<p>After.</p>" + plain + lone)
    lean_pages.Rewriter(tmp_path, lazy=True, icons={}).page(page)
    text = page.read_text()
    assert text.count('<details class="dpsens-fold">') == 2
    first = text.index('<div class="proof admonition fold" id="proof">')
    assert text[first:].startswith('<div class="proof admonition fold" id="proof">\n<details class="dpsens-fold">'
                                   '<summary>Proof of Theorem 8.1</summary>\n<p>Proof. First step.</p>')
    # the whole content inside, nested div included; the box closes after the details
    body = text[first:text.index("<p>After.</p>")]
    assert "<p>Last step.</p>\n</details>\n</div>" in body and "x</div>" in body
    assert "<summary>Proof</summary>\n<p>Proof. Alone.</p>" in text        # no statement before it
    assert '<div class="proof admonition" id="proof">\n<p>Proof. Short.</p>\n</div>' in text   # not marked
    assert text.count(lean_pages.FOLD_PRINT_SCRIPT) == 1
    assert text.index(lean_pages.FOLD_PRINT_SCRIPT) > text.rindex("</details>")
    lean_pages.Rewriter(tmp_path, lazy=True, icons={}).page(page)
    assert page.read_text() == text


def test_the_printed_single_page_keeps_every_proof_open(tmp_path):
    page = _page(tmp_path, _THEOREM + _FOLDED)
    lean_pages.Rewriter(tmp_path, lazy=False, icons={}).page(page)
    text = page.read_text()
    assert "<details" not in text and "beforeprint" not in text and "<p>Last step.</p>" in text
