"""Tell the explorers of ``dpsens.widgets`` that this is the website build.

In a reader's kernel an explorer computes its default view only and the
others when the reader moves a control (fast Run All).  The static website
has no kernel, so its ``text/html`` explorer must hold every view.  This
extension, listed in ``_config.yml`` (``sphinx.local_extensions``), sets the
environment variable ``DPSENS_EXPLORERS=precompute`` when Sphinx starts; the
kernels myst-nb starts to execute the chapters inherit the environment, so
every explorer in the build precomputes all its views (whatever the
variable held before: the website must never get a partial explorer).
"""
import os

VAR = "DPSENS_EXPLORERS"


def setup(app):
    os.environ[VAR] = "precompute"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
