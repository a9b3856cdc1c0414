"""``canasta simulate --backend ray`` (extra ``canasta[ray]``): a local Ray instance with
two workers gives the results of the process pool for the same seeds.

Runs in the Ray environment of ``make test-ray``.
"""

from __future__ import annotations

import pytest

from canasta.cli import main


def _summary(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["simulate", "-q", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The last line is the timing.
    assert " deals/s)" in lines[-1]
    return lines[:-1]


def test_ray_gives_the_results_of_the_process_pool(capsys: pytest.CaptureFixture[str]) -> None:
    games = ("-n", "8", "--deals", "--bots", "greedy,random", "--seed", "5")
    with_ray = _summary(capsys, *games, "--workers", "2", "--backend", "ray")
    with_processes = _summary(capsys, *games, "--workers", "2")
    assert with_ray == with_processes
    assert with_ray[0] == "8 deals of classic, seeds 5..12"
    matches = ("-n", "2", "--variant", "classic-2p", "--bots", "random", "--target", "1500")
    assert _summary(capsys, *matches, "--workers", "2", "--backend", "ray") == _summary(
        capsys, *matches
    )
