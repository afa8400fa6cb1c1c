"""Checkers for the book's exercises, one module per chapter.

Each module is named like the package module of its chapter's concept
(``dp``, ``neighbors``, ``local``, ``globalsens``, ``proportions``,
``transformations``, ``ptr``, ``smooth``, ``sample_aggregate``,
``exponential``, ``vector``, ``accuracy``, ``accounting``) or, where there
is none, like the chapter's file (``leak``, ``median_grid``, ``stability``,
``floating``).

Chapter: *For teachers*.  Every ``check_...`` function returns a
:class:`Verdict` -- "correct", "wrong" (with a hint) or "not yet" for the
``...`` placeholder of a student notebook -- and never reveals the answer.

**No answer is in this package.**  A checker holds the *name* of its
exercise's entry in the hashed key :mod:`._key`; the key holds, per exercise,
a salt and the PBKDF2 hashes of every tolerance bucket a correct answer (or a
known slip, which gets its own hint) can fall in.  Why buckets: a hash
recognises only exact tokens, so a real answer is made discrete first --
buckets of width 1/8 of the tolerance on a log scale, and the key lists every
bucket that meets the tolerance interval, so every correct form (3 or 4
significant figures, the exact fraction, a simulation) is accepted and
nothing more than 1.125 times the tolerance away.  Whole numbers and sets of
datasets are hashed as canonical text.  Verdicts never say "too small" or
"too large" (no bisection), and a checker stops answering after 30 different
wrong answers in a session (no search loops).  Details and limits:
:mod:`._secret`.  The expected values live in the teacher's registry
``tools/answer_key.py``, which is not shipped in the wheel.

**Recipe: writing a checker** (every checker follows it):

1. put the computation of the expected value (and of any known slip's value)
   into a function of ``tools/answer_key.py`` decorated with
   ``@exercise("<name>")`` that returns ``Key(expected, scheme, {"<slip>":
   value})``; scheme ``INT`` for a whole number, ``EXACT`` for round-off only,
   ``REL3`` for 0.5 %, ``abs_(a)`` for "within a",
   ``SET`` for a collection of datasets;
2. make the checker's body ``return check_key(answer, "<name>", what,
   hint, {"<slip>": (message, hint)})``, after the checks of the answer's
   form (lengths, domains) that do not need the expected value; the
   docstring states no expected value;
3. run ``python tools/answer_key.py write`` and commit ``_key.py``;
   ``tests/book/test_answer_leaks.py`` fails on a checker that holds its answer.

**Practice, not grading.**  The hashed key is a practice key: it keeps an
answer from a glance, not from a search (about 8 ms a guess offline).  Graded
work does not use it: a graded assignment's answer cells call
:func:`hand_in`, which only records the answer (:mod:`.handin`); the
instructor's ``tools/grade.py`` judges the records after the deadline, with
a key computed then for each student's own numbers (:mod:`.variants`:
:func:`your_numbers`, :func:`student_seed`).
"""
from ._verdict import Verdict, is_placeholder, use_variant
from .variants import VARIANTS, student_seed, variant_params, variant_text, your_numbers
from .handin import hand_in
from .dp import *  # noqa: F403
from .neighbors import *  # noqa: F403  (check_... functions of the chapter)
from .proportions import *  # noqa: F403
from .leak import *  # noqa: F403
from .median_grid import *  # noqa: F403
from .globalsens import *  # noqa: F403
from .local import *  # noqa: F403
from .transformations import *  # noqa: F403
from .sample_aggregate import *  # noqa: F403
from .ptr import *  # noqa: F403
from .smooth import *  # noqa: F403
from .exponential import *  # noqa: F403
from .vector import *  # noqa: F403
from .accuracy import *  # noqa: F403
from .accounting import *  # noqa: F403
from .stability import *  # noqa: F403
from .floating import *  # noqa: F403

from . import (accounting, accuracy, dp, exponential, floating, globalsens, leak, local, median_grid,
               neighbors, proportions, ptr, sample_aggregate, smooth, stability, transformations, vector)

#: every checker, and what a notebook uses from the modules above (``ds.exercises.<name>``)
__all__ = ["Verdict", "is_placeholder", "use_variant", "VARIANTS", "student_seed", "variant_params", "variant_text",
           "your_numbers", "hand_in"] + [name for chapter in (
               dp, neighbors, proportions, leak, median_grid, globalsens, local, transformations, sample_aggregate, ptr,
               smooth, exponential, vector, accuracy, accounting, stability, floating) for name in chapter.__all__]
