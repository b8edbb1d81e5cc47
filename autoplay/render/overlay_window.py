"""``watch --overlay``'s window: the marks of :mod:`autoplay.render.overlay_marks` over the game's board, on X11.

The person plays through it, so it must take nothing from them:

- its *input* shape (SHAPE extension) is empty: no pointer event is ever delivered to it, every press and motion
  goes to the window below, the game;
- it is override-redirect: no window manager frames it, stacks it as an application or gives it the focus (its
  WM hints say "no input" as well), and it selects no events at all;
- its *bounding* shape is the union of the marks, so between them the game shows as it is.

It never moves the pointer and opens no input path (no XTEST).  Its picture is the window's background pixmap,
so the server repaints it by itself.  A thread of its own, on a connection of its own, keeps it over the board:
every ``poll`` seconds it asks where the game's window is, moves along when the game moved and raises the overlay
above a game a window manager raised over it.  It is gone when :meth:`BoardOverlay.close` is called, or with the
process (the server destroys a client's windows when its connection closes).

What watch *reads* is not touched by any of this: with the overlay on, watch reads the game's own pixels
(:mod:`autoplay.control.window_pixels`), in which no window above the game appears.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import numpy as np

from autoplay.control.window import _open_display
from autoplay.errors import ControlError
from autoplay.render.overlay_marks import Marks, mask_rectangles, paint

#: The overlay window's name (WM_NAME), by which tests and people can find it.
OVERLAY_NAME = "autoplay watch overlay"
#: Seconds between two checks of where the game's window is.
POLL = 0.1


def zpixmap_bytes(image: np.ndarray, lsb_first: bool) -> bytes:
    """A BGR image as 32-bit ZPixmap data for a depth-24 drawable (BGRX, or XRGB on a most-significant-first server).

    >>> zpixmap_bytes(np.array([[[1, 2, 3]]], np.uint8), True), zpixmap_bytes(np.array([[[1, 2, 3]]], np.uint8), False)
    (b'\\x01\\x02\\x03\\x00', b'\\x00\\x03\\x02\\x01')
    """
    pad = np.zeros(image.shape[:2] + (1,), np.uint8)
    data = np.concatenate((image, pad), axis=2)
    return (data if lsb_first else data[:, :, ::-1]).tobytes()


class BoardOverlay:
    """The overlay window and the thread that keeps it over the board; see the module docstring."""

    def __init__(self, conn: Any, game_id: int, poll: float = POLL) -> None:
        from Xlib import X, Xutil
        from Xlib.ext import shape

        self._conn = conn
        self._poll = poll
        screen = conn.screen()
        self._root = screen.root
        self._depth = screen.root_depth
        self._game = conn.create_resource_object("window", game_id)
        self.window = self._root.create_window(
            0, 0, 1, 1, 0, self._depth, X.InputOutput, X.CopyFromParent,
            background_pixel=screen.black_pixel, override_redirect=1, event_mask=0,
        )  # fmt: skip
        self.window.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
        self.window.shape_rectangles(shape.SO.Set, shape.SK.Bounding, X.Unsorted, 0, 0, [])
        self.window.set_wm_name(OVERLAY_NAME)
        self.window.set_wm_class("autoplay-overlay", "AutoplayWatch")
        self.window.set_wm_hints(flags=Xutil.InputHint, input=0)
        conn.flush()
        self._lsb_first = conn.display.info.image_byte_order == X.LSBFirst
        self._max_request = (conn.display.info.max_request_length << 2) - 64
        self._lock = threading.Lock()
        self._pending: Marks | None = None
        self._shown: Marks | None = None
        self._size = (1, 1)
        self._place: tuple[int, int] | None = None
        self._mapped = False
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self.failure: BaseException | None = None  # what stopped the thread early, if anything
        self._thread = threading.Thread(target=self._run, daemon=True, name="watch-overlay")
        self._thread.start()

    @classmethod
    def open(cls, display: str | None, game_id: int, poll: float = POLL) -> BoardOverlay:
        """An overlay for the game window ``game_id``, shown from the first :meth:`show`.

        ControlError when the server cannot shape a window's input (SHAPE 1.1 or later is needed): an overlay
        that caught the person's clicks would be worse than none.
        """
        conn = _open_display(display)
        try:
            if not conn.has_extension("SHAPE"):
                raise ControlError(
                    f"--overlay needs the X server's SHAPE extension, which {display or '$DISPLAY'} lacks"
                )
            version = conn.shape_query_version()
            if (version.major_version, version.minor_version) < (1, 1):
                raise ControlError(
                    f"--overlay needs SHAPE 1.1 (input shapes, to let clicks through); {display or '$DISPLAY'} has "
                    f"{version.major_version}.{version.minor_version}"
                )
            return cls(conn, game_id, poll)
        except BaseException:
            conn.close()
            raise

    def show(self, marks: Marks) -> None:
        """Draw these marks from now on (the newest wins; drawing happens on the overlay's thread)."""
        with self._lock:
            self._pending = marks
        self._wake.set()

    def close(self) -> None:
        """Take the overlay off the screen and end its thread and connection; safe to call twice."""
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(2.0)
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                self.window.destroy()
                conn.sync()
            with contextlib.suppress(Exception):
                conn.close()

    def _run(self) -> None:
        from Xlib.error import ConnectionClosedError, XError

        try:
            while not self._stopping.is_set():
                self._wake.wait(self._poll)
                self._wake.clear()
                if self._stopping.is_set():
                    break
                self._step()
        except (XError, ConnectionClosedError, OSError) as exc:  # the overlay goes; what watch reads is not touched
            self.failure = exc

    def _step(self) -> None:
        """Draw new marks, follow the game's window, keep the overlay on top (or hide it when the game is gone)."""
        from Xlib import X
        from Xlib.error import BadDrawable, BadWindow

        with self._lock:
            marks, self._pending = self._pending, None
        if marks is not None:
            self._draw(marks)
        if self._shown is None:
            return
        try:
            origin = self._game.translate_coords(self._root, 0, 0)
            shown = self._game.get_attributes().map_state == X.IsViewable
        except (BadWindow, BadDrawable):
            shown = False
        if not shown:
            if self._mapped:
                self.window.unmap()
                self._mapped = False
                self._conn.flush()
            return
        dx, dy = self._shown.origin
        place = (-origin.x + dx, -origin.y + dy)
        if place != self._place:
            self.window.configure(x=place[0], y=place[1])
            self._place = place
        if not self._mapped:
            self.window.map()
            self._mapped = True
        self.window.configure(stack_mode=X.Above)
        self._conn.flush()

    def _draw(self, marks: Marks) -> None:
        """Put the marks' picture in a pixmap, make it the window's background and shape the window to the marks."""
        from Xlib import X
        from Xlib.ext import shape

        width, height = marks.size
        if width <= 0 or height <= 0:
            return
        image, mask = paint(marks)
        pixmap = self.window.create_pixmap(width, height, self._depth)
        gc = pixmap.create_gc()
        rows = max(1, self._max_request // (4 * width))
        for top in range(0, height, rows):
            strip = image[top : top + rows]
            data = zpixmap_bytes(strip, self._lsb_first)
            pixmap.put_image(gc, 0, top, width, strip.shape[0], X.ZPixmap, self._depth, 0, data)
        gc.free()
        if (width, height) != self._size:
            self.window.configure(width=width, height=height)
            self._size = (width, height)
        self.window.change_attributes(background_pixmap=pixmap)
        pixmap.free()  # the window keeps its background
        self.window.shape_rectangles(shape.SO.Set, shape.SK.Bounding, X.Unsorted, 0, 0, mask_rectangles(mask))
        self.window.clear_area(0, 0, 0, 0)
        self._shown = marks
