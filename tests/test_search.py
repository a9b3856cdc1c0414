"""SearchBot: legal moves only, deterministic for a seed and budget, and blind to the
cards its seat cannot see."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.bots import GreedyBot, make_bot, play_deal
from canasta.bots.search import SearchBot
from canasta.moves import Move
from canasta.observation import Observation


class _Checked:
    """Plays a bot and checks each of its moves against the observation's legal moves."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.moves: list[Move] = []

    def choose(self, observation: Observation) -> Move:
        move = self.bot.choose(observation)
        assert move in observation.legal_moves
        self.moves.append(move)
        return move


@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-2p"])
def test_search_plays_only_legal_moves(name: str) -> None:
    state = canasta.new_game(name, seed=11)
    players = state.variant.players
    bots = [
        _Checked(SearchBot(s, simulations=4)) if s % 2 == 0 else GreedyBot(s)
        for s in range(players)
    ]
    end = play_deal(state, bots)
    assert end.is_over
    assert all(b.moves for b in bots if isinstance(b, _Checked))


def test_search_is_deterministic_for_a_seed_and_budget() -> None:
    state = canasta.new_game("classic", seed=12)

    def moves(seed: int) -> list[str]:
        bots = [
            SearchBot(seed + s, simulations=6) if s % 2 == 0 else GreedyBot(s) for s in range(4)
        ]
        return [str(e.move) for e in play_deal(state, bots).history()]

    assert moves(1) == moves(1)


def _decisions(count: int) -> list[canasta.GameState]:
    """Positions of seeded deals (read back from a sample, so with no history) in which
    the seat to move discards, with several discards to choose from: the decisions the
    bot searches."""
    found: list[canasta.GameState] = []
    for seed in range(20, 40):
        state = canasta.new_game("classic", seed=seed)
        bot = GreedyBot()
        while not state.is_over and len(found) < count:
            seat = state.to_move
            assert seat is not None
            obs = state.observe(seat)
            discards = [m for m in obs.legal_moves if isinstance(m, canasta.Discard)]
            if (
                len(state.history()) > 20
                and len(discards) > 3
                and isinstance(bot.choose(obs), canasta.Discard)
            ):
                found.append(canasta.sample_state(obs, random.Random(seed)))
                break
            state = state.apply(bot.choose(obs))
    return found


def test_search_never_reads_hidden_cards() -> None:
    """The same observation with the hidden cards dealt otherwise gets the same move
    from bots of the same seed: the bot sees only what its seat may know."""
    changed = 0
    for position in _decisions(6):
        seat = position.to_move
        assert seat is not None
        seen = position.observe(seat)
        other = canasta.sample_state(seen, random.Random(99))
        assert other.observe(seat) == seen
        changed += any(other.hand(s) != position.hand(s) for s in range(4) if s != seat)
        chosen = [SearchBot(7, simulations=24).choose(p.observe(seat)) for p in (position, other)]
        assert chosen[0] == chosen[1]
    assert changed >= 5  # the hidden cards did differ


def test_search_budgets_and_levels() -> None:
    assert SearchBot().simulations == 64 and SearchBot(seconds=0.5).simulations is None
    bot = make_bot("search", 1, level=1)
    assert isinstance(bot, SearchBot) and bot.simulations == 8
    for bad in ({"simulations": 0}, {"seconds": 0.0}):
        with pytest.raises(ValueError):
            SearchBot(**bad)
    with pytest.raises(ValueError, match="no levels"):
        make_bot("greedy", level=2)
    with pytest.raises(ValueError, match="known levels"):
        make_bot("search", level=0)


def test_search_with_a_time_budget_stays_near_it() -> None:
    state = canasta.new_game("classic", seed=5)
    for _ in range(25):
        seat = state.to_move
        assert seat is not None
        state = state.apply(GreedyBot().choose(state.observe(seat)))
    seat = state.to_move
    assert seat is not None
    obs = state.observe(seat)
    move = SearchBot(3, seconds=0.05).choose(obs)
    assert move in obs.legal_moves
