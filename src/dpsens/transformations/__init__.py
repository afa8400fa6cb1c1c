"""Sensitivity of table transformations: flat maps, joins, truncation (a subpackage, one module per concept).

Chapter: *Sensitivity of transformations*; ``from dpsens import transformations as tr`` gives every name
below, as ``import dpsens as ds`` gives ``ds.transformations.<name>``.

A query rarely runs on the raw private table: rows are expanded (a flat map),
joined with other tables, grouped.  Each step can make one person's influence
larger.  This subpackage holds the steps, written on plain pandas DataFrames, and
the rules that bound how far apart two neighbouring tables can be after them.

Two ways of saying what is protected:

* **row-level** -- neighbouring tables differ by adding or removing rows
  (``max_rows`` of them, usually one).  The distance ``t`` between two tables
  is the size of the *symmetric difference* of their rows, as multisets
  (:func:`symmetric_distance`).  A transformation is *κ-stable* if inputs at
  distance ``t`` give outputs at distance at most ``κ t``; a count then has
  sensitivity ``κ t``.  A flat map or a public join makes at most ``μ`` rows
  of one row (it is ``μ``-stable).
* **identifier-level** -- neighbouring tables differ by *all* the rows of one
  identifier (a person who may own many rows).  Nothing is bounded until the
  rows of each identifier are truncated: at most ``q`` rows per identifier, or
  at most ``g`` groups and ``q`` rows per group.

The letters are the book's (chapter *Notation*); the chapter translates them
into those of the source's guide.

Every truncation here is *stable*: which rows survive depends only on the rows
themselves (a hash of their content, or an explicit random draw), never on
their position in the table, so adding one row can evict at most one other.

The modules: :mod:`~dpsens.transformations.distance` (the distance between
tables, random neighbours, the largest change), :mod:`~dpsens.transformations.flat_map`
(flat map, public join), :mod:`~dpsens.transformations.truncation`,
:mod:`~dpsens.transformations.join` (the private join and its rule),
:mod:`~dpsens.transformations.bounds` (contribution bounds, ``RowStability``),
:mod:`~dpsens.transformations.examples` (the chapter's small tables).
"""
from __future__ import annotations

from .bounds import RowStability, per_id_sensitivity
from .distance import id_neighbor, largest_change, row_neighbor, symmetric_distance
from .examples import GENRES, films_table, people_table, purchases_table, states_table, users_purchases_tables
from .flat_map import flat_map, max_key_multiplicity, public_join
from .join import private_join, private_join_stability
from .truncation import (TRUNCATION_STABILITY, drop_non_unique, truncate_groups_per_id, truncate_rows_per_group_per_id,
                         truncate_rows_per_id)

__all__ = [
    "symmetric_distance", "flat_map", "max_key_multiplicity", "public_join",
    "truncate_rows_per_id", "drop_non_unique", "truncate_groups_per_id",
    "truncate_rows_per_group_per_id", "private_join", "TRUNCATION_STABILITY",
    "private_join_stability", "per_id_sensitivity", "RowStability",
    "largest_change", "row_neighbor", "id_neighbor", "GENRES", "films_table", "states_table",
    "people_table", "users_purchases_tables", "purchases_table",
]
