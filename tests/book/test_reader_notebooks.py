"""The notebooks run where readers run them: a Binder-like and a Colab-like environment (``make test-notebooks``).

* **Binder**: a fresh venv built as repo2docker builds it from ``binder/``
  (``pip install -r binder/requirements.txt`` from the repository root, so
  the package is installed non-editable, with its data) executes every
  ``notebooks/*.ipynb`` from a copy of that folder.
* **Colab**: a Python 3.12 venv holding Colab's preinstalled versions
  (``tools/envs/colab.txt``) executes the notebooks copied alone into a
  folder; their first cell fetches the book from a local clone standing in
  for GitHub (``DPSENS_BOOK_REPO``/``DPSENS_BOOK_BRANCH``; the clone carries
  the working tree, committed or not) and must leave every preinstalled
  version as it was.  Then the handouts (``student/``, generated fresh) run
  there with their ``...`` placeholders: every checker says "not yet".

In every executed notebook: no error output, no traceback on stderr, and
every explorer cell displays an image, HTML or a widget view -- not a repr.

The venvs are cached in ``.venv-binder/`` and ``.venv-colab/`` (rebuilt when
their requirements change); building them downloads from PyPI.  Marked
``readers``: ``make unit`` leaves these tests out, ``.ci/run`` runs them.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from kernels import stream_text  # (tests/kernels.py)
from package_build import package_source  # (tests/book/package_build.py)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.readers

import make_student as ms  # noqa: E402  (tools/, on sys.path by conftest)

RUNNER = ROOT / "tools" / "run_notebooks.py"
DISPLAYS = ("image/png", "image/jpeg", "image/svg+xml", "text/html", "application/vnd.jupyter.widget-view+json")
EXPLORER = re.compile(r"^(?!\s*(def|#)).*\b\w*explorer\(", re.MULTILINE)


def python312() -> str:
    for candidate in (os.environ.get("DPSENS_PY312"), str(Path.home() / ".pyenv/versions/3.12.1/bin/python"),
                      shutil.which("python3.12")):
        if candidate and Path(candidate).exists():
            return candidate
    if os.environ.get("CI"):
        pytest.fail("no Python 3.12 for the Binder/Colab environments (set DPSENS_PY312)")
    pytest.skip("no Python 3.12 (set DPSENS_PY312 or install it with pyenv)")


def clean_env(**extra) -> dict:
    """The environment without this repository on the path: the venvs must find everything themselves."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "DPSENS_DATA", "VIRTUAL_ENV", "JUPYTER_PATH", "PYTHONHOME")}
    env.update(extra)
    return env


def venv_for(name: str, requirements: Path) -> Path:
    """``.venv-<name>/`` with ``requirements`` installed (from the repository root), rebuilt when they change."""
    py312 = python312()
    home = ROOT / f".venv-{name}"
    stamp = home / ".dpsens-stamp"
    want = hashlib.sha256(requirements.read_bytes() + py312.encode()).hexdigest()
    if not (stamp.exists() and stamp.read_text() == want):
        shutil.rmtree(home, ignore_errors=True)
        subprocess.run([py312, "-m", "venv", str(home)], check=True)
        subprocess.run([str(home / "bin/python"), "-m", "pip", "install", "-qq", "-r", str(requirements)],
                       cwd=ROOT, env=clean_env(), check=True)
        stamp.write_text(want)
    return home / "bin" / "python"


def pip_versions(py: Path) -> dict[str, str]:
    out = subprocess.run([str(py), "-m", "pip", "list", "--format=json"], capture_output=True, text=True,
                         env=clean_env(), check=True)
    return {p["name"].lower(): p["version"] for p in json.loads(out.stdout)}


def execute(py: Path, paths: list[Path], jobs: int = 2, **env) -> list[dict]:
    out = subprocess.run([str(py), str(RUNNER), "--jobs", str(jobs), *map(str, paths)],
                         capture_output=True, text=True, env=clean_env(**env))
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def problems(executed: Path) -> list[str]:
    """Errors, tracebacks and explorer cells that show no view, in an executed notebook."""
    nb = nbformat.read(executed, as_version=4)
    bad = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        where = f"{executed.name} cell {i} ({cell.source.strip().splitlines()[-1][:60] if cell.source.strip() else ''})"
        bad += [f"{where}: {out.ename}: {out.evalue}" for out in cell.outputs if out.output_type == "error"]
        stderr = stream_text(cell, "stderr")
        if re.search(r"Traceback|Error\b", stderr):
            bad.append(f"{where}: stderr {stderr[-300:]!r}")
        if EXPLORER.search(cell.source):
            shown = [out for out in cell.outputs if out.output_type in ("display_data", "execute_result")]
            if not any(k in out.get("data", {}) for out in shown for k in DISPLAYS):
                reprs = [out.get("data", {}).get("text/plain", "")[:80] for out in shown]
                bad.append(f"{where}: explorer shows no image, HTML or widget view (only {reprs})")
    return bad


def report(results: list[dict], label: str) -> None:
    total = sum(r["seconds"] for r in results)
    lines = [f"{Path(r['path']).stem}: {r['seconds']:.1f} s" for r in results]
    print(f"\n[{label}] {len(results)} notebooks, {total:.0f} s of kernel time: " + ", ".join(lines))


@pytest.fixture(scope="module")
def stand_in_repository(tmp_path_factory) -> tuple[str, str]:
    """A local clone of this repository holding the working tree as one commit, on a branch."""
    origin = tmp_path_factory.mktemp("origin") / "book"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(origin)], check=True)
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for rel in filter(None, tracked.decode().split("\0")):
        src, dst = ROOT / rel, origin / rel
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    git = ["git", "-C", str(origin), "-c", "user.name=test", "-c", "user.email=test@example.org"]
    subprocess.run(git + ["checkout", "--quiet", "-B", "readers-test"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "--quiet", "--allow-empty", "-m", "working tree"], check=True)
    return origin.as_uri(), "readers-test"


def test_binder_environment_runs_every_notebook(tmp_path):
    py = venv_for("binder", ROOT / "binder" / "requirements.txt")
    # this working tree's package, non-editable, as repo2docker installs `.` (from a clean copy)
    source = package_source(tmp_path / "source")
    subprocess.run([str(py), "-m", "pip", "install", "-qq", "--no-deps", "--force-reinstall", str(source)],
                   cwd=tmp_path, env=clean_env(), check=True)
    where = subprocess.run([str(py), "-c", "import dpsens, sys; print(dpsens.__file__)"], cwd=tmp_path,
                           env=clean_env(), capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(py.parents[1]) and "site-packages" in where, where  # not src/
    folder = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder)
    results = execute(py, sorted(folder.glob("*.ipynb")))
    report(results, "Binder")
    assert len(results) == len(ms.handout_stems())
    bad = [p for r in results for p in problems(Path(r["out"]))]
    assert not bad, "\n".join(bad)


def test_colab_environment_runs_notebooks_and_handouts(tmp_path, stand_in_repository):
    py = venv_for("colab", ROOT / "tools" / "envs" / "colab.txt")
    subprocess.run([str(py), "-m", "pip", "uninstall", "--quiet", "--yes", "dpsens"], env=clean_env(), check=True)
    before = pip_versions(py)
    url, branch = stand_in_repository
    env = {"DPSENS_BOOK_REPO": url, "DPSENS_BOOK_BRANCH": branch}

    folder = tmp_path / "colab"
    folder.mkdir()
    for p in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copy(p, folder / p.name)
    paths = sorted(folder.glob("*.ipynb"))
    first = execute(py, paths[:1], jobs=1, **env)        # its set-up cell installs the package
    rest = execute(py, paths[1:], **env)                  # theirs find it installed
    results = first + rest
    report(results, "Colab")
    setup_seconds = first[0]["cell_seconds"][1]
    print(f"[Colab] the set-up cell (clone + install) took {setup_seconds:.1f} s")

    after = pip_versions(py)
    changed = {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v}
    assert not changed, f"the set-up cell changed Colab's preinstalled packages: {changed}"
    assert "dpsens" in after

    handouts = tmp_path / "handouts"
    handouts.mkdir()
    for stem in ms.toc_chapters():
        (handouts / f"{stem}.ipynb").write_text(ms.render(ms.student_notebook(ms.read_chapter(stem), stem)))
    student = execute(py, sorted(handouts.glob("*.ipynb")), **env)
    report(student, "Colab handouts")

    bad = [p for r in results + student for p in problems(Path(r["out"]))]
    for r in student:
        nb = nbformat.read(r["out"], as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code" and ms.checker_lines(cell.source):
                text = "\n".join([stream_text(cell)] + [o.get("data", {}).get("text/plain", "") for o in cell.outputs])
                if "Not yet:" not in text or re.search(r"\b(Correct|Wrong):", text):
                    bad.append(f"{Path(r['out']).name} cell {i}: the placeholder's checker said {text[:120]!r}")
    assert not bad, "\n".join(bad)
