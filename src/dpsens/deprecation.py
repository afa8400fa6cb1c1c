"""Deprecated aliases of renamed or moved public names and keywords, so that saved notebooks keep working.

No chapter uses these names any more; they keep readers' notebooks and the
student handouts of earlier editions working (*Neighbouring datasets*,
*Sensitivity of transformations*, *Differential privacy in one chapter*,
*Sample and aggregate*).  Code identifiers use one spelling, ``neighbor``
(the ``neighbors=`` keyword is the published contract); calling an old name
works, with a :class:`DeprecationWarning` naming the new one.  Names that
moved to another module (the figures, now all in :mod:`dpsens.figures`; the
sample-and-aggregate helpers, now in :mod:`dpsens.mechanisms.sample_aggregate`)
keep working from their old module through :func:`moved`; an old keyword
argument through :func:`renamed_keyword`; an old attribute through
:func:`renamed_attribute`.
"""
from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Mapping

__all__ = ["renamed", "renamed_attribute", "moved", "renamed_keyword"]


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


def renamed_attribute(new_name: str, old_name: str) -> property:
    """A read-only property ``old_name`` that gives attribute ``new_name``, warning that it was renamed.

    Chapter: none (see the module docstring).  Put it in the class body:
    ``old_name = renamed_attribute("new_name", "old_name")``.

    Examples
    --------
    >>> import warnings
    >>> class Grid:
    ...     neighbor_datasets = ((1,), (2,))
    ...     neighbours = renamed_attribute("neighbor_datasets", "neighbours")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Grid().neighbours, str(caught[0].message)
    (((1,), (2,)), 'neighbours was renamed to neighbor_datasets; neighbours will be removed in a future edition')
    """
    def getter(self):
        warnings.warn(f"{old_name} was renamed to {new_name}; {old_name} will be removed in a future edition",
                      DeprecationWarning, stacklevel=2)
        return getattr(self, new_name)

    return property(getter, doc=f"Deprecated name of :attr:`{new_name}`.")


def moved(old_module: str, new_homes: Mapping[str, str]):
    """A module ``__getattr__`` serving names that moved out of ``old_module``, warning on each use.

    Chapter: none (see the module docstring).  The old module assigns the
    result to its ``__getattr__`` (PEP 562): ``old_module.name`` and ``from
    old_module import name`` then give the object that now lives at
    ``new_homes[name]``, with a :class:`DeprecationWarning` naming the new
    home.  The new module is imported only when an old name is used.

    Parameters
    ----------
    old_module : str
        The old module's name (its ``__name__``).
    new_homes : dict
        ``{old name: "dpsens.new.module.new_name"}``; the new name may differ
        from the old one.

    Examples
    --------
    >>> import warnings
    >>> getattr_ = moved("dpsens.old", {"sqrt": "math.sqrt"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     getattr_("sqrt")(9.0), str(caught[0].message)
    (3.0, 'dpsens.old.sqrt moved to math.sqrt; the old name will be removed in a future edition')
    """
    homes = dict(new_homes)
    bad = [target for target in homes.values() if not isinstance(target, str) or "." not in target]
    if bad:
        raise ValueError(f"new_homes must map names to dotted paths 'module.name', got {bad}")

    def __getattr__(name: str):
        if name not in homes:
            raise AttributeError(f"module {old_module!r} has no attribute {name!r}")
        module, _, attr = homes[name].rpartition(".")
        warnings.warn(f"{old_module}.{name} moved to {homes[name]}; the old name will be removed in a future edition",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), attr)

    return __getattr__


def renamed_keyword(old: str, new: str):
    """Decorator: the keyword argument ``old`` of the function still works, as ``new``, with a warning.

    Passing both is a :class:`TypeError`.  The decorated function keeps its
    signature (``inspect.signature`` shows ``new`` only).

    Chapter: none (see the module docstring).

    Examples
    --------
    >>> import warnings
    >>> @renamed_keyword("neighbour_value", "neighbor_value")
    ... def gap(value, neighbor_value):
    ...     return neighbor_value - value
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     gap(1.0, neighbour_value=4.0), str(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    (3.0, 'gap(): the keyword neighbour_value= was renamed to neighbor_value=;
     neighbour_value= will be removed in a future edition')
    """
    if not (isinstance(old, str) and old.isidentifier() and isinstance(new, str) and new.isidentifier()):
        raise ValueError(f"old and new must be keyword names, got old={old!r}, new={new!r}")

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{func.__name__}() got both {old}= and {new}=; pass {new}= only")
                warnings.warn(f"{func.__name__}(): the keyword {old}= was renamed to {new}=; "
                              f"{old}= will be removed in a future edition", DeprecationWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper

    return decorate
