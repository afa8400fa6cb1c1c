"""Versions, licences and citation (issue 27): one version everywhere, the licences stated.

``dpsens.__version__`` is the one place the version is set; pyproject reads
it, and the site's footer, ``CITATION.cff``, ``CHANGELOG.md``, every Colab
copy and handout and the PDF footer name it.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import yaml

import dpsens
import make_student as ms  # tools/, on sys.path by conftest

ROOT = Path(__file__).resolve().parents[2]
VERSION = dpsens.__version__


def test_one_version_everywhere():
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+)?", VERSION)   # X.Y.Z.devN between releases
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    footer = yaml.safe_load((ROOT / "_config.yml").read_text())["html"]["extra_footer"]
    assert f"Version {VERSION}" in footer
    assert f'version: "{VERSION}"' in (ROOT / "CITATION.cff").read_text()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert (f"## {VERSION} " in changelog) if "dev" not in VERSION else ("\n## Unreleased\n" in changelog)
    assert "version {VERSION}" in (ROOT / "tools" / "make_pdf.py").read_text()     # each PDF page's footer
    assert ms.version() == VERSION
    for folder in ("notebooks", "handouts"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            first = nbformat.read(path, as_version=4).cells[0].source
            assert f"version {VERSION}" in first, path


def test_licences_are_stated():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "CC BY 4.0" in (ROOT / "LICENSE-CONTENT.md").read_text()
    footer = yaml.safe_load((ROOT / "_config.yml").read_text())["html"]["extra_footer"]
    assert "CC BY 4.0" in footer and "MIT" in footer
    readme = (ROOT / "README.md").read_text()
    assert "CC BY 4.0" in readme and "How to cite" in readme and "CITATION.cff" in readme
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and set(cff["license"]) == {"MIT", "CC-BY-4.0"}
    assert cff["title"] == yaml.safe_load((ROOT / "_config.yml").read_text())["title"]


def test_every_chapter_opens_with_learning_objectives():
    import book_plan

    for stem in ms.toc_chapters():
        if stem == "intro":
            continue
        path = ROOT / "chapters" / f"{stem}.md"
        items = book_plan.objectives(path)
        assert 3 <= len(items) <= 5, stem
        body = path.read_text().split("\n# ", 1)[1]
        assert body.split("\n", 2)[2].startswith("```{admonition} Learning objectives"), stem  # right below the title
    assert "{book-objectives}" in (ROOT / "chapters" / "teachers.md").read_text()


def test_make_release_writes_version_date_citation_and_an_immutable_ref(tmp_path):
    """``tools/release.py`` (``make release VERSION=...``) on a copy of the files it edits: a release
    names its tag in the launch buttons and set-up cells (``repository.branch``) and dates the
    CHANGELOG; going back to development gives X.Y.(Z+1).dev0 and ``main`` (issue 31, item 7)."""
    import shutil

    import release
    for name in ("_config.yml", "CITATION.cff", "CHANGELOG.md", "src/dpsens/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    release.set_version(tmp_path, "9.8.7", "v9.8.7", "2027-01-02")
    config = yaml.safe_load((tmp_path / "_config.yml").read_text())
    assert config["repository"]["branch"] == "v9.8.7"
    assert "Version 9.8.7 (" in config["html"]["extra_footer"] and "/blob/v9.8.7/CHANGELOG" in config["html"]["extra_footer"]
    cff = yaml.safe_load((tmp_path / "CITATION.cff").read_text())
    assert (cff["version"], cff["date-released"]) == ("9.8.7", "2027-01-02")
    assert "## 9.8.7 -- 2027-01-02" in (tmp_path / "CHANGELOG.md").read_text()
    assert '__version__ = "9.8.7"' in (tmp_path / "src/dpsens/__init__.py").read_text()
    release.set_version(tmp_path, release.next_dev("9.8.7"), "main")
    assert yaml.safe_load((tmp_path / "_config.yml").read_text())["repository"]["branch"] == "main"
    assert '__version__ = "9.8.8.dev0"' in (tmp_path / "src/dpsens/__init__.py").read_text()
    assert (tmp_path / "CHANGELOG.md").read_text().count("## Unreleased") == 1
    with pytest.raises(ValueError, match="version must be"):
        release.set_version(tmp_path, "1.2", "x")
