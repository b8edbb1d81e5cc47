"""Time to generate one no-guess board per preset (generate-and-test, as ``autoplay generate --no-guess``).

Usage: python benchmarks/generate_speed.py [--boards 50] [--seed 1] [--rule zero] [--presets beginner ...]
                                           [--min-level K] [--out BENCHMARKS.md]

Board i of a preset draws its layouts from (seed, preset, i), so a run is
reproducible.  Reports per preset the median seconds per board with a 95%
confidence interval for the median (distribution-free, from order
statistics), the 90th percentile and maximum, and the layouts tried per board.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import subprocess
import sys
import time

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.rules import PRESETS, Rules
from autoplay.insight.generate import generate
from autoplay.sim.stats import percentile
from autoplay.solver.decide import first_move


def median_interval(values: list[float], z: float = 1.959964) -> tuple[float, float]:
    """95% CI of the median: the order statistics n/2 -+ z*sqrt(n)/2 (normal approximation to the binomial)."""
    ordered = sorted(values)
    n = len(ordered)
    half = z * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half))
    high = min(n - 1, math.ceil(n / 2 + half) - 1)
    return ordered[low], ordered[high]


def measure(preset_name: str, boards: int, seed: int, rules: Rules, min_level: str | None) -> dict:
    preset = PRESETS[preset_name]
    move = first_move(preset.rows, preset.cols, rules)
    seconds, attempts = [], []
    for index in range(boards):
        rng = random.Random(f"bench-{seed}-{preset_name}-{index}")
        started = time.perf_counter()
        made = generate(
            preset.rows,
            preset.cols,
            preset.mines,
            rules,
            (move.row, move.col),
            rng,
            min_level=min_level,
            max_attempts=1_000_000,
        )
        seconds.append(time.perf_counter() - started)
        attempts.append(made.attempts)
    return {"seconds": seconds, "attempts": attempts, "first": (move.row, move.col)}


def row(name: str, rules: Rules, result: dict) -> str:
    s = result["seconds"]
    lo, hi = median_interval(s)
    preset = PRESETS[name]
    return (
        f"| {name} {preset.cols}x{preset.rows}/{preset.mines} | {rules.first_click} at {result['first']} | {len(s)} | "
        f"**{percentile(s, 50):.3f} s** | {lo:.3f}–{hi:.3f} s | {percentile(s, 90):.3f} s | {max(s):.3f} s | "
        f"{percentile(result['attempts'], 50):.0f} | {sum(result['attempts']) / len(s):.1f} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", choices=["safe", "zero"], default="zero")
    ap.add_argument("--presets", nargs="+", choices=sorted(PRESETS), default=["beginner", "intermediate", "expert"])
    ap.add_argument("--min-level", default=None)
    ap.add_argument("--out", help="also append the markdown to this file")
    args = ap.parse_args()
    rules = Rules(args.rule)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"Command: `PYTHONPATH=. python benchmarks/generate_speed.py {' '.join(sys.argv[1:])}`  ",
        f"Python {platform.python_version()}, one process, commit {commit or '?'}; no-guess boards (cleared from the "
        f"first click by certain moves only{', min level ' + args.min_level if args.min_level else ''}), "
        f"seed {args.seed}.",
        "",
        "| preset | first click | boards | median time per board | 95% CI of median | p90 | max | "
        "median layouts tried | mean layouts tried |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in args.presets:
        lines.append(row(name, rules, measure(name, args.boards, args.seed, rules, args.min_level)))
    emit("\n".join(lines), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
