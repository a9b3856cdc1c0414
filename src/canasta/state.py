"""The public game state of one deal: `GameState`.

A ``GameState`` is an immutable value over three records: the table (`canasta.table.Table`:
every card's place and the turn's progress), the table's memory of the deal (what every seat
saw), and the deal's event log. It holds no reference to earlier states: the log is shared
between states, and the memory is carried forward by each move. Every rule lives in
`canasta._rules`; this module parses moves, caches the legal-move list and converts to and
from the position format.
"""
# api.md §4.

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any, Concatenate, NoReturn, ParamSpec, TypeVar

from canasta import _input
from canasta._rules.explain import explain
from canasta._rules.facts import context
from canasta._rules.generate import legal_moves
from canasta._rules.legality import Decision, decide
from canasta._rules.plays import after_reason
from canasta._rules.recall import fresh_memory, remember, step
from canasta._rules.transitions import commit, stack_stock
from canasta.cards import CARDS, Card, card_codes, cards_of, format_codes
from canasta.display import LETTERS, draw_state
from canasta.errors import (
    ArgumentError,
    CanastaError,
    IllegalMoveError,
    IllegalReason,
    NotationError,
    PositionError,
    ReplayError,
    VariantError,
)
from canasta.moves import Move, Moves, flatten_moves, parse_move
from canasta.observation import Observation, _build
from canasta.position import from_dict, to_dict
from canasta.scoring import Outcome, score_deal
from canasta.table import (
    NO_CLUB,
    OVER,
    TURN_CARD_DEPTH,
    Event,
    Meld,
    Memory,
    RawStep,
    Step,
    Table,
    TurnProgress,
    evolve,
    log_events,
    log_of,
    log_steps,
    turn_progress,
)
from canasta.variants.base import Variant

__all__ = ["GameState"]

_set_attr = object.__setattr__
_T = TypeVar("_T")
_P = ParamSpec("_P")


def _hook_failure(exc: Exception) -> VariantError | None:
    """The error to raise for ``exc``, raised inside a rule hook of a plugin variant: a
    `VariantError` naming the variant and the hook. None for anything else (the library's
    own variants and code raise only the documented errors)."""
    if isinstance(exc, CanastaError):
        return None
    hook = variant = None
    trace = exc.__traceback__
    while trace is not None:
        owner = trace.tb_frame.f_locals.get("self")
        if isinstance(owner, Variant) and not type(owner).__module__.startswith("canasta."):
            hook, variant = trace.tb_frame.f_code.co_name, owner
        trace = trace.tb_next
    if variant is None:
        return None
    return VariantError(
        f"variant {variant.name!r}: its rule {hook!r} raised {type(exc).__name__}: {exc}"
    )


def _reraise(exc: Exception) -> NoReturn:
    """Raise ``exc`` again, or the `VariantError` that `_hook_failure` makes of it."""
    error = _hook_failure(exc)
    if error is None:
        raise exc
    raise error from exc


def _guarded(
    method: Callable[Concatenate[GameState, _P], _T],
) -> Callable[Concatenate[GameState, _P], _T]:
    """Report a plugin variant whose rule hooks fail as a VariantError naming the hook."""

    @functools.wraps(method)
    def call(self: GameState, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            _reraise(exc)

    return call


def _not_to_move(table: Table, seat: int | None) -> bool:
    """``seat`` was named and is not to move. Once the deal is over no seat is to move,
    and a move is refused because the deal is over, whoever makes it."""
    return seat is not None and table.to_move is not None and seat != table.to_move


class GameState:
    """One deal of Canasta: every card's place, whose turn it is, and the turn's progress.

    Build one with `canasta.new_game` or `from_dict`; change it only through
    `apply` and `play`, which return new states. States are immutable values: equal when
    the table and what it remembers are equal (the history aside); `copy.copy` and
    `copy.deepcopy` return the state itself.

    ``print(state)`` draws the whole table, every hand shown, with cards in the notation
    (`canasta.display.draw_state`); ``repr(state)`` is one short line.
    """

    __slots__ = ("__weakref__", "_legal", "_log", "_memory", "_table")

    _table: Table
    _memory: Memory
    _log: Step | None
    _legal: Moves | None

    def __init__(self, table: Table, memory: Memory | None = None, log: Step | None = None):
        _set_attr(self, "_table", table)
        _set_attr(self, "_memory", memory if memory is not None else fresh_memory(table))
        _set_attr(self, "_log", log)
        _set_attr(self, "_legal", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"GameState is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"GameState is immutable: cannot delete {name!r}")

    # -- reading the state --------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self._table.variant

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's cumulative score before this deal (sets the initial-meld minimum)."""
        return self._table.scores

    @property
    def dealer(self) -> int:
        return self._table.dealer

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the deal is over."""
        return self._table.to_move

    @property
    def phase(self) -> str:
        """``"draw"``, ``"play"``, ``"answer"`` or ``"over"``."""
        return self._table.phase

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's hand, sorted (`hand` gives one)."""
        return tuple(cards_of(h) for h in self._table.hands)

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top (the last card is the top)."""
        return cards_of(self._table.pile)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock in draw order (the first card is drawn next)."""
        return cards_of(self._table.stock)

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock (``len(state.stock)`` without building them)."""
        return len(self._table.stock)

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """Each side's melds (in 3-player cutthroat, once the lone hand is known, the two
        partners' shared melds are under the first partner: see `meld_side`)."""
        return self._table.melds

    @property
    def threes(self) -> tuple[tuple[Card, ...], ...]:
        """The threes each side has laid face up."""
        return tuple(cards_of(t) for t in self._table.threes)

    @property
    def frozen(self) -> bool:
        """The pile is frozen (a wild card or an upcard red three is in it)."""
        return self._table.frozen

    @property
    def opened(self) -> tuple[bool, ...]:
        """Each side has completed its initial meld this deal."""
        return self._table.opened

    @property
    def melded_seats(self) -> tuple[bool, ...]:
        """Each seat has melded or laid off earlier in this deal."""
        return self._table.melded_seats

    @property
    def turn(self) -> TurnProgress:
        """The progress of the current turn."""
        return turn_progress(self._table.turn)

    @property
    def asked(self) -> tuple[int, ...]:
        """How often each seat has asked partner this deal."""
        return self._table.asked

    @property
    def went_out(self) -> int | None:
        """The seat that went out, once the deal is over."""
        return self._table.went_out

    @property
    def concealed(self) -> bool:
        """The deal ended by a concealed going out."""
        return self._table.concealed

    @property
    def lone(self) -> int | None:
        """3-player cutthroat: the lone hand, once the pile has been taken."""
        return self._table.lone

    @property
    def openings(self) -> tuple[int, ...]:
        """Modern American talons: the sides in the order they opened this deal."""
        return (self._table.club or NO_CLUB).openings

    @property
    def talon_taken(self) -> tuple[int, ...]:
        """Modern American talons: per side, the size of the talon it took (0: none yet);
        empty where talons are not played."""
        return (self._table.club or NO_CLUB).talon_taken

    @property
    def talons(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Modern American talons dealt face down: the cards of each, the first side's
        first, or None once taken; empty where talons come from the stock."""
        talons = (self._table.club or NO_CLUB).talons
        return tuple(None if t is None else cards_of(t) for t in talons)

    @property
    def turn_card(self) -> Card | None:
        """Modern American turn card: while it is in the stock, the card with 8 cards under
        it; once drawn, the card that was; None where the turn card is not played."""
        table = self._table
        drawn = (table.club or NO_CLUB).turn_card
        if drawn is not None:
            return CARDS[drawn]
        if not table.variant.shows_turn_card or len(table.stock) < TURN_CARD_DEPTH:
            return None
        return CARDS[table.stock[-TURN_CARD_DEPTH]]

    @property
    def is_over(self) -> bool:
        return self._table.phase == OVER

    @property
    def players(self) -> int:
        return self._table.variant.players

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand as cards; raises ArgumentError for a seat the deal does not have."""
        hands = self._table.hands
        return cards_of(hands[_input.seat(seat, len(hands), ArgumentError)])

    @property
    def pile_top(self) -> Card | None:
        pile = self._table.pile
        return CARDS[pile[-1]] if pile else None

    def side_of(self, seat: int) -> int:
        return self._table.variant.side_of(seat)

    def meld_side(self, seat: int) -> int:
        """The side whose melds ``seat`` plays on: its own side, except in 3-player
        cutthroat once the lone hand is known, when the two partners share the melds listed
        under the first partner."""
        table = self._table
        return table.meld_side(_input.seat(seat, table.variant.players, ArgumentError))

    def with_stock_top(self, cards: Iterable[Card] | str) -> GameState:
        """This deal with ``cards`` (`Card` values or card text) on top of the stock, in
        that order: the first is drawn next. The rest of the stock keeps its order.

        Nothing any seat sees changes (the stock's order is hidden), so the observations,
        the memory, the history and the legal moves stay the same. This is how a chance
        player picks each card of the stock as it is drawn: the library draws from the
        stock one card at a time (a turn's draw, the cards that replace threes, the cards
        a deal turns up), and whether it takes another card depends only on the cards it
        took before. So play the move on the state with the cards chosen so far on top;
        while it took more cards from the stock (compare `stock_size`) than were
        chosen, choose one more and play the move again.

        Raises:
            ArgumentError: ``cards`` are not cards of the stock (with as many copies), or
                the first is not the face-up turn card on top of the stock (Modern
                American); this state is unchanged.
        """
        try:
            codes = card_codes(cards)
        except NotationError as exc:
            raise ArgumentError(f"stock top: {exc}") from None
        table_before = self._table
        table = stack_stock(table_before, codes)
        if table is None:
            stock = table_before.stock
            if table_before.turn_card_on_top and codes[0] != stock[0]:
                raise ArgumentError(
                    f"stock top: the turn card {CARDS[stock[0]]} lies face up on top of the stock, "
                    f"so {format_codes(codes)!r} must start with it"
                )
            raise ArgumentError(f"stock top: {format_codes(codes)!r} are not cards of the stock")
        # The legal moves never depend on the stock's order: the cached list still holds.
        return _made(table, self._memory, self._log, self._legal)

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> Moves:
        """Every legal play, once each, suit-free, in the documented order.

        A tuple of moves in which text is found too: ``"draw" in state.legal_moves()``.
        """
        legal = self._legal
        if legal is None:
            try:
                legal = legal_moves(self._table)
            except Exception as exc:  # the hot path: no wrapper around the call
                _reraise(exc)
            # Caches, not state: written past the frozen front door.
            _set_attr(self, "_legal", legal)
        return legal

    @_guarded
    def check(self, move: Move | str, *, seat: int | None = None) -> IllegalReason | None:
        """None if ``move`` is legal here, else the reason it is not (``seat``: as for
        `apply`)."""
        parsed = parse_move(move)
        if _not_to_move(self._table, seat):
            return IllegalReason.NOT_YOUR_TURN
        return self._reason(parsed)[0]

    def is_legal(self, move: Move | str, *, seat: int | None = None) -> bool:
        return self.check(move, seat=seat) is None

    def _reason(self, move: Move) -> tuple[IllegalReason | None, Decision | None]:
        table = self._table
        # A move taken from the cached legal list needs no second check.
        listed = False
        legal = self._legal
        if legal is not None:
            for candidate in legal:
                if candidate is move:
                    listed = True
                    break
        decision = decide(table, move, listed)
        if isinstance(decision, IllegalReason):
            return decision, None
        if decision.play is not None and not listed:
            reason = after_reason(table, context(table), decision.play)
            if reason is not None:
                return reason, None
        return None, decision

    def apply(self, move: Move | str, *, seat: int | None = None) -> GameState:
        """The state after ``move``; raises IllegalMoveError (this state is unchanged).

        ``seat``: the seat making the move, for a server taking moves from players; a move
        from a seat that is not to move is refused with ``IllegalReason.NOT_YOUR_TURN``.
        """
        parsed = parse_move(move)
        if seat is not None and _not_to_move(self._table, seat):  # no call without a seat
            raise IllegalMoveError(parsed, IllegalReason.NOT_YOUR_TURN)
        try:
            reason, decision = self._reason(parsed)
            if decision is not None:
                return self._advance(decision)
        except Exception as exc:  # the hot path: no wrapper around the call
            _reraise(exc)
        assert reason is not None
        raise IllegalMoveError(parsed, reason, why=explain(self._table, parsed, reason))

    def _advance(self, decision: Decision) -> GameState:
        """Commit a legal decision: the next table, memory and log."""
        before = self._table
        after = commit(before, decision)
        return _made(
            after,
            remember(self._memory, before, decision, after),
            step(self._log, before, decision, after),
            None,
        )

    def history(self) -> tuple[Event, ...]:
        """The moves played since this state was dealt or read, oldest first."""
        return log_events(self._log)

    @_guarded
    def play(self, *moves: Move | str | Iterable[Move | str], seat: int | None = None) -> GameState:
        """Apply a sequence of moves (Moves, texts, or space-separated strings).

        Raises ReplayError with ``.ply`` (0-based) at the first illegal move. ``seat``: every
        move must be that seat's (``IllegalReason.NOT_YOUR_TURN`` otherwise).
        """
        state = self
        for ply, parsed in enumerate(flatten_moves(moves)):
            if _not_to_move(state._table, seat):
                raise ReplayError(parsed, IllegalReason.NOT_YOUR_TURN, ply)
            reason, decision = state._reason(parsed)
            if decision is None:
                assert reason is not None
                raise ReplayError(parsed, reason, ply)
            state = state._advance(decision)
        return state

    @_guarded
    def outcome(self) -> Outcome | None:
        """None until the deal is over; then the scores with their breakdown."""
        if self._table.phase != OVER:
            return None
        return score_deal(self._table)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may see."""
        # api.md §5.
        table = self._table
        try:
            legal = self.legal_moves() if table.to_move == seat else ()
            return _build(table, self._memory, self._log, seat, legal)
        except Exception as exc:  # the hot path of learning environments: no wrapper
            _reraise(exc)

    # -- the position format ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data: the format of the Positions page."""
        # api.md §6.
        return to_dict(self._table, self._memory)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Read a position; raises PositionError on bad input."""
        # api.md §6.
        try:
            table, memory, legal = from_dict(data)
        except Exception as exc:  # checking the position runs the variant's rule hooks
            _reraise(exc)
        state = cls(table, memory)
        _set_attr(state, "_legal", legal)  # found while the position was checked
        return state

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Read a position from JSON text; raises PositionError on bad input (also on
        text nested too deep, or holding integers too large for any position)."""
        return cls.from_dict(_input.loads(text, what="position", error=PositionError))

    # -- value semantics -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or (self._table == other._table and self._memory == other._memory)

    def __hash__(self) -> int:
        return hash(self._table)

    def _evolve(self, **changes: Any) -> GameState:
        """This state with table fields changed (for the library's own modules: a match
        carrying Modern American partner questions into the next deal)."""
        return GameState(evolve(self._table, **changes), self._memory, self._log)

    def __copy__(self) -> GameState:
        return self  # immutable: a copy would be the same value

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # The log as a flat tuple of events: pickling the linked steps would recurse once
        # per move.
        return (_restore, (self._table, self._memory, log_steps(self._log)))

    def __str__(self) -> str:
        """The whole table drawn as text, every hand shown (`canasta.display.draw_state`)."""
        return draw_state(self, LETTERS)

    def __repr__(self) -> str:
        top = self.pile_top
        table = self._table
        return (
            f"<GameState {table.variant.name} phase={table.phase} to_move={table.to_move} "
            f"stock={len(table.stock)} pile={len(table.pile)} top={top}>"
        )


def _made(table: Table, memory: Memory, log: Step | None, legal: Moves | None) -> GameState:
    """A state from its parts and its cached legal moves, without ``__init__``: for every
    move applied and every card a chance player stacks on the stock."""
    new = object.__new__(GameState)
    _set_attr(new, "_table", table)
    _set_attr(new, "_memory", memory)
    _set_attr(new, "_log", log)
    _set_attr(new, "_legal", legal)
    return new


def _restore(table: Table, memory: Memory, steps: tuple[RawStep, ...]) -> GameState:
    return GameState(table, memory, log_of(steps))
