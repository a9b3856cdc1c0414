"""Check a game record: replay it and report the first illegal move, if any.

    python examples/validate_record.py game.txt      # check a record file
    python examples/validate_record.py               # record a bot deal, check it,
                                                     # then check a tampered copy

A record (docs/records.md) holds the variant, the seed (or the exact deck or position)
and the moves. Replaying it reproduces every state; an illegal move is reported with its
ply, its line and column in the text, and the reason. This is what
``canasta validate FILE`` does.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import canasta
from canasta import records
from canasta.bots import GreedyBot, play_deal


def validate(text: str, name: str) -> bool:
    """Print whether the record ``text`` replays; True if every move is legal."""
    try:
        final = records.loads(text)
    except records.RecordReplayError as error:
        print(
            f"{name}: ply {error.ply} (line {error.line}, column {error.column}): "
            f"{str(error.move)!r} is illegal: {error.reason.value}"
        )
        return False
    except canasta.RecordError as error:
        print(f"{name}: not a valid record: {error}")
        return False
    state = final.state if not isinstance(final, canasta.GameState) else final
    outcome = state.outcome()
    result = "in progress" if outcome is None else f"scores {outcome.scores}"
    print(f"{name}: every move is legal; {len(state.history())} moves in the last deal, {result}")
    return True


def tamper(text: str) -> str:
    """The record with the draw of its third turn line replaced by an illegal meld."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("3. "):
            lines[i] = line.replace(" draw ", " meld:QQQ ", 1)
            break
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Replay a game record and check every move.")
    parser.add_argument("record", nargs="?", type=Path, help="a record file")
    args = parser.parse_args(argv)

    if args.record is not None:
        return 0 if validate(args.record.read_text(encoding="utf-8"), args.record.name) else 1

    start = canasta.new_game("classic", seed=11)
    final = play_deal(start, [GreedyBot(seed=seat) for seat in range(4)])
    text = records.dumps(final, seed=11, players=["Ann", "Ben", "Cleo", "Dan"], date="2026.11.29")
    print("\n".join(text.splitlines()[:12]))
    print("...")
    ok = validate(text, "recorded deal")
    assert records.loads(text) == final  # the replay reproduces the final state
    bad = validate(tamper(text), "tampered copy")
    return 0 if ok and not bad else 1


if __name__ == "__main__":
    raise SystemExit(main())
