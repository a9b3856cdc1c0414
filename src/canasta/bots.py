"""Computer players: `RandomBot`, `GreedyBot`, and loops that let bots play.

A bot sees only an `Observation` (what its seat may know) and
answers with one move from ``observation.legal_moves``::

    move = bot.choose(state.observe(seat))

`play_deal` and `play_match` run a deal or a whole match with one bot per seat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from canasta.cards import ACE, RANKS, SEVEN, THREE, Card
from canasta.errors import CanastaError
from canasta.match import Match
from canasta.moves import Answer, Discard, Draw, End, LayOff, MeldCards, Move, Take, parse_move
from canasta.observation import Observation, observe, sample_state
from canasta.state import GameState
from canasta.table import WILD_RANK, Meld

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "NoLegalMoveError",
    "RandomBot",
    "make_bot",
    "play_deal",
    "play_match",
]


class NoLegalMoveError(CanastaError):
    """A bot was asked to move with no legal move to choose from.

    Either the seat is not to act, or the engine reached a position without legal moves
    (which the rules never allow: please report the position).
    """


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(observation) -> Move``."""

    def choose(self, observation: Observation) -> Move:
        """One move from ``observation.legal_moves``."""
        ...


def _legal(observation: Observation) -> tuple[Move, ...]:
    moves = observation.legal_moves
    if not moves:
        if observation.to_move != observation.seat:
            raise NoLegalMoveError(
                f"seat {observation.seat} is not to act (to move: {observation.to_move})"
            )
        raise NoLegalMoveError(
            f"seat {observation.seat} has no legal move in phase {observation.phase!r}"
        )
    return moves


class RandomBot:
    """Plays a legal move chosen uniformly at random.

    Args:
        seed: seeds the bot's own random generator (None: unpredictable).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Move:
        """A uniformly random legal move."""
        return self.rng.choice(_legal(observation))

    def __repr__(self) -> str:
        return "RandomBot()"


# -- the greedy bot ------------------------------------------------------------------------

_WILD_TEXT = ("2", "*")
_PURE_RANKS = (ACE, SEVEN)


def _is_wild(card: Card) -> bool:
    return card.rank in _WILD_TEXT


def _split(cards: tuple[Card, ...]) -> tuple[int, int]:
    """(naturals, wilds) among a move's cards."""
    wilds = sum(1 for c in cards if _is_wild(c))
    return len(cards) - wilds, wilds


def _rank_index(rank: str) -> int:
    return WILD_RANK if rank == "*" else RANKS.index(rank)


def _meld_of(melds: tuple[Meld, ...], rank: int) -> Meld | None:
    """The side's meld of ``rank`` that a move would grow (the smallest below 7 first)."""
    growing = [m for m in melds if m.rank == rank]
    if not growing:
        return None
    return min(growing, key=lambda m: (m.size >= 7, m.size))


#: Score rows that depend on the hidden hands or on how the deal ends.
_HAND_ROWS = frozenset({"cards in hand", "aces and sevens held", "going out", "concealed"})


def _table_scores(state: GameState) -> list[int]:
    """Each side's deal score from what lies on the table, by the variant's own scoring."""
    rows = state.variant.score_rows(state)
    return [sum(p for label, p in side if label not in _HAND_ROWS) for side in rows]


def _table_value(melds: tuple[Meld, ...]) -> int:
    """A rough public value of a side's melds: card points plus canasta bonuses."""
    value = 0
    for meld in melds:
        value += meld.value
        if meld.is_canasta:
            value += 500 if meld.is_natural else 300
    return value


class GreedyBot:
    """A heuristic player for every variant; it looks one move ahead at most.

    It takes the pile whenever it can do so without spending wild cards (or the pile is
    large), opens as soon as the rules let it, melds and lays off naturals, spends wild
    cards mainly to complete canastas, goes out when its side is not behind, answers
    partner's question by its own hand, and discards what helps the next player least
    (black threes, cards of ranks nobody can use, singletons) and never a wild card when
    it has another choice.

    Args:
        seed: breaks ties between equally good moves (None: always the first).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed) if seed is not None else None

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, observation: Observation) -> Move:
        """The move the heuristics like best."""
        moves = _legal(observation)
        if len(moves) == 1:
            return moves[0]
        if observation.phase == "answer":
            return self._answer(observation, moves)
        if observation.phase == "draw":
            return self._draw(observation, moves)
        return self._play(observation, moves)

    def _best(self, scored: list[tuple[float, Move]]) -> Move:
        top = max(score for score, _ in scored)
        best = [move for score, move in scored if score == top]
        return best[0] if self.rng is None else self.rng.choice(best)

    # -- phases ----------------------------------------------------------------------------

    def _answer(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        # The engine hands the question to the next seat of the asker's side.
        asker = (obs.seat - obs.variant.sides) % obs.players
        hand_value = sum(c.value for c in obs.hand)
        yes = (
            hand_value <= 100
            or obs.hand_sizes[asker] <= 1
            or obs.stock_size < 10
            or self._ahead(obs) >= 0
        )
        wanted = Answer(yes)
        return wanted if wanted in moves else moves[0]

    def _draw(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        takes = [m for m in moves if isinstance(m, Take)]
        top = obs.pile_top
        if (
            takes
            and top is not None
            and obs.variant.family == "modern"
            and _rank_index(top.rank) in _PURE_RANKS
            and obs.pile_size < 25
            and any(isinstance(m, Draw) for m in moves)
        ):
            # A pure meld of aces or sevens left unfinished costs 2500 (spec §3.5.9).
            takes = []
        if takes:
            # Fewest wild cards first, then fewest cards from hand.
            best = min(takes, key=lambda m: (_split(m.cards)[1], len(m.cards)))
            wilds = _split(best.cards)[1]
            can_draw = any(isinstance(m, Draw) for m in moves)
            left = len(obs.hand) - len(best.cards) + obs.pile_size - 1
            forced_out = left <= 1 and not self._should_go_out(obs)
            value = self._pile_value(obs) - 20.0 * wilds - (1_000.0 if forced_out else 0.0)
            if not can_draw or value > 5.0 * obs.variant.draw_count:
                return best
        for move in moves:
            if isinstance(move, Draw):
                return move
        return next((m for m in moves if isinstance(m, End)), moves[0])

    def _pile_value(self, obs: Observation) -> float:
        """How much the cards under the top of the pile would help this hand."""
        counts = Counter(c.rank for c in obs.hand)
        meld_ranks = {m.rank for m in obs.melds[obs.side]}
        value = 10.0  # the top card goes to a meld
        for card in obs.pile_seen[:-1]:
            if _is_wild(card):
                value += 25.0
            elif card.rank == "3":
                value -= 15.0  # a black three is dead weight
            elif _rank_index(card.rank) in meld_ranks or counts.get(card.rank, 0) >= 1:
                value += 10.0
            else:
                value += 3.0
        value += 4.0 * (obs.pile_size - max(len(obs.pile_seen), 1))
        return value

    def _play(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        can_stop = any(isinstance(m, Discard | End) for m in moves)
        side = obs.side
        if (
            obs.variant.family == "modern"
            and not obs.opened[side]
            and not obs.turn.melded
            and not obs.turn.took_pile
            and can_stop
        ):
            planned = self._plan_opening(obs, moves)
            if planned is not None:
                return planned
        move = self._meld_choice(obs, moves)
        if move is not None:
            return move
        return self._stop(obs, moves)

    def _meld_choice(self, obs: Observation, moves: tuple[Move, ...]) -> Move | None:
        """The best meld or lay-off, or None when the bot would rather stop melding."""
        side = obs.side
        melds = obs.melds[side]
        opened = obs.opened[side]
        hand_size = len(obs.hand)
        counts = Counter(c.rank for c in obs.hand)
        going_out_ok = self._should_go_out(obs)
        can_stop = any(isinstance(m, Discard | End) for m in moves)
        canastas = sum(1 for m in melds if m.is_canasta)
        # Enough canastas to go out: empty the hand (wild cards too) and go out soon.
        racing = (
            going_out_ok
            and opened
            and canastas >= obs.variant.canastas_to_go_out
            and (hand_size <= 5 or obs.stock_size < 20 or self._threatened(obs))
        )
        scored: list[tuple[float, Move]] = []
        for move in moves:
            if isinstance(move, MeldCards | LayOff):
                score = self._meld_score(obs, move, melds, opened, hand_size, counts)
                if racing and score > -100.0:  # strongly penalised melds stay out
                    score = max(score, 0.0) + 100.0 + 10.0 * len(move.cards)
                used = len(move.cards)
                if hand_size - used == 0:
                    score = 10_000 if going_out_ok else -10_000
                elif hand_size - used == 1 and not going_out_ok and can_stop:
                    score -= 1_000  # keep cards: going out now would not pay
                if score > 0 or not can_stop:
                    scored.append((score, move))
        if scored:
            return self._best(scored)
        return None

    def _stop(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        """End the turn: discard (the last card goes out), or end the deal."""
        discards = [m for m in moves if isinstance(m, Discard)]
        if discards:
            if len(obs.hand) == 1:
                return discards[0]  # the last card: going out
            counts = Counter(c.rank for c in obs.hand)
            return self._best([(self._discard_score(obs, m, counts), m) for m in discards])
        return next((m for m in moves if isinstance(m, End)), moves[0])

    def _plan_opening(self, obs: Observation, moves: tuple[Move, ...]) -> Move | None:
        """Modern American: try each first meld of an opening to the end of the opening.

        The bot's own turn does not depend on the cards it cannot see, so it plays the turn
        out on a sampled state. Openings that leave a pure meld of aces or sevens (2500 if
        unfinished) are avoided; when every opening does, the bot waits while the stock is
        large. Returns None to fall back to the plain greedy choice.
        """
        candidates = [m for m in moves if isinstance(m, MeldCards | LayOff)]
        if not candidates:
            return None
        seat, side = obs.seat, obs.side
        sample = sample_state(obs, random.Random(len(obs.history)))
        best: tuple[float, Move] | None = None
        for first in candidates:
            state = sample.apply(first)
            for _ in range(12):
                if state.is_over or state.to_move != seat or state.opened[side]:
                    break
                step_obs = observe(state, seat, history=())
                step = self._meld_choice(step_obs, step_obs.legal_moves)
                if step is None:
                    break
                state = state.apply(step)
            if not state.opened[side]:
                continue
            melds = state.melds[side]
            pure = sum(
                1
                for m in melds
                if m.size < 7 and (m.rank == WILD_RANK or (m.rank in _PURE_RANKS and m.is_natural))
            )
            score = _table_value(melds) - 2_500.0 * pure + 5.0 * len(state.hands[seat])
            if best is None or score > best[0]:
                best = (score, first)
        if best is None:
            return None
        if best[0] < 0 and obs.stock_size > 40:
            return self._stop(obs, moves)  # wait for a better opening
        return best[1]

    # -- evaluation ------------------------------------------------------------------------

    def _ahead(self, obs: Observation) -> int:
        """This side's score from the table alone, going out included, minus the best
        other side's (the variant's own scoring on a sampled state, hand rows left out)."""
        values = _table_scores(sample_state(obs, random.Random(0)))
        mine = values[obs.side] + obs.variant.going_out_bonus
        return mine - max((v for s, v in enumerate(values) if s != obs.side), default=0)

    def _threatened(self, obs: Observation) -> bool:
        """Another side has the canastas to go out and a seat with few cards."""
        variant = obs.variant
        for seat in range(obs.players):
            side = variant.side_of(seat)
            if side == obs.side or obs.hand_sizes[seat] > 4:
                continue
            if sum(1 for m in obs.melds[side] if m.is_canasta) >= variant.canastas_to_go_out:
                return True
        return False

    def _should_go_out(self, obs: Observation) -> bool:
        """Go out unless behind early in the deal while nobody else is close to going out."""
        if obs.variant.family == "modern" and obs.stock_size >= 8:
            # Unfinished pure aces or sevens cost 2500: play on while they may be finished.
            unfinished = any(
                m.rank in _PURE_RANKS and m.is_natural and m.size < 7 for m in obs.melds[obs.side]
            )
            if unfinished:
                return False
        return self._ahead(obs) >= 0 or obs.stock_size < 15 or self._threatened(obs)

    def _meld_score(
        self,
        obs: Observation,
        move: MeldCards | LayOff,
        melds: tuple[Meld, ...],
        opened: bool,
        hand_size: int,
        counts: Counter[str],
    ) -> float:
        naturals, wilds = _split(move.cards)
        if isinstance(move, LayOff):
            rank = _rank_index(move.target)
        else:
            rank = WILD_RANK if naturals == 0 else _rank_index(move.cards[0].rank)
        if rank == THREE:  # black threes: only melded when going out
            return 5_000.0
        target = _meld_of(melds, rank)
        before = target.size if target is not None else 0
        if isinstance(move, MeldCards) and not obs.variant.merges_same_rank:
            before = 0 if target is None or target.size >= 7 else before
        after = before + naturals + wilds
        completes = before < 7 <= after
        value = sum(c.value for c in move.cards)
        modern = obs.variant.family == "modern"
        if rank == WILD_RANK:
            # Wild-card melds (Modern American): only when they complete a canasta.
            if completes:
                return 3_000.0
            if target is not None:
                return 50.0 + 10 * after  # an open wild meld must be finished
            return -200.0 if opened else value / 10 - 300
        score = 10.0 * naturals + 2.0 * after
        if completes:
            score += 500.0
        if modern and rank in _PURE_RANKS:
            # Unfinished pure aces or sevens cost 2500 there (spec §3.5.9).
            if target is not None and target.size < 7 and target.is_natural and not wilds:
                score += 100.0
            elif naturals < 6 and not completes and not wilds:
                score -= 400.0 if opened else 150.0
        keep = 8 if modern else 5
        if (
            opened
            and isinstance(move, MeldCards)
            and not completes
            and hand_size - len(move.cards) < keep
            and naturals < 4
        ):
            score -= 60.0  # keep pairs in hand to take the pile
        if after >= 4 and not completes:
            score += 15.0 * (naturals + wilds if modern else naturals)  # toward a canasta
        if wilds:
            # Modern American: wild cards cannot be discarded, so spend them on big melds.
            score -= (5.0 if modern or completes else 40.0) * wilds
        if not opened:
            # Reach the minimum, with natural cards rather than wild ones where possible.
            wild_value = sum(c.value for c in move.cards if _is_wild(c))
            score += value if modern else value - 0.7 * wild_value
        return score

    def _visible(self, obs: Observation, rank: str) -> int:
        """Copies of a natural rank this seat can see: own hand, melds, the seen pile."""
        count = sum(1 for c in obs.hand if c.rank == rank)
        count += sum(1 for c in obs.pile_seen if c.rank == rank)
        index = _rank_index(rank)
        count += sum(m.naturals for side in obs.melds for m in side if m.rank == index)
        return count

    def _discard_score(self, obs: Observation, move: Discard, counts: Counter[str]) -> float:
        card = move.card
        rank = card.rank
        variant = obs.variant
        score = 0.0
        if _is_wild(card):
            return -1_000.0
        if rank == "3":
            return 500.0  # a black three blocks the next player
        held = counts.get(rank, 0)
        score += {1: 40.0, 2: -10.0}.get(held, -60.0)
        score += card.value / 2
        rank_index = _rank_index(rank)
        nxt = (obs.seat + 1) % obs.players
        next_side = variant.side_of(nxt)
        if next_side != obs.side:
            frozen = obs.frozen or variant.pile_always_frozen or not obs.opened[next_side]
            if not frozen and any(m.rank == rank_index for m in obs.melds[next_side]):
                score -= 150.0 + 10 * obs.pile_size
            known = Counter(c.rank for c in obs.known[nxt])
            if known.get(rank, 0) >= 2:
                score -= 200.0 + 10 * obs.pile_size
            # The next player just passed this rank by: it is less likely to help them.
            recent = [e for e in obs.history[-8:] if e.seat == nxt and e.move.kind == "discard"]
            if any(c.rank == rank for e in recent for c in e.cards):
                score += 30.0
            # Copies of the rank nobody has shown: the fewer, the less likely a pair.
            unseen = 4 * variant.decks - self._visible(obs, rank) - known.get(rank, 0)
            if unseen <= 1:
                score += 60.0
            else:
                score -= unseen * (2.0 + 0.5 * obs.pile_size)
        closed = any(
            m.rank == rank_index and m.is_canasta and m.is_natural
            for side in obs.melds
            for m in side
        )
        if closed and variant.closes_ranks:
            score += 80.0
        if rank in ("A", "7") and variant.family == "modern":
            # This bot builds no pure aces or sevens there (2500 if unfinished, 1500 for
            # three held at the end), unless its side already has such a meld going.
            growing = any(
                m.rank == rank_index and m.is_natural and m.size < 7 for m in obs.melds[obs.side]
            )
            if not growing and held >= 3:
                score += 250.0
        return score


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"`` or ``"greedy"``).

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}") from None
    return factory(seed)


def _seat_bots(bots: Sequence[Bot], players: int) -> Sequence[Bot]:
    if len(bots) != players:
        raise ValueError(f"need one bot per seat ({players}), got {len(bots)}")
    return bots


def play_deal(state: GameState, bots: Sequence[Bot]) -> GameState:
    """Let the bots (one per seat) play ``state`` to the end of the deal.

    Raises:
        NoLegalMoveError: a seat to act had no legal move.
    """
    bots = _seat_bots(bots, state.variant.players)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(parse_move(bots[seat].choose(observe(state, seat))))
    return state


def play_match(match: Match, bots: Sequence[Bot], max_deals: int | None = None) -> Match:
    """Let the bots (one per seat) play ``match`` to its end, or for ``max_deals`` deals.

    Raises:
        NoLegalMoveError: a seat to act had no legal move.
    """
    bots = _seat_bots(bots, match.variant.players)
    while not match.is_over:
        if max_deals is not None and len(match.deals) >= max_deals:
            break
        state = match.state
        seat = state.to_move
        assert seat is not None
        match = match.apply(parse_move(bots[seat].choose(observe(state, seat))))
    return match
