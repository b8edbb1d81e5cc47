"""A board that shows its lattice in one direction only: rows seen, columns taken from its outline.

A covered tile drawn as a vertical gradient with no border (a web page's look) repeats every row, so a fresh board
shows a sharp edge between two rows and none at all between two columns: every row is one long strip, no region is
square, and the lattice search of :mod:`autoplay.vision.locate` finds no tile.  Such a board still shows:

- its rows: a stack of equal strips at a regular step (the step is the row pitch);
- its outline: the strips all start and end at the same two places, the board's left and right edges.

The columns then follow from the board's width and either a board size known beforehand (``--mines ROWSxCOLS=N``,
a skin's ``[mines]``) with that many rows, or, with no such size, tiles about as wide as they are high.  The same
holds turned a quarter (a horizontal gradient: columns seen, rows inferred).

That is an inference, not a reading, so it is checked against the board: :func:`across_edges` looks for edges that
cross whole cells in the inferred direction (the border between an opened cell and a covered one, an opened cell's
outline).  Edges found off the inferred lines contradict it; edges on them confirm it; a fresh board shows none,
and on a fresh board every cell shows the one covered tile wherever the inferred lines fall, so nothing is read
wrong there.  Live calibration asks its first opened cells to confirm the inferred lines before it counts any cell
as opened, and play never takes an inferred lattice that the board it reads contradicts.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from autoplay.vision.grid import Grid

Direction = Literal["rows", "columns"]
Verdict = Literal["none", "on", "off"]

#: Fewest strips a stack needs to be a board (as locate's MIN_SIDE: no board has fewer rows).
MIN_STRIPS = 4
#: A strip is at least this many times as long as it is high (a board has at least this many columns).
MIN_LENGTH = 4
#: Share of a strip's bounding box that its region fills: the strips of a board are solid rectangles.
SOLID = 0.9
#: Strips of one stack start and end within this many pixels of each other.
SAME_END = 3
#: Tiles taken as square when a known size gives none: the board's width over the row pitch is this near a whole
#: number of cells (a share of the pitch).
SQUARE = 0.05
#: Inferred cells may be this much wider or narrower than high when a known size says how many there are.
MOST_STRETCH = 1.5
#: Pixels searched either side of a strip's end for the board's edge.
END_REACH = 4
#: An edge crosses a cell when the step across it (two pixels apart, any channel) is this big...
CROSSING_STEP = 24
#: ... along this share of the cell's height (a digit's stroke or a flag's pole is shorter; a cell's side is not).
CROSSING_SHARE = 0.9
#: Edges that confirm an inferred direction lie on at least this many distinct inner lines.
CONFIRMING_LINES = 2


@dataclass(frozen=True)
class OneWay:
    """A board located from its rows (or columns) alone: ``inferred`` names the direction taken from the outline."""

    grid: Grid
    inferred: Direction


def strip_board(
    image: np.ndarray,
    edges: np.ndarray,
    sizes: Collection[tuple[int, int]] = (),
    pitch_range: tuple[float, float] = (8.0, 120.0),
) -> OneWay | None:
    """The board whose rows (or columns) are a stack of strips enclosed by ``edges`` (255 = edge), else None.

    ``sizes`` are the board sizes known beforehand, (rows, cols).  Rows are looked for first (a vertical
    gradient), then columns (the same on the transposed picture).
    """
    for direction in ("rows", "columns"):
        flat = direction == "rows"
        found = _stack(edges if flat else edges.T, pitch_range)
        if found is None:
            continue
        centres, (first, last) = found
        on = image if flat else np.swapaxes(image, 0, 1)
        known = {r: c for r, c in sizes} if flat else {c: r for r, c in sizes}
        lines = _lines_from_centres(centres)
        left, right = _board_ends(on, (lines[0], lines[-1]), (first, last))
        top, bottom = _board_ends(np.swapaxes(on, 0, 1), (left, right), (lines[0], lines[-1]))
        lines = top + (bottom - top) * np.arange(len(lines)) / (len(lines) - 1)
        count = _cells_across(right - left, (bottom - top) / (len(lines) - 1), len(lines) - 1, known)
        if count is None:
            continue
        across = left + (right - left) * np.arange(count + 1) / count
        grid = Grid(across, lines) if flat else Grid(lines, across)
        return OneWay(grid, "columns" if flat else "rows")
    return None


def _stack(edges: np.ndarray, pitch_range: tuple[float, float]) -> tuple[np.ndarray, tuple[float, float]] | None:
    """Centres (y) of the largest stack of long strips sharing both ends and following each other at one step,
    and where the stack starts and ends along x (edges); None when no stack has ``MIN_STRIPS``."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(255 - edges, connectivity=4)
    x, y, w, h, area = stats.T.astype(np.float64)
    lo, hi = pitch_range
    strip = (h >= 0.55 * lo) & (h <= hi) & (w >= MIN_LENGTH * h) & (area >= SOLID * w * h)
    index = np.flatnonzero(strip)
    best: np.ndarray | None = None
    for i in index:
        same = index[(np.abs(x[index] - x[i]) <= SAME_END) & (np.abs(x[index] + w[index] - x[i] - w[i]) <= SAME_END)]
        run = _regular_run(same, y + h / 2, h)
        if best is None or len(run) > len(best):
            best = run
    if best is None or len(best) < MIN_STRIPS:
        return None
    centres = (y + h / 2)[best]
    return centres, (float(np.median(x[best])), float(np.median(x[best] + w[best])))


def _regular_run(members: np.ndarray, centres: np.ndarray, heights: np.ndarray) -> np.ndarray:
    """The longest run of ``members``, ordered by centre, whose neighbours follow at one step: a step about the
    strips' height (no row missing between them) and the same all along."""
    order = members[np.argsort(centres[members])]
    if len(order) < 2:
        return order
    steps = np.diff(centres[order])
    step = float(np.median(steps))
    height = float(np.median(heights[order]))
    fits = (np.abs(steps - step) <= max(1.5, 0.08 * step)) & (step >= height) & (step <= 1.6 * height)
    best, start = order[:1], 0
    for k in range(len(steps) + 1):
        if k == len(steps) or not fits[k]:
            if k + 1 - start > len(best):
                best = order[start : k + 1]
            start = k + 1
    return best


def _lines_from_centres(centres: np.ndarray) -> np.ndarray:
    """Edges of the stacked rows: one straight lattice through the strips' centres, half a step beyond the outer
    ones."""
    index = np.arange(len(centres), dtype=np.float64)
    slope, intercept = np.polyfit(index, centres, 1)
    return np.asarray(intercept - slope / 2 + slope * np.arange(len(centres) + 1), dtype=np.float64)


def _board_ends(image: np.ndarray, span: tuple[float, float], near: tuple[float, float]) -> tuple[float, float]:
    """The board's two edges across ``image``'s columns (x), each the strongest step within ``END_REACH`` px of
    the edge guessed in ``near``, measured along the rows ``span`` (edges, y) and placed between pixels by the
    steps' weights above the shading's own (a scaled page blends its edge over two pixels).  An edge is a
    :class:`Grid`'s: pixel ``b`` spans ``b`` to ``b + 1``, so the edge before it is ``b``."""
    height, width = image.shape[:2]
    top, bottom = max(0, int(np.ceil(span[0]))), min(height, int(np.floor(span[1])) + 1)
    step = np.abs(np.diff(image[top:bottom].astype(np.float64), axis=1))  # step[:, b - 1]: pixels b - 1 and b
    profile = (step.max(axis=2) if step.ndim == 3 else step).mean(axis=0)

    def edge(guess: float) -> float:
        boundary = int(round(guess))
        candidates = np.arange(max(1, boundary - END_REACH), min(width - 1, boundary + END_REACH) + 1)
        if not len(candidates):
            return guess
        # Steps over the board's own shading (a gradient steps a little at every pixel) weigh nothing.
        values = np.maximum(profile[candidates - 1] - np.median(profile[candidates - 1]), 0.0)
        peak = int(np.argmax(values))
        around = slice(max(0, peak - 1), peak + 2)
        weights, where = values[around], candidates[around]
        if np.sum(weights) <= 0:
            return guess
        return float(np.sum(weights * where) / np.sum(weights))

    return edge(near[0]), edge(near[1])


def _cells_across(width: float, pitch: float, count: int, known: dict[int, int]) -> int | None:
    """How many cells the board's ``width`` holds: the known size with ``count`` lines along (cells at most
    ``MOST_STRETCH`` from square), or with no size known, as many square cells as fit within ``SQUARE`` of a pitch.

    None otherwise, and whenever sizes are known but none has ``count`` lines: a stack of strips cut short (the
    covered rows beside an opened area) is a part of the board, never a board of its own.
    """
    if known:
        cells = known.get(count)
        return cells if cells is not None and 1 / MOST_STRETCH <= width / cells / pitch <= MOST_STRETCH else None
    cells = int(round(width / pitch))
    if cells < MIN_LENGTH or abs(width / cells - pitch) > SQUARE * pitch:
        return None
    return cells


def across_edges(image: np.ndarray, grid: Grid, inferred: Direction) -> Verdict:
    """What the board shows of the ``inferred`` direction's lines: ``on`` when edges crossing whole cells lie on
    at least ``CONFIRMING_LINES`` of its inner lines and nowhere else, ``off`` when one lies off them, ``none``
    when no such edge shows (a fresh board).

    >>> import numpy as np
    >>> strip = np.zeros((10, 60, 3), np.uint8); strip[:, :] = np.linspace(40, 220, 10)[:, None, None]
    >>> board = np.tile(strip, (4, 1, 1))
    >>> grid = Grid(np.arange(0.0, 61.0, 10), np.arange(0.0, 41.0, 10))
    >>> across_edges(board, grid, "columns")
    'none'
    >>> board[10:30, 20:40] = 250  # two opened cells in two rows: their sides lie on column lines
    >>> across_edges(board, grid, "columns")
    'on'
    >>> across_edges(board, Grid(grid.xs + 5, grid.ys), "columns")
    'off'
    """
    if inferred == "rows":
        return across_edges(np.swapaxes(image, 0, 1), Grid(grid.ys, grid.xs), "columns")
    picture = image.astype(np.int16)
    height, width = picture.shape[:2]
    pitch = grid.pitch[0]
    reach = max(2.0, 0.08 * pitch)
    inner = grid.xs[1:-1]
    first = max(1, int(np.ceil(grid.xs[0] + reach)))
    last = min(width - 1, int(np.floor(grid.xs[-1] - reach)))
    if last <= first:
        return "none"
    found_on: set[int] = set()
    for row in range(grid.rows):
        trim = max(1.0, 0.06 * (grid.ys[row + 1] - grid.ys[row]))
        top = max(0, int(np.ceil(grid.ys[row] + trim)))
        bottom = min(height, int(np.floor(grid.ys[row + 1] - trim)) + 1)
        if bottom - top < 2:
            continue
        band = picture[top:bottom, first - 1 : last + 2]
        step = np.abs(band[:, 2:] - band[:, :-2])  # centred on pixels first..last (a sharp edge: the two beside it)
        strong = (step.max(axis=2) if step.ndim == 3 else step) >= CROSSING_STEP
        crossing = np.flatnonzero(strong.mean(axis=0) >= CROSSING_SHARE) + first
        for run in np.split(crossing, np.flatnonzero(np.diff(crossing) > 1) + 1):
            if not len(run):
                continue
            where = float(np.mean(run)) + 0.5  # pixel b's middle is b + 0.5
            nearest = int(np.argmin(np.abs(inner - where))) if len(inner) else -1
            if nearest < 0 or abs(inner[nearest] - where) > reach:
                return "off"
            found_on.add(nearest)
    return "on" if len(found_on) >= CONFIRMING_LINES else "none"
