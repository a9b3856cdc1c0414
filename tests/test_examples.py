"""The example programs of ``examples/`` run: each exits with 0 and prints what it promises.

Each program runs as a user would run it, in a subprocess with the interpreter of this
test run (the project's virtual environment), from a temporary working directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(script: str, *args: str, cwd: Path, expect: int = 0) -> str:
    path = EXAMPLES / script
    if not path.exists():
        pytest.fail(f"examples/{script} is missing")
    done = subprocess.run(
        [sys.executable, str(path), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        # Fixed hashing: an example's output (set and dict order) is the same every run.
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert done.returncode == expect, (
        f"examples/{script} {' '.join(args)} exited with {done.returncode}\n"
        f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    )
    return done.stdout


def test_random_playout(tmp_path: Path) -> None:
    out = run("random_playout.py", cwd=tmp_path)
    assert out.startswith("classic, seed 1: ")
    assert "side 0 (seats 0, 2):" in out and "side 1 (seats 1, 3):" in out
    assert "cards in hand" in out


def test_random_playout_is_reproducible(tmp_path: Path) -> None:
    args = ("--variant", "modern-american", "--seed", "7", "--show-moves")
    first = run("random_playout.py", *args, cwd=tmp_path)
    assert first == run("random_playout.py", *args, cwd=tmp_path)
    assert "seat 0: draw" in first
    assert "modern-american, seed 7:" in first


def test_enumerate_moves(tmp_path: Path) -> None:
    out = run("enumerate_moves.py", "--check", "meld:AA2", "meld:QQQ", "take:", cwd=tmp_path)
    assert "11 legal moves: meld:AA2 meld:444 discard:A" in out
    assert "meld:AA2: legal" in out
    assert "meld:QQQ: the cards are not in the hand" in out
    assert "take:: bad move 'take:'" in out
    assert "perft(1) = 11" in out and "perft(2) = " in out


def test_enumerate_moves_reads_a_position_file(tmp_path: Path) -> None:
    import canasta

    state = canasta.new_game("classic-2p", seed=4).apply("draw")
    position = tmp_path / "position.json"
    position.write_text(state.to_json(), encoding="utf-8")
    out = run("enumerate_moves.py", str(position), "--depth", "1", cwd=tmp_path)
    assert f"{len(state.legal_moves())} legal moves: " in out
    assert f"perft(1) = {len(state.legal_moves())}" in out


def test_custom_variant(tmp_path: Path) -> None:
    out = run("custom_variant.py", cwd=tmp_path)
    assert "house_rules.toml: the 'classic' preset with these changes:" in out
    assert "target_score = 3000  (preset: 5000)" in out
    assert "registered as 'house-rules': True" in out
    assert "target 3000" in out


def test_custom_variant_reports_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "classic"\ntarget_scor = 3000\n', encoding="utf-8")
    out = run("custom_variant.py", str(bad), cwd=tmp_path, expect=1)
    assert "unknown option 'target_scor'" in out and "did you mean 'target_score'" in out


def test_house_rules_file_is_a_valid_config() -> None:
    import canasta

    variant = canasta.variants.load(EXAMPLES / "house_rules.toml")
    assert variant.name == "classic" and variant.target_score == 3000


def test_sample_bot(tmp_path: Path) -> None:
    out = run("sample_bot.py", "--deals", "2", "--samples", "8", cwd=tmp_path)
    assert "deal 1: side 0 (SafeDiscardBot)" in out and "deal 2:" in out
    assert "discards searched" in out


def test_validate_record(tmp_path: Path) -> None:
    out = run("validate_record.py", cwd=tmp_path)
    assert '[Game "deal"]' in out and '[Seed "11"]' in out
    assert "recorded deal: every move is legal" in out
    assert "tampered copy: ply 5 (line 12, column 8): 'meld:QQQ' is illegal" in out


def test_validate_record_checks_a_file(tmp_path: Path) -> None:
    import canasta
    from canasta import records

    deal = canasta.new_game("classic-2p", seed=3).play("draw")
    good = tmp_path / "good.txt"
    good.write_text(records.dumps(deal, seed=3), encoding="utf-8")
    assert "good.txt: every move is legal" in run("validate_record.py", str(good), cwd=tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text(good.read_text(encoding="utf-8").replace("S0: draw", "S0: end"), "utf-8")
    out = run("validate_record.py", str(bad), cwd=tmp_path, expect=1)
    assert "bad.txt: ply 0 " in out and "'end' is illegal" in out


def test_every_example_is_tested() -> None:
    """A new example program needs a test here."""
    tested = {
        "random_playout.py",
        "enumerate_moves.py",
        "custom_variant.py",
        "sample_bot.py",
        "validate_record.py",
        "demo.py",  # run by `make demo`, and tested by its author
        "openspiel_ismcts.py",  # tests/test_rl_openspiel.py (needs the openspiel extra)
        "rllib_selfplay.py",  # tests/test_ray_rllib.py (make test-ray)
    }
    present = {p.name for p in EXAMPLES.glob("*.py")}
    assert present <= tested, f"examples without a test: {sorted(present - tested)}"
