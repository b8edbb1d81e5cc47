"""Attacking a live `autoplay play` on the real gnome-mines, and judging it by the X server's own record.

Shared by the fault suite (tests/e2e/test_faults.py) and the covering-window stress run
(benchmarks/cover_stress.py).  A :class:`Table` is one Xvfb with one gnome-mines and an X RECORD
witness (tests/e2e/x_witness.py) logging every button press in server order with every top-level
window's moves; :meth:`Table.attack` starts the documented play command, does something nasty at
a moment chosen at random, and returns what the command said and where every press landed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoplay.control.capture import grab
from autoplay.control.games import RunningGame, launch_game
from autoplay.control.xserver import VirtualDisplay
from autoplay.errors import ControlError, UnreadableBoardError

ROOT = Path(__file__).resolve().parents[2]
WITNESS = Path(__file__).with_name("x_witness.py")
Rect = tuple[int, int, int, int]


def inside(rect: Rect, x: int, y: int) -> bool:
    left, top, width, height = rect
    return left <= x < left + width and top <= y < top + height


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_ready(path: Path, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(e["ev"] == "ready" for e in read_events(path)):
            return
        if process.poll() is not None:
            raise RuntimeError(f"the witness exited with {process.returncode}")
        time.sleep(0.02)
    raise RuntimeError("the witness did not get ready")


def presses_off_board(
    events: list[dict[str, Any]], window: int, start: Rect, board_in_window: Rect, *also: Rect
) -> list[dict]:
    """Presses that did not land on the board, replaying the recorded stream in the server's order.

    The board's screen rectangle follows the game window's recorded moves; after its unmap or
    destroy no press can be on the board.  ``also`` names other allowed targets in window pixels
    (xdemineur's new-game face).
    """
    x, y = start[0], start[1]
    shown = True
    off = []
    for event in events:
        if event.get("window") == window:
            if event["ev"] == "configure":
                x, y = event["x"], event["y"]
            elif event["ev"] in ("unmap", "destroy"):
                shown = False
            elif event["ev"] == "map":
                shown = True
        elif event["ev"] == "press":
            targets = [(x + r[0], y + r[1], r[2], r[3]) for r in (board_in_window, *also)]
            if not (shown and any(inside(t, event["x"], event["y"]) for t in targets)):
                off.append(event)
    return off


@dataclass
class Outcome:
    """What one attacked run of `autoplay play` did."""

    exit_code: int
    stderr_lines: list[str]
    stdout: str
    presses: int  # every press the X server processed during the run
    off_board: list[dict[str, Any]]  # presses that landed anywhere but the board
    cover_presses: list[dict[str, Any]]  # presses the covering window received
    fault_at: float | None = None  # seconds after the start the fault was made
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.stderr_lines[-1] if self.stderr_lines else ""

    def summary(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.stdout)
        except json.JSONDecodeError:
            return None


class Table:
    """One Xvfb, one expert game (gnome-mines unless ``game`` names another shipped one) and one press witness;
    ``close()`` ends them all."""

    def __init__(self, workdir: Path, game: str = "gnome-mines") -> None:
        self.workdir = workdir
        self.game_name = game
        self.face: Rect | None = None  # xdemineur's new-game face, in window pixels: a press there is on target
        self.server = VirtualDisplay().start()
        self.env = {**os.environ, "DISPLAY": self.server.name, "PYTHONPATH": str(ROOT)}
        self.game: RunningGame | None = None
        self.record_log = workdir / "record.jsonl"
        self.witness = subprocess.Popen(
            [sys.executable, str(WITNESS), "record", self.server.name, str(self.record_log)], env=self.env
        )
        wait_ready(self.record_log, self.witness)
        self.board_in_window: Rect = (0, 0, 0, 0)
        self._covers: list[subprocess.Popen[bytes]] = []
        try:
            self.relaunch()
        except BaseException:
            self.close()  # no Xvfb or witness left behind by a game that would not start
            raise

    def relaunch(self) -> None:
        """A fresh game (after a test killed or moved the last one)."""
        from autoplay.play.live import find_face
        from autoplay.vision import load_skin, locate_grid

        if self.game is not None:
            self.game.stop()
        for attempt in range(3):  # on a loaded machine GTK can paint later than launch_game waits
            self.launches = getattr(self, "launches", 0) + 1
            folder = self.workdir / f"game-{self.launches}"
            try:
                self.game = launch_game(self.game_name, self.server.name, preset="expert", workdir=folder)
                break
            except ControlError:
                if attempt == 2:
                    raise
        skin, deadline = load_skin(self.game_name), time.monotonic() + 20
        while True:  # GTK may paint the board a while after the window settled on its background
            try:
                frame = grab(self.game.window.rect, self.server.name)
                grid = locate_grid(frame, skin)
                break
            except UnreadableBoardError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        x0, y0, x1, y1 = grid.rect
        self.board_in_window = (int(x0), int(y0), int(x1 - x0), int(y1 - y0))
        self.face = find_face(frame, grid) if self.game_name == "xdemineur" else None

    @property
    def board(self) -> Rect:
        w = self.game.window
        bx, by, bw, bh = self.board_in_window
        return w.x + bx, w.y + by, bw, bh

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=10, capture_output=True)

    def wait_for_presses(self, count: int, timeout: float = 60.0, process: subprocess.Popen[str] | None = None) -> bool:
        """Wait until the server has processed ``count`` more button presses (play is under way).

        True once it has; False as soon as ``process`` (the play command, when given) has exited first, since
        no press will come then; a timeout raises.
        """
        start = sum(e["ev"] == "press" for e in read_events(self.record_log))
        deadline = time.monotonic() + timeout
        while sum(e["ev"] == "press" for e in read_events(self.record_log)) < start + count:
            if process is not None and process.poll() is not None:
                return False
            if time.monotonic() > deadline:
                raise RuntimeError(f"fewer than {count} presses within {timeout} s")
            time.sleep(0.05)
        return True

    def cover(self, rect: Rect, focus: bool = False) -> tuple[subprocess.Popen[bytes], Path]:
        """A press-logging window over ``rect``; returns the process and its log."""
        log = self.workdir / f"cover-{len(self._covers) + 1}.jsonl"
        argv = [sys.executable, str(WITNESS), "cover", self.server.name, str(log), *map(str, rect)]
        process = subprocess.Popen(argv + (["--focus"] if focus else []), env=self.env)
        self._covers.append(process)
        wait_ready(log, process)
        return process, log

    def remove_covers(self) -> None:
        if self._covers:
            time.sleep(1.0)  # on a loaded machine a cover may not have read its last event yet
        for process in self._covers:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=5)
        self._covers.clear()

    def attack(
        self,
        fault: Callable[[subprocess.Popen[str]], Any],
        delay: tuple[float, float] = (1.5, 4.0),
        games: int = 50,
        rng: random.Random | None = None,
        timeout: float = 120.0,
        extra_args: tuple[str, ...] = (),
        after_presses: int = 0,
    ) -> Outcome:
        """Run `autoplay play`, call ``fault(process)`` after a random delay, and collect the outcome.

        ``fault`` may return the path of a cover's log, whose presses are then reported. With
        ``after_presses``, the delay counts from the moment the X server has recorded that many button
        presses of this run, so the fault lands inside a game in progress however fast the machine plays.
        """
        rng = rng or random.Random()
        start_events = len(read_events(self.record_log))
        window = self.game.window
        start_rect = window.rect
        cmd = [sys.executable, "-m", "autoplay", "play", "--skin", "gnome-mines", "--games", str(games)]
        cmd += ["--display", self.server.name, "--mines", str(self.game.mines), "--json", *extra_args]
        began = time.monotonic()
        process = subprocess.Popen(
            cmd, env=self.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        wait = rng.uniform(*delay)
        fault_at: float | None = None
        cover_log = None
        extra: dict[str, Any] = {}
        try:
            while after_presses and process.poll() is None and time.monotonic() - began < timeout:
                seen = read_events(self.record_log)[start_events:]
                if sum(1 for e in seen if e["ev"] == "press") >= after_presses:
                    break
                time.sleep(0.02)
            time.sleep(wait)
            if process.poll() is None:
                fault_at = time.monotonic() - began
                result = fault(process)
                if isinstance(result, Path):
                    cover_log = result
                elif isinstance(result, dict):
                    extra = result
            stdout, stderr = process.communicate(timeout=timeout)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()
        self.remove_covers()
        time.sleep(0.3)  # let the witness write the last of the stream
        events = read_events(self.record_log)[start_events:]
        presses = [e for e in events if e["ev"] == "press"]
        off = presses_off_board(events, window.id, start_rect, self.board_in_window)
        cover_presses = [e for e in read_events(cover_log) if e["ev"] == "cover_press"] if cover_log else []
        return Outcome(
            process.returncode,
            stderr.strip().splitlines(),
            stdout,
            len(presses),
            off,
            cover_presses,
            fault_at,
            extra,
        )

    def close(self) -> None:
        self.remove_covers()
        if self.game is not None:
            self.game.stop()
        self.witness.terminate()
        self.witness.wait(timeout=5)
        self.server.stop()


def random_cover_rect(board: Rect, rng: random.Random, size: tuple[int, int] = (160, 80)) -> Rect:
    """A cover-sized rectangle placed at random so that it lies over the board (at least partly)."""
    left, top, width, height = board
    w, h = size
    return rng.randint(left - w // 2, left + width - w // 2), rng.randint(top - h // 2, top + height - h // 2), w, h
