"""Deciding around cells the skin cannot read: the one rule the live player and replay share.

A cell whose tile matches no template is played as covered and never clicked.
The solver then weighs layouts with or without a mine there; the true layout is
among them, so a move it calls certain is still certain.  Live play and replay
both call these functions, so a recording made with unknown cells re-decides to
the same moves.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from autoplay.board.model import FLAG, HIDDEN, Board
from autoplay.solver.analysis import analyze
from autoplay.solver.decide import Decision, Move

Cell = tuple[int, int]


def with_unknown_covered(board: Board, cells: Collection[Cell], flagged: Collection[Cell] = ()) -> Board:
    """The board with every unreadable cell shown as covered, but those the player flagged itself as flags.

    What appears where the player right-clicked a covered cell is its flag, whatever it looks like
    (a game that draws its tiles over a picture shows each flag a little differently), so such a
    cell is known without a template: a mine, and not a cell to click.
    """
    as_list = list(board.cells)
    own = set(flagged)
    for r, c in cells:
        as_list[r * board.cols + c] = FLAG if (r, c) in own else HIDDEN
    return Board(board.rows, board.cols, tuple(as_list), board.mines)


def avoid_cells(decision: Decision, board: Board, cells: Collection[Cell], opened: Collection[Cell] = ()) -> Decision:
    """The decision without moves on ``cells``; when none is left, the safest other covered cell as a guess.

    An unknown tile is often a revealed number, which the solver (seeing it as
    covered) may well call safe: that certain move is dropped, and the game
    goes on with the best cell the skin can read.  ``opened`` are the cells
    the decision was made knowing open (none of its moves is on one).
    """
    avoid = set(cells)
    moves = [m for m in decision.moves if (m.row, m.col) not in avoid]
    if moves:
        return replace(decision, moves=moves)
    analysis = decision.analysis or analyze(board, mines=board.mines, opened=opened)
    best = None
    for r, row in enumerate(analysis.probabilities):
        for c, p in enumerate(row):
            if p is None or (r, c) in avoid or board.cells[r * board.cols + c] != HIDDEN:
                continue
            if best is None or p < best[0]:
                best = (p, r, c)
    if best is None:
        return replace(decision, moves=[])
    move = Move("reveal", best[1], best[2], float(best[0]))
    return replace(decision, moves=[move], guess=best[0] > 0, reason="safest cell the skin can read")
