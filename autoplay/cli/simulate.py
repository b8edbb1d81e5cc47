"""``autoplay simulate``: win rate and speed of the solver on simulated games."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from autoplay.board.rules import FIRST_CLICK_RULES, PRESETS, WIN_RULES, Rules
from autoplay.cli.arguments import non_negative_int, positive_int, positive_seconds
from autoplay.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="measure the solver's win rate on simulated games",
        description="Play many seeded games with the solver and report the win rate with its 95% Wilson "
        "interval, speed and guess counts. The same seed gives the same games whatever --jobs is.",
        epilog="example: autoplay simulate --preset expert --rule zero --games 2000 --seed 1 --jobs 2",
    )
    p.add_argument("--preset", choices=sorted(PRESETS), default="expert", help="board size (default: expert 30x16/99)")
    p.add_argument("--rows", type=positive_int, help="custom rows (overrides the preset)")
    p.add_argument("--cols", type=positive_int, help="custom columns (overrides the preset)")
    p.add_argument("--mines", type=non_negative_int, help="custom mine count (overrides the preset)")
    p.add_argument(
        "--rule",
        choices=FIRST_CLICK_RULES,
        default="safe",
        help="first-click rule: safe = first cell safe (start in a corner), zero = first cell opens "
        "(start at (2,2) on boards up to 16x16, (3,3) on larger ones), none = no protection (default: safe)",
    )
    p.add_argument(
        "--win-rule",
        choices=WIN_RULES,
        default="reveal",
        help="reveal = all safe cells revealed; flag-all = every mine flagged too (default: reveal)",
    )
    p.add_argument("--games", type=positive_int, default=1000, help="number of games (default: 1000)")
    p.add_argument("--seed", type=int, default=1, help="run seed; game i uses (seed, i) (default: 1)")
    p.add_argument("--jobs", type=non_negative_int, default=0, help="worker processes (default 0: all cores)")
    p.add_argument(
        "--time-limit", type=positive_seconds, default=1.0, help="seconds per decision before falling back (default: 1)"
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' to start a "
        "local cluster of --jobs worker processes; results are identical to a local run with the same seed "
        '(needs pip install "autoplay[cluster]")',
    )
    p.add_argument(
        "--batch",
        type=positive_int,
        default=None,
        help="games per batch sent to a worker (default: 8 locally, 25 on a cluster)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)


def spec_from_args(args: argparse.Namespace):
    from autoplay.sim.runner import GameSpec

    preset = PRESETS[args.preset]
    rows = args.rows if args.rows is not None else preset.rows
    cols = args.cols if args.cols is not None else preset.cols
    mines = args.mines if args.mines is not None else preset.mines
    if rows < 1 or cols < 1 or rows * cols > 100_000:
        raise UsageError(f"a {rows}x{cols} board is not playable (1 to 100000 cells)")
    try:
        rules = Rules(first_click=args.rule, win=args.win_rule)
        from autoplay.sim.game import Game

        Game(rows, cols, mines, rules)  # validates the mine count against the first-click rule
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return GameSpec(rows, cols, mines, rules, args.time_limit)


def run(args: argparse.Namespace) -> int:
    from autoplay.cli.progress import Progress
    from autoplay.sim.runner import run_games, summarise

    spec = spec_from_args(args)
    jobs = args.jobs or os.cpu_count() or 1
    if args.scheduler:
        from autoplay.sim.cluster import DEFAULT_BATCH, run_games_on_cluster

        def announce(address: str) -> None:
            if not args.json:
                print(f"running on the Dask scheduler at {address}", file=sys.stderr)

        games = run_games_on_cluster(
            spec,
            args.games,
            args.seed,
            args.scheduler,
            workers=jobs,
            batch=args.batch or DEFAULT_BATCH,
            on_connect=announce,
        )
    else:
        games = run_games(spec, args.games, args.seed, jobs=jobs, chunk=args.batch or 8)
    results = []
    wins = 0
    interrupted = False
    started = time.perf_counter()
    try:
        with Progress(args.games, "simulate") as bar:
            for result in games:
                results.append(result)
                wins += result.won
                bar.advance(suffix=f"win {100 * wins / len(results):.1f}%")
    except KeyboardInterrupt:
        games.close()  # cancels what is still queued (worker processes or cluster batches)
        if not results:
            raise
        interrupted = True
    summary = summarise(spec, results, time.perf_counter() - started, args.seed, jobs)
    if interrupted:
        # Nothing finished is lost: the games played so far are summarised, and the exit code still says Ctrl-C.
        print(f"autoplay: interrupted: summary of the {len(results)} of {args.games} games finished", file=sys.stderr)
    if args.json:
        print(json.dumps(summary.to_dict()))
    else:
        lo, hi = summary.ci95
        where = f"the Dask cluster {args.scheduler}" if args.scheduler else f"{jobs} process(es)"
        if args.scheduler == "local":
            where = f"a local Dask cluster of {jobs} worker(s)"
        print(
            f"{spec.cols}x{spec.rows}/{spec.mines}, first click {spec.rules.first_click}, win rule {spec.rules.win}, seed {args.seed}"
        )
        print(
            f"games {summary.games}  wins {summary.wins}  win rate {100 * summary.win_rate:.2f}% "
            f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%)"
        )
        print(
            f"speed {summary.games_per_second:.1f} games/s on {where}; decision median "
            f"{summary.decision_ms_median:.2f} ms, p99 {summary.decision_ms_p99:.1f} ms, max {summary.decision_ms_max:.0f} ms"
        )
        print(
            f"guesses per game {summary.mean_guesses:.2f} (per win {summary.mean_guesses_won:.2f}); "
            f"safe cells revealed {summary.revealed_pct:.1f}%, mines flagged {summary.mines_flagged_pct:.1f}%"
        )
        if summary.errors:
            print(f"warning: {summary.errors} game(s) aborted because the solver made no progress")
    if interrupted:
        return 130
    return 1 if summary.errors else 0
