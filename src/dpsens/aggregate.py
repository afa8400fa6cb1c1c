"""Old home of sample-and-aggregate's analysis helpers and figures; each name forwards, with a warning.

Chapter: none any more -- *Sample and aggregate* uses
:mod:`dpsens.mechanisms.sample_aggregate`, which holds the mechanism and
everything the chapter measures about it.  Readers' saved notebooks that did
``from dpsens import aggregate as ag`` keep working: every name below gives
the one there, with a :class:`DeprecationWarning` naming its new home.
"""
from __future__ import annotations

from .deprecation import moved

_FIGURES = ("plot_saa_tradeoff", "plot_saa_explorer", "plot_error_comparison", "plot_pct_histograms")

__all__ = ["source_chunks", "partition_aggregates", "saa_error_profile", "bootstrap_multiplicity",
           "positional_median_counterexample", *_FIGURES]

__getattr__ = moved(__name__, {name: (f"dpsens.figures.sample_aggregate.{name}" if name in _FIGURES
                                      else f"dpsens.mechanisms.sample_aggregate.{name}") for name in __all__})
