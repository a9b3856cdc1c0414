"""A GreedyBot of an earlier commit, as a fixed opponent on the ladder: ``greedy@COMMIT``.

GreedyBot changes as it gets stronger, so "stronger than GreedyBot" needs a GreedyBot that
does not change. This module loads the bot's own modules (`canasta.bots.sampling`,
`strategy` and `greedy`) as they were at a commit, from git, into a package of their own,
and enters the bot in `canasta.bots.BOTS` under ``greedy@COMMIT``; the rules engine and
the rest of the library are today's. No copy of the old bot is kept in the tree.

`REFERENCE` is GreedyBot as it was before issue 16's fallback set out to beat it (the
reference row of the ladder in docs/bots.md): the bot of af4b045, as main last adapted it
to the engine (shared melds, hands of cards). ``benchmarks/ladder.py`` enters it, so the
ladder can name it::

    python benchmarks/ladder.py --pairs 200 --bots greedy@4d86dbe,greedy -v classic

Loading needs git and a clone that holds the commit. The old modules run on today's
engine: when the engine's API changes under them, move `REFERENCE` to a commit whose bot
modules match that API and play as the old bot did.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from canasta.bots import BOTS, Bot

#: The commit of the reference GreedyBot: main before the bots were improved.
REFERENCE = "4d86dbe"
#: The bot's own modules, in the order they import each other.
_MODULES = ("sampling", "strategy", "greedy")
_ROOT = Path(__file__).resolve().parent.parent


def _source(commit: str, module: str) -> str:
    path = f"{commit}:src/canasta/bots/{module}.py"
    done = subprocess.run(
        ["git", "show", path], cwd=_ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"cannot load the reference bot {path}: {done.stderr.strip()}")
    return done.stdout


def load(commit: str = REFERENCE) -> str:
    """Enter ``commit``'s GreedyBot in `BOTS` (once) and return its name, ``greedy@COMMIT``."""
    name = f"greedy@{commit}"
    if name in BOTS:
        return name
    package = f"_canasta_reference_{commit}"
    sys.modules[package] = ModuleType(package)
    module: ModuleType | None = None
    for part in _MODULES:
        source = _source(commit, part)
        # The old modules import each other from the package they are loaded into.
        for other in _MODULES:
            source = source.replace(f"canasta.bots.{other} ", f"{package}.{other} ")
        spec = importlib.util.spec_from_loader(f"{package}.{part}", loader=None)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        exec(compile(source, f"{commit}/{part}.py", "exec"), module.__dict__)
    assert module is not None
    factory: Callable[[int | None], Bot] = module.GreedyBot
    BOTS[name] = factory
    return name
