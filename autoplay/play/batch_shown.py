"""Whether a frame already shows a whole batch of presses, drawn to its end.

The redraw wait (:mod:`autoplay.play.redraw`) ends when the server's reports have paused long enough that the game
has surely finished drawing.  A frame can say so itself, sooner: once every pressed cell shows what its press
does and the reading is whole, nothing of the batch is left to draw.  A whole reading has no opened zero beside a
covered cell (the decoder takes one for a misread, :mod:`autoplay.board.impossible`), and a zero opens its
neighbours at once, so a cascade caught halfway is never whole; a tile still drawn pressed in that looks like a
zero is one, if all its neighbours are open numbers.  A finished game leaves the decision to the wait.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoplay.board.model import DIGITS, FLAG, Board
from autoplay.solver.decide import Move


def shows_batch(board: Board, moves: Sequence[Move], *, readable: bool = True, state: str = "playing") -> bool:
    """Whether ``board`` (a game still ``playing``, read whole: ``readable``) shows every move of ``moves`` done.

    >>> from autoplay.board.impossible import impossible_readings
    >>> shows_batch(Board.from_rows(["00", "11", "F."]), [Move("reveal", 0, 0, 0.0)])
    True
    >>> half = Board.from_rows(["10", "..", "F."])  # a cascade halfway: a 0 beside covered cells
    >>> shows_batch(half, [Move("reveal", 0, 1, 0.0)], readable=not impossible_readings(half))
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
    return True
