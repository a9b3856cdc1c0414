"""3-player cutthroat: the partners formed by the first pickup share one set of melds (rules
guide, three players: EX-35b and the rulings under it)."""

from __future__ import annotations

from typing import Any

import canasta
import canasta.display
from canasta import GameState, IllegalReason
from helpers import bag, melds, play, position, state_of

CUTTHROAT = "classic-3p-cutthroat"


def _seat_2_to_play(hand_c: str, melds: list[list[str]], lone: int | None = 0) -> GameState:
    """Seat 2 (C) is to play ``hand_c``; seat 0 (A) is the lone hand unless ``lone`` is
    None; ``melds`` per seat."""
    extra: dict[str, Any] = {} if lone is None else {"lone": lone}
    return state_of(
        position(
            variant=CUTTHROAT,
            hands={0: "KC QC 7C", 1: "4D 4H 5S", 2: hand_c},
            pile="8D",
            stock="6H 4C 8C JD",
            melds=melds,
            to_move=2,
            phase="play",
            opened=[True, True, True],
            **extra,
        )
    )


def _partnership(hand_c: str, partnership_melds: list[str]) -> GameState:
    """A took the pile (lone hand, seat 0); seat 2 (C) is to play; the partnership's melds
    are listed under seat 1 (B)."""
    return _seat_2_to_play(hand_c, [["AS AH AD"], partnership_melds, []])


def test_ex35b_partner_lays_off_on_the_partnership_melds_and_goes_out() -> None:
    """EX-35b: B has a natural canasta of 9s, C a mixed canasta of 10s and holds
    TS TD 5H 5D 5C 6H 6D 6C; C plays add:T+TT, meld:555, meld:666 with no discard and goes
    out with the partnership's two canastas."""
    state = _partnership(
        "TS TD 5H 5D 5C 6H 6D 6C",
        ["9S 9S 9H 9H 9D 9D 9C", "TS TH TH TC 2C 2D JK"],
    )
    assert state.meld_side(2) == 1 and state.meld_side(1) == 1 and state.meld_side(0) == 0
    state = play(state, "add:T+TT", "meld:555", "meld:666")
    outcome = state.outcome()
    assert outcome is not None and outcome.went_out == 2
    assert bag("TS TH TH TC 2C 2D JK TS TD") in melds(state, 1)


def test_ex35b_same_rank_melds_merge_at_the_first_pickup() -> None:
    """EX-35b, second case: B's T T 2 made before the partnership formed joins C's mixed
    canasta of 10s when A takes the pile; C then lays off on the merged meld and goes out."""
    state = state_of(
        position(
            variant=CUTTHROAT,
            hands={0: "KS KH 4C", 1: "JS JH 5D", 2: "TS"},
            pile="7H KD",
            stock="JD QS TC 9H 8C",
            melds=[
                ["AH AC AC"],
                ["9S 9S 9H 9D 9D 9C 9C", "TH TD 2C"],
                ["TS TH TD TC 2H 2D 2S"],
            ],
            opened=[True, True, True],
        )
    )
    state = play(state, "take:KK", "discard:4C")
    assert state.lone == 0
    ten = bag("TH TD 2C TS TH TD TC 2H 2D 2S")
    assert ten in melds(state, 1) and melds(state, 2) == []
    # B plays on; C draws TC 9H and lays off on the merged 10s and on B's 9s.
    state = play(state, "draw", "meld:JJJ", "discard:5D", "draw")
    assert state.meld_side(2) == 1
    state = play(state, "add:T+TT", "add:9+9")
    outcome = state.outcome()
    assert outcome is not None and outcome.went_out == 2
    assert GameState.from_dict(state.to_dict()) == state


def test_merged_meld_past_the_wild_limit_takes_naturals_only() -> None:
    """A merged meld with more wild cards than a meld may take stays valid; it takes
    naturals, never another wild card."""
    state = _partnership("TS 2S 5H", ["9S 9S 9H 9H 9D 9D 9C", "TH TD TC TC 2C 2D 2H JK"])
    assert state.is_legal("add:T+T")
    assert state.check("add:T+2") is IllegalReason.TOO_MANY_WILDS
    assert GameState.from_dict(state.to_dict()) == state


def test_going_out_counts_the_partnership_canastas() -> None:
    """Each partner has one canasta; with two needed, neither could go out alone."""
    state = _partnership("TS TD", ["9S 9S 9H 9H 9D 9D 9C", "TS TH TH TC 2C 2D JK"])
    assert state.is_legal("add:T+TT")
    alone = _seat_2_to_play(
        "TS TD",
        [["AS AH AD"], ["9S 9S 9H 9H 9D 9D 9C"], ["TS TH TH TC 2C 2D JK"]],
        lone=None,
    )
    assert alone.check("add:T+TT") is IllegalReason.HAND_SIZE  # it would empty the hand


def test_the_partnership_melds_are_listed_under_the_first_partner() -> None:
    """A position with melds under the second partner once the lone hand is known is
    refused: the partnership's melds have one place."""
    d = position(
        variant=CUTTHROAT,
        hands={0: "KC QC 7C", 1: "4D 4H 5S", 2: "TS TD"},
        pile="8D",
        stock="6H 4C",
        melds=[["AS AH AD"], [], ["9S 9S 9H"]],
        lone=0,
        opened=[True, True, True],
    )
    try:
        state_of(d)
    except canasta.PositionError as error:
        assert "melds[2]" in str(error) and "seat 1" in str(error)
    else:
        raise AssertionError("a position with melds under the second partner was accepted")


def test_observations_name_the_shared_melds() -> None:
    state = _partnership("TS TD", ["9S 9S 9H 9H 9D 9D 9C", "TS TH TH TC 2C 2D JK"])
    for seat in (1, 2):
        seen = state.observe(seat)
        assert seen.meld_side() == 1 and seen.own_melds == state.melds[1]
    assert state.observe(0).own_melds == state.melds[0]
    assert "plays on side 1's melds" in canasta.display.draw_observation(state.observe(0))
