"""The benchmark (``benchmarks/bench.py``) on a tiny budget, so that it cannot rot unseen.

The figures themselves are timings and are not checked; what is checked is that every
figure is measured and reported, and that the positions and the play it measures are the
ones it describes.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench  # noqa: E402

import canasta  # noqa: E402
from canasta import Card, GameState  # noqa: E402


def test_random_play_is_the_seeded_deal() -> None:
    play = bench.RandomPlay("classic", 3)
    play.us_per_decision(2, math.inf)
    plies = 0
    for seed in (3, 4):
        choice = random.Random(seed).choice
        state = canasta.new_game("classic", seed=seed)
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
            plies += 1
    assert (play.deals, play.decisions) == (2, plies)


def test_random_line_stops_at_the_ply_or_the_end() -> None:
    state = bench.random_line("classic", 0, 10)
    assert state is not None
    assert len(state.history()) > 0
    assert bench.random_line("classic", 0, 10_000) is None


def test_chess_slices_measure_plies() -> None:
    ref = bench.ChessPlayouts(0)
    assert ref.us_per_ply(0.01) > 0
    assert len(ref.slices) == 1


@pytest.mark.parametrize(("name", "refused"), [("classic", 2), ("modern-american", 4)])
def test_threes_laid_face_up_leave_the_hands(name: str, refused: int) -> None:
    cards = bench.deck(name)
    kept = bench.held_threes_excluded(name, cards)
    threes = {c for c in cards if Card.parse(c).rank == "3"}
    assert len(threes - set(kept)) == refused
    assert [c for c in cards if c not in threes] == [c for c in kept if c not in threes]


@pytest.mark.parametrize("opened", [True, False])
def test_built_positions(opened: bool) -> None:
    cards = bench.held_threes_excluded("classic", bench.deck("classic"))
    position = bench.build_position("classic", random.Random(1), 60, opened, cards)
    state = GameState.from_dict(position)
    assert (state.phase, state.to_move) == ("play", 0)
    seen = state.observe(0)
    assert len(seen.hand) == 60
    assert seen.opened[state.variant.side_of(0)] is opened
    assert state.legal_moves()


def test_measure_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    argv = ["--variants", "classic", "--deals", "1", "--scale", "0.005", "--json", str(out)]
    assert bench.main(argv) == 0
    report = json.loads(out.read_text())
    assert set(report["play"]) == {"classic"}
    for r in report["play"].values():
        assert r["deals_per_s"] > 0 and r["us_per_decision"] > 0 and r["ratio"] > 0
    labels = list(report["figures"])
    # Per variant: a decision and the worst unopened legal_moves(); then observe(), the
    # opened 60-card hand, the retained memory and the pickle.
    assert len(labels) == 2 + 4
    for f in report["figures"].values():
        assert f["value"] > 0
        assert f["met"] == ((f["ratio"] if f["on"] == "ratio" else f["value"]) <= f["target"])
    printed = capsys.readouterr().out
    assert all(label in printed for label in labels)


def test_positions_read_elsewhere_come_without_their_moves() -> None:
    # The bench times legal_moves() from scratch: the state must not bring the moves that
    # reading the position found.
    cards = bench.held_threes_excluded("classic", bench.deck("classic"))
    # A seed, so that both reads shuffle the rest of the cards into the same stock.
    position = {**bench.build_position("classic", random.Random(5), 30, True, cards), "seed": 1}
    (blob,) = bench.read_elsewhere([position])
    state = pickle.loads(blob)
    assert state._legal is None
    assert state == GameState.from_dict(position)
    assert state.legal_moves() == GameState.from_dict(position).legal_moves()
