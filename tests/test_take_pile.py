"""Taking the discard pile: rules spec §2.7, worked examples EX-01 to EX-09 (§6.1).

Positions are at the start of the taker's turn (phase ``"draw"``), seat 0 to move; seat 0
and seat 2 are side 0. "Team opened" means side 0 has a meld on the table.
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
    meld_of,
    melds,
    move_texts,
    pile,
    play,
    position,
    state_of,
    value,
)

R = canasta.IllegalReason
OPENED = ["QH QD QC"]  # an unrelated meld: side 0 is opened
RATIOS = ["min2_max3", "n_ge_w", "n_gt_w"]


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


# -- EX-01 -----------------------------------------------------------------------------


@pytest.mark.parametrize("six_meld", [None, "6S 6S 6H"], ids=["new-meld", "merged"])
def test_ex01_natural_pair_take(six_meld: str | None) -> None:
    """EX-01: opened, unfrozen pile, top 6D, hand 6C 6C 7H 8D: take with 6C 6C is legal.

    The meld 6D 6C 6C is laid (merged into the side's 6-meld when it has one) and the rest
    of the pile joins the hand.
    """
    table = [*OPENED, six_meld] if six_meld else OPENED
    d = position(hands={0: "6C 6C 7H 8D"}, pile="9S 4H 6D", melds=[table, []])
    after = assert_legal(state_of(d), "take:6C6C")
    expected = bag("6D 6C 6C") + (bag(six_meld) if six_meld else bag(""))
    assert meld_of(after, 0, "6") == expected
    assert hand(after, 0) == bag("7H 8D 9S 4H")
    assert pile(after) == []
    assert after.to_move == 0
    assert after.phase == "play"
    assert after.is_legal("discard:8D")


def test_ex01b_unopened_score_zero() -> None:
    """EX-01b: same, side not opened, score 0: minimum 50, the pickup meld is 15: illegal."""
    d = position(hands={0: "6C 6C 7H 8D"}, pile="9S 4H 6D", scores=[0, 0])
    state = state_of(d)
    assert_illegal(state, "take:6C6C", R.INITIAL_MINIMUM)
    assert move_texts(state) == ["draw"]


def test_ex01c_unopened_negative_score() -> None:
    """EX-01c: same, side not opened, score -100: minimum 15 and 15 >= 15: legal."""
    d = position(hands={0: "6C 6C 7H 8D"}, pile="9S 4H 6D", scores=[-100, 0])
    after = assert_legal(state_of(d), "take:6C6C")
    assert meld_of(after, 0, "6") == bag("6D 6C 6C")
    assert hand(after, 0) == bag("7H 8D 9S 4H")
    assert pile(after) == []


# -- EX-02 -----------------------------------------------------------------------------

MIKE = "5H 2D 2D QS QD"


def test_ex02_frozen_pile_needs_natural_pair() -> None:
    """EX-02: opened, pile frozen (2S inside), top 5S, hand 5H 2D 2D QS QD: taking with
    5H 2D is illegal (a frozen pile needs two natural 5s); the player must draw."""
    d = position(hands={0: MIKE}, pile="7C 2S 9H 5S", melds=[["KH KC KC"], []])
    state = state_of(d)
    assert_illegal(state, "take:5H2D", R.PILE_FROZEN, R.NATURAL_PAIR_NEEDED)
    assert_illegal(state, "take:5H2D2D")
    assert move_texts(state) == ["draw"]


@pytest.mark.parametrize("ratio", RATIOS)
def test_ex02b_unfrozen_natural_and_wild(ratio: str) -> None:
    """EX-02b: same, pile not frozen: take with 5H 2D is legal; meld 5S 5H 2D (N=2, W=1)
    is valid under every meld_wild_ratio."""
    d = position(
        variant=classic(meld_wild_ratio=ratio),
        hands={0: MIKE},
        pile="7C 9H 5S",
        melds=[["KH KC KC"], []],
    )
    after = assert_legal(state_of(d), "take:5H2D")
    assert meld_of(after, 0, "5") == bag("5S 5H 2D")
    assert hand(after, 0) == bag("2D QS QD 7C 9H")
    assert pile(after) == []


@pytest.mark.parametrize(
    ("ratio", "legal"), [("min2_max3", True), ("n_ge_w", True), ("n_gt_w", False)]
)
def test_ex02c_unfrozen_two_wilds(ratio: str, legal: bool) -> None:
    """EX-02c: same, not frozen, pickup meld 5S 5H 2D 2D (N=2, W=2): legal under min2_max3
    and n_ge_w, illegal under n_gt_w (D8)."""
    d = position(
        variant=classic(meld_wild_ratio=ratio),
        hands={0: MIKE},
        pile="7C 9H 5S",
        melds=[["KH KC KC"], []],
    )
    state = state_of(d)
    if legal:
        after = assert_legal(state, "take:5H2D2D")
        assert meld_of(after, 0, "5") == bag("5S 5H 2D 2D")
        assert hand(after, 0) == bag("QS QD 7C 9H")
    else:
        assert_illegal(state, "take:5H2D2D")
        assert state.is_legal("take:5H2D")  # one wild is still fine


# -- EX-03 / EX-04 ---------------------------------------------------------------------

K_MELD = "KD KD KC 2H"


def test_ex03_lay_top_card_off() -> None:
    """EX-03 (Lisa): opened, not frozen, top KH, side meld KD KD KC 2H, no K in hand:
    taking the pile by laying KH off is legal; the meld becomes KD KD KC 2H KH."""
    d = position(hands={0: "4S 5H 7D 9C JH"}, pile="8S 6H KH", melds=[[K_MELD], []])
    after = assert_legal(state_of(d), "take")
    assert meld_of(after, 0, "K") == bag("KD KD KC 2H KH")
    assert hand(after, 0) == bag("4S 5H 7D 9C JH 8S 6H")
    assert pile(after) == []


@pytest.mark.parametrize("cards", ["4S 5H 7D 9C JH", "KS 2C 5H 7D 9C"], ids=["no-K", "one-K"])
def test_ex04_frozen_lay_off_not_enough(cards: str) -> None:
    """EX-04 (Bill): pile frozen (JK inside), top KH, side meld KD KD KC 2H, at most one
    natural K in hand: taking the pile is illegal (laying off is not enough when frozen,
    nor a natural K with a wild); the player must draw."""
    d = position(hands={0: cards}, pile="9C JK 7S KH", melds=[[K_MELD], []])
    state = state_of(d)
    assert_illegal(state, "take")
    if "KS" in cards:
        assert_illegal(state, "take:KS2C")
        assert_illegal(state, "take:KS")
    assert move_texts(state) == ["draw"]


def test_ex04b_frozen_natural_pair_merges_into_canasta() -> None:
    """EX-04b: same, hand holds KS KC: legal; KH KS KC merge into the K meld, giving
    KD KD KC 2H KH KS KC: seven cards, a mixed canasta."""
    d = position(hands={0: "KS KC 5H 7D 9C"}, pile="9C JK 7S KH", melds=[[K_MELD], []])
    after = assert_legal(state_of(d), "take:KSKC")
    assert meld_of(after, 0, "K") == bag("KD KD KC 2H KH KS KC")
    assert len(melds(after, 0)) == 1
    assert hand(after, 0) == bag("5H 7D 9C 9C JK 7S")


# -- EX-05 -----------------------------------------------------------------------------


def test_ex05_frozen_merge_completes_canasta() -> None:
    """EX-05: pile frozen by a 2S deep inside, top 8D, side meld 8C 8C 8H 2D, hand
    8S 8H 5C 9C: take with 8S 8H is legal; the meld becomes 8C 8C 8H 2D 8D 8S 8H
    (7 cards, mixed canasta)."""
    d = position(hands={0: "8S 8H 5C 9C"}, pile="4D 2S 9D 8D", melds=[["8C 8C 8H 2D"], []])
    after = assert_legal(state_of(d), "take:8S8H")
    assert meld_of(after, 0, "8") == bag("8C 8C 8H 2D 8D 8S 8H")
    assert hand(after, 0) == bag("5C 9C 4D 2S 9D")


@pytest.mark.parametrize(
    ("cards", "attempts"),
    [("8S 2H 5C", ["take:8S2H", "take"]), ("8S 5C", ["take:8S", "take"])],
    ids=["natural+wild", "single-natural"],
)
def test_ex05_frozen_without_natural_pair(cards: str, attempts: list[str]) -> None:
    """EX-05: same frozen pile, hand 8S 2H 5C or 8S 5C: taking is illegal."""
    d = position(hands={0: cards}, pile="4D 2S 9D 8D", melds=[["8C 8C 8H 2D"], []])
    state = state_of(d)
    for move in attempts:
        assert_illegal(state, move)
    assert move_texts(state) == ["draw"]


# -- EX-06 -----------------------------------------------------------------------------


def test_ex06_natural_and_wild_would_overload_canasta() -> None:
    """EX-06: unfrozen, side canasta 9S 9S 9H 9D 2C 2H JK (N=4, W=3), top 9C, hand
    9H 2S 5D 6D. A: take via 9H 2S is illegal (W would be 4). B: laying 9C off is legal
    (N=5, W=3)."""
    d = position(hands={0: "9H 2S 5D 6D"}, pile="4C 7H 9C", melds=[["9S 9S 9H 9D 2C 2H JK"], []])
    state = state_of(d)
    assert_illegal(state, "take:9H2S")
    after = assert_legal(state, "take")
    assert meld_of(after, 0, "9") == bag("9S 9S 9H 9D 2C 2H JK 9C")
    assert hand(after, 0) == bag("9H 2S 5D 6D 4C 7H")


# -- EX-07 -----------------------------------------------------------------------------


def _ex07_position(pile_cards: str) -> canasta.GameState:
    # Seat 0 (side 0, opened) faces the pile; seat 1 (side 1) has a 7-meld and 7C 7C 2D.
    d = position(
        hands={0: "7H 5D 6D JC", 1: "7C 7C 2D 9D TD QC"},
        pile=pile_cards,
        melds=[["KS KH KD"], ["AS AS AD", "7S 7S 7D"]],
        stock="4D 9H 5S 6S",
    )
    return state_of(d)


def test_ex07_black_three_blocks_then_no_effect() -> None:
    """EX-07: top 3S: the next player may not take the pile. After 7H is discarded on it,
    the pile may be taken normally: the 3S does not freeze it."""
    state = _ex07_position("8C 3S")
    assert move_texts(state) == ["draw"]
    assert_illegal(state, "take", check_pattern=False)
    state = play(state, "draw", "discard:7H")
    assert state.to_move == 1
    assert state.phase == "draw"
    assert_legal(state, "take:7C7C")
    assert_legal(state, "take:7C2D")  # natural + wild: the pile is not frozen
    after = assert_legal(state, "take")  # lay-off: not frozen
    assert meld_of(after, 1, "7") == bag("7S 7S 7D 7H")


def test_ex07_wild_on_top_blocks_then_freezes() -> None:
    """EX-07: top 2C (just discarded): nobody may take. After 7H on it the pile is frozen:
    taking needs two natural 7s."""
    state = _ex07_position("8C 2C")
    assert move_texts(state) == ["draw"]
    state = play(state, "draw", "discard:7H")
    assert state.to_move == 1
    assert_illegal(state, "take:7C2D")
    assert_illegal(state, "take", check_pattern=False)
    after = assert_legal(state, "take:7C7C")
    assert meld_of(after, 1, "7") == bag("7S 7S 7D 7H 7C 7C")
    assert hand(after, 1) == bag("2D 9D TD QC 8C 2C")


# -- EX-08 / EX-09 ---------------------------------------------------------------------


@pytest.mark.parametrize("top_counts", [True, False])
def test_ex08_initial_pickup_top_card_counts(top_counts: bool) -> None:
    """EX-08: score 0 (minimum 50), not opened, unfrozen, top AC, hand AS AH + cards that
    form no meld: take with AS AH is legal (20+20+20 = 60); with
    top_card_counts_initial=false it is illegal (40) (D9)."""
    d = position(
        variant=classic(top_card_counts_initial=top_counts),
        hands={0: "AS AH 4C 5D 6H 7S 9C"},
        pile="8D JH AC",
    )
    state = state_of(d)
    if top_counts:
        after = assert_legal(state, "take:ASAH")
        assert meld_of(after, 0, "A") == bag("AC AS AH")
        assert hand(after, 0) == bag("4C 5D 6H 7S 9C 8D JH")
    else:
        assert_illegal(state, "take:ASAH", R.INITIAL_MINIMUM)
        assert move_texts(state) == ["draw"]


@pytest.mark.parametrize("one_card_pickup", [True, False])
def test_ex09_one_card_in_hand_one_card_pile(one_card_pickup: bool) -> None:
    """EX-09: opened with a canasta and a 7-meld, pile = 7C only (unfrozen), hand = 5H.
    Taking (lay 7C off), then discarding 5H goes out: legal by default (+100). With
    one_card_one_pile_pickup=false the take is illegal; the player must draw (D16)."""
    d = position(
        variant=classic(one_card_one_pile_pickup=one_card_pickup),
        hands={0: "5H"},
        pile="7C",
        melds=[["KS KS KH KH KD KD KC", "7S 7H 7D"], []],
    )
    state = state_of(d)
    if not one_card_pickup:
        assert_illegal(state, "take", R.ONE_CARD_PILE)
        assert move_texts(state) == ["draw"]
        return
    after = play(state, "take", "discard:5H")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert not outcome.concealed
    assert line(after, 0, "going out") == 100
    # K canasta 70 + 7S 7H 7D 7C 20, natural canasta 500, out 100, partner's hand deducted.
    assert outcome.scores[0] == 70 + 20 + 500 + 100 - value(d["hands"][2])
