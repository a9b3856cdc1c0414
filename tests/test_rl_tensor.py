"""Observation tensors (`canasta.rl.ObservationEncoder`): the layout, what the sections
hold, and that nothing hidden leaks in."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections import Counter

import numpy
import pytest

import canasta
from canasta.rl import ObservationEncoder, RLError

NAMES = canasta.variants.names()


def _deal(name: str, seed: int, plies: int) -> canasta.GameState:
    rng = random.Random(seed)
    state = canasta.new_game(name, seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _by_rank(cards: tuple[canasta.Card, ...]) -> Counter[int]:
    return Counter(card.rank_index for card in cards)


def _decoded(section: numpy.ndarray, decks: int) -> Counter[int]:
    """Rank counts back from a section scaled by the copies in the decks."""
    copies = [2 * decks if rank == 13 else 4 * decks for rank in range(14)]
    return Counter({r: round(float(x) * copies[r]) for r, x in enumerate(section) if x})


@pytest.mark.parametrize("name", NAMES)
def test_layout_covers_the_vector(name: str) -> None:
    encoder = ObservationEncoder(canasta.variants.get(name))
    offset = 0
    for block in encoder.layout:
        assert block.offset == offset and block.length > 0
        offset += block.length
    assert offset == encoder.size
    vector = encoder.encode(canasta.new_game(name, seed=1).observe(0))
    assert vector.shape == (encoder.size,) and vector.dtype == numpy.float32
    low, high = (numpy.array(b, dtype=numpy.float32) for b in encoder.bounds)
    assert low.shape == high.shape == vector.shape and (low <= high).all()
    state = _deal(name, seed=4, plies=1000)
    assert state.is_over
    for seat in range(state.variant.players):
        vector = encoder.encode(state.observe(seat))
        assert (low <= vector).all() and (vector <= high).all()


@pytest.mark.parametrize("name", ["classic", "classic-3p", "modern-american", "classic-6p"])
@pytest.mark.parametrize("seat", [0, 1])
def test_sections_hold_the_observation_relative_to_the_seat(name: str, seat: int) -> None:
    state = _deal(name, seed=11, plies=120)
    variant = state.variant
    players = variant.players
    encoder = ObservationEncoder(variant)
    obs = state.observe(seat)
    vector = encoder.encode(obs)
    assert _decoded(encoder.section(vector, "hand"), variant.decks) == _by_rank(obs.hand)
    sizes = encoder.section(vector, "hand_sizes") * variant.hand_size
    assert [round(float(x)) for x in sizes] == [
        obs.hand_sizes[(seat + rel) % players] for rel in range(players)
    ]
    discards = encoder.section(vector, "discards").reshape(players, 14)
    for rel in range(players):
        other = (seat + rel) % players
        shown = Counter(
            e.cards[0].rank_index
            for e in obs.history
            if e.seat == other and e.move.kind == "discard"
        )
        assert _decoded(discards[rel], variant.decks) == shown
    to_move = encoder.section(vector, "to_move")
    if obs.to_move is None:
        assert not to_move.any()
    else:
        assert int(numpy.argmax(to_move)) == (obs.to_move - seat) % players
    phase = encoder.section(vector, "phase")
    assert ["draw", "play", "answer", "over"][int(numpy.argmax(phase))] == obs.phase
    melds = encoder.section(vector, "melds").reshape(variant.sides, 12, 5)
    for rel in range(variant.sides):
        melds_of_side = obs.melds[(obs.side + rel) % variant.sides]
        naturals = sum(m.naturals for m in melds_of_side if not m.is_wild_meld)
        assert round(float(melds[rel, :, 0].sum()) * 4 * variant.decks) == naturals
        canastas = sum(1 for m in melds_of_side if m.is_canasta and not m.is_wild_meld)
        assert round(float(melds[rel, :, 3:].sum())) == canastas


def test_cards_known_in_other_hands_are_counted() -> None:
    # Play until some seat holds cards taken from the pile, then look from another seat.
    rng = random.Random(8)
    state = canasta.new_game("classic", seed=8)
    while not any(state.observe(0).known[1:]):
        state = state.apply(rng.choice(state.legal_moves()))
    encoder = ObservationEncoder(state.variant)
    obs = state.observe(0)
    known = encoder.section(encoder.encode(obs), "known").reshape(3, 14)
    for rel in (1, 2, 3):
        assert _decoded(known[rel - 1], 2) == _by_rank(obs.known[rel])
    assert known.any()


def test_the_discards_of_every_seat_are_counted() -> None:
    state = _deal("classic", seed=5, plies=80)
    encoder = ObservationEncoder(state.variant)
    discards = encoder.section(encoder.encode(state.observe(2)), "discards")
    played = sum(1 for e in state.history() if e.move.kind == "discard")
    assert played > 4
    copies = [4] * 13 + [2]
    assert round(sum(float(x) * 2 * copies[i % 14] for i, x in enumerate(discards))) == played


@pytest.mark.parametrize("arrays", [True, False])
def test_discards_may_outnumber_the_copies_of_a_rank(arrays: bool) -> None:
    """A seat may discard a card again after taking it with the pile: East has discarded
    nine sevens of two decks' eight, and five jokers of four (the last rank). The
    counts were read from the next rank's values (a seven counted as no eight, the fifth
    joker past the end)."""
    data = canasta.new_game("classic", seed=1).to_dict()
    data["discarded"] = ["", "7S 7S 7H 7H 7D 7D 7C 7C 7S * * * * *", "", ""]
    state = canasta.GameState.from_dict(data)
    encoder = ObservationEncoder(state.variant, numpy=arrays)
    vector = numpy.asarray(encoder.encode(state.observe(0)), dtype=numpy.float32)
    east = encoder.section(vector, "discards").reshape(4, 14)[1]
    expected = numpy.zeros(14, dtype=numpy.float32)
    expected[6], expected[13] = 9 / 8, 5 / 4
    assert east.tolist() == expected.tolist()
    low, high = encoder.bounds
    assert all(lo <= x <= hi for lo, x, hi in zip(low, vector.tolist(), high, strict=True))


@pytest.mark.parametrize("name", NAMES)
def test_hidden_cards_do_not_change_the_vector(name: str) -> None:
    # The same observation (memory included), hidden cards dealt anew.
    state = _deal(name, seed=3, plies=40)
    encoder = ObservationEncoder(state.variant)
    rng = random.Random(0)
    for seat in range(state.variant.players):
        obs = state.observe(seat)
        other = canasta.sample_state(obs, rng)
        assert other != state  # other hands or the stock differ
        assert encoder.encode(other.observe(seat)).tolist() == encoder.encode(obs).tolist()


@pytest.mark.parametrize("name", ["classic", "modern-american", "classic-6p"])
def test_hidden_cards_do_not_change_the_vector_with_history(name: str) -> None:
    # Two deals that differ in the order of the stock's last cards, played alike: every
    # seat's memory (discards, known cards) is the same, and so is every vector.
    data = canasta.new_game(name, seed=9).to_dict()
    stock = data["stock"].split()
    swap = next(i for i in range(len(stock) - 2, 0, -1) if stock[i] != stock[-1])
    stock[swap], stock[-1] = stock[-1], stock[swap]
    first = canasta.GameState.from_dict(data)
    second = canasta.GameState.from_dict({**data, "stock": " ".join(stock)})
    assert first != second
    encoder = ObservationEncoder(first.variant)
    rng = random.Random(9)
    compared = 0
    while not first.is_over and first.observe(0).stock_size > 12:
        for seat in range(first.variant.players):
            one, two = first.observe(seat), second.observe(seat)
            assert encoder.encode(one).tolist() == encoder.encode(two).tolist()
            compared += 1
        move = rng.choice(first.legal_moves())
        first, second = first.apply(move), second.apply(move)
    assert compared > 100
    assert any(e.move.kind == "discard" for e in first.history())


def test_lists_without_numpy_and_buffers() -> None:
    state = _deal("classic", seed=2, plies=30)
    obs = state.observe(1)
    arrays = ObservationEncoder(state.variant)
    lists = ObservationEncoder(state.variant, numpy=False)
    as_list = lists.encode(obs)
    assert type(as_list) is list and all(type(x) is float for x in as_list)
    assert numpy.allclose(as_list, arrays.encode(obs))
    buffer = numpy.full(arrays.size, 7.0, dtype=numpy.float32)
    assert arrays.encode(obs, out=buffer) is buffer
    assert numpy.allclose(buffer, as_list)
    plain = [0.0] * lists.size
    assert lists.encode(obs, out=plain) is plain and plain == as_list
    with pytest.raises(RLError, match="holds 3 values"):
        arrays.encode(obs, out=[0.0, 0.0, 0.0])
    with pytest.raises(RLError, match="modern-american"):
        arrays.encode(canasta.new_game("modern-american", seed=1).observe(0))
    with pytest.raises(RLError, match="no section"):
        arrays.section(buffer, "nothing")


def test_the_core_import_does_not_load_numpy() -> None:
    code = "import sys, canasta.rl; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def _documented(obs: canasta.observation.Observation) -> list[float]:
    """The vector of ``obs`` as the page "Reinforcement learning" lays it out, section by
    section, made the plain way (the encoder rewrites only what changed)."""
    variant = obs.variant
    players, sides, decks = variant.players, variant.sides, variant.decks
    seat, side = obs.seat, obs.side
    seats = [(seat + rel) % players for rel in range(players)]
    side_order = [(side + rel) % sides for rel in range(sides)]
    cards = 54 * decks

    def counted(held: tuple[canasta.Card, ...]) -> list[float]:
        found = _by_rank(held)
        return [found[r] * (1 / (2 * decks if r == 13 else 4 * decks)) for r in range(14)]

    def one(index: int | None, length: int) -> list[float]:
        return [float(index == i) for i in range(length)]

    vector = counted(obs.hand)
    vector += [obs.hand_sizes[s] / variant.hand_size for s in seats]
    for other in seats[1:]:
        vector += counted(obs.known[other])
    wild_melds: list[float] = []
    for of_side in side_order:
        for rank in "A3456789TJQK":
            melds = [m for m in obs.melds[of_side] if not m.is_wild_meld and m.rank_text == rank]
            vector += [
                sum(m.naturals for m in melds) * (1 / (4 * decks)),
                sum(m.wilds - m.jokers for m in melds) * (1 / (4 * decks)),
                sum(m.jokers for m in melds) * (1 / (2 * decks)),
                float(sum(1 for m in melds if m.is_canasta and m.is_natural)),
                float(sum(1 for m in melds if m.is_canasta and not m.is_natural)),
            ]
        wild = [m for m in obs.melds[of_side] if m.is_wild_meld]
        wild_melds += [
            sum(m.wilds - m.jokers for m in wild) * (1 / (4 * decks)),
            sum(m.jokers for m in wild) * (1 / (2 * decks)),
            float(sum(1 for m in wild if m.is_canasta)),
        ]
    vector += wild_melds
    for of_side in side_order:
        black = sum(1 for card in obs.threes[of_side] if card.suit in ("S", "C"))
        red = len(obs.threes[of_side]) - black
        vector += [red * (1 / (2 * decks)), black * (1 / (2 * decks))]
    vector += [float(obs.opened[s]) for s in side_order]
    vector += [float(obs.melded_seats[s]) for s in seats]
    vector += one(None if obs.pile_top is None else obs.pile_top.rank_index, 14)
    vector += [obs.pile_size / cards, float(obs.frozen), float(obs.blocked)]
    vector += counted(obs.pile_seen)
    vector.append(obs.stock_size / cards)
    target = variant.target_score
    vector += [max(-4.0, min(obs.scores[s] / target, 4.0)) for s in side_order]
    scale = max(variant.initial_minimum(target), 1)
    vector += [min(variant.initial_minimum(obs.scores[s]) / scale, 4.0) for s in side_order]
    vector += one(["draw", "play", "answer", "over"].index(obs.phase), 4)
    vector += one(None if obs.to_move is None else (obs.to_move - seat) % players, players)
    vector += one((obs.dealer - seat) % players, players)
    turn = obs.turn
    vector += [
        float(turn.took_pile),
        turn.opening / scale,
        len(turn.waiting) / variant.hand_size,
        float(turn.laid_off),
        float(turn.melded),
        float(turn.asked),
        float(turn.permission is True),
        float(turn.permission is False),
        float(turn.must_go_out),
        float(turn.no_discard),
    ]
    vector += [float(min(obs.asked[s], 3)) if obs.asked else 0.0 for s in seats]
    vector += one(None if obs.lone is None else (obs.lone - seat) % players, players)
    if variant.talon_sizes:
        most = max(variant.talon_sizes)
        vector += [obs.talon_taken[s] / most for s in side_order]
        if variant.talons_set_aside:
            vector += [size / most for size in obs.talons_left]
    if variant.shows_turn_card:
        card = obs.turn_card
        vector += [*one(None if card is None else card.rank_index, 14), float(obs.turn_card_drawn)]
    if variant.covers_last_discard:
        vector.append(float(obs.pile_covered))
    for other in seats:
        vector += counted(obs.discarded[other])
    return vector


CLUB: dict[str, dict[str, object]] = {
    "talons set aside": {"mac_talon_source": "set_aside"},
    "covered": {"mac_covered_last_discard": True},
}


@pytest.mark.parametrize("arrays", [True, False], ids=["numpy", "lists"])
@pytest.mark.parametrize("name", [*NAMES, *CLUB])
def test_every_section_holds_what_the_layout_says(name: str, arrays: bool) -> None:
    # One encoder sees every seat of two deals in a random order, so that every section
    # changes between two vectors of a seat, and some stay.
    options = CLUB.get(name)
    if options:
        variant = canasta.variants.get("modern-american-club", **options)
    else:
        variant = canasta.variants.get(name)
    encoder = ObservationEncoder(variant, numpy=arrays)
    rng = random.Random(name)
    for seed in (1, 2):
        state = canasta.new_game(variant, seed=seed)
        while True:
            for seat in rng.sample(range(variant.players), rng.randint(1, variant.players)):
                obs = state.observe(seat)
                vector = encoder.encode(obs)
                assert len(vector) == encoder.size
                assert numpy.allclose(vector, _documented(obs), rtol=0, atol=1e-6)
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_moves()))


def _with_melds(name: str, melds: list[str]) -> canasta.GameState:
    """A new deal of ``name`` whose first side holds ``melds``, their cards taken from the
    stock (or the hands)."""
    data = canasta.new_game(name, seed=1).to_dict()
    stock = [str(card) for card in canasta.parse_cards(data["stock"])]
    hands = [[str(card) for card in canasta.parse_cards(hand)] for hand in data["hands"]]
    for meld in melds:
        for card in meld.split():
            holder = stock if card in stock else next(h for h in hands if card in h)
            holder.remove(card)
    data["stock"] = " ".join(stock)
    data["hands"] = [" ".join(hand) for hand in hands]
    data["melds"][0] = melds
    return canasta.GameState.from_dict(data)


@pytest.mark.parametrize("arrays", [True, False], ids=["numpy", "lists"])
@pytest.mark.parametrize(
    "melds",
    [["QH QD QS QC 2D * QH", "QD QS QC"], ["2S 2H 2D 2C * * 2S", "2H 2D 2C"]],
    ids=["same rank", "wild"],
)
def test_the_melds_of_a_row_add_up(melds: list[str], arrays: bool) -> None:
    # Modern American does not merge same-rank melds, and a side may hold two wild melds:
    # their features add up in the row of their rank (or the wild melds' row).
    state = _with_melds("modern-american", melds)
    encoder = ObservationEncoder(state.variant, numpy=arrays)
    for seat in range(state.players):
        obs = state.observe(seat)
        assert len(obs.melds[0]) == 2
        assert numpy.allclose(encoder.encode(obs), _documented(obs), rtol=0, atol=1e-6)


@pytest.mark.parametrize("arrays", [True, False], ids=["numpy", "lists"])
@pytest.mark.parametrize("kept", [4096, 3], ids=["default", "tiny"])
def test_a_reused_encoder_encodes_as_a_fresh_one(
    kept: int, arrays: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The encoder keeps each seat's last vector and rewrites the sections that changed,
    # and it keeps what it read from the card tuples and melds it saw: interleaving seats,
    # deals and variants, copying it half-way, and forgetting often (a tiny store), must
    # not change a vector.
    monkeypatch.setattr(canasta.rl.tensor, "_KEPT", kept)
    covered = canasta.variants.get("modern-american-club", mac_covered_last_discard=True)
    variants = {name: canasta.variants.get(name) for name in NAMES} | {"covered": covered}
    encoders = {key: ObservationEncoder(v, numpy=arrays) for key, v in variants.items()}
    rng = random.Random(kept)
    deals = [
        ("classic", canasta.new_game("classic", seed=kept)),
        ("classic", canasta.new_game("classic", seed=kept + 1)),
        ("modern-american", canasta.new_game("modern-american", seed=kept)),
        ("classic-3p-cutthroat", canasta.new_game("classic-3p-cutthroat", seed=2)),
        ("covered", canasta.new_game(covered, seed=1)),
    ]
    compared = 0
    while deals:
        at = rng.randrange(len(deals))
        key, state = deals[at]
        seat = rng.randrange(state.players)
        fresh = ObservationEncoder(state.variant, numpy=arrays)
        expected = list(fresh.encode(state.observe(seat)))
        assert list(encoders[key].encode(state.observe(seat))) == expected
        compared += 1
        if compared == 300:
            encoders = copy.deepcopy(encoders)
        if state.is_over:
            del deals[at]
        else:
            deals[at] = (key, state.apply(rng.choice(state.legal_moves())))
    assert compared > 500


@pytest.mark.parametrize(
    ("options", "sections"),
    [
        ({}, ["talon_taken", "turn_card"]),
        ({"mac_talon_source": "set_aside"}, ["talon_taken", "talons_left", "turn_card"]),
        ({"mac_covered_last_discard": True}, ["talon_taken", "turn_card", "pile_covered"]),
    ],
)
def test_the_club_features_have_sections(options: dict[str, object], sections: list[str]) -> None:
    variant = canasta.variants.get("modern-american-club", **options)
    encoder = ObservationEncoder(variant)
    names = [block.name for block in encoder.layout]
    assert names[names.index("lone") + 1 : names.index("discards")] == sections
    plain = [b.name for b in ObservationEncoder(canasta.variants.get("modern-american")).layout]
    assert not set(sections) & set(plain)
    # Seed 1 of these variants ends with talons taken and the turn card drawn.
    rng = random.Random(1)
    state = canasta.new_game(variant, seed=1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    assert any(state.talon_taken) and state.turn_card is not None
    for seat in range(variant.players):
        obs = state.observe(seat)
        vector = encoder.encode(obs)
        taken = [round(float(x) * 4) for x in encoder.section(vector, "talon_taken")]
        assert taken == [obs.talon_taken[(obs.side + rel) % variant.sides] for rel in range(2)]
        card = encoder.section(vector, "turn_card")
        assert bool(card[-1]) == obs.turn_card_drawn
        if obs.turn_card is None:
            assert not card[:-1].any()
        else:
            assert int(numpy.argmax(card[:-1])) == obs.turn_card.rank_index
