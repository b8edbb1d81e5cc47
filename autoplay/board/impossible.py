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
    for index, cell in enumerate(cells):
        if not cell.isdigit():
            continue
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
