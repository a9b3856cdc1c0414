"""Modern American Canasta: threes and scoring.

Spec §3.5.2 (threes), §3.5.8 (end of hand), §3.5.9 (scoring), D25 and the examples EX-51 …
EX-55 of §6.7 (with the scoring remarks of EX-40, EX-41 and EX-45). Finished deals are built
as ``"phase": "over"`` positions; where practical the end is also reached by playing moves.
Side 0 = seats 0 and 2, side 1 = seats 1 and 3.
"""

from __future__ import annotations

import pytest

import canasta
from mac_helpers import (
    assert_legal,
    assert_score,
    bag,
    finished,
    hand,
    play,
    position,
    threes_of,
    tokens,
)

CANASTA_8 = "8S 8S 8H 8H 8D 8D 8C"  # natural, 70 card points
CANASTA_Q = "QS QS QH QH QD QD QC"  # natural, 70 card points
SIDE0_OUT = ["", "5S", "4S 6H", "JD"]  # seat 0 went out; seat 2 holds 10, side 1 holds 15


# -- EX-51: threes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("threes0", "term"),
    [
        ("3H 3H 3D 3S", 600),  # 3 red + 1 black: 500 + 100
        ("3H 3H 3D 3D 3S 3S 3C 3C", 2000),  # all 4 red + all 4 black: 1000 + 1000
        ("3S", 100),
        ("3H 3D 3S 3S 3C 3C", 1300),  # 2 red + 4 black: 300 + 1000
    ],
)
def test_ex51_threes_term_with_two_canastas(threes0: str, term: int) -> None:
    """EX-51: team with ≥2 canastas, 3 red + 1 black: 500 + 100 = +600; all 4 red + all 4
    black: +2000 (per colour 1/2/3/4 threes = 100/300/500/1000)."""
    state = finished(
        SIDE0_OUT, went_out=0, melds=[[CANASTA_8, CANASTA_Q], ["KS KH KD"]], threes=[threes0, ""]
    )
    total = 100 + 1000 + term + 140 - 10
    assert_score(
        state,
        0,
        total,
        going_out=100,
        natural_canastas=1000,
        threes=term,
        melded_cards=140,
        cards_in_hand=-10,
    )
    assert_score(state, 1, -45, melded_cards=-30, cards_in_hand=-15)


@pytest.mark.parametrize(
    ("threes1", "melds1", "term"),
    [
        ("3H 3D", ["KS KH KD"], -300),  # 0 canastas, 2 red
        ("3H 3D", [], -300),  # 0 canastas, no meld at all
        ("3H 3D 3S", ["KS KH KD"], -400),
        ("3H 3H 3D 3D 3S 3S 3C", ["KS KS KH KH KD KD KC"], 0),  # exactly 1 canasta
        ("3S", ["KS KS KH KH KD KD KC"], 0),
    ],
)
def test_ex51_threes_term_with_fewer_canastas(threes1: str, melds1: list[str], term: int) -> None:
    """EX-51: team with exactly 1 canasta: 0 whatever it holds; team with 0 canastas,
    2 red: −300."""
    state = finished(
        SIDE0_OUT, went_out=0, melds=[[CANASTA_8, CANASTA_Q], melds1], threes=["", threes1]
    )
    has_canasta = len(melds1) == 1 and len(melds1[0].split()) == 7
    melded = 70 if has_canasta else -sum(10 * len(m.split()) for m in melds1)
    bonus = 500 if has_canasta else 0
    assert_score(
        state,
        1,
        bonus + term + melded - 15,
        natural_canastas=bonus,
        threes=term,
        melded_cards=melded,
        cards_in_hand=-15,
    )
    assert_score(
        state, 0, 1230, going_out=100, natural_canastas=1000, melded_cards=140, cards_in_hand=-10
    )


def test_mac_threes_laid_out_and_replaced() -> None:
    """§3.5.2 (behind EX-51/EX-52): a drawn three, red or black, is laid out for the side at
    once and replaced from the stock, replacements included."""
    hands = ["KS 9D", "5S", "5H", "JD"]
    melds = [["KH KH KD"], ["8S 8H 8D"]]
    state = position(hands, melds=melds, pile="4D TC", stock="3C 3H KC 5C", phase="draw")
    after = assert_legal(state, "draw")
    assert threes_of(after, 0) == bag("3C 3H")
    assert hand(after, 0) == bag("KS 9D KC")
    assert tokens(after.to_dict()["stock"]) == ["5C"]
    assert after.phase == "play"
    assert not after.is_over


# -- EX-52: a three as the last stock card ---------------------------------------------


@pytest.mark.parametrize("three", ["3C", "3S", "3H", "3D"])
def test_ex52_three_as_last_stock_card(three: str) -> None:
    """EX-52: stock = `3C` only; the player draws it → it stays in hand; the hand ends at
    once; −5 for that card (any three, red or black, §3.5.2)."""
    hands = ["KS 9D", "5S", "5H", "JD"]
    melds = [["KH KH KD"], ["8S 8H 8D"]]
    state = position(hands, melds=melds, pile="4D TC", stock=three, phase="draw")
    after = assert_legal(state, "draw")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out is None
    assert hand(after, 0) == bag(f"KS 9D {three}")
    assert three not in threes_of(after, 0)
    # side 0: melds −30 (no canasta); hands −(10 + 10 + 5 + 5)
    assert_score(after, 0, -60, melded_cards=-30, cards_in_hand=-30)
    assert_score(after, 1, -45, melded_cards=-30, cards_in_hand=-15)


def test_ex52_replacement_three_as_last_stock_card() -> None:
    """EX-52 / §3.5.2: a three drawn as the last stock card while replacing another three
    cannot be replaced either: the first is laid out, the last stays in hand (−5) and the
    hand ends."""
    hands = ["KS 9D", "5S", "5H", "JD"]
    melds = [["KH KH KD"], ["8S 8H 8D"]]
    state = position(hands, melds=melds, pile="4D TC", stock="3C 3H", phase="draw")
    after = assert_legal(state, "draw")
    assert after.is_over
    assert threes_of(after, 0) == bag("3C")
    assert hand(after, 0) == bag("KS 9D 3H")
    # the laid-out 3C counts −100 (side 0 has no canasta); the held 3H −5
    assert_score(after, 0, -160, threes=-100, melded_cards=-30, cards_in_hand=-30)


def test_ex52_contrast_other_last_card_finishes_turn() -> None:
    """EX-52 contrast, §3.5.8 / D24 default `end_after_turn`: a natural last stock card is
    played normally; the hand ends after that player's discard."""
    hands = ["KS 9D", "5S", "5H", "JD"]
    melds = [["KH KH KD"], ["8S 8H 8D"]]
    state = position(hands, melds=melds, pile="4D TC", stock="KC", phase="draw")
    after = assert_legal(state, "draw")
    assert not after.is_over
    assert after.to_move == 0
    after = assert_legal(after, "discard:9")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out is None


# -- EX-53: aces and sevens held -------------------------------------------------------


@pytest.mark.parametrize(
    ("seat1", "seat3", "cards", "held"),
    [
        ("AS AH AD 7C 7D 7H 9S", "4D", -90, -3000),  # EX-53: −85 (−5 partner), −3000
        ("AS AH AD 7C 7D 7H 9S", "AC AC AH", -145, -4500),  # partner's 3 aces: −1500 more
        ("AS AH 7C 7D 9S", "AD AC 7H", -105, 0),  # per player: 2 + 2 aces, 2 + 1 sevens
        ("AS AH AD AC 9S", "4D", -95, -1500),  # four aces: still one penalty
    ],
)
def test_ex53_aces_and_sevens_in_hand(seat1: str, seat3: str, cards: int, held: int) -> None:
    """EX-53: a player holding `AS AH AD 7C 7D 7H 9S` at hand end: cards −85, aces −1500,
    sevens −1500 → −3085. If the partner also holds 3 aces: another −1500. The penalty is
    per player (≥3 of the rank in one hand)."""
    hands = ["", seat1, "4S 6H", seat3]
    state = finished(hands, went_out=0, melds=[[CANASTA_8, CANASTA_Q], ["KS KH KD"]])
    assert_score(
        state,
        1,
        -30 + cards + held,
        melded_cards=-30,
        cards_in_hand=cards,
        aces_and_sevens_held=held,
    )


def test_ex53_played_to_the_end() -> None:
    """EX-53 reached by moves: side 0 completes its second canasta and goes out while seat 1
    still holds `AS AH AD 7C 7D 7H 9S` → side 1: −30 − 90 − 3000."""
    hands = ["QC 5C", "AS AH AD 7C 7D 7H 9S", "4S 6H", "4D"]
    melds = [[CANASTA_8, "QS QS QH QH QD QD"], ["KS KH KD"]]
    state = position(hands, melds=melds, pile="4H TC", stock="TH 4C")
    after = play(state, "add:Q+Q discard:5")
    assert after.is_over
    assert_score(after, 1, -3120, melded_cards=-30, cards_in_hand=-90, aces_and_sevens_held=-3000)
    assert_score(
        after, 0, 1230, going_out=100, natural_canastas=1000, melded_cards=140, cards_in_hand=-10
    )


# -- EX-54: wild canastas and unfinished wild melds (D25) ------------------------------


@pytest.mark.parametrize(
    ("wild", "bonus", "points"),
    [
        ("2S 2S 2H 2H 2D 2D 2C", 3000, 140),  # seven 2s
        ("JK JK JK JK 2S 2H 2D", 2500, 260),  # four jokers + three 2s
        ("JK JK 2S 2S 2H 2H 2D", 2000, 200),  # two jokers + five 2s
    ],
)
@pytest.mark.parametrize("four_jokers", [2500, 2000])
def test_ex54_wild_canastas(wild: str, bonus: int, points: int, four_jokers: int) -> None:
    """EX-54: seven 2s: bonus 3000 (+140 card points). Four jokers + three 2s: 2500 (+260).
    Two jokers + five 2s: 2000 (+200). D25 changes only the penalty of an unfinished meld."""
    flags = {} if four_jokers == 2500 else {"mac_wild_meld_penalty_four_jokers": 2000}
    state = finished(SIDE0_OUT, went_out=0, melds=[[CANASTA_8, wild], ["KS KH KD"]], flags=flags)
    assert_score(
        state,
        0,
        100 + 500 + bonus + 70 + points - 10,
        going_out=100,
        natural_canastas=500,
        wild_canastas=bonus,
        melded_cards=70 + points,
        cards_in_hand=-10,
    )
    assert_score(state, 1, -45, melded_cards=-30, cards_in_hand=-15)


@pytest.mark.parametrize(
    ("wild", "four_jokers", "penalty"),
    [
        ("2C 2D JK", 2500, -2000),
        ("2C 2D JK", 2000, -2000),
        ("JK JK JK JK", 2500, -2500),  # default (S3)
        ("JK JK JK JK", 2000, -2000),  # D25: mac_wild_meld_penalty_four_jokers=2000
        ("JK JK JK 2C 2D 2H", 2500, -2000),  # three jokers only: ordinary penalty
    ],
)
def test_ex54_unfinished_wild_meld(wild: str, four_jokers: int, penalty: int) -> None:
    """EX-54: unfinished `2C 2D JK` at hand end: −2000. Unfinished `JK JK JK JK`: −2500
    (default) or −2000 (D25)."""
    flags = {} if four_jokers == 2500 else {"mac_wild_meld_penalty_four_jokers": 2000}
    state = finished(
        SIDE0_OUT,
        went_out=0,
        melds=[[CANASTA_8, CANASTA_Q], [wild, "KS KH KD"]],
        flags=flags,
    )
    melded = -(sum(50 if c == "JK" else 20 for c in wild.split()) + 30)
    assert_score(
        state,
        1,
        penalty + melded - 15,
        unfinished_melds=penalty,
        melded_cards=melded,
        cards_in_hand=-15,
    )


# -- special melds: pure aces and sevens (EX-40, EX-41, EX-45, EX-55) --------------------


@pytest.mark.parametrize(
    ("second", "lines"),
    [
        # EX-41: a pure ace canasta scores 2500 (not the 500 of a natural canasta)
        ("AS AS AH AH AD AD AC", {"natural_aces": 2500, "melded_cards": 70 + 140}),
        # EX-40 / EX-45: an ace meld with a wild (from the opening) is ordinary: mixed 300
        ("AS AS AH AH AD 2C JK", {"mixed_canastas": 300, "melded_cards": 70 + 170}),
        # EX-55: a natural canasta of sevens scores 2500
        ("7S 7S 7H 7H 7D 7D 7C", {"natural_sevens": 2500, "melded_cards": 70 + 35}),
    ],
)
def test_ex41_ex45_ex55_ace_and_seven_canastas(second: str, lines: dict[str, int]) -> None:
    """EX-41: the pure ace meld scores 2500 if completed. EX-40/EX-45: an ace meld with a
    wild is an ordinary meld (mixed canasta 300). EX-55: natural sevens 2500."""
    state = finished(SIDE0_OUT, went_out=0, melds=[[CANASTA_8, second], ["KS KH KD"]])
    total = 100 + 500 + sum(lines.values()) - 10
    assert_score(state, 0, total, going_out=100, natural_canastas=500, cards_in_hand=-10, **lines)


@pytest.mark.parametrize(
    ("meld", "penalty", "melded"),
    [
        ("AS AD AH", -2500, -60),  # EX-41: pure ace meld not completed: −2500
        ("AS AH JK", 0, -90),  # EX-40 / EX-45: ordinary ace meld: no penalty
        ("7S 7H 7D 7C", -2500, -20),  # §3.5.9: unfinished pure sevens: −2500
    ],
)
def test_ex41_ex45_unfinished_ace_and_seven_melds(meld: str, penalty: int, melded: int) -> None:
    """EX-41: the pure ace meld costs −2500 if not completed. EX-40/EX-45: the ace meld with
    a wild is ordinary (no penalty). §3.5.9: unfinished pure sevens −2500."""
    state = finished(SIDE0_OUT, went_out=0, melds=[[CANASTA_8, CANASTA_Q], [meld, "KS KH KD"]])
    assert_score(
        state,
        1,
        penalty + melded - 30 - 15,
        unfinished_melds=penalty,
        melded_cards=melded - 30,
        cards_in_hand=-15,
    )


# -- EX-55: a full MAC hand ------------------------------------------------------------

EX55_HANDS = ["", "AS AH AD 9S", "QS JD", "JK 4C"]
EX55_MELDS_A = ["7S 7S 7H 7H 7D 7D 7C", "KS KS KH KH KD 2C JK"]
EX55_MELDS_B = ["AS AH AD AC", "6S 6S 6H 6H 6D 2D"]
EX55_THREES = ["3H 3D 3S", "3H 3D 3S 3C 3C"]


def assert_ex55(state: canasta.GameState) -> None:
    assert_score(
        state,
        0,
        3465,
        going_out=100,
        natural_sevens=2500,
        mixed_canastas=300,
        threes=400,
        melded_cards=185,
        cards_in_hand=-20,
    )
    assert_score(
        state,
        1,
        -5050,
        unfinished_melds=-2500,
        threes=-800,
        melded_cards=-125,
        cards_in_hand=-125,
        aces_and_sevens_held=-1500,
    )


def test_ex55_full_mac_hand() -> None:
    """EX-55: team A (went out) → 3465 (base 100 + 2500 + 300 + 400 = 3300; count +185 − 20);
    team B → −2500 − 800 − 125 − 70 − 1500 − 55 = −5050."""
    state = finished(
        EX55_HANDS,
        went_out=0,
        melds=[[*EX55_MELDS_A, "8S 8H 8D"], EX55_MELDS_B],
        threes=EX55_THREES,
    )
    outcome = state.outcome()
    assert outcome is not None
    assert tuple(outcome.scores) == (3465, -5050)
    assert outcome.went_out == 0
    assert outcome.concealed is False
    assert_ex55(state)


def test_ex55_played_to_the_end() -> None:
    """EX-55 reached by moves: seat 0 draws `5C`, melds `8 8 8` and goes out discarding `5C`
    (team A has its two canastas) → 3465 and −5050."""
    hands = ["8S 8H 8D", *EX55_HANDS[1:]]
    state = position(
        hands,
        melds=[EX55_MELDS_A, EX55_MELDS_B],
        threes=EX55_THREES,
        pile="4H 9D",
        stock="5C KC",
        phase="draw",
    )
    after = play(state, "draw meld:888 discard:5")
    assert after.is_over
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert tuple(outcome.scores) == (3465, -5050)
    assert_ex55(after)


def test_modern_american_has_no_concealed_going_out() -> None:
    # Spec §3.5.7: no concealed going out (and no bonus for one): a hand melded out in one
    # turn is not reported concealed.
    state = canasta.GameState.from_dict(
        {
            "variant": "modern-american",
            "phase": "play",
            "hands": ["KH KH KS KS KD KD KC 5H 5D 5S 9C", "4C 5C 6C", "4D 6D 8D", "4H 6H 8H"],
            "pile": "8S",
            "stock": "TS TH TD",
            "melds": [["QH QH QS QS QD QD QC"], []],
            "melded_seats": [2],
        }
    )
    outcome = state.play("meld:KKKKKKK meld:555 discard:9").outcome()
    assert outcome is not None and outcome.went_out == 0
    assert outcome.concealed is False


@pytest.mark.parametrize(("canastas", "sign"), [(2, 1), (0, -1)])
def test_ex26b_threes_never_laid_out_score_as_threes(canastas: int, sign: int) -> None:
    """EX-26b in Modern American (D3 applies to all threes): with first_turn, the threes
    of a player who never had a turn are laid out when the hand ends and scored in the
    threes term, with no penalty in hand. North draws the last card and discards: the
    hand ends (§3.5.8) before West's first turn; West's 3D and 3S join East-West's 3H."""
    melds1 = [CANASTA_8, CANASTA_Q][:canastas]
    state = position(
        ["KS KH 5C", "6S 6H", "9S 9H", "3D 3S 4S 6D"],
        melds=[["JS JH JD"], melds1],
        threes=["", "3H"],
        stock="TC",
        phase="draw",
        flags={"red_three_declare": "first_turn"},
    )
    outcome = play(state, "draw discard:5C").outcome()
    assert outcome is not None
    term = 300 + 100  # two red threes (3H, 3D), one black (3S)
    lines = outcome.lines(1)
    assert lines["threes"] == sign * term
    assert lines["cards in hand"] == -(5 + 5 + 5 + 5)  # 6S 6H, 4S 6D: no three counted
