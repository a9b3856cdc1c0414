"""A whole game of Canasta: deals until a side reaches the target score.

`Match` is an immutable value like `GameState`. It deals each deal
with the sides' cumulative scores (which set the initial-meld minimum), passes
the deal to the next seat, adds each deal's scores, and ends when a side has reached the
variant's ``target_score`` and leads alone. Ties for the lead at or above the target follow
the variant's ``tie_policy``: ``play_on`` deals again until one side alone leads;
``shared_win`` ends the match with every tied side winning (`Match.winner` is then a
tuple of sides).

Every deal's deck comes from a seed derived from the match seed, so a match is reproduced
by its variant, its seed and its moves (see `canasta.records`).
"""
# Spec §2.14, §2.8; D18.

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from canasta.deal import check_seed, new_game, resolve_variant
from canasta.errors import IllegalMoveError, IllegalReason, ReplayError
from canasta.moves import Move, flatten_moves, parse_move
from canasta.scoring import Outcome
from canasta.state import GameState
from canasta.variants._special_hands import GAME_WINNING
from canasta.variants.base import Variant

__all__ = ["Deal", "Match", "deal_seed", "decide_winner"]


def deal_seed(match_seed: int, number: int) -> int:
    """The deck seed of deal ``number`` (1-based) of the match with seed ``match_seed``.

    A 63-bit integer taken from a SHA-256 digest, so it is the same on every platform and
    Python version.
    """
    digest = hashlib.sha256(f"canasta-match:{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@attrs.frozen
class Deal:
    """One deal of a match, as it was dealt and played.

    Attributes:
        number: 1 for the first deal of the match.
        seed: the deck seed (see `deal_seed`).
        dealer: the dealer's seat.
        scores: each side's cumulative score before the deal.
        moves: the moves played, in order.
        outcome: the deal's `Outcome`, or None while it is being played.
    """

    number: int
    seed: int
    dealer: int
    scores: tuple[int, ...]
    moves: tuple[Move, ...]
    outcome: Outcome | None

    def start(self, variant: Variant) -> GameState:
        """The deal as dealt, before any move (the Modern American ``asked`` counts, which
        a match carries from deal to deal, not carried)."""
        # D26.
        return new_game(variant, seed=self.seed, scores=self.scores, dealer=self.dealer)


@attrs.frozen
class Match:
    """A game of Canasta played deal after deal until a side wins.

    Create one with `new`; change it only through `apply` and `play`.

    Attributes:
        variant: the rules (``target_score`` and ``tie_policy`` end the match).
        seed: the match seed; deal ``n`` is shuffled with ``deal_seed(seed, n)``.
        state: the current deal; once the match is over, the last deal as it ended.
        deals: the finished deals, oldest first.
        scores: each side's cumulative score over the finished deals.
        winner: None while the match goes on; then the winning side, or with
            ``tie_policy="shared_win"`` and a tie for the lead, a tuple of the tied sides.
    """

    variant: Variant
    seed: int
    state: GameState
    deals: tuple[Deal, ...] = ()
    scores: tuple[int, ...] = ()
    winner: int | tuple[int, ...] | None = None
    is_over: bool = False

    @classmethod
    def new(
        cls,
        variant: Variant | str | Mapping[str, Any] = "classic",
        seed: int | None = None,
    ) -> Match:
        """Start a match and deal its first deal.

        Args:
            variant: a `Variant`, a registered name or a config mapping.
            seed: the match seed; None picks one at random (it is kept in `seed`).

        Returns:
            A match whose `state` is the first deal; the last seat deals, so seat 0
            plays first.
        """
        resolved = resolve_variant(variant)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        check_seed(seed)
        scores = (0,) * resolved.sides
        dealer = resolved.players - 1
        state = new_game(resolved, seed=deal_seed(seed, 1), scores=scores, dealer=dealer)
        return cls(variant=resolved, seed=seed, state=state, scores=scores)

    # -- reading -------------------------------------------------------------------------

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides as a tuple: empty while the match goes on."""
        if self.winner is None:
            return ()
        return self.winner if isinstance(self.winner, tuple) else (self.winner,)

    @property
    def deal_number(self) -> int:
        """The number of the current deal (1-based)."""
        return len(self.deals) + (0 if self.is_over else 1)

    def current_deal(self) -> Deal:
        """The deal in progress, with the moves played so far (outcome None)."""
        if self.is_over:
            raise ValueError("the match is over: no deal is in progress")
        state = self.state
        return Deal(
            number=len(self.deals) + 1,
            seed=deal_seed(self.seed, len(self.deals) + 1),
            dealer=state.dealer,
            scores=state.scores,
            moves=tuple(e.move for e in state.history()),
            outcome=None,
        )

    @property
    def history(self) -> tuple[Deal, ...]:
        """Every deal: the finished ones and, while the match goes on, the current one."""
        if self.is_over:
            return self.deals
        return (*self.deals, self.current_deal())

    def legal_moves(self) -> tuple[Move, ...]:
        """The current deal's legal moves (empty once the match is over)."""
        return () if self.is_over else self.state.legal_moves()

    # -- playing -------------------------------------------------------------------------

    def apply(self, move: Move | str) -> Match:
        """The match after ``move``; when it ends the deal, the next deal is dealt.

        Raises:
            IllegalMoveError: the move is not legal (this match is unchanged).
        """
        if self.is_over:
            parsed = parse_move(move)
            raise IllegalMoveError(parsed, IllegalReason.GAME_OVER)
        after = self.state.apply(move)
        if not after.is_over:
            return attrs.evolve(self, state=after)
        return self._finish_deal(after)

    def play(self, *moves: Move | str | Iterable[Move | str]) -> Match:
        """Apply a sequence of moves (Moves, texts, or space-separated strings).

        Raises:
            ReplayError: at the first illegal move, with ``.ply`` its 0-based index.
        """
        match = self
        for ply, parsed in enumerate(flatten_moves(moves)):
            try:
                match = match.apply(parsed)
            except IllegalMoveError as exc:
                raise ReplayError(parsed, exc.reason, ply) from None
        return match

    def _finish_deal(self, final: GameState) -> Match:
        outcome = final.outcome()
        assert outcome is not None
        number = len(self.deals) + 1
        deal = Deal(
            number=number,
            seed=deal_seed(self.seed, number),
            dealer=final.dealer,
            scores=final.scores,
            moves=tuple(e.move for e in final.history()),
            outcome=outcome,
        )
        scores = tuple(a + b for a, b in zip(self.scores, outcome.scores, strict=True))
        deals = (*self.deals, deal)
        winner = decide_winner(self.variant, scores)
        if outcome.special_hand in GAME_WINNING and outcome.went_out is not None:
            winner = self.variant.side_of(outcome.went_out)  # SH6: a dream hand wins
        if winner is not None:
            return attrs.evolve(
                self, state=final, deals=deals, scores=scores, winner=winner, is_over=True
            )
        variant = self.variant
        dealer = (final.dealer + 1) % variant.players
        state = new_game(
            variant, seed=deal_seed(self.seed, number + 1), scores=scores, dealer=dealer
        )
        if variant.asks_counted_per_game:
            state = state._evolve(asked=final.asked)
        return attrs.evolve(self, state=state, deals=deals, scores=scores)


def decide_winner(variant: Variant, scores: Sequence[int]) -> int | tuple[int, ...] | None:
    """Who has won with these cumulative scores after a deal.

    Returns:
        None while no side has reached ``variant.target_score``, or while the leaders at
        or above it are tied under ``tie_policy="play_on"`` (deal again); the leading
        side; or, under ``tie_policy="shared_win"``, a tuple of the tied leaders.
    """
    # Spec §2.14 and D18.
    best = max(scores)
    if best < variant.target_score:
        return None
    leaders = tuple(side for side, score in enumerate(scores) if score == best)
    if len(leaders) == 1:
        return leaders[0]
    if variant.tied_sides_share_the_win:
        return leaders
    return None  # play_on: deal again until one side alone leads
