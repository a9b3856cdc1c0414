"""Scoring a classic hand: rules spec §2.13, §3.3 (cutthroat), §3.4 (six players) and §3.7
(Dutch preset), worked examples EX-30 to EX-36 (§6.6).

Each hand is either played to its end from a position one move before it, or built as a
finished position (``"phase": "over"`` with ``went_out``); breakdown lines are read with
``dict(outcome.breakdown[side]).get(label, 0)`` (zero lines may be omitted).
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from helpers import (
    assert_breakdown_adds_up,
    line,
    play,
    position,
    state_of,
    value,
)


def finished(**kw: Any) -> canasta.GameState:
    """A finished deal: ``phase`` over, nobody to move, empty pile and stock."""
    kw.setdefault("pile", "")
    kw.setdefault("stock", "")
    return state_of(position(phase="over", to_move=None, **kw))


def scores(state: canasta.GameState) -> tuple[int, ...]:
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None
    assert_breakdown_adds_up(state)
    return tuple(outcome.scores)


# -- EX-30 -----------------------------------------------------------------------------

EX30_MELDS = [
    ["KH KH KD KD KC KC KS", "9S 9S 9H 9H 9D 2C JK", "5S 5H 5D"],
    ["AS AH 2D", "QS QH QD QC"],
]
EX30_HANDS = {1: "JK 7S 7D", 2: "4C 9C", 3: "KS 3C"}


@pytest.mark.parametrize("how", ["played", "finished"])
def test_ex30_full_hand_four_players(how: str) -> None:
    """EX-30: NS (North went out, not concealed): K x7 natural canasta (70), 9 9 9 9 9 2 JK
    mixed canasta (120), 5 5 5 (15); 1 red 3; South holds 4C 9C.
    NS = 205 + 500 + 300 + 100 + 100 - 15 = 1190.
    EW: A A 2 (60), Q Q Q Q (40); 2 red 3s (+200); East holds JK 7S 7D (60), West KS 3C (15).
    EW = 100 + 200 - 75 = 225."""
    common: dict[str, Any] = {"melds": EX30_MELDS, "threes": ["3H", "3D 3D"]}
    if how == "played":
        d = position(
            hands={0: "8S", **EX30_HANDS}, phase="play", pile="6H", melded_seats=[0, 2], **common
        )
        state = play(state_of(d), "discard:8S")
    else:
        state = finished(hands={0: "", **EX30_HANDS}, went_out=0, concealed=False, **common)
    assert scores(state) == (1190, 225)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert not outcome.concealed
    expected = {
        0: {
            "melded cards": 205,
            "natural canastas": 500,
            "mixed canastas": 300,
            "red threes": 100,
            "going out": 100,
            "concealed": 0,
            "cards in hand": -15,
        },
        1: {
            "melded cards": 100,
            "natural canastas": 0,
            "mixed canastas": 0,
            "red threes": 200,
            "going out": 0,
            "cards in hand": -75,
        },
    }
    for side, lines in expected.items():
        for label, points in lines.items():
            assert line(state, side, label) == points, (side, label)


# -- EX-31 -----------------------------------------------------------------------------

EX31_HANDS = {0: "", 1: "AS KS QS 9D 7C 6C 4H 3S", 2: "5D 6D", 3: "JK 2D TC TH 8S"}
EX31_NS = ["QH QH QD QD QC QC QS"]


def test_ex31_red_threes_of_an_unopened_team() -> None:
    """EX-31: EW never melded; 2 red 3s: -200; East holds AS KS QS 9D 7C 6C 4H 3S (70), West
    JK 2D 10C 10H 8S (100). EW = -200 - 170 = -370. (NS went out with a Q canasta:
    70 + 500 + 100 - South's 10 = 660.)"""
    state = finished(
        hands=EX31_HANDS, melds=[EX31_NS, []], threes=["", "3H 3D"], went_out=0, concealed=False
    )
    assert scores(state) == (660, -370)
    assert line(state, 1, "red threes") == -200
    assert line(state, 1, "cards in hand") == -170
    assert line(state, 1, "melded cards") == 0


@pytest.mark.parametrize("opened", [True, False])
def test_ex31_all_four_red_threes(opened: bool) -> None:
    """EX-31: a team with all four red 3s: +800 if opened, -800 if not."""
    ew_melds = ["8H 8D 8C"] if opened else []
    state = finished(
        hands=EX31_HANDS,
        melds=[EX31_NS, ew_melds],
        threes=["", "3H 3H 3D 3D"],
        went_out=0,
        concealed=False,
    )
    assert line(state, 1, "red threes") == (800 if opened else -800)
    assert scores(state)[1] == (30 + 800 - 170 if opened else -800 - 170)


# -- EX-32 -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["played", "finished"])
def test_ex32_concealed_hand_scoring(how: str) -> None:
    """EX-32 (from EX-23): NS: South's Q x7 (70) and 6 6 6 2 (35); North's 8 8 8 (30); North
    holds KD 4S (15); no red 3s. NS = 135 + 500 + 200 - 15 = 820."""
    if how == "played":
        d = position(
            hands={0: "KD 4S", 2: "QS QS QH QH QD QD QC 6H 6D 6S 2C 9S"},
            to_move=2,
            phase="play",
            melds=[["8S 8H 8D"], []],
            melded_seats=[0],
        )
        state = play(state_of(d), "meld:QSQSQHQHQDQDQC", "meld:6H6D6S2C", "discard:9S")
        ew_hands = d["hands"][1] + " " + d["hands"][3]
    else:
        ew_hands = "4C 5C 6C 7C 9C TC JC QC KC AC 8C"
        state = finished(
            hands={0: "KD 4S", 1: ew_hands, 2: "", 3: ""},
            melds=[["8S 8H 8D", "QS QS QH QH QD QD QC", "6H 6D 6S 2C"], []],
            went_out=2,
            concealed=True,
        )
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.concealed
    assert scores(state) == (820, -value(ew_hands))
    assert line(state, 0, "melded cards") == 135
    assert line(state, 0, "natural canastas") == 500
    assert line(state, 0, "mixed canastas") == 0
    assert line(state, 0, "going out") + line(state, 0, "concealed") == 200
    assert line(state, 0, "cards in hand") == -15


# -- EX-33 -----------------------------------------------------------------------------


def test_ex33_cards_left_in_hand() -> None:
    """EX-33: one partner holds 4 4, the other 5 K: hand deduction -25."""
    state = finished(
        hands={0: "", 1: "4S 4H", 2: "9D", 3: "5C KD"},
        melds=[["JS JS JH JH JD JD JC"], []],
        went_out=0,
        concealed=False,
    )
    assert line(state, 1, "cards in hand") == -25
    assert scores(state) == (70 + 500 + 100 - 10, -25)


# -- EX-34 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "opened", "expected"),
    [(4, True, 400), (5, True, 1000), (6, True, 1200), (5, False, -1000), (4, False, -400)],
)
def test_ex34_six_players_three_decks_red_threes(count: int, opened: bool, expected: int) -> None:
    """EX-34: classic-6p, 3 decks: an opened team with 4 red 3s scores +400, with 5 +1000,
    with 6 +1200; an unopened team with 5: -1000 (magnitude 100 per three up to 4, §2.13)."""
    reds = " ".join(["3H", "3D", "3H", "3D", "3H", "3D"][:count])
    d = position(
        variant="classic-6p",
        phase="over",
        to_move=None,
        pile="",
        stock="",
        melds=[["8S 8H 8D"] if opened else [], ["9S 9H 9D"]],
        threes=[reds, ""],
        went_out=None,
    )
    state = state_of(d)
    assert line(state, 0, "red threes") == expected
    held = sum(value(d["hands"][s]) for s in (0, 2, 4))
    assert scores(state)[0] == (30 if opened else 0) + expected - held


# -- EX-35 -----------------------------------------------------------------------------


def test_ex35_three_player_cutthroat() -> None:
    """EX-35: A takes the pile first (lone hand); B and C are partners; B goes out.
    Partnership: combined melds 250 incl. two canastas, one natural (+500) and one mixed
    (+300), going out +100, B holds nothing, C holds 35: 1115; B's red 3 +100 (individual).
    A: melds 180 incl. one mixed canasta (+300), holds 60, 1 red 3 (+100): 520. Changes:
    A +520, B +1215, C +1115.

    B goes out by laying off on C's 6s: the partners' melds are one set, so the
    partnership has the two canastas the preset needs."""
    d = position(
        variant="classic-3p-cutthroat",
        hands={0: "JK 4D JD", 1: "6S", 2: "KC QC 7C 7H 5D"},
        pile="4H KD",
        stock="6H 4C 8D",
        melds=[
            ["KS KS KH KH KD 2C", "AS AH AD", "QS QH QD QC"],  # A: 70 + 60 + 40
            ["9S 9S 9H 9H 9D 9D 9C", "TS TS TH TD TC"],  # B: 70 + 50
            ["JS JS JH JH", "8S 8H 8D 8C", "6D 6C 6D 6C 2S"],  # C: 40 + 40 + 40
        ],
        threes=["3H", "3D", ""],
    )
    state = play(
        state_of(d),
        "take",  # A lays KD off: K meld of 7 = mixed canasta; A is the lone hand
        "discard:JD",  # A keeps JK 4D 4H = 60
        "draw",  # B draws two cards (draw_count 2): 6H 4C
        "add:6+6S6H",  # on C's 6s: a mixed canasta of the partnership
        "discard:4C",  # B goes out
    )
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 1
    assert scores(state) == (520, 1215, 1115)


# -- EX-36 -----------------------------------------------------------------------------

DUTCH_OPTIONS: dict[str, Any] = {
    "upcard_skip": "none",
    "initial_pickup_natural_pair": False,
    "red_three_card_value": 5,
    "unopened_or_no_canasta_melds_negative": "no_canasta",
}


def dutch_variant(kind: str) -> Any:
    if kind == "preset":
        names = canasta.variants.names()
        name = next((n for n in ("dutch-s4", "dutch_s4") if n in names), None)
        if name is None:
            pytest.skip("no dutch-s4 preset registered")
        return canasta.variants.get(name)
    if kind == "built":
        return canasta.variants.get("classic", **DUTCH_OPTIONS)
    return canasta.variants.get("classic")


@pytest.mark.parametrize(("kind", "expected"), [("built", 40), ("preset", 40), ("classic", 105)])
def test_ex36_dutch_team_without_canasta(kind: str, expected: int) -> None:
    """EX-36 (dutch_s4, [LIB] reading): team opened with 8 8 8 only, 1 red 3, hands worth 25:
    melds -30, red 3 card -5, red 3 bonus +100 (team melded), hands -25 = 40. Under the
    classic defaults the same hand is 30 + 100 - 25 = 105 (D17, D19)."""
    state = finished(
        variant=dutch_variant(kind),
        hands={0: "KS 5C", 1: "", 2: "JD", 3: "4H"},
        melds=[["8S 8H 8D"], ["QS QS QH QH QD QD QC"]],
        threes=["3H", ""],
        went_out=1,
        concealed=False,
    )
    side0, side1 = scores(state)
    assert side0 == expected
    negative = kind != "classic"
    assert line(state, 0, "melded cards") == (-30 if negative else 30)
    assert line(state, 0, "red threes") == 100  # the bonus: the team has melded
    assert line(state, 0, "cards in hand") == -25
    # What is left is the red three's card value: -5 (no canasta) in S4, nothing in classic.
    rest = side0 - sum(line(state, 0, k) for k in ("melded cards", "red threes", "cards in hand"))
    assert rest == (-5 if negative else 0)
    assert side1 == 70 + 500 + 100 - 5  # the side with a canasta scores as usual


def _first_meld_position(variant: str, melded_before: bool) -> canasta.GameState:
    # Seat 0 goes out with 777 and a discard onto its partner's canasta; in its earlier
    # turns it had (melded_before) or had not put cards on the table.
    return canasta.GameState.from_dict(
        {
            "variant": variant,
            "phase": "play",
            "hands": ["7H 7D 7S 9C", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"],
            "pile": "8S",
            "stock": "KS KH KD",
            "melds": [["QH QH QS QS QD QD QC", "AH AS AD"], []],
            "melded_seats": [0, 2] if melded_before else [2],
        }
    )


@pytest.mark.parametrize("melded_before", [False, True])
def test_d30_dutch_s4_pays_the_extra_bonus_for_the_first_meld_turn(melded_before: bool) -> None:
    # D30, dutch-s4 (going_out_extra_bonus=first_meld_turn): +100 when the player goes out
    # in the turn it first melds this deal; no canasta of its own needed.
    outcome = _first_meld_position("dutch-s4", melded_before).play("meld:777 discard:9").outcome()
    assert outcome is not None and not outcome.concealed
    lines = outcome.lines(0)
    assert lines["going out"] == 100
    assert lines.get("first meld turn", 0) == (0 if melded_before else 100)
    assert "concealed" not in lines


def test_d30_classic_pays_the_extra_bonus_only_when_concealed() -> None:
    outcome = _first_meld_position("classic", False).play("meld:777 discard:9").outcome()
    assert outcome is not None
    assert "first meld turn" not in outcome.lines(0) and "concealed" not in outcome.lines(0)
    variant = canasta.variants.get("classic", going_out_extra_bonus="first_meld_turn")
    position = _first_meld_position("classic", False).to_dict()
    position["variant"] = variant.to_config()
    again = canasta.GameState.from_dict(position).play("meld:777 discard:9").outcome()
    assert again is not None and again.lines(0)["first meld turn"] == 100
