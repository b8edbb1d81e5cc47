"""The launchers of sgt-mines, kmines and xbomb, checked on the real games under Xvfb at two tile sizes each.

What must hold for autoplay to play them: the window is found by its class, the board on it is a 16x30 lattice
of covered tiles at the tile size asked for, a click changes it, the game's own new-game key brings back a
fresh board, and a lost game shows the game's own end picture (the mine stepped on).  The checks look at
pixels only, with references cut from the labelled fixtures (tests/fixtures/<game>/), never at autoplay's vision,
so they test the launcher and the games, not the skins.
"""

from __future__ import annotations

import os
import random
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.board.textformat import read_board
from autoplay.control.capture import grab
from autoplay.control.games import RunningGame, launch_game
from autoplay.control.window import find_window
from autoplay.control.xserver import VirtualDisplay

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: (game, --tile) -> fixture prefix and the lattice measured on it: first tile's left and top edge, pitch.
CASES = {
    ("sgt-mines", None): ("tile20", 29, 54, 20),
    ("sgt-mines", 28): ("tile28", 41, 66, 28),
    ("kmines", None): ("tile31", 35, 113, 31),
    ("kmines", 24): ("tile24", 25, 77, 24),
    ("xbomb", None): ("tile20", 4, 27, 20),
    ("xbomb", 32): ("tile32", 4, 27, 32),
}
#: The titles the games give their windows (sgt-mines and kmines through _NET_WM_NAME, xbomb through WM_NAME).
TITLES = {"sgt-mines": "Mines", "kmines": "KMines", "xbomb": "XBomb V2.2b"}
#: Mean absolute difference (grey levels) under which two cuts show the same tile: kmines' covered tiles differ
#: by a few levels over its textured background, the others are pixel-exact.
SAME = 6.0


def _inner(frame: np.ndarray, x: int, y: int, pitch: int) -> np.ndarray:
    """The middle of the tile whose top-left corner is (x, y): no grid lines, bevels or outlines."""
    m = max(2, pitch // 7)
    return frame[y + m : y + pitch - m, x + m : x + pitch - m].astype(np.int16)


def _reference(game: str, prefix: str, x0: int, y0: int, pitch: int) -> tuple[np.ndarray, np.ndarray]:
    """A whole covered tile (bevel and grid lines included) and the middle of the exploded mine, cut from the
    labelled fixtures of this game and tile size."""
    fresh = cv2.imread(str(FIXTURES / game / f"{prefix}_fresh.png"))
    lost = cv2.imread(str(FIXTURES / game / f"{prefix}_lost.png"))
    board = read_board(FIXTURES / game / f"{prefix}_lost.txt")
    row, col = divmod(board.cells.index("X"), board.cols)
    return fresh[y0 + pitch : y0 + 2 * pitch, x0 + pitch : x0 + 2 * pitch], _inner(
        lost, x0 + col * pitch, y0 + row * pitch, pitch
    )


def _lattice(frame: np.ndarray, covered: np.ndarray, pitch: int) -> tuple[list[int], list[int]]:
    """Left and top edges of every tile of ``frame`` that shows ``covered`` (template match, then one position
    per column and per row of the lattice)."""
    score = cv2.matchTemplate(frame, covered, cv2.TM_SQDIFF_NORMED)

    def distinct(profile: np.ndarray) -> list[int]:
        """Best-matching position of each run of matches along one axis."""
        out: list[int] = []
        for v in np.flatnonzero(profile < 0.005).tolist():
            if out and v - out[-1] <= pitch // 2:
                if profile[v] < profile[out[-1]]:
                    out[-1] = v
            else:
                out.append(v)
        return out

    xs, ys = score.min(axis=0), score.min(axis=1)
    return distinct(xs), distinct(ys)


class Board:
    """The live board on a lattice found on the fresh frame; each cell compared with its own fresh picture."""

    def __init__(self, game: RunningGame, xs: list[int], ys: list[int], pitch: int) -> None:
        self.game, self.xs, self.ys, self.pitch = game, xs, ys, pitch
        self.fresh = self.cells(self.frame())

    def frame(self) -> np.ndarray:
        return grab(self.game.window.rect, self.game.display)

    def cells(self, frame: np.ndarray) -> list[np.ndarray]:
        return [_inner(frame, x, y, self.pitch) for y in self.ys for x in self.xs]

    def covered(self, frame: np.ndarray) -> list[int]:
        """Indices of the cells that still look as on the fresh board."""
        now = self.cells(frame)
        return [i for i, (a, b) in enumerate(zip(now, self.fresh, strict=True)) if np.abs(a - b).mean() < SAME]

    def click(self, index: int, button: int = 1) -> None:
        row, col = divmod(index, len(self.xs))
        x = self.game.window.x + self.xs[col] + self.pitch // 2
        y = self.game.window.y + self.ys[row] + self.pitch // 2
        self.xdo("mousemove", x, y, "click", button)
        self.park()

    def park(self) -> None:
        w = self.game.window
        self.xdo("mousemove", w.x + w.width - 3, w.y + w.height - 3)

    def xdo(self, *args: object) -> None:
        env = {**os.environ, "DISPLAY": self.game.display}
        subprocess.run(["xdotool", *map(str, args)], env=env, check=True, timeout=10)


def _wait(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture(scope="module")
def display():
    with VirtualDisplay() as server:
        yield server.name


@pytest.mark.parametrize(("game", "tile"), list(CASES), ids=[f"{g}-{t or 'default'}" for g, t in CASES])
def test_launched_game_has_its_board_a_new_game_key_and_a_visible_end(display, tmp_path, game, tile):
    prefix, x0, y0, pitch = CASES[(game, tile)]
    covered_tile, exploded = _reference(game, prefix, x0, y0, pitch)
    with launch_game(game, display, preset="expert", workdir=tmp_path, tile=tile) as running:
        # The window is found by the class the launcher names, and is the game's (its own process tree).
        window = find_window(display, running.spec.wm_class)
        assert window.id == running.window.id and window.title == TITLES[game]
        board_frame = grab(running.window.rect, display)
        xs, ys = _lattice(board_frame, covered_tile, pitch)
        assert (len(ys), len(xs)) == (16, 30), f"lattice {len(ys)}x{len(xs)}"
        # At the asked tile size: kmines scales its tiles and its frame overlaps the edge tiles by a pixel or two,
        # so single steps may be off there; the others draw every tile at exactly the pitch.
        for edges in (xs, ys):
            steps = np.diff(edges)
            assert np.median(steps) == pitch and np.abs(steps - pitch).max() <= 3, edges
        board = Board(running, xs, ys, pitch)
        board.park()

        # A click opens something (every one of these games protects the first click).
        board.click(8 * 30 + 15)
        assert _wait(lambda: len(board.covered(board.frame())) < 480), "the first click changed nothing"

        # The game's own new-game key gives a fresh board again.
        board.xdo("key", "--window", running.window.id, running.spec.new_game)
        if not _wait(lambda: len(board.covered(board.frame())) == 480):
            board.xdo("windowfocus", running.window.id)  # kmines takes keys only with focus
            board.xdo("key", running.spec.new_game)
        assert _wait(lambda: len(board.covered(board.frame())) == 480), "new-game key did not give a fresh board"

        # A right-click flags a covered cell and a second one takes the flag off: no "?" stage in between (the
        # launcher turns question marks off where the game has them), so a flag clicked twice is not a mark
        # the player cannot read.
        board.click(0, button=3)
        assert _wait(lambda: 0 not in board.covered(board.frame())), "a right-click placed no flag"
        board.click(0, button=3)
        assert _wait(lambda: 0 in board.covered(board.frame())), "a second right-click did not take the flag off"

        # Random clicks until the game ends: its end picture shows the mine stepped on.
        def exploded_shown() -> bool:
            return any(np.abs(cell - exploded).mean() < SAME for cell in board.cells(board.frame()))

        rng = random.Random(len(game) + (tile or 0))
        frame, idle, clicks = board.frame(), 0, 0
        while clicks < 480:
            left = board.covered(frame)
            if not left:
                break
            target = rng.choice(left)
            board.click(target)
            clicks += 1
            # A click that does nothing for seconds: the game is over, or a loaded machine draws late (then the
            # clicking goes on, a few times).  sgt-mines flashes and kmines fades a popup in and out over its end.
            if _wait(lambda cell=target: cell not in board.covered(board.frame()), timeout=3.0):
                idle = 0
            else:
                idle += 1
                if idle == 3 or _wait(exploded_shown, timeout=10.0):
                    break
            frame = board.frame()
        # Generous: on a loaded machine (the suite runs two workers beside the games) the end is drawn late.
        if not _wait(exploded_shown, timeout=20.0):
            final = board.frame()
            cv2.imwrite(str(tmp_path / "final-board.png"), final)
            covered = len(board.covered(final))
            raise AssertionError(
                f"no exploded mine on the final board after {clicks} clicks ({idle} unanswered at the end, "
                f"{covered} cells still covered): {tmp_path / 'final-board.png'}"
            )
