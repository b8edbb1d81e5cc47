"""pyproject.toml's lower bounds are true: autoplay installed with every dependency at exactly its declared lowest
version (constraints-lowest.txt) solves, decodes, calibrates and plays a live game of the real gnome-mines to its end.

A bound that claims too little (an OpenCV built for numpy 1, an mss without ``mss.MSS``) fails here at install,
at import or in play; a bound moved without the pins (or the pins without the bound) fails the first two tests.
The solver is installed as pure Python: compiling it takes a minute and decides nothing about the dependencies.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator

import pytest
from packaging.version import Version

from autoplay.board import read_board
from autoplay.control.capture import grab
from autoplay.control.window import find_window
from autoplay.control.xserver import VirtualDisplay
from autoplay.play.live import vision_decoder
from autoplay.replay.recording import read_recording
from autoplay.vision import Grid, load_skin
from tests.e2e.test_wheel_live import start_launch, stop_launch
from tests.packaging.lowest import LOWEST, lower_bounds, lowest_pins, lowest_venv, pip
from tests.packaging.wheel import REPO, InstalledWheel, build_wheel

pytestmark = pytest.mark.e2e

FIXTURES = REPO / "tests" / "fixtures" / "gnome-mines"
BEGINNER_MINES = 10


@pytest.fixture(scope="module")
def lowest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InstalledWheel]:
    """This checkout's wheel (pure Python) installed with ``-c constraints-lowest.txt`` in the cached lowest venv."""
    base = tmp_path_factory.mktemp("lowest")
    wheel = build_wheel(base / "build", AUTOPLAY_PURE_PYTHON="1")
    with lowest_venv() as env_dir:
        pip(env_dir, "uninstall", "--yes", "autoplay")  # a previous run's autoplay: this run installs its own
        pip(env_dir, "install", "-c", str(LOWEST), str(wheel))
        pip(env_dir, "check")
        installed = InstalledWheel(wheel, env_dir, base / "work", base / "data")
        installed.workdir.mkdir()
        yield installed


def test_every_dependency_is_pinned_at_its_lower_bound() -> None:
    bounds, pins = lower_bounds(), lowest_pins()
    assert bounds and set(bounds) == set(pins), f"bounds {sorted(bounds)} vs pins {sorted(pins)}"
    moved = {name: (str(bounds[name]), str(pins[name])) for name in bounds if bounds[name] != pins[name]}
    assert not moved, f"pyproject.toml's bound and constraints-lowest.txt's pin differ: {moved}"


def test_the_installed_versions_are_the_lower_bounds(lowest: InstalledWheel) -> None:
    bounds = lower_bounds()
    names = sorted(bounds)
    printed = lowest.python(f"import importlib.metadata as m; print(*(m.version(n) for n in {names!r}))").split()
    installed = {name: Version(text) for name, text in zip(names, printed, strict=True)}
    assert installed == bounds, {n: (str(installed[n]), str(bounds[n])) for n in names if installed[n] != bounds[n]}
    version = lowest.run("--version")
    assert version.returncode == 0 and "(solver pure Python" in version.stdout, version.stderr


def test_lowest_versions_solve_decode_and_calibrate(lowest: InstalledWheel) -> None:
    board = lowest.workdir / "board.txt"
    shutil.copy(FIXTURES / "expert_mid8.txt", board)
    solved = lowest.run("solve", str(board), "--mines", "99", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["move"]["action"] in ("reveal", "flag")

    decoded = lowest.run("decode", str(FIXTURES / "expert_mid8.png"), "--skin", "gnome-mines", "--json")
    assert decoded.returncode == 0, decoded.stderr
    assert json.loads(decoded.stdout)["board"] == read_board(FIXTURES / "expert_mid8.txt").row_strings()

    # calibrate writes a skin with tomlkit, which decode then reads back by name
    xd = REPO / "tests" / "fixtures" / "xdemineur"
    taught = lowest.run("calibrate", str(xd / "small_fresh.png"), str(xd / "small_end.png"), "--name", "mine")
    assert taught.returncode == 0, taught.stderr
    assert (lowest.data_home / "autoplay" / "calibration" / "mine.toml").is_file()
    reread = lowest.run("decode", str(xd / "small_end.png"), "--skin", "mine")
    assert reread.returncode in (0, 3) and "Traceback" not in reread.stderr, reread.stderr


def test_lowest_versions_play_a_live_gnome_mines_game_to_its_end(lowest: InstalledWheel) -> None:
    record = lowest.workdir / "live-rec"
    started = time.monotonic()
    with VirtualDisplay(1280, 1024) as server:
        launcher = start_launch(lowest, server.name)
        try:
            play = lowest.run(
                "play",
                "--skin",
                "gnome-mines",
                "--games",
                "1",
                "--mines",
                str(BEGINNER_MINES),
                "--display",
                server.name,
                "--wait-window",
                "5",
                "--record",
                str(record),
                "--json",
                timeout=150,
            )
            assert play.returncode == 0, f"play failed ({play.returncode}): {play.stderr.strip()[-2000:]}"
            summary = json.loads(play.stdout)
            # the game's own window, read by the checkout (today's versions) on the grid the session used
            recording = read_recording(record)
            grid = recording.decisions[-1].grid
            assert grid is not None, "the recording's last decision has no grid"
            window = find_window(server.name, "gnome-mines")
            final = vision_decoder(load_skin("gnome-mines"), BEGINNER_MINES)(
                grab(window.rect, server.name), Grid.from_dict(grid)
            )
            assert launcher.poll() is None, "gnome-mines exited during play"
        finally:
            stop_launch(launcher)
    (game,) = summary["per_game"]
    assert game["result"] in ("won", "lost"), game
    assert final.state == game["result"], f"the window shows {final.state}, the session says {game['result']}"
    assert summary["clicks_refused"] == 0 and summary["losses_after_certain_move"] == 0
    assert time.monotonic() - started < 150
