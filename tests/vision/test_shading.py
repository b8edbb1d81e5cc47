"""Tiles drawn see-through over a picture (kmines): read by shape when their shade is new, never misread."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.board.model import Board
from autoplay.cli.main import main
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision import retry as retry_module
from autoplay.vision.classify import Classification

KMINES = Path(__file__).resolve().parents[1] / "fixtures" / "kmines"


def _refuse(image, grid, skin, cells):
    n = len(cells)
    return Classification(np.full(n, "?"), np.ones(n), np.zeros(n), np.zeros(n, bool))


@pytest.fixture(scope="module")
def skin_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A kmines skin labelled from one game's board only: the tiles of the places that game opened."""
    home = tmp_path_factory.mktemp("home")
    frame, labels = KMINES / "tile31_mid.png", KMINES / "tile31_mid.txt"
    assert main(["calibrate", str(frame), "--labels", str(labels), "--name", "km", "--out-root", str(home)]) == 0
    # The match limit live calibration learns from one game's pixel-identical tiles (0.04), not the looser one
    # labelled calibration derives from the gaps between labels.
    toml = home / "calibration" / "km.toml"
    lines = toml.read_text().splitlines()
    section = ""
    for k, line in enumerate(lines):
        if line.startswith("["):
            section = line
        elif "=" in line and (section == "[label_max_distance]" or line.startswith("max_distance")):
            lines[k] = line.split("=")[0] + "= 0.04"
    toml.write_text("\n".join(lines) + "\n")
    return home


def _read(home: Path, name: str) -> tuple[int, int, int]:
    frame, truth = read_image(KMINES / f"{name}.png"), Board.from_text((KMINES / f"{name}.txt").read_text())
    decoded = decode_frame(frame, load_skin("km", home), None, truth.mines)
    unread = set(map(tuple, decoded.unreadable))
    read = [i for i in range(len(truth.cells)) if divmod(i, truth.cols) not in unread]
    wrong = [i for i in read if decoded.board.cells[i] != truth.cells[i]]
    return len(read), len(unread), len(wrong)


def test_tiles_of_places_the_skin_never_saw_are_read_by_shape_and_none_wrong(skin_home, monkeypatch):
    shaded = _read(skin_home, "tile31_mid2")
    retry_module._CACHES.clear()
    monkeypatch.setattr(retry_module, "classify_shaded", _refuse)
    plain = _read(skin_home, "tile31_mid2")
    assert shaded[2] == 0 and plain[2] == 0
    assert shaded[0] > plain[0], (shaded, plain)
