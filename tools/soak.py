"""Soak test (``make soak``): random play of every registered variant, invariants checked
after every move, through the public API only.

Each deal is dealt from a seed and played with uniformly random legal moves. After every
move it checks:

- **card conservation**: the cards of the position format (``to_dict()``: hands, pile,
  stock, melds, threes, pile cards waiting to join a hand, talons set aside) are exactly
  the variant's decks;
- **no mutation**: the state a move was applied to, legal or not, is unchanged;
- **generator and checker agree**: every listed move passes ``check()``; a sample of other
  candidate moves (``canasta.testing.candidate_moves``) written without suits is refused by
  ``check()`` and by ``apply()`` with the same reason;
- **round trips**: ``from_dict(to_dict(s)) == s`` and ``from_json(to_json(s)) == s``;
- **hidden cards**: for each seat, a state with the hidden cards dealt again at random
  (``sample_state``) gives that seat the same observation;
- **learning**: each seat's observation vector (``canasta.rl.ObservationEncoder``) lies
  within the encoder's bounds, and each legal move has its own action index
  (``canasta.rl.ActionSpace``) that decodes to it;
- **the deal ends** within a bound of plies, its outcome's breakdown adds up to its scores,
  and its record (``records.dumps``) reads back to the same final state.

With ``--random-options`` each deal is played under house rules drawn at random from the
variant's options (``Variant.option_specs()``: each option changed with probability
``OPTION_CHANCE``, a combination the variant refuses drawn again), from random scores
before the deal and a random dealer: the combinations no registered variant plays.

With ``--matches`` it plays matches (``canasta.Match``) instead of single deals, to a
target score drawn from ``TARGETS`` (random play seldom reaches 5000), at most
``MATCH_DEALS`` deals each, every state checked as above, and at the end of each deal:

- the finished deal's record in the match holds its moves, dealer and scores before it,
  and the outcome of its final state;
- the match scores are the sum of the deals' scores, the next deal starts from them with
  the next dealer, and the match is over exactly when ``decide_winner`` (or a special
  hand that wins the game) says so;
- the match's record reads back to the same match.

With ``--pickups`` it plays no deals: for each variant in turn it builds a position where
seat 0, its side not opened, may take the pile (a pair of the top card in hand, with
black threes where they stay in hand, cards of a few ranks and wild cards, and cards
under the top card that join the hand once the initial meld is complete), takes it each
way it may, and visits every position the turn reaches by melds and lay-offs (up to
``PICKUP_POSITIONS``): each must have a legal move, and each listed move, written out
and read again, must pass ``check()``. With ``--random-options`` the positions are played
under random options.

With ``--turns`` it plays deals at random, and searches some of their turns whole (each
with chance ``TURN_CHANCE``): from the turn's draw it follows every legal move while the
same player is to move or its partner answers (asking, taking the pile each way, every
meld and lay-off), up to ``TURN_POSITIONS`` positions. Each position must have a legal
move, and so must the next player after each move that ends the turn; each listed move,
written out and read again, must pass ``check()``. Random play walks one path through a
turn; the search walks the others, where a move that leaves no way to finish the turn
would hide.

Usage: ``python tools/soak.py [--seconds S] [--deals N] [--seed S] [--variants a,b]
[--random-options] [--matches | --pickups | --turns]``. A failure prints the variant (its config
under random options), the seed and the moves (a replay line) and the run exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import operator
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

import canasta
from canasta import GameState, IllegalMoveError, VariantError, records, sample_state
from canasta.match import decide_winner
from canasta.rl import ActionSpace, ObservationEncoder
from canasta.testing import candidate_moves
from canasta.variants import OptionSpec, Variant

#: A deal longer than this many plies counts as one that never ends.
MAX_PLIES = 5000
#: Candidate moves checked per state (a random sample of ``candidate_moves``).
CANDIDATES = 12
#: With random options: the chance that an option is changed, and how many option sets
#: are drawn before the variant's own options are played.
OPTION_CHANCE = 0.3
OPTION_TRIES = 100
#: With random options: the sides' scores before the deal are drawn from these (they set
#: the initial-meld minimums, and the minimum of a negative score).
SCORES = (-500, 0, 1495, 1500, 2995, 3000, 4995, 5000)
#: With ``--matches``: the target scores drawn, and the deals a match may last.
TARGETS = (5, 300, 1000, 2500)
MATCH_DEALS = 12
#: With ``--pickups``: the positions of one pickup turn visited at most.
PICKUP_POSITIONS = 1500
#: With ``--turns``: the chance that a turn of the random play is searched, and the
#: positions of one turn visited at most.
TURN_CHANCE = 0.35
TURN_POSITIONS = 400


class SoakFailure(AssertionError):
    """An invariant failed; the message holds the replay line."""


@attrs.define
class Tally:
    """What a soak run tried."""

    deals: int = 0
    moves: int = 0
    unlisted_rejected: int = 0
    round_trips: int = 0
    observations: int = 0
    records: int = 0
    matches: int = 0
    pickups: int = 0
    turns: int = 0
    failures: list[str] = attrs.Factory(list)
    #: what the run plays: its line counts what it tried, even where it found nothing
    kind: str = "deals"

    def line(self) -> str:
        if self.kind == "pickups":
            return (
                f"{self.pickups} pickups, {self.moves} positions of their turns, "
                f"{len(self.failures)} failures"
            )
        if self.kind == "turns":
            return (
                f"{self.deals} deals, {self.turns} turns searched, {self.moves} positions "
                f"of their turns, {len(self.failures)} failures"
            )
        parts = [f"{self.matches} matches"] if self.matches else []
        parts += [
            f"{self.deals} deals",
            f"{self.moves} moves",
            f"{self.unlisted_rejected} unlisted moves rejected",
            f"{self.round_trips} position round trips",
            f"{self.observations} observations compared",
            f"{self.records} records read back",
            f"{len(self.failures)} failures",
        ]
        return ", ".join(parts)


def deck_of(variant: canasta.Variant) -> Counter[str]:
    """Every card of the variant's decks, by card text."""
    one = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "SHDC"] + ["*", "*"]
    return Counter(one * variant.decks)


def cards_on_table(state: GameState) -> Counter[str]:
    """Every card the position format shows, by card text."""
    data = state.to_dict()
    texts = [*data["hands"], data["pile"], data["stock"], *data["threes"]]
    texts += [meld for side in data["melds"] for meld in side]
    texts.append(data.get("turn", {}).get("waiting", ""))
    # Modern American talons dealt face down (mac_talon_source="set_aside"); None once taken.
    texts += [talon for talon in data.get("talons", {}).values() if talon is not None]
    found: Counter[str] = Counter()
    for text in texts:
        # The format allows a card string or a list of card texts.
        cards = canasta.parse_cards(text if isinstance(text, str) else " ".join(text))
        found.update(str(card) for card in cards)
    return found


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise SoakFailure(what)


#: Variants whose action space and encoder are kept: each holds about half a megabyte, and
#: with random options nearly every deal has a variant of its own.
_LEARNING_KEPT = 16


@functools.lru_cache(maxsize=_LEARNING_KEPT)
def _learning(variant: Variant) -> tuple[ActionSpace, ObservationEncoder, Callable[..., bool]]:
    """The variant's action space and encoder (lists of floats: the core has no NumPy),
    and a test that a vector lies within the encoder's bounds."""
    encoder = ObservationEncoder(variant, numpy=False)
    low, high = encoder.bounds

    def within(vector: list[float]) -> bool:
        return all(map(operator.le, low, vector)) and all(map(operator.le, vector, high))

    return ActionSpace(variant), encoder, within


def check_state(state: GameState, deck: Counter[str], tally: Tally, rng: random.Random) -> None:
    """The invariants of one state (see the module docstring)."""
    _check(cards_on_table(state) == deck, "the table does not hold the variant's cards")
    _check(GameState.from_dict(state.to_dict()) == state, "from_dict(to_dict(s)) != s")
    _check(GameState.from_json(state.to_json()) == state, "from_json(to_json(s)) != s")
    tally.round_trips += 1
    actions, encoder, within = _learning(state.variant)
    for seat in range(state.variant.players):
        observation = state.observe(seat)
        _check(
            sample_state(observation, rng).observe(seat) == observation,
            f"seat {seat}'s observation depends on cards it cannot see",
        )
        _check(within(encoder.encode(observation)), f"seat {seat}'s vector is out of bounds")
        tally.observations += 1
    legal = state.legal_moves()
    listed = {str(move) for move in legal}
    _check(len(listed) == len(legal), "legal_moves() lists a play twice")
    _check(state.is_over == (not legal), "no legal move in a deal that is not over")
    indexed = actions.legal(state)
    _check(len(indexed) == len(legal), "two legal moves have one action index")
    for index, move in indexed.items():
        _check(actions.decode(state, index) is move, f"action {index} is not {move}")
    for move in legal:
        _check(state.check(move) is None, f"listed move {move} fails check()")
    unlisted = [text for text in candidate_moves(state, rng) if text not in listed]
    for text in rng.sample(unlisted, min(CANDIDATES, len(unlisted))):
        move = canasta.parse_move(text)
        if any(card.suit is not None for card in getattr(move, "cards", ())):
            continue  # an exact card may be legal while only its suit-free form is listed
        if isinstance(move, canasta.Discard | canasta.Expose) and move.card.suit is not None:
            continue
        reason = state.check(move)
        _check(reason is not None, f"unlisted move {text} passes check()")
        before = state.to_json()
        try:
            state.apply(move)
        except IllegalMoveError as error:
            _check(error.reason is reason, f"apply({text}) gives another reason than check()")
        else:
            raise SoakFailure(f"unlisted move {text} applies")
        _check(state.to_json() == before, f"the refused move {text} changed the state")
        tally.unlisted_rejected += 1


def check_outcome(state: GameState) -> None:
    outcome = state.outcome()
    _check(outcome is not None, "a finished deal has no outcome")
    assert outcome is not None
    for side, score in enumerate(outcome.scores):
        lines = outcome.breakdown[side]
        _check(sum(points for _, points in lines) == score, f"side {side}'s breakdown")


def option_value(spec: OptionSpec, default: Any, rng: random.Random) -> Any:
    """A value of an option that its own check is likely to accept (the variant may still
    refuse it in combination, or a number out of its range)."""
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "choice":
        return rng.choice(spec.choices)
    if spec.kind == "int":
        assert spec.low is not None
        high = spec.high if spec.high is not None else max(2 * default, spec.low + 3)
        return rng.choice([spec.low, default, rng.randint(spec.low, high)])
    if spec.kind == "table":
        # Thresholds from the first one up, minimums of the default's size.
        first = default[0][0]
        thresholds = [first, *sorted(rng.sample(range(first + 1, 6000), rng.randint(0, 3)))]
        return [[score, rng.randrange(0, 200, 5)] for score in thresholds]
    if spec.kind == "ints":
        return [rng.randrange(0, 2 * max(value, 50), 5) for value in default]
    assert spec.kind == "values", spec
    # Points for a few of the names (those of another special-hand set are refused).
    names = rng.sample(spec.choices, rng.randint(1, min(3, len(spec.choices))))
    return {name: rng.randrange(0, 10_000, 50) for name in names}


def random_options(variant: Variant, rng: random.Random) -> Variant:
    """``variant`` with options drawn at random (see the module docstring); the variant
    itself when no set of ``OPTION_TRIES`` is accepted."""
    specs = variant.option_specs()
    for _ in range(OPTION_TRIES):
        options = {
            name: option_value(spec, getattr(variant, name), rng)
            for name, spec in specs.items()
            if rng.random() < OPTION_CHANCE
        }
        try:
            return variant.with_options(options)
        except VariantError:
            continue
    return variant


@attrs.frozen
class RandomDeal:
    """The rules, scores before the deal and dealer of a soak's deal of ``variant``: its
    own, or drawn at random (`draw`)."""

    variant: str
    rules: str | Variant
    scores: list[int] | None = None
    dealer: int | None = None

    @classmethod
    def draw(cls, variant: str, rng: random.Random, options: bool) -> RandomDeal:
        """With ``options``: random options, scores and dealer drawn from ``rng``."""
        if not options:
            return cls(variant, variant)
        rules = random_options(canasta.variants.get(variant), rng)
        scores = [rng.choice(SCORES) for _ in range(rules.sides)]
        return cls(variant, rules, scores, rng.randrange(rules.players))

    def new_game(self, seed: int) -> GameState:
        return canasta.new_game(self.rules, seed=seed, scores=self.scores, dealer=self.dealer)

    def failure(self, label: str, seed: int, failure: Exception, played: list[str]) -> SoakFailure:
        """A failure of the deal from ``seed`` after the moves ``played``, with the line
        that replays it (a failed check, or an exception from the library, itself a
        finding)."""
        what = str(failure) if isinstance(failure, SoakFailure) else repr(failure)
        rules = self.rules
        given = repr(rules) if isinstance(rules, str) else repr(rules.to_config())
        if self.scores is not None:
            given += f", scores={self.scores!r}, dealer={self.dealer!r}"
        return SoakFailure(
            f"{self.variant} {label}seed {seed}: {what}\n  replay: "
            f"canasta.new_game({given}, seed={seed}).play({' '.join(played)!r})"
        )


def soak_deal(variant: str, seed: int, tally: Tally, *, options: bool = False) -> None:
    """Play one deal of ``variant`` from ``seed`` (with ``options``, under random options,
    scores and dealer drawn from the seed), checking every state; raise SoakFailure."""
    rng = random.Random(seed)
    deal = RandomDeal.draw(variant, rng, options)
    played: list[str] = []
    try:
        state = deal.new_game(seed)
        deck = deck_of(state.variant)
        check_state(state, deck, tally, rng)
        while not state.is_over:
            _check(len(played) < MAX_PLIES, f"the deal does not end within {MAX_PLIES} plies")
            move = rng.choice(state.legal_moves())
            before = state.to_json()
            after = state.apply(move)
            played.append(str(move))
            _check(state.to_json() == before, f"apply({move}) changed the state it was given")
            state = after
            tally.moves += 1
            check_state(state, deck, tally, rng)
        check_outcome(state)
        _check(records.loads(records.dumps(state, seed=seed)) == state, "the record differs")
        tally.records += 1
    except Exception as failure:
        raise deal.failure("", seed, failure, played) from failure
    tally.deals += 1


def soak_match(variant: str, seed: int, tally: Tally, *, options: bool = False) -> None:
    """Play one match of ``variant`` from ``seed`` (with ``options``, under random options),
    checking every state and every deal's end (see the module docstring); raise
    SoakFailure."""
    rng = random.Random(seed)
    rules = canasta.variants.get(variant)
    if options:
        rules = random_options(rules, rng)
    with contextlib.suppress(VariantError):  # a variant of fixed target keeps its own
        rules = rules.with_options({"target_score": rng.choice(TARGETS)})
    played: list[str] = []
    try:
        match = canasta.Match.new(rules, seed=seed)
        deck = deck_of(rules)
        while not match.is_over and len(match.deals) < MATCH_DEALS:
            state = match.state
            if not state.history():
                check_state(state, deck, tally, rng)
            move = rng.choice(match.legal_moves())
            after = state.apply(move)
            match = match.apply(move)
            played.append(str(move))
            tally.moves += 1
            check_state(after, deck, tally, rng)
            if after.is_over:
                check_outcome(after)
                _check_deal_end(match, after)
                tally.deals += 1
            else:
                _check(match.state == after, f"the match's state after {move} differs")
        _check(records.loads(records.dumps(match)) == match, "the match's record differs")
        tally.records += 1
    except Exception as failure:
        what = str(failure) if isinstance(failure, SoakFailure) else repr(failure)
        raise SoakFailure(
            f"{variant} match seed {seed}: {what}\n  replay: "
            f"canasta.Match.new({rules.to_config()!r}, seed={seed}).play({' '.join(played)!r})"
        ) from failure
    tally.matches += 1


def _check_deal_end(match: canasta.Match, final: GameState) -> None:
    """The match after ``final``, the end of its last deal (see the module docstring)."""
    deal = match.deals[-1]
    outcome = final.outcome()
    _check(deal.outcome == outcome, "the deal's outcome in the match differs")
    _check(
        deal.moves == tuple(event.move for event in final.history())
        and deal.dealer == final.dealer
        and deal.scores == final.scores,
        "the match's record of the deal differs from the deal",
    )
    totals = [0] * match.variant.sides
    for earlier in match.deals:
        assert earlier.outcome is not None  # a finished deal
        totals = [a + b for a, b in zip(totals, earlier.outcome.scores, strict=True)]
    _check(list(match.scores) == totals, "the match scores are not the sum of the deals'")
    winner = decide_winner(match.variant, match.scores)
    if outcome is not None and outcome.special_hand is None:
        _check(match.winner == winner, f"the match's winner is {match.winner}, not {winner}")
    _check(match.is_over == (match.winner is not None), "over without a winner, or the reverse")
    if not match.is_over:
        start = match.state
        _check(
            not start.history()
            and start.scores == match.scores
            and start.dealer == (final.dealer + 1) % match.variant.players,
            "the next deal does not start from the match scores with the next dealer",
        )


def pickup_position(
    rng: random.Random, variant: Variant | str, threes: bool, scores: list[int] | None = None
) -> dict[str, Any]:
    """A position in which seat 0, to draw and its side not opened, holds a pair of the
    pile's top card with three or four black threes (with ``threes``), cards of a few
    ranks and wild cards, and up to five cards lie under the top card (see the module
    docstring); ``scores`` default to one of 0, 1500 and 3000 for its side."""
    rules = canasta.variants.get(variant) if isinstance(variant, str) else variant
    deck = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] * rules.decks
    deck += ["*", "*"] * rules.decks
    # Red threes are laid out, and in Modern American all threes.
    deck = [card for card in deck if card[0] != "3" or (threes and card[1] in "SC")]
    rng.shuffle(deck)
    top_rank = rng.choice("456789TJQKA")
    hand = [card for card in deck if card[0] == top_rank][:2]
    pool = [card for card in deck if card not in hand]
    top = next(card for card in pool if card[0] == top_rank)
    pool.remove(top)
    # Three or four black threes, which only a going out may meld, and a few ranks.
    black = [card for card in pool if card[0] == "3"][: rng.randint(3, 4) if threes else 0]
    focus = [*rng.sample("456789TJQKA", 2), "2", "*"]
    hand += black + [card for card in pool if card[0] in focus][: rng.randint(3, 9)]
    pool = [card for card in pool if card not in hand]
    rng.shuffle(pool)
    waiting = [card for card in pool[: rng.randint(1, 5)] if card[0] != "3"]
    pool = pool[5:]
    others = [pool[5 * i : 5 * i + 5] for i in range(rules.players - 1)]
    if scores is None:
        scores = [rng.choice([0, 1500, 3000]), *[0] * (rules.sides - 1)]
    return {
        "variant": variant if isinstance(variant, str) else rules.to_config(),
        "phase": "draw",
        "to_move": 0,
        "scores": scores,
        "hands": [" ".join(cards) for cards in [hand, *others]],
        "pile": " ".join([*waiting, top]),
        "stock": " ".join(pool[5 * (rules.players - 1) :][:20]),
    }


def _check_written(position: GameState) -> None:
    """Every listed move of ``position``, written out and parsed again, passes ``check()``:
    the move as written goes through every check, where the listed object itself is known
    to be legal."""
    for move in position.legal_moves():
        again = canasta.parse_move(str(move))
        _check(position.check(again) is None, f"listed move {move} fails check()")


def pickup_turn(state: GameState, limit: int = PICKUP_POSITIONS) -> Iterator[GameState]:
    """The positions of seat 0's turn after each legal pickup in ``state``, reached by
    melds and lay-offs (at most ``limit``), each checked to have a legal move."""
    todo = [state.apply(move) for move in state.legal_moves() if isinstance(move, canasta.Take)]
    visited = 0
    while todo and visited < limit:
        position = todo.pop()
        visited += 1
        if position.is_over or position.to_move != 0 or position.phase != "play":
            continue
        legal = position.legal_moves()
        _check(bool(legal), "no legal move in a deal that is not over")
        yield position
        todo += [
            position.apply(move)
            for move in legal
            if isinstance(move, canasta.MeldCards | canasta.LayOff)
        ]


def soak_pickup(variant: str, seed: int, tally: Tally, *, options: bool = False) -> None:
    """Search the turns of the pickups of one position of ``variant`` from ``seed`` (see
    the module docstring); raise SoakFailure."""
    rng = random.Random(seed)
    rules = canasta.variants.get(variant)
    scores = None
    if options:
        rules = random_options(rules, rng)
        scores = [rng.choice(SCORES) for _ in range(rules.sides)]
    data = pickup_position(rng, rules, threes=True, scores=scores)
    try:
        state = GameState.from_dict(data)
    except canasta.PositionError:
        # Black threes go face up in this variant: the same position without them.
        data = pickup_position(random.Random(seed), rules, threes=False, scores=scores)
        state = None
    position = state
    try:
        if state is None:
            position = state = GameState.from_dict(data)  # a refusal here is a finding
        if not any(isinstance(move, canasta.Take) for move in state.legal_moves()):
            return
        for position in pickup_turn(state):
            _check_written(position)
            tally.moves += 1
    except Exception as failure:
        what = str(failure) if isinstance(failure, SoakFailure) else repr(failure)
        played = "" if position is None else " ".join(str(e.move) for e in position.history())
        raise SoakFailure(
            f"{variant} pickup seed {seed}: {what}\n  replay: "
            f"GameState.from_dict({data!r}).play({played!r})"
        ) from failure
    tally.pickups += 1


def turn_tree(
    state: GameState, limit: int = TURN_POSITIONS
) -> Iterator[tuple[GameState, tuple[str, ...]]]:
    """The positions of the turn of the player to move in ``state`` (at most ``limit``),
    each with the moves that reach it: every legal move is followed while the same
    player is to move, or its partner answers. Each position must have a legal move, and
    so must the position after each move that ends the turn, unless the deal is over."""
    seat = state.to_move
    todo: list[tuple[GameState, tuple[str, ...]]] = [(state, ())]
    visited = 0
    while todo and visited < limit:
        position, path = todo.pop()
        visited += 1
        legal = position.legal_moves()
        _check(bool(legal), "no legal move in a deal that is not over")
        yield position, path
        for move in legal:
            after = position.apply(move)
            if after.is_over:
                continue
            if after.to_move == seat or after.phase == "answer":
                todo.append((after, (*path, str(move))))
            else:
                _check(bool(after.legal_moves()), f"no legal move for the next player after {move}")


def soak_turns(variant: str, seed: int, tally: Tally, *, options: bool = False) -> None:
    """Play one deal of ``variant`` from ``seed`` at random (with ``options``, under random
    options, scores and dealer), searching each turn with chance ``TURN_CHANCE`` (see
    the module docstring); raise SoakFailure."""
    rng = random.Random(seed)
    deal = RandomDeal.draw(variant, rng, options)
    played: list[str] = []
    try:
        state = deal.new_game(seed)
        while not state.is_over:
            _check(len(played) < MAX_PLIES, f"the deal does not end within {MAX_PLIES} plies")
            if state.phase == "draw" and rng.random() < TURN_CHANCE:
                tally.turns += 1
                for position, path in turn_tree(state):
                    try:
                        _check_written(position)
                    except SoakFailure:
                        played += path  # the replay line plays to the position
                        raise
                    tally.moves += 1
            move = rng.choice(state.legal_moves())
            played.append(str(move))
            state = state.apply(move)
    except Exception as failure:
        raise deal.failure("turns ", seed, failure, played) from failure
    tally.deals += 1


def soak(
    names: Sequence[str],
    *,
    seed: int = 0,
    deals: int | None = None,
    seconds: float | None = None,
    options: bool = False,
    matches: bool = False,
    pickups: bool = False,
    turns: bool = False,
    report: Callable[[str], None] = print,
) -> Tally:
    """Deal after deal of each variant in turn (``options``: under random options;
    ``matches``: a match each instead of a deal; ``pickups``: the search of a pickup's
    turn; ``turns``: a deal with some of its turns searched), until ``deals`` per variant
    are played or ``seconds`` of CPU time are spent; failures are collected in the
    tally."""
    kind = "matches" if matches else "pickups" if pickups else "turns" if turns else "deals"
    play = {
        "deals": soak_deal,
        "matches": soak_match,
        "pickups": soak_pickup,
        "turns": soak_turns,
    }[kind]
    tally = Tally(kind=kind)
    started = time.process_time()
    for round_ in range(deals if deals is not None else sys.maxsize):
        for name in names:
            if seconds is not None and time.process_time() - started >= seconds:
                return tally
            try:
                play(name, seed + round_, tally, options=options)
            except SoakFailure as failure:
                tally.failures.append(str(failure))
                report(f"FAIL {failure}")
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="CPU seconds (300)")
    parser.add_argument(
        "--deals", type=int, default=None, help="deals (matches) per variant (no bound)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (0)")
    parser.add_argument("--variants", default="", help="comma-separated (default: all)")
    parser.add_argument(
        "--random-options",
        action="store_true",
        help="each deal under random options, scores and dealer",
    )
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--matches",
        action="store_true",
        help=f"matches of up to {MATCH_DEALS} deals instead of single deals",
    )
    kind.add_argument(
        "--pickups",
        action="store_true",
        help="search the turns of pickups by a side not opened instead of playing deals",
    )
    kind.add_argument(
        "--turns",
        action="store_true",
        help=f"search some turns of each deal whole (a turn with chance {TURN_CHANCE})",
    )
    args = parser.parse_args(argv)
    names = [n for n in args.variants.split(",") if n] or list(canasta.variants.names())
    started = time.process_time()
    tally = soak(
        names,
        seed=args.seed,
        deals=args.deals,
        seconds=args.seconds,
        options=args.random_options,
        matches=args.matches,
        pickups=args.pickups,
        turns=args.turns,
    )
    cpu = time.process_time() - started
    under = (", random options" if args.random_options else "") + (
        f", {tally.kind}" if tally.kind != "deals" else ""
    )
    print(f"soak of {len(names)} variants ({', '.join(names)}){under}: {tally.line()}")
    print(f"CPU time: {cpu:.1f} s")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
