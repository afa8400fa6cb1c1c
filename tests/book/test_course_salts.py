"""A roster of 60 (the full profile; 20 in the quick one) through the course tool's salts (issue 31, item 3): no answer of a student is
accepted for more than two students, nobody draws the book's published answer, and each student's
correct answer to their own numbers gets its point through the grader.

The draws in the installed package know nothing of the answers (``test_variants_answer_free.py``);
``tools/course.py`` chooses, on the instructor's machine, each exercise's course salt (and, where no
course salt of the first few will do, a salt of their own for a few students) with the answers
computed from the teacher's registry.  The checks here do not reuse the tool's own test of a
roster: each student's answer is judged, as the grader judges it, by that student's hashed key
entry (``answer_key.entry``, ``dpsens.exercises._secret.judge``), against every classmate's answer
and the book's.  The grading path: the course's source notebooks (``make_assignments``), the salts
written into their "your numbers" cells and into ``variants.json``, each numbers cell run for the
student, and ``tools/grade.py``'s :func:`judge` of the answer recorded by ``hand_in``.
"""
from __future__ import annotations

import contextlib
import io
import json

import nbformat
import pytest

import answer_key as ak  # tools/, on sys.path by conftest
import course
import grade as grader
import make_assignments as ma
from dpsens.exercises import VARIANTS, _secret, hand_in, student_seed, variant_params, variant_text
from profiles import PROFILE, cases

#: the issue's roster of 60 in the full profile (make test-full, in CI); its first 20 in the quick one
ROSTER = [f"student-{i:02d}" for i in range(cases(quick=20, full=60))]
COURSE = "dpsens-2027"


@pytest.fixture(scope="module")
def config():
    salts, exceptions = course.choose_salts(ROSTER, COURSE, log=None)
    return {"course": COURSE, "students": list(ROSTER), "salts": salts, "exceptions": exceptions}


@pytest.fixture(autouse=True)
def _fast_hashes(monkeypatch):
    monkeypatch.setattr(_secret, "ITERATIONS", 1)       # keys built and judged here: no need to be slow
    _secret._tries.clear()
    yield
    _secret._tries.clear()


def _answers(config: dict, name: str) -> dict:
    return {s: course.student_answer(name, s, COURSE, course.salt_of(config, s, name)) for s in config["students"]}


def _accepted(entry: dict, value) -> bool:
    _secret._tries.clear()          # the practice cap on tries is not the grader's
    return _secret.judge(entry, "roster", value) == "answer"


def test_a_roster_shares_no_answer_beyond_two_and_nobody_draws_the_books(config):
    assert set(config["salts"]) == set(VARIANTS)
    crowded, books = [], []
    for name in VARIANTS:
        book = ak.REGISTRY[name]()
        keys = _answers(config, name)
        book_entry = ak.entry(name, book)
        for student, key in keys.items():
            seed = student_seed(student, COURSE, course.salt_of(config, student, name))
            entry = ak.entry(name, ak.REGISTRY[name](**variant_params(name, seed)), variant=str(seed))
            accepted = [s for s, other in keys.items() if _accepted(entry, other.value)]
            assert student in accepted, (name, student)
            if len(accepted) > 2:
                crowded.append((name, accepted))
            if _accepted(entry, book.value) or _accepted(book_entry, key.value):
                books.append((name, student))
    assert not crowded, crowded
    assert not books, books
    own = sum(len(e) for e in config["exceptions"].values())
    assert own <= 60, f"{own} salts of students' own: the draws of some exercise are too narrow"


def test_the_salts_are_the_same_for_the_same_roster(config):
    names = ["dp_density_ratio", "pf_best_probability", "ptr_source_accident"]
    salts, exceptions = course.choose_salts(ROSTER, COURSE, names, log=None)
    assert salts == {n: config["salts"][n] for n in names}
    assert exceptions == {s: {n: v for n, v in e.items() if n in names} for s, e in config["exceptions"].items()
                          if set(e) & set(names)}
    with pytest.raises(ValueError, match="distinct"):
        course.choose_salts(["a", "a"], COURSE, names, log=None)


def _numbers_printed(cell_source: str, student: str) -> str:
    import dpsens as ds
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(cell_source, {"ds": ds, "STUDENT": student})     # the locked cell, as the student's kernel runs it
    return out.getvalue().strip()


def test_each_student_sees_their_numbers_and_their_answer_gets_its_point(config, tmp_path):
    """Through the course: the source notebooks with the salts written in, each student's numbers
    cell run, and the grader's judge of the recorded correct answer (the book's value scores 0)."""
    ma.write_course(tmp_path, course_id=COURSE)
    course.write_salts(tmp_path, config)
    read_back = grader.read_config(tmp_path)
    assert read_back == config
    # the full profile grades all of the roster; the quick one the students with salts of their own and a few more
    students = ROSTER if PROFILE == "full" else sorted(set(config["exceptions"]) | set(ROSTER[:4]))
    graded, numbers_seen = 0, 0
    for path in sorted((tmp_path / "source").glob("*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        numbers = {}
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            if "-numbers-" in gid:
                numbers[gid.replace("-numbers-", "-answer-")] = cell.source
            if "checker" not in cell.metadata.get("dpsens", {}):
                continue
            book = cell.metadata["dpsens"]
            name = ma.key_name(book["checker"], book["arguments"]) or book["checker"][len("check_"):]
            if name not in VARIANTS:
                continue
            source = numbers[cell.metadata["nbgrader"]["grade_id"]]
            cell_meta = {"grade_id": cell.metadata["nbgrader"]["grade_id"], "points": 1.0, **book}
            for student in students:
                seeds = grader.student_seeds(student, read_back)
                seed = dict(seeds)[name]
                assert _numbers_printed(source, student) == f"Your numbers ({student}): {variant_text(name, seed)}."
                numbers_seen += 1
                key = course.student_answer(name, student, COURSE, course.salt_of(config, student, name))
                ok, message = grader.judge(cell_meta, hand_in("x", key.value).record, seeds)
                assert ok, (name, student, message)
                assert not grader.judge(cell_meta, hand_in("x", ak.REGISTRY[name]().value).record, seeds)[0], \
                    (name, student)
                graded += 1
    assert graded == numbers_seen >= 50 * len(students)


def test_a_late_student_keeps_the_course_salts_or_gets_their_own(config, tmp_path):
    name = "ptr_source_accident"        # cheap to compute; its answer depends on δ alone
    book = ak.REGISTRY[name]()
    keys = _answers(config, name)
    salt = config["salts"][name]

    def clash(student):
        return course.problems({**keys, student: course.student_answer(name, student, COURSE, salt)}, book, {student})

    late = next(f"late-{i}" for i in range(20_000) if clash(f"late-{i}"))
    fine = next(f"late-{i}" for i in range(20_000) if not clash(f"late-{i}"))
    assert course.late_salts(dict(config, students=[*ROSTER, fine]), fine, [name]) == {}
    own = course.late_salts(dict(config, students=[*ROSTER, late]), late, [name])
    assert set(own) == {name} and own[name] != salt
    assert not course.problems({**keys, late: course.student_answer(name, late, COURSE, own[name])}, book, {late})
    # recorded in the course: the grader's config and the notebooks' numbers cell
    later = json.loads(json.dumps(config))
    later["students"].append(late)
    later["exceptions"].setdefault(late, {}).update(own)
    ma.write_course(tmp_path, ["ptr"], course_id=COURSE)
    course.write_salts(tmp_path, later)
    assert dict(grader.student_seeds(late, grader.read_config(tmp_path)))[name] == student_seed(late, COURSE, own[name])
    nb = nbformat.read(tmp_path / "source" / "ptr" / "ptr.ipynb", as_version=4)
    cell = next(c for c in nb.cells if f"your_numbers({name!r}" in c.source)
    assert f"{late!r}: {own[name]}" in cell.source
    assert _numbers_printed(cell.source, late) == f"Your numbers ({late}): {variant_text(name, student_seed(late, COURSE, own[name]))}."
    assert _numbers_printed(cell.source, ROSTER[0]) == \
        f"Your numbers ({ROSTER[0]}): {variant_text(name, student_seed(ROSTER[0], COURSE, course.salt_of(config, ROSTER[0], name)))}."
