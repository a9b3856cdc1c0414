"""Modern American's covered last discard (``mac_covered_last_discard``, spec §3.5.11.5
CD1–CD4, D38): the worked example EX-69 of the appendix
(``shared/rules/modern-american-options.md``), and what the covered card leaves visible
to whom: observations, the position key ``pile_covered``, records, sampling and drawings.

Seats 0 and 2 (North, South) are side 0; seats 1 and 3 (East, West) side 1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import canasta
from canasta import sample_state
from canasta.observation import CoveredDiscard
from mac_helpers import position, position_dict

CD = {"mac_covered_last_discard": True}
NORTH = 0
#: EX-69: side 0's two canastas and its meld of four queens.
CANASTAS = ["7S 7S 7H 7H 7D 7D 7C", "KS KS KH KH KD KD KC"]
MELDS = [[*CANASTAS, "QD QC QS QH"], []]
OTHERS = ["AS TC 4H", "AH TH 4S", "AD TD 5D"]


def north(last: str = "*", *, flags: dict[str, Any] | None = None) -> canasta.GameState:
    """EX-69: North after the draw, holding QS QH and ``last``, the card to go out with."""
    return position([f"QS QH {last}", *OTHERS], melds=MELDS, pile="4C 9D", flags=flags)


def out(last: str = "*", flags: dict[str, Any] | None = None) -> canasta.GameState:
    """EX-69 played: ``add:Q+QQ``, then North goes out discarding ``last``."""
    return north(last, flags=flags).play(f"add:Q+QQ discard:{last}")


def test_ex_69_covered_last_discard() -> None:
    """EX-69 (D38; CD1–CD4): North goes out discarding the joker. By default it lies face
    up for every seat; covered, East, South and West see a hidden top card of a pile one
    card larger, while North, `to_dict()` and the record keep the joker; the scores are
    the same."""
    face_up = out()
    covered = out(flags=CD)
    assert face_up.is_over and covered.is_over and covered.went_out == NORTH
    outcome = face_up.outcome()
    assert outcome is not None and outcome.lines(0)["going out"] == 100
    for seat in range(4):
        assert face_up.observe(seat).pile_top == canasta.Card.parse("*")
        assert not face_up.observe(seat).pile_covered
    joker = canasta.Card.parse("*")
    for seat in (1, 2, 3):
        seen = covered.observe(seat)
        assert seen.pile_covered and seen.pile_top is None
        assert seen.pile_size == 3 and seen.pile_seen == canasta.parse_cards("4C 9D")
        assert seen.to_dict()["pile_top"] == "hidden"
        assert seen.to_dict()["pile_covered"] is True
    mine = covered.observe(NORTH)
    assert mine.pile_covered and mine.pile_top == joker and mine.pile_size == 3
    assert mine.discarded[NORTH] == (joker,)
    assert covered.to_dict()["pile"].split()[-1] == "*"
    record = canasta.records.dumps(covered, start=north(flags=CD))
    assert "discard:*" in record
    assert canasta.records.loads(record) == covered
    # CD3: the scores are the same.
    assert covered.outcome() == face_up.outcome()


def test_covering_changes_no_legal_move_and_no_score() -> None:
    """CD2, CD3: a seeded deal plays the same with the discard covered or not: the same
    legal moves at every ply, the same scores at the end."""
    for seed in range(3):
        rng = random.Random(seed)
        plain = canasta.new_game("modern-american", seed=seed)
        covered = canasta.new_game(canasta.variants.get("modern-american", **CD), seed=seed)
        while not plain.is_over:
            moves = plain.legal_moves()
            assert covered.legal_moves() == moves
            move = rng.choice(moves)
            plain, covered = plain.apply(move), covered.apply(move)
        assert covered.is_over
        assert covered.outcome() == plain.outcome()
    assert out(flags=CD).outcome() == out().outcome()


@pytest.mark.parametrize("seat", (1, 2, 3))
def test_the_other_seats_cannot_tell_the_covered_card(seat: int) -> None:
    """Going out with 8C or with a joker looks the same to every other seat: the whole
    observation, its history and its JSON data included; North sees the difference."""
    eight, joker = out("8C", CD), out("*", CD)
    assert eight.observe(seat) == joker.observe(seat)
    assert eight.observe(seat).to_dict() == joker.observe(seat).to_dict()
    history = joker.observe(seat).history
    assert [str(e.move) for e in history] == ["add:Q+QQ", "covered"]
    assert isinstance(history[-1].move, CoveredDiscard) and history[-1].cards == ()
    assert history[-1].seat == NORTH
    assert eight.observe(NORTH) != joker.observe(NORTH)
    assert [str(e.move) for e in joker.observe(NORTH).history] == ["add:Q+QQ", "discard:*"]


def test_covered_discard_is_no_move_to_play() -> None:
    assert repr(CoveredDiscard()) == "CoveredDiscard()"
    with pytest.raises(canasta.NotationError):
        canasta.parse_move(str(CoveredDiscard()))


def test_position_key_pile_covered_round_trips() -> None:
    covered = out(flags=CD)
    data = covered.to_dict()
    assert data["pile_covered"] is True
    assert canasta.GameState.from_dict(data) == covered
    # Omitted, the rules supply it.
    del data["pile_covered"]
    reread = canasta.GameState.from_dict(data)
    assert reread == covered and reread.observe(1).pile_top is None
    assert "pile_covered" not in out().to_dict()


def _over(flags: dict[str, Any] | None = CD, **keys: Any) -> dict[str, Any]:
    """EX-69 after North went out with the joker, as a position."""
    return position_dict(
        ["", *OTHERS],
        melds=[[*CANASTAS, "QD QC QS QH QS QH"], []],
        to_move=None,
        phase="over",
        flags=flags,
        **{"pile": "4C 9D *", "went_out": NORTH, "concealed": False, **keys},
    )


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"pile_covered": "yes"}, "pile_covered must be true or false"),
        ({"pile_covered": False}, "pile_covered must be true"),
        ({"pile": ""}, "the discard that went out must be on the pile"),
        ({"discarded": ["8C", "", "", ""]}, "discarded[0] must end with the discard"),
    ],
)
def test_from_dict_checks_a_covered_end(keys: dict[str, Any], message: str) -> None:
    assert canasta.GameState.from_dict(_over(discarded=["8C *", "", "", ""])).is_over
    with pytest.raises(canasta.PositionError, match=message.replace("[", r"\[")):
        canasta.GameState.from_dict(_over(**keys))


def test_pile_covered_only_where_the_rules_cover() -> None:
    with pytest.raises(canasta.PositionError, match="only allowed where mac_covered_last"):
        canasta.GameState.from_dict(_over(None, pile_covered=True))
    playing = position_dict(
        ["QS QH *", *OTHERS], melds=MELDS, pile="4C 9D", flags=CD, pile_covered=True
    )
    with pytest.raises(canasta.PositionError, match="phase must be over with went_out"):
        canasta.GameState.from_dict(playing)
    # A special hand ends the deal with no discard: nothing lies face down.
    special = position_dict(
        ["5S 6S 7S", "5H 6H 7H", "4S 4H 6C 6D 8S 8H 9C 9D JS JH QC QD KS KH", "5D 6D 7D"],
        to_move=2,
        stock="TC 4C",
        flags={**CD, "mac_special_hands": True},
        pile="4C",
    )
    shown = canasta.GameState.from_dict(special).apply("special")
    assert shown.is_over and "pile_covered" not in shown.to_dict()
    assert shown.observe(1).pile_top == canasta.Card.parse("4C")


def test_sample_state_deals_the_covered_card() -> None:
    """A sampled world of East's observation puts some card but a three face down, with
    a history and memory that agree with it."""
    covered = out(flags=CD)
    seen = covered.observe(1)
    tops = set()
    for seed in range(30):
        world = sample_state(seen, random.Random(seed))
        assert world.observe(1) == seen
        top = world.pile_top
        assert top is not None and top.rank != "3"
        assert world.history()[-1].move == canasta.Discard(top)
        assert world.observe(NORTH).discarded[NORTH] == (top,)
        tops.add(top)
    assert len(tops) > 1
    # North's own observation keeps the card.
    assert sample_state(covered.observe(NORTH), random.Random(0)).pile == covered.pile


def test_the_drawing_shows_the_top_face_down() -> None:
    covered = out(flags=CD)
    assert "top ? (top face down" in str(covered.observe(1))
    assert "top * (top face down" in str(covered.observe(NORTH))


#: A deal of Modern American with the covered last discard, set-aside talons and the turn
#: card that ends with the turn card 9C face up on the stock and the last discard covered
#: (found by a soak of this config).
COVERED_ON_TURN_CARD = (
    "draw discard:4 expose:3 draw meld:QQ* add:Q+Q2 meld:888 discard:7 draw expose:3 "
    "meld:992* meld:KKK meld:662 discard:5 take:555 discard:9 take:99 discard:8 take:88 "
    "add:5+552 discard:9 draw discard:A draw discard:J take:JJ discard:9 draw discard:A draw "
    "discard:T take:TT discard:6 draw meld:AAA discard:4 draw discard:7 draw add:K+K "
    "discard:8 draw add:Q+Q discard:6 draw discard:T draw discard:A draw add:J+J discard:K "
    "draw meld:444 discard:9 draw meld:QQQ discard:T draw add:T+T discard:6 draw discard:4 "
    "draw discard:Q draw discard:J draw discard:6 draw add:6+6 discard:4 draw meld:AAA "
    "discard:5 draw discard:7 draw discard:7 draw discard:T draw discard:7 draw discard:5 "
    "draw discard:J draw discard:T draw discard:A draw ask yes add:K+K2 add:K+* discard:8"
)


def test_a_covered_discard_is_never_sampled_as_the_face_up_turn_card() -> None:
    """The face-up turn card on top of the stock (spec §3.5.11.2 TC2) is placed before the
    covered discard (§3.5.11.5) is guessed, so the guess never takes the card the stock
    must show."""
    variant = canasta.variants.get("modern-american-club", **CD, mac_talon_source="set_aside")
    state = canasta.new_game(variant, seed=500).play(COVERED_ON_TURN_CARD)
    assert state.is_over and state.went_out == NORTH
    for seat in (1, 2, 3):
        seen = state.observe(seat)
        assert seen.pile_covered and seen.turn_card == canasta.Card("9", "C")
        assert not seen.turn_card_drawn
        for seed in range(60):
            assert sample_state(seen, random.Random(seed)).observe(seat) == seen
