"""Is the board still where it was located?  The pixels just around it say so, whatever the clicks do inside it.

A web page moves its content by itself: a banner that loads late above the game pushes it down, a script scrolls
the page, a zoom control scales it.  The window does not move, so the window system cannot tell; and the board's
own pixels change with every click of ours (cells open, cascades, pressed and hover looks), so they cannot tell
either.  What our clicks never change is the page right around the board: a thin band outside the located grid.
When the board moves or changes size, board pixels slide into that band (down: into the band below it; up: above;
a zoom: the band is covered, or the board's outer border leaves it), so comparing the band with the frame the
decision was made on tells a moved board from cells redrawn.  It is cheap enough to ask before every press of a
batch, so a page that moves in the middle of a batch stops the batch at the next press instead of letting the rest
land on the wrong cells; the board is then located again on the next frame.

What it cannot see in time: a move the page has laid out but not yet painted (a browser hit-tests a press on its
newest layout, and may paint it tens of milliseconds later, longer for a zoom that redraws everything): the press
then lands at the old coordinates on the new layout.  The board read after the move shows it (:func:`astray`: a
cell opened that no press aimed at, a press with no effect, a loss or a new game no reveal explains), and play
stops there (exit 4) instead of going on with a board it did not mean to make.  Nor can it see a board zoomed
smaller about its own top-left corner with nothing of its own in the band (a border-less board on a plain page).

>>> import numpy as np
>>> from autoplay.vision.grid import Grid
>>> grid = Grid(np.arange(20.0, 61.0, 10.0), np.arange(20.0, 61.0, 10.0))  # 4x4 cells of 10 px at (20, 20)
>>> page = np.full((100, 100, 3), 50, np.uint8); page[20:60, 20:60] = 200
>>> opened = page.copy(); opened[30:40, 30:40] = 90  # a cell of ours opened: the band is as it was
>>> in_place(page, opened, grid)
True
>>> moved = np.full_like(page, 50); moved[27:67, 20:60] = 200  # the page pushed the board 7 px down
>>> in_place(page, moved, grid)
False
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from autoplay.board.model import DIGITS, FLAG, HIDDEN, Board, Coord
from autoplay.errors import ControlError
from autoplay.solver.decide import Move
from autoplay.vision.grid import Grid

#: ``(x, y, width, height)`` in window pixels.
Area = tuple[int, int, int, int]

#: Width of the band looked at around the board, in pixels: wider than a grid line's rounding, narrow enough to
#: stay off the header (counter, face) that a click of ours redraws.
BAND = 3


class BoardLost(ControlError):
    """The page moved the board and it cannot be located again (exit 4, as a window that moved or closed): scrolled
    partly out of view, or zoomed to a size the skin cannot read."""


def bands(grid: Grid, shape: tuple[int, ...], band: int = BAND) -> list[tuple[slice, slice]]:
    """The strips of a frame of ``shape`` just outside the grid (above, below, left, right), clipped to the frame.

    A grid with edges between pixels or a fractional pitch (a page drawn at 125%) has its outline rounded, and a tile
    drawn there can reach the pixel line just outside it (seen in Firefox at 125%: a covered tile's border one row
    above the located top edge, gone when the cell opened, which read as the page moving).  The strips of such a
    grid keep one pixel away from it; a page that moves by two pixels or more still shows in them.

    >>> grid = Grid(np.arange(0.0, 41.0, 10.0), np.arange(10.0, 51.0, 10.0))
    >>> [(s.start, s.stop, t.start, t.stop) for s, t in bands(grid, (60, 40, 3))]  # flush with the left edge
    [(7, 10, 0, 40), (50, 53, 0, 40)]
    >>> scaled = Grid(np.arange(0.0, 41.0, 10.0) + 0.5, np.arange(10.0, 51.0, 10.0) + 0.5)
    >>> [(s.start, s.stop) for s, _ in bands(scaled, (60, 40, 3))[:2]]  # one pixel off the rounded outline
    [(6, 9), (51, 54)]
    """
    height, width = shape[:2]
    x0, y0, x1, y1 = grid.rect
    if _drawn_at_a_scale(grid):
        x0, y0, x1, y1 = x0 - 1, y0 - 1, x1 + 1, y1 + 1
    left, right = max(0, x0 - band), min(width, x1 + band)
    top, bottom = max(0, y0 - band), min(height, y1 + band)
    strips = [
        (slice(top, max(top, y0)), slice(left, right)),
        (slice(min(bottom, y1), bottom), slice(left, right)),
        (slice(max(0, y0), min(height, y1)), slice(left, max(left, x0))),
        (slice(max(0, y0), min(height, y1)), slice(min(right, x1), right)),
    ]
    return [(rows, cols) for rows, cols in strips if rows.stop > rows.start and cols.stop > cols.start]


def _drawn_at_a_scale(grid: Grid) -> bool:
    """Whether the grid's edges lie between pixels or its pitch is fractional (edges rounded to whole pixels)."""
    pitches = [(edges[-1] - edges[0]) / (len(edges) - 1) for edges in (grid.xs, grid.ys)]
    return grid.subpixel or any(abs(p - round(p)) > 1e-6 for p in pitches)


def in_place(before: np.ndarray, now: np.ndarray, grid: Grid) -> bool:
    """Whether ``now`` shows the page around ``grid`` exactly as ``before`` did: the board has not moved.

    Frames of different sizes (a resized window) are not the same place.  A board that fills the frame leaves
    no band to look at: nothing then says it moved.
    """
    if before.shape != now.shape:
        return False
    return all(np.array_equal(before[rows, cols], now[rows, cols]) for rows, cols in bands(grid, now.shape))


@runtime_checkable
class AreaScreen(Protocol):
    """A screen that can grab part of its window: four thin strips cost ~0.3 ms where the whole window costs ~4."""

    def grab_area(self, area: Area) -> np.ndarray: ...


def still_in_place(frame: np.ndarray, grid: Grid, grab_area: Callable[[Area], np.ndarray]) -> bool:
    """:func:`in_place` with only the bands grabbed again (``grab_area`` takes window pixels), for every press.

    >>> grid = Grid(np.arange(20.0, 61.0, 10.0), np.arange(20.0, 61.0, 10.0))
    >>> page = np.full((100, 100, 3), 50, np.uint8); page[20:60, 20:60] = 200
    >>> moved = np.full_like(page, 50); moved[27:67, 20:60] = 200
    >>> still_in_place(page, grid, lambda a: page[a[1] : a[1] + a[3], a[0] : a[0] + a[2]])
    True
    >>> still_in_place(page, grid, lambda a: moved[a[1] : a[1] + a[3], a[0] : a[0] + a[2]])
    False
    """
    strips = bands(grid, frame.shape)
    if not strips:
        return True
    # One grab of the box around the strips: each grab is a round trip to the window system (four thin strips
    # cost ~0.8 ms here, the box around a whole expert board ~0.2), and only the strips are compared.
    top, bottom = min(r.start for r, _ in strips), max(r.stop for r, _ in strips)
    left, right = min(c.start for _, c in strips), max(c.stop for _, c in strips)
    now = grab_area((left, top, right - left, bottom - top))
    for rows, cols in strips:
        here = now[rows.start - top : rows.stop - top, cols.start - left : cols.stop - left]
        if not np.array_equal(here, frame[rows, cols]):
            return False
    return True


class PressedAstray(BoardLost):
    """The page moved the board while a batch was being pressed, and the board shows a press landed elsewhere."""


def astray(before: Board, after: Board, moves: Sequence[Move], unread: Collection[Coord] = ()) -> list[Coord]:
    """Cells whose change since ``before`` the batch ``moves`` does not explain, or whose press shows no effect.

    Why: a page that lays out a move (a zoom, a scroll) before painting it takes a press at the old coordinates
    on the new layout, and nothing on screen could tell in time.  The board read after the move still can: a
    press that went astray opened a cell no move named (or flagged one), or left its own cell unchanged.  Opened
    cells are explained by a reveal of the batch and by the cascade that spreads from it through opened zeros,
    and by a chord: a press on a cell that an earlier press of the batch had already opened by its cascade is a
    click on a number, which many games (gnome-mines) answer by opening its other neighbours once its flags are
    all placed.  ``unread`` cells (not read at decision time, or not now) say nothing either way.

    >>> from autoplay.board.textformat import parse_board
    >>> before = parse_board("....\\n....")
    >>> astray(before, parse_board("00..\\n01.."), [Move("reveal", 0, 0, 0.0)])  # a cascade from the press
    []
    >>> astray(before, parse_board("...1\\n...."), [Move("reveal", 0, 0, 0.0)])  # another cell opened instead
    [(0, 0), (0, 3)]
    >>> chord = [Move("reveal", 1, 1, 0.0), Move("reveal", 0, 1, 0.0)]  # (0,1) was open by the time it was pressed
    >>> astray(parse_board("...\\n..F\\n..."), parse_board("012\\n01F\\n012"), chord)  # its chord opened (2,2)
    []
    """
    unread = set(unread)
    cols = after.cols

    def cell(board: Board, rc: Coord) -> str:
        return board.cells[rc[0] * cols + rc[1]]

    everywhere = [(r, c) for r in range(after.rows) for c in range(cols) if (r, c) not in unread]
    opened = {rc for rc in everywhere if cell(before, rc) == HIDDEN and cell(after, rc) in DIGITS}
    flagged = {rc for rc in everywhere if cell(before, rc) == HIDDEN and cell(after, rc) == FLAG}
    reveals = {(m.row, m.col) for m in moves if m.action == "reveal"}
    flags = {(m.row, m.col) for m in moves if m.action == "flag"}
    explained: set[Coord] = set()
    queue = [rc for rc in reveals if rc in opened]
    while queue:
        rc = queue.pop()
        if rc in explained:
            continue
        explained.add(rc)
        if cell(after, rc) == "0" or (rc in reveals and _chorded(after, rc)):
            queue.extend(n for n in after.neighbours(*rc) if n in opened)
    no_effect = {rc for rc in reveals - unread if cell(after, rc) == HIDDEN}
    no_effect |= {rc for rc in flags - unread if cell(after, rc) != FLAG}
    return sorted((opened - explained) | (flagged - flags) | no_effect)


def _chorded(board: Board, rc: Coord) -> bool:
    """Whether a click on the number at ``rc`` would open its other neighbours: its flags are all placed."""
    shown = board.cells[rc[0] * board.cols + rc[1]]
    flags = sum(1 for r, c in board.neighbours(*rc) if board.cells[r * board.cols + c] == FLAG)
    return shown in DIGITS and shown != "0" and flags == int(shown)
