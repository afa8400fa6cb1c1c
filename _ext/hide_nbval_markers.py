"""Sphinx extension: hide the ``# NBVAL_CHECK_OUTPUT`` markers from readers.

The marker tells nbval which cells print published numbers (see
tools/nbval_notebooks.py); it means nothing to a reader, so the website drops
the line before the chapter is parsed and executed.  The chapters' sources,
the student notebooks and the nbval reference notebooks keep it.
"""
import re

MARKER = re.compile(r"^# NBVAL_CHECK_OUTPUT[ \t]*\n", flags=re.MULTILINE)


def _strip(app, docname, source):
    source[0] = MARKER.sub("", source[0])


def setup(app):
    app.connect("source-read", _strip)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
