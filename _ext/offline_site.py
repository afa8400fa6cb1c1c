"""Sphinx extension: the book's website loads nothing from third-party hosts.

Chapter: *For teachers* (the site works offline, e.g. in a locked-down
computer lab).

* MathJax 3 is served from ``_static/mathjax/`` -- the files live in
  ``_vendor/mathjax/`` (copied from the ``mathjax@3`` npm package, see
  ``_vendor/README.md``) and ``_config.yml`` points ``mathjax_path`` at them.
  ``_vendor/`` is added to ``html_static_path`` here, *after* Jupyter Book has
  scanned ``_static/`` for files to include on every page, so the many
  MathJax component files are copied but not loaded by every page.
* Jupyter widgets: the site shows the precomputed HTML explorers of
  ``dpsens.widgets`` (``nb_mime_priority_overrides`` drops the widget view),
  so no page needs require.js or the widget manager; ``nb_ipywidgets_js`` is
  empty in ``_config.yml``.
* Thebe (live code on the page, which would fetch thebe from unpkg.com) is
  not used by the book -- readers launch Binder or Colab instead -- so its
  loader script is removed from every page.
"""
from __future__ import annotations

from pathlib import Path

VENDOR = Path(__file__).resolve().parents[1] / "_vendor"


def _add_vendor_static(app, config):
    paths = list(config.html_static_path)
    if str(VENDOR) not in paths:
        paths.append(str(VENDOR))
    config.html_static_path = paths


def _drop_thebe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return

    def keep(js) -> bool:
        name = str(getattr(js, "filename", js) or "")
        body = str(getattr(js, "attributes", {}).get("body", ""))
        return "sphinx-thebe" not in name and "THEBE_JS_URL" not in body

    scripts[:] = [js for js in scripts if keep(js)]


def setup(app):
    app.connect("config-inited", _add_vendor_static)
    app.connect("html-page-context", _drop_thebe, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
