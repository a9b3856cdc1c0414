"""Speed of the learning integrations against raw play (``make bench``).

For each variant (default: ``classic`` and ``modern-american``) this plays ``--deals``
seeded deals with uniformly random legal actions three ways, in the same process and
minute, and prints the CPU time of one decision:

- raw: ``legal_moves()`` + the random choice + ``apply()`` on a `GameState`;
- PettingZoo: ``last()`` (the observation vector and the action mask of the agent to
  move) + the random choice from the mask + ``step()``;
- OpenSpiel: ``observation_tensor()`` + ``legal_actions()`` + the random choice +
  ``apply_action()``, for each way chance picks the cards (parameter ``chance``): with
  ``draw`` the chance nodes of the cards a move draws count in its time, and with ``deck``
  there are none; the chance deal before the first move is not counted.

The ratios say how many raw decisions one environment step costs (target: at most 2).

Usage: ``python benchmarks/bench_rl.py [--deals N] [--seed S] [--variants a,b]``.
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Sequence

import pyspiel
from options import deal_parser, parse_deals

import canasta
from canasta.envs.openspiel import CHANCE_MODES
from canasta.envs.pettingzoo import env

TARGET_RATIO = 2.0


def raw(name: str, deals: int, seed: int) -> float:
    """CPU µs per raw decision."""
    clock = time.process_time
    spent, decisions = 0.0, 0
    for i in range(deals):
        rng = random.Random(seed + i)
        state = canasta.new_game(name, seed=seed + i)
        start = clock()
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            decisions += 1
        spent += clock() - start
    return 1e6 * spent / decisions


def pettingzoo(name: str, deals: int, seed: int) -> float:
    """CPU µs per PettingZoo step (``last`` with tensor and mask, then ``step``)."""
    clock = time.process_time
    environment = env(name)
    spent, steps = 0.0, 0
    for i in range(deals):
        rng = random.Random(seed + i)
        environment.reset(seed=seed + i)
        start = clock()
        while True:
            obs, _, terminated, _, _ = environment.last()
            if terminated:
                break
            environment.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        spent += clock() - start
    return 1e6 * spent / steps


def openspiel(name: str, deals: int, seed: int, chance: str) -> float:
    """CPU µs per OpenSpiel decision (observation tensor, legal actions, apply, and the
    chance nodes of the cards it draws)."""
    clock = time.process_time
    game = pyspiel.load_game("canasta_lib", {"variant": name, "chance": chance})
    spent, steps = 0.0, 0

    def pick(state: pyspiel.State, rng: random.Random) -> None:
        while state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])

    for i in range(deals):
        rng = random.Random(seed + i)
        state = game.new_initial_state()
        pick(state, rng)
        start = clock()
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            pick(state, rng)
            steps += 1
        spent += clock() - start
    return 1e6 * spent / steps


def main(argv: Sequence[str] | None = None) -> int:
    parser = deal_parser(__doc__.splitlines()[0])
    parser.set_defaults(deals=20)
    args, names = parse_deals(parser, argv)
    print(
        f"canasta {canasta.__version__} RL bench: Python {platform.python_version()}, "
        f"{args.deals} deals per variant from seed {args.seed}, CPU time per decision"
    )
    header = (
        f"{'variant':<18}{'raw µs':>9}{'PettingZoo µs':>15}{'ratio':>7}"
        + "".join(f"{f'OpenSpiel {chance} µs':>19}{'ratio':>7}" for chance in CHANCE_MODES)
    )
    print(header)
    print("-" * len(header))
    for name in names:
        base = raw(name, args.deals, args.seed)
        zoo = pettingzoo(name, args.deals, args.seed)
        line = f"{name:<18}{base:>9.1f}{zoo:>15.1f}{zoo / base:>7.2f}"
        for chance in CHANCE_MODES:
            spiel = openspiel(name, args.deals, args.seed, chance)
            line += f"{spiel:>19.1f}{spiel / base:>7.2f}"
        print(line)
    print(f"ratio: CPU time of one environment step in raw decisions (target ≤{TARGET_RATIO:.0f}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
