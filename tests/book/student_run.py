"""Run notebooks as a student would before handing them in (tests/book/test_nbgrader.py, in the nbgrader venv).

``python tests/book/student_run.py NOTEBOOK ...``: each notebook is executed in
place in its own kernel (this Python's), errors allowed; a cheat's cell that
runs over 10 s is interrupted, any other cell over 60 s, and a notebook
stops after :data:`DEADLINE` seconds however its cells behave (a kernel a
cheat broke).  A kernel that dies or hangs leaves the outputs it made so
far: the notebook a student would save.  Nothing here grades.
"""
from __future__ import annotations

import asyncio
import os
import sys

import nbformat
from nbclient import NotebookClient

DEADLINE = 120


def run(path: str) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout_func=lambda cell: 10 if cell.metadata.get("cheat") else 60,
                            interrupt_on_timeout=True, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}}, shutdown_kernel="immediate")
    try:
        asyncio.run(asyncio.wait_for(client.async_execute(), DEADLINE))
    except BaseException as exc:  # a dead kernel (sys.exit, os._exit), a timeout: keep what ran
        print(f"{path}: {type(exc).__name__}", file=sys.stderr)
    finally:
        if client.km is not None and client.km.has_kernel:
            client.km.kill_kernel() if hasattr(client.km, "kill_kernel") else None
    nbformat.write(nb, path)


if __name__ == "__main__":
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(2) as pool:       # two students at a time
        list(pool.map(run, sys.argv[1:]))
