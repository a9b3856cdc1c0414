"""Choosing the stock's next cards: `GameState.with_stock_top`, and the promise it rests on:
every draw from the stock takes the first card, and whether another card is taken depends
only on the cards taken before it (a draw, the cards that replace threes, the upcard and
its covers at the deal)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta import Card, parse_cards
from canasta.table import TURN_CARD_DEPTH
from helpers import bag, hand, stock, threes
from strategies import Played, played, variant_names


def _observations(state: canasta.GameState) -> list[canasta.Observation]:
    return [state.observe(seat) for seat in range(state.players)]


def _stock_cards(state: canasta.GameState) -> list[Card]:
    return list(parse_cards(" ".join(stock(state))))


def test_the_cards_go_on_top_in_order_and_the_rest_keeps_its_order() -> None:
    state = canasta.new_game("classic", seed=5).apply("draw")
    cards = _stock_cards(state)
    top = [cards[7], cards[3], cards[40]]
    stacked = state.with_stock_top(top)
    rest = [c for i, c in enumerate(cards) if i not in (3, 7, 40)]
    assert _stock_cards(stacked) == top + rest
    # Text works too, and an empty top changes nothing.
    assert state.with_stock_top(" ".join(map(str, top))) == stacked
    assert state.with_stock_top([]) == state
    # Nothing a seat sees changes: observations, legal moves and history are the same.
    assert _observations(stacked) == _observations(state)
    assert stacked.legal_moves() == state.legal_moves()
    assert stacked.history() == state.history()
    assert stacked != state  # the stock's order is part of the deal


def test_the_next_draw_takes_the_cards_on_top_and_replaces_a_red_three() -> None:
    state = canasta.new_game("classic", seed=5)  # classic: a draw takes one card
    cards = _stock_cards(state)
    red = next(c for c in cards if c.rank == "3" and c.suit in ("H", "D"))
    others = [c for c in cards if c.rank not in ("3", "2", "*")]
    top = [red, others[0], others[1]]
    after = state.with_stock_top(top).apply("draw")
    assert hand(after, 0) == hand(state, 0) + bag(str(others[0]))
    assert threes(after, 0) == threes(state, 0) + bag(str(red))
    assert _stock_cards(after)[0] == others[1]
    assert len(after.stock) == len(state.stock) - 2


@pytest.mark.parametrize(
    "top",
    ["KH KH KH", "XX", [Card("K")], ["KH"]],
    ids=["more copies than the stock has", "not card text", "a rank pattern", "not a Card"],
)
def test_cards_not_in_the_stock_are_refused(top: object) -> None:
    state = canasta.new_game("classic", seed=5)
    before = state.to_dict()
    with pytest.raises(canasta.ArgumentError, match="stock top"):
        state.with_stock_top(top)  # type: ignore[arg-type]
    assert state.to_dict() == before


def _restacked(state: canasta.GameState, taken: int, rng: random.Random) -> canasta.GameState:
    """``state`` with the first ``taken`` stock cards kept on top and the rest shuffled,
    but for the Modern American turn card, which keeps its place: a draw that brings it on
    top shows it to everyone, so the card there is part of what the move revealed."""
    cards = _stock_cards(state)
    rest = cards[taken:]
    turn_at = len(cards) - TURN_CARD_DEPTH - taken  # its index in ``rest``
    if turn_at >= 0 and rest[turn_at] == state.turn_card:
        turn = rest.pop(turn_at)
        rng.shuffle(rest)
        rest.insert(turn_at, turn)
    else:
        rng.shuffle(rest)
    return state.with_stock_top(cards[:taken] + rest)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(played(max_plies=200), st.randoms(use_true_random=False))
def test_a_move_takes_stock_cards_one_after_another(game: Played, rng: random.Random) -> None:
    # A move that took k cards from the stock takes the same k cards, with the same result
    # as the seats see it, whatever lies below them: the promise with_stock_top rests on.
    state = game.state
    if state.is_over:
        return
    for move in state.legal_moves():
        after = state.apply(move)
        taken = len(state.stock) - len(after.stock)
        again = _restacked(state, taken, rng).apply(move)
        assert len(again.stock) == len(after.stock)
        assert _observations(again) == _observations(after)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(variant_names(), st.randoms(use_true_random=False))
def test_a_deal_takes_stock_cards_one_after_another(name: str, rng: random.Random) -> None:
    # The same for the deal: the hands, the upcard and its covers, the threes replaced.
    variant = canasta.variants.get(name)
    one_deck = [Card(rank, suit) for rank in "A23456789TJQK" for suit in "SHDC"]
    deck = (one_deck + [Card("*")] * 2) * variant.decks
    rng.shuffle(deck)
    state = canasta.new_game(variant, deck=deck)
    taken = len(deck) - len(state.stock)
    rest = deck[taken:]
    rng.shuffle(rest)
    again = canasta.new_game(variant, deck=deck[:taken] + rest)
    assert len(again.stock) == len(state.stock)
    assert _observations(again) == _observations(state)
