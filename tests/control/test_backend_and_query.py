"""Choosing the window backend, matching windows to what the user named, and the window-library adapter.

The adapter is driven by a stand-in library with pywinctl's interface: no real
Windows or macOS window has been found with it (none is available here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from autoplay.control import backend
from autoplay.control.backend import choose_backend
from autoplay.control.library_windows import find_library_window, load_library
from autoplay.control.window import WindowGoneError, WindowMovedError
from autoplay.control.window_query import AmbiguousWindowError, NoWindowError, WindowFacts, WindowQuery, pick_one
from autoplay.errors import ControlError, UsageError

ROOT = Path(__file__).resolve().parents[2]

#: Makes ``import Xlib`` fail in a child process, as on a machine without python-xlib.
BLOCK_XLIB = """
import sys
class NoXlib:
    def find_spec(self, name, path=None, target=None):
        if name == "Xlib" or name.startswith("Xlib."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, NoXlib())
from autoplay.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def facts(ident: str, classes=(), titles=(), pid=None) -> WindowFacts:
    return WindowFacts(ident, (0, 0, 100, 80), tuple(classes), tuple(titles), pid)


def test_query_matches_class_parts_title_substrings_and_pid():
    xdemineur = facts("0x1", ("/usr/games/xdemineur", "Xdemineur"), ("xdemineur",), 7)
    assert WindowQuery(wm_class="xdemineur").matches(xdemineur)  # argv[0]'s base name
    assert WindowQuery(wm_class="XDEMINEUR", title="Demin", pid=7).matches(xdemineur)
    assert not WindowQuery(wm_class="xdemi").matches(xdemineur)  # the class is exact, the title is not
    assert not WindowQuery(title="mines", pid=8).matches(xdemineur)
    assert WindowQuery(wm_class="winmine").matches(facts("#0", ("WINMINE.EXE",)))
    assert WindowQuery(title="new").matches(facts("0x2", (), ("old", "brand new")))
    assert not WindowQuery()


def test_pick_one_explains_none_and_several_in_one_line():
    windows = [facts("0x1", ("a",), ("Mines",), 10), facts("0x2", (), ("Mines 2",)), facts("0x3", ("b",), ())]
    assert pick_one(WindowQuery(pid=10), windows, "display :9").ident == "0x1"
    with pytest.raises(AmbiguousWindowError) as several:
        pick_one(WindowQuery(title="mines"), windows, "display :9")
    assert [w.ident for w in several.value.matches] == ["0x1", "0x2"]
    with pytest.raises(NoWindowError) as none:
        pick_one(WindowQuery(pid=11), windows, "display :9", "no X-Resource")
    text = str(none.value)
    assert "\n" not in text and "(no X-Resource)" in text
    assert "0x2 'Mines 2' (no class, pid ?)" in text and "0x3 (no title) (class b, pid ?)" in text
    with pytest.raises(NoWindowError, match="pass --window-class, --window-title or --pid"):
        pick_one(WindowQuery(), windows, "display :9")


def test_candidate_lists_are_cut_short():
    many = [facts(f"0x{i}", titles=(f"w{i}",)) for i in range(20)]
    with pytest.raises(NoWindowError, match=r"and 12 more$"):
        pick_one(WindowQuery(title="zzz"), many, "display :9")


@pytest.mark.parametrize(
    "requested,display,platform,xlib,expected",
    [
        ("auto", ":1", "linux", True, "x11"),
        ("auto", ":1", "linux", False, "portable"),
        ("portable", ":1", "linux", True, "portable"),
        ("x11", ":1", "linux", True, "x11"),
        ("auto", None, "win32", False, "portable"),
        ("auto", None, "darwin", True, "portable"),
    ],
)
def test_backend_choice(monkeypatch, requested, display, platform, xlib, expected):
    monkeypatch.setattr(backend.sys, "platform", platform)
    monkeypatch.setattr(backend, "xlib_missing", lambda: None if xlib else "python-xlib is not installed")
    choice = choose_backend(requested, display)
    assert choice.name == expected
    assert (choice.note is not None) == (requested == "auto" and platform == "linux" and not xlib)


@pytest.mark.parametrize(
    "requested,display,xlib,message",
    [
        ("x11", None, True, "the x11 backend needs an X display"),
        ("x11", ":1", False, "the x11 backend needs python-xlib"),
        ("auto", None, True, "no X display"),
        ("portable", None, True, "no X display"),
    ],
)
def test_backend_that_cannot_run_is_a_control_error(monkeypatch, requested, display, xlib, message):
    monkeypatch.setattr(backend.sys, "platform", "linux")
    monkeypatch.setattr(backend, "xlib_missing", lambda: None if xlib else "python-xlib is not installed")
    with pytest.raises(ControlError, match=message):
        choose_backend(requested, display)
    with pytest.raises(UsageError):
        choose_backend("wayland", ":1")


class StandInWindow:
    """pywinctl's window interface, enough for the adapter."""

    def __init__(self, title, box, app="", pid=None):
        self.title = title
        self.left, self.top, self.width, self.height = box
        self.app, self.pid = app, pid
        self.isAlive = True
        self.activated = 0

    def getAppName(self):
        return self.app

    def getPID(self):
        return self.pid

    def activate(self):
        self.activated += 1


def stand_in_library(*windows):
    library = types.ModuleType("pywinctl")
    library.getAllWindows = lambda: list(windows)
    return library


def test_library_window_is_found_scaled_watched_and_activated():
    game = StandInWindow("Minesweeper", (100, 50, 400, 300), "MineSweeper.exe", 4242)
    library = stand_in_library(StandInWindow("Editor", (0, 0, 800, 600), "notepad.exe", 1), game)
    # HiDPI: the pointer's coordinates are half the captured pixels
    found = find_library_window(WindowQuery(wm_class="minesweeper"), (0.5, 0.5), library)
    assert found is not None and found.rect == (200, 100, 800, 600) and found.facts.pid == 4242
    found.focus()
    assert game.activated == 1
    found.refresh()  # unchanged
    game.left = 120
    with pytest.raises(WindowMovedError):
        found.refresh()
    game.isAlive = False
    with pytest.raises(WindowGoneError):
        found.refresh()


def test_library_errors_and_absence():
    library = stand_in_library(StandInWindow("Mines A", (0, 0, 10, 10)), StandInWindow("Mines B", (5, 5, 10, 10)))
    with pytest.raises(AmbiguousWindowError, match="2 windows with title containing 'mines' on the screen"):
        find_library_window(WindowQuery(title="mines"), (1.0, 1.0), library)
    with pytest.raises(NoWindowError, match="pywinctl gives no pid"):
        find_library_window(WindowQuery(pid=5), (1.0, 1.0), library)
    assert find_library_window(WindowQuery(title="x"), (1.0, 1.0), stand_in_library()) is None  # lists nothing
    assert load_library(["no_such_window_library_here"]) is None


def run_without_xlib(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISPLAY": ":99999"}
    return subprocess.run(
        [sys.executable, "-c", BLOCK_XLIB, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["play", "--skin", "gnome-mines", "--backend", "x11"], "the x11 backend needs python-xlib"),
        (["calibrate", "--live", "--name", "x", "--backend", "x11", "--window-class", "x"], "needs python-xlib"),
        (["play", "--skin", "gnome-mines"], ""),  # auto: falls back to portable, then fails in one line
    ],
)
def test_without_python_xlib_every_failure_is_one_line(args, message):
    proc = run_without_xlib(*args)
    lines = [line for line in proc.stderr.strip().splitlines() if not line.startswith("autoplay: note: ")]
    assert proc.returncode == 4, proc.stderr
    assert len(lines) == 1 and "Traceback" not in proc.stderr and message in lines[0], proc.stderr


def test_without_a_display_play_says_so_in_one_line():
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"} | {"PYTHONPATH": str(ROOT)}
    for backend_name in ("auto", "x11", "portable"):
        proc = subprocess.run(
            [sys.executable, "-m", "autoplay", "play", "--skin", "gnome-mines", "--backend", backend_name],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 4 and proc.stderr.count("\n") == 1 and "no X display" in proc.stderr, proc.stderr


def test_decode_needs_no_python_xlib():
    shot = ROOT / "tests" / "fixtures" / "gnome-mines" / "expert_open"
    proc = run_without_xlib("decode", str(shot.with_suffix(".png")), "--skin", "gnome-mines")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shot.with_suffix(".txt").read_text()
