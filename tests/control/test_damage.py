"""Damage reports from a real Xvfb: a plain python-xlib window that draws stands in for a game."""

from __future__ import annotations

import threading
import time

import pytest
from Xlib import X, display

from autoplay.control.damage import DamageWatch, meets
from autoplay.control.xserver import VirtualDisplay

pytestmark = pytest.mark.e2e

WINDOW = (50, 40, 300, 200)
BOARD = (20, 60, 200, 100)  # window pixels
CLOCK = (250, 10, 40, 20)  # a ticking clock beside the board, never meeting it


@pytest.fixture
def drawn():
    """A mapped window on a private server, its client's connection, and a graphics context to draw with."""
    with VirtualDisplay(640, 480) as server:
        conn = display.Display(server.name)
        screen = conn.screen()
        win = screen.root.create_window(
            *WINDOW, 0, screen.root_depth, X.InputOutput, X.CopyFromParent, background_pixel=screen.white_pixel
        )
        win.map()
        conn.sync()
        time.sleep(0.2)  # the first expose
        gc = win.create_gc(foreground=screen.black_pixel)
        yield server.name, conn, win, gc
        conn.close()


def fill(conn, win, gc, rect) -> None:
    win.fill_rectangle(gc, *rect)
    conn.sync()


def test_board_damage_is_reported_and_the_clock_beside_it_is_not(drawn):
    name, conn, win, gc = drawn
    watch = DamageWatch.open(name, win.id)
    assert watch is not None
    try:
        watch.forget()  # the first expose
        fill(conn, win, gc, CLOCK)
        heard = watch.wait(BOARD, first=0.2, quiet=0.02, timeout=1.0)
        assert not heard.damaged and heard.waited >= 0.2  # only the clock was drawn
        fill(conn, win, gc, (30, 70, 10, 10))
        heard = watch.wait(BOARD, first=0.5, quiet=0.02, timeout=1.0)
        assert heard.damaged and not heard.timed_out and heard.waited < 0.5
    finally:
        watch.close()


def test_the_wait_lasts_until_drawing_has_paused_for_the_quiet_time(drawn):
    name, conn, win, gc = drawn
    watch = DamageWatch.open(name, win.id)
    assert watch is not None
    try:
        watch.forget()

        def cascade() -> None:  # five frames 30 ms apart, on the drawing client's own connection
            for step in range(5):
                fill(conn, win, gc, (20 + 20 * step, 60, 10, 10))
                time.sleep(0.03)

        drawer = threading.Thread(target=cascade)
        started = time.perf_counter()
        drawer.start()
        heard = watch.wait(BOARD, first=0.5, quiet=0.06, timeout=2.0)
        drawer.join()
        assert heard.damaged and not heard.timed_out
        assert time.perf_counter() - started >= 4 * 0.03 + 0.06  # not before the last frame and its quiet
        assert heard.longest_gap >= 0.02  # the rhythm: a pause between frames
        timed_out = watch.wait(BOARD, first=0.5, quiet=0.5, timeout=0.1)
        assert not timed_out.damaged
    finally:
        watch.close()


def test_no_damage_extension_or_no_window_means_no_watch(drawn, capfd):
    name, _, win, _ = drawn
    assert DamageWatch.open(":987654", 1) is None  # no such display
    assert DamageWatch.open(name, win.id + 4096) is None  # no such window: and nothing printed about it
    assert "error" not in capfd.readouterr().err.lower()
    assert meets((0, 0, 5, 5), (4, 4, 5, 5)) and not meets((0, 0, 5, 5), (5, 0, 5, 5))
