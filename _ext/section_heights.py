"""Each section of a built page gets its own measured height as its lazy-layout placeholder (issue 35).

Chapter: *For teachers* (the website on a phone; ``make site-audit`` measures
it with Lighthouse, ``tests/book/test_site.py`` checks the placeholders).

``_static/legible.css`` lays a page's sections out lazily
(``content-visibility: auto``): a section below the screen is a placeholder
of ``contain-intrinsic-height`` until the reader comes near it.  A placeholder
shorter than its section is wrong in a way that matters: the boxes of the
skipped section's links run on past it over the sections below, and
Lighthouse's target-size audit then finds an explorer's controls overlapping
them (accessibility 96 on the exponential and proportions chapters).  So every
placeholder is the section's height as measured, never less:

* after ``lean_pages`` has rewritten the pages (their final HTML and style
  sheet), headless Chromium (Debian's ``chromium``, driven by Playwright, in a
  subprocess) opens each page with every section laid out as
  ``content-visibility: auto`` lays it out once rendered (layout, style and
  paint containment), and measures every section at the widths of
  the two layouts the site has: :data:`PHONE_WIDTHS` (viewport narrower than
  :data:`WIDE_FROM` px: the column is the viewport less 32 px) and
  :data:`WIDE_WIDTHS` (the column 569-895 px, with or without the sidebars);
* a layout's placeholder (:func:`placeholder`) is the tallest height measured
  plus the growth of the section's images between the narrowest width and
  the widest (as the column widens, text gets shorter and images taller, so
  a width between two measured ones is covered), plus :data:`MARGIN`;
* the sections inside a section (``###`` and below) are measured and made
  lazy the same way, each inside its own: a long section that starts near
  the top of a page (the smooth chapter's first, 6,500 elements, most of
  them in its subsection on privacy) is then laid out at load only down to
  its first subsection below the screen (issue 35);
* it is written on the section as two custom properties,
  ``style="--dpsens-h-phone:...px;--dpsens-h-wide:...px"``, and
  ``legible.css`` makes lazy only a section that has them.

A section whose placeholder is too tall costs nothing but a scroll bar a
little long until the reader reaches it.  Without Chromium or Playwright
nothing is measured and every section is laid out at load (correct, slower
on a phone).  Each page is measured once per content: the heights are kept in
``<outdir>/../section-heights.json`` under a hash of the page's HTML and of
the style sheets it links, so an incremental build measures only the pages
that changed.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Viewport width (CSS px) from which the wide layout's placeholder applies: ``legible.css``'s phone
#: rules stop at 600 px, and the column is then at its narrowest, 569 px (the sidebars appear later).
WIDE_FROM = 601
#: The widths measured for a phone (the narrowest phone, the browser test's, Lighthouse's, the widest).
PHONE_WIDTHS = (320, 390, 412, WIDE_FROM - 1)
#: The widths measured for the wide layout: its narrowest column (601), sidebars appearing (992, 1200), the desktop test's.
WIDE_WIDTHS = (WIDE_FROM, 992, 1200, 1280)
#: Added to every placeholder: a fraction of the height and a few pixels (other fonts, rounding).
MARGIN = (0.03, 24)
CACHE_NAME = "section-heights.json"
CHROMIUM = os.environ.get("DPSENS_CHROMIUM", "/usr/bin/chromium")

_STYLE = re.compile(r' style="--dpsens-h-phone:[^"]*"')
_LINKED_CSS = re.compile(r'<link rel="stylesheet" href="([^"]+)"')

#: The page as ``content-visibility: auto`` lays out a rendered section, every section rendered.
MEASURE_CSS = (".bd-article > section section{content-visibility:visible!important;"
               "contain:layout style paint!important}")
#: The sections measured: the chapter's sections at every level, each with its heading (not the ``<section>``
#: boxes that sphinx-proof and sphinx-exercise put inside a definition, a proof or an exercise).
SECTIONS = ".bd-article > section section[id]:has(> h2, > h3, > h4, > h5, > h6)"
MEASURE_JS = """() => Array.from(document.querySelectorAll('""" + SECTIONS + """')).map(s =>
    [s.id, s.getBoundingClientRect().height,
     Array.from(s.querySelectorAll('img')).reduce((a, i) => a + i.getBoundingClientRect().height, 0)])"""
READY_JS = """async () => {
    const imgs = Array.from(document.images);
    imgs.forEach(i => { i.loading = "eager"; });
    await Promise.all(imgs.map(i => i.complete ? null :
        new Promise(r => { i.addEventListener("load", r); i.addEventListener("error", r); })));
    document.body.getBoundingClientRect();
    await document.fonts.ready;
}"""


def strip(text: str) -> str:
    """The page without the placeholders written by :func:`annotate` (idempotent rebuilds)."""
    return _STYLE.sub("", text)


def placeholder(samples) -> int:
    """The placeholder height (px) of one section in one layout, from ``samples``: ``(width, height,
    images' height)`` measured at the layout's widths.  Never less than any height measured; between
    two measured widths the text is no taller than at the narrower and the images no taller than at
    the wider, so the tallest height plus the images' growth from the narrowest width covers them."""
    samples = sorted(samples)
    tallest = max(h for _, h, _ in samples)
    growth = max(0.0, max(i for _, _, i in samples) - samples[0][2])
    return math.ceil((tallest + growth) * (1 + MARGIN[0]) + MARGIN[1])


def annotate_text(text: str, heights: dict) -> str:
    """``text`` with each section of ``heights`` (``{id: (phone px, wide px)}``) carrying its placeholders.
    A section whose id is not unique in the page is left out (laid out at load)."""
    text = strip(text)
    for sid, (phone, wide) in heights.items():
        attr = f'id="{sid}"'
        if text.count(attr) != 1:
            continue
        match = re.search(r'(<section\b[^>]*\s' + re.escape(attr) + r')([^>]*>)', text)
        if match:           # the section's opening tag gains the style, right after its id
            style = f' style="--dpsens-h-phone:{phone}px;--dpsens-h-wide:{wide}px"'
            text = text[:match.end(1)] + style + text[match.end(1):]
    return text


def page_key(text: str, page: Path) -> str:
    """What the measured heights depend on: the page's HTML (placeholders left out), its style sheets and
    the measurement itself."""
    h = hashlib.sha1(strip(text).encode("utf-8"))
    h.update((MEASURE_CSS + MEASURE_JS).encode("utf-8"))      # and what is measured, how
    for href in _LINKED_CSS.findall(text):
        css = (page.parent / href.split("?", 1)[0])
        if css.exists():
            h.update(css.read_bytes())
    return h.hexdigest()


def measure(pages: list) -> dict | None:
    """``{str(page): {id: [(width, height, images' height), ...]}}`` measured in headless Chromium (a
    subprocess running this file), or None if Chromium or Playwright is missing or the run fails."""
    if not pages:
        return {}
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return None
    job = {"pages": [str(p) for p in pages], "widths": list(PHONE_WIDTHS + WIDE_WIDTHS), "chromium": CHROMIUM}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve())], input=json.dumps(job),
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def heights_of(samples: dict) -> dict:
    """``{id: (phone px, wide px)}`` from :func:`measure`'s samples of one page."""
    out = {}
    for sid, rows in samples.items():
        phone = [r for r in rows if r[0] < WIDE_FROM]
        wide = [r for r in rows if r[0] >= WIDE_FROM]
        if phone and wide:
            out[sid] = (placeholder(phone), placeholder(wide))
    return out


def annotate(outdir: Path, pages: list, log=print) -> int:
    """Write every page's section placeholders, measuring the pages not measured before in their present
    form.  Returns the number of pages measured; logs why if none could be."""
    outdir = Path(outdir)
    cache_file = outdir.parent / CACHE_NAME
    try:
        cache = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    texts = {p: p.read_text(encoding="utf-8") for p in pages}
    keys = {p: page_key(texts[p], p) for p in pages}
    todo = [p for p in pages if cache.get(str(p), {}).get("key") != keys[p] and "bd-article" in texts[p]]
    measured = measure(todo)
    if measured is None:
        log("section_heights: Chromium/Playwright not available: sections are laid out at load (no lazy layout)")
        measured = {}
    for p in todo:
        if str(p) in measured:
            cache[str(p)] = {"key": keys[p], "heights": heights_of(measured[str(p)])}
    for p in pages:
        entry = cache.get(str(p))
        heights = entry["heights"] if entry and entry["key"] == keys[p] else {}
        new = annotate_text(texts[p], heights)
        if new != texts[p]:
            p.write_text(new, encoding="utf-8")
    cache_file.write_text(json.dumps(cache, indent=0), encoding="utf-8")
    return len(measured)


def _main() -> None:
    """Measure (run by :func:`measure` in a subprocess: Playwright's event loop stays out of Sphinx)."""
    from playwright.sync_api import sync_playwright

    job = json.loads(sys.stdin.read())
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=job["chromium"],
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": job["widths"][0], "height": 900})
        for path in job["pages"]:
            page.set_viewport_size({"width": job["widths"][0], "height": 900})
            page.goto(Path(path).as_uri(), wait_until="load")
            page.add_style_tag(content=MEASURE_CSS)
            rows = {}
            for width in job["widths"]:
                page.set_viewport_size({"width": width, "height": 900})
                page.evaluate(READY_JS)
                for sid, height, images in page.evaluate(MEASURE_JS):
                    rows.setdefault(sid, []).append((width, height, images))
            out[path] = rows
        browser.close()
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    _main()
