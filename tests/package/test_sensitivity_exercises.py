"""Tests of the exercise checkers of the chapters *Global sensitivity from
scratch* and *Local sensitivity*: placeholder -> not yet, the worked answer
-> correct, a typical mistake -> wrong.  Expected numbers are worked out by
hand in the comments."""
from __future__ import annotations

import numpy as np

import dpsens as ds
from dpsens.exercises import globalsens as g
from dpsens.exercises import local as loc


def test_check_global_sum():
    assert g.check_global_sum(...).status == "not yet"
    assert g.check_global_sum(35).correct            # 20 + 15, the two largest absence counts
    assert g.check_global_sum(20).status == "wrong"  # k = 1's answer
    assert g.check_global_sum("35").correct          # numeric strings are read as numbers
    assert g.check_global_sum([35]).status == "wrong"


def test_check_bounded_mean():
    assert g.check_bounded_mean(...).status == "not yet"
    assert g.check_bounded_mean(1.0).correct         # k (U - L) / n = 2 * 2 / 4
    assert g.check_bounded_mean(0.5).status == "wrong"   # k = 1
    assert g.check_bounded_mean(2 * 2 / 6).status == "wrong"  # unbounded-style denominator n + k


def test_check_variance_worst_release():
    assert g.check_variance_worst_release(...).status == "not yet"
    # var([1,1,1,3]) = 0.75 and removing the 3 leaves variance 0
    assert g.check_variance_worst_release([1, 1, 1, 3]).correct
    assert g.check_variance_worst_release([3, 1, 3, 3]).correct
    assert g.check_variance_worst_release([1, 1, 3, 3]).status == "wrong"   # the most spread release
    assert g.check_variance_worst_release([1, 1, 2, 3]).status == "wrong"
    assert g.check_variance_worst_release([1, 1, 3]).status == "wrong"
    assert g.check_variance_worst_release([0, 1, 1, 3]).status == "wrong"


def test_check_local_sum():
    assert loc.check_local_sum(...).status == "not yet"
    assert loc.check_local_sum(20).correct           # add the student with 20 days
    assert loc.check_local_sum(6).status == "wrong"  # removals only


def test_check_adult_mean_local():
    ages = ds.load_ages().to_numpy(float)
    n, mean = len(ages), ages.mean()
    by_hand = (100 - mean) / (n + 1)                 # adding a 100-year-old beats removing the 90-year-old
    assert by_hand > (ages.max() - mean) / (n - 1)
    assert loc.check_adult_mean_local(...).status == "not yet"
    assert loc.check_adult_mean_local(by_hand).correct
    assert loc.check_adult_mean_local(100 / n).status == "wrong"                  # the global-style bound
    assert loc.check_adult_mean_local((ages.max() - mean) / (n - 1)).status == "wrong"


def test_check_median_k_against_a_direct_count():
    s = np.sort(ds.load_ages().to_numpy(float))
    m = len(s) // 2
    # direct: how many records share the median age on each side, + 1
    up = int(np.searchsorted(s, s[m], side="right")) - m        # first index above the median age is m + up
    down = m - int(np.searchsorted(s, s[m], side="left")) + 1   # first index below is m - down
    expected = min(up, down)
    assert loc.check_median_k(...).status == "not yet"
    assert loc.check_median_k(expected).correct
    assert loc.check_median_k(expected + 1).status == "wrong"
    assert loc.check_median_k(expected - 1).status == "wrong"
    assert loc.check_median_k(2.5).status == "wrong"
    assert loc.check_median_k("many").status == "wrong"
