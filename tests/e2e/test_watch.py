"""``autoplay watch`` follows real gnome-mines and xdemineur games played by a script, and never sends input.

The player is a script of xdotool commands, with no autoplay code choosing or
making its moves: it opens the board (xdemineur opens its first region itself),
flags a certain mine and opens a certain safe cell, then makes a planted risky
click — on a cell that ``autoplay analyze`` (run on a screenshot, as a person
would look it up) gives higher odds than the safest cell on offer.  Meanwhile
``autoplay watch --json`` runs as its own process.  The test checks, from
watch's output, that every scripted step is found in order at its cell with the
verdict it deserves, that the odds watch showed for the position before the
risky click are ``analyze``'s, and that watch ends with exit 0 when the game's
window closes; and, from the X server's RECORD stream of input requests
(tests/e2e/x_witness.py ``inputs``, each request traced to its process when it
is made), that xdotool's fake presses are there and nothing from watch's
process is.  A second test does the same for the default view, the Tk window:
beside the game, never over it, and unchanged while frozen.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from Xlib import display as xdisplay
from Xlib.ext import res

from autoplay.control.capture import grab
from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay
from autoplay.play.live import find_face
from autoplay.render import save_png
from autoplay.vision import load_skin, locate_grid
from tests.e2e.fault_harness import WITNESS, read_events, wait_ready

#: XTEST requests that ask, and send nothing: GetVersion is xdotool's first request. The witness names a request's
#: process by its client id after the fact, and under load a short-lived xdotool's id was taken by a new connection
#: of watch by then (a CI run saw one XTEST:0 "from watch"); a request that sends input is never among these.
QUERIES = frozenset({"XTEST:0", "XTEST:1"})

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]
FIRST = (8, 15)
#: The planted click must be this much riskier than the safest cell on offer.
MARGIN = 0.05
#: Pixel rows of the watch window's header (title line and Freeze box) left out of the frozen comparison.
HEADER = 36


def end(process: subprocess.Popen[Any]) -> None:
    """Stop a helper process of the test (the witness, or watch when it did not end by itself)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class Lines:
    """watch's stdout read line by line in a thread, so the script can wait for the next position."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.items: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.items.append(json.loads(line))

    def wait_for(self, count: int, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.items) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(self.items) >= count, f"watch showed {len(self.items)} positions, expected {count}"


def clients_of(display: str, pid: int) -> set[int]:
    """The resource bases of every X client of process ``pid`` (X-Resource extension)."""
    conn = xdisplay.Display(display)
    try:
        reply = conn.res_query_client_ids([{"client": 0, "mask": res.LocalClientPIDMask}])
    finally:
        conn.close()
    return {e.spec.client for e in reply.ids if e.spec.mask == res.LocalClientPIDMask and e.value and e.value[0] == pid}


def analyze_shot(skin: str, display: str, rect: tuple[int, int, int, int], path: Path) -> dict[str, Any]:
    """``autoplay analyze`` on a screenshot of the game, as a person would look a position up."""
    save_png(path, grab(rect, display))
    out = subprocess.run(
        [sys.executable, "-m", "autoplay", "analyze", str(path), "--skin", skin, "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=30,
    )
    return json.loads(out.stdout)


def deal_an_opening_with_a_certain_move(skin: Any, display: str, game: Any, env: dict[str, str], tmp: Path) -> None:
    """Click xdemineur's face (a new game) until the region it opens at once proves a cell safe or a mine: the
    test needs a certain step before its risky one (an opening without one failed it by chance)."""
    for attempt in range(8):
        position = analyze_shot(skin.name, display, game.window.rect, tmp / f"opening-{attempt}.png")
        if position["safe"] or position["certain_mines"]:
            return
        frame = grab(game.window.rect, display)
        face = find_face(frame, locate_grid(frame, skin))
        assert face is not None, "xdemineur's face was not found"
        x, y, w, h = face
        point = [str(game.window.x + x + w // 2), str(game.window.y + y + h // 2)]
        subprocess.run(["xdotool", "mousemove", *point, "click", "1"], env=env, check=True)
        time.sleep(0.5)
    raise AssertionError("8 deals of xdemineur gave no opening with a certain move")


@pytest.mark.parametrize("name", ["gnome-mines", "xdemineur"])
def test_watch_follows_a_scripted_game_judges_each_step_and_sends_no_input(tmp_path, name):
    skin = load_skin(name)
    with (
        VirtualDisplay(1280, 1024) as server,
        launch_game(name, server.name, preset="expert", workdir=tmp_path / "game") as game,
        contextlib.ExitStack() as cleanup,
    ):
        env = {**os.environ, "DISPLAY": server.name}
        if name == "xdemineur":  # it opens a region by itself: deal again until that gives a certain move to play
            deal_an_opening_with_a_certain_move(skin, server.name, game, env, tmp_path)
        inputs = tmp_path / "inputs.jsonl"
        witness = subprocess.Popen([sys.executable, str(WITNESS), "inputs", server.name, str(inputs)], env=env)
        cleanup.callback(end, witness)
        try:
            wait_ready(inputs, witness)
            grid = locate_grid(grab(game.window.rect, server.name), skin)
            watch = subprocess.Popen(
                [sys.executable, "-m", "autoplay", "watch", "--skin", name, "--json"],
                env={**env, "PYTHONPATH": str(ROOT)},
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            cleanup.callback(end, watch)
            lines = Lines(watch)
            lines.wait_for(1, timeout=40)  # the first position (a loaded machine starts Python slowly)

            def click(cell: tuple[int, int], button: int) -> None:
                """One xdotool click on ``cell``, then wait for watch to show the position it made."""
                x, y = grid.cell_center(*cell)
                shown = len(lines.items)
                point = [str(game.window.x + int(x)), str(game.window.y + int(y))]
                subprocess.run(["xdotool", "mousemove", *point, "click", str(button)], env=env, check=True)
                lines.wait_for(shown + 1)

            script: list[tuple[str, tuple[int, int]]] = []
            if name == "gnome-mines":  # xdemineur opens a region by itself when a game starts
                script.append(("reveal", FIRST))
                click(FIRST, 1)
            position = analyze_shot(name, server.name, game.window.rect, tmp_path / "after-first.png")
            if position["certain_mines"]:
                cell = tuple(position["certain_mines"][0])
                script.append(("flag", cell))
                click(cell, 3)
            if position["safe"]:
                cell = tuple(position["safe"][0])
                script.append(("reveal", cell))
                click(cell, 1)
            position = analyze_shot(name, server.name, game.window.rect, tmp_path / "before-risky.png")
            covered = [c for c in position["cells"] if c["global"] is not None and c["global"] < 1.0]
            lowest = min(c["global"] for c in covered)
            risky = max((c for c in covered if c["global"] > lowest + MARGIN), key=lambda c: c["global"])
            before_risky = len(lines.items)
            script.append(("reveal", (risky["row"], risky["col"])))
            click((risky["row"], risky["col"]), 1)

            assert clients_of(server.name, watch.pid), "the X server does not know watch's connections"
        finally:
            game.stop()  # the window closes: watch must end by itself, with exit 0
        code = watch.wait(15)
        assert code == 0, watch.stderr.read() if watch.stderr else ""

    steps = [s for item in lines.items for s in item["steps"]]
    assert [(s["action"], tuple(s["cell"])) for s in steps] == script
    verdicts = [s["verdict"] for s in steps]
    assert verdicts[:-1] == ["certain"] * (len(script) - 1), steps
    assert len(script) >= 2, "the opening gave no certain cell to play: too little tested"
    assert verdicts[-1] == "riskier than needed", steps[-1]
    assert steps[-1]["probability"] == risky["global"] and steps[-1]["lowest"] == lowest

    # the odds watch showed for the position before the risky click are analyze's on the same board
    shown = lines.items[before_risky - 1]
    assert shown["board"] == [row for row in position["board"].splitlines() if not row.startswith("mines=")]
    for cell in position["cells"]:
        assert shown["probabilities"][cell["row"]][cell["col"]] == cell["global"], cell

    # the X server's record: xdotool's fake input is there, and nothing from any connection of watch
    requests = [e for e in read_events(inputs) if e["ev"] == "input"]
    assert sum(e["request"] == "XTEST:2" for e in requests) >= 2 * len(script), requests[:10]
    assert any(e["pid"] is not None for e in requests), "no input request could be traced to its process"
    from_watch = [e for e in requests if e["pid"] == watch.pid and e["request"] not in QUERIES]
    assert from_watch == [], from_watch[:10]


def watch_window(display: str) -> tuple[int, int, int, int] | None:
    """The rectangle of watch's own window, found by its title; None while it is not shown."""
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", "^autoplay watch$"],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
    ).stdout.split()
    if not found:
        return None
    conn = xdisplay.Display(display)
    try:
        window = conn.create_resource_object("window", int(found[0]))
        geometry = window.get_geometry()
        origin = window.translate_coords(conn.screen().root, 0, 0)
        return -origin.x, -origin.y, geometry.width, geometry.height
    finally:
        conn.close()


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_the_watch_window_shows_beside_the_game_freezes_and_sends_no_input(tmp_path):
    """The default view: a Tk window beside the game, never over it, whose picture stops changing while frozen."""
    skin = load_skin("gnome-mines")
    with (
        VirtualDisplay(1920, 1080) as server,
        launch_game("gnome-mines", server.name, preset="expert", workdir=tmp_path / "game") as game,
        contextlib.ExitStack() as cleanup,
    ):
        env = {**os.environ, "DISPLAY": server.name}
        inputs = tmp_path / "inputs.jsonl"
        witness = subprocess.Popen([sys.executable, str(WITNESS), "inputs", server.name, str(inputs)], env=env)
        cleanup.callback(end, witness)
        try:
            wait_ready(inputs, witness)
            grid = locate_grid(grab(game.window.rect, server.name), skin)
            watch = subprocess.Popen(
                [sys.executable, "-m", "autoplay", "watch", "--skin", "gnome-mines"],
                env={**env, "PYTHONPATH": str(ROOT)},
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            cleanup.callback(end, watch)
            deadline = time.monotonic() + 40
            while (rect := watch_window(server.name)) is None and time.monotonic() < deadline:
                time.sleep(0.1)
            assert rect is not None, "watch's window did not show"
            assert not overlaps(rect, game.window.rect), (rect, game.window.rect)

            def click_at(x: int, y: int, button: int = 1) -> None:
                subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", str(button)], env=env, check=True)
                time.sleep(1.5)

            def click(cell: tuple[int, int]) -> None:
                x, y = grid.cell_center(*cell)
                click_at(game.window.x + int(x), game.window.y + int(y))

            def picture() -> Any:
                """The board and text part of watch's window (the header line says "frozen" while frozen)."""
                return grab(rect, server.name)[HEADER:]

            fresh = picture()
            click(FIRST)
            opened = picture()
            assert (opened != fresh).any(), "the watch window did not change after the first click"
            # Freeze (the check box at the window's top right), then play on: the picture stays
            click_at(rect[0] + rect[2] - 40, rect[1] + 14)
            frozen = picture()
            far = (0, 0) if FIRST != (0, 0) else (15, 29)
            click(far)
            assert (picture() == frozen).all(), "the frozen window changed"
            click_at(rect[0] + rect[2] - 40, rect[1] + 14)  # unfreeze: the newest position shows
            assert (picture() != frozen).any(), "unfreezing did not show the newest position"
            assert clients_of(server.name, watch.pid), "the X server does not know watch's connections"
        finally:
            game.stop()
        code = watch.wait(15)
        assert code == 0, watch.stderr.read() if watch.stderr else ""

    requests = [e for e in read_events(inputs) if e["ev"] == "input"]
    assert sum(e["request"] == "XTEST:2" for e in requests) >= 8, requests[:10]
    assert any(e["pid"] is not None for e in requests), "no input request could be traced to its process"
    from_watch = [e for e in requests if e["pid"] == watch.pid and e["request"] not in QUERIES]
    assert from_watch == [], from_watch[:10]
