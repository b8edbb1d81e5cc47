"""What the first opened cell shows, with up to K mines a cell: the seed's expert table and its K > 1 analogue.

Usage: python benchmarks/multimine_numbers.py [--ks 1 2 3 4] [--preset expert] [--deal N] [--out F.md]

A cell in the middle of a fresh board (no first-click protection) is opened: it holds a mine, or
it shows the number of mines among its eight neighbours.  Each row is computed twice, exactly,
and the two must agree as fractions:

1. by the solver: the weight of every board where that cell shows v (``analyze_multi`` on the
   board with the number written in) over the weight of the fresh board;
2. in closed form: ``K! * [t^v] P^8 * [t^(M-v)] P^(N-9) / [t^M] P^N``, with P the cell polynomial
   of :mod:`autoplay.solver.multiweights` (for K = 1, the hypergeometric law).

``--deal N`` also deals N games with the simulator (``Game``, first-click rule ``none``) and
reports how often the cell showed each outcome, with 95% Wilson intervals: an independent check
of the simulator's dealing against the exact law.
"""

from __future__ import annotations

import argparse
import random
import sys
from fractions import Fraction

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.multiformat import MultiBoard
from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.game import Game
from autoplay.sim.stats import wilson_interval
from autoplay.solver.multimine import analyze_multi, read_multi_position
from autoplay.solver.multiweights import cell_polynomial, power_coefficients

#: Numbers shown one by one; the rest are summed into one column.
SHOWN = 9


def by_solver(rows: int, cols: int, mines: int, k: int, cell: int) -> tuple[Fraction, list[Fraction]]:
    """(P(the cell holds a mine), P(it shows v) for v = 0..8k), from the solver's own weights."""
    fresh = MultiBoard(rows, cols, (".",) * (rows * cols), mines, k)
    whole = analyze_multi(read_multi_position(fresh), mines, k)
    r, c = divmod(cell, cols)
    mined = whole.exact[(r, c)]
    shows = []
    for v in range(8 * k + 1):
        cells = list(fresh.cells)
        cells[cell] = str(v)
        board = MultiBoard(rows, cols, tuple(cells), mines, k)
        try:
            weight = analyze_multi(read_multi_position(board), mines, k).solutions
        except Exception:  # no layout shows this number (too few mines): its chance is 0
            weight = 0
        shows.append(Fraction(cell_polynomial(k)[0] * weight, whole.solutions))
    return mined, shows


def closed_form(cells: int, mines: int, k: int) -> list[Fraction]:
    """P(an interior cell is empty and shows v), from the polynomial powers alone."""
    around = power_coefficients(k, 8, 8 * k)
    rest = power_coefficients(k, cells - 9, mines)
    every = power_coefficients(k, cells, mines)[mines]
    own = cell_polynomial(k)[0]
    return [Fraction(own * around[v] * rest[mines - v], every) if v <= mines else Fraction(0) for v in range(8 * k + 1)]


def _interval(hits: int, n: int) -> str:
    lo, hi = wilson_interval(hits, n)
    return f"{100 * hits / n:.2f}% ({100 * lo:.2f}–{100 * hi:.2f})"


def several(cells: int, mines: int, k: int) -> Fraction:
    """P(one given cell holds two mines or more): one minus its weights at 0 and 1 mines."""
    poly = cell_polynomial(k)
    rest = power_coefficients(k, cells - 1, mines)
    every = power_coefficients(k, cells, mines)[mines]
    return 1 - Fraction(poly[0] * rest[mines] + poly[1] * rest[mines - 1], every)


def dealt(rows: int, cols: int, mines: int, k: int, cell: int, games: int) -> list[int]:
    """How often the simulator's games show each outcome at ``cell``: index 0 = a mine, 1 + v = the number v."""
    seen = [0] * (8 * k + 2)
    for index in range(games):
        game = Game(rows, cols, mines, Rules("none"), random.Random(f"numbers-{k}-{index}"), max_per_cell=k)
        hit = not game.reveal(*divmod(cell, cols))
        seen[0 if hit else 1 + game.number(cell)] += 1
    return seen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ks", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    ap.add_argument("--deal", type=int, default=0, help="also deal this many games per K and count what shows")
    ap.add_argument("--out")
    args = ap.parse_args()
    preset = PRESETS[args.preset]
    rows, cols, mines = preset.rows, preset.cols, preset.mines
    cell = (rows // 2) * cols + cols // 2
    dealt_lines: list[str] = []
    head = " | ".join(f"P({v})" for v in range(SHOWN))
    lines = [
        f"Command: `python benchmarks/multimine_numbers.py {' '.join(sys.argv[1:])}`  ",
        f"{args.preset} {cols}x{rows}/{mines}, no first-click protection, the cell ({cell // cols},{cell % cols}) "
        "opened first; exact (solver and closed form agree as fractions).",
        "",
        f"| K | P(mine) | {head} | P(≥{SHOWN}) | P(≥4) | mean number if empty | P(2+ mines in the cell) |",
        "|---|---|" + "---|" * SHOWN + "---|---|---|---|",
    ]
    for k in args.ks:
        mined, shows = by_solver(rows, cols, mines, k, cell)
        if shows != closed_form(rows * cols, mines, k):
            raise SystemExit(f"K={k}: the solver and the closed form disagree")
        if sum(shows) + mined != 1:
            raise SystemExit(f"K={k}: the outcomes do not add up to 1")
        empty = 1 - mined
        mean_number = sum(v * p for v, p in enumerate(shows)) / empty
        pct = " | ".join(f"{100 * float(p):.1f}%" for p in shows[:SHOWN])
        tail = sum(shows[SHOWN:], Fraction(0))
        four_up = sum(shows[4:], Fraction(0))
        lines.append(
            f"| {k} | {100 * float(mined):.1f}% | {pct} | {100 * float(tail):.2f}% | {100 * float(four_up):.1f}% "
            f"| {float(mean_number):.3f} | {100 * float(several(rows * cols, mines, k)):.2f}% |"
        )
        print(lines[-1], flush=True)
        if args.deal:
            seen = dealt(rows, cols, mines, k, cell, args.deal)
            cells = [_interval(seen[i], args.deal) for i in range(6)]
            dealt_lines.append(f"| {k} | {args.deal} | " + " | ".join(cells) + " |")
            print(dealt_lines[-1], flush=True)
    if dealt_lines:
        head = " | ".join(f"P({n})" for n in ["mine"] + [str(v) for v in range(5)])
        lines += [
            "",
            "Dealt by the simulator (95% Wilson intervals):",
            "",
            f"| K | games | {head} |",
            "|---|---|" + "---|" * 6,
        ]
        lines += dealt_lines
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
