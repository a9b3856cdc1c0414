"""Black threes, going out, concealed going out and asking partner: rules spec §2.6, §2.9,
§2.10, §2.11, worked examples EX-22 to EX-25 (§6.4).

Seats 0 (North) and 2 (South) are side 0; hands are hands after the draw (phase ``"play"``).
"""

from __future__ import annotations

import pytest

import canasta
from helpers import (
    assert_illegal,
    assert_legal,
    bag,
    hand,
    line,
    move_texts,
    no_meld_moves,
    play,
    position,
    state_of,
)

R = canasta.IllegalReason
CANASTA = "QS QS QH QH QD QD QC"  # natural canasta: side 0 may go out


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def went_out(state: canasta.GameState, seat: int, concealed: bool = False) -> None:
    assert state.is_over
    assert state.phase == "over"
    assert state.to_move is None
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == seat
    assert outcome.concealed is concealed
    side = seat % 2
    assert line(state, side, "going out") == 100
    assert line(state, side, "concealed") == (100 if concealed else 0)
    assert line(state, 1 - side, "going out") == 0


# -- EX-22 -----------------------------------------------------------------------------


def threes_state(cards: str, table: list[str], variant: object = "classic") -> canasta.GameState:
    d = position(variant=variant, hands={0: cards}, phase="play", melds=[table, []])
    return state_of(d)


def test_ex22_two_black_threes_cannot_go_out() -> None:
    """EX-22: side has a canasta; hand 3S 3C after the draw: cannot go out (two black 3s
    cannot be melded, discarding one leaves one); the legal turn is to discard a black 3."""
    state = threes_state("3S 3C", [CANASTA])
    moves = move_texts(state)
    assert moves and all(m.startswith("discard:") for m in moves), moves
    assert_illegal(state, "meld:3S3C")
    assert not state.is_legal("ask")  # no going out is possible (§2.11 [LIB])
    after = assert_legal(state, "discard:3S")
    assert not after.is_over
    assert after.to_move == 1
    assert hand(after, 0) == bag("3C")


def test_ex22_single_black_three_goes_out_by_discard() -> None:
    """EX-22: hand 3S: discarding it goes out (legal, +100)."""
    state = play(threes_state("3S", [CANASTA]), "discard:3S")
    went_out(state, 0)


def test_ex22_three_black_threes_meld_goes_out() -> None:
    """EX-22: hand 3S 3C 3S: melding them goes out without a discard (legal); the black-3
    meld's cards count (§2.13: 15 points)."""
    state = play(threes_state("3S 3C 3S", [CANASTA]), "meld:3S3C3S")
    went_out(state, 0)
    assert line(state, 0, "melded cards") == 70 + 15


@pytest.mark.parametrize("with_wilds", [False, True])
def test_ex22_black_threes_with_a_wild(with_wilds: bool) -> None:
    """EX-22: hand 3S 3C 2H: meld 3S 3C 2H is illegal by default
    (black_three_meld_wilds=false), legal (going out) when true (D6)."""
    state = threes_state("3S 3C 2H", [CANASTA], classic(black_three_meld_wilds=with_wilds))
    if with_wilds:
        went_out(play(state, "meld:3S3C2H"), 0)
    else:
        assert_illegal(state, "meld:3S3C2H")


@pytest.mark.parametrize(
    ("cards", "table"),
    [
        ("3S 3C 3C", ["KS KH KD"]),
        ("3S 3C 3C 5H 6D", ["KS KH KD"]),
        ("3S 3C 3C 5H 6D", [CANASTA]),
    ],
    ids=["no-canasta", "no-canasta-more-cards", "canasta-not-going-out"],
)
def test_ex22_black_threes_only_when_going_out(cards: str, table: list[str]) -> None:
    """EX-22: side with no canasta, hand 3S 3C 3C: melding the black 3s is illegal (not a
    going-out turn). Likewise whenever the meld would not end the hand (§2.6)."""
    state = threes_state(cards, table)
    assert_illegal(state, "meld:3S3C3C")
    assert no_meld_moves(state)


# -- EX-23 -----------------------------------------------------------------------------

SOUTH = "QS QS QH QH QD QD QC 6H 6D 6S 2C 9S"


def south_state(table: list[str]) -> canasta.GameState:
    d = position(
        hands={0: "KD 4S", 2: SOUTH},
        to_move=2,
        phase="play",
        melds=[table, []],
        melded_seats=[0],
    )
    return state_of(d)


def test_ex23_concealed_going_out() -> None:
    """EX-23: North opened earlier with 8S 8H 8D; South has not melded this hand, draws,
    holds QS QS QH QH QD QD QC 6H 6D 6S 2C 9S; melds the seven Qs and 6H 6D 6S 2C and
    discards 9S: legal, went out concealed: going-out bonus 200."""
    state = play(south_state(["8S 8H 8D"]), "meld:QSQSQHQHQDQDQC", "meld:6H6D6S2C", "discard:9S")
    went_out(state, 2, concealed=True)
    assert line(state, 0, "going out") + line(state, 0, "concealed") == 200


def test_ex23_lay_off_spoils_concealed() -> None:
    """EX-23 variant: South instead lays 2C on North's 8-meld and melds 6H 6D 6S: goes out,
    not concealed: bonus 100."""
    state = play(
        south_state(["8S 8H 8D"]),
        "meld:QSQSQHQHQDQDQC",
        "add:8+2C",
        "meld:6H6D6S",
        "discard:9S",
    )
    went_out(state, 2, concealed=False)


def test_ex23_merge_into_partners_meld_still_concealed() -> None:
    """EX-23 variant: North already had 6C 6C 6D; South's 6H 6D 6S 2C merges into it, but
    South's own group is valid alone: still concealed (S0)."""
    state = play(
        south_state(["8S 8H 8D", "6C 6C 6D"]),
        "meld:QSQSQHQHQDQDQC",
        "meld:6H6D6S2C",
        "discard:9S",
    )
    went_out(state, 2, concealed=True)


# -- EX-24 -----------------------------------------------------------------------------


@pytest.mark.parametrize("exempt", [True, False])
def test_ex24_concealed_below_the_minimum(exempt: bool) -> None:
    """EX-24: side not opened, score 3000 (minimum 120); South draws; hand
    4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C; melds 4x7 (35) and 5S 5H 5D 5C (20), discards 6C.
    Legal by default (concealed, exempt; 55 < 120). concealed_exempt_from_minimum=false:
    illegal (D12)."""
    d = position(
        variant=classic(concealed_exempt_from_minimum=exempt),
        hands={2: "4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C"},
        to_move=2,
        phase="play",
        scores=[3000, 0],
    )
    state = state_of(d)
    if exempt:
        state = play(state, "meld:4S4S4H4H4D4D4C", "meld:5S5H5D5C", "discard:6C")
        went_out(state, 2, concealed=True)
        # The side never opened, yet has melds: the final position still reads back.
        assert state.to_dict()["opened"] == [False, False]
        assert canasta.GameState.from_dict(state.to_dict()) == state
    else:
        assert_illegal(state, "meld:4S4S4H4H4D4D4C")
        assert_illegal(state, "meld:5S5H5D5C")
        assert no_meld_moves(state)


# -- EX-25 -----------------------------------------------------------------------------


def north_state(cards: str = "KS KH KD 5C", table: tuple[str, ...] = ()) -> canasta.GameState:
    d = position(hands={0: cards}, phase="play", melds=[[CANASTA, *table], []])
    return state_of(d)


def test_ex25_ask_and_answer_no() -> None:
    """EX-25: North draws, can go out, asks before melding; answer "no": going out this turn
    is illegal (North must end with >= 1 card); asking again is illegal."""
    state = assert_legal(north_state(), "ask")
    assert state.phase == "answer"
    assert state.to_move == 2
    assert sorted(move_texts(state)) == ["no", "yes"]
    state = assert_legal(state, "no")
    assert state.to_move == 0
    assert_illegal(state, "meld:KSKHKD", R.HAND_SIZE, R.PERMISSION_DENIED)
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)
    after = assert_legal(state, "discard:5C")
    assert not after.is_over
    assert hand(after, 0) == bag("KS KH KD")


def test_ex25_ask_and_answer_yes() -> None:
    """EX-25: answer "yes": North MUST go out this turn (a discard that keeps cards is
    illegal); melding K K K and discarding 5C goes out."""
    state = play(north_state(), "ask", "yes")
    assert state.to_move == 0
    assert_illegal(state, "discard:5C", R.MUST_GO_OUT)
    assert_illegal(state, "discard:KS", R.MUST_GO_OUT)
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)
    went_out(play(state, "meld:KSKHKD", "discard:5C"), 0)


@pytest.mark.parametrize(
    ("cards", "table", "first"),
    [
        ("KS KH KD JS JH JD 5C", (), "meld:KSKHKD"),
        ("JS KS KH KD 5C", ("JC JC JD",), "add:J+JS"),
    ],
    ids=["after-meld", "after-lay-off"],
)
def test_ex25_ask_after_melding(cards: str, table: tuple[str, ...], first: str) -> None:
    """EX-25: asking after having melded or laid off in this turn is illegal (going out is
    still possible, so only the timing forbids it)."""
    state = north_state(cards, table)
    assert state.is_legal("ask")
    state = assert_legal(state, first)
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)


def test_d6_two_black_threes_and_a_two_let_the_player_ask() -> None:
    # Spec §2.6 with D6 (black_three_meld_wilds): 3S 3C 2H go down together when going
    # out, 7D is the discard, so going out is possible and asking partner is allowed
    # (§2.11 [LIB]). Before, the two black threes counted as two cards no meld takes.
    variant = canasta.variants.get("classic", black_three_meld_wilds=True)
    state = canasta.GameState.from_dict(
        {
            "variant": variant.to_config(),
            "phase": "play",
            "hands": ["3S 3C 2H 7D", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"],
            "pile": "9S",
            "stock": "KS KH KD",
            "melds": [["QH QH QS QS QD QD QC"], []],
        }
    )
    assert state.is_legal("ask")
    assert state.play("ask yes meld:332 discard:7").outcome() is not None
    plain = canasta.GameState.from_dict({**state.to_dict(), "variant": "classic"})
    assert plain.check("ask") is canasta.IllegalReason.ASK_NOT_ALLOWED
