"""The variant registry (api.md §2): names, aliases, options, config files and plugins.

- `names` lists the registered variants, `aliases` their other names, and
  `get` builds one with options changed: ``get("classic-2p", target_score=3000)``.
- `from_config` reads a mapping such as ``{"variant": "classic-2p",
  "target_score": 3000}``, `load` the same from a ``.toml`` or ``.json`` file, and
  ``variant.to_config()`` writes it back: ``from_config(v.to_config()) == v``.
- `register` adds a variant. Installed packages add theirs through the entry-point
  group ``canasta.variants``, loaded on first use of the registry. An entry point names a
  `Variant`, or a callable returning one, or a callable returning an iterable of
  variants or of ``(variant, aliases)`` pairs::

      [project.entry-points."canasta.variants"]
      house-2p-wild = "canasta_house_rules:house_2p_wild"

  A plugin that cannot be loaded, gives no variant or reuses a registered name raises
  `VariantError` naming the entry point, on every use of the
  registry until it is fixed or uninstalled; it is never skipped silently.

Every error names the input that was wrong: an unknown variant raises
`UnknownVariantError` listing the known names; an unknown,
ill-typed or impossible option raises `VariantError` naming it.
"""

from __future__ import annotations

import difflib
import json
import threading
import tomllib
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from canasta.errors import UnknownVariantError, VariantError
from canasta.variants import base, presets
from canasta.variants.base import OptionSpec, Variant, check_name
from canasta.variants.classic import ClassicVariant
from canasta.variants.modern import ModernAmericanVariant

__all__ = [
    "ENTRY_POINT_GROUP",
    "ClassicVariant",
    "ModernAmericanVariant",
    "OptionSpec",
    "Variant",
    "aliases",
    "from_config",
    "get",
    "load",
    "names",
    "register",
    "unregister",
]

#: The entry-point group through which installed packages register variants.
ENTRY_POINT_GROUP = "canasta.variants"
#: The file suffixes `load` reads.
CONFIG_SUFFIXES = (".toml", ".json")

_PRESETS: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}
_plugins_loaded = False
_plugins_loading = False
_lock = threading.RLock()


# -- registering ---------------------------------------------------------------------------


def register(variant: Variant, aliases: Iterable[str] = ()) -> None:
    """Register ``variant`` under ``variant.name`` and ``aliases``.

    Every name must be new (not a registered name or alias), else VariantError. To register
    house rules based on a preset, rename it: ``register(get("classic-2p",
    draw_count=1).with_name("my-2p"))``.
    """
    _load_plugins()
    with _lock:
        _add([(variant, _alias_tuple(aliases, variant))], "")


def unregister(name: str) -> Variant:
    """Remove the variant registered as ``name`` (a name or an alias), with its aliases.

    Returns the removed variant. Meant for tests and interactive sessions.
    """
    _load_plugins()
    with _lock:
        variant = _preset(name)
        del _PRESETS[variant.name]
        for alias in [a for a, n in _ALIASES.items() if n == variant.name]:
            del _ALIASES[alias]
        return variant


def _alias_tuple(aliases: object, variant: object) -> tuple[str, ...]:
    if isinstance(aliases, str) or not isinstance(aliases, Iterable):
        raise VariantError(f"aliases of {variant!r} must be a list of names, got {aliases!r}")
    return tuple(check_name(a, "variant alias") for a in aliases)


def _add(entries: list[tuple[Variant, tuple[str, ...]]], source: str) -> None:
    """Register ``entries`` all or none, after checking every name is new."""
    where = f" ({source})" if source else ""
    seen: set[str] = set()
    for variant, alias_names in entries:
        if not isinstance(variant, Variant):
            raise VariantError(f"register() needs a Variant, got {variant!r}{where}")
        for name in (variant.name, *alias_names):
            if name in _PRESETS or name in _ALIASES:
                owner = _ALIASES.get(name, name)
                what = "a variant" if name in _PRESETS else f"an alias of {owner!r}"
                raise VariantError(f"variant name {name!r} is already registered as {what}{where}")
            if name in seen:
                raise VariantError(f"variant name {name!r} is given twice{where}")
            seen.add(name)
    for variant, alias_names in entries:
        _PRESETS[variant.name] = variant
        for alias in alias_names:
            _ALIASES[alias] = variant.name


# -- plugins -------------------------------------------------------------------------------


def _entry_points() -> Iterable[metadata.EntryPoint]:
    """The installed entry points of `ENTRY_POINT_GROUP` (tests replace this)."""
    return metadata.entry_points(group=ENTRY_POINT_GROUP)


def _load_plugins() -> None:
    """Load the plugins once, all or none; a broken plugin raises on every use."""
    global _plugins_loaded, _plugins_loading
    if _plugins_loaded:
        return
    with _lock:
        # A plugin may use the registry while it is loaded (e.g. to build on a preset):
        # it then sees the built-ins (and what was registered by hand), no other plugin.
        if _plugins_loaded or _plugins_loading:
            return
        _plugins_loading = True
        try:
            try:
                found = list(_entry_points())
            except Exception as exc:
                raise VariantError(
                    f"cannot list the installed {ENTRY_POINT_GROUP!r} plugins: {exc}"
                ) from exc
            entries: list[tuple[Variant, tuple[str, ...]]] = []
            names: list[str] = []
            for entry in sorted(found, key=lambda e: e.name):
                for variant, alias_names in _plugin_variants(entry):
                    entries.append((variant, alias_names))
                    names.append(_describe(entry))
            # Checked one at a time so an error names the entry point; registered together.
            registered: list[tuple[Variant, tuple[str, ...]]] = []
            try:
                for item, source in zip(entries, names, strict=True):
                    _add([item], source)
                    registered.append(item)
            except VariantError:
                for variant, alias_names in registered:
                    del _PRESETS[variant.name]
                    for alias in alias_names:
                        del _ALIASES[alias]
                raise
            _plugins_loaded = True
        finally:
            _plugins_loading = False


def _describe(entry: metadata.EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    package = f" of package {dist.name!r}" if dist is not None else ""
    return f"plugin entry point {entry.name!r} = {entry.value!r}{package}"


def _plugin_variants(entry: metadata.EntryPoint) -> list[tuple[Variant, tuple[str, ...]]]:
    """The variants an entry point gives, or VariantError naming it."""
    where = _describe(entry)
    try:
        loaded = entry.load()
        produced = loaded() if callable(loaded) and not isinstance(loaded, Variant) else loaded
    except VariantError as exc:
        raise VariantError(f"{where} failed: {exc}") from exc
    except Exception as exc:
        raise VariantError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
    if isinstance(produced, Variant):
        return [(produced, ())]
    if isinstance(produced, Iterable) and not isinstance(produced, str | bytes | Mapping):
        result: list[tuple[Variant, tuple[str, ...]]] = []
        for item in produced:
            if isinstance(item, Variant):
                result.append((item, ()))
            elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Variant):
                try:
                    result.append((item[0], _alias_tuple(item[1], item[0])))
                except VariantError as exc:
                    raise VariantError(f"{where}: {exc}") from None
            else:
                raise VariantError(
                    f"{where} gave {item!r}; expected a Variant or a (variant, aliases) pair"
                )
        if result:
            return result
    raise VariantError(
        f"{where} gave {produced!r}; expected a Variant, or a callable returning a Variant "
        f"or a list of them"
    )


# -- looking up ----------------------------------------------------------------------------


def names() -> tuple[str, ...]:
    """The registered variant names, built-ins first (aliases not included)."""
    _load_plugins()
    return tuple(_PRESETS)


def aliases() -> dict[str, str]:
    """The registered aliases, each mapped to the name it stands for."""
    _load_plugins()
    return dict(_ALIASES)


def _preset(name: str) -> Variant:
    _load_plugins()
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    variant = _PRESETS.get(key) if isinstance(key, str) else None
    if variant is None:
        known = ", ".join(names())
        candidates = [*_PRESETS, *_ALIASES]
        close = difflib.get_close_matches(name, candidates, n=1) if isinstance(name, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownVariantError(f"unknown variant {name!r}{hint}; known variants: {known}")
    return variant


def get(name: str, /, **options: Any) -> Variant:
    """The variant registered as ``name`` (a name or an alias) with ``options`` changed.

    Options are the flags of spec §5 (``target_score``, ``draw_count``, ...); see
    ``get(name).option_specs()``.
    """
    preset = _preset(name)
    return preset.with_options(options) if options else preset


def from_config(config: Mapping[str, Any]) -> Variant:
    """A variant from a mapping such as ``{"variant": "classic-2p", "target_score": 3000}``.

    ``variant`` is a registered name or alias; every other key is an option.
    """
    if not isinstance(config, Mapping):
        raise VariantError(f"a variant config must be a mapping, got {config!r}")
    if "variant" not in config:
        raise VariantError(
            f"variant config needs the key 'variant' (a variant name), got keys "
            f"{sorted(map(str, config))!r}"
        )
    name = config["variant"]
    if not isinstance(name, str):
        raise VariantError(f"config key 'variant' must be a variant name, got {name!r}")
    for key in config:
        if not isinstance(key, str):
            raise VariantError(f"config keys must be option names (strings), got {key!r}")
    options = {k: v for k, v in config.items() if k != "variant"}
    return get(name, **options)


def load(path: str | Path) -> Variant:
    """Read a variant config (as for `from_config`) from a ``.toml`` or ``.json`` file.

    A TOML file holds top-level keys::

        variant = "classic-2p"
        target_score = 3000
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in CONFIG_SUFFIXES:
        raise VariantError(
            f"variant config {str(path)!r}: unknown file type {path.suffix!r}; "
            f"use {' or '.join(CONFIG_SUFFIXES)}"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"cannot read variant config {str(path)!r}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise VariantError(f"variant config {str(path)!r} is not UTF-8 text: {exc}") from None
    try:
        data = _json(text) if suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, VariantError) as exc:
        raise VariantError(f"variant config {str(path)!r} is malformed: {exc}") from None
    try:
        return from_config(data)
    except VariantError as exc:
        raise VariantError(f"variant config {str(path)!r}: {exc}") from None
    except UnknownVariantError as exc:
        raise UnknownVariantError(f"variant config {str(path)!r}: {exc}") from None


def _json(text: str) -> Any:
    """JSON with duplicate keys refused (TOML refuses them by itself)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                raise VariantError(f"key {key!r} is given twice")
            result[key] = value
        return result

    def constant(name: str) -> Any:
        raise VariantError(f"{name} is not a valid option value")

    return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)


def _builtins() -> None:
    for variant, alias_names in presets.BUILTINS:
        _add([(variant, alias_names)], "built-in")


_builtins()
base.registered = _preset
