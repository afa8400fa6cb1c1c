"""The neighbour relation as a type: :class:`Relation`.

Chapter: *Neighbouring datasets* defines the relations; every chapter after it
passes one as ``neighbors=``.  A relation is written by readers as a string
(``"unbounded"``, ``"bounded"``, ``"symmetric"``) or as a member of
:class:`Relation`; the public functions convert it once, with
:func:`as_relation`, and the code below them compares members
(``neighbors is Relation.BOUNDED``), never strings.
"""
from __future__ import annotations

from enum import StrEnum

__all__ = ["Relation", "as_relation", "RELATIONS", "EXACT_RELATIONS"]


class Relation(StrEnum):
    """A neighbour relation at group size ``k`` (see *Neighbouring datasets*).

    * ``UNBOUNDED`` (``"unbounded"``, add/remove): exactly ``k`` records removed,
      or exactly ``k`` added; the size ``n`` is private.
    * ``BOUNDED`` (``"bounded"``, replace-one): ``k`` removed and ``k`` added; the
      size ``n`` is public.
    * ``SYMMETRIC`` (``"symmetric"``): any mix of at most ``k`` additions and
      removals in all (the exact sensitivity engines only).

    A member equals its string (``Relation.BOUNDED == "bounded"``), so a reader
    may pass either.
    """

    UNBOUNDED = "unbounded"
    BOUNDED = "bounded"
    SYMMETRIC = "symmetric"


#: The relations of the mechanisms and of most functions: add/remove and replace-one.
RELATIONS: tuple[Relation, ...] = (Relation.UNBOUNDED, Relation.BOUNDED)

#: The relations of the exact sensitivity engines: the two above and "symmetric".
EXACT_RELATIONS: tuple[Relation, ...] = RELATIONS + (Relation.SYMMETRIC,)


def as_relation(neighbors: Relation | str, allowed: tuple[Relation, ...] = RELATIONS) -> Relation:
    """Return ``neighbors`` as a :class:`Relation` if it is one of ``allowed``, else raise.

    Parameters
    ----------
    neighbors : Relation or str
        ``"unbounded"``, ``"bounded"`` (or ``"symmetric"`` where allowed), or the
        member of :class:`Relation` of that name.
    allowed : tuple of Relation
        The relations the caller supports (default: unbounded and bounded).

    Returns
    -------
    Relation

    Raises
    ------
    ValueError
        If ``neighbors`` is not the name of an allowed relation; the message
        lists the valid names.
    """
    if isinstance(neighbors, str):
        try:
            relation = Relation(neighbors)
        except ValueError:
            relation = None
        if relation in allowed:
            return relation
    names = ", ".join(repr(r.value) for r in allowed)
    raise ValueError(f"neighbors must be one of ({names}), got {neighbors!r}")
