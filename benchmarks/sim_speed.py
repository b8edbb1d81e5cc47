"""The simulator's speed as users run it: ``autoplay simulate`` in a fresh process, process start included.

Usage: python benchmarks/sim_speed.py [--games 600] [--preset expert] [--repeats 7] [--baseline DIR]
                                      [--guess-depth 3] [--json FILE]

Each repeat runs ``python -m autoplay simulate --preset expert --games 600 --jobs 1`` (one process, the
default guess depth and time limit) from this tree, and with ``--baseline DIR`` (another checkout, e.g.
``git clone`` of an older commit with its compiled modules built) from that tree right after, so both see
the same machine load.  Timed from outside: games per wall-clock second of the whole process (what the
issue's target counts: start-up, imports and the summary included) and games per CPU-second of the process
(user + system, from the operating system's accounting of the finished child: on a shared machine the wall
clock also counts other processes' turns).  Reported: the median over repeats with a distribution-free
95% interval (the whole range when there are too few repeats: at least 6 are needed), the ratio of
medians, the median of each repeat's own ratio (its two runs are back to back, so the load moves
least between them), the load average around the runs, and the games won in each tree (the same seeded games:
equal unless a decision hit the 1 s time limit).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from autoplay.sim.stats import median_interval

HERE = Path(__file__).resolve().parent.parent


def run_once(tree: Path, command: list[str]) -> dict[str, float]:
    """One ``autoplay simulate`` run from ``tree``: wall and CPU seconds of the whole process, games won.

    The CPU seconds are the growth of this process's finished children's usage over the run (one child
    at a time runs here, so that is the child's own user + system time).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AUTOPLAY_PURE_PYTHON")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"sim_speed: {' '.join(command)} in {tree} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    won = re.search(r"wins (\d+)", done.stdout)
    return {"wall": wall, "cpu": cpu, "won": float(won.group(1)) if won else float("nan")}


def compiled_status(tree: Path) -> str:
    """What ``autoplay.compiled.status()`` says in ``tree`` (a stale compiled copy would run as pure Python)."""
    probe = [sys.executable, "-c", "import autoplay, autoplay.compiled as k; print(k.status(), autoplay.__file__)"]
    return subprocess.run(probe, cwd=tree, capture_output=True, text=True, check=True).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--guess-depth", type=int, default=None, help="default: the simulator's own default")
    parser.add_argument("--baseline", type=Path, help="another tree to run side by side (alternating)")
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    args = parser.parse_args()
    command = [sys.executable, "-m", "autoplay", "simulate", "--preset", args.preset]
    command += ["--games", str(args.games), "--jobs", "1"]
    if args.guess_depth is not None:
        command += ["--guess-depth", str(args.guess_depth)]
    trees = {"this tree": HERE}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), "this tree": HERE}
    for name, tree in trees.items():
        print(f"{name}: {tree}: {compiled_status(tree)}", flush=True)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    loads: list[float] = []
    for repeat in range(args.repeats):
        for name, tree in trees.items():
            loads.append(os.getloadavg()[0])
            found = run_once(tree, command)
            runs[name].append(found)
            rate, per_cpu = args.games / found["wall"], args.games / found["cpu"]
            print(f"repeat {repeat + 1} {name}: {rate:.1f} games/s, {per_cpu:.1f} games/CPU-s", flush=True)
    loads.append(os.getloadavg()[0])
    print(f"\ncommand: {' '.join(command[1:])} (from each tree), {args.repeats} repeats")
    print(f"load average (1 min) around the runs: {min(loads):.2f}-{max(loads):.2f}")
    print("| tree | games/s, median [95% interval] | games/CPU-s, median [95% interval] | games won |")
    print("|---|---|---|---|")
    medians: dict[str, tuple[float, float]] = {}
    for name, done in runs.items():
        rates = [args.games / r["wall"] for r in done]
        cpu_rates = [args.games / r["cpu"] for r in done]
        medians[name] = (statistics.median(rates), statistics.median(cpu_rates))
        lo, hi = median_interval(rates)
        clo, chi = median_interval(cpu_rates)
        won = sorted({int(r["won"]) for r in done})
        print(
            f"| {name} | {medians[name][0]:.1f} [{lo:.1f}, {hi:.1f}] | {medians[name][1]:.1f} [{clo:.1f}, {chi:.1f}] "
            f"| {', '.join(map(str, won))} |"
        )
    if "baseline" in medians:
        new, old = medians["this tree"], medians["baseline"]
        print(
            f"ratio of medians (this tree / baseline): {new[0] / old[0]:.2f}x games/s, {new[1] / old[1]:.2f}x games/CPU-s"
        )
    if "baseline" in runs:  # each repeat's two runs are back to back: their ratio sees the same load
        paired = [o["cpu"] / n["cpu"] for o, n in zip(runs["baseline"], runs["this tree"])]
        lo, hi = median_interval(paired)
        print(f"paired games/CPU-s ratio per repeat: median {statistics.median(paired):.2f}x [{lo:.2f}, {hi:.2f}]")
    if args.json is not None:
        args.json.write_text(json.dumps({"command": command[1:], "loads": loads, "runs": runs}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
