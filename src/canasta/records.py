"""Game records: a PGN-like text format for matches and single deals (docs/records.md).

A record is a block of header tags followed by the moves, one turn per line::

    [Game "match"]
    [Variant "classic"]
    [Seed "7"]
    [Players "Ann, greedy, Bob, greedy"]
    [Date "2026.11.29"]
    [Result "*"]

    ; deal 1: dealer 3, scores 0 0
    1. S0: draw meld:KKK discard:7
    2. S1: draw discard:4   { a comment }

`dumps` writes a `Match` or a `GameState`;
`loads` reads a record back and replays it; `parse` reads it without
replaying. A malformed record raises `RecordError` with the line and
column; an illegal move raises `RecordReplayError` (a `ReplayError`)
with its ply, line and column and the reason.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import attrs

from canasta import _input
from canasta.cards import CARDS, format_codes, parse_codes
from canasta.deal import deal, full_deck, new_game
from canasta.errors import (
    CanastaError,
    IllegalMoveError,
    IllegalReason,
    NotationError,
    RecordError,
    ReplayError,
)
from canasta.match import Match
from canasta.moves import Move, parse_move
from canasta.state import GameState
from canasta.variants import from_text
from canasta.variants.base import Variant

__all__ = ["Record", "RecordReplayError", "dumps", "load", "loads", "parse"]

#: Tags written first, in this order; other tags follow in the order given.
TAG_ORDER = (
    "Game",
    "Variant",
    "Seed",
    "Deck",
    "Position",
    "Dealer",
    "StartScores",
    "Players",
    "Date",
    "Deals",
    "Scores",
    "Result",
)


class RecordReplayError(ReplayError):
    """An illegal move in a record.

    Attributes:
        move: the move.
        reason: an `IllegalReason`.
        ply: the 0-based index of the move in the whole record.
        line: the 1-based line of the move in the record text.
        column: the 1-based column of the move.
        deal: the number of the deal (1-based) in a match record, else None.
    """

    def __init__(
        self,
        move: Move | str,
        reason: IllegalReason,
        ply: int,
        line: int,
        column: int,
        deal: int | None = None,
    ) -> None:
        super().__init__(move, reason, ply)
        self.line = line
        self.column = column
        self.deal = deal
        where = f" (deal {deal})" if deal is not None else ""
        self.args = (
            f"line {line}, column {column}: illegal move {str(move)!r} at ply {ply}{where}: "
            f"{reason.value}",
        )


# -- reading -------------------------------------------------------------------------------


@attrs.frozen
class Record:
    """A parsed record: its tags and its moves, with where each move was written.

    Attributes:
        tags: the header tags, in the order written.
        moves: every move, in order (a match record runs on from deal to deal).
        places: the (line, column) of each move.
        seats: for each move that starts a line with a seat marker (``S2:``), that seat;
            else None.
        tag_lines: the line of each tag.
    """

    tags: tuple[tuple[str, str], ...]
    moves: tuple[Move, ...]
    places: tuple[tuple[int, int], ...]
    seats: tuple[int | None, ...]
    tag_lines: tuple[tuple[str, int], ...] = ()

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name``, or ``default``."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def _line_of(self, name: str) -> int:
        return next((line for key, line in self.tag_lines if key == name), 1)

    @property
    def kind(self) -> str:
        """``"match"`` or ``"deal"``."""
        return self.tag("Game", "match") or "match"

    @property
    def variant(self) -> Variant:
        """The variant of the ``Variant`` tag."""
        text = self.tag("Variant")
        if text is None:
            raise RecordError("the record has no Variant tag", 1, 1)
        return _read_variant(text, self._line_of("Variant"))

    def start(self) -> Match | GameState:
        """The match or deal before any move."""
        variant = self.variant
        if self.kind == "match":
            seed = self._int_tag("Seed", required=True)
            assert seed is not None
            return Match.new(variant, seed=seed)
        if self.kind != "deal":
            raise RecordError(
                f"Game must be 'match' or 'deal', got {self.kind!r}", self._line_of("Game"), 1
            )
        position = self.tag("Position")
        if position is not None:
            return self._position(position, variant)
        dealer = self._int_tag("Dealer")
        scores = self._scores_tag("StartScores", variant.sides)
        if dealer is not None and not 0 <= dealer < variant.players:
            raise RecordError(
                f"Dealer must be a seat from 0 to {variant.players - 1}, got {dealer}",
                self._line_of("Dealer"),
                1,
            )
        deck_text = self.tag("Deck")
        if deck_text is not None:
            try:
                deck = parse_codes(deck_text)
            except NotationError as exc:
                raise RecordError(f"Deck: {exc}", self._line_of("Deck"), 1) from None
            _check_deck(deck, variant, self._line_of("Deck"))
            try:
                return deal(variant, deck, scores, dealer)
            except (CanastaError, IndexError) as exc:
                raise RecordError(
                    f"Deck cannot be dealt: {exc}", self._line_of("Deck"), 1
                ) from None
        seed = self._int_tag("Seed")
        if seed is None:
            raise RecordError("a deal record needs a Seed, Deck or Position tag", 1, 1)
        return new_game(variant, seed=seed, scores=scores, dealer=dealer)

    def _position(self, text: str, variant: Variant) -> GameState:
        line = self._line_of("Position")
        try:
            data = _input.loads(text, what="Position", error=RecordError)
            state = GameState.from_dict(data)
        except RecordError as exc:
            raise RecordError(str(exc), line, 1) from None
        except CanastaError as exc:
            raise RecordError(f"Position: {exc}", line, 1) from None
        if state.variant != variant:
            raise RecordError("Position's variant differs from the Variant tag", line, 1)
        return state

    def _int_tag(self, name: str, *, required: bool = False) -> int | None:
        text = self.tag(name)
        if text is None:
            if required:
                raise RecordError(f"the record has no {name} tag", 1, 1)
            return None
        try:
            return _tag_int(text)
        except ValueError:
            raise RecordError(
                f"{name} must be an integer, got {_input.excerpt(text)}", self._line_of(name), 1
            ) from None

    def _scores_tag(self, name: str, sides: int) -> tuple[int, ...] | None:
        text = self.tag(name)
        if text is None:
            return None
        try:
            scores = tuple(_tag_int(x) for x in text.split())
        except ValueError:
            scores = ()
        if len(scores) != sides:
            raise RecordError(
                f"{name} must hold {sides} integers, got {_input.excerpt(text)}",
                self._line_of(name),
                1,
            )
        return scores

    def states(self) -> Iterator[GameState]:
        """Every state of the record in order: the start and the state after each move.

        In a match record, the move that ends a deal gives that deal's final state, and
        the next deal's first state follows it.

        Raises:
            RecordReplayError: at the first illegal move.
        """
        for move, before, after in self._steps():
            if before is None:
                yield after.state if isinstance(after, Match) else after
            elif isinstance(before, Match) and isinstance(after, Match):
                assert move is not None
                if len(after.deals) > len(before.deals):
                    yield before.state.apply(move)  # the finished deal's final state
                    if after.is_over:
                        continue
                yield after.state
            else:
                assert isinstance(after, GameState)
                yield after

    def _steps(
        self,
    ) -> Iterator[tuple[Move | None, Match | GameState | None, Match | GameState]]:
        current = self.start()
        yield None, None, current
        for ply, move in enumerate(self.moves):
            line, column = self.places[ply]
            state = current.state if isinstance(current, Match) else current
            marked = self.seats[ply]
            if marked is not None and state.to_move != marked:
                raise RecordError(
                    f"the turn is marked S{marked} but seat {state.to_move} is to move",
                    line,
                    max(column - len(f"S{marked}: "), 1),
                )
            reason = state.check(move)
            if reason is not None:
                number = current.deal_number if isinstance(current, Match) else None
                raise RecordReplayError(move, reason, ply, line, column, number)
            after = current.apply(move)
            yield move, current, after
            current = after

    def replay(self) -> Match | GameState:
        """Replay the record: the match or deal after its last move.

        The ``Result`` and ``Scores`` tags, when present, must agree with the replay.

        Raises:
            RecordError: a malformed record, or tags that disagree with the replay.
            RecordReplayError: an illegal move.
        """
        final: Match | GameState | None = None
        for _, _, after in self._steps():
            final = after
        assert final is not None
        self._check_result(final)
        return final

    def _check_result(self, final: Match | GameState) -> None:
        expected = _result(final)
        written = self.tag("Result")
        if written is not None and written.strip() != expected:
            raise RecordError(
                f"Result is {written!r} but the moves give {expected!r}", self._line_of("Result"), 1
            )
        if isinstance(final, Match):
            scores = self._scores_tag("Scores", final.variant.sides)
            if scores is not None and scores != final.scores:
                raise RecordError(
                    f"Scores are {' '.join(map(str, scores))} but the moves give "
                    f"{' '.join(map(str, final.scores))}",
                    self._line_of("Scores"),
                    1,
                )


_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TURN = re.compile(r"\d+\.$")
_SEAT = re.compile(r"[Ss](\d+):$")


def _tag_int(text: str) -> int:
    """An integer tag value of at most `_input.MAX_INT_DIGITS` digits, else ValueError."""
    if len(text.strip().lstrip("+-")) > _input.MAX_INT_DIGITS:
        raise ValueError(text)
    return int(text)


def _check_deck(deck: Sequence[int], variant: Variant, line: int) -> None:
    """A Deck tag must hold every card of the variant's decks, each exactly once per deck."""
    held, expected = Counter(deck), Counter(full_deck(variant))
    if held == expected:
        return
    parts = []
    for label, cards in (("missing", expected - held), ("extra", held - expected)):
        if cards:
            shown = [f"{CARDS[code]} x{count}" for code, count in sorted(cards.items())]
            more = f" and {len(shown) - 6} more" if len(shown) > 6 else ""
            parts.append(f"{label} {', '.join(shown[:6])}{more}")
    raise RecordError(
        f"Deck must hold the {expected.total()} cards of {variant.decks} deck(s), each "
        f"once per deck; got {len(deck)} cards ({'; '.join(parts)})",
        line,
        1,
    )


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _read_variant(text: str, line: int) -> Variant:
    try:
        return from_text(text)
    except CanastaError as exc:
        raise RecordError(f"Variant: {exc}", line, 1) from None


_COMMENT_MARK = re.compile(r"[{};]")


def _without_comments(
    raw: str, number: int, brace: tuple[int, int] | None
) -> tuple[str, tuple[int, int] | None]:
    """Line ``number`` with its {comments} (which may span lines) and ; comments blanked
    out, keeping columns; and where a {comment} still open at its end started.

    Only the comment marks are looked at one by one, so a long line costs little.
    """
    pieces: list[str] = []
    start = 0  # where the run not yet copied starts
    blank_tail = False
    for mark in _COMMENT_MARK.finditer(raw):
        i, ch = mark.start(), mark.group()
        if brace is not None:
            if ch == "}":
                pieces.append(" " * (i + 1 - start))
                start, brace = i + 1, None
        elif ch == "{":
            pieces.append(raw[start:i])
            start, brace = i, (number, i + 1)
        elif ch == "}":
            raise RecordError("'}' without '{'", number, i + 1)
        else:  # ';' comments out the rest of the line
            pieces.append(raw[start:i])
            start, blank_tail = i, True
            break
    tail = raw[start:]
    pieces.append(" " * len(tail) if blank_tail or brace is not None else tail)
    return "".join(pieces), brace


def parse(text: str) -> Record:
    """Read a record without replaying it.

    Raises:
        RecordError: malformed text (with the line and column).
    """
    if not isinstance(text, str):
        raise RecordError(f"a record must be text, got {type(text).__name__}")
    tags: list[tuple[str, str]] = []
    tag_lines: list[tuple[str, int]] = []
    moves: list[Move] = []
    places: list[tuple[int, int]] = []
    seats: list[int | None] = []
    in_moves = False
    brace: tuple[int, int] | None = None  # where an open {comment} started
    for number, raw in enumerate(text.splitlines(), start=1):
        if brace is None and raw.lstrip().startswith("["):
            # A tag line: taken as it is (a value may hold braces or semicolons).
            column = len(raw) - len(raw.lstrip()) + 1
            if in_moves:
                raise RecordError("a tag after the moves", number, column)
            match = _TAG.match(raw.strip())
            if match is None:
                raise RecordError('bad tag: expected [Name "value"]', number, column)
            name, value = match.group(1), _unescape(match.group(2))
            if any(key == name for key, _ in tags):
                raise RecordError(f"tag {name} appears twice", number, column)
            tags.append((name, value))
            tag_lines.append((name, number))
            continue
        line, brace = _without_comments(raw, number, brace)
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            raise RecordError("a tag must be on a line of its own", number, line.index("[") + 1)
        in_moves = True
        seat: int | None = None
        first = True
        for token in re.finditer(r"\S+", line):
            word, column = token.group(), token.start() + 1
            if first and _TURN.match(word):
                continue
            seat_match = _SEAT.match(word)
            if seat_match:
                if not first:
                    raise RecordError(f"seat marker {word!r} must start the turn", number, column)
                seat = int(seat_match.group(1))
                continue
            if word in ("*",):
                continue  # a PGN-style result marker
            try:
                move = parse_move(word)
            except NotationError as exc:
                raise RecordError(str(exc), number, column) from None
            moves.append(move)
            places.append((number, column))
            seats.append(seat if first else None)
            first = False
    if brace is not None:
        raise RecordError("'{' comment is never closed", brace[0], brace[1])
    if not any(key == "Variant" for key, _ in tags):
        raise RecordError("the record has no Variant tag", 1, 1)
    return Record(tuple(tags), tuple(moves), tuple(places), tuple(seats), tuple(tag_lines))


def loads(text: str) -> Match | GameState:
    """Read and replay a record: the `Match` or `GameState` it
    describes, after its last move.

    Raises:
        RecordError: malformed text, or tags that disagree with the replay.
        RecordReplayError: an illegal move (with its ply, line, column and reason).
    """
    return parse(text).replay()


def load(path: str | os.PathLike[str]) -> Match | GameState:
    """`loads` for a file path (read as UTF-8).

    Raises:
        RecordError: also for a file that cannot be read, is not UTF-8 text or is larger
            than any record (16 MiB).
    """
    return loads(_input.read_text(path, what="record", error=RecordError))


# -- writing -------------------------------------------------------------------------------


def _variant_text(variant: Variant) -> str:
    config = variant.to_config()
    if len(config) == 1:
        return variant.name
    return json.dumps(config, separators=(", ", ": "))


def _result(obj: Match | GameState) -> str:
    if isinstance(obj, Match):
        if not obj.is_over:
            return "*"
        return " ".join(str(side) for side in obj.winners)
    outcome = obj.outcome()
    return "*" if outcome is None else " ".join(map(str, outcome.scores))


class _Lines:
    """Collects moves into turn lines: ``N. S<seat>: move move ...``."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current: list[str] = []
        self.seat: int | None = None
        self.number = 0

    def add(self, before: GameState, move: Move) -> None:
        if self.seat is None or (before.phase == "draw" and before.to_move != self.seat):
            self.flush()
            self.seat = before.to_move
            self.number += 1
        elif before.phase == "draw" and before.to_move == self.seat and self.current:
            # The same seat starts another turn (only after a deal with one seat acting).
            self.flush()
            self.number += 1
        self.current.append(str(move))

    def flush(self) -> None:
        if self.current:
            self.lines.append(f"{self.number}. S{self.seat}: " + " ".join(self.current))
        self.current = []


def _deal_lines(start: GameState, moves: Sequence[Move]) -> tuple[list[str], GameState]:
    """The moves of one deal, one turn per line; and the state after them."""
    lines = _Lines()
    state = start
    for move in moves:
        lines.add(state, move)
        state = state.apply(move)
    lines.flush()
    return lines.lines, state


def _match_lines(match: Match) -> list[str]:
    """Replay ``match`` from its seed and write its deals."""
    replay = Match.new(match.variant, seed=match.seed)
    out: list[str] = []
    for deal_ in match.history:
        scores = " ".join(map(str, deal_.scores))
        out.append(f"; deal {deal_.number}: dealer {deal_.dealer}, scores {scores}")
        lines = _Lines()
        for move in deal_.moves:
            lines.add(replay.state, move)
            replay = replay.apply(move)
        lines.flush()
        out += lines.lines
        if deal_.outcome is not None:
            result = " ".join(map(str, deal_.outcome.scores))
            out.append(f"; deal {deal_.number} result: {result}")
        out.append("")
    return out


def _deck_of(state: GameState) -> tuple[int, ...] | None:
    """An exact deck that `deal` turns into ``state``, if one is found."""
    variant = state.variant
    players = variant.players
    hands = state.hands
    if (
        state.phase != "draw"
        or any(state.melds[s] for s in range(variant.sides))
        or any(len(h) != variant.hand_size for h in hands)
    ):
        return None
    first = (state.dealer + 1) % players
    deck: list[int] = []
    for i in range(variant.hand_size):
        for offset in range(players):
            deck.append(hands[(first + offset) % players][i])
    deck += list(state.pile) + list(state.stock)
    try:
        dealt = deal(variant, deck, state.scores, state.dealer)
    except (CanastaError, IndexError):
        return None
    return tuple(deck) if dealt == state else None


def dumps(
    obj: Match | GameState,
    *,
    seed: int | None = None,
    start: GameState | None = None,
    players: Sequence[str] | None = None,
    date: str | datetime.date | None = None,
    tags: Mapping[str, str] | None = None,
) -> str:
    """Write a match or a deal as a record.

    A `Match` is recorded by its seed. A `GameState` is recorded
    from where its moves started: pass the ``seed`` it was dealt with
    (``new_game(variant, seed=...)``; its dealer and scores are recorded too), or its
    starting state as ``start``; a state with no moves is its own start. A start that
    `deal` reproduces from a deck is written as ``[Deck]``, any other
    (such as one read with ``GameState.from_dict``) as its exact ``[Position]``.

    Args:
        obj: the match or deal to record.
        seed: the deal's seed (GameState only).
        start: the deal's starting state (GameState only).
        players: a name per seat, for the ``Players`` tag.
        date: the ``Date`` tag (default: today).
        tags: more tags to write.

    Returns:
        The record text.

    Raises:
        RecordError: the deal's start is unknown, or does not lead to ``obj``.
    """
    header: dict[str, str] = {}
    body: list[str] = []
    if isinstance(obj, Match):
        if seed is not None or start is not None:
            raise RecordError("seed and start are for GameState records; a Match has a seed")
        header["Game"] = "match"
        header["Variant"] = _variant_text(obj.variant)
        header["Seed"] = str(obj.seed)
        body = _match_lines(obj)
        header["Deals"] = str(len(obj.history))
        header["Scores"] = " ".join(map(str, obj.scores))
    elif isinstance(obj, GameState):
        moves = [event.move for event in obj.history()]
        header["Game"] = "deal"
        header["Variant"] = _variant_text(obj.variant)
        if seed is not None:
            begin = new_game(obj.variant, seed=seed, scores=obj.scores, dealer=obj.dealer)
        elif start is not None:
            begin = start
        elif not moves:
            begin = obj
        else:
            raise RecordError(
                "cannot record a deal with moves without knowing its start: pass seed= (the "
                "seed it was dealt with) or start= (its first state), or record a Match"
            )
        try:
            lines, end = _deal_lines(begin, moves)
        except IllegalMoveError as exc:
            raise RecordError(f"the deal's moves do not replay from its start: {exc}") from None
        if end != obj:
            raise RecordError("the deal's moves from the given start do not lead to this state")
        if seed is not None:
            header["Seed"] = str(seed)
            header["Dealer"] = str(begin.dealer)
            header["StartScores"] = " ".join(map(str, begin.scores))
        else:
            deck = _deck_of(begin)
            if deck is not None:
                header["Deck"] = format_codes(deck)
                header["Dealer"] = str(begin.dealer)
                header["StartScores"] = " ".join(map(str, begin.scores))
            else:
                header["Position"] = begin.to_json()
        body = lines
    else:
        raise TypeError(f"dumps() records a Match or a GameState, got {type(obj).__name__}")
    if players is not None:
        header["Players"] = ", ".join(players)
    if date is None:
        date = datetime.date.today()
    header["Date"] = date.strftime("%Y.%m.%d") if isinstance(date, datetime.date) else str(date)
    header["Result"] = _result(obj)
    for key, value in (tags or {}).items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", key):
            raise RecordError(f"bad tag name {key!r}")
        header[key] = value
    ordered = [k for k in TAG_ORDER if k in header] + [k for k in header if k not in TAG_ORDER]
    out = [f'[{key} "{_escape(header[key])}"]' for key in ordered]
    out.append("")
    out += body
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
