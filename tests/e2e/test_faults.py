"""The fault suite: a live `autoplay play` on the real gnome-mines, attacked while it plays.

Each attack comes at a random moment of play (counted from a press of its own: a start-up slowed by a busy
machine must not move the fault before play began); each is judged by the exit code, the one line on stderr, and
the X server's own record (RECORD extension, tests/e2e/x_witness.py) of where every button press
landed: none may land anywhere but the board, and a covering window must receive none.
"""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

from autoplay.control.capture import grab, wait_settled
from autoplay.errors import UnreadableBoardError
from autoplay.vision import load_skin, locate_grid
from tests.e2e.fault_harness import Table, random_cover_rect, read_events

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # each test starts its own display and game


@pytest.fixture
def table(tmp_path):
    """A fresh Xvfb and game per test: a game left mid-way by one attack must not decide the next test
    (after some stopped sessions gnome-mines drew a bottom-row tile the skin cannot read, not yet explained)."""
    t = Table(tmp_path)
    yield t
    t.close()


def board_visible(table: Table) -> bool:
    frame = wait_settled(lambda: grab(table.game.window.rect, table.server.name), interval=0.2, timeout=3).frame
    try:
        locate_grid(frame, load_skin("gnome-mines"))
    except UnreadableBoardError:
        return False
    return True


def assert_stopped_cleanly(outcome, code: int, words: str) -> None:
    assert outcome.fault_at is not None, "the play command ended before the fault was made"
    assert outcome.exit_code == code, outcome.stderr_lines
    assert len(outcome.stderr_lines) == 1, outcome.stderr_lines
    assert words in outcome.message and "Traceback" not in outcome.message
    assert outcome.off_board == [], f"presses off the board: {outcome.off_board}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_window_over_the_board_stops_play_and_gets_no_press(table, seed):
    rng = random.Random(seed)
    rect = random_cover_rect(table.board, rng)
    outcome = table.attack(lambda _: table.cover(rect)[1], rng=rng, after_presses=1)
    assert_stopped_cleanly(outcome, 4, "the board is covered by window 'press-witness'")
    assert outcome.cover_presses == []


def test_a_moved_window_stops_play_with_the_offset(table):
    window = table.game.window

    def move(_):
        table.xdotool("windowmove", "--sync", str(window.id), str(window.x + 120), str(window.y + 90))

    outcome = table.attack(move, rng=random.Random(4), after_presses=1)
    assert_stopped_cleanly(outcome, 4, "the window moved by (+120,+90)")


def test_a_killed_game_stops_play_with_one_line(table, tmp_path):
    """A press made after the game died (its windows go even while autoplay grabs the server) must be taken by
    autoplay's own backstop window below the game, by the server's record; tests/e2e/test_killed_in_the_gap.py
    makes that moment on purpose."""
    from tests.e2e.gap_kill import caught_by, find_backstop, start_deliveries

    deliveries = start_deliveries(table, tmp_path / "deliveries.jsonl")
    found = {}

    def kill(_):
        found.update(find_backstop(table.server.name, table.game.window.id))
        table.game.process.kill()

    try:
        outcome = table.attack(kill, rng=random.Random(5), after_presses=1)
    finally:
        time.sleep(0.3)
        deliveries.terminate()
        deliveries.wait(timeout=5)
    caught = caught_by(tmp_path / "deliveries.jsonl", found.get("id"))
    outcome.off_board = [press for press in outcome.off_board if press["time"] not in caught]
    assert_stopped_cleanly(outcome, 4, "the window was closed")


def test_the_user_moving_the_pointer_stops_play(table):
    """A hand on the mouse while play plays stops it.  The move comes after play's first press: before play has
    put the pointer anywhere there is nothing to take over (a slow start-up once let the move come first)."""
    x, y, w, h = table.board

    def hand(_: object) -> None:
        """A hand moves the pointer over a stretch of time, not in one jump: one jump that falls between play's
        last check and its next own move is overwritten by that move (a loaded machine widens that gap)."""
        for step in range(4):
            table.xdotool("mousemove", str(x + w // 3 + 7 * step), str(y + h // 3 + 5 * step))
            time.sleep(0.05)

    outcome = table.attack(
        hand,
        rng=random.Random(6),
        after_presses=1,
        delay=(0.5, 2.0),
    )
    assert_stopped_cleanly(outcome, 4, "the mouse moved")


def test_ctrl_c_stops_play_and_the_report_counts_every_press(table):
    def interrupt(process):
        table.wait_for_presses(30, process=process)  # well into the first game
        process.send_signal(signal.SIGINT)

    outcome = table.attack(interrupt, delay=(0.5, 1.0), rng=random.Random(7))
    assert_stopped_cleanly(outcome, 130, "interrupted")
    summary = outcome.summary()
    assert summary is not None and summary["stopped"] == "interrupted"
    assert summary["decisions"] > 0 and summary["moves"] > 0
    assert summary["clicks_made"] == outcome.presses  # the report agrees with the X server's count


def test_a_game_paused_by_losing_focus_is_resumed(table):
    """A window that takes the keyboard focus pauses gnome-mines; play focuses it back and finishes."""
    screen_corner = (1150, 950, 100, 50)  # off the game window: only the focus moves
    # after the opening click and a first batch: the pause meets a game in progress, not a new-game step
    # (whose own focus call would resume it before play ever saw it)
    outcome = table.attack(
        lambda _: table.cover(screen_corner, focus=True)[1],
        delay=(0.0, 0.1),
        games=2,
        rng=random.Random(8),
        after_presses=3,
    )
    assert outcome.fault_at is not None
    assert outcome.exit_code == 0, outcome.stderr_lines
    summary = outcome.summary()
    assert summary is not None and summary["games"] == 2 and summary["rereads"] >= 1
    assert outcome.off_board == [] and outcome.cover_presses == []


@pytest.mark.parametrize("seconds", [4.0, 10.0])
def test_a_game_frozen_mid_game_is_waited_for_not_clicked_again(table, seconds):
    """A game that does not run for seconds (SIGSTOP: the extreme of a CPU-starved game) has not read the batch
    sent to it; play asks it (_NET_WM_PING), waits for the answer and the redraw, and finishes: no press while
    the game is stopped once what it drew before stopping has been acted on (2 s), no cell pressed twice, no
    "click(s) did not register" abort (which a 4 s stop gave before).  A game stopped with a
    cascade half drawn is the unit test ``test_a_game_stopped_with_its_cascade_half_drawn_...``: its timing here is
    chance."""

    def presses() -> list[dict]:
        return [e for e in read_events(table.record_log) if e["ev"] == "press"]

    def freeze(_):
        pid = table.game.process.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            # The first 2 s may still see presses: a batch on its way when the game stopped (on a loaded CI run its
            # last presses came over 0.5 s later), and one batch decided on a frame the game drew just before it
            # stopped (a CI run: 5 presses 0.4 s in).  From then on nothing on the screen changes, so a press could
            # only be a click again or a decision on nothing new.
            first = len(presses())
            time.sleep(2.0)
            before = len(presses())
            time.sleep(seconds - 2.0)
            stopped = presses()[first:]
        finally:
            os.kill(pid, signal.SIGCONT)
        places = [(e["x"], e["y"], e["button"]) for e in stopped]
        return {
            "presses_while_stopped": len(stopped) - (before - first),
            "pressed_twice": len(places) - len(set(places)),
        }

    outcome = table.attack(freeze, delay=(0.0, 0.3), games=2, rng=random.Random(9), after_presses=5, timeout=300)
    assert outcome.fault_at is not None
    assert outcome.exit_code == 0, outcome.stderr_lines
    assert outcome.extra["presses_while_stopped"] == 0
    assert outcome.extra["pressed_twice"] == 0
    summary = outcome.summary()
    assert summary is not None and summary["games"] == 2
    assert outcome.off_board == []


def test_play_started_with_the_pointer_on_a_tile_reads_the_board(table):
    """gnome-mines highlights the hovered tile; play moves the pointer off the board before reading."""
    x, y, w, h = table.board
    table.xdotool("mousemove", str(x + w // 2 + 3), str(y + h - 10))
    outcome = table.attack(lambda _: None, delay=(0.0, 0.0), games=1)
    assert outcome.exit_code == 0, outcome.stderr_lines
    assert outcome.off_board == []


def test_play_started_on_a_paused_game_resumes_it(table):
    x, y, w, h = table.board
    for _ in range(3):  # a key or click can be lost on a loaded machine: try until the game shows "Paused"
        table.game.window.focus()
        table.xdotool("key", "ctrl+r")  # a new game (the last test's may have ended) ...
        time.sleep(0.5)
        table.xdotool("mousemove", str(x + w // 2), str(y + h // 2), "click", "1")  # ... in progress
        table.xdotool("mousemove", str(x + w + 60), str(y - 40))
        table.cover((1150, 950, 100, 50), focus=True)  # takes the focus: the game pauses and hides its board
        if not board_visible(table):
            break
        table.remove_covers()
    assert not board_visible(table), "gnome-mines did not pause"
    outcome = table.attack(lambda _: None, delay=(0.0, 0.0), games=1)
    assert outcome.exit_code == 0, outcome.stderr_lines
    assert outcome.off_board == []


def test_the_witnesses_do_see_a_press_on_a_cover(table):
    """The checks above can fail: a press made on a cover is logged by it and counted as off the board."""
    x, y, _, _ = table.board
    rect = (x + 10, y + 10, 120, 60)

    def press_on_cover_and_beside_the_game(_):
        log = table.cover(rect)[1]
        table.xdotool("mousemove", str(x + 40), str(y + 30), "click", "1")
        table.xdotool("mousemove", "1200", "1000", "click", "1")  # bare root, outside the game window
        return log

    outcome = table.attack(press_on_cover_and_beside_the_game, delay=(0.0, 0.0), games=1)
    assert len(outcome.cover_presses) == 1
    assert [(p["x"], p["y"]) for p in outcome.off_board] == [(1200, 1000)]


def move_by(display_name: str, window_id: int, dx: int, dy: int) -> None:
    """Move a window by an offset, as the X server counts it (its outer corner, border included)."""
    from Xlib import display

    conn = display.Display(display_name)
    window = conn.create_resource_object("window", window_id)
    geometry = window.get_geometry()
    window.configure(x=geometry.x + dx, y=geometry.y + dy)
    conn.sync()
    conn.close()


def test_calibrate_live_stops_when_the_window_moves(tmp_path):
    """The blind clicks of `calibrate --live` go through the same guard: a moved window stops them."""
    import os
    import subprocess
    import sys

    from autoplay.control.games import launch_game
    from autoplay.control.xserver import VirtualDisplay
    from autoplay.play.live import find_face
    from tests.e2e.fault_harness import ROOT, WITNESS, presses_off_board, read_events, wait_ready

    with VirtualDisplay(1024, 768) as server, launch_game("xdemineur", server.name, workdir=tmp_path / "g") as game:
        env = {**os.environ, "DISPLAY": server.name, "PYTHONPATH": str(ROOT)}
        log = tmp_path / "record.jsonl"
        witness = subprocess.Popen([sys.executable, str(WITNESS), "record", server.name, str(log)], env=env)
        wait_ready(log, witness)
        window = game.window
        frame = wait_settled(lambda: grab(window.rect, server.name), interval=0.2, timeout=5).frame
        grid = locate_grid(frame)
        x0, y0, x1, y1 = grid.rect
        face = find_face(frame, grid)
        assert face is not None
        cmd = [sys.executable, "-m", "autoplay", "calibrate", "--live", "--name", "moved", "--display", server.name]
        cmd += ["--window-class", "xdemineur", "--new-game-click", "face", "--games", "50", "--out-root", str(tmp_path)]
        process = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            # at its first press (the flag); a game that names every tile may need only a few more
            while sum(e["ev"] == "press" for e in read_events(log)) < 1 and time.monotonic() < deadline:
                time.sleep(0.02)
            move_by(server.name, window.id, 120, 90)
            _, stderr = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
            time.sleep(0.3)
            witness.terminate()
            witness.wait(timeout=5)
    lines = stderr.strip().splitlines()
    assert process.returncode == 4, lines
    assert lines[-1].endswith("the window moved by (+120,+90)") and len(lines) == 1
    events = read_events(log)
    assert sum(e["ev"] == "press" for e in events) >= 1
    board = (int(x0), int(y0), int(x1 - x0), int(y1 - y0))
    assert presses_off_board(events, window.id, window.rect, board, face) == []


def test_a_dialog_of_the_game_over_the_board_is_closed_with_escape_and_play_goes_on(table):
    """gnome-mines asks "start a new game?" over the board when Ctrl+R comes mid-game: its own dialog.

    Play closes it with Escape (never a click), then finishes its games; every press lands on the board.  Ctrl+R
    between games (a game just lost) starts a new game without asking, so the key is sent again, later, until the
    X server records the dialog's window being mapped.
    """
    window = table.game.window

    def ask_for_a_new_game(process):
        for attempt in range(1, 6):
            seen = len(read_events(table.record_log))
            table.xdotool("key", "--window", str(window.id), "ctrl+r")
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                mapped = {e["window"] for e in read_events(table.record_log)[seen:] if e["ev"] == "map"} - {window.id}
                if mapped:
                    return {"dialogs": mapped, "attempts": attempt}
                time.sleep(0.05)
            if not table.wait_for_presses(10, process=process):  # well into the next game, unless play has ended
                break
        return {"dialogs": set(), "attempts": attempt}

    # 3 expert games take ~30 s on a quiet machine and 4x that at a load of 12 (seen in a CI check)
    outcome = table.attack(
        ask_for_a_new_game, rng=random.Random(8), games=3, after_presses=20, delay=(0.2, 0.5), timeout=360.0
    )
    assert outcome.fault_at is not None, "the play command ended before the dialog was asked for"
    dialogs = outcome.extra["dialogs"]
    assert dialogs, f"gnome-mines showed no dialog after {outcome.extra['attempts']} Ctrl+R"
    assert outcome.exit_code == 0, outcome.stderr_lines
    summary = outcome.summary()
    assert summary is not None and summary["wins"] + summary["losses"] == 3
    assert outcome.off_board == [], f"presses off the board: {outcome.off_board}"
    # The X server's record: every dialog that was mapped was taken down again (Escape closes it, by destroying it).
    last = {}
    for event in read_events(table.record_log):
        if event.get("window") in dialogs:
            last[event["window"]] = event["ev"]
    assert all(ev in ("unmap", "destroy") for ev in last.values()), last
    assert sum(game["dialogs_closed"] for game in summary["per_game"]) >= 1
