"""Determinization: `sample_state` deals the cards a seat cannot see into a full state.

For bots that search: the sampled state gives the same observation for that seat, and it
keeps the deal's public history and the table's memory, so the seats of the sampled world
remember what the real ones do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from canasta._input import excerpt
from canasta.cards import CARDS, JOKER_RANK, THREE, TWO
from canasta.deal import full_deck
from canasta.errors import ArgumentError, PositionError
from canasta.moves import Answer, Discard
from canasta.observation import CoveredDiscard, Observation
from canasta.state import GameState
from canasta.table import CANASTA_SIZE, evolve, with_discards, with_last_move

__all__ = ["sample_state"]


#: Deals tried for an observation in which a hidden hand must be able to go out (a seat
#: that asked partner, or melded black threes) before giving up, and how many of them are
#: dealt at random before the hand is built to go out.
_TRIES = 400
_RANDOM_TRIES = 40
#: How often a hand built to go out puts a wild card into a group.
_WILD_SHARE = 0.25


def sample_state(observation: Observation, rng: random.Random | None = None) -> GameState:
    """A full game state consistent with ``observation``, hidden cards dealt at random.

    The cards the seat has not seen are shuffled and dealt to the other hands (after the
    cards known to be there) and to the stock, each with its observed size. Threes that the
    variant lays face up are dealt into a hand only where the rules let one stay there (a
    Modern American player who may hold one three, for instance). A player who asked partner
    (or melded black threes) this turn could go out, so such a hidden hand is dealt again
    until it can: the player to move always has a legal move, and after a pending question a
    "yes" can be honoured (when no such deal turns up in 400 tries, which happens with the
    large hands of the six-player games, the last deal is made without that condition, so
    its player may have no legal move left). The result gives an observation equal to
    ``observation`` for the same seat, with the same history.

    Args:
        observation: an observation made by `canasta.GameState.observe`.
        rng: the source of randomness (a new unseeded ``random.Random`` by default).

    Returns:
        A `GameState`.

    Raises:
        ArgumentError: ``observation`` is not an `Observation`, or ``rng`` not a
            ``random.Random``.
        PositionError: the observation cannot be completed (it is inconsistent).
    """
    if not isinstance(observation, Observation):
        raise ArgumentError(
            "sample_state deals from an Observation (state.observe(seat)), "
            f"got {type(observation).__name__}"
        )
    if rng is None:
        rng = random.Random()
    elif not isinstance(rng, random.Random):
        raise ArgumentError(f"rng must be a random.Random, got {excerpt(rng)}")
    unseen = _unseen(observation)
    player = _bound_to_go_out(observation)
    if player is None:
        return _deal(observation, unseen, rng, {})
    for attempt in range(_TRIES):
        cards = list(unseen)
        # Dealt at random first; a large hand rarely goes out that way, so later tries
        # build it from groups of the unseen cards (a hand that can go out, though not
        # drawn with the odds of a random one).
        fixed = {} if attempt < _RANDOM_TRIES else _going_out_hand(observation, player, cards, rng)
        if fixed is None:
            continue
        state = _deal(observation, cards, rng, fixed)
        if _goes_on(state):
            return state
    # A real observation always has such a deal, but the tries may miss it: deal as if
    # the hidden player were free, rather than fail a caller whose observation is sound.
    return _deal(observation, unseen, rng, {})


def _unseen(obs: Observation) -> list[int]:
    """The cards ``obs``'s seat has not seen (hidden hands and the stock), in deck order."""
    used: list[int] = [c.code for c in obs.hand]
    used += [c for side in obs.melds for m in side for c in m.codes]
    used += [c.code for side in obs.threes for c in side]
    used += [c.code for c in obs.pile_seen]
    used += [c.code for c in obs.turn.waiting]
    for seat, known_cards in enumerate(obs.known):
        if seat != obs.seat:
            used += [c.code for c in known_cards]
    left = Counter(full_deck(obs.variant))
    left.subtract(used)
    if any(n < 0 for n in left.values()):
        raise PositionError("observation uses more cards than the variant's decks hold")
    return list(left.elements())


def _bound_to_go_out(obs: Observation) -> int | None:
    """The seat whose hidden hand must be able to go out this turn, because it asked
    partner (the question pending, or answered yes) or melded black threes; else None."""
    player = _turn_owner(obs)
    if player is None or obs.is_over:
        return None
    if obs.phase != "answer" and not obs.turn.must_go_out:
        return None
    return player if player != obs.seat else None


def _going_out_hand(
    obs: Observation, player: int, cards: list[int], rng: random.Random
) -> dict[int, tuple[int, ...]] | None:
    """A hand for ``player`` that may go out, its new cards taken out of the unseen
    ``cards``: the cards known to be there, groups of three of a rank, cards of the ranks
    its side has melded or the hand groups, wild cards among them, and one card to
    discard. None when the unseen cards do not give one this way."""
    rng.shuffle(cards)
    size = obs.hand_sizes[player]
    known = [c.code for c in obs.known[player]]
    on_stock = _turn_card_on_stock(obs)  # it stays there
    by_rank: dict[int, list[int]] = {}
    for code in cards:
        if code >> 2 != THREE and code != on_stock:
            by_rank.setdefault(code >> 2, []).append(code)
    wilds = by_rank.pop(TWO, []) + by_rank.pop(JOKER_RANK, [])
    melds = obs.melds[obs.variant.side_of(player)]
    layable = {m.rank for m in melds} | {code >> 2 for code in known}
    chosen: list[int] = []
    # Going out needs the variant's canastas: the side's biggest melds are completed,
    # then new ones made, of naturals first.
    need = obs.variant.canastas_to_go_out - sum(1 for m in melds if m.is_canasta)
    growing = sorted((m for m in melds if not m.is_canasta), key=lambda m: -m.size)
    targets = [(m.rank, CANASTA_SIZE - m.size) for m in growing if m.rank in by_rank]
    targets += [(r, CANASTA_SIZE) for r, left in by_rank.items() if len(left) >= 4]
    for rank, missing in targets[: max(need, 0)]:
        naturals = by_rank[rank][:missing]
        del by_rank[rank][:missing]
        chosen += naturals + [wilds.pop() for _ in range(missing - len(naturals)) if wilds]
        layable.add(rank)
    while len(known) + len(chosen) < size - 1:
        ranks = [r for r, left in by_rank.items() if left and (r in layable or len(left) >= 3)]
        if not ranks:
            return None
        rank = rng.choice(ranks)
        count = 1 if rank in layable else 3
        if wilds and rng.random() < _WILD_SHARE:
            chosen.append(wilds.pop())  # a wild card joins the group or the meld
            count -= 1
        chosen += by_rank[rank][:count]
        del by_rank[rank][:count]
        layable.add(rank)
    chosen = chosen[: max(0, size - 1 - len(known))]
    left = Counter(cards)
    left.subtract(chosen)
    laid_out = obs.variant.laid_out_threes
    discard = next((c for c in left.elements() if c not in laid_out and c != on_stock), None)
    if discard is None:
        return None
    chosen.append(discard)
    left.subtract([discard])
    cards[:] = list(left.elements())
    return {player: tuple(sorted(known + chosen))}


def _turn_card_on_stock(obs: Observation) -> int | None:
    """The code of the turn card where it lies face up on the stock (public, not drawn)."""
    # Spec §3.5.11.2 TC2.
    card = obs.turn_card
    return None if card is None or obs.turn_card_drawn else card.code


def _goes_on(state: GameState) -> bool:
    """The player to move has a legal move, and after a pending question, so has the
    asker once partner says yes."""
    # Spec §2.11 [LIB]: a player may ask only with a way to go out, so "yes" can be kept.
    if state.phase == "answer":
        state = state.apply(Answer(True))
    return bool(state.legal_moves())


def _turn_owner(obs: Observation) -> int | None:
    """The seat whose turn it is (the asker while partner answers); None once over."""
    if obs.phase == "answer" and obs.to_move is not None:
        # The question goes to the next seat of the asker's side.
        return (obs.to_move - obs.variant.sides) % obs.players
    return obs.to_move


def _place_threes(
    cards: list[int],
    threes: frozenset[int],
    free: dict[int, int],
    room: dict[int, int],
    elsewhere: int,
    rng: random.Random,
) -> dict[int, list[int]]:
    """The ``threes`` among the unseen ``cards`` placed in the hands that may take them
    (each ``free`` places, ``room`` of them for threes) or left for the stock and talons
    (``elsewhere`` places): each three goes to a place chosen at random among those that
    may hold it. The threes placed in hands leave ``cards``."""
    free, room = dict(free), dict(room)
    placed: dict[int, list[int]] = {seat: [] for seat in free}
    for code in [c for c in cards if c in threes]:
        seats = [seat for seat in free if room[seat] and free[seat]]
        place = rng.randrange(elsewhere + sum(free[seat] for seat in seats) or 1)
        if place < elsewhere:
            elsewhere -= 1
            continue
        place -= elsewhere
        for seat in seats:
            if place < free[seat]:
                break
            place -= free[seat]
        else:
            raise PositionError("cannot complete the observation: too many unseen threes")
        placed[seat].append(code)
        free[seat] -= 1
        room[seat] -= 1
        cards.remove(code)
    return placed


def _deal(
    obs: Observation, cards: list[int], rng: random.Random, fixed: dict[int, tuple[int, ...]]
) -> GameState:
    """``cards`` (the unseen ones) shuffled and dealt to the hidden hands (but those of
    ``fixed``, dealt already) and the stock."""
    variant = obs.variant
    laid_out = variant.laid_out_threes
    template = obs._template
    rng.shuffle(cards)

    def take(count: int, allowed: Callable[[int], bool], what: str) -> list[int]:
        chosen: list[int] = []
        rest: list[int] = []
        for code in cards:
            if len(chosen) < count and allowed(code):
                chosen.append(code)
            else:
                rest.append(code)
        if len(chosen) < count:
            raise PositionError(f"cannot complete the observation: too few unseen cards for {what}")
        cards[:] = rest
        return chosen

    def may_hold_threes(seat: int) -> bool:
        # Threes that go face up stay in a hand only once the deal is over (one drawn as
        # the last stock card, spec §3.5.2) or before the seat's first turn (D3).
        return obs.is_over or (not variant.declares_threes_at_deal and seat != obs.to_move)

    def may_keep_a_three(seat: int) -> bool:
        # Spec §3.5.11.4 H1, H3: one three stays in the hand of a player whose side has not
        # opened; once the side opens, until the holder's next turn begins (the opener's,
        # until its opening turn ends). So the side opened this turn, or in the turn of a
        # partner who melded then, since this seat's last turn, in which it did not meld.
        # (When a partner melded is not shown: the three is allowed if one did.)
        if not variant.holds_three:
            return False
        side = variant.side_of(seat)
        if not obs.opened[side]:
            return True
        owner = _turn_owner(obs)
        assert owner is not None  # not over: see may_hold_threes
        opened_now = variant.side_of(owner) == side and obs.turn.opening > 0
        if seat == owner or obs.melded_seats[seat]:
            return seat == owner and opened_now
        other = (seat + 1) % obs.players
        while other != owner:
            if variant.side_of(other) == side and obs.melded_seats[other]:
                return True
            other = (other + 1) % obs.players
        return opened_now

    top: list[int] = []
    on_stock = _turn_card_on_stock(obs)
    if on_stock is not None:
        # The turn card lies face up on top of the stock (taken first: the covered discard
        # below may be any other card, but not that one).
        top = take(1, lambda c: c == on_stock, "the turn card")
    # Spec §3.5.11.5: a discard that went out face down, which this seat did not see, is
    # any card but a three (dealt before the hands: they may take threes once the deal is
    # over).
    covered: tuple[int, ...] = ()
    if obs.pile_size > len(template.pile):
        covered = tuple(take(1, lambda c: c >> 2 != THREE, "the covered discard"))
    dealt = [s for s in range(obs.players) if s != obs.seat and s not in fixed]
    free = {s: obs.hand_sizes[s] - len(obs.known[s]) for s in dealt}
    room = {s: free[s] if may_hold_threes(s) else int(may_keep_a_three(s)) for s in dealt}
    placed: dict[int, list[int]] = {s: [] for s in dealt}
    club = template.club
    # Where some hands may take threes and others may not (or only one), hands dealt in
    # turn could leave the last ones a three they cannot take: the threes are placed
    # first, each where a free place holds it, and the hands then take no more.
    preplaced = any(room[s] for s in dealt) and any(room[s] < free[s] for s in dealt)
    if preplaced:
        elsewhere = obs.stock_size - len(top)
        if club is not None and club.talons:
            elsewhere += sum(
                n for t, n in zip(club.talons, obs.talons_left, strict=True) if t is not None
            )
        placed = _place_threes(cards, laid_out, free, room, elsewhere, rng)
    hands: list[tuple[int, ...]] = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat:
            hands.append(template.hands[seat])
        elif seat in fixed:
            hands.append(fixed[seat])
        else:
            known = [c.code for c in obs.known[seat]] + placed[seat]
            any_card = room[seat] == free[seat] and not preplaced
            allowed = (lambda c: True) if any_card else (lambda c: c not in laid_out)
            extra = take(size - len(known), allowed, f"seat {seat}'s hand")
            hands.append(tuple(sorted(known + extra)))
    # The talons dealt face down (D31): unseen cards of the sizes shown.
    if club is not None and club.talons:
        talons = tuple(
            None if t is None else tuple(take(size, lambda c: True, "a talon"))
            for t, size in zip(club.talons, obs.talons_left, strict=True)
        )
        club = club._replace(talons=talons)
    stock = top + take(obs.stock_size - len(top), lambda c: True, "the stock")
    table = evolve(
        template, hands=tuple(hands), stock=tuple(stock), pile=template.pile + covered, club=club
    )
    memory, log = obs._memory, obs._log
    if covered:
        discarder = obs.went_out
        assert discarder is not None
        memory = with_discards(memory, discarder, memory.discarded[discarder] + covered)
        if log is not None and type(log.move) is CoveredDiscard:
            log = with_last_move(log, Discard(CARDS[covered[0]]), covered)
    return GameState(table, memory, log)
