"""The killed-game race made on purpose: gnome-mines is killed between the guard's last check and a press.

Shared by tests/e2e/test_killed_in_the_gap.py (one run) and benchmarks/killed_game_soak.py (many, under load).
`autoplay play` is started with the test hook ``AUTOPLAY_TEST_PRESS_GAP`` (a pause inside the server grab, after
the last check, before the press; see :class:`autoplay.control.xguard.PressGap`), and the game is killed inside
one such pause.  Below the game lies a bystander (another program's window covering the screen, bottom of the
stack); a second RECORD witness (tests/e2e/x_deliveries.py) logs which client every core press was delivered to.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from Xlib import X, display

from autoplay.control.xbackstop import BACKSTOP_NAME
from tests.e2e.fault_harness import Outcome, Table, read_events, wait_ready

DELIVERIES = Path(__file__).with_name("x_deliveries.py")
#: Seconds of the hook's pause: long enough for the test to see it begin and kill the game inside it.
GAP = 1.0


@dataclass
class GapRun:
    """One attacked run and the X server's account of it."""

    outcome: Outcome
    in_gap: bool  # the game was dead before the pause it was killed in had ended
    backstop: dict[str, Any]  # what the X server said of autoplay's backstop while play ran
    strays: list[dict[str, Any]] = field(default_factory=list)  # presses delivered to a window not allowed
    lost: list[dict[str, Any]] = field(default_factory=list)  # presses off the board not caught by the backstop
    caught: int = 0  # presses delivered to the backstop
    bystander_presses: int = 0

    def problems(self) -> list[str]:
        """Why the run is a failure of autoplay (empty when it is not)."""
        found = []
        out = self.outcome
        if out.exit_code != 4 or len(out.stderr_lines) != 1 or "the window was closed" not in out.message:
            found.append(f"exit {out.exit_code}, stderr {out.stderr_lines}")
        if self.strays or self.bystander_presses:
            found.append(f"presses reached another program: {self.strays}, bystander {self.bystander_presses}")
        if self.lost:
            found.append(f"presses off the board that autoplay's backstop did not take: {self.lost}")
        if not self.backstop.get("below_game") or not self.backstop.get("input_only"):
            found.append(f"the backstop was not an input-only window just below the game: {self.backstop}")
        return found


def _mark_lines(path: Path) -> list[str]:
    return path.read_text().split("\n")[:-1] if path.exists() else []


def find_backstop(name: str, game_window: int) -> dict[str, Any]:
    """Autoplay's backstop as the X server has it: its id, class, place among the game's siblings (asked between
    grabs).  Without a window manager those are the root's children; with one, the children of its frame."""
    conn = display.Display(name)
    try:
        game = conn.create_resource_object("window", game_window)
        children = game.query_tree().parent.query_tree().children
        ids = [int(c.id) for c in children]
        for child in children:
            if child.get_wm_name() == BACKSTOP_NAME:
                attributes = child.get_attributes()
                return {
                    "id": int(child.id),
                    "input_only": attributes.win_class == X.InputOnly,
                    "below_game": ids.index(int(child.id)) == ids.index(game_window) - 1,
                    "mask": conn.display.info.resource_id_mask,
                }
        return {"id": None, "mask": conn.display.info.resource_id_mask}
    finally:
        conn.close()


def start_deliveries(table: Table, log: Path) -> subprocess.Popen[bytes]:
    """The second RECORD witness (which client each core press was delivered to), ready when this returns."""
    witness = subprocess.Popen([sys.executable, str(DELIVERIES), "record", table.server.name, str(log)], env=table.env)
    wait_ready(log, witness)
    return witness


def caught_by(log: Path, window: int | None) -> set[int]:
    """Server times of the presses delivered to ``window`` (autoplay's backstop)."""
    return {e["time"] for e in read_events(log) if e["ev"] == "delivered" and e["window"] == window}


def kill_in_the_gap(table: Table, workdir: Path, timeout: float = 90.0) -> GapRun:
    """Start play with the pause hook, kill the game inside the second pause, and judge by the server's record."""
    workdir.mkdir(parents=True, exist_ok=True)
    log, below_log, mark = workdir / "deliveries.jsonl", workdir / "bystander.jsonl", workdir / "gaps.txt"
    witness = subprocess.Popen([sys.executable, str(DELIVERIES), "record", table.server.name, str(log)], env=table.env)
    argv = [sys.executable, str(DELIVERIES), "below", table.server.name, str(below_log), "0", "0", "1280", "1024"]
    bystander = subprocess.Popen(argv, env=table.env)
    game = table.game
    assert game is not None
    found: dict[str, Any] = {}
    saved_env = table.env
    try:
        wait_ready(log, witness)
        wait_ready(below_log, bystander)
        table.env = {**saved_env, "AUTOPLAY_TEST_PRESS_GAP": str(GAP), "AUTOPLAY_TEST_PRESS_GAP_MARK": str(mark)}

        def fault(process: subprocess.Popen[str]) -> dict[str, Any]:
            deadline = time.monotonic() + timeout
            while "begin 1" not in _mark_lines(mark):  # play's first press is under way: its backstop is placed
                if process.poll() is not None or time.monotonic() > deadline:
                    return {"in_gap": False}
                time.sleep(0.01)
            found.update(find_backstop(table.server.name, game.window.id))  # answered once that grab ends
            target = f"begin {sum(line.startswith('begin') for line in _mark_lines(mark)) + 1}"
            while target not in _mark_lines(mark):
                if process.poll() is not None or time.monotonic() > deadline:
                    return {"in_gap": False}
                time.sleep(0.005)
            game.process.kill()
            game.process.wait()
            return {"in_gap": target.replace("begin", "end") not in _mark_lines(mark)}

        outcome = table.attack(fault, delay=(0.0, 0.0), timeout=timeout)
    finally:
        table.env = saved_env
        time.sleep(0.3)  # the witnesses write the last of the stream
        for process in (witness, bystander):
            process.terminate()
            process.wait(timeout=5)
    events = read_events(log)
    mask = found.get("mask", 0x1FFFFF)
    allowed = {game.window.id & ~mask}
    if found.get("id"):
        allowed.add(found["id"] & ~mask)
    # A click-to-focus window manager takes each press on the game's window first (a passive grab): the game's.
    events = [e for e in events if e["ev"] != "delivered" or e["window"] != game.window.id]
    delivered = [e for e in events if e["ev"] == "delivered"]
    # GTK takes its presses as XInput 2 events, which RECORD does not show delivered: a press on the board while
    # the game was shown is the game's (the main witness places each press against the game's window, in the
    # server's order); every other press must have been delivered to the backstop.
    caught = {e["time"] for e in delivered if e["window"] == found.get("id")}
    return GapRun(
        outcome=outcome,
        in_gap=bool(outcome.extra.get("in_gap")),
        backstop=found,
        strays=[e for e in delivered if e["client"] not in allowed],
        lost=[e for e in outcome.off_board if e["time"] not in caught],
        caught=len(caught),
        bystander_presses=sum(1 for e in read_events(below_log) if e["ev"] == "bystander_press"),
    )
