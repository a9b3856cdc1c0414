"""The variant registry: names, aliases, options, config files and plugins.

- `names` lists the registered variants, `aliases` their other names, and
  `get` builds one with options changed: ``get("classic-2p", target_score=3000)``.
- `from_config` reads a mapping such as ``{"variant": "classic-2p",
  "target_score": 3000}``, `load` the same from a ``.toml`` or ``.json`` file,
  `from_text` a name or a config as JSON text (as a record's ``Variant`` tag holds it),
  and ``variant.to_config()`` writes it back: ``from_config(v.to_config()) == v``.
- `register` adds a variant. Installed packages add theirs through the entry-point
  group ``canasta.variants``, loaded on first use of the registry. An entry point names a
  `Variant`, or a callable returning one, or a callable returning an iterable of
  variants or of ``(variant, aliases)`` pairs::

      [project.entry-points."canasta.variants"]
      house-2p-wild = "canasta_house_rules:house_2p_wild"

  A plugin that cannot be loaded, gives no variant or reuses a registered name is left
  out, and every other variant works as before; it is never skipped silently:
  `plugin_errors` lists it (a `VariantError` naming the entry point), naming it in `get`
  raises that error, and an unknown name's error mentions it.

Every error names the input that was wrong: an unknown variant raises
`UnknownVariantError` listing the known names; an unknown,
ill-typed or impossible option raises `VariantError` naming it.
"""
# api.md §2.

from __future__ import annotations

import difflib
import os
import threading
import tomllib
from collections.abc import Iterable, Mapping
from importlib import metadata
from typing import Any

from canasta import _input
from canasta.errors import UnknownVariantError, VariantError
from canasta.variants import base, presets
from canasta.variants.base import OptionSpec, Variant, canonical, check_name
from canasta.variants.classic import ClassicVariant
from canasta.variants.modern import ModernAmericanVariant

__all__ = [
    "CONFIG_SUFFIXES",
    "ENTRY_POINT_GROUP",
    "ClassicVariant",
    "ModernAmericanVariant",
    "OptionSpec",
    "Variant",
    "aliases",
    "from_config",
    "from_text",
    "get",
    "load",
    "names",
    "plugin_errors",
    "register",
    "unregister",
]

#: The entry-point group through which installed packages register variants.
ENTRY_POINT_GROUP = "canasta.variants"
#: The file suffixes `load` reads.
CONFIG_SUFFIXES = (".toml", ".json")

#: The longest variant name looked up: names are short words, and a "did you mean"
#: search over a longer text would only waste time and memory.
_MAX_NAME_CHARS = 200

_PRESETS: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}
#: The plugins that could not be loaded: (entry-point name, the error naming it).
_BROKEN: list[tuple[str, VariantError]] = []
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
    """Load the plugins once; a broken plugin is left out and kept in `_BROKEN`."""
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
                found = []
                error = VariantError(
                    f"cannot list the installed {ENTRY_POINT_GROUP!r} plugins: {exc}"
                )
                error.__cause__ = exc
                _BROKEN.append((ENTRY_POINT_GROUP, error))
            for entry in sorted(found, key=lambda e: e.name):
                # Each entry point all or none; one that fails leaves the others working.
                try:
                    _add(_plugin_variants(entry), _describe(entry))
                except VariantError as exc:
                    _BROKEN.append((entry.name, exc))
            _plugins_loaded = True
        finally:
            _plugins_loading = False


def plugin_errors() -> tuple[VariantError, ...]:
    """The installed plugins that could not be loaded, one `VariantError` each.

    Each error names the entry point and says what went wrong (the exception the plugin
    raised is its ``__cause__``). The variants of every other plugin and the built-ins
    are registered as usual.
    """
    _load_plugins()
    return tuple(error for _, error in _BROKEN)


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
    if variant is not None:
        return variant
    for entry_name, error in _BROKEN:
        if name == entry_name:
            raise VariantError(f"variant {name!r} cannot be used: {error}") from error
    known = ", ".join(names())
    hint = ""
    if isinstance(name, str) and len(name) <= _MAX_NAME_CHARS:
        close = difflib.get_close_matches(name, [*_PRESETS, *_ALIASES], n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    broken = ""
    if _BROKEN:
        listed = ", ".join(repr(entry_name) for entry_name, _ in _BROKEN)
        broken = f"; plugins that could not be loaded: {listed}"
    raise UnknownVariantError(
        f"unknown variant {_input.excerpt(name)}{hint}; known variants: {known}{broken}"
    )


def get(name: str, /, **options: Any) -> Variant:
    """The variant registered as ``name`` (a name or an alias) with ``options`` changed.

    Options are the variant's option fields (``target_score``, ``draw_count``, ...),
    listed on each variant page of the docs; see ``get(name).option_specs()``.
    """
    # Spec §5.
    preset = _preset(name)
    if not options:
        return canonical(preset)
    for key, value in options.items():
        _input.check_tree(value, what=f"option {key!r}", error=VariantError)
    return preset.with_options(options)


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


def from_text(text: str) -> Variant:
    """A variant named by ``text``: a registered name or alias, or a config mapping as JSON
    text (``'{"variant": "classic", "target_score": 3000}'``).

    JSON text is read with the bounds of every reader (1 MiB, nesting at most 32 deep,
    integers of at most 20 digits); malformed JSON raises `VariantError`.
    """
    if not isinstance(text, str):
        raise VariantError(f"a variant must be named by text, got {_input.excerpt(text)}")
    if text.lstrip().startswith("{"):
        return from_config(_input.loads(text, what="variant config", error=VariantError))
    return get(text)


def load(path: str | os.PathLike[str]) -> Variant:
    """Read a variant config (as for `from_config`) from a ``.toml`` or ``.json`` file.

    A TOML file holds top-level keys::

        variant = "classic-2p"
        target_score = 3000

    A file that cannot be read, is larger than any config (1 MiB), is malformed or nested
    too deeply raises `VariantError`.
    """
    if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str):
        raise VariantError(f"a variant config path must be a file name, got {path!r}")
    what = f"variant config {_input.excerpt(os.fspath(path), _input.PATH_CHARS)}"
    suffix = os.path.splitext(os.fspath(path))[1]
    if suffix.lower() not in CONFIG_SUFFIXES:
        raise VariantError(
            f"{what}: unknown file type {_input.excerpt(suffix)}; "
            f"use {' or '.join(CONFIG_SUFFIXES)}"
        )
    text = _input.read_text(
        path, what="variant config", error=VariantError, limit=_input.MAX_JSON_CHARS
    )
    if suffix.lower() == ".json":
        try:
            data = _input.loads(text, what="the file", error=VariantError)
        except VariantError as exc:
            raise VariantError(f"{what} is malformed: {exc}") from None
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"{what} is malformed: {exc}") from None
        except (RecursionError, ValueError):
            # tomllib recurses into nested arrays and converts integers of any length.
            raise VariantError(
                f"{what} is malformed: nested too deeply or a number too long"
            ) from None
        _input.check_tree(data, what=what, error=VariantError)
    try:
        return from_config(data)
    except VariantError as exc:
        raise VariantError(f"{what}: {exc}") from None
    except UnknownVariantError as exc:
        raise UnknownVariantError(f"{what}: {exc}") from None


def _builtins() -> None:
    for variant, alias_names in presets.BUILTINS:
        _add([(variant, alias_names)], "built-in")


_builtins()
base.registered = _preset
