"""House rules for canasta, registered as a plugin (an example of a third-party variant).

The package's ``pyproject.toml`` names :func:`house_2p_wild` in the entry-point group
``canasta.variants``; canasta loads it on first use of its registry, so once the package is
installed ``canasta.new_game("house-2p-wild")`` just works. Nothing is registered on import.

``house-2p-wild`` is the two-player game (spec §3.2) with the house rule D1: a canasta of
wild cards only, laid as at least seven wilds at once, scores a bonus of 1000.
"""

from __future__ import annotations

from canasta import variants
from canasta.variants import Variant

__all__ = ["house_2p_wild"]


def house_2p_wild() -> Variant:
    """Two-player classic Canasta with wild-card canastas (D1) worth 1000."""
    base = variants.get("classic-2p", classic_wild_canasta=True, classic_wild_canasta_bonus=1000)
    return base.with_name("house-2p-wild")
