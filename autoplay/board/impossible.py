"""Readings no Minesweeper can show, each a sign that a tile was misread.

Three facts hold on every board of every game, whatever it looks like:

- a revealed 0 has no covered neighbour (the game opens them by itself) and no
  mine beside it;
- a number counts mines around it, so it never has more mines shown around it
  than it says;
- nor more than there are cells around it that could hold one (covered,
  flagged, shown as mines, or not read).

A board read against one of them holds a misread, and looks alone cannot say
which of the cells involved it is, so all of them are reported; the decoder
then plays them as unread (covered and never clicked), which keeps every
certain move certain whichever reading was wrong.  A skin that names a 1 `0`
(as the first calibrations of xbomb did) shows up here at once: its opening's
"0"s stand beside covered cells.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from autoplay.board.model import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, Board, Coord, neighbour_table

#: Cells that can hold a mine, as far as a reading says (a question mark stands for a cell not read).
_MAY_HOLD_MINE = frozenset((HIDDEN, FLAG, MINE, EXPLODED, QUESTION))
_SHOWN_MINE = frozenset((MINE, EXPLODED))


def impossible_readings(board: Board) -> list[Coord]:
    """The cells of every reading that breaks one of the facts above, in row-major order.

    >>> impossible_readings(Board.from_rows(["0.", "11"]))  # a 0 beside a covered cell
    [(0, 0), (0, 1)]
    >>> impossible_readings(Board.from_rows(["000", "111", "..."]))
    []
    >>> impossible_readings(Board.from_rows(["*1", "*2"]))  # a 1 beside two mines shown
    [(0, 0), (0, 1), (1, 0)]
    >>> impossible_readings(Board.from_rows(["3.", "11"]))  # a 3 with one cell around it that could be a mine
    [(0, 0), (1, 0), (1, 1)]
    """
    table = neighbour_table(board.rows, board.cols)
    cells = board.cells
    found: set[int] = set()
    for index in _numbers_in_doubt(board):
        cell = cells[index]
        value, around = int(cell), table[index]
        # one pass to count (every frame of play is checked: most numbers break nothing), lists only for a break
        hidden = shown = room = 0
        for n in around:
            near = cells[n]
            if near in _MAY_HOLD_MINE:
                room += 1
                hidden += near == HIDDEN
                shown += near in _SHOWN_MINE
        if value == 0 and (hidden or shown):
            wrong = [n for n in around if cells[n] == HIDDEN or cells[n] in _SHOWN_MINE]
        elif shown > value:
            wrong = [n for n in around if cells[n] in _SHOWN_MINE]
        elif room < value:
            wrong = [n for n in around if cells[n].isdigit()]  # one of them may be a covered tile misread
        else:
            continue
        if wrong:
            found.add(index)
            found.update(wrong)
        elif value:  # a number with no room at all: only the number itself can be wrong
            found.add(index)
    return [divmod(index, board.cols) for index in sorted(found)]


def _numbers_in_doubt(board: Board) -> list[int]:
    """The numbers that may break a fact, counted for the whole board at once (every frame of play is checked).

    Each cell's kind is one small integer (may hold a mine, + 16 if a mine is shown, + 256 if covered), so the three
    counts around every cell are one sum of the board's eight shifted copies: a few array operations whatever the
    size.  The loop above then looks only at these numbers (none on most frames).  A board with a cell no byte can
    hold is handed over whole.

    >>> _numbers_in_doubt(Board.from_rows(["0.", "11"])), _numbers_in_doubt(Board.from_rows(["1.", "11"]))
    ([0], [])
    """
    text = "".join(board.cells).encode("latin-1", errors="replace")
    if len(text) != len(board.cells):
        return [i for i, cell in enumerate(board.cells) if cell.isdigit()]
    codes = np.frombuffer(text, dtype=np.uint8).reshape(board.rows, board.cols)
    rows, cols = board.rows, board.cols
    padded = np.zeros((rows + 2, cols + 2), dtype=np.int16)
    padded[1:-1, 1:-1] = _KIND[codes]
    near = np.zeros((rows, cols), dtype=np.int16)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if (dr, dc) != (1, 1):
                near += padded[dr : dr + rows, dc : dc + cols]
    room, shown, hidden = near & 15, (near >> 4) & 15, near >> 8
    value = _VALUE[codes]
    broken = ((value == 0) & ((hidden > 0) | (shown > 0))) | (shown > value) | (room < value)
    return np.flatnonzero(broken & (value >= 0)).tolist()


def _kinds() -> tuple[np.ndarray, np.ndarray]:
    kind = np.zeros(256, dtype=np.int16)
    for ch in _MAY_HOLD_MINE:
        kind[ord(ch)] = 1 + 16 * (ch in _SHOWN_MINE) + 256 * (ch == HIDDEN)
    value = np.full(256, -1, dtype=np.int16)
    for digit in "0123456789":
        value[ord(digit)] = int(digit)
    return kind, value


#: By byte: a cell's kind as :func:`_numbers_in_doubt` counts it, and the number it shows (-1 for none).
_KIND, _VALUE = _kinds()


def over_proven_mines(board: Board, mines: Collection[Coord]) -> list[Coord]:
    """The numbers with more of the proven ``mines`` around them than they say: misread numbers.

    Not among the facts above, since a game does show a 0 beside a wrong flag; but the player's own flags are
    proven mines, so a number with more of them around it is misread (xbomb's 7, never seen at 32 px tiles,
    read as a blank 0 among seven of our flags).  Only the numbers are reported: the mines are proven.

    >>> over_proven_mines(Board.from_rows(["F0.", "11."]), {(0, 0)}), over_proven_mines(Board.from_rows(["F1."]), {(0, 0)})
    ([(0, 1)], [])
    """
    table = neighbour_table(board.rows, board.cols)
    proven = {r * board.cols + c for r, c in mines}
    return [
        divmod(i, board.cols)
        for i, cell in enumerate(board.cells)
        if cell.isdigit() and sum(n in proven for n in table[i]) > int(cell)
    ]
