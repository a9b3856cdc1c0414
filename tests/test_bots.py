"""Bots: RandomBot and GreedyBot see only their observation and play every variant."""

from __future__ import annotations

import inspect

import pytest

import canasta
from canasta.bots import (
    Bot,
    GreedyBot,
    NoLegalMoveError,
    RandomBot,
    make_bot,
    play_deal,
    play_match,
)
from canasta.match import Match
from canasta.observation import Observation


def _side_wins(name: str, seeds: range, bot: str = "greedy") -> tuple[int, int]:
    """Deals won by the side of ``bot`` against random bots (sides alternate with the
    seed)."""
    wins = 0
    for seed in seeds:
        state = canasta.new_game(name, seed=seed)
        bot_side = seed % 2
        bots: list[Bot] = [
            make_bot(bot) if state.variant.side_of(s) == bot_side else RandomBot(seed * 10 + s)
            for s in range(state.variant.players)
        ]
        outcome = play_deal(state, bots).outcome()
        assert outcome is not None
        others = max(v for side, v in enumerate(outcome.scores) if side != bot_side)
        wins += outcome.scores[bot_side] > others
    return wins, len(seeds)


@pytest.mark.parametrize("name", ["classic", "modern-american"])
def test_greedy_beats_random(name: str) -> None:
    # 40 seeded deals here to keep CI short; the 200-deal figures are in the changelog.
    wins, deals = _side_wins(name, range(1000, 1040))
    assert wins >= 0.8 * deals, f"{wins}/{deals}"


def test_greedy_matches_end_in_a_reasonable_number_of_deals() -> None:
    for seed in (1, 2):
        match = play_match(Match.new("classic", seed=seed), [GreedyBot() for _ in range(4)])
        assert match.is_over
        assert 2 <= len(match.deals) <= 20


@pytest.mark.parametrize("name", canasta.variants.names())
@pytest.mark.parametrize("bot", ["random", "greedy", "quick", "search"])
def test_bots_finish_a_deal_of_every_variant(name: str, bot: str) -> None:
    state = canasta.new_game(name, seed=3)
    level = 1 if bot == "search" else None  # the cheapest search: this is about rules
    bots = [make_bot(bot, seat, level=level) for seat in range(state.variant.players)]
    final = play_deal(state, bots)
    assert final.is_over and final.outcome() is not None


def test_bots_only_get_an_observation() -> None:
    for bot in (RandomBot(), GreedyBot()):
        params = list(inspect.signature(type(bot).choose).parameters)
        assert params == ["self", "observation"]
        assert isinstance(bot, Bot)


def test_bots_choose_legal_moves_from_the_observation() -> None:
    state = canasta.new_game("classic", seed=4)
    bots: list[Bot] = [RandomBot(1), GreedyBot(), RandomBot(2), GreedyBot(seed=3)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        obs = state.observe(seat)
        move = bots[seat].choose(obs)
        assert move in obs.legal_moves
        state = state.apply(move)


def test_random_bot_is_reproducible() -> None:
    state = canasta.new_game("classic-2p", seed=6)
    first = play_deal(state, [RandomBot(1), RandomBot(2)])
    second = play_deal(state, [RandomBot(1), RandomBot(2)])
    assert first == second
    assert [e.move for e in first.history()] == [e.move for e in second.history()]


def test_greedy_bot_is_deterministic() -> None:
    state = canasta.new_game("modern-american", seed=6)
    first = play_deal(state, [GreedyBot() for _ in range(4)])
    second = play_deal(state, [GreedyBot() for _ in range(4)])
    assert [e.move for e in first.history()] == [e.move for e in second.history()]


def test_greedy_takes_a_rich_pile_and_never_discards_a_wild_needlessly() -> None:
    position = {
        "variant": "classic",
        "to_move": 0,
        "phase": "draw",
        "hands": ["KS KH 5C 6D 9H JC QD 2C", "4C", "4D", "4H"],
        # The whole pile is public: a wild card and cards that match the hand under the top.
        "pile": "7S 9S QS 2D QH KD",
        "stock": "3S 4S 5S",
        "melds": [["AS AH AD"], []],
    }
    state = canasta.GameState.from_dict(position)
    bot = GreedyBot()
    move = bot.choose(state.observe(0))
    assert str(move) == "take:KK"
    state = state.apply(move)
    while state.to_move == 0:
        move = bot.choose(state.observe(0))
        assert move.kind != "discard" or not move.card.is_wild  # type: ignore[attr-defined]
        state = state.apply(move)


def test_greedy_goes_out_when_it_can_and_is_ahead() -> None:
    position = {
        "variant": "classic",
        "to_move": 0,
        "phase": "play",
        "hands": ["QH QD QC 7C", "4C 5C 6C 8C 9C", "4D 5D", "4H 5H 6H"],
        "pile": "9S",
        "stock": "3S 4S 5S",
        "melds": [["KS KS KH KH KD KD KC", "AS AH AD"], ["8S 8H 8D"]],
    }
    state = canasta.GameState.from_dict(position)
    bot = GreedyBot()
    # Seat 0 may ask partner first (spec §2.11); partner, far ahead too, says yes.
    seats: list[int] = []
    while (seat := state.to_move) is not None:
        seats.append(seat)
        state = state.apply(bot.choose(state.observe(seat)))
    assert set(seats) <= {0, 2}
    outcome = state.outcome()
    assert outcome is not None and outcome.went_out == 0


def _answer_position(asker_hand: str) -> canasta.GameState:
    return canasta.GameState.from_dict(
        {
            "variant": "classic",
            "to_move": 2,
            "phase": "answer",
            "hands": [asker_hand, "4C 5C 6C", "* * 2C AD AD KH QH JH", "4H 5H 6H"],
            "pile": "",
            "seed": 1,
            "melds": [
                ["KS KS KH KD KD KC KC", "7S 7H 7H"],
                ["8S 8S 8H 8H 8D 8D 8C", "9S 9S 9H 9H 9D 9D 9C", "TS TS TH TH TD TD TC"],
            ],
            "turn": {"asked": True, "took_pile": True},
            "asked": [1, 0, 0, 0],
        }
    )


def test_greedy_answers_by_its_hand() -> None:
    # Behind, with a big hand, the partner would rather play on.
    assert str(GreedyBot().choose(_answer_position("7C 7D").observe(2))) == "no"


def test_a_position_where_no_would_strand_the_asker_is_refused() -> None:
    # A player asks only when it can go out and still play on after "no": with one card
    # it could not, so such a position cannot be read (and no bot has to answer it).
    with pytest.raises(canasta.PositionError, match="after no"):
        _answer_position("7C")


def test_no_legal_move_raises() -> None:
    state = canasta.new_game("classic", seed=1)
    with pytest.raises(NoLegalMoveError, match="not to act"):
        RandomBot().choose(state.observe(1))
    with pytest.raises(NoLegalMoveError):
        GreedyBot().choose(state.observe(2))


def test_quick_bot_deals_no_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """``quick`` is GreedyBot without look-ahead: it never deals a sampled state."""
    from canasta.bots import sampling

    quick = make_bot("quick")
    assert isinstance(quick, GreedyBot) and not quick.lookahead
    assert repr(quick) == "GreedyBot(lookahead=False)" and quick.name == "quick"

    def no_sampling(*args: object) -> None:
        raise AssertionError("sampled a state")

    monkeypatch.setattr(sampling, "sample_state", no_sampling)
    state = canasta.new_game("classic", seed=4)
    end = play_deal(state, [make_bot("quick", seat) for seat in range(4)])
    assert end.is_over
    with pytest.raises(AssertionError, match="sampled a state"):
        play_deal(state, [GreedyBot(seat) for seat in range(4)])  # the look-ahead samples


def test_quick_bot_beats_random() -> None:
    wins, deals = _side_wins("classic", range(1000, 1040), "quick")
    assert wins >= 0.75 * deals, f"{wins}/{deals}"


def test_make_bot_and_wrong_bot_counts() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    with pytest.raises(ValueError, match="known bots"):
        make_bot("clever")
    state = canasta.new_game("classic", seed=1)
    with pytest.raises(ValueError, match="one bot per seat"):
        play_deal(state, [RandomBot()])
    with pytest.raises(ValueError, match="one bot per seat"):
        play_match(Match.new("classic", seed=1), [RandomBot()])


def test_play_match_gives_the_same_observations_as_the_state() -> None:
    # play_match keeps each deal's history incrementally; the bots must see what
    # state.observe(seat) shows, remembered part included.
    variant = canasta.variants.get("classic", target_score=3000)
    seen: list[Observation] = []

    class Recording(GreedyBot):
        def choose(self, observation: Observation) -> canasta.Move:
            seen.append(observation)
            return super().choose(observation)

    match = play_match(Match.new(variant, seed=2), [Recording() for _ in range(4)])
    assert match.is_over and len(match.deals) >= 2
    replay = Match.new(variant, seed=2)
    for obs in seen:
        expected = replay.state.observe(obs.seat)
        assert obs == expected
        assert obs.history == expected.history
        assert obs.known == expected.known
        assert obs.pile_seen == expected.pile_seen
        replay = replay.apply(GreedyBot().choose(obs))
    assert replay == match


def test_the_package_exports_only_its_public_names() -> None:
    from canasta import bots

    assert sorted(bots.__all__) == sorted(
        ["BOTS", "Bot", "GreedyBot", "NoLegalMoveError", "RandomBot", "SearchBot", "make_bot"]
        + ["play_deal", "play_match"]
    )
    for helper in ("Callable", "Counter", "attrs", "random", "sample_state"):
        assert not hasattr(bots, helper), helper


def test_greedy_plays_modern_american_rules_under_any_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Modern American play follows the rules, not the variant's name or family: a
    third party's variant with those rules is played the same way, move for move."""
    import attrs

    from canasta.bots import greedy
    from canasta.bots.strategy import CLASSIC
    from canasta.variants.modern import ModernAmericanVariant

    @attrs.frozen(cache_hash=True)
    class HouseRules(ModernAmericanVariant):
        family = "house"

    mac = canasta.variants.get("modern-american")
    house = HouseRules(**{**attrs.asdict(mac, recurse=False), "name": "house-rules"})
    assert house.name != mac.name and house.family != mac.family

    def moves(variant: canasta.Variant, seed: int) -> list[str]:
        end = play_deal(canasta.new_game(variant, seed=seed), [GreedyBot() for _ in range(4)])
        return [str(e.move) for e in end.history()]

    seeds = (1, 2, 3)
    played = [moves(mac, seed) for seed in seeds]
    assert [moves(house, seed) for seed in seeds] == played
    # The comparison can tell the strategies apart: played as classic, the deals differ.
    monkeypatch.setattr(greedy, "strategy_for", lambda variant: CLASSIC)
    assert [moves(house, seed) for seed in seeds] != played
