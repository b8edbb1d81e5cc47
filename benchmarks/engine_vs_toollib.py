"""autoplay's exact probability engine side by side with ms_toollib's (a Rust core), on the same positions.

Usage: python benchmarks/engine_vs_toollib.py [--positions 600] [--seed 1] [--repeats 3]

Needs the benchmark-only dependency ``pip install ms-toollib``. The positions are the expert mid-game boards
(first click safe, corner start) on which autoplay's solver had to run its engine — the cheap rules found
nothing — taken from seeded simulated games, at most ``--per-game`` per game so that many games contribute.
For every position both engines compute the probability of every hidden cell with the total mine count, in
one process, alternating engine by engine per position so that load on the shared machine hits both alike.
Times are CPU time (``time.process_time_ns``), the fastest of ``--repeats`` runs per position, autoplay cold
(component cache cleared before each call, as ms_toollib has none). Before timing, the two engines' answers are
compared cell by cell; the script stops if any differs by more than 1e-12.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
import random
import statistics
import subprocess
import sys
import time

import ms_toollib

from autoplay.board.model import FLAG, HIDDEN, QUESTION, Board
from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.runner import GameSpec, play_game
from autoplay.sim.stats import percentile
from autoplay.solver import analyze, choose_move
from autoplay.solver.analysis import clear_component_cache

TOOLLIB_HIDDEN = 10
TOOLLIB_FLAG = 11


def collect(games: int, seed: int, positions: int, per_game: int, every: bool = False) -> list[Board]:
    """Engine positions from seeded expert games (those where the cheap rules found no move), or with
    ``every`` any board the solver was asked about after the first click."""
    preset = PRESETS["expert"]
    spec = GameSpec(preset.rows, preset.cols, preset.mines, Rules("safe"))
    found: list[Board] = []
    for index in range(games):
        mine: list[Board] = []

        def decide(board: Board, rules: Rules, rng: random.Random, mine: list[Board] = mine) -> object:
            decision = choose_move(board, board.mines, rules, rng=rng)
            if (every or decision.analysis is not None) and any(c != HIDDEN for c in board.cells):
                mine.append(board)
            return decision

        play_game(spec, seed, index, decide)
        rng = random.Random(f"positions-{seed}-{index}")
        found.extend(rng.sample(mine, min(per_game, len(mine))))
        if len(found) >= positions:
            break
    return found[:positions]


def toollib_board(board: Board) -> list[list[int]]:
    out = []
    for r in range(board.rows):
        row = []
        for c in range(board.cols):
            ch = board[r, c]
            row.append(TOOLLIB_FLAG if ch == FLAG else TOOLLIB_HIDDEN if ch in (HIDDEN, QUESTION) else int(ch))
        out.append(row)
    return out


def agreement(boards: list[Board]) -> tuple[int, float]:
    """(hidden cells compared, largest absolute difference) between the two engines."""
    cells, worst = 0, 0.0
    for board in boards:
        ours = analyze(board, board.mines).probabilities
        theirs, _counts = ms_toollib.cal_probability_onboard(toollib_board(board), float(board.mines))
        for r in range(board.rows):
            for c in range(board.cols):
                if board[r, c] in (HIDDEN, QUESTION):
                    cells += 1
                    worst = max(worst, abs(ours[r][c] - theirs[r][c]))
    return cells, worst


def fastest(call, repeats: int) -> int:
    best = None
    for _ in range(repeats):
        t0 = time.process_time_ns()
        call()
        spent = time.process_time_ns() - t0
        best = spent if best is None else min(best, spent)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--games", type=int, default=2000, help="at most this many games to draw positions from")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--every-decision",
        action="store_true",
        help="draw from every mid-game decision, not only those where the engine ran",
    )
    args = ap.parse_args()

    boards = collect(args.games, args.seed, args.positions, args.per_game, args.every_decision)
    cells, worst = agreement(boards)
    if worst > 1e-12:
        raise SystemExit(f"the engines disagree: largest difference {worst:.3g}")
    ours_ns: list[int] = []
    theirs_ns: list[int] = []
    for board in boards:
        grid = toollib_board(board)

        def ours(board: Board = board) -> None:
            clear_component_cache()
            analyze(board, board.mines)

        ours_ns.append(fastest(ours, args.repeats))
        theirs_ns.append(
            fastest(lambda grid=grid, m=float(board.mines): ms_toollib.cal_probability_onboard(grid, m), args.repeats)
        )

    def ms(values: list[int], q: float) -> float:
        return percentile([v / 1e6 for v in values], q)

    ratios = [a / b for a, b in zip(ours_ns, theirs_ns) if b]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"Command: `python benchmarks/engine_vs_toollib.py {' '.join(sys.argv[1:])}`, commit {commit}  ")
    print(
        f"Python {platform.python_version()}, ms_toollib {importlib.metadata.version('ms-toollib')}; {len(boards)} "
        f"expert {'mid-game' if args.every_decision else 'engine'} positions (first click safe, seed {args.seed}); CPU time, fastest of {args.repeats} per "
        f"position; {cells} hidden cells agree to {worst:.1e}.\n"
    )
    print("| engine | median | p90 | p99 | max |")
    print("|---|---|---|---|---|")
    for name, values in (("autoplay `analyze` (cold)", ours_ns), ("ms_toollib `cal_probability_onboard`", theirs_ns)):
        print(
            f"| {name} | {ms(values, 50):.3f} ms | {ms(values, 90):.3f} ms | {ms(values, 99):.3f} ms | {max(values) / 1e6:.2f} ms |"
        )
    print(
        f"\nratio autoplay / ms_toollib: median time {ms(ours_ns, 50) / ms(theirs_ns, 50):.2f}, p99 time "
        f"{ms(ours_ns, 99) / ms(theirs_ns, 99):.2f}; per-position ratio median {statistics.median(ratios):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
