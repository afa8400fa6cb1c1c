"""The sources' settings and the comparison shared by the engine tests (test_local, test_global)."""
import numpy as np

import dpsens as ds

QUERIES = list(ds.QUERIES)
RELATIONS = ["unbounded", "bounded"]
#: Scenario (a): the school table of the sources (the release is the first six rows).
SCHOOL_YEARS = [1, 2, 2, 2, 5, 5, 7, 8, 9, 9]
ABSENCE_DAYS = [1, 2, 3, 4, 5, 6, 7, 8, 15, 20]


def same(a, b):
    """Equal to floating-point precision (exact engine against brute force)."""
    return np.isclose(a, b, rtol=1e-9, atol=1e-9)
