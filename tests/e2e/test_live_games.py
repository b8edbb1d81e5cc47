"""End-to-end: real gnome-mines and xdemineur windows on a private Xvfb, played by the real CLI.

No fakes anywhere: the game processes, the X server, the screen capture and the
pointer are real.  Missing Xvfb, a missing game or a missing skin makes these
tests FAIL with the reason (the CI must install them), never skip.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoplay.board.textformat import format_board
from autoplay.control.capture import grab
from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay
from autoplay.insight.speed import speed_figures
from autoplay.play.kept_flags import with_kept_flags
from autoplay.play.live import vision_decoder
from autoplay.replay.decide import decide_move
from autoplay.replay.recording import read_recording
from autoplay.vision import Grid, decode_frame, load_skin
from autoplay.vision.frame_delta import FrameReader
from tests.e2e.xrecord import ButtonPresses

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game

GAMES_PER_SKIN = 3
SESSION_TIMEOUT = 240  # seconds for all games of one skin; an expert game takes a few seconds
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def display():
    with VirtualDisplay(1280, 1024) as server:
        yield server.name


def play_cli(display: str, skin: str, record: Path, mines: int) -> dict:
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT)}
    cmd = [
        sys.executable,
        "-m",
        "autoplay",
        "play",
        "--skin",
        skin,
        "--games",
        str(GAMES_PER_SKIN),
        "--record",
        str(record),
        "--json",
        "--display",
        display,
        "--wait-window",
        "5",
        "--mines",
        str(mines),
    ]
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=SESSION_TIMEOUT)
    assert proc.returncode == 0, f"autoplay play failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}"
    return json.loads(proc.stdout)


def check_replay(record: Path, skin_name: str) -> int:
    """Re-decode every recorded frame and re-run the solver: the same board and the same moves must come out."""
    recording = read_recording(record)
    skin = load_skin(skin_name)
    assert recording.decisions, "the recording holds no decisions"
    frames = FrameReader()  # in order, each delta on the frame before it (a fresh reader walks back to a key frame)
    for decision in recording.decisions:
        grid = Grid.from_dict(decision.grid) if decision.grid else None
        decoded = decode_frame(frames.read(decision.frame), skin, grid)
        assert decoded.readable, f"{decision.frame}: unreadable cells {decoded.unreadable[:5]}"
        assert decoded.board.cells == decision.board.cells, f"{decision.frame}: board decodes differently"
        mines = decision.board.mines if decision.board.mines is not None else recording.mines
        # mines play kept in mind instead of flagging are decided on as flags
        board = with_kept_flags(decoded.board, decision.kept_flags)
        limit = recording.time_limit or 1.0
        again = decide_move(
            board, mines, recording.rules, limit, closed=recording.closed_batches, opened=decision.opened
        )
        if [(m.action, m.row, m.col) for m in again.moves] == [m.key for m in decision.moves]:
            continue
        # A guess whose search the time limit cut short, live or now, depends on how busy the core was; its reason
        # says so (the solver names the cut search).  Any other difference is a failure.
        assert "time limit" in f"{decision.reason} {again.reason}", f"{decision.frame}: replay chose different moves"
    return len(recording.decisions)


@pytest.mark.parametrize("game", ["gnome-mines", "xdemineur"])
def test_real_game_sessions_end_in_detected_results_with_safe_clicks(display, game, tmp_path):
    skin = load_skin(game)
    with launch_game(game, display, preset="expert", workdir=tmp_path / "game") as running:
        with ButtonPresses(display) as presses:  # the X server's own record of every press
            summary = play_cli(display, game, tmp_path / "rec", running.mines)
        # The game itself, read independently after the session, shows the last result
        # (on the grid the session located: the window has not moved).
        recording = read_recording(tmp_path / "rec")
        grid = Grid.from_dict(recording.decisions[-1].grid)
        final = vision_decoder(skin, running.mines)(grab(running.window.rect, display), grid)
        assert running.process.poll() is None, f"{game} exited during play"

    assert summary["games"] == GAMES_PER_SKIN
    results = [g["result"] for g in summary["per_game"]]
    assert all(r in ("won", "lost") for r in results), results
    assert summary["wins"] + summary["losses"] == GAMES_PER_SKIN
    assert final.state == results[-1], f"window shows {final.state}, session says {results[-1]}"
    # every loss came from a guess: a certain move that hits a mine would mean a misread board
    assert summary["losses_after_certain_move"] == 0, summary["per_game"]

    # the presses the server saw are the presses the session counted; xdemineur's skin names its chord button
    # (middle), and chords reached the game (its end screen and the replayed moves are checked above and below)
    assert len(presses.seen) == summary["clicks_attempted"]
    middles = [p for p in presses.seen if p.button == 2]
    assert bool(middles) == (skin.chord == "middle"), (len(middles), skin.chord)
    game_clicks = sum(g["clicks"] for g in summary["per_game"])
    assert summary["clicks_refused"] == 0
    # every attempted click is a board move, except at most one new-game click (the face) per game
    assert game_clicks <= summary["clicks_attempted"] <= game_clicks + GAMES_PER_SKIN

    assert [g.result for g in recording.games] == results
    # 3BV of the last game as reported equals the 3BV of the board the window itself shows at the end
    last = summary["per_game"][-1]
    shown = speed_figures(format_board(final.board), last["result"], last["seconds"], last["clicks"])
    if shown["3bv"] is not None:
        assert (last["3bv"], last["3bv_solved"]) == (shown["3bv"], shown["3bv_solved"]), last
        assert last["efficiency"] == round(last["3bv_solved"] / last["clicks"], 3)
    assert check_replay(tmp_path / "rec", game) == summary["decisions"]
