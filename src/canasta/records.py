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

`dumps` writes a `Match`, a `GameState` or a parsed `Record` (with its comments), and
`dump` writes the same to a file; `loads` reads a record back and replays it, `load`
from a file; `parse` reads it without replaying. A text may hold several records, one
after another as PGN games do: `parse_all`, `loads_all` and `load_all` read every one.
A malformed record raises `RecordError` with the line and column; an illegal move
raises `RecordReplayError` (a `ReplayError`) with its ply, line and column, the reason,
and the move as written.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from canasta import _input
from canasta.cards import CARDS, format_codes, parse_codes
from canasta.deal import deal, full_deck, new_game
from canasta.errors import (
    ArgumentError,
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

__all__ = [
    "Comment",
    "Record",
    "RecordReplayError",
    "dump",
    "dumps",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "parse",
    "parse_all",
]

#: Tags written first, in this order; other tags follow in the order given.
_TAG_ORDER = (
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
        text: the move as written in the record.
    """

    def __init__(
        self,
        move: Move | str,
        reason: IllegalReason,
        ply: int,
        line: int,
        column: int,
        deal: int | None = None,
        why: str = "",
        text: str | None = None,
    ) -> None:
        super().__init__(move, reason, ply, why)
        self.line = line
        self.column = column
        self.deal = deal
        self.text = str(move) if text is None else text
        where = f" (deal {deal})" if deal is not None else ""
        self.args = (
            f"line {line}, column {column}: illegal move {self.text!r} at ply {ply}{where}: "
            f"{self.why}",
        )


# -- reading -------------------------------------------------------------------------------


@attrs.frozen
class Comment:
    """A comment of a record, kept where it was written.

    Attributes:
        ply: the number of moves before it (0: before the first move).
        text: the comment without its marks, spaces around it removed.
        braced: written ``{text}`` (within a line of moves); else ``; text`` (the rest of
            a line).
    """

    ply: int = attrs.field()
    text: str = attrs.field()
    braced: bool = False

    @ply.validator
    def _check_ply(self, _: object, ply: object) -> None:
        if type(ply) is not int or ply < 0:
            raise RecordError(f"a comment's ply must be an integer from 0, got {ply!r}")

    @text.validator
    def _check_text(self, _: object, text: object) -> None:
        # What a record could not hold: a } inside {...}, a line break after ;.
        bad = "}" if self.braced else "\n\r"
        if not isinstance(text, str) or any(ch in bad for ch in text):
            raise RecordError(
                f"a {'{...}' if self.braced else '; ...'} comment cannot hold "
                f"{_input.excerpt(text)}"
            )


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
        comments: the comments, each with the number of moves before it.
        written: each move as written in the text (``Meld:qqq`` for ``meld:QQQ``).
    """

    tags: tuple[tuple[str, str], ...]
    moves: tuple[Move, ...]
    places: tuple[tuple[int, int], ...]
    seats: tuple[int | None, ...]
    tag_lines: tuple[tuple[str, int], ...] = ()
    comments: tuple[Comment, ...] = ()
    written: tuple[str, ...] = ()

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
    def players(self) -> tuple[str, ...] | None:
        """The names of the ``Players`` tag, one per seat, or None without the tag."""
        text = self.tag("Players")
        return None if text is None else _read_players(text, self._line_of("Players"))

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
        players = self.players
        if players is not None and len(players) != variant.players:
            raise RecordError(
                f"Players must name {variant.players} players (one per seat), got {len(players)}",
                self._line_of("Players"),
                1,
            )
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
            try:
                after = current.apply(move)
            except IllegalMoveError as exc:
                number = current.deal_number if isinstance(current, Match) else None
                text = self.written[ply] if self.written else str(move)
                raise RecordReplayError(
                    move, exc.reason, ply, line, column, number, exc.why, text
                ) from None
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


# Possessive, so a long value is scanned once, without a backtracking stack per character.
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*+)"\s*\]\s*$')
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


#: The longest player name: a name, not a text.
_MAX_NAME_CHARS = 100
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)")
# A name in a Players tag: as written, or quoted as a JSON string when it holds a comma
# or a quote (possessive, so a long tag is scanned once).
_NAME = re.compile(r'\s*+("(?:[^"\\]|\\.)*+"|[^,"]*+)\s*+(,|$)')


def _check_date(text: str, line: int = 0) -> str:
    """A Date tag: ``YYYY.MM.DD``, with ``????``/``??`` for what is unknown (as in PGN);
    a date given in full must exist."""
    found = _DATE.fullmatch(text)
    if found is not None and "?" not in text:
        try:
            datetime.date(*map(int, found.groups()))
        except ValueError:
            found = None
    if found is None:
        raise RecordError(
            f"Date must be YYYY.MM.DD (?? where unknown), got {_input.excerpt(text)}", line, 1
        )
    return text


def _check_name(name: object, line: int = 0) -> str:
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > _MAX_NAME_CHARS
        or not name.isprintable()
    ):
        raise RecordError(
            f"a player's name must be printable text of 1 to {_MAX_NAME_CHARS} characters, "
            f"got {_input.excerpt(name)}",
            line,
            1,
        )
    return name


def _read_players(text: str, line: int = 0) -> tuple[str, ...]:
    """The names of a Players tag: separated by commas, a name holding a comma or a
    quote written as a JSON string (``Ann, "Smith, Bob"``)."""
    names: list[str] = []
    pos = 0
    while pos <= len(text):
        found = _NAME.match(text, pos)
        if found is None:
            raise RecordError(f"Players: bad name list {_input.excerpt(text)}", line, 1)
        name: object = found.group(1).strip()
        if found.group(1).startswith('"'):
            name = _input.loads(found.group(1), what="Players", error=RecordError)
        names.append(_check_name(name, line))
        if not found.group(2):
            break
        pos = found.end()
    return tuple(names)


def _players_text(players: Sequence[str]) -> str:
    """A Players tag value that `_read_players` reads back as ``players``."""
    names = [_check_name(name) for name in players]
    return ", ".join(
        json.dumps(n, ensure_ascii=False) if "," in n or '"' in n or n != n.strip() else n
        for n in names
    )


def _read_variant(text: str, line: int) -> Variant:
    try:
        return from_text(text)
    except CanastaError as exc:
        raise RecordError(f"Variant: {exc}", line, 1) from None


_COMMENT_MARK = re.compile(r"[{};]")
#: A comment found on a line: where it starts, its text on this line, ``{}`` or ``;``, and
#: whether it ends on this line.
_Note = tuple[int, str, bool, bool]


def _without_comments(
    raw: str, number: int, brace: tuple[int, int] | None
) -> tuple[str, tuple[int, int] | None, list[_Note]]:
    """Line ``number`` with its {comments} (which may span lines) and ; comments blanked
    out, keeping columns; where a {comment} still open at its end started; and the
    comments' text on this line.

    Only the comment marks are looked at one by one, so a long line costs little.
    """
    pieces: list[str] = []
    notes: list[_Note] = []
    start = 0  # where the run not yet copied starts
    text_from = 0  # where the open {comment}'s text starts on this line
    blank_tail = False
    for mark in _COMMENT_MARK.finditer(raw):
        i, ch = mark.start(), mark.group()
        if brace is not None:
            if ch == "}":
                notes.append((start, raw[text_from:i], True, True))
                pieces.append(" " * (i + 1 - start))
                start, brace = i + 1, None
        elif ch == "{":
            pieces.append(raw[start:i])
            start, brace, text_from = i, (number, i + 1), i + 1
        elif ch == "}":
            raise RecordError("'}' without '{'", number, i + 1)
        else:  # ';' comments out the rest of the line
            pieces.append(raw[start:i])
            notes.append((i, raw[i + 1 :], False, True))
            start, blank_tail = i, True
            break
    if brace is not None:
        notes.append((start, raw[text_from:], True, False))
    tail = raw[start:]
    pieces.append(" " * len(tail) if blank_tail or brace is not None else tail)
    return "".join(pieces), brace, notes


class _Game:
    """What `parse_all` has read of one record so far."""

    def __init__(self) -> None:
        self.tags: list[tuple[str, str]] = []
        self.tag_lines: list[tuple[str, int]] = []
        self.moves: list[Move] = []
        self.places: list[tuple[int, int]] = []
        self.seats: list[int | None] = []
        self.written: list[str] = []
        self.comments: list[Comment] = []
        self.past_tags = False  # a line that is not a tag came after some tags or moves

    def record(self, first: bool) -> Record:
        if not any(key == "Variant" for key, _ in self.tags):
            if first:
                raise RecordError("the record has no Variant tag", 1, 1)
            raise RecordError(
                "the record starting here has no Variant tag (a tag after the moves starts "
                "the next record)",
                self.tag_lines[0][1],
                1,
            )
        for name, check in (("Date", _check_date), ("Players", _read_players)):
            value = next((v for k, v in self.tags if k == name), None)
            if value is not None:
                check(value, next(n for k, n in self.tag_lines if k == name))
        return Record(
            tuple(self.tags),
            tuple(self.moves),
            tuple(self.places),
            tuple(self.seats),
            tuple(self.tag_lines),
            tuple(self.comments),
            tuple(self.written),
        )


def parse_all(text: str) -> tuple[Record, ...]:
    """Read every record of a text (records follow one another, each starting with its
    tags, as PGN games do), without replaying them. A UTF-8 byte order mark at the start
    is skipped.

    Raises:
        RecordError: malformed text (with the line and column), or no record at all.
    """
    if not isinstance(text, str):
        raise RecordError(f"a record must be text, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    games = [_Game()]
    game = games[0]
    brace: tuple[int, int] | None = None  # where an open {comment} started
    open_note: tuple[int, list[str]] | None = None  # its ply and its text so far
    for number, raw in enumerate(text.splitlines(), start=1):
        if brace is None and raw.lstrip().startswith("["):
            # A tag line: taken as it is (a value may hold braces or semicolons).
            column = len(raw) - len(raw.lstrip()) + 1
            if game.past_tags:
                game = _Game()  # the tags of the next record
                games.append(game)
            match = _TAG.match(raw.strip())
            if match is None:
                raise RecordError('bad tag: expected [Name "value"]', number, column)
            name, value = match.group(1), _unescape(match.group(2))
            if any(key == name for key, _ in game.tags):
                raise RecordError(f"tag {name} appears twice", number, column)
            game.tags.append((name, value))
            game.tag_lines.append((name, number))
            continue
        game.past_tags = bool(game.tags or game.moves)
        line, brace, notes = _without_comments(raw, number, brace)
        moves_before = len(game.moves)
        _read_moves(line, number, game)
        for start, note, braced, closed in notes:
            if open_note is None:
                on_line = sum(1 for _, column in game.places[moves_before:] if column <= start)
                open_note = (moves_before + on_line, [])
            open_note[1].append(note)
            if closed:
                comment = "\n".join(open_note[1]).strip()
                game.comments.append(Comment(open_note[0], comment, braced))
                open_note = None
    if brace is not None:
        raise RecordError("'{' comment is never closed", brace[0], brace[1])
    if not games[0].tags and not games[0].moves and len(games) == 1:
        raise RecordError("the text holds no record: no tags and no moves", 1, 1)
    return tuple(g.record(i == 0) for i, g in enumerate(games))


def _read_moves(line: str, number: int, game: _Game) -> None:
    """The moves of one line of a record (its comments blanked out) into ``game``."""
    stripped = line.strip()
    if not stripped:
        return
    if stripped.startswith("["):
        raise RecordError("a tag must be on a line of its own", number, line.index("[") + 1)
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
        game.moves.append(move)
        game.places.append((number, column))
        game.seats.append(seat if first else None)
        game.written.append(word)
        first = False


def parse(text: str) -> Record:
    """Read a record without replaying it (a text holding several: `parse_all`).

    Raises:
        RecordError: malformed text (with the line and column), or more than one record.
    """
    found = parse_all(text)
    if len(found) > 1:
        line = found[1].tag_lines[0][1]
        raise RecordError(
            f"the text holds {len(found)} records; read them with parse_all, loads_all or load_all",
            line,
            1,
        )
    return found[0]


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


def loads_all(text: str) -> tuple[Match | GameState, ...]:
    """Read and replay every record of a text (see `parse_all`), in order.

    Raises:
        RecordError, RecordReplayError: as `loads`, for the first record that fails.
    """
    return tuple(record.replay() for record in parse_all(text))


def load_all(path: str | os.PathLike[str]) -> tuple[Match | GameState, ...]:
    """`loads_all` for a file path (read as `load` reads it)."""
    return loads_all(_input.read_text(path, what="record", error=RecordError))


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
    """Collects moves into turn lines: ``N. S<seat>: move move ...``, with comments."""

    def __init__(self, out: list[str]) -> None:
        self.lines = out
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

    def comment(self, comment: Comment) -> None:
        """A {comment} after the last move of the line; a ; comment on a line of its own."""
        if comment.braced and self.current:
            self.current.append(f"{{ {comment.text} }}")
            return
        self.flush()
        self.lines.append(f"{{ {comment.text} }}" if comment.braced else f"; {comment.text}")

    def flush(self) -> None:
        if self.current:
            self.lines.append(f"{self.number}. S{self.seat}: " + " ".join(self.current))
        self.current = []


#: The comments the writer makes itself in a match record (written anew, never twice).
_DEAL_COMMENT = re.compile(r"deal \d+(?: result)?: ")


def _body(
    start: Match | GameState, moves: Sequence[Move], comments: Sequence[Comment] = ()
) -> tuple[list[str], Match | GameState]:
    """The move lines from ``start``, one turn per line, with ``comments`` where they were
    written; in a match, each deal between a comment with its dealer and scores and one
    with its result. Also the match or deal after the moves."""
    match = isinstance(start, Match)
    kept = [c for c in comments if not (match and not c.braced and _DEAL_COMMENT.match(c.text))]
    out: list[str] = []
    current = start
    lines = _Lines(out)

    def open_deal(game: Match) -> None:
        scores = " ".join(map(str, game.scores))
        out.append(f"; deal {game.deal_number}: dealer {game.state.dealer}, scores {scores}")

    if isinstance(current, Match) and not current.is_over:
        open_deal(current)
    for ply, move in enumerate(moves):
        for comment in kept:
            if comment.ply == ply:
                lines.comment(comment)
        state = current.state if isinstance(current, Match) else current
        lines.add(state, move)
        after = current.apply(move)
        ended = isinstance(current, Match) and isinstance(after, Match)
        if ended and len(after.deals) > len(current.deals):  # type: ignore[union-attr]
            assert isinstance(after, Match)
            lines.flush()
            finished = after.deals[-1]
            assert finished.outcome is not None
            result = " ".join(map(str, finished.outcome.scores))
            out += [f"; deal {finished.number} result: {result}", ""]
            lines = _Lines(out)  # the turns of the next deal are numbered from 1
            if not after.is_over:
                open_deal(after)
        current = after
    for comment in kept:
        if comment.ply >= len(moves):
            lines.comment(comment)
    lines.flush()
    return out, current


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
            deck.append(hands[(first + offset) % players][i].code)
    deck += [c.code for c in state.pile + state.stock]
    try:
        dealt = deal(variant, deck, state.scores, state.dealer)
    except (CanastaError, IndexError):
        return None
    return tuple(deck) if dealt == state else None


def dumps(
    obj: Match | GameState | Record,
    *,
    seed: int | None = None,
    start: GameState | None = None,
    players: Sequence[str] | None = None,
    date: str | datetime.date | None = None,
    tags: Mapping[str, str] | None = None,
) -> str:
    """Write a match, a deal or a parsed record as a record.

    A `Match` is recorded by its seed. A `GameState` is recorded
    from where its moves started: pass the ``seed`` it was dealt with
    (``new_game(variant, seed=...)``; its dealer and scores are recorded too), or its
    starting state as ``start``; a state with no moves is its own start. A start that
    `deal` reproduces from a deck is written as ``[Deck]``, any other
    (such as one read with ``GameState.from_dict``) as its exact ``[Position]``.
    A `Record` (from `parse`) is written back with its tags and its comments; its moves
    are replayed to lay them out one turn per line.

    Args:
        obj: the match, deal or record to write.
        seed: the deal's seed (GameState only).
        start: the deal's starting state (GameState only).
        players: a name per seat, for the ``Players`` tag (a name holding a comma is
            quoted).
        date: the ``Date`` tag (default: today; a Record keeps its own).
        tags: more tags to write (for a Record: tags to add or change).

    Returns:
        The record text.

    Raises:
        ArgumentError: ``obj`` is not a Match, a GameState or a Record.
        RecordError: the deal's start is unknown, or does not lead to ``obj``; a bad
            player name or date.
        RecordReplayError: a Record with an illegal move.
    """
    header: dict[str, str] = {}
    body: list[str] = []
    if isinstance(obj, Record):
        if seed is not None or start is not None:
            raise RecordError("seed and start are for GameState records; a Record has a start")
        header.update(obj.tags)
        obj.replay()  # every move legal, and the tags agree with the moves
        body, _ = _body(obj.start(), obj.moves, obj.comments)
    elif isinstance(obj, Match):
        if seed is not None or start is not None:
            raise RecordError("seed and start are for GameState records; a Match has a seed")
        header["Game"] = "match"
        header["Variant"] = _variant_text(obj.variant)
        header["Seed"] = str(obj.seed)
        moves = [move for deal_ in obj.history for move in deal_.moves]
        body, _ = _body(Match.new(obj.variant, seed=obj.seed), moves)
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
            body, end = _body(begin, moves)
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
    else:
        raise ArgumentError(
            f"dumps() records a Match, a GameState or a Record, got {type(obj).__name__}"
        )
    if players is not None:
        header["Players"] = _players_text(players)
    if date is None and not isinstance(obj, Record):
        date = datetime.date.today()
    if isinstance(date, datetime.date):
        header["Date"] = date.strftime("%Y.%m.%d")
    elif date is not None:
        header["Date"] = _check_date(date if isinstance(date, str) else repr(date))
    if not isinstance(obj, Record):
        header["Result"] = _result(obj)
    for key, value in (tags or {}).items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", key):
            raise RecordError(f"bad tag name {key!r}")
        header[key] = value
    if isinstance(obj, Record):
        ordered = list(header)  # as written, added tags last
    else:
        ordered = [k for k in _TAG_ORDER if k in header] + [
            k for k in header if k not in _TAG_ORDER
        ]
    out = [f'[{key} "{_escape(header[key])}"]' for key in ordered]
    out.append("")
    out += body
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def dump(obj: Match | GameState | Record, path: str | os.PathLike[str], **options: Any) -> None:
    """Write `dumps` ``(obj, **options)`` to the file at ``path`` (UTF-8).

    Raises:
        RecordError: as `dumps`, and for a file that cannot be written.
    """
    text = dumps(obj, **options)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except (OSError, TypeError, ValueError) as exc:
        raise RecordError(f"cannot write record {_input.excerpt(path)}: {exc}") from None
