"""``autoplay analyze`` end to end through the real CLI entry point (text boards; no screen involved)."""

import json

import cv2

from autoplay.cli.main import main

BOARD = "mines=4\n..1..\n..1..\n111..\n.....\n"


def write(tmp_path, text, name="board.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_json_report_has_cells_subsystems_and_the_move(tmp_path, capsys):
    assert main(["analyze", write(tmp_path, BOARD), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "global" and data["mines"] == 4
    cells = {(c["row"], c["col"]): c for c in data["cells"]}
    assert set(cells) == {(r, c) for r in range(4) for c in range(5)} - {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert cells[(3, 4)]["local"] is None and cells[(3, 4)]["frontier"] is False
    assert data["subsystems"] and all(s["mine_counts"] for s in data["subsystems"])
    total = sum(data["weighted"].values())
    assert total == data["solutions"]["global"]
    move = data["decision"]["moves"][0]
    assert cells[(move["row"], move["col"])]["global"] == min(c["global"] for c in data["cells"])


def test_text_report_without_a_terminal_has_no_colour_codes(tmp_path, capsys):
    assert main(["analyze", write(tmp_path, BOARD)]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out
    assert "global view" in out and "subsystems (mines in it -> solutions)" in out and "move: " in out


def test_mines_option_and_local_only_view(tmp_path, capsys):
    path = write(tmp_path, BOARD.replace("mines=4\n", ""))
    assert main(["analyze", path]) == 0
    assert "local view only" in capsys.readouterr().out
    assert main(["analyze", path, "--mines", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == 5


def test_out_writes_a_picture(tmp_path, capsys):
    out = tmp_path / "pics" / "heat.png"
    assert main(["analyze", write(tmp_path, BOARD), "--out", str(out)]) == 0
    image = cv2.imread(str(out))
    assert image is not None and image.shape == (5 * 28, 6 * 28, 3)


def test_user_mistakes_are_one_line_errors(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / "missing.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["analyze", write(tmp_path, "3.\n.1\n", "bad.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cells (0,0)" in err
    assert main(["analyze", write(tmp_path, BOARD), "--mines", "30"]) == 2
    assert "too many mines" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "shot.png")]) == 2
    assert "needs --skin" in capsys.readouterr().err


def test_a_finished_board_has_no_move_and_shows_its_mine(tmp_path, capsys):
    assert main(["analyze", write(tmp_path, "mines=1\n1*\n11\n")]) == 0
    out = capsys.readouterr().out
    assert "move: none" in out and out.splitlines()[2].split() == ["0", "1", "*"]
