"""Minesweeper in real browsers: the README's calibrate-then-play flow on the web clone, judged by the page's own log.

Each case serves ``benchmarks/web_clone`` from 127.0.0.1, opens it in Chromium or Firefox ESR on a private Xvfb at a
device scale of 100% or 125% (``launch_page``, as ``autoplay launch`` does), teaches autoplay the look with
``calibrate --live`` and plays two games with ``play --record``.  Every cell read in every recorded frame, every
move called certain and every result is then compared with the layouts and ends the page itself logged: the bot's
own counters are not what is checked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoplay.control.games import launch_page
from autoplay.control.xserver import VirtualDisplay

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from unseen_looks import TruthAudit, audit_session  # noqa: E402  (benchmarks/, put on the path above)
from web_clone import log_settled, serve, stop  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game

USER_OPTIONS = ["--first-click", "zero", "--win", "reveal", "--new-game-key", "F2", "--mines", "16x30=99"]
GAMES = 2
#: (browser, device scale, look): DOM tiles with sprites, a canvas with gradients, bevelled DOM tiles, a canvas of
#: sprites; two at 100% and two at 125%, where tiles are 20-28 px drawn from 16-22 px art.
CASES = [("chromium", 1.25, 3), ("chromium", 1.0, 4), ("firefox", 1.0, 15), ("firefox", 1.25, 9)]


def events(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()] if log.is_file() else []


def autoplay(args: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autoplay", *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(("browser", "scale", "look"), CASES, ids=[f"{b}-{s:g}-look{k}" for b, s, k in CASES])
def test_a_web_page_is_taught_and_played_without_a_misread(browser, scale, look, tmp_path):
    log = tmp_path / "page.jsonl"
    server, base = serve(log)
    try:
        with VirtualDisplay(1920, 1200) as display:
            env = {**os.environ, "DISPLAY": display.name, "AUTOPLAY_HOME": str(tmp_path / "home")}
            with launch_page(browser, display.name, f"{base}?look={look}", scale=scale):
                taught = autoplay(
                    ["calibrate", "--live", "--window-title", "Web Mines", "--name", "web", *USER_OPTIONS], env, 600
                )
                assert taught.returncode == 0, taught.stderr
                skip = len(events(log))
                recording = tmp_path / "recording"
                played = autoplay(
                    ["play", "--skin", "web", "--games", str(GAMES), "--mines", "99", "--record", str(recording)],
                    env,
                    900,
                )
                log_settled(log)  # the page's last events (the second game's end) are on their way
                assert played.returncode == 0, played.stderr
    finally:
        stop(server)
    session_log = tmp_path / "session.jsonl"
    session_log.write_text("".join(json.dumps(e) + "\n" for e in events(log)[skip:]))
    ends = [e for e in events(session_log) if e["event"] == "end"]
    assert len(ends) == GAMES, f"the page logged {len(ends)} ended games"
    audit = TruthAudit()
    audit_session(recording, session_log, audit)
    # every game's reading was checked: its opening zero shows at least its 3x3, and every later decision reads
    # again; how many more cells is the layouts' luck (two games lost early read 536 cells in all in CI)
    assert audit.games == GAMES and audit.cells >= 9 * GAMES and not audit.misaligned, audit
    assert audit.misreads == [], audit.misreads[:5]
    assert audit.wrong_certain == [], audit.wrong_certain
    assert audit.result_mismatches == [], audit.result_mismatches
