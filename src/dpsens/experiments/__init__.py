"""Experiments: the seeded simulations and reproductions that a chapter measures -- not mechanisms.

Chapters: *Smooth sensitivity*, *Sample and aggregate* and *The exponential
mechanism and inverse sensitivity* (each module's docstring names its own).
An experiment runs mechanisms (from :mod:`dpsens.mechanisms`) or reproduces a
source's code on the book's data, with a seeded
:class:`numpy.random.Generator` passed in, and returns the numbers a chapter
prints, tabulates or draws: errors over many runs, refusals, a source's
results reproduced draw for draw.  A mechanism releases; an experiment
measures releases.  Layers: experiments import mechanisms, never the
reverse; figures may import experiments.  Used as modules, e.g.
``ds.experiments.head_to_head.quantile_head_to_head``.

==============================================  ===================================================
module                                          holds
==============================================  ===================================================
:mod:`~dpsens.experiments.head_to_head`         the mechanisms of the part side by side: the seeded
                                                error simulations of *Smooth sensitivity*, *Sample
                                                and aggregate* and *The exponential mechanism and
                                                inverse sensitivity*
:mod:`~dpsens.experiments.sample_aggregate`     *Sample and aggregate*: the source reproduced, the
                                                bias/noise trade-off, overlapping and positional chunks
==============================================  ===================================================
"""
from . import head_to_head, sample_aggregate  # noqa: F401  (modules: ds.experiments.head_to_head.*)

__all__: list[str] = []     # nothing to import by name: the experiments are used from their modules
