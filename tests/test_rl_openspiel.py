"""The OpenSpiel game (`canasta.envs.openspiel`, ``canasta_lib``): OpenSpiel's own random
simulation test for every registered variant, the chance deal, the tensors and strings,
resampling, and the IS-MCTS example."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy
import pyspiel
import pytest

import canasta
import canasta.envs.openspiel
from canasta.cards import CARDS as LIBRARY_CARDS
from canasta.cards import Card
from canasta.envs.openspiel import CARDS, CHANCE_MODES, CanastaState
from canasta.rl import ActionSpace, ObservationEncoder, RLError, max_deal_moves, rewards
from test_examples import run


def _load(name: str, chance: str = "draw") -> pyspiel.Game:
    return pyspiel.load_game("canasta_lib", {"variant": name, "chance": chance})


@pytest.mark.parametrize("chance", CHANCE_MODES)
@pytest.mark.parametrize("name", canasta.variants.names())
def test_random_sim_test(name: str, chance: str) -> None:
    # OpenSpiel's conformance test: clones, serialization, sorted legal actions, masks,
    # chance outcomes, tensor sizes, returns within the utilities, the game length bound.
    pyspiel.random_sim_test(_load(name, chance), num_sims=1, serialize=True, verbose=False)


#: A config of several options, a table and a mapping among them: JSON text with commas.
CONFIG = {
    "variant": "modern-american-club",
    "minimum_table": [[-1000, 50], [3000, 90]],
    "mac_special_hand_set": "cla",
    "mac_special_hand_values": {"blast off": 100},
    "target_score": 3000,
}


@pytest.mark.parametrize("chance", CHANCE_MODES)
def test_a_game_of_a_variant_config_loads_back_from_its_string(chance: str) -> None:
    """OpenSpiel's game strings split parameters at commas: the game keeps the config
    with ";" for ",", so ``str(game)`` loads the same game and serialization works (it
    failed with "Unknown parameter" for any config of more than one key)."""
    game = _load(json.dumps(CONFIG), chance)
    assert "," not in game.get_parameters()["variant"]
    again = pyspiel.load_game(str(game))
    assert again.variant == game.variant == canasta.variants.from_config(CONFIG)
    assert again.get_parameters() == game.get_parameters()
    assert str(_load(json.dumps({"variant": "classic"}))) == str(_load("classic"))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_describes_the_variant() -> None:
    game = _load("modern-american")
    variant = canasta.variants.get("modern-american")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == ActionSpace(variant).size
    assert game.max_chance_outcomes() == 53 == len(CARDS)
    assert game.max_game_length() == max_deal_moves(variant)
    assert game.information_state_tensor_size() == ObservationEncoder(variant).size
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.min_utility() == -game.max_utility() < 0
    config = json.dumps({"variant": "classic", "target_score": 3000})
    assert _load(config).num_players() == 4
    with pytest.raises(canasta.UnknownVariantError):
        _load("no-such-variant")
    with pytest.raises(RLError, match="JSON"):
        _load('{"variant": ')
    with pytest.raises(canasta.VariantError, match="target_score"):
        _load(json.dumps({"variant": "classic", "target_score": "high"}))


def _deal_of(state: CanastaState) -> canasta.GameState:
    deal = state.game_state
    assert deal is not None
    return deal


def _chance(state: CanastaState, rng: random.Random) -> None:
    """Let chance pick an outcome by its probability (checking they add up to 1)."""
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert [a for a, _ in outcomes] == sorted({a for a, _ in outcomes})
    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def _dealt(game: pyspiel.Game, seed: int) -> CanastaState:
    rng = random.Random(seed)
    state: CanastaState = game.new_initial_state()
    while state.is_chance_node():
        _chance(state, rng)
    return state


def _play(state: CanastaState, rng: random.Random, moves: int) -> None:
    """``moves`` random moves, chance picking the cards they draw."""
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            _chance(state, rng)


def test_chance_deals_the_deck_card_by_card() -> None:
    game = _load("classic", "deck")
    state = game.new_initial_state()
    first = state.chance_outcomes()
    # Two decks: two of each card, four jokers, 108 cards.
    assert dict(first)[0] == pytest.approx(2 / 108) and dict(first)[52] == pytest.approx(4 / 108)
    state = _dealt(game, seed=1)
    assert len(state.history()) == 108
    deal = state.game_state
    assert deal is not None
    # The first card dealt went to seat 0 (left of the dealer), the second to seat 1.
    first_card, second_card = (CARDS[a] for a in state.history()[:2])
    assert first_card in deal.hand(0) and second_card in deal.hand(1)
    assert state.current_player() == 0
    # The stock's order is settled: a draw is no chance node.
    state.apply_action(ActionSpace(deal.variant).encode("draw"))
    assert not state.is_chance_node()


@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-2p"])
def test_chance_picks_each_stock_card_when_it_is_drawn(name: str) -> None:
    game = _load(name)
    variant = canasta.variants.get(name)
    draw = ActionSpace(variant).encode("draw")
    state = _dealt(game, seed=2)
    deal = _deal_of(state)
    # The hands, then the cards the deal took from the stock, then nothing more.
    assert len(state.history()) == 108 - len(deal.stock)
    rng = random.Random(2)
    draws = picked = 0
    while not state.is_terminal():
        before = _deal_of(state)
        assert state.current_player() == before.to_move
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        if action == draw:
            # The draw waits for chance, which offers the stock's cards by their share.
            draws += 1
            assert state.is_chance_node() and state.pending == canasta.parse_move("draw")
            assert _deal_of(state) is before
            stock = Counter(canasta.parse_cards(before.to_dict()["stock"]))
            offered = {CARDS[a]: p for a, p in state.chance_outcomes()}
            assert offered == pytest.approx({c: n / len(before.stock) for c, n in stock.items()})
        chosen: list[canasta.Card] = []
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            card = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"stock:{CARDS[card]}"
            state.apply_action(card)
            chosen.append(CARDS[card])
        picked += len(chosen)
        after = _deal_of(state)
        # Chance picked exactly the cards the move took from the stock, in order: playing
        # the move with them on top of the stock gives the same deal.
        assert len(before.stock) - len(after.stock) == len(chosen)
        if chosen:
            replay = before.with_stock_top(chosen).apply(after.history()[-1].move)
            assert replay.observe(0) == after.observe(0)
    assert draws > 10 and picked >= draws


def test_chance_picks_the_turn_card_as_it_comes_on_top() -> None:
    # Modern American turn card: hidden while cards lie on it, face up (public) on top of a
    # stock of 9. Chance picks it as the move that leaves it there ends, from every card not
    # yet seen; the draw that takes it asks chance for nothing more.
    game = _load("modern-american-club")
    draw = ActionSpace(game.variant).encode("draw")
    revealed = drawn = 0
    for seed in range(8):
        state = _dealt(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = _deal_of(state)
            state.apply_action(action := rng.choice(state.legal_actions()))
            picks: list[int] = []
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                picks.append(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                if len(before.stock) - len(picks) == 9:
                    # The pick that lies face up on top once the move ends: any card unseen.
                    stock = Counter(canasta.parse_cards(before.to_dict()["stock"]))
                    assert {CARDS[a] for a, _ in outcomes} == set(stock)
                state.apply_action(picks[-1])
            after = _deal_of(state)
            if len(after.stock) == 9 and len(before.stock) > 9:
                revealed += 1
                assert after.turn_card == CARDS[picks[-1]] == after.stock[0]
                assert after.observe(after.to_move or 0).turn_card == after.turn_card
            if action == draw and len(before.stock) == 9:
                drawn += 1
                assert picks == []  # the face-up card, no chance node
                assert before.turn_card in after.hand(before.to_move or 0)
    assert revealed >= 4 and drawn >= 2


@pytest.mark.parametrize("chance", CHANCE_MODES)
def test_play_follows_the_action_space_and_pays_the_rewards(chance: str) -> None:
    game = _load("classic-3p", chance)
    variant = canasta.variants.get("classic-3p")
    actions = ActionSpace(variant)
    state = _dealt(game, seed=2)
    rng = random.Random(2)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
            continue
        deal = state.game_state
        assert deal is not None
        legal = state.legal_actions()
        assert legal == sorted(actions.legal(deal))
        action = rng.choice(legal)
        assert state.action_to_string(action) == actions.name(action)
        state.apply_action(action)
        moves += 1
    assert moves <= game.max_game_length()
    outcome = _deal_of(state).outcome()
    assert outcome is not None
    assert state.returns() == pytest.approx(list(rewards(variant, outcome.scores)))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_tensors_and_strings_are_the_seats_observations() -> None:
    game = _load("classic")
    state = _dealt(game, seed=3)
    _play(state, random.Random(3), 60)
    deal = _deal_of(state)
    encoder = ObservationEncoder(deal.variant)
    for seat in range(4):
        with_memory = encoder.encode(deal.observe(seat))
        assert numpy.allclose(state.information_state_tensor(seat), with_memory)
        # The observation forgets the deal: the known cards and the discards.
        without = with_memory.copy()
        for name in ("known", "discards"):
            encoder.section(without, name)[:] = 0.0
        assert numpy.allclose(state.observation_tensor(seat), without)
        info = json.loads(state.information_state_string(seat))
        assert info == deal.observe(seat).to_dict()
        assert len(info["history"]) == 60
        seen = json.loads(state.observation_string(seat))
        assert not {"history", "known", "discarded"} & set(seen) and seen["hand"] == info["hand"]
    # Memory makes a difference: the discards are remembered.
    assert not numpy.allclose(state.information_state_tensor(0), state.observation_tensor(0))


@pytest.mark.parametrize("chance", CHANCE_MODES)
@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-3p-cutthroat"])
def test_the_python_shortcuts_give_what_openspiel_gives(name: str, chance: str) -> None:
    # The state answers legal_actions and the tensors in Python, past OpenSpiel's round
    # trip through C++: the same values (tensors to the last float32 bit), for every
    # player, at every kind of node, from the first chance node to the end.
    game = _load(name, chance)
    state: CanastaState = game.new_initial_state()
    rng = random.Random(7)
    players = range(game.num_players())
    kinds = set()
    while True:
        current = state.current_player()
        kinds.add("chance" if state.is_chance_node() else "over" if state.is_terminal() else "seat")
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in (*players, current):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        for player in players:
            tensor = state.observation_tensor(player)
            assert type(tensor) is list and tensor == pyspiel.State.observation_tensor(
                state, player
            )
            assert state.information_state_tensor(player) == (
                pyspiel.State.information_state_tensor(state, player)
            )
        if state.is_terminal():
            break
        if current >= 0:
            assert state.observation_tensor() == state.observation_tensor(current)
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert kinds == {"chance", "seat", "over"}
    with pytest.raises(RLError, match="seat from 0"):
        state.observation_tensor()  # the end: no player to move
    with pytest.raises(RLError, match="seat from 0"):
        state.information_state_tensor(game.num_players())
    seat_to_move = _dealt(game, seed=2)
    with pytest.raises(RLError, match="neither a seat"):
        seat_to_move.legal_actions(-1)


@pytest.mark.parametrize("chance", CHANCE_MODES)
@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-3p-cutthroat"])
def test_resampling_keeps_the_information_state(name: str, chance: str) -> None:
    game = _load(name, chance)
    state = _dealt(game, seed=4)
    rng = random.Random(4)
    _play(state, rng, 50)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands_differ = False
    for _ in range(5):
        sampled = state.resample_from_infostate(player, sampler)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
        assert sampled.legal_actions() == state.legal_actions()
        others = [s for s in range(game.num_players()) if s != player]
        hands_differ |= any(_deal_of(sampled).hand(s) != _deal_of(state).hand(s) for s in others)
        # A resampled state plays on (chance picks from its own stock), and its seats
        # remember the whole deal.
        _play(sampled, rng, 1)
        assert len(json.loads(sampled.information_state_string(player))["history"]) == 51
    assert hands_differ


def test_resampling_while_a_draw_waits_for_its_cards() -> None:
    game = _load("classic")
    state = _dealt(game, seed=5)
    draw = ActionSpace(_deal_of(state).variant).encode("draw")
    state.apply_action(draw)
    assert state.is_chance_node()
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    # The draw waits again, for cards of the sampled stock.
    assert sampled.is_chance_node() and sampled.pending == state.pending
    assert sampled.information_state_string(0) == state.information_state_string(0)
    stock = Counter(canasta.parse_cards(_deal_of(sampled).to_dict()["stock"]))
    assert {CARDS[a]: p for a, p in sampled.chance_outcomes()} == pytest.approx(
        {card: n / stock.total() for card, n in stock.items()}
    )
    rng = random.Random(5)
    while sampled.is_chance_node():
        _chance(sampled, rng)
    assert _deal_of(sampled).phase == "play" and len(_deal_of(sampled).hand(0)) == 12


def test_the_ismcts_example_plays_a_deal(tmp_path: Path) -> None:
    lines = run(
        "openspiel_ismcts.py", "--simulations", "2", "--seed", "3", cwd=tmp_path
    ).splitlines()
    assert lines[0].startswith("classic-2p, seed 3: IS-MCTS (2 simulations)")
    returns = [float(r) for r in lines[-1].removeprefix("returns:").split()]
    assert len(returns) == 2 and sum(returns) == pytest.approx(0.0, abs=1e-3)


def test_a_public_observer_leaves_the_hand_out() -> None:
    from open_spiel.python.observation import make_observation

    game = _load("classic")
    state = _dealt(game, seed=6)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    public.set_from(state, 0)
    assert not public.dict["hand"].any() and public.dict["hand_sizes"].any()
    text = json.loads(public.string_from(state, 0))
    assert "hand" not in text and "legal_moves" not in text and text["hand_sizes"]
    private = make_observation(game)
    private.set_from(state, 0)
    assert private.dict["hand"].any()
    assert "hand" in json.loads(private.string_from(state, 0))


def test_chance_outcomes_are_the_cards_by_rank_then_suit() -> None:
    # The outcomes are the library's own cards (found by identity when stacked on the
    # stock), in the order the module documents: by rank, then suit, then the joker.
    ranks, suits = "A23456789TJQK", "SHDC"
    assert (*(Card(rank, suit) for rank in ranks for suit in suits), Card("*")) == CARDS
    assert all(card is LIBRARY_CARDS[card.code] for card in CARDS)
