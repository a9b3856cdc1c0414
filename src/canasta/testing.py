"""A conformance checker for variants: random legal play that checks the engine's invariants.

Plugin authors (and this library's own test suite) call `check_variant` on a
variant. It plays seeded deals with uniformly random legal moves and, at every ply,
checks what every variant must guarantee:

- **card conservation**: every card of the variant's decks is in exactly one place (the
  hands, the pile, the stock, the melds, the threes laid face up, or the pile cards
  waiting to join the hand of a player making the initial meld);
- **immutability**: applying a move, legal or not, never changes the state it was applied
  to;
- **generator and checker agree**: every move of ``legal_moves()`` is listed once, written
  without suits, passes ``check()`` and applies; a sample of other candidate moves built from
  the hand (melds, lay-offs, pickups and discards with various cards, rank patterns and
  exact cards) is legal exactly when its suit-free form is listed, and ``apply()`` rejects
  an illegal one with `IllegalMoveError` carrying ``check()``'s
  reason;
- **serialisation**: ``to_dict``/``from_dict`` and ``to_json``/``from_json`` give back an
  equal state with the same legal moves;
- **outcome**: ``None`` until the deal is over; then one score per side, each the sum of its
  breakdown rows and a multiple of 5;
- **termination and replay**: a deal ends within ``max_plies`` plies, its ``history()``
  lists the moves played, and replaying them with ``play()`` gives the same final state.

A failure raises `ConformanceError` (an `AssertionError`) whose message names
the variant, the deal's seed, the ply and the moves that lead there, so it can be replayed
with ``canasta.new_game(variant, seed=SEED).play(MOVES)``.

Example::

    from canasta.testing import check_variant

    def test_my_variant() -> None:
        check_variant(my_variant, deals=20)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from canasta.cards import CARDS, RANKS, TWO, Card
from canasta.deal import full_deck, new_game, resolve_variant
from canasta.errors import CanastaError, IllegalMoveError, IllegalReason
from canasta.moves import Discard, Expose, LayOff, MeldCards, Move, Take, parse_move
from canasta.state import GameState
from canasta.variants.base import Variant

__all__ = ["ConformanceError", "candidate_moves", "check_deal", "check_state", "check_variant"]

# With the Modern American club features: show a special hand, lay out the held three.
_SIMPLE = ("draw", "take", "ask", "yes", "no", "end", "special", "expose:3", "expose:3C")
_PHASES = ("draw", "play", "answer", "over")
_JOKER_RANK = 13


class ConformanceError(AssertionError):
    """An engine invariant failed while playing a variant.

    Attributes:
        variant: the variant's name.
        seed: the deal's seed (``canasta.new_game(variant, seed=seed)``).
        ply: the 0-based ply of the failing state (moves played before it).
        moves: the moves played from the deal's start to the failing state.
    """

    def __init__(
        self,
        message: str,
        variant: str = "",
        seed: int | None = None,
        ply: int = 0,
        moves: Sequence[Move] = (),
    ) -> None:
        self.variant = variant
        self.seed = seed
        self.ply = ply
        self.moves = tuple(moves)
        self.detail = message
        if seed is None:
            text = message
        else:
            played = " ".join(str(m) for m in self.moves)
            text = (
                f"variant {variant!r}, seed {seed}, ply {ply}: {message}\n"
                f"  replay: canasta.new_game({variant!r}, seed={seed}).play({played!r})"
            )
        super().__init__(text)


def _fail(message: str) -> ConformanceError:
    return ConformanceError(message)


# --------------------------------------------------------------------------------------
# Invariants of one state


def _all_cards(state: GameState) -> list[int]:
    cards = [c.code for hand in state.hands for c in hand]
    cards.extend(c.code for c in state.pile + state.stock)
    cards.extend(c for side in state.melds for meld in side for c in meld.codes)
    cards.extend(c.code for side in state.threes for c in side)
    cards.extend(c.code for c in state.turn.waiting)
    cards.extend(c.code for talon in state.talons if talon is not None for c in talon)
    return cards


def _check_conservation(state: GameState, deck: list[int]) -> None:
    cards = sorted(_all_cards(state))
    if cards != deck:
        have = _tally(cards)
        want = _tally(deck)
        wrong = [
            f"{CARDS[c]}: {have.get(c, 0)} instead of {want.get(c, 0)}"
            for c in sorted(set(have) | set(want))
            if have.get(c, 0) != want.get(c, 0)
        ]
        raise _fail("cards are not conserved: " + "; ".join(wrong))


def _tally(cards: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def _is_suit_free(move: Move) -> bool:
    if isinstance(move, Discard):
        return move.card.suit is None
    if isinstance(move, Take | MeldCards | LayOff):
        return all(card.suit is None for card in move.cards)
    return True


def _strip(move: Move) -> Move:
    """The move with every exact card replaced by its rank pattern."""

    def plain(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(Card(c.rank) for c in cards)

    if isinstance(move, Discard):
        return Discard(Card(move.card.rank))
    if isinstance(move, Take):
        return Take(plain(move.cards))
    if isinstance(move, MeldCards):
        return MeldCards(plain(move.cards))
    if isinstance(move, LayOff):
        return LayOff(move.target, plain(move.cards))
    if isinstance(move, Expose):
        return Expose(Card(move.card.rank))
    return move


def _move_cards(move: Move) -> tuple[Card, ...]:
    if isinstance(move, Discard | Expose):
        return (move.card,)
    if isinstance(move, Take | MeldCards | LayOff):
        return move.cards
    return ()


def _exact_in_hand(move: Move, hand: tuple[int, ...]) -> bool:
    """Are the move's exact cards (suited cards and jokers) all in ``hand``?"""
    pool = _tally(list(hand))
    for card in _move_cards(move):
        if card.suit is None and card.rank != "*":
            continue
        if pool.get(card.code, 0) == 0:
            return False
        pool[card.code] -= 1
    return True


def _names_red_three(move: Move) -> bool:
    return any(card.rank == "3" and card.suit in ("H", "D") for card in _move_cards(move))


def _check_outcome(state: GameState) -> None:
    outcome = state.outcome()
    if not state.is_over:
        if outcome is not None:
            raise _fail(f"outcome() is {outcome!r} before the deal is over")
        return
    if outcome is None:
        raise _fail("outcome() is None although the deal is over")
    sides = state.variant.sides
    if len(outcome.scores) != sides or len(outcome.breakdown) != sides:
        raise _fail(
            f"outcome has {len(outcome.scores)} scores and {len(outcome.breakdown)} "
            f"breakdowns for {sides} sides"
        )
    for side, (score, rows) in enumerate(zip(outcome.scores, outcome.breakdown, strict=True)):
        total = sum(points for _label, points in rows)
        if total != score:
            raise _fail(
                f"side {side} scores {score} but its breakdown rows add up to {total}: {rows!r}"
            )
        if score % 5:
            raise _fail(f"side {side} scores {score}, not a multiple of 5")
    if outcome.went_out != state.went_out:
        raise _fail(f"outcome.went_out is {outcome.went_out}, state.went_out {state.went_out}")
    if outcome.went_out is not None and state.hands[outcome.went_out]:
        raise _fail(f"seat {outcome.went_out} went out but still holds cards")
    if outcome.concealed and outcome.went_out is None:
        raise _fail("the outcome is concealed but nobody went out")


def _check_round_trip(state: GameState, legal: tuple[Move, ...]) -> GameState:
    """Check both round trips; return the copy read back (a snapshot of ``state``)."""
    data = state.to_dict()
    try:
        back = GameState.from_dict(json.loads(json.dumps(data)))
    except (CanastaError, TypeError, ValueError) as exc:
        raise _fail(f"from_dict(to_dict()) fails: {exc}") from exc
    if back != state:
        raise _fail(f"from_dict(to_dict()) gives a different state: {data!r}")
    if back.legal_moves() != legal:
        raise _fail(
            "the state read back by from_dict has other legal moves: "
            f"{_texts(back.legal_moves())} instead of {_texts(legal)}"
        )
    text = state.to_json()
    try:
        again = GameState.from_json(text)
    except CanastaError as exc:
        raise _fail(f"from_json(to_json()) fails: {exc}") from exc
    if again != state or again.legal_moves() != legal:
        raise _fail(f"from_json(to_json()) gives a different state or moves: {text}")
    return back


def _texts(moves: Sequence[Move]) -> str:
    return " ".join(str(m) for m in moves) or "(none)"


# --------------------------------------------------------------------------------------
# Candidate moves


def _pattern(rank: int) -> str:
    return "*" if rank == _JOKER_RANK else RANKS[rank]


def _wild_texts(twos: int, jokers: int, most: int) -> list[str]:
    return [
        "2" * t + "*" * j
        for t in range(min(twos + 1, most) + 1)
        for j in range(min(jokers + 1, most) + 1)
    ]


def candidate_moves(state: GameState, rng: random.Random | None = None) -> list[str]:
    """Move texts worth trying in ``state``: legal or not, built from the mover's hand.

    The set covers every kind of move: the simple ones, discards of each rank and of each
    exact card held (and of cards not held), pickups, melds and lay-offs with zero to
    ``count + 1`` naturals of each rank and up to four wild cards, mixed-rank groups, and
    versions of the legal moves that name exact cards (held or not). Sorted, no duplicates.
    """
    rng = rng or random.Random(0)
    texts: set[str] = set(_SIMPLE)
    seat = state.to_move
    hand = tuple(c.code for c in state.hand(seat)) if seat is not None else ()
    counts = [0] * 14
    for code in hand:
        counts[code >> 2] += 1
    twos, jokers = counts[TWO], counts[_JOKER_RANK]
    held = [r for r in range(14) if counts[r]]
    naturals = [r for r in held if r not in (TWO, _JOKER_RANK)]
    absent = [r for r in range(13) if r != TWO and not counts[r]]
    wilds = _wild_texts(twos, jokers, 4)
    # Discards: each rank, each exact card, a rank and a card that are not held.
    for r in held:
        texts.add(f"discard:{_pattern(r)}")
    for code in set(hand):
        texts.add(f"discard:{CARDS[code]}")
    if absent:
        texts.add(f"discard:{RANKS[rng.choice(absent)]}")
    missing = [c for c in range(52) if c not in hand]
    if missing:
        texts.add(f"discard:{CARDS[rng.choice(missing)]}")
    # Pickups: the top card's rank (and another held rank) with naturals and wilds.
    top = state.pile_top
    top_ranks = [top.code >> 2] if top is not None else []
    if naturals:
        top_ranks.append(rng.choice(naturals))
    for r in top_ranks:
        if r in (TWO, _JOKER_RANK):
            continue
        for k in range(counts[r] + 2):
            for w in wilds:
                if k or w:
                    texts.add(f"take:{RANKS[r] * k}{w}")
    # Melds: each natural rank held (threes included) and one rank not held.
    meld_ranks = [*naturals, *([rng.choice(absent)] if absent else [])]
    for r in meld_ranks:
        for k in range(1, counts[r] + 2):
            for w in wilds:
                texts.add(f"meld:{RANKS[r] * k}{w}")
    for w in wilds:
        if w:
            texts.add(f"meld:{w}")
    if len(naturals) >= 2:
        a, b = rng.sample(naturals, 2)
        texts.add(f"meld:{RANKS[a] * 2}{RANKS[b]}")
        texts.add(f"meld:{RANKS[a]}{RANKS[b]}2")
    # Lay-offs: on each of the side's melds, on the wild meld, on a rank with no meld.
    targets: set[str] = {"*"}
    if seat is not None:
        for meld in state.melds[state.meld_side(seat)]:
            targets.add(meld.rank_text)
    if absent:
        targets.add(RANKS[rng.choice(absent)])
    targets.update(RANKS[r] for r in rng.sample(naturals, min(2, len(naturals))))
    for target in sorted(targets):  # in a fixed order: the rng is drawn from inside
        r = _JOKER_RANK if target == "*" else RANKS.index(target)
        ks = range(1) if target == "*" else range(counts[r] + 2)
        for k in ks:
            for w in wilds:
                if k or w:
                    texts.add(f"add:{target}+{target * k if k else ''}{w}")
        if naturals and target != "*":
            other = rng.choice(naturals)
            if other != r:
                texts.add(f"add:{target}+{RANKS[other]}")
    # Exact-card versions of the legal moves: held cards, and one card that is not held.
    for move in state.legal_moves():
        cards = _move_cards(move)
        if not cards:
            continue
        exact = _exact_version(cards, hand, rng)
        if exact is not None:
            texts.add(_with_cards(move, exact))
            wrong = _swap_unheld(exact, hand, rng)
            if wrong is not None:
                texts.add(_with_cards(move, wrong))
    return sorted(texts)


def _exact_version(
    cards: tuple[Card, ...], hand: tuple[int, ...], rng: random.Random
) -> list[str] | None:
    pool = list(hand)
    out: list[str] = []
    for card in cards:
        if card.rank == "*":
            out.append("*")
            continue
        choices = [c for c in pool if CARDS[c].rank == card.rank]
        if not choices:
            return None
        code = rng.choice(choices)
        pool.remove(code)
        out.append(str(CARDS[code]))
    return out


def _swap_unheld(exact: list[str], hand: tuple[int, ...], rng: random.Random) -> list[str] | None:
    positions = [i for i, text in enumerate(exact) if text != "*"]
    if not positions:
        return None
    i = rng.choice(positions)
    rank = exact[i][0]
    unheld = [s for s in "SHDC" if (RANKS.index(rank) * 4 + "SHDC".index(s)) not in hand]
    if not unheld:
        return None
    return [*exact[:i], rank + rng.choice(unheld), *exact[i + 1 :]]


def _with_cards(move: Move, cards: list[str]) -> str:
    body = "".join(cards)
    if isinstance(move, LayOff):
        return f"add:{move.target}+{body}"
    return f"{move.kind}:{body}"


# --------------------------------------------------------------------------------------
# Checking a state


def check_state(
    state: GameState,
    rng: random.Random | None = None,
    candidates: int = 30,
    deck: list[int] | None = None,
) -> None:
    """Check the invariants of one state; raise `ConformanceError` on a failure.

    Checks card conservation (against ``deck``, default the variant's full decks), the
    phase and seat fields, the legal-move list (no duplicates, suit-free, each move passing
    ``check()`` and applying without changing ``state``), up to ``candidates`` other
    candidate moves from `candidate_moves`, the serialisation round trips and
    ``outcome()``.
    """
    rng = rng or random.Random(0)
    if deck is None:
        deck = sorted(full_deck(state.variant))
    _check_conservation(state, deck)
    if state.phase not in _PHASES:
        raise _fail(f"unknown phase {state.phase!r}")
    if state.is_over != (state.phase == "over") or state.is_over != (state.to_move is None):
        raise _fail(
            f"phase {state.phase!r}, is_over {state.is_over} and to_move {state.to_move} disagree"
        )
    legal = state.legal_moves()
    if state.is_over and legal:
        raise _fail(f"the deal is over but legal_moves() lists {_texts(legal)}")
    if not state.is_over and not legal:
        raise _fail("the deal is not over but legal_moves() is empty")
    if len(set(legal)) != len(legal):
        dupes = sorted({str(m) for m in legal if legal.count(m) > 1})
        raise _fail(f"legal_moves() lists moves more than once: {' '.join(dupes)}")
    snapshot = _check_round_trip(state, legal)
    for move in legal:
        if not _is_suit_free(move):
            raise _fail(f"legal_moves() lists {move}, which names a suit")
        if parse_move(str(move)) != move:
            raise _fail(f"parse_move(str(m)) != m for listed move {move}")
        reason = state.check(move)
        if reason is not None:
            raise _fail(f"listed move {move} fails check(): {reason.value}")
        if not state.is_legal(str(move)):
            raise _fail(f"listed move {move} is not is_legal() as text")
        try:
            after = state.apply(move)
        except CanastaError as exc:
            raise _fail(f"listed move {move} does not apply: {exc}") from exc
        _check_conservation_after(after, deck, move)
        if state != snapshot:
            raise _fail(f"apply({move}) changed the state it was applied to")
    _check_candidates(state, legal, snapshot, rng, candidates, deck)
    # The state's caches must survive the moves tried on it: generate the list afresh.
    if GameState.from_dict(state.to_dict()).legal_moves() != legal:
        raise _fail("legal_moves() changes once moves have been tried on the state")
    _check_outcome(state)


def _check_conservation_after(after: GameState, deck: list[int], move: Move) -> None:
    try:
        _check_conservation(after, deck)
    except ConformanceError as exc:
        raise _fail(f"after {move}: {exc.detail}") from None


def _check_candidates(
    state: GameState,
    legal: tuple[Move, ...],
    snapshot: GameState,
    rng: random.Random,
    limit: int,
    deck: list[int],
) -> None:
    listed = set(legal)
    pool = candidate_moves(state, rng)
    seat = state.to_move
    hand = tuple(c.code for c in state.hand(seat)) if seat is not None else ()
    tried = 0
    for text in rng.sample(pool, len(pool)):
        if tried >= limit:
            break
        move = parse_move(text)
        if move in listed:
            continue
        tried += 1
        reason = state.check(move)
        if reason is not None and not isinstance(reason, IllegalReason):
            raise _fail(f"check({text}) returned {reason!r}, not an IllegalReason")
        if state.is_legal(move) != (reason is None):
            raise _fail(f"is_legal({text}) disagrees with check()")
        if not _exact_in_hand(move, hand):
            expected: bool | None = False
        elif _names_red_three(move):
            expected = None  # a red three is not interchangeable with a black one
        else:
            expected = _strip(move) in listed
        if expected is not None and expected != (reason is None):
            if expected:
                raise _fail(
                    f"{text} is rejected by check() ({reason.value if reason else ''}) "
                    f"although {_strip(move)} is listed"
                )
            raise _fail(f"{text} passes check() but is not in legal_moves(): {_texts(legal)}")
        if reason is None:
            try:
                after = state.apply(move)
            except CanastaError as exc:
                raise _fail(f"{text} passes check() but apply() raises {exc}") from exc
            _check_conservation_after(after, deck, move)
        else:
            try:
                state.apply(move)
            except IllegalMoveError as exc:
                if exc.reason is not reason:
                    raise _fail(
                        f"apply({text}) raises with reason {exc.reason.value!r}, check() "
                        f"says {reason.value!r}"
                    ) from None
            except Exception as exc:
                raise _fail(f"apply({text}) raises {exc!r}, not IllegalMoveError") from exc
            else:
                raise _fail(f"apply({text}) succeeds although check() says {reason.value!r}")
        if state != snapshot:
            raise _fail(f"apply({text}) changed the state it was applied to")


# --------------------------------------------------------------------------------------
# Playing deals


def check_deal(
    variant: Variant | str | Mapping[str, Any],
    seed: int,
    max_plies: int = 20000,
    candidates: int = 30,
) -> GameState:
    """Play one seeded deal with random legal moves, checking every state; return the end.

    The deal is ``canasta.new_game(variant, seed=seed)``; moves are drawn from
    ``random.Random(f"moves-{seed}")``.
    """
    resolved = resolve_variant(variant)
    name = resolved.name
    deck = sorted(full_deck(resolved))
    rng = random.Random(f"moves-{seed}")
    start = new_game(resolved, seed=seed)
    state = start
    moves: list[Move] = []
    try:
        while True:
            check_state(state, rng, candidates, deck)
            if state.is_over:
                break
            if len(moves) >= max_plies:
                raise _fail(f"the deal has not ended after {max_plies} plies")
            move = rng.choice(state.legal_moves())
            state = state.apply(move)
            moves.append(move)
        played = tuple(event.move for event in state.history())
        if played != tuple(moves):
            raise _fail(f"history() lists {_texts(played)}")
        if start.play(moves) != state:
            raise _fail("replaying the moves with play() gives another final state")
    except ConformanceError as exc:
        raise ConformanceError(exc.detail, name, seed, len(moves), moves) from exc
    except Exception as exc:  # an engine crash: report it with the seed and the moves
        raise ConformanceError(f"unexpected {exc!r}", name, seed, len(moves), moves) from exc
    return state


def check_variant(
    variant: Variant | str | Mapping[str, Any],
    deals: int = 20,
    seed: int = 0,
    max_plies: int = 20000,
) -> None:
    """Play ``deals`` random deals of ``variant`` and check the engine's invariants.

    See the module docstring for the list of invariants. Each deal takes about half a
    second to a second: every ply checks all listed moves, 30 other candidates and both
    serialisation round trips.

    Args:
        variant: a `Variant`, a registered name or a config
            mapping. Positions name their variant, so a plugin's variant must be
            registered.
        deals: how many deals to play; deal ``i`` is ``new_game(variant, seed=seed + i)``.
        seed: the seed of the first deal.
        max_plies: a deal that has not ended after this many moves fails.

    Raises:
        ConformanceError: an ``AssertionError`` naming the variant, the seed, the ply and
            the moves that lead to the first failure.
        ValueError: ``deals`` is negative or ``max_plies`` is below 1.
    """
    if deals < 0 or max_plies < 1:
        raise ValueError(f"deals must be >= 0 and max_plies >= 1, got {deals} and {max_plies}")
    for i in range(deals):
        check_deal(variant, seed + i, max_plies)
