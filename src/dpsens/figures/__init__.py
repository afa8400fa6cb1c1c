"""Every figure of the book: one style, and one module of figures per chapter or concept.

Chapter: every chapter draws with these modules (the figure functions each
chapter calls are in the module named after its concept), and calls
:func:`dpsens.figures.style.use_style` -- ``ds.use_style()`` -- once at the top.

Every figure function is pure: plain arguments in, a new
:class:`matplotlib.figure.Figure` out, with a title, labelled axes and a
legend, so that :func:`dpsens.widgets.explorer` can wrap it.  The numbers a
figure shows are computed by the package's concept modules, not here.

==========================================  =====================================================
module                                      figures of
==========================================  =====================================================
:mod:`~dpsens.figures.style`                the one style (palette, line styles, ``use_style``;
                                            the smallest-text measure and ``figure_png`` are
                                            in :mod:`dpsens.widgets.png`)
:mod:`~dpsens.figures.dp`                   the Laplace mechanism (*Introduction*), *Differential
                                            privacy in one chapter*
:mod:`~dpsens.figures.sensitivity`          *Global sensitivity from scratch*, *Local sensitivity*
:mod:`~dpsens.figures.grid`                 *The median visualisation grid* (and its live explorer);
                                            :mod:`~dpsens.figures.glyphs` draws its text fast
:mod:`~dpsens.figures.audit`                *Why local sensitivity leaks* (attacks, audits)
:mod:`~dpsens.figures.ptr`                  *Propose-test-release*
:mod:`~dpsens.figures.smooth`               *Smooth sensitivity*
:mod:`~dpsens.figures.sample_aggregate`     *Sample and aggregate*
:mod:`~dpsens.figures.exponential`          *The exponential mechanism and inverse sensitivity*
:mod:`~dpsens.figures.vector`               *Many answers at once* (histograms, clipping)
:mod:`~dpsens.figures.proportions`          *Proportions vs frequencies*
:mod:`~dpsens.figures.transformations`      *Sensitivity of transformations*
:mod:`~dpsens.figures.accuracy`             *How accurate is it, and what can no mechanism beat?*
:mod:`~dpsens.figures.composition`          *Composing releases* (ε against the number of releases)
:mod:`~dpsens.figures.stability`            *Testing privately, and releasing what is stable*
:mod:`~dpsens.figures.floating`             *Noise a computer can actually sample*
==========================================  =====================================================
"""
from . import style  # noqa: F401  (first: the other modules draw with it)
from . import (  # noqa: F401  (ds.figures.<module>)
    accuracy, audit, composition, dp, exponential, floating, glyphs, grid, proportions, ptr,
    sample_aggregate, sensitivity, smooth, stability, transformations, vector)

__all__: list[str] = []     # the figures are used from their modules (ds.figures.<module>.plot_...)
