"""The built-in presets (spec §3): classic for 2, 3, 4 and 6 players, and Dutch S4 rules."""

from __future__ import annotations

from canasta.variants.base import Variant
from canasta.variants.classic import RED_THREES_3DECK, ClassicVariant

#: Spec §3.1, the reference game.
CLASSIC = ClassicVariant(name="classic")

BUILTINS: tuple[tuple[Variant, tuple[str, ...]], ...] = (
    (CLASSIC, ("classic4",)),
)
