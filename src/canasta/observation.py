"""What one seat may know: `Observation`.

An observation is built *for an explicit seat*. It has two parts:

* **what is visible now**: the seat's own hand, the other hands' sizes, every side's melds
  and threes, the pile (every card in it was discarded face up, so the whole pile is public,
  but for Modern American's covered last discard, which only its player sees), whether the
  pile is frozen, the stock size, the scores, the phase, who is to move, the public
  progress of the current turn, and the legal moves when the seat is to act.
* **what the table remembers** (perfect recall, as in OpenSpiel): the cards known to be in
  each hand (taken from the pile and not played since) and each seat's discards. The state
  carries this memory forward move by move and saves it with a position, so it costs the
  same at every ply and survives a reload.

Two states that differ only in what the seat cannot see (other hands, the stock order) give
equal observations. The deal's public history (`Observation.history`) is there to read,
but, like a state's history, not compared. `canasta.sample_state` deals the unseen cards
into a full state that gives the same observation.
"""
# api.md §5.

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from canasta import _input
from canasta._identity import keep
from canasta.cards import CARDS, Card, cards_of
from canasta.display import LETTERS, draw_observation
from canasta.errors import ArgumentError
from canasta.moves import Discard, Move
from canasta.table import (
    NO_CLUB,
    OVER,
    Club,
    Event,
    Meld,
    Memory,
    Note,
    Step,
    Table,
    Turn,
    TurnProgress,
    evolve,
    evolved,
    log_events,
    turn_progress,
    with_discards,
    with_last_move,
)
from canasta.variants.base import Variant

if TYPE_CHECKING:
    from canasta.state import GameState

__all__ = ["CoveredDiscard", "Note", "Observation", "PublicEvent", "observe"]

#: The public event of a move (the name observations used before events showed cards).
PublicEvent = Event


@attrs.frozen(repr=False)
class CoveredDiscard(Move):
    """A discard made face down, as the other seats see it in `Observation.history`: the
    discard that goes out in Modern American with ``mac_covered_last_discard``. It shows no
    card (its event's ``cards`` are empty too). It is no move to play: its text
    ``covered`` is not notation, and `canasta.parse_move` does not read it."""

    # Spec §3.5.11.5 CD4.

    kind: ClassVar[str] = "covered"

    def __repr__(self) -> str:
        return "CoveredDiscard()"


_COVERED = CoveredDiscard()


#: The public views of the turns observed lately, by the turn's identity (with the turn).
_PROGRESS: dict[int, tuple[Turn, TurnProgress]] = {}
_PROGRESS_KEPT = 1024


def _progress(turn: Turn) -> TurnProgress:
    """``turn_progress(turn)``, kept by the turn's identity: successive states share most
    of their turns, and the cache of `turn_progress` hashes every field of the turn."""
    found = _PROGRESS.get(id(turn))
    if found is not None:
        return found[1]
    return keep(_PROGRESS, turn, turn_progress(turn), _PROGRESS_KEPT)


@lru_cache(maxsize=1024)
def _cards_each(codes: tuple[tuple[int, ...], ...]) -> tuple[tuple[Card, ...], ...]:
    """The cards of each seat's or side's ``codes`` (cached as `cards_of` is)."""
    return tuple(map(cards_of, codes))


@attrs.frozen(slots=False, repr=False)
class Observation:
    """Everything ``seat`` may know about a deal.

    Build one with `canasta.GameState.observe`. Equality compares everything but the
    ``history``, as a `GameState`'s equality does. ``print(observation)`` draws the table
    as this seat sees it, as ``canasta play`` shows it (`canasta.display.draw_observation`);
    ``repr(observation)`` is one short line.

    Attributes:
        variant: the rules.
        seat: the seat this observation is for.
        scores: each side's cumulative score before this deal.
        dealer: the dealer of this deal.
        phase: ``"draw"``, ``"play"``, ``"answer"`` or ``"over"``.
        to_move: the seat to act, or None once the deal is over.
        hand: the seat's own hand, sorted.
        hand_sizes: the number of cards in each seat's hand.
        melds: each side's melds (in 3-player cutthroat, once the lone hand is known, the
            two partners' shared melds are under the first partner: see `meld_side`).
        threes: each side's threes laid face up.
        opened: each side has completed its initial meld this deal.
        melded_seats: each seat has melded or laid off earlier this deal.
        pile_top: the pile's top card, or None when the pile is empty or its top card lies
            face down for this seat (``pile_covered``).
        pile_size: the number of cards in the pile (a covered card included).
        frozen: the pile is frozen.
        stock_size: the number of cards in the stock.
        turn: the public progress of the current turn (pile taken, opening value so far,
            pile cards waiting to join the hand, partner asked and the answer, ...).
        asked: how often each seat has asked partner (Modern American counts it over
            the whole game).
        lone: the lone hand of 3-player cutthroat once known, else None.
        went_out: the seat that went out, once the deal is over.
        concealed: the deal ended by a concealed going out.
        legal_moves: the legal moves when ``seat`` is to act, else empty.
        known: per seat, cards known to be in that hand: taken from the pile and not
            played since.
        discarded: per seat, the cards that seat discarded this deal, in order.
        pile_seen: the pile's cards this seat has seen, bottom to top: the whole pile (every
            card in it was discarded face up or turned up at the deal), but a covered top
            card that another seat discarded.
        history: the public history of the deal since it was dealt or read (not
            compared).
        special_hand: Modern American: the special hand shown to end the deal, or None.
        openings: Modern American talons: the sides in the order they opened this deal.
        talon_taken: Modern American talons: per side, the size of the talon it took (0:
            none yet); empty where talons are not played.
        talons_left: Modern American talons dealt face down: the size of each talon not
            taken yet (0 once taken), the first side's first; empty where talons come
            from the stock.
        turn_card_drawn: Modern American turn card: it has been drawn from the stock.
        turn_card: the turn card once it is public: the top card of the stock (it lies
            face up) or drawn; else None.
    """

    # api.md §5; spec §2.10 (melded_seats), §2.7 (frozen); D26 (asked).

    variant: Variant
    seat: int
    scores: tuple[int, ...]
    dealer: int
    phase: str
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]
    threes: tuple[tuple[Card, ...], ...]
    opened: tuple[bool, ...]
    melded_seats: tuple[bool, ...]
    pile_top: Card | None
    pile_size: int
    frozen: bool
    stock_size: int
    turn: TurnProgress
    asked: tuple[int, ...]
    lone: int | None
    went_out: int | None
    concealed: bool
    legal_moves: tuple[Move, ...]
    known: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    discarded: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    pile_seen: tuple[Card, ...] = attrs.field(repr=False)
    # The public part of the table, hidden cards removed, with the table's memory and the
    # deal's log: canasta.sample_state fills the hidden cards in.
    _template: Table = attrs.field(eq=False, repr=False, alias="template")
    _memory: Memory = attrs.field(eq=False, repr=False, alias="memory")
    _log: Step | None = attrs.field(eq=False, repr=False, alias="log")
    special_hand: str | None = None
    openings: tuple[int, ...] = ()
    talon_taken: tuple[int, ...] = ()
    talons_left: tuple[int, ...] = ()
    turn_card_drawn: bool = False
    turn_card: Card | None = None

    @cached_property
    def history(self) -> tuple[Event, ...]:
        """The public history of the deal since it was dealt or read, oldest first."""
        return log_events(self._log)

    def __str__(self) -> str:
        """The table as this seat sees it, drawn as ``canasta play`` draws it."""
        return draw_observation(self, LETTERS)

    def __repr__(self) -> str:
        return (
            f"<Observation {self.variant.name} seat={self.seat} phase={self.phase} "
            f"to_move={self.to_move} hand={len(self.hand)} stock={self.stock_size} "
            f"pile={self.pile_size} top={self.pile_top}>"
        )

    # -- derived facts ---------------------------------------------------------------------

    @property
    def side(self) -> int:
        """The seat's side."""
        return self.variant.side_of(self.seat)

    def meld_side(self, seat: int | None = None) -> int:
        """The side whose melds ``seat`` (default: this seat) plays on: its own side, except
        in 3-player cutthroat once the lone hand is known, when the two partners share the
        melds listed under the first partner."""
        seat = self.seat if seat is None else _input.seat(seat, self.variant.players, ArgumentError)
        return self._template.meld_side(seat)

    @property
    def own_melds(self) -> tuple[Meld, ...]:
        """The melds this seat plays on (its side's, or its cutthroat partnership's)."""
        return self.melds[self._template.meld_side(self.seat)]

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def pile_covered(self) -> bool:
        """Modern American with ``mac_covered_last_discard``: the deal ended by a discard
        made face down. Only the seat that made it sees the card (in ``pile_top``,
        ``pile_seen``, ``discarded`` and ``history``); the other seats see the pile one card
        larger and the move as a `CoveredDiscard`."""
        # A property, not a field: the variant, went_out and special_hand tell it.
        return self._template.pile_covered

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_act(self) -> bool:
        """True when this seat is to move."""
        return self.to_move == self.seat

    @property
    def blocked(self) -> bool:
        """The pile cannot be taken: it is empty or a wild card or black three is on top."""
        # The top card's code from the pile the observation was made from (a card's code
        # is worked out from its rank and suit each time it is asked for): a top card
        # shown is that pile's last card.
        return self.pile_top is None or self.variant.blocks_pile(self._template.pile[-1])

    @property
    def partner_seats(self) -> tuple[int, ...]:
        """The other seats of this seat's side."""
        return tuple(s for s in self.variant.seats_of(self.side) if s != self.seat)

    def minimum(self, side: int | None = None) -> int:
        """The initial-meld minimum of ``side`` (default: this seat's side) this deal."""
        side = self.side if side is None else side
        return self.variant.initial_minimum(self.scores[side])

    # -- export ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: cards as card strings, moves as text, melds as card strings."""
        variant_config = self.variant.to_config()
        data: dict[str, Any] = {
            "variant": self.variant.name if len(variant_config) == 1 else variant_config,
            "seat": self.seat,
            "scores": list(self.scores),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": " ".join(map(str, self.hand)),
            "hand_sizes": list(self.hand_sizes),
            "melds": [[str(m) for m in side] for side in self.melds],
            "threes": [" ".join(map(str, t)) for t in self.threes],
            "opened": list(self.opened),
            "melded_seats": [s for s, melded in enumerate(self.melded_seats) if melded],
            "pile_top": None if self.pile_top is None else str(self.pile_top),
            "pile_size": self.pile_size,
            "frozen": self.frozen,
            "blocked": self.blocked,
            "stock_size": self.stock_size,
            "turn": self.turn.to_dict(),
            "asked": list(self.asked),
            "legal_moves": [str(m) for m in self.legal_moves],
            "history": [e.to_dict() for e in self.history],
            "known": [" ".join(map(str, k)) for k in self.known],
            "discarded": [" ".join(map(str, d)) for d in self.discarded],
            "pile_seen": " ".join(map(str, self.pile_seen)),
        }
        if self.pile_covered:
            data["pile_covered"] = True
            if self.pile_top is None:
                data["pile_top"] = "hidden"
        if self.lone is not None:
            data["lone"] = self.lone
        if self.phase == OVER:
            data["went_out"] = self.went_out
            data["concealed"] = self.concealed
        if self.special_hand is not None:
            data["special_hand"] = self.special_hand
        if self.variant.talon_sizes:
            data["openings"] = list(self.openings)
            data["talon_taken"] = list(self.talon_taken)
        if self.talons_left:
            data["talons_left"] = list(self.talons_left)
        if self.variant.shows_turn_card:
            data["turn_card_drawn"] = self.turn_card_drawn
            data["turn_card"] = None if self.turn_card is None else str(self.turn_card)
        return data


class _MadeWhenRead:
    """A field of `Observation` that `observe` leaves out: made from the observation's own
    records (its table without hidden cards, and the table's memory) the first time it is
    read, and kept in the instance dictionary, where later reads find it first.

    Most readers read few of these fields (an encoder reads the records instead), and
    making them all was two fifths of what observing cost. A descriptor, not
    ``__getattr__``: a class with ``__getattr__`` makes every attribute read slower."""

    __slots__ = ("make", "name")

    def __init__(self, name: str, make: Callable[[Observation], Any]) -> None:
        self.name = name
        self.make = make

    def __get__(self, obs: Observation | None, owner: type | None = None) -> Any:
        if obs is None:
            return self
        value = obs.__dict__[self.name] = self.make(obs)
        return value


def _club(obs: Observation) -> Club:
    return obs._template.club or NO_CLUB


#: The fields made when read, and how. (The hidden cards are the table's hands, stock and
#: talons, and the table's pile when its top card lies face down: the sizes and cards
#: made from those are set by `observe`.)
_MADE_WHEN_READ: dict[str, Callable[[Observation], Any]] = {
    "scores": lambda obs: obs._template.scores,
    "dealer": lambda obs: obs._template.dealer,
    "phase": lambda obs: obs._template.phase,
    "to_move": lambda obs: obs._template.to_move,
    "melds": lambda obs: obs._template.melds,
    "opened": lambda obs: obs._template.opened,
    "melded_seats": lambda obs: obs._template.melded_seats,
    "frozen": lambda obs: obs._template.frozen,
    "asked": lambda obs: obs._template.asked,
    "lone": lambda obs: obs._template.lone,
    "went_out": lambda obs: obs._template.went_out,
    "concealed": lambda obs: obs._template.concealed,
    "special_hand": lambda obs: obs._template.special,
    "openings": lambda obs: _club(obs).openings,
    "talon_taken": lambda obs: _club(obs).talon_taken,
    "turn_card_drawn": lambda obs: _club(obs).turn_card is not None,
    "hand": lambda obs: cards_of(obs._template.hands[obs.seat]),
    "threes": lambda obs: _cards_each(obs._template.threes),
    "pile_seen": lambda obs: cards_of(obs._template.pile),
    "turn": lambda obs: _progress(obs._template.turn),
    "known": lambda obs: _cards_each(obs._memory.known),
    "discarded": lambda obs: _cards_each(obs._memory.discarded),
}
# Set on the class once attrs has made it (attrs would take them for default values).
for _name, _make in _MADE_WHEN_READ.items():
    setattr(Observation, _name, _MadeWhenRead(_name, _make))

_new_observation = object.__new__
_set_attr = object.__setattr__


def _build(
    table: Table, memory: Memory, log: Step | None, seat: int, legal: tuple[Move, ...]
) -> Observation:
    """The observation of ``seat``, from the records of a state and its legal moves."""
    players = table.variant.players
    if type(seat) is not int or not 0 <= seat < players:  # the common case, inline
        seat = _input.seat(seat, players, ArgumentError)
    hands = table.hands
    hidden_hands = ((),) * seat + (hands[seat],) + ((),) * (len(hands) - seat - 1)
    pile = table.pile
    stock = table.stock
    club = table.club
    turn_card = None
    talons_left: tuple[int, ...] = ()
    if club is not None:  # the Modern American club features (None in most variants)
        turn_card = club.turn_card
        if turn_card is None and table.turn_card_on_top:
            turn_card = stock[0]  # spec §3.5.11.2 TC2: face up on top of the stock
        talons = club.talons
        if talons:
            # The talons dealt face down are hidden cards too: only their sizes show.
            talons_left = tuple(0 if t is None else len(t) for t in talons)
            club = club._replace(talons=tuple(None if t is None else () for t in talons))
    # Every field but those made when read, set as the instance dictionary: attrs'
    # __init__ costs a keyword argument and a store per field, a fifth of what observing
    # costs (the test of this module checks that the keys and those made when read are
    # the fields).
    fields = {
        "variant": table.variant,
        "seat": seat,
        "hand_sizes": tuple(map(len, hands)),
        "pile_top": CARDS[pile[-1]] if pile else None,
        "pile_size": len(pile),
        "stock_size": len(stock),
        "legal_moves": legal,
        # (`evolved`: the changes as a dictionary, not keyword arguments copied into one.)
        "_template": evolved(table, {"hands": hidden_hands, "stock": (), "club": club}),
        "_memory": memory,
        "_log": log,
        "talons_left": talons_left,
        "turn_card": None if turn_card is None else CARDS[turn_card],
    }
    obs = _new_observation(Observation)
    _set_attr(obs, "__dict__", fields)
    if table.went_out is not None and seat != table.went_out and table.pile_covered:
        return _covered(obs, memory, log)
    return obs


def _covered(obs: Observation, memory: Memory, log: Step | None) -> Observation:
    """``obs``, of a seat but the one that went out, of a deal that ended by a covered
    discard: without the card (the pile top hidden, the pile seen below it, the table's
    memory without it, and the log with the move as a `CoveredDiscard`)."""
    # Spec §3.5.11.5 CD4. The going-out discard is the last card of its seat's discards
    # (a position's memory is checked for that) and the last step of the log (if the log
    # holds it: a position read at the end of the deal has none).
    seat = obs.went_out
    assert seat is not None
    own = memory.discarded[seat]
    if own:
        memory = with_discards(memory, seat, own[:-1])
    if log is not None and log.seat == seat and type(log.move) is Discard:
        log = with_last_move(log, _COVERED, ())
    template = obs._template
    # The pile seen and the discards are made from these records when read.
    return evolve(
        obs,
        pile_top=None,
        _template=evolve(template, pile=template.pile[:-1]),
        _memory=memory,
        _log=log,
    )


def observe(state: GameState, seat: int) -> Observation:
    """What ``seat`` may know about ``state``: the same as ``state.observe(seat)``."""
    return state.observe(seat)
