"""The book's one notation (chapter *Notation*), checked in the chapter sources.

* the retired spellings of a concept do not come back in the maths of any
  chapter (A(k), LS_k(f, x), GS_k(f), Δf, X_{m+s}, F(x) for a mechanism ...);
* the chapter *Sensitivity of transformations* writes the book's letters
  (t, κ, μ, q, g, φ, ψ), not the guide's it checks (d, c, m, T, S, M, r ...),
  outside its *Notes on the source* box, which translates them -- and its
  checkers and figures follow;
* every ``{ref}`` to a ``notation-*`` or ``sec-dp-*`` target names a label
  that exists;
* every chapter that uses differential privacy or a symbol links the
  notation page or the chapter *Differential privacy in one chapter*;
* the figures of the package label their axes with the notation's symbols.
"""
from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[2]
from booktoc import toc_files  # noqa: E402

CHAPTERS = [ROOT / f"{f}.md" for f in toc_files(ROOT) if (ROOT / f"{f}.md").exists()]
FENCE = re.compile(r"^```\{code-cell\}.*?^```\s*$", re.M | re.S)


def maths(path: Path, leave_out: re.Pattern | None = None) -> list[str]:
    """The $...$ and $$...$$ segments of a chapter's prose (code cells, and blocks matching ``leave_out``, left out)."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    if leave_out is not None:
        text = leave_out.sub("", text)
    display = re.findall(r"\$\$(.+?)\$\$", text, flags=re.S)
    text = re.sub(r"\$\$(.+?)\$\$", " ", text, flags=re.S)
    return display + re.findall(r"(?<!\$)\$([^$\n]+?)\$", text)


RETIRED = {
    r"A\(k\)|A\(x, ?k\)": "A^{(t)}(x): the distance is t",
    r"LS_k|GS_k|LS\(|GS\(": "LS_f(x), LS_{f,k}(x), GS_f, GS_{f,k}",
    r"\\Delta f": "GS_f",
    r"X_\{|X_[a-z]": "x_{(i)}, the order statistics from 1",
    r"e\^\{-\\beta k\}": "e^{-\\beta t}",
    r"(?<![A-Za-z\\])F\([xy]'?\)": "M(x): a mechanism is M",
}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_retired_spelling_in_the_maths(path):
    if path.stem == "notation":
        pytest.skip("the notation page names the literature's spellings on purpose")
    found = [(m, hint) for m in maths(path) for pattern, hint in RETIRED.items() if re.search(pattern, m)]
    assert not found, f"{path.stem}: retired notation {found}"


def symbols(segment: str) -> set[str]:
    """The one-letter Latin symbols of a maths segment (command names and ``\\text{...}`` left out)."""
    segment = re.sub(r"\\(?:text|mathrm|operatorname|mathbf|textbf)\{[^{}]*\}", " ", segment)
    segment = re.sub(r"\\[A-Za-z]+", " ", segment)
    return set(re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", segment))


def test_symbols_of_a_segment():
    assert symbols(r"q_1\, \kappa_2\, t_2 + \sqrt g\, q") == {"q", "t", "g"}
    assert symbols(r"\mathrm{clamp}(v) \le t \max(|\ell|, |u|)") == {"v", "t", "u"}
    assert symbols(r"T_\ell S_r M_r") == {"T", "S", "r", "M"}


#: Letters the chapter *Sensitivity of transformations* gave up (those of the guide it checks,
#: and others that name something else in the book), with the symbol it writes instead.
TRANSFORMATIONS_RETIRED = {
    "d": "t, the distance between tables",
    "c": "κ, a stability (c_i are counts)",
    "m": "μ, the rows one row becomes (m is the number of chunks)",
    "r": "q, the rows a truncation keeps (r is the rank of the median)",
    "T": "φ, ψ for a transformation, q for a truncation threshold (T is PTR's threshold)",
    "S": "κ_1, κ_2, the truncations' stabilities (S_β is smooth sensitivity)",
    "M": "t_1, t_2, the distances of the joined tables (M is a mechanism)",
    "D": "t (D is PTR's distance to high local sensitivity)",
    "L": "ℓ, the lower bound",
    "U": "u, the upper bound",
    "a": "q_1",
    "b": "q_2 (b is the Laplace scale)",
}
NOTES_BOX = re.compile(r"^```\{admonition\} Notes on the source.*?^```\s*$", re.M | re.S)


def test_transformations_writes_the_books_letters():
    path = ROOT / "chapters" / "transformations.md"
    box = NOTES_BOX.search(path.read_text(encoding="utf-8"))
    assert box and "$T_{left}$" in box.group(), "the chapter lost its translation of the guide's letters"
    found = sorted({(letter, TRANSFORMATIONS_RETIRED[letter], m.strip())
                    for m in maths(path, leave_out=NOTES_BOX)
                    for letter in symbols(m) & TRANSFORMATIONS_RETIRED.keys()})
    assert not found, "transformations: retired letters in the maths:\n" + "\n".join(map(str, found))


def test_transformations_checkers_and_figures_write_the_books_letters():
    from dpsens import exercises
    from dpsens.figures import transformations as tr

    hint = str(exercises.check_private_join_sensitivity(3))
    assert "q₁·κ₂·t₂" in hint and "T_l" not in hint
    assert "g·q = 6" in str(exercises.check_worst_case_purchases(
        pd.DataFrame({"user_id": [0] * 6, "shop": ["a"] * 3 + ["b"] * 3})))
    fig = tr.plot_contribution_noise(2, 1.0, 1e-6, 8)
    ax = fig.axes[0]
    assert ax.get_title() == "Noise on per-group counts, q = 2 row(s) per group"
    labels = ax.get_legend_handles_labels()[1]
    assert labels[0] == "Laplace: scale g·q/ε, std √2·g·q/ε" and labels[1].startswith("Gaussian: L2 sensitivity √g·q,")
    plt.close(fig)


def test_a_dataset_is_never_written_in_braces_where_it_is_called_a_release_or_x():
    bad = []
    for path in CHAPTERS:
        for m in maths(path):
            if re.fullmatch(r"\s*x'?\s*=\s*\\\{[\d, ]+\\\}\s*", m):
                bad.append((path.stem, m))
    assert not bad, f"datasets are multisets, written [..]: {bad}"


def _labels(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return set(re.findall(r"^\((\S+)\)=\s*$", text, flags=re.M)) | set(re.findall(r":label: (\S+)", text))


def test_references_to_the_notation_and_dp_chapter_exist():
    labels = set().union(*(_labels(p) for p in CHAPTERS))
    refs = set()
    for path in CHAPTERS:
        for target in re.findall(r"\{ref\}`(?:[^`<]*<)?([^`>]+)>?`", path.read_text(encoding="utf-8")):
            refs.add(target.strip())
    ours = {r for r in refs if r.startswith(("notation", "sec-dp", "chap-dp", "chap-notation"))}
    assert ours, "no chapter links the notation page"
    assert ours <= labels, f"missing targets: {sorted(ours - labels)}"


#: The executable chapters (front matter with a kernelspec); the back matter is reference material.
EXECUTABLE = [p for p in CHAPTERS if "kernelspec:" in p.read_text(encoding="utf-8").split("\n---", 1)[0]]


@pytest.mark.parametrize("path", EXECUTABLE, ids=lambda p: p.stem)
def test_every_chapter_links_the_notation_or_the_dp_chapter(path):
    text = path.read_text(encoding="utf-8")
    assert re.search(r"\{ref\}`[^`]*(notation|sec-dp|chap-dp)", text), path.stem


def test_the_dp_chapter_comes_before_neighbours_and_defines_what_they_use():
    stems = [p.stem for p in CHAPTERS]
    assert stems.index("dp") < stems.index("neighbours")
    dp = (ROOT / "chapters" / "dp.md").read_text(encoding="utf-8")
    for label in ("def-epsilon-dp", "def-epsilon-delta-dp", "thm-laplace", "thm-composition",
                  "thm-post-processing", "thm-group-privacy", "def-privacy-loss"):
        assert f":label: {label}" in dp, label


def test_figures_label_distance_t_chunks_m_and_the_proposed_bound():
    import dpsens as ds
    from dpsens.experiments import sample_aggregate as saa_exp

    fig = ds.figures.smooth.plot_smooth_curve(np.arange(5), {"curve": np.ones(5)}, title="t")
    assert fig.axes[0].get_xlabel() == "distance t (records changed)"
    fig2 = ds.figures.ptr.plot_ptr_tradeoff([0.1, 1.0], {"d": [0, 5]}, 1.0, 3.0, title="x")
    assert "Δ̂" in fig2.axes[-1].get_xlabel()              # stacked panels: the shared x axis, labelled below
    prof = saa_exp.saa_error_profile(np.arange(20.0, 80.0), "mean", [2, 4], 20.0, 80.0, 1.0,
                                 np.random.default_rng(0), n_partitions=2)
    fig3 = ds.figures.sample_aggregate.plot_saa_tradeoff({"mean": prof}, 1.0)
    assert "chunks m" in fig3.axes[0].get_xlabel()
    fig4 = ds.figures.dp.plot_group_log_ratios(0.0, 1.0, 1.0, (1, 2))
    assert fig4.axes[0].get_xlabel() == "released value z"
    for f in (fig, fig2, fig3, fig4):
        plt.close(f)


def _explorer_calls(path: Path):
    """(controls, labels) of every ``ds.widgets.explorer(...)`` call in a chapter's code cells:
    the control names, and the labels dict (names -> reader's label)."""
    import ast

    for cell in FENCE.findall(path.read_text(encoding="utf-8")):
        code = "\n".join(line for line in cell.splitlines()[1:-1] if not line.startswith(":"))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("widgets.explorer"):
                controls = node.args[1]
                labels = next((kw.value for kw in node.keywords if kw.arg == "labels"), None)
                names = [k.value for k in controls.keys] if isinstance(controls, ast.Dict) else []
                shown = (dict(zip([k.value for k in labels.keys], [v.value for v in labels.values], strict=True))
                         if labels else {})
                yield names, shown


#: What the notation page calls the symbols an explorer's control may set.
CONTROL_WORDS = {"k": "group size k", "n_chunks": "number of chunks m", "epsilon": "ε", "delta": "δ"}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_explorer_controls_show_the_readers_words(path):
    """Every control of every explorer has a label for the reader (not the argument's Python name),
    and the controls for k, m, ε and δ use the notation page's words."""
    for names, labels in _explorer_calls(path):
        assert names, f"{path.stem}: an explorer whose controls the test cannot read"
        assert set(names) <= set(labels), f"{path.stem}: controls without a reader's label: {set(names) - set(labels)}"
        for name, word in CONTROL_WORDS.items():
            if name in labels:
                assert labels[name] == word, f"{path.stem}: control {name!r} labelled {labels[name]!r}, not {word!r}"
        if "n" in labels:                                    # n, the number of records, says so
            assert labels["n"].endswith(" n"), f"{path.stem}: the control for n is labelled {labels['n']!r}"


def test_the_live_grid_explorer_shows_the_readers_words():
    from dpsens.figures import grid

    ex = grid.grid_explorer()
    assert dict(zip(ex.names, ex.labels, strict=True)) == {
        "values": "universe values", "kind": "universe is a", "n": "release size n", "k": "group size k",
        "neighbors": "neighbours", "query": "query f"}


#: Letters the chapter *Why local sensitivity leaks* gave up, with the symbol it writes instead.
LEAK_RETIRED = {
    "c": "τ, the attacker's threshold (c_i are counts)",
    "E": "λ, a level of privacy loss",
}


def test_leak_writes_the_books_letters():
    path = ROOT / "chapters" / "leak.md"
    found = sorted({(letter, LEAK_RETIRED[letter], m.strip())
                    for m in maths(path) for letter in symbols(m) & LEAK_RETIRED.keys()})
    assert not found, "leak: retired letters in the maths:\n" + "\n".join(map(str, found))
    assert r"\tau" in path.read_text(encoding="utf-8")


def test_leak_checker_and_figure_write_tau():
    import numpy as np

    from dpsens import exercises
    from dpsens.figures import audit

    # a wrong answer is told it is not the threshold τ (never whether it is too small: issue 27)
    verdict = str(exercises.check_leak_threshold(2.0))
    assert "2 is not the threshold τ" in verdict and " c " not in verdict
    t = np.array([0.5, 1.0, 2.0])
    fig = audit.plot_privacy_loss(t, 1.75 * t, 1.75 * t, 1.5 * t, 1.0)
    assert fig.axes[0].get_xlabel().startswith("attack threshold τ")
    plt.close(fig)


# ------------------------------------------------------------------ the notation page: one meaning per symbol

def notation_rows() -> list[tuple[str, list[str]]]:
    """(row's first cell, its symbols) for every row of the notation page's tables.

    A symbol is one ``$...$`` segment of the first cell, whitespace removed (``$U(x, z)$, $GS_U$``
    defines two). The first cell is tagged with the row's line number, so that two rows with the
    same first cell (``| $\\nu$ |`` twice) count as two rows, not one."""
    rows = []
    lines = (ROOT / "chapters" / "notation.md").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.startswith("| ") or line.startswith("| symbol") or line.startswith("| ---"):
            continue
        first = line.split(" | ")[0][2:]
        rows.append((f"line {number}: {first}",
                     [re.sub(r"\s+", "", m) for m in re.findall(r"\$([^$]+)\$", first)]))
    return rows


def base(symbol: str) -> str:
    """The letter a symbol is built on: ``\\rho`` of ``\\rho``, ``r`` of ``r_\\alpha``, ``U`` of ``U(x,z)``,
    ``GS`` of ``GS^{p}_f``, ``\\Delta`` of ``\\hat\\Delta`` (decorations, sub/superscripts, arguments dropped)."""
    s = re.sub(r"\\mathcal\s*\{?([A-Za-z])\}?", r"cal-\1", symbol)      # \mathcal Z is not Z
    s = re.sub(r"\\(?:hat|bar|tilde|operatorname|mathrm)\s*", "", s)
    s = s.lstrip("{[")
    m = re.match(r"cal-[A-Za-z]|\\[A-Za-z]+|[A-Za-z]+", s)
    return m.group() if m else s


#: Symbols built on the same letter that are one concept written several ways (checked to stay so):
#: the dataset x, its sorted records x_(i), its chunks x_1..x_m and x ⊖ x'; a sensitivity Δ, Δ_1, Δ_2 and PTR's
#: proposed bound on it; σ and σ_1 = σ at Δ_2 = 1; the rank r = r_{1/2} and r_α; the size n and its public
#: lower bound; the densities p, p' and the proportions p_i = c_i / n (p_i always with its label i); the
#: norms ‖v‖_1, ‖v‖_2, ‖v‖_∞; the global and local sensitivities GS_f, GS^p_f, GS_U and LS_f, LS^p_f; the
#: number of answers d and the crossover d*; a set of outputs S and the smooth sensitivity S_β (always with β).
#: Also one concept each: ε and a guarantee ε' actually obtained; δ, δ' and the profiles δ_J(ε'),
#: δ_{x,x'}(ε) (a slack, as a function of ε); Z, a release or its noise, and the noises Z_0, Z_i; f, f̄ and
#: f_1..f_d (queries, and sample-and-aggregate's averaged query); the counts c_i and the sorted c_(1), c_(2);
#: the output set 𝒵 and its subsets 𝒵*, 𝒵_j; PTR's D(x, Δ̂) and D_f(x), both the distance from x to the
#: nearest dataset where something fails (a large local sensitivity; a changed answer).
SAME_LETTER_FAMILIES = {"x", r"\Delta", r"\sigma", "r", "n", "p", r"\lVert", "t", r"\kappa", r"\ell",
                        "GS", "LS", "d", "S",
                        r"\varepsilon", r"\delta", "Z", "f", "c", "cal-Z", "D"}


def test_each_symbol_on_the_notation_page_is_defined_once():
    seen: dict[str, str] = {}
    twice = []
    for first, syms in notation_rows():
        for sym in syms:
            if sym in seen and seen[sym] != first:
                twice.append((sym, seen[sym], first))
            seen.setdefault(sym, first)
    assert not twice, "symbols defined in two rows of the notation page:\n" + "\n".join(map(str, twice))


def test_each_letter_on_the_notation_page_has_one_meaning():
    """A letter (ρ, α, g, d, μ, Z, u, ...) heads one row only, except the families listed above."""
    rows_of: dict[str, set[str]] = {}
    for first, syms in notation_rows():
        for sym in syms:
            rows_of.setdefault(base(sym), set()).add(first)
    shared = {b: sorted(r) for b, r in rows_of.items() if len(r) > 1 and b not in SAME_LETTER_FAMILIES}
    assert not shared, f"letters with two rows on the notation page: {shared}"
    for letter in (r"\rho", r"\alpha", "g", "d", r"\mu", "Z", "u"):       # the seven letters issue 32 found twice
        rows = {first for first, syms in notation_rows() for sym in syms
                if base(sym) == letter and sym != letter + "^{*}"}    # d* is d's crossover value, not a meaning
        assert len(rows) <= 1, (letter, rows)


def test_two_rows_with_the_same_first_cell_are_two_rows():
    """The page once had three rows headed ``$\\nu$`` and two ``$\\zeta$``, which a test keyed on the
    first cell's text saw as one row each."""
    firsts = [first for first, _ in notation_rows()]
    assert len(firsts) == len(set(firsts))


def test_the_letter_test_sees_a_second_meaning():
    assert base(r"\hat\Delta") == r"\Delta" and base("GS^{p}_f") == "GS" and base("U(x,z)") == "U"
    assert base(r"r_\alpha") == "r" and base(r"\operatorname{dist}(x,y)") == "dist" and base("[\\ell,u]") == r"\ell"
    assert base(r"\mathcalZ") == "cal-Z" != base("Z") and base(r"\mathcal D_\omega") == "cal-D" != base("D(x,y)")


@pytest.mark.parametrize("stem, letters", [
    ("exponential", {"g": r"U, the score", r"\mu": r"\nu, the base measure", r"\rho": r"r_\alpha, the rank"}),
    ("vector", {r"\alpha": r"\omega, the Rényi order"}),
    ("ptr", {r"\rho": r"\xi, the release probabilities of the proof"}),
    ("floating", {r"\gamma": r"\iota, the exact coin's exponent (γ is the heavy-tailed noise's exponent)",
                  "n": "Z(j), the floating-point noise (n is the number of records)"}),
    ("stability", {r"\chi": "no name for e^{-s/b}: χ(t) is the smooth variance bound's farthest record",
                   "G": "top(x), the largest noisy answer before the ⊤ (G is a packing's number of datasets)",
                   "R": "gap(x), what candidate i's noise must beat (R bounds a Rényi divergence)"}),
    ("composition", {"K": "KL(p ‖ p') (K is the most ⊤ answers of sparse vector)",
                     "Q": "p'_>, a probability on x' (Q_α is the book's quantile)"}),
    ("floating", {"r": "⌊v⌉, rounding halves up (r is the rank of the median)"}),
])
def test_chapters_write_the_renamed_letters(stem, letters):
    """The letters issue 32 found with two meanings are gone from the chapters that had them."""
    path = ROOT / "chapters" / f"{stem}.md"
    # vector's section on a private clipping bound uses α as the book does, a quantile's level (notation-data)
    private_bound = re.compile(r"^\(sec-vector-private-bound\)=$.*?^(?=## )", re.M | re.S)
    segments = maths(path, leave_out=private_bound if stem == "vector" else None)
    found = sorted({(letter, hint) for m in segments for letter, hint in letters.items()
                    if (re.search(re.escape(letter) + r"(?![A-Za-z])", m) if letter.startswith("\\")
                        else letter in symbols(m))})
    assert not found, f"{stem}: {found}"
    if stem == "exponential":
        assert not any(re.search(r"(?<![A-Za-z\\])Z\(x", m) for m in segments), "the normaliser is W(x)"
        assert not any(re.search(r"(?<![A-Za-z\\])d\(x", m) for m in segments), "the distance is dist(x, y)"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_distance_between_datasets_is_dist_not_d(path):
    """d is the number of answers ({ref}`chap-vector`); the distance between datasets is dist(x, y)."""
    found = [m for m in maths(path) if re.search(r"(?<![A-Za-z\\])d\((?:x|y)", m)]
    assert not found, f"{path.stem}: {found}"


def test_gamma_and_n_keep_their_one_meaning():
    """γ is the heavy-tailed noise's exponent (chapter *Smooth sensitivity*) and n the number of records:
    the exact coin's exponent (ι) and numpy's noise values (Z(j)) of the floating-point chapter once reused
    them (issue 34's reading).  The page gives γ one row, and n only the size and its public lower bound."""
    rows = notation_rows()
    gamma = [first for first, syms in rows if any(base(s) == r"\gamma" for s in syms)]
    assert len(gamma) == 1 and "chap-smooth" in _row_line(gamma[0]), gamma
    iota = [first for first, syms in rows if any(base(s) == r"\iota" for s in syms)]
    assert len(iota) == 1 and "chap-floating" in _row_line(iota[0]), iota
    n_rows = sorted(sym for _, syms in rows for sym in syms if base(sym) == "n")
    assert n_rows == ["n=\\lvertx\\rvert", "n_{\\min}"], n_rows


def _row_line(first: str) -> str:
    """The whole line of the notation page a row's tag (``line N: ...``) names."""
    number = int(first.split(":", 1)[0].split()[1])
    return (ROOT / "chapters" / "notation.md").read_text(encoding="utf-8").splitlines()[number - 1]
