"""Modern American talons and the turn card (club features, spec §3.5.11.1 and §3.5.11.2):
the worked examples EX-56 … EX-62 of the appendix (``shared/rules/modern-american-options.md``),
one test each, plus the position keys ``openings``, ``talon_taken``, ``talons`` and
``turn_card`` and what observations show of them.

Seats 0 and 2 (North, South) are side 0; seats 1 and 3 (East, West) side 1.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import canasta
from canasta import IllegalReason as R
from mac_helpers import (
    assert_illegal,
    assert_legal,
    assert_score,
    assert_turn_fails,
    bag,
    hand,
    mac,
    position,
    position_dict,
    threes_of,
    tokens,
)

TL = {"mac_talons": True}
TC = {"mac_turn_card": True}
SET_ASIDE = {**TL, "mac_talon_source": "set_aside"}
NORTH, EAST, WEST = 0, 1, 3

#: Small hands for the seats that only wait.
WAITING = ("5S 6S 7S", "5H 6H 7H", "5D 6D 7D", "5C 6C 7C")


def filler(count: int, *used: str) -> str:
    """``count`` cards (no threes) that two decks still hold besides the ``used`` ones, in
    a fixed order: a stock or a talon for a test position."""
    left = Counter({f"{r}{s}": 2 for r in "A2456789TJQK" for s in "SHDC"} | {"*": 4})
    for cards in used:
        left.subtract(bag(cards))
    pool = [card for card, n in sorted(left.items()) for _ in range(max(n, 0))]
    assert len(pool) >= count, "the test asks for more cards than the decks hold"
    return " ".join(pool[:count])


def table(
    hands: list[str],
    *,
    stock_size: int,
    stock_top: str = "",
    pile: str = "",
    melds: tuple[list[str], list[str]] = ([], []),
    **kwargs: Any,
) -> canasta.GameState:
    """A position whose stock holds ``stock_size`` cards, ``stock_top`` first."""
    talons = [t for t in kwargs.get("talons", {}).values() if t]
    used = [*hands, pile, stock_top, *(m for side in melds for m in side), *talons]
    rest = stock_size - len(tokens(stock_top))
    stock = f"{stock_top} {filler(rest, *used)}".strip()
    return position(hands, stock=stock, pile=pile, melds=melds, **kwargs)


def east_went_out(
    hands: list[str],
    melds: tuple[list[str], list[str]],
    flags: dict[str, Any],
    **keys: Any,
) -> canasta.GameState:
    """A deal over: East went out with ``hands`` left and ``melds`` on the table."""
    return position(
        hands,
        melds=melds,
        stock="TH 4H",
        to_move=None,
        phase="over",
        went_out=EAST,
        concealed=False,
        flags=flags,
        **keys,
    )


def notes(state: canasta.GameState) -> list[str]:
    """The notes of the last move's event, as text."""
    return [str(note) for note in state.history()[-1].notes]


EX56_NORTH = "KS KH KD QS QH QD AS AH * 9C 9D 5S 6H 8C"


def test_ex_56_talon_from_the_stock_first_team() -> None:
    """EX-56 (TL1–TL3): the first side's opener takes the top 4 stock cards with the
    discard; the second side's opener later takes 3."""
    state = table([EX56_NORTH, *WAITING[1:]], stock_size=59, pile="4D 6C", flags=TL)
    talon = tokens(state.to_dict()["stock"])[:4]
    opened = state.play("meld:KKK meld:QQQ meld:AA*")
    after = assert_legal(opened, "discard:5S")
    assert len(after.stock) == 55
    assert hand(after, NORTH) == bag(["9C", "9D", "6H", "8C", *talon])
    assert after.openings == (0,) and after.talon_taken == (4, 0)
    data = after.to_dict()
    assert data["openings"] == [0] and data["talon_taken"] == [4, 0]
    # The public history shows the talon's size, never its cards.
    assert notes(after) == ["talon 0 4"]
    east = after.observe(EAST)
    assert east.talon_taken == (4, 0) and east.openings == (0,)
    assert east.hand_sizes[NORTH] == 8
    assert east.history[-1].notes[0].cards == ()
    assert after.observe(NORTH).hand == after.hand(NORTH)
    # The ace meld, with its wild card from the opening, is an ordinary meld now.
    assert any(m.rank_text == "A" and m.wilds == 1 for m in after.melds[0])
    # Later EW opens from hand with 9 or more cards in the stock: its opener takes 3.
    east_turn = table(
        [
            "9C 9D 6H 8C 4S 4H",
            "KS KH KD QS QH QD AS AH * 9S 9H 5H 6D 8D",
            "5S 6S 7S",
            "5D 6D 7D",
        ],
        stock_size=20,
        melds=(["JS JH JD", "TS TH TD"], []),
        to_move=EAST,
        flags=TL,
        openings=[0],
        talon_taken=[4, 0],
    )
    second = east_turn.play("meld:KKK meld:QQQ meld:AA* discard:5H")
    assert second.talon_taken == (4, 3) and second.openings == (0, 1)
    assert len(second.hand(EAST)) == 4 + 3 and len(second.stock) == 17
    assert notes(second) == ["talon 1 3"]


EX57_NORTH = "KS KH KD KC QS QH QD AS AH * 8C 8D 8H 5H"


def test_ex_57_hand_size_floor_with_a_pending_talon() -> None:
    """EX-57 (D33, TL6, TL7, TL4): with a talon due one card to discard is enough, and the
    discard may empty the hand; hold_and_throw, or no talon due, keeps two cards."""
    # (a) discard_only: the fourth meld leaves one card, the discard empties the hand.
    state = table([EX57_NORTH, *WAITING[1:]], stock_size=39, pile="4D 6C", flags=TL)
    talon = tokens(state.to_dict()["stock"])[:4]
    last = state.play("meld:KKKK meld:QQQ meld:AA*")
    one_left = assert_legal(last, "meld:888")
    assert len(one_left.hand(NORTH)) == 1
    after = assert_legal(one_left, "discard:5H")
    assert not after.is_over and after.to_move == EAST
    assert hand(after, NORTH) == bag(talon)
    # (b) hold_and_throw: the fourth meld is refused; North keeps 888 and gets 4 more.
    strict = table(
        [EX57_NORTH, *WAITING[1:]],
        stock_size=39,
        pile="4D 6C",
        flags={**TL, "mac_talon_hand_floor": "hold_and_throw"},
    )
    three_melds = strict.play("meld:KKKK meld:QQQ meld:AA*")
    assert_illegal(three_melds, "meld:888", R.HAND_SIZE)
    kept = assert_legal(three_melds, "discard:5H")
    assert hand(kept, NORTH) == bag(["8C", "8D", "8H", *tokens(strict.to_dict()["stock"])[:4]])
    # (c) Stock 9 before the draw: the draw takes the turn card, no talon will come.
    late = table(
        ["KS KH KD KC QS QH QD AS AH * 8C 8D 8H", *WAITING[1:]],
        stock_size=9,
        stock_top="5H",
        pile="4D 6C",
        phase="draw",
        flags=TL,
    )
    drawn = late.play("draw meld:KKKK meld:QQQ meld:AA*")
    assert len(drawn.stock) == 8
    assert_illegal(drawn, "meld:888", R.HAND_SIZE)
    assert assert_legal(drawn, "discard:5H").talon_taken == (0, 0)


def test_tl7_an_opening_may_need_all_cards_but_the_discard() -> None:
    """TL7: with a talon due, an opening that needs 13 of the 14 cards is found from its
    first meld on (the look-ahead keeps one card, not two); hold_and_throw refuses it."""
    hand_ = "KS KH KD KC QS QH QD 8C 8D 8H 5H 9S 9H 9D"  # 40 + 30 + 30 + 30 = 130
    state = table([hand_, *WAITING[1:]], stock_size=30, pile="4D 6C", flags=TL)
    first = assert_legal(state, "meld:KKKK")
    after = first.play("meld:QQQ meld:888 meld:999 discard:5H")
    assert after.talon_taken == (4, 0) and len(after.hand(NORTH)) == 4
    strict = table(
        [hand_, *WAITING[1:]],
        stock_size=30,
        pile="4D 6C",
        flags={**TL, "mac_talon_hand_floor": "hold_and_throw"},
    )
    assert_illegal(strict, "meld:KKKK", R.INITIAL_MINIMUM)


def ex58(flags: dict[str, Any]) -> canasta.GameState:
    """EX-58: North takes the pile with 99 and opens with it."""
    return table(
        ["9H 9S KS KH KD AS AH AD QS QH QD 5C 6D", *WAITING[1:]],
        stock_size=50,
        pile="JC 4D TS 8H 9C",
        phase="draw",
        flags=flags,
    )


def test_ex_58_opening_with_a_pile_pickup_gives_no_talon() -> None:
    """EX-58 (D32, D23): no talon for an opening made with the pile, unless
    mac_talon_on_pickup_opening; with mac_pickup_cards_count=none the opening fails."""
    opened = ex58(TL).play("take:99 meld:KKK meld:AAA meld:QQQ")
    after = assert_legal(opened, "discard:6D")
    assert after.talon_taken == (0, 0) and after.openings == (0,)
    assert hand(after, NORTH) == bag("5C JC 4D TS 8H")
    assert notes(after) == []
    bonus = ex58({**TL, "mac_talon_on_pickup_opening": True})
    talon = tokens(bonus.to_dict()["stock"])[:4]
    with_talon = bonus.play("take:99 meld:KKK meld:AAA meld:QQQ discard:6D")
    assert with_talon.talon_taken == (4, 0)
    assert hand(with_talon, NORTH) == bag(["5C", "JC", "4D", "TS", "8H", *talon])
    # With the pickup cards not counted: 120 < 125.
    assert_turn_fails(
        ex58({**TL, "mac_pickup_cards_count": "none"}),
        "take:99 meld:KKK meld:AAA meld:QQQ discard:6D",
    )


WEST_OPENS = "KS KH KD QS QH QD AS AH * 9S 9H 5H 6D"


def ex59(flags: dict[str, Any], **keys: Any) -> canasta.GameState:
    """EX-59: NS opened earlier with the pile (no talon); West draws, opens, discards."""
    state = table(
        ["9C 9D 6H 8C 4S 4H", "5S 6S 7S", "5D 6D 7D 8D", WEST_OPENS],
        stock_size=30,
        stock_top="8S",
        melds=(["JS JH JD", "TS TH TD"], []),
        to_move=WEST,
        phase="draw",
        flags=flags,
        openings=[0],
        **keys,
    )
    return state.play("draw meld:KKK meld:QQQ meld:AA* discard:5H")


def test_ex_59_the_second_teams_talon_is_3() -> None:
    """EX-59 (TL1, D31, TL10): the second side to open takes 3, though the first took
    none; set aside, it takes T3 and T4 stays out of play, scored for nobody."""
    after = ex59(TL)
    assert after.talon_taken == (0, 3) and len(after.hand(WEST)) == 14 - 9 - 1 + 3
    assert notes(after) == ["talon 3 3"]
    t4, t3 = "AC AD AS AH", "KC 4C 4D"
    aside = ex59(SET_ASIDE, talons={"4": t4, "3": t3})
    assert aside.talon_taken == (0, 3)
    assert bag(t3) <= hand(aside, WEST)
    assert aside.talons == (tuple(canasta.parse_cards(t4)), None)
    assert aside.to_dict()["talons"] == {"4": t4, "3": None}
    # T4 stays face down to the end of the deal, and nobody scores it.
    over = east_went_out(
        ["6C 9H", "", "5D 6D", "5S 6S"],
        ([], ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"]),
        SET_ASIDE,
        openings=[1],
        talon_taken=[0, 4],
        talons={"4": None, "3": "AC AD AS"},
    )
    assert_score(over, 0, -15 - 10, cards_in_hand=-25)
    assert over.talons == (None, tuple(canasta.parse_cards("AC AD AS")))


EX60_EAST = "KS KH KD KC QS QH QD AS AH * 9S 9H 9D"
OPENS = "meld:KKKK meld:QQQ meld:AA*"


def east_to_draw(stock_size: int, flags: dict[str, Any]) -> canasta.GameState:
    """EX-60: East to draw, holding an opening from hand, with 7H at the stock's 9th card
    from the bottom."""
    used = [EX60_EAST, "7H", "4D 6C"]
    above = filler(stock_size - 9, *used)
    below = filler(8, *used, above)
    return position(
        ["5S 6S 7S", EX60_EAST, "5D 6D 7D", "5C 6C 7C"],
        stock=f"{above} 7H {below}",
        pile="4D 6C",
        melds=(["JS JH JD"], []),
        to_move=EAST,
        phase="draw",
        flags=flags,
    )


def test_ex_60_turn_card_and_the_talon_cut_off() -> None:
    """EX-60 (TC1–TC4, TL4): the turn card shows once it is the stock's top card, its
    draw is announced, and from then on no talon is given."""
    seven = canasta.Card("7", "H")
    # (a) Stock 9: the turn card is on top, face up, in every seat's observation.
    state = east_to_draw(9, {**TL, **TC})
    assert state.turn_card == seven
    assert all(state.observe(seat).turn_card == seven for seat in range(4))
    assert not state.observe(NORTH).turn_card_drawn
    # A sampled deal keeps the face-up turn card on top, and once drawn in East's hand.
    sampled = canasta.sample_state(state.observe(NORTH), random.Random(1))
    assert sampled.stock[0] == seven and sampled.observe(NORTH) == state.observe(NORTH)
    # A chance player may not put another card on top of the face-up turn card.
    with pytest.raises(canasta.ArgumentError, match="turn card 7H lies face up"):
        state.with_stock_top(str(state.stock[1]))
    assert state.with_stock_top(f"7H {state.stock[1]}").stock[:2] == state.stock[:2]
    drawn = assert_legal(state, "draw")
    assert notes(drawn) == ["turn_card 1 7H"] and len(drawn.stock) == 8
    assert drawn.observe(WEST).turn_card_drawn and drawn.observe(WEST).turn_card == seven
    assert seven in drawn.observe(WEST).known[EAST]
    assert seven in canasta.sample_state(drawn.observe(WEST), random.Random(2)).hand(EAST)
    assert drawn.to_dict()["turn_card"] == "7H"
    opened = drawn.play(OPENS)
    # No talon will come: a card to hold and a card to throw.
    assert_illegal(opened, "meld:999", R.HAND_SIZE)
    assert assert_legal(opened, "discard:7H").talon_taken == (0, 0)
    # (b) Stock 10: drawn to 9, the turn card is public on top; the talon takes it.
    state = east_to_draw(10, {**TL, **TC})
    assert state.observe(NORTH).turn_card is None
    drawn = assert_legal(state, "draw")
    assert drawn.observe(NORTH).turn_card == seven and notes(drawn) == []
    opened = drawn.play(OPENS)
    assert_legal(opened, "meld:999")  # a talon is due: one card to discard will do
    after = assert_legal(opened, "discard:9")
    assert after.talon_taken == (0, 3) and len(after.stock) == 6
    assert seven in after.hand(EAST)
    assert notes(after) == ["talon 1 3", "turn_card 1 7H"]
    assert after.observe(NORTH).turn_card == seven
    drawing = str(after.observe(NORTH))
    assert "Stock: 6 (turn card 7H, drawn)" in drawing and "talon taken: 3 cards" in drawing
    assert "Known from the pile, the turn card: seat 1 holds 7H" in drawing
    # (c) Without the turn card: the same talons, nothing face up, no announcement.
    plain = east_to_draw(9, TL)
    assert plain.turn_card is None and plain.observe(NORTH).turn_card is None
    plain_drawn = plain.apply("draw")
    assert notes(plain_drawn) == [] and "turn_card" not in plain_drawn.to_dict()
    assert plain_drawn.play(OPENS, "discard:9").talon_taken == (0, 0)
    late = east_to_draw(10, TL).play("draw", OPENS, "discard:9")
    assert late.talon_taken == (0, 3) and notes(late) == ["talon 1 3"]


def test_ex_61_set_aside_talons_at_the_deal() -> None:
    """EX-61 (TL2, TC1): 13 cards each, then T4 and T3 face down; the stock is the rest,
    threes replaced from it; the turn card is its 41st card to be taken."""
    deck = canasta.deal.full_deck(mac(**SET_ASIDE, **TC))
    codes = [str(canasta.cards.CARDS[c]) for c in deck]
    # No three among the hands, so no replacement changes the stock's size.
    threes = [c for c in codes if c[0] == "3"]
    rest = [c for c in codes if c[0] != "3"]
    order = rest[:52] + rest[52:59] + threes + rest[59:]
    state = canasta.new_game(mac(**SET_ASIDE, **TC), deck=" ".join(order), dealer=3)
    assert state.talons == (
        tuple(canasta.parse_cards(" ".join(order[52:56]))),
        tuple(canasta.parse_cards(" ".join(order[56:59]))),
    )
    assert len(state.stock) == 108 - 52 - 7 == 49
    assert state.turn_card == state.stock[40]
    assert state.observe(NORTH).talons_left == (4, 3)
    assert "Talons face down: 4, 3" in str(state)
    sampled = canasta.sample_state(state.observe(EAST), random.Random(3))
    assert [len(t or ()) for t in sampled.talons] == [4, 3]
    assert sampled.observe(EAST) == state.observe(EAST)
    assert "talons_left" in state.observe(NORTH).to_dict()
    # North opens first: T4 after the discard; East later: T3.
    north = table(
        [EX56_NORTH, *WAITING[1:]],
        stock_size=40,
        pile="4D 6C",
        flags=SET_ASIDE,
        talons={"4": "2C 2D 4C 4H", "3": "JC JD JH"},
    )
    after = north.play("meld:KKK meld:QQQ meld:AA* discard:5S")
    assert hand(after, NORTH) == bag("9C 9D 6H 8C 2C 2D 4C 4H")
    assert len(after.stock) == 40 and after.talons[0] is None
    assert after.observe(EAST).talons_left == (0, 3)
    east = table(
        ["9C 9D 6H 8C", "KS KH KD QS QH QD AS AH * 9S 9H 5H 6D 8D", "5S 6S 7S", "5D 6D 7D"],
        stock_size=30,
        melds=(["TS TH TD"], []),
        to_move=EAST,
        flags=SET_ASIDE,
        openings=[0],
        talon_taken=[4, 0],
        talons={"4": None, "3": "JC JD JH"},
    )
    second = east.play("meld:KKK meld:QQQ meld:AA* discard:5H")
    assert hand(second, EAST) == bag("9S 9H 6D 8D JC JD JH")
    assert second.talons == (None, None) and second.talon_taken == (4, 3)


def test_ex_62_a_three_in_the_talon_and_talon_cards_at_the_end() -> None:
    """EX-62 (TL8, TL10): a three in the talon goes down for the side and is replaced;
    talon cards left in hand count like any card, the three-aces penalty included."""
    state = table(
        [EX56_NORTH, *WAITING[1:]],
        stock_size=40,
        stock_top="3D 8S KC 2H QS",
        pile="4D 6C",
        flags=TL,
    )
    after = state.play("meld:KKK meld:QQQ meld:AA* discard:5S")
    assert threes_of(after, 0) == {"3D": 1}
    assert hand(after, NORTH) == bag("9C 9D 6H 8C 8S KC 2H QS")
    assert after.history()[-1].to_dict()["threes"] == "3D"
    # East goes out before North's next turn; North holds aces that came in a talon.
    over = east_went_out(
        ["6C AS AD AC 9H", "", "5D 6D", "5S 6S"],
        (["KS KH KD *"], ["8S 8H 8D 8C 8S 8H 8D", "JS JH JD JC JS JH JD"]),
        TL,
        openings=[0, 1],
        talon_taken=[4, 3],
    )
    assert_score(
        over,
        0,
        -80 - 75 - 10 - 1500,
        melded_cards=-80,
        cards_in_hand=-85,
        aces_and_sevens_held=-1500,
    )


# -- the position keys -----------------------------------------------------------------


def _data(flags: dict[str, Any], **keys: Any) -> dict[str, Any]:
    return position_dict(
        list(WAITING), stock=filler(20, *WAITING), melds=(["KS KH KD"], []), flags=flags, **keys
    )


@pytest.mark.parametrize(
    ("flags", "keys", "message"),
    [
        ({}, {"openings": [0]}, "only allowed where talons are played"),
        (TL, {"openings": [1]}, "each opened side once"),
        (TL, {"openings": [0, 0]}, "each opened side once"),
        (TL, {"opened": [True, True]}, "openings is needed"),
        (TL, {"talon_taken": [3, 0]}, "talon_taken\\[0\\]"),
        (TL, {"talon_taken": [0, 4]}, "talon_taken\\[1\\]"),
        (TL, {"talons": {"4": None, "3": None}}, "talons are set aside"),
        (SET_ASIDE, {"talons": {"4": "AS AH AD AC"}}, "talons must map"),
        (SET_ASIDE, {"talons": {"4": "AS AH", "3": "KS KH KD"}}, "must hold 4 cards"),
        (SET_ASIDE, {"talons": {"4": None, "3": "KS KH KD"}}, "no side has taken it"),
        (
            SET_ASIDE,
            {"talon_taken": [4, 0], "talons": {"4": "AS AH AD AC", "3": "JC JD JH"}},
            "must be null",
        ),
        (TC, {"turn_card": "7H"}, "still holds 20 cards"),
        ({}, {"turn_card": "7H"}, "only allowed where the turn card is played"),
    ],
)
def test_bad_talon_and_turn_card_keys_are_refused(
    flags: dict[str, Any], keys: dict[str, Any], message: str
) -> None:
    with pytest.raises(canasta.PositionError, match=message):
        canasta.GameState.from_dict(_data(flags, **keys))


def test_the_turn_card_is_needed_once_drawn() -> None:
    data = position_dict(list(WAITING), stock="8C 8D", flags=TC)
    with pytest.raises(canasta.PositionError, match="turn_card is needed"):
        canasta.GameState.from_dict(data)
    state = canasta.GameState.from_dict({**data, "turn_card": "7H"})
    assert state.turn_card == canasta.Card("7", "H")
    assert canasta.GameState.from_dict(state.to_dict()) == state


@pytest.mark.parametrize("aside", [0, 7])
def test_the_deal_leaves_the_turn_card_in_the_stock(aside: int) -> None:
    """TC1: the turn card lies 9th from the bottom before the deal, so hands (and talons
    set aside) that would take it are refused. A deal of 4 hands of 25 used to leave 8
    cards and no turn card, a position that from_dict then refused to read back. The
    stock every deal keeps (a replacement for each of the 8 threes and a card to draw)
    leaves the turn card in it."""
    flags = {**TC, **(SET_ASIDE if aside else {})}
    largest = (108 - 9 - aside) // 4
    with pytest.raises(canasta.VariantError, match="too few to replace the 8 threes"):
        canasta.variants.get("modern-american", **flags, hand_size=largest + 1)
    variant = canasta.variants.get("modern-american", **flags, hand_size=largest)
    for seed in range(5):
        state = canasta.new_game(variant, seed=seed)
        assert canasta.GameState.from_dict(state.to_dict()) == state


def test_talons_dealt_for_a_position_take_none_of_its_stock() -> None:
    """D31: a position that gives the stock but not the talons gets talons of the cards
    neither it nor the stock uses. They were dealt before the stock was counted, so they
    could take stock cards, and reading the position failed at random ("card ... appears
    3 times"). Found by the pickup soak."""
    data = _data(SET_ASIDE)
    stock = canasta.parse_cards(data["stock"])
    for seed in range(30):
        state = canasta.GameState.from_dict({**data, "seed": seed})  # no card thrice
        assert state.stock == stock
        assert sum(len(talon or ()) for talon in state.talons) == 7


def test_untaken_set_aside_talons_are_dealt_when_not_given() -> None:
    """A position without ``talons`` gets them from the unseen cards, as the stock."""
    data = _data(SET_ASIDE)
    del data["stock"]
    state = canasta.GameState.from_dict({**data, "seed": 4})
    assert [len(t or ()) for t in state.talons] == [4, 3]
    again = canasta.GameState.from_dict(state.to_dict())
    assert again == state and again.talons == state.talons


def test_observations_never_show_the_set_aside_talons() -> None:
    """Two deals that differ only in the cards of the talons look the same to every seat."""
    state = canasta.new_game(mac(**SET_ASIDE), seed=3)
    data = state.to_dict()
    stock = tokens(data["stock"])
    t4 = tokens(data["talons"]["4"])
    swapped = {**data, "talons": {"4": " ".join(stock[-4:]), "3": data["talons"]["3"]}}
    swapped["stock"] = " ".join(stock[:-4] + t4)
    other = canasta.GameState.from_dict(swapped)
    assert other != state
    for seat in range(4):
        assert other.observe(seat) == state.observe(seat)
        text = str(other.observe(seat).to_dict())
        assert "talons_left" in text


def test_the_club_preset_plays_talons_the_turn_card_and_special_hands() -> None:
    """The preset: talons from the stock, the turn card, pagat's special hands with a held
    three; the other options as in modern-american."""
    club = canasta.variants.get("modern-american-club")
    assert canasta.variants.get("mac_club") is club
    assert club.talon_sizes == (4, 3) and not club.talons_set_aside
    assert club.shows_turn_card and club.has_special_hands and club.holds_three
    plain = canasta.variants.get("modern-american")
    changed = {name for name in plain.option_names() if getattr(plain, name) != getattr(club, name)}
    assert changed == {"mac_talons", "mac_turn_card", "mac_special_hands", "mac_hold_three"}
    assert club.to_config() == {"variant": "modern-american-club"}
    assert canasta.variants.from_config(club.to_config(full=True)) == club


def test_greedy_bot_shows_a_special_hand_in_the_club_preset() -> None:
    """GreedyBot shows a special hand it holds after the draw in the preset too."""
    pairs = "4S 4H 6C 6D 8S 8H 9C 9D JS JH QC QD KS KH"
    club = canasta.variants.get("modern-american-club")
    state = canasta.GameState.from_dict(
        {
            "variant": "modern-american-club",
            "phase": "play",
            "to_move": 2,
            "hands": ["5S 6S 7S", "5H 6H 7H", pairs, "5D 6D 7D"],
            "stock": filler(30, pairs, *WAITING),
        }
    )
    assert state.variant is club
    assert canasta.bots.GreedyBot().choose(state.observe(2)) == canasta.Special()
