"""OpenSpiel's IS-MCTS bot against the library's bots, one deal of the game ``canasta_lib``.

The IS-MCTS bot (OpenSpiel's Python ``ISMCTSBot``, random rollouts) plays for side 0;
the library's bots play the other seats through their observations. Needs the extra
``canasta[openspiel]``. Run::

    python examples/openspiel_ismcts.py --variant classic-2p --simulations 20 --seed 1
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import canasta
import canasta.envs.openspiel  # registers the game "canasta_lib"
from canasta.rl import ActionSpace


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic-2p")
    parser.add_argument("--simulations", type=int, default=20, help="IS-MCTS budget a move")
    parser.add_argument("--opponent", choices=sorted(canasta.bots.BOTS), default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = pyspiel.load_game("canasta_lib", {"variant": args.variant})
    variant = canasta.variants.get(args.variant)
    actions = ActionSpace(variant)
    rng = np.random.RandomState(args.seed)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=rng,
    )
    bots = {
        seat: canasta.bots.BOTS[args.opponent](args.seed + seat)
        for seat in range(variant.players)
        if variant.side_of(seat) != 0
    }

    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        if seat in bots:
            move = bots[seat].choose(state.game_state.observe(seat))
            action = actions.encode(move)
        else:
            action = int(searcher.step(state))
            searched += 1
        state.apply_action(action)

    outcome = state.game_state.outcome()
    print(
        f"{args.variant}, seed {args.seed}: IS-MCTS ({args.simulations} simulations) "
        f"for side 0 against {args.opponent} ({searched} searched moves)"
    )
    for side, score in enumerate(outcome.scores):
        print(f"side {side}: {score} points")
    print("returns:", " ".join(f"{r:+.3f}" for r in state.returns()))


if __name__ == "__main__":
    main()
