"""A pickup opening and going out in one turn: rules spec §2.8 with §2.6 and §2.7.

A side that has not opened and takes the pile melds its top card at once; the pile's other
cards join the hand once the initial meld is complete. A player who must go out in that
turn (black threes melded, which only a going out allows) must then meld those cards too.
The plays of such a turn are legal exactly when the turn can still end as the rules
require: no position is left without a legal move.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import canasta
from canasta import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import soak  # tools/ is not a package: found through the path above

R = canasta.IllegalReason


def _state(hand: str, pile: str, scores: tuple[int, int] = (0, 0)) -> GameState:
    """Seat 0 to draw, its side not opened."""
    return GameState.from_dict(
        {
            "variant": "classic",
            "phase": "draw",
            "to_move": 0,
            "scores": list(scores),
            "hands": [hand, "4C 5D 6S", "4D 6D 7S", "4H 5S 6C"],
            "pile": pile,
            "stock": "TS TH TD JC JD",
        }
    )


def test_black_threes_that_complete_the_opening_must_leave_a_way_out() -> None:
    """take:KK (30), then meld:3333 (20) completes the minimum of 50 and obliges going out;
    9C and 8D then join the hand, and with them (and 5H) going out is impossible. The
    threes are refused (the position after them had no legal move)."""
    taken = _state("KH KD 3C 3C 3S 3S KC KC KS KH 5H", "9C 8D KS").apply("take:KK")
    assert taken.check("meld:3333") is R.BLACK_THREES
    # The opening is completed with the kings instead, and the turn ends with a discard.
    opened = taken.play("add:K+KKKK")
    assert {"9C", "8D"} <= {str(card) for card in opened.hand(0)}  # joined the hand
    assert any(str(move).startswith("discard") for move in opened.legal_moves())


def test_black_threes_before_the_opening_is_complete_must_leave_a_way_out() -> None:
    """Minimum 90: take:7772 (35), then meld:333 (15) obliges going out before the
    opening is complete; completing it brings AH and TS into the hand, and going out with
    them is impossible. The threes are refused; the opening itself is not."""
    taken = _state("2D 3S 3S 3C 7S 7H 7D 8D 8C KD * * *", "AH TS 7C", (1500, 0))
    taken = taken.apply("take:7772")
    assert taken.check("meld:333") is R.BLACK_THREES
    opened = taken.play("meld:88*")  # 35 + 60: the opening is complete
    assert any(str(move).startswith("discard") for move in opened.legal_moves())


def test_a_pickup_opening_that_only_going_out_completes_uses_the_waiting_cards() -> None:
    """take:KK (30) leaves the opening to the black threes (20: 50), so only going out
    completes it; the four kings waiting under the top card then join the hand and make
    the canasta that going out needs. The pickup is legal (the waiting cards count)."""
    state = _state("KH KD 3C 3C 3S 3S 5H", "KC KH KD KC KS")
    assert state.check("take:KK") is None
    end = state.play("take:KK meld:3333 add:K+KKKK discard:5H")
    assert end.is_over and end.went_out == 0


def _modern_pickup() -> GameState:
    """Modern American, minimum 155: seat 0 has taken the pile with 77 and melded JJ2 and
    TTT (85); 9H QC KD * AC wait under the pile's top card."""
    state = GameState.from_dict(
        {
            "variant": "modern-american",
            "scores": [3000, 0],
            "phase": "draw",
            "to_move": 0,
            "hands": [
                "AH AH 2H 2C 7H 7D 7C TS TH TD TC JD JC",
                "4S 6S 6D 9S *",
                "4D 4C 9D KH KD",
                "AD 2S 6S QH KH",
            ],
            "pile": "9H QC KD * AC 7S",
            "stock": "6C 6H QS QH 9C AC KC QD 9D QD 8H JS AD 8C 8C 5S 8D 2D 5H AS",
        }
    )
    return state.play("take:77 meld:JJ2 meld:TTT")


def test_the_plays_before_the_opening_is_complete_keep_two_cards() -> None:
    """§2.9: until the waiting cards join, each play keeps two cards of the hand's own.
    After meld:AA2 (145) only 7C and TC would be left, and the 10 points they add are
    needed: laying off either leaves one card before the other completes the opening. So
    meld:AA2 is refused; the lay-offs first, then the aces, open with 155."""
    state = _modern_pickup()
    assert state.check("meld:AA2") is R.INITIAL_MINIMUM
    opened = state.play("add:T+T add:7+7 meld:AA2")
    # The hand's own cards are all melded; the waiting cards are its hand now.
    assert sorted(str(card) for card in opened.hand(0)) == sorted(["9H", "QC", "KD", "*", "AC"])
    assert opened.phase == "play" and opened.legal_moves()


# -- every state of a pickup turn has a legal move ---------------------------------------

#: Variants whose black threes stay in hand, and those that lay every three out.
VARIANTS = ("classic", "classic-2p", "classic-6p", "dutch-s4", "house-2p-wild")
THREES_LAID_OUT = ("modern-american", "modern-american-club")


@pytest.mark.parametrize(
    ("names", "seed"), [(VARIANTS, seed) for seed in range(4)] + [(THREES_LAID_OUT, 0)]
)
def test_every_position_of_a_pickup_turn_has_a_legal_move(
    names: tuple[str, ...], seed: int
) -> None:
    """Random pickups of positions rich in black threes (where they stay in hand) and wild
    cards: every position the turn reaches by melds and lay-offs has a legal move (the deal
    is not over)."""
    rng = random.Random(seed)
    pickups = 0
    while pickups < 10:
        name = rng.choice(names)
        state = GameState.from_dict(soak.pickup_position(rng, name, names is VARIANTS))
        if not any(isinstance(move, canasta.Take) for move in state.legal_moves()):
            continue
        pickups += 1
        # Each position the turn reaches is checked to have a legal move.
        assert sum(1 for _ in soak.pickup_turn(state, 400)) > 0
