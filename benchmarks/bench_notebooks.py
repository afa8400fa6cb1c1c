"""Run All of every chapter as a reader's kernel runs it, and the explorers' first views.

Goal (issue 13): Run All of any chapter in a Jupyter kernel under 30 s on 2
cores, and the first view of an explorer under 1 s.  Each chapter
(``chapters/<stem>.md``) is converted with jupytext and executed with
nbclient from the ``chapters/`` folder, exactly as a notebook opened in
JupyterLab, Binder or Colab is run with "Run All" -- with ``DPSENS_EXPLORERS``
unset, so explorers compute their default view only (see
``dpsens.widgets``).  Printed per chapter: the Run All wall time (kernel
start included) and the kernel's CPU time (on a shared machine the wall
time also counts waiting for a core; the kernel is one thread, so on an idle
machine wall time is about CPU time plus a second or two), the three
slowest cells by CPU time, and for every explorer the time
its default view took (what the reader waits for at display) and the time of
the first view a reader asks for by moving the first control one step.

A kernel without ``myst_nb`` (Colab-like environments) gets a stand-in
``myst_nb.glue`` that only displays the value, as the notebook copies do.

``--compare`` runs each chapter a second time in the same run the way the
book build does (``DPSENS_EXPLORERS=precompute``: every view computed at
once) and prints the ratio.  ``--python PATH`` executes in another
environment's kernel (e.g. the Colab-like ipywidgets 7 venv of
``benchmarks/README.md``).

Usage (from the repository root, with ``PYTHONPATH=src``)::

    .venv/bin/python benchmarks/bench_notebooks.py [--compare] [--python PATH] [stem ...]

Timings depend on machine load; the ratios compare runs of the same script.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import jupytext
import nbformat
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"

# Prepended to each chapter: the kernel's CPU time of every cell (load-independent,
# unlike wall time on a shared machine).
CLOCK = r'''
try:
    import myst_nb  # noqa: F401
except ImportError:  # a reader's kernel without the book's build tools (Colab): glue just displays
    import sys as _sys, types as _types
    from IPython.display import display as _display
    _m = _types.ModuleType("myst_nb")
    _m.glue = lambda name, value, display=True: _display(value) if display else None
    _sys.modules["myst_nb"] = _m
import time as _time
_cpu = []
def _pre(*_a):
    _cpu.append([_time.process_time(), None])
def _post(*_a):
    if _cpu:
        _cpu[-1][1] = _time.process_time()
get_ipython().events.register("pre_run_cell", _pre)
get_ipython().events.register("post_run_cell", _post)
'''

# Appended to each chapter: what the explorers the reader saw took.  An
# explorer cell's result is kept in IPython's output history (Out).
PROBE = r'''
import json as _json
from dpsens.widgets import Explorer as _Explorer
_report = []
for _n, _obj in sorted(Out.items()):
    if isinstance(_obj, _Explorer):
        _first = _obj.compute_ms.get(_obj.default, float("nan"))
        _step = list(_obj.default)
        _step[0] = (_step[0] + 1) % _obj.shape[0]
        _step = tuple(_step)
        _cached = _step in _obj.views
        _obj.view_at(_step)
        _report.append({"cell": _n, "name": getattr(getattr(_obj.plot_func, "func", _obj.plot_func), "__name__", "?"),
                        "views": len(_obj), "computed": len(_obj.views) - (0 if _cached else 1),
                        "first_ms": _first, "next_ms": _obj.compute_ms.get(_step, 0.0),
                        "first_cpu_ms": _obj.compute_cpu_ms.get(_obj.default, float("nan")),
                        "next_cpu_ms": _obj.compute_cpu_ms.get(_step, 0.0)})
print("DPSENS-PROBE" + _json.dumps({"explorers": _report, "cpu": [b - a for a, b in _cpu[:-1]],
                                     "kernel_cpu": _time.process_time()}))
'''


def kernel_manager(python: str | None, tmp: str) -> KernelManager:
    if not python:
        return KernelManager(kernel_name="python3")
    spec = Path(tmp) / "kernels" / "bench"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "bench", "language": "python"}))
    return KernelManager(kernel_name="bench", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))


def cell_seconds(cell) -> float:
    t = cell.metadata.get("execution", {})
    try:
        start = datetime.fromisoformat(t["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(t["shell.execute_reply"].replace("Z", "+00:00"))
    except KeyError:
        return float("nan")
    return (end - start).total_seconds()


def run_chapter(stem: str, mode: str, python: str | None) -> dict:
    """Execute one chapter; ``mode`` is 'lazy' (a reader's kernel) or 'precompute' (the book build)."""
    nb = jupytext.read(CHAPTERS / f"{stem}.md")
    nb.cells.insert(0, nbformat.v4.new_code_cell(CLOCK))
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    saved = os.environ.get("DPSENS_EXPLORERS")
    if mode == "lazy":
        os.environ.pop("DPSENS_EXPLORERS", None)  # a reader's kernel: the variable is not set
    else:
        os.environ["DPSENS_EXPLORERS"] = "precompute"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            client = NotebookClient(nb, timeout=1200, km=kernel_manager(python, tmp),
                                    resources={"metadata": {"path": str(CHAPTERS)}})
            t0 = time.perf_counter()
            client.execute()
            total = time.perf_counter() - t0
    finally:
        if saved is None:
            os.environ.pop("DPSENS_EXPLORERS", None)
        else:
            os.environ["DPSENS_EXPLORERS"] = saved
    probe = nb.cells.pop()
    nb.cells.pop(0)
    text = "".join(o.get("text", "") for o in probe.outputs if o.output_type == "stream")
    report = json.loads(text.split("DPSENS-PROBE", 1)[1])
    code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    cells = []
    for (i, c), cpu in zip(code, report["cpu"], strict=False):
        lines = [ln for ln in c.source.strip().splitlines() if not ln.startswith("# NBVAL")]
        cells.append((cpu, cell_seconds(c), i, lines[0][:60] if lines else ""))
    # what the explorer cells displayed: a widget view with the html fallback, never a bare repr
    shown = {"widget+html": 0, "plain repr": 0}
    for _, c in code:
        for o in c.get("outputs", []):
            data = o.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data and "text/html" in data:
                shown["widget+html"] += 1
            elif set(data) == {"text/plain"} and ("dpsens" in data["text/plain"] or "Box(" in data["text/plain"]):
                shown["plain repr"] += 1
        if any(o.output_type == "error" for o in c.get("outputs", [])):
            shown["plain repr"] += 1
    return {"total": total, "cpu": report["kernel_cpu"], "cells": sorted(cells, reverse=True),
            "explorers": report["explorers"], "shown": shown}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stems", nargs="*", help="chapters to run (default: every executable chapter)")
    parser.add_argument("--compare", action="store_true",
                        help="also run each chapter as the book build does (every view precomputed)")
    parser.add_argument("--python", help="the kernel's Python (default: this environment's python3 kernel)")
    args = parser.parse_args(argv)
    stems = args.stems or sorted(p.stem for p in CHAPTERS.glob("*.md")
                                 if "kernelspec" in jupytext.read(p).metadata)
    print(f"kernel: {args.python or 'python3 of this environment'}; load average {os.getloadavg()[0]:.1f}")
    rows = []
    for stem in stems:
        lazy = run_chapter(stem, "lazy", args.python)
        line = (f"{stem:18s} Run All {lazy['total']:6.1f} s wall, kernel CPU {lazy['cpu']:6.1f} s "
                f"(goal < 30 s)")
        if args.compare:
            full = run_chapter(stem, "precompute", args.python)
            line += (f"   book-build mode {full['total']:6.1f} s wall, {full['cpu']:6.1f} s CPU; "
                     f"ratio {full['total'] / lazy['total']:4.1f}x wall, {full['cpu'] / lazy['cpu']:4.1f}x CPU")
        print(line, flush=True)
        for cpu, sec, i, first in lazy["cells"][:3]:
            print(f"    cell {i:3d} CPU {cpu:6.2f} s  wall {sec:6.2f} s  {first}")
        for e in lazy["explorers"]:
            print(f"    explorer {e['name']} (Out[{e['cell']}]): {e['computed']} of {e['views']} views computed; "
                  f"first view {e['first_ms'] / 1000:.2f} s wall, {e['first_cpu_ms'] / 1000:.2f} s CPU "
                  f"(goal < 1 s); next view on a control move {e['next_ms'] / 1000:.2f} s wall, "
                  f"{e['next_cpu_ms'] / 1000:.2f} s CPU")
        if lazy["explorers"] or lazy["shown"]["plain repr"]:
            print(f"    explorer outputs: {lazy['shown']['widget+html']} widget view + html, "
                  f"{lazy['shown']['plain repr']} plain repr or error")
        rows.append((stem, lazy["total"], lazy["cpu"]))
    worst = max(rows, key=lambda r: r[2])
    print(f"slowest chapter (kernel CPU): {worst[0]} {worst[2]:.1f} s CPU, {worst[1]:.1f} s wall; all chapters "
          f"{sum(r[1] for r in rows):.1f} s wall, {sum(r[2] for r in rows):.1f} s CPU; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
