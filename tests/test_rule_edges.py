"""Edge cases of the rules found by mutation testing.

Each test pins down a rule that a single-point change of the engine could break without
any other test noticing: a boundary of the hand-size constraint, a card value, the
concealed going out, the pile joining the hand, and similar. Every expected verdict is
derived from the rules spec (each docstring cites its section), never from the engine.

Seats 0 and 2 are side 0, seats 1 and 3 side 1 (4-player games). Positions are built with
``helpers.position`` (inert filler hands, short explicit stock).
"""

from __future__ import annotations

import pytest

import canasta
from helpers import assert_illegal, assert_legal, line, play, position, state_of

R = canasta.IllegalReason
CANASTA = "QS QS QH QH QD QD QC"  # a natural canasta: side 0 may go out (classic4)


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def test_ask_allowed_when_a_new_canasta_of_exactly_seven_goes_out() -> None:
    """Spec §2.11 [LIB], §2.9: K K K K 2 2 JK is a 7-card canasta from hand; with it and a
    discard the player goes out, so asking partner is allowed."""
    state = state_of(
        position(hands={0: "KS KH KD KC 2C 2D * 5C"}, phase="play", melds=[["8S 8H 8D"], []])
    )
    state = assert_legal(state, "ask")
    state = play(state, "yes", "meld:KKKK22*", "discard:5C")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0


def test_initial_pickup_that_leaves_one_card_with_the_pile_is_illegal() -> None:
    """Spec §2.7 T6, §2.9: an unopened side takes A A with the top AS (60 >= 50); the hand is
    then empty and only the pile's 9C joins it: one card and no canasta, so the discard would
    go out without a canasta: illegal."""
    state = state_of(position(hands={0: "AH AD"}, pile="9C AS"))
    assert_illegal(state, "take:AA", R.HAND_SIZE)


def test_initial_pickup_counts_the_pile_cards_that_join_the_hand() -> None:
    """Spec §2.7 procedure (2), T6: once the pickup reaches the minimum (AS AH AD = 60) the
    pile's other card joins the hand: 7S and 9C make two cards, so the take is legal."""
    state = state_of(position(hands={0: "AH AD 7S"}, pile="9C AS"))
    state = assert_legal(state, "take:AA")
    assert sorted(state.to_dict()["hands"][0].split()) == ["7S", "9C"]


def test_an_opening_after_a_pickup_may_use_every_card_of_the_hand() -> None:
    """Spec §2.8, §2.9, procedure (2) of §2.7: score 1500 (minimum 90). The pickup Q Q Q
    (30), then 9 9 9 and 8 8 8 (60) reach the minimum with no card left in the hand, and the
    pile's five other cards join it: the player holds five, discards one, and the turn ends.
    The look-ahead used to count only the hand's own cards, and refused the pickup."""
    hands = {0: "QS QH 9S 9H 9D 8S 8H 8D", 1: "4C 5C", 2: "4D 5D", 3: "4H 5H"}
    state = state_of(
        position(hands=hands, pile="TC TD KC 7S JS QD", stock="6C 6D 6H", scores=[1500, 0])
    )
    state = assert_legal(state, "take:QQ")
    state = play(state, "meld:999", "meld:888")
    assert sorted(state.to_dict()["hands"][0].split()) == ["7S", "JS", "KC", "TC", "TD"]
    state = assert_legal(state, "discard:7S")
    assert state.to_move == 1 and state.observe(0).opened == (True, False)


def test_no_asking_while_the_pile_waits_to_join_an_opening() -> None:
    """Spec §2.11 [LIB] (asking only where "yes" can be honoured), §2.8: after the pickup
    Q Q Q the pile's 4C and 7H join the hand once the opening is complete, and going out
    would have to meld them too: the seven kings and a discard no longer go out, so the
    player may not ask. "yes" used to be allowed, and then every meld led into a dead
    end."""
    hands = {0: "QS QH KS KS KH KH KD KD KC 5C", 1: "4D 5D", 2: "4H 5H", 3: "6C 6D"}
    state = state_of(position(hands=hands, pile="4C 7H QD", stock="6H 8C 8D"))
    state = assert_legal(state, "take:QQ")
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)
    state = play(state, "meld:KKKKKKK", "discard:5C")
    assert state.to_dict()["hands"][0].split() == ["4C", "7H"]


def test_no_asking_where_no_would_leave_no_move() -> None:
    """Spec §2.11 [LIB]: both answers must be possible. canastas_to_go_out=0, score 1500
    (minimum 90): after the pickup Q Q Q of a one-card pile (30), only 9 9 9 and 8 8 8 (60)
    complete the opening, leaving 4C: the discard goes out. After "no" the opening could not
    be completed, so asking is refused; without asking the player opens and goes out."""
    variant = classic(canastas_to_go_out=0)
    hands = {0: "QS QH 9S 9H 9D 8S 8H 8D 4C", 1: "4D 5D", 2: "4H 5H", 3: "6C 6D"}
    state = state_of(
        position(variant=variant, hands=hands, pile="QD", stock="6H 8C 8D", scores=[1500, 0])
    )
    state = assert_legal(state, "take:QQ")
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)
    outcome = play(state, "meld:999", "meld:888", "discard:4C").outcome()
    assert outcome is not None and outcome.went_out == 0


def test_a_question_in_the_middle_of_an_opening_reloads() -> None:
    """Spec §2.11: after the pickup meld a player may ask before melding more, here with
    the opening still short (canastas_to_go_out=0, minimum 90, the pickup worth 30).
    Partner answers for the same melds, so the position in the answer phase is one the
    format reads back (it was refused: the opening's melds had to be the groups of the
    player to move)."""
    variant = classic(canastas_to_go_out=0)
    hands = {0: "QS QH 9S 9H 9D 8S 8H 8D 4C 4D 4H 5C", 1: "4S 5D", 2: "6H 5H", 3: "6C 6D"}
    state = state_of(
        position(variant=variant, hands=hands, pile="QD", stock="7H 8C TD", scores=[1500, 0])
    )
    asked = play(state, "take:QQ", "ask")
    assert asked.phase == "answer" and asked.to_move == 2
    assert canasta.GameState.from_dict(asked.to_dict()) == asked
    no = play(asked, "no", "meld:999", "meld:888", "discard:5C")
    assert not no.is_over
    yes = play(asked, "yes", "meld:999", "meld:888", "meld:444", "discard:5C")
    assert yes.is_over


def test_canasta_below_minimum_leaving_one_card_without_exemption() -> None:
    """D12, §2.8 [LIB], §2.9: score 3000 (minimum 120), concealed_exempt_from_minimum=false:
    melding 4x7 (35) would leave one card while the minimum is out of reach: illegal."""
    state = state_of(
        position(
            variant=classic(concealed_exempt_from_minimum=False),
            hands={2: "4S 4S 4H 4H 4D 4D 4C 6C"},
            to_move=2,
            phase="play",
            scores=[3000, 0],
        )
    )
    assert_illegal(state, "meld:4444444")


def test_canasta_below_minimum_leaving_one_card_with_exemption() -> None:
    """D12 (default), §2.10: the same hand by default goes out concealed: 4x7, discard 6C."""
    state = state_of(
        position(hands={2: "4S 4S 4H 4H 4D 4D 4C 6C"}, to_move=2, phase="play", scores=[3000, 0])
    )
    state = play(state, "meld:4444444", "discard:6C")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 2
    assert outcome.concealed


def test_no_concealed_exemption_after_taking_the_pile() -> None:
    """D12 (exemption only for a player who drew from the stock), §2.8 [LIB]: score 3000
    (minimum 120); taking 4C with six 4s (35) and then 5 5 5 (15) cannot reach 120, and
    the concealed exemption does not apply after a pickup: the take is illegal."""
    state = state_of(
        position(hands={0: "4S 4S 4H 4H 4D 4D 5S 5H 5D 6C"}, pile="9C 4C", scores=[3000, 0])
    )
    assert_illegal(state, "take:444444")


def test_concealed_going_out_may_build_a_group_in_two_moves() -> None:
    """Spec §2.10 (3)(4), D12, §2.8 [LIB] atomic moves: adding to one's own meld of this turn
    is not a lay-off on a team meld: 4 4 4 4, then 4 4 4 on it, 5 5 5 5 and discard 6C go
    out concealed below the minimum (score 3000)."""
    state = state_of(
        position(
            hands={2: "4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C"},
            to_move=2,
            phase="play",
            scores=[3000, 0],
        )
    )
    state = play(state, "meld:4S4S4H4H", "add:4+4D4D4C", "meld:5555", "discard:6C")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 2
    assert outcome.concealed
    assert line(state, 0, "concealed") == 100


def test_meld_in_an_earlier_turn_spoils_concealed() -> None:
    """Spec §2.10 (1): North melds K K K in one turn; next turn North goes out by melding
    seven 5s: not concealed (North melded earlier this hand), bonus 100 only."""
    state = state_of(
        position(
            hands={0: "KS KH KD 9C 5S 5H 5D 5C 5S 5H 4C"},
            phase="play",
            melds=[["8S 8H 8D"], []],
            melded_seats=[2],
            stock="9H 9D TC 5D 8C 8D",
        )
    )
    state = play(state, "meld:KKK", "discard:9C")
    for _ in range(3):  # East, South, West draw and discard
        state = state.apply("draw")
        state = state.apply(next(m for m in state.legal_moves() if m.kind == "discard"))
    state = play(state, "draw", "meld:5555555", "discard:4C")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
    assert not outcome.concealed
    assert line(state, 0, "going out") == 100
    assert line(state, 0, "concealed") == 0


def test_initial_pickup_with_a_two_counts_twenty() -> None:
    """Spec §1.2, §2.8, T4 with initial_pickup_natural_pair=false (D15): score 1500 (minimum
    90): top AS + AH + 2C = 60, then K K K = 30: exactly 90, so the take is legal and the
    side opens (spec §2.8 [LIB]: the pile joins the hand once the minimum is reached)."""
    state = state_of(
        position(
            variant=classic(initial_pickup_natural_pair=False),
            hands={0: "AH 2C KS KH KD 7S 8D"},
            pile="9C AS",
            scores=[1500, 0],
        )
    )
    state = play(state, "take:A2", "meld:KKK")
    # Opened: the rest of the pile (9C) has joined the hand and the turn may end.
    assert "9C" in state.to_dict()["hands"][0].split()
    assert state.is_legal("discard:7S")


@pytest.mark.parametrize("rank", ["5", "6", "7"])
def test_five_point_cards_in_the_initial_meld(rank: str) -> None:
    """Spec §1.2, §2.8: 5s, 6s and 7s are worth 5: five of them (25) and four 4s (20) make
    45 < 50, so neither meld can start a legal opening, in either order."""
    r = rank
    cards = f"{r}S {r}S {r}H {r}D {r}C 4S 4H 4D 4C 9C 8D"
    state = state_of(position(hands={0: cards}, phase="play"))
    assert_illegal(state, "meld:" + r * 5)
    assert_illegal(state, "meld:4444")


def test_jacks_are_worth_ten_in_the_look_ahead() -> None:
    """Spec §1.2, §2.8 (equality suffices): 7 7 7 7 (20) is legal because J J J (30) will
    bring the opening to exactly 50."""
    state = state_of(position(hands={0: "7S 7H 7D 7C JS JH JD 9C 8D KC QH"}, phase="play"))
    state = play(state, "meld:7777", "meld:JJJ")
    assert state.is_legal("discard:9C")


def test_mac_wild_discard_judged_on_the_movers_hand() -> None:
    """Spec §3.5.6: a wild may be discarded only when going out or when the hand is all
    wild; East holds 2C K Q J, so discarding 2C is illegal (North holding one card is
    irrelevant)."""
    state = state_of(
        position(
            variant="modern-american",
            hands={0: "9S", 1: "2C KS QH JD"},
            to_move=1,
            phase="play",
            pile="5H",
        )
    )
    assert_illegal(state, "discard:2C")
    assert state.is_legal("discard:K")


def test_black_threes_after_last_stock_red_three_oblige_going_out() -> None:
    """Spec §2.6 (black threes only in the going-out turn), D11 meld_no_discard: after the
    last stock card 3H, melding 3S 3C 3S obliges going out, so ``end`` is illegal; melding
    K K K then goes out."""
    state = state_of(position(hands={0: "3S 3C 3S KS KH KD"}, melds=[[CANASTA], []], stock="3H"))
    state = play(state, "draw", "meld:333")
    assert_illegal(state, "end", R.MUST_GO_OUT)
    state = play(state, "meld:KKK")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0


def test_initial_pickup_wild_limit_counts_the_pickup_two() -> None:
    """Spec §2.4 (W <= 3), §2.8 [LIB], D15 (initial_pickup_natural_pair=false): score 3000
    (minimum 120); top KS + KH + 2C is 40 with one wild, so only two more wilds fit (JK
    and a 2: 110 < 120): the minimum is out of reach and the take is illegal."""
    state = state_of(
        position(
            variant=classic(initial_pickup_natural_pair=False),
            hands={0: "KH 2C 2D 2H * 5S 9D"},
            pile="9C KS",
            scores=[3000, 0],
        )
    )
    assert_illegal(state, "take:K2")
    assert_illegal(state, "take:K2*")


def test_two_black_threes_and_a_two_do_not_go_out_by_default() -> None:
    """EX-22, D6 (black_three_meld_wilds=false), §2.11 [LIB]: with 3S 3C 2H no going out is
    possible (the threes may not take the two), so asking partner is illegal."""
    state = state_of(position(hands={0: "3S 3C 2H"}, phase="play", melds=[[CANASTA], []]))
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)


def test_two_black_threes_and_a_two_go_out_with_wilds_allowed() -> None:
    """EX-22, D6 (black_three_meld_wilds=true), §2.11 [LIB]: 3S 3C 2H is a going-out meld,
    so asking is allowed and the player goes out."""
    state = state_of(
        position(
            variant=classic(black_three_meld_wilds=True),
            hands={0: "3S 3C 2H"},
            phase="play",
            melds=[[CANASTA], []],
        )
    )
    state = play(state, "ask", "yes", "meld:332")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0


def test_black_threes_with_a_two_count_toward_the_opening() -> None:
    """Spec §1.2, §2.8, D6 (wilds allowed), D12 (no exemption): score 1500 (minimum 90);
    4x7 (35) + 5 5 5 5 5 (25) + 3S 3C 2H (30) is exactly 90 and empties the hand: going out
    is possible, so asking is allowed, and the player goes out."""
    state = state_of(
        position(
            variant=classic(concealed_exempt_from_minimum=False, black_three_meld_wilds=True),
            hands={0: "4S 4S 4H 4H 4D 4D 4C 5S 5S 5H 5D 5C 3S 3C 2H"},
            phase="play",
            scores=[1500, 0],
        )
    )
    state = play(state, "ask", "yes", "meld:332", "meld:4444444", "meld:55555")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0


def test_no_black_threes_after_partner_said_no() -> None:
    """Spec §2.11 (answer "no": the player must not go out this turn), §2.6 (black threes
    only in the going-out turn): after "no", melding 3S 3C 3S is illegal."""
    cards = "3S 3C 3S KS KH KD 9D"
    state = state_of(position(hands={0: cards}, phase="play", melds=[[CANASTA], []]))
    state = play(state, "ask", "no")
    assert_illegal(state, "meld:333")


def test_ask_allowed_for_a_concealed_going_out_below_the_minimum() -> None:
    """EX-24, D12 (default exempt), §2.11 [LIB]: South can go out concealed below the
    minimum, so South may ask first; after "yes" the EX-24 turn goes out concealed."""
    state = state_of(
        position(
            hands={2: "4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C"},
            to_move=2,
            phase="play",
            scores=[3000, 0],
        )
    )
    state = play(state, "ask", "yes", "meld:4444444", "meld:5555", "discard:6C")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.concealed


def test_ask_not_allowed_below_the_minimum_without_exemption() -> None:
    """EX-24 with concealed_exempt_from_minimum=false (D12), §2.11 [LIB]: 55 < 120 and no
    exemption: going out is impossible, so asking is illegal."""
    state = state_of(
        position(
            variant=classic(concealed_exempt_from_minimum=False),
            hands={2: "4S 4S 4H 4H 4D 4D 4C 5S 5H 5D 5C 6C"},
            to_move=2,
            phase="play",
            scores=[3000, 0],
        )
    )
    assert_illegal(state, "ask", R.ASK_NOT_ALLOWED)


def test_black_three_meld_with_wilds_needs_two_threes() -> None:
    """D6 (black_three_meld_wilds=true) with §2.4 (a meld needs N >= 2): 3S 2C 2D is not a
    black-three meld."""
    state = state_of(
        position(
            variant=classic(black_three_meld_wilds=True),
            hands={0: "3S 2C 2D"},
            phase="play",
            melds=[[CANASTA], []],
        )
    )
    assert_illegal(state, "meld:322")


# -- Modern American (spec §3.5) ---------------------------------------------------------


def mac(**options: object) -> canasta.Variant:
    return canasta.variants.get("modern-american", **options)


def test_mac_small_wild_meld_does_not_waive_the_minimum() -> None:
    """Spec §3.5.4 (minimum 125; only a canasta from hand waives it): K K K K K (50) and
    2 2 2 (60) make 110; the only canasta in reach, K K K K K 2 2, is mixed and leaves no
    clean or wild meld for the content rule (D22, [LIB]): no meld may start the opening."""
    cards = "KS KH KD KC KS 2C 2D 2H 5S 6D 8C 9H JD"
    state = state_of(position(variant=mac(), hands={0: cards}, phase="play"))
    assert_illegal(state, "meld:KKK")
    assert_illegal(state, "meld:KKKKK")
    assert_illegal(state, "meld:222")


def test_mac_clean_required_is_not_met_by_a_wild_meld() -> None:
    """Spec §3.5.4, D22 clean_required, EX-40: Q Q 2 (40) + 2 2 2 JK (110) = 150 but has no
    clean meld: neither meld may start the opening."""
    state = state_of(
        position(
            variant=mac(mac_initial_meld_content="clean_required"),
            hands={0: "QS QH 2S 2C 2D 2H * 5S 6D 8C 9H JD 4C"},
            phase="play",
        )
    )
    assert_illegal(state, "meld:QQ2")
    assert_illegal(state, "meld:222*")


def test_mac_wild_canasta_from_hand_waives_the_minimum() -> None:
    """Spec §3.5.4: score 5000 (minimum 180); K K K (30) then seven 2s (140) = 170, but the
    wild canasta laid from hand waives the minimum: both melds are legal, the side opens."""
    state = state_of(
        position(
            variant=mac(),
            hands={0: "KS KH KD 2C 2C 2D 2D 2H 2H 2S 5C 9D"},
            phase="play",
            scores=[5000, 0],
        )
    )
    state = play(state, "meld:KKK", "meld:2222222")
    assert state.is_legal("discard:5C")


def test_mac_natural_canasta_built_in_two_moves_waives_the_minimum() -> None:
    """Spec §3.5.3 (7 cards allowed), §3.5.4, §2.8 [LIB]: score 5000 (minimum 180); K K K K
    (40) then K K K completes a natural canasta from hand, which waives the minimum."""
    state = state_of(
        position(
            variant=mac(),
            hands={0: "KS KS KH KH KD KD KC 5C 9D 8H JS QS 6D"},
            phase="play",
            scores=[5000, 0],
        )
    )
    state = play(state, "meld:KKKK", "add:K+KKK")
    assert state.is_legal("discard:5C")


def test_mac_wild_canasta_laid_in_two_moves_waives_the_minimum() -> None:
    """Spec §3.5.4, §2.8 [LIB]: score 5000 (minimum 180); seven 2s are worth 140, but laid
    from hand as 2 2 2 and then 2 2 2 2 they make a wild canasta from hand, which waives
    the minimum: the three-card wild meld may start the opening."""
    state = state_of(
        position(
            variant=mac(),
            hands={0: "2C 2C 2D 2D 2H 2H 2S 5C 9D 8H"},
            phase="play",
            scores=[5000, 0],
        )
    )
    state = play(state, "meld:222", "add:*+2222")
    assert state.is_legal("discard:5C")


def test_mac_opening_keeps_naturals_a_full_meld_cannot_take() -> None:
    """Spec §3.5.3 (a meld stops at seven), §3.5.4: K K 2 2 (60) leaves six kings in hand,
    too many for the meld; three of them make K K K K K 2 2, a mixed canasta from hand
    that waives the minimum, and Q Q Q gives the clean meld: K K 2 2 may start the opening."""
    state = state_of(
        position(
            variant=mac(), hands={0: "KS KS KH KH KD KD KC KC 2C 2D QS QH QD 5C"}, phase="play"
        )
    )
    state = play(state, "meld:KK22", "add:K+KKK", "meld:QQQ")
    assert state.is_legal("discard:5C")


def test_mac_opening_without_a_mixed_canasta_keeps_naturals_in_hand() -> None:
    """Spec §3.5.4 with mac_initial_mixed_canasta_allowed=false: K K 2 2 (60), then one
    more king (the meld stays short of a mixed canasta, three kings stay in hand), Q Q Q
    and 8 8 8 make 130 with a clean meld: K K 2 2 may start the opening."""
    state = state_of(
        position(
            variant=mac(mac_initial_mixed_canasta_allowed=False),
            hands={0: "KS KS KH KH KD KD KC 2C 2D QS QH QD 8S 8H 8D 5C"},
            phase="play",
        )
    )
    state = play(state, "meld:KK22", "add:K+K", "meld:QQQ", "meld:888")
    assert state.is_legal("discard:5C")


def test_mac_wild_meld_value_reaches_the_minimum_exactly() -> None:
    """Spec §1.2, §3.5.4: 5 5 5 (15) + 2 2 2 JK (110) = 125, exactly the minimum at score 0:
    the 5s may start the opening, and the wild meld completes it."""
    state = state_of(
        position(variant=mac(), hands={0: "5S 5H 5D 2C 2D 2H * 9C JD KS QH 8D 6C"}, phase="play")
    )
    state = play(state, "meld:555", "meld:222*")
    assert state.is_legal("discard:9C")


def test_mac_ask_when_a_wild_canasta_completes_the_second_canasta() -> None:
    """Spec §3.5.7 (two canastas, wild ones included; go out with a discard), §3.5.3 (a wild
    meld is complete at 7): seven wilds make the second canasta and 9S is discarded, so
    asking is allowed."""
    state = state_of(
        position(
            variant=mac(),
            hands={0: "2C 2C 2D 2D 2H 2H * 9S"},
            phase="play",
            melds=[["8S 8S 8H 8H 8D 8D 8C"], []],
        )
    )
    state = play(state, "ask", "yes", "meld:222222*", "discard:9S")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out == 0
