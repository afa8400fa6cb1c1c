"""Old home of the book's style and of the sensitivity chapters' figures; they now live in :mod:`dpsens.figures`.

Chapter: none any more (the chapters call ``ds.use_style()`` and the
functions of :mod:`dpsens.figures`).  Readers' saved notebooks that use
``ds.plots.<name>`` keep working: every name below is served from its new
home with a :class:`DeprecationWarning` naming it.
"""
from __future__ import annotations

from .deprecation import moved

_NEW_HOMES = {
    **{name: f"dpsens.figures.style.{name}"
       for name in ("PALETTE", "LINESTYLES", "STYLE", "smallest_text_pt", "use_style", "line_style")},
    "laplace_pdf": "dpsens.mechanisms.laplace.laplace_pdf",
    "plot_laplace_mechanism": "dpsens.figures.dp.plot_laplace_mechanism",
    **{name: f"dpsens.figures.sensitivity.{name}"
       for name in ("QUERY_MARKERS", "SAME_UNITS", "OTHER_UNITS", "query_style", "plot_sensitivity_vs_k",
                    "plot_local_vs_global", "plot_local_global_log", "plot_enumeration_cost",
                    "plot_local_global_gap")},
}

__all__ = list(_NEW_HOMES)
__getattr__ = moved(__name__, _NEW_HOMES)
