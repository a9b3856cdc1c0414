"""Speed of the learning integrations against raw play (``make bench``).

For each variant (default: ``classic`` and ``modern-american``) and each environment this
plays ``--deals`` deals both ways, in the same process and minute, and prints the CPU time
of one decision both ways:

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

The machine is shared, so the two ways alternate: ``--rounds`` rounds (default 5) each
play all the deals raw and then replay them in the environment, every other round the
environment first, so that a burst of load elsewhere lands in one round rather than on
one side of every ratio. Each round gives a ratio; the figures printed are the medians of
the rounds (the µs of each way, and the ratio), with the lowest and highest ratio.

Usage: ``python benchmarks/bench_rl.py [--deals N] [--rounds R] [--seed S]
[--variants a,b]``.
"""

from __future__ import annotations

import functools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

import pyspiel
from options import deal_parser, parse_deals

import canasta
import canasta.rl.actions as rl_actions
from canasta.envs.openspiel import CARDS, CanastaState
from canasta.envs.pettingzoo import env
from canasta.rl import ActionSpace

TARGET_RATIO = 2.0
clock = time.process_time


def cold() -> None:
    """Empty the library's caches (the functools caches of its modules, and the moves the
    action spaces of a variant met), so that the raw play and the environment's replay of
    it start alike."""
    for name, module in list(sys.modules.items()):
        if name.startswith("canasta."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
    rl_actions._SEEN.clear()


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


class Measured(NamedTuple):
    """CPU µs per decision of each round, raw and in the environment, and the number of
    decisions of a round."""

    raw: list[float]
    env: list[float]
    decisions: int

    @property
    def ratios(self) -> list[float]:
        """Each round's environment step in raw decisions."""
        return [step / base for base, step in zip(self.raw, self.env, strict=True)]


def alternate(
    play: Callable[[], float], replay: Callable[[], float], rounds: int, decisions: int
) -> Measured:
    """``rounds`` rounds of ``play`` (the raw deals) and ``replay`` (the environment's),
    each from empty caches, the environment first in every other round; CPU µs per
    decision of each."""
    raw_us: list[float] = []
    env_us: list[float] = []
    ways = [(play, raw_us), (replay, env_us)]
    for _ in range(rounds):
        for run, spent in ways:
            cold()
            spent.append(1e6 * run() / max(decisions, 1))
        ways.reverse()
    return Measured(raw_us, env_us, decisions)


def pettingzoo(
    name: str,
    deals: int,
    seed: int,
    *,
    rounds: int = 1,
    play: bool = True,
    replay: bool = True,
) -> Measured:
    """Raw decisions and PettingZoo steps (``last`` with tensor and mask, then ``step``),
    over the same deals and moves. Without ``play`` the deals are dealt but not played,
    without ``replay`` dealt again but not replayed (``benchmarks/callgrind_rl.py``
    subtracts such runs: each deals as often, and each chooses the moves first)."""
    environment = env(name)
    actions = ActionSpace(environment.variant)
    plans: list[tuple[list[int], list[int]]] = []
    for i in range(deals):
        environment.reset(seed=seed + i)
        choices, moves = random_play(environment.game_state, seed + i)
        plans.append((choices, [actions.encode(m) for m in moves]))

    def raw_play() -> float:
        spent = 0.0
        for i, (choices, _) in enumerate(plans):
            environment.reset(seed=seed + i)
            if play:
                spent += raw(environment.game_state, choices)
        return spent

    def env_replay() -> float:
        # A new environment each round: its action space and encoder start empty, as
        # the engine's caches do.
        environment = env(name)
        spent = 0.0
        for i, (_, chosen) in enumerate(plans):
            environment.reset(seed=seed + i)
            if not replay:
                continue
            start = clock()
            for action in chosen:
                environment.last()
                environment.step(action)
            spent += clock() - start
            assert environment.terminations[environment.agent_selection]
        return spent

    decisions = sum(len(choices) for choices, _ in plans)
    return alternate(raw_play, env_replay, rounds, decisions)


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
    name: str,
    deals: int,
    seed: int,
    chance: str,
    *,
    rounds: int = 1,
    play: bool = True,
    replay: bool = True,
) -> Measured:
    """Raw decisions and OpenSpiel decisions (observation tensor, legal actions, apply,
    and the chance nodes of the cards it draws), over the same deals and moves; ``play``
    and ``replay`` as for `pettingzoo`."""
    game = pyspiel.load_game("canasta_lib", {"variant": name, "chance": chance})
    actions = ActionSpace(canasta.variants.get(name))
    plans: list[tuple[list[int], list[int], list[int]]] = []
    for i in range(deals):
        _, deal = _dealt(game, seed + i)
        choices, moves = random_play(deal, seed + i)
        stock = [CARDS.index(card) for card in canasta.parse_cards(deal.to_dict()["stock"])]
        plans.append((choices, [actions.encode(m) for m in moves], stock))

    def raw_play() -> float:
        spent = 0.0
        for i, (choices, _, _) in enumerate(plans):
            _, deal = _dealt(game, seed + i)
            if play:
                spent += raw(deal, choices)
        return spent

    def env_replay() -> float:
        # A new game each round: its action space and encoder start empty (cold() has
        # emptied the cache that shares them between games).
        replayed = pyspiel.load_game("canasta_lib", {"variant": name, "chance": chance})
        spent = 0.0
        for i, (_, chosen, stock) in enumerate(plans):
            state, _ = _dealt(replayed, seed + i)
            if not replay:
                continue
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
        return spent

    decisions = sum(len(choices) for choices, _, _ in plans)
    return alternate(raw_play, env_replay, rounds, decisions)


#: The environments measured, by the label printed.
ENVIRONMENTS: dict[str, Callable[..., Measured]] = {
    "PettingZoo": pettingzoo,
    **{
        f"OpenSpiel {chance}": functools.partial(openspiel, chance=chance)
        for chance in ("draw", "deck")
    },
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = deal_parser(__doc__.splitlines()[0])
    parser.set_defaults(deals=20)
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of raw play and replay, alternating (5)"
    )
    args, names = parse_deals(parser, argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    print(
        f"canasta {canasta.__version__} RL bench: Python {platform.python_version()}, "
        f"{args.deals} deals per variant from seed {args.seed}, CPU time per decision, "
        f"median of {args.rounds} rounds"
    )
    header = (
        f"{'variant':<18}{'environment':<20}{'raw µs':>9}{'env µs':>9}{'ratio':>7}{'range':>13}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        for label, measure in ENVIRONMENTS.items():
            measured = measure(name, args.deals, args.seed, rounds=args.rounds)
            base, step = statistics.median(measured.raw), statistics.median(measured.env)
            ratios = measured.ratios
            print(
                f"{name:<18}{label:<20}{base:>9.1f}{step:>9.1f}"
                f"{statistics.median(ratios):>7.2f}   {min(ratios):.2f}-{max(ratios):.2f}"
            )
    print(
        f"ratio: CPU time of one environment step in raw decisions, the median of the rounds' "
        f"ratios (target ≤{TARGET_RATIO:.0f}); range: the lowest and highest."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
