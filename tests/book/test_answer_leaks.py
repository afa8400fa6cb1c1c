"""A student's attacks of issue 27 on the package they install: none finds an answer.

The expected values come from the teacher's registry ``tools/answer_key.py``
(not shipped in the wheel).  Against the student package (``dpsens.exercises``)
the tests play:

* replacing the checkers' shared helpers (every function of ``_verdict``,
  ``_secret`` and the chapter modules) with spies that record their arguments
  and results, then calling every checker;
* calling every private helper of the exercise modules that takes no argument;
* reading every module's source (``inspect.getsource``), every docstring and
  every attribute (numbers nested in dicts, lists and tuples included);
* brute force: ``[k for k in range(5000) if check(k)]`` for every whole-number
  answer, and 300 log-spaced guesses for every real answer.

An answer is looked for in the forms a student would read (``repr``, 3 and 4
significant figures, the whole number).  Answers too plain to look for in text
(a count of 5, the value 1.0) are listed in :data:`PLAIN`; the brute-force test
states which answers are small enough to be guessed inside the cap on tries
(:data:`GUESSABLE`), the limit of any checker that says "correct" (see
``dpsens.exercises._secret``).
"""
from __future__ import annotations

import ast
import importlib
import inspect
import json
import math
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

import dpsens.exercises as EX
from dpsens.exercises import _secret

ROOT = Path(__file__).resolve().parents[2]
import answer_key as AK  # noqa: E402  (tools/, on sys.path by conftest)
import make_student as ms  # noqa: E402
from kernels import stream_text  # noqa: E402  (tests/kernels.py)

MODULES = [importlib.import_module(f"{EX.__name__}.{m.name}") for m in pkgutil.iter_modules(EX.__path__)]
CHAPTER_MODULES = [m for m in MODULES if not m.__name__.rsplit(".", 1)[1].startswith("_")]
CHECKERS = {name: getattr(m, name) for m in CHAPTER_MODULES for name in getattr(m, "__all__", [])
            if name.startswith("check_")}
#: Checkers of "give any example such that ..." exercises: no single answer, they test a property.
PROPERTY_CHECKERS = {"check_variance_worst_release", "check_twice_local", "check_proportion_leak_pair",
                     "check_worst_case_purchases"}
KEYS = {name: f() for name, f in AK.REGISTRY.items()}


def _key_names(func) -> list[str]:
    """The key entries a checker's source names (``check_key(answer, "name", ...)``, ``key_entry("name")``)."""
    tree = ast.parse(inspect.getsource(inspect.unwrap(func)).lstrip())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("check_key", "key_entry"):
            arg = node.args[1] if node.func.id == "check_key" else node.args[0]
            if isinstance(arg, ast.Constant):
                names.append(arg.value)
            elif isinstance(arg, ast.JoinedStr):      # f"leak_discarded_{size}"
                prefix = arg.values[0].value
                names += [n for n in KEYS if n.startswith(prefix)]
    return names


KEY_OF = {name: _key_names(func) for name, func in CHECKERS.items()}


def _spellings(value) -> set[str]:
    """The distinctive ways a student would read ``value`` back (empty when it is too plain to search)."""
    if isinstance(value, (list, tuple)):
        return set()
    v = float(value)
    if v.is_integer():
        return {str(int(v))} if abs(v) >= 100 else set()
    if len(f"{v:.6g}".replace(".", "").lstrip("0-")) < 3:
        return set()                                      # 1.2, 3.5: plain
    return {repr(v), f"{v:.3g}", f"{v:.4g}", f"{v:.5g}"}


ANSWER_FORMS = {name: _spellings(key.value) for name, key in KEYS.items() if key.cases is None}
PLAIN = sorted(name for name, forms in ANSWER_FORMS.items()
               if not forms and not isinstance(KEYS[name].value, (list, tuple)))
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w])")


def _numbers_in(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def _found(text: str, names=None) -> list[str]:
    tokens = _numbers_in(text)
    return sorted(f"{name}={form}" for name, forms in ANSWER_FORMS.items() for form in forms & tokens
                  if names is None or name in names)


@pytest.fixture(autouse=True)
def _fresh_tries():
    _secret._tries.clear()
    yield
    _secret._tries.clear()


def test_the_key_is_up_to_date_and_every_checker_uses_it():
    assert (ROOT / "src/dpsens/exercises/_key.py").read_text() == AK.render_key(), \
        "run `python tools/answer_key.py write`"
    unconverted = sorted(name for name, keys in KEY_OF.items() if not keys and name not in PROPERTY_CHECKERS)
    assert not unconverted, ("checkers with an expected value in the package (convert them: "
                             "dpsens/exercises/__init__.py's recipe): " + ", ".join(unconverted))
    assert set(k for keys in KEY_OF.values() for k in keys) == set(KEYS)
    assert set(PLAIN) >= {"bounded_mean", "dp_household_budget", "global_sum", "grid_row", "leak_local_sensitivity",
                     "local_sum", "neighbor_count", "private_join_sensitivity", "ptr_release_distance",
                     "saa_overlap_epsilon"}          # answers too plain to look for in text (1.0, 3.5, 5, ...)


def _value_of(name):
    key = KEYS[name]
    return key.value


@pytest.mark.parametrize("name", sorted(n for n in CHECKERS if n not in PROPERTY_CHECKERS))
def test_the_key_accepts_the_registry_answer(name):
    for key in KEY_OF[name]:
        value = KEYS[key].value
        if KEYS[key].cases is not None:
            continue
        kwargs = {"size": len(value[0])} if key.startswith("leak_discarded") else {}
        assert CHECKERS[name](value, **kwargs).correct, (name, key)


def test_source_docstrings_and_attributes_hold_no_answer():
    for module in MODULES:
        text = inspect.getsource(module)
        assert not _found(text), (module.__name__, _found(text))
        for obj in vars(module).values():
            doc = getattr(obj, "__doc__", None) or ""
            assert not _found(doc), (module.__name__, obj, _found(doc))
    # every number reachable from the modules' attributes
    distinctive = [float(KEYS[n].value) for n, forms in ANSWER_FORMS.items() if forms]
    seen = set()
    for module in MODULES:
        for name, obj in vars(module).items():
            if not name.startswith("__"):
                _assert_no_answer_within(obj, distinctive, seen)


def _assert_no_answer_within(obj, distinctive, seen, depth=0):
    """No number close to one of ``distinctive`` and no answer's text in ``obj`` or what it holds
    (dicts, sequences, sets; 6 levels deep; ``seen`` holds the ids already walked)."""
    if id(obj) in seen or depth > 6:
        return
    seen.add(id(obj))
    if isinstance(obj, (bool, np.bool_)):
        return
    if isinstance(obj, (int, float, np.number)):
        assert not any(math.isclose(float(obj), a, rel_tol=1e-3) for a in distinctive), obj
    elif isinstance(obj, str):
        assert not _found(obj), _found(obj)
    elif isinstance(obj, (dict, list, tuple, set, frozenset)):
        items = [x for kv in obj.items() for x in kv] if isinstance(obj, dict) else obj
        for v in items:
            _assert_no_answer_within(v, distinctive, seen, depth + 1)


def test_private_helpers_called_give_nothing():
    for module in MODULES:
        for name, obj in vars(module).items():
            if not (inspect.isfunction(obj) and obj.__module__ == module.__name__):
                continue
            params = [p for p in inspect.signature(obj).parameters.values()
                      if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if params:
                continue
            try:
                result = obj()
            except Exception:  # an attacker just moves on
                continue
            assert not _found(repr(result)), (module.__name__, name, _found(repr(result)))


def test_spies_on_every_helper_see_no_answer(monkeypatch):
    """The issue's attack: replace the shared helper (then: every helper) and call every checker."""
    seen: list[str] = []

    def spy(func):
        def wrapper(*args, **kwargs):
            result = func(*args, **kwargs)
            seen.append(repr((args, kwargs, result)))
            return result
        return wrapper

    for module in MODULES:
        for name, obj in list(vars(module).items()):
            if inspect.isfunction(obj) and not name.startswith("check_"):
                monkeypatch.setattr(module, name, spy(obj))
    for check in CHECKERS.values():
        for guess in (0.123456, 7777, [[9, 9]], "x", -3.25):
            str(check(guess))
    text = "\n".join(seen)
    assert seen and not _found(text), _found(text)


#: Whole-number answers below the cap on tries: a loop from 0 finds them before the cap.
GUESSABLE = ["crossover_d", "neighbor_count", "ptr_release_distance", "rounded_sensitivity", "saa_overlap_epsilon"]


def test_brute_force_finds_no_answer_beyond_the_cap():
    found = {}
    for name, keys in KEY_OF.items():
        for key in keys:
            k = KEYS[key]
            if k.cases is None and k.scheme == AK.INT:
                _secret._tries.clear()
                hits = [c for c in range(5000) if CHECKERS[name](c)]
                if hits:
                    found[key] = hits
                    assert k.value < _secret.MAX_TRIES
    assert sorted(found) == GUESSABLE
    # a loop over real guesses: 300 log-spaced values between 1e-6 and 1e5, then every answer exactly
    for name, keys in KEY_OF.items():
        for key in keys:
            k = KEYS[key]
            if k.cases is None and k.scheme == AK.REL3:
                _secret._tries.clear()
                assert not [g for g in np.geomspace(1e-6, 1e5, 300) if CHECKERS[name](g)], name
                assert not CHECKERS[name](k.value), "the cap holds for correct answers too"
                assert "no more" in CHECKERS[name](k.value).message


def test_verdicts_do_not_say_too_small_or_too_large():
    for name, check in CHECKERS.items():
        for guess in (17, 10 ** 6, 0.77):      # none of them a known slip
            text = str(check(guess)).lower()
            assert "too small" not in text and "too large" not in text and "smaller" not in text, name


@pytest.mark.parametrize("seed", [1, 2, 17])
def test_per_student_variants_answer_for_the_students_seed(seed):
    book = {name: KEYS[name].value for name in EX.VARIANTS}
    iterations, _secret.ITERATIONS = _secret.ITERATIONS, 1      # the student's key is built and judged here: fast
    try:
        assert EX.use_variant(json.dumps({"seed": seed, "key": {n: AK.variant_key(n, seed)[0] for n in EX.VARIANTS}})) == seed
        for name in EX.VARIANTS:
            params = EX.variant_params(name, seed)
            mine = AK.REGISTRY[name](**params).value
            check = _checker_of(name)
            assert check(mine).correct, (name, seed, params)
            if _canonical(mine) != _canonical(book[name]) and (
                    isinstance(mine, list) or not math.isclose(mine, book[name], rel_tol=0.02)):
                assert not check(book[name]), (name, seed)      # a neighbour's (the book's) answer fails
    finally:
        EX.use_variant(None)
        _secret.ITERATIONS = iterations
    assert all(_checker_of(n)(book[n]).correct for n in book)


def _checker_of(name):
    """The checker of key entry ``name`` (``check_leak_discarded`` with its ``size``)."""
    check = next(CHECKERS[c] for c, keys in KEY_OF.items() if name in keys)
    if name.startswith("leak_discarded"):
        return lambda answer: check(answer, size=int(name.rsplit("_", 1)[1]))
    return check


def _canonical(value):
    """An answer as grading compares it: a set of datasets as its token, a number to 9 decimals."""
    return _secret.token(value, AK.SET) if isinstance(value, (list, tuple)) else round(float(value), 9)


def test_variants_differ_between_students():
    params = {seed: tuple(EX.variant_params("proportion_halfwidth", seed).values()) for seed in range(1, 41)}
    assert len(set(params.values())) >= 8
    assert EX.variant_params("dp_density_ratio", 0) == {"fx": 100.0, "fxp": 103.0, "b": 2.0}
    with pytest.raises(ValueError, match="name must be one of"):
        EX.variant_params("nope", 1)


# ------------------------------------------------------------------ the handouts
def test_handouts_state_no_answer_and_link_to_student_material_only():
    leaks, public_links = [], []
    public = ms.book().base_url
    for stem in ms.toc_chapters():
        nb = ms.student_notebook(ms.read_chapter(stem), stem)
        text = "\n".join(c.source for c in nb.cells[2:])                # after the intro and set-up cells
        mine = {k for c in set(re.findall(r"check_\w+", text)) for k in KEY_OF.get(c, [])}
        leaks += [f"{stem}: {f}" for f in _found(text, mine)]
        public_links += [f"{stem}: {u}" for u in re.findall(r"\]\((https?://[^)\s]+)\)", text)
                         if u.startswith(public) and not u.startswith(ms.student_site())]
        setup = nb.cells[1]
        assert "clone" not in setup.source and setup.metadata["jupyter"]["source_hidden"], stem
        assert "notebooks/" not in text, f"{stem}: a link to the Colab copies, which hold the solutions"
    assert not leaks, leaks
    assert not public_links, public_links[:5]


def test_proof_exercises_get_an_answer_cell():
    nb = ms.student_notebook(ms.read_chapter("local"), "local")
    answers = [i for i, c in enumerate(nb.cells) if c.source.startswith("**Your proof** (Proof")]
    exercises = [i for i, c in enumerate(nb.cells) if re.search(r"\*\*Exercise [\d.]+ \(Proof", c.source)]
    assert len(answers) == len(exercises) >= 1
    assert all(a > e for a, e in zip(answers, exercises, strict=True))


def test_student_site_launch_buttons_open_the_handouts(monkeypatch):
    import launch_notebooks

    class App:
        class config:
            html_theme_options = {"repository_branch": "main"}

    def buttons():
        base = "https://colab.research.google.com/github/o/r/blob/main/"
        return {"header_buttons": [{"buttons": [{"text": "Colab", "url": base + "chapters/local.md"},
                                                {"text": "Binder", "url": "https://mybinder.org/v2/gh/o/r/main?"
                                                 "urlpath=lab/tree/chapters/local.md"}]}]}

    def urls(context):
        return [b["url"] for b in context["header_buttons"][0]["buttons"]]

    monkeypatch.setenv("DPSENS_EDITION", "student")
    monkeypatch.delenv("DPSENS_BOOK_REF", raising=False)
    context = buttons()
    launch_notebooks._launch_copies(App, "chapters/local", None, context, None)
    assert all("handouts/local.ipynb" in u for u in urls(context))
    monkeypatch.setenv("DPSENS_EDITION", "public")
    monkeypatch.setenv("DPSENS_BOOK_REF", "v0.2.0")
    context = buttons()
    launch_notebooks._launch_copies(App, "chapters/local", None, context, None)
    assert all("notebooks/local.ipynb" in u and "v0.2.0" in u and "/main" not in u for u in urls(context))


def test_a_students_numbers_come_from_their_id_and_no_key_goes_with_them():
    """A graded notebook shows ``your_numbers`` (the student's parameters, drawn from their id); the
    key is computed only by the grader (tools/grade.py), so answer_key has no handout writer."""
    text = EX.your_numbers("dp_density_ratio", "ada", "course-1")
    assert text == f"Your numbers (ada): {EX.variant_text('dp_density_ratio', EX.student_seed('ada', 'course-1'))}."
    assert EX.student_seed("ada", "course-1") != EX.student_seed("ada", "course-2")
    assert not hasattr(AK, "student_handout") and not hasattr(AK, "student_blob")
    with pytest.raises(ValueError, match="student must be"):
        EX.student_seed("")



def test_student_edition_serves_nothing_that_leads_to_solutions(monkeypatch):
    """The student site (issue 31, item 4): no page sources or download button, no repository or
    Binder button, a stub for the teachers' page (its labels kept); the public edition unchanged."""
    import types

    import editions   # _ext/, on sys.path by conftest

    def config():
        return types.SimpleNamespace(hide_solutions=False, nb_execution_cache_path="x", html_static_path=[],
                                     html_copy_source=True, html_show_sourcelink=True,
                                     html_theme_options={"use_repository_button": True,
                                                         "launch_buttons": {"binderhub_url": "https://mybinder.org",
                                                                            "colab_url": "https://colab"}})
    app = types.SimpleNamespace(srcdir=str(ROOT))
    monkeypatch.setenv("DPSENS_EDITION", "student")
    c = config()
    editions._configure(app, c)
    assert c.hide_solutions and not c.html_copy_source and not c.html_show_sourcelink
    options = c.html_theme_options
    assert not options["use_repository_button"] and not options["use_download_button"]
    assert options["launch_buttons"] == {"colab_url": "https://colab"}
    source = [(ROOT / "chapters" / "teachers.md").read_text()]
    editions._student_pages(app, "chapters/teachers", source)
    assert source[0] == editions.TEACHERS_STUB and "answer_key" not in source[0]
    labels = set(re.findall(r"^\((\S+)\)=", (ROOT / "chapters" / "teachers.md").read_text(), re.M))
    assert labels <= set(re.findall(r"^\((\S+)\)=", source[0], re.M))
    monkeypatch.setenv("DPSENS_EDITION", "public")
    c = config()
    editions._configure(app, c)
    assert c.html_copy_source and c.html_theme_options["launch_buttons"]["binderhub_url"]


# The roster of 60 (no variant answer shared beyond two students, nobody draws the book's) is the
# course tool's guarantee since the draws know no answer: tests/book/test_course_salts.py.


#: Numbers in a chapter's student version that equal an exercise's answer, in a form its checker
#: accepts, by coincidence: (chapter, "answer=form") -> what the number is there.  A student who
#: reads them learns nothing about the exercise (another quantity, most of them in another chapter).
COINCIDENCES = {
    ("vector", "mean_median_l1=36.2"): "an RMSE of the Gaussian histogram (36.2 counts), not the "
                                       "L1 sensitivity of (mean, median) the exercise asks for",
    ("sample_aggregate", "mean_median_l1=36.2"): "an error of the Laplace median (GS = 50) in the head-to-head",
    ("sample_aggregate", "plan_sensitivity=600"): "m = 600 chunks, the source's setting",
    ("exponential", "plan_sensitivity=600"): "m = 600 chunks of sample-and-aggregate in the head-to-head",
    ("accuracy", "plan_sensitivity=600"): "m = 600 chunks of sample-and-aggregate in the accuracy table",
    ("dp", "median_k=401"): "the 401 grid points of a contour plot (np.linspace(..., 401))",
    ("exponential", "median_k=401"): "a len count in the table of inverse sensitivity",
    ("local", "saa_source_epsilon=1.11"): "how many times the mean's bounded local sensitivity at k = 10 is "
                                          "below the global one",
    ("proportions", "svt_free_threshold_loss=0.91"): "the RMSE of a proportion release relative to 'n public'",
}


def _printed(cell: dict) -> str:
    """What a code cell of an executed reference notebook shows: streams, text, HTML, Markdown (glue
    records are not shown; their values are in the text where the chapter glues them)."""
    mimes = ("text/plain", "text/html", "text/markdown", "text/latex")
    streams = [stream_text(cell, name) for name in ("stdout", "stderr")]   # each whole, however chunked
    return "\n".join(streams + ["".join("".join(o.get("data", {}).get(m, "")) for m in mimes)
                                for o in cell.get("outputs", [])])


def student_version(stem: str) -> str:
    """A chapter as its student gets it, as text: the handout's cells (prose with the glued numbers,
    code without the worked solutions) and the printed outputs of every cell but the worked solutions
    (its executed reference notebook, ``tests/notebooks/<stem>.ipynb``)."""
    texts = [c.source for c in ms.student_notebook(ms.read_chapter(stem), stem).cells[2:]]
    path = ROOT / "tests" / "notebooks" / f"{stem}.ipynb"
    if path.exists():
        texts += [_printed(cell) for cell in json.loads(path.read_text())["cells"]
                  if cell["cell_type"] == "code" and "solution" not in cell["metadata"].get("tags", [])]
    return "\n".join(texts)


def test_no_chapter_prints_any_exercises_answer():
    """Issue 31, item 5: the student version of every chapter (its text with the glued numbers, its
    code and printed outputs, the worked solutions left out) shows no exercise's book answer -- of
    any chapter, not only its own -- in the forms a checker accepts (3 to 5 significant figures, the
    full value; whole numbers from 100).  Figure titles and alt text are in the built pages: the
    student-site crawl (tests/book/test_editions.py) looks for the same answers there."""
    leaks, seen = [], set()
    for stem in ms.toc_chapters():
        for f in _found(student_version(stem)):
            if (stem, f) in COINCIDENCES:
                seen.add((stem, f))
            else:
                leaks.append((stem, f))
    assert not leaks, leaks
    assert seen == set(COINCIDENCES), f"coincidences no longer printed: {set(COINCIDENCES) - seen}"


def test_the_dp_loss_figure_does_not_print_the_expected_loss():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import dpsens as ds
    losses = ds.dp.privacy_loss_samples(100.0, 101.0, scale=1.0, rng=np.random.default_rng(7), size=200)
    fig = ds.figures.dp.plot_privacy_loss(losses, 100.0, 101.0, scale=1.0)
    texts = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()] + [fig.axes[0].get_title()]
    plt.close(fig)
    assert not _found(" ".join(texts), {"dp_expected_loss"}), texts
