"""Instructions per decision of random legal play, counted by callgrind (``make callgrind``).

Seconds on a shared machine vary from run to run; the number of instructions executed
does not. For each variant this runs, under ``valgrind --tool=callgrind``, the random play
of ``benchmarks/bench.py`` (deal ``i`` is ``canasta.new_game(variant, seed=seed + i)``,
its moves chosen by ``random.Random(seed + i)``) for ``--deals`` deals, and once more for
0 deals; both runs start with the same warm-up deal, so the difference is the play alone
(no interpreter start-up, no first imports). It prints that difference divided by the
number of decisions (one ``legal_moves()``, the random choice and one ``apply()``), with
dealing included. ``PYTHONHASHSEED=0`` and the fixed seeds make the count repeatable.
The same is counted for python-chess plies of the bench's random playouts, and each
decision is also given in plies: the bench's ratio, counted in instructions (seconds
per instruction differ between the two, so the ratios in seconds differ too).

Usage: ``python benchmarks/callgrind.py [--deals N] [--seed S] [--variants a,b]
[--json FILE]`` (needs ``valgrind`` on the ``PATH``).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import ChessPlayouts, RandomPlay
from options import deal_parser, parse_deals

DEFAULT_DEALS = 20
#: The reference: python-chess plies of the bench's playouts, counted after a warm-up of
#: as many (both runs play it, so only the counted plies differ).
CHESS_PLIES = 5000
#: The warm-up deal's seed, away from the measured ones.
WARM_UP_SEED = 1_000_000
_TOTALS = re.compile(r"^(?:totals|summary):\s*(\d+)", re.MULTILINE)


def play(variant: str, deals: int, seed: int) -> int:
    """The warm-up deal, then ``deals`` seeded deals of random play; the decisions made."""
    RandomPlay(variant, WARM_UP_SEED).us_per_decision(1, math.inf)
    measured = RandomPlay(variant, seed)
    if deals:
        measured.us_per_decision(deals, math.inf)
    return measured.decisions


def run_counted(script: str, *args: str) -> tuple[int, int]:
    """Instructions counted by callgrind for ``python script --play *args``, and the
    number that run prints last (its decisions)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit(f"{Path(script).name} needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            [
                valgrind,
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                script,
                "--play",
                *args,
            ],
            # NumPy's OpenBLAS starts threads that spin while idle, a few million
            # instructions more or less from run to run: one thread, and no spinning.
            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"},
            capture_output=True,
            text=True,
            check=True,
        )
        found = _TOTALS.search(out.read_text())
    if found is None:
        raise SystemExit(f"no instruction total in callgrind's output for {' '.join(args)}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def instructions(variant: str, deals: int, seed: int) -> tuple[int, int]:
    """Instructions counted by callgrind for one run of ``play``, and its decisions."""
    return run_counted(__file__, variant, str(deals), str(seed))


def play_chess(plies: int, seed: int) -> int:
    """The warm-up plies, then ``plies`` more of the bench's chess playouts; the plies
    counted."""
    playouts = ChessPlayouts(seed)
    playouts.play(CHESS_PLIES)
    playouts.play(plies)
    return plies


def chess_ply(seed: int) -> float:
    """Instructions per python-chess ply of the bench's playouts (start-up subtracted)."""
    base, _ = run_counted(__file__, "chess", "0", str(seed))
    total, plies = run_counted(__file__, "chess", str(CHESS_PLIES), str(seed))
    return (total - base) / plies


def measure(variant: str, deals: int, seed: int) -> dict[str, float]:
    """Instructions per decision of ``deals`` deals of ``variant`` (start-up subtracted)."""
    base, _ = instructions(variant, 0, seed)
    total, decisions = instructions(variant, deals, seed)
    return {
        "deals": float(deals),
        "decisions": float(decisions),
        "instructions": float(total - base),
        "per_decision": (total - base) / decisions,
    }


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--play"]:
        variant, count, seed = argv[1], int(argv[2]), int(argv[3])
        print(play_chess(count, seed) if variant == "chess" else play(variant, count, seed))
        return 0
    parser = deal_parser(__doc__.splitlines()[0], deals=DEFAULT_DEALS)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args, names = parse_deals(parser, argv)
    print(
        f"callgrind: {args.deals} deals of random play per variant from seed {args.seed} "
        "(PYTHONHASHSEED=0), start-up subtracted"
    )
    ply = chess_ply(args.seed)
    print(f"python-chess ply (the bench's random playouts): {ply:,.0f} instructions")
    header = f"{'variant':<18}{'decisions':>10}{'instructions':>16}{'per decision':>14}{'÷ ply':>8}"
    print(header)
    print("-" * len(header))
    report: dict[str, dict[str, float]] = {"chess": {"per_ply": ply}}
    for name in names:
        r = report[name] = measure(name, args.deals, args.seed)
        r["plies"] = r["per_decision"] / ply
        print(
            f"{name:<18}{int(r['decisions']):>10}{int(r['instructions']):>16,}"
            f"{r['per_decision']:>14,.0f}{r['plies']:>8.2f}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
