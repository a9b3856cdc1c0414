"""Perft-style regression data for the move generator (style.md: data files for move counts).

``tests/data/perft.json`` holds fixed seeded lines: at ply ``p`` the line plays
``legal_moves()[(p * 7) % len(legal_moves())]`` and records how many moves were legal,
which one was chosen and the whole list. Each line is replayed here; on a mismatch the
failure prints the per-ply split up to the first difference and the moves missing from and
added to ``legal_moves()`` there.

After an intended change of the rules or of the move order, regenerate the data with
``python benchmarks/make_perft.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import canasta

DATA = Path(__file__).parent / "data" / "perft.json"
PERFT: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
LINES: list[dict[str, Any]] = PERFT["lines"]
STEP = 7
CONTEXT = 12  # plies shown before the first difference


def _split(rows: list[list[Any]], actual: list[tuple[int, str, str]], at: int) -> str:
    """The per-ply table (expected vs actual counts and choices) up to ply ``at``."""
    lines = [f"{'ply':>5} {'expected':>8} {'actual':>6}  chosen (expected / actual)"]
    for ply in range(max(0, at - CONTEXT), at + 1):
        want = rows[ply] if ply < len(rows) else None
        got = actual[ply] if ply < len(actual) else None
        mark = "  <--" if ply == at else ""
        lines.append(
            f"{ply:>5} {want[1] if want else '-':>8} {got[0] if got else '-':>6}  "
            f"{want[2] if want else '(deal over)'} / {got[1] if got else '(deal over)'}{mark}"
        )
    return "\n".join(lines)


def _replay(line: dict[str, Any]) -> str | None:
    """Replay a line; None if it matches, else a report of the first difference."""
    variant, seed, rows = line["variant"], line["seed"], line["plies"]
    state = canasta.new_game(variant, seed=seed)
    actual: list[tuple[int, str, str]] = []
    head = f"perft line {variant} seed {seed}"
    while not state.is_over:
        ply = len(actual)
        legal = state.legal_moves()
        move = legal[(ply * STEP) % len(legal)]
        listed = " ".join(str(m) for m in legal)
        actual.append((len(legal), str(move), listed))
        if ply >= len(rows):
            return (
                f"{head}: the deal goes on after ply {len(rows) - 1}, where it used to end\n"
                + _split(rows, actual, ply)
            )
        expected = rows[ply][3].split()
        if listed.split() != expected:
            missing = [m for m in expected if m not in listed.split()]
            extra = [m for m in listed.split() if m not in expected]
            return (
                f"{head}: legal_moves() differs at ply {ply}\n"
                + _split(rows, actual, ply)
                + f"\nexpected ({len(expected)}): {rows[ply][3]}\n"
                + f"actual   ({len(legal)}): {listed}\n"
                + f"missing: {' '.join(missing) or '-'}\n"
                + f"extra:   {' '.join(extra) or '-'}"
                + ("\n(same moves, other order)" if not missing and not extra else "")
            )
        state = state.apply(move)
    if len(actual) != len(rows):
        return f"{head}: the deal ends after {len(actual)} plies, not {len(rows)}\n" + _split(
            rows, actual, len(actual)
        )
    outcome = state.outcome()
    assert outcome is not None
    if list(outcome.scores) != line["scores"]:
        return f"{head}: final scores {list(outcome.scores)}, expected {line['scores']}"
    return None


@pytest.mark.parametrize("line", LINES, ids=[f"{ln['variant']}-{ln['seed']}" for ln in LINES])
def test_perft_line(line: dict[str, Any]) -> None:
    report = _replay(line)
    if report is not None:
        pytest.fail(report + "\n(after an intended change: python benchmarks/make_perft.py)")


def test_perft_data_is_consistent() -> None:
    assert PERFT["rule"] == "at ply p choose legal_moves()[(p * 7) % len(legal_moves())]"
    assert len({ln["variant"] for ln in LINES}) >= 3
    for line in LINES:
        assert line["variant"] in canasta.variants.names()
        for ply, (index, count, chosen, listed) in enumerate(line["plies"]):
            moves = listed.split()
            assert index == ply
            assert count == len(moves) > 0
            assert chosen == moves[(ply * STEP) % count]
