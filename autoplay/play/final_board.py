"""The board a finished game leaves behind, and whether it tells where every mine was.

The final board is the truth the misread audit, the layout replay and
``play --learn`` work from.  Two rules of the game make more of it than its
pixels alone: what appeared where the player right-clicked is its flag, so a
flag of ours that no template reads (a game drawing its tiles over a picture)
is still a flag; and the mine total says when the mines in sight are all of
them, so that no cell the skin cannot read (a popup over the board, a digit
never seen) can be a mine.

>>> from autoplay.board.model import Board
>>> board = Board.from_text("mines=2\\n1F\\n1?")
>>> final, left = with_own_flags(board, [(1, 1)], {(1, 1)})
>>> final.cells, left
(('1', 'F', '1', 'F'), [])
>>> mines_accounted(final, left, "won")
True
"""

from __future__ import annotations

from collections.abc import Collection

from autoplay.board.model import EXPLODED, FLAG, HIDDEN, MINE, Board

Cell = tuple[int, int]


def with_own_flags(board: Board, unknown: Collection[Cell], flagged: Collection[Cell]) -> tuple[Board, list[Cell]]:
    """``board`` with the unreadable cells the player flagged shown as flags, and the unreadable cells left."""
    own = set(unknown) & set(flagged)
    if not own:
        return board, sorted(set(unknown))
    cells = list(board.cells)
    for r, c in own:
        cells[r * board.cols + c] = FLAG
    return Board(board.rows, board.cols, tuple(cells), board.mines), sorted(set(unknown) - own)


def won_unread_as_mines(board: Board, unknown: Collection[Cell], opened: Collection[Cell]) -> tuple[Board, list[Cell]]:
    """A won ``board`` with the unreadable cells that must be mines shown as flags, and the unreadable cells left.

    At a win every cell not opened is a mine, and the game has ``board.mines`` of them.  Unreadable cells that were
    read opened earlier in the game (``opened``: an opened cell never closes) are numbers; if the covers in sight
    and the other unreadable cells together make the mine total, those others are the mines (kmines flags them
    itself at a win, in a look the skin may not know).  If they make more, some are numbers and nothing is named.

    >>> board = Board.from_text("mines=2\\n1?\\n1?")
    >>> won_unread_as_mines(board, [(0, 1), (1, 1)], set())[0].cells
    ('1', 'F', '1', 'F')
    >>> one = Board.from_text("mines=1\\n1?\\n1?")
    >>> won_unread_as_mines(one, [(0, 1), (1, 1)], set())[1]  # two cells, one mine: which one is not known
    [(0, 1), (1, 1)]
    >>> final, left = won_unread_as_mines(one, [(0, 1), (1, 1)], {(1, 1)})  # unless the other was seen opened
    >>> final.cells, left
    (('1', 'F', '1', '?'), [(1, 1)])
    """
    unread = set(unknown)
    closed = unread - set(opened)
    if board.mines is None or not closed or mines_read(board, unread, "won") + len(closed) != board.mines:
        return board, sorted(unread)
    cells = list(board.cells)
    for r, c in closed:
        cells[r * board.cols + c] = FLAG
    return Board(board.rows, board.cols, tuple(cells), board.mines), sorted(unread - closed)


def mines_accounted(board: Board, unknown: Collection[Cell], end: str) -> bool:
    """Do the readable cells of a finished ``board`` show every mine, so that no ``unknown`` cell is one?

    Won: every cover left (covered or flagged) is a mine.  Lost: the mines shown, the one stepped on and the
    flags (the player flags only cells it proved mines).
    """
    if board.mines is None or end not in ("won", "lost"):
        return False
    return mines_read(board, set(unknown), end) == board.mines


def mines_read(board: Board, unread: set[Cell], end: str) -> int:
    """The mines the readable cells of a board that ended ``end`` show: at a win every cover left, at a loss the
    mines shown, the one stepped on and the flags."""
    kinds = (HIDDEN, FLAG, MINE, EXPLODED) if end == "won" else (FLAG, MINE, EXPLODED)
    return sum(c in kinds for i, c in enumerate(board.cells) if divmod(i, board.cols) not in unread)
