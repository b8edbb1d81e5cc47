"""``autoplay analyze``: every number the solver knows about one position, for a person to check."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from autoplay.cli.arguments import non_negative_int, positive_seconds
from autoplay.cli.output import exact_json, short_count
from autoplay.errors import UsageError
from autoplay.replay.sources import IMAGE_SUFFIXES  # light: board text and JSON only

if TYPE_CHECKING:
    import numpy as np

    from autoplay.board.model import Board
    from autoplay.replay.position_report import PositionReport
    from autoplay.vision.grid import Grid

#: Frontier cells listed one by one; beyond this the table would bury the maps below it.
MAX_LISTED_CELLS = 200


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="show mine probabilities, solution counts and the best move for one position",
        description="Analyse a board (text file or screenshot): for each hidden cell the global probability "
        "(using the total mine count) and the local one (numbers only), the number of solutions with a mine "
        "there, and for each independent subsystem of the frontier the map 'mines -> solutions', combined "
        "over the whole board. Impossible boards are reported with the cells involved (exit code 2).",
        epilog="examples: autoplay analyze position.txt --mines 99 --out heat.png\n"
        "          autoplay analyze shot.png --skin gnome-mines --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="BOARD.txt|IMAGE", help="board text file, or a screenshot (with --skin)")
    p.add_argument("--skin", help="skin to decode a screenshot with (see calibration/)")
    p.add_argument("--mines", type=non_negative_int, help="total mine count (overrides the board's mines= header)")
    p.add_argument("--out", metavar="FILE.png", help="write a picture with the heat map and the chosen move")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=5.0,
        metavar="S",
        help="seconds for the whole analysis (default 5); a board too large to count in time is answered "
        "approximately and says so",
    )
    from autoplay.cli.simulate import add_max_per_cell

    add_max_per_cell(p)
    p.set_defaults(func=run)


def load_position(path: str, skin_name: str | None) -> tuple[Board, np.ndarray | None, Grid | None]:
    """The board, plus the screenshot and its grid when the input is an image (for the annotated picture)."""
    from autoplay.board.textformat import read_board

    p = Path(path)
    if p.suffix.lower() not in IMAGE_SUFFIXES:
        return read_board(p), None, None
    if not skin_name:
        raise UsageError(f"{p}: a screenshot needs --skin NAME to be decoded")
    from autoplay.vision import decode_frame, load_skin, read_image

    image = read_image(p)
    decoded = decode_frame(image, load_skin(skin_name))
    decoded.require_readable()
    return decoded.board, image, decoded.grid


def format_count(n: int | None) -> str:
    """Exact below a quadrillion, scientific above: expert boards have ~10^90 solutions."""
    return "-" if n is None else short_count(n)


def format_percent(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:.2f}%"


def format_map(counts: dict[int, int]) -> str:
    return "  ".join(f"{m}->{format_count(n)}" for m, n in sorted(counts.items())) or "(empty)"


def _cells(cells: list[tuple[int, int]], limit: int = 12) -> str:
    shown = " ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" ... ({len(cells)} cells)" if len(cells) > limit else "")


def format_report(report: PositionReport, colour: bool) -> str:
    from autoplay.render.terminal import format_grid

    analysis, board, decision = report.analysis, report.board, report.decision
    move = decision.moves[0] if decision and decision.moves else None
    if report.global_ is not None:
        head = (
            f"{board.rows}x{board.cols}, {report.mines} mines: global view, {format_count(report.solutions)} solutions"
        )
    else:
        head = f"{board.rows}x{board.cols}, mine count unknown: local view only (give --mines for the global one)"
    if analysis.approximate:
        head += " (approximate: the time limit ran out before every subsystem was counted and joined)"
    out = [head, format_grid(board, analysis.probabilities, move, colour=colour), ""]
    if decision is not None and move is not None:
        kind = "guess" if decision.guess else "certain"
        listed = ", ".join(f"{m.action} ({m.row},{m.col})" for m in decision.moves[:8])
        more = f" and {len(decision.moves) - 8} more" if len(decision.moves) > 8 else ""
        out.append(f"move: {listed}{more}  [{kind}, mine {format_percent(move.probability)}] {decision.reason}")
    else:
        out.append("move: none (no hidden cell left)")
    out.append(f"certainly safe: {_cells(analysis.safe) or '-'}    certain mines: {_cells(analysis.mines) or '-'}")
    out.append("")
    out.append(f"{'cell':<10}{'global':>9}{'local':>9}  solutions with a mine")
    frontier = [c for c in report.cells if c.frontier]
    for cell in sorted(frontier, key=lambda c: (c.row, c.col))[:MAX_LISTED_CELLS]:
        out.append(
            f"{f'({cell.row},{cell.col})':<10}{format_percent(cell.global_p):>9}{format_percent(cell.local_p):>9}"
            f"  {format_count(cell.mine_solutions)}"
        )
    if len(frontier) > MAX_LISTED_CELLS:
        out.append(f"... {len(frontier) - MAX_LISTED_CELLS} more frontier cells (all of them are in --json)")
    off = [c for c in report.cells if not c.frontier]
    if off:
        sample = off[0]
        out.append(
            f"{len(off)} cells off the frontier, each: global {format_percent(sample.global_p)}, "
            f"local -, {format_count(sample.mine_solutions)} solutions with a mine"
        )
    out.append("")
    out.append("subsystems (mines in it -> solutions):")
    for i, sub in enumerate(report.subsystems, start=1):
        note = "" if sub.exact else "  [not counted: too large, probabilities estimated]"
        out.append(f"  #{i}: {len(sub.cells)} cells {_cells(sub.cells, 6)}: {format_map(sub.mine_counts)}{note}")
    if not report.subsystems:
        out.append("  (none: no number touches a hidden cell)")
    out.append(f"combined frontier (mines -> solutions): {format_map(report.combined)}")
    if report.global_ is not None:
        out.append(
            f"whole board with {report.mines} mines (frontier mines -> solutions): {format_map(report.weighted)}"
        )
        out.append(
            f"solutions: global {format_count(report.global_.solutions)}, "
            f"local (frontier only) {format_count(report.local.solutions)}"
        )
    else:
        out.append(f"solutions (frontier only): {format_count(report.local.solutions)}")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    from autoplay.replay.position_report import report_position

    started = time.perf_counter()
    from autoplay.cli.simulate import max_per_cell

    if max_per_cell(args) > 1 or _is_multi_file(args.position):
        return _run_multi(args)
    board, image, grid = load_position(args.position, args.skin)
    report = report_position(board, args.mines, deadline=started + args.time_limit)
    if args.out:
        from autoplay.render import annotate_frame, render_board, save_png

        analysis, decision = report.analysis, report.decision
        move = decision.moves[0] if decision and decision.moves else None
        if image is not None and grid is not None:
            picture = annotate_frame(
                image, grid, analysis.probabilities, move, analysis.safe, analysis.mines, board=report.board
            )
        else:
            picture = render_board(report.board, analysis.probabilities, move, safe=analysis.safe, mines=analysis.mines)
        save_png(args.out, picture)
    if args.json:
        print(exact_json(report.to_dict()))
    else:
        print(format_report(report, colour=sys.stdout.isatty()))
        if args.out:
            print(f"picture: {args.out}")
    return 0


def _is_multi_file(path: str) -> bool:
    """A board text file with a ``max-per-cell=`` header (the several-mines-per-cell variant)."""
    from autoplay.board.multiformat import header_max_per_cell
    from autoplay.board.textformat import read_board_text

    if Path(path).suffix.lower() in IMAGE_SUFFIXES:
        return False
    return header_max_per_cell(read_board_text(path)) is not None


def _run_multi(args: argparse.Namespace) -> int:
    """``analyze`` for the variant: the chance of a mine and the expected count per cell, and the subsystems."""
    from autoplay.board.model import Board
    from autoplay.board.multiformat import MultiBoard
    from autoplay.cli.multimine_view import load_board, multi_json, multi_text, solve_multi, subsystems_text

    if args.skin or args.out:
        raise UsageError("--skin and --out read and draw one-mine boards; not with --max-per-cell")
    board = load_board(args.position, args)
    if isinstance(board, Board):  # max-per-cell 1: the usual report
        board = MultiBoard(board.rows, board.cols, board.cells, board.mines, 1)
    analysis, decision = solve_multi(board, 1.0)
    if args.json:
        out = multi_json(analysis, decision)
        out["subsystems"] = [
            {"cells": [list(c) for c in comp.cells], "weights": {str(m): str(w) for m, w in comp.mine_counts.items()}}
            for comp in analysis.components
        ]
        print(exact_json(out))
    else:
        print(multi_text(board, analysis, decision) + "\n".join(subsystems_text(analysis)))
    return 0
