"""Draw the book's logo and favicon (run from the repository root; the outputs are committed).

    .venv/bin/python tools/make_logo.py

The motif: two Laplace densities, the output distributions of the Laplace
mechanism on two neighbouring datasets, a sensitivity ``Delta`` apart -- the
picture the whole book is about.  Writes ``images/logo.png`` (the sidebar
logo, ``logo:`` in ``_config.yml``) and ``_extra/favicon.ico`` (16, 32, 48
and 64 pixels; ``html.favicon`` in ``_config.yml``, and copied to the site
root by ``html_extra_path`` so that a browser's request for ``/favicon.ico``
finds it).  Only matplotlib and Pillow, no download.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
BLUE, ORANGE, INK = "#1f5fa8", "#e0792b", "#22303c"


def _curves(ax, lw: float, delta: float = 1.6, arrow: bool = True):
    x = np.linspace(-4.2, 5.8, 600)
    f = np.exp(-np.abs(x))
    g = np.exp(-np.abs(x - delta))
    ax.fill_between(x, f, color=BLUE, alpha=0.25, lw=0)
    ax.fill_between(x, g, color=ORANGE, alpha=0.25, lw=0)
    ax.plot(x, f, color=BLUE, lw=lw, solid_capstyle="round")
    ax.plot(x, g, color=ORANGE, lw=lw, solid_capstyle="round")
    if arrow:
        ax.annotate("", xy=(delta + 0.15, 1.1), xytext=(-0.15, 1.1),
                    arrowprops=dict(arrowstyle="<|-|>", color=INK, lw=lw * 0.8, mutation_scale=7 * lw / 3))
    ax.set_xlim(-4.2, 5.8)
    ax.set_ylim(0, 1.55)
    ax.axis("off")


def logo(path: Path) -> None:
    fig = plt.figure(figsize=(4.8, 1.5), dpi=150)
    ax = fig.add_axes([0.0, 0.04, 0.42, 0.92])
    _curves(ax, lw=3.2)
    ax.text(0.8, 1.17, "Δ", ha="center", va="bottom", fontsize=17, color=INK, fontweight="bold")
    fig.text(0.44, 0.60, "Sensitivity", fontsize=22, color=INK, fontweight="bold", va="center")
    fig.text(0.44, 0.28, "from scratch to smooth", fontsize=13, color=INK, va="center")
    fig.savefig(path, transparent=True)
    plt.close(fig)


def favicon(path: Path) -> None:
    fig = plt.figure(figsize=(1, 1), dpi=256)
    fig.patch.set_facecolor("white")
    ax = fig.add_axes([0.02, 0.04, 0.96, 0.92])
    _curves(ax, lw=14, delta=2.2, arrow=False)
    ax.set_xlim(-3.2, 5.4)
    ax.set_ylim(0, 1.08)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    img = Image.open(buf).convert("RGBA")
    img.save(path, format="ICO", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)])


def main() -> None:
    (ROOT / "images").mkdir(exist_ok=True)
    (ROOT / "_extra").mkdir(exist_ok=True)
    logo(ROOT / "images" / "logo.png")
    favicon(ROOT / "_extra" / "favicon.ico")
    print("wrote images/logo.png and _extra/favicon.ico")


if __name__ == "__main__":
    main()
