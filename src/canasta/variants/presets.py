"""The built-in presets: classic for 2, 3, 4 and 6 players, Modern American (also as the
clubs play it), and the Dutch home rules of seed S4.

Presets that differ only in numbers are instances of one class with other field values.
"""
# Spec §3.

from __future__ import annotations

import attrs

from canasta.variants.base import Variant
from canasta.variants.classic import RED_THREES_3DECK, ClassicVariant
from canasta.variants.modern import ModernAmericanVariant

__all__: list[str] = []

#: Spec §3.1, the reference game: 4 players in 2 partnerships.
_CLASSIC = ClassicVariant(name="classic")

#: Spec §3.2: 15 cards, draw 2, two canastas to go out.
_CLASSIC_2P = ClassicVariant(
    name="classic-2p", players=2, sides=2, hand_size=15, draw_count=2, canastas_to_go_out=2
)

#: Spec §3.3: three players, each alone; 13 cards, draw 2, 7,500.
_CLASSIC_3P = ClassicVariant(
    name="classic-3p", players=3, sides=3, hand_size=13, draw_count=2, target_score=7500
)

#: Spec §3.3 cutthroat: lone hand vs. a partnership formed by the first pickup.
_CLASSIC_3P_CUTTHROAT = ClassicVariant(
    name="classic-3p-cutthroat",
    players=3,
    sides=3,
    hand_size=13,
    draw_count=2,
    canastas_to_go_out=2,
    target_score=7500,
    stock_exhausted="end_after_turn",
    cutthroat=True,
)

#: Spec §3.4 default: two sides of three seated alternately, 3 decks.
_CLASSIC_6P = ClassicVariant(
    name="classic-6p",
    players=6,
    sides=2,
    decks=3,
    hand_size=13,
    canastas_to_go_out=2,
    target_score=10000,
    minimum_table=((0, 50), (1500, 90), (3000, 120), (7500, 150)),
    red_three_scores=RED_THREES_3DECK,
)

#: Spec §3.4: three sides of two (partners opposite), 3 decks.
_CLASSIC_6P_3X2 = ClassicVariant(
    name="classic-6p-3x2",
    players=6,
    sides=3,
    decks=3,
    hand_size=13,
    canastas_to_go_out=2,
    target_score=7500,
    red_three_scores=RED_THREES_3DECK,
)

#: Spec §3.4: three sides of two with 2 decks and 11 cards.
_CLASSIC_6P_3X2_2DECK = ClassicVariant(
    name="classic-6p-3x2-2deck", players=6, sides=3, decks=2, hand_size=11
)

#: Spec §3.7: the Dutch home rules of seed S4.
_DUTCH_S4 = ClassicVariant(
    name="dutch-s4",
    upcard_skip="none",
    initial_pickup_natural_pair=False,
    red_three_card_value=5,
    unopened_or_no_canasta_melds_negative="no_canasta",
    going_out_extra_bonus="first_meld_turn",
)

#: Spec §3.5.
_MODERN_AMERICAN = ModernAmericanVariant(
    name="modern-american",
    hand_size=13,
    canastas_to_go_out=2,
    target_score=8500,
    max_wilds_per_meld=2,
)

#: Spec §3.5.11: Modern American as the clubs play it: talons from the stock, the turn
#: card and pagat's special hands (with a held three); the other club options at their
#: defaults.
_MODERN_AMERICAN_CLUB = attrs.evolve(
    _MODERN_AMERICAN,
    name="modern-american-club",
    mac_talons=True,
    mac_turn_card=True,
    mac_special_hands=True,
    mac_hold_three=True,
)

BUILTINS: tuple[tuple[Variant, tuple[str, ...]], ...] = (
    (_CLASSIC, ("classic4",)),
    (_CLASSIC_2P, ("classic2",)),
    (_CLASSIC_3P, ("classic3",)),
    (_CLASSIC_3P_CUTTHROAT, ("cutthroat3",)),
    (_CLASSIC_6P, ("six_2x3_3deck",)),
    (_CLASSIC_6P_3X2, ("six_3x2_3deck",)),
    (_CLASSIC_6P_3X2_2DECK, ("six_3x2_2deck",)),
    (_MODERN_AMERICAN, ("mac",)),
    (_DUTCH_S4, ("dutch_s4",)),
    (_MODERN_AMERICAN_CLUB, ("mac_club",)),
)
