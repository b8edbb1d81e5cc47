"""What the launcher writes and how it fails when something is not installed (no X needed)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from autoplay.control import games, xserver
from autoplay.control.games import (
    _end_process_group,
    _group_alive,
    find_binary,
    gnome_mines_keyfile,
    launch_game,
    prepare_gnome_mines,
)
from autoplay.control.xserver import VirtualDisplay
from autoplay.errors import ControlError


def test_gnome_mines_settings_turn_off_everything_that_changes_the_board_by_itself(tmp_path):
    env = prepare_gnome_mines(tmp_path, 16, 30, 99, mode=2)
    keyfile = (tmp_path / "config" / "glib-2.0" / "settings" / "keyfile").read_text()
    assert keyfile.startswith("[org/gnome/Mines]\n")
    for line in (
        "mode=2",
        "use-animations=false",
        "use-question-marks=false",
        "use-autoflag=false",
        "theme='bgcolors'",
        "window-is-maximized=false",
    ):
        assert line in keyfile.splitlines()
    scores = (tmp_path / "data" / "gnome-mines" / "scores" / "30-16-99").read_text().splitlines()
    assert len(scores) == 10  # a full top ten that no real time beats: no high-score dialog after a win
    assert env["GSETTINGS_BACKEND"] == "keyfile" and env["XDG_CONFIG_HOME"] == str(tmp_path / "config")
    assert "mode=3" in gnome_mines_keyfile(10, 12, 20, None)


def test_missing_xvfb_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(xserver.shutil, "which", lambda name: None)
    with pytest.raises(ControlError, match="Debian package: xvfb"):
        VirtualDisplay().start()


def test_missing_game_names_its_package(monkeypatch):
    monkeypatch.setattr(games.shutil, "which", lambda name: None)
    monkeypatch.setattr(games, "GAME_DIRS", ())
    with pytest.raises(ControlError, match="Debian package: xdemineur"):
        find_binary("xdemineur")


def test_unknown_game_and_too_narrow_xdemineur_are_refused_before_starting_anything():
    with pytest.raises(ControlError, match="unknown game"):
        launch_game("no-such-game", ":0")
    with pytest.raises(ControlError, match="12 columns"):
        launch_game("xdemineur", ":0", preset="beginner")


def test_gnome_mines_plays_its_own_sizes_and_its_top_ten_file_matches_them(tmp_path, monkeypatch):
    """gnome-mines' small board is 8x8: a top ten named after 9x9 would not stop the high-score dialog."""
    started = {}

    def fake_popen(argv, env, **kwargs):
        started["argv"], started["env"] = argv, env
        raise ControlError("stop before any window is looked for")

    monkeypatch.setattr(games, "find_binary", lambda name: "/usr/games/gnome-mines")
    monkeypatch.setattr(games.subprocess, "Popen", fake_popen)
    with pytest.raises(ControlError, match="stop before"):
        launch_game("gnome-mines", ":0", preset="beginner", workdir=tmp_path)
    assert started["argv"][1] == "--small"
    assert (tmp_path / "data" / "gnome-mines" / "scores" / "8-8-10").is_file()
    with pytest.raises(ControlError, match="preset sizes only"):
        launch_game("gnome-mines", ":0", preset="beginner", rows=9, cols=9, workdir=tmp_path)


def _plan(name, tmp_path, preset="expert", tile=None, no_guess=False):
    from autoplay.control.launchers import SPECS, LaunchRequest

    spec = SPECS[name]
    return spec.plan(LaunchRequest(tmp_path, f"/usr/games/{spec.binary}", spec.sizes[preset], preset, tile, no_guess))


def test_sgt_mines_asks_for_ordinary_boards_unless_no_guess_and_takes_its_tile_size_from_the_environment(tmp_path):
    plan = _plan("sgt-mines", tmp_path, tile=28)
    assert plan.argv[1:] == ["--game", "30x16n99a"]  # 'a': boards that may need a guess, like every other game
    assert plan.env["MINES_TILESIZE"] == "28"
    assert plan.env["XDG_CONFIG_HOME"].startswith(str(tmp_path))
    assert _plan("sgt-mines", tmp_path, no_guess=True).argv[1:] == ["--game", "30x16n99"]


def test_kmines_runs_on_its_own_bus_with_private_settings_and_no_dialog_after_a_loss(tmp_path, monkeypatch):
    from autoplay.control import launchers

    monkeypatch.setattr(launchers, "find_dbus_run_session", lambda: "/usr/bin/dbus-run-session")
    plan = _plan("kmines", tmp_path, tile=24)
    assert plan.argv[:3] == ["/usr/bin/dbus-run-session", "--", "/usr/games/kmines"]
    assert plan.argv[3:] == ["-qwindowgeometry", "772x516+0+0"]  # 24 px tiles, measured
    config = (tmp_path / "config" / "kminesrc").read_text().splitlines()
    assert "Level=Hard" in config and "kmines_reset=false" in config and "question mark=false" in config
    _plan("kmines", tmp_path, preset="beginner")
    assert "Level=Easy" in (tmp_path / "config" / "kminesrc").read_text().splitlines()


def test_xbomb_plays_squares_at_the_asked_tile_size_with_the_servers_own_font(tmp_path):
    plan = _plan("xbomb", tmp_path, tile=32)
    assert plan.argv[1:5] == ["-square", "-3", "-geometry", "970x568+0+0"]
    assert "*grid.font: fixed" in plan.argv and "*font: fixed" in plan.argv


def test_sizes_a_game_cannot_play_and_options_it_lacks_are_refused_before_starting(tmp_path):
    with pytest.raises(ControlError, match="preset sizes only"):
        launch_game("kmines", ":0", rows=20, workdir=tmp_path)
    with pytest.raises(ControlError, match="fixed tile size"):
        launch_game("xdemineur", ":0", tile=30, workdir=tmp_path)
    with pytest.raises(ControlError, match="sgt-mines only"):
        launch_game("xbomb", ":0", no_guess=True, workdir=tmp_path)
    with pytest.raises(ControlError, match="drawn at one scale"):
        launch_game("gnome-mines", ":0", scale=1.25, workdir=tmp_path)


def test_kmines_draws_its_whole_window_at_a_qt_scale_factor_in_a_window_of_the_same_size(tmp_path, monkeypatch):
    from autoplay.control import launchers

    monkeypatch.setattr(launchers, "find_dbus_run_session", lambda: "/usr/bin/dbus-run-session")
    request = launchers.LaunchRequest(tmp_path, "/usr/games/kmines", (16, 30, 99), "expert", scale=1.25)
    plan = launchers.plan_kmines(request)
    assert plan.env["QT_SCALE_FACTOR"] == "1.25"
    assert plan.argv[3:] == ["-qwindowgeometry", "800x560+0+0"]  # Qt's units: 1000x700 on the screen


def test_a_stopped_game_leaves_no_process_of_its_group_behind():
    """A game started through a wrapper (kmines under dbus-run-session) can outlive the wrapper: stopping waits
    for the whole group, so the next launch cannot take the old game's window for its own."""
    # the "wrapper" exits at once on SIGTERM; its child ignores SIGTERM for a moment, as a game saving its state might
    child = "import signal, time; signal.signal(signal.SIGTERM, lambda *_: (time.sleep(0.5), exit(0))); time.sleep(30)"
    wrapper = f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {child!r}]); time.sleep(30)"
    process = subprocess.Popen([sys.executable, "-c", wrapper], start_new_session=True)
    time.sleep(0.5)  # the child is running
    assert _group_alive(process.pid)
    _end_process_group(process)
    assert not _group_alive(process.pid)


def test_a_program_that_exits_at_start_is_reported_with_its_last_words(tmp_path):
    """The one line a user sees names why (here: the program's own last stderr line), not just the code."""
    from autoplay.control.launchers import LaunchPlan

    said = "import sys; print('starting', file=sys.stderr); print('cannot open display', file=sys.stderr); sys.exit(1)"

    def plan(root):
        return LaunchPlan([sys.executable, "-c", said], {})

    def find(process, timeout):
        process.wait(timeout)
        raise ControlError("no window")

    with pytest.raises(ControlError, match=r"^demo exited at start with code 1: cannot open display$"):
        games._start("demo", ":0", plan, find, tmp_path / "work", 5.0)
