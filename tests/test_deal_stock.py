"""Deal, upcard, red threes and the end of the stock: rules spec §2.2, §2.3, §2.12, §3.2,
worked examples EX-26 to EX-29 (§6.5).

Seats 0 (North) and 2 (South) are side 0, seats 1 (East) and 3 (West) side 1.
"""

from __future__ import annotations

import pytest
from helpers import (
    assert_illegal,
    assert_legal,
    bag,
    hand,
    line,
    meld_of,
    move_texts,
    pile,
    play,
    position,
    state_of,
    stock,
    threes,
    value,
)

import canasta

R = canasta.IllegalReason


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def ended_without_going_out(state: canasta.GameState) -> canasta.Outcome:
    assert state.is_over
    assert state.phase == "over"
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out is None
    assert not outcome.concealed
    for side in range(len(outcome.scores)):
        assert line(state, side, "going out") == 0
    return outcome


# -- EX-27 -----------------------------------------------------------------------------


def ex27_position(**options: object) -> dict[str, object]:
    return position(
        variant=classic(**options),
        hands={0: "9C JD 6D", 1: "5H 7C JH", 2: "5S 5D QC"},
        pile="8C",
        stock="4S",
        melds=[["KS KH KD"], ["9S 9H 9D"]],
    )


def test_ex27_stock_exhausted_default() -> None:
    """EX-27: North draws the last stock card (not a red 3) and discards 9C. East's side has
    a 9-meld and the pile is not frozen: East MUST take it (lay 9C off), then discards 5H.
    South's side has no 5-meld; South holds 5S 5D and MAY take; South declines: the hand
    ends at once, scored without a going-out bonus (D10, D20)."""
    d = ex27_position()
    state = play(state_of(d), "draw", "discard:9C")
    assert stock(state) == []
    assert state.to_move == 1
    assert move_texts(state) == ["take"]
    assert_illegal(state, "end", R.PICKUP_FORCED)
    assert_illegal(state, "draw", R.STOCK_EMPTY)
    state = play(state, "take", "discard:5H")
    assert meld_of(state, 1, "9") == bag("9S 9H 9D 9C")
    assert state.to_move == 2
    assert_legal(state, "take:5S5D")  # South may take ...
    state = assert_legal(state, "end")  # ... but declines: the hand ends
    outcome = ended_without_going_out(state)
    # Side 0: K K K (30) - North's J D 6D 4S (20) - South's 5S 5D QC (20).
    assert outcome.scores[0] == 30 - 20 - 20
    # Side 1: 9 9 9 9 (40) - East's 7C JH 8C (25) - West's hand.
    assert outcome.scores[1] == 40 - 25 - value(d["hands"][3])  # type: ignore[index]


def test_ex27_pickup_not_forced_option() -> None:
    """EX-27 with forced_pickup_after_stock=false: East may decline the pile (D20)."""
    state = play(state_of(ex27_position(forced_pickup_after_stock=False)), "draw", "discard:9C")
    assert state.is_legal("take")
    ended_without_going_out(assert_legal(state, "end"))


def test_ex27_end_after_turn_option() -> None:
    """EX-27 with stock_exhausted=end_after_turn: the hand ends right after North's discard
    of 9C (D10)."""
    state = play(state_of(ex27_position(stock_exhausted="end_after_turn")), "draw", "discard:9C")
    ended_without_going_out(state)
    assert pile(state) == ["8C", "9C"]


# -- EX-28 -----------------------------------------------------------------------------

NORTH = "KC 7S 7H 7D 9C JD"


def ex28_state(**options: object) -> canasta.GameState:
    d = position(
        variant=classic(**options),
        hands={0: NORTH, 2: "5S 6H"},
        pile="8C",
        stock="3D",
        melds=[["KS KH KD"], []],
    )
    return state_of(d)


def test_ex28_red_three_as_last_stock_card() -> None:
    """EX-28: North draws 3D as the last stock card. Default (meld_no_discard): 3D goes to
    NS's red 3s with no replacement; North may meld and lay off; no discard; hand ends (D11)."""
    state = assert_legal(ex28_state(), "draw")
    assert threes(state, 0) == bag("3D")
    assert hand(state, 0) == bag(NORTH)  # no replacement card
    assert stock(state) == []
    assert state.to_move == 0
    assert not state.is_over
    assert not any(m.startswith("discard:") for m in move_texts(state))
    assert_illegal(state, "discard:9C", R.NO_DISCARD)
    state = play(state, "add:K+KC", "meld:7S7H7D", "end")
    outcome = ended_without_going_out(state)
    assert line(state, 0, "red threes") == 100
    # K K K K (40) + 7 7 7 (15) + red 3 (100) - North's 9C JD (20) - South's 5S 6H (10).
    assert outcome.scores[0] == 40 + 15 + 100 - 20 - 10


def test_ex28_end_immediately_option() -> None:
    """EX-28 with last_stock_red_three=end_immediately: the hand ends at once (D11)."""
    state = assert_legal(ex28_state(last_stock_red_three="end_immediately"), "draw")
    ended_without_going_out(state)
    assert threes(state, 0) == bag("3D")
    assert line(state, 0, "red threes") == 100


def test_ex28_normal_turn_option() -> None:
    """EX-28 with last_stock_red_three=normal_turn: North melds and discards as usual, then
    stock_exhausted applies (default: East may take the pile or end the hand) (D11)."""
    state = assert_legal(ex28_state(last_stock_red_three="normal_turn"), "draw")
    assert threes(state, 0) == bag("3D")
    state = play(state, "meld:7S7H7D", "discard:9C")
    assert not state.is_over
    assert state.to_move == 1
    assert state.is_legal("end")


# -- EX-29 -----------------------------------------------------------------------------

ACES = "AS AS AH AH AD AD AC"
QUEENS = "QS QS QH QH QD QD QC"


@pytest.mark.parametrize("canastas", [1, 2])
def test_ex29_two_players_single_last_card(canastas: int) -> None:
    """EX-29: classic-2p, the stock holds 1 card: drawing it is a complete draw and the turn
    goes on. Going out with one canasta is illegal (two are required)."""
    table = [QUEENS, ACES][:canastas]
    d = position(
        variant="classic-2p", hands={0: "KS KH KD"}, pile="8C", stock="4D", melds=[table, []]
    )
    state = assert_legal(state_of(d), "draw")
    assert state.to_move == 0
    assert state.phase == "play"
    assert stock(state) == []
    assert hand(state, 0) == bag("KS KH KD 4D")
    if canastas == 1:
        assert_illegal(state, "meld:KSKHKD", R.HAND_SIZE, R.CANNOT_GO_OUT)
        assert state.is_legal("discard:4D")
    else:
        state = play(state, "meld:KSKHKD", "discard:4D")
        assert state.is_over
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.went_out == 0
