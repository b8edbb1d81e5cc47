"""The figures the Minesweeper community compares a game by: time, 3BV, 3BV/s, clicks and efficiency.

``play`` knows each game's time and presses; the finished board tells the layout when it shows every mine (a
win: every cell not opened is a mine; a loss whose board shows them all), and 3BV needs the layout.  A lost
game is measured by the 3BV it cleared, as the community does.  Where the layout is not known the figures that
need it are None (shown as "-").
"""

from __future__ import annotations

from autoplay.board.model import DIGITS
from autoplay.board.textformat import parse_board
from autoplay.insight.bbbv import bbbv
from autoplay.insight.review import known_layout

#: The keys :func:`speed_figures` returns, in the order tables show them.
KEYS = ("3bv", "3bv_solved", "3bv_per_second", "efficiency")


def speed_figures(final_board: str | None, result: str, seconds: float, clicks: int) -> dict[str, float | None]:
    """3BV of the layout, 3BV cleared, 3BV per second and efficiency (3BV cleared per press) of one game.

    >>> speed_figures("mines=1\\n1*\\n11", "won", 2.0, 3)
    {'3bv': 3, '3bv_solved': 3, '3bv_per_second': 1.5, 'efficiency': 1.0}
    >>> speed_figures("mines=2\\n1X\\n1.", "lost", 2.0, 1)["3bv"] is None  # one mine of two shown
    True
    """
    empty: dict[str, float | None] = dict.fromkeys(KEYS)
    if final_board is None or result not in ("won", "lost"):
        return empty
    try:
        board = parse_board(final_board)
    except ValueError:
        return empty
    mines = known_layout(board, result)
    if mines is None:
        return empty
    total = bbbv(board.rows, board.cols, mines)
    if result == "won":
        solved = total
    else:
        opened = {board.at(i) for i, cell in enumerate(board.cells) if cell in DIGITS}
        solved = bbbv(board.rows, board.cols, mines, opened)
    return {
        "3bv": total,
        "3bv_solved": solved,
        "3bv_per_second": round(solved / seconds, 3) if seconds > 0 else None,
        "efficiency": round(solved / clicks, 3) if clicks else None,
    }


def show(value: float | None) -> str:
    """A figure for a table: "-" when it cannot be known.

    >>> show(None), show(1.5), show(3)
    ('-', '1.5', '3')
    """
    return "-" if value is None else f"{value:g}"
