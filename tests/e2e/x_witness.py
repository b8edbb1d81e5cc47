"""The X server's own account of where button presses went, for the fault tests (run as a separate process).

``python x_witness.py record DISPLAY LOG``: records, through the X RECORD
extension, every button press the server processes (root coordinates, in
server order) together with every top-level window's map, unmap, move and
destroy, one JSON object per line.  The order of that stream is the server's,
so each press can be placed against the game window's position at that moment.

``python x_witness.py inputs DISPLAY LOG``: records, through RECORD, every request
by which a client can send or steer input — XTEST's (fake presses, keys and
motion), SendEvent, WarpPointer, SetInputFocus and the pointer and keyboard
grabs — each with the resource base of the client that sent it (``client``)
and that client's process id (``pid``, asked of the X-Resource extension when
the request is recorded, since a client's resource base is reused once it
disconnects; None when the client is already gone), so a test can tell whose
they were (``autoplay watch`` must send none).

``python x_witness.py cover DISPLAY LOG X Y W H [--focus]``: maps a window
named ``press-witness`` at that rectangle, above everything, and logs every
ButtonPress the server delivers to it; ``--focus`` also takes the keyboard
focus (which pauses gnome-mines).  Both modes write ``{"ev": "ready"}`` once
they are in place and run until terminated.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from typing import Any

from Xlib import X, display
from Xlib.ext import record, res
from Xlib.protocol import rq

COVER_NAME = "press-witness"


class Log:
    """Appends JSON lines from several threads, flushed at once so a killed witness loses nothing."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
        self._lock = threading.Lock()

    def write(self, **event: Any) -> None:
        with self._lock:
            self._file.write(json.dumps(event) + "\n")
            self._file.flush()


def run_record(name: str, log: Log) -> None:
    control, data = display.Display(name), display.Display(name)
    # Structure events of top-level windows reach a client only if one selected them on the root.
    control.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
    context = control.record_create_context(
        0,
        [record.AllClients],
        [
            {
                "core_requests": (0, 0),
                "core_replies": (0, 0),
                "ext_requests": (0, 0, 0, 0),
                "ext_replies": (0, 0, 0, 0),
                "delivered_events": (X.DestroyNotify, X.ConfigureNotify),
                "device_events": (X.ButtonPress, X.ButtonPress),
                "errors": (0, 0),
                "client_started": False,
                "client_died": False,
            }
        ],
    )
    control.sync()
    names = {"MapNotify": "map", "UnmapNotify": "unmap", "DestroyNotify": "destroy"}

    def on_data(reply: Any) -> None:
        # A structure event is recorded once per client it is delivered to; replaying duplicates changes nothing.
        if reply.category != record.FromServer or reply.client_swapped:
            return
        chunk = reply.data
        while chunk:
            event, chunk = rq.EventField(None).parse_binary_value(chunk, data.display, None, None)
            kind = type(event).__name__
            if kind == "ButtonPress":
                log.write(ev="press", x=event.root_x, y=event.root_y, button=event.detail, time=event.time)
            elif kind == "ConfigureNotify":
                w = event.window.id
                log.write(ev="configure", window=w, x=event.x, y=event.y, w=event.width, h=event.height)
            elif kind in names:
                log.write(ev=names[kind], window=event.window.id)

    threading.Thread(target=lambda: data.record_enable_context(context, on_data), daemon=True).start()
    time.sleep(0.3)  # the context is enabled once the data connection's request is processed
    log.write(ev="ready")
    while True:
        time.sleep(1)


#: Core requests that send or steer input: SendEvent to UngrabKey (25-34, the grabs among them), WarpPointer and
#: SetInputFocus (41-42).
INPUT_CORE = {25: "SendEvent", 26: "GrabPointer", 27: "UngrabPointer", 28: "GrabButton", 29: "UngrabButton"}
INPUT_CORE |= {30: "ChangeActivePointerGrab", 31: "GrabKeyboard", 32: "UngrabKeyboard", 33: "GrabKey", 34: "UngrabKey"}
INPUT_CORE |= {41: "WarpPointer", 42: "SetInputFocus"}


def _requests(chunk: bytes) -> list[tuple[int, int]]:
    """``(major, minor)`` of each request in a recorded chunk (the client's byte order is the server's here)."""
    found = []
    while len(chunk) >= 4:
        size = int.from_bytes(chunk[2:4], "little") * 4
        if size == 0 and len(chunk) >= 8:  # BIG-REQUESTS: the length follows in 32 bits
            size = int.from_bytes(chunk[4:8], "little") * 4
        found.append((chunk[0], chunk[1]))
        if size <= 0:
            break
        chunk = chunk[size:]
    return found


def run_inputs(name: str, log: Log) -> None:
    control, data = display.Display(name), display.Display(name)
    xtest = control.query_extension("XTEST")
    if xtest is None:
        raise SystemExit(f"X server {name} has no XTEST extension")
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
    ranges = [
        {**empty, "core_requests": (25, 34)},
        {**empty, "core_requests": (41, 42)},
        {**empty, "ext_requests": (xtest.major_opcode, xtest.major_opcode, 0, 255)},
    ]
    context = control.record_create_context(0, [record.AllClients], ranges)
    control.sync()
    asker = display.Display(name)  # used by the recording thread only

    def pid_of(client: int) -> int | None:
        try:
            reply = asker.res_query_client_ids([{"client": client, "mask": res.LocalClientPIDMask}])
        except Exception:
            return None
        pids = [e.value[0] for e in reply.ids if e.spec.mask == res.LocalClientPIDMask and len(e.value)]
        return int(pids[0]) if pids else None

    def on_data(reply: Any) -> None:
        if reply.category != record.FromClient:
            return
        pid = pid_of(reply.id_base)
        for major, minor in _requests(bytes(reply.data)):
            if major == xtest.major_opcode:
                request = f"XTEST:{minor}"
            else:
                request = INPUT_CORE.get(major, str(major))
            log.write(ev="input", client=reply.id_base, pid=pid, request=request)

    threading.Thread(target=lambda: data.record_enable_context(context, on_data), daemon=True).start()
    time.sleep(0.3)  # the context is enabled once the data connection's request is processed
    log.write(ev="ready")
    while True:
        time.sleep(1)


def run_cover(name: str, log: Log, x: int, y: int, width: int, height: int, focus: bool) -> None:
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
        background_pixel=screen.white_pixel,
        override_redirect=True,
        event_mask=X.ButtonPressMask | X.ExposureMask,
    )
    window.set_wm_name(COVER_NAME)
    window.set_wm_class(COVER_NAME, "PressWitness")
    window.map()
    window.configure(stack_mode=X.Above)
    if focus:
        window.set_input_focus(X.RevertToParent, X.CurrentTime)
    conn.sync()
    log.write(ev="cover", window=window.id, x=x, y=y, w=width, h=height)
    log.write(ev="ready")
    while True:
        event = conn.next_event()
        if event.type == X.ButtonPress:
            log.write(ev="cover_press", x=event.root_x, y=event.root_y, button=event.detail)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    mode, name, path = sys.argv[1:4]
    log = Log(path)
    if mode == "record":
        run_record(name, log)
    elif mode == "inputs":
        run_inputs(name, log)
    else:
        x, y, w, h = (int(v) for v in sys.argv[4:8])
        run_cover(name, log, x, y, w, h, "--focus" in sys.argv[8:])


if __name__ == "__main__":
    main()
