"""Classic Canasta: the 2-, 3-, 4- and 6-player presets.

Presets that differ only in numbers are instances of `ClassicVariant`; nothing in
the engine looks at a preset's name.
"""
# Spec §2, §3.1–§3.4, §3.7.

from __future__ import annotations

import attrs

from canasta.cards import RED_THREES, THREE, card_value, is_wild
from canasta.errors import IllegalReason, VariantError
from canasta.table import CANASTA_SIZE, WILD_RANK, Meld, ScoreLine, Table, score_lines
from canasta.variants.base import (
    LastStockThree,
    Variant,
    bool_field,
    choice_field,
    int_field,
    ints_field,
    shown,
    table_field,
)

__all__ = ["ClassicVariant"]

# Spec §2.8: the initial-meld minimum by cumulative score (s < 0 is `negative_score_minimum`).
_CLASSIC_MINIMUMS = ((0, 50), (1500, 90), (3000, 120))
# Spec §2.13: red-three term by count in a 2-deck game (800 for all four).
_RED_THREES_2DECK = (0, 100, 200, 300, 800)
# Spec §2.13, §3.4: 3-deck games (1000 for five, 1200 for six).
RED_THREES_3DECK = (0, 100, 200, 300, 400, 1000, 1200)


@attrs.frozen(cache_hash=True)
class ClassicVariant(Variant):
    """The classic game and its player-count presets; fields are its options."""

    # The flags of spec §5.

    meld_wild_ratio: str = choice_field("min2_max3", "n_ge_w", "n_gt_w")  # D8
    classic_wild_canasta: bool = bool_field(False)  # D1
    classic_wild_canasta_bonus: int = int_field(1000)  # D1
    initial_meld_failure: str = choice_field("reject")  # D2
    negative_score_minimum: int = choice_field(15, 0)  # D7
    minimum_table: tuple[tuple[int, int], ...] = table_field(_CLASSIC_MINIMUMS)  # §2.8, §3.4
    red_three_scores: tuple[int, ...] = ints_field(_RED_THREES_2DECK)  # §2.13
    upcard_skip: str = choice_field("wild_red3", "wild_any3", "none")  # D4
    upcard_red_three_freezes: bool = bool_field(True)  # D5
    black_three_meld_wilds: bool = bool_field(False)  # D6
    top_card_counts_initial: bool = bool_field(True)  # D9
    stock_exhausted: str = choice_field("continue_with_pile", "end_after_turn")  # D10
    forced_pickup_after_stock: bool = bool_field(True)  # D20
    last_stock_red_three: str = choice_field(
        "meld_no_discard", "end_immediately", "normal_turn"
    )  # D11
    concealed_exempt_from_minimum: bool = bool_field(True)  # D12
    concealed_allowed_after_pickup: bool = bool_field(True)  # D13
    unfrozen_pickup_with_wild: bool = bool_field(True)  # D14
    initial_pickup_natural_pair: bool = bool_field(True)  # D15
    one_card_one_pile_pickup: bool = bool_field(True)  # D16
    unopened_or_no_canasta_melds_negative: str = choice_field("never", "no_canasta")  # D17
    red_three_card_value: int = choice_field(0, 5)  # D19
    natural_canasta_locked: bool = bool_field(False)  # D29
    concealed_bonus: int = int_field(100)  # §2.9
    going_out_extra_bonus: str = choice_field("concealed", "first_meld_turn")  # D30
    #: Spec §3.3 cutthroat: a lone hand against a partnership formed by the first pickup.
    cutthroat: bool = bool_field(False)

    family = "classic"

    def _check_combinations(self) -> None:
        super()._check_combinations()
        # One entry per possible number of red threes (0 to 2 per deck).
        if len(self.red_three_scores) != 2 * self.decks + 1:
            raise VariantError(
                f"option 'red_three_scores' needs {2 * self.decks + 1} entries (for 0 to "
                f"{2 * self.decks} red threes with {self.decks} deck(s)), "
                f"got {shown(self.red_three_scores)}"
            )
        # The table starts at 0: negative scores have `negative_score_minimum`.
        if self.minimum_table[0][0] != 0:
            raise VariantError(
                f"option 'minimum_table' must start at a score of 0 (negative scores use "
                f"'negative_score_minimum'), got {shown(self.minimum_table)}"
            )
        # Spec §3.3 cutthroat: three players, each alone until the lone hand is known.
        if self.cutthroat and (self.players, self.sides) != (3, 3):
            raise VariantError(
                f"option 'cutthroat' needs 3 players in 3 sides, got {self.players} players "
                f"in {self.sides} sides"
            )

    laid_out_threes = RED_THREES  # spec §2.6

    def upcard_covered(self, code: int) -> bool:
        if self.upcard_skip == "none":
            return False
        if is_wild(code):
            return True
        if code >> 2 == THREE:
            return self.upcard_skip == "wild_any3" or code in self.laid_out_threes
        return False

    def freezes_pile(self, code: int) -> bool:
        # Spec §2.7: a wild freezes the pile; so does an upcard red three (D5).
        if is_wild(code):
            return True
        return code in self.laid_out_threes and self.upcard_red_three_freezes

    def initial_minimum(self, score: int) -> int:
        if score < 0:
            return self.negative_score_minimum
        minimum = 0
        for threshold, value in self.minimum_table:
            if score >= threshold:
                minimum = value
        return minimum

    @property
    def concealed_exempt(self) -> bool:
        return self.concealed_exempt_from_minimum

    @property
    def concealed_after_pickup(self) -> bool:
        return self.concealed_allowed_after_pickup

    @property
    def has_wild_melds(self) -> bool:
        return self.classic_wild_canasta

    @property
    def one_card_pile_allowed(self) -> bool:
        return self.one_card_one_pile_pickup

    @property
    def stock_out_ends_after_turn(self) -> bool:
        return self.stock_exhausted == "end_after_turn"  # D10

    @property
    def pickup_forced_after_stock(self) -> bool:
        return self.stock_exhausted == "continue_with_pile" and self.forced_pickup_after_stock

    @property
    def last_stock_three_rule(self) -> LastStockThree:
        mode = self.last_stock_red_three  # D11
        return LastStockThree(
            kept_in_hand=False,
            ends_deal=mode == "end_immediately",
            no_discard=mode == "meld_no_discard",
        )

    @property
    def lone_hand_on_first_pickup(self) -> bool:
        return self.cutthroat

    def natural_meld_reason(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> IllegalReason | None:
        n, w = naturals + add_naturals, wilds + add_wilds
        # Spec §2.4 and D8: N >= 2, W <= the maximum, and the chosen ratio.
        if n < 2 or n + w < 3:
            return IllegalReason.INVALID_MELD
        # Only a play that adds wilds can break the limit: a cutthroat partnership's merged
        # meld may hold more and still take naturals (spec §3.3 [LIB]).
        if w > self.max_wilds_per_meld and add_wilds:
            return IllegalReason.TOO_MANY_WILDS
        ratio = self.meld_wild_ratio
        if (ratio == "n_ge_w" and w > n) or (ratio == "n_gt_w" and w >= n):
            return IllegalReason.TOO_MANY_WILDS
        # D29: a natural canasta may be locked against wilds.
        if self.natural_canasta_locked and add_wilds and wilds == 0 and naturals >= CANASTA_SIZE:
            return IllegalReason.CANASTA_LOCKED
        return None

    def black_three_meld_reason(self, threes: int, wilds: int) -> IllegalReason | None:
        # Spec §2.6: 3 or 4 black threes and no wild; D6 (S0 before 2024) lets wilds join
        # as in any meld: at least two threes, three cards or more, at most the wild limit.
        if not wilds:
            return None if threes in (3, 4) else IllegalReason.INVALID_MELD
        if not self.black_three_meld_wilds or wilds > self.max_wilds_per_meld:
            return IllegalReason.TOO_MANY_WILDS
        return None if threes >= 2 else IllegalReason.INVALID_MELD

    def wild_meld_reason(self, before: int, added: int) -> IllegalReason | None:
        # D1: an all-wild canasta, laid as >= 7 wilds in one action; more may follow.
        if not self.classic_wild_canasta or (before == 0 and added < CANASTA_SIZE):
            return IllegalReason.INVALID_MELD
        return None

    def pickup_reason(
        self, naturals: int, wilds: int, frozen: bool, opened: bool
    ) -> IllegalReason | None:
        if naturals >= 2:
            return None
        # T3b (D14) for an opened side, D15 for the initial pickup: one natural and a wild.
        if naturals == 1 and wilds and not frozen:
            if opened and self.unfrozen_pickup_with_wild:
                return None
            if not opened and not self.initial_pickup_natural_pair:
                return None
        return IllegalReason.PILE_FROZEN if frozen else IllegalReason.NATURAL_PAIR_NEEDED

    def pickup_opening_value(self, top_value: int, hand_value: int) -> int:
        return hand_value + (top_value if self.top_card_counts_initial else 0)  # D9

    def score_rows(self, table: Table) -> tuple[tuple[ScoreLine, ...], ...]:
        if self.cutthroat:
            return _cutthroat_rows(self, table)
        return tuple(_side_rows(self, table, side) for side in range(self.sides))


def _side_rows(
    variant: ClassicVariant, st: Table, side: int, seats: tuple[int, ...] | None = None
) -> tuple[ScoreLine, ...]:
    """The score rows of one side.

    ``seats`` (3-player cutthroat) scores several seats' melds and hands as one side.
    """
    # Spec §2.13, with D17, D19 and D1.
    if seats is None:
        seats = variant.seats_of(side)
    sides = sorted({variant.side_of(s) for s in seats})
    melds: tuple[Meld, ...] = tuple(m for s in sides for m in st.melds[s])
    natural = sum(1 for m in melds if m.is_canasta and m.is_natural and m.rank != WILD_RANK)
    mixed = sum(1 for m in melds if m.is_canasta and not m.is_natural and m.rank != WILD_RANK)
    wild = sum(1 for m in melds if m.is_canasta and m.rank == WILD_RANK)
    # Red threes still in a hand (red_three_declare=first_turn, no turn yet) count as laid.
    red = sum(len(st.threes[s]) for s in sides) + sum(
        1 for s in seats for c in st.hands[s] if c in variant.laid_out_threes
    )
    magnitude = variant.red_three_scores[red]  # one entry per possible count (validated)
    sign = 1 if melds else -1
    cards_sign = (
        -1
        if (
            variant.unopened_or_no_canasta_melds_negative == "no_canasta"
            and not (natural + mixed + wild)
        )
        else 1
    )
    went_out = st.went_out is not None and st.went_out in seats
    in_hands = sum(
        card_value(c) for s in seats for c in st.hands[s] if c not in variant.laid_out_threes
    )
    return score_lines(
        ("melded cards", cards_sign * sum(m.value for m in melds)),
        ("natural canastas", natural * variant.natural_canasta_bonus),
        ("mixed canastas", mixed * variant.mixed_canasta_bonus),
        ("wild canastas", wild * variant.classic_wild_canasta_bonus),
        ("red threes", sign * magnitude),
        ("red three cards", cards_sign * red * variant.red_three_card_value),
        ("going out", variant.going_out_bonus if went_out else 0),
        *_extra_going_out(variant, st, went_out),
        ("cards in hand", -in_hands),
    )


def _extra_going_out(
    variant: ClassicVariant, st: Table, went_out: bool
) -> tuple[tuple[str, int], ...]:
    """The extra going-out bonus, for a concealed going out, or (S4) for going out in
    the turn the player first put cards on the table this deal: nothing melded or laid
    off, and no pile taken, in its earlier turns."""
    # D30; spec §2.10.
    if not went_out:
        return ()
    if variant.going_out_extra_bonus == "concealed":
        return (("concealed", variant.concealed_bonus if st.concealed else 0),)
    seat = st.went_out
    assert seat is not None
    first = not st.melded_seats[seat] and (st.turn.melded or st.turn.took_pile)
    return (("first meld turn", variant.concealed_bonus if first else 0),)


def _cutthroat_rows(variant: ClassicVariant, st: Table) -> tuple[tuple[ScoreLine, ...], ...]:
    """Cutthroat: the lone hand scores its own result; each partner is credited the
    whole partnership result (melds and hands combined), plus its own red threes."""
    # Spec §3.3.
    lone = st.lone if st.lone is not None else st.went_out
    players = variant.players
    if lone is None:
        return tuple(_side_rows(variant, st, seat) for seat in range(players))
    partners = tuple(s for s in range(players) if s != lone)
    together = _side_rows(variant, st, 0, partners)
    shared = tuple(line for line in together if line.label != "red threes")
    rows: list[tuple[ScoreLine, ...]] = []
    for seat in range(players):
        if seat == lone:
            rows.append(_side_rows(variant, st, seat))
            continue
        own = [line for line in _side_rows(variant, st, seat) if line.label == "red threes"]
        rows.append(shared + tuple(own))
    return tuple(rows)
