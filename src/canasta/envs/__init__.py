"""Canasta in learning libraries: `canasta.envs.pettingzoo` (a PettingZoo AEC environment,
extra ``canasta[pettingzoo]``) and `canasta.envs.openspiel` (an OpenSpiel game, extra
``canasta[openspiel]``).

Both use the action space and the tensors of `canasta.rl` and pay the rewards of
`canasta.rl.rewards`. Importing this package imports neither library.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from canasta import variants
from canasta.variants.base import Variant

__all__: list[str] = []


def _resolve(variant: Variant | str | Mapping[str, Any]) -> Variant:
    """A Variant from a Variant, a registered name or a config mapping."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, Mapping):
        return variants.from_config(variant)
    return variants.get(variant)
