"""Keep the chapters in jupytext's own MyST layout, so saving one from JupyterLab changes nothing.

JupyterLab opens ``chapters/*.md`` as notebooks through jupytext (the
repository's ``.jupyter/labconfig`` and ``jupytext.toml``).  When a reader or
an author saves a chapter there, jupytext writes the whole file anew; with the
repository's ``jupytext.toml`` (no version numbers in the header) the file
stays byte-identical only if it is already in jupytext's layout -- e.g. a
blank line after a code cell's ``:tags:`` line.

``check``  list the chapters a jupytext round trip would change (exit 1 if any);
``fix``    rewrite those chapters in jupytext's layout (their cells are unchanged).

Usage: ``python tools/chapter_format.py check|fix [stem ...]``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import jupytext
from jupytext.config import find_jupytext_configuration_file, load_jupytext_configuration_file

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"


def notebook_chapters(stems=None) -> list[Path]:
    """The chapters that are jupytext notebooks (a ``jupytext:`` header), optionally by stem."""
    paths = [p for p in sorted(CHAPTERS.glob("*.md")) if p.read_text().startswith("---\njupytext:")]
    return [p for p in paths if not stems or p.stem in stems]


def as_saved(path: Path) -> str:
    """The text jupytext writes for ``path`` when it is saved with the repository's configuration."""
    config = load_jupytext_configuration_file(find_jupytext_configuration_file(str(ROOT)))
    fmt = {"extension": ".md", "format_name": "myst"}
    config.set_default_format_options(fmt, read=False)
    return jupytext.writes(jupytext.read(path), fmt=fmt)


def changed(stems=None) -> list[Path]:
    return [p for p in notebook_chapters(stems) if as_saved(p) != p.read_text()]


if __name__ == "__main__":
    cmd, args = (sys.argv[1] if len(sys.argv) > 1 else "check"), sys.argv[2:]
    if cmd == "check":
        bad = changed(args)
        for p in bad:
            print(f"{p.relative_to(ROOT)} is not in jupytext's layout")
        if bad:
            sys.exit("Run `python tools/chapter_format.py fix` and commit the chapters.")
        print("every chapter survives a jupytext round trip unchanged")
    elif cmd == "fix":
        for p in changed(args):
            p.write_text(as_saved(p))
            print(f"rewrote {p.relative_to(ROOT)}")
    else:
        sys.exit(__doc__)
