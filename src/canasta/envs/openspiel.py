"""Canasta as an OpenSpiel game (extra ``canasta[openspiel]``).

Importing this module registers the Python game ``canasta_lib`` (a name of its own: the
older ``python_canasta`` game is unrelated)::

    import pyspiel
    import canasta.envs.openspiel

    game = pyspiel.load_game("canasta_lib", {"variant": "modern-american"})

Chance picks the cards, one at a time. With the parameter ``chance="draw"`` (the default)
it deals the hands card by card, then picks each card of the stock when it is drawn: the
deal's upcard, a turn's draw, the cards that replace threes (the player's move waits at a
chance node until it has its cards; the Modern American turn card, face up on top of a
stock of 9 cards, is picked as the move that leaves it there ends). With
``chance="deck"`` it deals the whole deck before the first move, which settles the
stock's order. Actions are the indices of
`canasta.rl.ActionSpace`, the tensors those of `canasta.rl.ObservationEncoder` (the
information state remembers the deal: the cards known in other hands, the discards and the
public history; the observation does not), and the returns are `canasta.rl.rewards` of the
deal.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from canasta.cards import CARDS as LIBRARY_CARDS
from canasta.cards import Card, parse_cards
from canasta.deal import new_game
from canasta.moves import Draw, Move, parse_move
from canasta.rl import ActionSpace, ObservationEncoder, RLError, max_deal_moves
from canasta.rl.rewards import reward_bound, rewards
from canasta.rl.tensor import _Float32Lists
from canasta.sampling import sample_state
from canasta.state import GameState
from canasta.table import TURN_CARD_DEPTH
from canasta.variants.base import Variant

from . import _resolve

__all__ = ["CARDS", "CHANCE_MODES", "SHORT_NAME", "CanastaGame", "CanastaObserver", "CanastaState"]

SHORT_NAME = "canasta_lib"
#: The values of the parameter ``chance``: chance picks each stock card when it is drawn
#: (``"draw"``), or deals the whole deck before the first move (``"deck"``).
CHANCE_MODES = ("draw", "deck")
#: The chance outcomes: every card of a deck, by rank (A, 2, .. K) then suit, then the joker.
#: These are the library's own cards, in the order of their codes (an outcome is the card's
#: code): `GameState.with_stock_top` finds them by identity, without checking each.
CARDS: tuple[Card, ...] = LIBRARY_CARDS
_CARD_ID = {card: i for i, card in enumerate(CARDS)}
_OUTCOMES = range(len(CARDS))
#: By a count of cards (from 1): that count less one, as the byte `_minus` puts in its place.
_LESS = (b"", *(bytes((count - 1,)) for count in range(1, 256)))
# OpenSpiel's players that are not seats (looked up once: OpenSpiel calls current_player
# several times a move).
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: What a seat remembers of the deal: left out of the observation without perfect recall.
_MEMORY_SECTIONS = ("known", "discards")

_GAME_TYPE = pyspiel.GameType(
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
    parameter_specification={"variant": "classic", "chance": CHANCE_MODES[0]},
)


@functools.cache
def _rules(variant: Variant, chance: str) -> _Rules:
    return _Rules(variant, chance)


class _Rules:
    """What every state of a game shares: the variant, the chance mode, the actions and the
    encoder."""

    def __init__(self, variant: Variant, chance: str) -> None:
        self.variant = variant
        self.chance = chance
        self.per_draw = chance == "draw"
        #: Modern American turn card: face up on top of a stock of 9 cards
        self.turn_card = variant.shows_turn_card
        self.actions = ActionSpace(variant)
        self.encoder = ObservationEncoder(variant, numpy=True)
        # A state's tensors for Python callers: lists of the encoder's float32 values, with
        # the seat's memory (the information state) and without it (the observation).
        self.lists = _Float32Lists(variant)
        self.observed = _Float32Lists(variant, memory=False)
        # The (offset, length) of the sections an observer may leave out.
        self.memory = tuple(
            (block.offset, block.length)
            for block in self.encoder.layout
            if block.name in _MEMORY_SECTIONS
        )
        self.hand = tuple(
            (block.offset, block.length) for block in self.encoder.layout if block.name == "hand"
        )
        self.deck = bytes(variant.decks * (2 if c.is_joker else 1) for c in CARDS)
        self.cards = sum(self.deck)
        # The deal takes at least the hands' cards before it takes any from the stock.
        self.hand_cards = variant.hand_size * variant.players


def _counted(cards: list[Card]) -> bytes:
    """How many of each chance outcome ``cards`` hold."""
    counts = [0] * len(CARDS)
    for card in cards:
        counts[_CARD_ID[card]] += 1
    return bytes(counts)


def _picks(left: bytes) -> list[int]:
    """The chance outcomes that ``left`` still holds, in increasing order (in C: half the
    instructions of a loop over the deck's outcomes)."""
    return list(itertools.compress(_OUTCOMES, left))


def _minus(left: bytes, card: int) -> bytes:
    """``left`` with one card of outcome ``card`` less (bytes: copied in C, where a tuple
    of counts costs a reference count each)."""
    return left[:card] + _LESS[left[card]] + left[card + 1 :]


class _Core:
    """One state's value: the deal, the cards chance may still pick, and what it picked.

    ``left`` counts the cards chance may pick next, by outcome (a byte each): the cards not
    dealt yet, and once the deal is dealt (``chance="draw"``) the stock's cards not yet
    picked for the ``pending`` move, which waits for the cards ``top`` (picked so far) to
    be drawn.

    Immutable, so clones share it (OpenSpiel clones a Python state by deep-copying its
    attributes); it pickles as a position, which is how OpenSpiel serializes states.
    """

    __slots__ = ("deck", "left", "pending", "player", "rules", "state", "top")

    def __init__(
        self,
        rules: _Rules,
        deck: tuple[int, ...],
        state: GameState | None,
        left: bytes,
        pending: Move | None = None,
        top: tuple[int, ...] = (),
    ) -> None:
        self.rules = rules
        self.deck = deck
        self.state = state
        self.left = left
        self.pending = pending
        self.top = top
        # OpenSpiel asks for the player several times a move (its C++ side through a call
        # back into Python each time): found once.
        if state is None or pending is not None:
            self.player = _CHANCE
        else:
            to_move = state.to_move
            self.player = _TERMINAL if to_move is None else to_move  # None: the deal is over

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Core], tuple[Any, ...]]:
        rules = self.rules
        position = None if self.state is None else self.state.to_dict()
        pending = None if self.pending is None else str(self.pending)
        return (
            _restore,
            (rules.variant, rules.chance, self.deck, position, self.left, pending, self.top),
        )


def _restore(
    variant: Variant,
    chance: str,
    deck: tuple[int, ...],
    position: dict[str, Any] | None,
    left: bytes | tuple[int, ...],
    pending: str | None,
    top: tuple[int, ...],
) -> _Core:
    state = None if position is None else GameState.from_dict(position)
    move = None if pending is None else parse_move(pending)
    # Counts pickled by earlier versions are a tuple.
    return _Core(_rules(variant, chance), deck, state, bytes(left), move, top)


class CanastaGame(pyspiel.Game):
    """The game ``canasta_lib``. Its parameter ``variant`` is a registered variant name or a
    variant config as JSON text (``'{"variant": "classic", "target_score": 3000}'``);
    ``chance`` is ``"draw"`` (chance picks each stock card when it is drawn; the default)
    or ``"deck"`` (chance deals the whole deck before the first move).

    The game keeps a config with ``;`` in place of JSON's ``,`` (OpenSpiel's game strings
    split parameters at commas), which it reads back as JSON: so ``str(game)`` loads the
    same game, as OpenSpiel's serialization needs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        text = params["variant"]
        if not isinstance(text, str):
            raise RLError(f"parameter 'variant' must be text, got {text!r}")
        if text.lstrip().startswith("{"):
            try:
                # No name, option value or key of a config holds a ";".
                config = json.loads(text.replace(";", ","))
            except json.JSONDecodeError as exc:
                raise RLError(f"parameter 'variant' is not a JSON config: {exc}") from None
            variant = _resolve(config)
            written = variant.to_config()
            params["variant"] = (
                variant.name if len(written) == 1 else json.dumps(written, separators=(";", ":"))
            )
        else:
            variant = _resolve(text)
        chance = params["chance"]
        if chance not in CHANCE_MODES:
            raise RLError(f"parameter 'chance' must be one of {list(CHANCE_MODES)}, got {chance!r}")
        self.rules = _rules(variant, chance)
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
        super().__init__(_GAME_TYPE, info, params)

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    def new_initial_state(self) -> CanastaState:
        """The deal before the first card is dealt (a chance node)."""
        return CanastaState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Chance picks every card of the decks at most once."""
        return self.rules.cards

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CanastaObserver:
        """An observer for ``iig_obs_type`` (default: the observation, no memory)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return CanastaObserver(self.rules, iig_obs_type, params)


class CanastaState(pyspiel.State):
    """A deal of Canasta: the chance player deals, then the seats play (and, with
    ``chance="draw"``, chance picks each card drawn from the stock)."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        rules = game.rules
        self._core = _Core(rules, (), None, rules.deck)

    @property
    def game_state(self) -> GameState | None:
        """The deal (None while the hands are being dealt); while a move waits for its cards
        from the stock, the deal before that move."""
        return self._core.state

    @property
    def pending(self) -> Move | None:
        """The move waiting for chance to pick the cards it draws from the stock, or None."""
        return self._core.pending

    def current_player(self) -> int:
        return self._core.player

    def is_chance_node(self) -> bool:
        """Whether chance picks the next card (answered here, without a round trip through
        C++)."""
        return self._core.player == _CHANCE

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to move), as
        OpenSpiel's own ``observation_tensor`` gives it, made here without its round trip
        through C++ (which also builds an initial state each time, to learn the size).

        Raises:
            RLError: ``player`` is not a seat.
        """
        return self._tensor(player, memory=False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information state tensor of ``player`` (default: the player to move), as
        OpenSpiel's own ``information_state_tensor`` gives it (made likewise).

        Raises:
            RLError: ``player`` is not a seat.
        """
        return self._tensor(player, memory=True)

    def _tensor(self, player: int | None, *, memory: bool) -> list[float]:
        core = self._core
        rules = core.rules
        if player is None:
            player = self.current_player()
        players = rules.variant.players
        if (type(player) is not int or not 0 <= player < players) and (  # common case first
            player not in range(players) or isinstance(player, bool | float)
        ):
            raise RLError(f"player must be a seat from 0 to {players - 1}, got {player!r}")
        if core.state is None:
            return [0.0] * rules.encoder.size
        # Made in float32, as OpenSpiel makes tensors: the same values to the last bit.
        encoder = rules.lists if memory else rules.observed
        tensor: list[float] = encoder.encode(core.state.observe(int(player)))
        return tensor

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to move), sorted, as
        OpenSpiel's own ``legal_actions`` gives them (at a chance node the chance outcomes,
        for any player; none for a seat not to move, or at the end), without its round
        trip through C++.

        Raises:
            RLError: ``player`` is neither a seat nor the player to move.
        """
        core = self._core
        current = core.player
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return _picks(core.left)
        if player is None or player == current:
            assert core.state is not None
            return core.rules.actions._sorted(core.state)
        if player not in range(core.rules.variant.players):
            raise RLError(f"player {player!r} is neither a seat nor the player to move")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        assert state is not None and player == state.to_move
        return self._core.rules.actions._sorted(state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._core.left
        total = sum(left)
        return [(card, left[card] / total) for card in itertools.compress(_OUTCOMES, left)]

    def _apply_action(self, action: int) -> None:
        core = self._core
        rules = core.rules
        state = core.state
        if state is None:
            self._core = _deal(core, int(action))
        elif core.pending is not None:
            self._core = _draw(core, int(action))
        else:
            move: Move = rules.actions.decode(state, action)
            # A draw takes a card from the stock at least (with none it is not legal); any
            # other move is tried, to see whether it takes any (the threes of the next
            # player, laid out at the start of the turn, are replaced from the stock).
            if rules.per_draw and isinstance(move, Draw):
                self._core = _pending(rules, core.deck, state, core.left, move)
                return
            after = state.apply(move)
            if rules.per_draw and after.stock_size < state.stock_size:
                # The move draws from the stock: chance picks the cards, one at a time.
                self._core = _pending(rules, core.deck, state, core.left, move)
            else:
                self._core = _Core(rules, core.deck, after, core.left)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"{'deal' if self._core.state is None else 'stock'}:{CARDS[action]}"
        return self._core.rules.actions.name(action)

    def is_terminal(self) -> bool:
        return self._core.player == _TERMINAL

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
        (the deal's history and memory kept; a move waiting for stock cards waits again,
        with none picked)."""
        core = self._core
        clone: CanastaState = self.clone()
        if core.state is None:
            return clone
        seed = int(probability_sampler() * 2**52)
        sampled = sample_state(core.state.observe(player_id), random.Random(seed))
        rules = core.rules
        left = core.left
        if rules.per_draw:
            # Chance picks from the sampled stock, but the turn card face up on top of it.
            stock = list(parse_cards(sampled.to_dict()["stock"]))
            if rules.turn_card and len(stock) == TURN_CARD_DEPTH:
                del stock[0]
            left = _counted(stock)
        if core.pending is None:
            clone._core = _Core(rules, core.deck, sampled, left)
        else:
            clone._core = _pending(rules, core.deck, sampled, left, core.pending)
        return clone

    def __str__(self) -> str:
        core = self._core
        if core.state is None:
            dealt = " ".join(str(CARDS[i]) for i in core.deck)
            return f"dealing {len(core.deck)} of {core.rules.cards}: {dealt}"
        text = core.state.to_json()
        if core.pending is not None:
            drawn = " ".join(str(CARDS[i]) for i in core.top)
            text += f"\n{core.pending} waits for stock cards; drawn: {drawn}"
        return text


def _deal(core: _Core, card: int) -> _Core:
    """The deal after chance dealt ``card``: the hands first, then (``chance="draw"``) the
    cards the deal turns up or draws for threes, until it has them all."""
    rules = core.rules
    deck = (*core.deck, card)
    left = _minus(core.left, card)
    if rules.per_draw:
        if len(deck) < rules.hand_cards:
            return _Core(rules, deck, None, left)
        # Deal with the cards picked so far on top of the stock: done when the deal took
        # no card from the stock that chance has not picked.
        rest = [i for i, count in enumerate(left) for _ in range(count)]
        state = new_game(rules.variant, deck=[CARDS[i] for i in (*deck, *rest)])
        if rules.cards - state.stock_size > len(deck):
            return _Core(rules, deck, None, left)
        return _Core(rules, deck, state, left)
    if len(deck) < rules.cards:
        return _Core(rules, deck, None, left)
    return _Core(rules, deck, new_game(rules.variant, deck=[CARDS[i] for i in deck]), left)


def _draw(core: _Core, card: int) -> _Core:
    """After chance picked ``card`` for the pending move: the move is played with the cards
    picked so far on top of the stock (a draw once it has the cards it surely takes), and
    done when it took no other card from it."""
    rules = core.rules
    state = core.state
    move = core.pending
    assert state is not None and move is not None
    left, top = _minus(core.left, card), (*core.top, card)
    if isinstance(move, Draw) and len(top) < min(rules.variant.draw_count, state.stock_size):
        # A turn's draw takes its count of cards, or the stock's last ones, whatever they
        # are (threes drawn are replaced on top of that): it waits for the next card
        # without being played.
        return _Core(rules, core.deck, state, left, move, top)
    return _drawn(rules, core.deck, state, left, move, top)


def _drawn(
    rules: _Rules,
    deck: tuple[int, ...],
    state: GameState,
    left: bytes,
    move: Move,
    top: tuple[int, ...],
) -> _Core:
    """The pending ``move`` played with ``top`` on the stock: done when it took no other
    card from it. A move that leaves the Modern American turn card on top of the stock
    (9 cards) waits for one more card too: lying face up there, the turn card is seen by
    every seat, so chance picks it as the move ends, not when it is drawn."""
    after = state.with_stock_top(map(CARDS.__getitem__, top)).apply(move)
    needed = state.stock_size - after.stock_size
    if rules.turn_card and after.stock_size == TURN_CARD_DEPTH:
        needed += 1
    if needed > len(top):
        return _pending(rules, deck, state, left, move, top)
    return _Core(rules, deck, after, left)


def _pending(
    rules: _Rules,
    deck: tuple[int, ...],
    state: GameState,
    left: bytes,
    move: Move,
    top: tuple[int, ...] = (),
) -> _Core:
    """``move`` waiting for chance to pick its next stock card, ``top`` picked so far. The
    turn card lying face up on top of the stock was picked when it came there (`_drawn`):
    it is drawn without a chance node."""
    if rules.turn_card and not top and state.stock_size == TURN_CARD_DEPTH:
        turn_card = state.turn_card
        assert turn_card is not None  # a variant with the turn card shows it on top
        return _drawn(rules, deck, state, left, move, (_CARD_ID[turn_card],))
    return _Core(rules, deck, state, left, move, top)


_MEMORY_KEYS = ("history", "known", "discarded")


def _forget(vector: np.ndarray, sections: tuple[tuple[int, int], ...]) -> None:
    """Zero the ``(offset, length)`` sections of ``vector``."""
    for offset, length in sections:
        vector[offset : offset + length] = 0.0


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
        rules = self._rules
        rules.encoder.encode(deal.observe(player), out=self.tensor)
        if not self._memory:
            _forget(self.tensor, rules.memory)
        if not self._private:
            _forget(self.tensor, rules.hand)

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
        if core.pending is not None:
            data["pending"] = str(core.pending)  # the move waits for its stock cards
        return json.dumps(data, separators=(",", ":"))


pyspiel.register_game(_GAME_TYPE, CanastaGame)
