"""Checkers for the exercises of the chapter *Smooth sensitivity*.

Setting: the Adult ages (n = 32,561), bounds [0, 100], ε = 1, the book's public δ = 10⁻⁶.  The
expected values are in the hashed key (:mod:`._key`).
"""
from __future__ import annotations

from ._verdict import Verdict, check_key, checker

__all__ = ["check_smooth_beta", "check_smooth_turning_point", "check_smooth_median_direct",
           "check_smooth_student_error"]


@checker("your answer")
def check_smooth_beta(answer: object) -> Verdict:
    """Exercise *The smoothing parameter*: β for ε = 1 and the book's δ = 10⁻⁶.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant
    figures passes; ln(1/δ) for ln(2/δ) (3 % off) does not."""
    return check_key(answer, "smooth_beta", "β", "β = ε / (2 ln(2/δ)) with δ = 10⁻⁶.",
                     {"ln_1_over_delta": ("that uses ln(1/δ); the smooth-sensitivity β has ln(2/δ).",
                                          "β = ε / (2 ln(2/δ))."),
                      "delta_1_over_n_squared": ("that uses δ = 1/n²; the book's δ is the public 10⁻⁶ "
                                                 "(under add/remove neighbours n is private).",
                                                 "2/δ = 2·10⁶.")})


@checker("the distance k")
def check_smooth_turning_point(answer: object) -> Verdict:
    """Exercise *Where the source's curve turns*: smallest k with e^{-β(k+1)} u/(n−k) > e^{-βk} u/(n−k+1).

    Precision: an index, so exactly that whole number."""
    return check_key(answer, "smooth_turning_point", "the turning point",
                     "the ratio of consecutive terms is e^{−β}(n−k+1)/(n−k); find the first k where it "
                     "exceeds 1 (work with logarithms, e^{−βk} underflows for large k).")


@checker("the smooth sensitivity S")
def check_smooth_median_direct(answer: object) -> Verdict:
    """Exercise *The median from scratch*: smooth sensitivity of the median of the first 2,001 ages
    (bounded relation, ε = 1, δ = 1/2001²), with the direct formula over every k.

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant figures passes."""
    return check_key(answer, "smooth_median_direct", "the smooth sensitivity",
                     "sort, pad with 0 below and 100 above, A(k) = max_s X[m+s] − X[m+s−k−1] for "
                     "s = 0..k+1, then S = max over k = 0..n+1 of e^{−βk} A(k) with β for n = 2001.")


@checker("the median absolute error")
def check_smooth_student_error(answer: object) -> Verdict:
    """Exercise *Student's t on a smaller sample*: the median |error| of the Student's t release (df = 3,
    ε = 0.5) of the median of the first 2,001 ages (bounded relation, bounds [0, 100]).

    Precision: within 0.5 % (relative), so an answer rounded to 3 significant figures passes; the noise
    scale S/Ψ without the quantile of |Z|, and Laplace's β, do not."""
    return check_key(answer, "smooth_student_error", "the median absolute error",
                     "Ψ = ε√df/(df+1), β = ε/(2 max(1, df)); the error is S_β/Ψ · |Z|, and the median of |Z| "
                     "is the 0.75 quantile of Student's t with df = 3.",
                     {"scale_only": ("that is the noise scale S_β/Ψ; the error is that times |Z|.",
                                     "take the median of |Z| for Z ~ Student(3)."),
                      "laplace_beta": ("that uses Laplace's β = ε/(2 ln(2/δ)); Student's t has its own β.",
                                       "β = ε/(2 max(1, df)).")})
