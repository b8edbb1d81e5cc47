"""A window's own pixels from a real Xvfb's Composite extension: what a window over it draws is not in them.

A plain python-xlib window with a border and a drawing stands in for a game; a second window, like watch's overlay,
covers part of it.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from Xlib import X, display

from autoplay.cli.main import main
from autoplay.control.capture import grab
from autoplay.control.window import WindowGoneError
from autoplay.control.window_pixels import NoCompositeError, WindowPixels
from autoplay.control.xserver import VirtualDisplay

pytestmark = pytest.mark.e2e

WINDOW = (50, 40, 300, 200)
BORDER = 2
BLUE, ORANGE, GREEN = 0x3060C0, 0xF09020, 0x20A040  # 0xRRGGBB pixels of a TrueColor screen


def bgr(pixel: int) -> tuple[int, int, int]:
    return pixel & 0xFF, (pixel >> 8) & 0xFF, (pixel >> 16) & 0xFF


def settle(conn) -> None:
    conn.sync()
    time.sleep(0.2)


def game_window(conn):
    """A mapped window with a border, blue with a green square at (20, 30) of its inside."""
    screen = conn.screen()
    win = screen.root.create_window(
        *WINDOW, BORDER, screen.root_depth, X.InputOutput, X.CopyFromParent, background_pixel=BLUE,
        border_pixel=screen.black_pixel,
    )  # fmt: skip
    win.set_wm_class("pixels-test", "PixelsTest")
    win.map()
    settle(conn)
    win.fill_rectangle(win.create_gc(foreground=GREEN), 20, 30, 40, 40)
    settle(conn)
    return win


def test_the_windows_own_pixels_are_the_screens_until_a_window_covers_it_and_then_stay_the_windows():
    with VirtualDisplay(640, 480) as server:
        conn = display.Display(server.name)
        win = game_window(conn)
        origin = win.translate_coords(conn.screen().root, 0, 0)
        rect = (-origin.x, -origin.y, WINDOW[2], WINDOW[3])
        pixels = WindowPixels.open(server.name, win.id)
        try:
            own = pixels.grab()
            assert own.shape == (WINDOW[3], WINDOW[2], 3)
            assert np.array_equal(own, grab(rect, server.name))  # nothing over it: the screen's pixels, exactly
            assert tuple(own[40, 30]) == bgr(GREEN) and tuple(own[5, 5]) == bgr(BLUE)

            screen = conn.screen()
            cover = screen.root.create_window(
                rect[0] + 10, rect[1] + 20, 80, 80, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                background_pixel=ORANGE, override_redirect=1,
            )  # fmt: skip
            cover.map()
            settle(conn)
            on_screen = grab(rect, server.name)
            assert tuple(on_screen[40, 30]) == bgr(ORANGE)  # the screen shows the cover
            assert np.array_equal(pixels.grab(), own)  # the window's own pixels do not

            win.fill_rectangle(win.create_gc(foreground=ORANGE), 25, 35, 5, 5)  # the game draws under the cover
            settle(conn)
            drawn = pixels.grab()
            assert tuple(drawn[37, 27]) == bgr(ORANGE) and tuple(drawn[45, 45]) == bgr(GREEN)

            win.destroy()
            settle(conn)
            with pytest.raises(WindowGoneError):
                pixels.grab()
        finally:
            pixels.close()
            conn.close()


def test_without_composite_opening_fails_and_watch_overlay_stops_with_one_line_and_exit_4(capsys):
    with VirtualDisplay(640, 480, options=("-extension", "Composite")) as server:
        conn = display.Display(server.name)
        try:
            win = game_window(conn)
            with pytest.raises(NoCompositeError, match="Composite"):
                WindowPixels.open(server.name, win.id)
            args = ["watch", "--skin", "xdemineur", "--overlay", "--json", "--display", server.name]
            code = main([*args, "--backend", "x11", "--window-class", "pixels-test", "--wait-window", "0"])
        finally:
            conn.close()
    out, err = capsys.readouterr()
    assert code == 4 and out == ""
    assert len(err.splitlines()) == 1 and "Composite" in err and "Traceback" not in err, err
