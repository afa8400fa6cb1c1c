"""Checked outputs never depend on the machine's speed or load.

nbval compares the outputs of the cells marked ``# NBVAL_CHECK_OUTPUT`` with
the recorded reference notebooks.  A progress bar that appears only when a
run takes more than a second, or a printed timing, would make that comparison
pass on an idle machine and fail on a busy one.  These tests fail if any
checked output (recorded, or the source of a checked cell) can show one, and
if the brute force prints anything by default however slow it runs.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from kernels import stream_text  # (tests/kernels.py)

import dpsens as ds
from dpsens import bruteforce as bf

ROOT = Path(__file__).resolve().parents[2]
REFS = sorted((ROOT / "tests" / "notebooks").glob("*.ipynb"))
MARK = "# NBVAL_CHECK_OUTPUT"

#: tqdm's bar ("37%|███▋ | 3/8 [00:01<00:02, 2.1it/s]"), rates and durations.
TIME_LIKE = re.compile(
    r"\d+%\|"                                   # a tqdm bar
    r"|\d+(?:\.\d+)?\s*(?:it/s|s/it)\b"         # a tqdm rate
    r"|\[\d\d:\d\d(?:<|\])"                     # tqdm's elapsed<remaining
    r"|\b\d+(?:\.\d+)?\s*(?:ms|µs|us|ns|sec|secs|seconds?|minutes?)\b"   # a printed duration
    r"|\b\d+\.\d+\s*s\b"                        # "1.23 s"
    r"|\bWall time\b|\bCPU times\b"             # %time
    r"|\bper loop\b"                            # %timeit
)
#: What a checked cell must not contain: it could print a timing or a bar.
TIMING_SOURCE = re.compile(r"%%?time|timeit|\btqdm\b|progress\s*=\s*True")


def _checked_cells(path):
    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if c.cell_type == "code" and MARK in c.source]


def _texts(cell):
    yield from (stream_text(cell, name) for name in ("stdout", "stderr"))   # each stream whole, however chunked
    for out in cell.get("outputs", []):
        for mime, value in out.get("data", {}).items():
            if mime.startswith("text/") and isinstance(value, str):
                yield value


def test_the_pattern_catches_bars_and_timings():
    caught = ["neighbours:  37%|███▋      | 3/8 [00:01<00:02,  2.10it/s]", "1.23 s", "took 12 ms",
              "4.5 s/it", "Wall time: 2.1 s", "0.8 seconds", "12.3 ms ± 1 µs per loop"]
    for text in caught:
        assert TIME_LIKE.search(text), text
    for text in ["from scratch == brute force == exact for 40 cases at k = 1", "median 50.0",
                 "ages 17..90", "2 records", "sensitivity 0.5 (k = 1)"]:
        assert not TIME_LIKE.search(text), text


@pytest.mark.parametrize("path", REFS, ids=[p.stem for p in REFS])
def test_checked_outputs_hold_no_timing_or_progress_bar(path):
    cells = _checked_cells(path)
    for _i, cell in enumerate(cells):
        assert not TIMING_SOURCE.search(cell.source), (
            f"{path.name}: a checked cell may print a timing or progress bar:\n{cell.source}")
        for text in _texts(cell):
            m = TIME_LIKE.search(text)
            assert m is None, f"{path.name}: checked output holds {m.group(0)!r}:\n{text}"


def test_there_are_reference_notebooks_with_checked_cells():
    assert len(REFS) >= 5
    assert sum(len(_checked_cells(p)) for p in REFS) >= 20


@pytest.fixture
def fast_clock(monkeypatch):
    """Make tqdm's clock run 100 s per reading: every run looks far over its 1 s delay."""
    import tqdm.std

    now = [0.0]

    def clock():
        now[0] += 100.0
        return now[0]

    monkeypatch.setattr(tqdm.std, "time", clock)
    return clock


def test_bar_would_show_under_the_fast_clock(fast_clock, capsys):
    # the fake clock does make tqdm draw (so the next tests are not vacuous)
    bf.bruteforce_local_sensitivity(list(range(8)), "mean", ds.Domain(range(8)), k=1, progress=True)
    err = capsys.readouterr().err
    assert "neighbours" in err and "%" in err


def test_local_bruteforce_prints_nothing_by_default(fast_clock, capsys):
    # mean of 0..7 is 3.5; adding a 7 moves it to 3.888..., removing the 0 to 4
    value = ds.local_sensitivity(list(range(8)), "mean", ds.Domain(range(8)), method="bruteforce")
    assert value == pytest.approx(0.5)
    out = capsys.readouterr()
    assert out.err == "" and out.out == ""


def test_global_bruteforce_prints_nothing_by_default(fast_clock, capsys):
    # also the neighbour counting near the limit, which has its own bar
    pool = ds.Pool([1, 2, 2, 2, 5, 5, 7, 8, 9, 9])
    ds.global_sensitivity("mean", pool, 6, 2, "bounded", method="bruteforce", max_neighbors=3918)
    bf.bruteforce_global_sensitivity("median", ds.Domain(range(6)), 4, 1, "bounded")
    out = capsys.readouterr()
    assert out.err == "" and out.out == ""


def test_slow_query_prints_nothing_by_default(capsys, monkeypatch):
    import tqdm.std

    now = [0.0]
    monkeypatch.setattr(tqdm.std, "time", lambda: now[0])

    def slow_mean(v):
        now[0] += 0.08           # slow on tqdm's clock, a virtual one (no sleep: the same on any machine)
        return float(np.mean(v))

    # 16 neighbours x 0.08 s: well over tqdm's one-second delay
    bf.bruteforce_local_sensitivity(list(range(8)), slow_mean, ds.Domain(range(8)), k=1)
    out = capsys.readouterr()
    assert out.err == "" and out.out == ""


def test_a_cells_printed_text_is_read_whole_however_the_kernel_chunked_it():
    """What one ``print`` wrote, sent by a busy kernel as two stream outputs with a stderr one
    between them, reads as one text (``tests/kernels.py``, the one reader of printed output)."""
    cell = nbformat.v4.new_code_cell("print(...)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="[(0,), (2,)] [1, "),
        nbformat.v4.new_output("stream", name="stderr", text="a warning\n"),
        nbformat.v4.new_output("display_data", data={"text/plain": "<Figure>"}),
        nbformat.v4.new_output("stream", name="stdout", text="3] True\n[1, 3]\n")])
    assert stream_text(cell).splitlines() == ["[(0,), (2,)] [1, 3] True", "[1, 3]"]
    assert stream_text(cell, "stderr") == "a warning\n"
    # a notebook's JSON keeps a text as a list of lines
    assert stream_text({"outputs": [{"output_type": "stream", "name": "stdout", "text": ["1.2", "3 s\n"]}]}) == "1.23 s\n"
    # a timing cut in two is still caught (each piece alone is not)
    cut = {"outputs": [{"output_type": "stream", "name": "stdout", "text": "took 1.2"},
                       {"output_type": "stream", "name": "stdout", "text": "3 s\n"}]}
    assert not any(TIME_LIKE.search(o["text"]) for o in cut["outputs"])
    assert any(TIME_LIKE.search(t) for t in _texts(cut))
