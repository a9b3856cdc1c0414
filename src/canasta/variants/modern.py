"""Modern American Canasta: the rules that differ from the classic game.

Every difference is an answer to one of the engine's rule questions (see
`Variant`); the engine never looks at the variant's name.
"""
# Spec §3.5.

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from canasta.cards import (
    ACE,
    BLACK_THREES,
    JOKER_RANK,
    RED_THREES,
    SEVEN,
    THREE,
    TWO,
    card_value,
)
from canasta.errors import IllegalReason, VariantError
from canasta.table import (
    CANASTA_SIZE,
    WILD_RANK,
    Meld,
    ScoreLine,
    Table,
    score_lines,
)
from canasta.variants._special_hands import ALL_HAND_NAMES, classify, hand_names
from canasta.variants.base import (
    CLEAN3,
    HAND_CANASTA,
    MIXED_CANASTA,
    NAT3,
    WILD_MELD,
    LastStockThree,
    Variant,
    bool_field,
    choice_field,
    int_field,
    table_field,
    values_field,
)

__all__ = ["ModernAmericanVariant"]

# Spec §3.5.4: 125 below 3000 (negative scores included), 155 from 3000, 180 from 5000.
_MAC_MINIMUMS = ((-(10**9), 125), (3000, 155), (5000, 180))
#: Spec §3.5.9: threes of one colour, by count.
THREES_BY_COUNT = (0, 100, 300, 500, 1000)
#: Spec §3.5.11: club features whose rules the engine does not play yet; switching one on
#: is refused.
#: Spec §3.5.11.1 TL1: the first side to open gets 4 cards, the second 3.
_TALON_SIZES = (4, 3)


@attrs.frozen(cache_hash=True)
class ModernAmericanVariant(Variant):
    """Modern American Canasta; fields are its options."""

    # The MAC flags of spec §5.

    minimum_table: tuple[tuple[int, int], ...] = table_field(_MAC_MINIMUMS)
    mac_initial_meld_content: str = choice_field(
        "clean_or_wild", "clean_required", "three_naturals"
    )  # D22
    mac_pickup_cards_count: str = choice_field("pair_only", "none")  # D23
    mac_initial_mixed_canasta_allowed: bool = bool_field(True)  # §3.5.4
    mac_stock_exhausted: str = choice_field("end_after_turn", "continue_with_pile")  # D24
    mac_wild_meld_penalty_four_jokers: int = choice_field(2500, 2000)  # D25
    mac_ask_partner_limit: str = choice_field("per_hand", "per_game")  # D26
    mac_new_meld_after_mixed_canasta: bool = bool_field(True)  # D27
    mac_allow_8plus_going_out: bool = bool_field(False)  # D28
    natural_seven_bonus: int = int_field(2500)
    natural_ace_bonus: int = int_field(2500)
    wild_canasta_twos_bonus: int = int_field(3000)
    wild_canasta_four_jokers_bonus: int = int_field(2500)
    wild_canasta_bonus: int = int_field(2000)
    unfinished_pure_penalty: int = int_field(2500)
    unfinished_wild_penalty: int = int_field(2000)
    held_aces_sevens_penalty: int = int_field(1500)
    # Spec §3.5.11 (the club features), Part D of its appendix.
    mac_talons: bool = bool_field(False)
    mac_talon_source: str = choice_field("stock", "set_aside")  # D31
    mac_talon_on_pickup_opening: bool = bool_field(False)  # D32
    mac_talon_hand_floor: str = choice_field("discard_only", "hold_and_throw")  # D33
    mac_turn_card: bool = bool_field(False)
    mac_special_hands: bool = bool_field(False)
    mac_special_hand_set: str = choice_field("pagat", "cla")  # D34
    mac_special_hand_values: tuple[tuple[str, int], ...] = values_field(ALL_HAND_NAMES)  # D34
    mac_wild_pairs_wild: str = choice_field("twos_or_jokers", "twos_only")  # D35
    mac_special_hand_courtesy: bool = bool_field(False)  # D36
    # H7: follows mac_special_hands unless set (see `with_options`).
    mac_hold_three: bool = bool_field(False)
    mac_held_three_penalty: int = choice_field(5, 100)  # D37
    mac_covered_last_discard: bool = bool_field(False)  # D38

    family: ClassVar[str] = "modern"
    laid_out_threes: ClassVar[frozenset[int]] = RED_THREES | BLACK_THREES  # every three
    starts_with_upcard: ClassVar[bool] = False
    merges_same_rank: ClassVar[bool] = False
    max_meld_size: ClassVar[int] = CANASTA_SIZE  # spec §3.5.3: a meld stops at seven
    closes_ranks: ClassVar[bool] = True
    pile_always_frozen: ClassVar[bool] = True
    concealed_going_out: ClassVar[bool] = False
    pickup_layoff_allowed: ClassVar[bool] = False
    pickup_join_limit: ClassVar[int] = 4
    go_out_needs_discard: ClassVar[bool] = True
    wild_meld_blocks_wilds: ClassVar[bool] = True
    wild_meld_blocks_going_out: ClassVar[bool] = True
    canasta_waives_minimum: ClassVar[bool] = True
    restricts_discards: ClassVar[bool] = True

    def _check_combinations(self) -> None:
        super()._check_combinations()
        # Threes are scored by colour, up to four each (spec §3.5.9): two decks.
        if self.decks != 2:
            raise VariantError(
                f"option 'decks': Modern American Canasta is played with 2 decks, got {self.decks}"
            )
        if self.players != 4 or self.sides != 2:
            raise VariantError(
                "option 'players': Modern American Canasta is for 4 players in 2 sides"
            )
        if self.max_wilds_per_meld > 2:
            raise VariantError("option 'max_wilds_per_meld': at most 2 in Modern American")
        # TC1: the turn card lies 9th from the bottom of the deck before the deal; the stock
        # the base class demands (a replacement for each of the 8 threes and one card to
        # draw: 9 cards) leaves it there.
        # H7: a held three has no use but the straight, a special hand.
        if self.mac_hold_three and not self.mac_special_hands:
            raise VariantError(
                "option 'mac_hold_three' needs 'mac_special_hands': a three is held only "
                "for the straight, a special hand"
            )
        # The held three is the first one dealt (H2), so the threes go down at the deal.
        if self.mac_hold_three and not self.declares_threes_at_deal:
            raise VariantError(
                "option 'mac_hold_three' needs red_three_declare='at_deal': the held three "
                "is the first one dealt, the others are laid out at the deal (with "
                "'first_turn', set mac_hold_three to false)"
            )
        known = hand_names(self.mac_special_hand_set)
        for hand, _points in self.mac_special_hand_values:
            if hand not in known:
                raise VariantError(
                    f"option 'mac_special_hand_values': {hand!r} is not a special hand of the "
                    f"set {self.mac_special_hand_set!r} (its hands: {', '.join(known)})"
                )

    def with_options(self, options: Any) -> Variant:
        # H7: holding one three defaults to the value of mac_special_hands.
        if (
            isinstance(options, Mapping)
            and "mac_special_hands" in options
            and "mac_hold_three" not in options
        ):
            options = {**options, "mac_hold_three": options["mac_special_hands"]}
        return super().with_options(options)

    def to_config(self, *, full: bool = False) -> dict[str, Any]:
        config = super().to_config(full=full)
        # H7: read back, mac_hold_three follows mac_special_hands unless it is written too.
        if "mac_special_hands" in config and self.mac_hold_three != self.mac_special_hands:
            config["mac_hold_three"] = self.mac_hold_three
        return config

    # -- special hands (spec §3.5.11.3) and the held three (§3.5.11.4) -----------------

    @property
    def has_special_hands(self) -> bool:
        return self.mac_special_hands

    @property
    def holds_three(self) -> bool:
        return self.mac_hold_three

    @property
    def special_hand_courtesy(self) -> bool:
        return self.mac_special_hand_courtesy

    # -- talons (spec §3.5.11.1) and the turn card (§3.5.11.2) -------------------------

    @property
    def talon_sizes(self) -> tuple[int, ...]:
        return _TALON_SIZES if self.mac_talons else ()

    @property
    def talons_set_aside(self) -> bool:
        return self.mac_talons and self.mac_talon_source == "set_aside"  # D31

    @property
    def talon_after_pickup(self) -> bool:
        return self.mac_talon_on_pickup_opening  # D32

    @property
    def talon_lowers_floor(self) -> bool:
        return self.mac_talons and self.mac_talon_hand_floor == "discard_only"  # D33

    @property
    def shows_turn_card(self) -> bool:
        return self.mac_turn_card

    def special_hand(self, counts: list[int]) -> tuple[str, int] | None:
        """The special hand these 14 cards (counted by rank index) form, with its points,
        or None; None too where special hands are not played."""
        if not self.mac_special_hands:
            return None
        return classify(
            counts,
            self.mac_special_hand_set,
            dict(self.mac_special_hand_values),
            self.mac_wild_pairs_wild == "twos_or_jokers",
        )

    @property
    def covers_last_discard(self) -> bool:
        return self.mac_covered_last_discard  # D38

    # -- melds -------------------------------------------------------------------------

    def initial_minimum(self, score: int) -> int:
        minimum = self.minimum_table[0][1]
        for threshold, value in self.minimum_table:
            if score >= threshold:
                minimum = value
        return minimum

    def opening_done(self, value: int, minimum: int, flags: int) -> bool:
        # Spec §3.5.4, D22: the content rule, then the minimum (waived by a canasta from hand).
        content = self.mac_initial_meld_content
        if content == "clean_or_wild":
            ok = bool(flags & (CLEAN3 | WILD_MELD))
        elif content == "clean_required":
            ok = bool(flags & CLEAN3)
        else:
            ok = bool(flags & NAT3)
        if flags & HAND_CANASTA and not flags & MIXED_CANASTA:
            ok = True  # a natural (or wild) canasta from hand is clean enough [LIB]
        if not ok:
            return False
        if flags & MIXED_CANASTA and not self.mac_initial_mixed_canasta_allowed:
            return False
        return value >= minimum or bool(flags & HAND_CANASTA)

    @property
    def oversize_when_going_out(self) -> bool:
        return self.mac_allow_8plus_going_out

    @property
    def has_wild_melds(self) -> bool:
        return True

    @property
    def new_meld_after_canasta(self) -> bool:
        return self.mac_new_meld_after_mixed_canasta

    @property
    def ask_limit(self) -> int | None:
        return 1  # D26: counted per player, per hand or per game

    @property
    def asks_counted_per_game(self) -> bool:
        return self.mac_ask_partner_limit == "per_game"  # D26

    @property
    def stock_out_ends_after_turn(self) -> bool:
        return self.mac_stock_exhausted == "end_after_turn"  # D24

    @property
    def last_stock_three_rule(self) -> LastStockThree:
        # Spec §3.5.2: it stays in hand (counting against the side) and the deal ends.
        return LastStockThree(kept_in_hand=True, ends_deal=True, no_discard=False)

    def natural_meld_reason(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> IllegalReason | None:
        n, w = naturals + add_naturals, wilds + add_wilds
        if n < 2 or n + w < 3:
            return IllegalReason.INVALID_MELD
        if n + w > self.max_meld_size and not self.mac_allow_8plus_going_out:
            return IllegalReason.MELD_TOO_LARGE  # spec §3.5.3; D28 lets the engine decide
        if w > self.max_wilds_per_meld:
            return IllegalReason.TOO_MANY_WILDS
        if add_wilds:
            if rank == SEVEN:
                return IllegalReason.WILD_RULE  # sevens never take wilds
            if rank == ACE and not (opening and naturals + wilds == 0):
                return IllegalReason.WILD_RULE  # aces: wilds only from the start of the opening
            if not opening and n < 5:
                return IllegalReason.WILD_RULE  # the rule of five
        return None

    def wild_rule_why(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> str:
        reason = self.natural_meld_reason(rank, naturals, wilds, add_naturals, add_wilds, opening)
        if reason is not IllegalReason.WILD_RULE:
            return ""
        # Each rank has one rule that refuses its wild cards (the ace rule covers the rule
        # of five: it leaves wild cards only to the initial meld).
        if rank == SEVEN:
            return "sevens never take wild cards: a meld of sevens is natural only"
        if rank == ACE:
            return (
                "aces take wild cards only in a meld of aces started with them in the initial meld"
            )
        return (
            "the rule of five: once the side has opened, wild cards join a meld only when it "
            f"holds at least 5 natural cards, and this one would hold {naturals + add_naturals}"
        )

    def wild_meld_reason(self, before: int, added: int) -> IllegalReason | None:
        # Spec §3.5.3: 3 to 7 wild cards.
        if before + added > CANASTA_SIZE:
            return IllegalReason.MELD_TOO_LARGE
        if before == 0 and added < 3:
            return IllegalReason.INVALID_MELD
        return None

    def pickup_reason(
        self, naturals: int, wilds: int, frozen: bool, opened: bool
    ) -> IllegalReason | None:
        # Spec §3.5.5: always a natural pair, never a wild.
        if naturals < 2 or wilds:
            return IllegalReason.NATURAL_PAIR_NEEDED
        return None

    def pickup_opening_value(self, top_value: int, hand_value: int) -> int:
        return hand_value if self.mac_pickup_cards_count == "pair_only" else 0  # D23

    def discard_reason(
        self,
        code: int,
        counts: list[int],
        pile_empty: bool,
        going_out: bool,
        closed: frozenset[int],
    ) -> IllegalReason | None:
        """Threes never; wilds only when going out or all wild; on an empty pile, A or 7
        only without another natural, a closed rank only when nothing else may go."""
        # Spec §3.5.6. The engine asks for every rank held in every play phase: the rule is
        # one call, without a helper's.
        rank = code >> 2
        if rank == THREE:
            return IllegalReason.DISCARD_NOT_ALLOWED
        if rank in (TWO, JOKER_RANK):
            all_wild = sum(counts) == counts[TWO] + counts[JOKER_RANK]
            return None if going_out or all_wild else IllegalReason.DISCARD_NOT_ALLOWED
        if not pile_empty:
            return None
        if rank in (ACE, SEVEN):
            special = (ACE, SEVEN, TWO, THREE, JOKER_RANK)
            if any(c for r, c in enumerate(counts) if r not in special):
                return IllegalReason.DISCARD_NOT_ALLOWED
        if rank in closed:
            # Another card that may go: judged by this rule (not a subclass's) with no rank
            # closed, its own not being closed.
            rule = ModernAmericanVariant.discard_reason
            for other, count in enumerate(counts):
                if (
                    count
                    and other != rank
                    and other not in closed
                    and rule(self, other << 2, counts, pile_empty, going_out, _OPEN) is None
                ):
                    return IllegalReason.DISCARD_NOT_ALLOWED
        return None

    def score_rows(self, table: Table) -> tuple[tuple[ScoreLine, ...], ...]:
        return tuple(_side_rows(self, table, side) for side in range(self.sides))

    def special_hand_points(self, table: Table) -> int:
        """SH5: what the special hand shown in ``table`` scores for its side."""
        assert table.went_out is not None
        counts = [0] * 14
        for code in table.hands[table.went_out]:
            counts[code >> 2] += 1
        shown = self.special_hand(counts)
        assert shown is not None  # the deal ended by showing it
        return shown[1]


#: No rank closed (`ModernAmericanVariant.discard_reason` judging another card).
_OPEN: frozenset[int] = frozenset()


def _side_rows(variant: ModernAmericanVariant, st: Table, side: int) -> tuple[ScoreLine, ...]:
    """The score rows of one side of Modern American Canasta."""
    # Spec §3.5.9.
    if st.special is not None and variant.side_of(st.went_out or 0) == side:
        # SH5: the special hand's value and nothing else (threes, melds, partner's hand).
        return score_lines(("special hand", variant.special_hand_points(st)))
    melds: tuple[Meld, ...] = st.melds[side]
    seats = variant.seats_of(side)
    canastas = [m for m in melds if m.is_canasta]
    natural = sevens = aces = mixed = wild = 0
    for m in canastas:
        if m.rank == WILD_RANK:
            if m.jokers == 0:
                wild += variant.wild_canasta_twos_bonus
            elif m.jokers == 4:
                wild += variant.wild_canasta_four_jokers_bonus
            else:
                wild += variant.wild_canasta_bonus
        elif not m.is_natural:
            mixed += variant.mixed_canasta_bonus
        elif m.rank == SEVEN:
            sevens += variant.natural_seven_bonus
        elif m.rank == ACE:
            aces += variant.natural_ace_bonus
        else:
            natural += variant.natural_canasta_bonus
    sign = 1 if len(canastas) >= 2 else 0 if len(canastas) == 1 else -1
    unfinished = 0
    for m in melds:
        if m.is_canasta:
            continue
        if m.rank == WILD_RANK:
            unfinished += (
                variant.mac_wild_meld_penalty_four_jokers
                if m.jokers == 4
                else variant.unfinished_wild_penalty
            )
        elif m.is_natural and m.rank in (SEVEN, ACE):
            unfinished += variant.unfinished_pure_penalty
    held = 0
    in_hands = 0
    laid = list(st.threes[side])
    for seat in seats:
        hand = st.hands[seat]
        in_hands += sum(card_value(c) for c in hand if c >> 2 != THREE)
        # A three in hand: the one drawn as the last stock card counts 5 (spec §3.5.2); a
        # held three counts mac_held_three_penalty (D37). Where no three is held, the
        # others were never laid out, their player never having had a turn
        # (red_three_declare=first_turn): laid out now, they score as threes (D3).
        threes_held = [c for c in hand if c >> 2 == THREE]
        if threes_held and st.last_three == seat:
            in_hands += 5
            threes_held.pop()
        if variant.holds_three:
            in_hands += len(threes_held) * variant.mac_held_three_penalty
        else:
            laid += threes_held
        ranks = [c >> 2 for c in hand]
        held += variant.held_aces_sevens_penalty * (
            (ranks.count(ACE) >= 3) + (ranks.count(SEVEN) >= 3)
        )
    red = sum(1 for c in laid if c in RED_THREES)
    threes = THREES_BY_COUNT[red] + THREES_BY_COUNT[len(laid) - red]  # two decks: 4 each
    went_out = st.went_out is not None and variant.side_of(st.went_out) == side
    return score_lines(
        ("going out", variant.going_out_bonus if went_out else 0),
        ("natural canastas", natural),
        ("mixed canastas", mixed),
        ("natural sevens", sevens),
        ("natural aces", aces),
        ("wild canastas", wild),
        ("threes", sign * threes),
        ("unfinished melds", -unfinished),
        ("melded cards", (1 if canastas else -1) * sum(m.value for m in melds)),
        ("cards in hand", -in_hands),
        ("aces and sevens held", -held),
    )
