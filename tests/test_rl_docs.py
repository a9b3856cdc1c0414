"""The tables of the "Reinforcement learning" page (docs/rl.md) match the library: the
action blocks and the vector sections of ``classic``, and the sizes of every built-in
variant."""

from __future__ import annotations

from pathlib import Path

import canasta
from canasta.rl import ActionSpace, ObservationEncoder, max_deal_moves, reward_bound
from canasta.variants.presets import BUILTINS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def _table(marker: str) -> list[list[str]]:
    """The body rows of the table after ``<!-- marker -->``, cells without backticks."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- {marker} -->") + 3  # the marker, the header, the rule
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().replace("`", "") for cell in line.strip("|").split("|")])
    return rows


def test_the_action_layout_table_is_the_layout() -> None:
    actions = ActionSpace(canasta.variants.get("classic"))
    rows = _table("action-layout: classic")
    assert [(r[0], int(r[1]), int(r[2])) for r in rows] == [
        (b.name, b.offset, b.length) for b in actions.layout
    ]
    for row, block in zip(rows, actions.layout, strict=True):
        first, _, last = row[3].partition(" … ")
        assert first == actions.name(block.offset)
        assert (last or first) == actions.name(block.offset + block.length - 1)


def test_the_tensor_layout_table_is_the_layout() -> None:
    encoder = ObservationEncoder(canasta.variants.get("classic"))
    rows = _table("tensor-layout: classic")
    assert [(r[0], int(r[1]), int(r[2])) for r in rows] == [
        (b.name, b.offset, b.length) for b in encoder.layout
    ]


def test_the_sizes_table_lists_every_builtin_variant() -> None:
    rows = {r[0]: r[1:] for r in _table("sizes")}
    assert set(rows) == {variant.name for variant, _ in BUILTINS}
    for name, cells in rows.items():
        variant = canasta.variants.get(name)
        assert cells == [
            str(ActionSpace(variant).size),
            str(ObservationEncoder(variant).size),
            str(max_deal_moves(variant)),
            str(variant.target_score),
            f"{reward_bound(variant):.1f}",
        ], name
