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
figure to a PNG (:func:`dpsens.figures.style.figure_png`).  The returned :class:`Explorer` displays itself through
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
one; ``tests/test_site.py`` moves every explorer's controls in Chromium.)
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

Figures and alt text
--------------------
:func:`describe_figure` builds an alt text from a figure's titles, axis
labels and legend entries.  :func:`dpsens.use_style`, which every chapter
calls first, calls :func:`enable_alt_text` (importing the package changes
nothing in IPython), so *every* figure a notebook displays also gets a ``text/html`` ``<img>`` with that alt text -- the
representation the website uses.  Set ``fig.dpsens_alt = "..."`` to write
the description yourself, or end a cell with ``ds.widgets.show(fig, alt=...)``.
Write titles, axis labels (with units) and legends: they are the alt text.
"""
from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import json
import math
import numbers
import os
import time
from collections.abc import Callable, Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure, FigureBase
from PIL import Image

from .figures.style import figure_png
from .timing import Stopwatch

__all__ = ["Explorer", "explorer", "TextBox", "describe_figure", "enable_alt_text", "show", "MAX_VIEWS",
           "ENV_VAR", "CONTROL_WIDTH", "in_kernel", "label_width", "lazy_default", "live_bundle", "display_live", "widget_view_bundle",
           "image_layout"]

#: Default cap on the number of precomputed views of one explorer.
MAX_VIEWS = 120

_counter = itertools.count()


# --------------------------------------------------------------------------- figures
def describe_figure(fig: Figure) -> str:
    """An alt text for ``fig`` from its titles, axis labels and legend entries.

    Chapter: *For teachers*.

    Parameters
    ----------
    fig : matplotlib.figure.Figure

    Returns
    -------
    str
        For example ``"Figure: Laplace mechanism. x axis: released value;
        y axis: probability density; curves: sensitivity 1, sensitivity 2."``

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1], label="identity")
    >>> _ = ax.set(title="A line", xlabel="x", ylabel="y"); _ = ax.legend()
    >>> describe_figure(fig)
    'Figure: A line. x axis: x; y axis: y; legend: identity.'
    >>> plt.close(fig)
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    parts = []
    sup = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    if sup:
        parts.append(sup)
    panels = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison and not ax.get_title():
            continue
        bits = []
        title = ax.get_title() or ax.get_title("left") or ax.get_title("right")
        if title:
            bits.append(title)
        axes_text = []
        if ax.get_xlabel():
            axes_text.append(f"x axis: {ax.get_xlabel()}")
        if ax.get_ylabel():
            axes_text.append(f"y axis: {ax.get_ylabel()}")
        legend = ax.get_legend()
        if legend is not None:
            labels = [t.get_text() for t in legend.get_texts() if t.get_text()]
            if labels:
                axes_text.append("legend: " + ", ".join(labels))
        text = ". ".join(bits)
        if axes_text:
            text = (text + ". " if text else "") + "; ".join(axes_text)
        if text:
            panels.append(text)
    if len(panels) > 1:
        panels = [f"panel {i + 1}: {p}" for i, p in enumerate(panels)]
    parts.extend(panels)
    for legend in fig.legends:      # a legend of the whole figure (below its panels)
        labels = [t.get_text() for t in legend.get_texts() if t.get_text()]
        if labels:
            parts.append("legend: " + ", ".join(labels))
    body = ". ".join(p.rstrip(".") for p in parts) if parts else "a figure"
    return f"Figure: {body}."


class _ImageWithAlt:
    """A displayed figure: ``image/png`` for notebooks plus ``text/html`` with alt text."""

    def __init__(self, png: bytes, alt: str):
        self.png, self.alt = png, alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        b64 = base64.b64encode(self.png).decode("ascii")
        return {
            "text/plain": f"<figure: {self.alt}>",
            "text/html": f'<img class="dpsens-figure" src="data:image/png;base64,{b64}" '
                         f'alt="{html.escape(self.alt, quote=True)}" style="max-width:100%;height:auto">',
            "image/png": b64,
        }


def show(fig: Figure, alt: str | None = None, close: bool = True) -> _ImageWithAlt:
    """Display ``fig`` as an image with alt text (end a cell with ``ds.widgets.show(fig)``).

    Chapter: *For teachers*.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    alt : str, optional
        The alt text; by default :func:`describe_figure` writes one from the
        figure's titles, axis labels and legend.
    close : bool
        Close the figure so the notebook does not render it a second time.

    Returns
    -------
    object
        Displays as ``text/html`` (``<img alt=...>``, used by the website) and
        ``image/png``.
    """
    if alt is not None and not isinstance(alt, str):
        raise TypeError(f"alt must be a string or None, got {type(alt).__name__}")
    png = figure_png(fig)
    text = alt if alt else describe_figure(fig)
    if close:
        plt.close(fig)
    return _ImageWithAlt(png, text)


def _figure_html(fig) -> str | None:
    if not isinstance(fig, Figure):  # a SubFigure: not displayed on its own
        return None
    alt = getattr(fig, "dpsens_alt", None) or describe_figure(fig)
    b64 = base64.b64encode(figure_png(fig)).decode("ascii")
    return (f'<img class="dpsens-figure" src="data:image/png;base64,{b64}" '
            f'alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto">')


def enable_alt_text() -> bool:
    """Give every matplotlib figure a notebook shows an alt text (on the website too).

    Chapter: *For teachers*.

    Registers an IPython ``text/html`` formatter for figures: besides the usual
    ``image/png``, a displayed figure gets an ``<img>`` whose alt text is
    ``fig.dpsens_alt`` if set, else :func:`describe_figure` (title, axis
    labels, legend).  myst-nb prefers ``text/html`` on the website, so every
    figure there carries a description.  Called by :func:`dpsens.use_style`
    (the first cell of every chapter); harmless to call again.

    Returns
    -------
    bool
        True if a formatter was registered (running inside IPython).
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    ip = get_ipython()
    if ip is None:
        return False
    # Registered for FigureBase, not Figure: matplotlib's inline backend pops
    # every formatter registered for Figure itself when it (re)configures; the
    # lookup follows the class hierarchy, so Figure still finds this one.
    ip.display_formatter.formatters["text/html"].for_type(FigureBase, _figure_html)
    return True


# --------------------------------------------------------------------------- explorer
def _label(value) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        return f"{float(value):g}"
    return str(value)


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


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


#: Width of an explorer control's slider or dropdown, besides its label.
CONTROL_WIDTH = "24em"


def label_width(labels) -> str:
    """A label column wide enough for every label in full (about 0.6 em a character).

    Chapter: *For teachers*.  One width for all the controls of an explorer,
    so their sliders line up and no label is cut ("Pool (each value ...").
    """
    longest = max((len(str(lab)) for lab in labels), default=0)
    return f"{0.6 * longest + 0.5:.1f}em"

_in_kernel = in_kernel  # the old private name, kept for notebooks written against it

#: Environment variable that decides whether explorers precompute every view
#: (``precompute``, set by the book build) or compute them as the reader asks
#: (``lazy``); unset: lazy in a kernel, all at once elsewhere.
ENV_VAR = "DPSENS_EXPLORERS"


def lazy_default() -> bool:
    """Whether :func:`explorer` computes views lazily when its ``lazy`` argument is None.

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


def widget_view_bundle(widget) -> dict:
    """The ``application/vnd.jupyter.widget-view+json`` output of an ipywidget.

    Chapter: *For teachers*.

    Written here rather than taken from the widget because ipywidgets 7 (Colab)
    has no ``_repr_mimebundle_`` and ipywidgets 8 has; both use the widget
    message protocol 2.x, whose front ends need only the model id.
    """
    model_id = getattr(widget, "model_id", None)
    if not model_id:
        raise ValueError("widget has no model id: it is not connected to a Jupyter kernel")
    return {"application/vnd.jupyter.widget-view+json":
            {"version_major": 2, "version_minor": 0, "model_id": model_id}}


def live_bundle(static: Mapping, make_widget: Callable[[], object]) -> dict:
    """``static`` plus, inside a kernel with ipywidgets, the live widget ``make_widget()``.

    Chapter: *For teachers*.

    The display plumbing every explorer shares: the static representations
    (``text/plain``, ``text/html``) always; the widget view only in a kernel,
    and only if building the widget works -- any failure (no ipywidgets, no
    comm) leaves the static view, so a cell never shows a traceback instead
    of its figure.
    """
    bundle = dict(static)
    if in_kernel():
        try:
            bundle.update(widget_view_bundle(make_widget()))
        except Exception:  # noqa: BLE001 - the static view is the fallback for any failure
            pass
    return bundle


def display_live(static: Mapping, make_widget: Callable[[], object]) -> None:
    """Display :func:`live_bundle` through :func:`IPython.display.display` (one output).

    Chapter: *For teachers*.
    """
    from IPython.display import display

    display(live_bundle(static, make_widget), raw=True)


def image_layout(png: bytes, max_height: str = "75vh") -> dict:
    """Layout of an ``ipywidgets.Image`` that shows ``png`` at its natural size.

    Chapter: *For teachers*.

    JupyterLab otherwise stretches an image in a ``VBox`` to the cell width
    (a 495 px PNG drawn 964 px wide, blurry).  The width is the PNG's own, at
    most the cell width (``max_width``) and at most ``max_height`` of the
    window tall (so the controls above it stay on screen); the height follows
    the aspect ratio.  Returns the keyword arguments of ``ipywidgets.Layout``.
    """
    with Image.open(io.BytesIO(png)) as im:
        width, height = im.size
    return {"width": f"{width}px", "height": "auto", "max_width": "100%",
            "max_height": max_height, "object_fit": "contain", "flex": "0 0 auto"}


def _image_widget(w, png: bytes):
    """An ``Image`` widget at the PNG's natural size (works with ipywidgets 7 and 8)."""
    return w.Image(value=png, format="png", layout=w.Layout(**image_layout(png)))


class TextBox:
    """A control the reader types into, for :func:`explorer`: ``{"values": TextBox("1, 2, 3")}``.

    Chapter: *The median visualisation grid* (the live explorer's universe).

    The plotting function receives the text as typed (it should answer text
    it cannot read with a figure that says so).  Every text is a view of its
    own, computed when the reader types it -- which needs a running kernel --
    so an explorer with a text box should be lazy (``lazy=True``); on the
    static page the box is a list of the texts computed so far.

    Parameters
    ----------
    default : str
        The text the box starts with.
    placeholder : str
        A hint shown in the empty box, e.g. ``"e.g. 1, 2, 3, 10, 11"``.
    """

    def __init__(self, default: str, placeholder: str = ""):
        if not isinstance(default, str):
            raise TypeError(f"default must be the text the box starts with (a string), got {default!r}")
        if not isinstance(placeholder, str):
            raise TypeError(f"placeholder must be a string, got {placeholder!r}")
        self.default, self.placeholder = default, placeholder

    def __repr__(self) -> str:
        return f"TextBox({self.default!r})"


class Explorer:
    """Views of a pure plotting function over a grid of arguments.

    Built by :func:`explorer`; see the module docstring for how it displays
    and when the views are computed.

    Attributes
    ----------
    names : list of str
        The argument names, in the order of the controls.
    options : list of list of (str, object)
        For each argument, its (label, value) pairs.
    default : tuple of int
        Index of the default value of each argument.
    views : dict
        Maps a tuple of indices (one per argument) to ``(png_bytes, alt_text)``, or
        ``(html, alt_text)`` for a view the plotting function gave as HTML:
        every combination once all are computed (``lazy=False`` or after
        :meth:`precompute`), else those computed so far (the default first).
    lazy : bool
        Whether views are computed on demand.
    compute_ms, compute_cpu_ms : dict
        Milliseconds each computed view took (plot, PNG, alt text), as wall
        time and as CPU time of this process.
    """

    def __init__(self, plot_func, names, options, default, views, title=None, labels=None,
                 render=None, lazy=False, texts=None):
        self.plot_func = plot_func
        self.names = names
        #: the text boxes among the controls: {position: TextBox}; their options grow as readers type
        self.texts = {names.index(n): box for n, box in (texts or {}).items()}
        #: display label of each control (the argument name unless ``labels`` gave one)
        self.labels = [(labels or {}).get(n, n) for n in names]
        self.options = options
        self.default = default
        self.views = views
        self.title = title
        self.lazy = lazy
        self.compute_ms = {}
        self.compute_cpu_ms = {}
        self._render = render
        # the html element's id: set once the first views exist (see explorer())
        self._id = f"dpsens-explorer-{next(_counter)}-{self._digest()}" if views else None
        self._widget = None

    def _digest(self) -> str:
        h = hashlib.sha1()
        for key in sorted(self.views):
            h.update(repr(key).encode())
            content = self.views[key][0]
            h.update(content.encode() if isinstance(content, str) else content)
        return h.hexdigest()[:10]

    @property
    def shape(self) -> tuple[int, ...]:
        """Number of values of each control."""
        return tuple(len(p) for p in self.options)

    def __len__(self) -> int:
        """Number of views (combinations of control values), computed or not."""
        return math.prod(self.shape)

    def indices(self):
        """Every view's index (a tuple with one position per control), in grid order."""
        return itertools.product(*(range(n) for n in self.shape))

    def kwargs(self, index) -> dict:
        """The keyword arguments of the view at ``index`` (a tuple of indices)."""
        return {n: self.options[i][j][1] for i, (n, j) in enumerate(zip(self.names, index))}

    def view_at(self, index) -> tuple[bytes, str]:
        """The ``(png, alt)`` of the view at ``index``, computed now if not yet cached.

        Raises
        ------
        ValueError
            If ``index`` is not a tuple of one valid position per control.
        """
        index = tuple(index)
        if index in self.views:
            return self.views[index]
        if len(index) != len(self.shape) or not all(
                isinstance(j, numbers.Integral) and 0 <= j < n for j, n in zip(index, self.shape)):
            raise ValueError(f"index must hold one position per control within {self.shape}, got {index!r}")
        if self._render is None:  # pragma: no cover - an Explorer built by hand with every view
            raise ValueError(f"view {index!r} was not computed and this explorer cannot compute it")
        with Stopwatch() as wall, Stopwatch(time.process_time) as cpu:
            self.views[index] = self._render(index)
        self.compute_ms[index] = wall.ms
        self.compute_cpu_ms[index] = cpu.ms
        return self.views[index]

    def precompute(self) -> "Explorer":
        """Compute every view not computed yet (what the static website shows); returns self."""
        for index in self.indices():
            self.view_at(index)
        return self

    @property
    def complete(self) -> bool:
        """Whether every view has been computed."""
        return len(self.views) == len(self)

    def text_index(self, i: int, text: str) -> int:
        """The position of ``text`` among the values of the text box ``i``, added if new."""
        if not isinstance(text, str):
            raise TypeError(f"{self.names[i]} is a text box: its value must be a string, got {text!r}")
        for j, (_, value) in enumerate(self.options[i]):
            if value == text:
                return j
        self.options[i].append((text, text))
        return len(self.options[i]) - 1

    def view(self, **kwargs) -> tuple[bytes, str]:
        """The ``(png, alt)`` for the given argument values (computed if not yet cached)."""
        index = list(self.default)
        for name, value in kwargs.items():
            if name not in self.names:
                raise ValueError(f"unknown control {name!r}; the controls are {self.names}")
            i = self.names.index(name)
            if i in self.texts:
                index[i] = self.text_index(i, value)
                continue
            values = [v for _, v in self.options[i]]
            try:
                index[i] = next(j for j, v in enumerate(values) if _same(v, value))
            except StopIteration:
                raise ValueError(f"{name}={value!r} is not one of the values of this control, {values}") from None
        return self.view_at(tuple(index))

    # ---- static html -------------------------------------------------------
    def to_html(self) -> str:
        """The kernel-free explorer: images, controls and a little inline JavaScript.

        Holds every view computed so far: all of them when the explorer
        precomputes (the website); with lazy views (a reader's kernel) a view
        not computed yet says so under the controls.
        """
        default_content, default_alt = self.view_at(self.default)
        if self._id is None:
            self._id = f"dpsens-explorer-{next(_counter)}-{self._digest()}"
        uid = self._id
        sources, src_index, table = [], {}, {}
        for key, (content, alt) in self.views.items():
            if content not in src_index:
                src_index[content] = len(sources)
                sources.append(content if isinstance(content, str)
                               else "data:image/png;base64," + base64.b64encode(content).decode("ascii"))
            table["-".join(map(str, key))] = [src_index[content], alt]
        controls = []
        for i, name in enumerate(self.names):
            opts = self.options[i]
            cid = f"{uid}-c{i}"
            labels = [lab for lab, _ in opts]
            j0 = self.default[i]
            esc = html.escape
            if all(_is_number(v) for _, v in opts) and len(opts) > 1:
                widget = (f'<input type="range" id="{cid}" data-index="{i}" min="0" max="{len(opts) - 1}" '
                          f'step="1" value="{j0}" aria-valuetext="{esc(labels[j0])}" '
                          f"data-labels='{esc(json.dumps(labels), quote=True)}'>"
                          f'<output for="{cid}" style="min-width:4em;font-family:monospace">{esc(labels[j0])}</output>')
            else:
                options_html = "".join(
                    f'<option value="{j}"{" selected" if j == j0 else ""}>{esc(lab)}</option>'
                    for j, lab in enumerate(labels))
                widget = f'<select id="{cid}" data-index="{i}">{options_html}</select>'
            controls.append(
                f'<div class="dpsens-explorer-control" style="display:flex;align-items:center;gap:0.5em;margin:0.2em 0">'
                f'<label for="{cid}" style="min-width:8em;font-weight:600">{esc(self.labels[i])}</label>{widget}</div>')
        data = json.dumps({"sources": sources, "views": table}, separators=(",", ":"))
        data = data.replace("</", "<\\/")  # never close the script element early
        title = (f'<div class="dpsens-explorer-title" style="font-weight:600">{html.escape(self.title)}</div>'
                 if self.title else "")
        script = _JS.replace("__ID__", uid)
        return (
            f'<div class="dpsens-explorer" id="{uid}" data-views="{len(self.views)}" '
            f'style="border:1px solid #ccc;border-radius:6px;padding:0.6em;margin:0.5em 0">'
            f"{title}"
            f'<div class="dpsens-explorer-controls" role="group" aria-label="figure controls">{"".join(controls)}</div>'
            f"{self._view_elements(sources, src_index, default_content, default_alt)}"
            f'<div class="dpsens-explorer-status" aria-live="polite" style="font-size:0.85em;color:#555">'
            f"{html.escape(self._status(self.default))}</div>"
            f'<script type="application/json" class="dpsens-explorer-data">{data}</script>'
            f"<script>{script}</script>"
            f"</div>"
        )

    @staticmethod
    def _view_elements(sources, src_index, default_content, default_alt) -> str:
        """The element(s) that show a view: an ``<img>`` if any view is a PNG, a ``<div>`` if any is HTML."""
        esc = html.escape
        is_html = isinstance(default_content, str)
        out = ""
        pngs = [s for s in sources if s.startswith("data:image/png;base64,")]
        if pngs:
            src = pngs[0] if is_html else sources[src_index[default_content]]
            out += (f'<img class="dpsens-explorer-image" src="{src}" alt="{esc(default_alt, quote=True)}" '
                    f'style="max-width:100%;height:auto{";display:none" if is_html else ""}">')
        if len(pngs) < len(sources):
            out += (f'<div class="dpsens-explorer-html" data-source="{src_index[default_content] if is_html else ""}" '
                    f'aria-label="{esc(default_alt, quote=True)}" '
                    f'style="max-width:100%{"" if is_html else ";display:none"}">'
                    f'{default_content if is_html else ""}</div>')
        return out

    def _status(self, index) -> str:
        return "Showing " + ", ".join(
            f"{n} = {self.options[i][j][0]}" for i, (n, j) in enumerate(zip(self.labels, index)))

    def _drawn_in(self, index) -> str:
        """How long the view at ``index`` took (live widget only: the static page has no timings)."""
        return f"; drawn in {self.compute_ms[index]:.0f} ms" if index in self.compute_ms else ""

    # ---- live widget ---------------------------------------------------------
    def widget(self):
        """The live ipywidgets view (built once, reused; ipywidgets 7 or 8).

        A title, the controls (labels in full) above the image, the image at
        the PNG's natural size, and a status line.  Moving a control shows
        the cached view, or computes it first (the status line says
        "Computing ..." meanwhile, then how long the view took to draw).
        A :class:`TextBox` control is a text field; the view follows the
        text once the reader presses Enter or leaves the field.
        """
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        default_content = self.view_at(self.default)[0]
        # a view is a PNG (shown by an Image) or HTML (shown by an HTML widget); the other one hides
        is_html = isinstance(default_content, str)
        image = (w.Image(value=b"", format="png", layout=w.Layout(display="none")) if is_html
                 else _image_widget(w, default_content))
        table = w.HTML(default_content if is_html else "",
                       layout=w.Layout(max_width="100%", overflow="auto", display=None if is_html else "none"))
        status = w.HTML(html.escape(self._status(self.default) + self._drawn_in(self.default)))
        controls = []
        desc = label_width(self.labels)
        for i, name in enumerate(self.names):
            opts = self.options[i]
            pairs = [(lab, j) for j, (lab, _) in enumerate(opts)]
            kw = dict(options=pairs, value=self.default[i], description=self.labels[i],
                      style={"description_width": desc},
                      # a fixed width: with "auto" JupyterLab collapses a slider's track
                      layout=w.Layout(width=f"calc({desc} + {CONTROL_WIDTH})", max_width="100%"))
            if i in self.texts:
                del kw["options"]
                kw["value"] = opts[self.default[i]][1]
                control = w.Text(placeholder=self.texts[i].placeholder, continuous_update=False, **kw)
            elif all(_is_number(v) for _, v in opts) and len(opts) > 1:
                control = w.SelectionSlider(continuous_update=False, **kw)
            else:
                control = w.Dropdown(**kw)
            controls.append(control)

        def current():
            return tuple(self.text_index(i, c.value) if i in self.texts else c.value
                         for i, c in enumerate(controls))

        def update(_change=None):
            key = current()
            fresh = key not in self.views
            if fresh:
                status.value = html.escape("Computing: " + self._status(key)[len("Showing "):] + " ...")
            try:
                content = self.view_at(key)[0]
            except Exception as exc:  # noqa: BLE001 - shown to the reader, not lost in the log
                status.value = html.escape(f"Could not draw this view: {type(exc).__name__}: {exc}")
                return
            if key == current():  # still the reader's choice
                if isinstance(content, str):
                    table.value = content
                else:
                    image.layout = w.Layout(**image_layout(content))
                    image.value = content
                table.layout.display = None if isinstance(content, str) else "none"
                image.layout.display = "none" if isinstance(content, str) else None
                status.value = html.escape(self._status(key) + (self._drawn_in(key) if fresh else ""))

        for c in controls:
            c.observe(update, names="value")
        children = []
        if self.title:
            children.append(w.HTML(f"<b>{html.escape(self.title)}</b>"))
        children += [w.VBox(controls, layout=w.Layout(align_items="flex-start", width="100%")), image, table, status]
        box = w.VBox(children, layout=w.Layout(align_items="flex-start", width="100%"))
        box.add_class("dpsens-explorer-widget")
        box._dpsens_controls = controls  # for tests
        box._dpsens_image = image
        box._dpsens_html = table
        box._dpsens_status = status
        self._widget = box
        return box

    def _static_bundle(self) -> dict:
        name = getattr(self.plot_func, "__name__", None) or getattr(
            getattr(self.plot_func, "func", None), "__name__", "a figure")
        return {"text/plain": f"<dpsens explorer of {name}: {len(self.views)} of {len(self)} views "
                              f"computed, over {', '.join(self.names)}>",
                "text/html": self.to_html()}

    def _repr_mimebundle_(self, include=None, exclude=None):
        return live_bundle(self._static_bundle(), self.widget)

    def _ipython_display_(self):
        display_live(self._static_bundle(), self.widget)


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b) or (_is_number(a) and _is_number(b) and a == b)
    except (TypeError, ValueError):
        return a is b


_JS = r"""(function(){
var root=document.getElementById("__ID__");if(!root)return;
var data=JSON.parse(root.querySelector("script.dpsens-explorer-data").textContent);
var img=root.querySelector("img.dpsens-explorer-image");
var box=root.querySelector(".dpsens-explorer-html");
var status=root.querySelector(".dpsens-explorer-status");
var ctrls=Array.prototype.slice.call(root.querySelectorAll("[data-index]"));
function label(c){if(c.tagName==="SELECT")return c.options[c.selectedIndex].text;
 return JSON.parse(c.getAttribute("data-labels"))[+c.value];}
function update(){
 var key=ctrls.map(function(c){return c.value;}).join("-");
 var v=data.views[key];
 var shown=(img&&img.style.display!=="none")?img:box;
 if(!v){status.textContent="This view is computed only when a reader asks for it in a running kernel "+
  "with ipywidgets; this copy of the page holds the views computed so far.";shown.style.opacity="0.35";
  root.setAttribute("data-current",key);return;}
 shown.style.opacity="";
 var src=data.sources[v[0]];
 if(src.lastIndexOf("data:image/",0)===0){if(box)box.style.display="none";img.style.display="";
  img.src=src;img.alt=v[1];}
 else{if(img)img.style.display="none";box.style.display="";box.innerHTML=src;
  box.setAttribute("aria-label",v[1]);box.setAttribute("data-source",v[0]);}
 var parts=[];
 ctrls.forEach(function(c){var l=label(c);
  if(c.tagName!=="SELECT"){c.nextElementSibling.textContent=l;c.setAttribute("aria-valuetext",l);}
  parts.push(root.querySelector('label[for="'+c.id+'"]').textContent+" = "+l);});
 status.textContent="Showing "+parts.join(", ");
 root.setAttribute("data-current",key);}
ctrls.forEach(function(c){c.addEventListener("input",update);c.addEventListener("change",update);});
})();"""


def _check_explorer_arguments(plot_func, controls, max_views, alt, lazy, title, labels) -> None:
    """The checks of :func:`explorer`'s arguments that need no control values."""
    if not callable(plot_func):
        raise TypeError(f"plot_func must be a function returning a matplotlib Figure, got {plot_func!r}")
    if not isinstance(controls, Mapping):
        raise TypeError("controls must be a dict {argument_name: list_of_values}, "
                        f"got {type(controls).__name__}")
    if not controls:
        raise ValueError("controls must name at least one argument, got an empty dict")
    if isinstance(max_views, bool) or not isinstance(max_views, numbers.Integral) or max_views < 1:
        raise ValueError(f"max_views must be a positive integer, got {max_views!r}")
    if alt is not None and not (isinstance(alt, str) or callable(alt)):
        raise TypeError(f"alt must be a string, a function or None, got {type(alt).__name__}")
    if lazy is not None and not isinstance(lazy, bool):
        raise TypeError(f"lazy must be True, False or None, got {lazy!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}")
    if labels is not None:
        if not isinstance(labels, Mapping) or not all(isinstance(v, str) for v in labels.values()):
            raise TypeError(f"labels must be a dict {{argument_name: str}}, got {labels!r}")
        unknown = [k for k in labels if k not in controls]
        if unknown:
            raise ValueError(f"labels names {unknown}, which are not controls; the controls are {list(controls)}")


def _control_options(controls) -> tuple[list, list, dict]:
    """``(names, options, texts)``: the control names, for each a list of ``(label, value)`` pairs,
    and the text boxes ``{name: TextBox}`` (their one pair is the default text)."""
    names, options, texts = [], [], {}
    for name, values in controls.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"control names must be argument names (identifiers), got {name!r}")
        if isinstance(values, TextBox):
            texts[name] = values
            pairs = [(values.default, values.default)]
        elif isinstance(values, Mapping):
            pairs = [(str(k), v) for k, v in values.items()]
        elif isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)) \
                and not hasattr(values, "tolist"):
            raise TypeError(f"controls[{name!r}] must be a list of values (or a dict label -> value), "
                            f"got {type(values).__name__} {values!r}")
        else:
            seq = values.tolist() if hasattr(values, "tolist") else list(values)
            pairs = [(_label(v), v) for v in seq]
        if not pairs:
            raise ValueError(f"controls[{name!r}] must hold at least one value, got an empty list")
        shown = [lab for lab, _ in pairs]
        dup = sorted({lab for lab in shown if shown.count(lab) > 1})
        if dup:
            raise ValueError(f"controls[{name!r}] has repeated values {dup}; each value must appear once")
        names.append(name)
        options.append(pairs)
    return names, options, texts


def _default_indices(defaults, names, options, texts) -> list:
    """The index of each control's default value: its first, or the one ``defaults`` names
    (for a text box, any string: it becomes the box's text)."""
    default = [0] * len(names)
    if defaults is not None:
        if not isinstance(defaults, Mapping):
            raise TypeError(f"defaults must be a dict {{argument_name: value}}, got {type(defaults).__name__}")
        for name, value in defaults.items():
            if name not in names:
                raise ValueError(f"defaults names {name!r}, which is not a control; the controls are {names}")
            i = names.index(name)
            if name in texts:
                if not isinstance(value, str):
                    raise TypeError(f"defaults[{name!r}] is the text of a text box: a string, got {value!r}")
                options[i][0] = (value, value)
                continue
            values = [v for _, v in options[i]]
            match = [j for j, v in enumerate(values) if _same(v, value)]
            if not match:
                raise ValueError(f"defaults[{name!r}] = {value!r} is not one of controls[{name!r}] = {values}")
            default[i] = match[0]
    return default


def _check_view_count(names, options, max_views) -> None:
    """Refuse a grid of more than ``max_views`` combinations (each is embedded in the page)."""
    total = 1
    for pairs in options:
        total *= len(pairs)
    if total > max_views:
        sizes = " x ".join(f"{len(p)} ({n})" for n, p in zip(names, options))
        raise ValueError(
            f"the controls make {total} combinations ({sizes}), more than max_views={max_views}; every "
            "combination is precomputed for the static site, so use fewer values per control "
            "(or raise max_views if the page may grow that large)")


def explorer(plot_func: Callable[..., Figure], controls: Mapping[str, Sequence | Mapping],
             defaults: Mapping | None = None, *, alt: str | Callable[..., str] | None = None,
             title: str | None = None, labels: Mapping[str, str] | None = None,
             max_views: int = MAX_VIEWS, dpi: float | None = None, lazy: bool | None = None) -> Explorer:
    """An interactive explorer of ``plot_func`` over a grid of argument values.

    Chapter: *For teachers* (and every chapter with a "move the slider" figure).

    Parameters
    ----------
    plot_func : callable
        A pure function: keyword arguments in, :class:`matplotlib.figure.Figure`
        out -- or an HTML view, any object with ``_repr_html_`` (a table, say;
        its ``dpsens_alt`` attribute, if any, describes it).  It is called
        once per combination of control values.
    controls : dict
        ``{argument_name: values}`` where ``values`` is a non-empty list of
        distinct values (numbers get a slider, anything else a dropdown), a
        dict ``{label: value}`` to show custom labels, or a :class:`TextBox`
        (the reader types the value).  The first value is the default.
    defaults : dict, optional
        ``{argument_name: value}`` overriding the first-value default; every
        value must be one of that control's values.
    alt : str or callable, optional
        Alt text of each view.  A string may use ``{name}`` fields, filled
        with the labels of the current values; a callable receives the keyword
        arguments and returns the text.  By default :func:`describe_figure`
        of each figure followed by the current values.
    title : str, optional
        A heading shown above the controls.
    labels : dict, optional
        ``{argument_name: label}``: how a control is labelled for the reader
        (e.g. ``{"n_chunks": "number of chunks k"}``); the argument name by
        default.
    max_views : int
        Refuse (``ValueError``) grids with more combinations than this
        (default 120: on the website every view is precomputed and embedded
        in the page).  Not checked with ``lazy=True``: such an explorer
        computes only the views readers ask for.
    dpi : float, optional
        Resolution of the images; the figure's own dpi by default.
    lazy : bool, optional
        Compute only the default view now and every other one when a reader
        first asks for it (True), or every view now (False, what the static
        website needs).  None (the default) decides with :func:`lazy_default`:
        lazy in a reader's Jupyter kernel, everything at once in the book
        build (``DPSENS_EXPLORERS=precompute``), scripts and tests.

    Returns
    -------
    Explorer
        Displays as live widgets in a kernel and as a precomputed HTML
        explorer on the static site.  The default view is always computed
        by this call, so an error of ``plot_func`` raises here.

    Raises
    ------
    TypeError
        If ``plot_func`` is not callable, ``controls`` is not a dict, a value
        list is not a list, or ``plot_func`` does not return a Figure.
    ValueError
        If a control has no values or repeated values, a default is unknown,
        or the grid has more than ``max_views`` combinations.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> def line(slope):
    ...     fig, ax = plt.subplots(figsize=(3, 2))
    ...     ax.plot([0, 1], [0, slope], label=f"slope {slope}")
    ...     ax.set(title="A line", xlabel="x", ylabel="y")
    ...     return fig
    >>> ex = explorer(line, {"slope": [1, 2, 3]}, defaults={"slope": 2})
    >>> len(ex), ex.default
    (3, (1,))
    """
    _check_explorer_arguments(plot_func, controls, max_views, alt, lazy, title, labels)
    display = dict(labels) if labels is not None else None
    names, options, texts = _control_options(controls)
    default = _default_indices(defaults, names, options, texts)
    if lazy is not True:  # views that may all be computed: each one is embedded in the page
        _check_view_count(names, options, max_views)

    def render(index):
        kwargs = {n: options[i][j][1] for i, (n, j) in enumerate(zip(names, index))}
        fig = plot_func(**kwargs)
        is_figure = isinstance(fig, Figure)
        if not is_figure and not callable(getattr(fig, "_repr_html_", None)):
            raise TypeError(f"plot_func must return a matplotlib.figure.Figure or an HTML view (an object with "
                            f"_repr_html_); {getattr(plot_func, '__name__', plot_func)}"
                            f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) returned "
                            f"{type(fig).__name__}")
        try:
            content = figure_png(fig, dpi) if is_figure else str(fig._repr_html_())
            value_labels = {n: options[i][j][0] for i, (n, j) in enumerate(zip(names, index))}
            setting = ", ".join(f"{(display or {}).get(n, n)} = {lab}" for n, lab in value_labels.items())
            if alt is None:
                own = getattr(fig, "dpsens_alt", None) or (describe_figure(fig) if is_figure else "A table.")
                text = f"{own} Shown for {setting}."
            elif isinstance(alt, str):
                text = alt.format(**value_labels)
            else:
                text = str(alt(**kwargs))
        finally:
            if is_figure:
                plt.close(fig)
        return content, text

    lazy = lazy_default() if lazy is None else lazy
    ex = Explorer(plot_func, names, options, tuple(default), {}, title=title, labels=display,
                  render=render, lazy=lazy, texts=texts)
    ex.view_at(ex.default)  # the first view, computed now: an error shows in the cell
    if not lazy:
        ex.precompute()
    ex._id = f"dpsens-explorer-{next(_counter)}-{ex._digest()}"
    return ex
