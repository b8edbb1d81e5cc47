"""Calibrating a skin from a real game window: blind games, guarded clicks, a skin that reads the game."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from autoplay.board.textformat import read_board
from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay
from autoplay.vision import decode_frame, load_skin, read_image

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "xdemineur"


def test_live_calibration_of_xdemineur_reads_its_screenshots(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with (
        VirtualDisplay(1024, 768) as server,
        launch_game("xdemineur", server.name, preset="expert", workdir=tmp_path / "game"),
    ):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "autoplay",
                "calibrate",
                "--live",
                "--name",
                "xd-live",
                "--display",
                server.name,
                "--window-class",
                "xdemineur",
                "--new-game-click",
                "face",
                "--games",
                "4",
                "--first-click",
                "none",
                "--win",
                "flag-all",
                "--out-root",
                str(tmp_path),
            ],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert proc.returncode == 0, proc.stderr
    assert "all inside the board" in proc.stdout
    shots = sorted((tmp_path / "templates" / "xd-live-live-shots").glob("*.png"))
    games = len(shots) // 2
    assert 1 <= games <= 4 and len(shots) == 2 * games  # a fresh and a final frame per game
    labels = tomllib.loads((tmp_path / "calibration" / "xd-live.toml").read_text())["labels"]
    named = set(labels.values()) - {"unnamed"}
    assert {".", "1", "2"} <= named, labels
    # The blind skin must read real screenshots it never saw: every cell it reads is right, most are read.
    skin = load_skin("xd-live", tmp_path)
    assert skin.origin == "live"  # so `play` learns its unknown tiles by default
    # xdemineur chords with the middle button: the games played with the new skin tried it and its cells opened
    assert "chord: the middle button opens" in proc.stdout, proc.stdout[-1500:]
    assert skin.chord == "middle"
    read = right = total = 0
    for name in ("expert_end", "expert_mid3", "small_end"):
        truth = read_board(FIXTURES / f"{name}.txt")
        decoded = decode_frame(read_image(FIXTURES / f"{name}.png"), skin)
        unreadable = set(decoded.unreadable)
        for i, true_label in enumerate(truth.cells):
            rc = divmod(i, truth.cols)
            total += 1
            if rc not in unreadable:
                read += 1
                right += decoded.board.cells[i] == true_label
    assert right == read, f"{read - right} cells misread"
    assert read >= 0.9 * total, f"only {read}/{total} cells readable"
