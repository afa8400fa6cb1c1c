"""Kernels for the tests that execute notebooks.

The tests run beside nbval and the book build (``make test`` runs them two at a
time), and test_student starts two kernels at once.  Over TCP each kernel
manager picks "free" ports and the kernel binds them a moment later, so two
kernels started together can race for the same port (seen under load: zmq
``Address already in use``, then "Kernel didn't respond in 60 seconds").
Over Unix sockets in a folder of the test's own there are no ports to race for.
"""
from __future__ import annotations

from pathlib import Path

from jupyter_client import KernelManager


def ipc_kernel(workdir, kernel_name: str = "python3", **kwargs) -> KernelManager:
    """A kernel manager whose kernel talks over Unix sockets in ``workdir`` (no TCP ports)."""
    return KernelManager(kernel_name=kernel_name, transport="ipc", ip=str(Path(workdir) / "kernel"), **kwargs)


def stream_text(cell, name: str = "stdout") -> str:
    """Everything a code cell wrote to the stream ``name`` (``"stdout"`` or ``"stderr"``), joined.

    A kernel sends what a cell prints in as many stream outputs as its flushes made: on a busy
    machine one ``print`` can arrive as two (seen: ``test_widgets``'s second line as an output of its
    own).  A test that reads a cell's printed text reads it through this, never ``outputs[0].text``.
    ``cell`` is an nbformat cell or its JSON (whose ``text`` may be a list of lines).
    """
    return "".join(out["text"] if isinstance(out["text"], str) else "".join(out["text"])
                   for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream" and out.get("name") == name)
