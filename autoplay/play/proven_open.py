"""Which unreadable cells the rules of the game prove to be opened numbers while the game goes on.

A cell whose tile the skin does not know is played as covered and never clicked.  Two rules show that
such a cell is in fact an opened, safe number, so that its tile can be named while the game goes on
(``play --learn``) instead of only at its end:

- it lies beside a cell read as 0: a 0 has no mine around it, and the game opens its neighbours itself;
- we clicked it to reveal it, it was unreadable already when the last batch was decided, and that batch
  opened a cell that now reads as a number: the game was still going after the cell changed, so the
  click did not hit a mine.

A tile that appeared only when the game ended (a mine the skin has not seen, a box over the board) is
proven by neither: the first cell beside a 0 cannot be a mine, and a dead game opens no cell.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from autoplay.board.model import DIGITS, Board, neighbour_table
from autoplay.vision.grid import Grid

Cell = tuple[int, int]


@dataclass(frozen=True)
class UnknownInPlay:
    """A frame of a game under way with tiles the skin does not know, as ``play --learn`` gets it.

    ``board`` is the board as decoded (its unknown cells hold the decoder's best guesses), ``unknown`` those
    cells, ``opened`` the ones :func:`proven_opened` proves opened numbers, ``flagged`` the player's own flags.
    """

    game: int
    frame: np.ndarray
    grid: Grid
    board: Board
    unknown: list[Cell]
    opened: list[Cell]
    flagged: Collection[Cell]


def proven_opened(
    board: Board,
    unknown: Sequence[Cell],
    clicked: Collection[Cell],
    unread_before: Collection[Cell],
    last_reveals: Collection[Cell],
) -> list[Cell]:
    """The ``unknown`` cells of ``board`` that the rules prove opened (see the module docstring).

    ``board`` shows the unknown cells as covered; ``clicked`` are the cells this game's reveals clicked,
    ``unread_before`` the cells unreadable when the last batch was decided, ``last_reveals`` that batch's
    reveals.

    >>> board = Board.from_text("mines=1\\n0..\\n...\\n..1")
    >>> proven_opened(board, [(1, 1), (2, 1)], clicked=(), unread_before=(), last_reveals=())
    [(1, 1)]
    >>> proven_opened(board, [(2, 1)], clicked={(2, 1)}, unread_before={(2, 1)}, last_reveals={(2, 2)})
    [(2, 1)]
    >>> proven_opened(board, [(2, 1)], clicked={(2, 1)}, unread_before=(), last_reveals={(2, 2)})
    []
    """
    nbrs = neighbour_table(board.rows, board.cols)
    cols = board.cols
    went_on = any(board.cells[r * cols + c] in DIGITS for r, c in last_reveals)
    return [
        (r, c)
        for r, c in unknown
        if any(board.cells[j] == "0" for j in nbrs[r * cols + c])
        or (went_on and (r, c) in clicked and (r, c) in unread_before)
    ]


@dataclass(frozen=True)
class KnownOpen:
    """Unread cells of a game going on that the player knows to be open: ``proven`` by the rules, or opened by a
    guess of ours (``on_guess``: open if the game is still going, which play takes it to be when it plays on)."""

    proven: frozenset[Cell] = frozenset()
    on_guess: frozenset[Cell] = frozenset()

    @property
    def cells(self) -> frozenset[Cell]:
        return self.proven | self.on_guess


def known_open(
    board: Board,
    unknown: Collection[Cell],
    *,
    read_before: Collection[Cell],
    revealed: Collection[Cell],
    guessed: Collection[Cell],
    unread_before: Collection[Cell],
    last_reveals: Collection[Cell],
) -> KnownOpen:
    """Which ``unknown`` cells (tiles the skin does not know, shown covered on ``board``) are open cells.

    The solver is given them as safe cells with no number: left covered, it calls such a cell safe again (it is)
    and play, never clicking an unread tile, guesses elsewhere instead; a guess onto a cell just opened as a number
    never seen ends in its 50/50 partner, the mine.  Proven open: a cell read as a number before
    (``read_before``: an opened cell never closes), beside a 0, clicked by a certain reveal of ours (``revealed``
    minus ``guessed``: safe as the numbers prove, and since changed into a tile that is not covered), and the cells
    :func:`proven_opened` proves.  A cell a guess of ours opened that shows an unknown tile is open if the game goes on,
    or the mine it lost on: ``on_guess``.

    >>> board = Board.from_text("mines=1\\n0..\\n...\\n..1")
    >>> seen = known_open(board, [(1, 1), (2, 0), (2, 1), (0, 2)], read_before={(0, 2)}, revealed={(2, 0), (2, 1)},
    ...     guessed={(2, 1)}, unread_before=(), last_reveals=())
    >>> sorted(seen.proven), sorted(seen.on_guess)
    ([(0, 2), (1, 1), (2, 0)], [(2, 1)])
    """
    cells = list(unknown)
    proven = set(proven_opened(board, cells, revealed, unread_before, last_reveals))
    safe_clicks = set(revealed) - set(guessed)
    proven |= {rc for rc in cells if rc in read_before or rc in safe_clicks}
    on_guess = {rc for rc in cells if rc in guessed and rc not in proven}
    return KnownOpen(frozenset(proven), frozenset(on_guess))
