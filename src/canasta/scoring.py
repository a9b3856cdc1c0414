"""Scoring a finished deal with an explained breakdown.

Each side gets named `ScoreLine` rows that add up to its score; rows worth 0 are left out.
The rows come from the variant (`canasta.Variant.score_rows`); this module adds them up.
"""
# Spec §2.13, §3.3, §3.5.9.

from __future__ import annotations

import attrs

from canasta.table import ScoreLine, Table

__all__ = ["Outcome", "ScoreLine"]


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
    #: Modern American: the special hand shown to end the deal (spec §3.5.11.3), or None
    special_hand: str | None = None

    def lines(self, side: int) -> dict[str, int]:
        """A side's rows as a mapping from label to points."""
        return dict(self.breakdown[side])


def score_deal(table: Table) -> Outcome:
    """The outcome of a finished deal, by the variant's scoring rules."""
    breakdown = table.variant.score_rows(table)
    return Outcome(
        scores=tuple(sum(line.points for line in rows) for rows in breakdown),
        breakdown=breakdown,
        went_out=table.went_out,
        concealed=table.concealed,
        special_hand=table.special,
    )
