"""``autoplay solve`` end to end through ``main([...])``: output shapes and one-line user errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autoplay.cli.main import main


def write(tmp_path, text: str, name: str = "board.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_json_output(tmp_path, capsys):
    path = write(tmp_path, "mines=10\n1.....\n1.....\n1.....\n")
    assert main(["solve", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["rows"], out["cols"], out["mode"]) == (3, 6, "global")
    assert len(out["probabilities"]) == 3 and all(len(row) == 6 for row in out["probabilities"])
    assert out["probabilities"][0][0] is None
    assert out["probabilities"][1][1] == 1.0
    assert out["safe"] == [[0, 1], [2, 1]] and out["mines"] == [[1, 1]]
    assert out["move"] == {"action": "reveal", "row": 0, "col": 1, "probability": 0.0}


def test_mines_option_overrides_the_header(tmp_path, capsys):
    path = write(tmp_path, "mines=5\n..1\n..1\n111\n")
    assert main(["solve", path, "--json", "--mines", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [0, 0] in out["safe"]
    assert main(["solve", path, "--json", "--mines", "2"]) == 0
    assert [0, 0] in json.loads(capsys.readouterr().out)["mines"]


def test_local_mode_without_a_count(tmp_path, capsys):
    path = write(tmp_path, "..1\n..1\n111\n")
    assert main(["solve", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "local"
    assert out["probabilities"][0][0] is None


def test_text_output_shows_percentages_and_the_move(tmp_path, capsys):
    path = write(tmp_path, "mines=2\n1.........\n..........\n")
    assert main(["solve", path]) == 0
    out = capsys.readouterr().out
    assert "33%" in out and "6%" in out
    assert "move: reveal" in out and "guess" in out


@pytest.mark.parametrize(
    "text, message",
    [
        ("..1\n..\n", "row 1 has 2 cells"),
        ("..a\n...\n", "unknown character"),
        ("4.\n..\n", "more than the cell's 3 neighbours"),
        ("", "empty board"),
        ("# only a comment\n", "empty board"),
        ("1F\nF.\n", "flagged"),
        ("mines=1\n1...\n....\n....\n...1\n", "too few mines"),
    ],
)
def test_bad_boards_exit_2_with_one_line(tmp_path, capsys, text, message):
    path = write(tmp_path, text)
    assert main(["solve", path]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.txt")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_negative_mines_is_a_user_error(tmp_path, capsys):
    path = write(tmp_path, "1.\n..\n")
    assert main(["solve", path, "--mines", "-1"]) == 2
    assert "--mines" in capsys.readouterr().err


def test_runs_as_a_real_command(tmp_path):
    path = write(tmp_path, "mines=1\n1..\n...\n")
    done = subprocess.run(
        [sys.executable, "-m", "autoplay", "solve", path, "--json"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mode"] == "global"
