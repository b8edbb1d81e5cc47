"""Win-rate and speed table of the solver on simulated games, as written to BENCHMARKS.md.

Usage: python benchmarks/win_rates.py --games 20000 --jobs 2 [--presets expert] [--rules safe zero] [--out F.md]
       [--first-cell ROW COL]
Each row plays the same seeded games whatever --jobs is; the table states the command that made it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.rules import PRESETS, Rules
from autoplay.cli.progress import Progress
from autoplay.sim.runner import GameSpec, run_games, start_cell, summarise
from autoplay.solver.guess import DEFAULT_DEPTH


def start_text(spec: GameSpec) -> str:
    """Where the solver opens in this row (0-based), as the table states it."""
    r, c = start_cell(spec)
    return "corner (0,0)" if (r, c) == (0, 0) else f"({r},{c})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", nargs="+", default=["beginner", "intermediate", "expert"], choices=sorted(PRESETS))
    ap.add_argument("--rules", nargs="+", default=["safe", "zero"], choices=["safe", "zero", "none"])
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--out", help="append the markdown table to this file as well")
    ap.add_argument("--max-per-cell", type=int, default=1, help="up to K mines a cell (the seed's variant)")
    ap.add_argument(
        "--guess-depth",
        type=int,
        choices=(2, 3),
        default=DEFAULT_DEPTH,
        help="moves a guess looks ahead (default: the solver's)",
    )
    ap.add_argument(
        "--first-cell",
        nargs=2,
        type=int,
        metavar=("ROW", "COL"),
        help="open every game here (0-based) instead of the solver's own start cell",
    )
    args = ap.parse_args()

    lines = [
        f"Command: `python benchmarks/win_rates.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; "
        f"win rule reveal; seed {args.seed}; {args.jobs} worker process(es).",
        "",
        "| preset | first-click rule | first cell | games | wins | win rate | 95% CI (Wilson) | games/s per core "
        "| decision median | decision p99 | guesses/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for preset_name in args.presets:
        preset = PRESETS[preset_name]
        for rule in args.rules:
            first = tuple(args.first_cell) if args.first_cell else None
            spec = GameSpec(
                preset.rows,
                preset.cols,
                preset.mines,
                Rules(rule),
                args.time_limit,
                first,
                args.max_per_cell,
                args.guess_depth,
            )
            results = []
            started = time.perf_counter()
            with Progress(args.games, f"{preset_name}/{rule}") as bar:
                for result in run_games(spec, args.games, args.seed, jobs=args.jobs):
                    results.append(result)
                    bar.advance()
            s = summarise(spec, results, time.perf_counter() - started, args.seed, args.jobs)
            lo, hi = s.ci95
            per_cell = f", ≤{args.max_per_cell} a cell" if args.max_per_cell > 1 else ""
            row = (
                f"| {preset_name} {preset.cols}x{preset.rows}/{preset.mines}{per_cell} | {rule} | {start_text(spec)} | {s.games} "
                f"| {s.wins} | {100 * s.win_rate:.2f}% | {100 * lo:.2f}–{100 * hi:.2f}% "
                f"| {s.games_per_second / args.jobs:.1f} | {s.decision_ms_median:.2f} ms | {s.decision_ms_p99:.1f} ms "
                f"| {s.mean_guesses:.2f} |"
            )
            if s.errors:
                row += f" ({s.errors} aborted)"
            lines.append(row)
            print(row, flush=True)
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
