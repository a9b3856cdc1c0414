"""The `Variant` base class: a frozen value holding a variant's numbers and options,
and the small rule questions the engine asks it (style: "the engine owns sequencing; a
variant answers small questions").

Every option is one annotated attrs field named after its rule flag; validation raises
`VariantError` naming the field.
"""
# The flags are those of spec §5.

from __future__ import annotations

import difflib
import itertools
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import attrs

from canasta._input import MAX_INT, excerpt
from canasta.cards import CARDS, THREE, is_wild
from canasta.errors import IllegalReason, UnknownVariantError, VariantError

if TYPE_CHECKING:
    from canasta.table import ScoreLine, Table

__all__ = ["LastStockThree", "OptionSpec", "Variant"]

# Opening content flags (spec §3.5.4, D22): which kinds of melds an initial meld contains;
# `Variant.opening_done` reads them.
CLEAN3 = 1  # a meld of >= 3 naturals and no wild
NAT3 = 2  # a meld with >= 3 naturals
WILD_MELD = 4  # a wild-card meld
HAND_CANASTA = 8  # a canasta laid entirely from hand
MIXED_CANASTA = 16  # a mixed canasta
OWN_CANASTA = 32  # one of the player's own groups this turn has 7 or more cards (§2.10)


class LastStockThree(NamedTuple):
    """What a three drawn as the last stock card does."""

    # Spec §2.12, §3.5.2, D11.

    #: it stays in the hand instead of going face up
    kept_in_hand: bool
    #: the deal ends at once
    ends_deal: bool
    #: the player melds what they wish but may not discard
    no_discard: bool


#: Characters allowed in variant names and aliases (they appear in config files and on
#: the command line): letters, digits, ``-``, ``_`` and ``.``, starting with a letter.
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


# Every variant value in use, once: the engine's caches are keyed by the variant, and a
# lookup that finds the very same object skips comparing the variants field by field.
_CANONICAL: weakref.WeakValueDictionary[Variant, Variant] = weakref.WeakValueDictionary()


def canonical(variant: Variant) -> Variant:
    """The one object of this process that equals ``variant`` (``variant`` itself, the
    first time): the states dealt, read or unpickled with equal variants share it.

    It also asks the hooks the engine keeps (`Variant.answers`) where that has not been
    done: for an unpickled variant, and for a subclass whose ``__attrs_post_init__`` does
    not call the base class's (every variant enters a game through here)."""
    try:
        variant.answers  # noqa: B018 - a slot filled or not
    except AttributeError:
        object.__setattr__(variant, "answers", _Answers(variant))
    return _CANONICAL.setdefault(variant, variant)


def _unpickled(cls: type[Variant], state: dict[str, Any]) -> Variant:
    variant = cls.__new__(cls)
    variant.__setstate__(state)  # type: ignore[attr-defined]
    return canonical(variant)  # __init__ did not run: this asks the hooks


def _no_registry(name: str) -> Variant:
    raise UnknownVariantError(f"unknown variant {name!r}: the registry is not loaded")


#: The registered variant of a name (raising UnknownVariantError): `canasta.variants`,
#: which imports this module, installs its lookup here for `Variant.to_config`.
registered: Callable[[str], Variant] = _no_registry


@attrs.frozen
class OptionSpec:
    """The values an option accepts, for command lines, documentation and tests.

    ``kind`` is ``"int"`` (from ``low`` to ``high``; ``high`` None = no upper bound),
    ``"bool"``, ``"choice"`` (one of ``choices``), ``"table"`` (sorted
    ``[score, minimum]`` pairs), ``"ints"`` (a list of integers at least 0) or
    ``"values"`` (a mapping of names to points, at least 0; ``choices`` lists the names,
    some of which other options may rule out).
    """

    kind: str
    default: object
    low: int | None = None
    high: int | None = None
    choices: tuple[object, ...] = ()


def check_name(value: object, what: str = "variant name") -> str:
    """``value`` if it is a valid variant name or alias, else raise VariantError."""
    if (
        not isinstance(value, str)
        or not value
        or not value[0].isalpha()
        or not set(value) <= _NAME_CHARS
    ):
        raise VariantError(
            f"{what} must be a string of letters, digits, '-', '_' or '.' starting with a "
            f"letter, got {value!r}"
        )
    return value


def shown(value: object) -> str:
    """An option value as it would be written in a config file (for messages)."""
    return _shown(value)


def _check_int(low: int, high: int | None = None) -> _Validator:
    def check(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        # type() and not isinstance(): a bool is an int in Python, but not a valid count.
        if type(value) is not int:
            raise VariantError(
                f"option {attribute.name!r} must be an integer, got {excerpt(value)}"
            )
        # No bound is unbounded: numbers past MAX_INT could not be written back in a config.
        top = MAX_INT if high is None else high
        if value < low or value > top:
            bound = f"from {low} to {top}"
            raise VariantError(f"option {attribute.name!r} must be {bound}, got {excerpt(value)}")

    return check


def _check_bool(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not bool:
        raise VariantError(f"option {attribute.name!r} must be true or false, got {value!r}")


def _check_choice(*choices: object) -> _Validator:
    def check(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is not type(choices[0]) or value not in choices:
            listed = ", ".join(repr(c) for c in choices)
            raise VariantError(f"option {attribute.name!r} must be one of {listed}, got {value!r}")

    return check


def _check_name(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_name(value, f"option {attribute.name!r}")


def _check_table(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = (
        isinstance(value, tuple)
        and bool(value)
        and all(
            isinstance(row, tuple) and len(row) == 2 and all(type(x) is int for x in row)
            for row in value
        )
    )
    if not ok:
        raise VariantError(
            f"option {attribute.name!r} must be a list of [score, minimum] pairs of integers, "
            f"got {_shown(value)}"
        )
    thresholds = [row[0] for row in value]
    if any(a >= b for a, b in itertools.pairwise(thresholds)):
        raise VariantError(
            f"option {attribute.name!r}: the scores must be strictly increasing, "
            f"got {_shown(value)}"
        )
    if thresholds[0] > 0:
        raise VariantError(
            f"option {attribute.name!r}: the first row must start at a score of 0 or lower, so "
            f"every score has a minimum, got {_shown(value)}"
        )
    if any(row[1] < 0 for row in value):
        raise VariantError(
            f"option {attribute.name!r}: minimums must be at least 0, got {_shown(value)}"
        )


def _check_ints(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if (
        not isinstance(value, tuple)
        or not value
        or not all(type(x) is int and 0 <= x <= MAX_INT for x in value)
    ):
        raise VariantError(
            f"option {attribute.name!r} must be a non-empty list of integers at least 0, "
            f"got {_shown(value)}"
        )


def _to_values(value: Any) -> Any:
    """A mapping of names to points (or its pairs) as sorted pairs: a hashable value."""
    if isinstance(value, Mapping):
        value = value.items()
    elif not isinstance(value, list | tuple):
        return value  # the validator refuses it
    try:
        return tuple(sorted((tuple(pair) for pair in value), key=repr))
    except TypeError:
        return value


def _check_values(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not (
        isinstance(value, tuple)
        and all(
            isinstance(pair, tuple)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and type(pair[1]) is int
            and 0 <= pair[1] <= MAX_INT
            for pair in value
        )
        and len({pair[0] for pair in value}) == len(value)
    ):
        raise VariantError(
            f"option {attribute.name!r} must map names to points (integers at least 0), "
            f"got {excerpt(value)}"
        )


def _shown(value: Any) -> str:
    """A value as the user wrote it in a config file (tuples shown as lists)."""
    return repr(_to_list(value))


def _to_tuple(value: Any) -> Any:
    """Lists from config files (and tuples) become tuples, at every level."""
    if isinstance(value, list | tuple):
        return tuple(_to_tuple(v) for v in value)
    return value


def _to_list(value: Any) -> Any:
    """Tuples become lists, at every level: the form of config files (JSON, TOML)."""
    if isinstance(value, tuple):
        return [_to_list(v) for v in value]
    return value


def _spec(kind: str, default: object, **more: Any) -> dict[str, OptionSpec]:
    return {"canasta": OptionSpec(kind, default, **more)}


def int_field(default: int, low: int = 0, high: int | None = None) -> Any:
    return attrs.field(
        default=default,
        validator=_check_int(low, high),
        metadata=_spec("int", default, low=low, high=high),
    )


def bool_field(default: bool) -> Any:
    return attrs.field(default=default, validator=_check_bool, metadata=_spec("bool", default))


def choice_field(default: object, *others: object) -> Any:
    return attrs.field(
        default=default,
        validator=_check_choice(default, *others),
        metadata=_spec("choice", default, choices=(default, *others)),
    )


def table_field(default: tuple[tuple[int, int], ...]) -> Any:
    return attrs.field(
        default=default,
        converter=_to_tuple,
        validator=_check_table,
        metadata=_spec("table", default),
    )


def ints_field(default: tuple[int, ...]) -> Any:
    return attrs.field(
        default=default,
        converter=_to_tuple,
        validator=_check_ints,
        metadata=_spec("ints", default),
    )


def values_field(names: tuple[str, ...]) -> Any:
    """An option mapping some of ``names`` to points; empty by default (written as a
    mapping)."""
    return attrs.field(
        default=(),
        converter=_to_values,
        validator=_check_values,
        metadata=_spec("values", (), choices=names),
    )


class _Answers:
    """The answers of a variant's rule hooks that the engine reads on every move, asked
    once per variant (`Variant.answers`): a hook is a Python call each time, a slot read
    is not. Built by calling the hooks, so a subclass's overrides are what it holds."""

    __slots__ = (
        "ask_limit",
        "blocks",
        "freezes",
        "has_partners",
        "has_special_hands",
        "has_wild_melds",
        "holds_three",
        "side",
    )

    #: `Variant.side_of` of each seat
    side: tuple[int, ...]
    #: `Variant.freezes_pile` of each card code
    freezes: tuple[bool, ...]
    #: `Variant.blocks_pile` of each card code
    blocks: tuple[bool, ...]
    holds_three: bool
    has_wild_melds: bool
    has_special_hands: bool
    has_partners: bool
    ask_limit: int | None

    def __init__(self, variant: Variant) -> None:
        self.side = tuple(variant.side_of(seat) for seat in range(variant.players))
        self.freezes = tuple(variant.freezes_pile(code) for code in range(len(CARDS)))
        self.blocks = tuple(variant.blocks_pile(code) for code in range(len(CARDS)))
        self.holds_three = variant.holds_three
        self.has_wild_melds = variant.has_wild_melds
        self.has_special_hands = variant.has_special_hands
        self.has_partners = variant.has_partners
        self.ask_limit = variant.ask_limit


class _Answered:
    """A slot for a variant's `_Answers`, outside the attrs fields: not an option, not
    compared, hashed or pickled. (Not a cached property: attrs would give the class a
    ``__getattr__``, which slows every attribute read of a variant.)"""

    __slots__ = ("answers",)

    #: the rule hooks' answers the engine reads on every move (filled as the variant is
    #: built or unpickled: the variant is frozen, so they never change)
    answers: _Answers


@attrs.frozen(cache_hash=True)
class Variant(_Answered):
    """A rule set: who plays, with what, and every option that applies.

    Subclasses (`ClassicVariant`,
    `ModernAmericanVariant`) add their option fields and
    answer the rule questions below. Build variants with `canasta.variants.get`.
    """

    # The options are the flags of spec §5.

    #: The registry name of the preset this variant derives from.
    name: str = attrs.field(validator=_check_name)
    players: int = int_field(4, 2, 6)
    #: Number of sides; seat ``s`` plays for side ``s % sides`` (api.md §2).
    sides: int = int_field(2, 2, 6)
    decks: int = int_field(2, 1, 4)
    hand_size: int = int_field(11, 1)
    draw_count: int = int_field(1, 1, 2)
    canastas_to_go_out: int = int_field(1, 0)
    target_score: int = int_field(5000, 5)
    max_wilds_per_meld: int = int_field(3, 0)
    red_three_declare: str = choice_field("at_deal", "first_turn")
    tie_policy: str = choice_field("play_on", "shared_win")
    going_out_bonus: int = int_field(100)
    natural_canasta_bonus: int = int_field(500)
    mixed_canasta_bonus: int = int_field(300)

    family: ClassVar[str] = ""
    #: Codes of the threes laid out face up and replaced (classic: red threes).
    laid_out_threes: ClassVar[frozenset[int]] = frozenset()

    def __attrs_post_init__(self) -> None:
        self._check_combinations()
        object.__setattr__(self, "answers", _Answers(self))

    def _check_combinations(self) -> None:
        """Refuse option values that are valid alone but impossible together."""
        # Spec §3.6: Canasta for five is not supported (no source gives its rules).
        if self.players == 5:
            raise VariantError("option 'players': five players are not supported")
        # api.md §2: seat s plays for side s % sides, so the sides must divide the seats for
        # every side to hold the same number of seats and every seat exactly one side.
        if self.players % self.sides:
            raise VariantError(
                f"option 'sides': {self.sides} sides do not divide {self.players} players "
                f"(seat s plays for side s % sides, so every side needs as many seats)"
            )
        # The hands, the upcard, talons dealt face down (D31), a replacement for every three
        # the deal may lay out, and at least one card to draw must come out of the decks: a
        # deal never ends before the first turn.
        cards = self.decks * 54
        threes = len(self.laid_out_threes) * self.decks
        aside = sum(self.talon_sizes) if self.talons_set_aside else 0
        dealt = self.players * self.hand_size + (1 if self.starts_with_upcard else 0) + aside
        if dealt + threes + 1 > cards:
            talons = f" and {aside} talon cards set aside" if aside else ""
            raise VariantError(
                f"option 'hand_size': {self.players} hands of {self.hand_size} cards{talons} "
                f"leave {max(cards - dealt, 0)} stock cards in {self.decks} deck(s) of 54 "
                f"cards, too few to replace the {threes} threes a deal may lay out and draw one"
            )

    # -- structure ---------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(range(side, self.players, self.sides))

    @property
    def has_partners(self) -> bool:
        return self.players > self.sides

    # -- rule questions ------------------------------------------------------------------
    # The engine asks these; each family (classic, modern American) answers them.

    #: Does the deal start with an upcard (spec §2.2; none in §3.5.2)?
    starts_with_upcard: ClassVar[bool] = True
    #: Do same-rank melds merge into one (spec §2.4), or may a side hold several (§3.5.3)?
    merges_same_rank: ClassVar[bool] = True
    #: Largest meld (spec §3.5.3: 7); classic melds have no upper limit.
    max_meld_size: ClassVar[int] = 99
    #: Does a natural canasta close its rank for everyone (spec §3.5.3)?
    closes_ranks: ClassVar[bool] = False
    #: Is the pile frozen for everyone, always (spec §3.5.5)?
    pile_always_frozen: ClassVar[bool] = False
    #: May the pile be taken by laying the top card off (T3c)?
    pickup_layoff_allowed: ClassVar[bool] = True
    #: The pickup pair joins an existing meld only up to this size (spec §3.5.5: 4).
    pickup_join_limit: ClassVar[int] = 99
    #: Going out needs a final discard (spec §3.5.7).
    go_out_needs_discard: ClassVar[bool] = False
    #: While a wild meld is incomplete, no wilds go elsewhere (§3.5.3) and nobody goes out.
    wild_meld_blocks_wilds: ClassVar[bool] = False
    wild_meld_blocks_going_out: ClassVar[bool] = False
    #: Some cards may not be discarded (spec §3.5.6).
    restricts_discards: ClassVar[bool] = False
    #: A canasta laid from hand in the initial meld waives the minimum (spec §3.5.4).
    canasta_waives_minimum: ClassVar[bool] = False
    #: Is there a concealed going out (spec §2.10; Modern American has none, §3.5.7)?
    concealed_going_out: ClassVar[bool] = True

    def upcard_covered(self, code: int) -> bool:
        """Is this upcard covered by the next stock card?"""
        # Spec §2.2 step 3.
        return False

    def freezes_pile(self, code: int) -> bool:
        """Does this card, once in the pile, freeze it?"""
        # Spec §2.7.
        return False

    def blocks_pile(self, code: int) -> bool:
        """Only a natural card on top can be taken (a wild or a black three blocks; so
        does a red three left as the upcard)."""
        # Spec §2.7 `blocked` and T1; §3.7.
        return is_wild(code) or code >> 2 == THREE

    def initial_minimum(self, score: int) -> int:
        """The initial-meld minimum for a side's cumulative score."""
        # Spec §2.8, §3.5.4.
        raise NotImplementedError

    def opening_done(self, value: int, minimum: int, flags: int) -> bool:
        """Is the initial meld complete with this value and these content flags?

        Never false for a value when it is true for a smaller one: the look-ahead asks it
        with an unbounded value to learn whether the content rule can be met at all.
        """
        return value >= minimum

    @property
    def covers_last_discard(self) -> bool:
        """Does the discard that goes out lie face down, hidden from the other seats? Only
        for variants whose going out needs a discard (`go_out_needs_discard`)."""
        # Spec §3.5.11.5 CD1, CD4.
        return False

    def special_hand(self, counts: list[int]) -> tuple[str, int] | None:
        """The special hand (name, points) that the 14 cards of a hand, counted by rank
        index, form; None where there is none or none are played."""
        # Spec §3.5.11.3.
        return None

    @property
    def has_special_hands(self) -> bool:
        """Are special hands played (the move ``special``)?"""
        # Spec §3.5.11.3.
        return False

    @property
    def holds_three(self) -> bool:
        """May a player whose side has not opened keep one three in hand?"""
        # Spec §3.5.11.4.
        return False

    @property
    def special_hand_courtesy(self) -> bool:
        """May a player show a special hand on the first own turn after partner opened?"""
        # D36.
        return False

    @property
    def talon_sizes(self) -> tuple[int, ...]:
        """The talon each side's opener receives, by the order of opening (first side to
        open first); empty where talons are not played."""
        # Spec §3.5.11.1 TL1.
        return ()

    @property
    def talons_set_aside(self) -> bool:
        """Are the talons dealt face down at the deal (else drawn from the stock)?"""
        # D31.
        return False

    @property
    def talon_after_pickup(self) -> bool:
        """Does an opening made by taking the pile earn a talon?"""
        # D32.
        return False

    @property
    def talon_lowers_floor(self) -> bool:
        """While a talon is due, may the melds leave one card (to discard) instead of two?"""
        # D33.
        return False

    @property
    def shows_turn_card(self) -> bool:
        """Does a face-up turn card mark the last cards of the stock?"""
        # Spec §3.5.11.2.
        return False

    @property
    def concealed_exempt(self) -> bool:
        """Does a concealed going out skip the initial-meld minimum?"""
        # D12.
        return False

    @property
    def oversize_when_going_out(self) -> bool:
        """May melds grow beyond ``max_meld_size`` in the going-out turn?"""
        # D28.
        return False

    @property
    def has_wild_melds(self) -> bool:
        """Are melds of wild cards only allowed?"""
        # D1, spec §3.5.3.
        return False

    @property
    def new_meld_after_canasta(self) -> bool:
        """May a side start a second meld of a rank after a canasta of it?"""
        # D27.
        return False

    @property
    def one_card_pile_allowed(self) -> bool:
        """May a player holding one card take a one-card pile?"""
        # T5, D16.
        return True

    @property
    def ask_limit(self) -> int | None:
        """How often a player may ask partner per deal (None: once per turn only)."""
        return None

    @property
    def tied_sides_share_the_win(self) -> bool:
        """At the target score, do tied leading sides share the win (else play on)?"""
        # D18.
        return self.tie_policy == "shared_win"

    @property
    def asks_counted_per_game(self) -> bool:
        """Do a player's questions to partner count over the whole game, carried from
        deal to deal (else each deal starts afresh)?"""
        # D26.
        return False

    @property
    def declares_threes_at_deal(self) -> bool:
        """Are the threes laid out right after the deal (else at each player's first
        turn)?"""
        # Spec §2.2 (4), D3.
        return self.red_three_declare == "at_deal"

    @property
    def stock_out_ends_after_turn(self) -> bool:
        """Does the deal end when the player who drew the last card discards (else play
        goes on with the pile)?"""
        # Spec §2.12.
        raise NotImplementedError

    @property
    def pickup_forced_after_stock(self) -> bool:
        """Once the stock is out, must the pile be taken when it fits a meld?"""
        # D20.
        return False

    @property
    def last_stock_three_rule(self) -> LastStockThree:
        """What a three drawn as the last stock card does."""
        # D11, spec §3.5.2.
        raise NotImplementedError

    @property
    def lone_hand_on_first_pickup(self) -> bool:
        """Cutthroat: does the first player to take the pile play alone against the other
        two, who become partners?"""
        # Spec §3.3.
        return False

    @property
    def concealed_after_pickup(self) -> bool:
        """May a player who took the pile go out concealed?"""
        # D13.
        return True

    def natural_meld_reason(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> IllegalReason | None:
        """Why adding cards to a meld of ``rank`` holding ``naturals``/``wilds`` is invalid.

        A new meld starts from 0/0. ``opening`` is true while the side makes its initial
        meld. Returns None when the resulting meld is valid.
        """
        raise NotImplementedError

    def wild_rule_why(
        self, rank: int, naturals: int, wilds: int, add_naturals: int, add_wilds: int, opening: bool
    ) -> str:
        """Why `natural_meld_reason` refuses the wild cards with ``IllegalReason.WILD_RULE``
        (same arguments), in words for a person; "" where it does not."""
        return ""

    def black_three_meld_reason(self, threes: int, wilds: int) -> IllegalReason | None:
        """Why the going-out meld of black threes is refused, or None when it is valid."""
        # Spec §2.6.
        return IllegalReason.INVALID_MELD

    def wild_meld_reason(self, before: int, added: int) -> IllegalReason | None:
        """A meld of wild cards only, holding ``before`` cards, gets ``added`` more."""
        return IllegalReason.INVALID_MELD

    def pickup_reason(
        self, naturals: int, wilds: int, frozen: bool, opened: bool
    ) -> IllegalReason | None:
        """May the top card be melded with these cards from hand?"""
        # Spec §2.7 T2/T3.
        raise NotImplementedError

    def pickup_opening_value(self, top_value: int, hand_value: int) -> int:
        """What a pickup meld counts toward the initial meld."""
        # D9, D23.
        raise NotImplementedError

    def discard_reason(
        self,
        code: int,
        counts: list[int],
        pile_empty: bool,
        going_out: bool,
        closed: frozenset[int],
    ) -> IllegalReason | None:
        """May this card be discarded? (Classic: any card.)"""
        # Spec §3.5.6.
        return None

    def score_rows(self, table: Table) -> tuple[tuple[ScoreLine, ...], ...]:
        """Each side's score rows for a finished deal."""
        # Spec §2.13, §3.5.9.
        raise NotImplementedError

    # -- options and config ----------------------------------------------------------------

    def option_specs(self) -> dict[str, OptionSpec]:
        """Every option of this variant and the values it accepts, by name; each
        ``default`` is this variant's value (a preset's own, not its class's)."""
        specs: dict[str, OptionSpec] = {}
        for field in attrs.fields(type(self)):
            spec = field.metadata.get("canasta")
            if field.name != "name" and isinstance(spec, OptionSpec):
                specs[field.name] = attrs.evolve(spec, default=getattr(self, field.name))
        return specs

    def _written(self, name: str) -> Any:
        """An option's value as a config file holds it (tuples as lists, mappings as
        mappings)."""
        value = getattr(self, name)
        spec = attrs.fields_dict(type(self))[name].metadata.get("canasta")
        if isinstance(spec, OptionSpec) and spec.kind == "values":
            return dict(value)
        return _to_list(value)

    def option_names(self) -> tuple[str, ...]:
        """The names of the options `with_options` accepts, in field order."""
        return tuple(f.name for f in attrs.fields(type(self)) if f.name != "name")

    def to_config(self, *, full: bool = False) -> dict[str, Any]:
        """The variant as a config mapping, ready for JSON or TOML.

        ``{"variant": name}`` plus every option that differs from the registered preset of
        that name (``full=True``: every option). Tuples are written as lists.
        ``canasta.variants.from_config(v.to_config()) == v``.
        """
        # api.md §2.
        try:
            preset = registered(self.name)
        except UnknownVariantError:
            raise VariantError(
                f"variant {self.name!r} is not registered, so a config cannot name it; "
                f"register it first (canasta.variants.register)"
            ) from None
        if type(preset) is not type(self):
            raise VariantError(
                f"variant {self.name!r} is a {type(self).__name__}, but the registered "
                f"variant of that name is a {type(preset).__name__}"
            )
        config: dict[str, Any] = {"variant": self.name}
        for name in self.option_names():
            if full or getattr(self, name) != getattr(preset, name):
                config[name] = self._written(name)
        return config

    def with_options(self, options: Mapping[str, Any]) -> Variant:
        """A copy with ``options`` (option fields, by name) changed.

        An unknown option, an option of the wrong type or value, or an impossible
        combination raises `VariantError` naming the option. Lists
        (as read from config files) are accepted where the option holds a tuple.
        """
        if not isinstance(options, Mapping):
            raise VariantError(f"options must be a mapping of names to values, got {options!r}")
        known = self.option_names()
        for key in options:
            if key == "name":
                raise VariantError(
                    "option 'name' cannot be set: it is the name the variant is registered "
                    "under (give the preset's name as 'variant' in a config)"
                )
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise VariantError(
                    f"unknown option {key!r} for variant {self.name!r}; {hint}"
                    f"known options: {', '.join(sorted(known))}"
                )
        specs = self.option_specs()
        return canonical(
            attrs.evolve(
                self,
                **{k: v if specs[k].kind == "values" else _to_tuple(v) for k, v in options.items()},
            )
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled, a variant is the process's own copy of that value (see `canonical`).
        return (_unpickled, (type(self), self.__getstate__()))

    def with_name(self, name: str) -> Variant:
        """The same rules under another name, e.g. a house-rules variant to register.

        ``canasta.variants.register(get("classic-2p", draw_count=1).with_name("my-2p"))``
        """
        check_name(name)
        return attrs.evolve(self, name=name)
