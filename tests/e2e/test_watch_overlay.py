"""``autoplay watch --overlay`` over real xdemineur and gnome-mines expert games: the marks are on the screen, watch reads none of
them, and a click on a marked cell reaches the game.

Checked against the X server and the game's pixels, not against watch's own word:

- watch with the overlay reads the same board, cell for cell, as watch without it on the same position;
- the marks really are on the screen: a screenshot differs from the game's own picture (taken before the overlay
  came) on every covered cell and on no open one, and the decoder, given that screenshot, does not read the
  board (so reading the screen would have changed what watch reads, and this test could fail);
- an xdotool click on a cell under a mark opens it: the next board watch shows has it open, and once watch has
  ended (Ctrl-C) the overlay is gone from the screen and a screenshot, read by the decoder, shows the same board;
- the overlay follows the game's window when it moves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from Xlib import display as xdisplay

from autoplay.control.capture import grab, wait_settled
from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay
from autoplay.render.overlay_window import OVERLAY_NAME
from autoplay.vision import decode_frame, load_skin
from tests.e2e.test_portable_backend import board_after_redraw
from tests.e2e.test_watch import Lines, end

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # the test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]
COVERED = ".?"
FIRST = (8, 15)
#: Pixels of each cell's edge left out when telling marked cells from unmarked ones: watch may locate gnome-mines'
#: board a pixel off this test's grid (its lattice wobbles), and the move's frame lies on its cell's edge.
EDGE = 2


def start_watch(display: str, name: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "autoplay", "watch", "--skin", name, "--json", *extra],
        env={**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def interrupt(watch: subprocess.Popen[str]) -> int:
    """Ctrl-C, as a person ends watching; the exit code."""
    watch.send_signal(signal.SIGINT)
    return watch.wait(15)


def overlay_origin(display: str) -> tuple[int, int] | None:
    """Where the overlay window is on the screen, None while there is none mapped (asked of the X server)."""
    conn = xdisplay.Display(display)
    try:
        root = conn.screen().root
        for child in root.query_tree().children:
            if child.get_wm_name() == OVERLAY_NAME and child.get_attributes().map_state:
                origin = child.translate_coords(root, 0, 0)
                return -origin.x, -origin.y
        return None
    finally:
        conn.close()


def wait_until(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


@pytest.mark.parametrize("name", ["xdemineur", "gnome-mines"])
def test_the_overlay_changes_no_read_cell_shows_its_marks_and_lets_a_click_through(tmp_path, name):
    skin = load_skin(name)
    with (
        VirtualDisplay(1280, 1024) as server,
        launch_game(name, server.name, preset="expert", workdir=tmp_path / "game") as game,
        contextlib.ExitStack() as cleanup,
    ):
        env = {**os.environ, "DISPLAY": server.name}
        rect = game.window.rect
        grid = board_after_redraw(rect, server.name, skin, timeout=30.0)  # mapped before painted
        if name == "gnome-mines":  # xdemineur opens a region of a new game by itself; gnome-mines at the first click
            x, y = grid.cell_center(*FIRST)
            subprocess.run(
                ["xdotool", "mousemove", str(rect[0] + int(x)), str(rect[1] + int(y)), "click", "1"], env=env
            )
        subprocess.run(["xdotool", "mousemove", str(rect[0] + 2), str(rect[1] + 2)], env=env)  # no tile lit by it
        plain = wait_settled(lambda: grab(rect, server.name), 0.3, 10.0).frame  # the game's own picture, uncovered

        # the board watch reads without the overlay
        watch = start_watch(server.name, name)
        cleanup.callback(end, watch)
        lines = Lines(watch)
        lines.wait_for(1, timeout=40)
        assert interrupt(watch) == 130
        off = lines.items[0]

        # the same position with the overlay on
        watch = start_watch(server.name, name, "--overlay")
        cleanup.callback(end, watch)
        lines = Lines(watch)
        lines.wait_for(1, timeout=40)
        on = lines.items[0]
        assert on["board"] == off["board"], "the overlay changed what watch read"
        covered = [(r, c) for r, row in enumerate(on["board"]) for c, ch in enumerate(row) if ch in COVERED]
        assert covered and len(covered) < grid.rows * grid.cols

        # the marks are on the screen: on every covered cell, on no open one
        x0, y0, _, _ = grid.rect
        placed = wait_until(lambda: overlay_origin(server.name))
        assert placed and abs(placed[0] - rect[0] - x0) <= 1 and abs(placed[1] - rect[1] - y0) <= 1, placed
        time.sleep(0.3)  # the first picture drawn in it
        shown = grab(rect, server.name)
        for r in range(grid.rows):
            for c in range(grid.cols):
                left, top, right, bottom = grid.cell_rect(r, c)
                left, top, right, bottom = left + EDGE, top + EDGE, right - EDGE, bottom - EDGE
                differs = (shown[top:bottom, left:right] != plain[top:bottom, left:right]).any()
                assert differs == ((r, c) in covered), (r, c, on["board"][r][c])
        read_off_screen = decode_frame(shown, skin, grid)
        assert read_off_screen.unreadable or read_off_screen.board.row_strings() != on["board"]

        # a click on a marked cell (a certain safe one, else the safest) goes through to the game
        odds = on["probabilities"]
        target = tuple(on["safe"][0]) if on["safe"] else min(covered, key=lambda cell: odds[cell[0]][cell[1]])
        cx, cy = grid.cell_center(*target)
        x, y = rect[0] + int(cx), rect[1] + int(cy)
        assert (shown[int(cy), int(cx)] != plain[int(cy), int(cx)]).any(), "no mark where the click goes"
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)
        lines.wait_for(2)
        after = lines.items[-1]["board"]
        assert after[target[0]][target[1]] not in COVERED, (target, after)

        # the game moves: the overlay follows its board
        subprocess.run(
            ["xdotool", "windowmove", str(game.window.id), str(rect[0] + 60), str(rect[1] + 40)], env=env, check=True
        )
        moved_rect = wait_until(lambda: (now := game.window.current_geometry()) != rect and now)
        moved = (placed[0] + moved_rect[0] - rect[0], placed[1] + moved_rect[1] - rect[1])
        assert wait_until(lambda: overlay_origin(server.name) == moved), (overlay_origin(server.name), moved)

        # watch ends: the overlay goes with it, and the game's picture holds the board watch read last
        assert interrupt(watch) == 130
        assert overlay_origin(server.name) is None
        final = decode_frame(grab(moved_rect, server.name), skin, grid)
        assert not final.unreadable, final.unreadable
        assert final.board.row_strings() == lines.items[-1]["board"]
        assert not np.array_equal(final.labels, decode_frame(plain, skin, grid).labels)
