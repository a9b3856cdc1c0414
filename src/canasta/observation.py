"""What one seat may know: `Observation` (api.md §5) and `sample_state`.

An observation is built *for an explicit seat*. It has two parts:

* **what is visible now**: the seat's own hand, the other hands' sizes, every side's melds
  and threes, the pile's top card and size, whether the pile is frozen, the stock size,
  the scores, the phase, who is to move, the public progress of the current turn, and the
  legal moves when the seat is to act. Two states that differ only in what the seat
  cannot see (other hands, the stock order, the pile below its top) give equal
  observations.
* **what the seat remembers** (perfect recall, as in OpenSpiel): the public history of the
  deal (every move with the exact cards it showed; cards drawn from the stock stay hidden),
  the cards known to be in each hand (taken from the pile and not played since), and the
  part of the pile whose discards the seat saw. Like `GameState`'s history,
  this part does not take part in equality.

`sample_state` deals the unseen cards at random into a full
`GameState` that gives the same observation (a *determinization*, for
bots that search).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from canasta.cards import CARDS, RANKS, Card, format_codes
from canasta.moves import Move
from canasta.table import NEW_TURN, OVER, WILD_RANK, Meld, Turn
from canasta.variants.base import Variant

if TYPE_CHECKING:
    from canasta.state import Event, GameState

__all__ = ["Observation", "PublicEvent", "observe", "sample_state"]


@attrs.frozen
class PublicEvent:
    """One move of the deal as the whole table saw it.

    Attributes:
        seat: the seat that made the move.
        move: the move as played (rank patterns are kept as written).
        cards: the exact cards the move took from the hand (melded, laid off or
            discarded); empty for a draw, whose cards nobody else sees.
        taken: the pile (bottom to top) when the move took it, else empty.
        threes: threes laid face up for the mover's side during the move.
    """

    seat: int
    move: Move
    cards: tuple[Card, ...]
    taken: tuple[Card, ...]
    threes: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the move as text and each card group as a card string."""
        return {
            "seat": self.seat,
            "move": str(self.move),
            "cards": " ".join(map(str, self.cards)),
            "taken": " ".join(map(str, self.taken)),
            "threes": " ".join(map(str, self.threes)),
        }


def _cards(codes: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in codes)


@attrs.frozen
class Observation:
    """Everything ``seat`` may know about a deal (api.md §5).

    Build one with `canasta.GameState.observe`. Equality compares what is visible
    now; the remembered part (``history``, ``known``, ``pile_seen``) is left out of
    equality, as a `GameState`'s history is.

    Attributes:
        variant: the rules.
        seat: the seat this observation is for.
        scores: each side's cumulative score before this deal.
        dealer: the dealer of this deal.
        phase: ``"draw"``, ``"play"``, ``"answer"`` or ``"over"``.
        to_move: the seat to act, or None once the deal is over.
        hand: the seat's own hand, sorted.
        hand_sizes: the number of cards in each seat's hand.
        melds: each side's melds.
        threes: each side's threes laid face up.
        opened: each side has completed its initial meld this deal.
        melded_seats: each seat has melded or laid off earlier this deal (spec §2.10).
        pile_top: the pile's top card, or None when the pile is empty.
        pile_size: the number of cards in the pile.
        frozen: the pile is frozen (spec §2.7).
        stock_size: the number of cards in the stock.
        turn: the public progress of the current turn (pile taken, opening value so far,
            pile cards waiting to join the hand, partner asked and the answer, ...).
        asked: how often each seat has asked partner (Modern American, D26).
        lone: the lone hand of 3-player cutthroat once known, else None.
        went_out: the seat that went out, once the deal is over.
        concealed: the deal ended by a concealed going out.
        legal_moves: the legal moves when ``seat`` is to act, else empty.
        history: the public history of the deal (remembered; not compared).
        known: per seat, cards known to be in that hand: taken from the pile and not
            played since (remembered; not compared).
        pile_seen: the top part of the pile, bottom to top, whose discards the seat saw
            (the whole pile once the history reaches back to the last take; at least the
            top card); remembered, not compared.
    """

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
    turn: Turn
    asked: tuple[int, ...]
    lone: int | None
    went_out: int | None
    concealed: bool
    legal_moves: tuple[Move, ...]
    history: tuple[PublicEvent, ...] = attrs.field(eq=False, repr=False)
    known: tuple[tuple[Card, ...], ...] = attrs.field(eq=False, repr=False)
    pile_seen: tuple[Card, ...] = attrs.field(eq=False, repr=False)
    # The public part of the state, hidden cards removed; sample_state fills them in.
    _template: GameState = attrs.field(eq=False, repr=False, alias="template")

    # -- derived facts ---------------------------------------------------------------------

    @property
    def side(self) -> int:
        """The seat's side."""
        return self.variant.side_of(self.seat)

    @property
    def players(self) -> int:
        return self.variant.players

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
        top = self.pile_top
        return top is None or self.variant.blocks_pile(top.code)

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
            "turn": _turn_dict(self.turn),
            "asked": list(self.asked),
            "legal_moves": [str(m) for m in self.legal_moves],
            "history": [e.to_dict() for e in self.history],
            "known": [" ".join(map(str, k)) for k in self.known],
            "pile_seen": " ".join(map(str, self.pile_seen)),
        }
        if self.lone is not None:
            data["lone"] = self.lone
        if self.phase == OVER:
            data["went_out"] = self.went_out
            data["concealed"] = self.concealed
        return data


def _turn_dict(turn: Turn) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for field in attrs.fields(Turn):
        value = getattr(turn, field.name)
        if value == getattr(NEW_TURN, field.name):
            continue
        if field.name == "waiting":
            value = format_codes(value)
        elif field.name == "groups":
            value = [
                ["*" if g.rank == WILD_RANK else RANKS[g.rank], g.naturals, g.wilds, g.from_hand]
                for g in value
            ]
        entry[field.name] = value
    return entry


@functools.lru_cache(maxsize=1 << 14)
def _public(event: Event) -> PublicEvent:
    return PublicEvent(
        seat=event.seat,
        move=event.move,
        cards=_cards(event.cards),
        taken=_cards(event.taken),
        threes=_cards(event.threes),
    )


def _remove(bag: Counter[int], codes: tuple[int, ...]) -> None:
    for code in codes:
        if bag[code]:
            bag[code] -= 1


def _memory(
    state: GameState, events: tuple[Event, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Known cards per seat and the seen top part of the pile, from the public history."""
    laid_out = state.variant.laid_out_threes
    known: list[Counter[int]] = [Counter() for _ in range(state.variant.players)]
    seen = 0  # cards on top of the pile whose discard is in the history
    whole = False  # the history reaches back to the pile's last take
    for event in events:
        _remove(known[event.seat], event.cards)
        if event.taken:
            # The top card went to a meld; the rest (threes aside) into the taker's hand.
            known[event.seat].update(c for c in event.taken[:-1] if c not in laid_out)
            seen, whole = 0, True
        if event.move.kind == "discard":
            seen += 1
    waiting = state.turn.waiting
    if waiting and state.to_move is not None:
        # Pile cards waiting for the opening to complete are not in the hand yet.
        _remove(known[state.to_move], waiting)
    pile = state.pile
    count = len(pile) if whole else min(max(seen, 1 if pile else 0), len(pile))
    return (
        tuple(tuple(sorted(bag.elements())) for bag in known),
        pile[len(pile) - count :],
    )


def observe(
    state: GameState, seat: int, *, history: tuple[Event, ...] | None = None
) -> Observation:
    """What ``seat`` may know about ``state``; see `Observation`.

    Args:
        state: the deal.
        seat: the seat to observe for, ``0 .. players - 1``.
        history: the deal's events to remember, by default ``state.history()``
            (pass ``()`` for an observation without memory, which is cheaper).

    Returns:
        The seat's `Observation`.

    Raises:
        ValueError: ``seat`` is not a seat of the variant.
    """
    players = state.variant.players
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise ValueError(f"seat must be from 0 to {players - 1}, got {seat!r}")
    events = state.history() if history is None else history
    known, seen = _memory(state, events)
    hidden_hands = tuple(h if s == seat else () for s, h in enumerate(state.hands))
    template = attrs.evolve(state, hands=hidden_hands, stock=(), pile=state.pile[-1:])
    return Observation(
        variant=state.variant,
        seat=seat,
        scores=state.scores,
        dealer=state.dealer,
        phase=state.phase,
        to_move=state.to_move,
        hand=_cards(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        melds=state.melds,
        threes=tuple(_cards(t) for t in state.threes),
        opened=state.opened,
        melded_seats=state.melded_seats,
        pile_top=state.pile_top,
        pile_size=len(state.pile),
        frozen=state.frozen,
        stock_size=len(state.stock),
        turn=state.turn,
        asked=state.asked,
        lone=getattr(state, "lone", None),
        went_out=state.went_out,
        concealed=state.concealed,
        legal_moves=state.legal_moves() if state.to_move == seat else (),
        history=tuple(_public(e) for e in events),
        known=tuple(_cards(k) for k in known),
        pile_seen=_cards(seen),
        template=template,
    )


def _deck(variant: Variant) -> Counter[int]:
    from canasta.deal import full_deck

    return Counter(full_deck(variant))


def sample_state(observation: Observation, rng: random.Random | None = None) -> GameState:
    """A full game state consistent with ``observation``, hidden cards dealt at random.

    The cards the seat has not seen are shuffled and dealt to the other hands (after the
    cards known to be there), to the pile below the part the seat saw, and to the stock,
    each with its observed size. Threes that the variant lays face up are never dealt into
    a hand, and the pile's hidden part agrees with ``frozen``. The result gives an
    observation equal to ``observation`` for the same seat; its history is empty.

    Args:
        observation: an observation made by `observe`.
        rng: the source of randomness (a new unseeded ``random.Random`` by default).

    Returns:
        A `GameState`.

    Raises:
        ValueError: the observation cannot be completed (it is inconsistent).
    """
    rng = rng if rng is not None else random.Random()
    obs = observation
    variant = obs.variant
    laid_out = variant.laid_out_threes
    pool = _deck(variant)
    used: list[int] = [c.code for c in obs.hand]
    used += [c for side in obs.melds for m in side for c in m.codes]
    used += [c.code for side in obs.threes for c in side]
    used += [c.code for c in obs.pile_seen]
    used += list(obs.turn.waiting)
    for seat, known_cards in enumerate(obs.known):
        if seat != obs.seat:
            used += [c.code for c in known_cards]
    left = pool.copy()
    left.subtract(used)
    if any(n < 0 for n in left.values()):
        raise ValueError("observation uses more cards than the variant's decks hold")
    cards = list(left.elements())
    rng.shuffle(cards)

    def take(count: int, allowed: Any, what: str) -> list[int]:
        chosen: list[int] = []
        rest: list[int] = []
        for code in cards:
            if len(chosen) < count and allowed(code):
                chosen.append(code)
            else:
                rest.append(code)
        if len(chosen) < count:
            raise ValueError(f"cannot complete the observation: too few unseen cards for {what}")
        cards[:] = rest
        return chosen

    # The pile below the part the seat saw.
    hidden_pile = obs.pile_size - len(obs.pile_seen)
    bottom: list[int] = []
    if hidden_pile > 0:
        seen_freezes = any(variant.freezes_pile(c.code) for c in obs.pile_seen)
        if obs.frozen and not seen_freezes:
            bottom = take(1, variant.freezes_pile, "the frozen pile")
            hidden_pile -= 1
        bottom += take(
            hidden_pile,
            lambda c: c not in laid_out and not variant.freezes_pile(c),
            "the pile",
        )
        rng.shuffle(bottom)
    hands: list[tuple[int, ...]] = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat:
            hands.append(tuple(c.code for c in obs.hand))
            continue
        known = [c.code for c in obs.known[seat]]
        extra = take(size - len(known), lambda c: c not in laid_out, f"seat {seat}'s hand")
        hands.append(tuple(sorted(known + extra)))
    stock = take(obs.stock_size, lambda c: True, "the stock")
    pile = tuple(bottom) + tuple(c.code for c in obs.pile_seen)
    return attrs.evolve(obs._template, hands=tuple(hands), pile=pile, stock=tuple(stock))
