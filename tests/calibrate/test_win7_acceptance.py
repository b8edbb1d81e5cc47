"""Acceptance: a skin calibrated on one Windows 7 screenshot reads two others exactly, all through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoplay.board.textformat import parse_board, read_board
from autoplay.cli.main import main

WIN7 = Path(__file__).resolve().parents[1] / "fixtures" / "win7"


@pytest.fixture(scope="module")
def win7_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    code = main(
        [
            "calibrate",
            str(WIN7 / "w7_mine2.png"),
            "--labels",
            str(WIN7 / "w7_mine2.txt"),
            "--name",
            "win7",
            "--out-root",
            str(home),
            "--mines",
            "16x30=99",
        ]
    )
    assert code == 0
    return home


def test_calibration_writes_skin_files(win7_home: Path) -> None:
    assert (win7_home / "calibration" / "win7.toml").is_file()
    names = {p.stem.split("-")[0] for p in (win7_home / "templates" / "win7").glob("*.png")}
    assert names == {"hidden", "flag", "n0", "n1", "n2", "n3", "n4", "n5"}


@pytest.mark.parametrize("name", ["w7_mine3", "w7_mine4"])
def test_decode_reproduces_label_board(
    win7_home: Path, name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AUTOPLAY_HOME", str(win7_home))
    capsys.readouterr()
    assert main(["decode", str(WIN7 / f"{name}.png"), "--skin", "win7"]) == 0
    decoded = parse_board(capsys.readouterr().out)
    truth = read_board(WIN7 / f"{name}.txt")
    assert decoded.mines == 99
    matches = sum(a == b for a, b in zip(decoded.cells, truth.cells))
    assert (decoded.rows, decoded.cols) == (16, 30) and matches == 480
