"""Canasta as an OpenSpiel game (extra ``canasta[openspiel]``).

Importing this module registers the Python game ``canasta_lib`` (a name of its own: the
older ``python_canasta`` game is unrelated)::

    import pyspiel
    import canasta.envs.openspiel

    game = pyspiel.load_game("canasta_lib", {"variant": "modern-american"})

The chance player deals the whole deck, one card at a time, before the first move (so the
stock's order is settled by chance, card by card, as a shuffle would); then the seats
play. Actions are the indices of `canasta.rl.ActionSpace`, the tensors those of
`canasta.rl.ObservationEncoder` (the information state remembers the deal: the cards known
in other hands, the discards and the public history; the observation does not), and the
returns are `canasta.rl.rewards` of the deal.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from canasta.cards import Card
from canasta.deal import new_game
from canasta.moves import Move
from canasta.rl import ActionSpace, ObservationEncoder, RLError, max_deal_moves
from canasta.rl.rewards import reward_bound, rewards
from canasta.sampling import sample_state
from canasta.state import GameState
from canasta.variants.base import Variant

from . import _resolve

__all__ = ["SHORT_NAME", "CanastaGame", "CanastaObserver", "CanastaState"]

SHORT_NAME = "canasta_lib"
#: The chance outcomes: every card of a deck, by rank (A, 2, .. K) then suit, then the joker.
CARDS: tuple[Card, ...] = (
    *(Card(rank, suit) for rank in "A23456789TJQK" for suit in "SHDC"),
    Card("*"),
)
_CARD_ID = {card: i for i, card in enumerate(CARDS)}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Canasta (the canasta library)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "classic"},
)


@functools.cache
def _rules(variant: Variant) -> _Rules:
    return _Rules(variant)


class _Rules:
    """What every state of a game shares: the variant, its actions and its encoder."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.actions = ActionSpace(variant)
        self.encoder = ObservationEncoder(variant, numpy=True)
        self.deck = Counter(
            {i: variant.decks * (2 if c.is_joker else 1) for i, c in enumerate(CARDS)}
        )
        self.cards = sum(self.deck.values())


class _Core:
    """One state's value: the cards dealt so far and the deal.

    Immutable, so clones share it (OpenSpiel clones a Python state by deep-copying its
    attributes); it pickles as a position, which is how OpenSpiel serializes states.
    """

    __slots__ = ("deck", "rules", "state")

    def __init__(self, rules: _Rules, deck: tuple[int, ...], state: GameState | None) -> None:
        self.rules = rules
        self.deck = deck
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Core], tuple[Any, ...]]:
        position = None if self.state is None else self.state.to_dict()
        return (_restore, (self.rules.variant, self.deck, position))


def _restore(variant: Variant, deck: tuple[int, ...], position: dict[str, Any] | None) -> _Core:
    state = None if position is None else GameState.from_dict(position)
    return _Core(_rules(variant), deck, state)


class CanastaGame(pyspiel.Game):
    """The game ``canasta_lib``; its one parameter ``variant`` is a registered variant name
    or a variant config as JSON text (``'{"variant": "classic", "target_score": 3000}'``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"variant": "classic", **(params or {})}
        text = params["variant"]
        if not isinstance(text, str):
            raise RLError(f"parameter 'variant' must be text, got {text!r}")
        if text.lstrip().startswith("{"):
            try:
                config = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RLError(f"parameter 'variant' is not a JSON config: {exc}") from None
            variant = _resolve(config)
        else:
            variant = _resolve(text)
        self.rules = _rules(variant)
        bound = reward_bound(variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.actions.size,
            max_chance_outcomes=len(CARDS),
            num_players=variant.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_deal_moves(variant),
        )
        super().__init__(GAME_TYPE, info, params)

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    def new_initial_state(self) -> CanastaState:
        """The deal before the first card is dealt (a chance node)."""
        return CanastaState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every card of the decks is dealt by chance, once."""
        return self.rules.cards

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CanastaObserver:
        """An observer for ``iig_obs_type`` (default: the observation, no memory)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return CanastaObserver(self.rules, iig_obs_type, params)


class CanastaState(pyspiel.State):
    """A deal of Canasta: first the chance player deals the deck, then the seats play."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self._core = _Core(game.rules, (), None)

    @property
    def game_state(self) -> GameState | None:
        """The deal (None while the cards are being dealt)."""
        return self._core.state

    def current_player(self) -> int:
        state = self._core.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert state.to_move is not None
        return state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        assert state is not None and player == state.to_move
        return list(self._core.rules.actions.legal(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        left = core.rules.deck - Counter(core.deck)
        total = core.rules.cards - len(core.deck)
        return [(card, count / total) for card, count in sorted(left.items())]

    def _apply_action(self, action: int) -> None:
        core = self._core
        rules = core.rules
        if core.state is None:
            deck = (*core.deck, int(action))
            state = None
            if len(deck) == rules.cards:
                state = new_game(rules.variant, deck=[CARDS[i] for i in deck])
            self._core = _Core(rules, deck, state)
            return
        move: Move = rules.actions.decode(core.state, action)
        self._core = _Core(rules, core.deck, core.state.apply(move))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{CARDS[action]}"
        return self._core.rules.actions.name(action)

    def is_terminal(self) -> bool:
        state = self._core.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        core = self._core
        state = core.state
        outcome = None if state is None else state.outcome()
        if outcome is None:
            return [0.0] * core.rules.variant.players
        return list(rewards(core.rules.variant, outcome.scores))

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state that ``player_id`` cannot tell from this one, hidden cards dealt anew
        (the deal's history and memory kept)."""
        core = self._core
        clone: CanastaState = self.clone()
        if core.state is None:
            return clone
        seed = int(probability_sampler() * 2**52)
        sampled = sample_state(core.state.observe(player_id), random.Random(seed))
        clone._core = _Core(core.rules, core.deck, sampled)
        return clone

    def __str__(self) -> str:
        core = self._core
        if core.state is None:
            dealt = " ".join(str(CARDS[i]) for i in core.deck)
            return f"dealing {len(core.deck)} of {core.rules.cards}: {dealt}"
        return core.state.to_json()


#: What a seat remembers of the deal: left out of the observation without perfect recall.
_MEMORY_SECTIONS = ("known", "discards")
_MEMORY_KEYS = ("history", "known", "discarded")


class CanastaObserver:
    """OpenSpiel's Python observer: the `canasta.rl.ObservationEncoder` vector, in named
    sections (``dict``), and the observation as JSON text.

    With perfect recall (the information state) the seat remembers the deal: the cards
    known in other hands, the discards and (in the string) the public history; without it
    (the observation) these are left out. Without private information the hand is left out.
    """

    def __init__(self, rules: _Rules, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise RLError(f"observation parameters are not supported; got {params!r}")
        self._rules = rules
        self._memory = bool(iig_obs_type.perfect_recall)
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        encoder = rules.encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {b.name: self.tensor[b.offset : b.offset + b.length] for b in encoder.layout}

    def set_from(self, state: CanastaState, player: int) -> None:
        deal = state._core.state
        if deal is None:
            self.tensor.fill(0.0)
            return
        self._rules.encoder.encode(deal.observe(player), out=self.tensor)
        if not self._memory:
            for name in _MEMORY_SECTIONS:
                self.dict[name].fill(0.0)
        if not self._private:
            self.dict["hand"].fill(0.0)

    def string_from(self, state: CanastaState, player: int) -> str:
        core = state._core
        if core.state is None:
            return f"dealing {len(core.deck)} of {core.rules.cards}"
        data = core.state.observe(player).to_dict()
        if not self._memory:
            for key in _MEMORY_KEYS:
                del data[key]
        if not self._private:
            del data["hand"], data["legal_moves"]
        return json.dumps(data, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, CanastaGame)
