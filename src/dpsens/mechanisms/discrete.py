"""Discrete Laplace and discrete Gaussian noise sampled exactly, with integer arithmetic only.

Chapter: *Noise a computer can actually sample* (``chapters/floating.md``).
The samplers are Algorithms 1-3 of Canonne, Kamath and Steinke (2020): a
coin with probability exactly ``exp(-exponent)`` for a rational ``exponent`` (drawn from
uniform integers, no logarithm, no floating point), the discrete Laplace
distribution ``Lap_Z(b)`` with a rational scale ``b``, and the discrete Gaussian
``N_Z(0, sigma^2)`` with a rational ``sigma^2``.  Each is vectorised over numpy
arrays, without changing the distribution: the first coins of Algorithm 1's
chain are settled by one uniform integer (the chain passes its first k coins
exactly when that integer is below a threshold of probability
``exponent^k/k!``), the geometric count of e^-1 coins is cut from one stream of
coins, and the rejection samplers run batches of independent attempts and keep
the first successes, so that a million draws take a fraction of a second
(``benchmarks/bench_discrete.py``); every random number is a uniform integer
from :meth:`numpy.random.Generator.integers`, which numpy draws without bias.  The mechanisms add the noise to an *integer-valued* query: the
discrete Laplace mechanism is ε-DP for an integer query of sensitivity Δ with
``b = Δ/ε``; the discrete Gaussian mechanism is ρ-zCDP with ``ρ = Δ²/(2σ²)``
and (ε, δ)-DP with the exact δ of :func:`discrete_gaussian_delta`.

Rational parameters: an ``int`` or a :class:`fractions.Fraction` is used as it
is; a ``float`` is read as the decimal it prints as (``Fraction(repr(x))``: 0.3
is 3/10, not the binary double nearest to it), so ``epsilon=0.3`` means exactly
3/10.  Numerators and denominators are bounded so that every product stays in
int64 (the limits are in the error messages).
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_int, check_rng
from .checks import Size, as_size

__all__ = ["as_rational", "sample_bernoulli_exp", "sample_discrete_laplace", "sample_discrete_gaussian",
           "discrete_laplace_pmf", "discrete_gaussian_pmf", "discrete_gaussian_delta",
           "discrete_laplace_mechanism", "discrete_gaussian_mechanism", "as_integer_values"]

#: The largest denominator a Bernoulli(exp(-exponent)) draw accepts: ``den * K`` must fit in int64 for
#: the loop counter K of Algorithm 1 (K > 40 has probability below 1e-47).
MAX_DENOMINATOR = 2 ** 56
#: The largest numerator or denominator of the discrete Laplace scale.
MAX_SCALE_PART = 2 ** 40
_INT64_MAX = 2 ** 63 - 1
#: the most attempts a sampler runs at once
_BATCH = 2 ** 18


def as_rational(value: float | Fraction, name: str) -> Fraction:
    """``value`` (int, Fraction or float) as an exact positive :class:`~fractions.Fraction`, or raise.

    Chapter: *Noise a computer can actually sample*.  A float is read as the
    decimal it prints as: ``as_rational(0.3, "epsilon") == Fraction(3, 10)``.

    Examples
    --------
    >>> as_rational(0.3, "epsilon")
    Fraction(3, 10)
    >>> as_rational(Fraction(1, 3), "epsilon")
    Fraction(1, 3)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive number (int, float or Fraction), got {value!r} "
                        f"of type {type(value).__name__}")
    if isinstance(value, numbers.Rational):
        out = Fraction(int(value.numerator), int(value.denominator))
    else:
        if not math.isfinite(float(value)):
            raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
        out = Fraction(repr(float(value)))
    if out <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return out


def as_integer_values(value: ArrayLike, name: str = "value") -> int | np.ndarray:
    """``value`` as a Python int or an int64 array, or raise: the exact answer of an integer-valued query.

    Chapter: *Noise a computer can actually sample*.  Floats are accepted only
    when they are whole numbers (``37.0``); ``37.5`` raises, because the
    mechanisms' guarantees are for integer-valued queries (round the query to
    an integer grid first, and account for the rounding's sensitivity).
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}")
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold whole numbers (an integer-valued query); got {value!r}. "
                             "Round the query to an integer grid first.")
    if np.any(np.abs(arr.astype(float)) > 2.0 ** 53):
        raise ValueError(f"{name} must be integers of absolute value at most 2**53, got {value!r}")
    arr = arr.astype(np.int64)
    return int(arr) if arr.ndim == 0 else arr


def _uniform_below(high: int, n: int, rng) -> np.ndarray:
    """n uniform integers in [0, high): numpy's unbiased bounded integers, 32-bit when ``high`` allows (faster)."""
    return rng.integers(0, high, size=n, dtype=np.uint32 if high <= 2 ** 32 else np.int64)


def _chain_depth(den: int) -> int:
    """The most coins ``m >= 1`` of Algorithm 1's chain that one uniform integer below ``den**m * m!`` can
    settle, with that bound in int64."""
    m, size = 1, den
    while size * den * (m + 1) <= _INT64_MAX:
        m += 1
        size *= den * m
    return m


def _chain_from(num, den: int, start: int, rng) -> np.ndarray:
    """Algorithm 1's chain from its coin ``start`` on, one coin per round (probability ``num/(den k)``
    for coin k): True where it stops at an odd K (it stops at K = k when coin k is tails)."""
    odd = np.empty(num.shape, dtype=bool)
    pending = np.arange(num.size)
    k = start
    while pending.size:
        heads = _uniform_below(den * k, pending.size, rng) < num[pending]
        odd[pending[~heads]] = k % 2 == 1
        pending = pending[heads]
        k += 1
    return odd


def _bernoulli_exp_fraction(num, den: int, rng, depth=None) -> np.ndarray:
    """Bernoulli(exp(-num/den)) per entry of the int64 array ``num`` (``0 <= num <= den``): CKS Algorithm 1.

    The chain's coin k has probability ``exponent/k`` (``exponent = num/den``), so it
    passes coins 1..k with probability ``exponent^k/k!``.  Its first ``m``
    coins (``m = depth``, by default :func:`_chain_depth`) are settled by one
    uniform integer ``W`` below ``den^m m!``: the chain passes coins 1..k
    exactly when ``W < num^k den^(m-k) m!/k!``, an event of probability
    ``exponent^k/k!``, and these events are nested, so the number of coins
    passed has the chain's distribution.  A chain that passes all ``m``
    continues coin by coin (:func:`_chain_from`).  Heads when it stops at an
    odd K."""
    m = _chain_depth(den) if depth is None else depth
    scale = [den ** (m - k) * (math.factorial(m) // math.factorial(k)) for k in range(m + 1)]
    w = rng.integers(0, den ** m * math.factorial(m), size=num.size, dtype=np.int64)
    go = w < num * scale[1]
    heads = ~go                                                # stopped at K = 1
    idx = np.flatnonzero(go)
    n_k, w_k = num[idx], w[idx]                                # on the chains still running
    power = n_k.copy()                                         # num^k
    for k in range(2, m + 1):
        if not idx.size:
            return heads
        power *= n_k
        go = w_k < power * scale[k]
        if k % 2 == 1:
            heads[idx[~go]] = True                             # stopped at K = k, odd
        idx, n_k, w_k, power = idx[go], n_k[go], w_k[go], power[go]
    if idx.size:
        heads[idx] = _chain_from(n_k, den, m + 1, rng)
    return heads


#: the e^-1 coin: one uniform integer below 20! settles its chain's first 20 coins (coin k has probability 1/k)
_E1_SIZE = math.factorial(20)
#: 20!/k! for k = 20, 19, ..., 2 (ascending): the chain passes coins 1..k exactly when W < 20!/k!
_E1_THRESHOLDS = np.array([_E1_SIZE // math.factorial(k) for k in range(20, 1, -1)], dtype=np.int64)


def _bernoulli_exp_minus_one(n: int, rng) -> np.ndarray:
    """n coins with probability exactly 1/e: Algorithm 1 with exponent 1, the first 20 coins of each chain
    settled by one uniform integer W below 20! (as in :func:`_bernoulli_exp_fraction`).

    Coin 1 (probability 1) always passes; the chain stops at K = 2 (tails) when
    ``W >= 20!/2``, at K = 3 (heads) when ``20!/6 <= W < 20!/2``, and
    otherwise (probability 1/6) at ``K = 21 - #{k <= 20 : W >= 20!/k!}``,
    counted by a search among the thresholds; ``W = 0`` (probability 1/20!)
    passes all 20 coins and goes on coin by coin."""
    w = rng.integers(0, _E1_SIZE, size=n, dtype=np.int64)
    heads = (w < _E1_THRESHOLDS[-1]) & (w >= _E1_THRESHOLDS[-2])
    deep = np.flatnonzero(w < _E1_THRESHOLDS[-2])
    if deep.size:
        passed = 20 - np.searchsorted(_E1_THRESHOLDS, w[deep], side="right")     # coins 1..passed heads
        heads[deep] = passed % 2 == 0                                            # stopped at K = passed + 1
        beyond = deep[passed == 20]
        if beyond.size:
            heads[beyond] = _chain_from(np.ones(beyond.size, dtype=np.int64), 1, 21, rng)
    return heads


def _bernoulli_exp(whole, num, den: int, rng) -> np.ndarray:
    """Bernoulli(exp(-(whole + num/den))) per entry: ``whole`` coins Bernoulli(exp(-1)) (CKS Algorithm 1's
    loop for exponent > 1, stopped at the first 0), then one Bernoulli(exp(-num/den))."""
    out = np.ones(num.shape, dtype=bool)
    pending = np.flatnonzero(whole > 0)
    done = 0
    while pending.size:
        ok = _bernoulli_exp_minus_one(pending.size, rng)
        out[pending[~ok]] = False
        done += 1
        pending = pending[ok & (whole[pending] > done)]
    rest = np.flatnonzero(out)
    out[rest] = _bernoulli_exp_fraction(num[rest], den, rng)
    return out


def sample_bernoulli_exp(exponent: float | Fraction, rng: np.random.Generator,
                         size: Size = None) -> bool | np.ndarray:
    """Draw Bernoulli(exp(-exponent)) exactly for a rational ``exponent >= 0`` (Canonne, Kamath & Steinke 2020, Alg. 1).

    Chapter: *Noise a computer can actually sample*.

    Parameters
    ----------
    exponent : int, Fraction or float
        ``>= 0``; a float is read as the decimal it prints as.
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    bool or numpy.ndarray of bool
        True with probability exactly ``exp(-exponent)`` (given exact uniform integers).
    """
    rng = check_rng(rng)
    size = as_size(size)
    if isinstance(exponent, numbers.Real) and not isinstance(exponent, (bool, np.bool_)) and exponent == 0:
        exponent = Fraction(0)
    else:
        try:
            exponent = as_rational(exponent, "exponent")
        except ValueError:
            raise ValueError(f"exponent must be a finite number >= 0, got {exponent!r}") from None
    if exponent.denominator > MAX_DENOMINATOR:
        raise ValueError(f"exponent's denominator must be at most 2**56, got {exponent}")
    n = 1 if size is None else int(np.prod(size))
    whole = np.full(n, exponent.numerator // exponent.denominator, dtype=np.int64)
    num = np.full(n, exponent.numerator % exponent.denominator, dtype=np.int64)
    out = _bernoulli_exp(whole, num, exponent.denominator, rng)
    return bool(out[0]) if size is None else out.reshape(size)


def _geometric_exp1(n: int, rng) -> np.ndarray:
    """V = the number of Bernoulli(exp(-1)) successes before the first failure, n times: P(V = v) = e^-v (1 - 1/e).

    One stream of independent e^-1 coins is cut at its failures: the i-th V is
    the number of successes between failures i - 1 and i.  The stream is
    drawn in blocks; the successes after a block's last failure carry over to
    the first V of the next block (dropping them would bias the Vs towards 0)."""
    parts, have, carry = [], 0, 0
    while have < n:
        coins = _bernoulli_exp_minus_one(math.ceil((n - have) * 1.6) + 8, rng)
        failures = np.flatnonzero(~coins)
        if not failures.size:
            carry += coins.size
            continue
        v = np.diff(failures, prepend=-1) - 1
        v[0] += carry
        carry = coins.size - 1 - int(failures[-1])
        parts.append(v)
        have += v.size
    return np.concatenate(parts)[:n] if parts else np.zeros(0, dtype=np.int64)


def _laplace_attempts(t: int, s: int, n: int, rng) -> np.ndarray:
    """n independent attempts of CKS Algorithm 2 for Lap_Z(t/s): the values of those that succeed, in order.

    An attempt fails where the algorithm starts again (U not kept, or "-0");
    the first success of a sequence of attempts is a draw of Lap_Z(t/s)."""
    if t == 1:                                               # U = 0, kept with probability exp(0) = 1
        x = _geometric_exp1(n, rng)
    else:
        u = rng.integers(0, t, size=n, dtype=np.int64)
        u = u[_bernoulli_exp_fraction(u, t, rng)]            # U kept with probability exp(-U/t)
        x = u + t * _geometric_exp1(u.size, rng)
    y = x if s == 1 else x // s
    negative = rng.integers(0, 2, size=y.size, dtype=np.uint8).astype(bool)
    np.negative(y, out=y, where=negative)
    return y[~(negative & (y == 0))]


def _first_successes(attempts, n: int) -> np.ndarray:
    """The first n values yielded by independent attempts (``attempts(k)`` runs k of them and returns the values
    of those that succeed, in order): n independent draws of the distribution of a first success.

    Batches are sized by the success rate seen so far, at most ``_BATCH`` attempts (arrays that stay in the
    processor's cache: faster than one batch of a million); the values beyond the n-th are dropped (attempts
    are independent, so which are used does not depend on their values)."""
    parts, have, rate = [], 0, 0.5
    while have < n:
        k = min(math.ceil((n - have) / rate * 1.02) + 8, _BATCH)
        got = attempts(k)
        parts.append(got)
        have += got.size
        rate = max(got.size / k, 0.01) if have < n else rate
    return np.concatenate(parts)[:n] if parts else np.empty(0, dtype=np.int64)


def _laplace_parts(scale: Fraction) -> tuple[int, int]:
    if scale.numerator > MAX_SCALE_PART or scale.denominator > MAX_SCALE_PART:
        raise ValueError(f"scale = {scale} must have numerator and denominator at most 2**40")
    return scale.numerator, scale.denominator


@overload
def sample_discrete_laplace(scale: float | Fraction, rng: np.random.Generator, size: None = None) -> int: ...


@overload
def sample_discrete_laplace(scale: float | Fraction, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray: ...


def sample_discrete_laplace(scale: float | Fraction, rng: np.random.Generator, size: Size = None) -> int | np.ndarray:
    """Draw from the discrete Laplace distribution ``Lap_Z(b)``, ``P(k) ∝ exp(-|k|/b)`` on the integers, exactly.

    Chapter: *Noise a computer can actually sample*.  Canonne, Kamath &
    Steinke (2020), Algorithm 2, with ``b = t/s``: U uniform on {0, ..., t-1}
    kept with probability exp(-U/t), V the number of Bernoulli(exp(-1))
    successes before a failure, Y = floor((U + tV)/s), a fair sign, and -0
    rejected.

    Parameters
    ----------
    scale : int, Fraction or float
        ``b > 0``; a float is read as the decimal it prints as.
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    int or numpy.ndarray of int64

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> sample_discrete_laplace(2, rng, size=5).dtype
    dtype('int64')
    """
    rng = check_rng(rng)
    size = as_size(size)
    t, s = _laplace_parts(as_rational(scale, "scale"))
    n = 1 if size is None else int(np.prod(size))
    out = _first_successes(lambda k: _laplace_attempts(t, s, k, rng), n)
    return int(out[0]) if size is None else out.reshape(size)


def _gaussian_parts(sigma) -> tuple[int, int, int]:
    sigma2 = as_rational(sigma, "sigma") ** 2
    a, c = sigma2.numerator, sigma2.denominator
    t = math.isqrt(a // c) + 1                                   # floor(sigma) + 1, exactly
    if 2 * a * c * t * t > MAX_DENOMINATOR:
        raise ValueError(f"sigma = {sigma!r} gives sigma^2 = {sigma2}, too fine for int64 arithmetic: "
                         f"2 * {a} * {c} * (floor(sigma) + 1)^2 must be at most 2**56 "
                         f"(give sigma with fewer decimals; a whole sigma may be at most 13,776)")
    return a, c, t


@overload
def sample_discrete_gaussian(sigma: float | Fraction, rng: np.random.Generator, size: None = None) -> int: ...


@overload
def sample_discrete_gaussian(sigma: float | Fraction, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray: ...


def sample_discrete_gaussian(sigma: float | Fraction, rng: np.random.Generator, size: Size = None) -> int | np.ndarray:
    """Draw from the discrete Gaussian ``N_Z(0, sigma^2)``, ``P(k) ∝ exp(-k²/(2σ²))`` on the integers, exactly.

    Chapter: *Noise a computer can actually sample*.  Canonne, Kamath &
    Steinke (2020), Algorithm 3: with ``t = floor(σ) + 1``, draw ``Y ~ Lap_Z(t)``
    and keep it with probability ``exp(-(|Y| - σ²/t)² / (2σ²))``.  The
    acceptance probability's exponent is a rational number computed with
    Python integers, one per distinct ``|Y|``.

    Parameters
    ----------
    sigma : int, Fraction or float
        ``σ > 0``; a float is read as the decimal it prints as, and ``σ²`` is its exact square.
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    int or numpy.ndarray of int64
    """
    rng = check_rng(rng)
    size = as_size(size)
    a, c, t = _gaussian_parts(sigma)
    n = 1 if size is None else int(np.prod(size))
    out = _first_successes(lambda k: _gaussian_attempts(a, c, t, k, rng), n)
    return int(out[0]) if size is None else out.reshape(size)


def _gaussian_exponents(magnitude, a: int, c: int, t: int):
    """``exponent = (|y| - sigma^2/t)^2 / (2 sigma^2) = (|y| c t - a)^2 / (2 a c t^2)`` per entry, as its whole
    part and the numerator of the rest over ``2 a c t^2``: in int64 when every square fits, else with Python
    integers, one per distinct ``|y|``."""
    den = 2 * a * c * t * t
    top = int(magnitude.max()) if magnitude.size else 0
    if (top * c * t + a) ** 2 <= _INT64_MAX:
        square = (magnitude * (c * t) - a) ** 2
        return square // den, square % den
    values, where = np.unique(magnitude, return_inverse=True)
    parts = [divmod((int(v) * c * t - a) ** 2, den) for v in values]
    return (np.array([p[0] for p in parts], dtype=np.int64)[where],
            np.array([p[1] for p in parts], dtype=np.int64)[where])


def _gaussian_attempts(a: int, c: int, t: int, n: int, rng) -> np.ndarray:
    """n independent attempts of CKS Algorithm 3 for sigma^2 = a/c (t = floor(sigma) + 1): the values of those
    that succeed, in order.  An attempt is one attempt of Algorithm 2 for Lap_Z(t) (it fails where that one
    would start again) followed, on success, by the acceptance coin exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))."""
    y = _laplace_attempts(t, 1, n, rng)
    whole, num = _gaussian_exponents(np.abs(y), a, c, t)
    return y[_bernoulli_exp(whole, num, 2 * a * c * t * t, rng)]


def discrete_laplace_pmf(k: ArrayLike, scale: float) -> np.ndarray:
    """``P(Y = k)`` for ``Y ~ Lap_Z(b)``: ``tanh(1/(2b)) exp(-|k|/b)`` (= ``(e^{1/b} - 1)/(e^{1/b} + 1) e^{-|k|/b}``).

    Chapter: *Noise a computer can actually sample*.

    Examples
    --------
    >>> round(float(discrete_laplace_pmf(0, 2)), 6)
    0.244919
    """
    b = float(as_rational(scale, "scale"))
    k = np.asarray(k, dtype=float)
    return np.tanh(0.5 / b) * np.exp(-np.abs(k) / b)


def _gaussian_weights(sigma: float, reach: int) -> tuple[np.ndarray, float]:
    ks = np.arange(-reach, reach + 1, dtype=float)
    w = np.exp(-ks ** 2 / (2 * sigma ** 2))
    return ks, float(w.sum())


def discrete_gaussian_pmf(k: ArrayLike, sigma: float) -> np.ndarray:
    """``P(Y = k)`` for ``Y ~ N_Z(0, σ²)``: ``exp(-k²/(2σ²))`` over its sum on the integers.

    Chapter: *Noise a computer can actually sample*.  The normalising sum is
    taken over ``|j| <= 40σ + 40`` (the terms left out are below ``e^{-800}``).
    """
    s = float(as_rational(sigma, "sigma"))
    _, total = _gaussian_weights(s, int(40 * s) + 40)
    k = np.asarray(k, dtype=float)
    return np.exp(-k ** 2 / (2 * s ** 2)) / total


def discrete_gaussian_delta(epsilon: float, sigma: float | Fraction, sensitivity: int = 1) -> float:
    """The exact δ of the discrete Gaussian mechanism at ε, for an integer query of sensitivity Δ.

    Chapter: *Noise a computer can actually sample*.  The privacy-loss
    profile of ``N_Z(0, σ²)`` against ``N_Z(Δ, σ²)`` (Canonne, Kamath &
    Steinke 2020, Theorem 7 of arXiv 2004.00010v3, as their reference code
    ``cdp2adp.py`` cites it; cited from the statement)::

        δ = P[Y > εσ²/Δ - Δ/2] - e^ε P[Y > εσ²/Δ + Δ/2],   Y ~ N_Z(0, σ²)

    with the tails summed over the integers; ``tests/package/test_floating.py``
    checks it against ``Σ_k max(0, p(k) - e^ε p'(k))`` summed directly.
    """
    epsilon = float(as_rational(epsilon, "epsilon"))
    delta_f = as_int(sensitivity, "sensitivity", minimum=1)
    s = float(as_rational(sigma, "sigma"))
    ks, total = _gaussian_weights(s, int(40 * s) + 40 + 2 * delta_f + int(epsilon * s * s / delta_f))
    p = np.exp(-ks ** 2 / (2 * s ** 2)) / total
    c = epsilon * s * s / delta_f

    def tail(threshold):
        return float(p[ks > threshold].sum())
    return max(0.0, tail(c - delta_f / 2) - math.exp(epsilon) * tail(c + delta_f / 2))


def discrete_laplace_mechanism(value: ArrayLike, sensitivity: int, epsilon: float | Fraction, rng: np.random.Generator,
                               size: Size = None) -> int | np.ndarray:
    """Release ``value + Lap_Z(Δ/ε)`` for an integer-valued query: ε-DP when Δ is its global sensitivity.

    Chapter: *Noise a computer can actually sample* (the proof is in the
    chapter: the ratio of the two probabilities of any integer output is at
    most ``exp(Δ/b) = e^ε``).

    Parameters
    ----------
    value : int or array_like of int
        The exact answer(s); whole-number floats are accepted, others raise.
    sensitivity : int
        Δ, the global sensitivity of the integer query, ``>= 1``.
    epsilon : int, Fraction or float
        ``> 0``; a float is read as the decimal it prints as.
    rng : numpy.random.Generator
    size : int or tuple, optional
        Independent releases of a scalar ``value``.

    Returns
    -------
    int or numpy.ndarray of int64

    Raises
    ------
    TypeError, ValueError
        On a non-integer ``value`` or ``sensitivity``, ``epsilon <= 0``, or a bad ``rng``.
    """
    value = as_integer_values(value)
    delta_f = as_int(sensitivity, "sensitivity", minimum=1)
    scale = delta_f / as_rational(epsilon, "epsilon")
    return _release(value, sample_discrete_laplace, scale, rng, size)


def discrete_gaussian_mechanism(value: ArrayLike, sensitivity: int, sigma: float | Fraction, rng: np.random.Generator,
                                size: Size = None) -> int | np.ndarray:
    """Release ``value + N_Z(0, σ²)`` for an integer-valued query of sensitivity Δ: ρ-zCDP with ρ = Δ²/(2σ²).

    Chapter: *Noise a computer can actually sample*.  Canonne, Kamath &
    Steinke (2020) (cited from the statement of their concentrated-DP theorem
    for the discrete Gaussian); its (ε, δ) is :func:`discrete_gaussian_delta`,
    and :func:`dpsens.mechanisms.gaussian_rho` gives ρ.

    Parameters
    ----------
    value : int or array_like of int
    sensitivity : int
        Δ ``>= 1`` (checked; the noise itself does not depend on it).
    sigma : int, Fraction or float
        σ ``> 0``.
    rng : numpy.random.Generator
    size : int or tuple, optional

    Returns
    -------
    int or numpy.ndarray of int64
    """
    value = as_integer_values(value)
    as_int(sensitivity, "sensitivity", minimum=1)
    return _release(value, sample_discrete_gaussian, sigma, rng, size)


def _release(value, sampler, parameter, rng, size):
    """``value`` plus integer noise from ``sampler(parameter, rng, size)``: one draw per entry of
    ``value`` unless ``size`` says otherwise; a plain ``int`` for a scalar release."""
    rng = check_rng(rng)
    size = as_size(size)
    if size is None:
        size = np.shape(value) or None
    out = value + sampler(parameter, rng, size)
    return int(out) if np.ndim(out) == 0 else out
