"""Simulations on a real Dask cluster (local worker processes): same games as the local runner, lost workers re-run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import distributed  # the cluster extra is part of the test install: missing, these tests fail, never skip
import pytest

from autoplay.sim.cluster import batches, run_games_on_cluster
from autoplay.sim.runner import GameResult, GameSpec, run_games

# A generous per-decision cap: a decision that hits the 1 s default cap on a loaded machine falls back to its
# best-so-far candidate, which would make the comparison depend on load rather than on the runner.
SPEC = GameSpec(9, 9, 10, time_limit=60.0)


def _outcomes(results: list[GameResult]) -> list[tuple[int, bool, int, int, float]]:
    """Everything about a game that depends on its decisions, not on the clock."""
    return sorted((r.index, r.won, r.guesses, r.decisions, r.safe_revealed_pct) for r in results)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


def test_batches_cover_every_game_once() -> None:
    cut = batches(103, 25)
    assert [i for b in cut for i in b] == list(range(103))
    assert max(len(b) for b in cut) == 25


def test_cluster_plays_the_same_games_as_the_local_runner(cluster) -> None:
    local = list(run_games(SPEC, 60, seed=5, jobs=1))
    remote = list(run_games_on_cluster(SPEC, 60, seed=5, scheduler=cluster.scheduler_address, batch=7))
    assert len(remote) == 60
    assert _outcomes(remote) == _outcomes(local)


def test_a_killed_worker_loses_only_its_batch(cluster) -> None:
    """Kill one worker process while batches run: the nanny restarts it, the scheduler re-runs its batch."""
    spec = GameSpec(16, 16, 40, time_limit=60.0)
    local = list(run_games(spec, 40, seed=2, jobs=1))
    with distributed.Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
    victim = next(iter(pids.values()))
    results: list[GameResult] = []
    killed = False
    for result in run_games_on_cluster(spec, 40, seed=2, scheduler=cluster.scheduler_address, batch=4):
        results.append(result)
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed = True
    assert killed
    assert _outcomes(results) == _outcomes(local)


def test_cli_local_cluster_matches_local_run() -> None:
    def run(*extra: str) -> dict:
        out = subprocess.run(
            [sys.executable, "-m", "autoplay", "simulate", "--preset", "beginner", "--games", "40", "--seed", "9"]
            + ["--time-limit", "60", "--json", *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        import json

        return json.loads(out.stdout)

    plain = run("--jobs", "1")
    dask = run("--jobs", "2", "--scheduler", "local")
    for key in ("games", "wins", "mean_guesses", "revealed_pct", "mines_flagged_pct"):
        assert dask[key] == plain[key], key


def test_unreachable_scheduler_is_one_line_exit_1() -> None:
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "autoplay", "simulate", "--preset", "beginner", "--games", "5"]
        + ["--scheduler", "tcp://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0
    assert "cannot reach the Dask scheduler" in out.stderr
    assert time.monotonic() - started < 30
