"""Modern American Canasta: taking the pile, closed ranks, discards and going out.

Spec §3.5.5 (taking the pile), §3.5.3 (closed rank), §3.5.6 (discarding), §3.5.7 (going
out) and the examples EX-47 … EX-50 of §6.7. Each test cites its example. Side 0 = seats
0 and 2, side 1 = seats 1 and 3.
"""

from __future__ import annotations

import pytest

import canasta
from mac_helpers import (
    assert_illegal,
    assert_legal,
    assert_score,
    assert_turn_fails,
    bag,
    discards,
    hand,
    meld_moves,
    meld_shapes,
    move_texts,
    pile_of,
    play,
    position,
    shape,
)


def takes(state: canasta.GameState) -> set[str]:
    return {t for t in move_texts(state) if t.split(":")[0] == "take"}


# -- EX-47: taking the pile ------------------------------------------------------------

EX47_OTHERS = ("4S 6S", "JC 4C", "6C TH")


def ex47(hand0: str, nines: str | None, pile: str = "5D 8C 9C") -> canasta.GameState:
    """Side 0 opened (`KS KH KD`, plus the 9-meld `nines`), seat 0 to start its turn."""
    melds = ["KS KH KD"] + ([nines] if nines else [])
    seat1, seat2, seat3 = EX47_OTHERS
    return position([hand0, seat1, seat2, seat3], melds=[melds, []], pile=pile, phase="draw")


@pytest.mark.parametrize(
    ("nines", "result"),
    [
        ("9D 9D 9C", "999999"),  # meld of 3 → 6 cards
        ("9D 9D 9C 9H", "9999999"),  # meld of 4 → 7, natural canasta complete
        ("9D 9D 9C 9H 9S", None),  # meld of 5: ILLEGAL
        ("9D 9D 9C 9H 9S 2C", None),  # meld of 6: ILLEGAL
        (None, "999"),  # no 9-meld: a new meld
    ],
)
def test_ex47_take_with_natural_pair(nines: str | None, result: str | None) -> None:
    """EX-47 (team opened; 9 not closed): top `9C`, hand `9H 9S`: team 9-meld of 3 → LEGAL
    (6 cards); of 4 → LEGAL (7, canasta complete); of 5 or 6 → ILLEGAL; no 9-meld → LEGAL
    (new meld). After a take the whole pile joins the hand and the pile is empty."""
    state = ex47("9H 9S 4D 6C JH", nines)
    if result is None:
        assert_illegal(state, "take:99")
        assert takes(state) == set()
        assert_legal(state, "draw")
        return
    assert takes(state) == {"take:99"}
    after = assert_legal(state, "take:99")
    assert meld_shapes(after, 0) == sorted([shape("KKK"), shape(result)])
    assert hand(after, 0) == bag("4D 6C JH 5D 8C")
    assert pile_of(after) == []
    assert after.to_move == 0
    assert after.phase == "play"


def test_ex47_top_card_never_laid_off() -> None:
    """EX-47 / §3.5.5: the top card is always melded with a natural pair from hand; laying it
    off alone (`take`, classic T3c) is ILLEGAL even on an open 9-meld of 3."""
    state = ex47("9H 4D 6C JH 5S", "9D 9D 9C")
    assert_illegal(state, "take")
    assert takes(state) == set()


def test_ex47_natural_pair_required() -> None:
    """EX-47: hand `9H 2S`: ILLEGAL (natural pair required; never natural + wild)."""
    state = ex47("9H 2S 4D 6C JH", "9D 9D 9C")
    assert_illegal(state, "take:92")
    assert_illegal(state, "take")
    assert takes(state) == set()


def test_ex47_wild_on_top_blocks() -> None:
    """EX-47: top is a wild: ILLEGAL (a wild on top blocks the pile, §3.5.5)."""
    state = ex47("9H 9S 4D 6C JH", "9D 9D 9C", pile="5D 9C 2D")
    assert_illegal(state, "take:99")
    assert takes(state) == set()
    assert_legal(state, "draw")


def test_ex47_empty_pile() -> None:
    """EX-47: pile empty: nothing to take; the player draws."""
    state = ex47("9H 9S 4D 6C JH", "9D 9D 9C", pile="")
    assert_illegal(state, "take:99")
    assert takes(state) == set()
    assert_legal(state, "draw")


# -- EX-48: closed rank ----------------------------------------------------------------

# NS (side 0) has completed a natural canasta of 6s: 6 is closed. East = seat 1 (side 1).
EX48_MELDS = [["6S 6S 6H 6H 6D 6D 6C", "KS KH KD"], ["QS QH QD"]]
EX48_STOCK = "TC 4H 5H"


def test_ex48_closed_rank_discard_after_pickup_only_legal_discard() -> None:
    """EX-48: East holds the eighth 6. On an empty pile (right after East took it) the 6 may
    be discarded only if no other discard is legal: here the rest of the hand is wild, so
    `discard:6` is the only legal discard."""
    hands = ["4S 5S", "9H 9S 6C 2S JK", "JC 4C", "TH 8H"]
    state = position(hands, melds=EX48_MELDS, stock=EX48_STOCK, pile="9C", to_move=1, phase="draw")
    after = assert_legal(state, "take:99")
    assert pile_of(after) == []
    assert discards(after) == {"discard:6"}
    assert_illegal(after, "discard:2")
    assert_illegal(after, "discard:*")
    assert_legal(after, "discard:6")


def test_ex48_closed_rank_discard_on_empty_pile_with_other_discard() -> None:
    """EX-48: on an empty pile, with another legal discard (`KC`), discarding the closed
    rank's 6 is ILLEGAL."""
    hands = ["4S 5S", "9H 9S 6C KC 2S", "JC 4C", "TH 8H"]
    state = position(hands, melds=EX48_MELDS, stock=EX48_STOCK, pile="9C", to_move=1, phase="draw")
    after = assert_legal(state, "take:99")
    assert_illegal(after, "discard:6")
    assert discards(after) == {"discard:K"}
    assert_legal(after, "discard:K")


def test_ex48_closed_rank_discard_on_non_empty_pile() -> None:
    """EX-48: discarding the eighth 6 on a non-empty pile is LEGAL; melding or laying it off
    is not possible for East."""
    hands = ["4S 5S", "6C KC 9D", "JC 4C", "TH 8H"]
    state = position(hands, melds=EX48_MELDS, stock=EX48_STOCK, pile="5D 8C", to_move=1)
    assert not any("6" in t for t in meld_moves(state))
    assert_legal(state, "discard:6")


def test_ex48_closed_rank_no_lay_off_for_owner() -> None:
    """EX-48: melding or laying off a 6 is ILLEGAL for everyone, the side that closed the
    rank included."""
    hands = ["6C KC 9D 4H", "4S 5S", "JC 4C", "TH 8H"]
    state = position(hands, melds=EX48_MELDS, stock=EX48_STOCK, pile="5D 8C", to_move=0)
    assert_illegal(state, "add:6+6")
    assert not any("6" in t for t in meld_moves(state))
    assert_legal(state, "discard:6")


def test_ex48_rank_closed_by_pickup() -> None:
    """EX-48 with EX-47: the take that completes a natural canasta of 9s closes the rank at
    once; the player's eighth 9 can then be neither laid off nor discarded on the (now
    empty) pile while another discard is legal."""
    state = ex47("9H 9S 9S 4D 6C", "9D 9D 9C 9H")
    after = assert_legal(state, "take:99")
    assert shape("9999999") in meld_shapes(after, 0)
    assert_illegal(after, "add:9+9")
    assert not any("9" in t for t in meld_moves(after))
    assert_illegal(after, "discard:9")
    assert "discard:4" in discards(after)


# -- EX-49: discard restrictions -------------------------------------------------------

EX49_OTHERS = ("4S 6S", "JC 4C", "6C TH")


def ex49(hand0: str, pile: str = "", melds: list[str] | None = None) -> canasta.GameState:
    seat1, seat2, seat3 = EX49_OTHERS
    return position([hand0, seat1, seat2, seat3], pile=pile, melds=[melds or [], []])


def test_ex49_empty_pile_ace_seven_wild() -> None:
    """EX-49: pile empty (first discard of the hand), hand `KS 7C AD 2C`, not going out:
    discard `AD` ILLEGAL, `7C` ILLEGAL (K is another natural), `KS` LEGAL, `2C` ILLEGAL."""
    state = ex49("KS 7C AD 2C")
    assert discards(state) == {"discard:K"}
    assert_illegal(state, "discard:A")
    assert_illegal(state, "discard:7")
    assert_illegal(state, "discard:2")
    assert_illegal(state, "discard:AD")
    after = assert_legal(state, "discard:K")
    assert pile_of(after) == ["KS"]


def test_ex49_empty_pile_after_pickup() -> None:
    """EX-49 / §3.5.6: the same restrictions apply right after a pickup (pile empty)."""
    seat1, seat2, seat3 = EX49_OTHERS
    state = position(
        ["9H 9S KS 7C AD 2C", seat1, seat2, seat3],
        melds=[["QS QH QD"], []],
        pile="9C",
        phase="draw",
    )
    after = assert_legal(state, "take:99")
    assert discards(after) == {"discard:K"}
    assert_illegal(after, "discard:A")
    assert_illegal(after, "discard:7")


def test_ex49_empty_pile_no_other_natural() -> None:
    """EX-49: pile empty, hand `AD 7C 2C`: `AD` or `7C` LEGAL (no other natural); `2C`
    ILLEGAL."""
    state = ex49("AD 7C 2C")
    assert discards(state) == {"discard:A", "discard:7"}
    assert_illegal(state, "discard:2")
    assert_legal(state, "discard:A")
    assert_legal(state, "discard:7")


@pytest.mark.parametrize("pile", ["5D 8C", ""])
def test_ex49_all_wild_hand_may_discard_wild(pile: str) -> None:
    """EX-49: hand `2C JK` only: discarding `2C` LEGAL (every card in hand is wild)."""
    state = ex49("2C JK", pile=pile, melds=["QS QH QD"])
    assert discards(state) == {"discard:2", "discard:*"}
    after = assert_legal(state, "discard:2")
    assert not after.is_over
    assert hand(after, 0) == bag("JK")


def test_ex49_wild_discard_not_allowed_otherwise() -> None:
    """EX-49 / §3.5.6: a wild may not be discarded while the hand holds a natural card (not
    going out), whatever the pile."""
    state = ex49("2C JK 9D", pile="5D 8C", melds=["QS QH QD"])
    assert_illegal(state, "discard:2")
    assert_illegal(state, "discard:*")
    assert discards(state) == {"discard:9"}


# -- EX-50: going out ------------------------------------------------------------------

CANASTA_9 = "9S 9S 9H 9H 9D 9D 9C"
CANASTA_K = "KS KS KH KH KD 2C JK"


def ex50(hand0: str, k_meld: str = CANASTA_K) -> canasta.GameState:
    melds = [[CANASTA_9, k_meld, "QD QD QC QC"], ["8S 8H 8D"]]
    return position([hand0, "5S", "4S 6H", "JD"], melds=melds, pile="4D TC", stock="TH 4C")


def test_ex50_going_out_with_discard() -> None:
    """EX-50: team has 2 canastas; hand `QS QH 5C`, team Q-meld of 4: lay off `QS QH`,
    discard `5C` → LEGAL, +100. Scores: side 0 = 100 + 500 + 300 + (70 + 120 + 60) − 10 =
    1140; side 1 (no canasta) = −30 − 15 = −45."""
    state = ex50("QS QH 5C")
    after = play(state, "add:Q+QQ discard:5")
    assert after.is_over
    assert after.phase == "over"
    assert after.to_move is None
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert outcome.concealed is False
    assert_score(
        after,
        0,
        1140,
        going_out=100,
        natural_canastas=500,
        mixed_canastas=300,
        melded_cards=250,
        cards_in_hand=-10,
    )
    assert_score(after, 1, -45, melded_cards=-30, cards_in_hand=-15)
    assert tuple(outcome.scores) == (1140, -45)


def test_ex50_no_going_out_by_melding_everything() -> None:
    """EX-50: lay off all cards with no discard: ILLEGAL (MAC goes out with a discard); the
    last card must be discarded instead."""
    state = ex50("QS QH")
    assert_illegal(state, "add:Q+QQ")
    after = play(state, "add:Q+Q discard:Q")
    assert after.is_over

    state = ex50("QS QH QS")  # completing a natural canasta does not help
    assert_illegal(state, "add:Q+QQQ")


def test_ex50_one_canasta_cannot_go_out() -> None:
    """EX-50: with only 1 canasta: ILLEGAL; the lay-off that would leave one card is refused
    (≥2 cards while the side has <2 canastas, §3.5.6)."""
    state = ex50("QS QH 5C", k_meld="KS KS KH KH KD 2C")
    assert_turn_fails(state, "add:Q+QQ discard:5")
    assert_illegal(state, "add:Q+QQ")
    after = play(state, "add:Q+Q discard:5")
    assert not after.is_over
    assert after.to_move == 1


def test_ex50_canasta_completed_in_the_same_turn_counts() -> None:
    """EX-50 / §3.5.7 (derived): a second canasta completed in the going-out turn counts."""
    state = ex50("KC QS QH 5C", k_meld="KS KS KH KH KD 2C")
    after = play(state, "add:K+K add:Q+QQ discard:5")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert dict(outcome.breakdown[0]).get("going out") == 100
