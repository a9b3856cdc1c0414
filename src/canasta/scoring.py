"""Scoring a finished deal with an explained breakdown (spec §2.13, §3.3, §3.5.9).

Each side gets named :class:`ScoreLine` rows that add up to its score; rows worth 0 are
left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import attrs

from canasta.cards import card_value
from canasta.table import WILD_RANK, Meld

if TYPE_CHECKING:
    from canasta.state import GameState


class ScoreLine(NamedTuple):
    """One named row of a side's deal score."""

    label: str
    points: int


@attrs.frozen
class Outcome:
    """The result of a deal."""

    #: each side's score for this deal
    scores: tuple[int, ...]
    #: each side's named rows (they add up to its score)
    breakdown: tuple[tuple[ScoreLine, ...], ...]
    #: the seat that went out, or None
    went_out: int | None
    concealed: bool

    def lines(self, side: int) -> dict[str, int]:
        """A side's rows as a mapping from label to points."""
        return dict(self.breakdown[side])


def _rows(*rows: tuple[str, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine(label, points) for label, points in rows if points)


def classic_side(st: GameState, side: int) -> tuple[ScoreLine, ...]:
    """Spec §2.13 for one side (D17, D19 and D1 included)."""
    variant = st.variant
    melds: tuple[Meld, ...] = st.melds[side]
    seats = variant.seats_of(side)
    natural = sum(1 for m in melds if m.is_canasta and m.is_natural and m.rank != WILD_RANK)
    mixed = sum(1 for m in melds if m.is_canasta and not m.is_natural and m.rank != WILD_RANK)
    wild = sum(1 for m in melds if m.is_canasta and m.rank == WILD_RANK)
    # Red threes still in a hand (red_three_declare=first_turn, no turn yet) count as laid.
    red = len(st.threes[side]) + sum(
        1 for s in seats for c in st.hands[s] if c in variant.laid_out_threes
    )
    table = variant.red_three_scores
    magnitude = table[red] if red < len(table) else table[-1]
    sign = 1 if melds else -1
    cards_sign = -1 if (variant.unopened_or_no_canasta_melds_negative == "no_canasta"
                        and not (natural + mixed + wild)) else 1
    went_out = st.went_out is not None and variant.side_of(st.went_out) == side
    in_hands = sum(card_value(c) for s in seats for c in st.hands[s]
                   if c not in variant.laid_out_threes)
    return _rows(
        ("melded cards", cards_sign * sum(m.value for m in melds)),
        ("natural canastas", natural * variant.natural_canasta_bonus),
        ("mixed canastas", mixed * variant.mixed_canasta_bonus),
        ("wild canastas", wild * variant.classic_wild_canasta_bonus),
        ("red threes", sign * magnitude),
        ("red three cards", cards_sign * red * variant.red_three_card_value),
        ("going out", variant.going_out_bonus if went_out else 0),
        ("concealed", variant.concealed_bonus if went_out and st.concealed else 0),
        ("cards in hand", -in_hands),
    )


def score_deal(st: GameState) -> Outcome:
    """The outcome of a finished deal, by the variant's scoring rules."""
    breakdown = st.variant.score_rows(st)
    return Outcome(
        scores=tuple(sum(line.points for line in rows) for rows in breakdown),
        breakdown=breakdown,
        went_out=st.went_out,
        concealed=st.concealed,
    )

