"""End-to-end from the installed wheel: its own ``autoplay launch`` starts the real gnome-mines on a private Xvfb,
its own ``autoplay play`` plays games to the end with the shipped skin, and its own ``autoplay replay`` re-decides
the recording.  Nothing comes from the checkout but the test's independent look at the game window afterwards.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from autoplay.control.capture import grab
from autoplay.control.window import find_window
from autoplay.control.xserver import VirtualDisplay
from autoplay.play.live import vision_decoder
from autoplay.replay.recording import read_recording
from autoplay.vision import Grid, load_skin
from tests.packaging.wheel import InstalledWheel

pytestmark = pytest.mark.e2e

GAMES = 2
BEGINNER_MINES = 10


def start_launch(installed: InstalledWheel, display: str) -> subprocess.Popen[str]:
    """The wheel's ``autoplay launch``, waited for until it says the game window is up."""
    proc = subprocess.Popen(
        [str(installed.bin / "autoplay"), "launch", "gnome-mines", "--preset", "beginner", "--display", display],
        cwd=installed.workdir,
        env=installed.env(DISPLAY=display),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # blocks until the launcher reports the window (or exits)
    if "running on" not in line:
        proc.kill()
        raise AssertionError(f"autoplay launch failed: {line} {proc.stderr.read() if proc.stderr else ''}")
    return proc


def stop_launch(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)  # the launcher stops the game on SIGTERM
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_installed_wheel_launches_plays_and_replays_real_gnome_mines(installed_wheel: InstalledWheel) -> None:
    record = installed_wheel.workdir / "live-rec"
    with VirtualDisplay(1280, 1024) as server:
        launcher = start_launch(installed_wheel, server.name)
        try:
            started = time.monotonic()
            play = installed_wheel.run(
                "play",
                "--skin",
                "gnome-mines",
                "--games",
                str(GAMES),
                "--mines",
                str(BEGINNER_MINES),
                "--display",
                server.name,
                "--wait-window",
                "5",
                "--record",
                str(record),
                "--json",
                timeout=240,
            )
            assert play.returncode == 0, f"play failed ({play.returncode}): {play.stderr.strip()[-2000:]}"
            summary = json.loads(play.stdout)
            # The game's own window, read independently by the checkout's vision on the grid the session used.
            recording = read_recording(record)
            window = find_window(server.name, "gnome-mines")
            skin = load_skin("gnome-mines")
            final = vision_decoder(skin, BEGINNER_MINES)(
                grab(window.rect, server.name), Grid.from_dict(recording.decisions[-1].grid)
            )
            assert launcher.poll() is None, "gnome-mines (through autoplay launch) exited during play"
        finally:
            stop_launch(launcher)
    assert time.monotonic() - started < 240
    results = [g["result"] for g in summary["per_game"]]
    assert summary["games"] == GAMES and all(r in ("won", "lost") for r in results), results
    assert final.state == results[-1], f"the window shows {final.state}, the session says {results[-1]}"
    assert summary["clicks_refused"] == 0 and summary["losses_after_certain_move"] == 0
    assert [g.result for g in recording.games] == results

    replay = installed_wheel.run(
        "replay", str(record), "--out", str(installed_wheel.workdir / "live-annotated"), "--json"
    )
    assert replay.returncode == 0, replay.stderr.strip()[-2000:]
    assert json.loads(replay.stdout)["summary"]["mismatch"] == 0
