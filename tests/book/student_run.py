"""Run notebooks as a student would before handing them in (tests/book/test_nbgrader.py, in the nbgrader venv).

``python tests/book/student_run.py NOTEBOOK ...``: each notebook is executed in
place in its own kernel (this Python's), errors allowed; a cheat's cell that
runs over 10 s is interrupted, and a notebook with a cheat stops after
:data:`DEADLINE` seconds however its cells behave (a kernel a cheat broke).
A kernel that dies or hangs leaves the outputs it made so far: the notebook
a student would save.  Nothing here grades.

No limit decides an honest notebook's grade: cutting a cheat short only takes
points from the cheat (the test wants none), while a correct notebook cut
short on a loaded machine would lose points it earned.  So its cells get
:data:`HONEST_CELL` seconds each (a hang guard, many times their run time) and
no deadline beyond the test's own timeout of the whole run.
"""
from __future__ import annotations

import asyncio
import os
import sys

import nbformat
from nbclient import NotebookClient

#: Seconds a notebook with a cheat's cell may run, and a cheat's cell.
DEADLINE, CHEAT_CELL = 600, 10
#: Seconds any other cell may run: only a hang guard.
HONEST_CELL = 600


def run(path: str) -> None:
    nb = nbformat.read(path, as_version=4)
    cheats = any(cell.metadata.get("cheat") for cell in nb.cells)
    client = NotebookClient(nb, timeout_func=lambda cell: CHEAT_CELL if cell.metadata.get("cheat") else HONEST_CELL,
                            interrupt_on_timeout=True, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}}, shutdown_kernel="immediate")
    try:
        asyncio.run(asyncio.wait_for(client.async_execute(), DEADLINE if cheats else None))
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
