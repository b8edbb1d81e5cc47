"""The portable backend, forced on Linux: real gnome-mines found on the whole Xvfb screen and played to the end.

``AUTOPLAY_BACKEND=portable`` switches the X11 window backend off; to prove it
is not used behind our back, the CLI runs with autoplay's X11 window functions
replaced by ones that abort.  Where the clicks landed comes from the X server's
RECORD extension, not from the bot; the result of the last game from the
game's own window, read after the session.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autoplay.control.capture import grab
from autoplay.control.games import launch_game
from autoplay.control.window_query import WindowQuery
from autoplay.control.xserver import VirtualDisplay
from autoplay.errors import ControlError, UnreadableBoardError
from autoplay.play.live import vision_decoder
from autoplay.play.portable import BoardChangedError, PortableScreen, ScreenArea, connect_portable
from autoplay.vision import Grid, Skin, load_skin, locate_grid
from tests.e2e.test_window_finding import Maker
from tests.e2e.xrecord import ButtonPresses

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]
GAMES = 3
#: Where the game window is moved, so that "found on the whole screen" is not "found at the origin".
WINDOW_AT = (150, 200)

#: Runs the CLI with every X11 window-finding, focus and geometry call of autoplay made fatal.
NO_X11_WINDOWS = """
import sys
import autoplay.control.window as x11

def forbidden(*args, **kwargs):
    raise SystemExit("the X11 window backend was used on the portable path")

x11.list_windows = x11.find_window = forbidden
x11.Window.focus = x11.Window.current_geometry = x11.Window.refresh = forbidden
from autoplay.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def board_after_redraw(rect: tuple[int, int, int, int], display: str, skin: Skin, timeout: float = 10.0) -> Grid:
    """The board in the moved window, once the game has drawn it there: on a busy machine (tests run in parallel)
    the first grab after the move can still be blank; a board never drawn still fails, after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return locate_grid(grab(rect, display), skin)
        except UnreadableBoardError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def connect_when_drawn(display: str, skin: Skin, timeout: float = 10.0) -> tuple[ScreenArea, PortableScreen]:
    """The portable screen's first look at the board, once the game has drawn it: on a busy machine (tests run in
    parallel) a just-launched or just-moved window can show its frame before its board; a board never drawn
    still fails, after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            area, screen = connect_portable(display, WindowQuery(), skin, (1.0, 1.0))
        except ControlError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
            continue
        assert isinstance(area, ScreenArea)
        return area, screen


def run_portable(display: str, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT), "AUTOPLAY_BACKEND": "portable"}
    return subprocess.run(
        [sys.executable, "-c", NO_X11_WINDOWS, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_forced_portable_play_finishes_real_gnome_mines_games_clicking_only_the_board(tmp_path):
    skin = load_skin("gnome-mines")
    with (
        VirtualDisplay(1280, 1024) as server,
        launch_game("gnome-mines", server.name, preset="expert", workdir=tmp_path / "game") as game,
    ):
        env = {**os.environ, "DISPLAY": server.name}
        move = ["xdotool", "windowmove", "--sync", str(game.window.id), *map(str, WINDOW_AT)]
        subprocess.run(move, env=env, check=True, timeout=10)
        game.window.x, game.window.y = WINDOW_AT
        grid = board_after_redraw(game.window.rect, server.name, skin)
        x0, y0, x1, y1 = grid.rect
        board = (WINDOW_AT[0] + x0, WINDOW_AT[1] + y0, WINDOW_AT[0] + x1, WINDOW_AT[1] + y1)

        with ButtonPresses(server.name) as presses:
            proc = run_portable(
                server.name,
                ["play", "--skin", "gnome-mines", "--games", str(GAMES), "--json", "--mines", str(game.mines)],
                timeout=300,
            )
        assert proc.returncode == 0, proc.stderr[-2000:]
        summary = json.loads(proc.stdout)
        final = vision_decoder(skin, game.mines)(grab(game.window.rect, server.name), grid)
        assert game.process.poll() is None, "gnome-mines exited during play"

    results = [g["result"] for g in summary["per_game"]]
    assert summary["games"] == GAMES and all(r in ("won", "lost") for r in results), results
    assert final.state == results[-1], f"the window shows {final.state}, the session says {results[-1]}"
    assert summary["losses_after_certain_move"] == 0, summary["per_game"]
    # The server's record: every press landed on the board, and there were as many as the bot's clicks.
    assert presses.seen, "the X server saw no button press"
    outside = [p for p in presses.seen if not (board[0] <= p.x < board[2] and board[1] <= p.y < board[3])]
    assert outside == [], f"{len(outside)} presses outside the board {board}: {outside[:5]}"
    assert len(presses.seen) == summary["clicks_attempted"] - summary["clicks_refused"]


def test_the_board_check_before_each_batch_sees_a_moved_and_a_covered_window(tmp_path):
    """No stacking order to ask: the portable screen compares the board's pixels with the frame decided on."""
    with (
        VirtualDisplay(1280, 1024) as server,
        launch_game("gnome-mines", server.name, preset="expert", workdir=tmp_path / "game") as game,
    ):
        skin = load_skin("gnome-mines")
        first, screen = connect_when_drawn(server.name, skin)
        assert game.window.rect[:2] == (0, 0)
        before = (first.x + screen.board.rect[0], first.y + screen.board.rect[1])
        screen.grab()
        screen.check()  # nothing changed: no error

        env = {**os.environ, "DISPLAY": server.name}
        subprocess.run(["xdotool", "windowmove", "--sync", str(game.window.id), "90", "60"], env=env, check=True)
        with pytest.raises(BoardChangedError):
            screen.check()

        area, screen = connect_when_drawn(server.name, skin)
        after = (area.x + screen.board.rect[0], area.y + screen.board.rect[1])
        assert (after[0] - before[0], after[1] - before[1]) == (90, 60)  # found again at its new place
        screen.grab()
        with Maker(server.name) as maker:
            maker.window(x=area.x + area.width // 2, y=area.y + area.height // 2, size=(80, 60), wm_name="cover")
            with pytest.raises(BoardChangedError):
                screen.check()


def test_forced_portable_live_calibration_finds_the_board_without_naming_a_window(tmp_path):
    """``calibrate --live`` with no window option: the board is found on the whole screen, the blind games
    are played there, and the X server saw every press inside the game's window (board or face)."""
    with (
        VirtualDisplay(1024, 768) as server,
        launch_game("xdemineur", server.name, preset="expert", workdir=tmp_path / "game") as game,
    ):
        left, top, width, height = game.window.rect
        with ButtonPresses(server.name) as presses:
            proc = run_portable(
                server.name,
                ["calibrate", "--live", "--name", "xd-portable", "--new-game-click", "face", "--games", "2"]
                + ["--first-click", "none", "--win", "flag-all", "--out-root", str(tmp_path)],
                timeout=300,
            )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "all inside the board" in proc.stdout
    # live calibration stops once every tile is named: one or two games, each kept as its fresh and final frame
    played = int(re.search(r"played (\d+) game", proc.stdout).group(1))
    assert 1 <= played <= 2, proc.stdout
    shots = sorted(p.name for p in (tmp_path / "templates" / "xd-portable-live-shots").glob("*.png"))
    assert shots == [f"{n:02d}-{kind}.png" for n in range(1, played + 1) for kind in ("final", "fresh")], shots
    assert (tmp_path / "calibration" / "xd-portable.toml").is_file()
    assert presses.seen
    assert all(left <= p.x < left + width and top <= p.y < top + height for p in presses.seen), presses.seen
