"""Fuzz tests: hostile text into every parser, asserting that only documented errors come
out, within a time and memory bound, and that whatever is accepted plays on.

- card text and move text (``Card.parse``, ``parse_cards``, ``parse_move``): accepted text
  reads back from its canonical form; a parsed move is checked and, when legal, applied;
- game records mutated from real ones (``records.loads``);
- variant configs (``variants.from_config``, and ``variants.load`` on JSON and TOML);
- the command line on hostile files (``canasta moves``, ``canasta validate``).

Deterministic (``derandomize=True``, no example database, bounded examples) so CI sees the
same inputs every run; ``make fuzz`` runs the coverage-guided long version.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

import canasta
from canasta import CanastaError, GameState, Match, records, variants
from canasta.cli import main

T = TypeVar("T")

FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,  # time is bounded below, per example, with a margin for a busy machine
    max_examples=300,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: Per example: seconds of CPU time and bytes of traced memory.
SECONDS = 2.0
MEMORY = 8 * 1024 * 1024


@contextlib.contextmanager
def bounded() -> Iterator[None]:
    """Fail if the block takes more than `SECONDS` of CPU time or `MEMORY` bytes."""
    tracemalloc.start()
    started = time.process_time()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    spent = time.process_time() - started
    assert spent < SECONDS, f"took {spent:.2f} s"
    assert peak < MEMORY, f"used {peak} bytes"


def accepted(action: Callable[[], T]) -> T | None:
    """``action()``'s result, or None when it raised a documented error.

    The outcome is a Hypothesis event (``pytest --hypothesis-show-statistics`` shows how
    many inputs each test had accepted and refused, and with which error).
    """
    try:
        result = action()
    except CanastaError as error:
        assert str(error), "an error without a message"
        event(f"refused: {type(error).__name__}")
        return None
    event("accepted")
    return result


def plays_on(state: GameState) -> None:
    """A state that was accepted is over, or has a legal move that applies."""
    moves = state.legal_moves()
    assert state.is_over == (not moves)
    if moves:
        state.apply(moves[0])


# -- card and move text ----------------------------------------------------------------------

CARD_ALPHABET = "A23456789TJQKSHDCatjqkshdc10* \t\n:+xX\x00é🂡"
#: Pieces of card text, valid and not: cards, rank patterns, other names, separators.
CARD_PIECES = [
    *"A23456789TJQK*",
    *(rank + suit for rank in "A3TJK2" for suit in "SHDCx"),
    *("10", "10s", "JK", "jk", "JKH", "th", " ", "  ", "\t"),
]
MOVE_HEADS = ["draw", "take", "meld:", "take:", "add:K+", "add:*+", "add:JK+", "add:10+"]
MOVE_HEADS += ["add:", "add:X+", "discard:", "ask", "yes", "no", "end", "DRAW", "Meld:"]


def card_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(st.sampled_from(CARD_PIECES), max_size=12).map("".join),
        st.text(CARD_ALPHABET, max_size=40),
        st.text(max_size=20),
    )


@st.composite
def move_text(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        pieces = draw(st.lists(st.sampled_from([p for p in CARD_PIECES if p.strip()]), max_size=8))
        return draw(st.sampled_from(MOVE_HEADS)) + "".join(pieces)
    parts = draw(st.lists(st.one_of(st.sampled_from(MOVE_HEADS), card_text()), max_size=6))
    return "".join(parts)


@given(text=card_text())
@FUZZ
def test_card_text(text: str) -> None:
    with bounded():
        card = accepted(lambda: canasta.Card.parse(text))
        cards = accepted(lambda: canasta.parse_cards(text))
    if card is not None:
        assert canasta.Card.parse(str(card)) == card and not card.is_pattern
        assert eval(repr(card), {"Card": canasta.Card}) == card
    if cards is not None:
        assert canasta.parse_cards(" ".join(map(str, cards))) == cards
        assert canasta.parse_cards("".join(map(str, cards))) == cards


STATES = [
    canasta.new_game("classic", seed=5).play("draw"),
    canasta.new_game("modern-american", seed=6).play("draw"),
    canasta.new_game("classic-2p", seed=7),
]


@given(text=move_text(), which=st.sampled_from(range(len(STATES))))
@FUZZ
def test_move_text(text: str, which: int) -> None:
    state = STATES[which]
    before = state.to_json()
    with bounded():
        move = accepted(lambda: canasta.parse_move(text))
        reason = None if move is None else state.check(move)
    if move is None:
        return
    assert canasta.parse_move(str(move)) == move
    assert eval(repr(move), {"parse_move": canasta.parse_move}) == move
    if reason is None:
        plays_on(state.apply(move))
    assert state.to_json() == before


# -- records mutated from real ones ------------------------------------------------------------


def _records() -> list[str]:
    match = Match.new("classic-2p", seed=3)
    deal = canasta.new_game("classic", seed=8)
    bots = canasta.bots.RandomBot(seed=1)
    for _ in range(120):
        if match.deal_number > 1:
            break
        match = match.apply(bots.choose(match.state.observe(match.state.to_move or 0)))
    for _ in range(40):
        deal = deal.apply(bots.choose(deal.observe(deal.to_move or 0)))
    start = canasta.new_game("classic-3p", seed=9)
    return [
        records.dumps(match, date="2026.01.01"),
        records.dumps(deal, seed=8, date="2026.01.01"),
        records.dumps(start.play("draw"), start=start, date="2026.01.01"),  # a [Deck] tag
    ]


RECORDS = _records()
JUNK = st.sampled_from(
    ['"', "[", "]", "{", "}", ";", "\n", " ", "\\", "[Deck ", "9" * 30, "S9:", "*", "meld:"]
)


@st.composite
def mutated(draw: st.DrawFn, texts: list[str]) -> str:
    """A real text with a few cuts, insertions, duplications and swaps."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        change = draw(st.sampled_from(["cut", "insert", "copy", "swap", "digit"]))
        if change == "cut":
            text = text[:i] + text[j:]
        elif change == "insert":
            text = text[:i] + draw(st.one_of(JUNK, st.text(max_size=8))) + text[i:]
        elif change == "copy":
            text = text[:i] + text[i:j] * draw(st.integers(2, 5)) + text[i:]
        elif change == "swap":
            lines = text.split("\n")
            a, b = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[:i] + str(draw(st.integers(0, 9))) + text[i + 1 :]
    return text


@given(text=mutated(RECORDS))
@FUZZ
def test_mutated_records(text: str) -> None:
    with bounded():
        result = accepted(lambda: records.loads(text))
    if isinstance(result, Match):
        if not result.is_over:
            plays_on(result.state)
    elif result is not None:
        plays_on(result)


#: Texts of several records, with comments of both kinds and player names.
COLLECTIONS = [
    RECORDS[0].replace("\n1. ", "\n; a comment\n1. ", 1)
    + "\n"
    + RECORDS[1].replace(" discard:", " { why } discard:", 2)
    + '[Game "deal"]\n[Variant "classic-2p"]\n[Seed "4"]\n[Players "\\"A, B\\", C"]\n'
    + "\n1. S0: draw {open\nover lines} ; end\n",
]


@given(text=mutated(COLLECTIONS))
@settings(FUZZ, max_examples=150)
def test_mutated_record_collections(text: str) -> None:
    """Every record of a text is read or refused; one that replays is written back (with
    its comments) as a text that reads back to the same record."""
    with bounded():
        found = accepted(lambda: records.parse_all(text))
        for record in found or ():
            if accepted(record.replay) is None:
                continue
            again = records.parse(records.dumps(record))
            assert (again.moves, again.comments, again.tags) == (
                record.moves,
                record.comments,
                record.tags,
            )


# -- variant configs ---------------------------------------------------------------------------

OPTION_NAMES = sorted({name for v in variants.names() for name in variants.get(v).option_names()})
SCALARS = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.sampled_from([0, 1, 2, 3, 5000, 10**20, 10**21, -(10**25)]),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=10),
    st.sampled_from(["at_deal", "first_turn", "min2_max3", "end_after_turn"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5), max_leaves=12)


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        config["variant"] = draw(st.one_of(st.sampled_from(variants.names()), st.text()))
    for key in draw(st.lists(st.one_of(st.sampled_from(OPTION_NAMES), st.text()), max_size=4)):
        config[key] = draw(VALUES)
    return config


def check_variant_plays(variant: canasta.Variant) -> None:
    assert variants.from_config(variant.to_config()) == variant
    state = canasta.new_game(variant, seed=1)
    json.loads(state.to_json())
    plays_on(state)
    records.loads(records.dumps(state))


@given(config=configs())
@FUZZ
def test_variant_configs(config: dict[str, Any]) -> None:
    with bounded():
        variant = accepted(lambda: variants.from_config(config))
    if variant is not None:
        check_variant_plays(variant)


@given(config=configs(), suffix=st.sampled_from([".json", ".toml"]), cut=st.integers(0, 200))
@settings(FUZZ, max_examples=100)
def test_variant_files(config: dict[str, Any], suffix: str, cut: int) -> None:
    """Configs written as JSON or TOML (each value as JSON, which TOML mostly shares),
    sometimes cut short."""
    if suffix == ".json":
        text = json.dumps(config)
    else:
        text = "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in config.items())
    text = text[: len(text) - cut % (len(text) + 1)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"config{suffix}"
        path.write_text(text, encoding="utf-8")
        with bounded():
            variant = accepted(lambda: variants.load(path))
    if variant is not None:
        check_variant_plays(variant)


# -- the command line on hostile files -----------------------------------------------------------

POSITION = canasta.new_game("classic", seed=2).play("draw").to_json()
HOSTILE_BYTES = st.one_of(
    mutated([POSITION, *RECORDS]).map(lambda t: t.encode("utf-8")),
    st.binary(max_size=200),
    st.sampled_from([b"[" * 5_000, b'{"a": ' * 1_000, b"\xff\xfe", b"9" * 5_000]),
)


@given(data=HOSTILE_BYTES, command=st.sampled_from(["moves", "validate"]))
@settings(FUZZ, max_examples=150)
def test_the_command_line_on_hostile_files(data: bytes, command: str) -> None:
    """Exit status 0, 1 or 2; on an error one line that names the file; no traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.json"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), bounded():
            status = main([command, str(path)])
    assert status in (0, 1, 2)
    if status == 2:
        message = err.getvalue().splitlines()
        assert len(message) == 1 and "input.json" in message[0], message
    elif status == 1:
        # One line per record the file holds, each naming the file.
        message = out.getvalue().splitlines()
        assert message and all(line.startswith(str(path)) for line in message), message
        assert err.getvalue() == ""
    assert "Traceback" not in err.getvalue()
