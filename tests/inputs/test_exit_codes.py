"""The README's exit-code table, enforced: every command given a bad argument says so in one line.

Each case runs the real command through ``main([...])`` and checks the exit code, that stderr holds exactly
one line, and what the line names; a traceback would fail the test as an escaping exception.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import types
from pathlib import Path

import pytest

from autoplay.cli.main import COMMANDS, main
from autoplay.errors import ExitCode
from autoplay.vision.skin_home import shipped_home

GNOME = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
BOARD = "mines=10\n..1000...\n..2100...\n.........\n"


@pytest.fixture
def files(tmp_path):
    """Inputs the cases refer to by name."""
    (tmp_path / "board.txt").write_text(BOARD)
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "mismatch.txt").write_text("mines=3\n*1.\n11.\n...\n")
    (tmp_path / "lost.txt").write_text("*1\n11\n")
    norec = tmp_path / "no-games"
    norec.mkdir()
    (norec / "session.json").write_text(json.dumps({"skin": "gnome-mines"}))
    (norec / "decisions.jsonl").write_text(
        json.dumps({"type": "decision", "game": 1, "frame": "frames/000001.png", "board": "1.\n..\n", "moves": []})
        + "\n"
    )
    return tmp_path


# (argv with {tmp} for the case's folder, exit code, words the one line must contain)
CASES = [
    (["solve", "{tmp}/board.txt", "--mines", "-3"], ExitCode.USAGE, "--mines: must be 0 or more"),
    (["solve", "{tmp}/board.txt", "--time-limit", "0"], ExitCode.USAGE, "more than 0 seconds"),
    (["solve", "{tmp}/lost.txt"], ExitCode.USAGE, "no hidden cell left"),
    (["solve", "{tmp}/missing.txt"], ExitCode.USAGE, "no such file"),
    (["simulate", "--games", "0"], ExitCode.USAGE, "--games: must be 1 or more"),
    (["simulate", "--jobs", "-2"], ExitCode.USAGE, "--jobs: must be 0 or more"),
    (["simulate", "--rows", "3", "--cols", "3", "--mines", "9", "--rule", "zero"], ExitCode.USAGE, "do not fit"),
    (["analyze", "{tmp}/board.txt", "--mines", "-3"], ExitCode.USAGE, "--mines"),
    (["analyze", "{tmp}/board.txt", "--out", "{tmp}/x/y/heat.png"], ExitCode.USAGE, "does not exist"),
    (["analyze", "{tmp}/board.txt", "--time-limit", "-1"], ExitCode.USAGE, "--time-limit"),
    (["grade", "{tmp}/mismatch.txt"], ExitCode.USAGE, "mines=3 but the layout shows 1"),
    (["grade", "--max-numbers", "0"], ExitCode.USAGE, "--max-numbers"),
    (["generate", "--count", "0"], ExitCode.USAGE, "--count: must be 1 or more"),
    (["generate", "--out", "{tmp}/x/y"], ExitCode.USAGE, "does not exist"),
    (["replay", "{tmp}/nothing-here", "--skin", "gnome-mines"], ExitCode.USAGE, "no such file or folder"),
    (["replay", "{tmp}/no-games", "--audit"], ExitCode.CHECK_FAILED, "no finished game to audit"),
    (["report", "{tmp}/nothing-here"], ExitCode.USAGE, "no such folder"),
    (["report", "{tmp}", "--time-limit", "0"], ExitCode.USAGE, "--time-limit"),
    (["report", "{tmp}"], ExitCode.USAGE, "no recording here"),
    (["replay", "{tmp}/board.txt", "--time-limit", "0"], ExitCode.USAGE, "--time-limit"),
    (["decode", "{tmp}/shot.png", "--skin", "no-such-skin"], ExitCode.USAGE, "unknown skin 'no-such-skin'"),
    (["decode", "{tmp}/shot.png", "--skin", "../calibration/gnome-mines"], ExitCode.USAGE, "unknown skin"),
    (["decode", "{gnome}/beginner_end.png", "--skin", "gnome-mines", "--debug-dir", "{tmp}/a-file"], 2, "is a file"),
    (["decode", "{tmp}/missing.png", "--skin", "gnome-mines"], ExitCode.UNREADABLE, "no such image file"),
    (["calibrate", "{gnome}/beginner_end.png", "--name", "../evil"], ExitCode.USAGE, "not a plain name"),
    (["calibrate", "{gnome}/beginner_end.png", "--name", "ok", "--out-root", "{tmp}/a-file"], 2, "is a file"),
    (["calibrate", "--live", "--name", "x", "--games", "0"], ExitCode.USAGE, "--games: must be 1 or more"),
    (["play", "--skin", "no-such-skin"], ExitCode.USAGE, "unknown skin"),
    (["play", "--skin", "gnome-mines", "--games", "0"], ExitCode.USAGE, "--games: must be 1 or more"),
    (["play", "--skin", "gnome-mines", "--time-limit", "nan"], ExitCode.USAGE, "--time-limit"),
    (["play", "--skin", "gnome-mines", "--record", "{tmp}/a-file"], ExitCode.USAGE, "--record is a file"),
    (["watch", "--skin", "no-such-skin"], ExitCode.USAGE, "unknown skin"),
    (["watch", "--skin", "gnome-mines", "--time-limit", "0"], ExitCode.USAGE, "--time-limit"),
    (["watch", "--skin", "gnome-mines", "--json", "--terminal"], ExitCode.USAGE, "not allowed with"),
    (["launch", "minesweeper-9000"], ExitCode.USAGE, "invalid choice"),
    (["launch", "xdemineur", "--mines", "-1"], ExitCode.USAGE, "--mines"),
    (["demo", "--games", "0"], ExitCode.USAGE, "--games: must be 1 or more"),
    (["no-such-command"], ExitCode.USAGE, "invalid choice"),
]


@pytest.mark.parametrize("argv, code, words", CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_bad_arguments_give_one_line_and_the_tables_exit_code(files, capsys, argv, code, words):
    argv = [a.format(tmp=files, gnome=GNOME) for a in argv]
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_every_command_is_attacked():
    attacked = {case[0][0] for case in CASES}
    assert {name.rsplit(".", 1)[1] for name in COMMANDS} <= attacked


def test_nothing_is_written_outside_the_paths_given(files, capsys):
    assert main(["analyze", f"{files}/board.txt", "--out", f"{files}/x/y/heat.png"]) == 2
    assert not (files / "x").exists()
    assert main(["analyze", f"{files}/board.txt", "--out", f"{files}/new/heat.png"]) == 0  # one level: made
    assert (files / "new" / "heat.png").is_file()
    root = files / "home"
    assert main(["calibrate", str(GNOME / "beginner_end.png"), "--name", "../evil", "--out-root", str(root)]) == 2
    assert not root.exists() and not (files / "evil.toml").exists()


def test_debug_pictures_go_to_a_per_run_folder_whose_path_is_printed(tmp_path, capsys, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    blank = tmp_path / "blank.png"
    shutil.copy(GNOME / "beginner_end.png", tmp_path / "shot.png")
    import cv2
    import numpy as np

    cv2.imwrite(str(blank), np.full((200, 300, 3), 90, np.uint8))
    paths = []
    for _ in range(2):
        assert main(["decode", str(blank), "--skin", "gnome-mines"]) == ExitCode.UNREADABLE
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        paths.append(Path(err.split("debug image: ")[1].rstrip(")\n")))
    assert paths[0] != paths[1] and all(p.is_file() for p in paths)  # two runs never overwrite each other
    assert all(p.parent.parent == tmp_path and p.parent.name.startswith("autoplay-debug-") for p in paths)
    assert main(["decode", str(tmp_path / "shot.png"), "--skin", "gnome-mines"]) == 0
    assert len(list(tmp_path.glob("autoplay-*"))) == 2  # a successful decode leaves nothing behind


def test_a_folder_without_write_permission_is_refused_before_decoding(tmp_path, capsys, monkeypatch):
    """A read-only --debug-dir (answered by os.access as a read-only mount would; root could write anyway)."""
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    argv = ["decode", str(GNOME / "beginner_end.png"), "--skin", "gnome-mines", "--debug-dir", str(tmp_path)]
    assert main(argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not writable" in err


@pytest.mark.parametrize(
    "change, words",
    [
        (("match", "max_distance", '"high"'), "max_distance = 'high': expected a number"),
        (("match", "patch_size", "-3"), "patch_size = -3: expected a whole number in (2, 64]"),
        (("match", "inset", "0.9"), "inset = 0.9"),
        (("geometry", "pitch_range", "[40, 10]"), "pitch_range"),
    ],
)
def test_broken_skin_values_are_one_line_usage_errors(tmp_path, capsys, monkeypatch, change, words):
    home = skin_copy(tmp_path)
    section, key, value = change
    toml = home / "calibration" / "gnome-mines.toml"
    lines = toml.read_text().splitlines()
    at = lines.index(f"[{section}]")
    lines = [line for line in lines if not line.startswith(f"{key} =")]
    lines.insert(at + 1, f"{key} = {value}")
    toml.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("AUTOPLAY_HOME", str(home))
    assert main(["decode", str(GNOME / "beginner_end.png"), "--skin", "gnome-mines"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_missing_skin_templates_are_a_usage_error(tmp_path, capsys, monkeypatch):
    home = skin_copy(tmp_path)
    next((home / "templates" / "gnome-mines").glob("*.png")).unlink()
    monkeypatch.setenv("AUTOPLAY_HOME", str(home))
    assert main(["decode", str(GNOME / "beginner_end.png"), "--skin", "gnome-mines"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "template" in err and "no such image file" in err


def skin_copy(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "calibration").mkdir(parents=True)
    shutil.copy(shipped_home() / "calibration" / "gnome-mines.toml", home / "calibration")
    shutil.copytree(shipped_home() / "templates" / "gnome-mines", home / "templates" / "gnome-mines")
    return home


def test_a_missing_display_library_is_one_line_exit_4(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "Xlib", None)  # what an install without python-xlib looks like to import
    monkeypatch.setitem(sys.modules, "Xlib.display", None)
    # the X11 backend asked for by name (the automatic choice falls back to the portable one: tests/control)
    assert main(["play", "--skin", "gnome-mines", "--display", ":93", "--backend", "x11"]) == ExitCode.CONTROL
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "python-xlib" in err, err


def test_the_fail_safe_outside_a_click_is_one_line_exit_4(monkeypatch, capsys):
    fake = types.ModuleType("pyautogui")

    class FailSafeException(Exception):
        pass

    fake.FailSafeException = FailSafeException
    monkeypatch.setitem(sys.modules, "pyautogui", fake)

    def pointer_in_a_corner(args):
        raise FailSafeException("PyAutoGUI fail-safe triggered from mouse moving to a corner of the screen.\nTo ...")

    import autoplay.cli.solve

    monkeypatch.setattr(autoplay.cli.solve, "run", pointer_in_a_corner)
    assert main(["solve", "whatever.txt"]) == ExitCode.CONTROL
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fail-safe" in err


def test_other_exceptions_still_show_their_traceback(monkeypatch):
    import autoplay.cli.solve

    def bug(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(autoplay.cli.solve, "run", bug)
    with pytest.raises(ZeroDivisionError):
        main(["solve", "whatever.txt"])


def test_audit_reads_a_recording_cut_by_a_crash_with_one_warning(tmp_path, capsys):
    rec = tmp_path / "rec"
    rec.mkdir()
    (rec / "session.json").write_text(json.dumps({"skin": "gnome-mines", "rules": "zero"}))
    lines = [
        {"type": "decision", "game": 1, "frame": "frames/000001.png", "board": "mines=1\n1.\n..\n", "guess": False,
         "moves": [{"action": "reveal", "row": 1, "col": 0, "probability": 0.0}], "reason": "certain"},
        {"type": "game", "game": 1, "result": "lost", "final_board": "mines=1\n1*\n11\n"},
    ]  # fmt: skip
    cut = json.dumps({"type": "decision", "game": 2, "frame": "frames/000002.png"})[:30]
    (rec / "decisions.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines) + cut)
    assert main(["replay", str(rec), "--audit"]) == ExitCode.OK
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "decisions.jsonl:3: last line cut short" in captured.err
    assert captured.out.startswith("1 game(s) audited") and "0 misread cell(s)" in captured.out


def test_an_image_with_two_boards_is_refused_naming_both(tmp_path, capsys):
    import cv2
    import numpy as np

    left, right = (cv2.imread(str(GNOME / name)) for name in ("beginner_end.png", "beginner_flags.png"))
    height = max(left.shape[0], right.shape[0])

    def padded(image):
        return np.pad(image, ((0, height - image.shape[0]), (0, 0), (0, 0)))

    two = tmp_path / "two.png"
    cv2.imwrite(str(two), np.hstack([padded(left), np.zeros((height, 40, 3), np.uint8), padded(right)]))
    assert main(["decode", str(two), "--skin", "gnome-mines"]) == ExitCode.UNREADABLE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two boards on the image, 8x8 at" in err and " and 8x8 at " in err
    assert main(["decode", str(GNOME / "beginner_end.png"), "--skin", "gnome-mines"]) == ExitCode.OK  # one board
