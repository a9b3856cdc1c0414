"""Shuffling and dealing a new deal: `new_game`.

The deck order is the only randomness in the library: ``new_game(seed=...)`` is
reproducible, and ``new_game(deck=...)`` deals from an exact card order (for records,
tests, and environments whose chance events pick the cards).
"""
# Spec §2.2, §3.5.2.

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from canasta._input import MAX_INT, MAX_INT_DIGITS, excerpt
from canasta._rules.transitions import deal as deal_table
from canasta.cards import JOKER, Card, card_codes
from canasta.errors import NotationError, PositionError, VariantError
from canasta.state import GameState
from canasta.variants import from_config, get
from canasta.variants.base import Variant, canonical

__all__ = ["new_game"]


def resolve_variant(variant: Variant | str | Mapping[str, Any]) -> Variant:
    """A Variant from a Variant, a registered name or a config mapping."""
    if isinstance(variant, Variant):
        return canonical(variant)
    if isinstance(variant, str):
        return get(variant)
    if isinstance(variant, Mapping):
        return from_config(variant)
    raise VariantError(f"expected a variant, a name or a config mapping, got {variant!r}")


def full_deck(variant: Variant) -> list[int]:
    """Every card of the variant's decks, as codes, in a fixed order."""
    one = [*range(52), JOKER, JOKER]
    return one * variant.decks


def _shuffled_deck(variant: Variant, seed: int | None) -> list[int]:
    deck = full_deck(variant)
    random.Random(seed).shuffle(deck)
    return deck


def _deck_codes(variant: Variant, deck: Sequence[Card] | str) -> tuple[int, ...]:
    """The codes of a deck given as cards or card text; it must be the variant's cards."""
    try:
        codes = card_codes(deck)
    except NotationError as exc:
        raise PositionError(f"deck: {exc}") from None
    cards = full_deck(variant)
    if Counter(codes) != Counter(cards):
        raise PositionError(
            f"deck must hold exactly the {len(cards)} cards of "
            f"{variant.decks} deck(s), each once per deck; got {len(codes)} cards"
        )
    return codes


def new_game(
    variant: Variant | str | Mapping[str, Any] = "classic",
    seed: int | None = None,
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
    *,
    deck: Sequence[Card] | str | None = None,
) -> GameState:
    """Shuffle (``seed`` makes it reproducible) and deal a new deal.

    The deck order depends only on ``seed`` and the number of decks, so one seed deals the
    same cards under every option of a variant. ``deck`` deals from an exact order instead
    (top card first): every card of the variant's decks once per deck, as `Card` values or
    card text.

    ``scores`` are the sides' cumulative scores before the deal (they set the initial-meld
    minimum); ``dealer`` defaults to the last seat, so seat 0 plays first.

    Raises:
        PositionError: ``deck`` is not exactly the variant's cards, or ``seed`` is given
            with it.
    """
    resolved = resolve_variant(variant)
    check_seed(seed)
    if deck is not None:
        if seed is not None:
            raise PositionError("give a seed or a deck, not both")
        return deal(resolved, _deck_codes(resolved, deck), scores, dealer)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return deal(resolved, _shuffled_deck(resolved, seed), scores, dealer)


def check_seed(seed: object) -> None:
    """A seed is an integer (not a bool) of at most 20 digits, or None; else VariantError."""
    if seed is not None and (type(seed) is not int or abs(seed) > MAX_INT):
        raise VariantError(
            f"seed must be an integer of at most {MAX_INT_DIGITS} digits or None, "
            f"got {excerpt(seed)}"
        )


def deal(
    variant: Variant,
    deck: Sequence[int],
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
) -> GameState:
    """Deal from ``deck`` (codes, top card first) and run the upcard and red-three
    procedures."""
    players = variant.players
    if dealer is None:
        dealer = players - 1
    if type(dealer) is not int or not 0 <= dealer < players:
        raise VariantError(f"dealer must be a seat from 0 to {players - 1}, got {dealer!r}")
    if scores is None:
        scores = (0,) * variant.sides
    if (
        isinstance(scores, str)
        or not isinstance(scores, Sequence)
        or len(scores) != variant.sides
        or any(type(s) is not int or abs(s) > MAX_INT for s in scores)
    ):
        raise VariantError(
            f"scores needs {variant.sides} integers of at most {MAX_INT_DIGITS} digits, "
            f"got {excerpt(scores)}"
        )
    return GameState(deal_table(variant, deck, tuple(scores), dealer))
