"""A window's own pixels, whatever lies over it: the Composite extension's copy of the window.

``watch --overlay`` draws marks over the board, and a screen grab there would read the marks as tiles.  The X
server's Composite extension can keep a window's contents in an off-screen pixmap of its own (automatic
redirection: the server still paints the screen from it, so nothing on the screen changes) and name that pixmap
for a client.  A GetImage from the pixmap holds the game's drawing only: no window above it, the overlay included,
is in it.  The same frame that a screen grab gives with nothing over the board, pixel for pixel.

The redirection belongs to this module's connection: the server drops it when the connection closes, so the game
is left as it was found.  Without Composite there is no way to read under the overlay, and opening fails with
:class:`NoCompositeError` rather than falling back to the screen.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from autoplay.control.window import WindowGoneError, _open_display
from autoplay.errors import ControlError


class NoCompositeError(ControlError):
    """The X server has no Composite extension: a window's own pixels cannot be read apart from the screen's."""


def bgr_from_zpixmap(data: bytes, width: int, height: int, bits_per_pixel: int, lsb_first: bool) -> np.ndarray:
    """A ZPixmap image of 32 bits per pixel (depth 24 or 32) as a contiguous BGR ``uint8`` array.

    >>> bgr_from_zpixmap(bytes([1, 2, 3, 0, 4, 5, 6, 0]), 2, 1, 32, True).tolist()
    [[[1, 2, 3], [4, 5, 6]]]
    >>> bgr_from_zpixmap(bytes([0, 3, 2, 1]), 1, 1, 32, False).tolist()
    [[[1, 2, 3]]]
    """
    if bits_per_pixel != 32:
        raise ControlError(f"reading a window's own pixels needs 32 bits per pixel, the display has {bits_per_pixel}")
    if len(data) < width * height * 4:
        raise ControlError(f"the window's image came back short ({len(data)} bytes for {width}x{height})")
    pixels = np.frombuffer(data, np.uint8, count=width * height * 4).reshape(height, width, 4)
    if lsb_first:
        import cv2

        return cv2.cvtColor(pixels, cv2.COLOR_BGRA2BGR)  # as capture.grab: far faster than a strided numpy copy
    return np.ascontiguousarray(pixels[:, :, :0:-1])


class WindowPixels:
    """One window's contents read from its Composite pixmap on a connection of its own (see the module docstring).

    ``grab`` is called from one thread at a time (watch's loop); the connection is this object's alone.
    """

    def __init__(self, conn: Any, window_id: int) -> None:
        self._conn = conn
        self._window = conn.create_resource_object("window", window_id)
        info = conn.display.info
        self._lsb_first = info.image_byte_order == 0  # X.LSBFirst
        self._bits: dict[int, int] = {f.depth: f.bits_per_pixel for f in info.pixmap_formats}

    @classmethod
    def open(cls, display: str | None, window_id: int) -> WindowPixels:
        """Redirect ``window_id`` (automatic: the screen looks the same) and get ready to read its pixmap.

        :class:`NoCompositeError` when the server has no Composite extension; :class:`WindowGoneError` when the
        window is no longer there.
        """
        from Xlib.error import XError

        conn = _open_display(display)
        try:
            if not conn.has_extension("Composite"):
                raise NoCompositeError(
                    f"--overlay needs the X server's Composite extension, which {display or '$DISPLAY'} lacks: "
                    "without it watch would read the overlay's marks as tiles"
                )
            from Xlib.ext import composite

            pixels = cls(conn, window_id)
            pixels._window.composite_redirect_window(composite.RedirectAutomatic)
            pixels.grab()  # a window that cannot be read fails here, before anything is drawn over it
        except XError as exc:
            conn.close()
            raise WindowGoneError(f"window {hex(window_id)} cannot be read: {exc}") from None
        except BaseException:
            conn.close()
            raise
        return pixels

    def grab(self) -> np.ndarray:
        """The window's pixels now, inside its border, as a BGR array the size of the window.

        The pixmap is named afresh each time: a window that is resized or mapped again gets a new one.
        """
        from Xlib import X
        from Xlib.error import CatchError, XError

        caught = CatchError()
        try:
            geometry = self._window.get_geometry()
            pixmap = self._window.composite_name_window_pixmap(onerror=caught)
            try:
                border = geometry.border_width
                image = pixmap.get_image(border, border, geometry.width, geometry.height, X.ZPixmap, 0xFFFFFFFF)
            finally:
                pixmap.free(onerror=caught)
        except XError as exc:
            raise WindowGoneError(f"the game's window cannot be read any more: {caught.get_error() or exc}") from None
        bits = self._bits.get(image.depth, 0)
        return bgr_from_zpixmap(image.data, geometry.width, geometry.height, bits, self._lsb_first)

    def close(self) -> None:
        """Close the connection; the server ends the redirection with it."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
