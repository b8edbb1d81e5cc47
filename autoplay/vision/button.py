"""A button known by its picture: cut once at calibration around a point the user gave, found again at play.

A game's way to start anew is often a control that no rule describes: a web page's "New game" text button, a face
in some other colour than xdemineur's yellow.  The user points at it once (``calibrate --new-game-click X,Y``);
the button is then the region of one colour around that point bounded by a strong edge (a button's face is flat,
its border and the page around it are not the same colour), cut with a little margin so its border is part of
the picture.  At play the picture is scaled by the board's pitch now over its pitch then (a page zoomed in draws
its button bigger by the same factor) and looked for with normalised cross-correlation everywhere but the board;
only one clear match counts, since a click on anything else might start nothing, or something else.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplay.errors import ControlError, UsageError
from autoplay.vision.grid import Grid

#: Where the skin keeps the picture, beside its tile templates.
PICTURE_FILE = "new-game.png"
#: Neighbouring pixels of a button's face differ by at most this much per channel (a gentle gradient passes) ...
_STEP = 8
#: ... and no pixel of it differs from the colour at the point by more than this (a long gradient stops).
_SPREAD = 40
#: The point may be on the button's text: its face colour is the commonest one this far around the point.
_SEED_RADIUS = 5
#: Pixels kept around the face so the button's own border is part of the picture.
_MARGIN = 2
#: The smallest button side in pixels, and the largest part of the window it may take.
_MIN_SIDE = 6
_MAX_SHARE = 0.25
#: The face must fill this much of its bounding box (a leak along a thin line fills almost nothing).
_MIN_FILL = 0.4
#: A picture this flat (grey-level standard deviation) matches any plain patch as well as the button.
_MIN_CONTRAST = 4.0
#: The least normalised correlation a match needs, and how far ahead of any other place it must be.
MIN_SCORE = 0.85
MIN_LEAD = 0.1

Box = tuple[int, int, int, int]  # left, top, width, height in frame pixels


@dataclass(frozen=True, eq=False)
class ButtonPicture:
    """The button's picture as calibration cut it, the board pitch it was cut at, and where it was.

    ``offset`` is the picture's top-left corner minus the board's, in board pitches (x, y): where a page that
    scales with its board would show it, which a message can name when the button is not found.
    """

    image: np.ndarray
    pitch: float
    offset: tuple[float, float]


class NewGame(dict[str, str]):
    """A skin's ``[new_game]`` table (its text entries), with the button picture it names once loaded or cut.

    It stays a plain mapping of text for everything that reads ``key`` or ``click``; only the picture click
    needs ``button``.
    """

    def __init__(self, table: dict[str, str] | None = None, button: ButtonPicture | None = None) -> None:
        super().__init__(table or {})
        self.button = button


def board_pitch(grid: Grid) -> float:
    """One number for the board's scale: the mean of its cell width and height."""
    px, py = grid.pitch
    return (px + py) / 2.0


def cut_button(frame: np.ndarray, grid: Grid, x: int, y: int) -> ButtonPicture:
    """The picture of the button under window pixel (``x``, ``y``); a :class:`UsageError` when there is none.

    The point must lie off the board; the button is the one-colour region around it (its text left in as
    holes), which must close before it reaches the window's edge or the board and cover under a quarter of the
    window.
    """
    height, width = frame.shape[:2]
    if not (0 <= x < width and 0 <= y < height):
        raise UsageError(f"--new-game-click {x},{y} lies outside the window's picture ({width}x{height} pixels)")
    if _overlaps((x, y, 1, 1), grid.rect):
        x0, y0, x1, y1 = grid.rect
        raise UsageError(f"--new-game-click {x},{y} lies on the board ({x0},{y0} to {x1},{y1}): point at the button")
    box = _face_box(frame, x, y)
    if box is None or _overlaps(box, grid.rect):
        raise UsageError(
            f"--new-game-click {x},{y}: no button found there (no region of one colour bounded by a clear edge, "
            f"smaller than a quarter of the window and off the board)"
        )
    left, top, w, h = _with_margin(box, width, height)
    image = frame[top : top + h, left : left + w].copy()
    if float(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).std()) < _MIN_CONTRAST:
        raise UsageError(f"--new-game-click {x},{y}: the region there is plain, with nothing to recognise it by")
    pitch = board_pitch(grid)
    x0, y0 = grid.xs[0], grid.ys[0]
    offset = (round(float((left - x0) / pitch), 4), round(float((top - y0) / pitch), 4))
    return ButtonPicture(image, round(pitch, 4), offset)


def find_button(frame: np.ndarray, grid: Grid, picture: ButtonPicture) -> Box:
    """Where the button is on ``frame`` (off the board), at the board's current scale; ControlError if unsure."""
    template = _scaled(picture.image, board_pitch(grid) / picture.pitch)
    th, tw = template.shape[:2]
    if th > frame.shape[0] or tw > frame.shape[1]:
        raise ControlError("cannot find the new-game button: its picture is larger than the window at this scale")
    scores = _scores(frame, template, grid.rect)
    best_y, best_x = np.unravel_index(int(np.argmax(scores)), scores.shape)
    best = float(scores[best_y, best_x])
    second = _second_best(scores, int(best_x), int(best_y), tw, th)
    if best < MIN_SCORE or best - second < MIN_LEAD:
        where = _expected(grid, picture)
        raise ControlError(
            f"cannot find the new-game button (best match {best:.2f}, next place {second:.2f}; needs "
            f">= {MIN_SCORE} and {MIN_LEAD} ahead; calibration saw it near {where})"
        )
    return int(best_x), int(best_y), tw, th


def _face_box(frame: np.ndarray, x: int, y: int) -> Box | None:
    """The bounding box of the one-colour region around the point, or None when it is not button-like."""
    seed = _face_seed(frame, x, y)
    region = _region(frame, seed)
    ys, xs = np.nonzero(region)
    left, top = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - left + 1, int(ys.max()) - top + 1
    height, width = frame.shape[:2]
    touches_edge = left == 0 or top == 0 or left + w == width or top + h == height
    if touches_edge or min(w, h) < _MIN_SIDE or w * h > _MAX_SHARE * width * height:
        return None
    if len(xs) < _MIN_FILL * w * h:
        return None
    return left, top, w, h


def _face_seed(frame: np.ndarray, x: int, y: int) -> tuple[int, int]:
    """The pixel nearest the point whose colour is the commonest around it: the face, not a letter on it."""
    height, width = frame.shape[:2]
    x0, x1 = max(0, x - _SEED_RADIUS), min(width, x + _SEED_RADIUS + 1)
    y0, y1 = max(0, y - _SEED_RADIUS), min(height, y + _SEED_RADIUS + 1)
    patch = (frame[y0:y1, x0:x1].astype(np.int32) // 16).reshape(-1, frame.shape[2])
    codes = (patch[:, 0] * 256 + patch[:, 1] * 16 + patch[:, 2]).reshape(y1 - y0, x1 - x0)
    values, counts = np.unique(codes, return_counts=True)
    ys, xs = np.nonzero(codes == values[int(np.argmax(counts))])
    nearest = int(np.argmin((xs + x0 - x) ** 2 + (ys + y0 - y) ** 2))
    return int(xs[nearest]) + x0, int(ys[nearest]) + y0


def _region(frame: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """The pixels reached from ``seed`` in small steps and never far from its colour (a boolean mask)."""
    height, width = frame.shape[:2]
    mask = np.zeros((height + 2, width + 2), np.uint8)
    step = (_STEP,) * 3
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8)
    cv2.floodFill(frame.copy(), mask, seed, (0, 0, 0), step, step, flags)
    colour = frame[seed[1], seed[0]].astype(np.int16)
    near = np.abs(frame.astype(np.int16) - colour).max(axis=2) <= _SPREAD
    joined = (mask[1:-1, 1:-1] > 0) & near
    _, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=4)
    return np.asarray(labels == labels[seed[1], seed[0]], dtype=bool)


def _with_margin(box: Box, width: int, height: int) -> Box:
    left, top, w, h = box
    x0, y0 = max(0, left - _MARGIN), max(0, top - _MARGIN)
    x1, y1 = min(width, left + w + _MARGIN), min(height, top + h + _MARGIN)
    return x0, y0, x1 - x0, y1 - y0


def _overlaps(box: Box, rect: tuple[int, int, int, int]) -> bool:
    """Whether ``box`` (left, top, width, height) shares a pixel with ``rect`` (x0, y0, x1, y1)."""
    left, top, w, h = box
    x0, y0, x1, y1 = rect
    return left < x1 and x0 < left + w and top < y1 and y0 < top + h


def _scaled(image: np.ndarray, factor: float) -> np.ndarray:
    if abs(factor - 1.0) < 1e-3:
        return image
    w = max(1, round(image.shape[1] * factor))
    h = max(1, round(image.shape[0] * factor))
    return cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)


def _scores(frame: np.ndarray, template: np.ndarray, board: tuple[int, int, int, int]) -> np.ndarray:
    """Correlation at every placement of ``template``; placements that touch the board score -1.

    A flat stretch of the frame has no correlation with anything; OpenCV may still give it an extreme value,
    so anything outside [-1, 1] or not a number is taken as no match.
    """
    scores = cv2.matchTemplate(frame, template, cv2.TM_CCOEFF_NORMED)
    scores = np.nan_to_num(scores, nan=-1.0, posinf=-1.0, neginf=-1.0)
    scores[(scores > 1.0 + 1e-4) | (scores < -1.0)] = -1.0
    th, tw = template.shape[:2]
    x0, y0, x1, y1 = board
    top, left = max(0, y0 - th + 1), max(0, x0 - tw + 1)
    scores[top:y1, left:x1] = -1.0
    return scores


def _second_best(scores: np.ndarray, x: int, y: int, tw: int, th: int) -> float:
    """The best score at a place separate from (``x``, ``y``): not within half the picture of it."""
    others = scores.copy()
    others[max(0, y - th // 2) : y + th // 2 + 1, max(0, x - tw // 2) : x + tw // 2 + 1] = -1.0
    return float(others.max()) if others.size else -1.0


def _expected(grid: Grid, picture: ButtonPicture) -> str:
    pitch = board_pitch(grid)
    return f"{grid.xs[0] + picture.offset[0] * pitch:.0f},{grid.ys[0] + picture.offset[1] * pitch:.0f}"
