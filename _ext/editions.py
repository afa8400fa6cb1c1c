"""Sphinx extension: the book's editions -- public site, student site, printable book.

Chapter: *For teachers* (section "Two editions of the website, a PDF and
the handouts").

* **Student edition.**  ``DPSENS_EDITION=student jupyter-book build .
  --path-output _build/student`` (``make book-student``) sets
  sphinx-exercise's ``hide_solutions`` option, which drops every
  ``{solution}`` box.  sphinx-exercise 1.2.1 does not handle the *gated*
  form the book uses (``{solution-start}`` ... ``{solution-end}``): with
  ``hide_solutions`` the start directive returns nothing and the content
  between the two markers (prose and solution code cells) would stay on the
  page.  This extension replaces ``solution-start`` by a subclass that
  leaves a marker in that case, and a transform removes everything from the
  marker to the matching end.  The student edition also serves no page
  source (no ``_sources/``, no download button), no repository or Binder
  button (they lead to the solutions), and a stub for the teachers' page.
  The edition reuses the public build's
  execution cache (``_build/.jupyter_cache``), so nothing runs twice.
* **Single page.**  sphinx-proof 0.2 registers its nodes (the book's
  ``{prf:definition}`` boxes) for the ``html`` and ``latex`` builders only;
  the ``singlehtml`` build behind ``make pdf`` gets the same HTML visitors.
* **Print.**  ``book-print.css`` (``@media print`` only) hides the theme's
  navigation, expands the solution boxes and shows each interactive
  explorer's default view without its controls, so the single-page build
  (``make pdf``) prints as a book on A4 or Letter paper.

``DPSENS_EDITION`` unset or ``public`` is the ordinary site.
"""
from __future__ import annotations

import os
from pathlib import Path

from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.transforms import SphinxTransform
from sphinx_exercise.directive import SolutionStartDirective
from sphinx_exercise.nodes import solution_end_node

EDITIONS = ("public", "student")
STATIC = Path(__file__).resolve().parent / "print_static"


class student_cut(nodes.Element):
    """Marks where a gated solution started, in the student edition."""


class GatedSolutionStart(SolutionStartDirective):
    def run(self):
        out = super().run()
        if self.config.hide_solutions:
            return [student_cut()]
        return out


class CutGatedSolutions(SphinxTransform):
    """Remove each student_cut marker and its siblings up to the matching solution end."""

    default_priority = 9  # before sphinx-exercise merges gated solutions (10)

    def apply(self):
        for marker in list(self.document.findall(student_cut)):
            parent = marker.parent
            start = parent.index(marker)
            end = next((i for i in range(start + 1, len(parent.children))
                        if isinstance(parent.children[i], solution_end_node)), None)
            if end is None:
                raise ConfigError(f"{self.env.docname}: a solution-start without its solution-end "
                                  "at the same level")
            del parent.children[start:end + 1]


def edition() -> str:
    value = os.environ.get("DPSENS_EDITION", "").strip().lower() or "public"
    if value not in EDITIONS:
        raise ConfigError(f"DPSENS_EDITION must be one of {', '.join(EDITIONS)} (or unset), got {value!r}")
    return value


#: What the student edition serves instead of the teachers' page (its labels kept for the links).
TEACHERS_STUB = """(chap-teachers)=
# For teachers

This page is in the public edition of the book, for the people who run a
course with it.

(teachers-editions)=
**Editions.** You are reading the student edition: the exercises without
their worked solutions.

(teachers-grading)=
**Graded work.** Your course's instructions say how to hand in your notebooks.

(teachers-nbgrader)=
**Handing in.** Run every answer cell and save the notebook before handing it in.
"""


def _student_pages(app, docname, source):
    """The student edition: the teachers' page replaced by a stub (issue 31, item 4)."""
    if edition() == "student" and docname == "chapters/teachers":
        source[0] = TEACHERS_STUB


def _configure(app, config):
    if edition() == "student":
        config.hide_solutions = True
        # nothing that leads to the solutions (issue 31, item 4): no page sources (_sources/, the
        # download button's .md), no repository button (chapters/, notebooks/ and tools/ are there),
        # no Binder button (it opens the whole repository); the Colab button opens the handout only
        config.html_copy_source = False
        config.html_show_sourcelink = False
        options = dict(config.html_theme_options or {})
        options.update(use_download_button=False, use_repository_button=False, use_edit_page_button=False,
                       use_source_button=False, use_issues_button=False)
        launch = dict(options.get("launch_buttons") or {})
        launch.pop("binderhub_url", None)
        launch.pop("jupyterhub_url", None)
        options["launch_buttons"] = launch
        config.html_theme_options = options
        if not config.nb_execution_cache_path:
            # share the public build's cache: the code cells are the same
            config.nb_execution_cache_path = str(Path(app.srcdir) / "_build" / ".jupyter_cache")
    paths = list(config.html_static_path)
    if str(STATIC) not in paths:
        paths.append(str(STATIC))
    config.html_static_path = paths


def _proof_nodes_for_singlehtml(app):
    from sphinx_proof import nodes as proof_nodes

    handlers = [(proof_nodes.proof_node, proof_nodes.visit_proof_node, proof_nodes.depart_proof_node),
                (proof_nodes.unenumerable_node, proof_nodes.visit_unenumerable_node,
                 proof_nodes.depart_unenumerable_node)]
    handlers += [(node, proof_nodes.visit_enumerable_node, proof_nodes.depart_enumerable_node)
                 for node in proof_nodes.NODE_TYPES.values()]
    for node, visit, depart in handlers:
        app.registry.add_translation_handlers(node, singlehtml=(visit, depart))


def setup(app):
    app.setup_extension("sphinx_proof")
    _proof_nodes_for_singlehtml(app)
    app.setup_extension("sphinx_exercise")
    app.add_directive("solution-start", GatedSolutionStart, override=True)
    app.add_node(student_cut)
    app.add_transform(CutGatedSolutions)
    app.connect("config-inited", _configure)
    app.connect("source-read", _student_pages)
    app.add_css_file("book-print.css", media="print")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
