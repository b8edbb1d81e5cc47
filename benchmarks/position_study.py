"""One position, several first moves: which wins more games when the solver plays on after it?

Usage: python benchmarks/position_study.py BOARD.txt --moves R,C [R,C ...] [--games 20000] [--seed 1]
       [--jobs 2] [--guess-depth 3] [--out F.md]

A guess policy ranks cells by what it can see a few moves ahead; the truth is the chance of winning the whole
game.  For a position met in play (a board in the text format ``autoplay solve`` reads, its mine count in the
header), this draws ``--games`` mine layouts uniformly from those the position allows, and plays every layout
once per move given: the position's open cells are revealed, then the move, then the solver plays to the end.
Because every move is played on the same layouts, the differences between moves are paired: only layouts that
two moves end differently carry information, so a few thousand games separate moves a point or two apart.  The
first move is the reference; every other row gives its difference from it with a 95% interval.

The draw is exact: every assignment of the frontier (the unknown cells next to a number) that fits the numbers
is listed, weighed by the ways of placing the remaining mines off the frontier, and one is drawn by weight; the
remaining mines then go to off-frontier cells uniformly.  Listing is meant for the small frontiers of early
positions (up to ``--max-assignments``).

Example: the corner opening whose first three rows read ``01 / 12 / ..2`` (BENCHMARKS.md), its far corner
against the cell two below the 1 at (1,0):

    python benchmarks/position_study.py opening.txt --moves 0,29 3,0 0,3 --games 20000
"""

from __future__ import annotations

import argparse
import bisect
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from paired import paired_difference  # benchmarks/paired.py, beside this script
from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.model import Board
from autoplay.board.textformat import read_board
from autoplay.sim.runner import GameSpec, play_game
from autoplay.sim.stats import wilson_interval
from autoplay.solver.decide import Decision, Move, choose_move
from autoplay.solver.guess import DEFAULT_DEPTH
from autoplay.solver.position import Position, read_position


class LayoutDraw:
    """Uniform draws of the mine layouts a position allows (see the module docstring)."""

    def __init__(self, pos: Position, mines: int, max_assignments: int) -> None:
        self.known = list(pos.known_mines)
        frontier = sorted({j for con in pos.constraints for j in con.unknowns})
        on = set(frontier)
        self.off = [j for j in pos.unknown if j not in on]
        left = mines - len(self.known)
        self.assignments: list[tuple[int, ...]] = []
        self.cumulative: list[int] = []
        total = 0
        for chosen in _fits(pos, frontier, max_assignments):
            rest = left - len(chosen)
            if 0 <= rest <= len(self.off):
                total += math.comb(len(self.off), rest)
                self.assignments.append(chosen)
                self.cumulative.append(total)
        if not total:
            raise SystemExit("position_study: no layout fits this position and mine count")
        self.total, self.left = total, left

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        k = bisect.bisect_right(self.cumulative, rng.randrange(self.total))
        chosen = self.assignments[k]
        rest = rng.sample(self.off, self.left - len(chosen))
        return tuple(sorted(self.known + list(chosen) + rest))


def _fits(pos: Position, frontier: list[int], limit: int) -> list[tuple[int, ...]]:
    """Every set of frontier cells that holds exactly each number's remaining mines.

    Cells are decided in ``frontier`` order; a number is checked as soon as its last cell is decided.
    """
    order = {j: i for i, j in enumerate(frontier)}
    closing: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in frontier]
    for con in pos.constraints:
        closing[max(order[j] for j in con.unknowns)].append((tuple(order[j] for j in con.unknowns), con.mines))
    mine = [0] * len(frontier)
    out: list[tuple[int, ...]] = []

    def extend(i: int) -> None:
        if i == len(frontier):
            if len(out) >= limit:
                raise SystemExit(f"position_study: more than {limit} frontier assignments; raise --max-assignments")
            out.append(tuple(j for j, x in zip(frontier, mine, strict=True) if x))
            return
        for x in (0, 1):
            mine[i] = x
            if all(sum(mine[k] for k in cells) == need for cells, need in closing[i]):
                extend(i + 1)
        mine[i] = 0

    extend(0)
    return out


def play_from(board: Board, spec: GameSpec, layout: tuple[int, ...], move: tuple[int, int]) -> bool:
    """Whether the solver wins ``layout`` after the position's open cells and then ``move`` are revealed."""
    opened = [divmod(i, board.cols) for i, ch in enumerate("".join(board.cells)) if ch.isdigit()]
    script = [
        Decision([Move("reveal", r, c, 0.0) for r, c in opened], False, None, "the position"),
        Decision([Move("reveal", move[0], move[1], 0.0)], True, None, "the move studied"),
    ]

    def decide(now: Board, rules: object, rng: random.Random) -> Decision:
        if len(script) == 1 and any(
            now.cells[r * board.cols + c] != board.cells[r * board.cols + c] for r, c in opened
        ):
            raise SystemExit("position_study: a drawn layout does not reproduce the position (a bug)")
        if script:
            return script.pop(0)
        return choose_move(now, spec.mines, spec.rules, time_limit=spec.time_limit, depth=spec.guess_depth)

    return play_game(spec, 0, 0, decide=decide, layout=layout).won


def _chunk(args: tuple[Board, GameSpec, list[tuple[int, ...]], list[tuple[int, int]]]) -> list[list[bool]]:
    board, spec, layouts, moves = args
    return [[play_from(board, spec, layout, move) for layout in layouts] for move in moves]


def _cell(text: str) -> tuple[int, int]:
    """``ROW,COL`` as a 0-based cell."""
    try:
        row, col = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL, got {text!r}") from None
    return row, col


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board", help="the position, in autoplay's board text format with mines=N")
    ap.add_argument(
        "--moves", nargs="+", type=_cell, required=True, help="cells to compare as ROW,COL; the first is the reference"
    )
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--guess-depth", type=int, choices=(2, 3), default=DEFAULT_DEPTH)
    ap.add_argument("--max-assignments", type=int, default=200_000)
    ap.add_argument("--out")
    args = ap.parse_args()
    board = read_board(args.board)
    if board.mines is None:
        raise SystemExit("position_study: the board needs its mine count (mines=N in the header)")
    moves: list[tuple[int, int]] = args.moves
    pos = read_position(board)
    for r, c in moves:
        if r * board.cols + c not in pos.unknown:
            raise SystemExit(f"position_study: ({r},{c}) is not a hidden cell of the position")
    spec = GameSpec(board.rows, board.cols, board.mines, guess_depth=args.guess_depth)
    sampler = LayoutDraw(pos, board.mines, args.max_assignments)
    rng = random.Random(args.seed)
    layouts = [sampler.draw(rng) for _ in range(args.games)]
    size = max(1, min(500, args.games // (4 * max(args.jobs, 1))))
    chunks = [(board, spec, layouts[i : i + size], moves) for i in range(0, len(layouts), size)]
    won: list[list[bool]] = [[] for _ in moves]
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, part in enumerate(pool.map(_chunk, chunks), 1):
            for k, results in enumerate(part):
                won[k].extend(results)
            print(f"position_study: {done}/{len(chunks)} chunks", file=sys.stderr, flush=True)
    lines = [
        f"Command: `python benchmarks/position_study.py {' '.join(sys.argv[1:])}` "
        f"({len(sampler.assignments)} frontier assignments)\n",
        "| move | wins | win rate (95% CI) | won only by the first move | won only by this one | difference (95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for k, (r, c) in enumerate(moves):
        wins = sum(won[k])
        low, high = wilson_interval(wins, len(won[k]))
        diff = "reference"
        only_ref = only_this = "–"
        if k:
            _n, a, b, d, h = paired_difference(won[0], won[k])
            only_ref, only_this, diff = str(a), str(b), f"**{d:+.2f}** ± {h:.2f} points"
        lines.append(
            f"| ({r},{c}) | {wins} | {100 * wins / len(won[k]):.2f}% ({100 * low:.2f}–{100 * high:.2f}) "
            f"| {only_ref} | {only_this} | {diff} |"
        )
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
