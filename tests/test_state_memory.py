"""A state holds no earlier state: freed predecessors, copies, pickles, and a saved position
that observes like the original (the engine's memory carried move by move)."""

from __future__ import annotations

import copy
import gc
import pickle
import random
import weakref

import pytest

import canasta
from canasta.bots import GreedyBot, RandomBot

VARIANTS = ("classic", "modern-american", "classic-3p-cutthroat", "classic-6p")


def _random_line(variant: str, seed: int, plies: int) -> list[canasta.GameState]:
    rng = random.Random(seed)
    state = canasta.new_game(variant, seed=seed)
    states = [state]
    while not state.is_over and len(states) <= plies:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def test_an_early_state_is_freed_once_only_the_last_is_held() -> None:
    gc.disable()  # freed by reference counting alone: no cycle keeps it
    try:
        rng = random.Random(3)
        state = canasta.new_game("classic", seed=3)
        first = weakref.ref(state)
        for _ in range(40):
            state = state.apply(rng.choice(state.legal_moves()))
        state.observe(0)
        state.history()
        assert first() is None
        assert len(state.history()) == 40
    finally:
        gc.enable()


def test_copies_of_a_state_are_the_state_itself() -> None:
    state = _random_line("classic", 5, 30)[-1]
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    assert copy.deepcopy([state])[0] is state


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pickled_state_plays_on_with_its_history(variant: str) -> None:
    for state in _random_line(variant, 8, 60)[::7]:
        loaded = pickle.loads(pickle.dumps(state))
        assert loaded == state
        assert loaded.history() == state.history()
        assert loaded.legal_moves() == state.legal_moves()
        for seat in range(state.players):
            assert loaded.observe(seat) == state.observe(seat)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pickle_holds_the_deal_and_no_cache_of_the_rules(variant: str) -> None:
    # A pickle names only public modules, so that the private rules may change; the facts
    # the rules cache on a state are rebuilt after loading.
    for state in _random_line(variant, 4, 40)[::3]:
        moves = state.legal_moves()  # caches the facts of the player to move
        data = pickle.dumps(state)
        assert b"canasta._rules" not in data
        loaded = pickle.loads(data)
        assert loaded.legal_moves() == moves
        assert [loaded.check(m) for m in moves] == [None] * len(moves)


def test_a_pickle_does_not_grow_with_a_chain_of_states() -> None:
    states = _random_line("classic", 11, 80)
    # The log is stored flat: a pickle's size grows by a few dozen bytes per move.
    sizes = [len(pickle.dumps(s)) for s in states[::20]]
    growth = (sizes[-1] - sizes[0]) / (20 * (len(sizes) - 1))
    assert growth < 60


def test_the_history_shows_cards() -> None:
    state = _random_line("classic", 2, 40)[-1]
    for event in state.history():
        assert all(isinstance(c, canasta.Card) for c in event.cards + event.taken + event.threes)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_saved_position_observes_like_the_original(variant: str) -> None:
    for seed in range(4):
        for state in _random_line(variant, seed, 400):
            loaded = canasta.GameState.from_json(state.to_json())
            assert loaded == state
            for seat in range(state.players):
                assert loaded.observe(seat) == state.observe(seat)
                assert loaded.observe(seat).known == state.observe(seat).known


def test_known_cards_survive_a_reload() -> None:
    # Seat 0 takes the pile: the other seats know the pile's cards are in its hand.
    state = canasta.GameState.from_dict(
        {
            "variant": "classic",
            "phase": "draw",
            "hands": ["KH KD 5C 6D 7S 8H 9C", "4C 4D 5H 6S", "4S 5D 6H", "8S 9D TS"],
            "pile": "JH QS KC",
            "stock": "AS AH AD AC",
            "melds": [["TH TD TC"], []],
        }
    )
    state = state.apply("take:KK")
    assert state.observe(1).known[0] == canasta.parse_cards("JH QS")
    reloaded = canasta.GameState.from_json(state.to_json())
    assert reloaded.observe(1).known[0] == canasta.parse_cards("JH QS")
    assert reloaded.observe(1) == state.observe(1)


def test_discards_are_remembered() -> None:
    state = _random_line("classic", 4, 30)[-1]
    discarded: list[list[canasta.Card]] = [[] for _ in range(state.players)]
    for event in state.history():
        if event.move.kind == "discard":
            discarded[event.seat].extend(event.cards)
    assert state.observe(0).discarded == tuple(tuple(d) for d in discarded)


def _bots(players: int) -> list[canasta.bots.Bot]:
    return [GreedyBot(seed=s) if s % 2 == 0 else RandomBot(seed=s) for s in range(players)]


@pytest.mark.parametrize("variant", ("classic", "modern-american"))
def test_bots_play_the_same_after_a_reload_before_every_move(variant: str) -> None:
    for seed in range(3):
        start = canasta.new_game(variant, seed=seed)
        plain, reloading = start, start
        plain_bots, reloading_bots = _bots(start.players), _bots(start.players)
        while not plain.is_over:
            seat = plain.to_move
            assert seat is not None
            move = plain_bots[seat].choose(plain.observe(seat))
            reloading = canasta.GameState.from_json(reloading.to_json())
            again = reloading_bots[seat].choose(reloading.observe(seat))
            assert again == move
            plain, reloading = plain.apply(move), reloading.apply(again)
        assert reloading.outcome() == plain.outcome()


def test_observing_costs_the_same_late_in_a_deal() -> None:
    # An observation reads the memory; nothing walks the history.
    state = _random_line("classic", 9, 120)[-1]
    history = canasta.GameState.history
    try:
        canasta.GameState.history = None  # type: ignore[assignment,method-assign]
        obs = state.observe(1)
    finally:
        canasta.GameState.history = history  # type: ignore[method-assign]
    assert obs.known == state.observe(1).known


def test_moves_from_a_seat_not_to_move_are_refused() -> None:
    state = canasta.new_game("classic", seed=3)
    assert state.to_move == 0
    assert state.check("draw", seat=1) is canasta.IllegalReason.NOT_YOUR_TURN
    assert not state.is_legal("draw", seat=2) and state.is_legal("draw", seat=0)
    with pytest.raises(canasta.IllegalMoveError) as info:
        state.apply("draw", seat=1)
    assert info.value.reason is canasta.IllegalReason.NOT_YOUR_TURN
    assert state.apply("draw", seat=0) == state.apply("draw")
    after = state.apply("draw")
    discard = next(m for m in after.legal_moves() if m.kind == "discard")
    with pytest.raises(canasta.ReplayError) as replay:
        state.play("draw", discard, "draw", seat=0)
    assert replay.value.ply == 2 and replay.value.reason is canasta.IllegalReason.NOT_YOUR_TURN


def test_move_text_is_found_in_the_legal_moves() -> None:
    state = canasta.new_game("classic", seed=3)
    # Typed as a tuple of objects: mypy's strict equality would flag text in moves.
    legal: tuple[object, ...] = state.legal_moves()
    assert "draw" in legal and " DRAW " in legal
    assert canasta.parse_move("draw") in legal
    assert "discard:7" not in legal and "not a move" not in legal and 5 not in legal
    after = state.apply("draw")
    listed: tuple[object, ...] = after.legal_moves()
    assert all(str(m) in listed for m in after.legal_moves())
    assert after.legal_moves() == tuple(after.legal_moves())


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.observe(4),
        lambda s: s.observe(-1),
        lambda s: s.observe("0"),
        lambda s: s.hand(9),
        lambda s: s.hand(-1),
        lambda s: canasta.bots.make_bot("x"),
        lambda s: canasta.bots.play_deal(s, []),
    ],
)
def test_bad_arguments_raise_the_documented_error(call: object) -> None:
    state = canasta.new_game("classic", seed=1)
    with pytest.raises(canasta.ArgumentError):
        call(state)  # type: ignore[operator]


def test_rank_patterns_evaluate_back() -> None:
    for text in ("take:KK", "meld:QQ2*", "add:*+2", "discard:7"):
        move = canasta.parse_move(text)
        cards = move.cards if hasattr(move, "cards") else (move.card,)  # type: ignore[attr-defined]
        for card in cards:
            assert eval(repr(card), {"Card": canasta.Card}) == card


def test_stock_size_counts_the_stock_as_it_is_drawn() -> None:
    state = canasta.new_game("classic", seed=4)
    drawn = state.apply("draw")
    assert state.stock_size == len(state.stock) > drawn.stock_size == len(drawn.stock)


@pytest.mark.parametrize("variant", canasta.variants.names())
def test_play_and_observation_leave_no_reference_cycles(variant: str) -> None:
    # What a decision builds (its look-ahead searches included) must be freed by reference
    # counting alone: cyclic garbage of every move sets the collector off and keeps memory.
    gc.collect()
    gc.disable()
    try:
        for seed in range(2):
            rng = random.Random(seed)
            state = canasta.new_game(variant, seed=seed)
            while not state.is_over:
                for seat in range(state.players):
                    state.observe(seat)
                state = state.apply(rng.choice(state.legal_moves()))
            del state
        assert gc.collect() == 0
    finally:
        gc.enable()
