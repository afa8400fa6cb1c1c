"""The built website, tested in a real browser as a reader meets it.

Run by ``make site-test`` (part of ``make test``, after the book is built).
Serves ``_build/html`` on a loopback port and opens every page of the table
of contents in headless Chromium (Debian's ``chromium`` package, driven by
Playwright -- never ``playwright install``), with every request to another
host blocked, as on a computer with no network.  For every page:

* no console error, no uncaught exception, no failed or blocked request
  (nothing is fetched from a CDN), math typeset by the bundled MathJax;
* no error, traceback or stderr output in any cell, no raw widget repr;
* every image loads and carries a real alt text (not a file name);
* every exercise has a solution, and every solution dropdown and every folded proof opens;
* every interactive explorer responds: moving each control swaps the image
  for the precomputed view of the new setting;
* a full-page screenshot goes to ``tests/screenshots/<page>.png`` for review.

And at a desktop (1280 px) and a phone (390 px) viewport, for every page
(``test_layout``; screenshots ``<page>-1280.png`` and ``<page>-390.png``):

* no element sticks out of the content column (anything wider must sit in a
  container that scrolls, and inside the column);
* at 1280 px nothing scrolls sideways at all: no code, output, table or
  equation is wider than the column; at 390 px no equation does (a wide
  table may scroll inside the column there);
* at both widths the smallest text of every figure, *as displayed*, is at
  least 9 px high (on a phone too: the figures are at most 5 in wide, see
  :data:`dpsens.figures.style.MAX_WIDTH_IN`).  Method: :func:`dpsens.widgets.png.figure_png`, which renders every
  figure of the site (plain figures through the alt-text formatter and every
  view of every explorer), stores the height of the figure's smallest text in
  image pixels in the PNG (text chunk ``dpsens:min-text-px``: the smallest
  font size found by :func:`dpsens.widgets.png.smallest_text_pt`, in points, times
  dpi/72).  The browser gives each image's displayed width; the text as
  displayed is that height times displayed width / natural width.  Explorer
  views other than the one shown are scaled as the shown one would be
  (``max-width: 100%`` of the same box).  At 390 px a figure is scaled down
  to the phone's column as laid out (358 px, less inside an output area's
  padding), and its text must still be 9 px high there.

Also: the search page finds "smooth sensitivity", and no HTML page refers to
a script, style sheet or font on another host.

Accessibility (``test_accessibility``, marker ``audit``, run by ``make
site-audit``, which installs the pinned axe-core with ``npm ci``): axe-core
finds no WCAG 2.0/2.1 A or AA violation on any page at 1280 and 390 px, as
loaded and after the first control of every explorer is moved from the
keyboard (which must take the focus and change what the explorer's live
region announces); no request of the page fails.  The site is served
gzip-compressed, as a static host serves it (``tools/serve_site.py``).

Without Chromium or a built site the tests skip with the reason -- unless
``CI`` is set (``.ci/run`` sets it), where they fail instead.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

from harness import CHROMIUM, cannot_run, playwright_or_skip  # tests/book/harness.py

ROOT = Path(__file__).resolve().parents[2]
#: The book whose built site is tested (another checkout or a throwaway book
#: can be tested with DPSENS_BOOK=/path/to/book).
BOOK = Path(os.environ.get("DPSENS_BOOK", ROOT))
BUILD = BOOK / "_build" / "html"
SHOTS = ROOT / "tests" / "screenshots"

from booktoc import toc_files  # noqa: E402  (the one reader of _toc.yml)
from serve_site import SiteServer  # noqa: E402  (gzip, like a static host)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
#: No test waits a fixed time: every wait is for an event or a condition of the page (the page's
#: ``load`` event and its fonts, an explorer's ``data-current`` attribute and its image's ``load``
#: event, a dropdown shown, the search's summary of its results).  This is only the limit after which a wait is taken
#: for a hang (issue 31: a loaded machine must not change a verdict; Playwright's default is 30 s).
HANG_GUARD_MS = 180_000
#: Pages of the table of contents that need not hold exercises.
NO_EXERCISES = {"intro", "notation", "references", "teachers", "syllabus", "further_reading"}

pytestmark = pytest.mark.browser


#: Every document of _toc.yml, as 'chapters/<stem>' (the root first).
PAGES = toc_files(BOOK)


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def site():
    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")

    with SiteServer(BUILD) as server:     # gzip, as a static host serves it; every 404 recorded
        yield server.url


@pytest.fixture(scope="module")
def browser():
    sync_playwright = playwright_or_skip()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A page opened with every console message, error and request recorded."""

    def __init__(self, browser, base: str, path: str, width: int = 1280):
        self.base = base
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.context.set_default_timeout(HANG_GUARD_MS)
        self.context.set_default_navigation_timeout(HANG_GUARD_MS)
        self.page = self.context.new_page()
        self.console, self.external, self.failed = [], [], []
        self.page.on("console", lambda m: self.console.append((m.type, m.text)))
        self.page.on("pageerror", lambda e: self.console.append(("pageerror", str(e))))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} (HTTP {r.status})"))
        self.page.route("**/*", self._route)
        self.page.goto(base + path, wait_until="load")
        # every deferred script has run at "load"; the text is laid out in its fonts once they are ready
        # (no "networkidle": a quiet-network heuristic that times out on a loaded machine)
        self.page.evaluate("() => document.fonts.ready.then(() => true)")

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.base) or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            self.external.append(url)
            route.abort()

    def errors(self) -> list[str]:
        return [f"{kind}: {text}" for kind, text in self.console if kind in ("error", "pageerror")]

    def close(self):
        self.context.close()


@pytest.fixture
def open_page(browser, site):
    opened = []

    def _open(path: str, width: int = 1280) -> Page:
        p = Page(browser, site, path, width)
        opened.append(p)
        return p
    yield _open
    for p in opened:
        p.close()


# --------------------------------------------------------------------------- checks
def typeset_math(page) -> None:
    """The page's maths is typeset: at build time (``_ext/lean_pages.py``: every ``.math`` holds
    MathJax's output, and no MathJax is loaded), or else by the bundled MathJax, waited for."""
    if page.locator(".math").count() == 0:
        return
    if page.evaluate("() => !document.querySelector('script[src*=\"mathjax\"]')"):
        raw = page.evaluate("() => Array.from(document.querySelectorAll('.math'))"
                            ".filter(m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 60))")
        assert not raw, f"maths left as TeX (not typeset at build time, and no MathJax on the page): {raw[:3]}"
        assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"
        return
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    assert page.locator("mjx-container").count() > 0, "math on the page was not typeset by MathJax"
    assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"


def load_all_images(page) -> list[dict]:
    return page.evaluate("""async () => {
        const imgs = Array.from(document.images);
        imgs.forEach(i => { i.loading = "eager"; });
        await Promise.all(imgs.map(i => i.complete ? null :
            new Promise(r => { i.addEventListener("load", r); i.addEventListener("error", r); })));
        return imgs.map(i => ({src: i.currentSrc.slice(0, 120), alt: i.getAttribute("alt"),
                               width: i.naturalWidth, visible: i.offsetParent !== null}));
    }""")


BAD_ALT = re.compile(r"(^$|\.(png|svg|jpe?g|gif)$|^_images/)", re.I)


def cell_problems(page) -> list[str]:
    return page.evaluate("""() => {
        const bad = [];
        for (const el of document.querySelectorAll(
                ".cell_output .traceback, .cell_output .error, .cell_output .stderr, .output.traceback"))
            bad.push("error/stderr output: " + el.textContent.trim().slice(0, 200));
        for (const el of document.querySelectorAll(".cell_output")) {
            const t = el.textContent;
            if (t.includes("Traceback (most recent call last)"))
                bad.push("traceback in a cell: " + t.trim().slice(0, 200));
            if (/\\b(VBox|HBox|interactive|IntSlider|FloatSlider)\\(children=|\\b(IntSlider|FloatSlider|Dropdown)\\(value=/.test(t))
                bad.push("a raw ipywidget shown as text (use ds.widgets.explorer): " + t.trim().slice(0, 120));
            if (/<Figure size \\d+x\\d+ with \\d+ Axes>/.test(t))
                bad.push("a figure shown as text: " + t.trim().slice(0, 120));
        }
        return bad;
    }""")


def check_solutions(page) -> tuple[int, int]:
    """Open every solution dropdown; return (exercises, solutions)."""
    n_ex = page.locator("div.exercise").count()
    sols = page.locator("div.solution")
    n_sol = sols.count()
    for i in range(n_sol):
        sol = sols.nth(i)
        body = sol.locator(".admonition-title ~ *").first
        button = sol.locator("button.toggle-button")
        assert button.count() == 1, f"solution {i + 1} has no toggle button"
        assert not body.is_visible(), f"solution {i + 1} is not hidden before it is opened"
        button.click()
        body.wait_for(state="visible")
    return n_ex, n_sol


def open_folds(page) -> int:
    """Open every folded proof (``_ext/lean_pages.py``, ``fold_proofs``) as a reader does, by a click on its
    summary: closed before, its content shown after.  Returns how many."""
    folds = page.locator("details.dpsens-fold")
    for i in range(folds.count()):
        fold = folds.nth(i)
        body = fold.locator("summary ~ *").first
        assert not body.is_visible(), f"folded proof {i + 1} is open before it is opened"
        fold.locator("summary").click()
        body.wait_for(state="visible")
    return folds.count()


#: Resolves when the explorer shows the view its controls select (its script sets ``data-current``
#: then: at once for an image, when the file arrives for an HTML view) and, for an image, once the
#: image has loaded or failed (its ``load``/``error`` event).  Events only; the timer is a hang guard.
SETTLED_JS = """async ([el, guard]) => {
    const want = () => Array.from(el.querySelectorAll('[data-index]')).map(c => c.value).join('-');
    const hang = new Promise((_, no) => setTimeout(() => no(new Error(
        `explorer ${el.id}: view ${want()} not shown after ${guard / 1000} s (hang guard)`)), guard));
    const shown = new Promise(done => {
        if (el.getAttribute('data-current') === want()) return done();
        const watch = new MutationObserver(() => {
            if (el.getAttribute('data-current') === want()) { watch.disconnect(); done(); }
        });
        watch.observe(el, {attributes: true, attributeFilter: ['data-current']});
    }).then(() => {
        const img = el.querySelector('img.dpsens-explorer-image');
        if (!img || img.style.display === 'none' || img.complete) return;
        img.loading = 'eager';     // a lazy image starts loading even if the page has not scrolled to it
        if (img.complete) return;
        return new Promise(done => {
            img.addEventListener('load', done, {once: true});
            img.addEventListener('error', done, {once: true});
        });
    });
    await Promise.race([shown, hang]);
    return true;
}"""


def settled(ex) -> None:
    """Wait until the explorer ``ex`` shows the view its controls select, its image loaded
    (:data:`SETTLED_JS`); the caller's assertions say what is wrong with the view."""
    ex.page.evaluate(SETTLED_JS, [ex.element_handle(), HANG_GUARD_MS])


def check_explorers(page) -> int:
    """Move every control of every explorer; the view must follow: the image, or for an explorer of
    HTML views (the grid tables) the HTML box. Returns the number of explorers."""
    explorers = page.locator("div.dpsens-explorer")
    for e in range(explorers.count()):
        ex = explorers.nth(e)
        ex.scroll_into_view_if_needed()
        data = ex.evaluate("el => JSON.parse(el.querySelector('script.dpsens-explorer-data').textContent)")
        img = ex.locator("img.dpsens-explorer-image")
        box = ex.locator("div.dpsens-explorer-html")
        controls = ex.locator("[data-index]")
        changed_any = False

        def showing(box=box, img=img):
            """(what the explorer shows, its alt text): an image's src, or the index of an HTML view."""
            if box.count() and box.is_visible():
                return int(box.get_attribute("data-source")), box.get_attribute("aria-label")
            return img.get_attribute("src"), img.get_attribute("alt")

        for c in range(controls.count()):
            ctrl = controls.nth(c)
            before = showing()[0]
            if ctrl.evaluate("el => el.tagName") == "SELECT":
                n = ctrl.locator("option").count()
                if n < 2:
                    continue
                current = int(ctrl.input_value())
                ctrl.select_option(str((current + 1) % n))
            else:
                if ctrl.get_attribute("max") == "0":
                    continue
                ctrl.focus()
                at_max = ctrl.input_value() == ctrl.get_attribute("max")
                page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
            key = "-".join(controls.nth(k).input_value() for k in range(controls.count()))
            settled(ex)
            assert ex.get_attribute("data-current") == key, (
                f"explorer {e + 1}: moving control {c + 1} did not update the view (wanted {key})")
            source, alt = data["views"][key]
            # inline HTML or an HTML view's file, else an image: a data: URI or a PNG's URL
            html_view = "<" in data["sources"][source] or data["sources"][source].endswith(".html")
            shown, shown_alt = showing()
            assert shown == (source if html_view else data["sources"][source]), (
                f"explorer {e + 1}: the view shown is not the view {key}")
            assert shown_alt == alt
            changed_any |= shown != before
            if html_view:
                assert box.locator("table").count() or box.inner_text().strip(), f"explorer {e + 1}: an empty view"
            else:
                assert img.evaluate("i => i.complete && i.naturalWidth > 0")
        assert changed_any, f"explorer {e + 1}: no control changed the picture"
    return explorers.count()


# --------------------------------------------------------------------------- tests
def test_pages_are_built():
    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    missing = [p for p in PAGES if not (BUILD / f"{p}.html").exists()]
    assert not missing, f"pages of _toc.yml missing from the site: {missing}"


@pytest.mark.parametrize("path", PAGES)
def test_page(open_page, path):
    """Everything about one page at 1280 px, on one load: first its layout (:func:`layout_problems`,
    before anything is opened), then images, cells, solutions and explorers."""
    p = open_page(f"{path}.html")
    page = p.page
    typeset_math(page)
    images = load_all_images(page)
    layout = layout_problems(page, path, 1280)
    known = KNOWN_LAYOUT_PROBLEMS.get((path, 1280))
    if known:
        assert layout, f"{path}.html at 1280 px has no layout problem any more: remove its KNOWN_LAYOUT_PROBLEMS entry"
    problems = [] if known else list(layout)
    problems += [f"image does not load: {i['src']}" for i in images if i["width"] == 0]
    problems += [f"image without a real alt text: alt={i['alt']!r} src={i['src']}"
                 for i in images if BAD_ALT.search(i["alt"] or "")]
    problems += cell_problems(page)
    n_ex, n_sol = check_solutions(page)
    open_folds(page)
    if not known:
        problems += opened_layout_problems(page, 1280)
    stem = path.rsplit("/", 1)[-1]
    if stem not in NO_EXERCISES and n_ex == 0:
        problems.append("the chapter has no exercise")
    if n_sol < n_ex:
        problems.append(f"{n_ex} exercises but only {n_sol} solutions")
    on_page = (BUILD / f"{path}.html").read_text(encoding="utf-8").count('class="dpsens-explorer-data"')
    moved = check_explorers(page)
    if moved != on_page:
        problems.append(f"{moved} explorers were moved, the page's HTML has {on_page}")
    problems += p.errors()
    problems += [f"request to another host (blocked): {u}" for u in p.external]
    problems += [f"failed request: {u}" for u in p.failed]
    assert not problems, f"{path}.html:\n  " + "\n  ".join(problems)


#: Pages whose explorers must respond in the browser: the median grid, and the
#: Laplace-noise explorers of the leak and proportions chapters.
REQUIRED_EXPLORERS = ["chapters/median_grid", "chapters/leak", "chapters/proportions"]


def test_there_is_an_explorer_on_the_pages_that_promise_one():
    """At least one explorer on the site, and one on each page that promises it; test_page moves
    every control of every explorer on every page (and fails if one does not respond)."""
    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    found = {}
    for path in PAGES:
        html = (BUILD / f"{path}.html").read_text(encoding="utf-8") if (BUILD / f"{path}.html").exists() else ""
        if "dpsens-explorer-data" in html:
            found[path] = html.count('class="dpsens-explorer-data"')
    assert found, "no page of the site has an interactive explorer"
    # the two the book promises a reader without a kernel: the median grid, and Laplace noise
    for path in REQUIRED_EXPLORERS:
        assert path in found, f"{path}.html has no interactive explorer"


def test_median_grid_explorer_works_from_file(browser):
    """Opened from ``file://`` (a downloaded copy of the site), where browsers refuse ``fetch``, the
    grid explorer still shows the HTML views it keeps out of the page (their ``.js`` twins)."""
    if not (BUILD / "chapters" / "median_grid.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    p = Page(browser, BUILD.as_uri() + "/", "chapters/median_grid.html")
    try:
        assert check_explorers(p.page) >= 1
        assert not p.errors(), p.errors()
        assert not p.failed, p.failed
    finally:
        p.close()


def test_search_finds_smooth_sensitivity(open_page):
    p = open_page("search.html?q=smooth+sensitivity")
    page = p.page
    # Sphinx adds the results one at a time (a timer between them) and then says how many it found:
    # read them once it has said so, not when the first one appears
    page.wait_for_function("() => { const s = document.querySelector('#search-results p.search-summary');"
                           " return !!s && s.textContent.trim() !== ''; }")
    results = page.locator("#search-results ul.search li a")
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("chapters/" in h for h in hrefs), f"search results do not point to chapters: {hrefs}"
    assert not p.errors() and not p.external


TAG = re.compile(r"<(script|link|img|iframe|source|audio|video)\b[^>]*>", re.I)
ATTR = re.compile(r"""\b(src|href|rel)\s*=\s*["']([^"']*)["']""", re.I)
EXTERNAL_CSS = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])(?:https?:)?//""", re.I)


def test_no_third_party_assets_in_html_or_css():
    """Static check of every built file: no script, style sheet, font or image from another host."""
    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    bad = []
    for f in BUILD.rglob("*.html"):
        for m in TAG.finditer(f.read_text(encoding="utf-8", errors="replace")):
            tag, attrs = m.group(1).lower(), {k.lower(): v for k, v in ATTR.findall(m.group(0))}
            url = attrs.get("src") or attrs.get("href") or ""
            if not re.match(r"(https?:)?//", url):
                continue
            if tag == "link" and not re.search(r"stylesheet|preload|icon|font|manifest", attrs.get("rel", "")):
                continue  # e.g. rel="canonical": a link, not something the page loads
            bad.append(f"{f.relative_to(BUILD)}: {m.group(0)[:160]}")
    for f in BUILD.rglob("*.css"):
        text = re.sub(r"/\*.*?\*/", "", f.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        bad += [f"{f.relative_to(BUILD)}: {m.group(0)}" for m in EXTERNAL_CSS.finditer(text)]
    assert not bad, "assets from other hosts:\n  " + "\n  ".join(bad[:20])


def test_launch_buttons_open_the_notebook_copies():
    """Binder (JupyterLab) and Colab buttons on every chapter with code, built from repository.url in _config.yml."""
    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    cfg = yaml.safe_load((BOOK / "_config.yml").read_text())
    url, branch = cfg["repository"]["url"].rstrip("/"), cfg["repository"].get("branch", "main")
    org_repo = url.split("github.com/", 1)[1]
    checked, bad = 0, []
    for path in PAGES:
        stem = path.rsplit("/", 1)[-1]
        copy = BOOK / "notebooks" / f"{stem}.ipynb"
        if not copy.exists() or not any(c["cell_type"] == "code" for c in json.loads(copy.read_text())["cells"]):
            continue        # no copy, or a page with no code (the notation page's copy is for offline links only)
        html = (BUILD / f"{path}.html").read_text(encoding="utf-8")
        for want in (f"https://colab.research.google.com/github/{org_repo}/blob/{branch}/notebooks/{stem}.ipynb",
                     f"https://mybinder.org/v2/gh/{org_repo}/{branch}?urlpath=lab/tree/notebooks/{stem}.ipynb"):
            if f'href="{want}"' not in html:
                bad.append(f"{path}.html has no launch link {want}")
        checked += 1
    assert checked > 0, "no chapter has a notebook copy in notebooks/ (run `make colab`)"
    assert not bad, "\n".join(bad)


def test_favicon_and_logo(open_page, site):
    """A browser's first visit asks for /favicon.ico: the site serves one, every page links it,
    and the sidebar shows the logo (no 404 on any of them)."""
    import urllib.request

    if not (BUILD / "index.html").exists():
        cannot_run(f"no built site at {BUILD} (run `make book` first)")
    with urllib.request.urlopen(site + "favicon.ico") as r:
        body = r.read()
    assert r.status == 200 and body[:4] == b"\x00\x00\x01\x00", "/favicon.ico is not an icon file"
    for path in PAGES:
        html = (BUILD / f"{path}.html").read_text(encoding="utf-8")
        assert re.search(r'<link[^>]+rel="(?:shortcut )?icon"', html), f"{path}.html links no favicon"
    p = open_page(f"{PAGES[0]}.html")
    page = p.page
    hrefs = page.evaluate("""() => Array.from(document.querySelectorAll('link[rel~="icon"]')).map(l => l.href)""")
    assert hrefs, "the page links no favicon"
    for href in hrefs:
        r = p.context.request.get(href)
        assert r.status == 200 and len(r.body()) > 0, f"favicon {href}: HTTP {r.status}"
    load_all_images(page)     # loaded (or failed): their load and error events, not the time the page took
    logos = page.evaluate("""() => Array.from(document.querySelectorAll('img.logo__image, .navbar-brand img'))
        .map(i => ({src: i.currentSrc, w: i.naturalWidth, alt: i.getAttribute('alt')}))""")
    assert logos and all(x["w"] > 0 for x in logos), f"the logo does not load: {logos}"
    assert not p.errors() and not p.failed and not p.external


# --------------------------------------------------------------------------- layout and legibility
WIDTHS = (1280, 390)
#: Smallest height, in CSS pixels, of a figure's text as displayed, at 1280 px and at 390 px.
MIN_FIGURE_TEXT_PX = 9.0

LAYOUT_JS = """() => {
    const col = document.querySelector("article.bd-article") || document.querySelector("main");
    const c = col.getBoundingClientRect();
    const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.classList.length ? "." + Array.from(el.classList).slice(0, 2).join(".") : "");
    const what = el => (el.textContent || el.getAttribute("alt") || "").trim().replace(/\\s+/g, " ").slice(0, 70);
    const scrolling = el => {
        const s = getComputedStyle(el);
        return ["auto", "scroll"].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
    };
    const outside = [], scrollers = [];
    for (const el of col.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (el.closest("mjx-assistive-mml")) continue;   // MathJax's copy for screen readers, clipped away
        if (scrolling(el) && !el.closest(".bd-sidebar-secondary, .bd-toc"))
            scrollers.push(`${name(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth} px): ${what(el)}`);
        // an element clipped by a scrolling ancestor inside the column does not stick out
        let a = el.parentElement, clipped = false;
        while (a && a !== col) { if (scrolling(a)) { clipped = true; break; } a = a.parentElement; }
        if (clipped) continue;
        if (r.right > c.right + 1 || r.left < c.left - 1)
            outside.push(`${name(el)} (${Math.round(r.width)} px, column ${Math.round(c.width)} px) ` +
                         `sticks out of the column: ${what(el)}`);
    }
    const figures = [];
    for (const img of col.querySelectorAll("img.dpsens-figure, img.dpsens-explorer-image")) {
        const r = img.getBoundingClientRect();
        const box = img.parentElement;
        const s = getComputedStyle(box);
        const avail = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
        let sources = [img.src];
        const ex = img.closest("div.dpsens-explorer");
        if (ex) sources = JSON.parse(ex.querySelector("script.dpsens-explorer-data").textContent).sources
            .filter(src => src.indexOf("<") < 0 && !src.endsWith(".html"))   // the images (an HTML view,
                                                                             // inline or a file, has no figure text)
            .map(src => src.startsWith("data:") ? src : new URL(src, location.href).href);
        figures.push({alt: (img.getAttribute("alt") || "").slice(0, 80), shown: r.width,
                      natural: img.naturalWidth, avail: avail, sources: sources, visible: r.width > 0});
    }
    return {outside: outside, scrollers: scrollers, figures: figures, column: c.width};
}"""


def png_min_text_px(src: str) -> tuple[int, float | None]:
    """(natural width, smallest text in image pixels) of a PNG written by figure_png: a data: URI,
    or the URL of a file of the site (``_ext/lean_pages.py`` takes the PNGs out of the pages)."""
    import base64
    import io
    from urllib.parse import urlparse

    from PIL import Image

    from dpsens.widgets.png import MIN_TEXT_KEY
    if src.startswith("data:"):
        head, _, b64 = src.partition(",")
        assert head.startswith("data:image/png"), f"a figure that is not an inline PNG: {head[:60]}"
        png = base64.b64decode(b64)
    else:
        path = urlparse(src).path.lstrip("/")
        assert path.endswith(".png"), f"a figure that is not a PNG: {src[:80]}"
        png = (BUILD / path).read_bytes()
    im = Image.open(io.BytesIO(png))
    value = im.text.get(MIN_TEXT_KEY)
    return im.size[0], (float(value) if value is not None else None)


def figure_problems(figures: list[dict], column: float) -> list[str]:
    problems = []
    for f in figures:
        for k, src in enumerate(f["sources"]):
            natural, px = png_min_text_px(src)
            if px is None:
                problems.append(f"figure without its smallest-text size (not drawn by figure_png): {f['alt']}")
                continue
            # a figure inside a closed dropdown is not laid out: it will get the column's width
            room = f["avail"] if f["avail"] > 0 else column
            shown = f["shown"] if (len(f["sources"]) == 1 and f["shown"] > 0) else min(natural, room)
            displayed = px * shown / natural
            if displayed < MIN_FIGURE_TEXT_PX:
                view = f" (explorer view {k + 1} of {len(f['sources'])})" if len(f["sources"]) > 1 else ""
                problems.append(f"figure text {displayed:.1f} px high as displayed (< {MIN_FIGURE_TEXT_PX:g}: "
                                f"{px:.1f} px in a {natural} px image shown {shown:.0f} px wide){view}: {f['alt']}")
    return problems


#: Printed output (a cell's stdout or plain-text result; not an HTML output such as a checker's verdict,
#: which is prose and wraps) whose lines wrap.  legible.css keeps every output line whole (``white-space: pre``: a
#: table stays a table, a number or an identifier is never cut; a line longer than the column scrolls
#: inside its block): the visual lines of each displayed output block, counted from the line boxes of
#: its text, must be as many as its lines of text.
WRAPPED_OUTPUT_JS = """() => {
    const bad = [];
    for (const pre of document.querySelectorAll(".bd-article div.output div.highlight pre")) {
        if (!pre.getClientRects().length) continue;          // not displayed (inside a closed dropdown)
        const lines = pre.textContent.replace(/\\n$/, "").split("\\n");
        const tops = [];
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            range.selectNodeContents(n);
            for (const r of range.getClientRects()) if (r.width > 0) tops.push(r.top);
        }
        tops.sort((a, b) => a - b);
        const size = parseFloat(getComputedStyle(pre).fontSize);
        let visual = 0, last = -Infinity;
        for (const t of tops) { if (t - last > size / 2) visual += 1; last = t; }
        const written = lines.filter(l => l.length > 0).length;
        if (visual > written) {
            const longest = lines.reduce((a, l) => l.length > a.length ? l : a, "");
            bad.push(`printed output wraps (${written} lines shown on ${visual}): ${longest.trim().slice(0, 70)}`);
        }
    }
    return bad;
}"""


#: Sections laid out lazily (legible.css: ``content-visibility: auto``) whose placeholder is shorter than
#: the section (the boxes of a skipped section's links would run on over the sections below: Lighthouse's
#: target-size audit found them overlapping an explorer's controls, issue 35), and sections with no
#: placeholder measured by the build (``_ext/section_heights.py``), laid out at load; the sections inside a
#: section (``###`` and below) too, each measured with the sections it is in laid out.
PLACEHOLDER_JS = """() => {
    const bad = [];
    for (const s of document.querySelectorAll(".bd-article > section section[id]:has(> h2, > h3, > h4, > h5, > h6)")) {
        const cs = getComputedStyle(s);
        if (cs.contentVisibility !== "auto") {
            bad.push(`section #${s.id} has no measured placeholder: laid out at load (build with Chromium)`);
            continue;
        }
        const placeholder = parseFloat(cs.containIntrinsicHeight.replace("auto", ""));
        // laid out as when rendered (contained, so margins stay inside), and so are the sections it is in
        const chain = [];
        for (let a = s; a; a = a.parentElement.closest(".bd-article > section section")) chain.push([a, a.getAttribute("style")]);
        chain.forEach(([a]) => { a.style.contentVisibility = "visible"; a.style.contain = "layout style paint"; });
        const height = s.getBoundingClientRect().height;
        chain.forEach(([a, saved]) => saved === null ? a.removeAttribute("style") : a.setAttribute("style", saved));
        if (!(height <= placeholder + 0.5))
            bad.push(`section #${s.id} is ${Math.round(height)} px high, its lazy-layout placeholder ` +
                     `${cs.containIntrinsicHeight}: the links of a skipped section would overlap the next`);
    }
    return bad;
}"""


def open_solutions(page) -> None:
    """Open every solution dropdown of the page, and every folded proof (``_ext/lean_pages.py``,
    ``fold_proofs``): their content is then laid out and checked too."""
    sols = page.locator("div.solution button.toggle-button")
    for i in range(sols.count()):
        if sols.nth(i).get_attribute("aria-expanded") != "true":
            sols.nth(i).click()
    page.wait_for_function("() => !document.querySelector('div.solution.toggle-hidden')")
    open_folds(page)


#: Known layout problems, each an open item (strict: the test fails once it is fixed, so the entry goes).
KNOWN_LAYOUT_PROBLEMS: dict[tuple[str, int], str] = {}


def layout_problems(page, path: str, width: int) -> list[str]:
    """What sticks out, scrolls or is too small on ``page`` (math typeset, images loaded) at ``width``;
    saves the screenshot ``tests/screenshots/<stem>-<width>.png``."""
    found = page.evaluate(LAYOUT_JS)
    problems = list(found["outside"])
    problems += figure_problems(found["figures"], found["column"])
    problems += page.evaluate(PLACEHOLDER_JS)
    if width < 1280:    # at 1280 px the few long printed lines (sentences) wrap at their spaces
        problems += page.evaluate(WRAPPED_OUTPUT_JS)
    if width >= 1280:
        problems += found["scrollers"]
    else:   # on a phone a wide table or output may scroll inside the column; an equation must fit
        problems += [s for s in found["scrollers"] if s.startswith("mjx-container")]
    stem = path.rsplit("/", 1)[-1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{stem}-{width}.png"), full_page=True)
    if problems:
        problems = [f"at {width} px (column {found['column']:.0f} px): {x}" for x in problems]
    return problems


def opened_layout_problems(page, width: int) -> list[str]:
    """With every solution open (:func:`open_solutions` first): nothing of theirs sticks out of the
    column, and on a phone no printed output wraps and no equation scrolls (at 1280 px nothing scrolls)."""
    found = page.evaluate(LAYOUT_JS)
    problems = list(found["outside"]) + (page.evaluate(WRAPPED_OUTPUT_JS) if width < 1280 else [])
    problems += found["scrollers"] if width >= 1280 else [s for s in found["scrollers"] if s.startswith("mjx")]
    return [f"at {width} px, solutions open: {x}" for x in problems]


#: The phone width; the desktop width (1280 px) is checked by test_page on the same page load.
@pytest.mark.parametrize("width", [w for w in WIDTHS if w != 1280])
@pytest.mark.parametrize("path", PAGES)
def test_layout(open_page, path, width, request):
    if (path, width) in KNOWN_LAYOUT_PROBLEMS:
        request.node.add_marker(pytest.mark.xfail(reason=KNOWN_LAYOUT_PROBLEMS[(path, width)], strict=True))
    p = open_page(f"{path}.html", width)
    page = p.page
    typeset_math(page)
    load_all_images(page)
    problems = layout_problems(page, path, width)
    open_solutions(page)
    problems += opened_layout_problems(page, width)
    assert not problems, f"{path}.html, {len(problems)} problems:\n  " + "\n  ".join(problems)


# --------------------------------------------------------------------------- accessibility (make site-audit)
#: axe-core, pinned in tools/site_audit/package.json (``make site-audit`` runs ``npm ci`` there).
AXE = ROOT / "tools" / "site_audit" / "node_modules" / "axe-core" / "axe.min.js"
#: The rules of WCAG 2.0 and 2.1, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

AXE_RUN = """async (tags) => {
    const r = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
    return r.violations.map(v => `${v.impact} ${v.id} (${v.nodes.length}): ` +
        v.nodes.slice(0, 4).map(n => n.target.join(" ")).join(" | "));
}"""


@pytest.mark.audit
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", PAGES)
def test_accessibility(open_page, path, width):
    """axe-core finds no WCAG 2.1 A/AA violation, on the page as loaded and after the first
    control of every explorer is moved from the keyboard (the new view announced in a live region),
    and no request of the page fails."""
    if not AXE.exists():
        cannot_run(f"axe-core is not installed at {AXE} (make site-audit installs it)")
    p = open_page(f"{path}.html", width)
    page = p.page
    typeset_math(page)
    page.add_script_tag(path=str(AXE))
    problems = page.evaluate(AXE_RUN, WCAG_TAGS)
    explorers = page.locator("div.dpsens-explorer")
    for e in range(explorers.count()):
        ex = explorers.nth(e)
        live = ex.locator("[aria-live]")
        if live.count() != 1:
            problems.append(f"explorer {e + 1}: {live.count()} live regions (want 1: the view change is announced)")
            continue
        ctrl = ex.locator("[data-index]").first
        ctrl.focus()
        assert page.evaluate("() => document.activeElement.hasAttribute('data-index')"), \
            f"explorer {e + 1}: its first control cannot take the keyboard focus"
        before = live.inner_text()
        page.keyboard.press("ArrowDown" if ctrl.evaluate("el => el.tagName") == "SELECT" else "ArrowRight")
        settled(ex)
        if ctrl.evaluate("el => el.tagName !== 'SELECT' && el.value === el.max && el.max !== '0'") and \
                live.inner_text() == before:
            page.keyboard.press("ArrowLeft")
            settled(ex)
        if int(ctrl.evaluate("el => el.tagName === 'SELECT' ? el.options.length : +el.max + 1")) > 1:
            if live.inner_text() == before:
                problems.append(f"explorer {e + 1}: moving a control from the keyboard announced nothing")
    if explorers.count():
        problems += [f"after moving the explorers: {v}" for v in page.evaluate(AXE_RUN, WCAG_TAGS)]
    problems += [f"failed request: {u}" for u in p.failed]
    assert not problems, f"{path}.html at {width} px:\n  " + "\n  ".join(problems)
