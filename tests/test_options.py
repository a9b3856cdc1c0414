"""Option flags of spec §4/§5 that no worked example exercises: each flag's default and its
alternative, played through positions (D1, D13, D14, D24, D28)."""

from __future__ import annotations

import canasta
import mac_helpers
from canasta import IllegalReason as R
from helpers import assert_illegal, assert_legal, play, position, state_of


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


# -- D14: taking an unfrozen pile with one natural and one wild ------------------------


def d14_state(allowed: bool) -> canasta.GameState:
    return state_of(
        position(
            variant=classic(unfrozen_pickup_with_wild=allowed),
            hands={0: "9H 2S 5D 6D 8C"},
            pile="4C 9C",
            melds=[["KS KH KD"], []],
        )
    )


def test_d14_natural_and_wild_pickup_by_default() -> None:
    """D14 default: an opened side may take an unfrozen pile with 9 + 2 from hand (T3b)."""
    after = assert_legal(d14_state(True), "take:92")
    assert after.phase == "play"


def test_d14_natural_and_wild_pickup_forbidden() -> None:
    """D14 false: only a natural pair (or a lay-off) takes the pile."""
    assert_illegal(d14_state(False), "take:92", R.NATURAL_PAIR_NEEDED)


def test_d14_never_two_wilds() -> None:
    """§2.7 T3: two wilds and the top card never take the pile."""
    state = state_of(position(hands={0: "2H 2S 5D 6D 8C"}, pile="4C 9C", melds=[["KS KH KD"], []]))
    assert_illegal(state, "take:22")


# -- D13: concealed going out after taking the pile -------------------------------------


def d13_state(allowed: bool) -> canasta.GameState:
    # South (seat 2) has not melded; partner North opened with 8 8 8.
    return state_of(
        position(
            variant=classic(concealed_allowed_after_pickup=allowed),
            hands={2: "QS QS QH QH QD QC 6H 6D 6S 9S"},
            pile="QD",
            melds=[["8S 8H 8D"], []],
            to_move=2,
        )
    )


def test_d13_concealed_after_pickup_by_default() -> None:
    """D13 default: taking the pile does not spoil a concealed going out (+200)."""
    state = play(d13_state(True), "take:QQQQQQ", "meld:666", "discard:9S")
    assert state.is_over and state.went_out == 2
    outcome = state.outcome()
    assert outcome is not None and outcome.concealed
    assert outcome.lines(0)["concealed"] == 100


def test_d13_no_concealed_after_pickup() -> None:
    """D13 false: the same going out is not concealed (going-out bonus 100 only)."""
    state = play(d13_state(False), "take:QQQQQQ", "meld:666", "discard:9S")
    assert state.is_over and state.went_out == 2
    outcome = state.outcome()
    assert outcome is not None and not outcome.concealed
    assert "concealed" not in outcome.lines(0)


# -- D1: the all-wild canasta (classic house rule) -------------------------------------


def d1_state(allowed: bool, wilds: str) -> canasta.GameState:
    return state_of(
        position(
            variant=classic(classic_wild_canasta=allowed),
            hands={0: wilds + " 5D 6D 8C"},
            pile="4C",
            melds=[["KS KH KD"], []],
            phase="play",
        )
    )


def test_d1_no_wild_meld_by_default() -> None:
    """D1 default: a meld of wild cards only is never valid (spec §2.4)."""
    assert_illegal(d1_state(False, "2S 2S 2H 2H 2D 2D *"), "meld:222222*")


def test_d1_wild_canasta_as_seven_at_once() -> None:
    """D1 true: seven wilds in one action make a wild canasta; fewer are refused; more
    wilds may then be laid off; it scores the wild-canasta bonus."""
    state = d1_state(True, "2S 2S 2H 2H 2D 2D * *")
    assert_illegal(state, "meld:222222", R.INVALID_MELD)
    after = assert_legal(state, "meld:222222*")
    after = assert_legal(after, "add:*+*")
    assert any(m.is_wild_meld and m.is_canasta for m in after.melds[0])


def test_d1_wild_canasta_bonus_is_scored() -> None:
    """D1: the wild canasta's bonus replaces 300/500 (classic_wild_canasta_bonus)."""
    for bonus in (1000, 750):
        d = position(
            variant=classic(classic_wild_canasta=True, classic_wild_canasta_bonus=bonus),
            hands={},
            melds=[["2S 2S 2H 2H 2D 2D *"], []],
            phase="over",
            to_move=None,
            went_out=None,
        )
        d["hands"] = ["", d["hands"][1], "", d["hands"][3]]
        outcome = state_of(d).outcome()
        assert outcome is not None
        assert outcome.lines(0)["wild canastas"] == bonus
        assert outcome.lines(0)["melded cards"] == 6 * 20 + 50


# -- D24: Modern American, stock exhausted -------------------------------------------------


def d24_state(mode: str) -> canasta.GameState:
    return mac_helpers.position(
        ["KS KH QS QH", "9S 9H 4C 5C", "JD JC 4D 5D", "TD TC 6D 8D"],
        flags={"mac_stock_exhausted": mode},
        melds=(("KD KC KD",), ("9D 9C 9D",)),
        pile="6S 9C",
        stock="8S",
        phase="draw",
        to_move=0,
    )


def test_d24_mac_ends_after_the_turn_by_default() -> None:
    """D24 default (end_after_turn): the player who draws the last card ends the deal with
    the discard."""
    state = play_mac(d24_state("end_after_turn"), "draw", "discard:QS")
    assert state.is_over and state.went_out is None


def test_d24_mac_continue_with_pile() -> None:
    """D24 continue_with_pile: the next player may still take the pile; declining ends."""
    state = play_mac(d24_state("continue_with_pile"), "draw", "discard:QS")
    assert not state.is_over and state.to_move == 1
    assert state.stock == ()
    assert "draw" not in [str(m) for m in state.legal_moves()]
    assert state.is_legal("end")
    assert state.apply("end").is_over


def play_mac(state: canasta.GameState, *moves: str) -> canasta.GameState:
    for move in moves:
        assert state.check(move) is None, (move, state.check(move))
        state = state.apply(move)
    return state


# -- D28: Modern American melds beyond seven when going out ---------------------------


D28_MELDS = (("KS KH KD KC KD 2C *", "QS QH QD QC QS QH QD"), ())


def d28_state(allowed: bool, hand: str) -> canasta.GameState:
    return mac_helpers.position(
        [hand, "4D", "5D", "6D"],
        flags={"mac_allow_8plus_going_out": allowed},
        melds=D28_MELDS,
        pile="TH",
        stock="4C 8D",
    )


def test_d28_no_eighth_card_by_default() -> None:
    """D28 default: a meld never exceeds seven cards (spec §3.5.3)."""
    state = d28_state(False, "KS KH 5C")
    assert_illegal(state, "add:K+K", R.NO_SUCH_MELD)


def test_d28_eighth_card_when_going_out() -> None:
    """D28 true: a complete canasta may grow in the turn the player goes out, and then the
    player must go out."""
    state = d28_state(True, "KS KH 5C")
    after = assert_legal(state, "add:K+KK")
    assert after.turn.must_go_out
    assert [str(m) for m in after.legal_moves()] == ["discard:5"]
    end = after.apply("discard:5C")
    assert end.is_over and end.went_out == 0


def test_d28_eighth_card_only_if_going_out_follows() -> None:
    """D28 true: growing past seven is refused when the player could not go out after it."""
    state = d28_state(True, "KS 5C 6C 9H")
    assert_illegal(state, "add:K+K", R.MUST_GO_OUT)


def test_d28_a_natural_canasta_completed_while_going_out_closes_its_rank() -> None:
    """D28 true, with the closed rank of spec §3.5.3: after growing the mixed K canasta to
    eight, North must go out with JD JC 9S 9H 9D TS. Both jacks go onto the six jacks in
    one lay-off (a natural canasta of eight); one jack alone would complete the canasta,
    close the rank, and leave JC and TS with one discard: a dead end, refused. (A soak of
    random options found the generator listing it: the look-ahead took the ranks closed
    before the lay-off.)"""
    state = mac_helpers.position(
        ["KC JD JC 9S 9H 9D TS", "5S 6S", "5H 6H", "5D 6D"],
        melds=[["KS KS KH KH KD KD 2H", "QS QS QH QH QD QD QC", "JS JS JH JH JD JC"], []],
        flags={"mac_allow_8plus_going_out": True},
    )
    after = play_mac(state, "add:K+K")
    assert after.turn.must_go_out
    assert [str(m) for m in after.legal_moves()] == ["meld:999", "add:J+JJ"]
    assert_illegal(after, "add:J+J", R.MUST_GO_OUT)
    end = play_mac(after, "add:J+JJ", "meld:999", "discard:TS")
    assert end.is_over and end.went_out == 0
