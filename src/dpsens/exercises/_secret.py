"""How a checker recognises an answer it cannot read: salted, slow hashes of tolerance buckets.

Chapter: *For teachers* (grading and the answer key) explains the scheme; the
checkers of every chapter use it through :func:`judge`.

The student package holds no expected value, only, for each exercise, a salt
and the hashes of the *tokens* a correct answer (and each known slip) can
produce.  A token is the answer made discrete by a **scheme**:

``("int",)``
    a whole number: ``"i17"`` (5, 5.0 and ``"5"`` give the same token);
``("rel", r)``
    a real number, in buckets of width ``r/8`` on a logarithmic scale
    (``floor(ln|x| / (r/8))`` and the sign).  The key stores every bucket that
    meets ``[v e^{-r}, v e^{r}]``, so every answer within the relative
    tolerance ``r`` of the true value ``v`` is accepted, and nothing more than
    ``1.125 r`` away is (a bucket is accepted whole);
``("abs", a)``
    the same on a linear scale: buckets of width ``a/8``, every answer within
    ``a`` accepted (an answer asked "to two decimals");
``("set",)``
    a collection of datasets, order and repeats ignored: the sorted tuple of
    sorted float tuples, as text.

A token is hashed with PBKDF2-HMAC-SHA256 (:data:`ITERATIONS` rounds, the
exercise's salt), so reading the key gives nothing but hashes, and guessing
offline costs :data:`ITERATIONS` SHA-256 rounds per guess.  Guessing inside a
session is capped: after :data:`MAX_TRIES` *different* wrong answers an
exercise's checker stops answering (a correct answer included) until the
kernel restarts, and no message says "too small" or "too large", so a loop
over candidates learns nothing after the cap.  This is a **practice key,
brute-forceable by design**: the count of tries lives in the student's own
kernel (a restart, or clearing it, starts it afresh), and an offline search
costs about 8 ms a guess, so an answer with few plausible values (a count of
5; a value with 3 significant figures) is found in minutes.  It protects
against a glance, not a search.  Graded work never uses it: a graded
assignment ships no key, and ``tools/grade.py`` computes each student's
expected values at grading time.
"""
from __future__ import annotations

import hashlib
import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["ITERATIONS", "MAX_TRIES", "SUBDIVISIONS", "ZERO", "digest", "token", "tokens_near", "judge"]

#: PBKDF2 rounds per hashed token: about 25 ms on a laptop, so a checker
#: answers at once while guessing 10,000 candidates offline costs minutes.
ITERATIONS = 10_000
#: Distinct wrong answers an exercise's checker takes per session.
MAX_TRIES = 30
#: Bucket width as a fraction of the tolerance.
SUBDIVISIONS = 8
#: Numbers smaller than this in magnitude are the token "0".
ZERO = 1e-12

_tries: dict[str, set[str]] = {}


def digest(salt: str, token: str) -> str:
    """The hash of ``token`` under ``salt``, as 16 hex digits."""
    return hashlib.pbkdf2_hmac("sha256", token.encode(), bytes.fromhex(salt), ITERATIONS).hex()[:16]


def _finite(value) -> float | None:
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, str):
        value = value.strip()
    elif isinstance(value, np.ndarray):
        if value.ndim != 0:
            return None
    elif not isinstance(value, (numbers.Real, np.generic)):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return x if math.isfinite(x) else None


def _bucket(x: float, scheme) -> int:
    width = scheme[1] / SUBDIVISIONS
    if scheme[0] == "rel":
        return math.floor(math.log(abs(x)) / width)
    return math.floor(x / width)


def token(value: Any, scheme: Sequence) -> str | None:
    """The token of a student's ``value`` under ``scheme`` (None when it has not that form)."""
    kind = scheme[0]
    if kind == "set":
        try:
            items = sorted({tuple(sorted(float(v) for v in d)) for d in value})
        except (TypeError, ValueError):
            return None
        return "s" + repr(items)
    x = _finite(value)
    if x is None:
        return None
    if kind == "int":
        k = round(x)
        return f"i{k}" if abs(x - k) <= 1e-9 * max(1.0, abs(x)) else None
    if kind == "abs":
        return f"a{_bucket(x, scheme)}"
    if abs(x) <= ZERO:
        return "r0"
    return f"r{'-' if x < 0 else '+'}{_bucket(x, scheme)}"


def tokens_near(value: Any, scheme: Sequence) -> list[str]:
    """Every token an answer within the tolerance of ``value`` can have (used to write the key)."""
    kind = scheme[0]
    if kind in ("set", "int"):
        only = token(value, scheme)
        if only is None:
            raise ValueError(f"{value!r} has no token under the scheme {scheme!r}")
        return [only]
    x = float(value)
    if kind == "abs":
        return [f"a{b}" for b in range(_bucket(x - scheme[1], scheme), _bucket(x + scheme[1], scheme) + 1)]
    if abs(x) <= ZERO:
        return ["r0"]
    width = scheme[1] / SUBDIVISIONS
    first = math.floor((math.log(abs(x)) - scheme[1]) / width)
    last = math.floor((math.log(abs(x)) + scheme[1]) / width)
    return [f"r{'-' if x < 0 else '+'}{b}" for b in range(first, last + 1)]


def judge(entry: dict, name: str, value: object) -> str | None:
    """Which of ``entry``'s outcomes ``value`` matches: ``"answer"``, a slip's name, ``"limit"``
    (the session's tries are used up) or None (wrong, and no known slip).

    ``entry`` is one exercise of the key: ``{"salt": hex, "answer": [scheme, [hashes]],
    "slips": {slip: [scheme, [hashes]]}}``; ``name`` identifies the exercise for the cap on tries.
    """
    tried = _tries.setdefault(name, set())
    if len(tried) >= MAX_TRIES:
        return "limit"
    outcomes = [("answer", entry["answer"])] + list(entry.get("slips", {}).items())
    cache: dict[tuple, str | None] = {}
    first = None
    for outcome, (scheme, hashes) in outcomes:
        scheme = tuple(scheme)
        if scheme not in cache:
            t = token(value, scheme)
            cache[scheme] = None if t is None else digest(entry["salt"], t)
            first = first or t
        if cache[scheme] is not None and cache[scheme] in hashes:
            return outcome
    if first is not None:
        tried.add(first)
    return None

