"""Keep the nbval reference notebooks in step with the chapters.

The chapters are MyST markdown notebooks (``chapters/*.md``), the source of
truth.  nbval needs ``.ipynb`` files that hold the *expected* outputs, so this
tool keeps one reference notebook per chapter in ``tests/notebooks/``:

``record``
    Convert every chapter to a notebook, execute it, and keep the outputs of
    the cells marked ``# NBVAL_CHECK_OUTPUT`` only (the published numbers);
    other outputs are dropped, nbval-lax runs those cells without comparing.
    The values the chapter ``glue``s into its prose (outputs carrying
    ``metadata.scrapbook``) are kept too, from every cell: nbval-lax does not
    compare them, and ``tools/make_student.py`` writes them into the
    Binder/Colab notebooks and the handouts in place of ``{glue:text}``.
``check``
    Fail, naming the chapter, if a reference notebook's code differs from its
    chapter's -- i.e. someone edited a chapter and forgot ``make nbval-refs``.
    Run by ``make test`` before nbval itself.
"""
from __future__ import annotations

import sys
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
REFS = ROOT / "tests" / "notebooks"
MARK = "# NBVAL_CHECK_OUTPUT"


def chapter_notebooks():
    """(name, notebook) for every executable chapter (those with a kernelspec)."""
    for md in sorted(CHAPTERS.glob("*.md")):
        nb = jupytext.read(md)
        if "kernelspec" in nb.metadata and any(c.cell_type == "code" for c in nb.cells):
            yield md.stem, nb


def code_sources(nb) -> list[str]:
    return [c.source.strip() for c in nb.cells if c.cell_type == "code"]


def is_glue(output) -> bool:
    """Whether a cell output is a value glued into the prose (myst_nb.glue)."""
    return "scrapbook" in output.get("metadata", {})


def glue_values(name: str) -> dict:
    """{glue name: mime bundle} recorded in ``tests/notebooks/<name>.ipynb``."""
    ref = REFS / f"{name}.ipynb"
    if not ref.exists():
        return {}
    values = {}
    for cell in nbformat.read(ref, as_version=4).cells:
        for out in cell.get("outputs", []):
            if is_glue(out):
                prefix = out["metadata"]["scrapbook"].get("mime_prefix", "")
                values[out["metadata"]["scrapbook"]["name"]] = {
                    k[len(prefix):]: v for k, v in out["data"].items() if k.startswith(prefix)}
    return values


def record(names=None) -> None:
    REFS.mkdir(parents=True, exist_ok=True)
    for name, nb in chapter_notebooks():
        if names and name not in names:
            continue
        print(f"executing {name} ...", flush=True)
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(CHAPTERS)}}).execute()
        count = 0
        for cell in nb.cells:
            if cell.cell_type == "code":
                # nbval wants an execution count on every cell that has outputs;
                # number the cells 1, 2, ... so re-recording gives stable diffs
                count += 1
                cell.execution_count = count
                if MARK not in cell.source:
                    cell.outputs = [o for o in cell.outputs if is_glue(o)]
                for out in cell.outputs:
                    if "execution_count" in out:
                        out["execution_count"] = count
        nb.cells = [c for c in nb.cells if c.cell_type == "code"]
        nbformat.write(nb, REFS / f"{name}.ipynb")
    # references to chapters that no longer exist would be stale
    live = {name for name, _ in chapter_notebooks()}
    for ref in REFS.glob("*.ipynb"):
        if ref.stem not in live:
            ref.unlink()


def check() -> int:
    bad = []
    live = set()
    for name, nb in chapter_notebooks():
        live.add(name)
        ref = REFS / f"{name}.ipynb"
        if not ref.exists():
            bad.append(f"{name}: no reference notebook")
        elif code_sources(nbformat.read(ref, as_version=4)) != code_sources(nb):
            bad.append(f"{name}: chapter code changed since the reference was recorded")
    stale = sorted(r.stem for r in REFS.glob("*.ipynb") if r.stem not in live)
    bad += [f"{s}: reference notebook without a chapter" for s in stale]
    if bad:
        print("nbval reference notebooks are out of date:\n  " + "\n  ".join(bad)
              + "\nRun `make nbval-refs` and review the diff of tests/notebooks/.")
        return 1
    print(f"nbval reference notebooks match the {len(live)} chapters")
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "record":
        record(set(sys.argv[2:]))
    elif cmd == "check":
        sys.exit(check())
    else:
        sys.exit(f"usage: {sys.argv[0]} record [chapter ...] | check")
