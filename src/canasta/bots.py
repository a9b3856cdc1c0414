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
from typing import Protocol, TypeVar, runtime_checkable

from canasta.cards import ACE, RANKS, SEVEN, THREE, Card, card_value
from canasta.errors import CanastaError
from canasta.match import Match
from canasta.moves import (
    Answer,
    Ask,
    Discard,
    Draw,
    End,
    LayOff,
    MeldCards,
    Move,
    Take,
    parse_move,
)
from canasta.observation import Observation, observe
from canasta.sampling import sample_state
from canasta.scoring import ScoreLine
from canasta.state import GameState
from canasta.table import WILD_RANK, Meld, evolve

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
#: Cards in a canasta (spec §2.5), and the largest Modern American meld (§3.5.3).
_CANASTA = 7
#: Bound on the moves of one turn when the bot plays a turn out on a sampled deal.
_TURN_MOVES = 40
#: Sampled deals behind each estimate of what going out would score; while the deal is
#: calm, the bot goes out only if every one of them wins (the mean is not enough: a hidden
#: 1500 or 2500 penalty shows up in a few samples only).
_OUT_SAMPLES = 16
#: Stock sizes from which the deal may end soon anyway; the mean margin then decides.
_CALM_STOCK = 10
#: Hand sizes at which drawing is weighed against taking by the chance to go out at once.
_ENDGAME_HAND = 5
_ENDGAME_SAMPLES = 6
#: Discards: sampled deals to judge whether the next player may take the pile, and what
#: that costs per card in the pile.
_FEED_SAMPLES = 8
_FEED_PER_CARD = 3.0
#: Modern American: what a pile costs per card there (melded cards count for the side
#: that took it, and its canastas turn the threes from minus to plus, §3.5.9).
_MAC_FEED_PER_CARD = 10.0
#: Taking the pile with a wild card (classic, unfrozen pile, §2.7 T3b): the wild card's
#: worth to a later canasta, set against the pile's cards.
_TAKE_WILD_COST = 10.0
#: Hand sizes below which melding is penalised while not racing to go out (the hand must
#: keep pairs to take the pile); Modern American needs more (its pile is always frozen).
_CLASSIC_KEEP = 10
_MAC_KEEP = 8
#: Modern American openings: what each card left in hand is worth (cards to take the pile
#: and build canastas with), and the stock below which the bot opens as it can.
_OPEN_HAND_WEIGHT = 60.0
_OPEN_WAIT_STOCK = 12
#: Modern American discards: an ace or seven that helps an opponent's pure meld of them.
_BLOCK_PURE = 400.0
#: Modern American discards: an ace or seven held three or more times (1500 at the end).
_HELD_DISCARD = 600.0
#: Modern American: what one player holding three or more aces, or sevens, costs at the
#: end of the deal (spec §3.5.9), and how many of a rank a hand may hold without it.
_HELD_PENALTY = 1_500.0
_HELD_FREE = 2
#: Modern American: a pile this big is worth taking even at the risk of a pure meld left
#: unfinished or aces and sevens held at the end.
_BIG_PILE = 25


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
    return min(growing, key=lambda m: (m.size >= _CANASTA, m.size))


def _canastas(melds: tuple[Meld, ...]) -> int:
    return sum(1 for m in melds if m.is_canasta)


def _unfinished_pure(melds: tuple[Meld, ...], rank: int) -> bool:
    """Modern American: the side has a pure meld of aces or sevens (``rank``) to finish."""
    return any(m.rank == rank and m.is_natural and m.size < _CANASTA for m in melds)


def _penalised(melds: tuple[Meld, ...]) -> int:
    """Modern American: unfinished melds that cost points (pure aces or sevens, wild)."""
    return sum(
        1
        for m in melds
        if m.size < _CANASTA and (m.rank == WILD_RANK or (m.rank in _PURE_RANKS and m.is_natural))
    )


def _table_value(melds: tuple[Meld, ...]) -> int:
    """A rough public value of a side's melds: card points plus canasta bonuses."""
    value = 0
    for meld in melds:
        value += meld.value
        if meld.is_canasta:
            value += 500 if meld.is_natural else 300
    return value


def _margin(rows: tuple[tuple[ScoreLine, ...], ...], side: int) -> float:
    """``side``'s deal score minus the best other side's, from the score rows."""
    scores = [sum(line.points for line in lines) for lines in rows]
    return float(scores[side] - max(v for s, v in enumerate(scores) if s != side))


def _obs_key(obs: Observation) -> tuple[object, ...]:
    """What an estimate made from ``obs`` depends on: the observation, memory included."""
    return (obs,)


_V = TypeVar("_V")
#: Entries a bot keeps per cache; the estimates of one decision fit many times over.
_MEMO_SIZE = 64


def _memo(
    store: dict[tuple[object, ...], _V], key: tuple[object, ...], make: Callable[[], _V]
) -> _V:
    """``store[key]``, made by ``make`` on a miss; the store is emptied when it is full."""
    value = store.get(key)
    if value is None:
        if len(store) > _MEMO_SIZE:
            store.clear()
        value = store[key] = make()
    return value


def _progress(obs: Observation) -> int:
    """How far the deal has come, from what a saved position keeps too (not the history,
    which starts afresh when a position is read)."""
    return obs.stock_size * 1009 + obs.pile_size * 31 + sum(len(d) for d in obs.discarded)


class _Worlds:
    """Full states that agree with an observation, the hidden cards dealt at random,
    dealt on demand and kept: every estimate made from the same observation shares them.

    The dealing is seeded by the deal's progress, so the bot stays deterministic. It stops
    for good if `sample_state` cannot complete the observation (it raises ValueError for
    an upcard red three hidden under a wild card once the stock is empty), so callers
    must cope with fewer states, or none.
    """

    def __init__(self, obs: Observation, salt: int) -> None:
        self.obs = obs
        self.rng = random.Random(_progress(obs) * 31 + salt)
        self.states: list[GameState] = []
        self.complete = True

    def first(self, count: int) -> list[GameState]:
        """Up to ``count`` states, the same ones on every call."""
        while self.complete and len(self.states) < count:
            try:
                self.states.append(sample_state(self.obs, self.rng))
            except ValueError:
                self.complete = False
        return self.states[:count]


class GreedyBot:
    """A heuristic player for every variant; it looks one turn ahead at most.

    It takes the pile when the cards in it are worth more than a card from the stock,
    opens as soon as the rules let it (in Modern American, with the opening that leaves no
    penalised meld), melds and lays off naturals, spends wild cards mainly to complete
    canastas, and discards what the next player can least use (judged on sampled deals)
    and never a wild card when it has another choice. It goes out only when its side wins
    the deal then on sampled deals (the variant's own scoring, the hidden hands dealt at
    random), and then races to empty its hand (in classic taking every pile it may, which
    shrinks a small hand); asked by partner, it says no only when that loses and its own
    hand holds more points than a random one. In Modern American it starts no pure meld
    of aces or sevens it cannot finish at once, sheds aces and sevens held three times and
    takes no pile that leaves it more of them than it can shed before the stock runs out.

    Without look-ahead (``lookahead=False``, the bot named ``quick``) it skips every
    sampled estimate: it goes out whenever it can and judges discards by the table alone.
    That is several times faster, for mass simulation, and weaker.

    Args:
        seed: breaks ties between equally good moves (None: always the first).
        lookahead: judge going out, discards and the last draws on sampled deals.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, lookahead: bool = True) -> None:
        self.rng = random.Random(seed) if seed is not None else None
        self.lookahead = lookahead
        if not lookahead:
            self.name = "quick"
        # Set while the bot plays its own turn out on a sampled deal, and always without
        # look-ahead: it then goes out whenever it can and skips the sampled estimates.
        self._simulating = not lookahead
        # Sampled margins and sampled deals, kept for the rest of the decision (keyed by
        # `_obs_key`).
        self._margins: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._sampled: dict[tuple[object, ...], _Worlds] = {}

    def __repr__(self) -> str:
        return "GreedyBot()" if self.lookahead else "GreedyBot(lookahead=False)"

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

    def _best(self, scored: Sequence[tuple[float, Move]]) -> Move:
        top = max(score for score, _ in scored)
        best = [move for score, move in scored if score == top]
        return best[0] if self.rng is None else self.rng.choice(best)

    def _worlds(self, obs: Observation, count: int, salt: int = 0) -> list[GameState]:
        """Up to ``count`` full states that agree with ``obs`` (see `_Worlds`); ``salt``
        picks another series of them."""
        worlds = _memo(self._sampled, (*_obs_key(obs), salt), lambda: _Worlds(obs, salt))
        return worlds.first(count)

    # -- going out -------------------------------------------------------------------------

    def _cached(
        self, kind: str, obs: Observation, seat: int, compute: Callable[[], tuple[float, ...]]
    ) -> tuple[float, ...]:
        """Sampled margins of one ``kind`` for ``seat``, computed once per decision."""
        return _memo(self._margins, (*_obs_key(obs), kind, seat), compute)

    def _margins_if_out(self, obs: Observation, out_seat: int) -> tuple[float, ...]:
        """The deal margins of this side, one per sampled deal, if ``out_seat`` (this seat
        or a partner) went out now: its hand emptied, the other hands as they are."""

        def compute() -> tuple[float, ...]:
            margins = []
            for world in self._worlds(obs, _OUT_SAMPLES):
                hands = tuple(() if s == out_seat else h for s, h in enumerate(world.hands))
                final = evolve(world._table, hands=hands, went_out=out_seat)
                margins.append(_margin(final.variant.score_rows(final), obs.side))
            return tuple(margins)

        return self._cached("now", obs, out_seat, compute)

    def _turn_out_margins(self, obs: Observation) -> tuple[float, ...]:
        """The deal margins of this side, one per sampled deal, if this seat plays its turn
        out to go out (asking partner first when it may, the answer taken as yes); empty
        when it does not get out.

        The bot's own moves do not depend on the cards it cannot see: it plays the turn
        out on one sampled deal, then replays the same moves on the others to score them.
        """

        def compute() -> tuple[float, ...]:
            worlds = self._worlds(obs, _OUT_SAMPLES)
            if not worlds:
                return ()
            moves: list[Move] = [Ask(), Answer(True)] if Ask() in obs.legal_moves else []
            state = worlds[0]
            for move in moves:
                state = state.apply(move)
            state = self._play_turn_out(state, obs.seat, moves)
            if state.went_out != obs.seat:
                return ()
            margins = []
            for world in worlds:
                for move in moves:
                    world = world.apply(move)
                margins.append(_margin(world.variant.score_rows(world._table), obs.side))
            return tuple(margins)

        return self._cached("turn", obs, obs.seat, compute)

    def _play_turn_out(self, state: GameState, seat: int, played: list[Move]) -> GameState:
        """Play ``seat``'s turn to its end on a full (sampled) state, going out whenever
        it can; the moves are appended to ``played``."""
        simulating, self._simulating = self._simulating, True
        try:
            for _ in range(_TURN_MOVES):
                if state.is_over or state.to_move != seat:
                    break
                step = state.observe(seat)
                move = self._play(step, step.legal_moves)
                played.append(move)
                state = state.apply(move)
        finally:
            self._simulating = simulating
        return state

    def _urgent(self, obs: Observation) -> bool:
        """The deal may end soon: little stock left, or another side may go out."""
        return self._threatened(obs) or obs.stock_size <= _CALM_STOCK

    def _wins(self, obs: Observation, margins: tuple[float, ...]) -> bool:
        """Sampled margins say going out wins: every sample while the deal is calm (the
        bot loses nothing by playing on), the mean once it may end soon."""
        if not margins:
            return False
        if self._urgent(obs):
            return sum(margins) > 0
        return min(margins) > 0

    def _go_out_now(self, obs: Observation) -> bool:
        """Go out this turn: this seat can, and its side then wins the deal."""
        if self._simulating or obs.turn.must_go_out:
            return True
        side = obs.side
        if obs.turn.permission is False or not obs.opened[side]:
            return False
        if _canastas(obs.melds[side]) < obs.variant.canastas_to_go_out - 1:
            return False
        return self._wins(obs, self._turn_out_margins(obs))

    def _racing(self, obs: Observation) -> bool:
        """The side has the canastas to go out and would win if this seat did: empty the
        hand (wild cards too) to go out soon."""
        side = obs.side
        if obs.turn.must_go_out:
            return True
        if obs.turn.permission is False or not obs.opened[side]:
            return False
        return _canastas(obs.melds[side]) >= obs.variant.canastas_to_go_out and self._wins(
            obs, self._margins_if_out(obs, obs.seat)
        )

    def _threatened(self, obs: Observation) -> bool:
        """Another side has the canastas to go out and a seat with few cards."""
        variant = obs.variant
        for seat in range(obs.players):
            side = variant.side_of(seat)
            if side == obs.side or obs.hand_sizes[seat] > 4:
                continue
            if _canastas(obs.melds[side]) >= variant.canastas_to_go_out:
                return True
        return False

    # -- phases ----------------------------------------------------------------------------

    def _answer(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        # The engine hands the question to the next seat of the asker's side.
        asker = (obs.seat - obs.variant.sides) % obs.players
        # This seat's estimate leaves out the canastas the asker may complete on the way
        # out; the asker's leaves out this hand (dealt at random there). So the answer is
        # no only when going out loses here and this hand holds more than a random one.
        yes = (
            obs.hand_sizes[asker] <= 1
            or self._wins(obs, self._margins_if_out(obs, asker))
            or self._hand_cost(obs) <= self._random_hand_value(obs)
        )
        wanted = Answer(yes)
        return wanted if wanted in moves else moves[0]

    def _hand_cost(self, obs: Observation) -> float:
        """What this hand would cost the side if the deal ended now: its points, and in
        Modern American 1500 for each of aces and sevens held three times (§3.5.9)."""
        cost = float(sum(c.value for c in obs.hand))
        if obs.variant.family == "modern":
            counts = Counter(c.rank for c in obs.hand)
            cost += sum(_HELD_PENALTY for r in _PURE_RANKS if counts[RANKS[r]] > _HELD_FREE)
        return cost

    def _random_hand_value(self, obs: Observation) -> float:
        """The mean points of a hand of this seat's size dealt from the cards it cannot
        see (the other hands of the sampled deals)."""
        values = [
            card_value(code)
            for world in self._worlds(obs, _OUT_SAMPLES)
            for seat, hand in enumerate(world.hands)
            if seat != obs.seat
            for code in hand
        ]
        return len(obs.hand) * sum(values) / len(values) if values else 0.0

    def _draw(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        if self._last_turn(obs) and not self._simulating:
            return self._last_draw(obs, moves)
        endgame = self._endgame_draw(obs, moves)
        if endgame is not None:
            return endgame
        takes = [m for m in moves if isinstance(m, Take)]
        can_draw = any(isinstance(m, Draw) for m in moves)
        top = obs.pile_top
        modern = obs.variant.family == "modern"
        if (
            takes
            and can_draw
            and modern
            and top is not None
            and _rank_index(top.rank) in _PURE_RANKS
            and obs.pile_size < _BIG_PILE
            and not self._pure_take_ok(obs, top)
        ):
            # The take starts a pure meld of aces or sevens: 2500 if unfinished (§3.5.9).
            takes = []
        if takes and modern and not obs.opened[obs.side]:
            # The opening that goes with the take must not leave a penalised meld.
            takes = [m for m in takes if not self._opening_penalised(obs, m)]
        if takes:
            # Fewest wild cards first, then fewest cards from hand.
            best = min(takes, key=lambda m: (_split(m.cards)[1], len(m.cards)))
            wilds = _split(best.cards)[1]
            left = len(obs.hand) - len(best.cards) + obs.pile_size - 1
            forced_out = left <= 1 and not self._racing(obs)
            value = self._pile_value(obs) - _TAKE_WILD_COST * wilds
            if modern and obs.pile_size < _BIG_PILE:
                value -= self._held_after_take(obs)
            value -= 1_000.0 if forced_out else 0.0
            if not can_draw or value > 5.0 * obs.variant.draw_count:
                return best
            if not modern and self._racing(obs):
                # Classic, racing to go out: the take melds the top card with two cards
                # from hand (§2.7), so the hand shrinks by more than the pile adds when the
                # pile is small. Such piles are mostly a black three under one card, which
                # `_pile_value` counts as dead weight, but it blocks the pile again when
                # discarded on a later turn (§2.3, §2.7).
                return best
        for move in moves:
            if isinstance(move, Draw):
                return move
        return next((m for m in moves if isinstance(m, End)), moves[0])

    def _last_turn(self, obs: Observation) -> bool:
        """The stock runs out before this seat's next turn: the deal ends after this turn
        (or soon after), so the cards left in hand count against the side."""
        drawn = obs.phase != "draw" and not obs.turn.took_pile
        needed = obs.players * obs.variant.draw_count
        return obs.stock_size + (obs.variant.draw_count if drawn else 0) <= needed

    def _last_draw(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        """This seat's last turn: draw or take the pile (each way of taking it), whichever
        leaves the side the best margin once the turn is played out (on sampled deals)."""
        best: tuple[float, Move] | None = None
        worlds = self._worlds(obs, _ENDGAME_SAMPLES)
        for move in moves:
            total = 0.0
            for world in worlds:
                state = self._play_turn_out(world.apply(move), obs.seat, [])
                total += _margin(state.variant.score_rows(state._table), obs.side)
            mean = total / len(worlds) if worlds else 0.0
            if best is None or mean > best[0]:
                best = (mean, move)
        assert best is not None
        return best[1]

    def _endgame_draw(self, obs: Observation, moves: tuple[Move, ...]) -> Move | None:
        """With a small hand and the canastas to go out: draw or take the pile, whichever
        more often lets this seat go out, and win, this turn (on sampled deals)."""
        side = obs.side
        if (
            self._simulating
            or not obs.opened[side]
            or len(obs.hand) > _ENDGAME_HAND
            or _canastas(obs.melds[side]) < obs.variant.canastas_to_go_out
        ):
            return None
        candidates = [m for m in moves if isinstance(m, Draw | Take)]
        if len(candidates) < 2:
            return None
        rates = {move: self._out_rate(obs, move) for move in candidates}
        best = max(candidates, key=lambda m: rates[m])
        return best if rates[best] > 0 else None

    def _out_rate(self, obs: Observation, first: Move) -> float:
        """The share of sampled deals in which ``first``, then this seat's turn, ends
        the deal with this seat going out and its side ahead."""
        wins = tries = 0
        for world in self._worlds(obs, _ENDGAME_SAMPLES, len(str(first))):
            state = self._play_turn_out(world.apply(first), obs.seat, [])
            tries += 1
            if state.went_out == obs.seat:
                wins += _margin(state.variant.score_rows(state._table), obs.side) > 0
        return wins / tries if tries else 0.0

    def _pure_take_ok(self, obs: Observation, top: Card) -> bool:
        """Modern American: taking the pile onto aces or sevens grows the side's pure meld
        of them, or the hand and the pile hold a canasta of them."""
        if _unfinished_pure(obs.melds[obs.side], _rank_index(top.rank)):
            return True
        mine = sum(1 for c in obs.hand + obs.pile_seen if c.rank == top.rank)
        return mine >= _CANASTA

    def _held_after_take(self, obs: Observation) -> float:
        """Modern American: what taking the pile adds to the penalties for aces and sevens
        left in this hand at the end of the deal (spec §3.5.9), when the turns left are
        too few to discard them one a turn."""
        # One discard on each later turn of this seat (the stock shrinks by one a turn);
        # drawing instead also allows one this turn (after a take the pile is empty, and
        # an ace or seven may not go on an empty pile, §3.5.6).
        turns = obs.stock_size // (obs.players * obs.variant.draw_count)
        taken = self._held_penalty(obs, obs.hand + obs.pile_seen[:-1], turns)
        return taken - self._held_penalty(obs, obs.hand, turns + 1)

    def _held_penalty(self, obs: Observation, cards: tuple[Card, ...], turns: int) -> float:
        """Modern American: the penalties for aces and sevens among ``cards`` that this
        seat could not discard in ``turns`` turns. Left out: ranks the side can lay off on
        an unfinished pure meld or that make a canasta, and the top card's rank (taking
        the pile with it starts a pure meld, which `_draw` weighs on its own)."""
        top = obs.pile_top
        excess = []
        for rank in _PURE_RANKS:
            text = RANKS[rank]
            held = sum(1 for c in cards if c.rank == text)
            if (
                held < _CANASTA
                and not _unfinished_pure(obs.melds[obs.side], rank)
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
        if Ask() in moves and not self._simulating and self._go_out_now(obs):
            return Ask()
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
        going_out_ok = self._go_out_now(obs)
        can_stop = any(isinstance(m, Discard | End) for m in moves)
        racing = going_out_ok or self._racing(obs) or self._last_turn(obs)
        scored: list[tuple[float, Move]] = []
        for move in moves:
            if isinstance(move, MeldCards | LayOff):
                score = self._meld_score(obs, move, melds, opened, hand_size, counts, racing)
                if racing and score > -100.0:  # strongly penalised melds stay out
                    score = max(score, 0.0) + 100.0 + 10.0 * len(move.cards)
                used = len(move.cards)
                if hand_size - used == 0:
                    score = 10_000 if going_out_ok else -10_000
                elif move.cards[0].rank == "3" and not going_out_ok:
                    # Black threes are melded only in the turn the player goes out (spec
                    # §2.6): the meld commits the turn to going out.
                    score = -10_000
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
            scored = [(self._discard_score(obs, m, counts), m) for m in discards]
            if not self._simulating and len(discards) > 1:
                risks = self._feed_risk(obs, discards)
                modern = obs.variant.family == "modern"
                weight = (_MAC_FEED_PER_CARD if modern else _FEED_PER_CARD) * obs.pile_size
                scored = [(score - weight * risks[m], m) for score, m in scored]
            return self._best(scored)
        return next((m for m in moves if isinstance(m, End)), moves[0])

    def _feed_risk(self, obs: Observation, discards: list[Discard]) -> dict[Discard, float]:
        """For each discard, the share of sampled deals in which the next player, an
        opponent, may then take the pile."""
        nxt = (obs.seat + 1) % obs.players
        risks = dict.fromkeys(discards, 0.0)
        if obs.variant.side_of(nxt) == obs.side:
            return risks
        worlds = self._worlds(obs, _FEED_SAMPLES)
        for world in worlds:
            for move in discards:
                after = world.apply(move)
                if not after.is_over and any(isinstance(m, Take) for m in after.legal_moves()):
                    risks[move] += 1.0 / len(worlds)
        return risks

    def _play_opening(self, state: GameState, seat: int) -> GameState:
        """Play ``seat``'s melds on a full (sampled) state until its side has opened or
        the bot would stop melding."""
        side = state.variant.side_of(seat)
        for _ in range(_TURN_MOVES):
            if state.is_over or state.to_move != seat or state.opened[side]:
                break
            step = state.observe(seat)
            move = self._meld_choice(step, step.legal_moves)
            if move is None:
                break
            state = state.apply(move)
        return state

    def _opening_penalised(self, obs: Observation, take: Take) -> bool:
        """Modern American: the opening this bot would make with ``take`` leaves a pure
        meld of aces or sevens or a wild-card meld unfinished (while the stock is large)."""
        if obs.stock_size <= _OPEN_WAIT_STOCK:
            return False
        worlds = self._worlds(obs, 1)
        if not worlds:
            return False
        state = self._play_opening(worlds[0].apply(take), obs.seat)
        return _penalised(state.melds[obs.side]) > 0

    def _plan_opening(self, obs: Observation, moves: tuple[Move, ...]) -> Move | None:
        """Modern American: try each first meld of an opening to the end of the opening.

        The bot's own turn does not depend on the cards it cannot see, so it plays the turn
        out on a sampled state. Openings that leave a pure meld of aces or sevens (2500 if
        unfinished) are avoided; when every opening does, the bot waits while the stock is
        large. Returns None to fall back to the plain greedy choice.
        """
        candidates = [m for m in moves if isinstance(m, MeldCards | LayOff)]
        worlds = self._worlds(obs, 1)
        if not candidates or not worlds:
            return None
        best: tuple[float, Move] | None = None
        for first in candidates:
            state = self._play_opening(worlds[0].apply(first), obs.seat)
            if not state.opened[obs.side]:
                continue
            melds = state.melds[obs.side]
            left = len(state.hands[obs.seat])
            score = _table_value(melds) - 2_500.0 * _penalised(melds) + _OPEN_HAND_WEIGHT * left
            if best is None or score > best[0]:
                best = (score, first)
        if best is None:
            return None
        if best[0] < 0 and obs.stock_size > _OPEN_WAIT_STOCK:
            return self._stop(obs, moves)  # wait for a better opening
        return best[1]

    # -- scoring moves ---------------------------------------------------------------------

    def _meld_score(
        self,
        obs: Observation,
        move: MeldCards | LayOff,
        melds: tuple[Meld, ...],
        opened: bool,
        hand_size: int,
        counts: Counter[str],
        racing: bool = False,
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
            before = 0 if target is None or target.size >= _CANASTA else before
        after = before + naturals + wilds
        completes = before < _CANASTA <= after
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
        if modern and rank in _PURE_RANKS and not wilds:
            # Unfinished pure aces or sevens cost 2500 there (spec §3.5.9): grow such a
            # meld, but start one only with the cards to finish it.
            if target is not None and target.size < _CANASTA and target.is_natural:
                score += 100.0
            elif not completes:
                score -= 3_000.0
        keep = 8 if modern else 5
        if (
            opened
            and isinstance(move, MeldCards)
            and not completes
            and hand_size - len(move.cards) < keep
            and naturals < 4
        ):
            score -= 60.0  # keep pairs in hand to take the pile
        if (
            opened
            and not completes
            and not racing
            and hand_size - len(move.cards) < (_MAC_KEEP if modern else _CLASSIC_KEEP)
        ):
            # A hand of one or two cards can neither take the pile nor build canastas.
            score -= 150.0
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
        rank_index = _rank_index(rank)
        if rank_index in _PURE_RANKS and variant.family == "modern":
            if held >= 3 and not _unfinished_pure(obs.melds[obs.side], rank_index):
                return _HELD_DISCARD  # three or more held at the end cost 1500 (§3.5.9)
            others = (melds for s, melds in enumerate(obs.melds) if s != obs.side)
            if any(_unfinished_pure(melds, rank_index) for melds in others):
                # An opponent finishes a pure meld of them only with this seat's help.
                score -= _BLOCK_PURE
        score += {1: 40.0, 2: -10.0}.get(held, -60.0)
        if variant.family == "modern" and not obs.opened[obs.side]:
            score -= card.value  # high cards make the opening (125 from hand)
        else:
            score += card.value / 2
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
            if any(c.rank == rank for c in obs.discarded[nxt][-1:]):
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
        return score


def _quick_bot(seed: int | None = None) -> Bot:
    return GreedyBot(seed, lookahead=False)


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "quick": _quick_bot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"``, ``"greedy"`` or ``"quick"``, a greedy bot without
    look-ahead).

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
