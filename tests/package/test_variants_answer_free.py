"""The variant draws in the installed package know nothing of the answers (issue 31, item 3).

A student who reads ``dpsens.exercises.variants`` and ``dpsens.exercises._variants_b`` (the modules
that draw each student's numbers) must find there no way to their answer other than the exercise's
own computation: no function that computes an exercise's quantity, no book answer, no comparison
of a draw with one.  What counts as an *answer computation* is defined here precisely:

* every function or class of the ``dpsens`` package (outside ``dpsens.exercises``) that the teacher's
  registry ``tools/answer_key.py`` calls to compute an expected value (:func:`answer_functions`,
  read from the registry's source), and every function of that registry;
* any ``dpsens`` module other than the argument checks (``dpsens._validate``) and ``dpsens.data``
  for the data's size ``N_AGES`` (its loaders are answer computations above: the registry calls
  them), and any third-party package other than ``numpy``'s random generator and
  arrays (``scipy``, ``statistics``, ``pandas``: tools that compute).

The tests read the two modules with :mod:`ast` (their imports and every name they use), run every
draw with every answer-computing function replaced by one that fails, and look for the book's
answers (from the registry, in the forms a checker accepts) among their numeric literals.  The
guarantees a course needs (no answer shared by more than two students, nobody draws the book's)
are the instructor's tool's: ``tests/book/test_course_salts.py``.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import answer_key as AK  # tools/, on sys.path by conftest
import dpsens
from dpsens.exercises import _secret, variants

ROOT = Path(__file__).resolve().parents[2]
DRAW_MODULES = [ROOT / "src/dpsens/exercises/variants.py", ROOT / "src/dpsens/exercises/_variants_b.py"]
#: What a draw module may import: module -> the names it may take from it (None: the module itself).
ALLOWED_IMPORTS = {"__future__": {"annotations"}, "collections.abc": {"Callable"}, "copy": None, "hashlib": None, "math": None, "numpy": None,
                   "dpsens._validate": {"as_int"}, "dpsens": {"data"},
                   "dpsens.exercises._variants_b": {"BOOK", "DRAWS", "TEXT"}}


def _trees():
    return {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in DRAW_MODULES}


def _imports(tree: ast.Module, path: Path) -> list[tuple[str, str | None]]:
    """(module, name) for every import of a draw module (relative imports resolved)."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = ["dpsens", "exercises"][: 3 - node.level]
                module = ".".join(base + ([module] if module else []))
            out += [(module, a.name) for a in node.names]
    return out


def _dpsens_names() -> dict[str, str]:
    """Every function and class defined in the dpsens package outside ``dpsens.exercises``: name -> module."""
    found: dict[str, str] = {}
    for info in pkgutil.walk_packages(dpsens.__path__, "dpsens."):
        if info.name.startswith("dpsens.exercises"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and getattr(obj, "__module__", "") == info.name:
                found.setdefault(name, info.name)
    return found


def answer_functions() -> set[str]:
    """The names of the answer computations: every dpsens function or class called in the teacher's
    registry (``tools/answer_key.py``) and every function defined there (its helpers included)."""
    source = (ROOT / "tools" / "answer_key.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}       # module level
    package = _dpsens_names()
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in package:
                called.add(name)
    # the registry's own helpers that compute (not its key-writing plumbing)
    helpers = {n for n in defined if not n.startswith(("render", "main", "roster", "entry", "salt", "scheme", "_hashes",
                                                       "_shown", "answers", "variant_key", "exercise", "register",
                                                       "abs_"))}
    return called | helpers


def test_the_definition_finds_the_computations_the_solutions_use():
    names = answer_functions()
    # a sample the solutions call, from the chapters they belong to: if these are not found, the
    # definition above has gone blind
    assert {"smooth_sensitivity", "distance_to_high_ls", "enumerate_neighbors", "sensitivity_grid",
            "gaussian_sigma", "selection_distribution", "mode_instability_distance", "pld_epsilon",
            "inverse_len_quantile", "vector_local_sensitivity", "quantile_exponential_distribution",
            "advanced_composition", "output_probability"} <= names
    assert {"median_k", "smooth_median_direct", "_ls_median", "_event_loss"} <= names


def test_the_draw_modules_import_nothing_that_computes_an_answer():
    bad = []
    for path, tree in zip(DRAW_MODULES, _trees().values(), strict=True):
        for module, name in _imports(tree, path):
            allowed = ALLOWED_IMPORTS.get(module, set())
            if module not in ALLOWED_IMPORTS or (allowed is not None and name not in allowed):
                bad.append(f"{path.name}: {module}.{name}" if name else f"{path.name}: {module}")
    assert not bad, bad


def test_the_draw_modules_use_no_answer_computation_by_name():
    computations = answer_functions()
    bad = []
    for file, tree in _trees().items():
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else \
                node.name if isinstance(node, ast.FunctionDef) else None
            if name in computations and name not in variants.VARIANTS:       # a draw may bear its exercise's name
                bad.append(f"{file}:{node.lineno} {name}")
            if isinstance(node, ast.FunctionDef) and name in variants.VARIANTS:
                # a draw named after its exercise calls nothing but the generator and the module's helpers
                calls = {c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                         for c in ast.walk(node) if isinstance(c, ast.Call)}
                bad += [f"{file}:{node.lineno} {name} calls {c}" for c in calls & computations]
    assert not bad, bad


def test_every_draw_runs_with_every_answer_computation_broken(monkeypatch):
    """Each draw, for several students, with every function of the dpsens package outside the
    exercises (and the data loaders) replaced by one that fails: no draw needs one."""
    def broken(*args, **kwargs):
        raise AssertionError("a draw computed something")

    for info in pkgutil.walk_packages(dpsens.__path__, "dpsens."):
        if info.name.startswith("dpsens.exercises") or info.name == "dpsens._validate":
            continue
        module = importlib.import_module(info.name)
        for name, obj in list(vars(module).items()):
            if inspect.isfunction(obj) and not name.startswith("__"):
                monkeypatch.setattr(module, name, broken)
    for name in variants.VARIANTS:
        for seed in (1, 2, 3, 12345, 2**31 - 2):
            params = variants.variant_params(name, seed)
            assert params != variants.VARIANTS[name]
            assert variants.variant_text(name, seed)


def _numeric_literals() -> list[tuple[str, int, float]]:
    out = []
    for file, tree in _trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                    and not isinstance(node.value, bool):
                out.append((file, node.lineno, float(node.value)))
    return out


def test_no_numeric_literal_is_a_book_answer():
    """No number written in the draw modules is, in a form its checker accepts, a book answer (the
    answers too plain to look for -- a count of 5, 1.0 -- are left out, as in test_answer_leaks)."""
    from test_answer_leaks import PLAIN
    found = []
    literals = _numeric_literals()
    for name, func in AK.REGISTRY.items():
        key = func()
        if name in PLAIN or key.cases is not None or isinstance(key.value, (list, tuple)):
            continue
        near = set(_secret.tokens_near(key.value, key.scheme))
        found += [f"{file}:{line} {value:g} = {name}" for file, line, value in literals
                  if _secret.token(value, key.scheme) in near]
    assert not found, found


def test_no_book_answer_is_held_in_the_draw_modules_attributes():
    """Numbers nested in the modules' attributes (the book's parameters among them) are not book answers."""
    from test_answer_leaks import PLAIN

    def numbers(obj, depth=0):
        if depth > 4:
            return
        if isinstance(obj, (int, float)) and not isinstance(obj, bool):
            yield float(obj)
        elif isinstance(obj, dict):
            for v in obj.values():
                yield from numbers(v, depth + 1)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                yield from numbers(v, depth + 1)
    from dpsens.exercises import _variants_b
    held = {v for module in (variants, _variants_b) for k, obj in vars(module).items()
            if not k.startswith("__") for v in numbers(obj)}
    found = []
    for name, func in AK.REGISTRY.items():
        key = func()
        if name in PLAIN or key.cases is not None or isinstance(key.value, (list, tuple)):
            continue
        near = set(_secret.tokens_near(key.value, key.scheme))
        found += [f"{v:g} = {name}" for v in held if _secret.token(v, key.scheme) in near]
    assert not found, found


@pytest.mark.parametrize("name", ["smooth_student_error", "private_bound_above"])
def test_the_new_exercises_have_variants(name):
    assert name in variants.VARIANTS
    assert AK.REGISTRY[name](**variants.variant_params(name, 0)).value == AK.REGISTRY[name]().value
    seeds = [variants.student_seed(f"s{i}", "c") for i in range(5)]
    values = {AK.REGISTRY[name](**variants.variant_params(name, s)).value for s in seeds}
    assert len(values) == 5
