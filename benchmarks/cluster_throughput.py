"""Throughput of simulated games: the plain multiprocess runner against a Dask cluster, 1 and 2 workers.

Usage: python benchmarks/cluster_throughput.py [--games 600] [--preset expert] [--seed 1] [--repeats 3]

Every configuration plays the same seeded games (game i depends only on (seed, i)); the script checks that the
outcomes agree, then reports games per wall-clock second for each, the median over ``--repeats`` runs. A Dask
cluster is started before its clock starts (its start-up, about 3 s, is reported apart): what is measured is the
cost of shipping batches to workers and results back, the overhead a long study pays. Run it on an otherwise idle
machine: wall-clock throughput is only meaningful when the cores are free.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import statistics
import subprocess
import sys
import time

import distributed

from autoplay.board.rules import PRESETS
from autoplay.sim.cluster import run_games_on_cluster
from autoplay.sim.runner import GameSpec, run_games


def cold_caches() -> None:
    """Forget what earlier runs of the same seeded games taught the solver's caches.

    The multiprocess runner forks its workers from this process (and runs in it with one job), so without this
    every run after the first would replay games whose guesses are already cached, which a Dask worker (a fresh
    process) never has: the comparison would flatter the local runner.
    """
    from autoplay.solver.analysis import _room, clear_component_cache
    from autoplay.solver.guess import clear_guess_cache

    clear_component_cache()
    clear_guess_cache()
    _room.cache_clear()


def timed(run) -> tuple[list[bool], float]:
    cold_caches()
    started = time.perf_counter()
    results = sorted(run(), key=lambda r: r.index)
    return [r.won for r in results], time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=25)
    args = parser.parse_args()
    preset = PRESETS[args.preset]
    # A cap no decision reaches, so the outcomes cannot depend on how loaded the machine is.
    spec = GameSpec(preset.rows, preset.cols, preset.mines, time_limit=60.0)

    configs: dict[str, list[float]] = {}
    reference: list[bool] | None = None
    startup: list[float] = []

    def record(name: str, outcomes: list[bool], seconds: float) -> None:
        nonlocal reference
        if reference is None:
            reference = outcomes
        elif outcomes != reference:
            raise SystemExit(f"{name}: outcomes differ from the first configuration's")
        configs.setdefault(name, []).append(args.games / seconds)
        print(f"  {name}: {args.games / seconds:.1f} games/s", file=sys.stderr, flush=True)

    for repeat in range(args.repeats):
        print(f"repeat {repeat + 1}/{args.repeats}", file=sys.stderr)
        for jobs in (1, 2):
            outcomes, seconds = timed(lambda jobs=jobs: run_games(spec, args.games, args.seed, jobs=jobs, chunk=8))
            record(f"multiprocess, {jobs} process(es)", outcomes, seconds)
        for workers in (1, 2):
            t0 = time.perf_counter()
            with (
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                ) as cluster,
                distributed.Client(cluster) as client,
            ):
                client.wait_for_workers(workers)
                startup.append(time.perf_counter() - t0)
                outcomes, seconds = timed(
                    lambda: run_games_on_cluster(
                        spec, args.games, args.seed, cluster.scheduler_address, batch=args.batch
                    )
                )
            record(f"Dask, {workers} worker(s)", outcomes, seconds)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(
        f"\n{args.preset} {spec.cols}x{spec.rows}/{spec.mines}, first click {spec.rules.first_click}, "
        f"{args.games} games x {args.repeats} repeats, seed {args.seed}, batch {args.batch}, commit {commit}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average before "
        f"{os.getloadavg()[0]:.2f}\n"
    )
    print("| runner | games/s (median) | runs |")
    print("|---|---|---|")
    medians = {name: statistics.median(rates) for name, rates in configs.items()}
    for name, rates in configs.items():
        print(f"| {name} | {medians[name]:.1f} | {', '.join(f'{r:.1f}' for r in rates)} |")
    two_over_one = medians["Dask, 2 worker(s)"] / medians["Dask, 1 worker(s)"]
    overhead = 1 - medians["Dask, 2 worker(s)"] / medians["multiprocess, 2 process(es)"]
    print(f"\nDask 2 workers / 1 worker: {two_over_one:.2f}x; Dask overhead against 2 processes: {100 * overhead:.1f}%")
    print(f"Dask local cluster start-up: median {statistics.median(startup):.1f} s (not in the rates)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
