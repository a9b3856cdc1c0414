"""Deal, upcard, red threes and the end of the stock: rules spec §2.2, §2.3, §2.12, §3.2,
worked examples EX-26 to EX-29 (§6.5).

Seats 0 (North) and 2 (South) are side 0, seats 1 (East) and 3 (West) side 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import canasta
from helpers import (
    assert_illegal,
    assert_legal,
    bag,
    hand,
    line,
    meld_of,
    move_texts,
    pile,
    play,
    position,
    state_of,
    stock,
    threes,
    value,
)

R = canasta.IllegalReason


def classic(**options: object) -> canasta.Variant:
    return canasta.variants.get("classic", **options)


def ended_without_going_out(state: canasta.GameState) -> canasta.Outcome:
    assert state.is_over
    assert state.phase == "over"
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.went_out is None
    assert not outcome.concealed
    for side in range(len(outcome.scores)):
        assert line(state, side, "going out") == 0
    return outcome


# -- EX-26: the upcard procedure -----------------------------------------------------


def is_wild(card: str) -> bool:
    return card == "*" or card[0] == "2"


def is_red_three(card: str) -> bool:
    return card in ("3H", "3D")


def is_black_three(card: str) -> bool:
    return card in ("3S", "3C")


SKIP_SETS: dict[str, Callable[[str], bool]] = {
    "wild_red3": lambda c: is_wild(c) or is_red_three(c),
    "wild_any3": lambda c: is_wild(c) or c[0] == "3",
    "none": lambda c: False,
}


def dealt(seed: int, **options: object) -> dict[str, Any]:
    # first_turn keeps the stock untouched by red-three replacements at the deal.
    variant = classic(red_three_declare="first_turn", **options)
    return canasta.new_game(variant, seed=seed).to_dict()


def turned_cards(seed: int) -> list[str] | None:
    """The cards after the deal, in stock order, before any upcard is turned: with
    upcard_skip=none exactly one card is turned, so they are that pile card plus the stock.
    None when the first player was dealt a red 3 (its replacement, drawn at the start of
    its turn, would come from the stock after the upcard)."""
    d = dealt(seed, upcard_skip="none")
    if tokens_of(d["threes"][0]):
        return None
    return pile_tokens(d) + tokens_of(d["stock"])


def pile_tokens(d: dict[str, Any]) -> list[str]:
    return tokens_of(d["pile"])


def tokens_of(text: object) -> list[str]:
    """Card tokens of a to_dict() card string (or list of card texts)."""
    if isinstance(text, list):
        text = " ".join(text)
    return str(text or "").split()


def expected_upcards(cards: list[str], skip: str) -> list[str]:
    covered = SKIP_SETS[skip]
    n = 1
    while n < len(cards) and covered(cards[n - 1]):
        n += 1
    return cards[:n]


def same_deck(seed: int) -> dict[str, dict[str, Any]]:
    """The same seed dealt under the three upcard options (new_game's deck depends only on
    the seed and the number of decks, so the hands agree)."""
    deals = {skip: dealt(seed, upcard_skip=skip) for skip in SKIP_SETS}
    assert len({tuple(d["hands"]) for d in deals.values()}) == 1
    return deals


def check_upcards(seed: int) -> dict[str, list[str]]:
    cards = turned_cards(seed)
    assert cards is not None
    piles = {}
    for skip, d in same_deck(seed).items():
        upcards = expected_upcards(cards, skip)
        assert pile_tokens(d) == upcards, (seed, skip)
        assert tokens_of(d["stock"]) == cards[len(upcards) :], (seed, skip)
        piles[skip] = upcards
    return piles


def first_seed(found: Callable[[list[str]], bool], limit: int = 30000) -> int:
    for seed in range(limit):
        cards = turned_cards(seed)
        if cards is not None and found(cards):
            return seed
    raise AssertionError("no deal of this kind in the first seeds")


def test_ex26_upcard_procedure_on_random_deals() -> None:
    """EX-26 / §2.2 (3), D4: on many deals, the upcard is turned from the top of the stock and
    covered while it is in the skip set: {wild, red 3} by default, {wild, any 3} with
    wild_any3, nothing with none; the covered cards stay in the pile."""
    longer = 0
    for seed in range(300):
        if turned_cards(seed) is None:
            continue
        piles = check_upcards(seed)
        assert len(piles["none"]) == 1
        longer += len(piles["wild_any3"]) > 1
    assert longer > 0  # some deals did cover cards


def test_ex26_joker_red_three_black_three() -> None:
    """EX-26: stock top order wild, red 3, black 3, natural (as JK 3H 3S 9C). Default: the
    wild and the red 3 are covered, the black 3 is the top: the first player may not take the
    pile. wild_any3: the natural is the top (4 cards). none: the wild is the top: blocked."""

    def pattern(cards: list[str]) -> bool:
        covered = expected_upcards(cards, "wild_red3")[:-1]
        return (
            any(is_wild(c) for c in covered)
            and any(is_red_three(c) for c in covered)
            and is_black_three(cards[len(covered)])
        )

    seed = first_seed(pattern)
    cards = turned_cards(seed)
    assert cards is not None
    n = len(expected_upcards(cards, "wild_red3"))
    piles = check_upcards(seed)
    assert piles["wild_red3"] == cards[:n]  # ... wild/red 3 covered, black 3 on top
    assert len(piles["wild_any3"]) > n  # the black 3 is covered too
    assert piles["none"] == cards[:1]
    for skip in ("wild_red3", "none"):  # black 3 or wild on top: the first player is blocked
        state = canasta.new_game(classic(upcard_skip=skip), seed=seed)
        assert move_texts(state) == ["draw"], skip


def frozen_test(pile_cards: str, variant: object, frozen: bool) -> None:
    """Seat 1 (side 1, opened) faces ``pile_cards`` + a 9D discarded by seat 0; it holds
    9S 9H 2D: a natural + wild pickup works only on an unfrozen pile; a natural pair always.
    A red 3 in the taken pile goes to side 1's threes with no replacement."""
    d = position(
        variant=variant,
        hands={0: "9D 5S 6S 7S", 1: "9S 9H 2D 5C 6C"},
        pile=pile_cards,
        stock="4D 8D JD QD",
        melds=[["AS AH AD"], ["KS KH KD"]],
    )
    state = state_of(d)
    if tokens_of(pile_cards)[-1][0] not in "456789TJQKA":
        assert move_texts(state) == ["draw"]  # blocked for the first player
    state = play(state, "draw", "discard:9D")
    if frozen:
        assert_illegal(state, "take:9S2D")
    else:
        assert_legal(state, "take:9S2D")
    after = assert_legal(state, "take:9S9H")
    reds = [c for c in tokens_of(pile_cards) if is_red_three(c)]
    assert threes(after, 1) == bag(" ".join(reds))
    assert not any(is_red_three(c) for c in hand(after, 1))
    assert stock(after) == stock(state)  # no replacement for a red 3 from the pile


@pytest.mark.parametrize(
    ("skip", "pile_cards"),
    [("wild_red3", "* 3H 3S"), ("wild_any3", "* 3H 3S 9C"), ("none", "*")],
)
def test_ex26_resulting_piles_are_frozen(skip: str, pile_cards: str) -> None:
    """EX-26: the resulting piles (default JK 3H 3S, wild_any3 JK 3H 3S 9C, none JK) are
    frozen: after a discard the pile needs a natural pair. The taker gets the 3H as a red 3
    of the side, with no replacement."""
    frozen_test(pile_cards, classic(upcard_skip=skip), frozen=True)


@pytest.mark.parametrize("red_freezes", [True, False])
def test_ex26_red_three_upcard_freezes_option(red_freezes: bool) -> None:
    """EX-26: stock order 3H, 9C: pile 3H 9C is frozen by default; with
    upcard_red_three_freezes=false it is not (D5). Whoever takes it adds the 3H to the side's
    red 3s with no replacement."""
    frozen_test("3H 9C", classic(upcard_red_three_freezes=red_freezes), frozen=red_freezes)


# -- EX-26b: red threes dealt ----------------------------------------------------------


def test_ex26b_dealt_red_threes_at_deal_and_first_turn() -> None:
    """EX-26b (D3): P1 (left of the dealer) and P2 each hold one red 3 after the deal; the
    stock then reads X1 X2 X3 X4. at_deal: P1 lays it and takes X1, P2 lays it and takes X2,
    all before play; P1's first draw is X3. first_turn: P1 lays it and takes X1 at the start
    of the turn, then draws X2; P2 later lays the 3, takes X3 and draws X4."""

    def reds(cards: object) -> list[str]:
        return [c for c in tokens_of(cards) if is_red_three(c)]

    for seed in range(3000):
        first = canasta.new_game(classic(red_three_declare="first_turn"), seed=seed).to_dict()
        hands = first["hands"]
        if (
            len(reds(first["threes"][0])) == 1  # P1 has laid its one red 3 (turn started)
            and len(reds(hands[1])) == 1
            and not reds(hands[2]) + reds(hands[3])
            and not reds(" ".join(tokens_of(first["stock"])[:4]))
        ):
            break
    else:
        raise AssertionError("no suitable deal in the first seeds")
    at_deal = canasta.new_game(classic(), seed=seed).to_dict()
    if at_deal["pile"] != first["pile"] or at_deal["hands"][2:] != hands[2:]:
        pytest.skip("new_game does not deal the same deck for one seed under other options")
    x = tokens_of(first["stock"])  # X2 X3 X4 ...: P1 already took X1 under first_turn
    red1 = reds(hands[1])[0]

    # at_deal: both red 3s laid before play; P1 holds the same hand as under first_turn.
    assert at_deal["hands"][0] == hands[0]
    assert bag(at_deal["hands"][1]) == bag(hands[1]) - bag(red1) + bag(x[0])
    assert bag(at_deal["threes"][1]) == bag(red1)
    assert tokens_of(at_deal["stock"]) == x[1:]
    state = canasta.new_game(classic(), seed=seed).apply("draw")
    assert hand(state, 0) == bag(hands[0]) + bag(x[1])  # X3

    # first_turn: P1 draws X2; P2 lays its red 3, takes X3, then draws X4.
    state = canasta.new_game(classic(red_three_declare="first_turn"), seed=seed)
    assert hand(state, 1) == bag(hands[1])  # P2 still holds its red 3
    state = state.apply("draw")
    assert hand(state, 0) == bag(hands[0]) + bag(x[0])
    discard = sorted(hand(state, 0))[0]
    state = state.apply(f"discard:{discard}")
    assert state.to_move == 1
    state = state.apply("draw")
    assert threes(state, 1) == bag(red1)
    assert hand(state, 1) == bag(hands[1]) - bag(red1) + bag(x[1]) + bag(x[2])


@pytest.mark.parametrize("p2_side_melded", [True, False])
def test_ex26b_first_turn_red_three_never_declared(p2_side_melded: bool) -> None:
    """EX-26b: first_turn, and P1 goes out before P2 ever plays: P2's 3D is scored as
    declared: +100 if P2's side has melded, else -100."""
    d = position(
        variant=classic(red_three_declare="first_turn"),
        hands={0: "KS KH KD 5C", 1: "3D 4S 6H 8C"},
        phase="play",
        melds=[["QS QS QH QH QD QD QC"], ["JS JH JD"] if p2_side_melded else []],
    )
    state = play(state_of(d), "meld:KSKHKD", "discard:5C")
    assert state.is_over
    assert line(state, 1, "red threes") == (100 if p2_side_melded else -100)
    # East's 4S 6H 8C (20; the red 3 has no card value) and West's hand.
    assert line(state, 1, "cards in hand") == -(20 + value(d["hands"][3]))


# -- EX-27 -----------------------------------------------------------------------------


def ex27_position(**options: object) -> dict[str, Any]:
    return position(
        variant=classic(**options),
        hands={0: "9C JD 6D", 1: "5H 7C JH", 2: "5S 5D QC JC"},
        pile="8C",
        stock="4S",
        melds=[["KS KH KD"], ["9S 9H 9D"]],
    )


def test_ex27_stock_exhausted_default() -> None:
    """EX-27: North draws the last stock card (not a red 3) and discards 9C. East's side has
    a 9-meld and the pile is not frozen: East MUST take it (lay 9C off), then discards 5H.
    South's side has no 5-meld; South holds 5S 5D and MAY take; South declines: the hand
    ends at once, scored without a going-out bonus (D10, D20)."""
    d = ex27_position()
    state = play(state_of(d), "draw", "discard:9C")
    assert stock(state) == []
    assert state.to_move == 1
    assert move_texts(state) == ["take"]
    assert_illegal(state, "end", R.PICKUP_FORCED)
    assert_illegal(state, "draw", R.STOCK_EMPTY)
    state = play(state, "take", "discard:5H")
    assert meld_of(state, 1, "9") == bag("9S 9H 9D 9C")
    assert state.to_move == 2
    assert_legal(state, "take:5S5D")  # South may take ...
    state = assert_legal(state, "end")  # ... but declines: the hand ends
    outcome = ended_without_going_out(state)
    # Side 0: K K K (30) - North's J D 6D 4S (20) - South's 5S 5D QC JC (30).
    assert outcome.scores[0] == 30 - 20 - 30
    # Side 1: 9 9 9 9 (40) - East's 7C JH 8C (25) - West's hand.
    assert outcome.scores[1] == 40 - 25 - value(d["hands"][3])


def test_end_only_when_the_stock_is_out() -> None:
    """§2.12: ``end`` is the move that ends the deal once the stock is out (EX-27); with
    cards in the stock, in the draw phase or in the middle of a turn, it is refused with
    END_NOT_ALLOWED; after the deal, with GAME_OVER."""
    state = state_of(ex27_position())
    assert stock(state)
    assert_illegal(state, "end", R.END_NOT_ALLOWED)
    state = play(state, "draw")
    assert_illegal(state, "end", R.END_NOT_ALLOWED)
    state = play(state, "discard:9C", "take", "discard:5H", "end")
    assert state.is_over
    assert_illegal(state, "end", R.GAME_OVER)


def test_ex27_pickup_not_forced_option() -> None:
    """EX-27 with forced_pickup_after_stock=false: East may decline the pile (D20)."""
    state = play(state_of(ex27_position(forced_pickup_after_stock=False)), "draw", "discard:9C")
    assert state.is_legal("take")
    ended_without_going_out(assert_legal(state, "end"))


def test_ex27_end_after_turn_option() -> None:
    """EX-27 with stock_exhausted=end_after_turn: the hand ends right after North's discard
    of 9C (D10)."""
    state = play(state_of(ex27_position(stock_exhausted="end_after_turn")), "draw", "discard:9C")
    ended_without_going_out(state)
    assert pile(state) == ["8C", "9C"]


# -- EX-28 -----------------------------------------------------------------------------

NORTH = "KC 7S 7H 7D 9C JD"


def ex28_state(**options: object) -> canasta.GameState:
    d = position(
        variant=classic(**options),
        hands={0: NORTH, 2: "5S 6H"},
        pile="8C",
        stock="3D",
        melds=[["KS KH KD"], []],
    )
    return state_of(d)


def test_ex28_red_three_as_last_stock_card() -> None:
    """EX-28: North draws 3D as the last stock card. Default (meld_no_discard): 3D goes to
    NS's red 3s with no replacement; North may meld and lay off; no discard; hand ends (D11)."""
    state = assert_legal(ex28_state(), "draw")
    assert threes(state, 0) == bag("3D")
    assert hand(state, 0) == bag(NORTH)  # no replacement card
    assert stock(state) == []
    assert state.to_move == 0
    assert not state.is_over
    assert not any(m.startswith("discard:") for m in move_texts(state))
    assert_illegal(state, "discard:9C", R.NO_DISCARD)
    state = play(state, "add:K+KC", "meld:7S7H7D", "end")
    outcome = ended_without_going_out(state)
    assert line(state, 0, "red threes") == 100
    # K K K K (40) + 7 7 7 (15) + red 3 (100) - North's 9C JD (20) - South's 5S 6H (10).
    assert outcome.scores[0] == 40 + 15 + 100 - 20 - 10


def test_ex28_end_immediately_option() -> None:
    """EX-28 with last_stock_red_three=end_immediately: the hand ends at once (D11)."""
    state = assert_legal(ex28_state(last_stock_red_three="end_immediately"), "draw")
    ended_without_going_out(state)
    assert threes(state, 0) == bag("3D")
    assert line(state, 0, "red threes") == 100


def test_ex28_normal_turn_option() -> None:
    """EX-28 with last_stock_red_three=normal_turn: North melds and discards as usual, then
    stock_exhausted applies (default: East may take the pile or end the hand) (D11)."""
    state = assert_legal(ex28_state(last_stock_red_three="normal_turn"), "draw")
    assert threes(state, 0) == bag("3D")
    state = play(state, "meld:7S7H7D", "discard:9C")
    assert not state.is_over
    assert state.to_move == 1
    assert state.is_legal("end")


@pytest.mark.parametrize("canasta_melded", [False, True])
def test_ex28_normal_turn_with_one_card_that_may_not_go_out(canasta_melded: bool) -> None:
    """EX-28 with normal_turn, North holding one card: the 3D drawn last is not replaced,
    so a normal turn would discard North's last card. Without a canasta that would go out,
    which is not allowed: North has no normal turn, and ends the hand as under
    meld_no_discard (D11 [LIB]; it was left without a legal move). With a canasta the
    discard goes out, as in any normal turn."""
    melds = [[ACES if canasta_melded else "KS KH KD"], []]
    d = position(
        variant=classic(last_stock_red_three="normal_turn"),
        hands={0: "9C", 2: "5S 6H"},
        pile="8C",
        stock="3D",
        melds=melds,
    )
    state = assert_legal(state_of(d), "draw")
    assert threes(state, 0) == bag("3D") and hand(state, 0) == bag("9C")
    if canasta_melded:
        assert move_texts(state) == ["discard:9"]
        assert state.apply("discard:9C").went_out == 0
    else:
        assert move_texts(state) == ["end"]
        assert_illegal(state, "discard:9C", R.NO_DISCARD)
        ended_without_going_out(state.apply("end"))


# -- EX-29 -----------------------------------------------------------------------------

ACES = "AS AS AH AH AD AD AC"
QUEENS = "QS QS QH QH QD QD QC"


@pytest.mark.parametrize("canastas", [1, 2])
def test_ex29_two_players_single_last_card(canastas: int) -> None:
    """EX-29: classic-2p, the stock holds 1 card: drawing it is a complete draw and the turn
    goes on. Going out with one canasta is illegal (two are required)."""
    table = [QUEENS, ACES][:canastas]
    d = position(
        variant="classic-2p", hands={0: "KS KH KD"}, pile="8C", stock="4D", melds=[table, []]
    )
    state = assert_legal(state_of(d), "draw")
    assert state.to_move == 0
    assert state.phase == "play"
    assert stock(state) == []
    assert hand(state, 0) == bag("KS KH KD 4D")
    if canastas == 1:
        assert_illegal(state, "meld:KSKHKD", R.HAND_SIZE, R.CANNOT_GO_OUT)
        assert state.is_legal("discard:4D")
    else:
        state = play(state, "meld:KSKHKD", "discard:4D")
        assert state.is_over
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.went_out == 0
