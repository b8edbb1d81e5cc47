"""benchmarks/sim_time_shares.py: every decision's time lands under its policy, and noted counts are made again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from autoplay.sim.runner import GameSpec, play_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from sim_time_shares import policy, time_shares

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

SPEC = GameSpec(9, 9, 10)


def test_every_decision_is_timed_under_the_policy_that_made_it() -> None:
    by, wall = time_shares(SPEC, 6)
    names: list[str] = []
    decisions = 0
    for index in range(6):
        decisions += play_game(SPEC, 1, index, observe=lambda d: names.append(policy(d))).decisions
    assert sum(len(v) for v in by.values()) == decisions == len(names)
    assert {name: len(v) for name, v in by.items()} == {name: names.count(name) for name in set(names)}
    assert "certain" in by and wall >= sum(sum(v) for v in by.values())


def test_the_counts_of_a_few_games_are_noted_and_made_again() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "sim_time_shares.py"),
            "--games",
            "2",
            "--preset",
            "beginner",
            "--counts",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "| certain |" in done.stdout and "enumerations of the first 2 games" in done.stdout
