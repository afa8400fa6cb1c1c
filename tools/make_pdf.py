"""Print the single-page build of the book to PDF with headless Chromium (``make pdf``).

Chapter: *For teachers* (the printable edition).

``make pdf`` first builds the book with Sphinx's ``singlehtml`` builder
(``_build/singlehtml/index.html``: every chapter on one page, executed
outputs from the same cache as the website), then this tool

1. serves that folder on a loopback port and opens it in Debian's
   ``chromium`` through Playwright (never ``playwright install``), with every
   request to another host blocked -- nothing is downloaded;
2. waits until every image has loaded and the bundled MathJax has typeset
   every formula (``MathJax.startup.promise``), and fails on a MathJax error;
3. prints with the print style sheet (``_ext/print_static/book-print.css``:
   no navigation, solutions open, each explorer's default view) to
   ``_build/book.pdf`` (A4) and ``_build/book-letter.pdf`` (US Letter);
4. checks each PDF with ``pdftotext`` (Debian's poppler-utils): it must hold
   the title of every page of ``_toc.yml``.

Usage: ``python tools/make_pdf.py [--build DIR] [--out DIR]``.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
from booktoc import toc_files  # noqa: E402  (the one reader of _toc.yml)

CHROMIUM = os.environ.get("DPSENS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
PAPERS = {"A4": "book.pdf", "Letter": "book-letter.pdf"}
#: printed in every page's footer, with the licence of the text
VERSION = re.search(r'^__version__ = "([^"]+)"', (ROOT / "src" / "dpsens" / "__init__.py").read_text(),
                    re.MULTILINE).group(1)
TITLE = "Sensitivity, from scratch to smooth"
EDITION = "student edition" if os.environ.get("DPSENS_EDITION", "").strip().lower() == "student" else "with solutions"


def page_titles(root: Path = ROOT) -> list[str]:
    """The ``# `` title of every page of the table of contents, in order."""
    titles = []
    for doc in toc_files(root):
        path = root / f"{doc}.md"
        if not path.exists():
            continue
        title = next((line[2:].strip() for line in path.read_text(encoding="utf-8").splitlines()
                      if line.startswith("# ")), None)
        if title:
            titles.append(title)
    return titles


def plain(text: str) -> str:
    """Text without MyST/TeX markup and with whitespace collapsed, for comparing titles."""
    text = re.sub(r"\$[^$]*\$", "", text)
    text = re.sub(r"[`*_]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def missing_titles(pdf: Path, titles: list[str]) -> list[str]:
    """Titles whose words do not appear in the PDF's text (``pdftotext``; hyphenation ignored)."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    flat = re.sub(r"\s+", " ", text.replace("\u00ad", ""))
    return [t for t in titles if plain(t) and plain(t) not in flat]


def single_page(build: Path) -> str:
    """The single page to print, at the root of the build.

    With the root document in a folder (``chapters/intro``), Sphinx writes the
    page to ``chapters/intro.html`` but links its style sheets, scripts and
    MathJax as ``_static/...``, relative to the build's root, and makes
    ``index.html`` a redirect.  A copy at the root, ``book.html``, finds them.
    """
    index = (build / "index.html").read_text(encoding="utf-8")
    target = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index)
    if not target:
        return "index.html"
    (build / "book.html").write_text((build / target.group(1)).read_text(encoding="utf-8"), encoding="utf-8")
    return "book.html"


def print_pdfs(build: Path, out: Path) -> dict[str, Path]:
    from playwright.sync_api import sync_playwright

    if not (build / "index.html").exists():
        sys.exit(f"no single-page build at {build} (run `jupyter-book build . --builder singlehtml`)")
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (Debian: apt-get install chromium)")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    name = single_page(build)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(build)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    blocked, written = [], {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 1400})

            def route(r):
                url = r.request.url
                if url.startswith(base) or url.startswith(("data:", "blob:", "about:")):
                    r.continue_()
                else:
                    blocked.append(url)
                    r.abort()

            page.route("**/*", route)
            page.goto(base + name, wait_until="load", timeout=300_000)
            page.wait_for_load_state("networkidle", timeout=300_000)
            page.evaluate("""async () => {
                const imgs = Array.from(document.images);
                imgs.forEach(i => { i.loading = "eager"; });
                await Promise.all(imgs.map(i => i.complete ? null :
                    new Promise(r => { i.addEventListener("load", r); i.addEventListener("error", r); })));
            }""")
            if page.locator(".math").count():
                page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                       timeout=300_000)
                page.evaluate("() => MathJax.startup.promise")
                if page.locator("mjx-merror").count():
                    sys.exit("MathJax reported a TeX error in the single-page build")
            page.emulate_media(media="print")
            out.mkdir(parents=True, exist_ok=True)
            for paper, name in PAPERS.items():
                path = out / name
                page.pdf(path=str(path), format=paper, print_background=True, display_header_footer=True,
                         header_template="<span></span>",
                         footer_template='<div style="font-size:8px;width:100%;text-align:center">'
                                         f'{TITLE}, version {VERSION} ({EDITION}) &#183; CC BY 4.0 &#183; '
                                         '<span class="pageNumber"></span> / <span class="totalPages"></span>'
                                         '</div>',
                         margin={"top": "14mm", "bottom": "16mm", "left": "12mm", "right": "12mm"})
                written[paper] = path
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if blocked:
        sys.exit("the single-page build asked for other hosts: " + ", ".join(sorted(set(blocked))[:5]))
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, default=ROOT / "_build" / "singlehtml")
    ap.add_argument("--out", type=Path, default=ROOT / "_build")
    args = ap.parse_args(argv)
    titles = page_titles()
    for paper, pdf in print_pdfs(args.build, args.out).items():
        pages = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
        n_pages = re.search(r"^Pages:\s+(\d+)", pages, re.M).group(1)
        missing = missing_titles(pdf, titles)
        if missing:
            print(f"{pdf}: missing chapter titles: {missing}", file=sys.stderr)
            return 1
        print(f"{pdf} ({paper}): {n_pages} pages, all {len(titles)} chapter titles present")
    return 0


if __name__ == "__main__":
    sys.exit(main())
