"""A web page's "New game" text button, taught by a point on it and clicked by its look, judged by the page's log.

The web clone (``benchmarks/web_clone``) is served from 127.0.0.1 with look 4, whose new-game control is a text
button centred above the board, and opened in Chromium on a private Xvfb.  ``calibrate --live`` is given a pixel on
that button (``--new-game-click X,Y``) and no key, so each game it plays starts with a click on the button; then the
skin it wrote is loaded and ``press_new_game`` (what ``play`` calls between games) clicks the button once more.  Each
new game the page itself logs (``{"event": "new", ...}``) after the first can only have come from such a click.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autoplay.control.capture import grab
from autoplay.control.games import launch_page
from autoplay.control.xserver import VirtualDisplay
from autoplay.play.live import connect, press_new_game
from autoplay.vision import load_skin
from autoplay.vision.locate import locate_grid

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from web_clone import serve, stop  # noqa: E402  (benchmarks/, put on the path above)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="needs chromium (scripts/install.sh installs it)"),
]

LOOK = 4
#: Look 4 at 100%: the button's middle is this many pixels above the board, over its middle column.
ABOVE_BOARD = 22
OPTIONS = ["--first-click", "zero", "--win", "reveal", "--mines", "16x30=99", "--window-title", "Web Mines"]


def new_games(log: Path) -> list[int]:
    lines = log.read_text().splitlines() if log.is_file() else []
    return [e["game"] for e in map(json.loads, filter(str.strip, lines)) if e["event"] == "new"]


def autoplay(args: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autoplay", *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


def wait_for_games(log: Path, count: int, timeout: float = 10.0) -> int:
    """How many new games the page has logged, once it is ``count`` or ``timeout`` has passed."""
    end = time.monotonic() + timeout
    while len(new_games(log)) < count and time.monotonic() < end:
        time.sleep(0.1)
    return len(new_games(log))


def press_once(display: str, home: Path) -> None:
    """Load the skin calibration wrote and click its new-game button on the page's current frame, as play does."""
    skin = load_skin("web", home)
    window, screen, mouse = connect(display, None, "Web Mines", skin=skin)
    try:
        screen.focus()
        frame = screen.grab()
        press_new_game(mouse, window, locate_grid(frame), frame, skin.new_game)
    finally:
        mouse.close()
        window.close_connection()


def test_the_text_button_starts_new_games_in_calibration_and_in_play(tmp_path: Path) -> None:
    log = tmp_path / "page.jsonl"
    server, base = serve(log)
    try:
        with VirtualDisplay(1920, 1200) as display:
            env = {**os.environ, "DISPLAY": display.name, "AUTOPLAY_HOME": str(tmp_path / "home")}
            with launch_page("chromium", display.name, f"{base}?look={LOOK}") as page:
                x0, y0, x1, _ = locate_grid(grab(page.window.rect, display.name)).rect
                point = f"{(x0 + x1) // 2},{y0 - ABOVE_BOARD}"
                before = wait_for_games(log, 1)  # the page's own first game
                # --chord none: the games that find the chord button would start new games of their own
                taught = autoplay(
                    [
                        "calibrate",
                        "--live",
                        "--name",
                        "web",
                        "--new-game-click",
                        point,
                        "--games",
                        "3",
                        "--chord",
                        "none",
                    ]
                    + OPTIONS,
                    env,
                    600,
                )
                assert taught.returncode == 0, taught.stderr
                assert "new-game button at" in taught.stdout
                calibrated = len(new_games(log))
                press_once(display.name, tmp_path / "home")
                after = wait_for_games(log, calibrated + 1)
    finally:
        stop(server)
    assert (tmp_path / "home" / "templates" / "web" / "new-game.png").is_file()
    played = re.search(r"played (\d+) game", taught.stdout)
    assert played is not None, taught.stdout
    assert calibrated - before == int(played[1]) >= 1, (
        f"the page logged {calibrated - before} new games\n{taught.stdout}"
    )
    assert after == calibrated + 1, "the button found by the skin's picture started no new game"
