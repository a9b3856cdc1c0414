"""Caches kept by the identity of the value they were read from.

Successive states of a deal share most of their records (a turn, a meld, a card tuple)
until a move changes one, so a result read from a record is found again by the record's
``id``, without hashing it (a cache by value hashes every field or every card each time).
"""

from __future__ import annotations

from typing import Any, TypeVar

_V = TypeVar("_V")


def keep(kept: dict[int, tuple[Any, _V]], value: Any, found: _V, most: int) -> _V:
    """Keep ``found``, read from ``value``, in ``kept`` by the identity of ``value`` (the
    dictionary emptied first once it holds ``most`` entries); returns ``found``.

    Look an entry up with ``kept.get(id(value))``: the entry holds ``value``, so no other
    object can have its id while it is kept, and a value found by its id is the one kept.
    """
    if len(kept) >= most:
        kept.clear()
    kept[id(value)] = (value, found)
    return found
