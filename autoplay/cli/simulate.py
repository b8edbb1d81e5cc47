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
from autoplay.solver.guess import DEFAULT_DEPTH


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
    p.add_argument("--games", type=positive_int, default=None, help="number of games (default: 1000, or every layout)")
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
    p.add_argument(
        "--layouts",
        metavar="FILE",
        help="play these mine layouts instead of dealing games: one game a line, its mines as space-separated "
        "cell indices row*cols+col (board size from --preset or --rows/--cols, mine count from the line); "
        "--games defaults to every line",
    )
    p.add_argument(
        "--write-layouts",
        metavar="FILE",
        help="write the layouts this seed deals for --games games (in the --layouts form) and stop, without playing",
    )
    p.add_argument("--per-game", metavar="FILE", help="also write one line per game, in order: won or lost")
    p.add_argument(
        "--guess-depth",
        type=int,
        choices=(2, 3),
        default=DEFAULT_DEPTH,
        help="moves a guess looks ahead: 3 (default) weighs the closest candidates once more, 2 does not "
        "(about twice as fast; see BENCHMARKS.md)",
    )
    add_max_per_cell(p)
    p.set_defaults(func=run)


def add_max_per_cell(p: argparse.ArgumentParser) -> None:
    """The option every command of the several-mines-per-cell variant shares."""
    p.add_argument(
        "--max-per-cell",
        type=int,
        default=None,
        metavar="K",
        help="up to K mines in one cell (numbers count mines, up to 8K); default 1, the usual game",
    )


def max_per_cell(args: argparse.Namespace) -> int:
    value = 1 if args.max_per_cell is None else args.max_per_cell
    if not 1 <= value <= MAX_PER_CELL:
        raise UsageError(f"--max-per-cell must be 1 to {MAX_PER_CELL}, got {value}")
    return value


#: Largest mines-per-cell accepted: numbers reach 8K, and the counts grow with K quickly past any use.
MAX_PER_CELL = 9


def spec_from_args(args: argparse.Namespace):
    from autoplay.sim.runner import GameSpec

    preset = PRESETS[args.preset]
    rows = args.rows if args.rows is not None else preset.rows
    cols = args.cols if args.cols is not None else preset.cols
    mines = args.mines if args.mines is not None else preset.mines
    if rows < 1 or cols < 1 or rows * cols > 100_000:
        raise UsageError(f"a {rows}x{cols} board is not playable (1 to 100000 cells)")
    per_cell = max_per_cell(args)
    if per_cell > 1 and args.win_rule == "flag-all":
        raise UsageError("--win-rule flag-all is not played with --max-per-cell above 1 (a flag does not say how many)")
    try:
        rules = Rules(first_click=args.rule, win=args.win_rule)
        from autoplay.sim.game import Game

        Game(rows, cols, mines, rules, max_per_cell=per_cell)  # validates the mine count against the rule
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return GameSpec(rows, cols, mines, rules, args.time_limit, max_per_cell=per_cell, guess_depth=args.guess_depth)


def load_layouts(args: argparse.Namespace, spec) -> list[tuple[int, ...]]:
    """The --layouts file, each game checked against the first-click rule at the solver's start cell."""
    from autoplay.errors import BoardFormatError
    from autoplay.sim.layouts import check_first_click, read_layouts
    from autoplay.sim.runner import start_cell

    layouts = read_layouts(args.layouts, spec.rows, spec.cols, spec.max_per_cell)
    first = start_cell(spec)
    for number, layout in enumerate(layouts, start=1):
        problem = check_first_click(layout, spec.rows, spec.cols, first, spec.rules.first_click)
        if problem is not None:
            raise BoardFormatError(f"game {number}: {problem}", source=args.layouts)
    return layouts


def write_file(path: str, text: str) -> None:
    from pathlib import Path

    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


#: Games played when neither --games nor --layouts says how many.
DEFAULT_GAMES = 1000


def run(args: argparse.Namespace) -> int:
    from autoplay.cli.progress import Progress
    from autoplay.sim.runner import run_games, summarise

    games = args.games
    if args.layouts and args.write_layouts:
        raise UsageError("--layouts plays a file and --write-layouts writes one: give one of them")
    spec = spec_from_args(args)
    if args.write_layouts:
        from autoplay.sim.layouts import deal_layout, format_layouts

        count = games or DEFAULT_GAMES
        write_file(args.write_layouts, format_layouts(deal_layout(spec, args.seed, i) for i in range(count)))
        print(f"wrote {count} layouts (seed {args.seed}) to {args.write_layouts}")
        return 0
    layouts = load_layouts(args, spec) if args.layouts else None
    if layouts is not None:
        if games is not None and games > len(layouts):
            raise UsageError(f"--games {games} but {args.layouts} holds {len(layouts)} layouts")
        games = games or len(layouts)
    games = games or DEFAULT_GAMES
    jobs = args.jobs or os.cpu_count() or 1
    if args.scheduler:
        from autoplay.sim.cluster import DEFAULT_BATCH, run_games_on_cluster

        def announce(address: str) -> None:
            if not args.json:
                print(f"running on the Dask scheduler at {address}", file=sys.stderr)

        stream = run_games_on_cluster(
            spec,
            games,
            args.seed,
            args.scheduler,
            workers=jobs,
            batch=args.batch or DEFAULT_BATCH,
            on_connect=announce,
            layouts=layouts,
        )
    else:
        stream = run_games(spec, games, args.seed, jobs=jobs, chunk=args.batch or 8, layouts=layouts)
    results = []
    wins = 0
    interrupted = False
    started = time.perf_counter()
    try:
        with Progress(games, "simulate") as bar:
            for result in stream:
                results.append(result)
                wins += result.won
                bar.advance(suffix=f"win {100 * wins / len(results):.1f}%")
    except KeyboardInterrupt:
        stream.close()  # cancels what is still queued (worker processes or cluster batches)
        if not results:
            raise
        interrupted = True
    summary = summarise(spec, results, time.perf_counter() - started, args.seed, jobs)
    if interrupted:
        # Nothing finished is lost: the games played so far are summarised, and the exit code still says Ctrl-C.
        print(f"autoplay: interrupted: summary of the {len(results)} of {games} games finished", file=sys.stderr)
    if args.per_game:
        ordered = sorted(results, key=lambda r: r.index)
        write_file(args.per_game, "".join("won\n" if r.won else "lost\n" for r in ordered))
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
