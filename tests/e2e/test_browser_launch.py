"""Browsers as launch targets, checked on real chromium and firefox-esr under Xvfb at two device scale factors.

A tiny page is served from this test (loopback, a free port): a body of one distinctive colour, a distinctive
title, and a box of fixed CSS size in a second colour.  What must hold: the X server has a mapped window with the
page's title, its pixels show the page's colour over most of it and the box at the size the scale makes it (so
the scale really applies), the window has the input focus, and once ``stop()`` returns no process of the
browser's group is left, nothing else runs on its private profile (chromium's crash handlers leave the group),
the profile is gone and so is the window.  Every check looks at the X server, the pixels or /proc, not at what
the launcher says about itself.
"""

from __future__ import annotations

import http.server
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from Xlib import display as xdisplay

from autoplay.control.capture import grab
from autoplay.control.games import launch_page
from autoplay.control.window import Window, list_windows
from autoplay.control.xserver import VirtualDisplay

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game

TITLE = "Autoplay Browser Check 7f3a"
#: The body's colour and the box's, as BGR (what grab returns).
BODY = (0x7A, 0x16, 0xC4)  # #c4167a
BOX = (0x00, 0xD4, 0xFF)  # #ffd400
BOX_CSS = (240, 120)  # the box's size in CSS pixels
PAGE = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{TITLE}</title>
<style>html, body {{ margin: 0; height: 100%; background: #c4167a; }}
#box {{ position: absolute; left: 60px; top: 60px; width: {BOX_CSS[0]}px; height: {BOX_CSS[1]}px;
background: #ffd400; }}</style></head>
<body><div id="box"></div></body></html>
""".encode()
#: The binary each browser needs and the Debian package that installs it (scripts/install.sh installs both).
BINARIES = {"chromium": ("chromium", "chromium"), "firefox": ("firefox-esr", "firefox-esr")}
WINDOW = (1100, 800)


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/mines.html"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    with VirtualDisplay(1280, 1024) as server:
        yield server.name


def _processes() -> dict[int, tuple[str, int, str]]:
    """Every process as pid -> (state, process group, command line), from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended while we looked
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (fields[0], int(fields[2]), cmdline)
    return found


def _profile_of(pid: int) -> Path:
    """The private profile folder, read from the browser's own command line."""
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    for i, arg in enumerate(argv):
        if arg.startswith("--user-data-dir="):
            return Path(arg.split("=", 1)[1])
        if arg == "--profile":
            return Path(argv[i + 1])
    raise AssertionError(f"no profile on the command line {argv}")


def _titled(display: str) -> list[Window]:
    return [w for w in list_windows(display) if any(TITLE in t for t in w.titles)]


def _focused(display: str) -> int:
    conn = xdisplay.Display(display)
    try:
        return int(conn.get_input_focus().focus.id)
    finally:
        conn.close()


def _box(frame: np.ndarray) -> tuple[int, int, int, int]:
    """Left, top, width and height of the pixels of the box's colour."""
    ys, xs = np.nonzero(np.all(np.abs(frame.astype(np.int16) - BOX) <= 3, axis=2))
    assert len(xs), "the box is nowhere in the window"
    return int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("browser", ["chromium", "firefox"])
def test_a_browser_shows_the_page_at_the_scale_asked_and_leaves_nothing_behind(
    browser, scale, page_url, display, tmp_path
):
    binary, package = BINARIES[browser]
    if shutil.which(binary) is None:
        pytest.fail(f"{binary} is not installed (Debian package: {package}; scripts/install.sh installs it)")
    started = time.monotonic()
    page = launch_page(browser, display, page_url, scale=scale, window=WINDOW)
    took = time.monotonic() - started
    pgid = page.process.pid
    try:
        profile = _profile_of(pgid)
        assert profile.is_dir()
        windows = _titled(display)
        assert len(windows) == 1, [w.titles for w in list_windows(display)]
        window = windows[0]
        assert abs(window.width - WINDOW[0]) <= 2 and abs(window.height - WINDOW[1]) <= 2, window.rect
        assert _focused(display) == window.id

        frame = grab(window.rect, display)
        cv2.imwrite(str(tmp_path / "window.png"), frame)  # what was checked, for a failure's report
        body = np.all(np.abs(frame.astype(np.int16) - BODY) <= 3, axis=2)
        # chromium's --app window is all page; firefox keeps ~85 px (times the scale) of tabs and address bar
        assert body.mean() > 0.75, f"only {body.mean():.0%} of the window shows the page's colour ({tmp_path})"
        assert body[-WINDOW[1] // 2 :].mean() > 0.97, "the lower half of the window is not the page"
        left, top, width, height = _box(frame)
        expected = (round(BOX_CSS[0] * scale), round(BOX_CSS[1] * scale))
        assert abs(width - expected[0]) <= 1 and abs(height - expected[1]) <= 1, ((width, height), expected)
        assert abs(left - round(60 * scale)) <= 1  # the page starts at the window's left edge
        print(f"{browser} at scale {scale:g}: ready in {took:.1f} s, box {width}x{height} at ({left},{top})")
    finally:
        page.stop()

    processes = _processes()  # at once: stop() returns only when they are gone
    group = {pid: p for pid, p in processes.items() if p[1] == pgid}
    on_profile = {pid: p for pid, p in processes.items() if str(profile) in p[2] and p[0] != "Z"}
    assert not group, f"processes of {browser}'s group left after stop(): {group}"
    assert not on_profile, f"processes still using {browser}'s profile after stop(): {on_profile}"
    assert not profile.exists() and not profile.parent.exists(), "the private profile was not removed"
    assert not _titled(display), "the page's window is still mapped"
