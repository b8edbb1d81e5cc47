"""Cost per frame of ``autoplay replay`` and ``analyze``, as written to BENCHMARKS.md.

Usage: python benchmarks/replay_speed.py [--positions 20] [--repeat 5] [--seed 1] [--skin gnome-mines]
Drawing and reporting are timed on expert mid-game boards from seeded simulated games (the solver plays
until its first guess) over a synthetic 1050x650 screenshot, so they are reproducible; the whole replay
step (locate + decode + solve + annotate + write PNG) is timed on the skin's real fixture screenshots.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import PRESETS, Rules
from autoplay.render import UniformGrid, add_caption, annotate_frame, render_board
from autoplay.replay.decide import decide_move
from autoplay.replay.position_report import report_position
from autoplay.replay.runner import Replayer, VisionDecoder
from autoplay.replay.sources import collect_frames
from autoplay.sim.game import Game


def midgame_board(seed: int) -> Board | None:
    """Play certain moves from an opening until the solver must guess: a typical frame to annotate.

    None when the game ends without a guess (nothing left to decide on).
    """
    preset = PRESETS["expert"]
    rules = Rules(first_click="zero")
    game = Game(preset.rows, preset.cols, preset.mines, rules, rng=random.Random(seed))
    while not game.over:
        decision = decide_move(game.board(), preset.mines, rules)
        if decision.guess and not game.board().is_fresh:
            break
        for move in decision.moves:
            (game.reveal if move.action == "reveal" else game.flag)(move.row, move.col)
    return None if game.over else game.board()


def midgame_boards(count: int, seed: int) -> list[Board]:
    boards: list[Board] = []
    index = 0
    while len(boards) < count:
        board = midgame_board(seed * 1000 + index)
        index += 1
        if board is not None:
            boards.append(board)
    return boards


def timed_ms(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skin", default="gnome-mines", help="skin whose tests/fixtures/SKIN screenshots are replayed")
    args = ap.parse_args()

    shot = np.random.default_rng(args.seed).integers(150, 200, size=(650, 1050, 3), dtype=np.uint8)
    grid = UniformGrid(16, 30, 28, 105, 120)
    rows: dict[str, list[float]] = {
        "report_position (both views + move)": [],
        "annotate_frame + caption": [],
        "render_board": [],
    }
    for board in midgame_boards(args.positions, args.seed):
        report = report_position(board)
        a, move = report.analysis, report.decision.moves[0]
        rows["report_position (both views + move)"].append(timed_ms(lambda: report_position(board), args.repeat))
        rows["annotate_frame + caption"].append(
            timed_ms(
                lambda: add_caption(annotate_frame(shot, grid, a.probabilities, move, a.safe, a.mines), "caption"),
                args.repeat,
            )
        )
        rows["render_board"].append(
            timed_ms(lambda: render_board(board, a.probabilities, move, safe=a.safe, mines=a.mines), args.repeat)
        )
    frames = collect_frames(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / args.skin).frames
    replay_key = f"replay one {args.skin} fixture frame (locate, decode, solve, annotate, write)"
    rows[replay_key] = []
    with tempfile.TemporaryDirectory() as out:
        replayer = Replayer(VisionDecoder(args.skin), Path(out))
        for frame in frames:
            rows[replay_key].append(timed_ms(lambda: replayer.replay_frame(frame), args.repeat))
    print(f"Command: `python benchmarks/replay_speed.py {' '.join(sys.argv[1:])}`  ")
    print(
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; "
        f"{args.positions} expert positions (first guess of seeded games) and {len(frames)} fixture frames, "
        f"median of {args.repeat} runs each; table: median and max over positions/frames."
    )
    print()
    print("| step | median ms | max ms |")
    print("|---|---|---|")
    for name, values in rows.items():
        print(f"| {name} | {statistics.median(values):.1f} | {max(values):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
