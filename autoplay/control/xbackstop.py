"""Autoplay's own input-only window just below the game's: a press whose game died lands on it, not on another program.

The server grab of :mod:`autoplay.control.xguard` keeps every other client's
requests out between the check and the press, but not a client's death: a game
killed at that moment has its windows destroyed by the server while the grab
holds, and the press that follows would land on whatever lies below the game.
So, for the whole of play, autoplay keeps a window of its own there: an
InputOnly window (it draws nothing, so neither the screen nor what autoplay
reads changes), override-redirect (no window manager frames or moves it),
covering the board and stacked directly below the game's own window, as its
sibling: a child of the root without a window manager, a child of the
manager's frame with one (the frame outlives a dead game until the grab ends,
so a backstop under the frame would be hidden by it).  Its place is checked and
mended inside every grab, before the press, so nothing can come between the
two windows when the press is made.  A press landing on it
is read back after each click and stops play with exit code 4.

Closing autoplay's connection (also on Ctrl-C or a crash: the X server frees a
dead client's windows) takes the window away.
"""

from __future__ import annotations

import contextlib
from typing import Any

from autoplay.control.guard import Rect
from autoplay.control.xserver import XConnection

#: The window's WM_NAME, so a test (or a puzzled user with xwininfo) can tell it is autoplay's.
BACKSTOP_NAME = "autoplay-backstop"


class Backstop:
    """One input-only window kept under the game's top-level window, over the board, on the guard's connection."""

    def __init__(self, xconn: XConnection) -> None:
        self.x = xconn
        self._window: Any = None  # python-xlib's Window, created at the first placement
        self._parent: int | None = None
        self._rect: Rect | None = None

    @property
    def id(self) -> int | None:
        """The window's X id, or None before the first placement (and after :meth:`remove`)."""
        return None if self._window is None else int(self._window.id)

    def place(self, parent: Any, game: int, just_below_game: int | None, board: Rect) -> bool:
        """Cover ``board`` (in ``parent``'s pixels) directly below ``game``, a child of ``parent``.

        ``just_below_game`` is the sibling the caller found directly below ``game`` in the stacking order
        (None when ``game`` is the lowest): when it is the backstop already, no restacking is needed.  Only what
        changed is sent; True when something was.  Requests only: the caller syncs and reads the errors (a
        ``game`` that is gone gives BadWindow or BadMatch).
        """
        from Xlib import X

        x, y, width, height = board
        if self._window is not None and self._parent != int(parent.id):  # the game was reparented: start afresh
            self.remove()
        if self._window is None:
            self._parent = int(parent.id)
            self._window = parent.create_window(
                x,
                y,
                max(width, 1),
                max(height, 1),
                0,
                0,
                X.InputOnly,
                X.CopyFromParent,
                override_redirect=True,
                event_mask=X.ButtonPressMask | X.ButtonReleaseMask,  # absorbed here, never passed on to the root
            )
            self._window.set_wm_name(BACKSTOP_NAME)
            self._window.configure(sibling=game, stack_mode=X.Below)
            self._window.map()
            self._rect = board
            return True
        sent = False
        if board != self._rect:
            self._window.configure(x=x, y=y, width=max(width, 1), height=max(height, 1))
            self._rect, sent = board, True
        if just_below_game != self._window.id:
            self._window.configure(sibling=game, stack_mode=X.Below)
            sent = True
        return sent

    def struck(self) -> bool:
        """Has a button press landed on the backstop since last asked?  Reads only events already received.

        Called after a click's requests were answered (synced), so a press the server delivered to the
        backstop is already queued on the connection.  The guard's connection selects no other events.
        """
        from Xlib import X

        if self._window is None:
            return False
        conn, hit = self.x.conn, False
        while conn.pending_events():
            event = conn.next_event()
            if event.type == X.ButtonPress and int(event.window.id) == self._window.id:
                hit = True
        return hit

    def remove(self) -> None:
        """Destroy the window (the connection's close would too); safe to call twice and on a dead server."""
        window, self._window, self._parent = self._window, None, None
        if window is None or self.x.conn is None:
            return
        with contextlib.suppress(Exception):
            window.destroy()
            self.x.sync_errors()
