"""The explorer: views of a pure plotting function over a grid of arguments.

Chapter: *For teachers* (how the explorers work in class and on the site);
every chapter with a "move the slider" figure calls :func:`explorer`, and
*The median visualisation grid* gives one a :class:`TextBox`.

A chapter writes its figure as a **pure** function -- plain arguments in, a
:class:`matplotlib.figure.Figure` out (or an HTML view, such as the table of
*The median visualisation grid*) -- and hands it to :func:`explorer` with a
small grid of values for each argument.  :func:`explorer` checks the
arguments, computes the default view (or every view, see
:mod:`dpsens.widgets` on lazy views) and returns an :class:`Explorer`, which
caches the views (PNG bytes or HTML, each with its alt text) and displays
itself with two representations: the live ipywidgets of
:mod:`dpsens.widgets.live` in a kernel, and the static HTML of
:mod:`dpsens.widgets.static_html` everywhere.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import numbers
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ..timing import Stopwatch
from .alt_text import describe_figure
from .kernel import lazy_default
from .live import display_live, explorer_widget, live_bundle
from .png import figure_png
from .static_html import explorer_html

__all__ = ["MAX_VIEWS", "TextBox", "Explorer", "explorer"]

#: Default cap on the number of precomputed views of one explorer.
MAX_VIEWS = 120

_counter = itertools.count()

def _label(value) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        return f"{float(value):g}"
    return str(value)


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


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

    def __init__(self, plot_func: Callable[..., Any], names: list[str], options: list[list[tuple[str, Any]]],
                 default: Sequence[int], views: dict, title: str | None = None, labels: Mapping[str, str] | None = None,
                 render: Callable[[tuple[int, ...]], tuple] | None = None, lazy: bool = False,
                 texts: Mapping[str, TextBox] | None = None) -> None:
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
        self.compute_ms: dict[tuple[int, ...], float] = {}
        self.compute_cpu_ms: dict[tuple[int, ...], float] = {}
        self._render = render
        # the html element's id: set once the first views exist (see explorer())
        self._id = f"dpsens-explorer-{next(_counter)}-{self._digest()}" if views else None
        self._widget: Any = None

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

    def indices(self) -> Iterator[tuple[int, ...]]:
        """Every view's index (a tuple with one position per control), in grid order."""
        return itertools.product(*(range(n) for n in self.shape))

    def kwargs(self, index: Sequence[int]) -> dict:
        """The keyword arguments of the view at ``index`` (a tuple of indices)."""
        return {n: self.options[i][j][1] for i, (n, j) in enumerate(zip(self.names, index, strict=True))}

    def view_at(self, index: Sequence[int]) -> tuple[bytes, str]:
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
                isinstance(j, numbers.Integral) and 0 <= j < n for j, n in zip(index, self.shape, strict=True)):
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

    def view(self, **kwargs: Any) -> tuple[bytes, str]:
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

    # ---- shared by both displays --------------------------------------------------
    @property
    def element_id(self) -> str:
        """The id of the static explorer's HTML element (fixed once the first views exist)."""
        if self._id is None:
            self._id = f"dpsens-explorer-{next(_counter)}-{self._digest()}"
        return self._id

    def is_slider(self, i: int) -> bool:
        """Whether control ``i`` is a slider (several values, all numbers) rather than a list or text box."""
        opts = self.options[i]
        return i not in self.texts and len(opts) > 1 and all(_is_number(v) for _, v in opts)

    def status_text(self, index: Sequence[int]) -> str:
        """What the view at ``index`` shows, e.g. ``"Showing epsilon = 1, true value = 10"``."""
        return "Showing " + ", ".join(
            f"{n} = {self.options[i][j][0]}" for i, (n, j) in enumerate(zip(self.labels, index, strict=True)))

    def drawn_in(self, index: Sequence[int]) -> str:
        """How long the view at ``index`` took (live widget only: the static page has no timings)."""
        return f"; drawn in {self.compute_ms[index]:.0f} ms" if index in self.compute_ms else ""

    # ---- the two displays -------------------------------------------------------------
    def to_html(self) -> str:
        """The kernel-free explorer (:func:`dpsens.widgets.static_html.explorer_html`)."""
        return explorer_html(self)

    def widget(self) -> Any:
        """The live ipywidgets view (:func:`dpsens.widgets.live.explorer_widget`), built once and reused."""
        if self._widget is None:
            self._widget = explorer_widget(self)
        return self._widget

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
    """``a`` is the control value ``b``: equal and of one type, or two equal numbers, or two equal texts
    (a ``str`` subclass such as a :class:`dpsens.Relation` member is its text)."""
    try:
        return bool(a == b) and type(a) is type(b) or (_is_number(a) and _is_number(b) and a == b) or \
            (isinstance(a, str) and isinstance(b, str) and a == b)
    except (TypeError, ValueError):
        return a is b



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
        _check_labels(labels, controls)


def _check_labels(labels: object, controls: Mapping) -> None:
    """:func:`explorer`'s ``labels``: a dict ``{control name: str}``."""
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
        sizes = " x ".join(f"{len(p)} ({n})" for n, p in zip(names, options, strict=True))
        raise ValueError(
            f"the controls make {total} combinations ({sizes}), more than max_views={max_views}; every "
            "combination is precomputed for the static site, so use fewer values per control "
            "(or raise max_views if the page may grow that large)")


def explorer(plot_func: Callable[..., Any], controls: Mapping[str, Sequence | Mapping | TextBox],
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
        kwargs = {n: options[i][j][1] for i, (n, j) in enumerate(zip(names, index, strict=True))}
        fig = plot_func(**kwargs)
        is_figure = isinstance(fig, Figure)
        if not is_figure and not callable(getattr(fig, "_repr_html_", None)):
            raise TypeError(f"plot_func must return a matplotlib.figure.Figure or an HTML view (an object with "
                            f"_repr_html_); {getattr(plot_func, '__name__', plot_func)}"
                            f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) returned "
                            f"{type(fig).__name__}")
        try:
            content = figure_png(fig, dpi) if is_figure else str(fig._repr_html_())
            value_labels = {n: options[i][j][0] for i, (n, j) in enumerate(zip(names, index, strict=True))}
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
