"""The ladder: every pair of bots over seeded duplicate deals, with confidence intervals
and Elo-like ratings (``canasta ladder``).

Each deal seed is played twice by each pair of bots, once with each bot on side 0, so
both bots get the same cards and the same seat order: luck in the dealing cancels out
between the two deals. The two deals of a seed are one sample of the pair's strength:
the intervals are computed over seeds, not deals.

A bot is named as on the command line (``random``, ``quick``, ``greedy``, ``search``),
optionally with a budget per decision for the search bot: ``search:3`` (level 3 of
`canasta.bots.registry.SEARCH_LEVELS`), ``search:40n`` (40 simulations) or
``search:0.5s`` (half a second). A name may end in ``#LABEL`` to enter one bot twice
(``random`` against ``random#2``); each entrant seeds its bots from its own name.
"""

from __future__ import annotations

import math
import random
import statistics
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from canasta.bots.base import Bot, TimedBot, play_deal
from canasta.bots.registry import make_bot
from canasta.bots.search import SearchBot
from canasta.deal import new_game
from canasta.errors import ArgumentError
from canasta.variants import from_config
from canasta.variants.base import Variant

__all__ = [
    "Interval",
    "Ladder",
    "PairResult",
    "bradley_terry",
    "format_ladder",
    "mean_interval",
    "pair_result",
    "parse_bot",
    "play_game",
    "ratings",
    "run_ladder",
]

#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.96
#: Bootstrap resamples of the seeds behind each rating interval.
_BOOTSTRAP = 200
#: Elo points per factor of ten in the odds of winning a deal.
_ELO = 400.0


def parse_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its ladder name: ``NAME``, or ``search:LEVEL``, ``search:Nn``
    (N simulations per decision) or ``search:Ts`` (T seconds per decision), each
    optionally followed by ``#LABEL``.

    Raises:
        ValueError: an unknown bot, or a budget that is not one of these forms.
    """
    name, _, budget = spec.partition("#")[0].partition(":")
    if not budget:
        return make_bot(name, seed)
    if name != "search":
        raise ArgumentError(f"bot {name!r} takes no budget (only 'search' does), got {spec!r}")
    try:
        if budget.endswith("s"):
            return SearchBot(seed, seconds=float(budget[:-1]))
        if budget.endswith("n"):
            return SearchBot(seed, simulations=int(budget[:-1]))
        return make_bot(name, seed, level=int(budget))
    except ValueError as exc:
        raise ArgumentError(
            f"bad budget in {spec!r} (search:LEVEL, search:Nn or search:Ts): {exc}"
        ) from None


def play_game(job: tuple[dict[str, Any], int, str, str]) -> dict[str, Any]:
    """One deal of the ladder: ``(variant config, seed, bot of side 0, bot of side 1)``.

    Returns the deal's raw result: the seed, the bots of each side, their deal scores,
    the plies, and each side's seconds and decisions. A picklable worker function.
    """
    config, seed, first, second = job
    variant = from_config(config)
    specs = (first, second)
    timed = []
    for seat in range(variant.players):
        spec = specs[variant.side_of(seat)]
        # Seeded by the entrant's name too: two entrants of one kind play differently.
        timed.append(TimedBot(parse_bot(spec, seed * 97 + seat + zlib.crc32(spec.encode()))))
    end = play_deal(new_game(variant, seed=seed), timed)
    outcome = end.outcome()
    assert outcome is not None
    sides = [[t for s, t in enumerate(timed) if variant.side_of(s) == side] for side in (0, 1)]
    return {
        "seed": seed,
        "bots": list(specs),
        "scores": list(outcome.scores),
        "plies": len(end.history()),
        "seconds": [sum(t.seconds for t in seats) for seats in sides],
        "decisions": [sum(t.decisions for t in seats) for seats in sides],
    }


@attrs.frozen
class Interval:
    """An estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float


def mean_interval(samples: Sequence[float]) -> Interval:
    """The mean of ``samples`` with a normal 95% interval (zero width for one sample)."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return Interval(mean, mean, mean)
    half = _Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
    return Interval(mean, mean - half, mean + half)


def _clipped(share: Interval) -> Interval:
    """A share's interval within 0 and 1 (the normal interval may reach past them)."""
    return Interval(share.value, max(share.low, 0.0), min(share.high, 1.0))


@attrs.frozen
class PairResult:
    """How bot ``a`` did against bot ``b`` over duplicate deals.

    Attributes:
        a, b: the bots' names.
        deals: deals played (two per seed).
        won, lost, tied: deals won, lost and tied by ``a``.
        share: ``a``'s share of the deals (ties count half), per seed, with its interval.
        margin: ``a``'s mean deal margin (its side's deal score minus ``b``'s), per
            seed, with its interval.
    """

    a: str
    b: str
    deals: int
    won: int
    lost: int
    tied: int
    share: Interval
    margin: Interval


def _margins(games: Iterable[dict[str, Any]], a: str, b: str) -> dict[int, list[int]]:
    """``a``'s deal margins against ``b``, per seed."""
    found: dict[int, list[int]] = {}
    for game in games:
        bots, scores = game["bots"], game["scores"]
        if bots == [a, b]:
            found.setdefault(game["seed"], []).append(scores[0] - scores[1])
        elif bots == [b, a]:
            found.setdefault(game["seed"], []).append(scores[1] - scores[0])
    return found


def _won(margin: float) -> float:
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def pair_result(games: Sequence[dict[str, Any]], a: str, b: str) -> PairResult:
    """The `PairResult` of ``a`` against ``b`` from the ladder's raw games."""
    per_seed = _margins(games, a, b)
    margins = [m for seed in per_seed.values() for m in seed]
    return PairResult(
        a=a,
        b=b,
        deals=len(margins),
        won=sum(1 for m in margins if m > 0),
        lost=sum(1 for m in margins if m < 0),
        tied=sum(1 for m in margins if m == 0),
        share=_clipped(
            mean_interval([statistics.fmean(map(_won, ms)) for ms in per_seed.values()])
        ),
        margin=mean_interval([statistics.fmean(ms) for ms in per_seed.values()]),
    )


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], float]) -> dict[str, float]:
    """Elo-like ratings (mean 0) from deals won: ``wins[a, b]`` is the deals ``a`` won
    against ``b`` (ties counted half).

    Each pair that met also gets one tied deal, so a bot that won every deal has a
    finite rating. Fitted by the minorisation-maximisation iteration of the
    Bradley-Terry model; a difference of 400 points means odds of 10 to 1 per deal.
    """
    met = {(a, b) for (a, b) in wins} | {(b, a) for (a, b) in wins}
    won = {pair: wins.get(pair, 0.0) + 0.5 for pair in met}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(500):
        new = {}
        for a in names:
            total = sum(won[a, b] for b in names if (a, b) in met)
            games = sum(
                (won[a, b] + won[b, a]) / (strength[a] + strength[b])
                for b in names
                if (a, b) in met
            )
            new[a] = total / games if games else 1.0
        # Fix the scale: the geometric mean strength is 1 (the mean rating is 0).
        norm = math.exp(statistics.fmean(math.log(v) for v in new.values()))
        new = {a: v / norm for a, v in new.items()}
        done = all(abs(new[a] - strength[a]) < 1e-9 for a in names)
        strength = new
        if done:
            break
    return {a: _ELO * math.log10(strength[a]) for a in names}


def _wins(games: Iterable[dict[str, Any]]) -> dict[tuple[str, str], float]:
    wins: dict[tuple[str, str], float] = {}
    for game in games:
        (a, b), (sa, sb) = game["bots"], game["scores"]
        wins[a, b] = wins.get((a, b), 0.0) + _won(sa - sb)
        wins[b, a] = wins.get((b, a), 0.0) + _won(sb - sa)
    return wins


def ratings(
    names: Sequence[str], games: Sequence[dict[str, Any]], seed: int = 0
) -> dict[str, Interval]:
    """Each bot's Elo-like rating with a 95% interval from a bootstrap over the seeds
    (the deals of a seed stay together, as the duplicate pairs were played)."""
    point = bradley_terry(names, _wins(games))
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_seed.setdefault(game["seed"], []).append(game)
    seeds = sorted(by_seed)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {a: [] for a in names}
    for _ in range(_BOOTSTRAP):
        drawn = [g for s in rng.choices(seeds, k=len(seeds)) for g in by_seed[s]]
        for a, rating in bradley_terry(names, _wins(drawn)).items():
            samples[a].append(rating)
    result = {}
    for a in names:
        ordered = sorted(samples[a])
        low = ordered[int(0.025 * (len(ordered) - 1))]
        high = ordered[math.ceil(0.975 * (len(ordered) - 1))]
        result[a] = Interval(point[a], low, high)
    return result


@attrs.frozen
class Ladder:
    """A finished ladder: its conditions, raw games, pairs and ratings."""

    variant: Variant
    bots: tuple[str, ...]
    seeds: tuple[int, ...]
    games: tuple[dict[str, Any], ...]
    pairs: tuple[PairResult, ...]
    ratings: dict[str, Interval]
    ms_per_decision: dict[str, float]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the conditions, every game, and the summary figures."""

        def interval(i: Interval) -> list[float]:
            return [i.value, i.low, i.high]

        return {
            "variant": self.variant.to_config(),
            "bots": list(self.bots),
            "seeds": list(self.seeds),
            "seconds": self.seconds,
            "games": list(self.games),
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "deals": p.deals,
                    "won": p.won,
                    "lost": p.lost,
                    "tied": p.tied,
                    "share": interval(p.share),
                    "margin": interval(p.margin),
                }
                for p in self.pairs
            ],
            "ratings": {a: interval(r) for a, r in self.ratings.items()},
            "ms_per_decision": self.ms_per_decision,
        }


def run_ladder(
    variant: Variant,
    bots: Sequence[str],
    pairs: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Ladder:
    """Play every pair of ``bots`` over ``pairs`` duplicate deals of ``variant`` (seeds
    ``seed`` to ``seed + pairs - 1``), in ``jobs`` processes.

    Raises:
        ValueError: fewer than two bots, a bot named twice, an unknown bot or budget, a
            variant without exactly two sides, or fewer than one pair of deals.
    """
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ArgumentError(f"the ladder needs two or more different bots, got {list(bots)}")
    for spec in bots:
        parse_bot(spec)
    if variant.sides != 2:
        raise ArgumentError(f"the ladder plays two sides; {variant.name} has {variant.sides}")
    if pairs < 1:
        raise ArgumentError(f"pairs must be at least 1, got {pairs}")
    config = variant.to_config()
    seeds = tuple(range(seed, seed + pairs))
    matchups = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]
    work = [(config, s, *sides) for s in seeds for a, b in matchups for sides in ((a, b), (b, a))]
    started = time.perf_counter()
    games: list[dict[str, Any]] = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for game in pool.map(play_game, work):
                games.append(game)
                if progress is not None:
                    progress(len(games), len(work))
    else:
        for job in work:
            games.append(play_game(job))
            if progress is not None:
                progress(len(games), len(work))
    seconds = time.perf_counter() - started
    timing = {a: [0.0, 0] for a in bots}
    for game in games:
        for side, name in enumerate(game["bots"]):
            timing[name][0] += game["seconds"][side]
            timing[name][1] += game["decisions"][side]
    return Ladder(
        variant=variant,
        bots=tuple(bots),
        seeds=seeds,
        games=tuple(games),
        pairs=tuple(pair_result(games, a, b) for a, b in matchups),
        ratings=ratings(bots, games),
        ms_per_decision={a: 1000 * t / n if n else 0.0 for a, (t, n) in timing.items()},
        seconds=seconds,
    )


def format_ladder(ladder: Ladder) -> str:
    """The ladder as text: one line per pair, one per bot (best rated first), then the
    bots' time per decision and the ladder's own time."""
    count = len(ladder.seeds)
    first, last = ladder.seeds[0], ladder.seeds[-1]
    lines = [
        f"{ladder.variant.name}: {count} duplicate deal pair{'s' * (count != 1)} "
        f"(seeds {first}..{last}), {2 * count} deals per pair of bots",
        "",
    ]
    width = max(len(f"{p.a} - {p.b}") for p in ladder.pairs)
    header = f"{'pair':<{width}}  {'won-lost-tied':>13}  {'share (95% CI)':>20}  "
    header += f"{'mean margin (95% CI)':>24}"
    lines += [header, "-" * len(header)]
    for p in ladder.pairs:
        share = f"{100 * p.share.value:.1f}% ({100 * p.share.low:.0f}-{100 * p.share.high:.0f})"
        margin = f"{p.margin.value:+.0f} ({p.margin.low:+.0f}..{p.margin.high:+.0f})"
        record = f"{p.won}-{p.lost}-{p.tied}"
        lines.append(f"{p.a + ' - ' + p.b:<{width}}  {record:>13}  {share:>20}  {margin:>24}")
    lines.append("")
    name_width = max(len("bot"), *(len(a) for a in ladder.bots))
    header = f"{'bot':<{name_width}}  {'rating (95% CI)':>20}"
    lines += [header, "-" * len(header)]
    ranked = sorted(ladder.bots, key=lambda a: -ladder.ratings[a].value)
    for a in ranked:
        r = ladder.ratings[a]
        lines.append(f"{a:<{name_width}}  {f'{r.value:+.0f} ({r.low:+.0f}..{r.high:+.0f})':>20}")
    lines.append("")
    times = ", ".join(f"{a} {ladder.ms_per_decision[a]:.2f}" for a in ranked)
    lines.append(f"ms per decision: {times}")
    deals = len(ladder.games)
    rate = deals / ladder.seconds if ladder.seconds > 0 else 0.0
    lines.append(f"{deals} deals in {ladder.seconds:.1f} s ({rate:.1f} deals/s)")
    return "\n".join(lines)
