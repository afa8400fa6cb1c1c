"""The package's layout rules (issue 17), checked by reading the source with :mod:`ast`.

* No module uses another module's private (underscore) name: neither
  ``from dpsens.x import _name`` / ``from .x import _name`` nor ``x._name``
  where ``x`` is a dpsens module bound by an import.  Private *modules*
  (``dpsens._validate``, ``dpsens.exercises._verdict``) may be imported; their
  public names are the package's internal API.
* Every module has a docstring whose first paragraph names the chapter(s)
  using it.
* Strict layers (issue 26): every import of a dpsens module is at the top of
  its file (an import inside a function may only fetch an optional
  third-party package such as ipywidgets), and the dpsens modules import each
  other without a cycle -- counting that importing ``dpsens.a.b`` runs
  ``dpsens/a/__init__.py`` first.  An ``if TYPE_CHECKING:`` block's imports never
  run (they name types for annotations) and are not counted.
* Every public function and method of the annotated paths has annotations
  (issue 36), and every noqa comment names its rules.
"""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

PKG = pathlib.Path(__file__).resolve().parents[2] / "src" / "dpsens"
MODULES = sorted(PKG.rglob("*.py"))


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(path: pathlib.Path, node: ast.ImportFrom) -> str:
    """The absolute module name of ``from <node.module> import ...`` inside ``path``."""
    if node.level == 0:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_package_module(name: str) -> bool:
    """Whether the dotted ``name`` is a module (or subpackage) of dpsens, not a name inside one."""
    where = PKG.parent / pathlib.Path(*name.split("."))
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists()


def _private_imports(path: pathlib.Path, tree: ast.AST) -> tuple[dict[str, str], list[str]]:
    """The local names ``tree`` (the file ``path``) binds to dpsens modules (``{name: module}``), and its
    imports of another module's private name, as readable strings."""
    here = _module_name(path)
    found = []
    module_aliases: dict[str, str] = {}        # local name -> dpsens module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _resolve(path, node)
            if not source.split(".")[0] == "dpsens":
                continue
            for alias in node.names:
                if _is_package_module(f"{source}.{alias.name}"):
                    module_aliases[alias.asname or alias.name] = f"{source}.{alias.name}"    # a module, not a name
                elif _is_private(alias.name) and source != here:
                    found.append(f"line {node.lineno}: from {source} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "dpsens":
                    module_aliases[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or "dpsens"
    return module_aliases, found


def private_crossings(path: pathlib.Path, source: str | None = None) -> list[str]:
    """Every use of another dpsens module's private name in the file ``path`` (or in ``source``
    read as if it were that file), as readable strings."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    here = _module_name(path)
    module_aliases, found = _private_imports(path, tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in module_aliases:
                owner = ".".join([module_aliases[base.id]] + chain[:0:-1])
                if owner != here:
                    found.append(f"line {node.lineno}: {base.id}.{'.'.join(reversed(chain))} (private name of {owner})")
    return found


#: Known crossings still to remove (none now).  The test fails when one disappears, so that the
#: entry is removed with it.
PENDING: dict[str, list[str]] = {}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_no_module_uses_another_modules_private_name(path):
    found = private_crossings(path)
    pending = PENDING.get(_module_name(path), [])
    assert [f.split(": ", 1)[1] for f in found] == [p.split(": ", 1)[1] for p in pending]


def test_the_checker_catches_each_form():
    """The walker itself: each forbidden form is reported, the allowed ones are not."""
    here = PKG / "probe.py"          # read as if it were a module of the package (never written)
    cases = {
        "from .neighbors import _additions\n": 1,
        "from dpsens.local import _local_sorted\n": 1,
        "from .mechanisms.sample_aggregate import _x, y\n": 1,
        "from . import neighbors\nneighbors._additions([1], [2], 1)\n": 1,
        "from dpsens import widgets as w\nw._in_kernel()\n": 1,
        "import dpsens\ndpsens.grid._png\n": 1,
        "import dpsens.grid as g\ng._png\n": 1,
        "from ._validate import as_data\n": 0,          # a private module's public name: allowed
        "from .neighbors import Pool\n": 0,
        "def _own():\n    pass\n_own()\n": 0,
        "import numpy as np\nnp._NoValue\n": 0,          # not ours
        "from . import grid\ngrid.__name__\n": 0,       # dunders are public
    }
    for source, expected in cases.items():
        found = private_crossings(here, source)
        assert len(found) == expected, (source, found)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_every_module_says_what_it_holds_and_which_chapter_uses_it(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{_module_name(path)} has no module docstring"
    first_paragraph = doc.split("\n\n")[0] + "\n\n" + "\n\n".join(doc.split("\n\n")[1:3])
    assert "chapter" in first_paragraph.lower(), f"{_module_name(path)}: the docstring names no chapter"


def test_no_module_forwards_old_names():
    """No release has been tagged, so no name is kept under an old spelling or home (issue 26):
    no module-level ``__getattr__`` (the forwarding hook of PEP 562) and no forwarding module."""
    forwarding = [_module_name(p) for p in MODULES
                  if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__"
                         or isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "__getattr__" for t in n.targets)
                         for n in ast.parse(p.read_text(encoding="utf-8")).body)]
    assert forwarding == []
    for gone in ("plots", "smooth_plots", "dp_plots", "aggregate", "deprecation"):
        assert not (PKG / f"{gone}.py").exists(), gone


def forwarding_names(path: pathlib.Path, source: str | None = None) -> list[str]:
    """The old names a module keeps for a new one (issue 36): a module-level ``old = new`` whose
    value is a function, class or imported name of the module (``_in_kernel = in_kernel``), and,
    outside a package's ``__init__``, an ``__all__`` entry the module imports instead of defining
    (a re-export that keeps a name "where it has always been found")."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    body = ast.parse(source, filename=str(path)).body
    imported = {a.asname or a.name.split(".")[0] for n in body if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    defined = {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    found = []
    for n in body:
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Name) \
                and n.value.id in imported | defined:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            found += [f"line {n.lineno}: {ast.unparse(t)} = {n.value.id}" for t in targets]
        elif path.name != "__init__.py" and isinstance(n, ast.Assign) \
                and any(getattr(t, "id", "") == "__all__" for t in n.targets):
            try:
                listed = ast.literal_eval(n.value)
            except ValueError:
                continue
            found += [f"line {n.lineno}: __all__ re-exports {name}" for name in listed if name in imported]
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_no_module_keeps_an_old_name_or_re_exports_another_modules(path):
    assert forwarding_names(path) == [], f"{_module_name(path)}: use the name from its own module"


def test_the_forwarding_check_catches_each_form():
    here = PKG / "probe.py"          # read as if it were a module of the package (never written)
    cases = {
        "from .kernel import in_kernel\n_in_kernel = in_kernel\n": 1,
        "def new():\n    pass\nold = new\n": 1,
        "class New:\n    pass\nOld: type = New\n": 1,
        "from .png import figure_png\n__all__ = ['figure_png']\n": 1,
        "from .png import figure_png\n__all__ = ['draw']\ndef draw():\n    return figure_png\n": 0,
        "LIMIT = 3\nDEFAULT = LIMIT\n": 0,            # a constant named twice is not a forwarded name
        "import numpy as np\nx = np.pi\n": 0,
    }
    for source, expected in cases.items():
        assert len(forwarding_names(here, source)) == expected, (source, forwarding_names(here, source))
    package = PKG / "widgets" / "__init__.py"         # a package's __init__ gathers its modules' names
    assert forwarding_names(package, "from .png import figure_png\n__all__ = ['figure_png']\n") == []


def package_imports(path: pathlib.Path, source: str | None = None) -> list[tuple[str, int, bool]]:
    """Every dpsens module the file ``path`` (or ``source`` read as that file) imports, as
    ``(module, line, inside a function or class)``; ``from x import y`` counts ``x.y`` when ``y`` is a module."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    found = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
            if isinstance(child, ast.ImportFrom):
                found.extend((target, child.lineno, nested) for target in _modules_imported_from(path, child))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "dpsens":
                        found.append((alias.name, child.lineno, nested))
            visit(child, inner)

    visit(ast.parse(source, filename=str(path)), False)
    return found


def _type_checking_only(node: ast.AST) -> bool:
    """Whether ``node`` is an ``if TYPE_CHECKING:`` block: its imports serve the type checker and never run."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _modules_imported_from(path: pathlib.Path, node: ast.ImportFrom) -> list[str]:
    """The dpsens modules ``from x import a, b`` (in the file ``path``) imports: ``x.a`` for each module ``a``,
    and ``x`` itself when it imports a name or nothing else."""
    base = _resolve(path, node)
    if base.split(".")[0] != "dpsens":
        return []
    subs = [f"{base}.{a.name}" for a in node.names if _is_package_module(f"{base}.{a.name}")]
    names = [a for a in node.names if not _is_package_module(f"{base}.{a.name}")]
    return subs + ([base] if names or not subs else [])


#: (importer, imported-prefix) pairs allowed inside a function or in a cycle: none any more.
KNOWN_EXCEPTIONS: set[tuple[str, str]] = set()


def _excepted(importer: str, imported: str) -> bool:
    return any(importer.startswith(a) and (imported == b or imported.startswith(b + "."))
               for a, b in KNOWN_EXCEPTIONS)


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts))]        # dpsens.a of dpsens.a.b; never the root


def import_graph(modules=None) -> dict[str, set[str]]:
    """Module -> the dpsens modules importing it runs (a submodule's parent packages included)."""
    graph: dict[str, set[str]] = {}
    for path in modules if modules is not None else MODULES:
        here = _module_name(path)
        own = set(_ancestors(here)) | {here}
        if path.name == "__init__.py":
            own.add(here)
        edges = graph.setdefault(here, set())
        for target, _, _ in package_imports(path):
            for t in _ancestors(target) + [target]:
                if t not in own and t != "dpsens" and not here.startswith(t + "."):
                    edges.add(t)
    return graph


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> list[str]:
    """Tarjan's step: the modules on ``stack`` down to ``root``, taken off it."""
    component = []
    while True:
        w = stack.pop()
        on_stack.discard(w)
        component.append(w)
        if w == root:
            return component


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = _pop_component(stack, on_stack, v)
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_every_package_import_is_at_the_top_of_its_file(path):
    here = _module_name(path)
    nested = [f"line {line}: {target}" for target, line, inside in package_imports(path)
              if inside and not _excepted(here, target)]
    assert not nested, f"{here} imports package modules inside a function (move them to the top): {nested}"


def test_the_package_modules_import_each_other_without_a_cycle():
    graph = {m: {t for t in targets if not _excepted(m, t)} for m, targets in import_graph().items()}
    assert import_cycles(graph) == []


def test_the_layer_checks_catch_each_form():
    """The walkers themselves: nested imports are found, top-level ones and third-party ones are not;
    a cycle through a package's __init__ is found."""
    here = PKG / "mechanisms" / "probe.py"          # read as if it were a module of the package (never written)
    cases = {
        "def f():\n    from ..smooth import smooth_sensitivity\n": [("dpsens.smooth", True)],
        "def f():\n    import ipywidgets\n": [],
        "class C:\n    from .. import data\n": [("dpsens.data", True)],
        "from .checks import add_noise\n": [("dpsens.mechanisms.checks", False)],
        "from .. import smooth, data\n": [("dpsens.smooth", False), ("dpsens.data", False)],
        "import dpsens.grid\n": [("dpsens.grid", False)],
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .checks import add_noise\n": [],
    }
    for source, expected in cases.items():
        assert [(t, inside) for t, _, inside in package_imports(here, source)] == expected, source
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
    # importing dpsens.mechanisms.checks from dpsens.floating_point runs dpsens/mechanisms/__init__.py
    graph = import_graph([PKG / "floating_point.py"])
    assert {"dpsens.mechanisms", "dpsens.mechanisms.checks"} <= graph["dpsens.floating_point"]


def test_the_size_of_the_ages_is_defined_once_and_true():
    """``N_AGES`` lives in :mod:`dpsens.data` only (the checkers import it) and is the data's size."""
    import dpsens as ds

    typed = [_module_name(p) for p in MODULES
             if any(isinstance(n, ast.Constant) and n.value == 32561 and type(n.value) is int
                    for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert typed == ["dpsens.data"]
    with open(ds.data.data_dir() / "adult" / "adult.data", encoding="utf-8") as f:
        assert sum(1 for line in f if line.strip()) == ds.data.N_AGES == len(ds.load_ages())


def test_every_subpackage_is_in_the_wheel():
    """pyproject.toml lists the packages by name: a new subpackage missing there is missing from the wheel."""
    import tomllib

    listed = set(tomllib.loads((PKG.parents[1] / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {_module_name(p) for p in MODULES if p.name == "__init__.py"}
    assert on_disk <= listed, f"add {sorted(on_disk - listed)} to [tool.setuptools] packages in pyproject.toml"


# Every public function and public method is annotated: each parameter (but ``self``/``cls``) and the
# return (issue 36): every module of the package.
ANNOTATED_PATHS = tuple(sorted(p.relative_to(PKG).as_posix() for p in PKG.rglob("*.py")))


def _annotated_modules() -> list[pathlib.Path]:
    paths = []
    for rel in ANNOTATED_PATHS:
        target = PKG / rel
        paths += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return paths


def unannotated_functions(path: pathlib.Path, source: str | None = None) -> list[str]:
    """Every public function or public method of a public class in ``path`` (or in ``source``) missing
    an annotation on a parameter (``self`` and ``cls`` apart) or on its return, as readable strings."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    functions = [(node, "", False) for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")]
    functions += [(item, f"{node.name}.", True) for node in tree.body
                  if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
                  for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and (not item.name.startswith("_") or item.name == "__init__")]
    found = []
    for node, owner, method in functions:
        missing = _missing_annotations(node, method)
        if missing:
            found.append(f"line {node.lineno}: {owner}{node.name} ({', '.join(missing)})")
    return found


def _missing_annotations(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[str]:
    """The parameters of ``node`` without an annotation (a method's ``self`` or ``cls`` apart), and
    ``"return"`` when its return is not annotated (``__init__`` apart)."""
    args = node.args
    params = args.posonlyargs + args.args + args.kwonlyargs
    if method and params and params[0].arg in ("self", "cls") and not any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list):
        params = params[1:]
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    missing = [a.arg for a in params if a.annotation is None]
    if node.returns is None and node.name != "__init__":
        missing.append("return")
    return missing


@pytest.mark.parametrize("path", _annotated_modules(), ids=lambda p: _module_name(p) or "dpsens")
def test_every_public_function_is_annotated(path):
    missing = unannotated_functions(path)
    assert not missing, f"{_module_name(path)}: annotate the parameters and return of {missing}"


def test_the_annotation_check_catches_each_form():
    here = PKG / "probe.py"                          # read as if it were a module of the package (never written)
    cases = {
        "def f(x: int) -> int:\n    return x\n": [],
        "def f(x, y: int) -> int:\n    return y\n": ["line 1: f (x)"],
        "def f(*args: int, **kw: str):\n    pass\n": ["line 1: f (return)"],
        "def f(*args, **kw) -> None:\n    pass\n": ["line 1: f (args, kw)"],
        "def _f(x):\n    pass\n": [],
        "class C:\n    def m(self, x) -> None:\n        pass\n": ["line 2: C.m (x)"],
        "class C:\n    def __init__(self, x: int):\n        pass\n    def _m(self, y):\n        pass\n": [],
        "class C:\n    @staticmethod\n    def m(self) -> None:\n        pass\n": ["line 3: C.m (self)"],
        "class _C:\n    def m(self, x):\n        pass\n": [],
        "def f(x: int) -> None:\n    def g(y):\n        pass\n": [],
    }
    for source, expected in cases.items():
        assert unannotated_functions(here, source) == expected, source


# Every noqa comment names the rules it silences (such as E402): one naming no rule silences
# every rule of the linter (``make lint``), including those added later.
LINTED = ("src", "tests", "tools", "_ext", "benchmarks")


def bare_noqa(source: str) -> list[int]:
    """The lines of ``source`` with a noqa comment naming no rule code."""
    return [i for i, line in enumerate(source.splitlines(), 1)
            if re.search(r"#\s*noqa(?!:\s*[A-Z]+[0-9]+)", line, flags=re.IGNORECASE)]


def test_every_noqa_names_its_rules():
    root = PKG.parents[1]
    bare = [f"{p.relative_to(root)}:{line}" for d in LINTED for p in sorted((root / d).rglob("*.py"))
            for line in bare_noqa(p.read_text(encoding="utf-8"))]
    assert not bare, f"name the rules each noqa comment silences (noqa: then the codes): {bare}"
    noqa = "#" + " noqa"                # spelled apart: this line is no such comment itself
    assert bare_noqa(f"x = 1  {noqa}\ny = 2  {noqa}: E731\nz = 3  {noqa.upper()}:F401\nw = 4  {noqa}:E501\n") == [1]
