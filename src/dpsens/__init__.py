"""dpsens -- the helper package of *Sensitivity, from scratch to smooth*.

Every chapter imports it as ``ds`` (``import dpsens as ds``) and reaches the
rest through it; the chapter *For teachers* and ``CONTRIBUTING.md`` (*Layout*,
the module map) describe the package.  One module per concept; every
function's docstring names the chapter that explains it.

Two rules say what the package exports:

* **Names** a reader imports are in ``__all__``: here, the names the chapters,
  handouts and exercise statements call as ``ds.<name>`` (the datasets and
  their neighbours, the queries, the sensitivities, the first mechanisms);
  in every module, the names it defines.  Only this module and a package's
  ``__init__`` list names defined in their submodules, each name once.
* **Modules** are attributes, never in an ``__all__``: every public module is
  imported here, so ``ds.vector.histogram_sensitivity`` or
  ``ds.experiments.head_to_head.quantile_head_to_head`` works after
  ``import dpsens as ds``.  The chapters use that and one alias only,
  ``from dpsens import mechanisms as mech`` (``tests/package/test_exports.py``).
"""
# the modules: every public one, so that ds.<module> always works (see above)
from . import (accounting, accuracy, audit, bruteforce, clipping, data, dp, exercises, experiments,  # noqa: F401
               figures, floating_point, globalsens, grid, groupsens, inverse, inverse_variance, local, mechanisms,
               neighbors, pld, privatesize, proportions, queries, relation, sensitivity, smooth, timing,
               transformations, vector, widgets)
# the names
from .data import load_adult, load_ages
from .figures.style import use_style
from .mechanisms import gaussian_mechanism, laplace_mechanism, ptr_threshold, sample_and_aggregate
from .neighbors import Domain, Pool, count_neighbors, count_releases, enumerate_neighbors, releases
from .queries import QUERIES, evaluate
from .relation import Relation
from .sensitivity import global_sensitivity, local_sensitivity
from .smooth import distance_to_high_ls, ls_at_distance, smooth_sensitivity

__version__ = "0.2.1.dev0"   # the one place the version is set: pyproject, pages, handouts and PDFs read it

__all__ = [
    "QUERIES", "Domain", "Pool", "Relation", "count_neighbors", "count_releases", "enumerate_neighbors",
    "evaluate", "load_adult", "load_ages", "releases", "use_style",
    "laplace_mechanism", "gaussian_mechanism", "ptr_threshold", "sample_and_aggregate",
    "ls_at_distance", "distance_to_high_ls", "smooth_sensitivity", "local_sensitivity", "global_sensitivity",
]
