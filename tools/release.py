"""Make a release a course can pin, in one command (``make release VERSION=0.2.1``).

Chapter: *For teachers* (pinning a release).

``python tools/release.py VERSION`` (a release, ``X.Y.Z``):

1. writes the version everywhere it is named: ``dpsens.__version__``, the
   site's footer (with its CHANGELOG link at the tag), ``CITATION.cff``
   (version and release date);
2. dates the CHANGELOG: its ``## Unreleased`` section becomes
   ``## VERSION -- YYYY-MM-DD``;
3. sets ``repository.branch`` in ``_config.yml`` to the tag ``vVERSION``:
   the set-up cell of every Colab copy and handout then installs the
   package from that tag, and every launch button opens that tag -- an
   immutable reference; it regenerates ``notebooks/`` and ``handouts/``;
4. commits, tags ``vVERSION``, then goes back to development: version
   ``X.Y.(Z+1).dev0``, a new ``## Unreleased`` section, the branch ``main``
   again (regenerated, committed), so the package's version changes as soon
   as the package does after a release.

``--no-git`` writes the release's files only (steps 1-3).
"""
from __future__ import annotations

import argparse
import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"\d+\.\d+\.\d+")
DEV = re.compile(r"\d+\.\d+\.\d+\.dev\d+")


def _sub(path: Path, pattern: str, repl: str, count: int = 1) -> None:
    text = path.read_text()
    new, n = re.subn(pattern, repl, text, count=count, flags=re.MULTILINE)
    if n == 0:
        raise ValueError(f"{path.name}: nothing matches {pattern!r}")
    path.write_text(new)


def set_version(root: Path, version: str, ref: str, date: str | None = None) -> None:
    """Write ``version`` (and, for a release, ``date``) and the git ``ref`` the notebooks install from."""
    if not (RELEASE.fullmatch(version) or DEV.fullmatch(version)):
        raise ValueError(f"version must be X.Y.Z (a release) or X.Y.Z.devN, got {version!r}")
    _sub(root / "src" / "dpsens" / "__init__.py", r'^__version__ = "[^"]+"', f'__version__ = "{version}"')
    config = root / "_config.yml"
    _sub(config, r"<p>Version [^ ]+ \(<a href=\"([^\"]*?)/blob/[^/]+/CHANGELOG.md\"",
         rf'<p>Version {version} (<a href="\1/blob/{ref}/CHANGELOG.md"')
    _sub(config, r"^(repository:\n(?:  .*\n)*?  branch: ).*$", rf"\g<1>{ref}")
    cff = root / "CITATION.cff"
    _sub(cff, r'^version: "[^"]+"', f'version: "{version}"')
    if date:
        _sub(cff, r'^date-released: "[^"]+"', f'date-released: "{date}"')
        _sub(root / "CHANGELOG.md", r"^## Unreleased\s*$", f"## {version} -- {date}")
    else:
        changelog = root / "CHANGELOG.md"
        if "## Unreleased" not in changelog.read_text():
            _sub(changelog, r"^## (\d)", r"## Unreleased\n\n## \1")


def next_dev(version: str) -> str:
    """``0.2.1`` -> ``0.2.2.dev0``."""
    major, minor, patch = map(int, version.split("."))
    return f"{major}.{minor}.{patch + 1}.dev0"


def regenerate() -> None:
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_student.py"), "colab"], cwd=ROOT, check=True)


def git(*args: str) -> None:
    subprocess.run(["git", "-C", str(ROOT), *args], check=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("version")
    ap.add_argument("--date", default=dt.date.today().isoformat())
    ap.add_argument("--no-git", action="store_true")
    a = ap.parse_args(argv)
    if not RELEASE.fullmatch(a.version):
        sys.exit(f"VERSION must be X.Y.Z, got {a.version!r}")
    tag = f"v{a.version}"
    set_version(ROOT, a.version, tag, a.date)
    regenerate()
    if a.no_git:
        print(f"wrote release {a.version} (ref {tag}); commit and tag it yourself")
        return
    git("commit", "-qam", f"Release {a.version}")
    git("tag", "-a", tag, "-m", f"Release {a.version}")
    dev = next_dev(a.version)
    set_version(ROOT, dev, "main")
    regenerate()
    git("commit", "-qam", f"Back to development: {dev}")
    print(f"tagged {tag}; the branch is at {dev}. Push both: git push && git push origin {tag}")


if __name__ == "__main__":
    main()
