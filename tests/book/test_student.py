"""Student notebooks and Colab copies generated from the chapters (tools/make_student.py).

The execution test runs each chapter's *student* notebook once, as a student
would (from a scratch working directory, so the data must be found through
the package), with two kinds of audit cells slipped in:

* after every exercise cell the student sees, its ``check_...`` calls are
  evaluated again and must say "not yet" (the ``...`` placeholder);
* where the chapter had a worked solution, the solution's code runs in a
  *copy* of the notebook's namespace -- so the student notebook's own state
  is untouched and later cells cannot lean on it -- and its checks must say
  "correct".

So one execution per chapter shows that every non-exercise cell runs without
the solutions, that placeholders give "not yet" and that the worked
solutions give "correct".  Chapters run two at a time.
"""
from __future__ import annotations

import ast
import concurrent.futures
import json
import os
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from harness import myst_chapter
from kernels import ipc_kernel, stream_text
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
import make_student as ms  # noqa: E402  (tools/, on sys.path by conftest)

STEMS = ms.toc_chapters()
AUDIT_TAG = "dpsens-audit"


# --------------------------------------------------------------------------- transformation
CHAPTER = myst_chapter('''\

    # A chapter

    ```{code-cell} ipython3
    import dpsens as ds
    x = 3
    ```

    ```{exercise}
    :label: ex-a

    What is x + 1?
    ```

    ```{code-cell} ipython3
    answer = ...  # your answer
    ds.exercises.check_a(answer)
    ```

    ```{solution-start} ex-a
    :class: dropdown
    ```

    The SECRET explanation, with code:

    ```python
    print("SECRET")
    ```

    ```{code-cell} ipython3
    :tags: [solution]
    # NBVAL_CHECK_OUTPUT
    answer = x + 1  # SECRET
    ds.exercises.check_a(answer)
    ```

    ```{solution-end}
    ```

    Prose after the solution stays.

    ```{exercise}
    :label: ex-b

    Write f.
    ```

    ```{solution-start} ex-b
    :class: dropdown
    ```

    ```{code-cell} ipython3
    :tags: [solution]
    def f(y):
        return y * 2  # SECRET
    result = f(2)
    ds.exercises.check_b(f, n=result)
    ```

    ```{solution-end}
    ```

    ````{solution} ex-b
    :class: dropdown
    Another SECRET, with a nested fence:
    ```python
    SECRET
    ```
    ````

    ```{code-cell} ipython3
    :tags: [remove-cell]
    # NBVAL_CHECK_OUTPUT
    print(x)
    ```
    ''')


@pytest.fixture
def chapter_nb(tmp_path):
    import jupytext
    path = tmp_path / "a.md"
    path.write_text(CHAPTER)
    return jupytext.read(path)


def test_student_notebook_drops_solutions_keeps_the_rest(chapter_nb):
    nb = ms.student_notebook(chapter_nb)
    text = "\n".join(c.source for c in nb.cells)
    assert "SECRET" not in text
    assert "NBVAL_CHECK_OUTPUT" not in text
    assert "Prose after the solution stays." in text
    assert "What is x + 1?" in text and "Write f." in text
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert nb.cells[1].metadata["tags"] == ["colab-setup"] and code[0] == ms.setup_source()
    code = code[1:]
    assert code[0] == "import dpsens as ds\nx = 3"
    # exercise a: the student cell is kept and the emptied solution would repeat it
    assert code[1] == "answer = ...  # your answer\nds.exercises.check_a(answer)"
    # exercise b had no student cell: the solution becomes a placeholder keeping the check call
    assert code[2] == "f = ...  # your answer here\nresult = ...  # your answer here\nds.exercises.check_b(f, n=result)"
    # the remove-cell `print(x)` sets no name a later cell needs: dropped, not shown as code to read
    assert len(code) == 3
    # the prompts are plain Jupyter Markdown: a titled quoted block, no MyST left
    assert "> **Exercise 1**\n>\n> What is x + 1?" in text and "> **Exercise 2**\n>\n> Write f." in text
    assert ":label:" not in text and "{exercise}" not in text
    assert nb.cells[0].metadata["tags"] == ["student-intro"]
    assert chapter_nb.cells[-1].source.startswith("# NBVAL"), "the chapter itself is not modified"


def test_placeholder_without_checker():
    assert ms.placeholder("x = compute()\nplot(x)") == "...  # your code here"
    assert ms.placeholder("ds.exercises.check_c(a, b)") == (
        "a = ...  # your answer here\nb = ...  # your answer here\nds.exercises.check_c(a, b)")


def test_colab_copy_has_setup_cell_first(chapter_nb):
    nb = ms.colab_notebook(chapter_nb, "a")
    url, branch = ms.repository()
    assert nb.cells[1].metadata["tags"] == ["colab-setup"]
    setup = nb.cells[1].source
    assert f'os.environ.get("DPSENS_BOOK_REPO", "{url}")' in setup
    assert f'os.environ.get("DPSENS_BOOK_BRANCH", "{branch}")' in setup
    # the package without its dependencies, then only the absent requirements: Colab's versions stay
    assert '"--no-deps", f"git+{REPO}@{BRANCH}"' in setup and "-e" not in setup.split()
    assert "clone" not in setup                                       # nothing lands in the student's folder
    # one visible line: Colab's form title, folded in JupyterLab
    assert setup.splitlines()[0].startswith("# @title ") and setup.splitlines()[0].endswith('{ display-mode: "form" }')
    assert nb.cells[1].metadata["cellView"] == "form" and nb.cells[1].metadata["jupyter"]["source_hidden"]
    for req in ms.requirements():
        assert repr(req) in setup
    ast.parse(setup)
    # then the whole chapter, solutions included but folded away
    text = "\n".join(c.source for c in nb.cells[2:])
    assert "SECRET" in text and "Prose after the solution stays." in text
    assert "<summary><b>Solution to Exercise 1</b></summary>" in text
    solutions = [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
    assert len(solutions) == 2 and all(c.metadata["jupyter"]["source_hidden"] for c in solutions)
    assert "NBVAL_CHECK_OUTPUT" not in text


def test_dependency_floors_accept_colabs_versions():
    """Colab (Python 3.12) ships numpy 2.0.2, pandas 2.2.2, matplotlib 3.10.0, ipywidgets 7.7.1, scipy 1.14.1."""
    from packaging.requirements import Requirement
    colab = {"numpy": "2.0.2", "pandas": "2.2.2", "matplotlib": "3.10.0", "ipywidgets": "7.7.1",
             "scipy": "1.14.1", "pillow": "11.1.0", "tqdm": "4.67.1"}
    for req in map(Requirement, ms.requirements()):
        assert req.specifier.contains(colab[req.name], prereleases=True), f"{req} rejects Colab's {colab[req.name]}"


def test_colab_setup_cell_is_a_no_op_where_the_package_is_installed(tmp_path):
    """Run the set-up cell in a fresh interpreter: it must not clone anything here."""
    import subprocess
    script = tmp_path / "setup.py"
    script.write_text(ms.setup_source() + "\nimport dpsens, myst_nb\nprint(dpsens.data.data_dir())\n")
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert Path(out.stdout.strip()) == ROOT / "data"
    assert list(tmp_path.iterdir()) == [script], "nothing cloned"


def test_colab_notebooks_match_the_chapters():
    problems = ms.stale_colab()
    assert not problems, "\n".join(problems) + "\nRun `make colab` and commit notebooks/."


# --------------------------------------------------------------------------- execution
HELPER = textwrap.dedent('''\
    def _dpsens_verdicts(source, namespace):
        """Evaluate the check_... lines of `source` in `namespace`; print their statuses."""
        import ast, json, re
        statuses = []
        for line in source.splitlines():
            if re.match(r"^\\s*(?:\\w+\\.)*check_\\w+\\(", line):
                statuses.append(getattr(eval(line.strip(), namespace), "status", "no verdict"))
        print("DPSENS-VERDICTS " + json.dumps(statuses))

    def _dpsens_isolated(source):
        """Run a worked solution in a copy of the notebook's namespace, then its checks."""
        namespace = dict(globals())
        exec(compile(source, "<worked solution>", "exec"), namespace)
        _dpsens_verdicts(source, namespace)
    ''')


def audit_notebook(stem: str):
    """The student notebook of `stem` with audit cells (see the module docstring)."""
    chapter = ms.read_chapter(stem)
    student = ms.student_notebook(chapter, stem)
    # the worked solutions, in order, keyed by the checker functions they call
    solutions = []
    inside = False
    for cell in chapter.cells:
        if cell.cell_type == "markdown":
            _, inside = ms._strip_solution_prose(cell.source, inside)
        elif cell.cell_type == "code" and ("solution" in cell.metadata.get("tags", []) or inside):
            solutions.append(ms.MARK.sub("", cell.source))

    def audit(source: str, kind: str):
        c = nbformat.v4.new_code_cell(source)
        c.metadata["tags"] = [AUDIT_TAG, kind]
        return c

    helper = audit(HELPER, "helper")
    cells = [helper]
    pending = list(solutions)
    for cell in student.cells:
        cells.append(cell)
        if cell.cell_type != "code" or not ms.checker_lines(cell.source):
            continue
        cells.append(audit(f"_dpsens_verdicts({cell.source!r}, globals())", "student"))
        funcs = {ms.CHECK.match(line).group(1) for line in ms.checker_lines(cell.source)}
        # the worked solutions of this exercise: those calling the same checkers
        while pending and ({ms.CHECK.match(x).group(1) for x in ms.checker_lines(pending[0])} & funcs
                           or not ms.checker_lines(pending[0])):
            cells.append(audit(f"_dpsens_isolated({pending.pop(0)!r})", "solution"))
    student.cells = cells
    return student, len(solutions), pending


def execute(stem: str):
    import tempfile
    nb, n_solutions, unmatched = audit_notebook(stem)
    with tempfile.TemporaryDirectory() as cwd:  # not chapters/: data must come through the package
        env_cwd = {"metadata": {"path": cwd}}
        NotebookClient(nb, timeout=300, km=ipc_kernel(cwd), resources=env_cwd).execute()
    return nb, n_solutions, unmatched


def verdicts(cell) -> list[str]:
    text = stream_text(cell)
    lines = [line for line in text.splitlines() if line.startswith("DPSENS-VERDICTS ")]
    assert len(lines) == 1, f"no verdict line in the audit cell output: {text!r}"
    return json.loads(lines[0].split(" ", 1)[1])


_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1)))
_RUNS: dict[str, concurrent.futures.Future] = {}


@pytest.fixture(scope="module")
def executions(request):
    """Start every selected chapter's execution at once (two kernels in parallel)."""
    selected = [item.callspec.params["stem"] for item in request.session.items
                if getattr(item, "callspec", None) and "stem" in item.callspec.params
                and item.module is sys.modules[__name__]]
    for stem in selected:
        if stem not in _RUNS:
            _RUNS[stem] = _POOL.submit(execute, stem)
    return _RUNS


# Every chapter executed once more in a kernel (beside nbval and the book build, which execute it too):
# about a third of the unit suite's time, so it runs in the full profile (make test-full, .ci/run).
@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_student_notebook_runs_and_checkers_answer(executions, stem):
    nb, n_solutions, unmatched = executions[stem].result()
    assert not unmatched, f"worked solutions not matched to an exercise cell: {unmatched}"
    student = [c for c in nb.cells if "student" in c.metadata.get("tags", [])]
    worked = [c for c in nb.cells if "solution" in c.metadata.get("tags", []) and AUDIT_TAG in c.metadata["tags"]]
    # proof exercises (``:class: proof-exercise``) have a worked proof but no checker cell
    n_exercises = sum(c.source.count("{exercise}") - c.source.count(":class: proof-exercise")
                      for c in ms.read_chapter(stem).cells if c.cell_type == "markdown")
    assert len(worked) == n_solutions
    if stem != "intro":
        assert n_exercises >= 1 and len(student) >= n_exercises, (
            f"{stem}: {n_exercises} exercises but {len(student)} exercise cells with a checker")
    for c in student:
        got = verdicts(c)
        assert got and all(v == "not yet" for v in got), f"{stem}: placeholder gave {got} in {c.source!r}"
    for c in worked:
        if "check_" not in c.source:
            continue  # a worked solution without a checker only has to run
        got = verdicts(c)
        assert got and all(v == "correct" for v in got), f"{stem}: worked solution gave {got} in {c.source!r}"


def test_colab_setup_cell_explains_a_failed_install(tmp_path):
    """Where the repository cannot be reached the set-up cell says what failed and the two ways out
    (the wheel; binder/requirements.txt), instead of a bare CalledProcessError (issue 31)."""
    import subprocess
    script = tmp_path / "setup.py"
    script.write_text(ms.setup_source())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(DPSENS_BOOK_REPO=f"file://{tmp_path / 'no-such-repository'}", PIP_NO_INDEX="1")
    out = subprocess.run([sys.executable, "-S", str(script)], cwd=tmp_path, capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: Could not install the book's package"), out.stderr[-2000:]
    assert "no-such-repository" in last and ".whl" in last and "binder/requirements.txt" in last
    assert "CalledProcessError" not in out.stderr
