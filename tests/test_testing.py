"""The conformance checker :mod:`canasta.testing` (style.md: "a generic random-play
conformance check for every game").

Every registered variant must pass :func:`~canasta.testing.check_variant`; and the checker
must notice a broken engine, so each invariant is also shown to fail on a deliberately
broken ``GameState`` method (patched for one test only).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import attrs
import pytest

import canasta
from canasta import GameState
from canasta.testing import ConformanceError, candidate_moves, check_deal, check_variant

NAMES = canasta.variants.names()


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_variant_conforms(name: str) -> None:
    check_variant(name, deals=2, seed=100)


def test_modern_american_with_set_aside_talons_conforms() -> None:
    # The club feature no preset has: talons dealt face down at the deal.
    check_variant(
        {"variant": "modern-american-club", "mac_talon_source": "set_aside"}, deals=2, seed=100
    )


def test_variant_objects_and_configs_are_accepted() -> None:
    check_variant(canasta.variants.get("classic", target_score=3000), deals=1, seed=7)
    check_variant({"variant": "classic-2p"}, deals=1, seed=8)


def test_zero_deals_checks_nothing_and_bad_arguments_raise() -> None:
    check_variant("classic", deals=0)
    with pytest.raises(ValueError, match="max_plies"):
        check_variant("classic", deals=1, max_plies=0)


def test_check_deal_returns_a_finished_deal() -> None:
    end = check_deal("classic", seed=3)
    assert end.is_over
    assert end.outcome() is not None


def test_candidates_cover_every_kind_of_move() -> None:
    state = canasta.new_game("classic", seed=5)
    kinds: set[str] = set()
    rng = random.Random(1)
    for _ in range(40):
        texts = candidate_moves(state, rng)
        assert texts == sorted(set(texts))
        kinds.update(canasta.parse_move(t).kind for t in texts)
        state = state.apply(rng.choice(state.legal_moves()))
        if state.is_over:
            break
    assert kinds >= {"draw", "take", "meld", "add", "discard", "ask", "answer", "end"}


# -- the checker notices broken engines -------------------------------------------------


def _fails(monkeypatch: pytest.MonkeyPatch, name: str, attr: str, fake: Any) -> ConformanceError:
    monkeypatch.setattr(GameState, attr, fake)
    with pytest.raises(ConformanceError) as info:
        check_variant("classic", deals=1, seed=11)
    assert isinstance(info.value, AssertionError)
    assert info.value.variant == "classic"
    assert info.value.seed == 11
    assert "seed 11" in str(info.value)
    assert f"ply {info.value.ply}" in str(info.value)
    return info.value


def test_duplicate_legal_moves_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.legal_moves

    def doubled(self: GameState) -> tuple[canasta.Move, ...]:
        moves = real(self)
        return moves + moves[-1:]

    error = _fails(monkeypatch, "classic", "legal_moves", doubled)
    assert "more than once" in str(error)
    assert error.ply == 0


def test_a_listed_illegal_move_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.legal_moves

    def with_end(self: GameState) -> tuple[canasta.Move, ...]:
        moves = real(self)
        return moves if self.is_over else (*moves, canasta.End())

    error = _fails(monkeypatch, "classic", "legal_moves", with_end)
    assert "listed move end fails check()" in str(error)


def test_check_accepting_unlisted_moves_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    error = _fails(monkeypatch, "classic", "check", lambda self, move, **_: None)
    assert "is not in legal_moves()" in str(error)


def test_lost_cards_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.apply

    def losing(self: GameState, move: canasta.Move | str) -> GameState:
        after = real(self, move)
        return after._evolve(stock=after._table.stock[1:]) if after.stock else after

    error = _fails(monkeypatch, "classic", "apply", losing)
    assert "cards are not conserved" in str(error)


def test_mutating_the_input_state_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.apply

    def mutating(self: GameState, move: canasta.Move | str) -> GameState:
        after = real(self, move)
        # A rules bug that writes to the record under the state.
        table = attrs.evolve(self._table, dealer=(self.dealer + 1) % self.variant.players)
        object.__setattr__(self, "_table", table)
        return after

    error = _fails(monkeypatch, "classic", "apply", mutating)
    assert "changed the state it was applied to" in str(error)


def test_a_lossy_position_format_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.to_dict

    def lossy(self: GameState) -> dict[str, Any]:
        data = real(self)
        data["dealer"] = (data["dealer"] + 1) % self.variant.players
        return data

    error = _fails(monkeypatch, "classic", "to_dict", lossy)
    assert "from_dict(to_dict())" in str(error)


def test_bad_outcomes_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.outcome

    def off_by_five(self: GameState) -> canasta.Outcome | None:
        outcome = real(self)
        if outcome is None:
            return None
        return attrs.evolve(outcome, scores=tuple(s + 5 for s in outcome.scores))

    error = _fails(monkeypatch, "classic", "outcome", off_by_five)
    assert "breakdown rows add up to" in str(error)

    def early(self: GameState) -> canasta.Outcome | None:
        return real(self) or canasta.Outcome((0, 0), ((), ()), None, False)

    monkeypatch.setattr(GameState, "outcome", early)
    with pytest.raises(ConformanceError, match="before the deal is over"):
        check_variant("classic", deals=1, seed=11)


def test_endless_deals_are_reported() -> None:
    with pytest.raises(ConformanceError, match="has not ended after 5 plies") as info:
        check_variant("classic", deals=1, seed=2, max_plies=5)
    assert info.value.ply == 5
    assert len(info.value.moves) == 5
    # The reported moves replay from the reported seed.
    canasta.new_game("classic", seed=2).play(info.value.moves)


def test_candidate_moves_do_not_depend_on_the_hash_seed() -> None:
    # A seeded rng gives the same candidates in every process (CI runs with random hashing).
    script = (
        "import random, canasta\n"
        "from canasta.testing import candidate_moves\n"
        "rng = random.Random(3)\n"
        "state = canasta.new_game('modern-american', seed=3)\n"
        "for _ in range(40):\n"
        "    print(candidate_moves(state, rng))\n"
        "    state = state.apply(rng.choice(state.legal_moves()))\n"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(4)
    }
    assert len(runs) == 1
