"""Whether a frame already shows a whole batch of presses, drawn to its end.

The redraw wait (:mod:`autoplay.play.redraw`) ends when the server's reports have paused long enough that the game
has surely finished drawing.  A frame can say so itself, sooner: once every pressed cell shows what its press
does, and every opened zero has every neighbour opened, nothing of the batch is left to draw.  A zero opens its
neighbours at once, so a board on which some zero still has a covered neighbour is one caught halfway through a
cascade; and a cell that shows a zero while all its neighbours are open numbers really is a zero, whatever drew
it (a tile still drawn pressed in looks like a zero in many skins).  The reading must also be whole: a cell read
with no confidence, a shown mine or a finished game leaves the decision to the wait.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoplay.board.model import DIGITS, FLAG, Board, neighbour_table
from autoplay.solver.decide import Move


def shows_batch(board: Board, moves: Sequence[Move], *, readable: bool = True, state: str = "playing") -> bool:
    """Whether ``board`` (a game still ``playing``, every cell ``readable``) shows every move of ``moves`` done.

    >>> shows_batch(Board.from_rows(["00", "11", "F."]), [Move("reveal", 0, 0, 0.0)])
    True
    >>> shows_batch(Board.from_rows(["10", "..", "F."]), [Move("reveal", 0, 1, 0.0)])  # a cascade halfway
    False
    >>> shows_batch(Board.from_rows(["11", "..", "F."]), [Move("flag", 2, 0, 1.0)])
    True
    >>> shows_batch(Board.from_rows(["11", ".."]), [Move("reveal", 1, 1, 0.0)])  # still covered
    False
    """
    if not moves or not readable or state != "playing":
        return False
    cells = board.cells
    cols = board.cols
    for move in moves:
        shown = cells[move.row * cols + move.col]
        if move.action == "reveal":
            if shown not in DIGITS:
                return False
        elif move.action != "flag" or shown != FLAG:
            return False
    around = neighbour_table(board.rows, cols)
    for index, cell in enumerate(cells):
        if cell == "0" and any(cells[j] not in DIGITS for j in around[index]):
            return False
    return True
