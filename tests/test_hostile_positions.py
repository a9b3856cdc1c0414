"""Hostile positions and the engine's invariants (the engine's share of the hostile-input
findings): cards never vanish, observations depend on nothing hidden, a state hands out no
mutable view, and position fields are read exactly and checked against each other."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import attrs
import pytest

import canasta
from canasta import GameState, PositionError
from canasta.variants.classic import ClassicVariant


def _cards_on_table(state: GameState) -> Counter[str]:
    data = state.to_dict()
    parts = [*data["hands"], data["pile"], data["stock"], *data["threes"]]
    parts += [m for side in data["melds"] for m in side]
    parts += state.to_dict().get("turn", {}).get("waiting", "").split()
    return Counter(c for part in parts for c in part.split())


def _deck(variant: canasta.Variant) -> Counter[str]:
    return _cards_on_table(canasta.new_game(variant, seed=0))


def test_red_threes_laid_while_the_stock_runs_out_are_kept() -> None:
    # Finding 1: 53 cards a hand left one card of stock: the red threes dealt could not all
    # be replaced, and those left over vanished (107 of 108 cards remained). Such hands are
    # refused now; the largest, 51, with wild cards and threes skipped as the upcard, can
    # still leave the stock empty before every red three is replaced.
    variant = canasta.variants.get("classic-2p", hand_size=51, upcard_skip="wild_any3")
    emptied = 0
    for seed in range(8):
        state = canasta.new_game(variant, seed=seed)
        emptied += not state.stock
        assert _cards_on_table(state) == _deck(canasta.variants.get("classic-2p"))
    assert emptied


def test_red_threes_declared_at_the_first_turn_with_a_short_stock_are_kept() -> None:
    # Finding 1, with red_three_declare="first_turn": seat 1 lays out two red threes at its
    # first turn when the stock is out; the one not replaced vanished.
    variant = canasta.variants.get("classic", red_three_declare="first_turn")
    state = GameState.from_dict(
        {
            "variant": variant.to_config(),
            "phase": "play",
            "hands": ["5C 6D 7S", "3H 3D 8C", "4D 5D", "4H 5H"],
            "pile": "9C",
            "stock": "",
        }
    )
    before = _cards_on_table(state)
    after = state.apply("discard:5")
    assert _cards_on_table(after) == before
    assert sorted(str(c) for c in after.observe(0).threes[1]) == ["3D", "3H"]


def test_the_pile_is_public_so_what_it_holds_may_decide_a_pickup() -> None:
    # Finding 2: two positions that differ only in a red three below the pile's top have
    # different legal moves (the red three goes face up instead of into the hand, which
    # decides whether a card is left to discard). The whole pile is public, so the
    # observations differ too, and each shows the pile as it is.
    base = {
        "variant": "classic",
        "phase": "draw",
        "hands": ["KH KD", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"],
        "stock": "9S 9H 9D",
        "melds": [["QH QS QD QC"], []],
    }
    with_three = GameState.from_dict({**base, "pile": "2C 3H KS"})
    with_seven = GameState.from_dict({**base, "pile": "2C 7C KS"})
    assert with_three.legal_moves() != with_seven.legal_moves()
    assert with_three.observe(0) != with_seven.observe(0)
    assert [str(c) for c in with_three.observe(1).pile_seen] == ["2C", "3H", "KS"]
    assert [str(c) for c in with_seven.observe(1).pile_seen] == ["2C", "7C", "KS"]


def test_two_states_with_the_same_observation_have_the_same_legal_moves() -> None:
    # The other way round: where the observation is the same, the rules are too.
    for seed in range(6):
        state = canasta.new_game("classic", seed=seed)
        rng_moves = 0
        while not state.is_over and rng_moves < 60:
            seat = state.to_move
            assert seat is not None
            observation = state.observe(seat)
            for salt in range(3):
                other = canasta.sample_state(observation, random.Random(salt))
                assert other.observe(seat) == observation
                assert other.legal_moves() == state.legal_moves()
            state = state.apply(state.legal_moves()[rng_moves % len(state.legal_moves())])
            rng_moves += 1


def test_a_state_hands_out_no_mutable_view() -> None:
    # Finding 3: counts() handed out its cached list. Every public value of a state is
    # immutable (hashable), so no caller can change the state through it.
    state = canasta.new_game("classic", seed=3).apply("draw")
    for name in dir(GameState):
        if name.startswith("_") or callable(getattr(state, name)):
            continue
        hash(getattr(state, name))  # raises TypeError for a list, dict or set
    assert not hasattr(state, "counts")  # the engine's rank counts stay inside


POSITION = {
    "variant": "classic",
    "phase": "play",
    "hands": ["KH KD KS 5C 6D", "4C 5H 6H", "4D 5D 6S", "4H 5S 6C"],
    "pile": "9S",
    "stock": "TS TH TD",
}


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"melded_seats": 3}, "melded_seats"),
        ({"turn": {"groups": 5}}, "turn.groups"),
        ({"turn": {"groups": [["X", 3, 0, True]]}}, "not a meld rank"),
        ({"turn": {"groups": [["A2", 3, 0, True]]}}, "not a meld rank"),
        ({"turn": {"groups": [["", 3, 0, True]]}}, "not a meld rank"),
        ({"turn": {"groups": [["QK", 3, 0, True]]}}, "not a meld rank"),
        ({"turn": {"groups": [["23456", 3, 0, True]]}}, "not a meld rank"),
        ({"turn": {"groups": [["K", "a", 0, True]]}}, "naturals"),
        ({"turn": {"groups": [["K", 3, 0, 1]]}}, "from_hand"),
        ({"turn": {"groups": [["K", 3, 0, True], ["K", 1, 0, True]]}}, "twice"),
        ({"turn": {"opening": 1e400}}, "turn.opening"),
        ({"turn": {"permission": 1}}, "permission"),
        ({"turn": {"waiting": "7C 7D"}}, "took_pile"),
        ({"concealed": True}, "concealed"),
        ({"opened": [1, 0]}, "opened"),
        ({"scores": [0, "5"]}, "scores"),
        ({"hands": ["KH KD KS 5C 6D", ["4C", 5], "4D 5D 6S", "4H 5S 6C"]}, r"hands\[1\]"),
    ],
)
def test_position_fields_are_read_exactly(changes: dict[str, Any], needle: str) -> None:
    with pytest.raises(PositionError, match=needle):
        GameState.from_dict({**POSITION, **changes})


def test_waiting_cards_need_an_unopened_side() -> None:
    # An opened side's pickup joins its hand at once: nothing can be waiting.
    position = {
        **POSITION,
        "melds": [["QH QS QD"], []],
        "turn": {"took_pile": True, "waiting": "7C 7D"},
    }
    with pytest.raises(PositionError, match="waiting"):
        GameState.from_dict(position)


def _concealed_below_the_minimum() -> dict[str, Any]:
    """A deal over: South went out concealed with 55, below the minimum of 120 (EX-24)."""
    start = GameState.from_dict(
        {
            "variant": "classic",
            "scores": [3000, 0],
            "phase": "play",
            "to_move": 2,
            "hands": ["7C 5H 6H", "7D 5D 6S", "4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C", "7H 5S 6D"],
            "pile": "9S",
            "stock": "TS TH TD",
        }
    )
    end = start.play("meld:4444444 meld:5555 discard:6C")
    assert end.went_out == 2 and end.outcome() is not None
    return end.to_dict()


def test_a_concealed_going_out_below_the_minimum_reads_back() -> None:
    # D12: the side never opened, yet its melds are on the table when the deal ends.
    position = _concealed_below_the_minimum()
    assert position["opened"] == [False, False] and position["concealed"] is True
    assert GameState.from_dict(position).to_dict() == position


@pytest.mark.parametrize(
    "changes",
    [
        {"concealed": False},  # going out not concealed needs the minimum
        {"variant": {"variant": "classic", "concealed_exempt_from_minimum": False}},
        {"melds": [["4S 4S 4H 4H 4D 4D 4C", "5S 5H 5D"], []], "hands": None},
    ],
)
def test_unopened_melds_at_the_end_need_a_concealed_going_out(changes: dict[str, Any]) -> None:
    position = _concealed_below_the_minimum()
    if "hands" in changes:
        # The melds no longer match the turn's groups; the card left over joins a hand.
        changes = {**changes, "hands": [*position["hands"][:3], position["hands"][3] + " 5C"]}
    with pytest.raises(PositionError, match="opened"):
        GameState.from_dict({**position, **changes})


def test_every_accepted_position_reads_back_equal() -> None:
    state = GameState.from_dict(
        {**POSITION, "hands": ["KH KD KS AC AD AH 5C 6D", "4C", "4D", "4H"]}
    )
    state = state.apply("meld:KKK")
    assert GameState.from_dict(state.to_dict()) == state
    assert GameState.from_dict(json.loads(state.to_json())) == state


@pytest.mark.parametrize(
    "text",
    [
        None,
        5,
        "[" * 100_000,
        "{" * 50 + "}" * 50,
        '{"variant": "classic", "scores": [1' + "0" * 5000 + ", 0]}",
    ],
)
def test_hostile_json_is_a_position_error(text: Any) -> None:
    with pytest.raises(PositionError):
        GameState.from_json(text)


@attrs.frozen(cache_hash=True)
class _BrokenMelds(ClassicVariant):
    """A plugin variant whose meld rule fails."""

    def natural_meld_reason(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> canasta.IllegalReason | None:
        return [][rank]


@attrs.frozen(cache_hash=True)
class _BrokenScoring(ClassicVariant):
    """A plugin variant whose scoring fails."""

    def score_rows(self, table: Any) -> Any:
        return 1 // 0


@attrs.frozen(cache_hash=True)
class _BrokenCover(ClassicVariant):
    """A plugin variant that fails to tell whether the last discard lies face down."""

    @property
    def covers_last_discard(self) -> bool:
        return bool(1 // 0)


def test_a_failing_rule_of_a_plugin_variant_names_the_variant_and_the_rule() -> None:
    opened = GameState.from_dict({**POSITION, "melds": [["TH TS TD"], []]})
    state = GameState(attrs.evolve(opened._table, variant=_BrokenMelds(name="broken-melds")))
    with pytest.raises(canasta.VariantError, match=r"'broken-melds'.*'natural_meld_reason'.*Index"):
        state.legal_moves()
    with pytest.raises(canasta.VariantError, match="natural_meld_reason"):
        state.check("meld:KKK")
    with pytest.raises(canasta.VariantError, match="natural_meld_reason"):
        state.apply("meld:KKK")
    # Reading a position runs the rules too (its melds are checked, its legal moves found).
    broken_melds = _BrokenMelds(name="broken-melds")
    with pytest.raises(canasta.VariantError, match=r"'broken-melds'.*'natural_meld_reason'"):
        GameState.from_dict({**POSITION, "variant": broken_melds, "melds": [["TH TS TD"], []]})
    over = GameState.from_dict(
        {"variant": "classic", "phase": "over", "to_move": None, "hands": ["", "4C", "4D", "4H"]}
    )
    broken = GameState(attrs.evolve(over._table, variant=_BrokenScoring(name="broken-score")))
    with pytest.raises(canasta.VariantError, match=r"'broken-score'.*'score_rows'.*ZeroDivision"):
        broken.outcome()
    # Observing a deal that is over asks whether its last discard lies face down.
    went_out = attrs.evolve(over._table, went_out=0, variant=_BrokenCover(name="broken-cover"))
    covered = GameState(went_out)
    with pytest.raises(canasta.VariantError, match=r"'broken-cover'.*'covers_last_discard'"):
        covered.observe(1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: canasta.new_game("classic", scores=(10**5000, 0)),
        lambda: canasta.new_game("classic", scores="00"),  # type: ignore[arg-type]
        lambda: canasta.new_game("classic", seed=10**5000),
        lambda: canasta.new_game("classic", seed="abc"),  # type: ignore[arg-type]
        lambda: canasta.new_game("classic", seed=1.5),  # type: ignore[arg-type]
        lambda: canasta.new_game("classic", dealer=True),
        lambda: canasta.Match.new("classic", seed="x"),  # type: ignore[arg-type]
        lambda: canasta.Match.new("classic", seed=10**5000),
        lambda: canasta.variants.get("classic", target_score=10**5000),
    ],
)
def test_arguments_that_no_record_could_write_are_refused(call: Any) -> None:
    with pytest.raises(canasta.VariantError):
        call()


def test_an_observation_with_a_three_left_in_a_hand_can_be_sampled() -> None:
    # Modern American: a three drawn as the last stock card stays in the hand and ends
    # the deal; sample_state must be able to deal one into the hidden hands then.
    state = GameState.from_dict(
        {
            "variant": "modern-american",
            "phase": "draw",
            "hands": ["4C 5C", "4D 5D", "4H 5H", "4S 5S"],
            "pile": "9C",
            "stock": "3H",
        }
    )
    over = state.apply("draw")
    assert over.is_over and "3H" in over.to_dict()["hands"][0]
    for seat in range(1, 4):
        sampled = canasta.sample_state(over.observe(seat), random.Random(seat))
        assert sampled.observe(seat) == over.observe(seat)


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"phase": "answer", "hands": ["KH 5D", "4C", "4D", "4H"]}, "turn.asked"),
        ({"phase": "play", "hands": ["", "4C", "4D", "4H"]}, r"hands\[0\] is empty"),
    ],
)
def test_positions_where_play_would_be_stuck_are_refused(
    changes: dict[str, Any], needle: str
) -> None:
    # After "yes" to a question nobody asked, the seat had no legal move; so did a player
    # in phase play with no card.
    with pytest.raises(PositionError, match=needle):
        GameState.from_dict({**POSITION, **changes})
