"""Execute notebooks with the interpreter that runs this script, as a reader's Jupyter would.

Used by ``tests/book/test_reader_notebooks.py`` (``make test-notebooks``) inside the
Binder-like and Colab-like virtual environments: the kernel is this
interpreter (a kernelspec written to a temporary ``JUPYTER_PATH``, so no
kernel installed elsewhere on the machine can stand in), each notebook runs
from its own folder, errors are recorded rather than raised, and the executed
notebook is written next to the original as ``<stem>.out.ipynb``.  Prints one
JSON line per notebook: ``{"path", "seconds", "cell_seconds"}``.

Usage: ``python tools/run_notebooks.py [--jobs N] [--timeout S] NOTEBOOK ...``.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import time
from pathlib import Path


def _own_kernel() -> None:
    """A ``python3`` kernelspec for this interpreter, first on JUPYTER_PATH."""
    home = Path(tempfile.mkdtemp(prefix="dpsens-kernels-"))
    spec = home / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3", "language": "python"}))
    os.environ["JUPYTER_PATH"] = str(home)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger notice on stderr


def run(path: Path, timeout: int) -> dict:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}}, record_timing=True)
    client.execute()
    total = time.perf_counter() - t0
    out = path.with_suffix(".out.ipynb")
    nbformat.write(nb, out)
    return {"path": str(path), "out": str(out), "seconds": round(total, 2),
            "cell_seconds": [_seconds(cell) for cell in nb.cells]}


def _seconds(cell) -> float | None:
    """A cell's run time from the kernel's timestamps (input received -> kernel idle)."""
    from datetime import datetime
    timing = cell.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" not in timing or "iopub.status.idle" not in timing:
        return None
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return round((parse(timing["iopub.status.idle"]) - parse(timing["iopub.execute_input"])).total_seconds(), 3)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args(argv)
    _own_kernel()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run, p.resolve(), args.timeout) for p in args.notebooks]
        for f in futures:
            print(json.dumps(f.result()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
