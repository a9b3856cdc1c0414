"""`sample_state` when a hidden hand must be able to go out: a seat that asked partner
may only have asked with a way to go out, so every sampled deal must give it one."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.bots import GreedyBot
from canasta.moves import Answer, Ask


def _after_ask(variant: str) -> canasta.GameState:
    """The first position of seeded GreedyBot deals in which a seat has just asked."""
    for seed in range(20):
        state = canasta.new_game(variant, seed=seed)
        bots = [GreedyBot(seed * 4 + seat) for seat in range(4)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            move = bots[seat].choose(state.observe(seat))
            state = state.apply(move)
            if isinstance(move, Ask) and len(state.hand(seat)) >= 3:
                return state
    raise AssertionError("no seat asked partner in the seeded deals")


@pytest.mark.parametrize("variant", ["classic", "modern-american"])
def test_a_sampled_asker_can_go_out(variant: str) -> None:
    asked = _after_ask(variant)
    assert asked.phase == "answer"
    said_yes = asked.apply(Answer(True))
    asker = said_yes.to_move
    assert asker is not None
    for state in (asked, said_yes):
        for seat in range(4):
            if seat == asker:
                continue
            seen = state.observe(seat)
            rng = random.Random(seat)
            for _ in range(12):
                world = canasta.sample_state(seen, rng)
                assert world.observe(seat) == seen
                if world.phase == "answer":
                    world = world.apply(Answer(True))
                assert world.to_move == asker
                # After "yes" the asker must go out: it needs a legal move to do it.
                assert world.legal_moves(), (seat, world.hand(asker))


# A deal of modern-american-club (seed 11, random legal moves) in which seat 1 drew a three
# at move 98 and holds it (its side had not opened), and its partner opened at move 112.
# At its end the stock is empty, so that three is in no hidden hand but seat 1's.
_HELD_THREE_DEAL = (
    "expose:3 draw discard:T draw discard:T draw discard:9 draw discard:A draw discard:5 "
    "expose:3 draw discard:A draw meld:66** meld:JJJ discard:8 expose:3 draw discard:4 draw "
    "discard:K draw discard:8 draw discard:J draw discard:9 take:99 discard:4 draw "
    "discard:Q draw discard:K draw discard:7 draw meld:TTT discard:A draw discard:4 draw "
    "discard:K draw discard:Q take:QQ discard:9 draw discard:7 draw discard:J draw "
    "discard:T draw discard:5 expose:3 draw discard:8 draw discard:4 draw discard:9 draw "
    "add:9+9 discard:Q draw discard:J draw add:9+92 discard:8 draw discard:T draw add:9+2 "
    "discard:J expose:3 draw discard:4 draw discard:7 draw discard:9 draw add:T+T discard:8 "
    "draw discard:4 draw add:T+T add:Q+Q discard:5 draw discard:J draw add:T+* discard:6 "
    "draw discard:J draw discard:4 draw discard:4 take:444 discard:K draw discard:5 draw "
    "add:6+6 add:T+* discard:A take:AA meld:8822 meld:662 discard:T draw"
)


def _held_three_deal(moves: int | None = None) -> canasta.GameState:
    played = " ".join(_HELD_THREE_DEAL.split()[:moves])
    return canasta.new_game("modern-american-club", seed=11).play(played)


def _threes(state: canasta.GameState, seat: int) -> int:
    return sum(1 for card in state.hand(seat) if card.rank == "3")


def test_the_turn_card_on_the_stock_stays_there_when_an_asker_is_dealt() -> None:
    """§3.5.11.2 TC2, §2.11: seat 1 asked; the turn card QS lies face up on top of the
    stock (9 cards). Hands built for the asker to go out took unseen cards, QS among them,
    and sampling then failed with PositionError (14 of these 80 samples): the turn card
    now stays on the stock. Found by the match soak."""
    state = canasta.GameState.from_dict(
        {
            "variant": "modern-american-club",
            "dealer": 2,
            "to_move": 3,
            "phase": "answer",
            "hands": [
                "6H 6C 8S 9H 9C TC KS",
                "AD 6S 6D 6C 7S 7S 7H 7H 7C QC KH",
                "AS AC 2C 2C 4H 4C 7D 7C 9C *",
                "6H 6D 8H JD QC",
            ],
            "pile": "QS 9D 7D 9S 6S TC QH JH",
            "stock": "QS * KD 2H 3S 4S 4D QD 5C",
            "melds": [
                ["8H 8C *", "TS TH TD", "QH QD *", "2S 2D 2D"],
                [
                    "AS AH AH AD AC",
                    "4S 4H 4D 4C",
                    "5S 5S 5H 5H 5D 5D 5C",
                    "8S 8D 8D 8C",
                    "9S 9H 9D",
                    "TS TH TD",
                    "2H JS JS JH JD JC JC",
                    "2S KS KH KD KC KC",
                ],
            ],
            "threes": ["3C 3D 3D", "3H 3C 3H 3S"],
            "melded_seats": [0, 1, 2, 3],
            "asked": [0, 1, 0, 0],
            "turn": {"asked": True},
            "openings": [1, 0],
            "talon_taken": [3, 0],
            "known": ["", "AD 6S 6D 7S QC", "", "6H 6D QC"],
            "discarded": [
                "KD 7D 4C 8D QS 9H AD 5C 9S JH",
                "4H KH 6H TS QC 6D JS QS 6S",
                "6S QC JD 7S 9S 5D 8S 9D TC",
                "TH 4S 6D 6S KH 8D TH 6S 7D QH",
            ],
        }
    )
    assert state.turn_card == canasta.Card.parse("QS") and state.stock_size == 9
    for seat in (0, 2):
        observation = state.observe(seat)
        for seed in range(40):
            sampled = canasta.sample_state(observation, random.Random(seed))
            assert sampled.observe(seat) == observation
            assert sampled.stock[0] == canasta.Card.parse("QS")


def test_a_held_three_is_dealt_where_it_may_stay() -> None:
    # Spec §3.5.11.4 H1, H3: seat 1 may keep its three until its next turn begins; seat 3
    # opened, and its own three would have gone down as that turn ended; side 0 opened long ago.
    end = _held_three_deal()
    assert end.stock_size == 0 and _threes(end, 1) == 1
    for seat in (0, 2):
        seen = end.observe(seat)
        for salt in range(20):
            world = canasta.sample_state(seen, random.Random(salt))
            assert world.observe(seat) == seen
            assert [_threes(world, s) for s in range(4)] == [0, 1, 0, 0]


def test_a_three_may_be_held_only_by_a_side_that_has_not_opened() -> None:
    drawn = _held_three_deal(98)  # seat 1 has just drawn its three; side 0 has opened
    assert drawn.opened == (True, False) and _threes(drawn, 1) == 1
    seen = drawn.observe(0)
    held = {1: 0, 2: 0, 3: 0}
    for salt in range(200):
        world = canasta.sample_state(seen, random.Random(salt))
        assert world.observe(0) == seen
        for seat in held:
            assert _threes(world, seat) <= 1
            held[seat] += _threes(world, seat)
    assert held[2] == 0
    assert held[1] > 20 and held[3] > 20


def test_threes_not_laid_out_yet_are_dealt_where_they_may_stay() -> None:
    """D3 first_turn: the threes of the seats that have not played yet are still in their
    hands, and the seat to move (which laid its own out) holds none. With hands of 26 and
    two stock cards, hands dealt in turn often left the seat to move a three it cannot
    hold: sampling for seats 1 and 2 failed with PositionError for 10 of these 40 seeds
    each. The threes now go first, each to a place that may hold it. (The position was
    reached with ``hand_size=26``, a hand size refused since: it is read as a position.)"""
    state = canasta.GameState.from_dict(
        {
            "variant": {"variant": "modern-american", "red_three_declare": "first_turn"},
            "dealer": 2,
            "to_move": 3,
            "phase": "play",
            "hands": [
                "AD AC 2S 2H 2C 3S 3H 3H 3D 4S 4H 4H 5S 5C 5C 7H 7D 8C JH JD QS QH QD KH KC *",
                "AH 2C 3S 3D 5S 5H 5H 5D 5D 6S 6D 6C 7H 7D 8S 8H 8D 9S 9S 9H 9D TS TC JC * *",
                "AS AH AD AC 2S 3C 4S 4D 4C 6S 6H 7S 7C 8H 8D TS TH TD TD JS JC QS QD QC KS *",
                "AS 2D 4C 6H 6D 6C 7S 7C 9H 9D 9C 9C TH TC JS JH QH QC KS KH KD KD KC",
            ],
            "pile": "",
            "stock": "JD 4D",
            "melds": [[], ["2H 2D 8S 8C"]],
            "threes": ["", "3C"],
            "opened": [False, False],
            "turn": {"groups": [["8", 2, 2, True]], "melded": True, "opening": 60},
        }
    )
    assert state.to_move == 3 and state.stock_size == 2
    threes = [sum(1 for c in state.hand(seat) if c.rank == "3") for seat in range(4)]
    assert threes[3] == 0 and sum(threes) >= 5
    for seat in range(3):
        observation = state.observe(seat)
        for seed in range(40):
            sampled = canasta.sample_state(observation, random.Random(seed))
            assert sampled.observe(seat) == observation
            assert not any(c.rank == "3" for c in sampled.hand(3))
