"""``autoplay watch`` on saved frames of a real gnome-mines game: positions, steps, verdicts, JSON, and no input.

The input check runs the whole command in a fresh interpreter where importing
pyautogui, autoplay's mouse module or its X11 click guard fails: watch must get
through a game without any of them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autoplay.board.rules import Rules
from autoplay.control.window import WindowGoneError
from autoplay.insight.coach import Coach
from autoplay.play.reading import vision_decoder
from autoplay.play.watch import WatchSettings, follow
from autoplay.vision import load_skin
from tests.play.watch_fakes import FramesWindow, load_steps

ROOT = Path(__file__).resolve().parents[2]
FAST = WatchSettings(settle=0.01, poll=0.001, window_check=0.0)


def played_steps() -> list[tuple[str, tuple[int, int]]]:
    return [(s["action"], tuple(s["cell"])) for s in load_steps() if s["action"]]


def test_follow_sees_each_saved_frame_once_and_stops_when_the_window_closes():
    window = FramesWindow()
    seen = []
    try:
        for position in follow(window, vision_decoder(load_skin("gnome-mines"), None), FAST):
            seen.append(position)
    except WindowGoneError:
        pass
    assert len(seen) == len(window.frames)
    assert seen[0].board.is_fresh and all(p.state == "playing" for p in seen)
    assert [p.pointer_cell for p in seen[1:]] == [cell for _, cell in played_steps()]
    assert all(a.t < b.t for a, b in itertools.pairwise(seen))


def test_the_coach_finds_every_step_in_order_and_judges_it():
    window = FramesWindow()
    coach = Coach(Rules.from_names("zero"))
    judged = []
    try:
        for position in follow(window, vision_decoder(load_skin("gnome-mines"), None), FAST):
            judged += coach.see(position.board, position.state, position.t, position.pointer_cell).steps
    except WindowGoneError:
        pass
    assert [(j.step.action, j.step.cell) for j in judged] == played_steps()
    # the capture script played: the opening, a certain flag, a certain reveal, then the riskiest covered cell
    assert [j.verdict for j in judged] == ["certain", "certain", "certain", "riskier than needed"]
    risky = judged[-1]
    assert risky.probability is not None and risky.lowest is not None and risky.probability > risky.lowest
    assert len(judged[0].step.opened) > 1  # the opening opened a region; the pointer named the cell clicked


#: Runs ``autoplay watch --json`` on the saved frames with every module that can send input made unimportable.
NO_INPUT = """
import sys

BLOCKED = ("pyautogui", "autoplay.control.mouse", "autoplay.control.xguard", "Xlib.ext.xtest")


class Block:
    def find_spec(self, name, path=None, target=None):
        if name in BLOCKED or name.startswith("pyautogui."):
            raise ImportError(f"watch imported {name}")
        return None


sys.meta_path.insert(0, Block())
import autoplay.control.window as x11
import autoplay.play.watch as watch
from tests.play.watch_fakes import FramesWindow

frames = FramesWindow(float(sys.argv[1])) if len(sys.argv) > 1 else FramesWindow()
x11.find_window = lambda *args, **kwargs: None
watch.WatchedWindow = lambda window, display: frames
from autoplay.cli.main import main

code = main(["watch", "--skin", "gnome-mines", "--json", "--settle", "0.01", "--display", ":0", "--backend", "x11"])
sys.stderr.write(f"loaded={[name for name in BLOCKED if name in sys.modules]}\\n")
sys.exit(code)
"""


@pytest.fixture(scope="module")
def watched() -> subprocess.CompletedProcess[str]:
    """``autoplay watch --json`` over the saved game, in an interpreter where nothing that clicks imports."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", NO_INPUT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_watch_runs_a_whole_game_without_any_module_that_can_send_input(watched):
    assert watched.returncode == 0, watched.stderr[-3000:]  # the window closed: exit 0
    assert "loaded=[]" in watched.stderr
    lines = [json.loads(line) for line in watched.stdout.splitlines()]
    steps = [(s["action"], tuple(s["cell"])) for line in lines for s in line["steps"]]
    assert steps == played_steps()


def test_each_line_has_the_fields_of_solve_json_plus_the_position(watched, tmp_path):
    lines = [json.loads(line) for line in watched.stdout.splitlines()]
    assert len(lines) == len(load_steps())
    line = lines[2]
    board = tmp_path / "position.txt"
    board.write_text("\n".join([f"mines={line['total_mines']}", *line["board"]]) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    solved = subprocess.run(
        [sys.executable, "-m", "autoplay", "solve", str(board), "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(solved.stdout)
    assert set(expected) <= set(line) and {"board", "total_mines", "t"} <= set(line)
    assert line["probabilities"] == expected["probabilities"]
    assert line["safe"] == expected["safe"] and line["mines"] == expected["mines"]
    assert line["total_mines"] == 40 and len(line["board"]) == 16 and all(len(row) == 16 for row in line["board"])
    assert isinstance(line["t"], float) and line["t"] > 0


def test_ctrl_c_ends_watching_with_the_interrupted_exit_code_and_one_line():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    watch = subprocess.Popen(
        [sys.executable, "-c", NO_INPUT, "60"],  # each frame stays a minute: the game is still going
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert watch.stdout is not None and json.loads(watch.stdout.readline())["board"]
        watch.send_signal(signal.SIGINT)
        _, err = watch.communicate(timeout=20)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert watch.returncode == 130
    assert err.splitlines()[0] == "autoplay: interrupted" and "Traceback" not in err, err


def test_a_frame_without_a_readable_board_shows_nothing_and_the_steps_stay_right():
    """gnome-mines hides its board while paused (it lost the focus): such a frame is no position."""
    window = FramesWindow()
    x0, y0, x1, y1 = window.grid.rect
    for fill in (window.frames[2][y0 - 3, x0 - 3], 240):  # the window's background; a flat grey read as zeros
        blank = window.frames[2].copy()
        blank[y0:y1, x0:x1] = fill
        window.frames.insert(2, blank)
        window.steps.insert(2, {"frame": "paused", "action": None, "cell": None})
    coach = Coach(Rules.from_names("zero"))
    judged, positions = [], 0
    try:
        for position in follow(window, vision_decoder(load_skin("gnome-mines"), None), FAST):
            positions += 1
            judged += coach.see(position.board, position.state, position.t, position.pointer_cell).steps
    except WindowGoneError:
        pass
    assert positions == len(window.frames) - 2
    assert [(j.step.action, j.step.cell) for j in judged] == played_steps()


def test_a_frame_whose_counter_does_not_read_keeps_the_games_total():
    """A frame caught while the counter redraws has no total; the game's does not change, so it is kept."""
    decode = vision_decoder(load_skin("gnome-mines"), None)
    calls = [0]

    def counter_unread_on_the_third(frame, grid):  # type: ignore[no-untyped-def]
        decoded = decode(frame, grid)
        calls[0] += 1
        if calls[0] == 3:
            decoded = dataclasses.replace(decoded, board=decoded.board.with_mines(None))
        return decoded

    seen = []
    try:
        for position in follow(FramesWindow(), counter_unread_on_the_third, FAST):
            seen.append(position)
    except WindowGoneError:
        pass
    assert calls[0] >= 3 and len(seen) >= 3
    assert {p.board.mines for p in seen} == {seen[0].board.mines} and seen[0].board.mines is not None
