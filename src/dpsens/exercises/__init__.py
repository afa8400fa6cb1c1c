"""Checkers for the book's exercises, one module per chapter.

Each module is named like the package module of its chapter's concept
(``neighbors``, ``local``, ``globalsens``, ``proportions``, ``transformations``,
``ptr``, ``smooth``, ``sample_aggregate``, ``exponential``, ``vector``) or, where there is none, like the
chapter's file (``leak``, ``median_grid``).

Chapter: *For teachers*.  Every ``check_...`` function returns a
:class:`Verdict` -- "correct", "wrong" (with a hint) or "not yet" for the
``...`` placeholder of a student notebook -- and never reveals the answer.
"""
from ._verdict import Verdict, is_placeholder
from .dp import *  # noqa: F401,F403
from .neighbors import *  # noqa: F401,F403  (check_... functions of the chapter)
from .proportions import *  # noqa: F401,F403
from .leak import *  # noqa: F401,F403
from .median_grid import *  # noqa: F401,F403
from .globalsens import *  # noqa: F401,F403
from .local import *  # noqa: F401,F403
from .transformations import *  # noqa: F401,F403
from .sample_aggregate import *  # noqa: F401,F403
from .ptr import *  # noqa: F401,F403
from .smooth import *  # noqa: F401,F403
from .exponential import *  # noqa: F401,F403
from .vector import *  # noqa: F401,F403
