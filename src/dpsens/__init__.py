"""dpsens -- the helper package of *Sensitivity, from scratch to smooth*.

Every chapter imports it as ``ds``; this module re-exports the names the
chapters use most.  The rest lives in one module per concept (the module map
is in ``CONTRIBUTING.md``, *Layout*), and every function's docstring names the
chapter that explains it.
"""
from . import data, exercises, figures, neighbors, queries, widgets  # ds.figures.*, ds.exercises.*, ds.widgets.*
from .data import load_adult, load_ages
from .neighbors import Domain, Pool, count_neighbors, count_releases, enumerate_neighbors, releases
from .figures.style import use_style
from .queries import QUERIES, evaluate
from .relation import Relation
from . import mechanisms  # ds.mechanisms.*
from .mechanisms import (gaussian_mechanism, laplace_mechanism, propose_test_release, ptr_threshold,
                         sample_and_aggregate, smooth_sensitivity_mechanism)

from . import proportions, transformations  # ds.proportions.*, ds.transformations.*
from . import clipping, vector  # ds.vector.*: L1/L2 sensitivity, histograms; ds.clipping.*
from . import grid  # ds.grid.*: the sensitivity grid
from . import smooth  # ds.smooth.*: A(t), distance, smooth sensitivity
from . import dp  # ds.dp.*: privacy loss, composition, group privacy
from . import inverse  # ds.inverse.*: exact inverse sensitivity len(x; z)
from . import accuracy  # ds.accuracy.*: accuracy bounds, lower bounds
from . import accounting, pld  # ds.accounting.*: composition theorems; ds.pld.*: exact accounting
from .smooth import distance_to_high_ls, ls_at_distance, smooth_sensitivity
from . import bruteforce, globalsens, groupsens, local, privatesize, sensitivity  # exact engine + oracle
from .sensitivity import global_sensitivity, local_sensitivity
from .bruteforce import bruteforce_global_sensitivity, bruteforce_local_sensitivity

__version__ = "0.2.1.dev0"   # the one place the version is set: pyproject, pages, handouts and PDFs read it

__all__ = [
    "QUERIES", "Domain", "Pool", "Relation", "count_neighbors", "count_releases", "enumerate_neighbors",
    "evaluate", "load_adult", "load_ages", "releases", "use_style",
    "mechanisms", "laplace_mechanism", "gaussian_mechanism", "propose_test_release", "ptr_threshold",
    "smooth_sensitivity_mechanism", "sample_and_aggregate",
    "proportions", "transformations", "grid", "vector", "clipping",
    "figures", "dp", "smooth", "inverse", "accuracy", "ls_at_distance", "distance_to_high_ls", "smooth_sensitivity",
    "local_sensitivity", "global_sensitivity", "bruteforce_local_sensitivity", "bruteforce_global_sensitivity",
    "bruteforce", "local", "globalsens", "groupsens", "privatesize", "sensitivity", "accounting", "pld",
    "data", "exercises", "neighbors", "queries", "widgets",
]
