"""Melds and canastas: rules spec §2.4, §2.5 and the hand-size rule of §2.9, worked
examples EX-17 to EX-21 (§6.3).

Side 0 is opened (it has an unrelated meld, ``QS QH QD``, no canasta) so the initial-meld
minimum plays no part; the mover holds the meld's cards plus two single cards, in phase
``"play"`` (after the draw).
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
    play,
    position,
    state_of,
)

R = canasta.IllegalReason
OPENED = ["QS QH QD"]
SPARE = "8C 6D"


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def meld_state(cards: str, variant: object = "classic") -> canasta.GameState:
    d = position(variant=variant, hands={0: f"{cards} {SPARE}"}, phase="play", melds=[OPENED, []])
    return state_of(d)


def check_meld(state: canasta.GameState, move: str, valid: bool) -> None:
    if valid:
        after = assert_legal(state, move)
        cards = move.partition(":")[2]
        rank = next(c for c in cards if c not in "2*SHDC")
        assert meld_of(after, 0, rank) == bag(cards)
        assert hand(after, 0) == bag(SPARE)
    else:
        assert_illegal(state, move)


# -- EX-17 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "valid"),
    [
        ("meld:5S5H5D", True),
        ("meld:5S**", False),
        ("meld:4S4S4H4H4D4D", True),
        ("meld:4S4S4H4H4D4D2C2D2H*", False),
        ("meld:4S4S4H4H4D4D2C2D2H", True),
        ("meld:9S9S9H9H9D9D9C9C2C2D*", True),
    ],
    ids=["555", "JK-JK-5", "six-4s", "six-4s+four-wilds", "six-4s+three-wilds", "eleven"],
)
def test_ex17_meld_validity(move: str, valid: bool) -> None:
    """EX-17: 5 5 5 valid; JK JK 5 invalid (one natural); six 4s valid; six 4s + four wilds
    invalid (W=4); eight naturals + three wilds (11 cards) valid, the largest with 2 decks."""
    check_meld(meld_state(move.partition(":")[2]), move, valid)


# -- EX-18 -----------------------------------------------------------------------------

EX18 = [
    # meld, valid under min2_max3, n_ge_w, n_gt_w
    ("meld:5S5H2C", (True, True, True)),
    ("meld:5S2C2D", (False, False, False)),
    ("meld:9S9H2C2D", (True, True, False)),
    ("meld:9S9H2C2D*", (True, False, False)),
    ("meld:9S9H9D2C2D*", (True, True, False)),
    ("meld:9S9H2C2D2H*", (False, False, False)),
]
RATIOS = ["min2_max3", "n_ge_w", "n_gt_w"]


@pytest.mark.parametrize(
    ("move", "ratio", "valid"),
    [(move, ratio, flags[i]) for move, flags in EX18 for i, ratio in enumerate(RATIOS)],
)
def test_ex18_wild_ratio_table(move: str, ratio: str, valid: bool) -> None:
    """EX-18: the meld_wild_ratio table (D8): 5 5 2 / 5 2 2 / 9 9 2 2 / 9 9 2 2 JK /
    9 9 9 2 2 JK / 9 9 2 2 2 JK under min2_max3, n_ge_w and n_gt_w."""
    state = meld_state(move.partition(":")[2], classic(meld_wild_ratio=ratio))
    check_meld(state, move, valid)


# -- EX-19 -----------------------------------------------------------------------------


def test_ex19_partner_meld_merges_into_canasta() -> None:
    """EX-19: side meld 10H 10D 10D; the partner later melds 10S 10S 10C 2D: one meld of 7
    (N=6, W=1), a mixed canasta. It counts as a canasta at once: melding down to one card
    is allowed because going out is now legal, and the hand scores a mixed canasta."""
    d = position(
        hands={2: "TS TS TC 2D 5C"},
        to_move=2,
        phase="play",
        melds=[["TH TD TD"], []],
    )
    state = assert_legal(state_of(d), "meld:TSTSTC2D")
    assert melds(state, 0) == [bag("TH TD TD TS TS TC 2D")]
    state = assert_legal(state, "discard:5C")
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 2
    assert line(state, 0, "mixed canastas") == 300
    assert line(state, 0, "natural canastas") == 0


# -- EX-20 -----------------------------------------------------------------------------


@pytest.mark.parametrize("locked", [False, True])
def test_ex20_natural_canasta_turned_mixed(locked: bool) -> None:
    """EX-20: side natural canasta of seven 8s; lay off 2C. Default: legal, the canasta is
    now mixed (scores 300). natural_canasta_locked=true: illegal (D29)."""
    d = position(
        variant=classic(natural_canasta_locked=locked),
        hands={0: "2C 5H"},
        phase="play",
        melds=[["8S 8S 8H 8H 8D 8D 8C"], []],
    )
    state = state_of(d)
    if locked:
        assert_illegal(state, "add:8+2C", R.CANASTA_LOCKED)
        return
    state = play(state, "add:8+2C", "discard:5H")
    assert state.is_over
    assert line(state, 0, "mixed canastas") == 300
    assert line(state, 0, "natural canastas") == 0
    assert line(state, 0, "melded cards") == 7 * 10 + 20


# -- EX-21 -----------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "legal"), [("KS KH KD 5C", False), ("KS KH KD 5C 6C", True)])
def test_ex21_hand_size_constraint(cards: str, legal: bool) -> None:
    """EX-21: opened, no canasta, no K meld. Hand KS KH KD 5C: meld KS KH KD is illegal (one
    card left: the discard would empty the hand). Hand KS KH KD 5C 6C: legal (2 left)."""
    d = position(hands={0: cards}, phase="play", melds=[OPENED, []])
    state = state_of(d)
    if legal:
        after = assert_legal(state, "meld:KSKHKD")
        assert hand(after, 0) == bag("5C 6C")
    else:
        assert_illegal(state, "meld:KSKHKD", R.HAND_SIZE)
