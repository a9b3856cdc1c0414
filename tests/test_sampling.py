"""`sample_state` when a hidden hand must be able to go out: a seat that asked partner
may only have asked with a way to go out, so every sampled deal must give it one."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.bots import GreedyBot
from canasta.moves import Answer, Ask


def _after_ask(variant: str) -> canasta.GameState:
    """The first position of seeded GreedyBot deals in which a seat has just asked."""
    for seed in range(20):
        state = canasta.new_game(variant, seed=seed)
        bots = [GreedyBot(seed * 4 + seat) for seat in range(4)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            move = bots[seat].choose(state.observe(seat))
            state = state.apply(move)
            if isinstance(move, Ask) and len(state.hand(seat)) >= 3:
                return state
    raise AssertionError("no seat asked partner in the seeded deals")


@pytest.mark.parametrize("variant", ["classic", "modern-american"])
def test_a_sampled_asker_can_go_out(variant: str) -> None:
    asked = _after_ask(variant)
    assert asked.phase == "answer"
    said_yes = asked.apply(Answer(True))
    asker = said_yes.to_move
    assert asker is not None
    for state in (asked, said_yes):
        for seat in range(4):
            if seat == asker:
                continue
            seen = state.observe(seat)
            rng = random.Random(seat)
            for _ in range(12):
                world = canasta.sample_state(seen, rng)
                assert world.observe(seat) == seen
                if world.phase == "answer":
                    world = world.apply(Answer(True))
                assert world.to_move == asker
                # After "yes" the asker must go out: it needs a legal move to do it.
                assert world.legal_moves(), (seat, world.hand(asker))
