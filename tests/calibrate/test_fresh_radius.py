"""Live calibration clusters tiles with a radius the game's own fresh board measures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.calibrate.cluster import CLUSTER_RADIUS
from autoplay.calibrate.tilebook import MIN_RADIUS, TileBook, fresh_radius
from autoplay.vision import read_image
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.locate import locate_grid

CLONE = Path(__file__).resolve().parents[1] / "fixtures" / "tk-clone"
KMINES = Path(__file__).resolve().parents[1] / "fixtures" / "kmines"


def _vectors(name: Path) -> tuple[np.ndarray, int]:
    image = read_image(name)
    grid = locate_grid(image)
    return patch_vectors(cell_patches(image, grid)), grid.cols


def test_faint_digits_of_a_pixel_exact_game_are_told_apart():
    fresh, _ = _vectors(CLONE / "look14_fresh.png")
    lost, cols = _vectors(CLONE / "look14_lost.png")
    radius = fresh_radius(fresh)
    assert radius == pytest.approx(MIN_RADIUS)
    book = TileBook(radius)
    book.assign(fresh, lambda k: np.zeros((1, 1, 3), np.uint8))
    ids = book.assign(lost, lambda k: np.zeros((1, 1, 3), np.uint8))
    one, two, empty = ids[2 * cols + 1], ids[2 * cols + 3], ids[3 * cols + 2]  # a 2, a 1 and a 0 of the opening
    assert len({one, two, empty}) == 3
    # what the fixed radius did: one cluster for all three
    merged = TileBook(CLUSTER_RADIUS)
    merged.assign(fresh, lambda k: np.zeros((1, 1, 3), np.uint8))
    ids = merged.assign(lost, lambda k: np.zeros((1, 1, 3), np.uint8))
    assert len({ids[2 * cols + 1], ids[2 * cols + 3], ids[3 * cols + 2]}) == 1


def test_a_game_drawn_over_a_picture_keeps_a_wide_radius():
    """kmines' covered tiles at 24 px differ from cell to cell: its fresh board asks for a wide radius."""
    fresh, _ = _vectors(KMINES / "tile24_fresh.png")
    assert fresh_radius(fresh) > 0.02


def _session_after(contradicted: bool, tightened: bool = False):
    from autoplay.calibrate.live import Session
    from autoplay.calibrate.rules_labels import Naming

    phases = np.repeat(np.array([[0.0] * 4, [0.03] * 4], np.float32), 240, axis=0)  # a covered tile in two looks
    session = Session(book=TileBook(fresh_radius(phases)), games=2, clicks=30)
    session.fresh_vectors, session.tightened = phases, tightened
    session.naming = Naming({}, {}, [], 0, True, contradicted)
    return session


def test_evidence_that_contradicts_itself_starts_the_grouping_again_tighter():
    """A page at 125% showed its covered tile in looks 0.03 apart, so its fresh board set a radius of 0.045, which
    put its faint 1s, 2s and 3s in one group: no value explained it and live calibration named no number (web
    clone look 14138 in Chromium at 125%). The games are then grouped again at the twin radius, once."""
    from autoplay.calibrate.live import tighter_session

    session = _session_after(contradicted=True)
    tighter = tighter_session(session)
    assert tighter is not None and tighter.tightened
    assert tighter.book.radius == pytest.approx(MIN_RADIUS)
    assert session.book.radius > 0.04
    assert (tighter.games, tighter.clicks, len(tighter.book)) == (2, 30, 0)  # games count; old groups dropped
    assert "grouping again" in tighter.notes[-1]
    assert tighter_session(_session_after(contradicted=False)) is None
    assert tighter_session(_session_after(contradicted=True, tightened=True)) is None
