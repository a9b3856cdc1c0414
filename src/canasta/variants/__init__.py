"""The variant registry (api.md §2): names, presets, options and config files.

Built-in presets are registered on import; third-party packages register theirs through
the entry-point group ``canasta.variants`` (loaded on first use of the registry) or by
calling :func:`register`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from canasta.errors import UnknownVariantError, VariantError
from canasta.variants.base import Variant
from canasta.variants.classic import ClassicVariant

__all__ = [
    "ClassicVariant",
    "Variant",
    "from_config",
    "get",
    "load",
    "names",
    "register",
]

_PRESETS: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}
_plugins_loaded = False


def register(variant: Variant, aliases: tuple[str, ...] = ()) -> None:
    """Register ``variant`` under ``variant.name`` (and ``aliases``); names must be new."""
    if not isinstance(variant, Variant):
        raise VariantError(f"register() needs a Variant, got {variant!r}")
    for name in (variant.name, *aliases):
        if name in _PRESETS or name in _ALIASES:
            raise VariantError(f"variant name {name!r} is already registered")
    _PRESETS[variant.name] = variant
    for alias in aliases:
        _ALIASES[alias] = variant.name


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for entry in metadata.entry_points(group="canasta.variants"):
        loaded = entry.load()
        variant = loaded() if callable(loaded) and not isinstance(loaded, Variant) else loaded
        if isinstance(variant, Variant):
            if variant.name not in _PRESETS:
                register(variant)
        else:
            raise VariantError(f"entry point {entry.name!r} did not give a Variant")


def names() -> tuple[str, ...]:
    """The registered variant names (aliases not included)."""
    _load_plugins()
    return tuple(_PRESETS)


def _preset(name: str) -> Variant:
    _load_plugins()
    if not isinstance(name, str):
        raise UnknownVariantError(f"variant name must be a string, got {name!r}")
    key = _ALIASES.get(name, name)
    try:
        return _PRESETS[key]
    except KeyError:
        known = ", ".join(names())
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None


def get(name: str, **options: Any) -> Variant:
    """The preset ``name`` with ``options`` (flags of spec §5) changed."""
    preset = _preset(name)
    return preset.with_options(options) if options else preset


def from_config(config: Mapping[str, Any]) -> Variant:
    """A variant from a mapping such as ``{"variant": "classic-2p", "target_score": 3000}``."""
    if not isinstance(config, Mapping):
        raise VariantError(f"a variant config must be a mapping, got {config!r}")
    if "variant" not in config:
        raise VariantError("variant config needs the key 'variant'")
    options = {k: v for k, v in config.items() if k != "variant"}
    return get(config["variant"], **options)


def load(path: str | Path) -> Variant:
    """Read a variant config from a ``.toml`` or ``.json`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"cannot read variant config {str(path)!r}: {exc}") from None
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise VariantError(f"variant config {str(path)!r} is malformed: {exc}") from None
    return from_config(data)


def _builtins() -> None:
    from canasta.variants import presets

    for variant, aliases in presets.BUILTINS:
        register(variant, aliases)


_builtins()
