"""The built-in presets: their key figures per rules spec §3.1–§3.5 and §3.7, the option
defaults of the flag registry (§5), and the registry's names and aliases (api.md §2).

Figures are checked on the variant values and, where cheap, through play: a fresh deal
shows the number of seats, hand size, decks and draw count; finished positions show the
red-three scores (§2.13, §3.4, EX-34); ``initial_minimum`` gives the minimum table (§2.8,
§3.4, §3.5.4, EX-15).
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import canasta
from canasta import variants

BUILTINS = (
    "classic",
    "classic-2p",
    "classic-3p",
    "classic-3p-cutthroat",
    "classic-6p",
    "classic-6p-3x2",
    "classic-6p-3x2-2deck",
    "modern-american",
    "dutch-s4",
    "modern-american-club",
)

# name: (players, sides, decks, hand_size, draw_count, canastas_to_go_out, target_score)
KEY_FIGURES = {
    "classic": (4, 2, 2, 11, 1, 1, 5000),  # §3.1
    "classic-2p": (2, 2, 2, 15, 2, 2, 5000),  # §3.2
    "classic-3p": (3, 3, 2, 13, 2, 1, 7500),  # §3.3 classic3
    "classic-3p-cutthroat": (3, 3, 2, 13, 2, 2, 7500),  # §3.3 cutthroat3
    "classic-6p": (6, 2, 3, 13, 1, 2, 10000),  # §3.4 six_2x3_3deck
    "classic-6p-3x2": (6, 3, 3, 13, 1, 2, 7500),  # §3.4 six_3x2_3deck
    "classic-6p-3x2-2deck": (6, 3, 2, 11, 1, 1, 5000),  # §3.4 six_3x2_2deck
    "modern-american": (4, 2, 2, 13, 1, 2, 8500),  # §3.5.1
    "dutch-s4": (4, 2, 2, 11, 1, 1, 5000),  # §3.7: as classic4
    "modern-american-club": (4, 2, 2, 13, 1, 2, 8500),  # §3.5.11: as modern-american
}

# Spec §2.13 (2 decks: 100 each, 800 for all four) and §3.4 / EX-34 (3 decks: 100 each up to
# four, 1000 for five, 1200 for six).
RED_THREES_2DECK = [0, 100, 200, 300, 800]
RED_THREES_3DECK = [0, 100, 200, 300, 400, 1000, 1200]
CLASSIC_PRESETS = [n for n in BUILTINS if not n.startswith("modern-american")]


def test_builtin_names_are_registered_in_order() -> None:
    """api.md §2: the built-ins are registered; names() lists names, not aliases."""
    names = variants.names()
    assert names[: len(BUILTINS)] == BUILTINS
    assert len(set(names)) == len(names)
    assert not set(names) & set(variants.aliases())


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("classic4", "classic"),
        ("classic2", "classic-2p"),
        ("classic3", "classic-3p"),
        ("cutthroat3", "classic-3p-cutthroat"),
        ("six_2x3_3deck", "classic-6p"),
        ("six_3x2_3deck", "classic-6p-3x2"),
        ("six_3x2_2deck", "classic-6p-3x2-2deck"),
        ("mac", "modern-american"),
        ("dutch_s4", "dutch-s4"),
        ("mac_club", "modern-american-club"),
    ],
)
def test_spec_preset_names_are_aliases(alias: str, name: str) -> None:
    """The rules spec's preset names (§3) are aliases of the library's names."""
    assert variants.aliases()[alias] == name
    assert variants.get(alias) is variants.get(name)
    assert variants.get(alias).name == name
    assert variants.get(alias, target_score=3000) == variants.get(name, target_score=3000)


def test_aliases_returns_a_copy() -> None:
    variants.aliases()["nonsense"] = "classic"
    assert "nonsense" not in variants.aliases()


@pytest.mark.parametrize("name", BUILTINS)
def test_key_figures(name: str) -> None:
    """Spec §3.1–§3.5, §3.7: seats, sides, decks, hand size, draw, canastas, target."""
    v = variants.get(name)
    figures = (
        v.players,
        v.sides,
        v.decks,
        v.hand_size,
        v.draw_count,
        v.canastas_to_go_out,
        v.target_score,
    )
    assert figures == KEY_FIGURES[name]
    assert v.name == name


@pytest.mark.parametrize("name", BUILTINS)
def test_a_fresh_deal_matches_the_figures(name: str) -> None:
    """A new deal has one hand of ``hand_size`` per seat and every card of ``decks`` decks;
    drawing takes ``draw_count`` cards (threes drawn are replaced, so the hand grows by
    exactly that many)."""
    players, _sides, decks, hand_size, draw_count, *_ = KEY_FIGURES[name]
    state = canasta.new_game(name, seed=11)
    d = state.to_dict()
    hands = [canasta.parse_cards(h) for h in d["hands"]]
    assert len(hands) == players
    assert all(len(h) == hand_size for h in hands)
    total = sum(len(h) for h in hands)
    total += len(canasta.parse_cards(d["pile"])) + len(canasta.parse_cards(d["stock"]))
    total += sum(len(canasta.parse_cards(t)) for t in d["threes"])
    assert total == decks * 54
    seat = state.to_move
    assert seat is not None
    after = state.apply("draw").to_dict()
    assert len(canasta.parse_cards(after["hands"][seat])) == hand_size + draw_count


@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("classic", [(0, 2), (1, 3)]),  # §2.1: partners opposite
        ("classic-2p", [(0,), (1,)]),
        ("classic-3p", [(0,), (1,), (2,)]),
        ("classic-6p", [(0, 2, 4), (1, 3, 5)]),  # §3.4: two teams of three, alternately
        ("classic-6p-3x2", [(0, 3), (1, 4), (2, 5)]),  # §3.4: partners opposite
        ("classic-6p-3x2-2deck", [(0, 3), (1, 4), (2, 5)]),
        ("modern-american", [(0, 2), (1, 3)]),
    ],
)
def test_side_layout(name: str, layout: list[tuple[int, ...]]) -> None:
    """api.md §2: seat s plays for side s % sides."""
    v = variants.get(name)
    assert [v.seats_of(side) for side in range(v.sides)] == layout
    assert all(v.side_of(seat) == side for side, seats in enumerate(layout) for seat in seats)


# -- initial-meld minimum (spec §2.8, §3.4, §3.5.4; EX-15) --------------------------------

CLASSIC_TABLE = [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120)]


@pytest.mark.parametrize("name", CLASSIC_PRESETS)
@pytest.mark.parametrize(("score", "minimum"), CLASSIC_TABLE)
def test_ex15_classic_minimum_table(name: str, score: int, minimum: int) -> None:
    """EX-15: -5 -> 15; 0 -> 50; 1495 -> 50; 1500 -> 90; 2995 -> 90; 3000 -> 120; 4995 -> 120."""
    assert variants.get(name).initial_minimum(score) == minimum


def test_ex15_negative_score_minimum_zero() -> None:
    """EX-15: with negative_score_minimum=0, -5 -> 0."""
    v = variants.get("classic", negative_score_minimum=0)
    assert v.initial_minimum(-5) == 0
    assert v.initial_minimum(0) == 50


@pytest.mark.parametrize(
    ("name", "score", "minimum"),
    [
        ("classic-6p", 7495, 120),  # EX-15, six_2x3_3deck
        ("classic-6p", 7500, 150),
        ("classic-6p", 20000, 150),
        ("classic-6p-3x2", 7500, 120),  # §3.4: the §2.8 table only
        ("classic-6p-3x2-2deck", 7500, 120),
        ("classic", 7500, 120),
    ],
)
def test_ex15_six_player_rows(name: str, score: int, minimum: int) -> None:
    """EX-15 6p ``six_2x3_3deck``: 7495 -> 120; 7500 -> 150 (the 150 row is only there)."""
    assert variants.get(name).initial_minimum(score) == minimum


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180), (9000, 180)],
)
def test_ex15_modern_american_minimums(score: int, minimum: int) -> None:
    """EX-15 MAC: -500 -> 125; 2995 -> 125; 3000 -> 155; 4995 -> 155; 5000 -> 180."""
    assert variants.get("modern-american").initial_minimum(score) == minimum


def test_minimum_table_option_is_used() -> None:
    """A house table from a config (lists) replaces the classic table."""
    v = variants.from_config(
        {"variant": "classic", "minimum_table": [[0, 60], [2000, 100], [4000, 150]]}
    )
    assert [v.initial_minimum(s) for s in (-5, 0, 1995, 2000, 4000)] == [15, 60, 60, 100, 150]


# -- red threes (spec §2.13, §3.4; EX-34) -------------------------------------------------


def finished_with_red_threes(name: str, count: int, opened: bool) -> canasta.GameState:
    """A finished deal of ``name`` in which side 0 holds ``count`` red threes and, when
    ``opened``, a meld of three eights; nobody went out, every hand is empty."""
    v = variants.get(name)
    melds: list[list[str]] = [[] for _ in range(v.sides)]
    if opened:
        melds[0] = ["8S 8H 8D"]
    threes = ["" for _ in range(v.sides)]
    threes[0] = " ".join(["3H", "3D"] * v.decks)[: 3 * count].strip()
    d: dict[str, Any] = {
        "variant": name,
        "phase": "over",
        "to_move": None,
        "hands": ["" for _ in range(v.players)],
        "pile": "",
        "stock": "",
        "melds": melds,
        "threes": threes,
    }
    return canasta.GameState.from_dict(d)


def red_three_line(state: canasta.GameState) -> int:
    outcome = state.outcome()
    assert outcome is not None
    return int(dict(outcome.breakdown[0]).get("red threes", 0))


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("classic", RED_THREES_2DECK),
        ("classic-2p", RED_THREES_2DECK),
        ("classic-3p", RED_THREES_2DECK),
        ("classic-6p", RED_THREES_3DECK),
        ("classic-6p-3x2", RED_THREES_3DECK),
        ("classic-6p-3x2-2deck", RED_THREES_2DECK),
        ("dutch-s4", RED_THREES_2DECK),
    ],
)
@pytest.mark.parametrize("opened", [True, False])
def test_ex34_red_three_scores(name: str, table: list[int], opened: bool) -> None:
    """EX-34 (3 decks): opened side with 4 red 3s +400, 5 +1000, 6 +1200; unopened with 5
    -1000. Two decks (§2.13): 100 each, 800 for all four. Negative when not opened."""
    v = variants.get(name)
    assert isinstance(v, variants.ClassicVariant)
    assert list(v.red_three_scores) == table
    for count, magnitude in enumerate(table):
        state = finished_with_red_threes(name, count, opened)
        assert red_three_line(state) == (magnitude if opened else -magnitude), count


# -- option defaults (spec §5) ------------------------------------------------------------

CLASSIC_DEFAULTS: dict[str, Any] = {
    "max_wilds_per_meld": 3,
    "meld_wild_ratio": "min2_max3",
    "classic_wild_canasta": False,
    "classic_wild_canasta_bonus": 1000,
    "initial_meld_failure": "reject",
    "negative_score_minimum": 15,
    "red_three_declare": "at_deal",
    "upcard_skip": "wild_red3",
    "upcard_red_three_freezes": True,
    "black_three_meld_wilds": False,
    "top_card_counts_initial": True,
    "stock_exhausted": "continue_with_pile",
    "forced_pickup_after_stock": True,
    "last_stock_red_three": "meld_no_discard",
    "concealed_exempt_from_minimum": True,
    "concealed_allowed_after_pickup": True,
    "unfrozen_pickup_with_wild": True,
    "initial_pickup_natural_pair": True,
    "one_card_one_pile_pickup": True,
    "unopened_or_no_canasta_melds_negative": "never",
    "tie_policy": "play_on",
    "red_three_card_value": 0,
    "natural_canasta_locked": False,
}
# Spec §3.3 (cutthroat: play ends after the last card's turn) and §3.7 (the S4 preset).
PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "classic-3p-cutthroat": {"stock_exhausted": "end_after_turn"},
    "dutch-s4": {
        "upcard_skip": "none",
        "initial_pickup_natural_pair": False,
        "red_three_card_value": 5,
        "unopened_or_no_canasta_melds_negative": "no_canasta",
    },
}
MAC_DEFAULTS: dict[str, Any] = {
    "max_wilds_per_meld": 2,
    "red_three_declare": "at_deal",
    "tie_policy": "play_on",
    "mac_initial_meld_content": "clean_or_wild",
    "mac_pickup_cards_count": "pair_only",
    "mac_initial_mixed_canasta_allowed": True,
    "mac_stock_exhausted": "end_after_turn",
    "mac_wild_meld_penalty_four_jokers": 2500,
    "mac_ask_partner_limit": "per_hand",
    "mac_new_meld_after_mixed_canasta": True,
    "mac_allow_8plus_going_out": False,
}


@pytest.mark.parametrize("name", CLASSIC_PRESETS)
def test_classic_flag_defaults(name: str) -> None:
    """Spec §5: every classic flag is an option with its default (presets change a few)."""
    v = variants.get(name)
    expected = CLASSIC_DEFAULTS | PRESET_CHANGES.get(name, {})
    assert {flag: getattr(v, flag) for flag in expected} == expected
    assert set(expected) <= set(v.option_names())


def test_modern_american_flag_defaults() -> None:
    """Spec §5: the MAC flags with their defaults."""
    v = variants.get("modern-american")
    assert {flag: getattr(v, flag) for flag in MAC_DEFAULTS} == MAC_DEFAULTS


def test_modern_american_scores_and_rules() -> None:
    """Spec §3.5.1: MAC's numbers that differ from classic4."""
    v = variants.get("modern-american")
    assert isinstance(v, variants.ModernAmericanVariant)
    assert v.minimum_table[1:] == ((3000, 155), (5000, 180))
    assert v.natural_canasta_bonus == 500
    assert v.mixed_canasta_bonus == 300
    assert v.going_out_bonus == 100
    assert not v.starts_with_upcard
    state = canasta.new_game(v, seed=3)
    assert state.to_dict()["pile"] in ("", [])


def test_classic_bonuses() -> None:
    """Spec §3.1: canastas 500 / 300, going out 100, concealed 100 more."""
    v = variants.get("classic")
    assert isinstance(v, variants.ClassicVariant)
    assert (v.natural_canasta_bonus, v.mixed_canasta_bonus) == (500, 300)
    assert (v.going_out_bonus, v.concealed_bonus) == (100, 100)


@pytest.mark.parametrize("name", BUILTINS)
def test_presets_are_hashable_values(name: str) -> None:
    """api.md §2: a Variant is a frozen, hashable value."""
    v = variants.get(name)
    assert hash(v) == hash(variants.from_config(v.to_config()))
    with pytest.raises(AttributeError):
        v.target_score = 1  # type: ignore[misc]


def test_equal_variants_are_one_object_wherever_they_come_from() -> None:
    # The engine's caches are keyed by the variant: states whose variants are equal share
    # one object, so a lookup never compares two variants field by field.
    house = variants.get("classic", target_score=3000)
    assert variants.get("classic", target_score=3000) is house
    assert pickle.loads(pickle.dumps(house)) is house
    state = canasta.new_game(house, seed=1)
    assert pickle.loads(pickle.dumps(state)).variant is house
    assert canasta.GameState.from_dict(state.to_dict()).variant is house
    # A variant built by hand plays with the registered object it equals.
    built = type(house)(name="classic")
    assert built is not variants.get("classic")
    assert canasta.new_game(built, seed=1).variant is variants.get("classic")
