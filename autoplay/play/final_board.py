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

from autoplay.board.model import DIGITS, EXPLODED, FLAG, HIDDEN, MINE, Board

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


def covers_left(board: Board, opened: Collection[Cell]) -> set[Cell]:
    """The cells ``board`` shows covered or flagged (unread cells shown covered), less those known ``opened``: at
    least the mines, since unread cells counted covered make the set too big, never too small.

    >>> sorted(covers_left(Board.from_text("mines=1\\n1.\\n1F"), [(0, 1)]))
    [(1, 1)]
    """
    known = set(opened)
    return {divmod(i, board.cols) for i, c in enumerate(board.cells) if c in (HIDDEN, FLAG)} - known


def every_safe_cell_open(board: Board, opened: Collection[Cell]) -> bool:
    """Whether ``board`` has no safe cell left to open, given the ``opened`` cells: its covers left
    (:func:`covers_left`) are exactly the mine total, so every one is a mine.

    >>> board = Board.from_text("mines=1\\n1.\\n1.")
    >>> every_safe_cell_open(board, []), every_safe_cell_open(board, [(1, 1)])
    (False, True)
    """
    return board.mines is not None and len(covers_left(board, opened)) == board.mines


def won_by_batch(
    before: Board, reveals: Collection[Cell], now: Board, unread: Collection[Cell], opened: Collection[Cell] = ()
) -> tuple[Board, list[Cell]] | None:
    """The end board when a batch of certain reveals opened the last safe cells, else None.

    ``before`` is the board the batch was decided on (unread cells shown covered), ``reveals`` its reveals (all
    proven safe), ``opened`` the covered-looking cells of ``before`` known open.  When the covers of ``before``
    less the reveals and the cells known open are exactly the mines, and every reveal shows opened in ``now``
    (a number, or a tile in ``unread``), the game is won by the rules, whatever else ``now`` shows: a box the game
    fades in over its board at a win (kmines at 125%: "Congratulations!", translucent) makes the cells under it
    read as numbers that contradict each other.  The end board is ``before`` with its remaining covers shown as
    the mines they are and the reveals as now read; a cell read otherwise than in ``before`` is under something
    and returned unread with the others.

    >>> before = Board.from_text("mines=1\\n1.\\n..")
    >>> board, unread = won_by_batch(before, [(1, 0), (1, 1)], Board.from_text("mines=1\\n13\\n11"), [])
    >>> board.cells, unread
    (('1', 'F', '1', '1'), [])
    >>> won_by_batch(before, [(1, 0)], Board.from_text("mines=1\\n1.\\n1."), []) is None  # (1, 1) still covered
    True
    """
    if before.mines is None or (before.rows, before.cols) != (now.rows, now.cols) or not reveals:
        return None
    cols, shut, known = before.cols, set(reveals), set(opened)
    doubtful = set(unread)
    covers = {
        i
        for i, c in enumerate(before.cells)
        if c in (HIDDEN, FLAG) and divmod(i, cols) not in shut and divmod(i, cols) not in known
    }
    if len(covers) != before.mines:
        return None
    if any(now[rc] not in DIGITS and rc not in doubtful for rc in shut):
        return None  # a reveal not (yet) shown opened
    cells = list(before.cells)
    left = set(doubtful)
    for i in covers:
        cells[i] = FLAG
    for i, c in enumerate(before.cells):
        rc = divmod(i, cols)
        if rc in shut:
            cells[i] = now.cells[i] if rc not in doubtful else HIDDEN
        elif i not in covers and now.cells[i] != c:
            left.add(rc)  # read otherwise than before: under something the game drew at its end
    left -= {divmod(i, cols) for i in covers}
    return Board(before.rows, before.cols, tuple(cells), before.mines), sorted(left)
