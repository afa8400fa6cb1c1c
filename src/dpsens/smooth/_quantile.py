"""The engine of the order statistics and interpolated percentiles with one record replaced (bounded).

Chapters: *Propose-test-release* and *Smooth sensitivity* (through :mod:`dpsens.smooth`).  The
derivation is in the docstring of :mod:`dpsens.smooth._engines` ("Order statistics and interpolated
percentiles, bounded").
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._candidates import Data, padded, quantile_position
from ._pairs import PairProblem, smooth_of_problems

__all__ = ["QuantileBounded"]


class QuantileBounded:
    """Bounded relation, order statistics and interpolated percentiles (see :mod:`dpsens.smooth._engines`).

    With ``reach`` set, only the lefts and rights that a pair of cost ``<= reach`` can use are kept (a
    pair's indices are within ``reach + 2`` of the window): ``A(t)`` is then exact for ``t <= reach``
    and a lower bound beyond, ``smooth`` a lower bound that includes every pair of cost ``<= reach``
    (see the reach search of :mod:`dpsens.smooth._engines`); ``sup`` is then only an upper bound.
    """

    def __init__(self, data: Data, reach: int | None = None) -> None:
        xs, name, lower, upper = data.xs, data.query, data.lower, data.upper
        n = len(xs)
        self.n = n
        i, g = quantile_position(name, n)
        self.i = i
        alpha, gamma = 1.0 - g, g
        self.val = val = padded(xs, lower, upper)
        R = n + 2 if reach is None else int(reach)

        self.problems = []
        for j in {i, i - 1}:
            if j < -1 or j > n - 1:
                continue
            p = np.arange(max(-1, j - R - 1), j + 1)
            bb = np.arange(j + 1, min(n, j + R + 2) + 1)
            self.problems.append(PairProblem(alpha * val(p), int(p[0]), j,
                                              alpha * val(bb) + gamma * (val(bb + 1) - val(bb)), j + 1, int(bb[-1])))
            if gamma > 0 and j + 2 <= n:
                aa = np.arange(max(-1, j - R), j + 2)
                qq = np.arange(j + 2, min(n, j + R + 3) + 1)
                self.problems.append(PairProblem(gamma * val(aa) - alpha * (val(aa) - val(aa - 1)), int(aa[0]), j + 1,
                                                  gamma * val(qq), j + 2, int(qq[-1])))
        self.sup = float(self.A(np.array([n]))[0]) if reach is None else float(upper - lower)
        self.t_sup = n

    def U(self, t: ArrayLike) -> np.ndarray:
        """An upper bound on ``A(t)``: every pair of cost ``<= t`` lies in the padded indices
        ``[i - t - 2, i + t + 2]`` and its value is at most the spread of its indices."""
        t = np.asarray(t, dtype=np.int64)
        return self.val(self.i + t + 3) - self.val(self.i - t - 3)

    def A(self, t: ArrayLike) -> np.ndarray:
        t = np.asarray(t, dtype=np.int64)
        flat = np.minimum(t.reshape(-1), self.n)
        out = np.zeros(flat.shape)
        for pr in self.problems:
            out = np.maximum(out, pr.A(flat))
        return out.reshape(t.shape)

    def smooth(self, beta: float, t_max: int | None = None) -> tuple[float, int]:
        # a cheap lower bound first, to skip pairs too long to matter
        t_max = self.n if t_max is None else min(self.n, t_max)
        ts = np.concatenate(([0], 1 << np.arange(int(t_max).bit_length())))
        with np.errstate(under="ignore"):
            floor = float(np.max(np.exp(-beta * ts) * self.A(ts)))
        v, c = smooth_of_problems(self.problems, beta, floor=floor * (1 - 1e-9) if floor > 0 else 0.0)
        return (v, c) if v > 0 else (0.0, 0)
