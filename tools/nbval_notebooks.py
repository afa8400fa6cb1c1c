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
``check-built``
    nbval-lax's comparison applied to the chapters as ``make book`` executed
    them (its jupyter-cache, ``_build/.jupyter_cache``) instead of a second
    execution of every chapter; ``make test`` runs it after the book build.
``expire-cache``
    Forget the cached executions older than the package's code, so that
    ``make book`` executes those chapters again (``make test`` runs it first).
"""
from __future__ import annotations

import sys
from datetime import timezone
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


#: Output keys nbval leaves out of the comparison (its own list, with images: nbval without --nbdime).
SKIP_COMPARE = ("metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
                "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg")


def _compared(outputs, patterns) -> dict:
    """The outputs as nbval-lax compares them: streams coalesced and keyed by their name, MIME types
    flattened, every string sanitized with ``tests/nbval_sanitize.cfg``, the SKIP_COMPARE keys left out."""
    import re

    from nbval.plugin import coalesce_streams, transform_streams_for_comparison

    def sanitize(value):
        if isinstance(value, str):
            for regex, replace in patterns:
                value = re.sub(regex, replace, value)
        return value

    flat: dict[str, list] = {}
    for out in transform_streams_for_comparison(coalesce_streams(nbformat.from_dict(
            [dict(o) for o in outputs]))):
        for key, value in out.items():
            if key in SKIP_COMPARE:
                continue
            items = value.items() if key == "data" else [(key, value)]
            for k, v in items:
                if k not in SKIP_COMPARE:
                    flat.setdefault(k, []).append(sanitize(v))
    return flat


def _code(source: str) -> str:
    """A cell's code without the marker line (the book's build drops it from the page)."""
    return "\n".join(line for line in source.strip().splitlines() if line.strip() != MARK).strip()


def _package_time() -> float:
    """When the package's code last changed (the newest mtime under src/dpsens)."""
    return max(p.stat().st_mtime for p in (ROOT / "src" / "dpsens").rglob("*.py"))


def _created(record) -> float:
    # jupyter-cache stores naive UTC datetimes
    return record.created.replace(tzinfo=timezone.utc).timestamp()


def expire_cache(cache: Path = ROOT / "_build" / ".jupyter_cache") -> int:
    """Forget the book's cached executions made before the package last changed: jupyter-cache keys
    a chapter by its code only, so without this a chapter would keep the outputs of the old package.
    ``make test`` runs it before ``make book``; the book then executes those chapters again."""
    if not Path(cache).is_dir():     # a fresh clone: nothing to forget (and no jupyter-cache import, ~1 s)
        return 0
    from jupyter_cache import get_cache

    jc = get_cache(str(cache))
    stale = [r for r in jc.list_cache_records() if _created(r) < _package_time()]
    for record in stale:
        jc.remove_cache(record.pk)
    print(f"jupyter-cache: {len(stale)} execution(s) older than the package's code forgotten")
    return 0


def _built_cells(cache: Path, records: list, name: str, want_code: list[str]):
    """The code cells of chapter ``name`` as the book build's newest execution of exactly ``want_code``
    left them; ``"stale"`` if that execution is older than the package's code, None if there is none."""
    from jupyter_cache import get_cache

    for record in sorted(records, key=lambda r: r.created, reverse=True):     # the newest first
        uri = Path(record.uri)
        if uri.name != f"{name}.md" or uri.parent.name != CHAPTERS.name:
            continue
        cells = [c for c in get_cache(str(cache)).get_cache_bundle(record.pk).nb.cells if c.cell_type == "code"]
        if [_code(c.source) for c in cells] == want_code:
            return cells if _created(record) >= _package_time() else "stale"
    return None


def _compare_built(name: str, ref: list, built: list, patterns, bad: list[str]) -> int:
    """Add to ``bad`` each built cell of chapter ``name`` that raised, or whose checked outputs differ from the
    reference's (``ref``); the number of checked cells."""
    checked = 0
    for i, (r, b) in enumerate(zip(ref, built, strict=True), start=1):
        errors = [o for o in b.outputs if o.get("output_type") == "error"]
        if errors:
            bad.append(f"{name}, code cell {i}: raised {errors[0].get('ename')}: {errors[0].get('evalue')}")
        if MARK not in r.source or r.execution_count is None:
            continue
        checked += 1
        want, got = _compared(r.outputs, patterns), _compared(b.outputs, patterns)
        if want != got:
            keys = sorted(set(want) | set(got))
            diff = [f"    {k}: reference {want.get(k)!r:.300}\n    {k}: built     {got.get(k)!r:.300}"
                    for k in keys if want.get(k) != got.get(k)]
            bad.append(f"{name}, code cell {i} ({_code(r.source).splitlines()[0][:60]}): outputs differ\n"
                       + "\n".join(diff))
    return checked


def check_built(cache: Path = ROOT / "_build" / ".jupyter_cache") -> int:
    """nbval's check on the chapters as the book build executed them (its jupyter-cache, which
    keeps each cell's outputs as the kernel sent them), not on a new execution: every chapter was
    executed with the reference's code, no cell raised, and every cell marked ``# NBVAL_CHECK_OUTPUT``
    gave the reference's outputs as nbval-lax compares them (the same sanitizing patterns, the same
    keys left out, streams coalesced).  ``make test`` runs it after ``make book``, so each chapter
    is executed once; ``make notebooks`` (nbval itself, a new execution) runs in ``make test-full``."""
    from jupyter_cache import get_cache
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns((ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8"))
    if not (Path(cache) / "global.db").exists() and not any(Path(cache).glob("*.db")):
        print(f"no jupyter-cache at {cache}: run `make book` first")
        return 1
    records = get_cache(str(cache)).list_cache_records()
    bad, checked = [], 0
    for ref_path in sorted(REFS.glob("*.ipynb")):
        name = ref_path.stem
        ref = [c for c in nbformat.read(ref_path, as_version=4).cells if c.cell_type == "code"]
        built = _built_cells(cache, records, name, [_code(c.source) for c in ref])
        if built == "stale":
            bad.append(f"{name}: executed before the package last changed (run `make book` after "
                       f"`tools/nbval_notebooks.py expire-cache`, as `make test` does)")
            continue
        if built is None:
            bad.append(f"{name}: the book build has not executed the chapter's current code "
                       f"(run `make book`; after a change to the chapter, `make nbval-refs` first)")
            continue
        checked += _compare_built(name, ref, built, patterns, bad)
    if bad:
        print("the book's executed chapters disagree with tests/notebooks/:\n  " + "\n  ".join(bad))
        return 1
    print(f"the book's executed chapters give the {checked} checked outputs of tests/notebooks/")
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "record":
        record(set(sys.argv[2:]))
    elif cmd == "check":
        sys.exit(check())
    elif cmd == "expire-cache":
        sys.exit(expire_cache(*(Path(a) for a in sys.argv[2:3])))
    elif cmd == "check-built":
        sys.exit(check_built(*(Path(a) for a in sys.argv[2:3])))
    else:
        sys.exit(f"usage: {sys.argv[0]} record [chapter ...] | check | expire-cache | check-built [jupyter-cache folder]")
