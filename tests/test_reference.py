"""The ladder's reference GreedyBot (``benchmarks/reference.py``): loaded from git as it
was at its commit, a bot of its own, which the ladder can name."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import reference

import canasta
from canasta.bots import BOTS, GreedyBot, make_bot, play_deal
from canasta.bots.ladder import run_ladder


def test_the_reference_is_the_old_bot_and_plays_on_the_ladder() -> None:
    name = reference.load()
    assert name == f"greedy@{reference.REFERENCE}" and name in BOTS
    assert reference.load() == name  # loaded once
    bot = make_bot(name, 1)
    # Its own class, from the old source, not today's GreedyBot.
    assert not isinstance(bot, GreedyBot)
    assert type(bot).__module__.startswith("_canasta_reference_")
    end = play_deal(canasta.new_game("classic", seed=3), [make_bot(name, s) for s in range(4)])
    assert end.is_over
    ladder = run_ladder(canasta.variants.get("classic-2p"), [name, "greedy"], pairs=1)
    assert ladder.pairs[0].deals == 2
