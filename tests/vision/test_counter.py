"""Reading mine counters: parsing their text, refusing what does not match, and learning their glyphs."""

from __future__ import annotations

import numpy as np
import pytest

from autoplay.board.textformat import read_board
from autoplay.calibrate.counter_glyphs import calibrate_counter, parse_counter_option
from autoplay.errors import AutoplayError
from autoplay.vision import load_skin, locate_grid, read_image
from autoplay.vision.counter import CounterSpec, counter_text, parse_counter, read_counter
from autoplay.vision.grid import Grid

from .conftest import FIXTURES


@pytest.mark.parametrize(
    "fmt,text,flags,total",
    [
        ("{flags}/{total}", "7/99", 7, 99),
        ("{remaining:04d}", "0092", 7, 99),
        ("{remaining}", "-3", 13, 10),  # more flags than mines: an LED can go negative
        ("{remaining:03d}", "0x2", 0, None),
        ("{flags}/{total}", "799", 7, None),
    ],
)
def test_counter_text_gives_the_total(fmt: str, text: str, flags: int, total: int | None) -> None:
    assert parse_counter(text, fmt, flags) == total
    if total is not None:
        assert parse_counter(counter_text(fmt, total, flags), fmt, flags) == total


def test_bad_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        CounterSpec("middle", (0, 0, 5, 5), "{total}")
    with pytest.raises(ValueError, match="empty"):
        CounterSpec("top-left", (5, 0, 5, 5), "{total}")
    with pytest.raises(ValueError, match="total or remaining"):
        CounterSpec("top-left", (0, 0, 5, 5), "{flags}")
    with pytest.raises(AutoplayError, match="CORNER"):
        parse_counter_option("top-left:1,2,3")


def test_counter_outside_the_image_or_unlike_any_glyph_is_not_read() -> None:
    skin = load_skin("xdemineur", FIXTURES.parents[1])
    image = read_image(FIXTURES / "xdemineur" / "small_mid8.png")
    grid = locate_grid(image, skin)
    assert read_counter(image, grid, skin.counter, flags=1).text == "0009"
    assert read_counter(image, grid.shifted(0, -60), skin.counter, flags=1) is None  # box above the image
    scribbled = image.copy()
    x0, y0 = grid.rect[0] + skin.counter.box[0], grid.rect[1] + skin.counter.box[1]
    scribbled[y0 + 3 : y0 + 20, x0 + 3 : x0 + 60] = np.random.default_rng(1).integers(0, 255, (17, 57, 3))
    assert read_counter(scribbled, grid, skin.counter, flags=1) is None


def test_calibration_learns_glyphs_and_names_a_wrong_header() -> None:
    names = ["small_mid8", "small_won", "expert_end"]
    images = [read_image(FIXTURES / "xdemineur" / f"{n}.png") for n in names]
    boards = [read_board(FIXTURES / "xdemineur" / f"{n}.txt") for n in names]
    grids: list[Grid] = [locate_grid(image) for image in images]
    learnt = calibrate_counter(images, boards, grids, "top-left", (17, -53, 93, -27), "{remaining:04d}")
    assert learnt.boards_used == 3 and set(learnt.spec.glyphs) == {"0", "5", "9"}
    assert read_counter(images[0], grids[0], learnt.spec, flags=1).total == 10
    with pytest.raises(AutoplayError, match="image 1: the counter box holds 4 glyphs but should show '00009'"):
        calibrate_counter(images, boards, grids, "top-left", (17, -53, 93, -27), "{remaining:05d}")
    with pytest.raises(AutoplayError, match="mines=N"):
        calibrate_counter(
            images, [b.with_mines(None) for b in boards], grids, "top-left", (17, -53, 93, -27), "{remaining}"
        )
