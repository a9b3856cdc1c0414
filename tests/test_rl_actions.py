"""The fixed action space (`canasta.rl.ActionSpace`): every legal move of every registered
variant has exactly one index, and the index gives the move back.

The property tests play whole deals at random (deterministic: ``derandomize=True``) and
check every state on the way.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import canasta
from canasta.rl import LAYOUT_VERSION, ActionSpace, RLError
from strategies import seeds

NAMES = canasta.variants.names()

PROPERTIES = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=8,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)


def _states(name: str, seed: int) -> list[canasta.GameState]:
    """Every state of one deal played at random, the finished one included."""
    rng = random.Random(seed)
    state = canasta.new_game(name, seed=seed)
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("name", NAMES)
@PROPERTIES
@given(seed=seeds())
def test_every_legal_move_has_one_index_and_back(name: str, seed: int) -> None:
    space = ActionSpace(canasta.variants.get(name))
    for state in _states(name, seed):
        legal_moves = state.legal_moves()
        indices = [space.encode(m) for m in legal_moves]
        # Injective on the legal moves of a state, and inside the space.
        assert len(set(indices)) == len(legal_moves)
        assert all(0 <= i < space.size for i in indices)
        legal = space.legal(state)
        assert list(legal) == sorted(indices)
        assert set(legal.values()) == set(legal_moves)
        for index, move in legal.items():
            assert space.decode(state, index) is move
            assert space.encode(str(move)) == index
        mask = space.mask(state)
        assert len(mask) == space.size
        assert [i for i, bit in enumerate(mask) if bit] == sorted(indices)
        assert set(mask) <= {0, 1}


#: Options that change the ranges of the layout: fewer wilds, wild canastas, black threes
#: with wilds, melds past seven cards when going out, one deck.
OPTION_VARIANTS = [
    canasta.variants.get("classic", max_wilds_per_meld=2, black_three_meld_wilds=True),
    canasta.variants.get(
        "classic-2p",
        classic_wild_canasta=True,
        decks=1,
        hand_size=11,
        red_three_scores=(0, 100, 200),
    ),
    canasta.variants.get("modern-american", mac_allow_8plus_going_out=True),
    canasta.variants.get("classic-3p", meld_wild_ratio="n_ge_w", max_wilds_per_meld=5),
]


@pytest.mark.parametrize("variant", OPTION_VARIANTS, ids=lambda v: v.name)
@PROPERTIES
@given(seed=seeds())
def test_options_keep_every_legal_move_in_the_space(variant: canasta.Variant, seed: int) -> None:
    space = ActionSpace(variant)
    rng = random.Random(seed)
    state = canasta.new_game(variant, seed=seed)
    while not state.is_over:
        legal = space.legal(state)
        assert len(legal) == len(state.legal_moves())
        assert all(space.decode(state, i) is m for i, m in legal.items())
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("name", NAMES)
def test_names_are_moves_of_their_index(name: str) -> None:
    space = ActionSpace(canasta.variants.get(name))
    assert sum(block.length for block in space.layout) == space.size
    offsets = [block.offset for block in space.layout]
    assert offsets == sorted(offsets) and offsets[0] == 0
    names = [space.name(i) for i in range(space.size)]
    assert len(set(names)) == space.size
    for index, text in enumerate(names):
        # "x" is the pile top's rank; any natural rank stands for it in a take.
        assert space.encode(text.replace("x", "K") if text.startswith("take") else text) == index
    for block in space.layout:
        for index in range(block.offset, block.offset + block.length):
            kind = block.name.partition(":")[0]
            assert names[index].startswith(kind)


def test_sizes_follow_the_decks_and_the_wild_limit() -> None:
    classic = ActionSpace(canasta.variants.get("classic"))
    three_decks = ActionSpace(canasta.variants.get("classic-6p"))
    fewer_wilds = ActionSpace(canasta.variants.get("classic", max_wilds_per_meld=2))
    assert three_decks.size > classic.size > fewer_wilds.size
    # Ten (twos, jokers) pairs of at most 3 wilds; naturals 0 .. 7 beside the top card.
    take = next(b for b in classic.layout if b.name == "take")
    assert take.length == 8 * 10
    assert isinstance(LAYOUT_VERSION, int)


def test_decode_refuses_an_illegal_action_with_the_reason() -> None:
    state = canasta.new_game("classic", seed=3)
    space = ActionSpace(state.variant)
    discard = space.encode("discard:K")
    with pytest.raises(canasta.IllegalMoveError) as caught:
        space.decode(state, discard)
    assert caught.value.reason == state.check("discard:K")
    assert caught.value.reason is canasta.IllegalReason.WRONG_PHASE
    # A take names the pile top's rank in the error.
    take = space.encode("take:KK2")
    with pytest.raises(canasta.IllegalMoveError) as caught:
        space.decode(state, take)
    top = state.pile_top
    assert top is not None
    assert str(caught.value.move) == f"take:{top.rank * 2}2"
    assert caught.value.reason == state.check(f"take:{top.rank * 2}2")


@pytest.mark.parametrize("index", [-1, 1850, 2.0, "3", True, None])
def test_decode_refuses_what_is_not_an_index(index: object) -> None:
    state = canasta.new_game("classic", seed=3)
    space = ActionSpace(state.variant)
    before = state.to_dict()
    with pytest.raises(RLError):
        space.decode(state, index)  # type: ignore[arg-type]
    with pytest.raises(RLError):
        space.name(index)  # type: ignore[arg-type]
    assert state.to_dict() == before


@pytest.mark.parametrize("text", ["meld:KQ2", "add:K+Q", "add:*+K2", "take:KQ"])
def test_encode_refuses_moves_no_index_stands_for(text: str) -> None:
    space = ActionSpace(canasta.variants.get("classic"))
    with pytest.raises(RLError, match="no action"):
        space.encode(text)


def test_encode_ignores_suits_and_refuses_bad_text() -> None:
    space = ActionSpace(canasta.variants.get("classic"))
    assert space.encode("meld:KHKSKD2C") == space.encode("meld:KKK2")
    assert space.encode("discard:7H") == space.encode("discard:7")
    with pytest.raises(canasta.NotationError):
        space.encode("meld:")


def test_a_state_of_another_variant_is_refused() -> None:
    space = ActionSpace(canasta.variants.get("classic"))
    with pytest.raises(RLError, match="modern-american"):
        space.mask(canasta.new_game("modern-american", seed=1))


def test_a_copied_action_space_keeps_indices_only_by_ids_of_moves_it_holds() -> None:
    # The action space keeps the indices of the moves it met by the moves' ids, which are
    # sound only while those very objects are kept alive: a pickled (or deep-copied) space
    # holds copies of the moves, under other ids, and in another process any object may
    # take an old id. So every id a copy keeps must be one of a move it holds, and the copy
    # must answer like a new space.
    variant = canasta.variants.get("classic")
    used = ActionSpace(variant)
    for state in _states("classic", 5):
        used.mask(state)
    for copied in (pickle.loads(pickle.dumps(used)), copy.deepcopy(used)):
        assert set(copied._by_id) <= {id(move) for move in copied._kept}
        fresh = ActionSpace(variant)
        for state in _states("classic", 6):
            assert copied.mask(state) == fresh.mask(state)
            assert copied.legal(state) == fresh.legal(state)
