"""Calibration pieces: the TOML emitter, supervised checks and the unsupervised label proposals."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from autoplay.board.model import Board
from autoplay.board.textformat import read_board
from autoplay.calibrate.skin_writer import SkinSettings, skin_toml
from autoplay.calibrate.supervised import calibrate_supervised
from autoplay.calibrate.unsupervised import calibrate_unsupervised
from autoplay.cli.main import main
from autoplay.errors import AutoplayError
from autoplay.vision import decode_frame, load_skin, read_image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
XD = FIXTURES / "xdemineur"


def test_skin_toml_round_trips_through_tomllib_exactly() -> None:
    data = {
        "name": 'odd "name"\\x\x01\ttab',
        "flag": True,
        "rules": {"first_click": "zero", "ratio": 0.125, "tiny": 1e-9, "count": 3},
        "labels": {"hidden-00": ".", "16x30": 99, "key with space": "F"},
        "geometry": {"pitch_range": [12.5, 160.0], "empty": []},
    }
    text = skin_toml(data, header="line one\nline two")
    assert text.startswith("# line one\n# line two\n")
    assert tomllib.loads(text) == data


def test_supervised_refuses_label_board_of_wrong_size(tmp_path: Path) -> None:
    with pytest.raises(AutoplayError, match="found a 9x12 grid but the label board is 9x9"):
        calibrate_supervised([read_image(XD / "small_fresh.png")], [Board.empty(9, 9)], "x", tmp_path)


def test_supervised_refuses_labels_that_contradict_the_image(tmp_path: Path) -> None:
    truth = read_board(XD / "small_end.txt")
    wrong = truth.replace({truth.at(i): "5" for i, ch in enumerate(truth.cells) if ch == "1"})
    wrong = wrong.replace({truth.at(next(i for i, ch in enumerate(truth.cells) if ch == "1")): "1"})
    with pytest.raises(AutoplayError, match="look more like another label"):
        calibrate_supervised([read_image(XD / "small_end.png")], [wrong], "x", tmp_path)


def test_supervised_skin_reads_other_screenshots_of_another_size(tmp_path: Path) -> None:
    images = [read_image(XD / "small_end.png"), read_image(XD / "expert_flags.png")]
    boards = [read_board(XD / "small_end.txt"), read_board(XD / "expert_flags.txt")]
    result = calibrate_supervised(images, boards, "xd", tmp_path, SkinSettings())
    assert result.margins.misclassified == 0 and result.margins.worst_confidence > 0.5
    skin = load_skin("xd", tmp_path)
    truth = read_board(XD / "expert_mid3.txt")
    decoded = decode_frame(read_image(XD / "expert_mid3.png"), skin)
    seen = set(skin.templates)
    assert {"3", "4"} - seen == {"3", "4"}  # these two calibration screenshots show no 3 or 4 ...
    unseen = sorted(rc for rc in truth.coords() if truth[rc] not in seen)
    assert unseen and decoded.unreadable == unseen  # ... so those tiles are refused, never guessed
    for rc in truth.coords():
        if truth[rc] in seen:
            assert decoded.labels[rc] == truth[rc], rc


def test_unsupervised_proposals_name_hidden_tile_and_numbers(tmp_path: Path) -> None:
    names = ["small_fresh", "small_end", "expert_flags", "expert_mid3", "expert_end"]
    result = calibrate_unsupervised([read_image(XD / f"{n}.png") for n in names], "xd", tmp_path)
    assert result.contact_sheet.is_file() and read_image(result.contact_sheet).shape[0] > 64
    assert tomllib.loads(result.path.read_text())["labels"] == result.proposed
    skin = load_skin("xd", tmp_path)
    for name in ("small_end", "expert_end"):
        truth = read_board(XD / f"{name}.txt")
        decoded = decode_frame(read_image(XD / f"{name}.png"), skin)
        # Every hidden tile, number and shown mine gets its true label from the proposals alone.
        for r, c in truth.coords():
            if truth[r, c] in ".01234*":
                assert decoded.labels[r, c] == truth[r, c], (name, r, c)


def test_cli_unsupervised_then_decode_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "calibrate",
                str(XD / "small_fresh.png"),
                str(XD / "small_end.png"),
                "--name",
                "xd",
                "--out-root",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "contact sheet:" in out and (tmp_path / "templates" / "xd" / "contact-sheet.png").is_file()
    monkeypatch.setenv("AUTOPLAY_HOME", str(FIXTURES.parents[1]))
    assert main(["decode", str(XD / "small_end.png"), "--skin", "xdemineur", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == "lost" and data["grid"]["rows"] == 9 and data["grid"]["cols"] == 12
    assert data["board"] == read_board(XD / "small_end.txt").row_strings()
    assert np.array(data["confidence"]).shape == (9, 12)


def test_cli_errors_exit_3_with_debug_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    monkeypatch.setenv("AUTOPLAY_HOME", str(FIXTURES.parents[1]))
    blank = tmp_path / "desktop.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    assert main(["decode", str(blank), "--skin", "xdemineur", "--debug-dir", str(tmp_path / "dbg")]) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no Minesweeper board" in err
    assert (tmp_path / "dbg" / "desktop-debug.png").is_file()
    half = tmp_path / "half.png"
    cv2.imwrite(str(half), read_image(XD / "expert_mid3.png")[:, :300])
    assert main(["decode", str(half), "--skin", "xdemineur", "--debug-dir", str(tmp_path / "dbg")]) == 3
    assert "runs off the right edge" in capsys.readouterr().err
    assert main(["decode", str(XD / "small_end.txt"), "--skin", "xdemineur"]) == 3
    assert "not an image" in capsys.readouterr().err
    covered = read_image(XD / "expert_mid3.png")
    cv2.rectangle(covered, (200, 180), (330, 250), (255, 255, 255), -1)  # a window over part of the board
    cv2.imwrite(str(tmp_path / "covered.png"), covered)
    assert (
        main(["decode", str(tmp_path / "covered.png"), "--skin", "xdemineur", "--debug-dir", str(tmp_path / "dbg")])
        == 3
    )
    err = capsys.readouterr().err
    assert "unreadable cells" in err and (tmp_path / "dbg" / "covered-debug.png").is_file()


def test_a_lone_mine_tile_is_a_mine_and_the_fatal_one_is_found_without_neighbours() -> None:
    """Blind live games: the only mine-like tile is the mine (not a flag); the fatal click has no numbers around."""
    from autoplay.calibrate.propose import propose_labels

    fresh = np.zeros((4, 5), dtype=int)
    lost = np.array([[9, 1, 0, 0, 0], [1, 1, 0, 0, 9], [0, 0, 0, 0, 8], [9, 0, 0, 0, 0]])
    again = np.array([[0, 9, 0, 1, 9], [0, 0, 0, 1, 1], [8, 0, 0, 0, 0], [0, 0, 0, 0, 9]])
    proposals = propose_labels([fresh, lost, again])
    assert proposals == {0: ".", 1: "1", 9: "*", 8: "X"}
    # A number seen before and after the loss is a flag only where flags can exist.
    opened = np.array([[0, 0, 4, 0, 0]] + [[0] * 5] * 3)
    with_four = [fresh, opened, lost + (opened == 4) * 4, again]
    assert propose_labels(with_four).get(4) == "F"
    assert 4 not in propose_labels(with_four, flags_possible=False)


@pytest.mark.parametrize("chord, written", [("middle", "middle"), ("left", "left"), ("none", None), ("find", None)])
def test_a_chord_button_named_on_the_command_line_is_written_with_the_skin(
    tmp_path: Path, chord: str, written: str | None
) -> None:
    """From screenshots nothing can be tried: a named button is written as it is, 'find' writes none."""
    args = ["calibrate", str(XD / "small_fresh.png"), str(XD / "small_end.png"), "--name", "xd"]
    assert main([*args, "--out-root", str(tmp_path), "--chord", chord]) == 0
    assert load_skin("xd", tmp_path).chord == written
