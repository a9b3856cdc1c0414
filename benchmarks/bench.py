"""Speed of random legal play (``make bench``).

For each variant (default: ``classic`` and ``modern-american``) this plays ``--deals``
seeded deals with uniformly random legal moves in one thread (``--pin``: pinned to one
CPU) and prints, in CPU time of the process (so other load on the machine does not count):

- deals per second (dealing included);
- µs per decision: one ``legal_moves()`` + the random choice + ``apply()``;
- µs per ``legal_moves()`` call on mid-game states (plies in the middle half of a deal),
  measured on fresh copies read back with ``GameState.from_dict``, so no state-level cache
  helps, and with the solver's memo emptied first when the engine has one.

Targets for the engine (spec of the task, not enforced here): ≥500 deals/s and ≤20 µs per
decision for ``classic``.

Usage: ``python benchmarks/bench.py [--deals N] [--seed S] [--variants a,b] [--pin]``.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Sequence

from options import deal_parser, parse_deals

import canasta
from canasta import GameState

TARGET_DEALS_PER_S = 500
TARGET_US_PER_DECISION = 20.0
MID_GAME_SAMPLES = 2000


def _one_core() -> str:
    """Pin the process to one CPU where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


def _clear_solver_memo() -> None:
    try:
        from canasta._rules import lookahead as solver
    except ImportError:  # pragma: no cover - the engine may reorganise
        return
    feasible = getattr(solver, "_feasible", None)
    clear = getattr(feasible, "cache_clear", None)
    if callable(clear):
        clear()


def bench_variant(name: str, deals: int, seed: int) -> dict[str, float]:
    """Play ``deals`` random deals of ``name``; return the measured figures."""
    variant = canasta.variants.get(name)
    mid_game: list[dict[str, object]] = []
    decisions = 0
    decision_time = 0.0
    clock = time.process_time
    untimed = 0.0  # time spent keeping mid-game states, not part of the play
    total_start = clock()
    for i in range(deals):
        rng = random.Random(seed + i)
        choice = rng.choice
        state = canasta.new_game(variant, seed=seed + i)
        states: list[GameState] = []
        start = clock()
        while not state.is_over:
            states.append(state)
            state = state.apply(choice(state.legal_moves()))
        decision_time += clock() - start
        decisions += len(states)
        middle = states[len(states) // 4 : 3 * len(states) // 4]
        paused = clock()
        mid_game.extend(s.to_dict() for s in middle)
        untimed += clock() - paused
    total = clock() - total_start - untimed
    # µs per legal_moves() on fresh mid-game states (a deterministic sample).
    sample_rng = random.Random(seed)
    picked = sample_rng.sample(mid_game, min(MID_GAME_SAMPLES, len(mid_game)))
    fresh = [GameState.from_dict(d) for d in picked]
    _clear_solver_memo()
    start = clock()
    for state in fresh:
        state.legal_moves()
    lm_time = clock() - start
    return {
        "deals_per_s": deals / total if total else float("inf"),
        "plies_per_deal": decisions / deals if deals else 0.0,
        "us_per_decision": 1e6 * decision_time / decisions if decisions else 0.0,
        "us_per_legal_moves": 1e6 * lm_time / len(fresh) if fresh else 0.0,
        "samples": float(len(fresh)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = deal_parser(__doc__.splitlines()[0])
    parser.add_argument("--pin", action="store_true", help="pin the process to one CPU")
    args, names = parse_deals(parser, argv)
    pinned = _one_core() if args.pin else "not pinned"
    print(
        f"canasta {canasta.__version__} bench: Python {platform.python_version()}, "
        f"{args.deals} deals per variant from seed {args.seed}, one thread ({pinned}), CPU time"
    )
    header = (
        f"{'variant':<18}{'deals/s':>10}{'plies/deal':>12}{'µs/decision':>13}{'µs/legal_moves':>16}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        r = bench_variant(name, args.deals, args.seed)
        print(
            f"{name:<18}{r['deals_per_s']:>10.1f}{r['plies_per_deal']:>12.1f}"
            f"{r['us_per_decision']:>13.1f}{r['us_per_legal_moves']:>16.1f}"
        )
    print(
        f"µs/legal_moves: {MID_GAME_SAMPLES} fresh mid-game states at most (no state cache, "
        "solver memo emptied)."
    )
    print(
        f"Targets for classic: ≥{TARGET_DEALS_PER_S} deals/s, "
        f"≤{TARGET_US_PER_DECISION:.0f} µs per decision."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
