"""The live explorer: ipywidgets in a reader's kernel, for ipywidgets 7 (Colab) and 8 alike.

Chapter: *For teachers* (the explorers of every chapter in Binder, Colab and
JupyterLab; *The median visualisation grid*'s explorer with a text box).

:func:`explorer_widget` builds the controls, image and status line of an
:class:`~dpsens.widgets.explorers.Explorer` as ipywidgets: a selection slider
for numbers, a dropdown otherwise, a text field for a
:class:`~dpsens.widgets.explorers.TextBox`, labels in full (one width for
all, :func:`label_width`), the image at the PNG's natural size
(:func:`image_layout`).  :func:`live_bundle` adds the widget's view to a
display bundle only inside a kernel and only when building it works, so a
cell never shows a traceback instead of its figure; the reference to the
widget is written here (:func:`widget_view_bundle`: ``model_id`` plus
protocol version 2.0) because ipywidgets 7 (Colab) has no
``_repr_mimebundle_``.  Nothing here touches the static page
(:mod:`dpsens.widgets.static_html`): a change to one cannot break the other.
"""
from __future__ import annotations

import html
import io
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image

from .kernel import in_kernel

if TYPE_CHECKING:                 # explorers imports this module
    from .explorers import Explorer

__all__ = ["CONTROL_WIDTH", "label_width", "widget_view_bundle", "live_bundle", "display_live", "image_layout",
           "image_widget", "explorer_widget"]


#: Width of an explorer control's slider or dropdown, besides its label.
CONTROL_WIDTH = "24em"


def label_width(labels: Sequence[str]) -> str:
    """A label column wide enough for every label in full (about 0.6 em a character).

    Chapter: *For teachers*.  One width for all the controls of an explorer,
    so their sliders line up and no label is cut ("Pool (each value ...").
    """
    longest = max((len(str(lab)) for lab in labels), default=0)
    return f"{0.6 * longest + 0.5:.1f}em"


def widget_view_bundle(widget: Any) -> dict:
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
        except Exception:  # the static view is the fallback for any failure
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


def image_widget(w: Any, png: bytes) -> Any:
    """An ``Image`` widget at the PNG's natural size (works with ipywidgets 7 and 8).

    Chapter: *For teachers*.  ``w`` is the ``ipywidgets`` module.
    """
    return w.Image(value=png, format="png", layout=w.Layout(**image_layout(png)))


def _control_widget(w: Any, ex: Explorer, i: int, desc: str) -> Any:
    """The widget of the explorer's control ``i`` (labels ``desc`` wide): a text field, a slider or a dropdown."""
    opts = ex.options[i]
    pairs = [(lab, j) for j, (lab, _) in enumerate(opts)]
    kw = dict(options=pairs, value=ex.default[i], description=ex.labels[i],
              style={"description_width": desc},
              # a fixed width: with "auto" JupyterLab collapses a slider's track
              layout=w.Layout(width=f"calc({desc} + {CONTROL_WIDTH})", max_width="100%"))
    if i in ex.texts:
        del kw["options"]
        kw["value"] = opts[ex.default[i]][1]
        return w.Text(placeholder=ex.texts[i].placeholder, continuous_update=False, **kw)
    if ex.is_slider(i):
        return w.SelectionSlider(continuous_update=False, **kw)
    return w.Dropdown(**kw)


def explorer_widget(ex: Explorer) -> Any:
    """The live ipywidgets view of the explorer ``ex`` (ipywidgets 7 or 8).

    Chapter: *For teachers*.

    A title, the controls (labels in full) above the image, the image at
    the PNG's natural size, and a status line.  Moving a control shows
    the cached view, or computes it first (the status line says
    "Computing ..." meanwhile, then how long the view took to draw).
    A :class:`~dpsens.widgets.explorers.TextBox` control is a text field; the view follows the
    text once the reader presses Enter or leaves the field.

    Returns
    -------
    ipywidgets.VBox
        Built anew at each call (:meth:`~dpsens.widgets.explorers.Explorer.widget` keeps one).
    """
    import ipywidgets as w

    default_content = ex.view_at(ex.default)[0]
    # a view is a PNG (shown by an Image) or HTML (shown by an HTML widget); the other one hides
    is_html = isinstance(default_content, str)
    image = (w.Image(value=b"", format="png", layout=w.Layout(display="none")) if is_html
             else image_widget(w, default_content))
    table = w.HTML(default_content if is_html else "",
                   layout=w.Layout(max_width="100%", overflow="auto", display=None if is_html else "none"))
    status = w.HTML(html.escape(ex.status_text(ex.default) + ex.drawn_in(ex.default)))
    desc = label_width(ex.labels)
    controls = [_control_widget(w, ex, i, desc) for i in range(len(ex.names))]

    def current():
        return tuple(ex.text_index(i, c.value) if i in ex.texts else c.value
                     for i, c in enumerate(controls))

    def update(_change=None):
        key = current()
        fresh = key not in ex.views
        if fresh:
            status.value = html.escape("Computing: " + ex.status_text(key)[len("Showing "):] + " ...")
        try:
            content = ex.view_at(key)[0]
        except Exception as exc:  # shown to the reader, not lost in the log
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
            status.value = html.escape(ex.status_text(key) + (ex.drawn_in(key) if fresh else ""))

    for c in controls:
        c.observe(update, names="value")
    children = []
    if ex.title:
        children.append(w.HTML(f"<b>{html.escape(ex.title)}</b>"))
    children += [w.VBox(controls, layout=w.Layout(align_items="flex-start", width="100%")), image, table, status]
    box = w.VBox(children, layout=w.Layout(align_items="flex-start", width="100%"))
    box.add_class("dpsens-explorer-widget")
    box._dpsens_controls = controls  # for tests
    box._dpsens_image = image
    box._dpsens_html = table
    box._dpsens_status = status
    return box
