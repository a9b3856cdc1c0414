"""Messages say what is wrong: the reason stays for programs, the words say why for people."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import IllegalReason, records
from canasta.cli import main

#: Seat 0 to play, side 0 opened (a canasta of queens): kings, wild cards, a 5 and a 6.
OPENED: dict[str, Any] = {
    "variant": "classic",
    "hands": ["KH KD 2H 2C 2S 2D 5S 6S", "4C", "4D", "4H"],
    "phase": "play",
    "stock": "9S 9H",
    "melds": [["QS QS QH QH QD QD QC 2H"], []],
}


def refusal(state: canasta.GameState, move: str) -> canasta.IllegalMoveError:
    with pytest.raises(canasta.IllegalMoveError) as info:
        state.apply(move)
    assert state.check(move) is info.value.reason  # the reason a program tests is kept
    return info.value


FEW = "too few cards: a meld needs at least 3, "
FEW_NATURALS = "too few natural cards: a meld needs at least 2, "
WILDS = "too many wild cards: a meld takes at most 3, "


@pytest.mark.parametrize(
    ("variant", "move", "reason", "why"),
    [
        ({}, "meld:KK", "INVALID_MELD", FEW + "this meld would have 2"),
        ({}, "meld:K222", "INVALID_MELD", FEW_NATURALS + "this meld would have 1"),
        ({}, "meld:KK2222", "TOO_MANY_WILDS", WILDS + "this meld would have 4"),
        ({}, "add:Q+222", "TOO_MANY_WILDS", WILDS + "the meld would then have 4"),
        (
            {},
            "meld:22",
            "INVALID_MELD",
            "wild cards alone do not make a meld: a meld needs at least 2 natural cards",
        ),
        (
            {"meld_wild_ratio": "n_gt_w"},
            "meld:KK22",
            "TOO_MANY_WILDS",
            "too many wild cards: a meld needs more natural cards than wild cards, this meld "
            "would have 2 natural and 2 wild",
        ),
    ],
)
def test_an_invalid_meld_says_why(
    variant: dict[str, Any], move: str, reason: str, why: str
) -> None:
    config = {"variant": "classic", **variant}
    state = canasta.GameState.from_dict({**OPENED, "variant": config})
    error = refusal(state, move)
    assert error.reason is IllegalReason[reason]
    assert error.why == why
    assert str(error) == f"illegal move {move!r}: {why}"
    assert "would not be valid" not in str(error)


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("discard:2", "a wild card may be discarded only to go out"),
        ("discard:7", "on an empty pile an ace or a seven may be discarded only"),
        ("discard:A", "on an empty pile an ace or a seven may be discarded only"),
    ],
)
def test_a_modern_american_discard_refusal_names_its_rule(move: str, rule: str) -> None:
    state = canasta.GameState.from_dict(
        {
            "variant": "modern-american",
            "hands": ["KH KD 2C 7S AH 5D 5D", "4C", "4D", "4H"],
            "phase": "play",
            "stock": "9S 9H",
            "pile": "",
            "melds": [["QS QS QH QH QD QD QC"], []],
        }
    )
    error = refusal(state, move)
    assert error.reason is IllegalReason.DISCARD_NOT_ALLOWED
    assert error.why.startswith(rule)
    assert state.is_legal("discard:K")


@pytest.mark.parametrize(
    ("text", "blamed"),
    [
        ("KX", "'X' at position 1 is not a suit (S, H, D or C)"),
        ("KHX", "'X' at position 2 is not a rank"),
        ("KH  Z", "'Z' at position 4 is not a rank"),
    ],
)
def test_card_text_blames_the_character_that_is_wrong(text: str, blamed: str) -> None:
    with pytest.raises(canasta.NotationError) as info:
        canasta.cards.parse_cards(text)
    assert blamed in str(info.value)
    assert "without a suit" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("meld:QQ Q", "a move holds no spaces"),
        ("meld:", "no cards after the colon"),
        ("draw:K", "draw takes no cards"),
        ("drow", "not a move; moves are draw, take, take:CARDS, meld:CARDS"),
        ("mld:KKK", "unknown kind 'mld'; moves are draw, take"),
    ],
)
def test_move_text_says_what_is_wrong(text: str, said: str) -> None:
    with pytest.raises(canasta.NotationError) as info:
        canasta.parse_move(text)
    assert str(info.value).startswith(f"bad move {text!r}: {said}")


def test_a_card_without_a_suit_is_still_said_so() -> None:
    with pytest.raises(canasta.NotationError, match="card without a suit in 'K'"):
        canasta.Card.parse("K")


def test_a_move_after_the_deal_ends_says_the_deal_is_over() -> None:
    final = canasta.bots.play_deal(
        canasta.new_game("classic-2p", seed=2), [canasta.bots.GreedyBot()] * 2
    )
    for move in ("draw", "discard:K", "yes"):
        error = refusal(final, move)
        assert error.reason is IllegalReason.GAME_OVER and error.why == "the deal is over"
    # A server naming the seat hears the same: no seat is to move once the deal is over.
    for seat in (0, 1):
        assert final.check("draw", seat=seat) is IllegalReason.GAME_OVER
        with pytest.raises(canasta.IllegalMoveError, match="the deal is over"):
            final.apply("draw", seat=seat)
        with pytest.raises(canasta.ReplayError) as info:
            final.play("draw", seat=seat)
        assert info.value.reason is IllegalReason.GAME_OVER


def test_validate_quotes_the_move_as_written(tmp_path: Path, capsys: Any) -> None:
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "3"]\n\n1. S0: draw Meld:kk\n'
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(records.RecordReplayError) as info:
        records.loads(text)
    assert info.value.text == "Meld:kk" and "'Meld:kk'" in str(info.value)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert out == (
        f"{path}: ply 1 (line 5, column 13): 'Meld:kk' is illegal: the cards are not in the hand\n"
    )


def test_validate_says_why_a_meld_is_invalid(tmp_path: Path, capsys: Any) -> None:
    # Seed 3: seat 0 holds QH QD after drawing.
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "3"]\n\n1. S0: draw meld:QQ\n'
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.endswith(
        "'meld:QQ' is illegal: too few cards: a meld needs at least 3, this meld would have 2\n"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"scores": [0, True]}, "scores[1] must be an integer, got true"),
        ({"scores": [0, None]}, "scores[1] must be an integer, got null"),
        ({"asked": [0, 0, "1", 0]}, 'asked[2] must be an integer, got "1"'),
        ({"melded_seats": [1, False]}, "melded_seats[1] must be an integer, got false"),
        ({"concealed": "yes"}, 'concealed must be true or false, got "yes"'),
        ({"melds": [["QS QS QH"], {"a": 1}]}, 'melds[1] must be a list of melds, got {"a": 1}'),
    ],
)
def test_position_errors_name_the_index_and_speak_json(change: dict[str, Any], said: str) -> None:
    data = {"variant": "classic", "hands": ["KH", "4C", "4D", "4H"], "stock": "9S", **change}
    with pytest.raises(canasta.PositionError) as info:
        canasta.GameState.from_dict(data)
    assert said in str(info.value)
    assert "True" not in str(info.value) and "None" not in str(info.value)
