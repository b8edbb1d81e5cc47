"""What ``solve`` and ``analyze`` print for a board of the several-mines-per-cell variant.

Both commands read the file the same way (:func:`load_board`): the one-mine game keeps its own
reader and output untouched, and only a file with a ``max-per-cell=`` header or a run with
``--max-per-cell`` above 1 comes here.
"""

from __future__ import annotations

import argparse
import time

from autoplay.board.model import Board
from autoplay.board.multiformat import MultiBoard, header_max_per_cell, parse_multi_board
from autoplay.board.textformat import parse_board, read_board_text
from autoplay.solver.analysis import Analysis
from autoplay.solver.decide import Decision


def load_board(path: str, args: argparse.Namespace) -> Board | MultiBoard:
    """A :class:`Board` for the one-mine game (old files read exactly as before), else a :class:`MultiBoard`."""
    from pathlib import Path

    from autoplay.cli.simulate import max_per_cell

    text = read_board_text(path)
    source = str(Path(path))
    header = header_max_per_cell(text)
    k = max_per_cell(args) if args.max_per_cell is not None else (header or 1)
    if header is None and k == 1:
        board: Board | MultiBoard = parse_board(text, source=source)
    else:
        board = parse_multi_board(text, k, source=source)
        if k == 1:
            board = board.to_board()
    if args.mines is not None:
        board = board.with_mines(args.mines) if isinstance(board, Board) else _with_mines(board, args.mines)
    return board


def _with_mines(board: MultiBoard, mines: int) -> MultiBoard:
    return MultiBoard(board.rows, board.cols, board.cells, mines, board.max_per_cell)


def solve_multi(board: MultiBoard, time_limit: float) -> tuple[Analysis, Decision]:
    """The analysis of ``board`` and the move :func:`decide_multi` makes on it."""
    from autoplay.solver.multimine import analyze_multi, decide_multi, read_multi_position

    pos = read_multi_position(board)
    analysis = analyze_multi(pos, board.mines, board.max_per_cell, deadline=time.perf_counter() + time_limit / 2)
    return analysis, decide_multi(pos, board.mines, board.max_per_cell, time_limit=time_limit)


def multi_json(analysis: Analysis, decision: Decision) -> dict:
    """The ``solve --json`` contract, with ``probabilities`` = P(at least one mine) and the mean ``expected_mines``."""
    from autoplay.cli.solve import _as_json

    out = _as_json(analysis, decision)
    out["expected_mines"] = analysis.expected_mines
    out["max_per_cell"] = analysis.max_per_cell
    return out


def multi_text(board: MultiBoard, analysis: Analysis, decision: Decision) -> str:
    """Two grids: each hidden cell's chance of holding a mine (percent), then its expected mines."""
    expected = analysis.expected_mines or []
    width = max(5, max(len(t) for t in board.cells) + 1)
    lines = [
        f"mode {analysis.mode}, up to {board.max_per_cell} mines a cell, {len(analysis.safe)} certainly empty, "
        f"{len(analysis.mines)} certainly mined" + (", approximate (time limit)" if analysis.approximate else ""),
        "chance of at least one mine:",
        *_grid(board, width, lambda r, c: _percent(analysis.probabilities[r][c])),
        "expected mines:",
        *_grid(board, width, lambda r, c: _mean(expected[r][c])),
    ]
    if decision.moves:
        move = decision.moves[0]
        more = f" (+{len(decision.moves) - 1} more certain moves)" if len(decision.moves) > 1 else ""
        lines.append(
            f"move: {move.action} ({move.row},{move.col}), P(mine) {move.probability:.3f}{more}; {decision.reason}"
        )
    else:
        lines.append(f"move: none; {decision.reason}")
    return "\n".join(lines) + "\n"


def _grid(board: MultiBoard, width: int, hidden_text) -> list[str]:
    out = ["    " + "".join(f"{c:>{width}}" for c in range(board.cols))]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            token = board.token(r, c)
            text = hidden_text(r, c) if token in ".?" else token
            cells.append(f"{text or token:>{width}}")
        out.append(f"{r:>4}" + "".join(cells))
    return out


def _percent(p: float | None) -> str:
    if p is None:
        return ""
    if p in (0.0, 1.0):
        return f"{round(100 * p)}%"
    return f"{min(99, max(1, round(100 * p)))}%"


def _mean(e: float | None) -> str:
    return "" if e is None else f"{e:.2f}"


def subsystems_text(analysis: Analysis) -> list[str]:
    """``analyze``'s list of frontier components with their weight by mine count."""
    from autoplay.cli.analyze import _cells, format_map

    out = ["subsystems (mines in it -> weight; a layout weighs prod K!/x! over its cells):"]
    for i, comp in enumerate(analysis.components, start=1):
        out.append(f"  #{i}: {len(comp.cells)} cells {_cells(comp.cells, 6)}: {format_map(comp.mine_counts)}")
    if not analysis.components:
        out.append("  (none: no number touches a hidden cell)")
    return out
