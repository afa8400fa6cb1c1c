"""dpsens -- the helper package of *Sensitivity, from scratch to smooth*.

Every function's docstring names the chapter that explains it.
"""
from . import data, exercises, neighbors, plots, queries, widgets  # noqa: F401  (ds.plots.*, ds.exercises.*, ds.widgets.*)
from .data import load_adult, load_ages
from .neighbors import Domain, Pool, count_neighbors, count_releases, enumerate_neighbors, releases
from .plots import use_style
from .queries import QUERIES, evaluate

__version__ = "0.1.0"

__all__ = [
    "QUERIES", "Domain", "Pool", "count_neighbors", "count_releases", "enumerate_neighbors",
    "evaluate", "load_adult", "load_ages", "releases", "use_style",
]
