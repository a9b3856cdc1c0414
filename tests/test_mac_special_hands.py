"""Modern American special hands and the held three (club features, spec §3.5.11.3 and
§3.5.11.4), and play with the pile after the stock (§3.5.11.6): the worked examples
EX-63 … EX-68, EX-70 and EX-71 of the appendix (``shared/rules/modern-american-options.md``),
one test each, plus the flags D34 … D37.

Seats 0 and 2 (North, South) are side 0; seats 1 and 3 (East, West) side 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import canasta
from canasta import IllegalReason as R
from mac_helpers import assert_illegal, assert_legal, assert_score, hand, position, threes_of

SH = {"mac_special_hands": True}
SOUTH = 2

#: EX-65: the first hand (seven natural pairs), after the draw.
PAIRS = "4S 4H 6C 6D 8S 8H 9C 9D JS JH QC QD KS KH"


def south(hand_: str, *, flags: dict[str, Any] | None = None, **keys: Any) -> canasta.GameState:
    """South (seat 2) to play with ``hand_`` after the draw; the others hold a little."""
    return position(
        ["5S 6S 7S", "5H 6H 7H", hand_, "5D 6D 7D"],
        to_move=SOUTH,
        flags={**SH, **(flags or {})},
        **{"stock": "TC 4C", **keys},
    )


def deck_for(hands: list[str], stock_top: str = "") -> str:
    """Two decks, top card first, that deal ``hands`` (seat 0 first, one card at a time,
    each hand in dealing order) and then ``stock_top``; the other threes lie at the bottom."""
    rest = [f"{r}{s}" for r in "A2456789TJQK" for s in "SHDC"] * 2 + ["*"] * 4
    rest += [f"3{s}" for s in "SHDC"] * 2
    dealt = [h.split() for h in hands] + [[]] * (4 - len(hands))
    for card in [c for h in dealt for c in h] + stock_top.split():
        rest.remove(card)
    top: list[str] = []
    for index in range(13):
        for h in dealt:
            top.append(h[index] if index < len(h) else rest.pop(0))
    return " ".join(top + stock_top.split() + rest)


def test_ex_63_holding_one_three() -> None:
    """EX-63 (H1–H6): the first three dealt is held, the next one goes down; a drawn
    three goes down while one is held; the held three goes down once the side opens."""
    # (a) Seat 2 gets the 3rd and 7th cards dealt: 3C, then 3H.
    deck = deck_for(["", "", "3C 4S 3H"])
    state = canasta.new_game(canasta.variants.get("mac", **SH), deck=deck, dealer=3)
    assert hand(state, SOUTH)["3C"] == 1 and hand(state, SOUTH)["3H"] == 0
    assert threes_of(state, 0) == {"3H": 1}
    assert len(state.hand(SOUTH)) == 13
    # (g) Without special hands, both are laid out at the deal.
    plain = canasta.new_game("mac", deck=deck, dealer=3)
    assert threes_of(plain, 0) == {"3C": 1, "3H": 1}
    # (b) South holds 3C and draws 3S: it goes down and is replaced by the next card.
    held = position(
        ["5S 6S 7S", "5H 6H 7H", "3C 4S 4H 9D", "5D 6D 7D"],
        to_move=SOUTH,
        phase="draw",
        stock="3S KD TC 4C",
        flags=SH,
    )
    after = held.apply("draw")
    assert hand(after, SOUTH) == {"3C": 1, "4S": 1, "4H": 1, "9D": 1, "KD": 1}
    assert threes_of(after, 0) == {"3S": 1}
    # (f) The held three is never discarded.
    assert_illegal(after, "discard:3C", R.DISCARD_NOT_ALLOWED)
    # (c) North opens NS: at the start of South's next turn 3C goes down, replaced first.
    opened = position(
        ["5S 6S", "5H 6H 7H", "3C 4S 4H 9D", "5D 6D 7D"],
        melds=(["KS KH KD"], []),
        to_move=1,
        stock="QC TC 4C",
        flags=SH,
    )
    east_done = opened.apply("discard:5H")
    assert east_done.to_move == SOUTH and east_done.phase == "draw"
    assert hand(east_done, SOUTH) == {"4S": 1, "4H": 1, "9D": 1, "QC": 1}
    assert threes_of(east_done, 0) == {"3C": 1}
    assert east_done.history()[-1].to_dict()["notes"] == ["three 2 3C"]
    # (e) EW goes out while South holds 3C: it counts 5 (100 with the option) for NS.
    for penalty in (5, 100):
        over = position(
            ["5S 6S", "", "3C 9D", "5D 6D 7D"],
            melds=([], ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"]),
            to_move=None,
            phase="over",
            went_out=1,
            concealed=False,
            flags={**SH, "mac_held_three_penalty": penalty},
        )
        assert_score(over, 0, -10 - penalty - 10, cards_in_hand=-10 - penalty - 10)


def test_ex_63_the_opener_lays_the_held_three_out_after_the_discard() -> None:
    """EX-63 (d): South opens NS himself; after the discard 3C goes down and is replaced."""
    state = south("3C KS KH KD QS QH QD AS AH * 9C 9D 5H 8C", stock="TC 4C 6C")
    after = state.play("meld:KKK meld:QQQ meld:AA* discard:5H")
    assert threes_of(after, 0) == {"3C": 1}
    assert hand(after, SOUTH) == {"9C": 1, "9D": 1, "8C": 1, "TC": 1}
    assert after.history()[-1].to_dict()["threes"] == "3C"


#: South's held 3C, known to every seat (the turn card South took, TC3), goes down: after
#: the opening discard (H3), exposed (H2), or at the start of South's turn once North has
#: opened (H3).
KNOWN = ["", "", "3C", ""]
KNOWN_HELD_THREE: dict[str, tuple[Callable[[], canasta.GameState], str]] = {
    "the opener's discard": (
        lambda: south("3C KS KH KD QS QH QD AS AH * 9C 9D 5H 8C", stock="TC 4C 6C", known=KNOWN),
        "meld:KKK meld:QQQ meld:AA* discard:5H",
    ),
    "expose": (
        lambda: south("3C 4S 4H 6C 6D 8S 8H 9C 9D JS JH QC QD", stock="KS KH TC", known=KNOWN),
        "expose:3",
    ),
    "the next turn": (
        lambda: position(
            ["5S 6S", "5H 6H 7H", "3C 4S 4H 9D", "5D 6D 7D"],
            melds=(["KS KH KD"], []),
            to_move=1,
            stock="QC TC 4C",
            flags=SH,
            known=KNOWN,
        ),
        "discard:5H",
    ),
}


@pytest.mark.parametrize("path", KNOWN_HELD_THREE)
def test_a_known_held_three_is_known_no_longer_once_it_goes_down(path: str) -> None:
    """The memory forgets a known three that leaves its hand face up, so the position
    after saves and reloads, observing alike (found by ``make soak``:
    ``modern-american-club`` seed 10)."""
    make, moves = KNOWN_HELD_THREE[path]
    state = make()
    assert state.observe(0).known[SOUTH] == (canasta.Card("3", "C"),)
    after = state.play(moves)
    assert threes_of(after, 0) == {"3C": 1} and hand(after, SOUTH)["3C"] == 0
    assert all(after.observe(seat).known[SOUTH] == () for seat in range(4))
    again = canasta.GameState.from_dict(after.to_dict())
    assert all(again.observe(seat) == after.observe(seat) for seat in range(4))


def test_ex_64_straight_and_scoring_a_special_hand() -> None:
    """EX-64 (SH1–SH5): the straight with the held three; only its 3000 counts for NS."""

    def straight(**changes: Any) -> canasta.GameState:
        keys: dict[str, Any] = {
            "hands": [
                "8S 8H 6C",
                "AS AD 7H",
                "AS KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S",
                "QC 5D",
            ],
            "to_move": SOUTH,
            "phase": "draw",
            "stock": "* TC 4C",
            "scores": [2000, 0],
            "melds": [[], ["KS KH KD KC", "9C 9D 9S"]],
            "threes": ["3H 3D", "3S"],
            "variant": canasta.variants.get("mac", **SH).to_config(),
        }
        keys.update(changes)
        return canasta.GameState.from_dict(keys)

    state = straight().apply("draw")
    assert canasta.parse_move("special") in state.legal_moves()
    over = assert_legal(state, "special")
    assert over.is_over
    outcome = over.outcome()
    assert outcome is not None
    assert outcome.special_hand == "straight" and outcome.went_out == SOUTH
    assert not outcome.concealed
    assert_score(over, 0, 3000, special_hand=3000)
    assert_score(over, 1, -230, threes=-100, melded_cards=-70, cards_in_hand=-60)
    # The event shows the 14 cards.
    assert len(over.history()[-1].cards) == 14
    # JK JK instead of 2S JK: no special hand.
    no_two = straight(
        hands=["8S 8H 6C", "AS AD 7H", "AS KH QD JC TS 9H 8D 7C 6S 5H 4D 3C *", "QC 5D"]
    ).apply("draw")
    assert_illegal(no_two, "special", R.NO_SPECIAL_HAND)
    # NS already opened: SH1.
    opened = south(PAIRS, melds=(["QS QH QC"], []))
    assert_illegal(opened, "special", R.SPECIAL_NOT_ALLOWED)
    # Partner answered no this turn: SH2.
    denied = straight(
        phase="play",
        hands=["8S 8H 6C", "AS AD 7H", "AS KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S *", "QC 5D"],
        turn={"asked": True, "permission": False},
    )
    assert_illegal(denied, "special", R.SPECIAL_NOT_ALLOWED)
    # Not in the draw phase, and not after taking the pile.
    assert_illegal(straight(), "special", R.WRONG_PHASE)


@pytest.mark.parametrize(
    ("cards", "pagat", "twos_only", "cla"),
    [
        (PAIRS, ("pairs", 2500), ("pairs", 2500), ("pairs", 2500)),
        (
            "AS AH 7C 7D 2S 2H 5C 5D 9S 9H JC JD KS KH",
            ("pairs with wilds", 2000),
            ("pairs with wilds", 2000),
            ("wild pairs", 2000),
        ),
        (
            "AS AH 7C 7D * * 5C 5D 9S 9H JC JD KS KH",
            ("pairs with wilds", 2000),
            None,
            ("wild pairs", 2000),
        ),
        ("AS AH 7C 7D 2S 2H * * 5C 5D 9S 9H KS KH", None, None, ("miami pairs", 2500)),
        (
            "7S 7H AC AD 6S 6H 8D 8C 9S 9H TC TD QS QH",
            ("pairs", 2500),
            ("pairs", 2500),
            ("pairs", 2500),
        ),
        ("5C 5D 5H 5S 9S 9H JC JD KS KH QS QH 8C 8D", None, None, None),
        ("AS AH 2S 2H 5C 5D 9S 9H JC JD KS KH QC QD", None, None, None),
    ],
)
def test_ex_65_pairs(
    cards: str,
    pagat: tuple[str, int] | None,
    twos_only: tuple[str, int] | None,
    cla: tuple[str, int] | None,
) -> None:
    """EX-65 (D34, D35): the pairs hands under each set and wild-pair rule."""
    for flags, expected in (
        ({}, pagat),
        ({"mac_wild_pairs_wild": "twos_only"}, twos_only),
        ({"mac_special_hand_set": "cla"}, cla),
    ):
        state = south(cards, flags=flags)
        if expected is None:
            assert_illegal(state, "special", R.NO_SPECIAL_HAND)
            continue
        over = assert_legal(state, "special")
        outcome = over.outcome()
        assert outcome is not None and outcome.special_hand == expected[0]
        assert_score(over, 0, expected[1], special_hand=expected[1])


@pytest.mark.parametrize(
    ("cards", "pagat", "cla"),
    [
        ("8S 8H 8D 8C QS QH QD QC 5S 5H 5D KS KH KD", ("garbage", 2000), ("garbage", 3000)),
        ("8S 8H 8D 8C QS QH QD QC 5S 5H 5D KS KH 2D", None, None),
        ("KS KH KD KC KS QS QH QD QC 8S 8H 8D 2C 2D", None, ("blast off", 3000)),
        ("8S 8H 8D QS QH QD KS KH KD 4S 4H 4D * *", None, ("triples", 3500)),
        ("4S 4H 4D 4C 4S KS KH KD KC 2S 2H 2D * *", None, ("dream hand plus 5", 8500)),
    ],
)
def test_ex_66_garbage_and_the_cla_set(
    cards: str, pagat: tuple[str, int] | None, cla: tuple[str, int] | None
) -> None:
    """EX-66 (D34; SH4): garbage, the CLA hands, the highest value when several fit."""
    for flags, expected in (({}, pagat), ({"mac_special_hand_set": "cla"}, cla)):
        state = south(cards, flags=flags)
        if expected is None:
            assert_illegal(state, "special", R.NO_SPECIAL_HAND)
            continue
        outcome = assert_legal(state, "special").outcome()
        assert outcome is not None and (outcome.special_hand, outcome.scores[0]) == expected


def test_ex_66_value_override() -> None:
    """EX-66 (a) with ``mac_special_hand_values={"garbage": 3000}`` in set pagat."""
    flags = {"mac_special_hand_values": {"garbage": 3000}}
    state = south("8S 8H 8D 8C QS QH QD QC 5S 5H 5D KS KH KD", flags=flags)
    outcome = assert_legal(state, "special").outcome()
    assert outcome is not None and outcome.scores[0] == 3000


def test_ex_66_a_dream_hand_wins_the_game() -> None:
    """EX-66 (e), SH6: the side showing a dream hand wins the game whatever the totals."""
    variant = canasta.variants.get("mac", **SH, mac_special_hand_set="cla")
    # North (seat 0) is dealt 13 cards of the dream hand and draws the last one.
    deck = deck_for(["4S 4H 4D 4C 4S KS KH KD KC 2S 2H 2D *"], "*")
    match = canasta.Match(
        variant=variant,
        seed=1,
        state=canasta.new_game(variant, deck=deck, scores=(-5000, 7000)),
        scores=(-5000, 7000),
    )
    match = match.play("draw", "special")
    assert match.is_over and match.winner == 0


def test_ex_67_courtesy() -> None:
    """EX-67 (D36, SH8): partner opened last turn; the courtesy allows one turn only."""

    def after_north_opened(flags: dict[str, Any]) -> canasta.GameState:
        # North opens NS and discards; East and West discard; South draws PAIRS' last card.
        state = position(
            ["KS KH KD QS QH QD AS AH * 9C 9D 5H 8C", "5H 6H 7H", PAIRS[3:], "5D 6D 7D"],
            to_move=0,
            stock="TC 4S 6C 8D 5C JC",
            flags={**SH, **flags},
        )
        return state.play("meld:KKK meld:QQQ meld:AA* discard:5H draw discard:5H draw")

    assert_illegal(after_north_opened({}), "special", R.SPECIAL_NOT_ALLOWED)
    courtesy = after_north_opened({"mac_special_hand_courtesy": True})
    assert courtesy.to_dict()["courtesy"] == SOUTH
    # EX-68: once the turn has a meld or lay-off, no special hand for the rest of it.
    assert_illegal(courtesy.apply("add:K+K"), "special", R.SPECIAL_NOT_ALLOWED)
    over = assert_legal(courtesy, "special")
    assert_score(over, 0, 2500, special_hand=2500)  # North's melds are ignored
    # On South's following turn: no longer.
    later = courtesy.play("discard:4S draw discard:6D draw discard:9D draw discard:6H draw")
    assert "courtesy" not in later.to_dict()
    assert later.check("special") is R.SPECIAL_NOT_ALLOWED


def test_ex_68_special_hand_after_exposing_the_held_three() -> None:
    """EX-68 (SH2, H2): the held three may be exposed first; any meld ends the chance."""
    state = position(
        ["5S 6S 7S", "5H 6H 7H", "3C 4S 4H 6C 6D 8S 8H 9C 9D JS JH QC QD", "5D 6D 7D"],
        to_move=SOUTH,
        phase="draw",
        stock="KS KH TC",
        flags=SH,
    ).apply("draw")
    assert_illegal(state, "special", R.NO_SPECIAL_HAND)
    exposed = assert_legal(state, "expose:3")
    assert threes_of(exposed, 0) == {"3C": 1}
    assert hand(exposed, SOUTH)["KH"] == 1 and len(exposed.hand(SOUTH)) == 14
    assert_legal(exposed, "special")
    # Nothing held any more: no second expose.
    assert_illegal(exposed, "expose:3", R.NO_HELD_THREE)
    assert canasta.parse_move("expose:3C") == canasta.Expose(canasta.Card("3", "C"))
    assert str(canasta.parse_move("expose:3c")) == "expose:3C"
    with pytest.raises(canasta.NotationError):
        canasta.parse_move("expose:4C")


def test_hold_three_needs_special_hands() -> None:
    """H7: holding a three follows special hands, and alone it is refused."""
    assert canasta.variants.get("mac", **SH).holds_three
    assert not canasta.variants.get("mac", **SH, mac_hold_three=False).holds_three
    with pytest.raises(canasta.VariantError, match=r"mac_hold_three.*mac_special_hands"):
        canasta.variants.get("mac", mac_hold_three=True)
    with pytest.raises(canasta.VariantError, match="'quads' is not a special hand"):
        canasta.variants.get("mac", **SH, mac_special_hand_values={"quads": 3000})


def test_hold_three_needs_the_threes_laid_out_at_the_deal() -> None:
    """H2 with D3: the held three is the first one dealt, the others going down at the
    deal; declaring the threes at each player's first turn instead is refused while a
    three is held (a deal of it used to leave two threes in one hand, which the position
    format then refused to read back), and played without holding one."""
    with pytest.raises(canasta.VariantError, match=r"mac_hold_three.*red_three_declare"):
        canasta.variants.get("mac", **SH, red_three_declare="first_turn")
    with pytest.raises(canasta.VariantError, match=r"mac_hold_three.*red_three_declare"):
        canasta.variants.get("modern-american-club", red_three_declare="first_turn")
    variant = canasta.variants.get(
        "modern-american-club", red_three_declare="first_turn", mac_hold_three=False
    )
    assert not variant.holds_three and variant.has_special_hands
    state = canasta.new_game(variant, seed=0)
    assert canasta.GameState.from_dict(state.to_dict()) == state


def test_greedy_bot_shows_a_special_hand_it_holds() -> None:
    """GreedyBot declares a special hand when it holds one (else plays as before)."""
    state = south(PAIRS)
    assert canasta.bots.GreedyBot().choose(state.observe(SOUTH)) == canasta.Special()
    plain = south("4S 4H 4D 6C 6D 8S 8H 9C 9D JS JH QC QD KS")
    assert canasta.bots.GreedyBot().choose(plain.observe(SOUTH)) != canasta.Special()


XP = {"mac_stock_exhausted": "continue_with_pile"}


def ex70(flags: dict[str, Any]) -> canasta.GameState:
    """EX-70: North draws the last stock card and discards 9C."""
    state = position(
        ["9C 5D 6D", "9H 9S 4C AS", "4H KS KD 8C", "5C 6C 7C"],
        melds=(["7S 7H 7D"], ["QH QC QS"]),
        pile="6H 5S JC TD",
        stock="8D",
        phase="draw",
        flags=flags,
    )
    return state.play("draw discard:9C")


def test_ex_70_play_on_with_the_pile_after_the_stock() -> None:
    """EX-70 (XP1–XP8): with continue_with_pile the next players may take the pile or
    end; by default the deal ends after the last card's turn."""
    east = ex70(XP)
    assert east.to_move == 1 and not east.is_over
    assert_illegal(east, "draw", R.STOCK_EMPTY)
    taken = assert_legal(east, "take:99")
    assert_illegal(taken, "discard:AS", R.DISCARD_NOT_ALLOWED)
    south_ = assert_legal(taken, "discard:4C")
    assert_illegal(south_, "take:KK", R.NATURAL_PAIR_NEEDED, R.WRONG_RANK, R.PILE_EMPTY)
    over = assert_legal(south_, "end")
    outcome = over.outcome()
    assert over.is_over and outcome is not None and outcome.went_out is None
    # East may end at once instead.
    assert assert_legal(east, "end").is_over
    # Default: the deal ends right after North's discard.
    assert ex70({}).is_over


def test_ex_71_held_three_when_opening_after_the_stock() -> None:
    """EX-71 (H3, H4, XP6): an opening from the pile with the stock empty lays the held
    three out without a replacement."""
    state = position(
        ["5S 6S 7S", "5H 6H 7H", "3C KS KH AS AH AD AC QS QH QD 5C 6D 9C", "5D 6D 7D"],
        pile="7S TH JD KD",
        stock="",
        to_move=SOUTH,
        phase="draw",
        flags={**SH, **XP},
    )
    opened = state.play("take:KK meld:AAAA meld:QQQ")
    assert_illegal(opened, "discard:7S", R.DISCARD_NOT_ALLOWED)
    after = assert_legal(opened, "discard:5C")
    assert threes_of(after, 0) == {"3C": 1}
    assert hand(after, SOUTH) == {"6D": 1, "9C": 1, "TH": 1, "JD": 1, "7S": 1}
    assert "special" not in {str(m) for m in opened.legal_moves()}


def test_a_three_replacing_the_held_three_as_the_last_stock_card_ends_the_deal() -> None:
    """H4 with spec §3.5.2: South exposes the held 3C and draws its replacement, the last
    stock card, 3D: a three drawn as the last stock card stays in the hand, counts 5, and
    the deal ends. It used to become the held three again, and left South, who also held
    a two (no discard but going out), without a legal move."""
    state = position(
        ["5S 6S 7S", "5H 6H 7H", "3C 2D", "5D 6D 7D"],
        stock="3D",
        to_move=SOUTH,
        flags=SH,
    )
    over = assert_legal(state, "expose:3")
    assert over.is_over and over.to_dict()["last_three"] == SOUTH
    assert threes_of(over, 0) == {"3C": 1}
    assert hand(over, SOUTH) == {"2D": 1, "3D": 1}
    outcome = over.outcome()
    assert outcome is not None and outcome.went_out is None
    assert outcome.lines(0)["cards in hand"] == -(5 + 20 + 15)  # 3D; 2D; North's 5S 6S 7S
