"""The bot ladder of ``make ladder``: random, quick, greedy and search, every pair over
seeded duplicate deals of classic and Modern American, in two processes.

It runs ``canasta ladder`` with these defaults; any option given here replaces the
matching default (``python benchmarks/ladder.py --pairs 200 --bots greedy,search:0.5s``).
The figures in docs/bots.md come from this script; its ``--out`` file holds every deal.
It enters the reference GreedyBot of `reference.REFERENCE` as ``greedy@COMMIT`` (see
``benchmarks/reference.py``), so the ladder measures against a GreedyBot that stays put.

Usage: ``python benchmarks/ladder.py [canasta ladder options]``
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from reference import load

from canasta.cli import main as canasta

# At import, not in main(): the ladder's worker processes need the name as well.
REFERENCE = load()

#: The options of ``canasta ladder`` this benchmark sets unless given.
DEFAULTS = {
    "--bots": f"random,quick,{REFERENCE},greedy,search:2",
    "--pairs": "10",
    "--jobs": "2",
    "--out": "ladder.json",
}


def main(argv: Sequence[str]) -> int:
    """Run the ladder with ``argv`` over the defaults."""
    given = {arg.split("=")[0] for arg in argv if arg.startswith("-")}
    args = ["ladder"]
    for option, value in DEFAULTS.items():
        if option not in given:
            args += [option, value]
    return canasta([*args, *argv])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
