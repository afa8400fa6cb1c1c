"""The committed notebooks and handouts as JupyterLab shows them (issue 35, ``make test-notebooks``).

One JupyterLab server (``jupyter lab`` of the venv, headless, token off, on a
free loopback port, autosave off, serving a *copy* of ``notebooks/`` and
``handouts/`` so nothing is ever written back) and one headless Chromium
(Debian's ``chromium`` driven by Playwright, as ``tests/book/test_site.py``
launches it).  Every ``notebooks/*.ipynb`` and ``handouts/*.ipynb`` is opened
in that one JupyterLab page, every cell laid out (``windowingMode: none``),
and:

* every Markdown cell is rendered, and no display of it is left untypeset
  (no ``$$`` in the rendered text, no MathJax error);
* no maths holds a stray ">": the text JupyterLab hands to MathJax is recorded
  as each Markdown cell is rendered (a ``MutationObserver``, before
  typesetting), and no line of any ``$$ ... $$`` or ``$ ... $`` in it starts
  with ">" -- what a quoted box's "> " becomes when JupyterLab takes a
  multi-line display out of the Markdown before parsing the quote;
* every set-up cell (a code cell whose source begins ``# @title``: the
  package's install cell and the chapter's hidden plumbing) is folded:
  JupyterLab shows its one-line placeholder, not its code.

And a link from one handout to a section of another (``dp.ipynb#...``)
opens that handout in JupyterLab (no internet needed), whose notebook holds
the anchor and scrolls to it given the fragment.

The kernel each opened notebook starts is shut down at once through the
server's REST API.  Marked ``readers`` and ``browser``: ``make unit`` leaves
it out, ``make test-notebooks`` (in ``.ci/run``) runs it.  Without Chromium
or Playwright it skips -- unless ``CI`` is set, where it fails.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from harness import CHROMIUM, cannot_run, playwright_or_skip

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
JUPYTER = Path(sys.executable).with_name("jupyter")
FOLDERS = ("notebooks", "handouts")
NOTEBOOKS = [f"{folder}/{p.name}" for folder in FOLDERS for p in sorted((ROOT / folder).glob("*.ipynb"))]
pytestmark = [pytest.mark.readers, pytest.mark.browser]

#: JupyterLab's settings for the test: every cell laid out, nothing saved, no news pop-up.
SETTINGS = {
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}

#: Records the text of every Markdown cell as JupyterLab renders it, before MathJax typesets it.
RECORD_RAW = """
window.__raw = [];
new MutationObserver(records => {
  for (const r of records) {
    const host = r.target.closest ? r.target.closest('.jp-RenderedMarkdown') : null;
    if (host && r.addedNodes.length && !host.__recorded) {
      host.__recorded = true;
      window.__raw.push(host.textContent);
    }
  }
}).observe(document, {childList: true, subtree: true});
"""

#: The state of the notebook panel now shown: rendered Markdown cells, maths, folded cells.
STATE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.widgets) return null;
  const cells = [...panel.node.querySelectorAll('.jp-Notebook > .jp-Cell, .jp-WindowedPanel-viewport > .jp-Cell')];
  const md = [...panel.node.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')];
  return {
    path: panel.context.path,
    cells: cells.length,
    rendered: md.length,
    text: md.map(m => m.textContent),
    maths: panel.node.querySelectorAll('.jp-RenderedMarkdown mjx-container').length,
    errors: panel.node.querySelectorAll('.jp-RenderedMarkdown mjx-merror').length,
    folded: cells.map(c => {
      const area = c.querySelector('.jp-InputArea');
      return !!c.querySelector('.jp-InputPlaceholder') && (!area || area.offsetParent === null);
    }),
  };
}"""

#: The notebook panel now shown is ``path``, every cell laid out, every Markdown cell rendered and its displays
#: typeset, its set-up cells folded (``arg``: :func:`expected`).  Heights settle only then (typesetting moves
#: the cells below), so a test scrolls or measures after it.
READY = ("([path, cells, md, setup]) => { const s = (" + STATE + ")(); return !!s && s.path === path"
         " && s.cells === cells && s.rendered === md && !s.text.some(t => t.includes('$$'))"
         " && setup.every(i => s.folded[i]); }")
#: Every wait is for an event or a condition of the page; this is only the limit after which it is taken
#: for a hang (issue 31: a loaded machine must not change a verdict).  Opening a notebook takes seconds.
HANG_GUARD_MS = 300_000

MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$", re.S)
STRAY = re.compile(r"(?:^|\n)[ \t]*>")


def stray_quotes(text: str) -> list[str]:
    """Maths in a rendered cell's text (before typesetting) with a line starting with ">"."""
    return [m.group(0)[:80] for m in MATH.finditer(text) if STRAY.search(m.group(0).strip("$"))]


def test_stray_quote_detector():
    assert stray_quotes("The ratio\n$$\n> a = b\n> $$\nholds.")
    assert stray_quotes("so $$ > x $$")
    assert not stray_quotes("If $\\varepsilon > 0$ then $$ a > b \\\\ c $$ and 3 > 2.")


def expected(root: Path, path: str) -> list:
    """What :data:`READY` waits for in the notebook ``path`` of the lab's ``root``: [path, cells, Markdown
    cells, indices of the set-up cells (code cells whose source begins ``# @title``)]."""
    nb = nbformat.read(root / path, as_version=4)
    setup = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith("# @title")]
    return [path, len(nb.cells), sum(c.cell_type == "markdown" for c in nb.cells), setup]


def wait_until(page, condition: str, arg=None) -> bool:
    """Wait until the page's ``condition`` (a JavaScript function of ``arg``) holds, checked every 100 ms
    (a poll, not a verdict); False after :data:`HANG_GUARD_MS` (the caller's assertions then say what is wrong)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(condition, arg=arg, polling=100, timeout=HANG_GUARD_MS)
        return True
    except PlaywrightTimeout:
        return False


def in_view(page, locator) -> bool:
    """Wait until the cell holding ``locator``'s element has its top in the window (JupyterLab may
    scroll smoothly); False after the hang guard."""
    return wait_until(page, "a => { const t = a.closest('.jp-Cell').getBoundingClientRect().top;"
                            " return 0 <= t && t <= window.innerHeight; }", locator.element_handle())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(url: str, method: str = "GET"):
    with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=30) as r:
        body = r.read()
    return json.loads(body) if body else None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not JUPYTER.exists():
        cannot_run(f"no jupyter next to {sys.executable}")
    home = tmp_path_factory.mktemp("lab")
    root = home / "root"
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, root / folder)
    config = home / "config"
    (config / "labconfig").mkdir(parents=True)
    (config / "labconfig" / "default_setting_overrides.json").write_text(json.dumps(SETTINGS))
    port = free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config), "JUPYTER_CONFIG_PATH": str(config),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_PLATFORM_DIRS": "1"}
    cmd = [str(JUPYTER), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
           "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
           f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={home / 'workspaces'}",
           f"--LabApp.user_settings_dir={home / 'settings'}", "--LabApp.expose_app_in_browser=True"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = (home / "lab.log").open("w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + HANG_GUARD_MS / 1000
        while True:             # until the server answers (polled: it sends no event); the deadline is a hang guard
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited: {(home / 'lab.log').read_text()[-2000:]}")
            try:
                api(f"{url}/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer within {HANG_GUARD_MS // 1000} s (hang guard)")
                time.sleep(0.5)
        yield url, root
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def page(lab):
    url, _ = lab
    sync_playwright = playwright_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        pg.add_init_script(RECORD_RAW)
        pg.set_default_timeout(HANG_GUARD_MS)
        pg.set_default_navigation_timeout(HANG_GUARD_MS)
        pg.goto(f"{url}/lab?reset")
        pg.wait_for_function("window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')")
        pg.evaluate("() => window.jupyterapp.restored.then(() => true)")   # the layout restored: an event, not a time
        # warm-up: the first notebook opened loads JupyterLab's MathJax; open one and wait until its
        # typesetting has been recorded, so that every test sees the recorder in place (an event, not a time)
        pg.evaluate("window.__raw = []")
        pg.evaluate("p => { window.jupyterapp.commands.execute('docmanager:open', {path: p, factory: 'Notebook'}); }",
                    NOTEBOOKS[0])
        try:
            pg.wait_for_function("window.__raw && window.__raw.length > 0")
        finally:
            pg.evaluate("() => { const w = window.jupyterapp.shell.currentWidget; if (w) w.dispose(); }")
            shut_kernels(url)
        yield pg
        browser.close()


def shut_kernels(url: str) -> None:
    for session in api(f"{url}/api/sessions") or []:
        api(f"{url}/api/sessions/{session['id']}", "DELETE")


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_notebook_renders_in_jupyterlab(lab, page, path):
    url, root = lab
    nb = nbformat.read(root / path, as_version=4)
    n_md = sum(c.cell_type == "markdown" for c in nb.cells)
    setup = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith("# @title")]
    if any(c.cell_type == "code" for c in nb.cells):     # not a page without code (make_student.READING_PAGES)
        assert setup and nb.cells[setup[0]].metadata.get("tags") == ["colab-setup"], "no set-up cell"

    page.evaluate("window.__raw = []")
    page.evaluate("p => { window.jupyterapp.commands.execute('docmanager:open', {path: p, factory: 'Notebook'}); }", path)
    wait_until(page, READY, expected(root, path))    # every cell laid out, every display typeset, set-up folded
    state = page.evaluate(STATE)
    raw = page.evaluate("window.__raw")
    # closed without asking to save (the copy is thrown away), then its kernel shut down
    page.evaluate("() => { const w = window.jupyterapp.shell.currentWidget; if (w) w.dispose(); }")
    shut_kernels(url)

    assert state and state["path"] == path, f"JupyterLab did not open {path}"
    assert state["cells"] == len(nb.cells), f"{path}: {state['cells']} cells laid out of {len(nb.cells)}"
    assert state["rendered"] == n_md, f"{path}: {state['rendered']} Markdown cells rendered of {n_md}"
    untypeset = [t[t.index("$$"):][:80] for t in state["text"] if "$$" in t]
    assert not untypeset, f"{path}: displays left untypeset: {untypeset}"
    assert state["errors"] == 0, f"{path}: {state['errors']} MathJax errors"
    assert len(raw) >= n_md, f"{path}: only {len(raw)} Markdown cells recorded before typesetting"
    stray = [s for text in raw for s in stray_quotes(text)]
    assert not stray, f"{path}: maths with a stray '>' (a quoted box's marker typeset): {stray}"
    unfolded = [i for i in setup if not state["folded"][i]]
    assert not unfolded, f"{path}: set-up cells shown unfolded: {[nb.cells[i].source[:60] for i in unfolded]}"


def test_a_link_to_another_handout_opens_it_and_its_anchor_exists(lab, page):
    """Clicking the link opens the other handout in JupyterLab (4.6 opens it at the top: it does not pass a
    cross-notebook link's fragment on); the anchor the link names is in that handout, and the notebook
    scrolls to it when given the fragment (``setFragment``, what JupyterLab does with a fragment)."""
    url, root = lab
    target = "sec-dp-group"          # far down the dp handout: in view only after scrolling there
    page.evaluate("() => { window.jupyterapp.commands.execute('docmanager:open', "
                  "{path: 'handouts/vector.ipynb', factory: 'Notebook'}); }")
    link = page.locator(f'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown a[href*="dp.ipynb"][href$="#{target}"]').first
    link.wait_for(state="attached")
    wait_until(page, READY, expected(root, "handouts/vector.ipynb"))    # laid out: the link stays where it is
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_function("() => { const w = window.jupyterapp.shell.currentWidget;"
                           " return w && w.context && w.context.path === 'handouts/dp.ipynb'; }")
    anchor = page.locator(f'.jp-NotebookPanel:not(.lm-mod-hidden) [data-jupyter-id="{target}"]').first
    anchor.wait_for(state="attached")
    wait_until(page, READY, expected(root, "handouts/dp.ipynb"))   # typeset: nothing above the anchor moves any more
    page.evaluate(f"() => window.jupyterapp.shell.currentWidget.setFragment('#{target}')")
    # JupyterLab scrolls to the cell that holds the anchor (its top in view), not to the element
    in_view(page, anchor)
    cell_top = anchor.evaluate("a => a.closest('.jp-Cell').getBoundingClientRect().top")
    height = page.evaluate("window.innerHeight")
    page.evaluate("() => { for (const w of [...window.jupyterapp.shell.widgets('main')]) w.dispose(); }")
    shut_kernels(url)
    assert 0 <= cell_top <= height, f"the cell of {target} is not in view (top {cell_top})"


def test_a_citation_scrolls_to_the_handouts_own_references(lab, page):
    """A citation in a handout links the handout's last cell, its references in full: clicking it in
    JupyterLab brings that list into view, no internet needed (issue 35's student)."""
    url, root = lab
    page.evaluate("() => { window.jupyterapp.commands.execute('docmanager:open', "
                  "{path: 'handouts/exponential.ipynb', factory: 'Notebook'}); }")
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    link = page.locator(f'{panel} .jp-RenderedMarkdown a[href="#chapter-references"]').first
    link.wait_for(state="attached")
    target = page.locator(f'{panel} .jp-RenderedMarkdown [id="chapter-references"], '
                          f'{panel} .jp-RenderedMarkdown [data-jupyter-id="chapter-references"]').first
    target.wait_for(state="attached")
    wait_until(page, READY, expected(root, "handouts/exponential.ipynb"))   # typeset: the layout settled
    link.scroll_into_view_if_needed()
    link.click()
    in_view(page, target)
    top = target.evaluate("a => a.closest('.jp-Cell').getBoundingClientRect().top")
    height = page.evaluate("window.innerHeight")
    text = target.evaluate("a => a.closest('.jp-Cell').textContent")
    path = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path")
    page.evaluate("() => { for (const w of [...window.jupyterapp.shell.widgets('main')]) w.dispose(); }")
    shut_kernels(url)
    assert path == "handouts/exponential.ipynb", f"the citation left the handout for {path}"
    assert 0 <= top <= height, f"the references cell is not in view after the click (top {top})"
    assert "McSherry and Talwar, 2007" in text and "Mechanism design via differential privacy" in text


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_notation_notebook_shows_its_tables_and_maths(lab, page, folder):
    """The notation page as a notebook (every chapter's notebook links it, issue 35 item 6): each of its
    Markdown tables laid out as a table with every row, its symbols typeset, and a link from it to a
    chapter opening that chapter's notebook beside it."""
    url, root = lab
    path = f"{folder}/notation.ipynb"
    text = "\n".join(c.source for c in nbformat.read(root / path, as_version=4).cells)
    rows = sum(1 for line in text.splitlines() if line.startswith("| ") and not line.startswith("| ---"))
    tables = sum(1 for line in text.splitlines() if line.startswith("| --- "))
    page.evaluate("p => { window.jupyterapp.commands.execute('docmanager:open', {path: p, factory: 'Notebook'}); }",
                  path)
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    page.wait_for_function(f"n => document.querySelectorAll('{panel} .jp-RenderedMarkdown table').length >= n",
                           arg=tables, timeout=120_000)
    page.wait_for_function(f"() => document.querySelectorAll('{panel} .jp-RenderedMarkdown mjx-container').length > 0",
                           timeout=120_000)
    page.wait_for_timeout(1000)
    shown = page.evaluate(f"""() => {{
      const md = document.querySelector('{panel}');
      return {{tables: md.querySelectorAll('.jp-RenderedMarkdown table').length,
              rows: md.querySelectorAll('.jp-RenderedMarkdown tr').length,
              maths: md.querySelectorAll('.jp-RenderedMarkdown mjx-container').length,
              errors: md.querySelectorAll('.jp-RenderedMarkdown mjx-merror').length,
              dollars: [...md.querySelectorAll('.jp-RenderedMarkdown td')].filter(td => td.textContent.includes('$')).length}};
    }}""")
    link = page.locator(f'{panel} .jp-RenderedMarkdown a[href*="/dp.ipynb"]').first
    link.wait_for(state="attached", timeout=60_000)
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_function("p => { const w = window.jupyterapp.shell.currentWidget;"
                           " return w && w.context && w.context.path === p; }", arg=f"{folder}/dp.ipynb",
                           timeout=120_000)
    page.evaluate("() => { for (const w of [...window.jupyterapp.shell.widgets('main')]) w.dispose(); }")
    shut_kernels(url)
    assert shown["tables"] == tables and shown["rows"] == rows, (shown, tables, rows)
    assert shown["maths"] >= rows - tables and shown["errors"] == 0, shown
    assert shown["dollars"] == 0, f"{shown['dollars']} table cells with untypeset maths"
