"""What readers open outside the website: the converted notebooks, JupyterLab's view of the chapters, the package's data.

* the MyST -> Jupyter converter (``tools/myst_to_jupyter.py``): every
  construct the chapters use and those they may add, on a made-up chapter;
  an unknown directive or role fails loudly;
* the committed ``notebooks/`` and fresh handouts hold no MyST-only syntax;
* ``chapters/*.md`` open as notebooks in JupyterLab (the repository's
  ``.jupyter/labconfig``) and survive a save through jupytext byte for byte;
* the package finds the Adult data when installed from a wheel into a venv
  that cannot see the repository, from another working directory.

The heavier runs -- every notebook executed in a Binder-like and a
Colab-like environment -- are in ``tests/book/test_reader_notebooks.py``
(``make test-notebooks``).
"""
from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import nbformat
import pytest
from harness import myst_chapter
from package_build import package_source  # (tests/book/package_build.py)

ROOT = Path(__file__).resolve().parents[2]
import myst_to_jupyter as m2j  # noqa: E402

import make_student as ms  # noqa: E402  (tools/, on sys.path by conftest)
import chapter_format  # noqa: E402

BOOK = m2j.load_book(ROOT)
BASE = BOOK.base_url
#: how the book numbers the global chapter's first definition (chapter 3 in _toc.yml: booktoc.chapter_numbers)
GS_DEF = f"Definition {BOOK.chapters['global']}.1"


def md_nb(text: str):
    import jupytext
    return jupytext.reads(myst_chapter(text), fmt="md:myst")


def convert(text: str, glue=None):
    return m2j.convert(md_nb(text), "a", BOOK, glue or {})


def markdown(text: str, glue=None) -> str:
    return "\n\n".join(c.source for c in convert(text, glue).cells if c.cell_type == "markdown")


# --------------------------------------------------------------------------- converter
def test_exercise_becomes_a_titled_quoted_block_with_rendered_prompt():
    out = markdown('''
        ```{exercise} A first one
        :label: ex-one

        What is **bold** and $x^2$?
        ```

        ```{exercise}
        :label: ex-two

        Second.
        ```
        ''')
    assert '<a id="ex-one"></a>' in out
    assert "> **Exercise 1 (A first one)**\n>\n> What is **bold** and $x^2$?" in out
    assert "> **Exercise 2**\n>\n> Second." in out
    assert ":label:" not in out and "```" not in out


def test_gated_and_unnumbered_exercises():
    nb = convert('''
        ```{exercise-start} Write code
        :label: ex-g
        ```

        ```{code-cell} ipython3
        answer = ...
        ```

        ```{exercise-end}
        ```

        ```{exercise} Warm-up
        :nonumber:

        Think.
        ```

        ```{exercise} Next
        :label: ex-n

        Then.
        ```

        ```{solution} ex-n
        Worked.
        ```
        ''')
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert md[0] == '<a id="ex-g"></a>\n\n**Exercise 1 (Write code)**'
    assert "> **Exercise (Warm-up)**\n>\n> Think." in md[1]
    assert "> **Exercise 2 (Next)**" in md[1]
    assert "<summary><b>Solution to Exercise 2 (Next)</b></summary>\n\nWorked." in md[1]
    assert [c.source for c in nb.cells if c.cell_type == "code"] == ["answer = ..."]


def test_gated_solution_is_folded_and_its_code_collapsed():
    nb = convert('''
        ```{exercise} Sum
        :label: ex-s

        Add.
        ```

        ```{solution-start} ex-s
        :class: dropdown
        ```

        Prose of the solution.

        ```{code-cell} ipython3
        :tags: [solution]

        answer = 1 + 1
        ```

        More prose.

        ```{code-cell} ipython3
        answer2 = 2
        ```

        ```{solution-end}
        ```

        After.
        ''')
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert md[1] == ("<details>\n<summary><b>Solution to Exercise 1 (Sum)</b></summary>\n\n"
                     "Prose of the solution.\n\n</details>")
    assert md[2].startswith("<details>") and "More prose." in md[2]
    assert md[-1] == "After."
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) == 2
    for c in code:  # both cells inside the solution block, tagged or not
        assert c.metadata["jupyter"]["source_hidden"] is True and c.metadata["cellView"] == "form"
        assert c.source.startswith("# @title Solution to Exercise 1 (Sum)")


def test_proofs_definitions_admonitions_dropdowns_and_colon_fences():
    out = markdown('''
        ```{prf:definition} Global sensitivity
        :label: def-gs

        $GS = \\max$.
        ```

        ```{prf:theorem} Big
        True.
        ```

        ```{prf:proof}
        Because.
        ```

        ```{admonition} Notes on the source
        :class: dropdown

        Hidden text.
        ```

        ```{admonition} Open box
        Seen.
        ```

        ```{note}
        A note.
        ```

        :::{dropdown} More
        Inside.
        :::

        :::{note}
        :class: dropdown
        Folded note.
        :::

        ```{math}
        :label: eq-one
        a = b
        ```
        ''')
    assert '<a id="def-gs"></a>\n\n> **Definition 1 (Global sensitivity)**\n>\n> $GS = \\max$.' in out
    assert "> **Theorem 1 (Big)**\n>\n> True." in out
    assert "> *Proof.* Because. $\\square$" in out
    assert "<details>\n<summary><b>Notes on the source</b></summary>\n\nHidden text.\n\n</details>" in out
    assert "> **Open box**\n>\n> Seen." in out
    assert "> **Note**\n>\n> A note." in out
    assert "<summary><b>More</b></summary>\n\nInside." in out
    assert "<summary><b>Note</b></summary>\n\nFolded note." in out
    assert '<a id="eq-one"></a>\n\n$$\na = b\n$$' in out
    assert not m2j.leftovers(out)


def test_roles_glue_cite_ref_numref_doc_math():
    glue = {"n_rows": {"text/plain": "32561"}, "ratio": {"text/plain": "3.14159"},
            "name": {"text/plain": "'Adult'"}}
    out = markdown('''
        (sec-here)=
        ## Here

        {glue:text}`n_rows` rows, ratio {glue:text}`ratio:.2f`, data {glue:text}`name`,
        see {cite}`becker1996adult` and {cite}`dwork2006calibrating,nissim2007smooth`;
        {ref}`chap-local`, {ref}`the median chapter <chap-median_grid>`, {numref}`def-global-sensitivity`,
        {doc}`smooth`, {math}`\\varepsilon`, and `{glue:text}` quoted as code.
        ''', glue)
    refs = f"{BASE}chapters/references.html"
    assert out.startswith('<a id="sec-here"></a>\n## Here')
    assert "32561 rows, ratio 3.14, data Adult," in out
    # author-year from references.bib (Becker & Kohavi 1996; Dwork, McSherry, Nissim & Smith 2006)
    assert f"see ([Becker and Kohavi, 1996]({refs}))" in out
    assert f"([Dwork et al., 2006; Nissim et al., 2007]({refs}))" in out
    assert f"[Local sensitivity]({BASE}chapters/local.html)" in out
    assert f"[the median chapter]({BASE}chapters/median_grid.html)" in out
    assert f"[{GS_DEF}]({BASE}chapters/global.html#def-global-sensitivity)" in out
    assert f"[Smooth sensitivity]({BASE}chapters/smooth.html)" in out
    assert "$\\varepsilon$" in out and "`{glue:text}` quoted as code" in out
    assert not m2j.leftovers(out)


def test_display_maths_in_a_quoted_box_sits_on_one_line():
    """JupyterLab takes the maths out before the Markdown: a "> " inside ``$$`` would be typeset (issue 35)."""
    out = markdown('''
        ```{prf:proof}
        The ratio is

        $$
        \\begin{aligned}
        a &= b \\\\
          &\\le c .
        \\end{aligned}
        $$

        and $$x$$ inline, $a \\le
        b$ across a line.
        ```

        $$
        y = 1
        $$
        ''')
    assert "> $$ \\begin{aligned} a &= b \\\\ &\\le c . \\end{aligned} $$\n>\n> and $$x$$ inline, $a \\le b$ across a line." in out
    assert "$$\ny = 1\n$$" in out          # outside a box a display keeps its lines
    for line in out.split("\n"):
        assert not (line.startswith(">") and m2j._open_maths(line)), line


def test_no_display_of_the_book_holds_a_tex_comment():
    """A display is put on one line inside a box (above): a ``%`` comment would swallow the rest."""
    import re
    for path in sorted((ROOT / "chapters").glob("*.md")):
        for m in re.finditer(r"\$\$(.*?)\$\$", path.read_text(), re.S):
            assert not re.search(r"(?<!\\)%", m.group(1)), f"{path.name}: a % comment in {m.group(0)[:60]!r}"


def test_links_to_a_chapter_of_the_same_set_open_its_notebook():
    import dataclasses
    book = dataclasses.replace(BOOK, local=frozenset({"local", "global", "dp"}))
    text = "{ref}`chap-local`, {numref}`def-global-sensitivity`, {doc}`smooth`, {ref}`chap-notation`.\n"
    nb = m2j.convert(md_nb(text), "dp", book, {})
    out = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "[Local sensitivity](local.ipynb)" in out
    assert f"[{GS_DEF}](global.ipynb#def-global-sensitivity)" in out
    here = m2j.convert(md_nb(text), "global", book, {})
    assert f"[{GS_DEF}](#def-global-sensitivity)" in here.cells[0].source   # the same notebook
    assert f"[Smooth sensitivity]({BASE}chapters/smooth.html)" in out   # not in the set: the website
    assert f"({BASE}chapters/notation.html)" in out
    unlinked = dataclasses.replace(book, unlinked=frozenset({"notation", "smooth"}))
    out = m2j.convert(md_nb(text), "dp", unlinked, {}).cells[0].source
    assert out.endswith("Smooth sensitivity, Notation.") and "[Local sensitivity](local.ipynb)" in out


# ------------------------------------------------ links between the notebooks of a set (issue 35, item 6)
LINK = re.compile(r"\]\((?P<md>[^()\s]+)\)|href=\"(?P<html>[^\"]+)\"")
ANCHOR = re.compile(r'<a id="(?P<id>[^"]+)"></a>')


def links(path: Path) -> list[str]:
    """The URL of every link in the Markdown cells of the notebook ``path``, except in its
    first cell (what the notebook is; the Colab copy names its own page on the website there)."""
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]
    first = {"colab-note", "student-intro"}
    return [m.group("md") or m.group("html") for c in cells
            if not first & set(c.metadata.get("tags", [])) for m in LINK.finditer(c.source)]


def website_page(url: str) -> str | None:
    """The stem of the book's page ``url`` opens on the public or the student site, else None."""
    for site in (ms.student_site(), BASE):
        if url.startswith(site):
            return url[len(site):].split("#", 1)[0].rsplit("/", 1)[-1].removesuffix(".html")
    return None


@pytest.mark.parametrize("folder", ["notebooks", "handouts"])
def test_links_to_a_page_of_the_set_open_its_notebook_not_the_website(folder):
    """In a lab without internet every link from one notebook to another page of the set works: a page
    with a notebook in the folder (every chapter, and the notation every chapter links) is linked as that
    notebook, and its anchor is there.  The website is linked only for the teachers' page, and only from
    the Binder/Colab copies: a handout names it without a link (the student site has a stub of it)."""
    paths = sorted((ROOT / folder).glob("*.ipynb"))
    present = {p.stem for p in paths}
    assert set(ms.handout_stems()) == present and "notation" in present
    anchors = {p.stem: set(ANCHOR.findall(p.read_text().replace('\\"', '"'))) for p in paths}
    bad, websites = [], set()
    for path in paths:
        for url in links(path):
            page = website_page(url)
            if page is not None:
                websites.add(page)
                if page in present:
                    bad.append(f"{folder}/{path.name}: {url} opens the website; link {page}.ipynb")
            elif not re.match(r"[a-z]+:", url):    # a relative link: a notebook of the folder, or an anchor
                stem, _, anchor = url.partition("#")
                stem = stem.removesuffix(".ipynb") or path.stem
                if stem not in present or (anchor and anchor not in anchors[stem]):
                    bad.append(f"{folder}/{path.name}: {url} leads nowhere in {folder}/")
    assert not bad, "\n".join(bad)
    assert websites <= (ms.TEACHER_PAGES if folder == "notebooks" else set()), websites


def test_a_label_right_after_a_table_is_not_a_row_of_it():
    """chapters/notation.md has ``(notation-stability)=`` on the line after a table: in Jupyter's Markdown the
    anchor would be the table's last row (an empty one), so the converter puts it after a blank line."""
    out = markdown("| a | b |\n| --- | --- |\n| 1 | 2 |\n(sec-next)=\n## Next\n")
    assert '| 1 | 2 |\n\n<a id="sec-next"></a>\n## Next' in out


def test_the_notation_notebooks_are_the_page_without_code():
    for folder, tag in (("notebooks", "colab-note"), ("handouts", "student-intro")):
        nb = nbformat.read(ROOT / folder / "notation.ipynb", as_version=4)
        assert all(c.cell_type == "markdown" for c in nb.cells), folder
        assert tag in nb.cells[0].metadata["tags"] and f"version {ms.version()}" in nb.cells[0].source
        text = "\n".join(c.source for c in nb.cells)
        assert "# Notation" in text and "| $b$ |" in text and "[Differential privacy in one chapter](dp.ipynb)" in text


def test_citations_in_a_set_of_notebooks_link_the_chapters_own_references():
    """In a handout a citation needs no internet: it links a last cell with the references in full (issue 35)."""
    import dataclasses
    book = dataclasses.replace(BOOK, local=frozenset({"dp"}))
    text = "See {cite}`dwork2006calibrating,nissim2007smooth` and {cite:t}`becker1996adult`, again {cite}`nissim2007smooth`.\n"
    cells = m2j.convert(md_nb(text), "dp", book, {}).cells
    assert "([Dwork et al., 2006; Nissim et al., 2007](#chapter-references))" in cells[0].source
    assert "[Becker and Kohavi (1996)](#chapter-references)" in cells[0].source
    refs = cells[-1].source.split("\n")
    assert refs[:2] == ['<a id="chapter-references"></a>', "## References"]
    items = [line for line in refs if line.startswith("- ")]
    # each cited work once, sorted by author; the full entry from references.bib (title, year)
    assert [i.split(":")[0] for i in items] == ["- Becker and Kohavi, 1996", "- Dwork et al., 2006",
                                                "- Nissim et al., 2007"]
    assert "Calibrating noise to sensitivity in private data analysis" in items[1] and "2006" in items[1]
    assert "Smooth sensitivity and sampling in private data analysis" in items[2]
    # outside a set (the converter alone) the website's references page, and no extra cell
    alone = m2j.convert(md_nb(text), "dp", BOOK, {}).cells
    assert len(alone) == 1 and f"({BASE}chapters/references.html)" in alone[0].source


def test_no_handout_links_the_websites_references():
    for path in sorted((ROOT / "handouts").glob("*.ipynb")):
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
        assert "references.html" not in text, f"{path.name}: a citation links the website"
        if "](#chapter-references)" in text:
            assert '<a id="chapter-references"></a>' in text, f"{path.name}: citations without the list"


def test_missing_glue_value_names_the_command_that_records_it():
    with pytest.raises(m2j.ConversionError, match="nbval_notebooks.py record a"):
        markdown("Value {glue:text}`nowhere`.\n")


@pytest.mark.parametrize("text, what", [
    ("```{mystery} arg\nbody\n```\n", "the directive {mystery}"),
    (":::{mystery}\nbody\n:::\n", "the directive {mystery}"),
    ("Some {mystery}`role` here.\n", "the role {mystery}"),
])
def test_unknown_directive_or_role_fails_loudly(text, what):
    with pytest.raises(m2j.ConversionError, match=what.replace("{", r"\{").replace("}", r"\}")):
        markdown(text)


def test_remove_cell_dropped_unless_a_later_cell_needs_it():
    nb = convert('''
        ```{code-cell} ipython3
        :tags: [remove-cell]

        from myst_nb import glue
        helper = 41
        ```

        ```{code-cell} ipython3
        :tags: [remove-cell]

        glue("x", helper, display=False)
        assert helper > 0
        ```

        ```{code-cell} ipython3
        print(helper + 1)
        ```

        ```{code-cell} ipython3
        :tags: [remove-input]

        plot()
        ```
        ''')
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) == 3, "the glue/assert cell is dropped: nothing later uses a name it sets"
    assert "helper = 41" in code[0].source and code[0].metadata["jupyter"]["source_hidden"]
    assert code[1].source == "print(helper + 1)" and "jupyter" not in code[1].metadata
    assert code[2].metadata["jupyter"]["source_hidden"] and code[2].source.endswith("plot()")


def test_plain_code_fences_are_left_alone():
    out = markdown('''
        ````markdown
        ```{exercise}
        :label: not-converted
        ```
        ````
        ''')
    assert "```{exercise}" in out  # quoted source, not a directive


@pytest.mark.parametrize("stem", ms.handout_stems())
def test_every_chapter_converts_with_no_myst_left(stem):
    for nb in (ms.colab_notebook(ms.read_chapter(stem), stem), ms.student_notebook(ms.read_chapter(stem), stem)):
        bad = [x for c in nb.cells if c.cell_type == "markdown" for x in m2j.leftovers(c.source)]
        assert not bad, f"{stem}: MyST left in the notebook: {bad[:5]}"
        code = [c for c in nb.cells if c.cell_type == "code"]
        hidden = [c for c in code if "remove-cell" in c.metadata.get("tags", [])]
        assert all(c.metadata["jupyter"]["source_hidden"] for c in hidden)


MYST_ONLY = [r"```\{", r":::\{", r"^:label:", r"^:class:", r"\{glue(:\w+)?\}`", r"\{cite(:\w+)?\}`",
             r"\{ref\}`", r"\{numref\}`", r"\{doc\}`", r"^\([\w-]+\)=\s*$", r"\{prf:", r"\{solution-",
             r"\{exercise\}", r"\{admonition\}", r"\{dropdown\}", r"^\+\+\+", r"^% "]


def myst_only(nb, name: str) -> list[str]:
    """Markdown cells with MyST-only syntax, and hidden cells shown as code, in a converted notebook."""
    import re
    pattern = re.compile("|".join(MYST_ONLY), re.MULTILINE)
    bad = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            # drop inline code that quotes MyST syntax on purpose
            text = re.sub(r"`[^`\n]*`", "", cell.source.replace("```", "\0"))
            if pattern.search(text.replace("\0", "```")):
                bad.append(f"{name}: {cell.source[:200]!r}")
        else:
            tags = cell.metadata.get("tags", [])
            if ("remove-cell" in tags or "remove-input" in tags) and not cell.metadata.get("jupyter", {}).get(
                    "source_hidden"):
                bad.append(f"{name}: a {tags} cell shown as code")
    return bad


def test_committed_notebooks_have_no_myst_only_syntax():
    paths = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert [p.stem for p in paths] == sorted(ms.handout_stems())
    bad = [b for path in paths for b in myst_only(nbformat.read(path, as_version=4), path.name)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("stem", ms.handout_stems())
def test_handouts_have_no_myst_only_syntax(stem):
    bad = myst_only(ms.student_notebook(ms.read_chapter(stem), stem), f"student/{stem}.ipynb")
    assert not bad, "\n".join(bad)


def test_glued_numbers_are_the_executed_values():
    """intro.md glues b = 5 / 1.0 and the 95th percentile b ln 20 of Laplace noise (5 ln 20 = 14.98)."""
    values = ms.glue_values("intro")
    assert values["intro_b"]["text/plain"] == "5.0"
    assert float(values["intro_p95"]["text/plain"]) == pytest.approx(5 * 2.995732273553991)
    text = "\n".join(c.source for c in nbformat.read(ROOT / "notebooks" / "intro.ipynb", as_version=4).cells)
    assert "{glue" not in text


# --------------------------------------------------------------------------- JupyterLab + jupytext
def test_chapters_open_as_notebooks_in_jupyterlab():
    """jupyterlab_server reads the repository's labconfig through JUPYTER_CONFIG_PATH (``make lab``)."""
    code = ("from jupyterlab_server.settings_utils import _get_overrides; import json, tempfile;"
            "print(json.dumps(_get_overrides(tempfile.mkdtemp())[0]))")
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(ROOT / ".jupyter"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    viewers = json.loads(out.stdout)["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["markdown"] == "Jupytext Notebook" and viewers["myst"] == "Jupytext Notebook"


@pytest.mark.parametrize("path", chapter_format.notebook_chapters(), ids=lambda p: p.stem)
def test_saving_a_chapter_through_jupytext_leaves_it_unchanged(path, tmp_path):
    """Open and save with jupytext's contents manager (what JupyterLab does), metadata added as Lab adds it."""
    from jupytext import TextFileContentsManager
    shutil.copy(ROOT / "jupytext.toml", tmp_path / "jupytext.toml")
    (tmp_path / "chapters").mkdir()
    shutil.copy(path, tmp_path / "chapters" / path.name)
    cm = TextFileContentsManager(root_dir=str(tmp_path))
    model = cm.get(f"chapters/{path.name}")
    assert model["type"] == "notebook"
    model["content"]["metadata"]["language_info"] = {"name": "python", "version": "3.12.1"}
    for cell in model["content"]["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"]["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
            cell["execution_count"] = 1
    cm.save(model, f"chapters/{path.name}")
    saved = (tmp_path / "chapters" / path.name).read_text()
    assert saved == path.read_text(), "run `python tools/chapter_format.py fix`"


# --------------------------------------------------------------------------- packaging

@pytest.mark.slow    # builds a wheel and a bare venv (about 25 s): the full profile (make test-full, .ci/run)
def test_wheel_carries_the_data_and_loads_it_from_anywhere(tmp_path):
    """Build a wheel, install it into a venv that cannot import the repository, load Adult elsewhere.

    The venv borrows numpy/pandas from this environment's site-packages as a
    plain path (no .pth processing, so the editable install is invisible).
    """
    wheels = tmp_path / "wheels"
    source = package_source(tmp_path / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, cwd=tmp_path)
    wheel = next(wheels.glob("dpsens-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    import zipfile
    zipfile.ZipFile(wheel).extractall(site)  # what pip does with a pure-Python wheel
    import numpy
    import pandas
    deps = sorted({str(Path(m.__file__).parents[1]) for m in (numpy, pandas)})
    (Path(site) / "borrowed.pth").write_text("\n".join(deps) + "\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import dpsens, dpsens.data as d; a = d.load_adult(); t = d.load_adult('test');"
            "print(dpsens.__file__); print(d.data_dir()); print(a.shape, t.shape)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DPSENS_DATA")}
    out = subprocess.run([str(py), "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    module, data, shapes = out.stdout.strip().splitlines()
    assert Path(module).is_relative_to(site) and Path(data) == Path(site) / "dpsens" / "bookdata"
    assert shapes == "(32561, 15) (16281, 15)"  # the UCI Adult train and test splits


def test_the_books_own_directives_have_a_rendering():
    """Every directive the book's Sphinx extensions add (``_ext/``) converts, before a chapter uses it."""
    import re
    names = {m for f in (ROOT / "_ext").glob("*.py")
             for m in re.findall(r"add_directive\(\s*[\"']([\w:-]+)[\"']", f.read_text())}
    assert names, "no directives found in _ext/"
    missing = sorted(names - set(m2j.DIRECTIVES))
    assert not missing, f"add a rendering to DIRECTIVES in tools/myst_to_jupyter.py for {missing}"


def test_check_built_compares_the_books_executions_as_nbval_would(tmp_path, monkeypatch, capsys):
    """``tools/nbval_notebooks.py check-built`` (make test's nbval check, on the book's executions):
    a cache holding the reference outputs passes; a changed checked number, a changed chapter code,
    a cell that raised and an execution older than the package each fail, naming the chapter."""
    import copy

    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    import nbval_notebooks as nv

    stem = "transformations"
    ref = nbformat.read(nv.REFS / f"{stem}.ipynb", as_version=4)
    refs = tmp_path / "refs"
    refs.mkdir()
    nbformat.write(ref, refs / f"{stem}.ipynb")
    monkeypatch.setattr(nv, "REFS", refs)

    def cache_with(nb):
        where = tmp_path / f"cache{len(list(tmp_path.glob('cache*')))}"
        executed = copy.deepcopy(nb)
        for cell in executed.cells:          # the book's build drops the marker line from the source
            cell.source = cell.source.replace(nv.MARK + "\n", "")
        get_cache(str(where)).cache_notebook_bundle(
            CacheBundleIn(executed, str(nv.CHAPTERS / f"{stem}.md")), check_validity=False)
        return where

    assert nv.check_built(cache_with(ref)) == 0
    assert "give the 13 checked outputs" in capsys.readouterr().out

    checked = [c for c in ref.cells if c.cell_type == "code" and nv.MARK in c.source]
    changed = copy.deepcopy(ref)
    cell = [c for c in changed.cells if c.cell_type == "code" and nv.MARK in c.source][-2]
    cell.outputs[0].text = cell.outputs[0].text.replace("6", "7")
    assert cell.outputs[0].text != checked[-2].outputs[0].text
    assert nv.check_built(cache_with(changed)) == 1
    assert f"{stem}, code cell" in capsys.readouterr().out

    raised = copy.deepcopy(ref)
    raised.cells[0].outputs = [nbformat.v4.new_output("error", ename="ValueError", evalue="boom", traceback=[])]
    assert nv.check_built(cache_with(raised)) == 1
    assert "raised ValueError: boom" in capsys.readouterr().out

    other_code = copy.deepcopy(ref)
    other_code.cells[0].source += "\nx = 1"
    assert nv.check_built(cache_with(other_code)) == 1
    assert "has not executed the chapter's current code" in capsys.readouterr().out

    old = cache_with(ref)
    # the package changed after the execution (an hour from now: not from the files' mtimes, which in a
    # checkout more than an hour old would put the change before the execution)
    later = time.time() + 3600
    monkeypatch.setattr(nv, "_package_time", lambda: later)
    assert nv.check_built(old) == 1
    assert "executed before the package last changed" in capsys.readouterr().out
    assert nv.expire_cache(old) == 0 and get_cache(str(old)).list_cache_records() == []
