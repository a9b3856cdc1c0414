"""The environments' step in raw decisions, counted in instructions by callgrind.

``benchmarks/bench_rl.py`` times each environment against raw play of the same deals and
moves; on a shared machine those seconds vary from run to run. This runs the same
measurements under ``valgrind --tool=callgrind``, three times per environment: dealing
only, dealing and raw play, and dealing, raw play and the environment's replay (all after
one warm-up deal of each). Every run first chooses the moves by random play and turns them
into actions (the bookkeeping ``bench_rl.py`` does not time), so the differences are the
instructions of the raw decisions and of the environment's steps alone; their ratio is the
figure ``bench_rl.py`` prints, without the noise. ``PYTHONHASHSEED=0``,
``OPENBLAS_NUM_THREADS=1`` (NumPy's idle threads spin otherwise) and the fixed seeds make
the counts repeatable, and freezing the heap after the warm-up (``gc.freeze``) keeps full
garbage collections from landing in one run or another.

Usage: ``python benchmarks/callgrind_rl.py [--deals N] [--seed S] [--variants a,b]``
(needs ``valgrind`` and the learning extras; a few minutes per environment; ``--jobs N``
runs N callgrind runs at once).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from bench_rl import ENVIRONMENTS, TARGET_RATIO
from callgrind import WARM_UP_SEED, run_counted
from options import deal_parser, parse_deals

DEFAULT_DEALS = 3
#: What each of the three runs plays: (raw play, the environment's replay).
_RUNS = ((False, False), (True, False), (True, True))


def play(variant: str, label: str, deals: int, seed: int, run: int) -> int:
    """The warm-up deal, then ``deals`` seeded deals played as run ``run`` says; the
    decisions played."""
    measure = ENVIRONMENTS[label]
    measure(variant, 1, WARM_UP_SEED)
    # What the warm-up left (modules, first caches) is kept out of the garbage collector's
    # way: otherwise a full collection, which walks it all, costs millions of instructions
    # and lands in whichever of the runs it happens to fall.
    gc.collect()
    gc.freeze()
    raw_play, replay = _RUNS[run]
    return measure(variant, deals, seed, play=raw_play, replay=replay).decisions


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--play"]:
        variant, label, deals, seed, run = argv[1], argv[2], *map(int, argv[3:6])
        print(play(variant, label, deals, seed, run))
        return 0
    parser = deal_parser(__doc__.splitlines()[0], deals=DEFAULT_DEALS)
    parser.add_argument("--jobs", type=int, default=1, help="callgrind runs at once (1)")
    args, names = parse_deals(parser, argv)
    given = (str(args.deals), str(args.seed))
    runs = [(n, label, run) for n in names for label in ENVIRONMENTS for run in range(len(_RUNS))]

    def count(run: tuple[str, str, int]) -> tuple[int, int]:
        return run_counted(__file__, run[0], run[1], *given, str(run[2]))

    with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        counted = dict(zip(runs, pool.map(count, runs), strict=True))
    print(
        f"callgrind: {args.deals} deals per variant from seed {args.seed} (PYTHONHASHSEED=0), "
        "instructions per decision"
    )
    header = f"{'variant':<18}{'environment':<20}{'raw':>11}{'env':>11}{'ratio':>7}"
    print(header)
    print("-" * len(header))
    for name in names:
        for label in ENVIRONMENTS:
            (dealt, _), (played, decisions), (replayed, _) = (
                counted[name, label, run] for run in range(len(_RUNS))
            )
            base, step = (played - dealt) / decisions, (replayed - played) / decisions
            print(f"{name:<18}{label:<20}{base:>11,.0f}{step:>11,.0f}{step / base:>7.2f}")
    print(f"ratio: instructions of a step in raw decisions (target ≤{TARGET_RATIO:.0f}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
