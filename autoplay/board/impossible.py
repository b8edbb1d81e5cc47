"""Readings no Minesweeper can show: a revealed 0 beside a covered cell.

Every game opens the neighbours of a 0 by itself, so a board read with a 0
next to a covered cell holds a misread: either the 0 is a covered tile, or
the covered cell is an opened one whose look the skin mixed up with the
covered tile (a flat, lighter opened tile under a gradient, say).  Looks alone
cannot say which, so both are reported; the decoder then plays them as unread
(covered and never clicked), which keeps every certain move certain whichever
reading was wrong.
"""

from __future__ import annotations

from autoplay.board.model import HIDDEN, Board, Coord, neighbour_table


def zero_conflicts(board: Board) -> list[Coord]:
    """The cells of every 0 with a covered neighbour, and those neighbours, in row-major order.

    >>> zero_conflicts(Board.from_rows(["0.", "11"]))
    [(0, 0), (0, 1)]
    >>> zero_conflicts(Board.from_rows(["00", "11"]))
    []
    """
    table = neighbour_table(board.rows, board.cols)
    cells = board.cells
    found: set[int] = set()
    for index, cell in enumerate(cells):
        if cell != "0":
            continue
        covered = [n for n in table[index] if cells[n] == HIDDEN]
        if covered:
            found.add(index)
            found.update(covered)
    return [divmod(index, board.cols) for index in sorted(found)]
