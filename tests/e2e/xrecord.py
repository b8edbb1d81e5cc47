"""The X server's own record of every button press, through the RECORD extension.

A test that checks clicks with this does not trust the bot's click counter: the
server reports each press it delivered, with its root coordinates, whoever
generated it (XTest from pyautogui included).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from Xlib import X
from Xlib import display as xdisplay
from Xlib.ext import record
from Xlib.protocol import rq


@dataclass(frozen=True)
class Press:
    x: int
    y: int
    button: int


class ButtonPresses:
    """``with ButtonPresses(display) as presses: ...``; ``presses.seen`` lists every press in order."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.seen: list[Press] = []
        self._ready = threading.Event()
        self._control = xdisplay.Display(display)
        self._data = xdisplay.Display(display)
        if not self._control.has_extension("RECORD"):
            raise RuntimeError(f"X server {display} has no RECORD extension")
        self._context = self._control.record_create_context(
            0,
            [record.AllClients],
            [
                {
                    "core_requests": (0, 0),
                    "core_replies": (0, 0),
                    "ext_requests": (0, 0, 0, 0),
                    "ext_replies": (0, 0, 0, 0),
                    "delivered_events": (0, 0),
                    "device_events": (X.ButtonPress, X.ButtonPress),
                    "errors": (0, 0),
                    "client_started": False,
                    "client_died": False,
                }
            ],
        )
        self._control.sync()  # the context must exist on the server before the other connection enables it
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self._data.record_enable_context(self._context, self._on_reply)
        self._data.close()

    def _on_reply(self, reply: rq.DictWrapper) -> None:
        if reply.category == record.StartOfData:
            self._ready.set()
        if reply.category != record.FromServer or reply.client_swapped or not len(reply.data):
            return
        data = reply.data
        while len(data):
            event, data = rq.EventField(None).parse_binary_value(data, self._data.display, None, None)
            if event.type == X.ButtonPress:
                self.seen.append(Press(event.root_x, event.root_y, event.detail))

    def __enter__(self) -> ButtonPresses:
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("the RECORD context did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self._control.record_disable_context(self._context)
        self._control.flush()
        self._thread.join(5)
        self._control.record_free_context(self._context)
        self._control.close()
