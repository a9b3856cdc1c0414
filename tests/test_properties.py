"""Property tests: invariants of every registered variant on states reached by random play.

Each test runs once per variant of ``canasta.variants.names()`` (and the Modern American
club preset with its talons dealt face down, as a config) on states that Hypothesis
reaches by random legal moves (see ``strategies.played``). The checks are written here
directly from api.md (not through :mod:`canasta.testing`), so they are a second,
independent implementation of the conformance checks.

Runs are deterministic (``derandomize=True``, no example database), so CI sees the same
examples every time. A failing example prints as ``canasta.new_game(...).play(...)``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import canasta
from strategies import Played, move_texts, played, seeds

#: A variant as the tests name it: registered, or a config.
Variant = str | dict[str, Any]

#: Talons dealt face down at the deal: the club feature no preset has.
SET_ASIDE: dict[str, Any] = {"variant": "modern-american-club", "mac_talon_source": "set_aside"}
NAMES: list[Variant] = [*canasta.variants.names(), SET_ASIDE]

PROPERTIES = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=30,
    # No shrinking: a failure prints its replay line at once instead of minutes later.
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

by_variant = pytest.mark.parametrize(
    "name", NAMES, ids=lambda v: v if isinstance(v, str) else "modern-american-club-set-aside"
)


def _bag(text: str) -> Counter[str]:
    return Counter(str(card) for card in canasta.parse_cards(text))


def _cards_of_position(data: dict[str, Any]) -> Counter[str]:
    """Every card a position shows, by card text (api.md §6 plus the pending pile cards)."""
    cards: Counter[str] = Counter()
    for text in [*data["hands"], data["pile"], data["stock"], *data["threes"]]:
        cards += _bag(text)
    for side in data["melds"]:
        for meld in side:
            cards += _bag(meld)
    cards += _bag(data.get("turn", {}).get("waiting", ""))
    for talon in data.get("talons", {}).values():
        cards += _bag(talon or "")
    return cards


def _deck(variant: canasta.Variant) -> Counter[str]:
    deck = Counter({rank + suit: variant.decks for rank in "A23456789TJQK" for suit in "SHDC"})
    deck["*"] = 2 * variant.decks
    return deck


def _suit_free(move: canasta.Move) -> bool:
    _kind, _sep, body = str(move).partition(":")
    return not any(ch in "SHDC" for ch in body)


@by_variant
@PROPERTIES
@given(data=st.data())
def test_every_card_is_in_exactly_one_place(name: Variant, data: st.DataObject) -> None:
    game = data.draw(played(name))
    state = game.state
    assert _cards_of_position(state.to_dict()) == _deck(state.variant)


@by_variant
@PROPERTIES
@given(data=st.data())
def test_every_listed_move_is_legal_and_applies(name: Variant, data: st.DataObject) -> None:
    game = data.draw(played(name))
    state = game.state
    before = state.to_dict()
    legal = state.legal_moves()
    assert len(set(legal)) == len(legal), "a move is listed twice"
    assert (not legal) == state.is_over
    for move in legal:
        assert _suit_free(move), move
        assert canasta.parse_move(str(move)) == move
        assert state.check(move) is None, move
        assert state.is_legal(str(move)), move
        after = state.apply(move)
        assert after != state, move
        assert _cards_of_position(after.to_dict()) == _deck(state.variant), move
    assert state.to_dict() == before, "applying moves changed the state"
    assert state == canasta.GameState.from_dict(before)


@by_variant
@PROPERTIES
@given(data=st.data())
def test_unlisted_moves_are_rejected_without_change(name: Variant, data: st.DataObject) -> None:
    game = data.draw(played(name))
    state = game.state
    before = state.to_dict()
    legal = set(state.legal_moves())
    for _ in range(8):
        text = data.draw(move_texts(state))
        move = canasta.parse_move(text)
        reason = state.check(move)
        assert (reason is None) == (move in legal), (text, reason)
        if reason is None:
            continue
        assert isinstance(reason, canasta.IllegalReason)
        with pytest.raises(canasta.IllegalMoveError) as info:
            state.apply(text)
        assert info.value.reason is reason
        assert state.to_dict() == before


@by_variant
@PROPERTIES
@given(data=st.data())
def test_position_format_round_trips(name: Variant, data: st.DataObject) -> None:
    game = data.draw(played(name))
    state = game.state
    as_dict = state.to_dict()
    back = canasta.GameState.from_dict(json.loads(json.dumps(as_dict)))
    assert back == state
    assert back.legal_moves() == state.legal_moves()
    assert back.to_dict() == as_dict
    text = state.to_json()
    assert json.loads(text) == as_dict
    again = canasta.GameState.from_json(text)
    assert again == state
    assert again.legal_moves() == state.legal_moves()


@by_variant
@PROPERTIES
@given(data=st.data())
def test_outcome_only_when_over(name: Variant, data: st.DataObject) -> None:
    game = data.draw(played(name))
    state = game.state
    assert (state.outcome() is None) == (not state.is_over)
    assert (state.to_move is None) == state.is_over
    assert state.phase in ("draw", "play", "answer", "over")


def _play_out(name: Variant, seed: int, limit: int = 20000) -> Played:
    rng = random.Random(seed)
    state = canasta.new_game(name, seed=seed)
    moves: list[canasta.Move] = []
    while not state.is_over and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        moves.append(move)
    return Played(name, seed, tuple(moves), state)


@by_variant
@PROPERTIES
@given(seed=seeds())
def test_deals_end_and_score_in_fives(name: Variant, seed: int) -> None:
    game = _play_out(name, seed)
    state = game.state
    assert state.is_over, f"{game!r} has not ended after {len(game.moves)} plies"
    outcome = state.outcome()
    assert outcome is not None
    sides = state.variant.sides
    assert len(outcome.scores) == len(outcome.breakdown) == sides
    for score, rows in zip(outcome.scores, outcome.breakdown, strict=True):
        assert score == sum(points for _label, points in rows), rows
        assert score % 5 == 0, rows
    if outcome.went_out is not None:
        assert not state.hands[outcome.went_out]
    assert tuple(event.move for event in state.history()) == game.moves
    assert canasta.new_game(name, seed=seed).play(game.moves) == state


def _card_list(text: str) -> list[str]:
    return text.split() if text else []


@st.composite
def _mutated_position(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """A position reached by random play, then changed in one to three ways a hand-written
    or corrupted position might be: cards moved between hands, pile and stock, a hand or
    the stock emptied, another phase or seat to move, turn progress or opened flags set."""
    data = draw(played(name, max_plies=120)).state.to_dict()
    seats = len(data["hands"])
    places = [f"hands.{s}" for s in range(seats)] + ["pile", "stock"]

    def get(place: str) -> list[str]:
        if place.startswith("hands."):
            return _card_list(data["hands"][int(place[6:])])
        return _card_list(data.get(place) or "")

    def put(place: str, cards: list[str]) -> None:
        if place.startswith("hands."):
            data["hands"][int(place[6:])] = " ".join(cards)
        else:
            data[place] = " ".join(cards)

    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("move", "empty", "phase", "seat", "turn", "opened")))
        if kind == "move":
            source, target = draw(st.sampled_from(places)), draw(st.sampled_from(places))
            cards = get(source)
            if cards:
                card = cards.pop(draw(st.integers(0, len(cards) - 1)))
                put(source, cards)
                put(target, [*get(target), card])
        elif kind == "empty":
            put(draw(st.sampled_from(places)), [])
        elif kind == "phase":
            data["phase"] = draw(st.sampled_from(("draw", "play", "answer", "over")))
        elif kind == "seat":
            data["to_move"] = draw(st.integers(0, seats - 1))
        elif kind == "turn":
            turn = dict(data.get("turn", {}))
            key = draw(st.sampled_from(("took_pile", "must_go_out", "no_discard", "asked")))
            turn[key] = draw(st.booleans())
            data["turn"] = turn
        else:
            sides = len(data["melds"])
            data["opened"] = [draw(st.booleans()) for _ in range(sides)]
    return data


@by_variant
@PROPERTIES
@given(data=st.data())
def test_an_accepted_position_can_always_be_played_on(name: str, data: st.DataObject) -> None:
    """A position `from_dict` accepts has a legal move or is over, and so does every state
    random play reaches from it: a program can never get stuck on a position it was given."""
    position = data.draw(_mutated_position(name))
    try:
        state = canasta.GameState.from_dict(position)
    except canasta.PositionError:
        return
    rng = random.Random(data.draw(seeds()))
    for _ in range(200):
        if state.is_over:
            return
        legal = state.legal_moves()
        assert legal, f"no legal move, deal not over: {json.dumps(state.to_dict())}"
        state = state.apply(rng.choice(legal))
