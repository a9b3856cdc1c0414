"""Shuffling and dealing a new deal (spec §2.2, §3.5.2).

The deck order is the only randomness in the library: ``new_game(seed=...)`` is
reproducible, and `deal` accepts an exact deck for records and tests.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from canasta import engine
from canasta.cards import JOKER
from canasta.errors import VariantError
from canasta.state import GameState
from canasta.table import DRAW, NEW_TURN
from canasta.variants import from_config, get
from canasta.variants.base import Variant


def resolve_variant(variant: Variant | str | Mapping[str, Any]) -> Variant:
    """A Variant from a Variant, a registered name or a config mapping."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return get(variant)
    if isinstance(variant, Mapping):
        return from_config(variant)
    raise VariantError(f"expected a variant, a name or a config mapping, got {variant!r}")


def full_deck(variant: Variant) -> list[int]:
    """Every card of the variant's decks, as codes, in a fixed order."""
    one = [*range(52), JOKER, JOKER]
    return one * variant.decks


def shuffled_deck(variant: Variant, seed: int | None) -> list[int]:
    deck = full_deck(variant)
    random.Random(seed).shuffle(deck)
    return deck


def new_game(
    variant: Variant | str | Mapping[str, Any] = "classic",
    seed: int | None = None,
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
) -> GameState:
    """Shuffle (``seed`` makes it reproducible) and deal a new deal.

    The deck order depends only on ``seed`` and the number of decks, so one seed deals the
    same cards under every option of a variant.

    ``scores`` are the sides' cumulative scores before the deal (they set the initial-meld
    minimum); ``dealer`` defaults to the last seat, so seat 0 plays first.
    """
    resolved = resolve_variant(variant)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return deal(resolved, shuffled_deck(resolved, seed), scores, dealer)


def deal(
    variant: Variant,
    deck: Sequence[int],
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
) -> GameState:
    """Deal from ``deck`` (top card first) and run the upcard and red-three procedures."""
    players = variant.players
    if dealer is None:
        dealer = players - 1
    if not 0 <= dealer < players:
        raise VariantError(f"dealer must be a seat from 0 to {players - 1}, got {dealer!r}")
    if scores is None:
        scores = (0,) * variant.sides
    if len(scores) != variant.sides:
        raise VariantError(f"scores needs {variant.sides} entries, got {list(scores)!r}")
    first = (dealer + 1) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    position = 0
    # Spec §2.2 (1): one card at a time, clockwise, starting left of the dealer.
    for _ in range(variant.hand_size):
        for offset in range(players):
            hands[(first + offset) % players].append(deck[position])
            position += 1
    stock = list(deck[position:])
    pile: list[int] = []
    if variant.starts_with_upcard:
        # Spec §2.2 (3): turn the upcard; cover it while it is in the skip set.
        pile.append(stock.pop(0))
        while stock and variant.upcard_covered(pile[-1]):
            pile.append(stock.pop(0))
    state = GameState(
        variant=variant,
        scores=tuple(int(s) for s in scores),
        dealer=dealer,
        to_move=first,
        phase=DRAW,
        hands=tuple(tuple(sorted(h)) for h in hands),
        pile=tuple(pile),
        stock=tuple(stock),
        melds=((),) * variant.sides,
        threes=((),) * variant.sides,
        frozen=any(variant.freezes_pile(c) for c in pile),
        opened=(False,) * variant.sides,
        melded_seats=(False,) * players,
        turn=NEW_TURN,
        asked=(0,) * players,
    )
    if variant.red_three_declare == "at_deal":
        # Spec §2.2 (4), D3: in turn order from the first player, each replaces in full.
        for offset in range(players):
            state = engine.declare_threes(state, (first + offset) % players)
    return engine.begin_turn(state, first)
