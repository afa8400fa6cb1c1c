"""Time one explorer view (plot + PNG) and the PNG size, for the book's Laplace figure.

Goal: a redraw under 100 ms for simple figures; the live widget reuses the
precomputed views, so moving a control in a kernel costs no redraw at all.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import dpsens as ds
from dpsens import widgets
from dpsens.timing import Stopwatch

ds.use_style()
epsilons = [0.25, 0.5, 1.0, 2.0, 4.0]
widgets.explorer(ds.figures.dp.plot_laplace_mechanism, {"epsilon": [1.0]})  # warm up fonts and caches
with Stopwatch() as sw:
    ex = widgets.explorer(ds.figures.dp.plot_laplace_mechanism, {"epsilon": epsilons, "true_value": [0.0, 10.0]})
per_view = sw.seconds / len(ex)
with Stopwatch() as sw:
    for eps in epsilons:
        fig = ds.figures.dp.plot_laplace_mechanism(epsilon=eps)
        fig.savefig("/dev/null", format="png")
        plt.close(fig)
matplotlib_png = sw.seconds / len(epsilons)
sizes = [len(png) for png, _ in ex.views.values()]
html_kb = len(ex.to_html()) / 1024
print(f"explorer view (plot + palette PNG): {1000 * per_view:.1f} ms  (goal < 100 ms)")
print(f"plain matplotlib savefig PNG      : {1000 * matplotlib_png:.1f} ms  "
      f"(ratio explorer / savefig = {per_view / matplotlib_png:.2f})")
print(f"PNG size per view: {sum(sizes) / len(sizes) / 1024:.1f} KiB; html of {len(ex)} views: {html_kb:.0f} KiB")
