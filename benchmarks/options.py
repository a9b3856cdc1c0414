"""Command-line options shared by the benchmark scripts: which seeded deals of which
variants to play."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def deal_parser(description: str, deals: int = 200) -> argparse.ArgumentParser:
    """A parser with ``--deals`` (default ``deals``), ``--seed`` and ``--variants``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deals", type=int, default=deals, help=f"deals per variant ({deals})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (0)")
    parser.add_argument(
        "--variants",
        default="classic,modern-american",
        help="comma-separated variant names (classic,modern-american)",
    )
    return parser


def parse_deals(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> tuple[argparse.Namespace, list[str]]:
    """The parsed arguments and the variant names; a usage error for fewer than 1 deal."""
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    return args, [n.strip() for n in args.variants.split(",") if n.strip()]
