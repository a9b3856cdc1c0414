"""Observations: what one seat may know (api.md §5), and sampling states from them."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import sample_state
from canasta.observation import _MADE_WHEN_READ, Observation, observe

#: The registered variants, and the club preset with its talons dealt face down.
NAMES: list[str | canasta.Variant] = [
    *canasta.variants.names(),
    canasta.variants.get("modern-american-club", mac_talon_source="set_aside"),
]
#: Modern American with the going-out discard face down (spec §3.5.11.5).
COVERED = canasta.variants.get("modern-american", mac_covered_last_discard=True)
SETTINGS = settings(
    derandomize=True,
    database=None,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _played(name: str | canasta.Variant, seed: int, plies: int) -> canasta.GameState:
    """A deal after up to ``plies`` random moves (a stuck position ends the walk)."""
    rng = random.Random(seed)
    state = canasta.new_game(name, seed=seed)
    for _ in range(plies):
        moves = state.legal_moves()
        if state.is_over or not moves:
            break
        state = state.apply(rng.choice(moves))
    return state


def _codes(cards: tuple[canasta.Card, ...]) -> Counter[int]:
    return Counter(c.code for c in cards)


def _twin(state: canasta.GameState, seat: int, rng: random.Random) -> canasta.GameState:
    """The same deal with everything ``seat`` cannot see dealt anew.

    The other hands (except the cards known to be in them) and the stock are shuffled
    together and dealt back with the same sizes. The hands that the position's legality
    rests on stay as they are: the player to move's (it has a legal move) and, when a
    question is pending, the asker's (it could go out); a position with other cards there
    could not be read (`from_dict` refuses positions in which play is stuck).
    """
    obs = observe(state, seat)
    laid_out = state.variant.laid_out_threes
    fixed = {seat}
    if state.to_move is not None:
        fixed.add(state.to_move)
        if state.phase == "answer":
            fixed.add((state.to_move - state.variant.sides) % state.variant.players)
    pool: list[int] = [c.code for c in state.stock]
    # Modern American: the face-up turn card on top of the stock stays there; the talons
    # dealt face down are hidden cards too.
    stock_top = [pool.pop(0)] if obs.turn_card is not None and not obs.turn_card_drawn else []
    talons = state.talons
    pool += [c.code for talon in talons if talon is not None for c in talon]
    kept: dict[int, list[int]] = {}
    for other, hand in enumerate(state.hands):
        if other in fixed:
            continue
        rest = _codes(hand) - _codes(obs.known[other])
        keep = list(_codes(obs.known[other]).elements())
        for code in rest.elements():
            (keep if code in laid_out else pool).append(code)
        kept[other] = keep
    # Read from the state, not from the observation under test.
    covered = state.to_dict().get("pile_covered") is True and seat != state.went_out
    if covered:
        # The discard that went out face down, unseen by this seat, goes back to the pool.
        pool.append(state.pile[-1].code)
    rng.shuffle(pool)
    # Threes that are laid face up never go into a hand: they stay in the stock.
    threes = [c for c in pool if c in laid_out]
    pool = [c for c in pool if c not in laid_out]
    hands = []
    for other, hand in enumerate(state.hands):
        if other in fixed:
            hands.append(tuple(c.code for c in hand))
            continue
        need = len(hand) - len(kept[other])
        hands.append(tuple(kept[other] + pool[:need]))
        del pool[:need]
    data = state.to_dict()
    if covered:
        # Any card but a three may have been that discard.
        top = _text(pool.pop())
        data["pile"] = " ".join([*data["pile"].split()[:-1], top])
        went_out = state.went_out
        assert went_out is not None
        if "discarded" in data:
            data["discarded"][went_out] = " ".join([*data["discarded"][went_out].split()[:-1], top])
    pool += threes
    rng.shuffle(pool)
    if talons:
        sizes = state.variant.talon_sizes
        data["talons"] = {}
        for size, talon in zip(sizes, talons, strict=True):
            data["talons"][str(size)] = None if talon is None else " ".join(map(_text, pool[:size]))
            del pool[: 0 if talon is None else size]
    data["hands"] = [" ".join(str(canasta.Card.parse(_text(c))) for c in h) for h in hands]
    data["stock"] = " ".join(_text(c) for c in stock_top + pool)
    return canasta.GameState.from_dict(data)


def _text(code: int) -> str:
    from canasta.cards import CARDS

    return str(CARDS[code])


def _covered_end(seed: int, seat: int) -> canasta.GameState:
    """A Modern American deal with the discard that goes out face down, just ended by
    ``seat``: its side had two canastas, it held one card and discarded it; the other
    hands, the pile and the stock are dealt at random (random play seldom goes out)."""
    rng = random.Random(seed)
    canastas = ["7S 7S 7H 7H 7D 7D 7C", "KS KS KH KH KD KD KC"]
    deck = Counter(canasta.deal.full_deck(COVERED))
    deck.subtract(c.code for c in canasta.parse_cards(" ".join(canastas)))
    cards = list(deck.elements())
    rng.shuffle(cards)
    naturals = [c for c in cards if _text(c)[0] != "3"]
    last = naturals.pop()
    hands = [
        [last] if s == seat else [naturals.pop() for _ in range(rng.randint(1, 11))]
        for s in range(4)
    ]
    pile = [naturals.pop() for _ in range(rng.randint(0, 5))]
    used = Counter(c for h in hands for c in h) + Counter(pile)
    stock = list((Counter(cards) - used).elements())
    rng.shuffle(stock)
    melds: list[list[str]] = [[], []]
    melds[seat % 2] = canastas
    state = canasta.GameState.from_dict(
        {
            "variant": COVERED.to_config(),
            "to_move": seat,
            "phase": "play",
            "hands": [" ".join(map(_text, h)) for h in hands],
            "pile": " ".join(map(_text, pile)),
            "stock": " ".join(map(_text, stock[: rng.randint(1, 40)])),
            "melds": melds,
        }
    )
    return state.apply(f"discard:{_text(last)}")


states = st.one_of(
    st.builds(
        _played,
        name=st.sampled_from([*NAMES, COVERED]),
        seed=st.integers(0, 10**6),
        plies=st.integers(0, 160),
    ),
    st.builds(_covered_end, seed=st.integers(0, 10**6), seat=st.integers(0, 3)),
)


@SETTINGS
@given(state=states, data=st.data())
def test_hidden_information_does_not_change_the_observation(
    state: canasta.GameState, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, state.variant.players - 1))
    twin = _twin(state, seat, random.Random(data.draw(st.integers(0, 1000))))
    assert observe(twin, seat) == observe(state, seat)
    # Without the remembered part both are read from positions: those agree as well.
    plain = canasta.GameState.from_dict(state.to_dict())
    assert observe(twin, seat).to_dict() == observe(plain, seat).to_dict()


@SETTINGS
@given(state=states, data=st.data())
def test_sampled_state_has_the_same_observation(
    state: canasta.GameState, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, state.variant.players - 1))
    obs = observe(state, seat)
    sampled = sample_state(obs, random.Random(data.draw(st.integers(0, 1000))))
    assert observe(sampled, seat) == obs
    # The sample respects what the seat remembers.
    for other, known in enumerate(obs.known):
        assert not _codes(known) - _codes(sampled.hands[other])
    seen = obs.pile_seen
    pile = sampled.pile[:-1] if obs.pile_covered and obs.pile_top is None else sampled.pile
    assert pile[len(pile) - len(seen) :] == seen
    # Never more copies of a card than the decks hold.
    deck = Counter(canasta.deal.full_deck(state.variant))
    everything = _codes(sampled.stock) + _codes(sampled.pile)
    for hand in sampled.hands:
        everything += _codes(hand)
    for side in sampled.melds:
        for meld in side:
            everything += Counter(meld.codes)
    for threes in sampled.threes:
        everything += _codes(threes)
    everything += _codes(sampled.turn.waiting)
    assert not everything - deck


@SETTINGS
@given(state=states, data=st.data())
def test_the_observation_tells_the_truth(state: canasta.GameState, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.variant.players - 1))
    obs = observe(state, seat)
    assert obs.hand == state.hand(seat)
    assert obs.hand_sizes == tuple(len(h) for h in state.hands)
    assert obs.stock_size == len(state.stock) and obs.pile_size == len(state.pile)
    # A covered discard (Modern American) is hidden from all but the seat that made it.
    hidden = obs.pile_covered and seat != state.went_out
    assert obs.pile_covered == (state.to_dict().get("pile_covered") is True)
    assert obs.pile_top == (None if hidden else state.pile_top)
    assert obs.melds == state.melds and obs.frozen == state.frozen
    assert obs.to_move == state.to_move and obs.phase == state.phase
    # Legal moves only for the seat to act.
    assert obs.legal_moves == (state.legal_moves() if state.to_move == seat else ())
    # What the seat remembers is true: known cards are in the hands, the seen pile is on top.
    for other, known in enumerate(obs.known):
        assert not _codes(known) - _codes(state.hands[other])
    seen = obs.pile_seen
    pile = state.pile[:-1] if hidden else state.pile
    assert pile[len(pile) - len(seen) :] == seen
    assert (len(seen) >= 1) == bool(pile)
    # Draws never show their cards, not even to the seat that drew; nor does a covered
    # discard to the other seats.
    for event in obs.history:
        if event.move.kind in ("draw", "covered"):
            assert event.cards == ()
    if hidden and obs.history:
        assert obs.history[-1].move.kind == "covered"
    json.dumps(obs.to_dict())


def test_observation_fields_for_a_fresh_deal() -> None:
    state = canasta.new_game("classic", seed=5)
    obs = state.observe(0)
    assert isinstance(obs, Observation)
    assert obs.seat == 0 and obs.side == 0 and obs.to_act
    assert obs.partner_seats == (2,)
    assert obs.legal_moves == state.legal_moves()
    assert obs.history == () and obs.known == ((), (), (), ())
    # Every card of the pile was turned up face up at the deal: the whole pile is public.
    assert obs.pile_seen == tuple(canasta.Card.parse(c) for c in state.to_dict()["pile"].split())
    assert obs.pile_seen[-1] == state.pile_top
    assert obs.minimum() == 50
    other = state.observe(1)
    assert other.legal_moves == () and not other.to_act
    assert other.hand == state.hand(1)
    data = obs.to_dict()
    assert data["hand"] == " ".join(str(c) for c in state.hand(0))
    assert data["hand_sizes"] == [11, 11, 11, 11]
    assert "hands" not in data and "stock" not in data
    assert data["blocked"] == obs.blocked


def test_an_observation_is_built_as_its_class_builds_one() -> None:
    # observe() sets the instance dictionary directly: it must hold every field but those
    # made when first read, and nothing else, so that equality, hashing, copies and
    # pickles work as for any other.
    fields = {a.name for a in attrs.fields(Observation)}
    made_when_read = set(_MADE_WHEN_READ)
    assert made_when_read < fields
    rng = random.Random(3)
    for variant in [*NAMES, COVERED]:
        state = canasta.new_game(variant, seed=3)
        while True:
            for seat in range(state.players):
                obs = state.observe(seat)
                assert set(vars(obs)) == fields - made_when_read
                copied = pickle.loads(pickle.dumps(obs))  # before they are made
                again = attrs.evolve(obs)  # through attrs' __init__, reading every field
                assert set(vars(obs)) == fields
                assert again == obs and hash(again) == hash(obs)
                assert copied == obs and pickle.loads(pickle.dumps(obs)) == obs
                assert not hasattr(obs, "hands") and not hasattr(obs, "stock")
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_moves()))


def test_seat_must_exist() -> None:
    state = canasta.new_game("classic-2p", seed=5)
    for seat in (-1, 2, "0"):
        try:
            state.observe(seat)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(f"seat {seat!r} was accepted")


def test_cards_taken_from_the_pile_are_known_until_played() -> None:
    # Find a deal where someone takes a pile of several cards, then check the known cards.
    for seed in range(200):
        state = _played("classic", seed, 0)
        rng = random.Random(seed)
        while not state.is_over and state.legal_moves():
            takes = [m for m in state.legal_moves() if m.kind == "take"]
            before = state
            state = state.apply(takes[0] if takes else rng.choice(state.legal_moves()))
            if (
                takes
                and len(before.pile) >= 3
                and state.opened[state.variant.side_of(before.to_move or 0)]
            ):
                taker = before.to_move
                assert taker is not None
                obs = observe(state, (taker + 1) % 4)
                laid = state.variant.laid_out_threes
                expected = Counter(c.code for c in before.pile[:-1] if c.code not in laid)
                assert _codes(obs.known[taker]) == expected
                # The whole pile is now known to be empty and seen.
                assert obs.pile_seen == () and obs.pile_size == 0
                return
    raise AssertionError("no pile was taken")


def test_history_shows_what_the_table_saw() -> None:
    state = canasta.new_game("classic", seed=7).play("draw discard:8 draw discard:6")
    events = state.observe(2).history
    assert [str(e.move) for e in events] == ["draw", "discard:8", "draw", "discard:6"]
    assert [e.seat for e in events] == [0, 0, 1, 1]
    assert events[1].cards[0].rank == "8" and events[0].cards == ()
    assert observe(state, 2).pile_seen[-2:] == (events[1].cards[0], events[3].cards[0])


def test_sample_state_of_a_finished_deal() -> None:
    state = _played("classic-2p", 3, 400)
    assert state.is_over
    obs = observe(state, 0)
    sampled = sample_state(obs, random.Random(1))
    assert observe(sampled, 0) == obs
    assert sampled.outcome() is not None
