"""Tests of dpsens.widgets: the explorer (kernel widgets + kernel-free HTML) and alt text."""
from __future__ import annotations

import base64
import html as htmlmod
import io
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import nbformat
import pytest
from kernels import ipc_kernel, stream_text
from nbclient import NotebookClient
from PIL import Image

from dpsens import widgets
from dpsens.widgets.png import figure_png

SRC = Path(__file__).resolve().parents[2] / "src"

CALLS: list[dict] = []


def demo_plot(slope=1.0, colour="C0"):
    """A tiny pure plotting function: one line whose slope and colour are the controls."""
    CALLS.append({"slope": slope, "colour": colour})
    fig, ax = plt.subplots(figsize=(3, 2), dpi=50)
    ax.plot([0, 1], [0, slope], color=colour, label=f"slope {slope:g}")
    ax.set(title="A line", xlabel="x (units)", ylabel="y (units)", ylim=(-3.5, 3.5))
    ax.legend()
    return fig


def parse_html(page: str) -> dict:
    m = re.search(r'<script type="application/json" class="dpsens-explorer-data">(.*?)</script>', page, re.S)
    assert m, "the explorer's html holds its views as JSON"
    return json.loads(m.group(1).replace("<\\/", "</"))


def decode(src: str) -> Image.Image:
    prefix = "data:image/png;base64,"
    assert src.startswith(prefix)
    return Image.open(io.BytesIO(base64.b64decode(src[len(prefix):])))


# --------------------------------------------------------------------------- explorer
def test_plot_function_called_once_per_combination():
    CALLS.clear()
    before = plt.get_fignums()
    ex = widgets.explorer(demo_plot, {"slope": [-2.0, 0.5, 3.0], "colour": ["C0", "C1"]})
    assert len(ex) == 6
    assert sorted((c["slope"], c["colour"]) for c in CALLS) == sorted(
        (s, c) for s in (-2.0, 0.5, 3.0) for c in ("C0", "C1"))
    assert plt.get_fignums() == before, "every figure is closed after rendering"


def test_views_are_the_figures_of_their_arguments():
    ex = widgets.explorer(demo_plot, {"slope": [-2.0, 3.0], "colour": ["C0", "C1"]})
    for index, (png, alt) in ex.views.items():
        kwargs = ex.kwargs(index)
        fig = demo_plot(**kwargs)
        expected = figure_png(fig)
        plt.close(fig)
        assert png == expected, f"view {index} is the figure of {kwargs}"
        assert f"slope = {kwargs['slope']:g}" in alt and f"colour = {kwargs['colour']}" in alt
    # distinct arguments give distinct pictures
    assert len({png for png, _ in ex.views.values()}) == 4


def test_defaults():
    ex = widgets.explorer(demo_plot, {"slope": [1, 2, 3]})
    assert ex.default == (0,)
    ex = widgets.explorer(demo_plot, {"slope": [1, 2, 3], "colour": ["C0", "C2"]}, defaults={"colour": "C2"})
    assert ex.default == (0, 1)
    assert ex.view() == ex.views[(0, 1)]
    assert ex.view(slope=3) == ex.views[(2, 1)]
    with pytest.raises(ValueError, match="not one of the values of this control"):
        ex.view(slope=4)


def test_dict_controls_give_labels():
    ex = widgets.explorer(demo_plot, {"slope": {"flat": 0.0, "steep": 3.0}})
    page = ex.to_html()
    assert "data-labels='[&quot;flat&quot;, &quot;steep&quot;]'" in page  # slider labels
    assert ">flat</output>" in page
    ex = widgets.explorer(demo_plot, {"slope": [1.0], "colour": {"blue": "C0", "orange": "C1"}})
    page = ex.to_html()
    assert ">blue</option>" in page and ">orange</option>" in page
    assert ex.kwargs((0, 1)) == {"slope": 1.0, "colour": "C1"}


def test_html_holds_every_view_and_controls():
    ex = widgets.explorer(demo_plot, {"slope": [-2.0, 0.5, 3.0], "colour": ["C0", "C1"]},
                          defaults={"slope": 0.5}, title="Slopes")
    page = ex.to_html()
    data = parse_html(page)
    assert sorted(data["views"]) == sorted(f"{i}-{j}" for i in range(3) for j in range(2))
    for key, (src_i, alt) in data["views"].items():
        i, j = map(int, key.split("-"))
        img = decode(data["sources"][src_i])
        assert img.size == (150, 100)
        png, expected_alt = ex.views[(i, j)]
        assert base64.b64decode(data["sources"][src_i].split(",", 1)[1]) == png
        assert alt == expected_alt
    # numbers get a range slider, strings a select; the default is selected
    assert re.search(r'<input type="range"[^>]*max="2"[^>]*value="1"', page)
    assert re.search(r'<select[^>]*>.*<option value="0" selected>C0</option>', page)
    # the image shown first is the default view, with its alt text
    m = re.search(r'<img class="dpsens-explorer-image" src="([^"]+)" alt="([^"]*)"', page)
    assert m
    assert base64.b64decode(m.group(1).split(",", 1)[1]) == ex.views[(1, 0)][0]
    assert htmlmod.unescape(m.group(2)) == ex.views[(1, 0)][1]
    assert "Slopes" in page
    # no external resources
    assert "http://" not in page and "https://" not in page and "<script src" not in page


def test_identical_views_are_stored_once():
    ex = widgets.explorer(lambda slope, unused: demo_plot(slope), {"slope": [1.0, 2.0], "unused": [1, 2, 3]})
    data = parse_html(ex.to_html())
    assert len(data["views"]) == 6 and len(data["sources"]) == 2


def test_script_cannot_be_closed_by_alt_text():
    ex = widgets.explorer(demo_plot, {"slope": [1.0]}, alt="a </script><b>bold</b> line")
    page = ex.to_html()
    assert page.count("</script>") == 2  # the JSON data and the code, nothing injected


def test_alt_text_options():
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0]}, alt="A line of slope {slope}")
    assert [ex.views[(i,)][1] for i in range(2)] == ["A line of slope 1", "A line of slope 2"]
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0]}, alt=lambda slope: f"rise {2 * slope:g}")
    assert ex.views[(1,)][1] == "rise 4"
    ex = widgets.explorer(demo_plot, {"slope": [1.0]})
    assert ex.views[(0,)][1] == ("Figure: A line. x axis: x (units); y axis: y (units); "
                                 "legend: slope 1. Shown for slope = 1.")


@pytest.mark.parametrize("args, kwargs, exc, match", [
    (("not a function", {"slope": [1]}), {}, TypeError, "plot_func must be a function"),
    ((demo_plot, [("slope", [1])]), {}, TypeError, "controls must be a dict"),
    ((demo_plot, {}), {}, ValueError, "at least one argument"),
    ((demo_plot, {"slope": []}), {}, ValueError, r"controls\['slope'\] must hold at least one value"),
    ((demo_plot, {"slope": 3}), {}, TypeError, r"controls\['slope'\] must be a list"),
    ((demo_plot, {"slope": "abc"}), {}, TypeError, r"controls\['slope'\] must be a list"),
    ((demo_plot, {"slope": [1, 2, 1]}), {}, ValueError, "repeated values"),
    ((demo_plot, {"not valid": [1]}), {}, ValueError, "identifiers"),
    ((demo_plot, {"slope": [1, 2]}), {"defaults": {"slope": 5}}, ValueError, r"defaults\['slope'\] = 5"),
    ((demo_plot, {"slope": [1, 2]}), {"defaults": {"colour": "C0"}}, ValueError, "not a control"),
    ((demo_plot, {"slope": [1, 2]}), {"defaults": [1]}, TypeError, "defaults must be a dict"),
    ((demo_plot, {"slope": list(range(11)), "colour": [f"C{i}" for i in range(11)]}), {},
     ValueError, r"121 combinations .*max_views=120"),
    ((demo_plot, {"slope": [1, 2, 3]}), {"max_views": 2}, ValueError, r"3 combinations"),
    ((demo_plot, {"slope": [1]}), {"max_views": 0}, ValueError, "max_views must be a positive integer"),
    ((demo_plot, {"slope": [1]}), {"alt": 3}, TypeError, "alt must be"),
    ((lambda slope: None, {"slope": [1]}), {}, TypeError, r"must return a matplotlib.figure.Figure.*NoneType"),
])
def test_bad_input(args, kwargs, exc, match):
    CALLS.clear()
    with pytest.raises(exc, match=match):
        widgets.explorer(*args, **kwargs)
    if "combinations" in match:
        assert CALLS == [], "an oversized grid is refused before anything is drawn"


def test_errors_of_the_plot_function_propagate():
    def broken(slope):
        raise ZeroDivisionError("boom")
    with pytest.raises(ZeroDivisionError):
        widgets.explorer(broken, {"slope": [1]})


def test_outside_a_kernel_only_html_is_offered():
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0]})
    bundle = ex._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}


def test_live_widget_swaps_the_precomputed_images():
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0, 3.0], "colour": ["C0", "C1"]})
    box = ex.widget()
    slope, colour = box._dpsens_controls
    assert type(slope).__name__ == "SelectionSlider" and type(colour).__name__ == "Dropdown"
    assert box._dpsens_image.value == ex.views[(0, 0)][0]
    CALLS.clear()
    slope.value = 2
    assert box._dpsens_image.value == ex.views[(2, 0)][0]
    colour.value = 1
    assert box._dpsens_image.value == ex.views[(2, 1)][0]
    assert CALLS == [], "moving a control reuses the precomputed views"
    assert ex.widget() is box


# --------------------------------------------------------------------------- in a kernel
def _kernel_pythons():
    """The kernels to display explorers in: this environment (ipywidgets 8) and, when one
    is given, a Colab-like one with ipywidgets 7 (``DPSENS_IPYWIDGETS7_PYTHON``, default
    ``/tmp/colab312/bin/python`` if it exists; see benchmarks/README.md)."""
    import os
    import sys
    pythons = [pytest.param(sys.executable, id="this-env")]
    other = os.environ.get("DPSENS_IPYWIDGETS7_PYTHON", "/tmp/colab312/bin/python")
    if other and os.path.exists(other) and os.path.realpath(other) != os.path.realpath(sys.executable):
        pythons.append(pytest.param(other, id="ipywidgets7-env"))
    return pythons


def run_in_kernel(cells, python, tmp_path):
    """Execute ``cells`` in a fresh kernel of ``python``; return the executed notebook."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = tmp_path / "kernels" / "k"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        # the package under test, whatever (if anything) the other environment has installed
        "env": {"PYTHONPATH": str(SRC)},
        "display_name": "k", "language": "python"}))
    km = ipc_kernel(tmp_path, kernel_name="k", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    NotebookClient(nb, timeout=120, km=km).execute()
    return nb


DEMO = ("import matplotlib.pyplot as plt\n"
        "import ipywidgets, IPython.display\n"
        "from dpsens import widgets\n"
        "CALLS = []\n"
        "def f(a):\n"
        "    CALLS.append(a)\n"
        "    fig, ax = plt.subplots(figsize=(2, 2), dpi=40)\n"
        "    ax.plot([0, a]); ax.set(title='t', xlabel='x', ylabel='y')\n"
        "    return fig\n")


def shown(outputs, ignore_stderr=False):
    """The mime types each display output of a cell offers (streams and errors fail)."""
    kinds = []
    for out in outputs:
        if ignore_stderr and out.output_type == "stream" and out.name == "stderr":
            continue
        assert out.output_type in ("display_data", "execute_result"), out
        kinds.append(set(out.data))
    return kinds


@pytest.mark.parametrize("python", _kernel_pythons())
def test_in_a_kernel_an_explorer_displays_widget_view_and_html(python, tmp_path, monkeypatch):
    """The explorer cell shows a widget view with the html fallback -- never just a repr, and
    no AttributeError -- under ipywidgets 7 (Colab) and 8; views are computed lazily."""
    monkeypatch.delenv("DPSENS_EXPLORERS", raising=False)
    nb = run_in_kernel([
        DEMO + "ex = widgets.explorer(f, {'a': [1, 2, 3]})\nex",
        "print(ipywidgets.__version__[0], sorted(ex.views), CALLS)",
        "box = ex.widget(); box._dpsens_controls[0].value = 2\n"
        "print(sorted(ex.views), CALLS, box._dpsens_image.value == ex.views[(2,)][0])\n"
        "box._dpsens_controls[0].value = 0; box._dpsens_controls[0].value = 2\n"
        "print(CALLS)",
        "from dpsens.figures import grid\ngrid.grid_explorer()",
    ], python, tmp_path)
    (kinds,) = shown(nb.cells[0].outputs)
    assert {"application/vnd.jupyter.widget-view+json", "text/html", "text/plain"} <= kinds
    data = nb.cells[0].outputs[0].data
    assert data["application/vnd.jupyter.widget-view+json"]["version_major"] == 2
    assert len(data["application/vnd.jupyter.widget-view+json"]["model_id"]) >= 16
    assert len(parse_html(data["text/html"])["views"]) == 1, "lazy: only the default view in a kernel"
    major, after = stream_text(nb.cells[1]), stream_text(nb.cells[2])
    assert major.split()[0] in ("7", "8")
    assert major.split(None, 1)[1].strip() == "[(0,)] [1]"
    assert after.splitlines() == ["[(0,), (2,)] [1, 3] True", "[1, 3]"], "computed when asked, then cached"
    (grid_kinds,) = shown(nb.cells[3].outputs)
    assert {"application/vnd.jupyter.widget-view+json", "text/html"} <= grid_kinds


@pytest.mark.parametrize("python", _kernel_pythons())
def test_the_book_build_gets_every_view(python, tmp_path, monkeypatch):
    """DPSENS_EXPLORERS=precompute (set by _ext/explorer_views.py for jupyter-book builds):
    the kernel's explorer computes every view and the html holds them all."""
    monkeypatch.setenv("DPSENS_EXPLORERS", "precompute")
    nb = run_in_kernel([DEMO + "widgets.explorer(f, {'a': [1, 2, 3]})", "print(CALLS)"], python, tmp_path)
    data = nb.cells[0].outputs[0].data
    assert "application/vnd.jupyter.widget-view+json" in data
    assert len(parse_html(data["text/html"])["views"]) == 3
    assert stream_text(nb.cells[1]).strip() == "[1, 2, 3]"


@pytest.mark.parametrize("python", _kernel_pythons())
def test_without_ipywidgets_the_static_explorer_shows(python, tmp_path, monkeypatch):
    """A kernel where ipywidgets cannot be imported: the html explorer, no traceback."""
    monkeypatch.delenv("DPSENS_EXPLORERS", raising=False)
    nb = run_in_kernel(["import sys; sys.modules['ipywidgets'] = None\n" + DEMO.replace(
        "import ipywidgets, IPython.display\n", "") + "widgets.explorer(f, {'a': [1, 2]})"], python, tmp_path)
    # (tqdm warns on stderr that it has no ipywidgets for its progress bars)
    (kinds,) = shown(nb.cells[0].outputs, ignore_stderr=True)
    assert kinds == {"text/html", "text/plain"}


def test_extension_sets_the_build_flag(monkeypatch):
    """The book's Sphinx extension is listed in _config.yml and sets DPSENS_EXPLORERS."""
    import os
    from pathlib import Path

    import yaml
    root = Path(__file__).resolve().parents[2]
    config = yaml.safe_load((root / "_config.yml").read_text())
    assert "explorer_views" in config["sphinx"]["local_extensions"]
    import explorer_views as mod   # _ext/, on sys.path by conftest
    monkeypatch.delenv("DPSENS_EXPLORERS", raising=False)

    class App:
        def connect(self, *args):
            pass
    meta = mod.setup(App())
    assert os.environ["DPSENS_EXPLORERS"] == "precompute" and meta["parallel_read_safe"]
    assert widgets.lazy_default() is False


def test_lazy_default_and_bad_flag(monkeypatch):
    monkeypatch.delenv("DPSENS_EXPLORERS", raising=False)
    assert widgets.lazy_default() is False          # pytest is no kernel
    monkeypatch.setenv("DPSENS_EXPLORERS", "lazy")
    assert widgets.lazy_default() is True
    CALLS.clear()
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0, 3.0]}, defaults={"slope": 2.0})
    assert ex.lazy and list(ex.views) == [(1,)] and CALLS == [{"slope": 2.0, "colour": "C0"}]
    monkeypatch.setenv("DPSENS_EXPLORERS", "sometimes")
    with pytest.raises(ValueError, match="DPSENS_EXPLORERS must be 'precompute', 'lazy' or unset"):
        widgets.explorer(demo_plot, {"slope": [1.0]})


def line_titled(title="a", slope=1.0):
    """A line whose title is the text typed in a text box."""
    CALLS.append({"title": title, "slope": slope})
    fig, ax = plt.subplots(figsize=(2, 2), dpi=40)
    ax.plot([0, 1], [0, slope])
    ax.set(title=title, xlabel="x", ylabel="y")
    if title == "bad":
        fig.dpsens_alt = "A message: this title cannot be drawn."
    return fig


def test_a_text_box_gives_the_typed_text_and_one_view_per_text():
    CALLS.clear()
    ex = widgets.explorer(line_titled, {"title": widgets.TextBox("first", placeholder="a title"),
                                        "slope": [1.0, 2.0]}, lazy=True)
    assert CALLS == [{"title": "first", "slope": 1.0}] and ex.shape == (1, 2)
    assert ex.view(title="second", slope=2.0)[1].startswith("Figure: second.")
    assert CALLS[-1] == {"title": "second", "slope": 2.0} and ex.shape == (2, 2)
    ex.view(title="second", slope=2.0)                                   # cached: not drawn again
    assert len(CALLS) == 2
    assert ex.view(title="bad")[1] == "A message: this title cannot be drawn. Shown for title = bad, slope = 1."
    with pytest.raises(TypeError, match="title is a text box: its value must be a string"):
        ex.view(title=3)
    # the static page offers the texts computed so far
    page = ex.to_html()
    assert [htmlmod.unescape(s) for s in re.findall(r"<option value=\"\d\"[^>]*>([^<]*)</option>", page)][:3] == [
        "first", "second", "bad"]
    ex2 = widgets.explorer(line_titled, {"title": widgets.TextBox("x")}, defaults={"title": "y"})
    assert CALLS[-1]["title"] == "y" and ex2.options[0] == [("y", "y")]
    with pytest.raises(TypeError, match="default must be the text the box starts with"):
        widgets.TextBox(3)
    with pytest.raises(TypeError, match=r"defaults\['title'\] is the text of a text box"):
        widgets.explorer(line_titled, {"title": widgets.TextBox("x")}, defaults={"title": 3})


def test_a_text_box_is_a_text_field_in_the_live_widget():
    pytest.importorskip("ipywidgets")
    import ipywidgets as w

    CALLS.clear()
    ex = widgets.explorer(line_titled, {"title": widgets.TextBox("first", placeholder="a title"),
                                        "slope": [1.0, 2.0]}, lazy=True)
    box = ex.widget()
    text, slope = box._dpsens_controls
    assert isinstance(text, w.Text) and text.placeholder == "a title" and text.value == "first"
    assert "drawn in" in box._dpsens_status.value
    text.value = "typed"
    assert CALLS[-1] == {"title": "typed", "slope": 1.0} and box._dpsens_image.value == ex.view(title="typed")[0]
    assert box._dpsens_status.value.startswith("Showing title = typed, slope = 1; drawn in ")
    slope.value = 1
    text.value = "first"                                                 # back to a text seen before
    assert CALLS[-1] == {"title": "first", "slope": 2.0}
    slope.value = 0                                                      # cached: no timing, not drawn
    assert box._dpsens_status.value == "Showing title = first, slope = 1" and len(CALLS) == 4


class Table:
    """An HTML view: a one-cell table."""

    def __init__(self, text):
        self.text, self.dpsens_alt = text, f"A table holding {text}."

    def _repr_html_(self):
        return f"<table><tr><td>{htmlmod.escape(self.text)}</td></tr></table>"


def table_of(word="a", n=1):
    CALLS.append({"word": word, "n": n})
    return Table(word * n)


def test_an_explorer_of_html_views_shows_them_in_place_of_an_image():
    CALLS.clear()
    ex = widgets.explorer(table_of, {"word": ["a", "b"], "n": [1, 2]})
    assert len(CALLS) == 4 and ex.views[(1, 1)] == ("<table><tr><td>bb</td></tr></table>",
                                                    "A table holding bb. Shown for word = b, n = 2.")
    page = ex.to_html()
    assert "<img" not in page                                          # no image element for HTML views
    m = re.search(r'<div class="dpsens-explorer-html" data-source="(\d+)" aria-label="([^"]*)" '
                  r'style="max-width:100%">(.*?)</div>', page)
    assert m and m.group(3) == "<table><tr><td>a</td></tr></table>"   # the default view, in place
    assert htmlmod.unescape(m.group(2)) == "A table holding a. Shown for word = a, n = 1."
    data = parse_html(page)
    assert data["sources"][data["views"]["1-1"][0]] == "<table><tr><td>bb</td></tr></table>"
    with pytest.raises(TypeError, match="Figure or an HTML view .*returned int"):
        widgets.explorer(lambda word: 3, {"word": ["a"]})


def test_the_live_widget_shows_html_views_in_an_html_widget():
    pytest.importorskip("ipywidgets")
    ex = widgets.explorer(table_of, {"word": ["a", "b"], "n": [1, 2]}, lazy=True)
    box = ex.widget()
    word, n = box._dpsens_controls
    assert box._dpsens_html.value == "<table><tr><td>a</td></tr></table>"
    assert box._dpsens_image.layout.display == "none" and box._dpsens_html.layout.display is None
    n.value = 1
    assert box._dpsens_html.value == "<table><tr><td>aa</td></tr></table>"


def test_a_lazy_explorer_may_have_more_views_than_a_page_could_hold():
    CALLS.clear()
    ex = widgets.explorer(demo_plot, {"slope": list(range(11)), "colour": [f"C{i}" for i in range(11)]},
                          lazy=True)
    assert len(ex) == 121 and len(ex.views) == 1 and len(CALLS) == 1


# --------------------------------------------------------------------------- alt text
def test_describe_figure_and_show():
    fig, (a, b) = plt.subplots(1, 2)
    a.plot([0, 1], label="one")
    a.set(title="Left", xlabel="n (rows)", ylabel="count")
    a.legend()
    b.set(title="Right", xlabel="epsilon")
    fig.suptitle("Both")
    before = [n for n in plt.get_fignums() if n != fig.number]
    text = widgets.describe_figure(fig)
    assert text == ("Figure: Both. panel 1: Left. x axis: n (rows); y axis: count; legend: one. "
                    "panel 2: Right. x axis: epsilon.")
    shown = widgets.show(fig)
    assert plt.get_fignums() == before
    bundle = shown._repr_mimebundle_()
    assert f'alt="{htmlmod.escape(text)}"' in bundle["text/html"]
    assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    fig, _ = plt.subplots()
    assert 'alt="my words"' in widgets.show(fig, alt="my words")._repr_mimebundle_()["text/html"]
    with pytest.raises(TypeError, match="fig must be a matplotlib"):
        widgets.show("not a figure")
    with pytest.raises(TypeError, match="alt must be a string"):
        widgets.show(plt.figure(), alt=5)
    plt.close("all")


def test_every_displayed_figure_gets_alt_text_in_a_kernel(tmp_path):
    """In a kernel, ``ds.use_style()`` makes figures display with an <img alt=...> too; the import alone does not."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import dpsens as ds\n"
        "import matplotlib.pyplot as plt\n"
        "%matplotlib inline\n"
        "fig, ax = plt.subplots(figsize=(2, 2), dpi=40)\n"
        "plt.show()\n"
        "ds.use_style()\n"
        "fig, ax = plt.subplots(figsize=(2, 2), dpi=40)\n"
        "ax.plot([0, 1], label='data'); ax.set(title='T', xlabel='x (m)', ylabel='y'); ax.legend()\n"
        "plt.show()"), nbformat.v4.new_code_cell(
        "fig, ax = plt.subplots(figsize=(2, 2), dpi=40)\n"
        "fig.dpsens_alt = 'my own words'\n"
        "fig")]
    NotebookClient(nb, timeout=120, km=ipc_kernel(tmp_path)).execute()
    before, first = [o for o in nb.cells[0].outputs if o.output_type == "display_data"]
    assert "text/html" not in before.data and "image/png" in before.data     # import dpsens: no side effect
    assert 'alt="Figure: T. x axis: x (m); y axis: y; legend: data."' in first.data["text/html"]
    assert "image/png" in first.data
    second = nb.cells[1].outputs
    assert any('alt="my own words"' in o.get("data", {}).get("text/html", "") for o in second)


def test_control_labels():
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0], "colour": ["C0", "C1"]},
                          labels={"slope": "slope of the line"})
    page = ex.to_html()
    assert ">slope of the line</label>" in page and ">colour</label>" in page
    assert ex.views[(1, 0)][1].endswith("Shown for slope of the line = 2, colour = C0.")
    assert ex.kwargs((1, 0)) == {"slope": 2.0, "colour": "C0"}, "the function still gets its argument names"
    assert ex.widget()._dpsens_controls[0].description == "slope of the line"
    with pytest.raises(ValueError, match="not controls"):
        widgets.explorer(demo_plot, {"slope": [1.0]}, labels={"colour": "c"})
    with pytest.raises(TypeError, match="labels must be"):
        widgets.explorer(demo_plot, {"slope": [1.0]}, labels={"slope": 3})


# --------------------------------------------------------------------------- lazy views
def test_lazy_explorer_computes_the_default_then_what_is_asked():
    CALLS.clear()
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0, 3.0], "colour": ["C0", "C1"]},
                          defaults={"slope": 3.0}, lazy=True)
    assert ex.lazy and len(ex) == 6 and ex.shape == (3, 2) and not ex.complete
    assert list(ex.views) == [(2, 0)] and CALLS == [{"slope": 3.0, "colour": "C0"}]
    # the html holds the computed views only and says so for the others
    data = parse_html(ex.to_html())
    assert list(data["views"]) == ["2-0"]
    assert "computed only when a reader asks for it" in ex.to_html()
    # a view asked for is the figure of its arguments, computed once
    png, alt = ex.view(slope=1.0, colour="C1")
    fig = demo_plot(slope=1.0, colour="C1")
    assert png == figure_png(fig)
    plt.close(fig)
    assert alt.endswith("Shown for slope = 1, colour = C1.")
    CALLS.clear()
    assert ex.view_at((0, 1)) == (png, alt) and CALLS == []
    assert set(ex.compute_ms) == {(2, 0), (0, 1)} and all(t > 0 for t in ex.compute_ms.values())
    # precompute completes the grid with the same pictures an eager explorer makes
    eager = widgets.explorer(demo_plot, {"slope": [1.0, 2.0, 3.0], "colour": ["C0", "C1"]},
                             defaults={"slope": 3.0}, lazy=False)
    assert ex.precompute() is ex and ex.complete
    assert {k: v[0] for k, v in ex.views.items()} == {k: v[0] for k, v in eager.views.items()}
    assert len(parse_html(ex.to_html())["views"]) == 6
    with pytest.raises(ValueError, match=r"one position per control within \(3, 2\)"):
        ex.view_at((3, 0))
    with pytest.raises(TypeError, match="lazy must be True, False or None"):
        widgets.explorer(demo_plot, {"slope": [1.0]}, lazy="yes")


def test_lazy_errors_of_the_default_view_raise_in_the_cell():
    def broken(slope):
        raise ZeroDivisionError("boom")
    with pytest.raises(ZeroDivisionError):
        widgets.explorer(broken, {"slope": [1, 2]}, lazy=True)


def test_lazy_live_widget_computes_on_demand_and_reports_errors():
    def sometimes(slope):
        if slope == 3:
            raise ValueError("slope 3 is not drawable")
        return demo_plot(slope)
    ex = widgets.explorer(sometimes, {"slope": [1, 2, 3]}, lazy=True)
    box = ex.widget()
    (slope,) = box._dpsens_controls
    slope.value = 1
    assert box._dpsens_image.value == ex.views[(1,)][0] and set(ex.views) == {(0,), (1,)}
    assert re.fullmatch(r"Showing slope = 2; drawn in \d+ ms", box._dpsens_status.value)   # a new view: its time
    slope.value = 2
    assert "Could not draw this view: ValueError: slope 3 is not drawable" in box._dpsens_status.value
    assert box._dpsens_image.value == ex.views[(1,)][0], "the last good view stays"


def test_widget_layout_natural_size_full_labels_controls_on_top():
    """JupyterLab polish, checked on the layout the front end receives (ipywidgets 7 and 8)."""
    ex = widgets.explorer(demo_plot, {"slope": [1.0, 2.0], "colour": ["C0", "C1"]},
                          labels={"slope": "Pool (each value once) slope of the line"}, title="Lines")
    box = ex.widget()
    image = box._dpsens_image
    width, height = Image.open(io.BytesIO(ex.views[ex.default][0])).size
    assert (width, height) == (150, 100)
    assert image.layout.width == "150px" and image.layout.height == "auto"   # natural size, not stretched
    assert image.layout.max_width == "100%" and image.layout.max_height == "75vh"
    assert box.layout.align_items == "flex-start"                            # no stretching to the cell width
    for c in box._dpsens_controls:
        # one label column wide enough for the longest label (40 characters), so none is cut
        # and the sliders line up; a fixed width (JupyterLab collapses an "auto" slider)
        assert c.style.description_width == "24.5em" == widgets.label_width(["x" * 40, "colour"])
        assert c.layout.width == "calc(24.5em + 24em)" and c.layout.max_width == "100%"
    assert box._dpsens_controls[0].description == "Pool (each value once) slope of the line"
    # order: title, controls, image (or, for HTML views, the HTML widget after it: hidden here), status --
    # the controls above the figure
    kinds = [type(c).__name__ for c in box.children]
    assert kinds == ["HTML", "VBox", "Image", "HTML", "HTML"]
    assert box.children[3] is box._dpsens_html and box._dpsens_html.layout.display == "none"
    assert box.children[4] is box._dpsens_status
    assert list(box.children[1].children) == box._dpsens_controls
    assert widgets.image_layout(ex.views[ex.default][0], max_height="50vh")["max_height"] == "50vh"


def test_widget_view_bundle():
    ipywidgets = pytest.importorskip("ipywidgets")
    box = ipywidgets.VBox([])
    assert widgets.widget_view_bundle(box) == {"application/vnd.jupyter.widget-view+json": {
        "version_major": 2, "version_minor": 0, "model_id": box.model_id}}
    # outside a kernel live_bundle offers only the static view, and never calls the widget factory
    assert widgets.live_bundle({"text/html": "<p>x</p>"}, lambda: 1 / 0) == {"text/html": "<p>x</p>"}
