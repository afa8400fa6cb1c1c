"""What the package exports, and how the chapters import it (issue 36, item 3).

The rules are stated in the docstring of ``dpsens/__init__.py`` and in
``CONTRIBUTING.md`` (*The package*, **Exports**):

* every module has an ``__all__``, without duplicates, and never lists a module;
* a module's ``__all__`` lists names it defines; only ``dpsens/__init__.py``
  and the package ``__init__`` files whose docstring says they gather their
  submodules' names (:data:`GATHERING`) list names defined elsewhere -- and
  then only names of their own package;
* ``dpsens.mechanisms`` does not export the argument checks;
* every public module is reachable as an attribute (``ds.vector``,
  ``ds.experiments.head_to_head``) after ``import dpsens as ds``;
* ``dpsens.__all__`` holds the published contract and names the book calls as
  ``ds.<name>``; every ``ds.<name>`` (and ``mech.<name>``) the chapters,
  handouts, notebooks, README and guide use exists;
* the chapters import the package one way: ``import dpsens as ds`` and
  ``from dpsens import mechanisms as mech``, nothing else;
* experiments import mechanisms, never the reverse; figures may import experiments.
"""
from __future__ import annotations

import ast
import collections
import importlib
import inspect
import pathlib
import re

import pytest

import dpsens as ds
from dpsens import mechanisms as mech
from test_architecture import import_graph

ROOT = pathlib.Path(__file__).resolve().parents[2]
PKG = ROOT / "src" / "dpsens"
MODULES = sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)

#: the package ``__init__`` files whose job is to gather their submodules' names
GATHERING = {"dpsens", "dpsens.mechanisms", "dpsens.transformations", "dpsens.widgets", "dpsens.exercises"}
#: the published contract: these stay ``ds.<name>``
CONTRACT = {"local_sensitivity", "global_sensitivity", "smooth_sensitivity", "Pool", "Domain", "QUERIES", "Relation"}
#: the chapters' only imports of the package
CHAPTER_IMPORTS = {"import dpsens as ds", "from dpsens import mechanisms as mech"}


def _name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _all_node(path: pathlib.Path):
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(getattr(t, "id", "") == "__all__" for t in targets):
            return node
    return None


def _defined(path: pathlib.Path) -> set[str]:
    """The names a file binds at its top level other than by an import."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_every_module_has_an_all_without_duplicates_or_modules(path):
    assert _all_node(path) is not None, f"{_name(path)} has no __all__"
    module = importlib.import_module(_name(path))
    listed = list(module.__all__)
    assert [n for n, c in collections.Counter(listed).items() if c > 1] == [], f"{_name(path)}: duplicates"
    assert [n for n in listed if not hasattr(module, n)] == [], f"{_name(path)}: __all__ names what is not there"
    assert [n for n in listed if inspect.ismodule(getattr(module, n))] == [], \
        f"{_name(path)}: a module is an attribute, not an __all__ entry"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_every_all_lists_what_its_module_defines(path):
    here = _name(path)
    module = importlib.import_module(here)
    if here in GATHERING:
        foreign = [n for n in module.__all__ if n not in _defined(path)
                   and not (getattr(getattr(module, n), "__module__", None) or here).startswith(here)]
        assert foreign == [], f"{here} gathers names from outside its package"
    else:
        assert [n for n in module.__all__ if n not in _defined(path)] == [], \
            f"{here}: __all__ lists names it imports (import them from their own module)"


def test_the_gathering_packages_say_so():
    for name in GATHERING - {"dpsens"}:
        doc = importlib.import_module(name).__doc__
        assert re.search(r"gather|imports the mechanisms|every name as", doc + _map_row(name)), name


def _map_row(package: str) -> str:
    """The module map's row for ``package`` in CONTRIBUTING.md (where the gathering is documented too)."""
    folder = package.split(".", 1)[1] + "/"
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return "\n".join(line for line in guide.splitlines() if f"`{folder}" in line)


def test_mechanisms_do_not_export_the_argument_checks():
    checks = set(importlib.import_module("dpsens._validate").__all__) | set(mech.checks.__all__)
    assert [n for n in mech.__all__ if n in checks or n.startswith(("as_", "check_"))] == []


def test_every_public_module_is_an_attribute_of_its_package():
    missing = []
    for path in MODULES:
        parts = _name(path).split(".")
        if any(p.startswith("_") for p in parts):
            continue
        obj, package = ds, ds
        for part in parts[1:]:
            package, obj = obj, getattr(obj, part, None)
        if not inspect.ismodule(obj) and parts[-1] not in getattr(package, "__all__", ()):   # a gathered function
            # of the module's own name (transformations.flat_map) takes the attribute: allowed
            missing.append(_name(path))
    assert missing == [], "import these modules in their package's __init__"


def test_the_contract_is_at_the_top():
    assert CONTRACT <= set(ds.__all__)


def _texts(*globs: str) -> dict[str, str]:
    out = {}
    for pattern in globs:
        for path in sorted(ROOT.glob(pattern)):
            out[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8", errors="replace")
    return out


#: what readers, students and teachers read and run (tools and tests hold made-up names such as ``check_x``)
BOOK = ("chapters/*.md", "handouts/*.ipynb", "notebooks/*.ipynb", "README.md", "CONTRIBUTING.md")


def test_every_top_level_name_is_used_by_the_book_or_is_the_contract():
    used = set()
    for text in _texts(*BOOK).values():
        used |= set(re.findall(r"\bds\.(\w+)", text))
    assert [n for n in ds.__all__ if n not in used | CONTRACT] == [], \
        "a name nobody calls as ds.<name>: use it from its module"


def _resolve(root, chain: list[str]):
    """Follow ``chain`` from ``root`` through modules; the first part that is no module must exist."""
    obj = root
    for part in chain:
        if not inspect.ismodule(obj):
            return True
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_every_ds_and_mech_name_the_book_uses_exists():
    missing = []
    for where, text in _texts(*BOOK).items():
        for alias, root in (("ds", ds), ("mech", mech)):
            for chain in set(re.findall(rf"(?<![\w.]){alias}((?:\.[A-Za-z_]\w*)+)", text)):
                if not chain.endswith("_") and not _resolve(root, chain.split(".")[1:]):     # check_<name>: a pattern
                    missing.append(f"{where}: {alias}{chain}")
    assert missing == []


def chapter_imports(text: str) -> list[str]:
    """Every line of a chapter's code cells that imports from the package."""
    found, code = [], False
    for line in text.splitlines():
        if line.startswith("```{code-cell}"):
            code = True
        elif code and line.startswith("```"):
            code = False
        elif code and re.match(r"\s*(import\s+dpsens|from\s+dpsens)\b", line):
            found.append(line.split("#")[0].strip())
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "chapters").glob("*.md")), ids=lambda p: p.stem)
def test_the_chapters_import_the_package_one_way(path):
    lines = chapter_imports(path.read_text(encoding="utf-8"))
    assert [line for line in lines if line not in CHAPTER_IMPORTS] == [], \
        "use ds.<module>.<name> (or mech.<module>.<name>); see CONTRIBUTING.md, Exports"


def test_the_checks_catch_each_form():
    text = "```{code-cell} ipython3\nimport dpsens as ds\nfrom dpsens import vector as V\n```\nfrom dpsens import x\n"
    assert chapter_imports(text) == ["import dpsens as ds", "from dpsens import vector as V"]
    assert _resolve(ds, ["vector", "histogram_sensitivity"]) and not _resolve(ds, ["vector", "no_such_name"])
    assert _resolve(ds, ["Pool", "anything"])          # past the first object that is no module: not checked
    assert "mean" in _defined(PKG / "queries.py") and "np" not in _defined(PKG / "queries.py")


def test_experiments_sit_above_the_mechanisms():
    """Experiments import mechanisms, never the reverse; of the rest only the figures (and the root) import them."""
    importers = sorted(m for m, targets in import_graph().items()
                       if any(t == "dpsens.experiments" or t.startswith("dpsens.experiments.") for t in targets))
    assert [m for m in importers if not m.startswith(("dpsens.experiments", "dpsens.figures")) and m != "dpsens"] == []
    assert "dpsens.mechanisms" in import_graph()["dpsens.experiments.head_to_head"]
