"""The cards on the table: melds, and the per-turn bookkeeping of the player to move.

These are plain frozen values; the engine (`canasta.engine`) decides how they change.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from canasta.cards import CARDS, JOKER, RANKS, THREE, TWO, card_value, is_wild

#: ``Meld.rank`` of a wild-card meld (spec §3.5.3, D1); it is written ``*`` in moves.
WILD_RANK = TWO


@attrs.frozen
class Meld:
    """A side's meld: its rank and its cards (engine codes, sorted).

    ``rank`` is a natural rank index (A, 4..K), `THREE` for the black
    threes of a going-out meld, or `WILD_RANK` for a meld of wild cards only.
    """

    rank: int
    codes: tuple[int, ...]
    naturals: int
    wilds: int
    #: the number of cards (stored: the engine reads it for every candidate move)
    size: int = attrs.field(init=False, eq=False, repr=False)
    #: seven or more cards (spec §2.5); never the black-three meld
    is_canasta: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        size = len(self.codes)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "is_canasta", size >= 7 and self.rank != THREE)

    @classmethod
    def of(cls, rank: int, codes: tuple[int, ...]) -> Meld:
        wilds = sum(1 for c in codes if is_wild(c))
        if rank == WILD_RANK:
            return cls(rank, codes, 0, wilds)
        return cls(rank, codes, len(codes) - wilds, wilds)

    def plus(self, codes: tuple[int, ...]) -> Meld:
        """This meld with more cards."""
        wilds = sum(1 for c in codes if is_wild(c))
        naturals = 0 if self.rank == WILD_RANK else len(codes) - wilds
        return Meld(
            self.rank,
            tuple(sorted(self.codes + codes)),
            self.naturals + naturals,
            self.wilds + wilds,
        )

    @property
    def is_natural(self) -> bool:
        return self.wilds == 0

    @property
    def is_wild_meld(self) -> bool:
        return self.rank == WILD_RANK

    @property
    def value(self) -> int:
        return sum(card_value(c) for c in self.codes)

    @property
    def jokers(self) -> int:
        return self.codes.count(JOKER)

    @property
    def rank_text(self) -> str:
        """The rank as written in ``add:R+...`` (``*`` for the wild meld)."""
        return "*" if self.rank == WILD_RANK else RANKS[self.rank]

    def __str__(self) -> str:
        return " ".join(str(CARDS[c]) for c in self.codes)


@attrs.frozen
class Group:
    """Cards of one rank that the player to move melded this turn (``meld:``/``take:``).

    Spec §2.10 (concealed: each own group is a valid meld alone) and §3.5.4 (the initial
    meld's content) look at these groups.
    """

    rank: int
    naturals: int
    wilds: int
    #: every card came from the hand (not the pile's top card)
    from_hand: bool


@attrs.frozen(slots=False)
class Turn:
    """Progress of the current turn (reset when a turn begins)."""

    took_pile: bool = False
    #: value counted toward the side's initial meld so far (while it is not opened)
    opening: int = 0
    #: pile cards that join the hand once the initial meld is complete (spec §2.8)
    waiting: tuple[int, ...] = ()
    groups: tuple[Group, ...] = ()
    #: a card was laid off on a meld the player did not make this turn (spec §2.10)
    laid_off: bool = False
    #: a meld or lay-off was made after the draw phase
    melded: bool = False
    asked: bool = False
    #: partner's answer, None until asked
    permission: bool | None = None
    #: the player must go out this turn (partner said yes, or black threes were melded)
    must_go_out: bool = False
    #: a three was drawn as the last stock card: no discard (spec §2.12, D11)
    no_discard: bool = False


NEW_TURN = Turn()

# Phases of a turn (api.md §4).
DRAW, PLAY, ANSWER, OVER = "draw", "play", "answer", "over"


_T = TypeVar("_T")
_RESET: dict[type, dict[str, None]] = {}
_set_attr = object.__setattr__  # past the frozen classes' __setattr__


def evolve(inst: _T, **changes: Any) -> _T:
    """A copy of a frozen attrs value (a class with ``slots=False``) with ``changes``.

    Like ``attrs.evolve`` but much cheaper: it copies the instance dictionary instead of
    running ``__init__`` (no validators run; fields with ``init=False``, the caches, are
    reset to None). The engine calls it on every move.
    """
    cls = type(inst)
    reset = _RESET.get(cls)
    if reset is None:
        reset = {f.name: None for f in attrs.fields(cls) if not f.init}  # type: ignore[arg-type]
        _RESET[cls] = reset
    # One dict display builds the copy: 5% fewer instructions per decision than copy() and two
    # update() calls (measured with callgrind).
    data = {**inst.__dict__, **changes, **reset}
    new = object.__new__(cls)
    # A plain dict set as the instance dictionary: filling the key-sharing dict that
    # object.__new__ makes would cost a lookup per key.
    _set_attr(new, "__dict__", data)
    return new
