"""Bounds on untrusted input: files, JSON text and the data read from them.

Every reader of the library (positions, records, variant configs, the command line) goes
through these helpers, so hostile input (a file linked to ``/dev/zero``, ``[`` nested a
hundred thousand times, an integer of ten thousand digits) raises the caller's documented
error instead of ``MemoryError``, ``RecursionError`` or ``ValueError`` from deep inside
Python. The bounds are far beyond anything a legal position, record or config holds.
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import Any

#: The most bytes read from one file: a record of a long match is a few hundred kilobytes.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The longest JSON text read (a position or a variant config is a few kilobytes).
MAX_JSON_CHARS = 1024 * 1024
#: The deepest nesting of lists and mappings: a position holding a variant config with a
#: table (``{"variant": {"minimum_table": [[0, 50]]}}``) is four deep.
MAX_DEPTH = 32
#: The most digits of an integer: 20 digits hold any 64-bit seed, and no score or option
#: comes near.
MAX_INT_DIGITS = 20
#: The largest integer magnitude accepted (below ``10**MAX_INT_DIGITS``).
MAX_INT = 10**MAX_INT_DIGITS - 1
#: How many characters of a bad input an error message quotes.
EXCERPT_CHARS = 60
#: How many characters of a file name a message quotes (Linux's PATH_MAX).
PATH_CHARS = 4096

#: How much of a file is read at a time.
_CHUNK = 64 * 1024
# A string (possessive, and running to the end when unclosed, so the scan stays linear
# on any text) or a bracket.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\Z)|[\[\]{}]', re.DOTALL)


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)`` for a message, cut short when the input is long."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    if isinstance(value, int) and abs(value) > MAX_INT:
        # repr() of a very long integer raises; its size is what the message needs.
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # a very long integer inside a container
        return f"a {type(value).__name__} holding an integer too long to show"
    return text if len(text) <= 4 * limit else f"{text[: 4 * limit]}... ({len(text)} characters)"


def seat(value: object, players: int, error: type[Exception]) -> int:
    """``value`` if it is a seat of a deal of ``players`` players, else raise ``error``."""
    if type(value) is not int or not 0 <= value < players:
        raise error(f"seat must be from 0 to {players - 1}, got {excerpt(value)}")
    return value


def json_excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``value`` as JSON for a message about JSON input (``true``, ``null``, ``"KH"``),
    cut short when long; `excerpt` for what JSON cannot write."""
    if isinstance(value, int) and abs(value) > MAX_INT:
        return excerpt(value, limit)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return excerpt(value, limit)
    return text if len(text) <= 4 * limit else f"{text[: 4 * limit]}... ({len(text)} characters)"


def read_text(
    path: object, *, what: str, error: type[Exception], limit: int = MAX_FILE_BYTES
) -> str:
    """The UTF-8 text of the file at ``path``, at most ``limit`` bytes.

    Raises ``error`` (with a message naming ``what`` and the path) for a path that is not
    text, a file that cannot be read, one larger than ``limit`` or one that is not UTF-8.
    """
    if not isinstance(path, str | os.PathLike):
        raise error(f"{what} path must be a file name, got {excerpt(path)}")
    name = os.fspath(path)
    if not isinstance(name, str) or "\0" in name:
        shown = excerpt(name, PATH_CHARS)
        raise error(f"{what} path must be a file name without NUL characters, got {shown}")
    shown = excerpt(name, PATH_CHARS)
    chunks: list[bytes] = []
    size = 0
    try:
        with open(name, "rb") as handle:
            # In chunks: read(limit + 1) would allocate the whole limit for a small file.
            # One byte past the limit tells a file of exactly `limit` bytes from a longer one.
            while size <= limit and (chunk := handle.read(min(_CHUNK, limit + 1 - size))):
                chunks.append(chunk)
                size += len(chunk)
    except OSError as exc:
        raise error(f"cannot read {what} {shown}: {exc.strerror or exc}") from None
    if size > limit:
        raise error(f"{what} {shown} is larger than {limit} bytes")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {shown} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None


def loads(text: object, *, what: str, error: type[Exception], limit: int = MAX_JSON_CHARS) -> Any:
    """Parse JSON text with the bounds of this module; raises ``error`` naming ``what``.

    Beyond JSON's own rules: at most ``limit`` characters, nesting at most `MAX_DEPTH`
    deep, integers of at most `MAX_INT_DIGITS` digits, finite numbers only (no ``NaN``
    or ``Infinity``) and no key given twice in one object.
    """
    if not isinstance(text, str):
        raise error(f"{what} must be JSON text, got {type(text).__name__}")
    if len(text) > limit:
        raise error(f"{what} is longer than {limit} characters")
    _check_json_depth(text, what, error)

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{what}: integer {excerpt(digits)} has more than {MAX_INT_DIGITS} digits")
        return int(digits)

    def number(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise error(f"{what}: number {excerpt(digits)} is out of range")
        return value

    def constant(name: str) -> Any:
        raise error(f"{what}: {name} is not a valid value")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                raise error(f"{what}: key {excerpt(key)} is given twice")
            result[key] = value
        return result

    try:
        return json.loads(
            text,
            parse_int=integer,
            parse_float=number,
            parse_constant=constant,
            object_pairs_hook=pairs,
        )
    except json.JSONDecodeError as exc:
        raise error(
            f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def _check_json_depth(text: str, what: str, error: type[Exception]) -> None:
    """Refuse nesting deeper than `MAX_DEPTH` before the JSON parser recurses into it.

    Brackets inside strings do not count; an unclosed string is left for the parser to
    report.
    """
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        bracket = token.group()
        if bracket.startswith('"'):
            continue
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise error(f"{what} is nested more than {MAX_DEPTH} deep")
        else:
            depth -= 1


def check_tree(value: Any, *, what: str, error: type[Exception]) -> None:
    """Refuse data nested deeper than `MAX_DEPTH` or holding an integer beyond `MAX_INT`.

    For data that did not come through `loads` (a mapping built in Python, a TOML file).
    Walks without recursion, so even a list nested a million deep is refused cleanly.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if not -MAX_INT <= item <= MAX_INT:
                raise error(f"{what}: integer with more than {MAX_INT_DIGITS} digits")
            continue
        if isinstance(item, float) and not math.isfinite(item):
            raise error(f"{what}: number {item!r} is out of range")
        children: list[Any]
        if isinstance(item, dict):
            children = [*item.keys(), *item.values()]
        elif isinstance(item, list | tuple):
            children = list(item)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise error(f"{what} is nested more than {MAX_DEPTH} deep")
        stack.extend((child, depth + 1) for child in children)
