"""Cards and their notation.

Inside the engine a card is a small integer *code*: ``rank * 4 + suit`` for suited cards
and `JOKER` for the joker. `Card` is the public value built from a code.
Ranks are indexed in notation order ``A 2 3 4 5 6 7 8 9 T J Q K``; the joker has rank 13.
"""
# api.md §1, spec §0.1 and §1.2.

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import attrs

from canasta._input import excerpt
from canasta.errors import NotationError

__all__ = ["Card", "parse_cards"]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER_RANK = 13
JOKER = 52
ACE, TWO, THREE, SEVEN = 0, 1, 2, 6
#: The natural ranks of a meld, spec §0.2: A and 4 to K.
NATURAL_RANKS: tuple[int, ...] = (0, *range(3, 13))

#: Card values by rank index, spec §1.2 (a red three's value is the variant's option D19).
RANK_VALUES: tuple[int, ...] = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
#: Codes of the red threes (3H, 3D) and of the black threes (3S, 3C), spec §2.6.
RED_THREES: frozenset[int] = frozenset({THREE * 4 + 1, THREE * 4 + 2})
BLACK_THREES: frozenset[int] = frozenset({THREE * 4, THREE * 4 + 3})


def is_wild(code: int) -> bool:
    """True for twos and jokers."""
    # Spec §1.1.
    return code == JOKER or code >> 2 == TWO


def card_value(code: int) -> int:
    """Point value of a card; red threes count 0 here, see the variant."""
    # Spec §1.2.
    if code in RED_THREES:
        return 0
    return RANK_VALUES[code >> 2]


def _check_rank(_card: Card, _attribute: attrs.Attribute[str], rank: object) -> None:
    if not isinstance(rank, str) or len(rank) != 1 or rank not in RANKS + "*":
        raise NotationError(f"a card's rank is one of {RANKS} or '*', got {excerpt(rank)}")


def _check_suit(card: Card, _attribute: attrs.Attribute[str | None], suit: object) -> None:
    if suit is None:
        return
    if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
        raise NotationError(f"a card's suit is one of {SUITS} or None, got {excerpt(suit)}")
    if card.rank == "*":
        raise NotationError(f"a joker has no suit, got {suit!r}")


@attrs.frozen(repr=False, order=False)
class Card:
    """A playing card: a rank letter and a suit letter, or the joker ``*``.

    ``suit`` is ``None`` for the joker and for a *rank pattern* (a rank without a suit),
    which only moves may contain. Anything else (``Card("X", "S")``) raises
    `NotationError`.
    """

    rank: str = attrs.field(validator=_check_rank)
    suit: str | None = attrs.field(default=None, validator=_check_suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"KH"``, ``"10s"``, ``"*"`` or ``"JK"``."""
        cards = _parse(text, patterns=False)
        if len(cards) != 1:
            raise NotationError(f"expected one card, got {text!r}")
        return cards[0]

    @property
    def is_joker(self) -> bool:
        return self.rank == "*"

    @property
    def is_wild(self) -> bool:
        return self.rank in "*2"

    @property
    def is_pattern(self) -> bool:
        """A rank without a suit (allowed in moves only)."""
        return self.suit is None and self.rank != "*"

    @property
    def code(self) -> int:
        """The engine's integer code; a pattern has none."""
        if self.rank == "*":
            return JOKER
        if self.suit is None:
            raise ValueError(f"rank pattern {self} has no card code")
        return RANKS.index(self.rank) * 4 + SUITS.index(self.suit)

    @property
    def rank_index(self) -> int:
        return JOKER_RANK if self.rank == "*" else RANKS.index(self.rank)

    @property
    def value(self) -> int:
        """Point value; a red three counts 0 (its value is the variant's option
        ``red_three_card_value``)."""
        # Spec §1.2, D19.
        if self.suit is None:
            return RANK_VALUES[self.rank_index]
        return card_value(self.code)

    def __str__(self) -> str:
        return self.rank + (self.suit or "")

    def __repr__(self) -> str:
        if self.is_pattern:
            return f"Card({self.rank!r})"  # a rank pattern has no text of its own to parse
        return f"Card.parse({str(self)!r})"


def _card(code: int) -> Card:
    if code == JOKER:
        return Card("*")
    return Card(RANKS[code >> 2], SUITS[code & 3])


#: Interned public cards by code.
CARDS: tuple[Card, ...] = tuple(_card(c) for c in range(53))
#: The code of each card of `CARDS`, by its identity (they live as long as the module).
_CODE_OF: dict[int, int] = {id(card): code for code, card in enumerate(CARDS)}
#: Interned rank patterns (suitless cards) by rank letter, for moves.
RANK_PATTERNS: dict[str, Card] = {rank: Card(rank) for rank in RANKS}

# Card text: "JK" is the joker's other name where every card has a suit (card strings);
# in move text a rank may stand alone, so there "JK" is a jack and a king (`_MOVE_TOKEN`).
_TOKEN = re.compile(r"\s*(10|[Jj][Kk]|\*|[A2-9TJQKatjqk])([SHDCshdc]?)")
_MOVE_TOKEN = re.compile(r"\s*(10|\*|[A2-9TJQKatjqk])([SHDCshdc]?)")


def _parse(text: str, *, patterns: bool) -> tuple[Card, ...]:
    """The cards of ``text``; ``patterns`` allows rank patterns (the move notation)."""
    if not isinstance(text, str):
        raise NotationError(f"card text must be a string, got {excerpt(text)}")
    token = _MOVE_TOKEN if patterns else _TOKEN
    cards: list[Card] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = token.match(stripped, pos)
        if m is None:
            raise NotationError(
                f"bad card text {excerpt(text)}: {_blamed(stripped, pos)} is not a rank "
                "(A, 2 to 10, J, Q, K) or the joker (*)"
            )
        rank, suit = m.group(1).upper(), m.group(2).upper()
        if rank in ("JK", "*"):
            if suit:
                raise NotationError(f"a joker has no suit in {excerpt(text)}")
            cards.append(CARDS[JOKER])
        else:
            rank = "T" if rank == "10" else rank
            if suit:
                cards.append(CARDS[RANKS.index(rank) * 4 + SUITS.index(suit)])
            elif patterns:
                cards.append(RANK_PATTERNS[rank])
            elif m.end() < len(stripped) and token.match(stripped, m.end()) is None:
                # "KX": the X is what is wrong, not the K.
                raise NotationError(
                    f"bad card text {excerpt(text)}: {_blamed(stripped, m.end())} is not a "
                    "suit (S, H, D or C)"
                )
            else:
                raise NotationError(f"card without a suit in {excerpt(text)}: {rank!r}")
        pos = m.end()
    return tuple(cards)


def _blamed(text: str, pos: int) -> str:
    """The character at ``pos`` of ``text`` (spaces skipped) and where it is, for a message."""
    while text[pos].isspace():
        pos += 1
    return f"{text[pos]!r} at position {pos}"


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a card string such as ``"KH KS 2C *"`` or ``"KHKS2C*"`` (spaces optional)."""
    return _parse(text, patterns=False)


def parse_codes(text: str) -> tuple[int, ...]:
    """Parse a card string into engine codes."""
    return tuple(c.code for c in _parse(text, patterns=False))


@lru_cache(maxsize=4096)
def cards_of(codes: tuple[int, ...]) -> tuple[Card, ...]:
    """Engine codes as `Card` values. Cached: the same hands, piles and memories are shown
    again and again, and equal codes give the same tuple (which an encoder may key on)."""
    return tuple(map(CARDS.__getitem__, codes))


def card_codes(cards: Iterable[Card] | str) -> tuple[int, ...]:
    """The codes of ``cards``, given as `Card` values or as card text; raises NotationError
    for text that is not cards, or an entry that is not a card (a rank pattern has no code)."""
    if isinstance(cards, str):
        return parse_codes(cards)
    try:
        items = iter(cards)
    except TypeError:
        raise NotationError(f"expected cards, got {excerpt(cards)}") from None
    codes: list[int] = []
    for card in items:
        # The library's own cards (`CARDS`) are found by identity, cheaper than the checks.
        code = _CODE_OF.get(id(card))
        if code is None:
            if not isinstance(card, Card) or card.is_pattern:
                raise NotationError(f"expected cards, got {excerpt(card)}")
            code = card.code
        codes.append(code)
    return tuple(codes)


def format_codes(codes: Iterable[int]) -> str:
    """Card codes as space-separated text."""
    return " ".join(str(CARDS[c]) for c in codes)
