"""A deterministic slice of the soak test (``make soak`` runs it for minutes).

One deal of every registered variant with the soak's invariants checked after every move
(``tools/soak.py``), and checks that the soak does catch a broken invariant.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import cast

import attrs
import pytest

import canasta
from canasta import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import soak  # tools/ is not a package: found through the path above


def test_one_deal_of_every_variant() -> None:
    names = canasta.variants.names()
    tally = soak.soak(names, seed=11, deals=1)
    assert tally.failures == []
    assert tally.deals == len(names) and tally.records == len(names)
    assert tally.moves > 50 * len(names)
    assert tally.unlisted_rejected > tally.moves  # several candidates per state
    assert tally.round_trips == tally.moves + tally.deals
    assert tally.observations >= 2 * tally.round_trips


def test_one_deal_of_every_variant_under_random_options() -> None:
    """``--random-options``: house rules, scores and a dealer drawn from each deal's seed."""
    names = canasta.variants.names()
    tally = soak.soak(names, seed=3, deals=1, options=True)
    assert tally.failures == []
    assert tally.deals == len(names) and tally.records == len(names)


def test_random_options_are_accepted_combinations_of_the_variants_options() -> None:
    for name in canasta.variants.names():
        preset = canasta.variants.get(name)
        drawn = [soak.random_options(preset, random.Random(seed)) for seed in range(20)]
        changed = [variant for variant in drawn if variant != preset]
        assert len(changed) >= 15, name  # a set is refused, and drawn again, now and then
        for variant in changed:
            assert variant.name == name
            assert canasta.variants.from_config(variant.to_config()) == variant
        # Between them, the sets change most of the options.
        options = {key for variant in changed for key in variant.to_config()} - {"variant"}
        assert len(options) >= len(preset.option_specs()) * 3 // 4, name


def test_the_deal_where_the_soak_found_a_known_three_left_behind() -> None:
    """A deal ``make soak`` failed: a held three known as the turn card stayed known after
    it went down, and the position after did not reload (tests/test_mac_special_hands.py
    has the rule's own test)."""
    tally = soak.soak(["modern-american-club"], seed=10, deals=1)
    assert tally.failures == [] and tally.deals == 1


def test_the_soak_counts_set_aside_talons() -> None:
    """Talons dealt face down (``mac_talon_source="set_aside"``) are cards of the table
    until taken, when they join the opener's hand (the position shows a taken one as
    null)."""
    variant = canasta.variants.get("modern-american-club", mac_talon_source="set_aside")
    state = canasta.new_game(variant, seed=100)
    deck = soak.deck_of(variant)
    assert soak.cards_on_table(state) == deck
    taken = state.play("expose:3 draw meld:AA* meld:666 meld:KK2 discard:J")
    assert taken.to_dict()["talons"]["4"] is None
    assert soak.cards_on_table(taken) == deck


def test_matches_under_random_options() -> None:
    """``--matches``: a match each, its deals checked like single deals, and the match
    after each deal (seed 2: one of them lasts two deals, the other one)."""
    tally = soak.soak(
        ["classic-2p", "modern-american"], seed=2, deals=1, matches=True, options=True
    )
    assert tally.failures == []
    assert tally.matches == 2 and tally.records == 2 and tally.deals == 3
    assert tally.round_trips == tally.moves + tally.deals  # each deal checked from its start


def test_the_soak_notices_match_scores_that_are_not_the_deals_sum() -> None:
    start = canasta.Match.new(canasta.variants.get("classic-2p", target_score=5), seed=1)
    match, final = start, start.state
    while not match.deals:
        move = match.legal_moves()[0]
        final = match.state.apply(move)
        match = match.apply(move)
    soak._check_deal_end(match, final)
    wrong = attrs.evolve(match, scores=tuple(score + 5 for score in match.scores))
    with pytest.raises(soak.SoakFailure, match="sum of the deals"):
        soak._check_deal_end(wrong, final)


def test_pickup_turns_under_random_options() -> None:
    """``--pickups``: the turn of each pickup of a side not opened searched position by
    position, every listed move checked again as written."""
    names = canasta.variants.names()
    tally = soak.soak(names, seed=5, deals=1, pickups=True, options=True)
    assert tally.failures == []
    assert tally.pickups >= len(names) // 2 and tally.moves > 10 * tally.pickups
    assert tally.line().startswith(f"{tally.pickups} pickups")


def test_pickup_line_when_no_pickup_is_found() -> None:
    """A ``--pickups`` run that finds no pickup says so in its own terms."""
    tally = soak.soak(["classic"], seed=5, deals=0, pickups=True)
    assert tally.line() == "0 pickups, 0 positions of their turns, 0 failures"


def test_turn_searches_under_random_options() -> None:
    """``--turns``: turns of random deals searched whole, every position with a legal move
    and every listed move checked again as written."""
    names = canasta.variants.names()
    tally = soak.soak(names, seed=5, deals=1, turns=True, options=True)
    assert tally.failures == []
    assert tally.deals == len(names) and tally.turns >= len(names)
    assert tally.moves > 10 * tally.turns
    assert tally.line().startswith(f"{len(names)} deals, {tally.turns} turns searched")


def test_turn_search_paths_replay_to_their_positions() -> None:
    """The moves `turn_tree` gives with each position (a failure's replay line) lead to
    it, through the partner's answers too."""
    rng = random.Random(4)
    state = canasta.new_game("classic", seed=4)
    for _ in range(59):  # random play to a turn in which the player may ask
        state = state.apply(rng.choice(state.legal_moves()))
    paths = []
    for position, path in soak.turn_tree(state, limit=200):
        assert state.play(*path) == position
        paths.append(path)
    assert {"ask", "yes", "no"} <= {move for path in paths for move in path}


def test_turn_search_notices_a_position_without_a_legal_move() -> None:
    class Stuck:
        to_move = 0

        def legal_moves(self) -> tuple[canasta.Move, ...]:
            return ()

    with pytest.raises(soak.SoakFailure, match="no legal move"):
        list(soak.turn_tree(cast(GameState, Stuck())))


def test_the_soak_notices_a_missing_card() -> None:
    state = canasta.new_game("classic-2p", seed=1)
    deck = soak.deck_of(state.variant)
    soak.check_state(state, deck, soak.Tally(), random.Random(0))
    with pytest.raises(soak.SoakFailure, match="the variant's cards"):
        soak.check_state(state, deck - Counter(["AS"]), soak.Tally(), random.Random(0))


def test_a_failure_names_the_deal_and_its_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails_at_ply_three(state: canasta.GameState, *args: object) -> None:
        if len(state.history()) == 3:
            raise soak.SoakFailure("invented failure")

    monkeypatch.setattr(soak, "check_outcome", lambda state: None)
    monkeypatch.setattr(soak, "check_state", fails_at_ply_three)
    tally = soak.soak(["classic"], seed=5, deals=1, report=lambda line: None)
    (failure,) = tally.failures
    assert failure.startswith("classic seed 5: invented failure")
    replay = failure.split("replay: ")[1]
    state = eval(replay, {"canasta": canasta})
    assert len(state.history()) == 3


def test_a_failure_under_random_options_replays_its_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fails_at_ply_two(state: canasta.GameState, *args: object) -> None:
        if len(state.history()) == 2:
            raise soak.SoakFailure("invented failure")

    monkeypatch.setattr(soak, "check_state", fails_at_ply_two)
    tally = soak.soak(["classic-3p"], seed=8, deals=1, options=True, report=lambda line: None)
    (failure,) = tally.failures
    replay = failure.split("replay: ")[1]
    state = eval(replay, {"canasta": canasta})
    rng = random.Random(8)  # the deal's rules, scores and dealer, drawn as the soak drew them
    variant = soak.random_options(canasta.variants.get("classic-3p"), rng)
    assert variant != canasta.variants.get("classic-3p")
    assert state.variant == variant and len(state.history()) == 2
    assert list(state.scores) == [rng.choice(soak.SCORES) for _ in range(variant.sides)]
    assert state.dealer == rng.randrange(variant.players)


def test_the_soak_checks_the_learning_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seat's vector within the encoder's bounds; each legal move's action index."""
    state = canasta.new_game("classic", seed=2)
    deck = soak.deck_of(state.variant)
    soak.check_state(state, deck, soak.Tally(), random.Random(0))
    actions, encoder, _ = soak._learning(state.variant)
    monkeypatch.setattr(soak, "_learning", lambda variant: (actions, encoder, lambda v: False))
    with pytest.raises(soak.SoakFailure, match="vector is out of bounds"):
        soak.check_state(state, deck, soak.Tally(), random.Random(0))
    draw = state.legal_moves()[0]
    monkeypatch.setattr(soak, "_learning", lambda variant: (actions, encoder, lambda v: True))
    monkeypatch.setattr(actions, "decode", lambda state, index: draw)
    with pytest.raises(soak.SoakFailure, match=r"action \d+ is not"):
        soak.check_state(state.apply(draw), deck, soak.Tally(), random.Random(0))
