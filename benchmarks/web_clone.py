"""Serve the web Minesweeper in ``benchmarks/web_clone/`` and write the events its page posts, as a JSON-lines log.

Usage: python benchmarks/web_clone.py --port 0 --log FILE [--print-url]
       then open http://127.0.0.1:PORT/?look=SEED[&rows=16&cols=30&mines=99&first=zero|safe&deal=N&tile=PX&log=0]
       [&shift=N:DY&scroll=N:DY&zoom=N:Z&movewait=MS]

Why this exists: ``benchmarks/tk_clone.py`` tests autoplay on looks nobody tuned for, but only as a Tk window.  Real
clones are mostly web pages, and browsers bring what Tk does not: page zoom and device scale factors, fonts painted
by another engine, cascades drawn over several frames, fading tiles, a pressed look while the button is held, hover
highlights.  The page (``index.html`` + ``mines.js``) draws every visual choice and behaviour from the ``look`` seed,
plays plain Minesweeper, and posts every event to this server, which appends it to the log so a harness can audit
the bot against the truth, exactly as with the Tk clone.

Why a server at all, and only the standard library: a page opened from ``file://`` cannot write files, and the
browser must load the game over HTTP anyway for the window's class and title to be stable.  ``http.server`` is
enough for one local page and a few events a second; it binds 127.0.0.1 only, because nothing else should reach a
test game, and port 0 lets the system pick a free port so parallel runs never collide.

The log has one JSON object per line, flushed at once, in the order the requests arrived (the page sends one
event at a time, waiting for each answer, so arrival order is the page's order; each event also carries ``seq``):

    {"event": "new", "game": N, "rows": R, "cols": C, "mines": M, "look": SEED, "seq": K}
    {"event": "click", "game": N, "row": r, "col": c, "button": "left"|"right"|"middle", "t": SECONDS, "seq": K}
    {"event": "layout", "game": N, "rows": R, "cols": C, "mines": [flat indices r*cols+c, sorted], "seq": K}
    {"event": "end", "game": N, "result": "won"|"lost", "mines": [...], "opened": [...], "flags": [...],
     "exploded": INDEX|null, "seq": K}

With the page's own moves asked for (``shift``: a banner above the game grows by DY CSS px; ``scroll``: the page,
made taller than the window, scrolls itself by DY; ``zoom``: the game's CSS zoom becomes Z; each once N clicks were
logged and then no input came for ``movewait`` ms, default 250; N = 0: as the page opens), two more events come:

    {"event": "moved", "game": N, "kind": "shift"|"scroll"|"zoom", "value": V, "clicks": K, "scrollY": Y,
     "board": [left, top, width, height] (CSS px in the window, after the move), "viewport": [w, h], "seq": K}
    {"event": "stray", "game": N, "x": X, "y": Y, "button": ..., "seq": K}   (a press on no cell, not the button)

These are the fields of the Tk clone's log, so ``benchmarks/unseen_looks.py``'s reader understands both.  "layout"
comes once per game, right after the click that dealt the mines; "end" is posted before the page draws the end.
With ``--print-url`` (or always: the first stdout line) the server prints ``http://127.0.0.1:PORT/`` once it listens.
``serve(log, port)`` starts the same server in a daemon thread for tests.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import IO, Any

#: The folder with the page; served as the site root.
PAGE_DIR = Path(__file__).resolve().parent / "web_clone"
#: Loopback only: a test game must not be reachable from other machines.
HOST = "127.0.0.1"
#: An event is a few kB at most (the end event lists at most every cell); refuse anything far larger.
MAX_BODY = 1 << 20


class EventLog:
    """The JSON-lines file, shared by the handler threads: the lock keeps lines whole and in arrival order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.file: IO[str] | None = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def write(self, event: dict[str, Any]) -> None:
        """Append one event as one line and flush, so a harness tailing the file sees it at once."""
        line = json.dumps(event, separators=(", ", ": "))
        with self.lock:
            if self.file is not None:
                self.file.write(line + "\n")
                self.file.flush()

    def close(self) -> None:
        """Close the file once; later writes are dropped rather than raising in a handler thread."""
        with self.lock:
            if self.file is not None:
                self.file.close()
                self.file = None


class Handler(SimpleHTTPRequestHandler):
    """Static files from the page folder, plus ``POST /log``; quiet, and never cached so edits show at once."""

    event_log: EventLog  # set per server by make_handler

    def end_headers(self) -> None:
        """No caching: a test must always run the page as it is on disk now."""
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request lines on stderr; the event log is the record that matters."""

    def do_POST(self) -> None:
        """Accept one JSON object at /log and append it; anything else is a client error the page should not make."""
        if self.path.split("?", 1)[0] != "/log":
            self.send_error(HTTPStatus.NOT_FOUND, "only /log accepts POST")
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            self.send_error(HTTPStatus.BAD_REQUEST, "need a JSON body of 1 byte to 1 MiB")
            return
        body = self.rfile.read(length)
        try:
            event = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            self.send_error(HTTPStatus.BAD_REQUEST, "body is not JSON")
            return
        if not isinstance(event, dict):
            self.send_error(HTTPStatus.BAD_REQUEST, "an event is a JSON object")
            return
        self.event_log.write(event)
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Content-Length", "0")
        self.end_headers()


class CloneServer(ThreadingHTTPServer):
    """A threading server that owns its event log, so stopping the server also closes the file."""

    daemon_threads = True  # a browser holding a keep-alive connection must not block shutdown

    def __init__(self, port: int, handler: Any, event_log: EventLog) -> None:
        super().__init__((HOST, port), handler)
        self.event_log = event_log


def make_handler(event_log: EventLog) -> type[Handler]:
    """A handler class bound to one log, so several servers in one process (tests) never share a file."""
    return type("BoundHandler", (Handler,), {"event_log": event_log})


def make_server(log: Path, port: int = 0) -> tuple[CloneServer, str]:
    """Bind the server on loopback (port 0: any free port) without serving yet; return it and its base URL."""
    event_log = EventLog(log)
    handler = partial(make_handler(event_log), directory=str(PAGE_DIR))
    server = CloneServer(port, handler, event_log)
    return server, f"http://{HOST}:{server.server_address[1]}/"


def serve(log: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start the server in a daemon thread (for tests in-process); stop it with ``stop(server)``."""
    server, url = make_server(log, port)
    threading.Thread(target=server.serve_forever, name="web-clone", daemon=True).start()
    return server, url


def stop(server: ThreadingHTTPServer) -> None:
    """Stop serving, free the port and close the log."""
    server.shutdown()
    server.server_close()
    if isinstance(server, CloneServer):
        server.event_log.close()


def log_settled(log: Path, quiet: float = 1.0, timeout: float = 10.0) -> None:
    """Wait until ``log`` has not grown for ``quiet`` seconds (at most ``timeout``): the page posts its events one
    by one, each after the one before, so a browser closed as soon as play ends loses the last ones (a loaded test
    run lost the 11 presses of play's last batch, and the stop they warranted looked unwarranted)."""
    size, still_since, deadline = -1, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = log.stat().st_size if log.is_file() else 0
        if now != size:
            size, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= quiet:
            return
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    """Serve until SIGTERM or Ctrl-C; print the URL first so a harness can read it from the pipe."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    p.add_argument("--log", type=Path, required=True, help="append the page's events here as JSON lines")
    p.add_argument("--print-url", action="store_true", help="print the base URL (it is printed anyway)")
    args = p.parse_args(argv)
    server, url = make_server(args.log, args.port)

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        # shutdown() waits for serve_forever to return, so it must run outside the thread that serves.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    print(url, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        server.event_log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
