"""Deprecated aliases of renamed public names, so that saved notebooks keep working.

No chapter uses these names any more; they keep readers' notebooks and the
student handouts of earlier editions working (*Neighbouring datasets*,
*Sensitivity of transformations*).  Code identifiers use one spelling,
``neighbor`` (the ``neighbors=`` keyword is the published contract); calling
an old name works, with a :class:`DeprecationWarning` naming the new one.
"""
from __future__ import annotations

import functools
import warnings

__all__ = ["renamed"]


def renamed(func, old_name: str):
    """``func`` under its old name ``old_name``, warning on every call that it was renamed.

    The alias has the attribute ``renamed_to`` (the new name), so that code
    listing public functions (e.g. the exercise checkers' tests) can skip it.

    Chapter: none (see the module docstring).

    Examples
    --------
    >>> import warnings
    >>> def new(x):
    ...     return 2 * x
    >>> old = renamed(new, "old")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old(3), str(caught[0].message)
    (6, 'old was renamed to new; old will be removed in a future edition')
    """
    @functools.wraps(func)
    def alias(*args, **kwargs):
        warnings.warn(f"{old_name} was renamed to {func.__name__}; {old_name} will be removed in a future edition",
                      DeprecationWarning, stacklevel=2)
        return func(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    alias.__doc__ = f"Deprecated alias of :func:`{func.__name__}` (same arguments)."
    alias.renamed_to = func.__name__
    return alias
