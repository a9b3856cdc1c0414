"""Regression tests: positions where an earlier engine went wrong, each with the rule it broke.

Most are dead ends: spec §2.8 [LIB] promises that a legal sequence of moves never leads
into a position with no legal move, so every one of these checks that promise directly.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta import GameState, IllegalReason


def _state(data: dict[str, Any]) -> GameState:
    return GameState.from_dict(data)


def _no_dead_end(state: GameState, depth: int = 3) -> None:
    """Every line of up to ``depth`` legal moves from ``state`` keeps a legal move."""
    if state.is_over or depth == 0:
        return
    moves = state.legal_moves()
    assert moves, f"no legal move in {state.to_dict()}"
    for move in moves:
        _no_dead_end(state.apply(move), depth - 1)


def test_mac_opening_content_is_judged_on_final_melds() -> None:
    """§3.5.4 (D22): adding a wild to the only clean meld spoils the content rule, so an
    opening that relies on it must not be started (it used to end with no legal move)."""
    state = _state(
        {
            "variant": "modern-american",
            "phase": "play",
            "to_move": 0,
            "hands": ["JH JS JC KH KD 2S 2D * AS 4C 5S 6H 8H QS", "4D 5D 6D", "4H 5H 6S", "7D"],
            "pile": "",
            "stock": "9S TS 9H",
        }
    )
    assert not state.is_legal("meld:JJJ")
    assert all(m.kind == "discard" for m in state.legal_moves())


def test_mac_wild_on_clean_meld_mid_opening() -> None:
    """§3.5.4: after 55555 and JJJ (55 points) a wild on the Js leaves no clean meld and
    no way to 125 with a clean meld: that lay-off is illegal."""
    state = _state(
        {
            "variant": "modern-american",
            "phase": "play",
            "to_move": 3,
            "hands": ["6C", "7C", "8C", "2S 2H 2D 4C QH QC"],
            "pile": "4H",
            "stock": "5D 8S AD",
            "melds": [[], ["5S 5S 5H 5H 5C", "JS JH JH"]],
            "opened": [False, False],
            "turn": {
                "groups": [["5", 5, 0, True], ["J", 3, 0, True]],
                "melded": True,
                "opening": 55,
            },
        }
    )
    assert state.check("add:J+2") == IllegalReason.INITIAL_MINIMUM
    _no_dead_end(state)


def test_two_canastas_each_one_card_short_cannot_be_promised() -> None:
    """§2.9 and §2.11: with 2 cards and two melds each one card short of a canasta (two
    needed), laying off either leaves one card without the canastas: not a going-out
    hand, so asking partner is not offered (a "yes" used to leave no legal move)."""
    state = _state(
        {
            "variant": "classic-6p",
            "phase": "play",
            "to_move": 3,
            "hands": ["8H", "QC", "4D", "2H 9C", "JD", "QS"],
            "pile": "KH",
            "stock": "KS 2S AD",
            "melds": [[], ["5S 5H 5D 5D 5C *", "2C 9H 9H 9H 9C 9C"]],
        }
    )
    assert state.check("ask") == IllegalReason.ASK_NOT_ALLOWED
    assert state.check("add:9+9") == IllegalReason.HAND_SIZE
    assert [str(m) for m in state.legal_moves()] == ["discard:9", "discard:2"]


def test_single_card_cannot_ask() -> None:
    """§2.11 [LIB]: after "no" the player must keep a card, so one card cannot ask."""
    state = _state(
        {
            "variant": "classic",
            "phase": "play",
            "to_move": 2,
            "hands": ["4C", "5D", "TD", "6H"],
            "pile": "",
            "stock": "TC KC",
            "melds": [["TS TS TH TH TD TC *"], []],
        }
    )
    assert state.check("ask") == IllegalReason.ASK_NOT_ALLOWED
    assert state.is_legal("discard:T")


def test_no_discard_turn_must_meld_everything_to_go_out() -> None:
    """D11 meld_no_discard: after a red three as the last stock card the player cannot
    discard, so black threes (which oblige going out, §2.6) may only be melded when every
    other card can be melded too."""
    state = _state(
        {
            "variant": "classic-2p",
            "phase": "play",
            "to_move": 0,
            "hands": ["3S 3S 3C 3C JC", "9D"],
            "pile": "7H",
            "stock": "",
            "melds": [["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"], []],
            "turn": {"no_discard": True},
        }
    )
    assert state.check("meld:3333") == IllegalReason.BLACK_THREES
    assert not state.is_legal("discard:J")
    assert state.is_legal("end")
    _no_dead_end(state)


@pytest.mark.parametrize("variant", ["classic-6p", "classic-6p-3x2"])
def test_two_black_three_melds_round_trip(variant: str) -> None:
    """§2.6 with 3 decks: six black threes go down as two melds of three when going out,
    and the finished position reads back (it used to be refused as two melds of a rank)."""
    state = _state(
        {
            "variant": variant,
            "phase": "play",
            "to_move": 0,
            "hands": ["3S 3S 3S 3C 3C 3C 5D", "4C", "4D", "4H", "6C", "6D"],
            "pile": "8H",
            "stock": "9S 9H",
            "melds": [["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"]]
            + [[] for _ in range(canasta.variants.get(variant).sides - 1)],
        }
    )
    end = state.play("meld:333 meld:333 discard:5")
    assert end.is_over and end.went_out == 0
    assert GameState.from_dict(end.to_dict()) == end


def test_cutthroat_lone_hand_round_trips() -> None:
    """§3.3: once the pile is taken the lone hand is part of the position."""
    state = _state(
        {
            "variant": "classic-3p-cutthroat",
            "phase": "draw",
            "to_move": 0,
            "hands": ["KS KH 4C 5D 6H", "9D 9C 8S", "QC JD TH"],
            "pile": "7H KD",
            "stock": "AS AD 8C",
            "melds": [["AH AC AC"], [], []],
        }
    )
    after = state.apply("take:KK")
    assert after.lone == 0
    assert GameState.from_dict(after.to_dict()) == after


def test_red_three_upcard_blocks_the_pile() -> None:
    """§2.7 T1, §3.7 (upcard_skip=none): only a natural card on top can be taken."""
    state = canasta.new_game("dutch-s4", seed=3)
    assert state.pile_top is not None and str(state.pile_top) == "3D"
    assert [str(m) for m in state.legal_moves()] == ["draw"]


def _seat0_position(
    hand: str, pile: str = "", variant: str = "classic", **options: Any
) -> GameState:
    """Seat 0 (side 0, not opened) holds ``hand``; the other hands only matter as cards."""
    return _state(
        {
            "variant": {"variant": variant, **options},
            "to_move": 0,
            "phase": "draw" if pile else "play",
            "hands": [
                hand,
                "5C 6C 7C 8C 9C TC JC QC KC AC 5S",
                "5D 6D 7D 8D 9D TD JD QD KD AD 8H",
                "5H 6H 7H 8H 9H TH JH QH KH AH 6S",
            ],
            "pile": pile,
            "stock": "8S 9S TS JS",
        }
    )


def test_opening_completed_by_black_threes_when_going_out() -> None:
    """§2.6, §2.8: black threes melded when going out count toward the minimum, so seven
    4s (35) then 333 (15) open with 50 and go out; the order of the two melds must not
    matter (the 4s first used to be refused with INITIAL_MINIMUM). Without D12, so that
    going out concealed does not waive the minimum."""
    hand = "4S 4S 4H 4H 4D 4D 4C 3S 3C 3S"
    state = _seat0_position(hand, concealed_exempt_from_minimum=False)
    assert state.check("meld:4444444") is None
    after = state.play("meld:4444444")
    assert [str(m) for m in after.legal_moves()] == ["meld:333"]
    end = after.play("meld:333")
    assert end.is_over and end.went_out == 0
    # The other order was always legal and ends the same way.
    assert state.play("meld:333 meld:4444444").went_out == 0


def test_pickup_opening_completed_by_black_threes_when_going_out() -> None:
    """§2.7 T4 with §2.6: taking the pile with six 4s (35 with the top card) is legal when
    melding the black threes and going out brings the opening to 50."""
    state = _seat0_position("4S 4S 4H 4H 4D 4D 3S 3C 3S", pile="4C")
    assert state.check("take:444444") is None
    end = state.play("take:444444 meld:333")
    assert end.is_over and end.went_out == 0
    # Two black threes cannot be melded (§2.6), so the opening is out of reach.
    short = _seat0_position("4S 4S 4H 4H 4D 4D 3S 3C 9S", pile="4C")
    assert short.check("take:444444") is IllegalReason.INITIAL_MINIMUM


def test_opening_completed_by_a_meld_past_the_cap_when_going_out() -> None:
    """D28 with §2.8: where melds may pass the size cap only when going out, an opening
    that only going out can complete is not a dead end. Seven 4s (35) fall short of a
    minimum of 40; eight (40) reach it while going out, so ``meld:444`` is legal."""
    from typing import ClassVar

    import attrs

    from canasta.variants import ClassicVariant

    @attrs.frozen
    class CappedClassic(ClassicVariant):
        max_meld_size: ClassVar[int] = 7

    variant = CappedClassic(
        name="capped-classic", minimum_table=((0, 40),), concealed_exempt_from_minimum=False
    )
    canasta.variants.register(variant)
    try:
        state = _seat0_position("4S 4S 4H 4H 4D 4D 4C 4C KS", variant="capped-classic")
        assert state.check("meld:444") is None
        end = state.play("meld:444 add:4+44444 discard:K")
        assert end.is_over and end.went_out == 0
        # A full meld of seven takes no eighth card: 35 stays short of the minimum.
        assert state.check("meld:4444444") is IllegalReason.INITIAL_MINIMUM
    finally:
        canasta.variants.unregister("capped-classic")
