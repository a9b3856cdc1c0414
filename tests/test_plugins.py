"""Variants from other packages (api.md §2): ``register()`` and the entry-point group
``canasta.variants``, loaded on first use of the registry.

- The example plugin ``examples/plugin`` (package ``canasta_house_rules``, installed by
  ``make``) is found through ``canasta.variants.names()`` and a deal is played with it.
- Fake plugins (real ``importlib.metadata.EntryPoint`` objects pointing at modules written
  to a temporary folder) check loading: once, lazily, each entry point all or none; a
  broken plugin is left out while the built-ins and the other plugins keep working, and it
  is reported (``plugin_errors()``, naming it in ``get``, an unknown name's error) as a
  ``VariantError`` naming its entry point, never skipped silently.
  These tests run on a fresh registry holding only the built-ins.
"""

from __future__ import annotations

import json
import pickle
import random
import textwrap
import uuid
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from canasta import UnknownVariantError, VariantError, variants
from canasta.cards import SEVEN
from canasta.cli import main
from canasta.variants import ClassicVariant, presets

HOUSE = "house-2p-wild"

# -- the example plugin, installed ---------------------------------------------------------


def test_example_plugin_is_installed() -> None:
    found = [e for e in metadata.entry_points(group="canasta.variants") if e.name == HOUSE]
    if not found:
        pytest.fail(
            "the example plugin is not installed: run `make test` or "
            "`python -m pip install -e examples/plugin`"
        )
    assert found[0].value == "canasta_house_rules:house_2p_wild"


def test_example_plugin_variant_is_registered() -> None:
    assert HOUSE in variants.names()
    house = variants.get(HOUSE)
    assert house.name == HOUSE
    # classic-2p with the D1 house rule: wild-card canastas worth 1000.
    assert house == variants.get(
        "classic-2p", classic_wild_canasta=True, classic_wild_canasta_bonus=1000
    ).with_name(HOUSE)
    assert house.to_config() == {"variant": HOUSE}
    changed = variants.from_config({"variant": HOUSE, "target_score": 3000})
    assert changed.to_config() == {"variant": HOUSE, "target_score": 3000}
    assert variants.from_config(changed.to_config()) == changed


@pytest.mark.parametrize("seed", range(5))
def test_a_deal_with_the_plugin_variant(seed: int) -> None:
    """A whole deal of random legal moves; the outcome adds up and the position format
    names the plugin variant."""
    state = canasta.new_game(HOUSE, seed=seed)
    assert state.variant.name == HOUSE
    assert state.to_dict()["variant"] == HOUSE
    rng = random.Random(seed)
    plies = 0
    while not state.is_over:
        moves = state.legal_moves()
        assert moves, f"no legal move at ply {plies}"
        state = state.apply(rng.choice(moves))
        plies += 1
        assert plies < 5000
    outcome = state.outcome()
    assert outcome is not None
    assert len(outcome.scores) == 2
    for side in range(2):
        assert outcome.scores[side] == sum(points for _label, points in outcome.breakdown[side])
    assert canasta.GameState.from_dict(state.to_dict()) == state


def wild_meld_position(variant: str) -> dict[str, Any]:
    """Seat 0 (opened: a meld of eights) holds seven wild cards and two more cards."""
    return {
        "variant": variant,
        "to_move": 0,
        "phase": "play",
        "hands": ["2C 2D 2H 2S 2C * * 5H 6D", "4C 5C 6C 7C 9C TC JC QC KC AC 4D"],
        "pile": "7S",
        "stock": "8C 9D TD JD",
        "melds": [["8S 8H 8D"], []],
    }


def test_the_house_rule_is_in_force() -> None:
    """D1 as a house rule: seven wild cards may be melded in house-2p-wild, not in
    classic-2p, and the wild canasta scores the plugin's bonus of 1000."""
    house = canasta.GameState.from_dict(wild_meld_position(HOUSE))
    assert house.is_legal("meld:22222**")
    classic = canasta.GameState.from_dict(wild_meld_position("classic-2p"))
    assert not classic.is_legal("meld:22222**")
    finished = canasta.GameState.from_dict(
        {
            "variant": HOUSE,
            "phase": "over",
            "to_move": None,
            "hands": ["", ""],
            "pile": "",
            "stock": "",
            "melds": [["2C 2D 2H 2S 2C * *", "8S 8H 8D"], []],
        }
    )
    outcome = finished.outcome()
    assert outcome is not None
    lines = dict(outcome.breakdown[0])
    assert lines["wild canastas"] == 1000
    assert lines["melded cards"] == 5 * 20 + 2 * 50 + 3 * 10


# -- a fresh registry with fake plugins ------------------------------------------------------


class Plugins:
    """Writes plugin modules to a temporary folder and serves their entry points."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        self.entries: list[metadata.EntryPoint] = []
        self.listed = 0
        monkeypatch.syspath_prepend(str(folder))
        monkeypatch.setattr(variants, "_entry_points", self._list)

    def _list(self) -> list[metadata.EntryPoint]:
        self.listed += 1
        return list(self.entries)

    def add(self, name: str, source: str, attr: str = "plugin") -> metadata.EntryPoint:
        """A plugin module with ``source``; its entry point ``name`` names ``attr``."""
        module = f"fake_plugin_{uuid.uuid4().hex}"
        (self.folder / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        entry = metadata.EntryPoint(name=name, value=f"{module}:{attr}", group="canasta.variants")
        self.entries.append(entry)
        return entry

    def add_missing(self, name: str) -> metadata.EntryPoint:
        entry = metadata.EntryPoint(
            name=name, value="no_such_module_for_canasta:plugin", group="canasta.variants"
        )
        self.entries.append(entry)
        return entry


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Plugins]:
    """A registry with the built-ins only, plugins not loaded yet, and fake entry points."""
    monkeypatch.setattr(variants, "_PRESETS", {})
    monkeypatch.setattr(variants, "_ALIASES", {})
    monkeypatch.setattr(variants, "_BROKEN", [])
    monkeypatch.setattr(variants, "_plugins_loaded", False)
    variants._builtins()
    yield Plugins(tmp_path, monkeypatch)


def renamed(name: str, **options: Any) -> str:
    """Plugin source: a function ``plugin`` returning classic-2p renamed."""
    return f"""
        from canasta import variants

        def plugin():
            return variants.get("classic-2p", **{options!r}).with_name({name!r})
        """


def test_plugins_load_once_on_first_use(plugins: Plugins) -> None:
    plugins.add("house", renamed("house-a", draw_count=1))
    assert plugins.listed == 0  # nothing is looked up before the registry is used
    assert "house-a" in variants.names()
    assert variants.names()[-1] == "house-a"
    variants.get("house-a")
    variants.aliases()
    assert plugins.listed == 1
    assert variants.get("house-a").draw_count == 1


@pytest.mark.parametrize("first_use", ["names", "get", "aliases", "from_config", "new_game"])
def test_every_use_of_the_registry_loads_plugins(plugins: Plugins, first_use: str) -> None:
    plugins.add("house", renamed("house-b"))
    uses: dict[str, Callable[[], object]] = {
        "names": variants.names,
        "get": lambda: variants.get("classic"),
        "aliases": variants.aliases,
        "from_config": lambda: variants.from_config({"variant": "classic"}),
        "new_game": lambda: canasta.new_game("classic", seed=1),
    }
    uses[first_use]()
    assert plugins.listed == 1
    assert variants.get("house-b").name == "house-b"


def test_entry_point_naming_a_variant_object(plugins: Plugins) -> None:
    plugins.add(
        "obj",
        """
        from canasta.variants import ClassicVariant

        plugin = ClassicVariant(name="house-object", target_score=2500)
        """,
    )
    assert variants.get("house-object").target_score == 2500
    assert variants.from_config({"variant": "house-object"}).to_config() == {
        "variant": "house-object"
    }


def test_entry_point_giving_several_variants_with_aliases(plugins: Plugins) -> None:
    plugins.add(
        "several",
        """
        from canasta import variants

        def plugin():
            quick = variants.get("classic", target_score=2500).with_name("house-quick")
            slow = variants.get("classic", target_score=10000).with_name("house-slow")
            return [(quick, ("quick", "q")), slow]
        """,
    )
    assert variants.names()[-2:] == ("house-quick", "house-slow")
    assert variants.aliases()["quick"] == "house-quick"
    assert variants.get("q") is variants.get("house-quick")
    assert variants.get("house-slow").target_score == 10000


def test_the_plugin_may_use_the_registry_while_loading(plugins: Plugins) -> None:
    plugins.add(
        "curious",
        """
        from canasta import variants

        def plugin():
            assert "classic" in variants.names()
            return variants.get("mac", target_score=5000).with_name("house-mac")
        """,
    )
    assert variants.get("house-mac").target_score == 5000


def assert_names_entry(error: VariantError, entry: str) -> None:
    assert f"plugin entry point {entry!r}" in str(error)


def only_error(entry: str) -> VariantError:
    """The one plugin error, which must name ``entry``."""
    errors = variants.plugin_errors()
    assert len(errors) == 1, errors
    assert_names_entry(errors[0], entry)
    return errors[0]


BUILTINS = tuple(variant.name for variant, _ in presets.BUILTINS)


def assert_builtins_work() -> None:
    """The built-in variants are listed, found, dealt and read back from positions."""
    assert set(BUILTINS) <= set(variants.names())
    state = canasta.new_game("classic", seed=1)
    assert canasta.GameState.from_dict(state.to_dict()) == state
    assert variants.get("mac").name == "modern-american"
    assert variants.from_config({"variant": "classic-2p"}).players == 2


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("def plugin():\n    raise RuntimeError('database is down')\n", "database is down"),
        ("def plugin(:\n    pass\n", "SyntaxError"),
        ("import no_such_dependency_of_the_plugin\n", "no_such_dependency_of_the_plugin"),
        ("other = 1\n", "AttributeError"),  # the attribute is missing
        ("def plugin():\n    return None\n", "gave None"),
        ("def plugin():\n    return 'classic'\n", "gave 'classic'"),
        ("def plugin():\n    return {'variant': 'classic'}\n", "expected a Variant"),
        ("def plugin():\n    return []\n", "gave []"),
        ("def plugin():\n    return [1]\n", "gave 1"),
        ("plugin = 42\n", "gave 42"),
        (
            "from canasta import variants\n"
            "def plugin():\n    return variants.get('classic', draw_count=5)\n",
            "draw_count",
        ),
        (
            "from canasta import variants\n"
            "def plugin():\n    return [(variants.get('classic').with_name('h-x'), 'hx')]\n",
            "aliases",
        ),
        (
            "from canasta import variants\n"
            "def plugin():\n    return [(variants.get('classic').with_name('h-y'), ('h y',))]\n",
            "'h y'",
        ),
    ],
)
def test_a_broken_plugin_is_reported_and_the_rest_works(
    plugins: Plugins, source: str, needle: str
) -> None:
    plugins.add("broken-one", source)
    assert_builtins_work()
    assert needle in str(only_error("broken-one"))
    # Named, it raises its own error; an unknown name's error mentions it.
    with pytest.raises(VariantError) as error:
        variants.get("broken-one")
    assert_names_entry(error.value, "broken-one")
    assert needle in str(error.value)
    with pytest.raises(UnknownVariantError, match="could not be loaded: 'broken-one'"):
        variants.get("no-such-variant")


def test_a_missing_module_is_reported_naming_the_entry_point(plugins: Plugins) -> None:
    plugins.add_missing("gone")
    assert variants.get("classic").name == "classic"
    error = only_error("gone")
    assert "no_such_module_for_canasta" in str(error)
    assert isinstance(error.__cause__, ModuleNotFoundError)


def test_a_broken_plugin_is_never_skipped_and_does_not_stop_the_others(
    plugins: Plugins,
) -> None:
    """The error is reported on every look (not once, then silence); the good plugin
    loaded beside it is registered."""
    plugins.add("good", renamed("house-good"))
    plugins.add_missing("broken")
    for _ in range(2):
        assert variants.names()[-1] == "house-good"
        only_error("broken")
    assert canasta.new_game("house-good", seed=1).variant.name == "house-good"
    assert plugins.listed == 1  # loaded once


def test_one_entry_point_is_all_or_none(plugins: Plugins) -> None:
    """An entry point giving a good variant and a bad one registers neither."""
    plugins.add(
        "half",
        """
        from canasta import variants

        def plugin():
            return [variants.get("classic").with_name("house-half"), variants.get("classic")]
        """,
    )
    assert "house-half" not in variants.names()
    assert "'classic' is already registered" in str(only_error("half"))


@pytest.mark.parametrize("taken", ["classic", "mac", "classic-2p"])
def test_a_plugin_reusing_a_name_is_refused(plugins: Plugins, taken: str) -> None:
    plugins.add("good", renamed("house-good"))
    plugins.add("thief", renamed(taken))
    assert f"{taken!r} is already registered" in str(only_error("thief"))
    assert variants.names()[-1] == "house-good"
    # The name still means the built-in.
    builtin = variants.get(taken)
    assert builtin.name == variants.aliases().get(taken, taken)
    assert builtin.players == (2 if taken == "classic-2p" else 4)


def test_two_plugins_with_one_name(plugins: Plugins) -> None:
    plugins.add("first", renamed("house-same"))
    plugins.add("second", renamed("house-same", draw_count=1))
    only_error("second")
    assert variants.get("house-same").draw_count == 2  # the first one's


def test_a_plugin_alias_reusing_a_builtin_alias(plugins: Plugins) -> None:
    plugins.add(
        "aliased",
        """
        from canasta import variants

        def plugin():
            return [(variants.get("classic").with_name("house-mac-like"), ("mac",))]
        """,
    )
    assert "'mac' is already registered as an alias" in str(only_error("aliased"))
    assert variants.get("mac").name == "modern-american"


def test_the_command_line_lists_a_broken_plugin_as_an_error_line(
    plugins: Plugins, capsys: pytest.CaptureFixture[str]
) -> None:
    plugins.add("good", renamed("house-good"))
    plugins.add_missing("broken")
    for argv in (["variants"], ["variants", "--json"]):
        assert main(argv) == 1
        captured = capsys.readouterr()
        (line,) = captured.err.splitlines()
        assert line.startswith("error: plugin entry point 'broken'")
        for name in (*BUILTINS, "house-good"):
            assert name in captured.out
    assert [row["name"] for row in json.loads(captured.out)][-1] == "house-good"
    # Named on the command line, it is a usage error naming the plugin.
    assert main(["simulate", "-n", "1", "--variant", "broken"]) == 2
    assert "plugin entry point 'broken'" in capsys.readouterr().err


def test_listing_the_entry_points_fails(plugins: Plugins, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[metadata.EntryPoint]:
        raise OSError("metadata unreadable")

    monkeypatch.setattr(variants, "_entry_points", broken)
    assert_builtins_work()
    (error,) = variants.plugin_errors()
    assert "metadata unreadable" in str(error)
    assert isinstance(error.__cause__, OSError)


# -- register() -------------------------------------------------------------------------------


def test_register_adds_a_variant_with_aliases(plugins: Plugins) -> None:
    house = variants.get("classic", target_score=3000).with_name("house-3000")
    variants.register(house, aliases=("h3000",))
    assert variants.names()[-1] == "house-3000"
    assert variants.get("h3000") is house
    assert variants.from_config({"variant": "house-3000"}) == house
    assert variants.from_config(house.with_options({"draw_count": 2}).to_config()).draw_count == 2
    assert canasta.new_game("h3000", seed=2).variant is house


@pytest.mark.parametrize(
    ("name", "aliases", "needle"),
    [
        ("classic", (), "'classic' is already registered as a variant"),
        ("mac", (), "'mac' is already registered as an alias of 'modern-american'"),
        ("house-new", ("classic-2p",), "'classic-2p' is already registered"),
        ("house-new", ("classic2",), "'classic2' is already registered"),
        ("house-new", ("house-new",), "'house-new' is given twice"),
        ("house-new", ("hn", "hn"), "'hn' is given twice"),
        ("house-new", "hn", "must be a list of names"),
        ("house-new", ("",), "variant alias"),
        ("house-new", ("h n",), "variant alias"),
        ("house-new", (3,), "variant alias"),
    ],
)
def test_register_refuses_duplicates_and_bad_aliases(
    plugins: Plugins, name: str, aliases: Any, needle: str
) -> None:
    before = (variants.names(), variants.aliases())
    with pytest.raises(VariantError) as error:
        variants.register(variants.get("classic").with_name(name), aliases=aliases)
    assert needle in str(error.value)
    assert (variants.names(), variants.aliases()) == before


def test_register_needs_a_variant(plugins: Plugins) -> None:
    with pytest.raises(VariantError, match="needs a Variant"):
        variants.register({"variant": "classic"})  # type: ignore[arg-type]


def test_register_loads_the_plugins_first(plugins: Plugins) -> None:
    """A name taken by a plugin is refused at register() time, not later."""
    plugins.add("house", renamed("house-taken"))
    with pytest.raises(VariantError, match="'house-taken' is already registered"):
        variants.register(variants.get("classic").with_name("house-taken"))
    assert plugins.listed == 1
    assert variants.get("house-taken").players == 2  # the plugin's classic-2p


def test_unregister(plugins: Plugins) -> None:
    house = variants.get("classic").with_name("house-gone")
    variants.register(house, aliases=("hg",))
    assert variants.unregister("hg") is house
    assert "house-gone" not in variants.names()
    assert "hg" not in variants.aliases()
    with pytest.raises(UnknownVariantError):
        variants.get("house-gone")
    with pytest.raises(UnknownVariantError):
        variants.unregister("house-gone")
    variants.register(house)  # the name is free again


@pytest.mark.parametrize("bad", ["", "two words", "-dash-first", "1st", "semi;colon", 7])
def test_with_name_checks_the_name(bad: Any) -> None:
    with pytest.raises(VariantError, match="variant name"):
        variants.get("classic").with_name(bad)


_PLAIN_DISCARDS = {f"discard:{rank}" for rank in "45689TJQKA"}


@attrs.frozen
class _SevensFreeze(ClassicVariant):
    """A house rule as a subclass: a seven discarded freezes the pile, like a wild card."""

    def freezes_pile(self, code: int) -> bool:
        return code >> 2 == SEVEN or super().freezes_pile(code)


def test_a_subclass_override_of_a_hook_asked_once_is_honoured() -> None:
    # The engine asks `freezes_pile` once per card as the variant is built, and the answer it
    # keeps must be the subclass's (a pickled and read variant asks again).
    house = _SevensFreeze(name="sevens-freeze-demo")
    for variant in (house, pickle.loads(pickle.dumps(house))):
        frozen = []
        for seed in range(40):
            state = canasta.new_game(variant, seed=seed).apply("draw")
            if state.frozen or canasta.parse_move("discard:7") not in state.legal_moves():
                continue
            frozen.append(state.apply("discard:7").frozen)
            state = canasta.new_game(variant, seed=seed).apply("draw")
            # A natural of another rank (no wild card, no three) leaves the pile as it was.
            other = next(m for m in state.legal_moves() if str(m) in _PLAIN_DISCARDS)
            assert not state.apply(other).frozen
        assert frozen and all(frozen)


@attrs.frozen
class _OwnPostInit(_SevensFreeze):
    """A subclass whose ``__attrs_post_init__`` forgets to call the base class's."""

    def __attrs_post_init__(self) -> None:
        pass


def test_a_subclass_that_skips_the_base_post_init_still_plays() -> None:
    # The engine's kept answers are asked as the variant enters a game, so the subclass's
    # hooks hold there too (here: a seven freezes the pile).
    house = _OwnPostInit(name="own-post-init-demo")
    for variant in (house, pickle.loads(pickle.dumps(house))):
        sevens = 0
        for seed in range(10):
            choose = random.Random(seed).choice
            state = canasta.new_game(variant, seed=seed)
            while not state.is_over:
                move = choose(state.legal_moves())
                after = state.apply(move)
                if str(move) == "discard:7":
                    sevens += 1
                    assert after.frozen
                state = after
        assert sevens
