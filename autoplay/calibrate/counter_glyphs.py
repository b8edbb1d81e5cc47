"""Teaching a skin its mine counter: glyph templates cut from labelled screenshots.

A label board with a ``mines=N`` header says what the counter must show
(the skin's format over the total and the board's flags), so the glyphs in
the counter's box are labelled by position, the same way cells are labelled
by the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplay.board.model import FLAG, Board
from autoplay.calibrate.templates import farthest_point_selection
from autoplay.errors import UsageError
from autoplay.vision.counter import CounterSpec, counter_region, counter_text, glyph_vectors, read_glyphs
from autoplay.vision.grid import Grid

#: Two glyph pictures closer than this (RMS) are the same drawing; keep one.
GLYPH_COVER = 0.05


@dataclass(frozen=True)
class CounterCalibration:
    spec: CounterSpec
    boards_used: int


def calibrate_counter(
    images: list[np.ndarray],
    boards: list[Board],
    grids: list[Grid],
    anchor: str,
    box: tuple[int, int, int, int],
    fmt: str,
) -> CounterCalibration:
    """Glyph templates for every character the labelled counters show; errors name the image that disagrees."""
    try:
        empty = CounterSpec(anchor, box, fmt)
    except ValueError as exc:
        raise UsageError(f"--counter: {exc}") from None
    vectors: list[np.ndarray] = []
    chars: list[str] = []
    used = 0
    for index, (image, board, grid) in enumerate(zip(images, boards, grids)):
        if board.mines is None:
            continue
        region = counter_region(image, grid, empty)
        if region is None:
            raise UsageError(
                f"image {index + 1}: the counter box {list(box)} from the board's {anchor} corner "
                "falls outside the image"
            )
        expected = counter_text(fmt, board.mines, board.cells.count(FLAG))
        found = glyph_vectors(region)
        if len(found) != len(expected):
            raise UsageError(
                f"image {index + 1}: the counter box holds {len(found)} glyphs but should show "
                f"{expected!r} ({len(expected)}); adjust --counter"
            )
        vectors.extend(found)
        chars.extend(expected)
        used += 1
    if not used:
        raise UsageError("--counter needs at least one label board with a 'mines=N' header")
    stacked = np.stack(vectors)
    labels = np.array(chars)
    glyphs: dict[str, list[np.ndarray]] = {}
    for char in sorted(set(chars)):
        members = np.flatnonzero(labels == char)
        glyphs[char] = [stacked[members[i]] for i in farthest_point_selection(stacked[members], GLYPH_COVER, 4)]
    read_back = read_glyphs(vectors, glyphs)
    if read_back != "".join(chars):
        raise UsageError("counter glyphs of different characters look alike; check the mines= headers")
    return CounterCalibration(CounterSpec(anchor, box, fmt, glyphs), used)


def parse_counter_option(value: str) -> tuple[str, tuple[int, int, int, int]]:
    """``top-right:55,35,165,62`` -> (anchor, box)."""
    anchor, _, numbers = value.partition(":")
    parts = numbers.split(",")
    try:
        box = tuple(int(p) for p in parts)
    except ValueError:
        box = ()
    if len(box) != 4:
        raise UsageError(f"--counter {value!r}: expected CORNER:X0,Y0,X1,Y1, e.g. top-right:55,35,165,62")
    return anchor, box
