"""Modern American Canasta: the initial meld and meld rules.

Spec §3.5.3 (melds), §3.5.4 (initial meld), D22, D23, D27, the MAC row of EX-15 and the
examples EX-40 … EX-46 of §6.7. Each test cites its example. Moves are checked both ways:
legal moves are legal and listed by ``legal_moves()``; illegal ones are rejected and leave
the state unchanged. An initial-meld action is several atomic moves (spec §2.8 [LIB]), so an
illegal opening is tested as a turn that cannot be played to its discard.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from mac_helpers import (
    assert_illegal,
    assert_legal,
    assert_turn_fails,
    bag,
    discards,
    hand,
    meld_moves,
    meld_shapes,
    pile_of,
    play,
    position,
    shape,
    shapes,
)

OTHERS = ("4S 6S", "JC 4C", "6C TH")  # seats 1, 2, 3 when only seat 0 matters


def seat0(hand: str, **kwargs: Any) -> canasta.GameState:
    """Seat 0 to play (after the draw), the other seats holding inert cards."""
    kwargs.setdefault("pile", "4D")
    return position([hand, *OTHERS], **kwargs)


# Side 0 opened (one meld on the table) for the rules that apply after the opening.
OPENED = ["KS KH KD"]


# -- EX-15: the MAC minimum table ------------------------------------------------------

# For each minimum: (hand, opening worth exactly the minimum), (hand, opening worth 5 less).
# Every card but the two fillers 9C 8D is melded, so the short hand cannot reach the minimum
# in any way.
EX15_OPENINGS = {
    125: (
        ("KS KH JK QS QH QD 5S 5H 5D 5C 5S 9C 8D", "meld:KK* meld:QQQ meld:55555 discard:9"),
        ("KS KH JK QS QH QD 5S 5H 5D 5C 9C 8D", "meld:KK* meld:QQQ meld:5555 discard:9"),
    ),
    155: (
        ("KS KH JK AS AH AD 5S 5H 5D 5C 5S 9C 8D", "meld:KK* meld:AAA meld:55555 discard:9"),
        ("KS KH JK AS AH AD 5S 5H 5D 5C 9C 8D", "meld:KK* meld:AAA meld:5555 discard:9"),
    ),
    180: (
        ("JS JH JK JK KS KH 2C 5S 5H 5D 5C 9C 8D", "meld:JJ** meld:KK2 meld:5555 discard:9"),
        ("JS JH JK JK KS KH 2C 5S 5H 5D 9C 8D", "meld:JJ** meld:KK2 meld:555 discard:9"),
    ),
}


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180)],
)
def test_ex15_mac_initial_minimum_table(score: int, minimum: int) -> None:
    """EX-15 (MAC rows), spec §3.5.4: −500 → 125, 2995 → 125, 3000 → 155, 4995 → 155,
    5000 → 180. An opening worth exactly the minimum is legal; one worth 5 less is not, and
    with that hand no meld at all is legal (it could never reach the minimum)."""
    (exact_hand, exact_moves), (short_hand, short_moves) = EX15_OPENINGS[minimum]

    state = seat0(exact_hand, scores=(score, 0))
    after = play(state, exact_moves)
    assert len(meld_shapes(after, 0)) == 3
    assert after.to_move == 1

    state = seat0(short_hand, scores=(score, 0))
    assert_turn_fails(state, short_moves)
    assert meld_moves(state) == set()
    assert "discard:9" in discards(state)  # not melding at all stays legal

    variant = state.variant
    if hasattr(variant, "initial_minimum"):  # optional, not in api.md
        assert variant.initial_minimum(score) == minimum


def test_ex15_mac_minimum_uses_own_side_score() -> None:
    """EX-15, spec §3.5.4: the minimum depends on the acting side's score only (seat 1 is
    side 1; the opponents' 5000 do not matter, its own 2995 → 125)."""
    hand, moves = EX15_OPENINGS[125][0]
    state = position(["4S 6S", hand, "JC 4C", "6C TH"], to_move=1, pile="4D", scores=(5000, 2995))
    after = play(state, moves)
    assert meld_shapes(after, 1) == shapes("KK*", "QQQ", "55555")

    hand, moves = EX15_OPENINGS[155][1]  # 150 at 3000 (minimum 155): not enough
    state = position(["4S 6S", hand, "JC 4C", "6C TH"], to_move=1, pile="4D", scores=(0, 3000))
    assert_turn_fails(state, moves)


# -- EX-40: initial meld content (D22) -------------------------------------------------

EX40_CLEAN = "KS KH KD AS AH JK 8C 8D 2S 9C 6D"
EX40_NO_CLEAN = "AS AH AD JK 8C 8D 2S 9C 6D"
EX40_WILD = "2C 2D 2H JK QS QH 2S 9C 6D"


@pytest.mark.parametrize("content", ["clean_or_wild", "clean_required", "three_naturals"])
def test_ex40_clean_meld_with_mixed_melds_opens(content: str) -> None:
    """EX-40: score 2000 → 125; `KS KH KD` (30, clean) + `AS AH JK` (90) + `8C 8D 2S` (40) =
    160 → LEGAL under every `mac_initial_meld_content` (a clean meld is present). The ace
    meld has a wild: allowed because it is made inside the initial-meld action (§3.5.3)."""
    state = seat0(EX40_CLEAN, scores=(2000, 0), flags={"mac_initial_meld_content": content})
    after = play(state, "meld:KKK meld:AA* meld:882 discard:9")
    assert meld_shapes(after, 0) == shapes("KKK", "AA*", "882")
    assert after.to_move == 1


@pytest.mark.parametrize(
    ("content", "legal"),
    [("clean_or_wild", False), ("three_naturals", True), ("clean_required", False)],
)
def test_ex40_no_clean_meld(content: str, legal: bool) -> None:
    """EX-40: `AS AH AD JK` (110) + `8C 8D 2S` (40) = 150 with no clean meld: ILLEGAL by
    default; LEGAL with `mac_initial_meld_content=three_naturals`; ILLEGAL with
    `clean_required` (D22)."""
    flags = {} if content == "clean_or_wild" else {"mac_initial_meld_content": content}
    state = seat0(EX40_NO_CLEAN, scores=(2000, 0), flags=flags)
    moves = "meld:AAA* meld:882 discard:9"
    if legal:
        after = play(state, moves)
        assert meld_shapes(after, 0) == shapes("AAA*", "882")
    else:
        assert_turn_fails(state, moves)


@pytest.mark.parametrize(
    ("content", "legal"),
    [("clean_or_wild", True), ("clean_required", False), ("three_naturals", False)],
)
def test_ex40_wild_meld_as_content(content: str, legal: bool) -> None:
    """EX-40: wild meld `2C 2D 2H JK` (110) + `QS QH 2S` (40) = 150: LEGAL by default;
    ILLEGAL with `clean_required` and with `three_naturals` (D22)."""
    flags = {} if content == "clean_or_wild" else {"mac_initial_meld_content": content}
    state = seat0(EX40_WILD, scores=(2000, 0), flags=flags)
    moves = "meld:QQ2 meld:222* discard:9"
    if legal:
        after = play(state, moves)
        assert meld_shapes(after, 0) == shapes("QQ2", "222*")
    else:
        assert_turn_fails(state, moves)


# -- EX-41: initial meld while taking the pile (D23) -----------------------------------

EX41_HAND = "KS KH AS AD AH QC QD QS TS TD TH 5C 6D"


def ex41(hand: str = EX41_HAND, **flags: Any) -> canasta.GameState:
    return seat0(hand, phase="draw", pile="9H 4S KC", flags=flags)


def test_ex41_pickup_pair_counts_not_top_card() -> None:
    """EX-41: score 0 → 125; top `KC`. Take with `KS KH` + `AS AD AH` + `QC QD QS` counts
    20 + 60 + 30 = 110 → ILLEGAL (the turn cannot end: the discard is refused); adding
    `10S 10D 10H` makes 140 → LEGAL, and the pile's other cards then join the hand."""
    state = ex41()
    ply = assert_turn_fails(state, "take:KK meld:AAA meld:QQQ discard:5")
    assert ply == 3  # the tens could still reach the minimum: only the discard is refused

    after = play(state, "take:KK meld:AAA meld:QQQ meld:TTT discard:5")
    assert meld_shapes(after, 0) == shapes("KKK", "AAA", "QQQ", "TTT")
    assert hand(after, 0) == bag("6D 9H 4S")
    assert pile_of(after) == ["5C"]
    assert after.to_move == 1


def test_ex41_take_refused_when_minimum_unreachable() -> None:
    """EX-41 (derived, spec §2.8 [LIB]): without the tens the take can only reach 110 < 125,
    so `take:KK` itself is illegal."""
    state = ex41("KS KH AS AD AH QC QD QS 9S 8H 4D 5C 6D")
    assert_illegal(state, "take:KK")
    assert meld_moves(state) == set()
    assert_legal(state, "draw")


def test_ex41_top_card_does_not_count() -> None:
    """EX-41 / D23 (derived): the pile's top card does not count. `KS KH` (20) + `A A A A`
    (80) + `5 5 5` (15) = 115 from hand; only with the top `KC` would it reach 125."""
    state = ex41("KS KH AS AD AH AC 5S 5H 5D 9S 8H 4D 6D")
    assert_illegal(state, "take:KK")
    assert_turn_fails(state, "take:KK meld:AAAA meld:555 discard:9")


def test_ex41_pickup_cards_count_none() -> None:
    """EX-41 with `mac_pickup_cards_count=none` (D23): neither the pair nor the top card
    counts; 60 + 30 + 30 = 120 < 125 → ILLEGAL, so the take itself is refused."""
    state = ex41(mac_pickup_cards_count="none")
    assert_turn_fails(state, "take:KK meld:AAA meld:QQQ meld:TTT discard:5")
    assert_illegal(state, "take:KK")


# -- EX-42: a canasta from hand waives the minimum --------------------------------------


def test_ex42_natural_canasta_waives_minimum() -> None:
    """EX-42: score 0; initial action = natural canasta `9S 9S 9H 9H 9D 9D 9C` (70 < 125)
    → LEGAL (minimum waived; a natural canasta is also a clean meld)."""
    state = seat0("9S 9S 9H 9H 9D 9D 9C KD 5S 4H")
    after = play(state, "meld:9999999 discard:K")
    assert meld_shapes(after, 0) == shapes("9999999")


EX42_MIXED = "JS JS JH JH JD 2C JK 5S 5H 5D KD 8C"


def test_ex42_mixed_canasta_needs_clean_meld() -> None:
    """EX-42: mixed canasta `JS JS JH JH JD 2C JK` (120) alone: ILLEGAL (no clean or wild
    meld); plus `5S 5H 5D` → LEGAL."""
    state = seat0(EX42_MIXED)
    assert_turn_fails(state, "meld:JJJJJ2* discard:K")
    after = play(state, "meld:JJJJJ2* meld:555 discard:K")
    assert meld_shapes(after, 0) == shapes("JJJJJ2*", "555")


def test_ex42_mixed_canasta_not_allowed_flag() -> None:
    """EX-42 with `mac_initial_mixed_canasta_allowed=false` (§3.5.4, HBC): the mixed canasta
    plus `5S 5H 5D` is ILLEGAL."""
    state = seat0(EX42_MIXED, flags={"mac_initial_mixed_canasta_allowed": False})
    assert_turn_fails(state, "meld:JJJJJ2* meld:555 discard:K")
    assert_turn_fails(state, "meld:555 meld:JJJJJ2* discard:K")

    # a natural canasta is not affected by the flag
    state = seat0(
        "9S 9S 9H 9H 9D 9D 9C KD 5S 4H", flags={"mac_initial_mixed_canasta_allowed": False}
    )
    play(state, "meld:9999999 discard:K")


def test_ex42_mixed_canasta_waives_minimum() -> None:
    """EX-42 (derived, §3.5.4): a mixed canasta from hand waives the point minimum too:
    `8 8 8 8 8 2 2` (90) + `5 5 5` (15) = 105 < 125 → LEGAL."""
    state = seat0("8S 8S 8H 8H 8D 2C 2D 5S 5H 5D KD 9C")
    after = play(state, "meld:8888822 meld:555 discard:K")
    assert meld_shapes(after, 0) == shapes("8888822", "555")


# -- EX-43: meld limits ----------------------------------------------------------------


def test_ex43_three_wilds_illegal() -> None:
    """EX-43: `8S 8H 8D 2C 2D JK` (W=3): ILLEGAL, in the initial action and after it."""
    state = seat0("8S 8H 8D 2C 2D JK KS KH KD AS AH AD 9C 6D")
    assert_illegal(state, "meld:88822*")
    assert_legal(state, "meld:888")

    state = seat0("8S 8H 8D 8C 8S 2C 2D JK 9C 6D", melds=[OPENED, []])
    assert_illegal(state, "meld:8888822*")
    assert_legal(state, "meld:8888822")


def test_ex43_two_naturals_two_wilds_in_initial_action() -> None:
    """EX-43: `8S 8H 2C 2D` in the initial action: LEGAL (N ≥ 2, W ≤ 2; the rule of five does
    not apply yet): 60 + `KKK` 30 + `AAA` 60 = 150."""
    state = seat0("8S 8H 2C 2D KS KH KD AS AH AD 9C 6D")
    after = play(state, "meld:8822 meld:KKK meld:AAA discard:9")
    assert meld_shapes(after, 0) == shapes("8822", "KKK", "AAA")


def test_ex43_two_naturals_two_wilds_after_opening() -> None:
    """EX-43 with EX-44 (§3.5.3): after the opening the same `8 8 2 2` is ILLEGAL (rule of
    five)."""
    state = seat0("8S 8H 2C 2D 9C 6D", melds=[OPENED, []])
    assert_illegal(state, "meld:8822")


def test_ex43_no_eighth_card() -> None:
    """EX-43: adding an 8th card to a 7-card meld: ILLEGAL (§3.5.3, D28 default)."""
    state = seat0("8D 8C 9C 6D", melds=[[*OPENED, "8S 8S 8H 8H 8D 2C JK"], []])
    assert_illegal(state, "add:8+8")
    assert not any(t.startswith("add:8") for t in meld_moves(state))


@pytest.mark.parametrize("allowed", [True, False])
def test_d27_new_meld_after_mixed_canasta(allowed: bool) -> None:
    """D27 (with EX-43's mixed canasta of 8s): a new meld of 8s after the side completed a
    mixed canasta of 8s is LEGAL by default, ILLEGAL with
    `mac_new_meld_after_mixed_canasta=false`."""
    flags = {} if allowed else {"mac_new_meld_after_mixed_canasta": False}
    state = seat0("8D 8C 8C 9C 6D", melds=[[*OPENED, "8S 8S 8H 8H 8D 2C JK"], []], flags=flags)
    if allowed:
        after = assert_legal(state, "meld:888")
        assert shape("888") in meld_shapes(after, 0)
    else:
        assert_illegal(state, "meld:888")


# -- EX-44: rule of five ---------------------------------------------------------------


def test_ex44_rule_of_five_four_naturals() -> None:
    """EX-44 (team opened): team meld `QS QH QD QC` (N=4): lay off `2C` → ILLEGAL.
    Derived (§3.5.3 "naturals added in the same action count"): `Q` + `2` together → N=5,
    LEGAL."""
    state = seat0("2C JK QS 9S 6H 5D", melds=[[*OPENED, "QS QH QD QC"], []])
    assert_illegal(state, "add:Q+2")
    assert_illegal(state, "add:Q+*")
    after = assert_legal(state, "add:Q+Q2")
    assert shape("QQQQQ2") in meld_shapes(after, 0)


def test_ex44_rule_of_five_five_naturals() -> None:
    """EX-44: team meld `QS QH QD QC QS` (N=5): lay off `2C` → LEGAL; then `JK` → LEGAL
    (7 cards, mixed canasta); a third wild → ILLEGAL."""
    state = seat0("2C JK 2D 9S 6H", melds=[[*OPENED, "QS QH QD QC QS"], []])
    state = assert_legal(state, "add:Q+2")
    state = assert_legal(state, "add:Q+*")
    assert shape("QQQQQ2*") in meld_shapes(state, 0)
    assert_illegal(state, "add:Q+2")


def test_ex44_rule_of_five_new_melds() -> None:
    """EX-44: new meld `JS JH JD JC JS JK` (N=5, W=1): LEGAL. New meld `JS JH JD 2S`:
    ILLEGAL (`JS JH JD` alone stays LEGAL)."""
    state = seat0("JS JH JD JC JS JK 9S 6H", melds=[OPENED, []])
    after = assert_legal(state, "meld:JJJJJ*")
    assert shape("JJJJJ*") in meld_shapes(after, 0)

    state = seat0("JS JH JD 2S 9S 6H", melds=[OPENED, []])
    assert_illegal(state, "meld:JJJ2")
    assert_legal(state, "meld:JJJ")


# -- EX-45: sevens and aces ------------------------------------------------------------


def test_ex45_sevens_never_take_wilds() -> None:
    """EX-45: `7S 7H 7D 2C`: ILLEGAL at any time — in the initial action, after it, and even
    with five natural sevens; no wild may be laid off on a seven meld."""
    state = seat0("7S 7H 7D 2C KS KH KD AS AH AD QS QH QD 9C")
    assert_illegal(state, "meld:7772")
    assert_legal(state, "meld:777")  # 15 + 30 + 60 + 30 = 135 stays reachable

    state = seat0("7S 7H 7D 7C 7S 2C 9C 6D", melds=[OPENED, []])
    assert_illegal(state, "meld:7772")
    assert_illegal(state, "meld:777772")
    assert_legal(state, "meld:77777")

    state = seat0("2C 9C 6D", melds=[[*OPENED, "7S 7H 7D 7C 7S"], []])
    assert_illegal(state, "add:7+2")


def test_ex45_ace_meld_with_wild_in_initial_action() -> None:
    """EX-45: initial action with `AS AH 2C`: LEGAL (ordinary ace meld): `AA2` 60 + `KKKK`
    40 + `QQQ` 30 = 130."""
    state = seat0("AS AH 2C KS KH KD KC QS QH QD 9C 6D")
    after = play(state, "meld:AA2 meld:KKKK meld:QQQ discard:9")
    assert meld_shapes(after, 0) == shapes("AA2", "KKKK", "QQQ")


def test_ex45_no_later_wilds_on_aces() -> None:
    """EX-45: later wilds on the ordinary ace meld `AS AH 2C` are ILLEGAL, even with five
    naturals; naturals may still be added."""
    state = seat0("AD AC AS 2D 9C 6D", melds=[["AS AH 2C", "KS KH KD KC", "QS QH QD"], []])
    assert_illegal(state, "add:A+2")
    assert_illegal(state, "add:A+AAA2")
    after = assert_legal(state, "add:A+AAA")
    assert shape("AAAAA2") in meld_shapes(after, 0)


def test_ex45_aces_pure_after_opening() -> None:
    """EX-45: after opening, `AS AH AD AC AS 2C`: ILLEGAL (aces take wilds only inside the
    initial meld); `AS AH AD AC AS` is LEGAL."""
    state = seat0("AS AH AD AC AS 2C 9C 6D", melds=[OPENED, []])
    assert_illegal(state, "meld:AAAAA2")
    assert_legal(state, "meld:AAAAA")


# -- EX-46: incomplete wild meld -------------------------------------------------------


def test_ex46_incomplete_wild_meld_takes_all_wilds() -> None:
    """EX-46: team has wild meld `2C 2D JK` and meld `QS QH QD QC QS`. Lay `2H` on the Q
    meld: ILLEGAL. Lay `2H` on the wild meld: LEGAL. Derived: no wild into a new or other
    meld either, even with five naturals."""
    melds = [["KS KH KD", "2C 2D JK", "QS QH QD QC QS"], []]
    state = seat0("2H KS KH 9S 6H 5D", melds=melds)
    assert_illegal(state, "add:Q+2")
    assert_illegal(state, "add:K+KK2")
    assert_legal(state, "add:K+KK")
    after = assert_legal(state, "add:*+2")
    assert shape("222*") in meld_shapes(after, 0)


EX46_CANASTAS = ["9S 9S 9H 9H 9D 9D 9C", "KS KS KH KH KD KD 2H", "QS QH QD QC QS"]


def test_ex46_no_going_out_with_incomplete_wild_meld() -> None:
    """EX-46: going out while the wild meld has < 7 cards: ILLEGAL (the team has two
    canastas; laying `2S` on the wild meld leaves it at 4 cards)."""
    state = seat0("QH 2S 5D", melds=[[*EX46_CANASTAS, "2C 2D JK"], []])
    assert_turn_fails(state, "add:*+2 add:Q+Q discard:5")
    assert_turn_fails(state, "add:Q+Q add:*+2 discard:5")
    assert not state.is_over


def test_ex46_going_out_once_wild_meld_complete() -> None:
    """EX-46 contrast: the same going out is LEGAL when `2S` completes the wild meld (7
    cards; five 2s + two jokers = wild canasta 2000, EX-54)."""
    state = seat0("QH 2S 5D", melds=[[*EX46_CANASTAS, "2C 2D JK 2S JK 2D"], []])
    after = play(state, "add:*+2 add:Q+Q discard:5")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert dict(outcome.breakdown[0]).get("wild canastas") == 2000
    assert dict(outcome.breakdown[0]).get("going out") == 100


def test_d28_a_new_meld_past_the_cap_obliges_going_out() -> None:
    # D28 (mac_allow_8plus_going_out): a meld of more than seven cards is allowed only in
    # the turn the player goes out, for a new meld as for one that grows.
    variant = canasta.variants.get("modern-american", mac_allow_8plus_going_out=True)
    state = canasta.GameState.from_dict(
        {
            "variant": variant.to_config(),
            "phase": "play",
            "hands": ["QH QH QS QS QD QD QC QC 5H 5S 5D 9C", "4S 6D 8H", "4D 6S 8C", "4H 6C 8D"],
            "pile": "4C",
            "stock": "TH TS TD",
            "melds": [["JH JH JS JS JD JD JC"], []],
        }
    )
    after = state.apply("meld:QQQQQQQQ")
    assert [str(m) for m in after.legal_moves()] == ["meld:555"]
    assert after.check("discard:9") is canasta.IllegalReason.MUST_GO_OUT
    assert [str(m) for m in after.play("meld:555").legal_moves()] == ["discard:9"]


def _ex55b() -> canasta.GameState:
    # EX-55b: score 2000 (minimum 125), not opened. The example's hand, with one more two
    # so that both orders of QQ2 and 222* can be laid, and a joker left over after them.
    return canasta.GameState.from_dict(
        {
            "variant": "modern-american",
            "scores": [2000, 0],
            "phase": "play",
            "hands": ["2C 2D 2H 2S * * QS QH 9S 9H 9D KS KH 4C 5D", "4S 5S", "6S 7S", "8S TS"],
            "pile": "3C",
            "stock": "JS JH JD",
        }
    )


@pytest.mark.parametrize("order", ["meld:QQ2 meld:222* meld:999", "meld:222* meld:QQ2 meld:999"])
def test_ex55b_the_order_of_an_openings_melds_does_not_matter(order: str) -> None:
    opened = _ex55b().play(order)
    assert opened.opened[0]
    # Once the opening is complete, the incomplete wild meld takes every wild card.
    assert opened.check("meld:KK*") is canasta.IllegalReason.WILD_RULE
    assert opened.is_legal("add:*+*")


def _going_out_in_the_opening_turn() -> canasta.GameState:
    # Seat 3, its side not opened (minimum 125), asked partner and heard yes, so it must go
    # out this turn; it has laid 6D 6C * (60). No canasta is needed to go out, and the
    # opening needs a meld of 3 naturals. Found by the soak's search of whole turns.
    return canasta.GameState.from_dict(
        {
            "variant": {
                "variant": "modern-american",
                "canastas_to_go_out": 0,
                "mac_initial_meld_content": "three_naturals",
            },
            "scores": [1495, 1500],
            "dealer": 1,
            "to_move": 3,
            "phase": "play",
            "hands": [
                "2H 2H 4H 5D 5C 7S 7D 9S 9S TC KD KC *",
                "AS AH AD 2C 4C 5H 6H 7H 9C QS QD KD KC",
                "6S 6S 6C 7C 8D 9H 9D 9C TD TC QH KH *",
                "AC 2S 2D 2C 8H 8C TS TH JH JD JC",
            ],
            "pile": "5S 7H AS JD AD 9D 8H 4H 7S",
            "stock": (
                "QC TH 4S 7D TS QH 6D JS QS 5S QD 5D 2S 4D KS 8S AH 8D 8C AC JS 7C 9H KS * 4D 8S "
                "KH 5H 4C JC 5C QC 4S 2D TD 3C JH 3C 6H"
            ),
            "melds": [[], ["6D 6C *"]],
            "opened": [False, False],  # the meld on the table is this turn's
            "threes": ["3D 3S", "3H 3H 3S 3D"],
            "asked": [0, 0, 0, 1],
            "discarded": ["AS 8H", "JD 4H", "5S AD 7S", "7H 9D"],
            "turn": {
                "asked": True,
                "groups": [["6", 2, 1, True]],
                "melded": True,
                "must_go_out": True,
                "opening": 60,
                "permission": True,
            },
        }
    )


def test_going_out_in_the_opening_turn_plays_after_it_follow_the_rule_of_five() -> None:
    """The plays after the initial meld is complete follow the rules after the opening,
    in its turn too: a way out lays the melds it needs wild cards for before then
    (§3.5.3). Such a meld that left no way out used to be listed: after it, no move was
    legal."""
    position = _going_out_in_the_opening_turn()
    # After JJJ2 (110, the meld of 3 naturals), 882 or TT2 completes the opening, and the
    # other would then be a meld of 2 naturals and a wild card: the rule of five refuses it.
    assert position.check("meld:JJJ2") is canasta.IllegalReason.MUST_GO_OUT
    # With the meld of 3 naturals last, every meld belongs to the opening.
    out = position.play("meld:882 meld:TT2 meld:JJJ2 discard:A")
    assert out.is_over and out.outcome() is not None
    # No position of the turn is left without a legal move.
    todo, seen = [position], 0
    while todo:
        state = todo.pop()
        seen += 1
        assert state.legal_moves() or state.is_over
        todo += [a for a in map(state.apply, state.legal_moves()) if a.to_move == 3]
    assert seen > 20


def test_ex55b_the_wild_meld_first_leaves_the_same_moves() -> None:
    first_q = _ex55b().play("meld:QQ2")
    first_wild = _ex55b().play("meld:222*")
    assert first_wild.is_legal("meld:QQ2")
    assert first_q.play("meld:222*").legal_moves() == first_wild.play("meld:QQ2").legal_moves()
