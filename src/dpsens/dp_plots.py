"""Old home of the figures of *Differential privacy in one chapter*; they now live in :mod:`dpsens.figures.dp`.

Chapter: none any more (*Differential privacy in one chapter* uses
:mod:`dpsens.figures.dp`).  Readers' saved notebooks that use
``ds.dp_plots.<name>`` keep working: every name below is served from its new
home with a :class:`DeprecationWarning` naming it.
"""
from __future__ import annotations

from .deprecation import moved

_NEW_HOMES = {"plot_neighbouring_laplace": "dpsens.figures.dp.plot_neighboring_laplace",
              **{name: f"dpsens.figures.dp.{name}" for name in ("plot_group_log_ratios", "plot_privacy_loss")}}

__all__ = list(_NEW_HOMES)
__getattr__ = moved(__name__, _NEW_HOMES)
