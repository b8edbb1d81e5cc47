"""Finding windows by class, title substring and pid, on real X windows made with python-xlib under Xvfb.

The windows carry exactly the properties each case needs (WM_CLASS or none,
WM_NAME and/or _NET_WM_NAME, _NET_WM_PID or none), so the finder is tested
against what real clones do, including the ones the old finder skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from Xlib import X, Xatom
from Xlib import display as xdisplay

from autoplay.control.window import find_window, list_windows
from autoplay.control.window_query import AmbiguousWindowError, NoWindowError
from autoplay.control.xserver import VirtualDisplay

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]

#: A child process that maps a window with a WM_NAME only (no WM_CLASS, no _NET_WM_PID) and waits.
BARE_WINDOW_SCRIPT = """
import sys, time
from Xlib import X, display
d = display.Display(sys.argv[1])
s = d.screen()
w = s.root.create_window(300, 200, 120, 90, 0, s.root_depth, X.InputOutput, X.CopyFromParent,
                         background_pixel=s.white_pixel)
w.set_wm_name(sys.argv[2])
w.map()
d.sync()
print("mapped", flush=True)
time.sleep(60)
"""


class Maker:
    """Maps windows on a display with just the properties a test asks for."""

    def __init__(self, name: str) -> None:
        self.conn = xdisplay.Display(name)
        self.screen = self.conn.screen()

    def window(
        self,
        x: int = 10,
        y: int = 10,
        size: tuple[int, int] = (200, 150),
        wm_class: tuple[str, str] | None = None,
        wm_name: str | None = None,
        net_name: str | None = None,
        pid: int | None = None,
    ) -> int:
        root = self.screen.root
        win = root.create_window(
            x, y, *size, 0, self.screen.root_depth, X.InputOutput, X.CopyFromParent,
            background_pixel=self.screen.white_pixel,
        )  # fmt: skip
        if wm_class:
            win.set_wm_class(*wm_class)
        if wm_name is not None:
            win.set_wm_name(wm_name)
        if net_name is not None:
            utf8 = self.conn.intern_atom("UTF8_STRING")
            win.change_property(self.conn.intern_atom("_NET_WM_NAME"), utf8, 8, net_name.encode())
        if pid is not None:
            win.change_property(self.conn.intern_atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [pid])
        win.map()
        self.conn.sync()
        return win.id

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Maker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def display() -> Iterator[str]:
    with VirtualDisplay(800, 600) as server:
        yield server.name


@pytest.fixture
def maker(display: str) -> Iterator[Maker]:
    made = Maker(display)
    yield made
    made.close()


def test_a_window_without_wm_class_is_listed_and_found_by_a_title_substring(display, maker):
    bare = maker.window(wm_name="Mines - Expert")
    maker.window(wm_class=("other", "Other"), wm_name="Editor")
    assert bare in [w.id for w in list_windows(display)]
    found = find_window(display, title="mines - exp")  # any case, part of the title
    assert found.id == bare and found.wm_class == () and found.rect == (10, 10, 200, 150)


def test_net_wm_name_alone_is_a_title_and_either_title_matches(display, maker):
    net_only = maker.window(net_name="Démineur ✓")
    both = maker.window(x=300, wm_name="legacy name", net_name="modern name")
    assert find_window(display, title="démineur").id == net_only
    assert find_window(display, title="legacy").id == both
    assert find_window(display, title="modern").id == both


def test_class_and_title_must_both_hold(display, maker):
    maker.window(wm_class=("mines", "Mines"), wm_name="Mines A")
    wanted = maker.window(x=300, wm_class=("mines", "Mines"), wm_name="Mines B")
    maker.window(x=500, wm_class=("other", "Other"), wm_name="Mines B")
    assert find_window(display, wm_class="Mines", title="B").id == wanted


def test_pid_from_net_wm_pid(display, maker):
    maker.window(wm_class=("game", "Game"), pid=424242)
    wanted = maker.window(x=300, wm_class=("game", "Game"), pid=515151)
    found = find_window(display, pid=515151)
    assert found.id == wanted and found.pid == 515151


def test_pid_without_net_wm_pid_comes_from_the_x_server(display, maker):
    """A window of another process that sets no _NET_WM_PID: the X-Resource extension names its client's pid."""
    maker.window(wm_name="decoy")  # ours: its pid is this test's
    env = {**os.environ, "DISPLAY": display}
    child = subprocess.Popen(
        [sys.executable, "-c", BARE_WINDOW_SCRIPT, display, "bare child"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "mapped"
        found = find_window(display, pid=child.pid)
        assert found.titles == ("bare child",) and found.pid == child.pid
        assert find_window(display, title="decoy").pid == os.getpid()
    finally:
        child.kill()
        child.wait()


def test_no_match_is_one_line_naming_the_candidates(display, maker):
    maker.window(wm_class=("gnome-mines", "Gnome-mines"), wm_name="Mines", pid=1234)
    maker.window(x=300, net_name="Minesweeper Clone")
    with pytest.raises(NoWindowError) as caught:
        find_window(display, title="kmines")
    message = str(caught.value)
    assert "\n" not in message
    assert "title containing 'kmines'" in message
    assert "'Mines' (class gnome-mines, pid 1234)" in message and "'Minesweeper Clone' (no class" in message


def test_several_matches_are_an_error_naming_each(display, maker):
    maker.window(wm_name="Mines one")
    maker.window(x=300, wm_name="Mines two")
    started = time.monotonic()
    with pytest.raises(AmbiguousWindowError) as caught:
        find_window(display, title="mines", timeout=0.3)
    assert time.monotonic() - started >= 0.3  # a launching game gets its time before the verdict
    message = str(caught.value)
    assert "\n" not in message and message.startswith("2 windows with title containing 'mines'")
    assert "'Mines one'" in message and "'Mines two'" in message and "--pid" in message


def test_an_unmapped_or_unnamed_window_is_not_a_candidate(display, maker):
    named = maker.window(wm_name="shown")
    maker.window(x=300)  # mapped, but nothing names it
    assert [w.id for w in list_windows(display)] == [named]


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--skin", "xdemineur"],
        ["calibrate", "--live", "--name", "never-written", "--out-root", "{tmp}"],
    ],
)
def test_every_window_command_takes_the_same_options_and_fails_in_one_line(display, maker, tmp_path, command):
    maker.window(wm_name="Mines one")
    maker.window(x=300, wm_name="Mines two")
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)}
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command]
    for options, expected in [
        (["--window-title", "MINES"], "2 windows with title containing 'MINES'"),
        (["--title", "one", "--window-class", "nope"], "no window with class 'nope' and title containing 'one'"),
        (["--pid", "999999"], "no window with pid 999999"),
    ]:
        proc = subprocess.run(
            [sys.executable, "-m", "autoplay", *argv, "--display", display, "--backend", "x11", *options],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 4, proc.stderr
        assert len(lines) == 1 and expected in lines[0], proc.stderr


def test_several_matches_are_settled_by_the_one_that_shows_the_skins_board(display, maker, tmp_path):
    """Two windows titled like the game: `play` picks the one whose pixels hold the skin's board (dry run)."""
    from autoplay.control.games import launch_game

    with launch_game("xdemineur", display, preset="expert", workdir=tmp_path / "game") as game:
        maker.window(x=700, y=500, size=(90, 80), wm_name="Mineur notes")  # a decoy, off the board
        assert "mineur" in game.window.title.lower()  # its title is "xdémineur"
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)}
        base = [sys.executable, "-m", "autoplay", "play", "--skin", "xdemineur", "--display", display]
        options = ["--window-title", "MINEUR", "--dry-run", "--mines", str(game.mines)]
        proc = subprocess.run(base + options, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("next: ")
