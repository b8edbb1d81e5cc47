"""Reading a window frame with a skin: the decoder ``play`` and ``watch`` share.

Kept apart from :mod:`autoplay.play.live` (which binds the mouse) so that a
command that must never send input, ``autoplay watch``, reads the board with
exactly the same function without importing anything that can click.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

import numpy as np

from autoplay.board.model import DIGITS, HIDDEN, Board
from autoplay.errors import UnreadableBoardError
from autoplay.vision.decode import DecodedFrame
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin


class FrameDecoder(Protocol):
    """Reads a window frame into a board, on the grid located before when one is given (else locates it)."""

    def __call__(self, frame: np.ndarray, grid: Grid | None) -> DecodedFrame: ...


def vision_decoder(skin: Skin, mines: int | None) -> FrameDecoder:
    """``decode_frame`` for this skin with the mine count the user or the launcher gave.

    Without the count a win cannot be recognised (the cover count is compared
    with it); given, it also spares reading the game's mine counter at every
    frame.  Without it the skin's counter or its fixed sizes supply it.
    """
    from autoplay.vision import decode_frame
    from autoplay.vision.cell_memory import CellMemory

    memory = CellMemory()  # consecutive frames differ in a few cells: only those are matched again

    def decode(frame: np.ndarray, grid: Grid | None) -> DecodedFrame:
        decoded = decode_frame(frame, skin, grid, mines, memory)
        if grid is None:
            require_known_size(decoded, skin)
        return decoded

    return decode


def require_known_size(decoded: DecodedFrame, skin: Skin) -> None:
    """Refuse a board located at a size the skin does not know whose mine count nothing gave.

    A board located as part of itself (a corner of a page's board whose edge tiles merged with the browser's
    frame) reads as a smaller game with numbers that count mines the solver cannot see: every "certain" move
    there is a guess.  Its mine count gives it away where the skin knows its boards: the skin's sizes have one,
    and its counter reads one on a whole board.  A board of a size the skin knows, or with a count, is played.
    """
    board = decoded.board
    sizes = skin.mines_by_size
    if board.mines is None and sizes and (board.rows, board.cols) not in sizes:
        known = ", ".join(f"{rows}x{cols}" for rows, cols in sorted(sizes))
        raise UnreadableBoardError(
            f"the board was located as {board.rows}x{board.cols} cells with no mine count, but {skin.name}'s boards "
            f"are {known}: part of the board is missing from the picture (scroll or zoom out so that the whole "
            "board shows, or pass --mines if this really is another size)"
        )


def in_one_line(cells: Collection[tuple[int, int]]) -> bool:
    """Whether ``cells`` (two or more) all lie in one row or one column: what a lattice line a pixel off leaves.

    >>> in_one_line({(0, 3), (5, 3), (9, 3)}), in_one_line({(2, 1), (7, 4)}), in_one_line({(4, 4)})
    (True, False, False)
    """
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    return len(cells) >= 2 and (len(rows) == 1 or len(cols) == 1)


def grid_may_have_slipped(last: Board | None, unread: Collection[tuple[int, int]]) -> bool:
    r"""Whether cells now unread say the grid no longer lies where the last read (``last``) found it.

    A page at a new zoom opens tiles in looks the skin does not know yet: cells covered in the last read turn
    unread as they open, a few at a time.  A grid out of place instead loses cells read before: an opened number
    no longer read, or most of the covered cells at once.  Without a last read of the same size, nothing is known.

    >>> last = Board.from_text("12..\n....\n")
    >>> grid_may_have_slipped(last, {(0, 2), (1, 3)}), grid_may_have_slipped(last, {(0, 0)})
    (False, True)
    >>> grid_may_have_slipped(last, {(0, 2), (0, 3), (1, 0), (1, 1)}), grid_may_have_slipped(None, {(0, 2)})
    (True, True)
    """
    if last is None or any(not (0 <= r < last.rows and 0 <= c < last.cols) for r, c in unread):
        return True
    if any(last[r, c] in DIGITS for r, c in unread):
        return True
    covered = sum(1 for ch in last.cells if ch == HIDDEN)
    return sum(1 for r, c in unread if last[r, c] == HIDDEN) * 2 > covered


#: Numbers read before that must still read the same on the old grid for it to count as not moved.
KEPT_NUMBERS = 10
#: Share of the numbers read before that must read the same now (a few may sit under something drawn at the end).
KEPT_SHARE = 0.9


def numbers_kept(last: Board | None, now: Board, unread: Collection[tuple[int, int]]) -> bool:
    r"""Whether the board read on the old grid still shows the numbers read there before: it has not moved.

    Why: the page around a board can change for reasons of the game's own (at a page's 125% a corner tile that
    explodes draws a pixel past the located edge), and a finished board with few covered tiles left may be found
    nowhere afresh (opened tiles with no outline give no lattice).  A board that really moved, even by whole cells,
    shows other numbers (or none) where the old grid looks; one that did not keeps them all.  At least
    ``KEPT_NUMBERS`` of them, ``KEPT_SHARE`` of those read before read the same, and none reads otherwise.

    >>> last = Board.from_text("1221" * 3 + "\n" + "...." * 3 + "\n")
    >>> numbers_kept(last, Board.from_text("1221" * 3 + "\n" + "*..*" * 3 + "\n"), [])
    True
    >>> numbers_kept(last, Board.from_text("2211" * 3 + "\n" + "...." * 3 + "\n"), [])  # moved by a cell
    False
    >>> numbers_kept(last, last, [(0, c) for c in range(4)])  # a third of them unread
    False
    """
    if last is None or (last.rows, last.cols) != (now.rows, now.cols):
        return False
    unread = set(unread)
    before = [(i, ch) for i, ch in enumerate(last.cells) if ch in DIGITS]
    same = sum(1 for i, ch in before if divmod(i, now.cols) not in unread and now.cells[i] == ch)
    other = sum(1 for i, ch in before if divmod(i, now.cols) not in unread and now.cells[i] != ch)
    return len(before) >= KEPT_NUMBERS and other == 0 and same >= KEPT_SHARE * len(before)
