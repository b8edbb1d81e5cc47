"""Skin homes: a user's skins live in their own folder, are found before the shipped ones, and never touch the package."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autoplay.cli.main import main
from autoplay.errors import AutoplayError
from autoplay.vision import list_skins, load_skin
from autoplay.vision.skin_home import shipped_home, skin_homes, user_home

REPO = Path(__file__).resolve().parents[2]
XD = REPO / "tests" / "fixtures" / "xdemineur"


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh per-user data folder (platformdirs follows XDG_DATA_HOME on Linux), AUTOPLAY_HOME unset."""
    monkeypatch.delenv("AUTOPLAY_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "autoplay"


def test_shipped_skins_come_from_the_package_data(data_home: Path) -> None:
    home = shipped_home()
    assert {"gnome-mines", "xdemineur", "win7"} <= {p.stem for p in (home / "calibration").glob("*.toml")}
    assert (home / "templates" / "gnome-mines").is_dir()
    assert skin_homes() == [data_home, home]
    assert {"gnome-mines", "xdemineur", "win7"} <= set(list_skins())


def test_calibrate_without_out_root_writes_to_the_user_folder_and_that_skin_wins(data_home: Path) -> None:
    before = sorted(p.name for p in (shipped_home() / "calibration").iterdir())
    args = ["calibrate", str(XD / "small_fresh.png"), str(XD / "small_end.png"), "--name", "xdemineur"]
    assert main(args) == 0
    assert (data_home / "calibration" / "xdemineur.toml").is_file()
    assert (data_home / "templates" / "xdemineur" / "contact-sheet.png").is_file()
    assert sorted(p.name for p in (shipped_home() / "calibration").iterdir()) == before
    # The user's blind calibration, not the shipped skin, is what a plain lookup returns.
    assert load_skin("xdemineur").thresholds == load_skin("xdemineur", data_home).thresholds
    assert load_skin("xdemineur").thresholds != load_skin("xdemineur", shipped_home()).thresholds


def test_autoplay_home_overrides_the_user_folder(
    tmp_path: Path, data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / "own"
    (own / "calibration").mkdir(parents=True)
    shutil.copy(shipped_home() / "calibration" / "win7.toml", own / "calibration" / "mine.toml")
    shutil.copytree(shipped_home() / "templates" / "win7", own / "templates" / "mine")
    monkeypatch.setenv("AUTOPLAY_HOME", str(own))
    assert user_home() == own and skin_homes()[0] == own
    assert "mine" in list_skins() and "gnome-mines" in list_skins()
    assert load_skin("mine").templates
    with pytest.raises(AutoplayError, match=r"unknown skin 'nope' \(available under .*own.*: .*gnome-mines"):
        load_skin("nope")
