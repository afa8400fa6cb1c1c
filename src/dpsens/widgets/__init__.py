"""Interactive explorers that work with a kernel *and* on the static website.

Chapter: *For teachers* (how the explorers work in class and on the site);
every chapter with a "move the slider" figure uses :func:`explorer`.

Design
------
A chapter writes its figure as a **pure** function -- plain arguments in, a
:class:`matplotlib.figure.Figure` out (or an HTML view, such as the table of
*The median visualisation grid*) -- and hands it to :func:`explorer`
with a small grid of values for each argument::

    ds.widgets.explorer(ds.figures.dp.plot_laplace_mechanism,
                        {"epsilon": [0.5, 1.0, 2.0], "true_value": [0, 10]})

:func:`explorer` calls the function once for **every** combination of values
(refusing with a ``ValueError`` above ``max_views`` combinations, 120 by
default) -- or only the default one, see *Lazy views* -- and renders each
figure to a PNG (:func:`dpsens.widgets.png.figure_png`).  The returned :class:`Explorer` displays itself through
:func:`IPython.display.display` (``_ipython_display_``, one ``display_data``
output) with two representations of the same views:

``application/vnd.jupyter.widget-view+json``
    Live ipywidgets (a selection slider for numbers, a dropdown otherwise,
    labels in full, the controls above the figure) that swap an ``Image``
    widget shown at the PNG's natural size.  Jupyter, JupyterLab, Binder and
    Colab show this one when a kernel runs.  Only offered inside a kernel
    with ipywidgets; the reference to the widget is written by this module
    (``model_id`` plus protocol version 2.0), so it works with ipywidgets 7
    (Colab: ``VBox`` has no ``_repr_mimebundle_`` there) and 8 alike.
``text/html``
    A self-contained explorer: the PNGs as ``data:`` URIs, HTML controls
    (``<input type="range">`` / ``<select>``) and ~30 lines of inline
    JavaScript that swaps the image when a control moves -- no kernel, no
    external JavaScript, no network.  Every view has alt text.

The book's ``_config.yml`` tells myst-nb to drop the widget view for the
``html`` builder (``nb_mime_priority_overrides``: widget-view -> ``null``),
so the website renders the ``text/html`` explorer, while a notebook opened in
a live kernel renders the widgets.  (Checked with myst-nb 1.4.0 and Jupyter
Book 1.0.4: myst-nb picks the lowest-priority mime type and ``null`` removes
one; ``tests/book/test_site.py`` moves every explorer's controls in Chromium.)
Front ends without a widget manager (nbviewer, GitHub) and kernels without
ipywidgets fall back to the same ``text/html`` explorer; if building the
widgets fails for any reason the cell still shows that fallback.

Lazy views
----------
Precomputing every view is what the static site needs, but it makes Run All
in a reader's kernel slow (the smooth-sensitivity explorer alone has 48
views).  So :func:`explorer` decides, unless its ``lazy`` argument says
otherwise:

* **in a Jupyter kernel** (Binder, Colab, JupyterLab, nbval) it computes the
  default view only; every other view is computed the first time the reader
  moves a control to it and cached in :attr:`Explorer.views`.
  :meth:`Explorer.precompute` computes the rest on demand.
* **when the environment variable** ``DPSENS_EXPLORERS`` **is**
  ``precompute`` -- set by the book's Sphinx extension ``_ext/explorer_views.py``
  (listed in ``_config.yml``) for every ``jupyter-book build``, so the
  kernels that execute the chapters for the website inherit it -- and
  **outside a kernel** (scripts, doctests, unit tests) every view is
  computed at once, as the site's ``text/html`` explorer needs, and an error
  in any view raises in the cell (and fails the book build).
  ``DPSENS_EXPLORERS=lazy`` forces lazy views everywhere.

``lazy=True`` makes an explorer lazy everywhere.  Such an explorer may have
any number of views (``max_views`` is not checked), and a control may be a
:class:`TextBox` the reader types into -- the live grid explorer of *The
median visualisation grid*, where the reader types a universe.

The live widget reuses the views it has, so moving back to a view costs no
redraw, and says under the image how long a new view took; a new view is one call of the plotting function plus one PNG
encoding (see ``benchmarks/bench_widgets.py`` and
``benchmarks/bench_notebooks.py``).

The parts
---------
======================================  ==================================================
module                                  what it does
======================================  ==================================================
:mod:`~dpsens.widgets.png`              a figure as a compact PNG recording its smallest text
:mod:`~dpsens.widgets.alt_text`         alt text for every figure (``describe_figure``,
                                        ``show``, ``enable_alt_text``)
:mod:`~dpsens.widgets.kernel`           a reader's kernel or the book build (lazy views)
:mod:`~dpsens.widgets.live`             ipywidgets 7 and 8: the live explorer, display plumbing
:mod:`~dpsens.widgets.static_html`      the static explorer of the website (HTML + inline script)
:mod:`~dpsens.widgets.explorers`        ``explorer``, ``Explorer``, ``TextBox``
======================================  ==================================================

Layers: ``png`` < ``alt_text``; ``kernel`` < ``live``; ``explorer`` uses all of
them; ``live`` and ``static_html`` never import each other, so a change to the
static page cannot break Colab and the other way round.  The package imports
nothing from :mod:`dpsens.figures` (which draws on top of it and re-exports
``figure_png``).
"""
from __future__ import annotations

from .alt_text import describe_figure, enable_alt_text, show
from .explorers import MAX_VIEWS, Explorer, TextBox, explorer
from .kernel import ENV_VAR, in_kernel, lazy_default
from .live import CONTROL_WIDTH, display_live, image_layout, label_width, live_bundle, widget_view_bundle
from . import alt_text, explorers, kernel, live, png, static_html  # noqa: F401

__all__ = ["Explorer", "explorer", "TextBox", "describe_figure", "enable_alt_text", "show", "MAX_VIEWS",
           "ENV_VAR", "CONTROL_WIDTH", "in_kernel", "label_width", "lazy_default", "live_bundle", "display_live",
           "widget_view_bundle", "image_layout"]
