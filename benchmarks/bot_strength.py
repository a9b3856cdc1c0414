"""How often a bot's side beats `RandomBot`, over seeded deals (issue 5's measurement).

Deal ``seed`` is ``canasta.new_game(variant, seed=seed)``. The measured bot plays every
seat of side ``seed % 2`` (so the sides alternate with the seed), and ``RandomBot(seed * 10
+ seat)`` plays every other seat. A deal is won when the bot's side scores strictly more
than each other side in that deal. ``tests/test_bots.py`` uses the same protocol on fewer
deals.

For each variant this prints the deals won, the mean score margin (the bot's side minus the
best other side) and the bot's mean time per decision (wall clock, the bot's ``choose``
only).

Usage: ``python benchmarks/bot_strength.py [--deals N] [--seed S] [--variants a,b]
[--bot NAME] [--jobs J]``; the defaults (200 deals from seed 0, ``classic`` and
``modern-american``, ``greedy``, one process) give the figures quoted in the changelog.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from options import deal_parser, parse_deals

import canasta
from canasta.bots import BOTS, Bot, RandomBot, play_deal
from canasta.bots.base import TimedBot


def play_one(name: str, seed: int, bot: str) -> tuple[bool, int, float, int]:
    """One seeded deal: (won, margin, seconds spent deciding, decisions)."""
    state = canasta.new_game(name, seed=seed)
    variant = state.variant
    side = seed % 2
    timed = [TimedBot(BOTS[bot](None)) for _ in range(variant.players)]
    seats: list[Bot] = [
        timed[s] if variant.side_of(s) == side else RandomBot(seed * 10 + s)
        for s in range(variant.players)
    ]
    outcome = play_deal(state, seats).outcome()
    assert outcome is not None
    others = max(v for s, v in enumerate(outcome.scores) if s != side)
    margin = outcome.scores[side] - others
    seconds = sum(t.seconds for t in timed)
    decisions = sum(t.decisions for t in timed)
    return margin > 0, margin, seconds, decisions


def measure(
    name: str, seeds: Sequence[int], bot: str = "greedy", jobs: int = 1
) -> dict[str, float]:
    """Play the seeded deals of ``name``; return the deals won and the other figures."""
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(
                pool.map(play_one, [name] * len(seeds), seeds, [bot] * len(seeds), chunksize=8)
            )
    else:
        results = [play_one(name, seed, bot) for seed in seeds]
    decisions = sum(r[3] for r in results)
    return {
        "deals": float(len(results)),
        "won": float(sum(r[0] for r in results)),
        "margin": sum(r[1] for r in results) / len(results),
        "ms_per_decision": 1000 * sum(r[2] for r in results) / decisions if decisions else 0.0,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = deal_parser(__doc__.splitlines()[0])
    parser.add_argument("--bot", default="greedy", choices=sorted(BOTS), help="bot (greedy)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    args, names = parse_deals(parser, argv)
    seeds = list(range(args.seed, args.seed + args.deals))
    print(
        f"canasta {canasta.__version__}: {args.bot} against random, {args.deals} deals per "
        f"variant from seed {args.seed} (the bot's side alternates with the seed)"
    )
    header = f"{'variant':<18}{'won':>12}{'win rate':>10}{'mean margin':>13}{'ms/decision':>13}"
    print(header)
    print("-" * len(header))
    for name in names:
        r = measure(name, seeds, args.bot, args.jobs)
        print(
            f"{name:<18}{int(r['won']):>6}/{int(r['deals']):<5}{100 * r['won'] / r['deals']:>9.1f}%"
            f"{r['margin']:>13.0f}{r['ms_per_decision']:>13.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
