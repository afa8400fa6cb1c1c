"""Interactive explorers that work with a kernel *and* on the static website.

Chapter: *For teachers* (how the explorers work in class and on the site);
every chapter with a "move the slider" figure uses :func:`explorer`.

Design
------
A chapter writes its figure as a **pure** function -- plain arguments in, a
:class:`matplotlib.figure.Figure` out -- and hands it to :func:`explorer`
with a small grid of values for each argument::

    ds.widgets.explorer(ds.plots.plot_laplace_mechanism,
                        {"epsilon": [0.5, 1.0, 2.0], "true_value": [0, 10]})

:func:`explorer` calls the function once for **every** combination of values
(refusing with a ``ValueError`` above ``max_views`` combinations, 120 by
default) and renders each figure to a PNG.  The returned :class:`Explorer`
object displays itself through ``_repr_mimebundle_`` with two
representations of the same views:

``application/vnd.jupyter.widget-view+json``
    Live ipywidgets (a selection slider for numbers, a dropdown otherwise)
    that swap an ``Image`` widget.  Jupyter, JupyterLab, Binder and Colab
    show this one when a kernel runs.  Only offered inside a kernel.
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
Front ends without a widget manager (nbviewer, GitHub, Colab without
widgets) fall back to the same ``text/html`` explorer.  The live widget reuses the precomputed
images, so moving a control costs no redraw at all; a redraw is one call of
the plotting function plus one ``savefig`` (well under 100 ms for the
book's figures, see ``benchmarks/bench_widgets.py``).

Because all views are computed when :func:`explorer` is called, an error in
the plotting function raises in the cell (and fails the book build) instead
of being swallowed by the display machinery.

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
import numbers
from collections.abc import Callable, Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure, FigureBase
from PIL import Image

__all__ = ["Explorer", "explorer", "describe_figure", "enable_alt_text", "figure_png", "show", "MAX_VIEWS"]

#: Default cap on the number of precomputed views of one explorer.
MAX_VIEWS = 120

_counter = itertools.count()


# --------------------------------------------------------------------------- figures
def figure_png(fig: Figure, dpi: float | None = None) -> bytes:
    """Render ``fig`` to compact PNG bytes (256-colour palette, white background).

    Drawing the figure dominates the cost; the palette PNG is about a third
    of the size of matplotlib's RGBA PNG and indistinguishable for line and
    bar charts, which keeps pages with many precomputed views light.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib.figure.Figure, got {type(fig).__name__}")
    old_dpi = fig.dpi
    if dpi is not None:
        fig.set_dpi(dpi)
    try:
        # draw on the figure's own Agg canvas when it has one (figures pyplot
        # manages stay usable), else on a fresh Agg canvas
        canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
        canvas.draw()
        rgba = Image.frombuffer("RGBA", canvas.get_width_height(physical=True),
                                bytes(canvas.buffer_rgba()), "raw", "RGBA", 0, 1)
    finally:
        if dpi is not None:
            fig.set_dpi(old_dpi)
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(white, rgba).convert("RGB")
    buf = io.BytesIO()
    rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buf, format="png", compress_level=6)
    return buf.getvalue()


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


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with the book's environment
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


class Explorer:
    """Precomputed views of a pure plotting function over a grid of arguments.

    Built by :func:`explorer`; see the module docstring for how it displays.

    Attributes
    ----------
    names : list of str
        The argument names, in the order of the controls.
    options : list of list of (str, object)
        For each argument, its (label, value) pairs.
    default : tuple of int
        Index of the default value of each argument.
    views : dict
        Maps a tuple of indices (one per argument) to ``(png_bytes, alt_text)``.
    """

    def __init__(self, plot_func, names, options, default, views, title=None, labels=None):
        self.plot_func = plot_func
        self.names = names
        #: display label of each control (the argument name unless ``labels`` gave one)
        self.labels = [(labels or {}).get(n, n) for n in names]
        self.options = options
        self.default = default
        self.views = views
        self.title = title
        self._id = f"dpsens-explorer-{next(_counter)}-{self._digest()}"
        self._widget = None

    def _digest(self) -> str:
        h = hashlib.sha1()
        for key in sorted(self.views):
            h.update(repr(key).encode())
            h.update(self.views[key][0])
        return h.hexdigest()[:10]

    def __len__(self) -> int:
        return len(self.views)

    def kwargs(self, index) -> dict:
        """The keyword arguments of the view at ``index`` (a tuple of indices)."""
        return {n: self.options[i][j][1] for i, (n, j) in enumerate(zip(self.names, index))}

    def view(self, **kwargs) -> tuple[bytes, str]:
        """The precomputed ``(png, alt)`` for the given argument values."""
        index = list(self.default)
        for name, value in kwargs.items():
            if name not in self.names:
                raise ValueError(f"unknown control {name!r}; the controls are {self.names}")
            i = self.names.index(name)
            values = [v for _, v in self.options[i]]
            try:
                index[i] = next(j for j, v in enumerate(values) if _same(v, value))
            except StopIteration:
                raise ValueError(f"{name}={value!r} is not one of the precomputed values {values}") from None
        return self.views[tuple(index)]

    # ---- static html -------------------------------------------------------
    def to_html(self) -> str:
        """The kernel-free explorer: images, controls and a little inline JavaScript."""
        uid = self._id
        sources, src_index, table = [], {}, {}
        for key, (png, alt) in self.views.items():
            if png not in src_index:
                src_index[png] = len(sources)
                sources.append("data:image/png;base64," + base64.b64encode(png).decode("ascii"))
            table["-".join(map(str, key))] = [src_index[png], alt]
        default_png, default_alt = self.views[self.default]
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
            f'<img class="dpsens-explorer-image" src="{sources[src_index[default_png]]}" '
            f'alt="{html.escape(default_alt, quote=True)}" style="max-width:100%;height:auto">'
            f'<div class="dpsens-explorer-status" aria-live="polite" style="font-size:0.85em;color:#555">'
            f"{html.escape(self._status(self.default))}</div>"
            f'<script type="application/json" class="dpsens-explorer-data">{data}</script>'
            f"<script>{script}</script>"
            f"</div>"
        )

    def _status(self, index) -> str:
        return "Showing " + ", ".join(
            f"{n} = {self.options[i][j][0]}" for i, (n, j) in enumerate(zip(self.labels, index)))

    # ---- live widget ---------------------------------------------------------
    def widget(self):
        """The live ipywidgets view (built once, reused)."""
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        image = w.Image(value=self.views[self.default][0], format="png",
                        layout=w.Layout(max_width="100%", height="auto"))
        status = w.HTML(html.escape(self._status(self.default)))
        controls = []
        for i, name in enumerate(self.names):
            opts = self.options[i]
            pairs = [(lab, j) for j, (lab, _) in enumerate(opts)]
            kw = dict(options=pairs, value=self.default[i], description=self.labels[i],
                      style={"description_width": "initial"})
            if all(_is_number(v) for _, v in opts) and len(opts) > 1:
                control = w.SelectionSlider(continuous_update=True, **kw)
            else:
                control = w.Dropdown(**kw)
            controls.append(control)

        def update(_change=None):
            key = tuple(c.value for c in controls)
            image.value = self.views[key][0]
            status.value = html.escape(self._status(key))

        for c in controls:
            c.observe(update, names="value")
        box = w.VBox([*controls, image, status])
        box.add_class("dpsens-explorer-widget")
        box._dpsens_controls = controls  # for tests
        box._dpsens_image = image
        self._widget = box
        return box

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": f"<dpsens explorer of {getattr(self.plot_func, '__name__', 'a figure')}: "
                                f"{len(self.views)} views over {', '.join(self.names)}>",
                  "text/html": self.to_html()}
        if _in_kernel():
            try:
                bundle.update({k: v for k, v in self.widget()._repr_mimebundle_().items() if k != "text/plain"})
            except ImportError:  # no ipywidgets: the html explorer still works
                pass
        return bundle


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b) or (_is_number(a) and _is_number(b) and a == b)
    except (TypeError, ValueError):
        return a is b


_JS = r"""(function(){
var root=document.getElementById("__ID__");if(!root)return;
var data=JSON.parse(root.querySelector("script.dpsens-explorer-data").textContent);
var img=root.querySelector("img.dpsens-explorer-image");
var status=root.querySelector(".dpsens-explorer-status");
var ctrls=Array.prototype.slice.call(root.querySelectorAll("[data-index]"));
function label(c){if(c.tagName==="SELECT")return c.options[c.selectedIndex].text;
 return JSON.parse(c.getAttribute("data-labels"))[+c.value];}
function update(){
 var key=ctrls.map(function(c){return c.value;}).join("-");
 var v=data.views[key];if(!v)return;
 img.src=data.sources[v[0]];img.alt=v[1];
 var parts=[];
 ctrls.forEach(function(c){var l=label(c);
  if(c.tagName!=="SELECT"){c.nextElementSibling.textContent=l;c.setAttribute("aria-valuetext",l);}
  parts.push(root.querySelector('label[for="'+c.id+'"]').textContent+" = "+l);});
 status.textContent="Showing "+parts.join(", ");
 root.setAttribute("data-current",key);}
ctrls.forEach(function(c){c.addEventListener("input",update);c.addEventListener("change",update);});
})();"""


def explorer(plot_func: Callable[..., Figure], controls: Mapping[str, Sequence | Mapping],
             defaults: Mapping | None = None, *, alt: str | Callable[..., str] | None = None,
             title: str | None = None, labels: Mapping[str, str] | None = None,
             max_views: int = MAX_VIEWS, dpi: float | None = None) -> Explorer:
    """An interactive explorer of ``plot_func`` over a grid of argument values.

    Chapter: *For teachers* (and every chapter with a "move the slider" figure).

    Parameters
    ----------
    plot_func : callable
        A pure function: keyword arguments in, :class:`matplotlib.figure.Figure`
        out.  It is called once per combination of control values.
    controls : dict
        ``{argument_name: values}`` where ``values`` is a non-empty list of
        distinct values (numbers get a slider, anything else a dropdown), or a
        dict ``{label: value}`` to show custom labels.  The first value is the
        default.
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
        (default 120: every view is precomputed and embedded in the page).
    dpi : float, optional
        Resolution of the images; the figure's own dpi by default.

    Returns
    -------
    Explorer
        Displays as live widgets in a kernel and as a precomputed HTML
        explorer on the static site.

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
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}")
    if labels is not None:
        if not isinstance(labels, Mapping) or not all(isinstance(v, str) for v in labels.values()):
            raise TypeError(f"labels must be a dict {{argument_name: str}}, got {labels!r}")
        unknown = [k for k in labels if k not in controls]
        if unknown:
            raise ValueError(f"labels names {unknown}, which are not controls; the controls are {list(controls)}")

    display = dict(labels) if labels is not None else None
    names, options = [], []
    for name, values in controls.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"control names must be argument names (identifiers), got {name!r}")
        if isinstance(values, Mapping):
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

    default = [0] * len(names)
    if defaults is not None:
        if not isinstance(defaults, Mapping):
            raise TypeError(f"defaults must be a dict {{argument_name: value}}, got {type(defaults).__name__}")
        for name, value in defaults.items():
            if name not in names:
                raise ValueError(f"defaults names {name!r}, which is not a control; the controls are {names}")
            i = names.index(name)
            values = [v for _, v in options[i]]
            match = [j for j, v in enumerate(values) if _same(v, value)]
            if not match:
                raise ValueError(f"defaults[{name!r}] = {value!r} is not one of controls[{name!r}] = {values}")
            default[i] = match[0]

    total = 1
    for pairs in options:
        total *= len(pairs)
    if total > max_views:
        sizes = " x ".join(f"{len(p)} ({n})" for n, p in zip(names, options))
        raise ValueError(
            f"the controls make {total} combinations ({sizes}), more than max_views={max_views}; every "
            "combination is precomputed for the static site, so use fewer values per control "
            "(or raise max_views if the page may grow that large)")

    views = {}
    for index in itertools.product(*(range(len(p)) for p in options)):
        kwargs = {n: options[i][j][1] for i, (n, j) in enumerate(zip(names, index))}
        fig = plot_func(**kwargs)
        if not isinstance(fig, Figure):
            raise TypeError(f"plot_func must return a matplotlib.figure.Figure; {getattr(plot_func, '__name__', plot_func)}"
                            f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) returned "
                            f"{type(fig).__name__}")
        try:
            png = figure_png(fig, dpi)
            value_labels = {n: options[i][j][0] for i, (n, j) in enumerate(zip(names, index))}
            setting = ", ".join(f"{(display or {}).get(n, n)} = {lab}" for n, lab in value_labels.items())
            if alt is None:
                text = f"{describe_figure(fig)} Shown for {setting}."
            elif isinstance(alt, str):
                text = alt.format(**value_labels)
            else:
                text = str(alt(**kwargs))
        finally:
            plt.close(fig)
        views[index] = (png, text)
    return Explorer(plot_func, names, options, tuple(default), views, title=title, labels=display)
