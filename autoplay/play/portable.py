"""The portable backend: play a board found without X11 — in a window a window library names, or anywhere
on the whole screen.

Without X11 nothing tells us the window's stacking order or that it moved, so
the screen watches the board itself: before each batch of clicks it captures
again and requires the board's pixels to be the ones the decision was made on
(or, after a late redraw, the same grid found at the same place).  Anything
else — a moved or closed window, another window over the board — stops the
session with :class:`BoardChangedError` (exit code 4) before anything is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from autoplay.control.capture import grab, screen_size
from autoplay.control.library_windows import LibraryWindow, find_library_window
from autoplay.control.window_query import WindowQuery
from autoplay.errors import ControlError, UnreadableBoardError
from autoplay.vision.decode import decode_frame
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid
from autoplay.vision.skin import Skin

#: Cell pitches of screen kept around a board found on the whole screen (the face button sits above it).
MARGIN_CELLS = 3
#: How far (in cell pitches) a re-located board may sit from where it was and still count as the same.
SAME_PLACE = 0.25


class BoardChangedError(ControlError):
    """The board is no longer where it was located: a moved, closed or covered window (exit code 4)."""


@dataclass
class ScreenArea:
    """The part of the screen around a board found without any window: the portable stand-in for a window.

    There is nothing to ask about it; :class:`PortableScreen` checks the board's pixels instead.
    """

    x: int
    y: int
    width: int
    height: int

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.width, self.height

    def refresh(self) -> ScreenArea:
        return self

    def focus(self) -> None:
        """No window to focus: the user's game keeps whatever focus it has (a click on the board gives it)."""

    def close_connection(self) -> None:
        """Nothing to close."""


GameArea = ScreenArea | LibraryWindow


@dataclass
class PortableScreen:
    """Frames of ``window``; ``check()`` proves the located board is still there before any click."""

    window: GameArea
    display: str | None
    board: Grid  # where the board was located, in this window's frame
    skin: Skin | None = None
    _last: np.ndarray | None = field(default=None, repr=False)

    def grab(self) -> np.ndarray:
        self._last = grab(self.window.rect, self.display)
        return self._last

    def window_rect(self) -> tuple[int, int, int, int]:
        return self.window.rect

    def focus(self) -> None:
        self.window.focus()

    def check(self, board: tuple[int, int, int, int] | None = None) -> None:
        """The window is where it was and its board's pixels are the last frame's; BoardChangedError if not.

        ``board`` (the caller's idea of the board on screen) is not needed: this screen located its own.
        """
        self.window.refresh()
        if self._last is None:
            return
        now = grab(self.window.rect, self.display)
        x0, y0, x1, y1 = self.board.rect
        if np.array_equal(now[y0:y1, x0:x1], self._last[y0:y1, x0:x1]):
            return
        # Not the frame the decision was made on: fine if only tiles were redrawn late, not if the board went
        # (the grid is elsewhere) or something lies over part of it (cells no longer read as any tile).
        try:
            found = locate_grid(now, self.skin)
        except UnreadableBoardError:
            raise BoardChangedError(f"the board at {self.board.rect} is no longer on the screen; stopping") from None
        if not same_board(found, self.board):
            raise BoardChangedError(f"the board moved from {self.board.rect} to {found.rect}; stopping")
        if self.skin is not None:
            covered = decode_frame(now, self.skin, self.board).unreadable
            if covered:
                raise BoardChangedError(
                    f"something covers the board: {len(covered)} cells no longer look like tiles, e.g. "
                    f"{covered[0]}; stopping"
                )


def same_board(found: Grid, expected: Grid) -> bool:
    """Same rows and columns, every side within a quarter of a cell of where it was."""
    if (found.rows, found.cols) != (expected.rows, expected.cols):
        return False
    tolerance = SAME_PLACE * min(expected.pitch)
    return all(abs(a - b) <= tolerance for a, b in zip(found.rect, expected.rect))


def area_around(grid: Grid, screen: tuple[int, int]) -> ScreenArea:
    """The board's rectangle grown by :data:`MARGIN_CELLS` pitches each way, inside the screen."""
    x0, y0, x1, y1 = grid.rect
    px, py = grid.pitch
    left, top = max(0, int(x0 - MARGIN_CELLS * px)), max(0, int(y0 - MARGIN_CELLS * py))
    right, bottom = min(screen[0], int(x1 + MARGIN_CELLS * px)), min(screen[1], int(y1 + MARGIN_CELLS * py))
    return ScreenArea(left, top, right - left, bottom - top)


def shifted(grid: Grid, dx: float, dy: float) -> Grid:
    """``grid`` moved by ``(dx, dy)`` pixels."""
    return Grid(grid.xs + dx, grid.ys + dy)


def find_board_area(display: str | None, skin: Skin | None) -> tuple[ScreenArea, Grid]:
    """The board on the whole screen: the area to capture and the board's grid in that area's frame."""
    size = screen_size(display)
    try:
        grid = locate_grid(grab((0, 0, *size), display), skin)
    except UnreadableBoardError:
        name = f"{skin.name} " if skin is not None else ""
        raise ControlError(f"no {name}board is visible anywhere on the screen") from None
    area = area_around(grid, size)
    return area, shifted(grid, -area.x, -area.y)


def connect_portable(
    display: str | None, query: WindowQuery, skin: Skin | None, scale: tuple[float, float]
) -> tuple[GameArea, PortableScreen]:
    """The game's area and screen without X11: the named window if a window library is installed and the
    query names one, else the board found on the whole screen.

    ``scale`` is the mouse's capture/click ratio (a window library reports pointer coordinates).
    """
    window: LibraryWindow | None = None
    if query:
        try:
            window = find_library_window(query, scale)
        except ControlError:
            if skin is None:
                raise
            # as on X11: a window nobody could name is still played if its board is on the screen
    if window is None:
        area, board = find_board_area(display, skin)
        return area, PortableScreen(area, display, board, skin)
    try:
        board = locate_grid(grab(window.rect, display), skin)
    except UnreadableBoardError:
        raise ControlError(f"no board is visible in the window {window.facts.describe()}") from None
    return window, PortableScreen(window, display, board, skin)
