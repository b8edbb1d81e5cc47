"""Real X windows under Xvfb: finding them, noticing when they move or vanish, capturing them, parking safely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autoplay.control.capture import grab, wait_settled
from autoplay.control.games import launch_game
from autoplay.control.window import WindowGoneError, WindowMovedError, find_window
from autoplay.control.xserver import VirtualDisplay
from autoplay.errors import ControlError

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def display():
    with VirtualDisplay(1024, 768) as server:
        yield server.name


def test_virtual_display_announces_a_fresh_display_and_stops():
    with VirtualDisplay(640, 480) as server:
        assert server.name.startswith(":") and server.name[1:].isdigit()
        frame = grab((0, 0, 640, 480), server.name)
        assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
    with pytest.raises(ControlError):
        find_window(server.name, "xdemineur")


def test_find_capture_move_and_close_a_real_window(display, tmp_path):
    with launch_game("xdemineur", display, preset="expert", workdir=tmp_path) as game:
        window = find_window(display, "xdemineur")
        assert window.id == game.window.id and window.width > 600 and window.height > 400
        frame = wait_settled(lambda: grab(window.rect, display)).frame
        assert frame.shape[:2] == (window.height, window.width) and frame.std() > 10
        window.refresh()  # unchanged: no error

        env = {**os.environ, "DISPLAY": display}
        subprocess.run(["xdotool", "windowmove", "--sync", str(window.id), "40", "30"], env=env, check=True, timeout=10)
        with pytest.raises(WindowMovedError):
            window.refresh()
        assert (window.x, window.y) != (1, 1)

        game.stop()
        with pytest.raises(WindowGoneError):
            window.refresh()


def test_play_without_a_window_is_a_one_line_error(display):
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "autoplay", "play", "--skin", "xdemineur", "--display", display],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 4, proc.stderr  # no window (the skin is shipped, so it is found)
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_a_window_nobody_named_is_found_by_its_board(display, tmp_path):
    """No window has the class asked for: the board is found on the screen and its window played (dry run)."""
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)}
    with launch_game("xdemineur", display, preset="expert", workdir=tmp_path) as game:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "autoplay",
                "play",
                "--skin",
                "xdemineur",
                "--display",
                display,
                "--window-class",
                "no-such-game",
                "--dry-run",
                "--mines",
                str(game.mines),
            ],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("next: ") and ("reveal" in proc.stdout or "flag" in proc.stdout)
