"""Coverage-guided fuzzing of the parsers with atheris (``make fuzz``).

Each input is one byte choosing the parser, then the text (UTF-8, bad bytes replaced):

- ``notation``: ``Card.parse``, ``parse_cards`` and ``parse_move``; accepted text must read
  back from its canonical form, and a parsed move must be checked without error;
- ``records``: ``records.loads``; an accepted record's final deal must play on;
- ``config``: a variant config as JSON through ``canasta.records`` (its ``Variant`` tag),
  and as a TOML or JSON file through ``variants.load``;
- ``position``: ``GameState.from_json``; an accepted position must play on and round trip.

Anything but a documented `CanastaError` is a crash. With ``--crashes=DIR`` the first
input of each distinct crash (exception type and the line that raised it) is written to
``DIR/crash-<id>`` with its traceback in ``DIR/crash-<id>.txt``, and fuzzing goes on;
without it, libFuzzer stops at the first crash. Replay an input with
``python tools/fuzz.py .fuzz/crashes/crash-...`` (the traceback is printed).

Usage: ``python tools/fuzz.py [--crashes=DIR] [libFuzzer options] [CORPUS_DIR ...]``,
e.g. ``python tools/fuzz.py --crashes=.fuzz/crashes -max_total_time=60 .fuzz/corpus``.
The corpus folder is seeded with real inputs (positions, records, configs, moves) when it
is empty.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

import atheris  # type: ignore[import-not-found, import-untyped, unused-ignore]

with atheris.instrument_imports():
    import canasta
    from canasta import CanastaError, GameState, Match, records, variants

_FOLDER = tempfile.mkdtemp(prefix="canasta-fuzz-")


def _plays_on(state: GameState) -> None:
    moves = state.legal_moves()
    if state.is_over != (not moves):
        raise AssertionError("a deal that is not over has no legal move, or the reverse")
    if moves:
        state.apply(moves[0])


def fuzz_notation(text: str) -> None:
    for parse in (canasta.Card.parse, canasta.parse_cards):
        try:
            parsed = parse(text)
        except CanastaError:
            continue
        cards = parsed if isinstance(parsed, tuple) else (parsed,)
        if canasta.parse_cards(" ".join(map(str, cards))) != cards:
            raise AssertionError(f"cards {text!r} do not read back")
    try:
        move = canasta.parse_move(text)
    except CanastaError:
        return
    if canasta.parse_move(str(move)) != move:
        raise AssertionError(f"move {text!r} prints as {str(move)!r}, which reads otherwise")
    _STATE.check(move)


def fuzz_records(text: str) -> None:
    try:
        result = records.loads(text)
    except CanastaError:
        return
    if isinstance(result, Match):
        if not result.is_over:
            _plays_on(result.state)
    else:
        _plays_on(result)


def fuzz_config(text: str) -> None:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    fuzz_records(f'[Game "deal"]\n[Variant "{escaped}"]\n[Seed "1"]\n')
    for suffix in (".toml", ".json"):
        path = Path(_FOLDER) / f"config{suffix}"
        path.write_text(text, encoding="utf-8")
        try:
            variant = variants.load(path)
        except CanastaError:
            continue
        if variants.from_config(variant.to_config()) != variant:
            raise AssertionError("a loaded config does not round trip")
        _plays_on(canasta.new_game(variant, seed=1))


def fuzz_position(text: str) -> None:
    try:
        state = GameState.from_json(text)
    except CanastaError:
        return
    if GameState.from_dict(state.to_dict()) != state:
        raise AssertionError("an accepted position does not round trip")
    _plays_on(state)


TARGETS: tuple[tuple[str, Callable[[str], None]], ...] = (
    ("notation", fuzz_notation),
    ("records", fuzz_records),
    ("config", fuzz_config),
    ("position", fuzz_position),
)
_STATE = canasta.new_game("classic", seed=5).play("draw")


_crashes: Path | None = None
_seen: set[str] = set()  # the distinct crashes kept so far


def run_target(data: bytes) -> None:
    if not data:
        return
    _, target = TARGETS[data[0] % len(TARGETS)]
    target(data[1:].decode("utf-8", "replace"))


def test_one_input(data: bytes) -> None:
    """Run one input; with a crash folder, keep each distinct crash and go on."""
    if _crashes is None:
        run_target(data)
        return
    try:
        run_target(data)
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        key = f"{type(error).__name__} at {where.filename}:{where.lineno}"
        if key not in _seen:
            _seen.add(key)
            name = "crash-" + hashlib.sha1(key.encode()).hexdigest()[:12]
            (_crashes / name).write_bytes(data)
            report = "".join(traceback.format_exception(error))
            (_crashes / f"{name}.txt").write_text(f"{key}\n\n{report}", encoding="utf-8")
            print(f"\nCRASH {key}: {_crashes / name}\n{report}", file=sys.stderr)


def seeds() -> list[bytes]:
    """Real inputs for each target, each prefixed with its target's byte."""
    state = canasta.new_game("modern-american", seed=3).play("draw")
    match = Match.new("classic-2p", seed=2)
    for _ in range(30):
        match = match.apply(match.state.legal_moves()[-1])
    texts = {
        "notation": ["KH KS 2C *", "meld:KKK2", "add:K+2", "take:JK*", "discard:10s", "draw"],
        "records": [records.dumps(match, date="2026.01.01")],
        "config": ['variant = "classic-2p"\ntarget_score = 3000\n', '{"variant": "mac"}'],
        "position": [state.to_json()],
    }
    found = []
    for index, (name, _) in enumerate(TARGETS):
        found += [bytes([index]) + text.encode("utf-8") for text in texts[name]]
    return found


def main() -> None:
    global _crashes
    for arg in list(sys.argv[1:]):
        if arg.startswith("--crashes="):
            _crashes = Path(arg.split("=", 1)[1])
            _crashes.mkdir(parents=True, exist_ok=True)
            sys.argv.remove(arg)
    corpus = [arg for arg in sys.argv[1:] if not arg.startswith("-") and os.path.isdir(arg)]
    for folder in corpus:
        if not os.listdir(folder):
            for number, seed in enumerate(seeds()):
                Path(folder, f"seed-{number:02d}").write_bytes(seed)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
