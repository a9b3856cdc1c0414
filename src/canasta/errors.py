"""The exception types of the library, and the machine-readable reasons for illegal moves.

Every error derives from `CanastaError`. Messages always quote the input that was
wrong and say why.
"""
# api.md §8.

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from canasta.moves import Move

__all__ = [
    "ArgumentError",
    "CanastaError",
    "IllegalMoveError",
    "IllegalReason",
    "NotationError",
    "PositionError",
    "RecordError",
    "ReplayError",
    "UnknownVariantError",
    "VariantError",
]


class CanastaError(Exception):
    """Base class of every error raised by the library."""


class NotationError(CanastaError, ValueError):
    """Card or move text that cannot be parsed."""


class IllegalReason(enum.Enum):
    """Why a move is illegal; the value is a short phrase a program may show."""

    GAME_OVER = "the deal is over"
    NOT_YOUR_TURN = "this seat is not to move"
    WRONG_PHASE = "not allowed in this phase of the turn"
    NOT_IN_HAND = "the cards are not in the hand"
    STOCK_EMPTY = "the stock is empty"
    PILE_EMPTY = "the pile is empty"
    PILE_BLOCKED = "the pile is blocked"
    PILE_FROZEN = "the pile is frozen: a natural pair is needed"
    NATURAL_PAIR_NEEDED = "taking the pile needs a natural pair from hand"
    WRONG_RANK = "cards do not match the rank"
    INVALID_MELD = "the meld would not be valid"
    NO_SUCH_MELD = "the side has no meld of that rank"
    TOO_MANY_WILDS = "too many wild cards for the meld"
    MELD_TOO_LARGE = "the meld would exceed its maximum size"
    CLOSED_RANK = "the rank is closed"
    WILD_RULE = "wild cards may not go into this meld"
    CANASTA_LOCKED = "a natural canasta may not take wild cards"
    BLACK_THREES = "black threes may be melded only when going out"
    INITIAL_MINIMUM = "the initial meld cannot reach the minimum"
    OPENING_INCOMPLETE = "the initial meld has not reached the minimum yet"
    HAND_SIZE = "the hand would be too small to go on without going out"
    CANNOT_GO_OUT = "going out is not allowed now"
    MUST_GO_OUT = "the player must go out this turn"
    PERMISSION_DENIED = "partner said no: going out is not allowed this turn"
    ASK_NOT_ALLOWED = "asking partner is not allowed now"
    ONE_CARD_PILE = "a single card may not take a one-card pile"
    DISCARD_NOT_ALLOWED = "that card may not be discarded"
    NO_DISCARD = "no discard is allowed this turn"
    END_NOT_ALLOWED = "the deal cannot end here"
    PICKUP_FORCED = "the pile must be taken"
    NO_SPECIAL_HAND = "the hand is not a special hand"
    SPECIAL_NOT_ALLOWED = "a special hand may not be shown now"
    NO_HELD_THREE = "the player holds no three to lay out"


class IllegalMoveError(CanastaError):
    """A move that is not legal in the state it was applied to.

    Attributes:
        move: the move (or its text, when it was not even parsed).
        reason: an `IllegalReason`, for a program to test.
        why: what is wrong, in words for a person: the reason's phrase, or a more exact
            one (``too few cards: a meld needs at least 3, this meld would have 2``).
    """

    def __init__(
        self, move: Move | str, reason: IllegalReason, detail: str = "", why: str = ""
    ) -> None:
        self.move = move
        self.reason = reason
        self.why = why or reason.value
        text = f"illegal move {str(move)!r}: {self.why}"
        super().__init__(f"{text} ({detail})" if detail else text)


class ReplayError(IllegalMoveError):
    """An illegal move inside a sequence; ``ply`` is its 0-based index."""

    def __init__(self, move: Move | str, reason: IllegalReason, ply: int, why: str = "") -> None:
        self.ply = ply
        super().__init__(move, reason, f"at ply {ply}", why)


class ArgumentError(CanastaError, ValueError):
    """An argument the library cannot use: a seat the deal does not have, an unknown bot,
    a search budget below its least."""


class VariantError(CanastaError, ValueError):
    """An unknown, ill-typed or impossible variant option."""


class UnknownVariantError(CanastaError, LookupError):
    """A variant name that is not registered."""


class PositionError(CanastaError, ValueError):
    """A position (``GameState.from_dict``) that is malformed or impossible."""


class RecordError(CanastaError, ValueError):
    """A game record that cannot be read; ``line`` and ``column`` locate the problem."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(where + message)
