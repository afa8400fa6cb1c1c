"""Heavy-tailed noise for pure-ε smooth sensitivity: ``∝ 1/(1+|z|^γ)`` (Nissim, Raskhodnikova & Smith 2007) and Student's t.

Chapter: *Smooth sensitivity*: the density ``∝ 1/(1+|z|^γ)``, its
distribution function, exact sampling, and the constants (Ψ, β) that make
the release ε-DP (γ = 2: the Cauchy distribution); and Student's t with
``df`` degrees of freedom (Bun & Steinke 2019), its constants (Ψ, β), and
the median and mean of the absolute value of each noise, exactly.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_positive, check_rng
from .checks import Size, as_size

__all__ = ["check_gamma", "polynomial_tail_pdf", "polynomial_tail_cdf", "sample_polynomial_tail",
           "heavy_tailed_constants", "check_df", "student_t_constants", "sample_student_t",
           "polynomial_tail_abs_median", "polynomial_tail_abs_mean", "student_t_abs_median", "student_t_abs_mean"]


def check_gamma(gamma: float) -> float:
    """The tail exponent γ of the density ``∝ 1/(1+|z|^γ)``: a number ``> 1``."""
    gamma = as_positive(gamma, "gamma")
    if gamma <= 1:
        raise ValueError(f"gamma must be > 1 for the density 1/(1+|z|^gamma) to be integrable, got {gamma!r}")
    return gamma


def polynomial_tail_pdf(z: ArrayLike, gamma: float = 4.0) -> float | np.ndarray:
    """Density ``h(z) = c_γ / (1 + |z|^γ)`` of the heavy-tailed noise.

    Chapter: *Smooth sensitivity*.

    The normalising constant is ``c_γ = γ sin(π/γ) / (2π)`` because
    ``∫ dz / (1+|z|^γ) = (2π/γ) / sin(π/γ)``.  For γ = 2 this is the standard
    Cauchy density; for γ = 4 the variance is exactly 1.
    """
    gamma = check_gamma(gamma)
    z = np.asarray(z, dtype=float)
    c = gamma * math.sin(math.pi / gamma) / (2 * math.pi)
    out = c / (1.0 + np.abs(z) ** gamma)
    return float(out) if out.ndim == 0 else out


def polynomial_tail_cdf(z: ArrayLike, gamma: float = 4.0) -> float | np.ndarray:
    """Distribution function of :func:`polynomial_tail_pdf`, in closed form.

    Chapter: *Smooth sensitivity*.

    With ``w = |z|^γ / (1 + |z|^γ)``, ``P(|Z| <= |z|) = I_w(1/γ, 1 − 1/γ)``,
    the regularised incomplete beta function; ``F(z) = ½ ± ½ I_w``.
    """
    from scipy import special

    gamma = check_gamma(gamma)
    z = np.asarray(z, dtype=float)
    t = np.abs(z) ** gamma
    w = t / (1.0 + t)
    inner = special.betainc(1.0 / gamma, 1.0 - 1.0 / gamma, w)
    out = 0.5 + 0.5 * np.sign(z) * inner
    return float(out) if out.ndim == 0 else out


def sample_polynomial_tail(rng: np.random.Generator, gamma: float = 4.0, size: Size = None) -> float | np.ndarray:
    """Exact draws from the density ``∝ 1 / (1 + |z|^γ)``, γ > 1.

    Chapter: *Smooth sensitivity*.

    Method: if ``W ~ Beta(1/γ, 1 − 1/γ)`` then ``T = (W / (1 − W))^(1/γ)`` has
    density ``∝ 1/(1 + t^γ)`` on ``t > 0`` (change of variables
    ``w = t^γ/(1+t^γ)``); a fair random sign makes it symmetric.  No
    rejection, no truncation.

    Parameters
    ----------
    rng : numpy.random.Generator
    gamma : float
        Tail exponent, ``> 1``.  γ = 2 is the Cauchy distribution; the variance
        is finite for γ > 3 and equals ``sin(π/γ) / sin(3π/γ)`` (1 for γ = 4).
    size : int or tuple, optional

    Returns
    -------
    float or numpy.ndarray
    """
    gamma = check_gamma(gamma)
    rng = check_rng(rng)
    size = as_size(size)
    w = rng.beta(1.0 / gamma, 1.0 - 1.0 / gamma, size=size)
    sign = np.where(rng.random(size=size) < 0.5, -1.0, 1.0)
    with np.errstate(divide="ignore"):
        t = (w / (1.0 - w)) ** (1.0 / gamma)
    out = sign * t
    return float(out) if np.ndim(out) == 0 else out


def heavy_tailed_constants(epsilon: float, gamma: float = 4.0) -> tuple[float, float]:
    """``(alpha, beta)`` for pure-ε smooth sensitivity with noise ``∝ 1/(1+|z|^γ)``.

    Chapter: *Smooth sensitivity*.

    The framework is Nissim, Raskhodnikova & Smith's (2007, full version,
    Section 2: admissible noise distributions); these constants are the
    book's own, proved in the chapter: if ``S`` is a β-smooth upper bound on
    the local sensitivity with ``β <= ε / (2(γ+1))``, then ``f(x) + S(x)/α · Z``
    with ``α = ε / (2(γ+1))`` (the chapter's Ψ) and ``Z ~ 1/(1+|z|^γ)`` is
    ε-DP: the densities differ by at most ``e^{max(1, γ−1)β + γα} <= e^ε``.
    The noise is ``2(γ+1)·S/ε · Z``.  For γ = 4: β = α = ε/10, noise ``10·S/ε · Z``.

    The test suite checks the two admissibility conditions behind this
    (sliding by ``|Δ| <= α`` and dilation by ``e^λ``, ``|λ| <= β``, each
    changing the log density by at most ε/2) numerically on a grid.  (The
    dilation condition alone needs ``β <= ε/(2(γ−1))``: the log density of
    ``e^λ Z`` differs from that of ``Z`` by up to ``(γ−1)|λ|`` in the tails,
    so constants such as ``β = ε/γ`` seen in some code fail it for γ = 4.)

    Returns
    -------
    (alpha, beta) : tuple of float
        Noise is ``S / alpha · Z``; the smoothing parameter is ``beta``.
    """
    epsilon = as_positive(epsilon, "epsilon")
    gamma = check_gamma(gamma)
    c = epsilon / (2 * (gamma + 1))
    return c, c


def polynomial_tail_abs_median(gamma: float = 4.0) -> float:
    """The median of ``|Z|`` for ``Z ∝ 1/(1+|z|^γ)``, exactly: ``(w/(1−w))^(1/γ)`` with ``I_w(1/γ, 1−1/γ) = 1/2``.

    Chapter: *Smooth sensitivity* (the error each noise gives).  1 for the
    Cauchy distribution (γ = 2).
    """
    from scipy import special

    gamma = check_gamma(gamma)
    w = float(special.betaincinv(1.0 / gamma, 1.0 - 1.0 / gamma, 0.5))
    return (w / (1.0 - w)) ** (1.0 / gamma)


def polynomial_tail_abs_mean(gamma: float = 4.0) -> float:
    """``E|Z|`` for ``Z ∝ 1/(1+|z|^γ)``: ``1/(2 cos(π/γ))`` for γ > 2, infinite for γ <= 2 (the Cauchy).

    Chapter: *Smooth sensitivity*.  From ``∫_0^∞ z/(1+z^γ) dz = (π/γ)/sin(2π/γ)``
    and the constant ``c_γ = γ sin(π/γ)/(2π)`` of :func:`polynomial_tail_pdf`.
    """
    gamma = check_gamma(gamma)
    return math.inf if gamma <= 2 else 1.0 / (2.0 * math.cos(math.pi / gamma))


def check_df(df: float) -> float:
    """The degrees of freedom ``df`` of Student's t: a finite number ``> 0``."""
    df = as_positive(df, "df")
    if not math.isfinite(df):
        raise ValueError(f"df must be a finite number > 0 (the degrees of freedom of Student's t), got {df!r}")
    return df


def student_t_constants(epsilon: float, df: float = 3.0) -> tuple[float, float]:
    """``(Ψ, β)`` for pure-ε smooth sensitivity with Student's t noise: ``Ψ = ε√df/(df+1)``, ``β = ε/(2 max(1, df))``.

    Chapter: *Smooth sensitivity* (proved there; Student's t for smooth
    sensitivity is Bun & Steinke's (2019) proposal).  The log density of
    Student's t, ``−((df+1)/2) ln(1 + w²/df)`` up to a constant, has slope at
    most ``(df+1)/(2√df)`` (at ``|w| = √df``): a shift by ``Ψ`` changes it by
    at most ``ε/2``.  Stretching by ``e^θ`` changes the log density of the
    stretched law by ``−θ`` plus a term between 0 and ``(df+1)θ``: at most
    ``max(1, df)|θ|``, so ``|θ| <= β`` costs at most ``ε/2``.  The release
    ``f(x) + S_β(x)/Ψ · Z`` is then ε-DP.  For ``df = 1`` (the Cauchy
    distribution) the noise is ``2 S/ε · Z`` with ``β = ε/2``; for the default
    ``df = 3``, ``4 S/(√3 ε) · Z`` with ``β = ε/6``.

    Returns
    -------
    (psi, beta) : tuple of float

    Examples
    --------
    >>> [round(v, 4) for v in student_t_constants(1.0, 3)]
    [0.433, 0.1667]
    """
    epsilon = as_positive(epsilon, "epsilon")
    df = check_df(df)
    return epsilon * math.sqrt(df) / (df + 1.0), epsilon / (2.0 * max(1.0, df))


def sample_student_t(rng: np.random.Generator, df: float = 3.0, size: Size = None) -> float | np.ndarray:
    """Draws of Student's t with ``df`` degrees of freedom: ``rng.standard_t(df, size)``.

    Chapter: *Smooth sensitivity*.  numpy's floating-point sampler (the
    book's illustrations; see *Noise a computer can actually sample*).
    """
    df = check_df(df)
    rng = check_rng(rng)
    out = rng.standard_t(df, size=as_size(size))
    return float(out) if np.ndim(out) == 0 else out


def student_t_abs_median(df: float = 3.0) -> float:
    """The median of ``|Z|``, ``Z`` Student's t with ``df`` degrees of freedom: its 0.75 quantile (``scipy.special.stdtrit``).

    Chapter: *Smooth sensitivity*.  1 for ``df = 1`` (the Cauchy distribution).
    """
    from scipy import special

    return float(special.stdtrit(check_df(df), 0.75))


def student_t_abs_mean(df: float = 3.0) -> float:
    """``E|Z|`` for Student's t: ``2√df Γ((df+1)/2) / (√π (df−1) Γ(df/2))`` for df > 1, infinite for df <= 1.

    Chapter: *Smooth sensitivity*.  (``2√3/π`` for df = 3.)
    """
    df = check_df(df)
    if df <= 1:
        return math.inf
    log = math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
    return 2.0 * math.sqrt(df) * math.exp(log) / (math.sqrt(math.pi) * (df - 1.0))
