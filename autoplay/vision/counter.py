"""Reading a game's mine counter, so a screenshot alone tells how many mines the board holds.

The solver plays better knowing the total (global probabilities, the
mine-count endgame), and a custom-sized board or a saved screenshot has no
other source for it.  A counter is a short string of glyphs in a fixed box
beside the board: xdemineur's LED shows the mines not yet flagged ("0336"),
gnome-mines writes "flags/total" ("0/336").  Both are read the same way: the
box is placed relative to a corner of the located board, the pixels that
stand out from the box's background are split into glyphs (connected blobs),
and each glyph is matched against the skin's glyph templates.  The skin's
``format`` (a Python format string over ``flags``, ``total`` and
``remaining``) turns the text back into the total.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

import cv2
import numpy as np

from autoplay.vision.grid import Grid

#: Size (w, h) every glyph is resampled to before matching.
GLYPH_SIZE = (10, 14)
#: Largest RMS difference (0..1) between a glyph and its template that still reads as that character.
GLYPH_MAX_DISTANCE = 0.2
ANCHORS = ("top-left", "top-right", "bottom-left", "bottom-right")
FIELDS = ("flags", "total", "remaining")


@dataclass(frozen=True, eq=False)
class CounterSpec:
    """Where a skin's counter sits and how to read it.

    ``box`` is (x0, y0, x1, y1) in screen pixels from the board corner named
    by ``anchor``: the counter keeps its size when the tiles are scaled.
    """

    anchor: str
    box: tuple[int, int, int, int]
    format: str
    glyphs: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.anchor not in ANCHORS:
            raise ValueError(f"counter anchor must be one of {', '.join(ANCHORS)}, not {self.anchor!r}")
        x0, y0, x1, y1 = self.box
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"counter box {list(self.box)} is empty")
        named = set(re.findall(r"{(\w+)", self.format))
        if not named or not named <= set(FIELDS) or not ({"total", "remaining"} & named):
            raise ValueError(
                f"counter format {self.format!r} must name total or remaining (fields: {', '.join(FIELDS)})"
            )


@dataclass(frozen=True)
class CounterReading:
    text: str
    total: int


def counter_region(image: np.ndarray, grid: Grid, spec: CounterSpec) -> np.ndarray | None:
    """The counter's pixels, or None when its box falls outside the image."""
    left, top, right, bottom = grid.rect
    ax = right if spec.anchor.endswith("right") else left
    ay = bottom if spec.anchor.startswith("bottom") else top
    x0, y0, x1, y1 = ax + spec.box[0], ay + spec.box[1], ax + spec.box[2], ay + spec.box[3]
    if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
        return None
    return image[y0:y1, x0:x1]


def glyph_vectors(region: np.ndarray) -> list[np.ndarray]:
    """One normalised vector per glyph, left to right.

    "Ink" is the colour distance from the box's most common colour (its
    background, light or dark), kept where it reaches half its maximum: that
    drops anti-aliasing fringes and an LED's unlit segments alike.  Glyphs are
    connected blobs of ink, not runs of columns, because a slash leans over
    its neighbours; blobs stacked over one another (an LED digit's segments)
    are one glyph.
    """
    pixels = region.reshape(-1, region.shape[-1]).astype(np.int32)
    packed = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]  # one int per colour: a 1-D count is cheap
    colours, counts = np.unique(packed, return_counts=True)
    background = pixels[np.flatnonzero(packed == colours[np.argmax(counts)])[0]]
    distance = np.sqrt(((region.astype(np.float32) - background) ** 2).sum(axis=-1)) / np.sqrt(3 * 255.0**2)
    peak = float(distance.max())
    if peak < 0.1:
        return []
    mask = (distance >= peak / 2).astype(np.uint8)
    ink = np.where(mask, distance / peak, 0.0).astype(np.float32)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = sorted([int(x), int(y), int(x + w), int(y + h)] for x, y, w, h, _ in stats[1:n])
    merged: list[list[int]] = []
    for box in boxes:
        last = merged[-1] if merged else None
        if last and min(last[2], box[2]) - max(last[0], box[0]) > 0.5 * min(last[2] - last[0], box[2] - box[0]):
            last[:] = [min(last[0], box[0]), min(last[1], box[1]), max(last[2], box[2]), max(last[3], box[3])]
        else:
            merged.append(box)
    return [
        cv2.resize(ink[y0:y1, x0:x1], GLYPH_SIZE, interpolation=cv2.INTER_AREA).ravel() for x0, y0, x1, y1 in merged
    ]


def glyph_image(vector: np.ndarray) -> np.ndarray:
    """A glyph vector as an 8-bit picture, the form a skin stores it in."""
    return np.round(vector.reshape(GLYPH_SIZE[1], GLYPH_SIZE[0]) * 255).astype(np.uint8)


def glyph_from_image(image: np.ndarray) -> np.ndarray:
    """The vector of a stored glyph picture (grey or colour)."""
    grey = image if image.ndim == 2 else image[..., 0]
    return (cv2.resize(grey, GLYPH_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32) / 255).ravel()


def read_glyphs(vectors: list[np.ndarray], glyphs: dict[str, list[np.ndarray]]) -> str | None:
    """The characters the vectors show, or None when any of them matches no template closely enough."""
    if not vectors or not glyphs:
        return None
    chars, templates = zip(*[(ch, t.astype(np.float32).ravel()) for ch, ts in glyphs.items() for t in ts])
    matrix = np.stack(templates)
    text = []
    for vector in vectors:
        rms = np.sqrt(((matrix - vector) ** 2).mean(axis=1))
        best = int(np.argmin(rms))
        if rms[best] > GLYPH_MAX_DISTANCE:
            return None
        text.append(chars[best])
    return "".join(text)


def parse_counter(text: str, fmt: str, flags: int) -> int | None:
    """The board's total mines from the counter's text, or None when the text does not fit the format."""
    pattern = ""
    for literal, name, _spec, _conv in string.Formatter().parse(fmt):
        pattern += re.escape(literal)
        if name:
            pattern += rf"(?P<{name}>-?\d+)"
    match = re.fullmatch(pattern, text)
    if not match:
        return None
    values = {k: int(v) for k, v in match.groupdict().items()}
    return values["total"] if "total" in values else values["remaining"] + flags


def counter_text(fmt: str, total: int, flags: int) -> str:
    """What the counter shows on a board with ``total`` mines and ``flags`` flags (for calibration)."""
    return fmt.format(total=total, flags=flags, remaining=total - flags)


def read_counter(image: np.ndarray, grid: Grid, spec: CounterSpec, flags: int) -> CounterReading | None:
    """The counter's text and the total it implies; None when it cannot be read (never a guess)."""
    region = counter_region(image, grid, spec)
    if region is None:
        return None
    text = read_glyphs(glyph_vectors(region), spec.glyphs)
    if text is None:
        return None
    total = parse_counter(text, spec.format, flags)
    return None if total is None else CounterReading(text, total)
