"""The ``canasta`` command line (also ``python -m canasta``).

Subcommands: ``variants``, ``play``, ``simulate``, ``ladder``, ``validate`` and ``moves``;
each has ``--help``. Exit status: 0 on success, 1 when the rules say no (an illegal record or
position, a game that could not go on), 2 on a usage error (bad options, unreadable file).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

from canasta import _input, records
from canasta.bots import BOTS, Bot, GreedyBot, NoLegalMoveError, make_bot, play_deal, play_match
from canasta.bots.ladder import format_ladder, mean_interval, run_ladder
from canasta.bots.registry import SEARCH_LEVELS
from canasta.deal import new_game
from canasta.display import draw_observation, draw_outcome, format_moves, style_for
from canasta.errors import (
    CanastaError,
    IllegalMoveError,
    NotationError,
    PositionError,
    RecordError,
    UnknownVariantError,
    VariantError,
)
from canasta.match import Match
from canasta.moves import Answer, Ask, Draw, Move, parse_move
from canasta.observation import Observation, observe
from canasta.state import GameState
from canasta.variants import (
    CONFIG_SUFFIXES,
    from_config,
    from_text,
    get,
    load,
    names,
    plugin_errors,
)
from canasta.variants.base import Variant

__all__ = ["main"]

OK, RULES, USAGE = 0, 1, 2


class _UsageError(Exception):
    """A problem with the command's arguments (exit status 2)."""


def _variant(text: str, target: int | None) -> Variant:
    """The variant named on the command line: a registered name or alias, a config file
    (``.toml`` or ``.json``), or a config as inline JSON; ``target`` changes its target."""
    try:
        if os.path.splitext(text)[1].lower() in CONFIG_SUFFIXES:
            variant = load(text)
        else:
            variant = from_text(text)
        if target is not None:
            variant = variant.with_options({"target_score": target})
    except (UnknownVariantError, VariantError) as exc:
        raise _UsageError(str(exc)) from None
    return variant


def _bot_names(text: str) -> list[str]:
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    for name in chosen:
        if name not in BOTS:
            raise _UsageError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    if not chosen:
        raise _UsageError("--bots needs at least one bot name")
    return chosen


# -- variants ----------------------------------------------------------------------------


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    # A plugin that could not be loaded is one error line (on stderr, so --json stays
    # JSON) and a non-zero status; the variants that did load are listed all the same.
    broken = plugin_errors()
    for error in broken:
        print(f"error: {error}", file=sys.stderr)
    status = RULES if broken else OK
    rows = []
    for name in names():
        v = get(name)
        row: dict[str, Any] = {"name": name, "family": v.family}
        row.update((field, getattr(v, field)) for field in _VARIANT_COLUMNS)
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2), file=out)
        return status
    headers = {"name": "name", "family": "family", **_VARIANT_COLUMNS}
    widths = {
        key: max(len(head), *(len(str(r[key])) for r in rows)) for key, head in headers.items()
    }
    print("  ".join(h.ljust(widths[k]) for k, h in headers.items()).rstrip(), file=out)
    print("  ".join("-" * widths[k] for k in headers), file=out)
    for row in rows:
        print("  ".join(str(row[k]).ljust(widths[k]) for k in headers).rstrip(), file=out)
    return status


#: The options `canasta variants` shows: the field name (the key of ``--json`` and of a
#: config) and the table's column heading.
_VARIANT_COLUMNS = {
    "players": "players",
    "sides": "sides",
    "decks": "decks",
    "hand_size": "hand",
    "draw_count": "draw",
    "canastas_to_go_out": "canastas to go out",
    "target_score": "target",
}


# -- play --------------------------------------------------------------------------------

_PLAY_HELP = """\
Enter a move by its number in the list, or in notation (the docs' Notation page):
  draw               draw from the stock
  take:KK  take      take the pile (meld its top card with these cards; bare: lay it off)
  meld:KKK2          meld cards from hand          add:K+K2   lay off on your K meld
  discard:7          discard (ends the turn)       ask / yes / no / end
Ranks alone (K) mean any card of that rank; K♥ is written KH or K♥, the ten T or 10,
the joker * or ★.
Commands: help, hint (what the greedy bot would play), moves (list again),
          table (draw the table again), quit."""

#: Cards as the table shows them (``10♥``, ``★``) and in notation (``TH``, ``*``).
_SHOWN = {"10": "T", "★": "*", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SHOWN_PATTERN = re.compile("|".join(map(re.escape, _SHOWN)))


def _notation(text: str) -> str:
    """A move typed as the table shows cards, in the notation `parse_move` reads."""
    return _SHOWN_PATTERN.sub(lambda found: _SHOWN[found.group()], text)


class _Human:
    """Plays a seat from the terminal."""

    def __init__(self, inp: TextIO, out: TextIO, style: Any) -> None:
        self.inp, self.out, self.style = inp, out, style
        self.hinter = GreedyBot()

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.strip()

    def choose(self, state: GameState, obs: Observation, heading: str) -> Move | None:
        """A legal move from the user, or None to quit.

        A mistake (a number out of range, text that is not a move, an illegal move) is
        answered with one line and the prompt again: the table stays where it was.
        """
        moves = obs.legal_moves
        print(draw_observation(obs, self.style, heading=heading), file=self.out)
        question = _partner_question(obs)
        if question:
            print(question, file=self.out)
        print(format_moves(moves), file=self.out)
        while True:
            text = self.ask(f"Your move (1-{len(moves)}, notation, help): ")
            if text is None or text.lower() in ("quit", "exit", "q"):
                return None
            lowered = text.lower()
            if not text:
                continue
            if lowered in ("help", "?"):
                print(_PLAY_HELP, file=self.out)
                continue
            if lowered == "hint":
                print(f"hint: {self.hinter.choose(obs)}", file=self.out)
                continue
            if lowered in ("moves", "list"):
                print(format_moves(moves), file=self.out)
                continue
            if lowered in ("table", "show"):
                print(draw_observation(obs, self.style, heading=heading), file=self.out)
                print(format_moves(moves), file=self.out)
                continue
            if text.isdigit():
                index = int(text)
                if 1 <= index <= len(moves):
                    return moves[index - 1]
                print(f"choose a number from 1 to {len(moves)}", file=self.out)
                continue
            try:
                move = parse_move(_notation(text))
                state.apply(move)
            except NotationError as exc:
                print(f"not a move: {exc} (type help)", file=self.out)
                continue
            except IllegalMoveError as exc:
                print(exc, file=self.out)
                continue
            return move

    def pause(self) -> bool:
        """Wait for Enter before the next deal, so the breakdown can be read; False to quit."""
        text = self.ask("Press Enter for the next deal (or quit): ")
        return text is not None and text.lower() not in ("quit", "exit", "q")


def _partner_question(obs: Observation) -> str:
    """The partner's question in words, when the seat is asked to answer it."""
    if obs.phase != "answer" or obs.to_move != obs.seat:
        return ""
    asker = next((s for s in obs.variant.seats_of(obs.side) if s != obs.seat), None)
    who = f"Your partner (seat {asker})" if asker is not None else "Your partner"
    return f"{who} asks: may I go out? Answer yes (go out) or no (keep playing)."


def _describe(before: GameState, after: GameState, move: Move, style: Any, you: int) -> str:
    """A line telling what a move did, with the exact cards shown to the table; the
    person at seat ``you`` also sees the card they drew."""
    event = after.history()[-1]
    text = f"seat {event.seat}: {move}"
    if isinstance(move, Ask):
        text += "  (may I go out?)"
    elif isinstance(move, Answer):
        text += "  (go out)" if move.yes else "  (do not go out)"
    if event.cards:
        text += f"  ({style.cards(event.cards)})"
    if isinstance(move, Draw) and event.seat == you:
        drawn = Counter(after.hand(you)) - Counter(before.hand(you))
        text += f"  you drew {style.cards(drawn.elements())}"
    if event.threes:
        text += f"  threes laid: {style.cards(event.threes)}"
    return text


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    variant = _variant(args.variant, args.target)
    players = variant.players
    if not 0 <= args.seat < players:
        raise _UsageError(f"--seat must be from 0 to {players - 1} in {variant.name}")
    bot_names = _bot_names(args.bots)
    others = [s for s in range(players) if s != args.seat]
    if len(bot_names) == 1:
        bot_names = bot_names * len(others)
    if len(bot_names) != len(others):
        raise _UsageError(f"--bots needs one name, or one per other seat ({len(others)})")
    if args.level is not None:
        if "search" not in bot_names:
            raise _UsageError("--level sets the search bot's budget; no search bot plays")
        if args.level not in SEARCH_LEVELS:
            known = ", ".join(map(str, SEARCH_LEVELS))
            raise _UsageError(f"--level must be one of {known}, got {args.level}")
    # Chosen here even when not given, so the game (and its record) can be replayed.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    bots: dict[int, Bot] = {
        s: make_bot(n, seed * 31 + s, level=args.level if n == "search" else None)
        for s, n in zip(others, bot_names, strict=True)
    }
    style = style_for(out, args.ascii)
    human = _Human(sys.stdin, out, style)
    labels = [f"{bot_names[others.index(s)]}" if s != args.seat else "you" for s in range(players)]
    print(
        f"canasta play: {variant.name}, you are seat {args.seat} (side "
        f"{variant.side_of(args.seat)}); "
        + ", ".join(f"seat {s}: {labels[s]}" for s in range(players)),
        file=out,
    )
    # --seed is the seed of what is played: with --deal the deal's (as new_game and
    # simulate --deals take it), else the match's.
    game: Match | GameState = (
        new_game(variant, seed=seed) if args.deal else Match.new(variant, seed=seed)
    )

    def save() -> None:
        if args.record:
            if isinstance(game, Match):
                _write(args.record, records.dumps(game, players=labels))
            else:
                _write(args.record, records.dumps(game, seed=seed, players=labels))

    while True:
        state = game.state if isinstance(game, Match) else game
        seat = state.to_move
        assert seat is not None
        obs = observe(state, seat)
        if isinstance(game, Match):
            heading = f"Deal {game.deal_number} of a {variant.name} match (seed {seed})"
        else:
            heading = f"A single {variant.name} deal (seed {seed})"
        if seat == args.seat:
            if not obs.legal_moves:
                print("No legal move is available: the game cannot go on.", file=out)
                return RULES
            move = human.choose(state, obs, heading)
            if move is None:
                save()
                print("Goodbye.", file=out)
                return OK
        else:
            try:
                move = bots[seat].choose(obs)
            except NoLegalMoveError as exc:
                print(f"The game cannot go on: {exc}", file=out)
                return RULES
        after = state.apply(move)
        print(_describe(state, after, move, style, args.seat), file=out)
        game = game.apply(move) if isinstance(game, Match) else after
        if not after.is_over:
            continue
        outcome = after.outcome()
        assert outcome is not None
        if not isinstance(game, Match):
            print("\nThe deal is over.", file=out)
            print(draw_outcome(outcome), file=out)
            break
        print(f"\nDeal {game.deals[-1].number} is over.", file=out)
        print(draw_outcome(outcome), file=out)
        totals = "   ".join(f"side {s}: {n}" for s, n in enumerate(game.scores))
        print(f"Match scores: {totals}\n", file=out)
        if game.is_over:
            break
        if not human.pause():
            save()
            print("Goodbye.", file=out)
            return OK
    save()
    if isinstance(game, Match):
        winners = ", ".join(f"side {s}" for s in game.winners)
        print(f"The match is over: {winners} won.", file=out)
    return OK


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise _UsageError(f"cannot write {path!r}: {exc}") from None


# -- simulate ----------------------------------------------------------------------------


def _simulate_one(
    job: tuple[str, dict[str, Any], int, list[str], bool, int, str | None],
) -> dict[str, Any]:
    """Play one game (a match, or one deal) with bots; a picklable worker function."""
    _, config, seed, bot_names, deals_only, max_deals, record_path = job
    variant = from_config(config)
    bots = [make_bot(bot_names[s], seed * 97 + s) for s in range(variant.players)]
    result: dict[str, Any] = {"seed": seed, "error": None}
    start = time.perf_counter()
    try:
        if deals_only:
            start_state = new_game(variant, seed=seed)
            state = play_deal(start_state, bots)
            outcome = state.outcome()
            assert outcome is not None
            result["deal_scores"] = [list(outcome.scores)]
            best = max(outcome.scores)
            result["winners"] = [s for s, v in enumerate(outcome.scores) if v == best]
            result["plies"] = len(state.history())
            if record_path:
                _save(record_path, records.dumps(state, seed=seed))
        else:
            match = play_match(Match.new(variant, seed=seed), bots, max_deals=max_deals)
            result["deal_scores"] = [
                list(d.outcome.scores) for d in match.deals if d.outcome is not None
            ]
            result["winners"] = list(match.winners)
            result["unfinished"] = not match.is_over
            result["plies"] = sum(len(d.moves) for d in match.history)
            if record_path:
                _save(record_path, records.dumps(match))
    except NoLegalMoveError as exc:
        result["error"] = str(exc)
        result.setdefault("deal_scores", [])
        result.setdefault("winners", [])
    result["seconds"] = time.perf_counter() - start
    return result


def _save(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _progress(done: int, total: int, deals: int, elapsed: float, stream: TextIO) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    rate = deals / elapsed if elapsed > 0 else 0.0
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:.1f} deals/s")
    stream.flush()


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    variant = _variant(args.variant, args.target)
    bot_names = _bot_names(args.bots)
    if len(bot_names) not in (1, variant.sides, variant.players):
        raise _UsageError(
            f"--bots needs 1 name, one per side ({variant.sides}) or one per seat "
            f"({variant.players})"
        )
    if len(bot_names) == 1:
        bot_names = bot_names * variant.players
    elif len(bot_names) == variant.sides and variant.sides != variant.players:
        bot_names = [bot_names[variant.side_of(s)] for s in range(variant.players)]
    if args.games < 1:
        raise _UsageError("-n/--games must be at least 1")
    if args.workers < 1:
        raise _UsageError("--workers must be at least 1")
    if args.address is not None and args.backend != "ray":
        raise _UsageError("--address joins a Ray cluster: it needs --backend ray")
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as exc:
            raise _UsageError(f"cannot create {args.records!r}: {exc}") from None
    config = variant.to_config()
    jobs = []
    for i in range(args.games):
        seed = args.seed + i
        path = os.path.join(args.records, f"game-{i + 1:04d}.txt") if args.records else None
        jobs.append(("job", config, seed, bot_names, args.deals, args.max_deals, path))
    progress = sys.stderr if not args.quiet else None
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    deals = 0
    chunksize = max(1, len(jobs) // (args.workers * 8))
    executor: Any = None
    if args.backend == "ray":
        executor = _ray_pool(args.workers, args.address)
        # Workers get seeds and send back outcomes, never states; imap keeps the order.
        iterator: Any = executor.imap(_simulate_one, jobs, chunksize=chunksize)
    elif args.workers == 1:
        iterator = map(_simulate_one, jobs)
    else:
        executor = ProcessPoolExecutor(max_workers=args.workers)
        iterator = executor.map(_simulate_one, jobs, chunksize=chunksize)
    try:
        for result in iterator:
            results.append(result)
            deals += len(result["deal_scores"])
            if progress is not None:
                _progress(len(results), len(jobs), deals, time.perf_counter() - started, progress)
    finally:
        if args.backend == "ray":
            executor.close()
            _ray_shutdown(args.address)
        elif executor is not None:
            executor.shutdown()
    if progress is not None:
        progress.write("\n")
    elapsed = time.perf_counter() - started
    if args.out:
        _write(args.out, _rows_text(args.out, variant.sides, results))
    _summary(variant, bot_names, args, results, elapsed, out)
    return RULES if any(r["error"] for r in results) else OK


def _rows_text(path: str, sides: int, results: list[dict[str, Any]]) -> str:
    """One row per game played: CSV when ``path`` ends in ``.csv``, else JSON Lines.

    A row holds the game's number and seed, each side's score (a match's: the total over
    its deals), the winning sides, the deals and moves played, the time taken, whether a
    match was stopped unfinished, and the error that stopped a game (empty if none).
    """
    rows = []
    for number, r in enumerate(results, start=1):
        scores = [sum(d[side] for d in r["deal_scores"]) for side in range(sides)]
        rows.append(
            {
                "game": number,
                "seed": r["seed"],
                "scores": scores,
                "winners": r["winners"],
                "deals": len(r["deal_scores"]),
                "plies": r.get("plies", 0),
                "seconds": round(r["seconds"], 4),
                "unfinished": bool(r.get("unfinished")),
                "error": r["error"] or "",
            }
        )
    if not path.lower().endswith(".csv"):
        return "".join(json.dumps(row) + "\n" for row in rows)
    buffer = io.StringIO()
    columns = ["game", "seed", *(f"score_{side}" for side in range(sides)), "winners"]
    columns += ["deals", "plies", "seconds", "unfinished", "error"]
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        scores, winners = row.pop("scores"), row.pop("winners")
        cells = [row["game"], row["seed"], *scores, " ".join(map(str, winners))]
        writer.writerow(cells + [row[key] for key in columns[sides + 3 :]])
    return buffer.getvalue()


def _ray_pool(workers: int, address: str | None) -> Any:
    """A pool of ``workers`` Ray processes: on the cluster at ``address``, or on a local
    Ray instance started here (extra ``canasta[ray]``)."""
    try:
        import ray
        from ray.util.multiprocessing import Pool
    except ImportError:
        raise _UsageError("--backend ray needs Ray: pip install 'canasta[ray]'") from None
    if address is None and not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    return Pool(processes=workers, ray_address=address)


def _ray_shutdown(address: str | None) -> None:
    """Stop the local Ray instance ``_ray_pool`` started (a cluster joined stays up)."""
    import ray

    if address is None and ray.is_initialized():
        ray.shutdown()


def _summary(
    variant: Variant,
    bot_names: list[str],
    args: argparse.Namespace,
    results: list[dict[str, Any]],
    elapsed: float,
    out: TextIO,
) -> None:
    sides = variant.sides
    kind = "deal" if args.deals else "match"
    wins = [0] * sides
    shared = 0
    for r in results:
        if len(r["winners"]) == 1:
            wins[r["winners"][0]] += 1
        elif r["winners"]:
            shared += 1
    deal_scores = [s for r in results for s in r["deal_scores"]]
    deals = len(deal_scores)
    last = args.seed + len(results) - 1
    print(f"{_count(len(results), kind)} of {variant.name}, seeds {args.seed}..{last}", file=out)
    for side in range(sides):
        seats = variant.seats_of(side)
        players = ", ".join(f"{bot_names[s]}" for s in seats)
        share = 100.0 * wins[side] / len(results) if results else 0.0
        mean = ""
        if deals:
            score = mean_interval([d[side] for d in deal_scores])
            mean = (
                f", mean deal score {score.value:.1f} (95% CI {score.low:.1f} to {score.high:.1f})"
            )
        print(
            f"  side {side} ({players}): {_count(wins[side], 'win')} ({share:.1f}%){mean}",
            file=out,
        )
    if shared:
        print(f"  shared wins or ties: {shared}", file=out)
    unfinished = sum(1 for r in results if r.get("unfinished"))
    if unfinished:
        print(f"  unfinished (stopped after {args.max_deals} deals): {unfinished}", file=out)
    errors = [r for r in results if r["error"]]
    if errors:
        print(f"  stopped by a position without legal moves: {len(errors)}", file=out)
        for r in errors[:5]:
            print(f"    seed {r['seed']}: {r['error']}", file=out)
    if not args.deals and results:
        print(f"  deals per match: {deals / len(results):.2f}", file=out)
    rate = deals / elapsed if elapsed > 0 else 0.0
    print(f"  {_count(deals, 'deal')} in {elapsed:.1f} s ({rate:.1f} deals/s)", file=out)


def _count(n: int, noun: str) -> str:
    """``1 match``, ``2 matches``."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun}es" if noun.endswith("ch") else f"{n} {noun}s"


# -- ladder ------------------------------------------------------------------------------


def _cmd_ladder(args: argparse.Namespace, out: TextIO) -> int:
    variants = [_variant(name, None) for name in args.variant or _LADDER_VARIANTS]
    bot_names = [part.strip() for part in args.bots.split(",") if part.strip()]
    if args.jobs < 1:
        raise _UsageError("--jobs must be at least 1")
    ladders = []
    for variant in variants:
        progress = None if args.quiet else _ladder_progress(variant.name)
        try:
            ladder = run_ladder(variant, bot_names, args.pairs, args.seed, args.jobs, progress)
        except ValueError as exc:
            raise _UsageError(str(exc)) from None
        if progress is not None:
            sys.stderr.write("\n")
        ladders.append(ladder)
        if args.out:
            # Written before printing, and again after each variant: a closed pipe on
            # stdout, or an interrupted run, still leaves every finished ladder.
            _write(args.out, json.dumps({"ladders": [x.to_dict() for x in ladders]}, indent=1))
        if len(ladders) > 1:
            print(file=out)
        print(format_ladder(ladder), file=out)
    return OK


#: The variants of ``canasta ladder`` without ``-v``.
_LADDER_VARIANTS = ("classic", "modern-american")


def _ladder_progress(name: str) -> Any:
    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\r{name}: {done}/{total} deals")
        sys.stderr.flush()

    return show


# -- validate and moves ------------------------------------------------------------------


def _read(path: str, what: str, limit: int = _input.MAX_FILE_BYTES) -> str:
    """The file's text; a file that cannot be read, too large or not UTF-8 is a usage error."""
    return _input.read_text(path, what=what, error=_UsageError, limit=limit)


def _read_input(path: str, what: str) -> str:
    """The text of the file at ``path``, or of the standard input for ``-``."""
    if path != "-":
        return _read(path, what)
    try:
        text = sys.stdin.read(_input.MAX_FILE_BYTES + 1)
    except UnicodeDecodeError as exc:
        raise _UsageError(f"the standard input is not UTF-8 text: {exc.reason}") from None
    if len(text) > _input.MAX_FILE_BYTES:
        raise _UsageError(f"the standard input is larger than {_input.MAX_FILE_BYTES} bytes")
    return text


def _cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    # Every file is checked, and every record in it, each reported on its own line: an
    # unreadable file on the standard error (status 2), a record the rules refuse on the
    # standard output (status 1).
    status = OK
    for path in args.files:
        name = "<stdin>" if path == "-" else path
        try:
            text = _read_input(path, "record")
        except _UsageError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = USAGE
            continue
        for line, ok in _validate_text(name, text):
            print(line, file=out)
            if not ok:
                status = max(status, RULES)
    return status


def _validate_text(name: str, text: str) -> list[tuple[str, bool]]:
    """A report line per record of a file (``name (record 2): ...`` when it holds several),
    and whether the record is good."""
    try:
        found = records.parse_all(text)
    except RecordError as exc:
        return [(f"{name}: {exc}", False)]
    return [
        _validate_one(name if len(found) == 1 else f"{name} (record {number})", record)
        for number, record in enumerate(found, start=1)
    ]


def _validate_one(name: str, record: records.Record) -> tuple[str, bool]:
    """The report line of one record: what it holds, or its first problem."""
    try:
        result = record.replay()
    except records.RecordReplayError as exc:
        where = f" (line {exc.line}, column {exc.column})"
        return f"{name}: ply {exc.ply}{where}: {exc.text!r} is illegal: {exc.why}", False
    except RecordError as exc:
        return f"{name}: {exc}", False
    plies = _count(len(record.moves), "move")
    if isinstance(result, Match):
        state = "over" if result.is_over else "in progress"
        deals = _count(len(result.history), "deal")
        scores = " ".join(map(str, result.scores))
        return f"{name}: ok: {plies}, {deals}, match {state}, scores {scores}", True
    return f"{name}: ok: {plies}, deal {result.phase}", True


def _cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    text = _read(args.position, "position", _input.MAX_JSON_CHARS)
    # Text that is not (bounded) JSON is a bad file (usage error); JSON that is not a
    # possible position is refused by the rules (exit status 1).
    data = _input.loads(text, what=f"position {args.position!r}", error=_UsageError)
    try:
        state = GameState.from_dict(data)
    except PositionError as exc:
        print(f"{args.position}: {exc}", file=out)
        return RULES
    moves = state.legal_moves()
    if args.json:
        print(json.dumps([str(m) for m in moves]), file=out)
        return OK
    if not moves:
        print("no legal moves (the deal is over)" if state.is_over else "no legal moves", file=out)
        return OK
    print(
        f"seat {state.to_move} to move ({state.phase}); {_count(len(moves), 'legal move')}:",
        file=out,
    )
    for move in moves:
        print(f"  {move}", file=out)
    return OK


# -- the parser --------------------------------------------------------------------------


_VARIANT_HELP = "variant: a name, a .toml or .json config file, or inline JSON (default: classic)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise _UsageError(f"{self.prog}: {message}")


def _build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command."""
    parser = _Parser(
        prog="canasta",
        description="Canasta rules, bots and game records on the command line.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("variants", help="list the registered variants with key figures")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=_cmd_variants)

    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("-v", "--variant", default="classic", help=_VARIANT_HELP)
    p.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    p.add_argument(
        "--bots",
        default="greedy",
        help=f"bot for the other seats, or one per other seat, comma-separated ({', '.join(BOTS)})",
    )
    p.add_argument(
        "--level",
        type=int,
        default=None,
        help=f"the search bot's strength ({min(SEARCH_LEVELS)}-{max(SEARCH_LEVELS)}, default 4)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the match seed; with --deal the deal's seed, as in simulate --deals "
        "(default: random)",
    )
    p.add_argument("--target", type=int, default=None, help="target score (default: the variant's)")
    p.add_argument("--deal", action="store_true", help="play a single deal instead of a match")
    p.add_argument("--record", metavar="FILE", help="write the game record to FILE at the end")
    p.add_argument("--ascii", action="store_true", help="write cards with letters, not symbols")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("simulate", help="let bots play many games and summarise")
    p.add_argument("-n", "--games", type=int, default=10, help="number of games (default: 10)")
    p.add_argument("-v", "--variant", default="classic", help=_VARIANT_HELP)
    p.add_argument(
        "--bots",
        default="greedy",
        help="one bot for all seats, one per side, or one per seat, comma-separated",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first game (default: 0): a match seed, or with --deals the "
        "deal's seed, as in play --deal",
    )
    p.add_argument("--deals", action="store_true", help="play single deals instead of matches")
    p.add_argument("--target", type=int, default=None, help="target score (default: the variant's)")
    p.add_argument(
        "--max-deals", type=int, default=100, help="stop a match after this many deals (100)"
    )
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="run the workers as local processes, or on Ray (needs canasta[ray])",
    )
    p.add_argument("--address", default=None, help="with --backend ray: the Ray cluster to join")
    p.add_argument("--records", metavar="DIR", help="write each game's record into DIR")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write one row per game: CSV if FILE ends in .csv, else JSON Lines",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("ladder", help="rank bots over duplicate deals, every pair both ways")
    p.add_argument(
        "--bots",
        default="random,quick,greedy,search",
        help="the bots, comma-separated; search:LEVEL, search:Nn (N simulations) or "
        "search:Ts (T seconds) set the search budget per decision",
    )
    p.add_argument(
        "-v",
        "--variant",
        action="append",
        help="variant, repeatable: a name, a .toml or .json config file, or inline JSON "
        "(default: classic and modern-american)",
    )
    p.add_argument(
        "-n", "--pairs", type=int, default=20, help="duplicate deal pairs per pair of bots (20)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (default: 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument("--out", metavar="FILE", help="write every deal and the figures as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=_cmd_ladder)

    p = sub.add_parser("validate", help="check game records; name each one's first illegal move")
    p.add_argument(
        "files", metavar="FILE", nargs="+", help="the records to check; - reads standard input"
    )
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser(
        "moves", help="list the legal moves of a position (a JSON file: the docs' Positions page)"
    )
    p.add_argument("position", metavar="POSITION.json", help="the position file")
    p.add_argument("--json", action="store_true", help="print the moves as a JSON list")
    p.set_defaults(func=_cmd_moves)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``canasta`` command; returns the exit status (0, 1 or 2)."""
    parser = _build_parser()
    out = sys.stdout
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(out)
            return USAGE
        status: int = args.func(args, out)
        return status
    except _UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else OK
    except (IllegalMoveError, CanastaError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return RULES
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
