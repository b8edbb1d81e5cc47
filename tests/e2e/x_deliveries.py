"""Which client each button press was delivered to, by the X server's own account (run as a separate process).

``python x_deliveries.py record DISPLAY LOG``: through the X RECORD extension, logs every ButtonPress the
server delivers to a client (``{"ev": "delivered", "client": <resource base of the receiving client>,
"window": <event window>, "time": <server time>}``) and every press the devices made (``{"ev": "device",
...}``, XTEST's included), one JSON object per line, in the server's order.  A press made but delivered to no
client (the bare root) shows as a device press with no delivery of the same server time.

``python x_deliveries.py below DISPLAY LOG X Y W H``: a bystander, another program's window at that rectangle,
mapped at the bottom of the stack (under the game), logging every press the server delivers to it.

Both write ``{"ev": "ready"}`` once in place and run until terminated.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

from Xlib import X, display
from Xlib.ext import record

BYSTANDER_NAME = "bystander"


def write(path: str, lock: threading.Lock, **event: Any) -> None:
    with lock, open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(event) + "\n")


GENERIC_EVENT = 35
#: XInput 2's event type of a button press inside a GenericEvent.
XI_BUTTON_PRESS = 4


def _number(data: bytes, start: int) -> int:
    return int.from_bytes(data[start : start + 4], sys.byteorder)


def _presses(chunk: bytes) -> list[tuple[str, int, int]]:
    """``(kind, event window, server time)`` of each button press among the recorded events of ``chunk``."""
    found = []
    while len(chunk) >= 32:
        code = chunk[0] & 0x7F
        size = 32 + 4 * _number(chunk, 4) if code == GENERIC_EVENT else 32
        if code == X.ButtonPress:
            found.append(("core", _number(chunk, 12), _number(chunk, 4)))
        elif code == GENERIC_EVENT and int.from_bytes(chunk[8:10], sys.byteorder) == XI_BUTTON_PRESS:
            found.append(("xi2", _number(chunk, 22), _number(chunk, 10)))
        chunk = chunk[size:]
    return found


def run_record(name: str, path: str) -> None:
    control, data = display.Display(name), display.Display(name)
    lock = threading.Lock()
    empty = {
        "core_requests": (0, 0),
        "core_replies": (0, 0),
        "ext_requests": (0, 0, 0, 0),
        "ext_replies": (0, 0, 0, 0),
        "delivered_events": (0, 0),
        "device_events": (0, 0),
        "errors": (0, 0),
        "client_started": False,
        "client_died": False,
    }
    # GTK 3 takes its presses as XInput 2 events (GenericEvent), not core ones: both are recorded.
    ranges = [{**empty, "delivered_events": (X.ButtonPress, X.ButtonPress)}]
    ranges.append({**empty, "delivered_events": (GENERIC_EVENT, GENERIC_EVENT)})
    ranges.append({**empty, "device_events": (X.ButtonPress, X.ButtonPress)})
    context = control.record_create_context(0, [record.AllClients], ranges)
    control.sync()

    def on_data(reply: Any) -> None:
        # A device event is recorded once, with no client (resource base 0); a delivered one once per receiver.
        if reply.category != record.FromServer:
            return
        for kind, window, when in _presses(bytes(reply.data)):
            ev = "device" if reply.id_base == 0 else "delivered"
            write(path, lock, ev=ev, kind=kind, client=reply.id_base, window=window, time=when)

    threading.Thread(target=lambda: data.record_enable_context(context, on_data), daemon=True).start()
    time.sleep(0.3)  # the context is enabled once the data connection's request is processed
    write(path, lock, ev="ready")
    while True:
        time.sleep(1)


def run_below(name: str, path: str, x: int, y: int, width: int, height: int) -> None:
    conn = display.Display(name)
    screen = conn.screen()
    window = screen.root.create_window(
        x,
        y,
        width,
        height,
        0,
        screen.root_depth,
        X.InputOutput,
        X.CopyFromParent,
        background_pixel=screen.black_pixel,
        override_redirect=True,
        event_mask=X.ButtonPressMask,
    )
    window.set_wm_name(BYSTANDER_NAME)
    window.map()
    window.configure(stack_mode=X.Below)  # at the bottom: whatever lies under the game when it goes
    conn.sync()
    lock = threading.Lock()
    write(path, lock, ev="bystander", window=window.id, client=window.id & ~conn.display.info.resource_id_mask)
    write(path, lock, ev="ready")
    while True:
        event = conn.next_event()
        if event.type == X.ButtonPress:
            write(path, lock, ev="bystander_press", x=event.root_x, y=event.root_y, time=event.time)


def main() -> None:
    mode, name, path = sys.argv[1:4]
    if mode == "record":
        run_record(name, path)
    else:
        x, y, w, h = (int(v) for v in sys.argv[4:8])
        run_below(name, path, x, y, w, h)


if __name__ == "__main__":
    main()
