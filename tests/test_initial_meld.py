"""The initial meld: rules spec §2.8 (with §2.7 T4 and §2.9), worked examples EX-10 to EX-16.

The library models every meld as its own move (§2.8 [LIB]): while the side is not opened,
a meld that makes the minimum unreachable this turn is illegal, and the turn cannot end
(no discard) until the minimum is reached. An "action" of the examples is therefore a
sequence of meld moves in one turn, closed by a discard. Seat 0 (side 0) is to move, in
phase ``"play"`` (the hands given are hands after the draw) unless stated otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from helpers import (
    assert_illegal,
    assert_legal,
    bag,
    meld_of,
    move_texts,
    no_meld_moves,
    play,
    position,
    state_of,
)

R = canasta.IllegalReason


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def after_draw(cards: str, score: int, **kw: Any) -> canasta.GameState:
    return state_of(position(hands={0: cards}, phase="play", scores=[score, 0], **kw))


def assert_no_opening(state: canasta.GameState, *melds_to_try: str) -> None:
    """No initial meld is possible: legal_moves() offers only discards, and each of the
    given first melds is illegal."""
    moves = move_texts(state)
    assert moves, "a turn must be finishable"
    assert no_meld_moves(state), moves
    assert all(m.startswith("discard:") for m in moves), moves
    for meld in melds_to_try:
        assert_illegal(state, meld)


# -- EX-10 -----------------------------------------------------------------------------

EX10_HAND = "AH AC 2D 5C 6H 7H 8C 4C 4C 4D JC KD"


def test_ex10a_one_meld_reaches_50() -> None:
    """EX-10 (a): score 1100 (minimum 50), not opened, after the draw: meld AH AC 2D (60)
    is legal, and the turn may then end with a discard."""
    state = after_draw(EX10_HAND, 1100)
    assert state.is_legal("discard:KD")  # not melding at all is always allowed
    state = assert_legal(state, "meld:AHAC2D")
    assert meld_of(state, 0, "A") == bag("AH AC 2D")
    after = assert_legal(state, "discard:KD")
    assert after.to_move == 1


@pytest.mark.parametrize(
    "order",
    [("meld:AHAC2D", "meld:4C4C4D"), ("meld:4C4C4D", "meld:AHAC2D")],
    ids=["aces-first", "fours-first"],
)
def test_ex10b_two_melds_in_the_same_action(order: tuple[str, str]) -> None:
    """EX-10 (b): AH AC 2D + 4C 4C 4D in the same action (75): legal. Modelled as two meld
    moves in one turn (in either order); until 50 is reached no discard is allowed."""
    state = after_draw(EX10_HAND, 1100)
    state = assert_legal(state, order[0])
    if order[0] == "meld:4C4C4D":  # 15 so far: the opening is not complete
        assert_illegal(state, "discard:KD", R.OPENING_INCOMPLETE)
        assert not any(m.startswith("discard:") for m in move_texts(state))
    state = assert_legal(state, order[1])
    assert meld_of(state, 0, "A") == bag("AH AC 2D")
    assert meld_of(state, 0, "4") == bag("4C 4C 4D")
    assert_legal(state, "discard:KD")


def test_ex10c_35_alone_is_illegal() -> None:
    """EX-10 (c): 4C 4C 4D 2D alone (35) is illegal: after it no meld is left (the only
    wild is used), so the minimum of 50 is unreachable."""
    state = after_draw(EX10_HAND, 1100)
    assert_illegal(state, "meld:4C4C4D2D", R.INITIAL_MINIMUM)


# -- EX-11 -----------------------------------------------------------------------------

EX11_HAND = "AH AC 2D 5C 6H 7H 8C 9C 9C 9D 9H KD"


def test_ex11a_60_is_not_enough_at_1500() -> None:
    """EX-11 (a): score 1500 (minimum 90): AH AC 2D alone (60) is illegal: the meld move
    itself is allowed (90 is still reachable), but the turn cannot end there."""
    state = after_draw(EX11_HAND, 1500)
    state = assert_legal(state, "meld:AHAC2D")
    assert_illegal(state, "discard:KD", R.OPENING_INCOMPLETE)
    assert not any(m.startswith("discard:") for m in move_texts(state))


@pytest.mark.parametrize("nines", ["meld:9C9C9D", "meld:9C9C9D9H"], ids=["90-exactly", "100"])
def test_ex11bc_reaching_90(nines: str) -> None:
    """EX-11 (b) AH AC 2D + 9C 9C 9D = 90: legal (equality suffices); (c) AH AC 2D +
    9C 9C 9D 9H = 100: legal."""
    state = play(after_draw(EX11_HAND, 1500), "meld:AHAC2D", nines)
    after = assert_legal(state, "discard:KD")
    assert after.to_move == 1


# -- EX-12 / EX-13 ---------------------------------------------------------------------


def test_ex12_no_opening_possible_at_3000() -> None:
    """EX-12: score 3000 (minimum 120), hand AH AC 2D 2H 5C 6H 7H 8C 4C 4C 4D 4H KD: every
    initial meld is illegal (best possible 100 < 120)."""
    state = after_draw("AH AC 2D 2H 5C 6H 7H 8C 4C 4C 4D 4H KD", 3000)
    assert_no_opening(
        state,
        "meld:AHAC2D",
        "meld:AHAC2D2H",
        "meld:4C4C4D4H",
        "meld:4C4C4D4H2D",
        "meld:4C4C4D4H2D2H",
    )


def test_ex13_opening_that_strands_one_card() -> None:
    """EX-13: score 1800 (minimum 90), no canasta, hand 5H 5H 5D 5D 9D 9D 9C KH KD KD KC 3S:
    5555 + 999 + KKKK = 90 would leave only 3S, and discarding it would go out without a
    canasta (§2.9); every smaller set is < 90. No initial meld is legal this turn."""
    state = after_draw("5H 5H 5D 5D 9D 9D 9C KH KD KD KC 3S", 1800)
    assert_no_opening(state, "meld:5H5H5D5D", "meld:9D9D9C", "meld:KHKDKDKC", "meld:5H5H5D")
    assert state.is_legal("discard:3S")


# -- EX-14 -----------------------------------------------------------------------------

EX14 = {
    "kings": ("6S 6H 6D KS KH KD 2C 8H 9D JC QS", ["meld:6S6H6D", "meld:KSKHKD2C"]),  # 65
    "aces": ("6S 6H 6D AS AH AD 2C 8H 9D JC QS", ["meld:6S6H6D", "meld:ASAHAD2C"]),  # 95
}


@pytest.mark.parametrize(
    ("score", "kings_legal", "aces_legal"),
    [
        (1600, False, True),
        (0, True, True),
        (1495, True, True),
        (-100, True, True),
        (3000, False, False),
    ],
)
@pytest.mark.parametrize("which", ["kings", "aces"])
def test_ex14_wikipedia_example(
    score: int, kings_legal: bool, aces_legal: bool, which: str
) -> None:
    """EX-14: score 1600 (minimum 90): 6 6 6 + K K K 2 = 65 illegal; 6 6 6 + A A A 2 = 95
    legal. At 0 <= score < 1500 and at score < 0 both legal; at score >= 3000 both illegal."""
    cards, melds = EX14[which]
    legal = kings_legal if which == "kings" else aces_legal
    state = after_draw(cards, score)
    if legal:
        assert_legal(play(state, *melds), "discard:QS")
    else:
        assert_no_opening(state, melds[0], melds[1])


# -- EX-15 -----------------------------------------------------------------------------

#: Openings whose total is exactly the key, from hands holding nothing else of use.
OPENINGS = {
    15: ["meld:4S4H4D"],
    45: ["meld:KSKHKD", "meld:4S4H4D"],
    50: ["meld:KSKHKD2C"],
    85: ["meld:ASAH2C", "meld:4S4H4D4C4S"],
    90: ["meld:ASAH2C", "meld:KSKHKD"],
    115: ["meld:ASAH2C", "meld:KSKHKD", "meld:4S4H4D4C4S"],
    120: ["meld:ASAH2C", "meld:KSKHKD", "meld:QSQHQD"],
}
SPARE = "5C 9H"  # two single cards: one to discard, one to keep


def opening_hand(total: int) -> str:
    return " ".join(m.partition(":")[2] for m in OPENINGS[total]) + " " + SPARE


def opening_hand_cards(total: int) -> str:
    return " ".join(str(c) for c in canasta.parse_cards(opening_hand(total)))


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120)],
)
def test_ex15_minimum_table_edges(score: int, minimum: int) -> None:
    """EX-15 (classic rows): minimum for score -5 -> 15; 0 -> 50; 1495 -> 50; 1500 -> 90;
    2995 -> 90; 3000 -> 120; 4995 -> 120. An opening worth exactly the minimum is legal;
    a hand whose best opening is 5 less cannot open."""
    state = after_draw(opening_hand_cards(minimum), score)
    assert_legal(play(state, *OPENINGS[minimum]), "discard:9H")
    if minimum - 5 in OPENINGS:
        below = after_draw(opening_hand_cards(minimum - 5), score)
        assert_no_opening(below, OPENINGS[minimum - 5][0])


@pytest.mark.parametrize("negative_minimum", [15, 0])
def test_ex15_negative_score_minimum_option(negative_minimum: int) -> None:
    """EX-15: with negative_score_minimum=0, score -5 -> minimum 0 (default 15) (D7).

    Every meld is worth >= 15, so the difference shows only where less than 15 counts: a
    pickup 4S 4H + top 4C with top_card_counts_initial=false counts 10."""
    d = position(
        variant=classic(negative_score_minimum=negative_minimum, top_card_counts_initial=False),
        hands={0: "4S 4H 9C JD QH"},
        pile="8D 4C",
        scores=[-5, 0],
    )
    state = state_of(d)
    if negative_minimum == 0:
        after = assert_legal(state, "take:4S4H")
        assert meld_of(after, 0, "4") == bag("4C 4S 4H")
    else:
        assert_illegal(state, "take:4S4H", R.INITIAL_MINIMUM)
    # With the top card counting (default), 15 >= 15 under either option.
    d["variant"] = classic(negative_score_minimum=negative_minimum).to_config()
    assert_legal(state_of(d), "take:4S4H")


# -- EX-16 -----------------------------------------------------------------------------


def test_ex16_insufficient_initial_meld() -> None:
    """EX-16: score 0 (minimum 50), not opened, hand 7S 7H 7D + cards forming no other meld:
    meld 7S 7H 7D (15) is illegal, the state unchanged (D2 reject)."""
    state = after_draw("7S 7H 7D 4C 5D 6H 8S 9C JD QH KS AC", 0)
    assert_illegal(state, "meld:7S7H7D", R.INITIAL_MINIMUM)
    assert_no_opening(state)


# -- the last plays of an opening that goes out ----------------------------------------


@pytest.mark.parametrize("exempt", [True, False])
def test_an_opening_that_goes_out_keeps_two_cards_until_its_last_play(exempt: bool) -> None:
    """§2.8 with §2.9: score 3000 (minimum 120). After 4444444 (35) and AAA (60) only a
    four and an ace are left, worth 25 together: the opening would be complete with both
    laid off, going out; but the first of the two lay-offs leaves one card with the
    opening incomplete, which §2.9 forbids. So AAA is refused (it left no legal move);
    44444444 and AAAA open with 120 and go out. D12 (the default) lets a concealed going
    out skip the minimum, and AAA is legal there."""
    variant = classic(concealed_exempt_from_minimum=exempt)
    state = after_draw("4H 4H 4D 4D 4C 4C 4S 4S AS AH AD AC", 3000, variant=variant)
    sevens = assert_legal(state, "meld:4444444")
    if exempt:
        assert_legal(sevens, "meld:AAA")
    else:
        assert_illegal(sevens, "meld:AAA", R.INITIAL_MINIMUM)
        assert_illegal(sevens, "meld:AAAA", R.HAND_SIZE)  # 115, one card left
        end = play(sevens, "add:4+4", "meld:AAAA")
        assert end.is_over and end.went_out == 0
