"""`GreedyBot`: a heuristic player for every variant that looks one turn ahead at most,
on sampled deals. What it values under the rules at hand comes from its strategy
(`canasta.bots.strategy`), picked once when it meets the variant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from canasta.bots.base import choices, seeded
from canasta.bots.sampling import Worlds, gone_out, margin, memo, obs_key
from canasta.bots.strategy import (
    CANASTA,
    CLASSIC,
    Strategy,
    is_wild,
    rank_index,
    strategy_for,
)
from canasta.cards import THREE, Card
from canasta.moves import Answer, Ask, Discard, Draw, End, LayOff, MeldCards, Move, Special, Take
from canasta.observation import Observation
from canasta.state import GameState
from canasta.table import WILD_RANK, Meld
from canasta.variants.base import Variant

__all__ = ["GreedyBot"]

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
#: Discards: sampled deals to judge whether the next player may take the pile (what that
#: costs per card in the pile is the strategy's).
_FEED_SAMPLES = 8
#: Taking the pile with a wild card (classic, unfrozen pile, §2.7 T3b): the wild card's
#: worth to a later canasta, set against the pile's cards.
_TAKE_WILD_COST = 10.0
#: Planned openings: what each card left in hand is worth (cards to take the pile and
#: build canastas with), and the stock below which the bot opens as it can.
_OPEN_HAND_WEIGHT = 60.0
_OPEN_WAIT_STOCK = 12


def _split(cards: tuple[Card, ...]) -> tuple[int, int]:
    """(naturals, wilds) among a move's cards."""
    wilds = sum(1 for c in cards if is_wild(c))
    return len(cards) - wilds, wilds


def _meld_of(melds: tuple[Meld, ...], rank: int) -> Meld | None:
    """The side's meld of ``rank`` that a move would grow (the smallest below 7 first)."""
    growing = [m for m in melds if m.rank == rank]
    if not growing:
        return None
    return min(growing, key=lambda m: (m.size >= CANASTA, m.size))


def _canastas(melds: tuple[Meld, ...]) -> int:
    return sum(1 for m in melds if m.is_canasta)


def _table_value(melds: tuple[Meld, ...]) -> int:
    """A rough public value of a side's melds: card points plus canasta bonuses."""
    value = 0
    for meld in melds:
        value += meld.value
        if meld.is_canasta:
            value += 500 if meld.is_natural else 300
    return value


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

    The Modern American play comes with variants whose pile is always frozen
    (`Variant.pile_always_frozen`), whatever their name; every other variant gets the
    classic play.

    Without look-ahead (``lookahead=False``, the bot named ``quick``) it skips every
    sampled estimate: it goes out whenever it can and judges discards by the table alone.
    That is several times faster, for mass simulation, and weaker.

    Args:
        seed: breaks ties between equally good moves (None: always the first).
        lookahead: judge going out, discards and the last draws on sampled deals.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, lookahead: bool = True) -> None:
        self.rng = seeded(seed) if seed is not None else None
        self.lookahead = lookahead
        if not lookahead:
            self.name = "quick"
        # Set while the bot plays its own turn out on a sampled deal, and always without
        # look-ahead: it then goes out whenever it can and skips the sampled estimates.
        self._simulating = not lookahead
        # Sampled margins and sampled deals, kept for the rest of the decision (keyed by
        # `obs_key`).
        self._margins: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._sampled: dict[tuple[object, ...], Worlds] = {}
        # The variant last met and the strategy for its rules, picked once per variant.
        self._variant: Variant | None = None
        self._rules: Strategy = CLASSIC

    def __repr__(self) -> str:
        return "GreedyBot()" if self.lookahead else "GreedyBot(lookahead=False)"

    def choose(self, observation: Observation) -> Move:
        """The move the heuristics like best."""
        moves = choices(observation)
        if observation.variant is not self._variant:
            self._variant = observation.variant
            self._rules = strategy_for(self._variant)
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
        """Up to ``count`` full states that agree with ``obs`` (see `Worlds`); ``salt``
        picks another series of them."""
        worlds = memo(self._sampled, (*obs_key(obs), salt), lambda: Worlds(obs, salt))
        return worlds.first(count)

    # -- going out -------------------------------------------------------------------------

    def _cached(
        self, kind: str, obs: Observation, seat: int, compute: Callable[[], tuple[float, ...]]
    ) -> tuple[float, ...]:
        """Sampled margins of one ``kind`` for ``seat``, computed once per decision."""
        return memo(self._margins, (*obs_key(obs), kind, seat), compute)

    def _margins_if_out(self, obs: Observation, out_seat: int) -> tuple[float, ...]:
        """The deal margins of this side, one per sampled deal, if ``out_seat`` (this seat
        or a partner) went out now: its hand emptied, the other hands as they are."""

        def compute() -> tuple[float, ...]:
            margins = []
            for world in self._worlds(obs, _OUT_SAMPLES):
                margins.append(margin(gone_out(world, out_seat), obs.side))
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
                margins.append(margin(world, obs.side))
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
        if _canastas(obs.own_melds) < obs.variant.canastas_to_go_out - 1:
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
        return _canastas(obs.own_melds) >= obs.variant.canastas_to_go_out and self._wins(
            obs, self._margins_if_out(obs, obs.seat)
        )

    def _threatened(self, obs: Observation) -> bool:
        """Another side has the canastas to go out and a seat with few cards."""
        variant = obs.variant
        for seat in range(obs.players):
            side = variant.side_of(seat)
            if side == obs.side or obs.hand_sizes[seat] > 4:
                continue
            if _canastas(obs.melds[obs.meld_side(seat)]) >= variant.canastas_to_go_out:
                return True
        return False

    # -- phases ----------------------------------------------------------------------------

    def _answer(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        # The engine hands the question to the next seat of the asker's side.
        asker = (obs.seat - obs.variant.sides) % obs.players
        # This seat's estimate leaves out the canastas the asker may complete on the way
        # out; the asker's leaves out this hand (dealt at random there). So the answer is
        # no only when going out loses here and this hand holds more than a random one.
        yes = self._wins(obs, self._margins_if_out(obs, asker)) or self._hand_cost(
            obs
        ) <= self._random_hand_value(obs)
        wanted = Answer(yes)
        return wanted if wanted in moves else moves[0]

    def _hand_cost(self, obs: Observation) -> float:
        """What this hand would cost the side if the deal ended now: its points, and
        what the strategy adds (in Modern American, aces and sevens held three times)."""
        cost = float(sum(c.value for c in obs.hand))
        cost += self._rules.held_cost(obs.hand)
        return cost

    def _random_hand_value(self, obs: Observation) -> float:
        """The mean points of a hand of this seat's size dealt from the cards it cannot
        see (the other hands of the sampled deals)."""
        values = [
            card.value
            for world in self._worlds(obs, _OUT_SAMPLES)
            for seat in range(obs.players)
            if seat != obs.seat
            for card in world.hand(seat)
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
        rules = self._rules
        if takes and can_draw and rules.refuses_take(obs):
            takes = []
        if takes and rules.plans_opening and not obs.opened[obs.side]:
            # The opening that goes with the take must not leave a penalised meld.
            takes = [m for m in takes if not self._opening_penalised(obs, m)]
        if takes:
            # Fewest wild cards first, then fewest cards from hand.
            best = min(takes, key=lambda m: (_split(m.cards)[1], len(m.cards)))
            wilds = _split(best.cards)[1]
            left = len(obs.hand) - len(best.cards) + obs.pile_size - 1
            forced_out = left <= 1 and not self._racing(obs)
            value = self._pile_value(obs) - _TAKE_WILD_COST * wilds
            value -= rules.take_cost(obs)
            value -= 1_000.0 if forced_out else 0.0
            if not can_draw or value > 5.0 * obs.variant.draw_count:
                return best
            if rules.takes_to_race and self._racing(obs):
                # Racing to go out (classic): the take melds the top card with two cards
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
                total += margin(state, obs.side)
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
            or _canastas(obs.own_melds) < obs.variant.canastas_to_go_out
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
                wins += margin(state, obs.side) > 0
        return wins / tries if tries else 0.0

    def _pile_value(self, obs: Observation) -> float:
        """How much the cards under the top of the pile would help this hand."""
        counts = Counter(c.rank for c in obs.hand)
        meld_ranks = {m.rank for m in obs.own_melds}
        value = 10.0  # the top card goes to a meld
        for card in obs.pile_seen[:-1]:
            if is_wild(card):
                value += 25.0
            elif card.rank == "3":
                value -= 15.0  # a black three is dead weight
            elif rank_index(card.rank) in meld_ranks or counts.get(card.rank, 0) >= 1:
                value += 10.0
            else:
                value += 3.0
        value += 4.0 * (obs.pile_size - max(len(obs.pile_seen), 1))
        return value

    def _play(self, obs: Observation, moves: tuple[Move, ...]) -> Move:
        if Special() in moves:
            return Special()  # a special hand ends the deal for thousands of points at once
        can_stop = any(isinstance(m, Discard | End) for m in moves)
        side = obs.side
        if Ask() in moves and not self._simulating and self._go_out_now(obs):
            return Ask()
        if (
            self._rules.plans_opening
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
        melds = obs.own_melds
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
                weight = self._rules.feed_per_card * obs.pile_size
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
        return self._rules.opening_penalty(state.melds[state.meld_side(obs.seat)]) > 0

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
            melds = state.melds[state.meld_side(obs.seat)]
            left = len(state.hand(obs.seat))
            score = (
                _table_value(melds) - self._rules.opening_penalty(melds) + _OPEN_HAND_WEIGHT * left
            )
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
            rank = rank_index(move.target)
        else:
            rank = WILD_RANK if naturals == 0 else rank_index(move.cards[0].rank)
        if rank == THREE:  # black threes: only melded when going out
            return 5_000.0
        target = _meld_of(melds, rank)
        before = target.size if target is not None else 0
        if isinstance(move, MeldCards) and not obs.variant.merges_same_rank:
            before = 0 if target is None or target.size >= CANASTA else before
        after = before + naturals + wilds
        completes = before < CANASTA <= after
        value = sum(c.value for c in move.cards)
        rules = self._rules
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
        score += rules.pure_meld_bonus(rank, wilds, target, completes)
        if (
            opened
            and isinstance(move, MeldCards)
            and not completes
            and hand_size - len(move.cards) < rules.keep_pairs
            and naturals < 4
        ):
            score -= 60.0  # keep pairs in hand to take the pile
        if (
            opened
            and not completes
            and not racing
            and hand_size - len(move.cards) < rules.keep_cards
        ):
            # A hand of one or two cards can neither take the pile nor build canastas.
            score -= 150.0
        if after >= 4 and not completes:
            score += 15.0 * rules.canasta_cards(naturals, wilds)  # toward a canasta
        if wilds:
            score -= rules.wild_cost(completes) * wilds
        if not opened:
            score += rules.opening_worth(move.cards)  # reach the minimum
        return score

    def _visible(self, obs: Observation, rank: str) -> int:
        """Copies of a natural rank this seat can see: own hand, melds, the seen pile."""
        count = sum(1 for c in obs.hand if c.rank == rank)
        count += sum(1 for c in obs.pile_seen if c.rank == rank)
        index = rank_index(rank)
        count += sum(m.naturals for side in obs.melds for m in side if m.rank == index)
        return count

    def _discard_score(self, obs: Observation, move: Discard, counts: Counter[str]) -> float:
        card = move.card
        rank = card.rank
        variant = obs.variant
        score = 0.0
        if is_wild(card):
            return -1_000.0
        if rank == "3":
            return 500.0  # a black three blocks the next player
        held = counts.get(rank, 0)
        meld_rank = rank_index(rank)
        shed = self._rules.shed_score(obs, meld_rank, held)
        if shed is not None:
            return shed
        score -= self._rules.blocking_cost(obs, meld_rank)
        score += {1: 40.0, 2: -10.0}.get(held, -60.0)
        score += self._rules.discard_worth(obs, card)
        nxt = (obs.seat + 1) % obs.players
        next_side = variant.side_of(nxt)
        if next_side != obs.side:
            frozen = obs.frozen or variant.pile_always_frozen or not obs.opened[next_side]
            if not frozen and any(m.rank == meld_rank for m in obs.melds[obs.meld_side(nxt)]):
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
            m.rank == meld_rank and m.is_canasta and m.is_natural
            for side in obs.melds
            for m in side
        )
        if closed and variant.closes_ranks:
            score += 80.0
        return score
