"""Has the game read the clicks sent to it? The window manager's ping, asked of the game itself.

The X server processes a click the moment it is sent; the game reads it only when it next runs.
On a loaded machine a game can go seconds without running (a 4 s stop of gnome-mines reproduces
"N click(s) did not register"), and a click that does not show yet is then not lost but unread:
clicking again would take a late flag off, and giving up stops a healthy session.

Window managers ask a client whether it keeps up with a ``_NET_WM_PING`` client message (EWMH);
the client sends it back to the root window when its event loop reads it.  A client reads its
events in the order the server sent them, so the answer means every click sent before the ping
has been read too.  Only clients that list ``_NET_WM_PING`` in ``WM_PROTOCOLS`` answer (GTK and
Qt games do; plain Xlib ones such as xdemineur do not): for those the answer is "cannot tell".
"""

from __future__ import annotations

import random
import select
import time

from autoplay.control.xserver import XConnection
from autoplay.errors import ControlError


class NoAnswer(ControlError):
    """The client did not answer the ping within the time allowed (frozen, hung, or starved of CPU)."""


class WindowGone(ControlError):
    """The window went away while its client was asked (the game died): no answer is coming."""


#: How often the wait for an answer asks the server whether the window is still there (a window destroyed before
#: the ping was sent reports nothing on the root).
LOOK_EVERY = 0.25


def ping(display: str | None, window_id: int, timeout: float) -> float | None:
    """Seconds until the client of ``window_id`` answered a ``_NET_WM_PING``; None if it takes no pings.

    Raises :class:`NoAnswer` after ``timeout`` seconds without an answer, and :class:`WindowGone` as soon as the
    window is destroyed or unmapped meanwhile: a game killed just after the ping was sent once held play for the
    whole 30 s and then stopped it as "frozen", where its window had closed.  A connection of its own,
    closed at once, listens on the root for the answer, so no other connection collects the root's
    structure events.
    """
    from Xlib import X
    from Xlib.error import XError
    from Xlib.protocol import event

    xconn = XConnection(display)
    try:
        conn = xconn.conn
        window = conn.create_resource_object("window", window_id)
        protocols_atom, ping_atom = conn.intern_atom("WM_PROTOCOLS"), conn.intern_atom("_NET_WM_PING")
        if ping_atom not in (window.get_wm_protocols() or []):
            return None
        # The answer is sent to the root with a mask of the client's choosing: GTK's includes
        # SubstructureNotify, Qt's StructureNotify (both add SubstructureRedirect, which only a window
        # manager may select), so both are listened for.
        xconn.root.change_attributes(event_mask=X.SubstructureNotifyMask | X.StructureNotifyMask)
        stamp = random.getrandbits(31) + 1  # our own mark, so another client's ping answer is not taken for ours
        message = event.ClientMessage(
            window=window, client_type=protocols_atom, data=(32, [ping_atom, stamp, window_id, 0, 0])
        )
        window.send_event(message, event_mask=0)  # mask 0: to the client that made the window
        conn.flush()
        started = last_look = time.monotonic()
        while True:
            while conn.pending_events():
                answer = conn.next_event()
                if answer.type in (X.DestroyNotify, X.UnmapNotify) and answer.window.id == window_id:
                    raise WindowGone("the window was closed")
                if answer.type == X.ClientMessage and answer.client_type == protocols_atom:
                    _format, data = answer.data
                    if data[0] == ping_atom and data[1] == stamp:
                        return time.monotonic() - started
            if time.monotonic() - last_look >= LOOK_EVERY:
                try:
                    window.get_geometry()
                except XError:  # BadDrawable: the window went before its DestroyNotify was read
                    raise WindowGone("the window was closed") from None
                last_look = time.monotonic()
            left = timeout - (time.monotonic() - started)
            if left <= 0:
                raise NoAnswer(f"the game did not answer for {timeout:.0f} s (frozen or hung?)")
            select.select([conn.fileno()], [], [], min(left, 0.05))
    finally:
        xconn.close()
