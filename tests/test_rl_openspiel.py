"""The OpenSpiel game (`canasta.envs.openspiel`, ``canasta_lib``): OpenSpiel's own random
simulation test for every registered variant, the chance deal, the tensors and strings,
resampling, and the IS-MCTS example."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy
import pyspiel
import pytest

import canasta
import canasta.envs.openspiel
from canasta.envs.openspiel import CARDS, CanastaState
from canasta.rl import ActionSpace, ObservationEncoder, RLError, max_deal_moves, rewards
from test_examples import run


def _load(name: str) -> pyspiel.Game:
    return pyspiel.load_game("canasta_lib", {"variant": name})


@pytest.mark.parametrize("name", canasta.variants.names())
def test_random_sim_test(name: str) -> None:
    # OpenSpiel's conformance test: clones, serialization, sorted legal actions, masks,
    # chance outcomes, tensor sizes, returns within the utilities, the game length bound.
    pyspiel.random_sim_test(_load(name), num_sims=1, serialize=True, verbose=False)


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


def _dealt(game: pyspiel.Game, seed: int) -> CanastaState:
    rng = random.Random(seed)
    state: CanastaState = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def test_chance_deals_the_deck_card_by_card() -> None:
    game = _load("classic")
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


def test_play_follows_the_action_space_and_pays_the_rewards() -> None:
    game = _load("classic-3p")
    variant = canasta.variants.get("classic-3p")
    actions = ActionSpace(variant)
    state = _dealt(game, seed=2)
    rng = random.Random(2)
    moves = 0
    while not state.is_terminal():
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
    rng = random.Random(3)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
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


@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-3p-cutthroat"])
def test_resampling_keeps_the_information_state(name: str) -> None:
    game = _load(name)
    state = _dealt(game, seed=4)
    rng = random.Random(4)
    for _ in range(50):
        state.apply_action(rng.choice(state.legal_actions()))
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
        # A resampled state plays on, and its seats remember the whole deal.
        sampled.apply_action(sampled.legal_actions()[0])
        assert len(json.loads(sampled.information_state_string(player))["history"]) == 51
    assert hands_differ


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
