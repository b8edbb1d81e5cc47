"""``watch --overlay``'s window on a real Xvfb, over a plain python-xlib window standing in for the game.

The X server is asked, not the overlay's own state: its attributes (override-redirect), its input and bounding
shapes, the screen's pixels, where a press made with xdotool lands, where the window is after the game moved.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable

import numpy as np
import pytest
from Xlib import X, display
from Xlib.ext import shape
from Xlib.xobject.drawable import Window

from autoplay.control.capture import grab
from autoplay.control.xserver import VirtualDisplay
from autoplay.render.overlay_marks import Marks, mask_rectangles, paint
from autoplay.render.overlay_window import OVERLAY_NAME, BoardOverlay
from autoplay.vision.grid import Grid

pytestmark = pytest.mark.e2e

GAME = (100, 80, 400, 300)
PITCH = 25
GRID = Grid(np.arange(8 + 1) * PITCH + 40.0, np.arange(6 + 1) * PITCH + 60.0)  # 6x8 cells at (40, 60) in the game
MARKS = Marks(GRID, {(0, 0): 0.5, (2, 3): 0.0, (5, 7): 1.0}, frozenset({(2, 3)}), frozenset({(5, 7)}), (2, 3))


def wait_until(check: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def overlay_of(conn: display.Display) -> Window | None:
    """The overlay's window, found by its name among the root's children."""
    for child in conn.screen().root.query_tree().children:
        if child.get_wm_name() == OVERLAY_NAME:
            return child
    return None


def test_the_overlay_shows_its_marks_over_the_board_lets_presses_through_follows_the_game_and_goes():
    with VirtualDisplay(800, 600) as server:
        conn = display.Display(server.name)
        screen = conn.screen()
        game = screen.root.create_window(
            *GAME, 0, screen.root_depth, X.InputOutput, X.CopyFromParent, background_pixel=screen.white_pixel,
            event_mask=X.ButtonPressMask,
        )  # fmt: skip
        game.map()
        conn.sync()
        overlay = BoardOverlay.open(server.name, game.id, poll=0.05)
        try:
            overlay.show(MARKS)
            assert wait_until(lambda: (found := overlay_of(conn)) is not None and found.get_attributes().map_state)
            window = overlay_of(conn)
            assert window is not None
            assert window.get_attributes().override_redirect
            assert window.shape_get_rectangles(shape.SK.Input).rectangles == []  # no press can land on it
            bounding = window.shape_get_rectangles(shape.SK.Bounding).rectangles
            image, mask = paint(MARKS)
            assert sorted((r.x, r.y, r.width, r.height) for r in bounding) == sorted(mask_rectangles(mask))

            # the marks are on the screen where the board is, and the game shows between them
            board = (GAME[0] + 40, GAME[1] + 60, 8 * PITCH, 6 * PITCH)
            assert wait_until(lambda: np.array_equal(grab(board, server.name)[mask > 0], image[mask > 0]))
            shot = grab(board, server.name)
            assert (shot[mask == 0] == 255).all()

            # a press on a mark (the move's frame and label of cell (2, 3)) goes to the game below
            x, y = board[0] + 3 * PITCH + PITCH // 2, board[1] + 2 * PITCH + PITCH // 2
            assert mask[y - board[1], x - board[0]]
            env = {**os.environ, "DISPLAY": server.name}
            subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)
            assert wait_until(lambda: conn.pending_events() > 0)
            event = conn.next_event()
            assert event.type == X.ButtonPress and event.window.id == game.id, event
            assert conn.get_input_focus().focus != window.id  # nor did it take the focus

            # the game moves: the overlay follows; it is hidden while the game is, and gone when closed
            game.configure(x=GAME[0] + 50, y=GAME[1] + 30)
            conn.sync()

            def placed() -> bool:
                origin = window.translate_coords(screen.root, 0, 0)
                return (-origin.x, -origin.y) == (board[0] + 50, board[1] + 30)

            assert wait_until(placed)
            game.unmap()
            conn.sync()
            assert wait_until(lambda: window.get_attributes().map_state == X.IsUnmapped)
        finally:
            overlay.close()
        assert overlay_of(conn) is None
        conn.close()
