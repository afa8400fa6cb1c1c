"""Redraw time of the sensitivity grid (chapter *The median visualisation grid*).

The chapter and its explorers show the grid as an HTML table
(``grid_table``): its time is computing the cells and writing the HTML.
The figure (``plot_sensitivity_grid``, for slides or print) has a goal too:
a redraw of the default grid -- compute every cell, build the figure,
render it to pixels -- under 100 ms.  Printed next to the cost of
the same grid drawn the plain way (one text object per cell, constrained
layout), measured in the same run, so the ratio says what the design buys.

Each time is a median over RUNS calls after a warm-up, as wall time and as
CPU time of this process; on a shared machine the wall time also counts
waiting for a core, the CPU time does not.
"""
from __future__ import annotations

import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import dpsens as ds
from dpsens import grid
from dpsens.figures import grid as grid_figures
from dpsens.timing import RUNS, median_ms


def fast(neighbors):
    fig = grid_figures.plot_sensitivity_grid(neighbors=neighbors)
    fig.canvas.draw()
    plt.close(fig)


def plain(neighbors):
    """The straightforward drawing: a text per cell, ticks for the rows, constrained layout."""
    g = grid.sensitivity_grid(ds.Pool(grid.SOURCE_UNIVERSE), 3, 1, "median", neighbors)
    fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    ax.imshow(np.ma.masked_invalid(g.cells), cmap="Blues")
    for i, row in enumerate(g.neighbor_datasets):
        for j, y in enumerate(row):
            ax.text(j, i, f"{ds.neighbors.format_multiset(y)}\n{g.cells[i, j]:g}", ha="center", va="center",
                    fontsize=7)
    ax.set_yticks(range(len(g.rows)), [ds.neighbors.format_multiset(x) for x in g.rows])
    ax.set_title("plain grid")
    fig.canvas.draw()
    plt.close(fig)


def cpu_ms(func, runs: int = RUNS) -> float:
    """Median CPU time of this process for ``func()``, in milliseconds (after one warm-up call)."""
    return median_ms(func, runs, clock=time.process_time)


def main() -> None:
    ds.use_style()
    print(f"{'grid':<28}{'book wall':>10}{'plain wall':>11}{'ratio':>7}{'book CPU':>10}{'plain CPU':>10}"
          f"{'ratio':>7}  (ms)")
    for neighbors in ("unbounded", "bounded"):
        a = median_ms(lambda: fast(neighbors))
        b = median_ms(lambda: plain(neighbors))
        ca = cpu_ms(lambda: fast(neighbors))
        cb = cpu_ms(lambda: plain(neighbors))
        flag = "ok" if a < 100 else "ABOVE 100 ms"
        print(f"{'median, ' + neighbors:<28}{a:>10.1f}{b:>11.1f}{b / a:>7.2f}{ca:>10.1f}{cb:>10.1f}"
              f"{cb / ca:>7.2f}  {flag}")
    both, cboth = median_ms(lambda: fast("both")), cpu_ms(lambda: fast("both"))
    print(f"{'median, both (stacked)':<28}{both:>10.1f}{'':>18}{cboth:>10.1f}")
    compute = median_ms(lambda: grid.sensitivity_grid(ds.Pool(grid.SOURCE_UNIVERSE), 3, 1, "median", "bounded"))
    print(f"{'cells only (bounded)':<28}{compute:>10.2f}")
    for neighbors in ("unbounded", "bounded", "both"):
        wall = median_ms(lambda: grid_figures.grid_table(neighbors=neighbors))
        cpu = cpu_ms(lambda: grid_figures.grid_table(neighbors=neighbors))
        print(f"{'HTML table, ' + neighbors:<28}{wall:>10.1f}{'':>18}{cpu:>10.1f}")


if __name__ == "__main__":
    main()
