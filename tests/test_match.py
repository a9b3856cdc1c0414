"""Matches: deals until a side wins (spec §2.14, D18, D26; api.md §7)."""

from __future__ import annotations

import random

import attrs
import pytest

import canasta
from canasta.bots import GreedyBot, RandomBot, play_match
from canasta.match import Deal, Match, deal_seed, decide_winner

# Short targets keep every variant's match to a few deals.
TARGET = 1000


def _bots(variant: canasta.Variant) -> list[GreedyBot]:
    return [GreedyBot() for _ in range(variant.players)]


@pytest.mark.parametrize("name", canasta.variants.names())
def test_every_variant_plays_a_match_to_the_end(name: str) -> None:
    variant = canasta.variants.get(name, target_score=TARGET)
    match = play_match(Match.new(variant, seed=11), _bots(variant), max_deals=40)
    assert match.is_over
    # Spec §2.14: a side at or above the target leads alone (play_on is the default).
    assert isinstance(match.winner, int)
    assert match.scores[match.winner] >= TARGET
    assert sorted(match.scores).count(max(match.scores)) == 1
    # The cumulative scores are the sum of the deals' scores.
    totals = [0] * variant.sides
    for number, deal in enumerate(match.deals, start=1):
        assert deal.number == number
        assert deal.outcome is not None
        # Each deal starts from the scores so far (they set the initial-meld minimum).
        assert deal.scores == tuple(totals)
        # The deal passes to the next seat; the first dealer is the last seat.
        assert deal.dealer == (variant.players - 1 + number - 1) % variant.players
        assert deal.seed == deal_seed(match.seed, number)
        totals = [t + s for t, s in zip(totals, deal.outcome.scores, strict=True)]
    assert tuple(totals) == match.scores
    # Before the last deal, no side had won.
    before_last = match.deals[-1].scores
    assert decide_winner(variant, before_last) is None
    assert match.history == match.deals
    assert match.state.is_over
    assert match.legal_moves() == ()


def test_new_match_deals_the_first_deal() -> None:
    match = Match.new("classic", seed=5)
    assert match.scores == (0, 0)
    assert match.state.scores == (0, 0)
    assert match.state.dealer == 3 and match.state.to_move == 0
    assert match.state == canasta.new_game("classic", seed=deal_seed(5, 1))
    assert match.deal_number == 1
    assert not match.is_over and match.winner is None and match.winners == ()
    current = match.current_deal()
    assert current == Deal(1, deal_seed(5, 1), 3, (0, 0), (), None)
    assert match.history == (current,)


def test_seed_none_picks_one_and_keeps_it() -> None:
    match = Match.new("classic-2p")
    assert isinstance(match.seed, int)
    assert Match.new("classic-2p", seed=match.seed) == match


def test_deal_seed_is_stable() -> None:
    # Seeds come from SHA-256, the same on every platform and Python version.
    assert deal_seed(0, 1) == deal_seed(0, 1)
    assert deal_seed(0, 1) != deal_seed(0, 2) != deal_seed(1, 1)
    assert 0 <= deal_seed(123, 4) < 2**63


def test_match_is_immutable_and_apply_returns_a_new_match() -> None:
    match = Match.new("classic", seed=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        match.seed = 3  # type: ignore[misc]
    after = match.apply("draw")
    assert after is not match
    assert match.state.phase == "draw" and after.state.phase == "play"
    assert after.history[0].moves == (canasta.parse_move("draw"),)


def test_illegal_move_raises_and_changes_nothing() -> None:
    match = Match.new("classic", seed=2)
    with pytest.raises(canasta.IllegalMoveError) as info:
        match.apply("discard:7")
    assert info.value.reason is canasta.IllegalReason.WRONG_PHASE
    assert match.state.phase == "draw"


def test_play_reports_the_ply_of_the_first_illegal_move() -> None:
    match = Match.new("classic", seed=2)
    with pytest.raises(canasta.ReplayError) as info:
        match.play("draw", "draw")
    assert info.value.ply == 1


def test_the_next_deal_is_dealt_when_a_deal_ends() -> None:
    rng = random.Random(4)
    match = Match.new("classic", seed=9)
    while not match.deals:
        before = match
        match = match.apply(rng.choice(match.legal_moves()))
    first = match.deals[0]
    assert first.outcome is not None
    assert first.moves == tuple(e.move for e in before.state.history()) + (first.moves[-1],)
    assert match.scores == first.outcome.scores
    assert match.state.scores == match.scores
    assert match.state.dealer == 0 and match.state.to_move == 1
    assert match.state == canasta.new_game(
        "classic", seed=deal_seed(9, 2), scores=match.scores, dealer=0
    )
    assert match.deal_number == 2
    assert [d.number for d in match.history] == [1, 2]
    assert match.history[1].outcome is None


def test_a_finished_match_accepts_no_move() -> None:
    variant = canasta.variants.get("classic-2p", target_score=5)
    match = play_match(Match.new(variant, seed=1), _bots(variant))
    assert match.is_over
    with pytest.raises(canasta.IllegalMoveError) as info:
        match.apply("draw")
    assert info.value.reason is canasta.IllegalReason.GAME_OVER


def test_max_deals_stops_the_bot_loop() -> None:
    variant = canasta.variants.get("classic", target_score=100_000)
    match = play_match(Match.new(variant, seed=3), _bots(variant), max_deals=2)
    assert len(match.deals) == 2 and not match.is_over


# -- spec §2.14 and D18: who wins ------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((4995, 1000), None),  # nobody at the target
        ((5000, 1000), 0),  # the target itself is enough
        ((5200, 5100), 0),  # both above: the higher wins (§3.5.10 too)
        ((4000, 5100), 1),
        ((5100, 5100), None),  # a tie at the top plays on
        ((5100, 5100, 900), None),
        ((5100, 5200, 5200), None),
        ((5300, 5200, 5200), 0),  # a tie below the leader does not matter
    ],
)
def test_decide_winner_play_on(scores: tuple[int, ...], expected: int | None) -> None:
    variant = canasta.variants.get("classic" if len(scores) == 2 else "classic-3p")
    variant = attrs.evolve(variant, target_score=5000)
    assert decide_winner(variant, scores) == expected


def test_decide_winner_shared_win() -> None:
    variant = canasta.variants.get("classic", tie_policy="shared_win")
    assert decide_winner(variant, (5100, 5100)) == (0, 1)
    assert decide_winner(variant, (5100, 5000)) == 0
    assert decide_winner(variant, (4900, 4900)) is None
    three = canasta.variants.get("classic-3p", tie_policy="shared_win", target_score=5000)
    assert decide_winner(three, (5200, 5200, 5100)) == (0, 1)


def _tied_after_first_deal(policy: str) -> Match:
    """A match whose first deal ends with both sides at exactly 5000."""
    variant = canasta.variants.get("classic", tie_policy=policy)
    start = Match.new(variant, seed=4)
    played = play_match(start, _bots(variant), max_deals=1)
    outcome = played.deals[0].outcome
    assert outcome is not None
    # Carried-in scores chosen so that the deal brings both sides to 5000.
    tied = attrs.evolve(start, scores=tuple(5000 - s for s in outcome.scores))
    return tied.play(played.deals[0].moves)


def test_a_tie_at_the_target_plays_on() -> None:
    match = _tied_after_first_deal("play_on")
    assert match.scores == (5000, 5000)
    assert not match.is_over and match.winner is None
    assert len(match.deals) == 1 and match.state.phase == "draw"


def test_shared_win_ends_the_match_with_a_tuple_of_winners() -> None:
    match = _tied_after_first_deal("shared_win")
    assert match.is_over
    assert match.winner == (0, 1) and match.winners == (0, 1)


# -- D26: Modern American partner questions counted per game ---------------------------


def test_per_game_asks_carry_over_to_the_next_deal() -> None:
    variant = canasta.variants.get(
        "modern-american", mac_ask_partner_limit="per_game", target_score=100_000
    )
    bots = [RandomBot(seed) for seed in range(4)]
    for seed in range(40):
        match = Match.new(variant, seed=seed)
        final = None
        while not match.deals:
            state = match.state
            seat = state.to_move
            assert seat is not None
            moves = state.legal_moves()
            if not moves:
                break
            move = bots[seat].choose(state.observe(seat))
            after = state.apply(move)
            match = match.apply(move)
            final = after
        if not match.deals or final is None or not any(final.asked):
            continue
        assert match.state.asked == final.asked
        return
    pytest.fail("no deal with a partner question found")


def test_per_hand_asks_start_again() -> None:
    variant = canasta.variants.get("modern-american", target_score=100_000)
    rng = random.Random(0)
    match = Match.new(variant, seed=0)
    while not match.deals:
        match = match.apply(rng.choice(match.legal_moves()))
    assert match.state.asked == (0, 0, 0, 0)
