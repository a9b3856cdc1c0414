"""Write ``tests/data/perft.json``: legal-move counts along fixed seeded lines.

Like chess perft files, the data pins the move generator down: for each (variant, seed)
line, the deal ``canasta.new_game(variant, seed=seed)`` is played to its end choosing, at
ply ``p``, the move at index ``(p * 7) % len(legal_moves())``. Every ply records the number
of legal moves, the move chosen and the full list (in ``legal_moves()`` order); the final
scores close the line. ``tests/test_perft.py`` replays the lines and compares.

Run it again after any intended change of the rules or of the move order::

    python benchmarks/make_perft.py          # writes tests/data/perft.json
    python benchmarks/make_perft.py --check  # exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import canasta

RULE = "at ply p choose legal_moves()[(p * 7) % len(legal_moves())]"
STEP = 7
MAX_PLIES = 2000
#: (variant, seed) of each line: every classic player count, the cutthroat, the Dutch
#: home rules, Modern American, and Modern American as the clubs play it.
LINES: tuple[tuple[str, int], ...] = (
    ("classic", 1),
    ("classic", 2),
    ("classic-2p", 1),
    ("classic-3p", 1),
    ("classic-3p-cutthroat", 2),
    ("classic-6p", 1),
    ("classic-6p-3x2", 2),
    ("dutch-s4", 2),
    ("modern-american", 1),
    ("modern-american", 2),
    ("modern-american-club", 1),
)
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"


def play_line(variant: str, seed: int) -> dict[str, Any]:
    """Play one line; return its record (variant, seed, per-ply rows, final scores)."""
    state = canasta.new_game(variant, seed=seed)
    rows: list[list[Any]] = []
    while not state.is_over:
        ply = len(rows)
        if ply >= MAX_PLIES:
            raise SystemExit(f"{variant} seed {seed}: no end after {MAX_PLIES} plies")
        legal = state.legal_moves()
        move = legal[(ply * STEP) % len(legal)]
        rows.append([ply, len(legal), str(move), " ".join(str(m) for m in legal)])
        state = state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    return {"variant": variant, "seed": seed, "scores": list(outcome.scores), "plies": rows}


def render(lines: list[dict[str, Any]]) -> str:
    """The data file's text: one ply per line, so that diffs stay readable."""
    out = [
        "{",
        f'  "rule": {json.dumps(RULE)},',
        '  "columns": ["ply", "count", "chosen", "legal_moves"],',
        '  "lines": [',
    ]
    for i, line in enumerate(lines):
        out.append("    {")
        out.append(f'      "variant": {json.dumps(line["variant"])},')
        out.append(f'      "seed": {line["seed"]},')
        out.append(f'      "scores": {json.dumps(line["scores"])},')
        out.append('      "plies": [')
        rows = line["plies"]
        for j, row in enumerate(rows):
            comma = "," if j < len(rows) - 1 else ""
            out.append(f"        {json.dumps(row, ensure_ascii=False)}{comma}")
        out.append("      ]")
        out.append("    }" + ("," if i < len(lines) - 1 else ""))
    out.extend(["  ]", "}", ""])
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    parser.add_argument("--out", type=Path, default=DATA, help=f"output file ({DATA})")
    args = parser.parse_args(argv)
    text = render([play_line(variant, seed) for variant, seed in LINES])
    assert json.loads(text)["lines"], "rendered data must parse"
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date: run python benchmarks/make_perft.py")
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    plies = sum(len(json.loads(text)["lines"][i]["plies"]) for i in range(len(LINES)))
    print(f"wrote {args.out}: {len(LINES)} lines, {plies} plies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
