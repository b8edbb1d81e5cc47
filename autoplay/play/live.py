"""Binding the loop to a real window: the screen, the mouse and the skin's way to start a new game.

Starting a new game is data in the skin (``[new_game] key = "ctrl+r"``,
``click = "face"`` or ``click = "picture"``); a face or picture click is still a
guarded click, aimed at and limited to the button located on the current frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from autoplay.control.capture import grab, screen_size
from autoplay.control.damage import DamageWatch
from autoplay.control.guard import WindowGuard
from autoplay.control.mouse import Mouse, Rect
from autoplay.control.window import GameWindow, Window, find_window, list_windows
from autoplay.control.window_query import AmbiguousWindowError, WindowQuery
from autoplay.errors import ControlError
from autoplay.play.player import FINISHED, Player, board_rect_on_screen, shown_state
from autoplay.play.portable import GameArea, PortableScreen, connect_portable
from autoplay.play.reading import require_known_size as require_known_size  # shared with watch, which cannot click
from autoplay.play.reading import vision_decoder as vision_decoder
from autoplay.vision.button import NewGame, find_button
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

#: What ``prepare`` returns when the window shows no board it can locate.
UNLOCATED = "unlocated"
#: A face is the biggest clearly yellow blob above the board (xdemineur, Windows-style clones).
_YELLOW_MIN = 180
_BLUE_MAX = 100


@dataclass
class LiveScreen:
    """A real window on a real (or virtual) X display, watched by the same guard as the mouse."""

    window: Window
    display: str | None
    guard: WindowGuard
    #: The server's damage reports on the window (None: redraws are waited for by polling pixels only).
    damage: DamageWatch | None = None

    def grab(self) -> np.ndarray:
        return grab(self.window.rect, self.display)

    def grab_area(self, area: Rect) -> np.ndarray:
        """Part of the window, ``area`` in window pixels: the strips around the board checked before each press."""
        x, y, width, height = area
        left, top = self.window.rect[:2]
        return grab((left + x, top + y, width, height), self.display)

    def window_rect(self) -> Rect:
        return self.window.rect

    def check(self, board: Rect | None = None) -> None:
        """Raise WindowProblem if the window moved, closed, or something covers ``board`` (default: the window)."""
        self.guard.check_clear(board if board is not None else self.window.rect)

    def focus(self) -> None:
        self.guard.focus()

    def close(self) -> None:
        """Close the damage watch's connection, if any; safe to call twice."""
        if self.damage is not None:
            self.damage.close()


def connect(
    display: str | None,
    wm_class: str | None,
    title: str | None,
    timeout: float = 0.0,
    skin: Skin | None = None,
    *,
    pid: int | None = None,
    backend: str = "x11",
    damage: bool = False,
) -> tuple[Window | GameArea, LiveScreen | PortableScreen, Mouse]:
    """Find the game window and build the screen and the guarded mouse for it.

    When no window has the expected class, title or pid (a renamed build, a
    clone without WM_CLASS), the board itself is looked for on the whole screen
    and the topmost window around it is played, if a skin is given to look
    with.  ``backend="portable"`` finds it without X11 (see play/portable.py).  ``damage`` lets the player
    wait for redraws on the X server's DAMAGE reports (see control/damage.py) where the server has them.
    """
    if backend == "portable":
        mouse = Mouse.for_display(display, screen_size(display))
        sx, sy = mouse.scale
        area, portable = connect_portable(display, WindowQuery(wm_class, title, pid), skin, (sx, sy))
        return area, portable, mouse
    try:
        if not (wm_class or title or pid):
            raise ControlError("the skin names no window; pass --window-class, --window-title or --pid")
        window = find_window(display, wm_class, title, timeout=timeout, pid=pid)
    except ControlError as missing:
        if skin is None:
            raise
        window = window_showing_board(display, skin, missing)
    mouse = Mouse.for_window(window, screen_size(display))
    watch = DamageWatch.open(display, window.id) if damage else None
    return window, LiveScreen(window, display, mouse.guard, watch), mouse


def window_showing_board(display: str | None, skin: Skin, missing: ControlError) -> Window:
    """The topmost window that holds a board of ``skin`` somewhere on the whole screen.

    When several windows matched the query, only they are considered.
    """
    from autoplay.errors import UnreadableBoardError
    from autoplay.vision import locate_grid

    width, height = screen_size(display)
    try:
        grid = locate_grid(grab((0, 0, width, height), display), skin)
    except UnreadableBoardError:
        raise ControlError(f"{missing}, and no {skin.name} board is visible on the screen") from None
    x0, y0, x1, y1 = grid.rect
    among = {m.ident for m in missing.matches} if isinstance(missing, AmbiguousWindowError) else None
    around = [
        w
        for w in list_windows(display)
        if w.x <= x0
        and w.y <= y0
        and x1 <= w.x + w.width
        and y1 <= w.y + w.height
        and (among is None or w.facts().ident in among)
    ]
    if not around:
        raise ControlError(f"{missing}; a {skin.name} board is on the screen at {grid.rect}, but in no such window")
    return around[-1]  # stacking order: the last one is on top


def find_face(frame: np.ndarray, grid: Grid) -> Rect | None:
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


def press_new_game(
    mouse: Mouse, window: GameWindow, grid: Grid | None, before: np.ndarray, new_game: dict[str, str]
) -> None:
    """Do what the skin's ``[new_game]`` says: press its key, or click its face or its button's picture (a guarded
    click on that button only)."""
    if "key" in new_game:
        mouse.hotkey(*new_game["key"].lower().split("+"))
    elif new_game.get("click") == "face":
        face = find_face(before, grid) if grid is not None else None
        if face is None or grid is None:
            raise ControlError("cannot find the face button to start a new game")
        click_button(mouse, window, grid, face)
    elif new_game.get("click") == "picture":
        picture = new_game.button if isinstance(new_game, NewGame) else None
        if picture is None or grid is None:
            raise ControlError("cannot find the new-game button: no picture of it, or no board to scale it by")
        click_button(mouse, window, grid, find_button(before, grid, picture))
    else:
        raise ControlError(f"the skin does not say how to start a new game ({new_game or 'no [new_game]'})")


def click_button(mouse: Mouse, window: GameWindow, grid: Grid, button: Rect) -> None:
    """Click the middle of ``button`` (window pixels), allowed nowhere else, then park the pointer off the board."""
    x, y, w, h = button
    allowed = (window.x + x, window.y + y, w, h)
    mouse.click(window.x + x + w / 2, window.y + y + h / 2, "left", allowed)
    mouse.park(window.rect, board_rect_on_screen(grid, window.rect))


def dismiss_overlay(player: Player, window: GameWindow, frame: np.ndarray) -> None:
    """Click one covered cell of the finished board: the game ignores it, but an overlay that keeps the
    keyboard (kmines' "You have lost") goes away.  A guarded click inside the board, like every other."""
    decoded = player.read(frame)
    board = decoded.board
    unreadable = set(map(tuple, getattr(decoded, "unreadable", [])))
    covered = [
        divmod(i, board.cols) for i, c in enumerate(board.cells) if c == "." and divmod(i, board.cols) not in unreadable
    ]
    grid = player.grid
    if not covered or grid is None:
        return
    x, y = grid.cell_center(*covered[0])
    rect = board_rect_on_screen(grid, window.rect)
    player.mouse.click(window.x + x, window.y + y, "left", rect)
    player.mouse.park(window.rect, rect)
    player.settle(baseline=frame, change_timeout=0.5)


def new_game_starter(
    player: Player, window: GameWindow, new_game: dict[str, str], attempts: int = 3
) -> Callable[[], None]:
    """A function that starts the next game as the skin says and returns once a game in play is shown.

    The action is repeated (at most ``attempts`` times) while the window still
    shows the finished game: a key pressed while the game is still drawing its
    end (gnome-mines flags the remaining mines after a win) can be lost, and
    pressing it again on a fresh board does no harm.  Before it is repeated, the
    game is asked whether it has read the key at all (a game starved of CPU has
    not yet: it is waited for).
    """

    def start() -> None:
        for attempt in range(attempts):
            player.check_window()  # a dialog of the game's own (a high-score table after a win) is closed
            player.screen.focus()
            before = player.screen.grab()
            if player.grid is None and "key" not in new_game:
                player.read(before)  # a face click needs the board to find the face above it
            if attempt and player.grid is not None:
                dismiss_overlay(player, window, before)
                before = player.screen.grab()
            press_new_game(player.mouse, window, player.grid, before, new_game)
            settled, _ = player.settle(baseline=before, change_timeout=1.0)
            if shown_state(player.read(settled.frame)) not in FINISHED:
                return
            answer = None if settled.changed else player.ask_game()
            if answer is not None:
                settled, _ = player.settle(baseline=before, change_timeout=answer[1])
                if shown_state(player.read(settled.frame)) not in FINISHED:
                    return
        raise ControlError(f"the game still shows the last game after {attempts} tries to start a new one")

    return start


def prepare(player: Player, window: GameWindow, attempts: int = 3) -> str:
    """Focus the window, locate the board and move the pointer off it (hover highlights a tile).

    A gnome-mines that lost the focus shows "Paused" instead of its board and
    resumes once focused, which takes a redraw; so a window without a board is
    focused and watched for a change a few times.  Returns the state shown;
    ``unlocated`` when no board can be found even then (a finished board of
    flat, outline-less tiles), which a new game fixes.
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
        except UnreadableBoardError:
            if attempt == attempts - 1:
                return UNLOCATED
            player.check_window()
            player.screen.focus()
            settled, _ = player.settle(baseline=settled.frame, change_timeout=1.0)
    if player.grid is not None and not player.settings.dry_run:
        player.mouse.park(window.rect, board_rect_on_screen(player.grid, window.rect))
        settled, _ = player.settle()
        decoded = player.read(settled.frame)
    return shown_state(decoded)
