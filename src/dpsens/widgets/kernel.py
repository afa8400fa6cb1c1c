"""Where the code runs: a reader's Jupyter kernel, or the book build, a script or a test.

Chapter: *For teachers* (why an explorer in Binder or Colab computes only
the views a reader asks for, while the website holds them all).

:func:`in_kernel` tells a Jupyter kernel (Jupyter, JupyterLab, Colab,
Binder, nbclient) from plain Python; :func:`lazy_default` turns that and the
environment variable :data:`ENV_VAR` (``DPSENS_EXPLORERS``, set to
``precompute`` by the book's ``_ext/explorer_views.py`` for every
``jupyter-book build``) into the explorers' default: lazy views in a
reader's kernel, every view at once in the book build, scripts and tests.
"""
from __future__ import annotations

import os

__all__ = ["ENV_VAR", "in_kernel", "lazy_default"]


def in_kernel() -> bool:
    """True when running inside a Jupyter kernel (Jupyter, JupyterLab, Colab, Binder, nbclient).

    Chapter: *For teachers*.  Plain ``python`` and a terminal IPython return False.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with the book's environment
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


#: Environment variable that decides whether explorers precompute every view
#: (``precompute``, set by the book build) or compute them as the reader asks
#: (``lazy``); unset: lazy in a kernel, all at once elsewhere.
ENV_VAR = "DPSENS_EXPLORERS"


def lazy_default() -> bool:
    """Whether :func:`dpsens.widgets.explorer` computes views lazily when its ``lazy`` argument is None.

    Chapter: *For teachers*.

    ``DPSENS_EXPLORERS=precompute`` (set for every ``jupyter-book build`` by
    the book's ``_ext/explorer_views.py``) gives False, ``DPSENS_EXPLORERS=lazy``
    gives True; otherwise True exactly inside a Jupyter kernel (a reader's
    notebook), False in scripts and tests.

    Raises
    ------
    ValueError
        If ``DPSENS_EXPLORERS`` holds anything else.
    """
    mode = os.environ.get(ENV_VAR, "").strip().lower()
    if mode == "precompute":
        return False
    if mode == "lazy":
        return True
    if mode:
        raise ValueError(f"the environment variable {ENV_VAR} must be 'precompute', 'lazy' or unset, "
                         f"got {os.environ[ENV_VAR]!r}")
    return in_kernel()
