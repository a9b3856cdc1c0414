"""Moves and their notation.

A move is one token without spaces: ``draw``, ``take:KK``, ``meld:KKK2``, ``add:K+2``,
``discard:7H``, ``ask``, ``yes``, ``no``, ``end``, and in Modern American with the club
features ``special`` (show a special hand) and ``expose:3`` (lay out the held three). Cards
in a move may be exact cards (``KH``) or rank patterns (``K``: any card of that rank from
hand). Cards are kept in canonical order (naturals A, 3..K, then 2, then the joker; suits
S H D C) so that equal plays compare equal and ``parse_move(str(m)) == m``.
"""
# api.md §3.

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import attrs

from canasta._input import excerpt
from canasta.cards import CARDS, JOKER, RANK_PATTERNS, RANKS, SUITS, TWO, Card, _parse
from canasta.errors import NotationError

__all__ = [
    "Answer",
    "Ask",
    "Discard",
    "Draw",
    "End",
    "LayOff",
    "MeldCards",
    "Move",
    "Moves",
    "Take",
    "parse_move",
    "parse_moves",
]

#: The longest move text read. No legal move comes near: the largest table (four decks,
#: 216 cards) written with the longest card text (``10S``) fills 648 characters.
_MAX_MOVE_CHARS = 1024

# Sort key of a rank index in move text: naturals (A, 3..K) first, then 2, then joker.
_RANK_ORDER = {r: (r if r != TWO else 12.5) for r in range(14)}


def _card_key(card: Card) -> tuple[float, int]:
    suit = -1 if card.suit is None else SUITS.index(card.suit)
    return (_RANK_ORDER[card.rank_index], suit)


def _canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of a move in canonical order; anything but a sequence of cards is refused
    here, so a move never holds what its text cannot show."""
    if isinstance(cards, str) or not isinstance(cards, tuple | list):
        raise NotationError(f"a move's cards must be a tuple of Card values, got {excerpt(cards)}")
    if len(cards) > _MAX_MOVE_CHARS:
        raise NotationError(f"a move holds at most {_MAX_MOVE_CHARS} cards, got {len(cards)}")
    for card in cards:
        if type(card) is not Card:
            raise NotationError(f"a move's cards must be Card values, got {excerpt(card)}")
    return tuple(sorted(cards, key=_card_key))


def _some_cards(
    move: Move, _attribute: attrs.Attribute[tuple[Card, ...]], cards: tuple[Card, ...]
) -> None:
    if not cards:
        raise NotationError(f"{type(move).__name__} needs at least one card")


def _check_target(_move: LayOff, _attribute: attrs.Attribute[str], target: object) -> None:
    if not isinstance(target, str) or len(target) != 1 or target not in RANKS + "*":
        raise NotationError(
            f"a lay-off's target is a rank letter of {RANKS} or '*', got {excerpt(target)}"
        )


def _check_card(_move: Discard, _attribute: attrs.Attribute[Card], card: object) -> None:
    if type(card) is not Card:
        raise NotationError(f"a discard holds one Card, got {excerpt(card)}")


def _check_answer(_move: Answer, _attribute: attrs.Attribute[bool], yes: object) -> None:
    if not isinstance(yes, bool):
        raise NotationError(f"an answer is True (yes) or False (no), got {excerpt(yes)}")


def _text(cards: tuple[Card, ...]) -> str:
    return "".join(str(c) for c in cards)


@attrs.frozen
class Move:
    """Base class of every move; see the subclasses for each kind."""

    kind: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.kind

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@attrs.frozen(repr=False)
class Draw(Move):
    """Draw from the stock (``draw``)."""

    kind: ClassVar[str] = "draw"


@attrs.frozen(repr=False)
class Take(Move):
    """Take the pile: meld its top card with ``cards`` from hand; no cards = lay it off."""

    kind: ClassVar[str] = "take"
    cards: tuple[Card, ...] = attrs.field(default=(), converter=_canonical)

    def __str__(self) -> str:
        return f"take:{_text(self.cards)}" if self.cards else "take"


@attrs.frozen(repr=False)
class MeldCards(Move):
    """Meld ``cards`` from hand as a new meld (merged into a same-rank meld in classic)."""

    kind: ClassVar[str] = "meld"
    cards: tuple[Card, ...] = attrs.field(converter=_canonical, validator=_some_cards)

    def __str__(self) -> str:
        return f"meld:{_text(self.cards)}"


@attrs.frozen(repr=False)
class LayOff(Move):
    """Lay ``cards`` off on the side's meld of rank ``target`` (``"*"``: the wild meld)."""

    kind: ClassVar[str] = "add"
    target: str = attrs.field(validator=_check_target)
    cards: tuple[Card, ...] = attrs.field(converter=_canonical, validator=_some_cards)

    def __str__(self) -> str:
        return f"add:{self.target}+{_text(self.cards)}"


@attrs.frozen(repr=False)
class Discard(Move):
    """Discard one card; ends the turn."""

    kind: ClassVar[str] = "discard"
    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return f"discard:{self.card}"


@attrs.frozen(repr=False)
class Ask(Move):
    """Ask partner for permission to go out."""

    kind: ClassVar[str] = "ask"


@attrs.frozen(repr=False)
class Answer(Move):
    """Partner's binding answer: ``yes`` or ``no``."""

    kind: ClassVar[str] = "answer"
    yes: bool = attrs.field(validator=_check_answer)

    def __str__(self) -> str:
        return "yes" if self.yes else "no"


@attrs.frozen(repr=False)
class End(Move):
    """End the deal without a discard where the rules allow it."""

    kind: ClassVar[str] = "end"


@attrs.frozen(repr=False)
class Special(Move):
    """Show a special hand: the whole hand goes down at once and the deal ends (Modern
    American with special hands)."""

    kind: ClassVar[str] = "special"


def _check_three(_move: Expose, _attribute: attrs.Attribute[Card], card: object) -> None:
    if type(card) is not Card or card.rank != "3":
        raise NotationError(f"expose holds one three (3 or 3C), got {excerpt(card)}")


@attrs.frozen(repr=False)
class Expose(Move):
    """Lay the held three face up and draw a replacement (``expose:3``, ``expose:3C``)."""

    kind: ClassVar[str] = "expose"
    card: Card = attrs.field(validator=_check_three)

    def __str__(self) -> str:
        return f"expose:{self.card}"


DRAW, ASK, YES, NO, END, TAKE_LAYOFF = Draw(), Ask(), Answer(True), Answer(False), End(), Take()
SPECIAL = Special()
_SIMPLE: dict[str, Move] = {
    "draw": DRAW,
    "ask": ASK,
    "yes": YES,
    "no": NO,
    "end": END,
    "take": TAKE_LAYOFF,
    "special": SPECIAL,
}


#: The moves, as the message about text that is none of them lists them.
_KINDS = (
    "draw, take, take:CARDS, meld:CARDS, add:RANK+CARDS, discard:CARD, ask, yes, no, end, "
    "special, expose:3"
)


def _cards_arg(text: str, move_text: str, *, allow_empty: bool = False) -> tuple[Card, ...]:
    try:
        cards = _parse(text, patterns=True)
    except NotationError as exc:
        raise NotationError(f"bad move {excerpt(move_text)}: {exc}") from None
    if not cards and not allow_empty:
        raise NotationError(f"bad move {excerpt(move_text)}: no cards given")
    return cards


def parse_move(text: str | Move) -> Move:
    """Parse one move token; a `Move` is returned as it is."""
    if isinstance(text, Move):
        return text
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, got {excerpt(text)}")
    if len(text) > _MAX_MOVE_CHARS:
        raise NotationError(f"bad move {excerpt(text)}: longer than any move")
    token = text.strip()
    simple = _SIMPLE.get(token.lower())
    if simple is not None:
        return simple
    head, sep, arg = token.partition(":")
    head = head.lower()
    if any(ch.isspace() for ch in token):
        raise NotationError(f"bad move {excerpt(text)}: a move holds no spaces (meld:KKK)")
    if not sep:
        raise NotationError(f"bad move {excerpt(text)}: not a move; moves are {_KINDS}")
    if head in _SIMPLE and head != "take":
        raise NotationError(f"bad move {excerpt(text)}: {head} takes no cards")
    if not arg:
        raise NotationError(f"bad move {excerpt(text)}: no cards after the colon")
    if head == "take":
        return Take(_cards_arg(arg, text))
    if head == "meld":
        return MeldCards(_cards_arg(arg, text))
    if head == "discard":
        # One card, so the joker's other name "JK" cannot be read as a jack and a king.
        cards = (CARDS[JOKER],) if arg.upper() == "JK" else _cards_arg(arg, text)
        if len(cards) != 1:
            raise NotationError(f"bad move {excerpt(text)}: discard takes exactly one card")
        return Discard(cards[0])
    if head == "expose":
        cards = _cards_arg(arg, text)
        if len(cards) != 1 or cards[0].rank != "3":
            raise NotationError(f"bad move {excerpt(text)}: expose takes one three (3 or 3C)")
        return Expose(cards[0])
    if head == "add":
        target, plus, rest = arg.partition("+")
        target = target.upper()
        if target in ("JK", "*"):
            target = "*"
        elif target == "10":
            target = "T"
        if not plus or not (target == "*" or (len(target) == 1 and target in RANKS)):
            raise NotationError(f"bad move {excerpt(text)}: expected add:RANK+CARDS")
        return LayOff(target, _cards_arg(rest, text))
    raise NotationError(
        f"bad move {excerpt(text)}: unknown kind {excerpt(head)}; moves are {_KINDS}"
    )


class Moves(tuple[Move, ...]):
    """A tuple of moves in which a move's text is found too, as users expect:
    ``"draw" in state.legal_moves()``.

    Text is read with `parse_move` and compared as written: the legal moves are suit-free,
    so ``"discard:7H" in state.legal_moves()`` is False even where the move is legal (ask
    `canasta.GameState.is_legal` for moves that name suits). Text that is not a move is not
    in the list.
    """

    __slots__ = ()

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            try:
                item = parse_move(item)
            except NotationError:
                return False
        return tuple.__contains__(self, item)


def parse_moves(text: str | Move | Iterable[str | Move]) -> tuple[Move, ...]:
    """Parse a space-separated move string, or a sequence of moves and texts."""
    if isinstance(text, Move):
        return (text,)
    if isinstance(text, str):
        return tuple(parse_move(t) for t in text.split())
    try:
        items = iter(text)
    except TypeError:
        raise NotationError(f"expected moves, got {excerpt(text)}") from None
    return tuple(parse_move(t) for t in items)


def flatten_moves(items: Iterable[str | Move | Iterable[str | Move]]) -> list[Move]:
    """The moves of ``play(*items)``: Moves, texts, space-separated strings or sequences.

    Every move is parsed before any is played, so bad notation changes nothing.
    """
    flat: list[Move] = []
    for item in items:
        flat.extend(parse_moves(item))
    return flat


# Interned suitless cards by rank index (the joker's is the joker), used by the legal-move
# generator.
PATTERNS: tuple[Card, ...] = (*(RANK_PATTERNS[r] for r in RANKS), CARDS[JOKER])
