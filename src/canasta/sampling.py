"""Determinization: `sample_state` deals the cards a seat cannot see into a full state.

For bots that search: the sampled state gives the same observation for that seat, and it
keeps the deal's public history and the table's memory, so the seats of the sampled world
remember what the real ones do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from canasta.deal import full_deck
from canasta.errors import PositionError
from canasta.observation import Observation
from canasta.state import GameState
from canasta.table import evolve

__all__ = ["sample_state"]


def sample_state(observation: Observation, rng: random.Random | None = None) -> GameState:
    """A full game state consistent with ``observation``, hidden cards dealt at random.

    The cards the seat has not seen are shuffled and dealt to the other hands (after the
    cards known to be there) and to the stock, each with its observed size. Threes that the
    variant lays face up are never dealt into a hand. The result gives an observation equal
    to ``observation`` for the same seat, with the same history.

    Args:
        observation: an observation made by `canasta.GameState.observe`.
        rng: the source of randomness (a new unseeded ``random.Random`` by default).

    Returns:
        A `GameState`.

    Raises:
        PositionError: the observation cannot be completed (it is inconsistent).
    """
    rng = rng if rng is not None else random.Random()
    obs = observation
    variant = obs.variant
    laid_out = variant.laid_out_threes
    template = obs._template
    used: list[int] = [c.code for c in obs.hand]
    used += [c for side in obs.melds for m in side for c in m.codes]
    used += [c.code for side in obs.threes for c in side]
    used += [c.code for c in obs.pile_seen]
    used += list(obs.turn.waiting)
    for seat, known_cards in enumerate(obs.known):
        if seat != obs.seat:
            used += [c.code for c in known_cards]
    left = Counter(full_deck(variant))
    left.subtract(used)
    if any(n < 0 for n in left.values()):
        raise PositionError("observation uses more cards than the variant's decks hold")
    cards = list(left.elements())
    rng.shuffle(cards)

    def take(count: int, allowed: Callable[[int], bool], what: str) -> list[int]:
        chosen: list[int] = []
        rest: list[int] = []
        for code in cards:
            if len(chosen) < count and allowed(code):
                chosen.append(code)
            else:
                rest.append(code)
        if len(chosen) < count:
            raise PositionError(f"cannot complete the observation: too few unseen cards for {what}")
        cards[:] = rest
        return chosen

    def may_hold_threes(seat: int) -> bool:
        # Threes that go face up stay in a hand only once the deal is over (one drawn as
        # the last stock card, spec §3.5.2) or before the seat's first turn (D3).
        return obs.is_over or (not variant.declares_threes_at_deal and seat != obs.to_move)

    hands: list[tuple[int, ...]] = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat:
            hands.append(template.hands[seat])
            continue
        known = [c.code for c in obs.known[seat]]
        allowed = (lambda c: True) if may_hold_threes(seat) else (lambda c: c not in laid_out)
        extra = take(size - len(known), allowed, f"seat {seat}'s hand")
        hands.append(tuple(sorted(known + extra)))
    stock = take(obs.stock_size, lambda c: True, "the stock")
    table = evolve(template, hands=tuple(hands), stock=tuple(stock))
    return GameState(table, obs._memory, obs._log)
