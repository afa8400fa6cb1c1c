"""Contribution bounds: the sensitivity of one identifier's rows, and the row-level stability calculator.

Chapter: *Sensitivity of transformations*.  :func:`per_id_sensitivity` gives
the ℓ1 or ℓ2 sensitivity when each identifier keeps at most ``g`` groups and
``q`` rows per group; :class:`RowStability` chains the stabilities of a
query's steps (flat map, public join, filter, private join) into the
sensitivity of its final count or sum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .._validate import as_bounds, as_int
from .join import private_join_stability

__all__ = ["per_id_sensitivity", "RowStability"]


def per_id_sensitivity(max_groups: int = 1, max_rows_per_group: int = 1, norm: str = "l1") -> float:
    """Sensitivity of per-group counts when each identifier keeps at most
    ``max_groups`` groups and ``max_rows_per_group`` rows in each.

    Chapter: *Sensitivity of transformations*.  Removing an identifier
    lowers at most ``g = max_groups`` counts, each by at most
    ``q = max_rows_per_group``: the L1 norm of the change is at most ``g q``
    (Laplace noise), its L2 norm at most ``sqrt(g) q`` (Gaussian noise).  With
    ``max_groups=1`` this is the ``MaxRowsPerID`` rule: ``q``.

    Parameters
    ----------
    max_groups, max_rows_per_group : int
        The truncation bounds, >= 1.
    norm : {"l1", "l2"}

    Examples
    --------
    >>> per_id_sensitivity(4, 3, "l1"), per_id_sensitivity(4, 3, "l2")
    (12.0, 6.0)
    """
    g = as_int(max_groups, "max_groups", minimum=1)
    q = as_int(max_rows_per_group, "max_rows_per_group", minimum=1)
    if norm == "l1":
        return float(g * q)
    if norm == "l2":
        return float(math.sqrt(g) * q)
    raise ValueError(f"norm must be 'l1' (Laplace) or 'l2' (Gaussian), got {norm!r}")


@dataclass(frozen=True)
class RowStability:
    """A small stability calculator for row-level protection.

    Chapter: *Sensitivity of transformations*.  Start from the protected
    change (``max_rows`` rows added or removed: the distance ``t``), apply the
    transformations of a query in order, and read off the sensitivity of the
    final aggregate.  Every step multiplies the distance between neighbouring
    tables by its stability ``κ``; ``rows`` is the distance after the last
    step.  The object is immutable, each step returns a new one.

    Examples
    --------
    >>> plan = RowStability(max_rows=1).flat_map(3).public_join(2)
    >>> plan.rows, plan.count_sensitivity(), plan.sum_sensitivity(0, 10)
    (6, 6.0, 60.0)
    >>> print(plan)
    protect 1 row(s) -> flat map (x3) -> 3 -> public join (x2) -> 6
    """

    max_rows: int = 1
    rows: int = field(default=None)  # type: ignore[assignment]
    steps: tuple = ()

    def __post_init__(self):
        as_int(self.max_rows, "max_rows", minimum=1)
        if self.rows is None:
            object.__setattr__(self, "rows", int(self.max_rows))

    def _then(self, label: str, factor: int) -> "RowStability":
        return RowStability(self.max_rows, self.rows * factor, self.steps + ((label, self.rows * factor),))

    def flat_map(self, max_rows: int) -> "RowStability":
        """A flat map producing at most ``max_rows`` rows per input row (``μ``-stable, ``μ = max_rows``)."""
        mu = as_int(max_rows, "max_rows", minimum=1)
        return self._then(f"flat map (x{mu})", mu)

    def public_join(self, max_multiplicity: int) -> "RowStability":
        """A join with a public table whose join key repeats at most ``max_multiplicity`` times (``μ``)."""
        mu = as_int(max_multiplicity, "max_multiplicity", minimum=1)
        return self._then(f"public join (x{mu})", mu)

    def filter(self) -> "RowStability":
        """A filter or a row-by-row map: 1-stable."""
        return self._then("filter/map (x1)", 1)

    def private_join(self, other: "RowStability", left_threshold: int, right_threshold: int,
                     left_truncation: str = "drop_excess", right_truncation: str = "drop_excess") -> "RowStability":
        """Join with another private table (``other``), truncating both sides.

        This table is side 1 (left), ``other`` side 2 (right); their ``rows``
        are ``t_1`` and ``t_2`` of :func:`private_join_stability`.
        """
        if not isinstance(other, RowStability):
            raise TypeError(f"other must be a RowStability for the right table, got {type(other).__name__}")
        rows = private_join_stability(left_threshold, right_threshold, left_truncation, right_truncation,
                                      self.rows, other.rows)
        return RowStability(self.max_rows, rows, self.steps + (("private join", rows),))

    def count_sensitivity(self) -> float:
        """Sensitivity of the number of rows (any norm: it is one number)."""
        return float(self.rows)

    def sum_sensitivity(self, lower: float, upper: float) -> float:
        """Sensitivity of the sum of a column clamped to ``[lower, upper]``."""
        lower, upper = as_bounds(lower, upper)
        return float(self.rows * max(abs(lower), abs(upper)))

    def __str__(self) -> str:
        parts = [f"protect {self.max_rows} row(s)"] + [f"{label} -> {rows}" for label, rows in self.steps]
        return " -> ".join(parts)
