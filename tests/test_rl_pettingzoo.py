"""The PettingZoo environment (`canasta.envs.pettingzoo`): PettingZoo's own conformance
tests, and the Canasta rules of the episode (turns of several moves, rewards per side)."""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from pettingzoo.test import api_test, seed_test

import canasta
from canasta.envs.pettingzoo import CanastaEnv, env
from canasta.rl import RLError, rewards


# PettingZoo warns about every Dict observation with an action mask (its own classic games
# included): the observation is not one array, and the space is not a Box.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize(
    ("variant", "episode"),
    [
        ("classic", "deal"),
        ("classic-2p", "deal"),
        ("classic-3p-cutthroat", "deal"),
        ("modern-american", "match"),
        ("classic-6p", "deal"),
    ],
)
def test_pettingzoo_api_and_seed_tests(variant: str, episode: str) -> None:
    api_test(env(variant, episode=episode), num_cycles=200)
    seed_test(lambda: env(variant, episode=episode), num_cycles=200)


def _play_out(environment: CanastaEnv, seed: int) -> dict[str, float]:
    """Play masked random actions to the end; the agents' total rewards."""
    environment.reset(seed=seed)
    rng = numpy.random.default_rng(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        obs, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        legal = numpy.flatnonzero(obs["action_mask"])
        environment.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("variant", ["classic", "classic-3p", "modern-american"])
def test_a_deal_pays_zero_sum_rewards_shared_by_partners(variant: str) -> None:
    environment = env(variant)
    totals = _play_out(environment, seed=5)
    state = environment.game_state
    outcome = state.outcome()
    assert outcome is not None
    expected = rewards(state.variant, outcome.scores)
    assert [totals[a] for a in environment.possible_agents] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert any(totals.values())
    sides = state.variant.sides
    for seat, agent in enumerate(environment.possible_agents):
        partner = (seat + sides) % state.variant.players
        assert totals[agent] == totals[environment.possible_agents[partner]]
    assert environment.agents == []


def test_the_reward_is_the_score_difference_in_target_scores() -> None:
    variant = canasta.variants.get("classic")
    assert rewards(variant, (1200, -300)) == (0.3, -0.3, 0.3, -0.3)
    three = canasta.variants.get("classic-3p")
    assert rewards(three, (900, 0, -150)) == pytest.approx((0.13, -0.05, -0.08))


def test_a_match_pays_every_deal() -> None:
    environment = env("classic-2p", episode="match", seed=1)
    environment.reset()
    paid = 0
    rng = numpy.random.default_rng(1)
    for _ in range(3000):
        agent = environment.agent_selection
        obs, _, terminated, _, _ = environment.last()
        if terminated:
            break
        environment.step(int(rng.choice(numpy.flatnonzero(obs["action_mask"]))))
        paid += any(environment.rewards.values())
    # A match of random play lasts several deals; each pays once, when it ends.
    match = environment.match
    assert match is not None
    assert paid == len(match.deals) >= 2
    assert agent in environment.possible_agents


def test_the_same_agent_plays_every_move_of_its_turn() -> None:
    environment = env("classic", seed=3)
    environment.reset()
    first = environment.agent_selection
    draw = environment.actions.encode("draw")
    environment.step(draw)
    assert environment.agent_selection == first
    obs = environment.observe(first)
    legal = [int(i) for i in numpy.flatnonzero(obs["action_mask"])]
    discards = [i for i in legal if environment.actions.name(i).startswith("discard")]
    environment.step(discards[0])
    assert environment.agent_selection != first
    # Only the agent to move sees legal actions.
    assert not environment.observe(first)["action_mask"].any()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    environment = env("classic", seed=3)
    environment.reset()
    before = environment.game_state
    with pytest.raises(canasta.IllegalMoveError) as caught:
        environment.step(environment.actions.encode("discard:K"))
    assert caught.value.reason is canasta.IllegalReason.WRONG_PHASE
    with pytest.raises(RLError):
        environment.step(10**6)
    assert environment.game_state is before
    assert not any(environment.terminations.values())


def test_an_illegal_action_can_end_the_episode_with_a_penalty() -> None:
    environment = env("classic", seed=3, illegal="penalize")
    environment.reset()
    offender = environment.agent_selection
    environment.step(environment.actions.encode("discard:K"))
    assert all(environment.terminations.values())
    seat = environment.possible_agents.index(offender)
    assert environment.rewards == {
        agent: -1.0 if (i - seat) % 2 == 0 else 1.0
        for i, agent in enumerate(environment.possible_agents)
    }


@pytest.mark.parametrize("seed", [1.5, "7", [7], True])
def test_a_seed_that_is_not_an_integer_is_refused(seed: Any) -> None:
    with pytest.raises(RLError, match="a seed is an integer or None"):
        env("classic", seed=seed)
    with pytest.raises(RLError, match="a seed is an integer or None"):
        env("classic").reset(seed=seed)


def test_a_seed_may_be_a_numpy_integer() -> None:
    one, other = env("classic"), env("classic")
    seed: Any = numpy.int64(5)  # what NumPy's generators hand out
    one.reset(seed=seed)
    other.reset(seed=5)
    assert one.game_state == other.game_state


@pytest.mark.parametrize("agent", ["player_9", None, ["player_0"]])
def test_an_unknown_agent_is_refused(agent: Any) -> None:
    environment = env("classic", seed=1)
    environment.reset()
    for ask in (environment.observe, environment.observation_space, environment.action_space):
        with pytest.raises(RLError, match="the agents are"):
            ask(agent)


def test_options_are_checked_and_render_shows_the_table() -> None:
    with pytest.raises(RLError, match="episode"):
        env("classic", episode="season")
    with pytest.raises(RLError, match="illegal"):
        env("classic", illegal="ignore")
    with pytest.raises(canasta.UnknownVariantError):
        env("no-such-variant")
    environment = env("classic", seed=2, render_mode="ansi")
    environment.reset()
    text = environment.render()
    assert text is not None and "stock" in text.lower()
    assert env("classic").render() is None
