"""Old home of the figures of *Propose-test-release* and *Smooth sensitivity*; they now live in :mod:`dpsens.figures`.

Chapter: none any more (*Propose-test-release* uses
:mod:`dpsens.figures.ptr`, *Smooth sensitivity* :mod:`dpsens.figures.smooth`).
Readers' saved notebooks that use ``dpsens.smooth_plots.<name>`` keep
working: every name below is served from its new home with a
:class:`DeprecationWarning` naming it.
"""
from __future__ import annotations

from .deprecation import moved

_NEW_HOMES = {
    "plot_error_histograms": "dpsens.figures.ptr.plot_error_histograms",
    "plot_ptr_tradeoff": "dpsens.figures.ptr.plot_ptr_tradeoff",
    **{name: f"dpsens.figures.smooth.{name}"
       for name in ("plot_smooth_curve", "plot_error_vs_epsilon", "plot_smooth_explorer", "plot_leak_closed")},
    "laplace_privacy_loss": "dpsens.dp.laplace_privacy_loss",
}

__all__ = list(_NEW_HOMES)
__getattr__ = moved(__name__, _NEW_HOMES)
