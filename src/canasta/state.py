"""The public game state of one deal: `GameState` (api.md §4).

A ``GameState`` is an immutable value. Every rule lives in `canasta.engine`; this
module is the thin public face that parses moves, caches the legal-move list and converts
to and from the position format.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from canasta import engine
from canasta.cards import CARDS, Card
from canasta.errors import IllegalMoveError, IllegalReason, ReplayError
from canasta.moves import Move, flatten_moves, parse_move
from canasta.table import NEW_TURN, OVER, Meld, Turn
from canasta.variants.base import Variant

if TYPE_CHECKING:
    from canasta.observation import Observation
    from canasta.scoring import Outcome


@attrs.frozen
class Event:
    """One move of the deal's history, with what it showed the table."""

    seat: int
    move: Move
    #: the exact cards (codes) the move took from the hand: melded, laid off or discarded
    cards: tuple[int, ...]
    #: the pile's cards (bottom to top) when the move took the pile, else empty
    taken: tuple[int, ...]
    #: threes laid face up for the mover's side during the move (drawn or taken)
    threes: tuple[int, ...]

    @classmethod
    def between(cls, before: GameState, move: Move, after: GameState) -> Event:
        """The event of ``move``, which led from ``before`` to ``after``."""
        seat = before.to_move
        assert seat is not None
        side = before.variant.side_of(seat)
        return cls(
            seat=seat,
            move=move,
            cards=engine.cards_used(before, move),
            taken=before.pile if move.kind == "take" else (),
            threes=after.threes[side][len(before.threes[side]) :],
        )


# slots=False: the engine copies states through their __dict__ (see table.evolve), which
# is several times cheaper than setting slots one by one.
@attrs.frozen(eq=False, repr=False, slots=False)
class GameState:
    """One deal of Canasta: every card's place, whose turn it is, and the turn's progress.

    Build one with `canasta.new_game` or `from_dict`; change it only through
    `apply` and `play`, which return new states.
    """

    variant: Variant
    #: each side's cumulative score before this deal (sets the initial-meld minimum)
    scores: tuple[int, ...]
    dealer: int
    #: the seat to act, or None once the deal is over
    to_move: int | None
    #: "draw", "play", "answer" or "over"
    phase: str
    #: each seat's hand, as sorted card codes (see `hand`)
    hands: tuple[tuple[int, ...], ...]
    #: the discard pile, bottom to top, as card codes
    pile: tuple[int, ...]
    #: the stock in draw order, as card codes
    stock: tuple[int, ...]
    #: each side's melds
    melds: tuple[tuple[Meld, ...], ...]
    #: each side's threes laid face up, as card codes
    threes: tuple[tuple[int, ...], ...]
    #: the pile holds a wild card or an upcard red three (spec §2.7)
    frozen: bool
    #: each side has completed its initial meld this deal
    opened: tuple[bool, ...]
    #: each seat has melded or laid off earlier in this deal (spec §2.10)
    melded_seats: tuple[bool, ...]
    #: the progress of the current turn
    turn: Turn = NEW_TURN
    #: times each seat has asked partner (Modern American limit, D26)
    asked: tuple[int, ...] = ()
    #: the seat that went out, once the deal is over
    went_out: int | None = None
    #: the deal ended by a concealed going out
    concealed: bool = False
    #: 3-player cutthroat (spec §3.3): the lone hand, once the pile has been taken
    lone: int | None = None
    _legal: tuple[Move, ...] | None = attrs.field(default=None, init=False)
    _legal_ids: frozenset[int] | None = attrs.field(default=None, init=False)
    #: (the state before, the move that led here); walked by history()
    _history: tuple[GameState, Move] | None = attrs.field(default=None, init=False)
    _events: tuple[Event, ...] | None = attrs.field(default=None, init=False)
    _counts: list[int] | None = attrs.field(default=None, init=False)
    _ctx: Any = attrs.field(default=None, init=False)

    # -- reading the state --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def players(self) -> int:
        return self.variant.players

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand as cards."""
        return tuple(CARDS[c] for c in self.hands[seat])

    @property
    def pile_top(self) -> Card | None:
        return CARDS[self.pile[-1]] if self.pile else None

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat)

    @property
    def side_to_move(self) -> int | None:
        return None if self.to_move is None else self.variant.side_of(self.to_move)

    def counts(self) -> list[int]:
        """The hand of the seat to move, counted by rank index (cached)."""
        counts = self._counts
        if counts is None:
            counts = [0] * 14
            if self.to_move is not None:
                for code in self.hands[self.to_move]:
                    counts[code >> 2] += 1
            self.__dict__["_counts"] = counts
        return counts

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal play, once each, suit-free, in the order documented in the engine."""
        legal = self._legal
        if legal is None:
            legal = engine.legal_moves(self)
            # Caches, not state: written past the frozen front door.
            self.__dict__["_legal"] = legal
            self.__dict__["_legal_ids"] = frozenset(map(id, legal))
        return legal

    def check(self, move: Move | str) -> IllegalReason | None:
        """None if ``move`` is legal here, else the reason it is not."""
        return engine.check(self, parse_move(move))

    def is_legal(self, move: Move | str) -> bool:
        return self.check(move) is None

    def apply(self, move: Move | str) -> GameState:
        """The state after ``move``; raises IllegalMoveError (this state is unchanged)."""
        parsed = parse_move(move)
        ids = self._legal_ids
        # A move taken from the cached legal list needs no second check.
        if ids is None or id(parsed) not in ids:
            reason = engine.check(self, parsed)
            if reason is not None:
                raise IllegalMoveError(parsed, reason)
        return self._advance(parsed)

    def _advance(self, move: Move) -> GameState:
        """Apply a checked move; the new state remembers this one for `history`."""
        after = engine.apply(self, move)
        after.__dict__["_history"] = (self, move)
        return after

    def history(self) -> tuple[Event, ...]:
        """The moves played since this state was dealt or read, oldest first.

        Each state caches its history, built on its predecessor's, so asking every state
        of a deal in turn costs one event per move.
        """
        chain: list[GameState] = []
        state = self
        while state._events is None and state._history is not None:
            chain.append(state)
            state = state._history[0]
        events = state._events if state._events is not None else ()
        for later in reversed(chain):
            assert later._history is not None
            before, move = later._history
            events = (*events, Event.between(before, move, later))
            later.__dict__["_events"] = events  # a cache: frozen only to users
        return events

    def play(self, *moves: Move | str | Iterable[Move | str]) -> GameState:
        """Apply a sequence of moves (Moves, texts, or space-separated strings).

        Raises ReplayError with ``.ply`` (0-based) at the first illegal move.
        """
        state = self
        for ply, parsed in enumerate(flatten_moves(moves)):
            reason = engine.check(state, parsed)
            if reason is not None:
                raise ReplayError(parsed, reason, ply)
            state = state._advance(parsed)
        return state

    def outcome(self) -> Outcome | None:
        """None until the deal is over; then the scores with their breakdown."""
        if self.phase != OVER:
            return None
        from canasta.scoring import score_deal

        return score_deal(self)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may see (api.md §5)."""
        from canasta.observation import observe

        return observe(self, seat)

    # -- the position format ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position format of api.md §6."""
        from canasta.position import to_dict

        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Read a position (api.md §6); raises PositionError on bad input."""
        from canasta.position import from_dict

        return from_dict(data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> GameState:
        from canasta.errors import PositionError

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"position is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    # -- value semantics -------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self.variant,
            self.scores,
            self.dealer,
            self.to_move,
            self.phase,
            self.hands,
            self.pile,
            self.stock,
            self.melds,
            self.threes,
            self.frozen,
            self.opened,
            self.melded_seats,
            self.turn,
            self.asked,
            self.went_out,
            self.concealed,
            self.lone,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        top = self.pile_top
        return (
            f"<GameState {self.variant.name} phase={self.phase} to_move={self.to_move} "
            f"stock={len(self.stock)} pile={len(self.pile)} top={top}>"
        )
