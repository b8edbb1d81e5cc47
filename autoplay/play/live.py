"""Binding the loop to a real window: the screen, the mouse and the skin's way to start a new game.

Starting a new game is data in the skin (``[new_game] key = "ctrl+r"`` or
``click = "face"``); a face click is still a guarded click, aimed at and
limited to the face button located on the current frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from autoplay.control.capture import grab, screen_size
from autoplay.control.guard import WindowGuard
from autoplay.control.mouse import Mouse, Rect
from autoplay.control.window import Window, find_window, list_windows
from autoplay.errors import ControlError
from autoplay.play.player import FINISHED, Player, board_rect_on_screen, shown_state

#: A face is the biggest clearly yellow blob above the board (xdemineur, Windows-style clones).
_YELLOW_MIN = 180
_BLUE_MAX = 100


@dataclass
class LiveScreen:
    """A real window on a real (or virtual) X display, watched by the same guard as the mouse."""

    window: Window
    display: str | None
    guard: WindowGuard

    def grab(self) -> np.ndarray:
        return grab(self.window.rect, self.display)

    def window_rect(self) -> Rect:
        return self.window.rect

    def check(self, board: Rect | None = None) -> None:
        """Raise WindowProblem if the window moved, closed, or something covers ``board`` (default: the window)."""
        self.guard.check_clear(board if board is not None else self.window.rect)

    def focus(self) -> None:
        self.guard.focus()


def connect(
    display: str | None, wm_class: str | None, title: str | None, timeout: float = 0.0, skin: Any = None
) -> tuple[Window, LiveScreen, Mouse]:
    """Find the game window and build the screen and the guarded mouse for it.

    When no window has the expected class or title (a renamed build, a clone
    without WM_CLASS), the board itself is looked for on the whole screen and
    the topmost window around it is played, if a skin is given to look with.
    """
    try:
        if not (wm_class or title):
            raise ControlError("the skin names no window; pass --window-class or --title")
        window = find_window(display, wm_class, title, timeout=timeout)
    except ControlError as missing:
        if skin is None:
            raise
        window = window_showing_board(display, skin, missing)
    mouse = Mouse.for_window(window, screen_size(display))
    return window, LiveScreen(window, display, mouse.guard), mouse


def window_showing_board(display: str | None, skin: Any, missing: ControlError) -> Window:
    """The topmost window that holds a board of ``skin`` somewhere on the whole screen."""
    from autoplay.errors import UnreadableBoardError
    from autoplay.vision import locate_grid

    width, height = screen_size(display)
    try:
        grid = locate_grid(grab((0, 0, width, height), display), skin)
    except UnreadableBoardError:
        raise ControlError(f"{missing}, and no {skin.name} board is visible on the screen") from None
    x0, y0, x1, y1 = grid.rect
    around = [
        w for w in list_windows(display) if w.x <= x0 and w.y <= y0 and x1 <= w.x + w.width and y1 <= w.y + w.height
    ]
    if not around:
        raise ControlError(f"{missing}; a {skin.name} board is on the screen at {grid.rect}, but in no window")
    return around[-1]  # stacking order: the last one is on top


def vision_decoder(skin: Any, mines: int | None) -> Callable[[np.ndarray, Any], Any]:
    """``decode_frame`` for this skin with the mine count the user or the launcher gave.

    Without the count a win cannot be recognised (the cover count is compared
    with it); given, it also spares reading the game's mine counter at every
    frame.  Without it the skin's counter or its fixed sizes supply it.
    """
    from autoplay.vision import decode_frame

    def decode(frame: np.ndarray, grid: Any) -> Any:
        return decode_frame(frame, skin, grid, mines)

    return decode


def find_face(frame: np.ndarray, grid: Any) -> Rect | None:
    """The face button's rectangle (window pixels) in the strip above the board, or None."""
    top = int(grid.rect[1])
    strip = frame[:top]
    if strip.size == 0:
        return None
    yellow = (strip[:, :, 2] >= _YELLOW_MIN) & (strip[:, :, 1] >= _YELLOW_MIN) & (strip[:, :, 0] <= _BLUE_MAX)
    ys, xs = np.nonzero(yellow)
    if len(xs) < 20:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def press_new_game(mouse: Mouse, window: Window, grid: Any, before: np.ndarray, new_game: dict[str, str]) -> None:
    """Do what the skin's ``[new_game]`` says: press its key, or click its face (a guarded click on the face only)."""
    if "key" in new_game:
        mouse.hotkey(*new_game["key"].lower().split("+"))
    elif new_game.get("click") == "face":
        face = find_face(before, grid)
        if face is None:
            raise ControlError("cannot find the face button to start a new game")
        x, y, w, h = face
        allowed = (window.x + x, window.y + y, w, h)
        mouse.click(window.x + x + w / 2, window.y + y + h / 2, "left", allowed)
        mouse.park(window.rect, board_rect_on_screen(grid, window.rect))
    else:
        raise ControlError(f"the skin does not say how to start a new game ({new_game or 'no [new_game]'})")


def new_game_starter(player: Player, window: Window, new_game: dict[str, str], attempts: int = 3) -> Callable[[], None]:
    """A function that starts the next game as the skin says and returns once a game in play is shown.

    The action is repeated (at most ``attempts`` times) while the window still
    shows the finished game: a key pressed while the game is still drawing its
    end (gnome-mines flags the remaining mines after a win) can be lost, and
    pressing it again on a fresh board does no harm.
    """

    def start() -> None:
        for _ in range(attempts):
            player.screen.check()
            player.screen.focus()
            before = player.screen.grab()
            if player.grid is None:
                player.read(before)
            press_new_game(player.mouse, window, player.grid, before, new_game)
            settled, _ = player.settle(baseline=before, change_timeout=1.0)
            if shown_state(player.read(settled.frame)) not in FINISHED:
                return
        raise ControlError(f"the game still shows the last game after {attempts} tries to start a new one")

    return start


def prepare(player: Player, window: Window, attempts: int = 3) -> str:
    """Focus the window, locate the board and move the pointer off it (hover highlights a tile).

    A gnome-mines that lost the focus shows "Paused" instead of its board and
    resumes once focused, which takes a redraw; so a window without a board is
    focused and watched for a change a few times before giving up, and the
    error then names the window and the likely reasons.  Returns the state shown.
    """
    from autoplay.errors import UnreadableBoardError

    player.check_window()
    player.screen.focus()
    if not player.settings.dry_run:
        player.mouse.rest_in_corner(window.rect)
    settled, _ = player.settle()
    for attempt in range(attempts):
        try:
            decoded = player.read(settled.frame)
            break
        except UnreadableBoardError as exc:
            if attempt == attempts - 1:
                name = window.title or hex(window.id)
                raise UnreadableBoardError(
                    f"window {name!r} shows no board even after focusing it: the game may be paused, "
                    f"showing a dialog, or not this skin ({exc})"
                ) from None
            player.check_window()
            player.screen.focus()
            settled, _ = player.settle(baseline=settled.frame, change_timeout=1.0)
    if player.grid is not None and not player.settings.dry_run:
        player.mouse.park(window.rect, board_rect_on_screen(player.grid, window.rect))
        settled, _ = player.settle()
        decoded = player.read(settled.frame)
    return getattr(decoded, "state", "unknown")
