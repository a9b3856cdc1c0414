"""List the legal moves of a position, explain illegal ones, and count move sequences.

    python examples/enumerate_moves.py                         # a built-in position
    python examples/enumerate_moves.py position.json --depth 3
    python examples/enumerate_moves.py --check take:AA meld:QQQ

A position is the JSON of ``GameState.to_dict()`` (see docs/position.md). ``--depth N``
counts the move sequences of N moves from the position, as chess programs do with
"perft": a quick way to compare move generators, and to see how the tree grows.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import canasta

#: Rules spec EX-10 (b): seat 0 has drawn; a side on 1100 needs 50 to open.
EXAMPLE: dict[str, Any] = {
    "variant": "classic",
    "scores": [1100, 0],
    "phase": "play",
    "hands": ["AH AC 2D 5C 6H 7H 8C 4C 4C 4D JC KD", "9H TS", "9D TD", "9C TC"],
    "pile": "5S",
    "stock": "KS KH QS",
}


def perft(state: canasta.GameState, depth: int) -> int:
    """The number of move sequences of ``depth`` moves (shorter where the deal ends)."""
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(state.apply(move), depth - 1) for move in state.legal_moves())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="List and count legal moves.")
    parser.add_argument("position", nargs="?", type=Path, help="a position JSON file")
    parser.add_argument("--depth", type=int, default=2, help="perft depth (default 2)")
    parser.add_argument("--check", nargs="*", default=[], metavar="MOVE", help="moves to explain")
    args = parser.parse_args(argv)

    try:
        if args.position is None:
            state = canasta.GameState.from_dict(EXAMPLE)
        else:
            state = canasta.GameState.from_json(args.position.read_text(encoding="utf-8"))
    except (OSError, canasta.PositionError) as error:
        parser.error(str(error))

    print(json.dumps(state.to_dict()))
    print(f"seat {state.to_move} to move, phase {state.phase}")
    moves = state.legal_moves()
    print(f"{len(moves)} legal moves: {' '.join(str(m) for m in moves)}")
    for text in args.check:
        try:
            reason = state.check(text)
        except canasta.NotationError as error:
            print(f"{text}: {error}")
            continue
        print(f"{text}: {'legal' if reason is None else reason.value}")
    for depth in range(1, args.depth + 1):
        print(f"perft({depth}) = {perft(state, depth)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
