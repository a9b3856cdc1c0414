"""Speed of the learning integrations against raw play (``make bench``).

For each variant (default: ``classic`` and ``modern-american``) and each environment this
plays ``--deals`` deals twice, in the same process and minute, and prints the CPU time of
one decision both ways:

- raw: ``legal_moves()`` + ``apply()`` of a randomly chosen legal move on a `GameState`,
  from the environment's own deal;
- the environment, replaying the same moves: for PettingZoo ``last()`` (the observation
  vector and the action mask of the agent to move) + ``step()``; for OpenSpiel
  ``observation_tensor()`` + ``legal_actions()`` + ``apply_action()``, once for each way
  chance picks the cards (parameter ``chance``). With ``draw`` the chance nodes of the
  cards a move draws count in its time (chance picks the cards the raw deal drew), with
  ``deck`` there are none; the chance deal before the first move is not counted.

Both ways play the same deals and the same moves, each from empty caches, so the ratio
compares like with like (the cost of ``legal_moves()`` varies a lot from deal to deal).
The moves are chosen first, by random play of each deal, and turned into actions (and, for
OpenSpiel, the stock's order into chance outcomes) before either way is measured: no
bookkeeping falls inside a measured part, nor (``benchmarks/callgrind_rl.py``) inside the
difference between two runs. The ratio says how many raw decisions one environment step
costs (target: at most 2).

Usage: ``python benchmarks/bench_rl.py [--deals N] [--seed S] [--variants a,b]``.
"""

from __future__ import annotations

import functools
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

import pyspiel
from options import deal_parser, parse_deals

import canasta
from canasta.envs.openspiel import CARDS, CanastaState
from canasta.envs.pettingzoo import env
from canasta.rl import ActionSpace

TARGET_RATIO = 2.0
clock = time.process_time


def cold() -> None:
    """Empty the library's caches (the functools caches of its modules), so that the raw
    play and the environment's replay of it start alike."""
    for name, module in list(sys.modules.items()):
        if name.startswith("canasta."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def random_play(state: canasta.GameState, seed: int) -> tuple[list[int], list[canasta.Move]]:
    """Random play of ``state`` to the end of the deal: each move's place in its list of
    legal moves, and the moves."""
    rng = random.Random(seed)
    choices: list[int] = []
    moves: list[canasta.Move] = []
    while not state.is_over:
        legal = state.legal_moves()
        choices.append(rng.randrange(len(legal)))
        moves.append(legal[choices[-1]])
        state = state.apply(moves[-1])
    return choices, moves


def raw(state: canasta.GameState, choices: list[int]) -> float:
    """CPU seconds of raw play of ``state``: ``legal_moves()``, then ``apply()`` of the move
    ``choices`` picks from them, to the end of the deal."""
    start = clock()
    for choice in choices:
        state = state.apply(state.legal_moves()[choice])
    return clock() - start


def pettingzoo(
    name: str, deals: int, seed: int, *, play: bool = True, replay: bool = True
) -> tuple[float, float, int]:
    """CPU µs per raw decision and per PettingZoo step (``last`` with tensor and mask,
    then ``step``), over the same deals and moves, and the number of decisions. Without
    ``play`` the deals are dealt but not played, without ``replay`` dealt again but not
    replayed (``benchmarks/callgrind_rl.py`` subtracts such runs: each deals as often, and
    each chooses the moves first)."""
    environment = env(name)
    actions = ActionSpace(environment.variant)
    spent_raw = spent = 0.0
    plans: list[tuple[list[int], list[int]]] = []
    for i in range(deals):
        environment.reset(seed=seed + i)
        choices, moves = random_play(environment.game_state, seed + i)
        plans.append((choices, [actions.encode(m) for m in moves]))
    cold()
    for i in range(deals):
        environment.reset(seed=seed + i)
        if play:
            spent_raw += raw(environment.game_state, plans[i][0])
    cold()
    for i in range(deals):
        environment.reset(seed=seed + i)
        if not replay:
            continue
        start = clock()
        for action in plans[i][1]:
            environment.last()
            environment.step(action)
        spent += clock() - start
        assert environment.terminations[environment.agent_selection]
    steps = sum(len(choices) for choices, _ in plans)
    return 1e6 * spent_raw / max(steps, 1), 1e6 * spent / max(steps, 1), steps


def _dealt(game: pyspiel.Game, seed: int) -> tuple[CanastaState, canasta.GameState]:
    """A chance deal of ``game`` and the deal to play raw: with ``chance="draw"``, its
    stock shuffled (it is not settled yet: chance will pick the cards as they are
    drawn)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    deal = state.game_state
    assert deal is not None
    if game.get_parameters()["chance"] == "draw":
        stock = list(canasta.parse_cards(deal.to_dict()["stock"]))
        rng.shuffle(stock)
        deal = deal.with_stock_top(stock)
    return state, deal


def openspiel(
    name: str, deals: int, seed: int, chance: str, *, play: bool = True, replay: bool = True
) -> tuple[float, float, int]:
    """CPU µs per raw decision and per OpenSpiel decision (observation tensor, legal
    actions, apply, and the chance nodes of the cards it draws), over the same deals and
    moves, and the number of decisions; ``play`` and ``replay`` as for `pettingzoo`."""
    game = pyspiel.load_game("canasta_lib", {"variant": name, "chance": chance})
    actions = ActionSpace(canasta.variants.get(name))
    spent_raw = spent = 0.0
    plans: list[tuple[list[int], list[int], list[int]]] = []
    for i in range(deals):
        _, deal = _dealt(game, seed + i)
        choices, moves = random_play(deal, seed + i)
        stock = [CARDS.index(card) for card in canasta.parse_cards(deal.to_dict()["stock"])]
        plans.append((choices, [actions.encode(m) for m in moves], stock))
    cold()
    for i in range(deals):
        _, deal = _dealt(game, seed + i)
        if play:
            spent_raw += raw(deal, plans[i][0])
    cold()
    for i in range(deals):
        state, _ = _dealt(game, seed + i)
        if not replay:
            continue
        _, chosen, stock = plans[i]
        drawn = iter(stock)  # chance picks the cards the raw deal drew
        start = clock()
        for action in chosen:
            state.observation_tensor(state.current_player())
            state.legal_actions()
            state.apply_action(action)
            while state.is_chance_node():
                state.apply_action(next(drawn))
        spent += clock() - start
        assert state.is_terminal()
    steps = sum(len(choices) for choices, _, _ in plans)
    return 1e6 * spent_raw / max(steps, 1), 1e6 * spent / max(steps, 1), steps


#: The environments measured, by the label printed.
ENVIRONMENTS: dict[str, Callable[..., tuple[float, float, int]]] = {
    "PettingZoo": pettingzoo,
    **{
        f"OpenSpiel {chance}": functools.partial(openspiel, chance=chance)
        for chance in ("draw", "deck")
    },
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = deal_parser(__doc__.splitlines()[0])
    parser.set_defaults(deals=20)
    args, names = parse_deals(parser, argv)
    print(
        f"canasta {canasta.__version__} RL bench: Python {platform.python_version()}, "
        f"{args.deals} deals per variant from seed {args.seed}, CPU time per decision"
    )
    header = f"{'variant':<18}{'environment':<20}{'raw µs':>9}{'env µs':>9}{'ratio':>7}"
    print(header)
    print("-" * len(header))
    for name in names:
        for label, measure in ENVIRONMENTS.items():
            base, step, _ = measure(name, args.deals, args.seed)
            print(f"{name:<18}{label:<20}{base:>9.1f}{step:>9.1f}{step / base:>7.2f}")
    print(f"ratio: CPU time of one environment step in raw decisions (target ≤{TARGET_RATIO:.0f}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
