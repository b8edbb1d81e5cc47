"""Following a person's own game: capture, wait for the redraw, read — and never send anything.

``autoplay watch`` must not be able to click, so this module (and everything it
imports) stays away from :mod:`autoplay.control.mouse`, the window guard and
pyautogui: it grabs pixels with :func:`autoplay.control.capture.grab`, asks the
X server only questions (where the window is, where the pointer is) and reads
frames with the decoder ``play`` uses (:mod:`autoplay.play.reading`).  A test
imports it and checks that none of those modules came along.

Each change of the board is read only after the picture has stopped changing,
as ``play`` does: the game draws a cascade over several frames, and half a
cascade read as a position would be reported to the person as two moves.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from autoplay.board.model import EXPLODED, FLAG, HIDDEN, MINE, Board, Coord
from autoplay.control.capture import Roi, grab, wait_settled
from autoplay.control.window import Window
from autoplay.errors import UnreadableBoardError
from autoplay.play.reading import FrameDecoder, in_one_line
from autoplay.vision.decode import DecodedFrame
from autoplay.vision.grid import Grid

#: ``(left, top, width, height)`` on the screen.
Rect = tuple[int, int, int, int]
#: Share of unreadable cells above which a frame is located afresh before it is believed (as ``play`` does).
RELOCATE_SHARE = 0.05
#: The longest the board must stay unchanged to count as drawn, however slowly the game has been seen to draw.
MAX_QUIET = 0.3
#: The longest pause seen inside one redraw, times this, becomes the wait (a cascade of 16 ms frames).
RHYTHM_MARGIN = 1.5
#: Frames in a row that may contradict the last position (a number changed) before they are believed after all.
MAX_CONTRADICTING = 5


class Watched(Protocol):
    """The game's window as the watcher sees it: pixels, where it is, and where the pointer is."""

    def grab(self) -> np.ndarray: ...

    def where(self) -> Rect:
        """The window's rectangle now; ``WindowGoneError`` once it is closed."""
        ...

    def pointer(self) -> tuple[int, int] | None:
        """The pointer's screen position, or None when it cannot be asked (only asked, never moved)."""
        ...


@dataclass
class WatchedWindow:
    """An X11 window found by :func:`autoplay.control.window.find_window`, looked at and never touched."""

    window: Window
    display: str | None
    _conn: Any = None
    #: Where the pixels come from instead of the screen: the window's own contents (``watch --overlay`` reads
    #: them from :class:`autoplay.control.window_pixels.WindowPixels`, so that its marks over the board are not read).
    own_pixels: Callable[[], np.ndarray] | None = None

    def grab(self) -> np.ndarray:
        if self.own_pixels is not None:
            return self.own_pixels()
        return grab(self.window.rect, self.display)

    def where(self) -> Rect:
        rect = self.window.current_geometry()
        self.window.x, self.window.y, self.window.width, self.window.height = rect
        return rect

    def pointer(self) -> tuple[int, int] | None:
        """QueryPointer: a question to the server, which moves nothing and takes no focus."""
        from Xlib import display as xdisplay

        try:
            if self._conn is None:
                self._conn = xdisplay.Display(self.display)
            reply = self._conn.screen().root.query_pointer()
        except Exception:  # a pointer we cannot ask only costs the guess of which cell was clicked
            return None
        return int(reply.root_x), int(reply.root_y)

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        self.window.close_connection()


@dataclass(frozen=True)
class Seen:
    """One new position of the person's game, read after the redraw settled."""

    board: Board  # cells that could not be read are shown covered
    unreadable: frozenset[Coord]
    state: str  # playing, won, lost (or the decoder's unknown)
    t: float  # seconds since watching started, when the change was first seen
    pointer_cell: Coord | None  # the cell under the pointer when the change was first seen
    grid: Grid
    frame: np.ndarray
    window: Rect  # the game window's rectangle on the screen
    settled_in: float = 0.0  # seconds from the change first seen to the redraw settled

    @property
    def board_rect(self) -> Rect:
        """The board's rectangle on the screen (what a view beside the game must never cover)."""
        x0, y0, x1, y1 = self.grid.rect
        return self.window[0] + x0, self.window[1] + y0, x1 - x0, y1 - y0


@dataclass
class WatchSettings:
    """How often to look and how long a redraw may take; the defaults are ``play``'s."""

    settle: float = 0.035  # the board unchanged this long counts as drawn
    poll: float = 0.01  # the pause between two looks while nothing changes
    window_check: float = 0.25  # how often the window is asked whether it still exists and where it is
    settle_timeout: float = 3.0


def board_roi(grid: Grid | None) -> Roi | None:
    """The board's slice of a window frame: the game's clock ticking beside it is not a change of position."""
    if grid is None:
        return None
    x0, y0, x1, y1 = grid.rect
    return y0, y1, x0, x1


def same_board_pixels(a: np.ndarray, b: np.ndarray, roi: Roi | None) -> bool:
    """Whether two frames show the same pixels where the board is (the whole frame before it is located)."""
    if a.shape != b.shape:
        return False
    if roi is None:
        return bool(np.array_equal(a, b))
    top, bottom, left, right = roi
    return bool(np.array_equal(a[top:bottom, left:right], b[top:bottom, left:right]))


def read_frame(
    decode: FrameDecoder, frame: np.ndarray, grid: Grid | None, expected: frozenset[Coord] = frozenset()
) -> DecodedFrame:
    """Decode on the known grid; a frame read badly on it is located afresh and the better reading kept.

    Badly is as ``play`` has it: more than ``RELOCATE_SHARE`` of the cells unreadable, or unreadable cells not in
    ``expected`` (those a fresh location was last tried for, and the tile under the pointer, which the game may
    light): gnome-mines' lattice wobbles by a pixel, and a grid located on the fresh board can leave a tile of a
    later frame unread that the board's own lattice reads.  Locating costs ~150 ms on an expert board, so a tile
    lit under the pointer is not worth it, nor are new unread cells scattered over the board (cells caught in a
    redraw, looks the skin does not know): a lattice line a pixel off leaves its cells in one row or column.
    """
    decoded = decode(frame, grid)
    unread = frozenset((int(r), int(c)) for r, c in decoded.unreadable)
    many = grid is not None and len(unread) > RELOCATE_SHARE * grid.rows * grid.cols
    if grid is not None and unread and (many or in_one_line(unread - expected)):
        try:
            fresh = decode(frame, None)
        except UnreadableBoardError:
            return decoded
        if (fresh.board.rows, fresh.board.cols) == (grid.rows, grid.cols) and len(fresh.unreadable) < len(unread):
            return fresh
    return decoded


def shown_position(
    decoded: DecodedFrame, believed: Board | None, pointer_cell: Coord | None
) -> tuple[Board, frozenset[Coord], str]:
    """The board to show, the cells that could not be read, and the game's state.

    A cell that cannot be read keeps what it was last read as (``believed``; covered when never read): numbers
    do not change, and a covered cell that opened meanwhile shows once it reads again.  The tile under the
    pointer is the exception: games light the covered tile or flag a person points at, and a lit tile the
    templates do not know is taken for its nearest template when that is a cover or a flag — a flag placed
    under the pointer is then seen at once.  A mine read with confidence ends the game even when other cells
    are unreadable (crossed-out flags after a loss).
    """
    unread = frozenset((int(r), int(c)) for r, c in decoded.unreadable)
    board = decoded.board
    if unread:
        same = believed is not None and (believed.rows, believed.cols) == (board.rows, board.cols)
        kept: dict[Coord, str] = {}
        for cell in unread:
            kept[cell] = believed[cell] if same and believed is not None else HIDDEN
            if cell == pointer_cell and str(decoded.labels[cell]) in (HIDDEN, FLAG):
                kept[cell] = str(decoded.labels[cell])
        board = board.replace(kept)
    state = decoded.state
    if state not in ("won", "lost"):
        shows_mine = any(ch in (MINE, EXPLODED) and board.at(i) not in unread for i, ch in enumerate(board.cells))
        state = "lost" if shows_mine else "playing"
    return board, unread, state


def kept_total(board: Board, before: Board) -> Board:
    """``board`` with the game's mine total from ``before`` (the same game) when its own frame did not show one.

    A game's total does not change while it is played, and the counter gives it on most frames (its text plus
    the flags shown); a frame caught while the counter redraws reads none, and without a total a cell off the
    frontier has no odds, so a step onto it would be judged "odds unknown" instead of on its merits.

    >>> before = Board.from_rows(["..", ".."], mines=1)
    >>> kept_total(Board.from_rows(["..", "1."]), before).mines
    1
    >>> kept_total(Board.from_rows(["..", "1."], mines=2), before).mines
    2
    """
    if board.mines is not None or before.mines is None or (board.rows, board.cols) != (before.rows, before.cols):
        return board
    return board.with_mines(before.mines)


def renumbered(before: Board, after: Board) -> bool:
    """Whether some number of ``before`` shows another number in ``after``: no move does that in one game.

    A picture that is not the board can still read as one (a flat light area over the whole board reads as a
    board of zeros), and a new game covers its cells before it shows new numbers.
    """
    if (before.rows, before.cols) != (after.rows, after.cols):
        return False
    digits = set("012345678")
    return any(a in digits and b in digits and a != b for a, b in zip(before.cells, after.cells, strict=True))


def cell_at(grid: Grid, x: float, y: float) -> Coord | None:
    """The cell of ``grid`` holding window pixel ``(x, y)``, or None off the board."""
    col = int(np.searchsorted(grid.xs, x, side="right")) - 1
    row = int(np.searchsorted(grid.ys, y, side="right")) - 1
    if 0 <= row < grid.rows and 0 <= col < grid.cols:
        return row, col
    return None


def follow(
    target: Watched,
    decode: FrameDecoder,
    settings: WatchSettings | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[Seen]:
    """Every new position of the game, until its window closes (``WindowGoneError`` from ``target.where``).

    A frame without a readable board (a paused gnome-mines hides it, a dialog covers it, more than
    ``RELOCATE_SHARE`` of its cells unreadable), or one whose numbers differ from the last position's, is
    skipped and looked at again when the picture changes; a moved window is located afresh.  After a game's
    end, other numbers are a new game, not a contradiction: xdemineur opens a region of its new board at once,
    with no covered board between.
    """
    s = settings or WatchSettings()
    start = clock()
    rect = target.where()
    checked = clock()
    grid: Grid | None = None
    last_frame: np.ndarray | None = None
    last: tuple[Board, str] | None = None
    tried: frozenset[Coord] = frozenset()
    contradicting = 0
    quiet = s.settle
    while True:
        if clock() - checked >= s.window_check:
            now_rect = target.where()
            checked = clock()
            if now_rect != rect:
                rect, grid, last_frame = now_rect, None, None
        frame = target.grab()
        if last_frame is not None and same_board_pixels(frame, last_frame, board_roi(grid)):
            sleep(s.poll)
            continue
        seen_at = clock() - start
        pointer = target.pointer()
        settled = wait_settled(target.grab, quiet, s.settle_timeout, roi=board_roi(grid), poll=s.poll / 2)
        quiet = max(quiet, min(MAX_QUIET, RHYTHM_MARGIN * settled.longest_pause))
        last_frame = settled.frame
        lit = cell_at(grid, pointer[0] - rect[0], pointer[1] - rect[1]) if grid and pointer else None
        try:
            decoded = read_frame(decode, settled.frame, grid, tried | ({lit} if lit else set()))
        except UnreadableBoardError:
            grid = None  # no board to be seen now (paused, covered): looked for again at the next change
            continue
        tried = frozenset((int(r), int(c)) for r, c in decoded.unreadable)
        if len(tried) > RELOCATE_SHARE * decoded.grid.rows * decoded.grid.cols:
            grid = None  # something over the board (a dialog, the window going away): no position to show
            continue
        grid = decoded.grid
        pointer_cell = None
        if pointer is not None:
            pointer_cell = cell_at(grid, pointer[0] - rect[0], pointer[1] - rect[1])
        board, unread, state = shown_position(decoded, last[0] if last is not None else None, pointer_cell)
        ended = last is not None and last[1] in ("won", "lost") and state == "playing"  # a new game after an end
        if last is not None and not ended:
            board = kept_total(board, last[0])
        if last == (board, state):
            continue  # a change that is no move: the pointer lit a tile, the counter or face redrew
        if last is not None and not ended and renumbered(last[0], board) and contradicting < MAX_CONTRADICTING:
            contradicting += 1  # not the game's board (or the last reading was wrong: believed after a few)
            continue
        contradicting = 0
        last = (board, state)
        yield Seen(board, unread, state, seen_at, pointer_cell, grid, settled.frame, rect, settled.waited)
