"""Variant configs (api.md §2): ``from_config``, ``load`` (TOML, JSON), ``to_config``.

- Round trips: ``from_config(v.to_config()) == v`` for every registered variant and for
  random valid option sets (Hypothesis builds them from each variant's ``option_specs()``:
  the values each option's validator allows, fixed up where options depend on each other),
  also through JSON and TOML text.
- Every error case: unknown keys, wrong types (``"3000"``, ``True`` for an integer, floats),
  out-of-range values and impossible combinations raise ``VariantError`` naming the key;
  an unknown variant raises ``UnknownVariantError`` listing the known names.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import UnknownVariantError, VariantError, variants
from canasta.variants import OptionSpec, Variant

# -- strategies ---------------------------------------------------------------------------


def values(spec: OptionSpec, variant: Variant) -> st.SearchStrategy[Any]:
    """Values the option's validator accepts on its own (as a config file would hold them)."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "choice":
        return st.sampled_from(spec.choices)
    if spec.kind == "int":
        assert spec.low is not None
        high = spec.high if spec.high is not None else spec.low + 100_000
        return st.integers(spec.low, high)
    if spec.kind == "table":
        # Classic tables start at 0 (negative scores have their own option); others at <= 0.
        first = (
            st.just(0) if hasattr(variant, "negative_score_minimum") else st.integers(-(10**9), 0)
        )
        rest = st.lists(st.integers(1, 20_000), max_size=4, unique=True).map(sorted)
        return st.tuples(first, rest).flatmap(
            lambda fr: st.lists(
                st.integers(0, 500), min_size=1 + len(fr[1]), max_size=1 + len(fr[1])
            ).map(lambda mins: [[t, m] for t, m in zip([fr[0], *fr[1]], mins, strict=True)])
        )
    if spec.kind == "values":
        # Hands of both special-hand sets (D34), so the set may be drawn freely.
        hands = st.sampled_from(["pairs", "straight", "garbage"])
        return st.dictionaries(hands, st.integers(0, 10_000), max_size=3)
    assert spec.kind == "ints", spec
    return st.lists(st.integers(0, 5000), min_size=1, max_size=9)


@st.composite
def valid_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A config of a registered variant with random options that fit together."""
    name = draw(st.sampled_from(variants.names()))
    preset = variants.get(name)
    specs = preset.option_specs()
    keys = draw(st.sets(st.sampled_from(sorted(specs)), max_size=10))
    options = {key: draw(values(specs[key], preset)) for key in sorted(keys)}

    def final(key: str) -> Any:
        return options.get(key, getattr(preset, key))

    if final("cutthroat") if "cutthroat" in specs else False:
        options["players"] = options["sides"] = 3  # spec §3.3
    elif "players" in options or "sides" in options:
        if final("players") == 5:
            options["players"] = draw(st.sampled_from([2, 3, 4, 6]))  # spec §3.6
        players = final("players")
        options["sides"] = draw(st.sampled_from([s for s in range(2, 7) if players % s == 0]))
    if preset.family == "modern":
        # Spec §3.5.1: exactly 4 players in 2 sides, 2 decks, at most 2 wilds per meld.
        for key, fixed in (("players", 4), ("sides", 2), ("decks", 2)):
            if key in options:
                options[key] = fixed
        if "max_wilds_per_meld" in options:
            options["max_wilds_per_meld"] = draw(st.integers(0, 2))
        # H7: a three is held only for the straight, a special hand.
        if final("mac_hold_three") and not final("mac_special_hands"):
            options["mac_special_hands"] = True
        # H2 with D3: a three is held only where the threes go down at the deal (unless
        # given, holding one follows special hands: H7).
        held = options.get("mac_hold_three", options.get("mac_special_hands", preset.holds_three))
        if held and final("red_three_declare") == "first_turn":
            options["mac_hold_three"] = False
    # The hands, the upcard, talons set aside, a replacement for each three the deal may
    # lay out and one card to draw come out of the decks.
    aside = 0
    if preset.family == "modern" and final("mac_talons"):
        aside = 7 if final("mac_talon_source") == "set_aside" else 0
    threes = len(preset.laid_out_threes) * final("decks")
    spare = 1 + int(preset.starts_with_upcard) + aside + threes
    if preset.family == "modern" and final("mac_turn_card"):
        spare = max(spare, aside + 9)  # TC1: the turn card lies 9th from the bottom
    most = (final("decks") * 54 - spare) // final("players")
    if "hand_size" in options or final("hand_size") > most:
        options["hand_size"] = draw(st.integers(1, most))
    # One red-three score per possible count: 0 to 2 per deck.
    if "red_three_scores" in specs and (
        "red_three_scores" in options or 2 * final("decks") + 1 != len(final("red_three_scores"))
    ):
        size = 2 * final("decks") + 1
        options["red_three_scores"] = draw(
            st.lists(st.integers(0, 5000), min_size=size, max_size=size)
        )
    return {"variant": draw(st.sampled_from([name, *alias_of(name)])), **options}


def alias_of(name: str) -> list[str]:
    return [alias for alias, target in variants.aliases().items() if target == name]


def toml_text(config: dict[str, Any]) -> str:
    """A flat config as TOML: JSON's numbers, strings, booleans and arrays are TOML too."""
    return "".join(f"{key} = {toml_value(value)}\n" for key, value in config.items())


def toml_value(value: Any) -> str:
    """JSON's numbers, strings, booleans and arrays are TOML too; a mapping is an inline
    table."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


# -- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("name", variants.names())
def test_every_registered_variant_round_trips(name: str) -> None:
    v = variants.get(name)
    assert v.to_config() == {"variant": name}
    assert variants.from_config(v.to_config()) == v
    full = v.to_config(full=True)
    assert set(full) == {"variant", *v.option_names()}
    assert variants.from_config(full) == v
    assert variants.from_config(json.loads(json.dumps(full))) == v


@given(config=valid_configs())
@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
def test_random_valid_options_round_trip(config: dict[str, Any]) -> None:
    v = variants.from_config(config)
    written = v.to_config()
    assert (
        written["variant"] == v.name == variants.aliases().get(config["variant"], config["variant"])
    )
    assert variants.from_config(written) == v
    assert variants.from_config(json.loads(json.dumps(written))) == v
    assert variants.from_config(json.loads(json.dumps(v.to_config(full=True)))) == v
    assert variants.from_config(tomllib.loads(toml_text(written))) == v
    # Only options that differ from the preset are written, and each as it was given.
    preset = variants.get(v.name)
    for key, value in written.items():
        if key == "mac_hold_three" and v.holds_three != v.has_special_hands:
            assert value == config[key]  # H7: written as it does not follow special hands
        elif key != "variant":
            assert getattr(v, key) != getattr(preset, key)
            if key == "mac_hold_three" and key not in config:
                assert value == config["mac_special_hands"]  # H7: it follows special hands
            else:
                assert json.loads(json.dumps(config[key])) == value


@st.composite
def any_option_values(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(variants.names()))
    preset = variants.get(name)
    specs = preset.option_specs()
    keys = draw(st.sets(st.sampled_from(sorted(specs)), min_size=1, max_size=6))
    return name, {key: draw(values(specs[key], preset)) for key in sorted(keys)}


@given(case=any_option_values())
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
def test_allowed_values_give_a_variant_or_a_variant_error(case: tuple[str, dict[str, Any]]) -> None:
    """Values each allowed alone either combine into a variant (that round trips) or are
    refused as a combination with VariantError: never another exception."""
    name, options = case
    try:
        v = variants.get(name, **options)
    except VariantError as exc:
        assert "option '" in str(exc)
        return
    assert variants.from_config(v.to_config()) == v


def test_alias_config_writes_the_name() -> None:
    v = variants.from_config({"variant": "classic2", "target_score": 3000})
    assert v.to_config() == {"variant": "classic-2p", "target_score": 3000}


def test_api_example() -> None:
    """api.md §2: ``{"variant": "classic-2p", "target_score": 3000}``."""
    v = variants.from_config({"variant": "classic-2p", "target_score": 3000})
    assert v.target_score == 3000
    assert v == variants.get("classic-2p", target_score=3000)
    assert v.to_config() == {"variant": "classic-2p", "target_score": 3000}


def test_tables_are_written_as_lists_and_read_back_as_tuples() -> None:
    config = {
        "variant": "classic",
        "minimum_table": [[0, 60], [2000, 100]],
        "red_three_scores": [0, 100, 200, 300, 1000],
    }
    v = variants.from_config(config)
    assert isinstance(v, variants.ClassicVariant)
    assert v.minimum_table == ((0, 60), (2000, 100))
    assert v.red_three_scores == (0, 100, 200, 300, 1000)
    assert v.to_config() == config
    assert hash(v) == hash(variants.from_config(config))


def test_setting_an_option_to_its_default_writes_nothing() -> None:
    v = variants.get("classic", target_score=5000, meld_wild_ratio="min2_max3")
    assert v == variants.get("classic")
    assert v.to_config() == {"variant": "classic"}


def test_position_format_carries_the_config() -> None:
    """api.md §6: a position's ``variant`` is a name or a config mapping."""
    config = {"variant": "classic-2p", "draw_count": 1, "target_score": 3000}
    state = canasta.new_game(config, seed=5)
    assert state.to_dict()["variant"] == config
    assert canasta.GameState.from_dict(state.to_dict()) == state
    assert canasta.new_game("classic", seed=5).to_dict()["variant"] == "classic"


def test_to_config_of_an_unregistered_variant_is_refused() -> None:
    loose = variants.get("classic").with_name("not-registered-anywhere")
    with pytest.raises(VariantError, match=r"not-registered-anywhere.*not registered"):
        loose.to_config()


def test_to_config_of_a_variant_of_another_type_is_refused() -> None:
    mac = variants.get("modern-american")
    impostor = variants.ClassicVariant(name="modern-american")
    with pytest.raises(VariantError, match="ClassicVariant"):
        impostor.to_config()
    assert mac.to_config() == {"variant": "modern-american"}


# -- error cases --------------------------------------------------------------------------

# (variant, options, the key the message must name)
BAD_OPTIONS: list[tuple[str, dict[str, Any], str]] = [
    # wrong types
    ("classic-2p", {"target_score": "3000"}, "target_score"),
    ("classic-2p", {"target_score": True}, "target_score"),  # a bool is not an integer
    ("classic", {"target_score": 3000.0}, "target_score"),
    ("classic", {"target_score": None}, "target_score"),
    ("classic", {"hand_size": [11]}, "hand_size"),
    ("classic", {"draw_count": True}, "draw_count"),
    ("classic", {"classic_wild_canasta": 1}, "classic_wild_canasta"),
    ("classic", {"classic_wild_canasta": "true"}, "classic_wild_canasta"),
    ("classic", {"negative_score_minimum": False}, "negative_score_minimum"),  # False == 0
    ("classic", {"red_three_card_value": True}, "red_three_card_value"),
    ("classic", {"meld_wild_ratio": "n_lt_w"}, "meld_wild_ratio"),
    ("classic", {"meld_wild_ratio": 1}, "meld_wild_ratio"),
    ("classic", {"upcard_skip": None}, "upcard_skip"),
    ("classic", {"negative_score_minimum": 10}, "negative_score_minimum"),
    ("modern-american", {"mac_wild_meld_penalty_four_jokers": 3000}, "mac_wild_meld_penalty"),
    ("modern-american", {"mac_ask_partner_limit": "never"}, "mac_ask_partner_limit"),
    # out of range
    ("classic", {"draw_count": 0}, "draw_count"),
    ("classic", {"draw_count": 3}, "draw_count"),
    ("classic", {"hand_size": 0}, "hand_size"),
    ("classic", {"players": 1}, "players"),
    ("classic", {"players": 7}, "players"),
    ("classic", {"sides": 1}, "sides"),
    ("classic", {"decks": 0}, "decks"),
    ("classic", {"decks": 5}, "decks"),
    ("classic", {"target_score": 0}, "target_score"),
    ("classic", {"canastas_to_go_out": -1}, "canastas_to_go_out"),
    ("classic", {"going_out_bonus": -100}, "going_out_bonus"),
    # impossible combinations
    ("classic", {"hand_size": 27}, "hand_size"),  # 4 x 27 = 108: no stock, no upcard
    ("classic-2p", {"hand_size": 54}, "hand_size"),
    ("classic-6p", {"hand_size": 27}, "hand_size"),  # 6 x 27 = 162 = 3 decks
    ("classic-6p", {"decks": 1}, "hand_size"),
    ("modern-american", {"hand_size": 27}, "hand_size"),  # 108 cards, nothing to draw
    ("classic", {"sides": 3}, "sides"),  # 3 sides do not divide 4 seats
    ("classic", {"players": 5}, "players"),  # spec §3.6: not supported
    ("classic-3p", {"players": 5, "sides": 5}, "players"),
    ("classic", {"players": 3}, "sides"),
    ("classic-2p", {"players": 3}, "sides"),
    ("classic-6p", {"sides": 4}, "sides"),
    ("classic-3p", {"sides": 2}, "sides"),
    ("classic", {"decks": 3}, "red_three_scores"),  # the 2-deck table has no row for 5, 6
    ("classic-6p", {"decks": 2}, "red_three_scores"),
    ("classic", {"red_three_scores": [0, 100, 200, 300]}, "red_three_scores"),
    ("classic", {"red_three_scores": [0, 100, 200, 300, 800, 900]}, "red_three_scores"),
    ("classic", {"cutthroat": True}, "cutthroat"),  # spec §3.3: three players
    ("classic-3p-cutthroat", {"players": 6, "sides": 3}, "cutthroat"),
    ("modern-american", {"players": 6}, "players"),
    ("modern-american", {"sides": 4}, "sides"),
    ("modern-american", {"decks": 3}, "decks"),
    ("modern-american", {"max_wilds_per_meld": 3}, "max_wilds_per_meld"),
    # tables from config lists
    ("classic", {"minimum_table": []}, "minimum_table"),
    ("classic", {"minimum_table": [[0, 50], [1500]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, 50], [1500, 90, 3]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, 50], [0, 90]]}, "minimum_table"),
    ("classic", {"minimum_table": [[1500, 90], [0, 50]]}, "minimum_table"),
    ("classic", {"minimum_table": [[100, 50]]}, "minimum_table"),
    ("classic", {"minimum_table": [[-500, 10], [0, 50]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, -5]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, "50"]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, True]]}, "minimum_table"),
    ("classic", {"minimum_table": [[0, 50.0]]}, "minimum_table"),
    ("classic", {"minimum_table": {"0": 50}}, "minimum_table"),
    ("classic", {"minimum_table": "0:50"}, "minimum_table"),
    ("classic", {"minimum_table": [0, 50]}, "minimum_table"),
    ("modern-american", {"minimum_table": [[100, 125]]}, "minimum_table"),
    ("modern-american", {"minimum_table": [[1, 125]]}, "minimum_table"),  # score 0 uncovered
    ("classic", {"minimum_table": [[0, -1]]}, "minimum_table"),
    ("classic", {"red_three_scores": []}, "red_three_scores"),
    ("classic", {"red_three_scores": [0, 100, 200, 300, "800"]}, "red_three_scores"),
    ("classic", {"red_three_scores": [0, 100, 200, 300, True]}, "red_three_scores"),
    ("classic", {"red_three_scores": [0, -100, -200, -300, -800]}, "red_three_scores"),
    ("classic", {"red_three_scores": 800}, "red_three_scores"),
    # unknown keys, and keys of the other family
    ("classic", {"target": 3000}, "target"),
    ("classic", {"mac_stock_exhausted": "end_after_turn"}, "mac_stock_exhausted"),
    ("modern-american", {"meld_wild_ratio": "n_gt_w"}, "meld_wild_ratio"),
    ("modern-american", {"classic_wild_canasta": True}, "classic_wild_canasta"),
    ("classic", {"family": "modern"}, "family"),
    # the name is the registry's, not an option
    ("classic", {"name": "my-classic"}, "name"),
]


@pytest.mark.parametrize(
    ("name", "options", "key"),
    BAD_OPTIONS,
    ids=[f"{n}-{'-'.join(o)}-{i}" for i, (n, o, _) in enumerate(BAD_OPTIONS)],
)
def test_bad_options_raise_variant_error_naming_the_key(
    name: str, options: dict[str, Any], key: str
) -> None:
    with pytest.raises(VariantError) as get_error:
        variants.get(name, **options)
    assert key in str(get_error.value)
    with pytest.raises(VariantError) as config_error:
        variants.from_config({"variant": name, **options})
    assert key in str(config_error.value)
    assert isinstance(config_error.value, ValueError)
    assert isinstance(config_error.value, canasta.CanastaError)


def test_option_boundaries_that_are_allowed() -> None:
    """The limits just inside the refused values above: a deal that leaves a replacement
    for every red three and one card more in the stock, a table starting at score 0 with
    a minimum of 0."""
    two = variants.get("classic-2p", hand_size=51)  # 2 x 51 + upcard + 4 + 1 = 108 cards
    assert two.hand_size == 51
    with pytest.raises(VariantError, match="too few to replace the 4 threes"):
        variants.get("classic-2p", hand_size=52)
    assert variants.get("classic", minimum_table=[[0, 0]]).initial_minimum(0) == 0
    mac = variants.get("modern-american", minimum_table=[[0, 125]])
    assert mac.initial_minimum(0) == 125


def test_variant_is_not_an_option_of_get() -> None:
    with pytest.raises(VariantError, match="unknown option 'variant'"):
        variants.get("classic", variant="classic-2p")


def test_an_unknown_option_suggests_the_close_one() -> None:
    with pytest.raises(VariantError, match="did you mean 'target_score'"):
        variants.from_config({"variant": "classic", "target_scor": 3000})


def test_name_cannot_be_set_as_an_option() -> None:
    with pytest.raises(VariantError, match="'name' cannot be set"):
        variants.from_config({"variant": "classic", "name": "house"})
    with pytest.raises(VariantError, match="'name' cannot be set"):
        variants.get("classic").with_options({"name": "house"})


def test_set_aside_talons_need_room_in_the_decks() -> None:
    """D31: the 7 talon cards are dealt after the hands, and a stock must remain that can
    replace the 8 threes a deal may lay out, and one card more."""
    options = {"mac_talons": True, "mac_talon_source": "set_aside"}
    assert variants.get("mac", hand_size=23, **options).hand_size == 23  # 92 + 7 + 8 + 1
    with pytest.raises(VariantError, match=r"'hand_size'.*talon cards set aside"):
        variants.get("mac", hand_size=24, **options)
    assert variants.get("mac", hand_size=24).hand_size == 24


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({}, "'variant'"),
        ({"target_score": 3000}, "'variant'"),
        ({"variant": 3}, "'variant'"),
        ({"variant": ["classic"]}, "'variant'"),
        ({"variant": None}, "'variant'"),
        ({"variant": "classic", 1: 2}, "1"),
        ([("variant", "classic")], "mapping"),
        ("classic", "mapping"),
        (None, "mapping"),
    ],
)
def test_malformed_configs(config: Any, needle: str) -> None:
    with pytest.raises(VariantError) as error:
        variants.from_config(config)
    assert needle in str(error.value)


@pytest.mark.parametrize("name", ["classik", "Classic", "", "classic 2p", "house-2p"])
def test_unknown_variant_lists_the_known_names(name: str) -> None:
    with pytest.raises(UnknownVariantError) as error:
        variants.from_config({"variant": name})
    assert isinstance(error.value, LookupError)
    message = str(error.value)
    assert repr(name) in message
    assert all(known in message for known in variants.names())


def test_unknown_variant_suggests_the_close_one() -> None:
    with pytest.raises(UnknownVariantError, match="did you mean 'classic'"):
        variants.get("classik")


def test_get_with_a_non_string_name() -> None:
    with pytest.raises(UnknownVariantError, match="known variants"):
        variants.get(4)  # type: ignore[arg-type]


def test_with_options_needs_a_mapping() -> None:
    with pytest.raises(VariantError, match="mapping"):
        variants.get("classic").with_options([("target_score", 3000)])  # type: ignore[arg-type]


# -- files --------------------------------------------------------------------------------


def test_load_toml(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        "# our house rules\n"
        'variant = "classic-2p"\n'
        "target_score = 3000\n"
        "classic_wild_canasta = true\n"
        'meld_wild_ratio = "n_gt_w"\n'
        "minimum_table = [[0, 50], [1500, 90], [3000, 120], [4000, 150]]\n",
        encoding="utf-8",
    )
    expected = variants.get(
        "classic-2p",
        target_score=3000,
        classic_wild_canasta=True,
        meld_wild_ratio="n_gt_w",
        minimum_table=((0, 50), (1500, 90), (3000, 120), (4000, 150)),
    )
    assert variants.load(path) == expected
    assert variants.load(str(path)) == expected
    assert variants.load(path).initial_minimum(4000) == 150


def test_load_json(tmp_path: Path) -> None:
    config = {"variant": "mac", "target_score": 10000, "mac_ask_partner_limit": "per_game"}
    path = tmp_path / "mac.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    assert variants.load(path) == variants.from_config(config)


@pytest.mark.parametrize("name", variants.names())
def test_written_configs_load_back(tmp_path: Path, name: str) -> None:
    v = variants.get(name)
    changed = v.with_options({"target_score": v.target_score + 500, "tie_policy": "shared_win"})
    (tmp_path / "v.json").write_text(json.dumps(changed.to_config(full=True)), encoding="utf-8")
    (tmp_path / "v.toml").write_text(toml_text(changed.to_config()), encoding="utf-8")
    assert variants.load(tmp_path / "v.json") == changed
    assert variants.load(tmp_path / "v.toml") == changed


def test_load_suffix_is_case_insensitive(tmp_path: Path) -> None:
    path = tmp_path / "HOUSE.TOML"
    path.write_text('variant = "classic"\n', encoding="utf-8")
    assert variants.load(path) == variants.get("classic")


@pytest.mark.parametrize(
    ("filename", "content", "needle"),
    [
        ("house.yaml", "variant: classic\n", "unknown file type '.yaml'"),
        ("house", 'variant = "classic"\n', "unknown file type ''"),
        ("bad.toml", 'variant = "classic\n', "malformed"),
        ("bad.toml", 'variant = "classic"\nvariant = "classic-2p"\n', "malformed"),
        ("bad.json", '{"variant": "classic",}', "malformed"),
        ("dup.json", '{"variant": "classic", "target_score": 1, "target_score": 2}', "twice"),
        ("nan.json", '{"variant": "classic", "target_score": NaN}', "NaN"),
        ("list.json", '["classic"]', "mapping"),
        ("empty.toml", "", "'variant'"),
        ("float.toml", 'variant = "classic"\ntarget_score = 3000.0\n', "target_score"),
        ("str.json", '{"variant": "classic", "target_score": "3000"}', "target_score"),
        ("bool.json", '{"variant": "classic", "draw_count": true}', "draw_count"),
        ("nested.toml", 'variant = "classic"\n[options]\ntarget_score = 3000\n', "options"),
        ("combo.toml", 'variant = "classic"\nsides = 3\n', "sides"),
    ],
)
def test_load_errors_name_the_file_and_the_problem(
    tmp_path: Path, filename: str, content: str, needle: str
) -> None:
    path = tmp_path / filename
    path.write_text(content, encoding="utf-8")
    with pytest.raises(VariantError) as error:
        variants.load(path)
    assert needle in str(error.value)
    assert filename in str(error.value)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="cannot read"):
        variants.load(tmp_path / "missing.toml")


def test_load_a_directory(tmp_path: Path) -> None:
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with pytest.raises(VariantError, match="cannot read"):
        variants.load(folder)


def test_load_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('variant = "classic" # déjà\n'.encode("latin-1"))
    with pytest.raises(VariantError, match="UTF-8"):
        variants.load(path)


def test_load_unknown_variant_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"variant": "canasta-for-five"}', encoding="utf-8")
    with pytest.raises(UnknownVariantError) as error:
        variants.load(path)
    assert "odd.json" in str(error.value)
    assert "classic-2p" in str(error.value)


@pytest.mark.parametrize("name", canasta.variants.names())
def test_option_specs_give_the_presets_own_defaults(name: str) -> None:
    # A settings screen built from option_specs() starts from the preset's values, not
    # from its class's (modern-american plays to 8500 with 13 cards, not 5000 with 11).
    variant = canasta.variants.get(name)
    for option, spec in variant.option_specs().items():
        assert spec.default == getattr(variant, option), (name, option)


def test_modern_american_option_defaults() -> None:
    specs = canasta.variants.get("modern-american").option_specs()
    assert specs["target_score"].default == 8500
    assert specs["hand_size"].default == 13
    assert specs["canastas_to_go_out"].default == 2
    assert specs["max_wilds_per_meld"].default == 2
