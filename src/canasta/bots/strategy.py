"""What GreedyBot values under each kind of rules: `Strategy` (the classic game) and
`_ModernAmericanStrategy`, picked once per variant by `strategy_for`.

The bot's moves come from one set of heuristics (`canasta.bots.greedy`); a strategy
answers the questions on which the rules change their worth: what feeding the pile
costs, how many cards to keep in hand, what a meld toward an opening is worth, which
discards and pile takes cost points at the end of the deal. The bot never asks a
variant's name: `strategy_for` reads a rule fact the variant exposes (see there).
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from canasta.cards import ACE, RANKS, SEVEN, Card
from canasta.observation import Observation
from canasta.table import WILD_RANK, Meld
from canasta.variants.base import Variant

__all__: list[str] = []

#: Cards in a canasta (spec §2.5), and the largest Modern American meld (§3.5.3).
CANASTA = 7
#: Modern American: the ranks whose pure melds score 2500, or cost 2500 if unfinished,
#: and cost 1500 when held three times or more at the end of the deal (spec §3.5.9).
_PURE_RANKS = (ACE, SEVEN)
_WILD_TEXT = ("2", "*")


def is_wild(card: Card) -> bool:
    return card.rank in _WILD_TEXT


def rank_index(rank: str) -> int:
    """The meld rank of a rank letter (``*``: a meld of wild cards)."""
    return WILD_RANK if rank == "*" else RANKS.index(rank)


def _unfinished_pure(melds: tuple[Meld, ...], rank: int) -> bool:
    """Modern American: the side has a pure meld of aces or sevens (``rank``) to finish."""
    return any(m.rank == rank and m.is_natural and m.size < CANASTA for m in melds)


class Strategy:
    """The classic strategy: the pile may be unfrozen, so it is taken and fed often, and
    no meld or card held costs more than its points at the end of the deal."""

    #: What the pile costs per card when a discard lets the next player (an opponent)
    #: take it.
    feed_per_card: ClassVar[float] = 3.0
    #: Hand sizes below which a new meld that completes no canasta loses points: keep
    #: pairs in hand to take the pile with.
    keep_pairs: ClassVar[int] = 5
    #: Hand sizes below which melding is penalised while not racing to go out (a hand of
    #: one or two cards can neither take the pile nor build canastas).
    keep_cards: ClassVar[int] = 10
    #: Plan the opening to its end on a sampled deal before its first meld, and wait
    #: (while the stock is large) when every opening costs points.
    plans_opening: ClassVar[bool] = False
    #: Racing to go out, take every pile it may: the take melds the top card with two
    #: cards from hand (spec §2.7), so the hand shrinks when the pile is small.
    takes_to_race: ClassVar[bool] = True

    def canasta_cards(self, naturals: int, wilds: int) -> int:
        """The cards of a meld that count toward a canasta for the bot: naturals only
        (wild cards are worth more kept back for the canasta itself)."""
        return naturals

    def wild_cost(self, completes: bool) -> float:
        """What each wild card spent on a meld costs (cheap when it completes a canasta)."""
        return 5.0 if completes else 40.0

    def opening_worth(self, cards: tuple[Card, ...]) -> float:
        """What melding ``cards`` is worth toward the opening: their points, wild cards
        at a discount (natural cards reach the minimum without spending them)."""
        value = sum(c.value for c in cards)
        wild_value = sum(c.value for c in cards if is_wild(c))
        return value - 0.7 * wild_value

    def pure_meld_bonus(self, rank: int, wilds: int, target: Meld | None, completes: bool) -> float:
        """Points for or against a meld of natural cards of ``rank`` (growing ``target``)."""
        return 0.0

    def opening_penalty(self, melds: tuple[Meld, ...]) -> float:
        """What the melds of an opening would cost if left as they are."""
        return 0.0

    def shed_score(self, obs: Observation, rank: int, held: int) -> float | None:
        """The score of a discard of ``rank`` (held ``held`` times) that the strategy
        insists on, or None to judge it like any other."""
        return None

    def blocking_cost(self, obs: Observation, rank: int) -> float:
        """What discarding ``rank`` costs by helping an opponent finish a meld."""
        return 0.0

    def discard_worth(self, obs: Observation, card: Card) -> float:
        """What discarding ``card`` is worth for its points: half of them (the fewer
        points left in hand, the smaller the loss when another side goes out)."""
        return card.value / 2

    def held_cost(self, hand: tuple[Card, ...]) -> float:
        """What ``hand`` costs at the end of the deal beyond its points."""
        return 0.0

    def refuses_take(self, obs: Observation) -> bool:
        """Draw rather than take the pile whatever it holds."""
        return False

    def take_cost(self, obs: Observation) -> float:
        """What taking the pile costs at the end of the deal beyond its cards."""
        return 0.0


#: Modern American discards: an ace or seven that helps an opponent's pure meld of them.
_BLOCK_PURE = 400.0
#: Modern American discards: an ace or seven held three or more times (1500 at the end).
_HELD_DISCARD = 600.0
#: Modern American: what one player holding three or more aces, or sevens, costs at the
#: end of the deal (spec §3.5.9), and how many of a rank a hand may hold without it.
_HELD_PENALTY = 1_500.0
_HELD_FREE = 2
#: Modern American: what an unfinished pure meld of aces or sevens, or meld of wild
#: cards, costs at the end of the deal (spec §3.5.9).
_UNFINISHED_PENALTY = 2_500.0
#: Modern American: a pile this big is worth taking even at the risk of a pure meld left
#: unfinished or aces and sevens held at the end.
_BIG_PILE = 25


def _penalised(melds: tuple[Meld, ...]) -> int:
    """Modern American: unfinished melds that cost points (pure aces or sevens, wild)."""
    return sum(
        1
        for m in melds
        if m.size < CANASTA and (m.rank == WILD_RANK or (m.rank in _PURE_RANKS and m.is_natural))
    )


class _ModernAmericanStrategy(Strategy):
    """The Modern American strategy: the pile is always frozen, so it is
    taken only with a natural pair, and a taken pile weighs heavily (its cards are melded
    toward canastas, which turn the side's threes from minus to plus); wild cards may not
    be discarded; pure melds of aces or sevens score 2500 finished and cost 2500
    unfinished, and a player holding three aces, or sevens, at the end costs 1500.

    So it starts no pure meld of aces or sevens it cannot finish at once, plans its
    opening to leave no penalised meld, sheds aces and sevens held three times, and takes
    no pile that leaves it more of them than it can shed before the stock runs out.
    """

    # Spec §3.5.

    feed_per_card = 10.0
    keep_pairs = 8
    keep_cards = 8
    plans_opening = True
    takes_to_race = False

    def canasta_cards(self, naturals: int, wilds: int) -> int:
        return naturals + wilds

    def wild_cost(self, completes: bool) -> float:
        # Wild cards cannot be discarded there, so spend them on big melds.
        return 5.0

    def opening_worth(self, cards: tuple[Card, ...]) -> float:
        return float(sum(c.value for c in cards))

    def pure_meld_bonus(self, rank: int, wilds: int, target: Meld | None, completes: bool) -> float:
        # Grow a pure meld of aces or sevens, but start one only with the cards to finish it.
        if rank not in _PURE_RANKS or wilds:
            return 0.0
        if target is not None and target.size < CANASTA and target.is_natural:
            return 100.0
        return 0.0 if completes else -3_000.0

    def opening_penalty(self, melds: tuple[Meld, ...]) -> float:
        return _UNFINISHED_PENALTY * _penalised(melds)

    def shed_score(self, obs: Observation, rank: int, held: int) -> float | None:
        if rank in _PURE_RANKS and held >= 3 and not _unfinished_pure(obs.own_melds, rank):
            return _HELD_DISCARD  # three or more held at the end cost 1500 (§3.5.9)
        return None

    def blocking_cost(self, obs: Observation, rank: int) -> float:
        if rank not in _PURE_RANKS:
            return 0.0
        others = (melds for s, melds in enumerate(obs.melds) if s != obs.side)
        # An opponent finishes a pure meld of them only with this seat's help.
        return _BLOCK_PURE if any(_unfinished_pure(melds, rank) for melds in others) else 0.0

    def discard_worth(self, obs: Observation, card: Card) -> float:
        if not obs.opened[obs.side]:
            return -float(card.value)  # high cards make the opening (125 from hand)
        return card.value / 2

    def held_cost(self, hand: tuple[Card, ...]) -> float:
        counts = Counter(c.rank for c in hand)
        return sum(_HELD_PENALTY for r in _PURE_RANKS if counts[RANKS[r]] > _HELD_FREE)

    def refuses_take(self, obs: Observation) -> bool:
        # Taking onto aces or sevens starts a pure meld of them: 2500 if unfinished (§3.5.9).
        top = obs.pile_top
        return (
            top is not None
            and rank_index(top.rank) in _PURE_RANKS
            and obs.pile_size < _BIG_PILE
            and not self._pure_take_ok(obs, top)
        )

    def take_cost(self, obs: Observation) -> float:
        return self._held_after_take(obs) if obs.pile_size < _BIG_PILE else 0.0

    def _pure_take_ok(self, obs: Observation, top: Card) -> bool:
        """Taking the pile onto aces or sevens grows the side's pure meld of them, or the
        hand and the pile hold a canasta of them."""
        if _unfinished_pure(obs.own_melds, rank_index(top.rank)):
            return True
        mine = sum(1 for c in obs.hand + obs.pile_seen if c.rank == top.rank)
        return mine >= CANASTA

    def _held_after_take(self, obs: Observation) -> float:
        """What taking the pile adds to the penalties for aces and sevens left in this
        hand at the end of the deal, when the turns left are too few to
        discard them one a turn."""
        # Spec §3.5.9.
        # One discard on each later turn of this seat (the stock shrinks by one a turn);
        # drawing instead also allows one this turn (after a take the pile is empty, and
        # an ace or seven may not go on an empty pile, §3.5.6).
        turns = obs.stock_size // (obs.players * obs.variant.draw_count)
        taken = self._held_penalty(obs, obs.hand + obs.pile_seen[:-1], turns)
        return taken - self._held_penalty(obs, obs.hand, turns + 1)

    def _held_penalty(self, obs: Observation, cards: tuple[Card, ...], turns: int) -> float:
        """The penalties for aces and sevens among ``cards`` that this seat could not
        discard in ``turns`` turns. Left out: ranks the side can lay off on an unfinished
        pure meld or that make a canasta, and the top card's rank (taking the pile with it
        starts a pure meld, which `refuses_take` weighs on its own)."""
        top = obs.pile_top
        excess = []
        for rank in _PURE_RANKS:
            text = RANKS[rank]
            held = sum(1 for c in cards if c.rank == text)
            if (
                held < CANASTA
                and not _unfinished_pure(obs.own_melds, rank)
                and (top is None or top.rank != text)
            ):
                excess.append(max(0, held - _HELD_FREE))
        penalty = 0.0
        for extra in sorted(excess):
            if extra > turns:
                penalty += _HELD_PENALTY
            else:
                turns -= extra
        return penalty


CLASSIC = Strategy()
_MODERN_AMERICAN = _ModernAmericanStrategy()


def strategy_for(variant: Variant) -> Strategy:
    """The strategy for ``variant``'s rules.

    Modern American rules are recognised by a pile that is always frozen
    (`Variant.pile_always_frozen`): it is the rule their strategy rests on (a pile taken
    only with a natural pair, and worth far more once taken), and it comes with the rest
    of them in every variant built on `ModernAmericanVariant`, a third party's included.
    Every other variant gets the classic strategy.
    """
    return _MODERN_AMERICAN if variant.pile_always_frozen else CLASSIC
