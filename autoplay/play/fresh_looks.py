"""Cells that look exactly as they did on the game's fresh board are still covered, and only they.

A game draws a covered cell the same way until the cell is opened or flagged, and an opened or flagged cell
looks different (else no player could see the change).  So the picture of each cell on a fresh board, taken
before the first click, is that cell's covered look; a later picture equal to it is a covered cell, whatever the
skin's templates make of it.  This names covered tiles a skin has never seen: kmines draws its covered tiles
see-through over a background picture, so each position has a look of its own, and a calibration of a few games
sees only some of them.  The looks are kept only for cells no template read on that first frame, and only when
that frame is plainly a fresh board: every cell read is covered, most cells are read, and the cells not read
are scattered tiles, not a block drawn over the board.

The converse holds as well: a cell read as covered whose picture is no longer its fresh one has been opened
(or has something drawn over it), whatever the templates say.  kmines draws the opened tiles of its top rows
lighter than elsewhere, close to its covered tile, and the bot once clicked such a "covered" cell as a certain
reveal and stopped when nothing happened.  :func:`changed_since_fresh` compares every cell read as covered with
its fresh picture (as sampled patches, a few hundred bytes a cell) and such a cell is played as unknown -- unless
its picture now is one some cell showed on the fresh board: then its own first picture was the odd one (kmines
fades the last game's "You have won" out over the first frame of the next), and it is covered.

>>> import numpy as np
>>> from autoplay.board.model import Board
>>> from autoplay.vision.grid import Grid
>>> grid = Grid(np.arange(0.0, 50.0, 10.0), np.arange(0.0, 50.0, 10.0))  # 4x4 cells of 10 px
>>> first = np.zeros((40, 40, 3), np.uint8); first[10:20, 20:30] = 200  # cell (1, 2): a look no template knows
>>> is_fresh_board(Board.from_text("....\\n....\\n....\\n...."), [(1, 2)])
True
>>> looks = fresh_looks(first, grid, [(1, 2)])
>>> sorted(looks)
[(1, 2)]
>>> unchanged(first, grid, looks, [(1, 2)])  # the same picture later: still covered
[(1, 2)]
>>> opened = first.copy(); opened[10:20, 20:30] = 90
>>> unchanged(opened, grid, looks, [(1, 2)])
[]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import fields, replace
from typing import Any, TypeVar

import numpy as np

from autoplay.board.model import HIDDEN, Board
from autoplay.board.rules import Rules
from autoplay.vision.features import cell_image, cell_patches
from autoplay.vision.grid import Grid
from autoplay.vision.obstruction import looks_obstructed
from autoplay.vision.state import UNKNOWN, game_state

Cell = tuple[int, int]
Decoded = TypeVar("Decoded", bound=Any)

#: Mean absolute difference (grey levels, 0-255) within which two pictures of one cell are the same picture.
SAME = 3.0
#: Share of the first frame's cells that must read as covered for it to count as a fresh board.
READABLE_SHARE = 0.5
#: A grid located this close (pixels) to the fresh board's is the board in the same place, a line found a pixel off.
SAME_PLACE = 1.5
#: Cell sizes within this share of each other are one size: a board that moved, not one zoomed.
SAME_PITCH = 0.02


def _patch(frame: np.ndarray, grid: Grid, cell: Cell) -> np.ndarray:
    return cell_image(frame, grid, *cell)


def is_fresh_board(board: Board, unreadable: Collection[Cell], readable_share: float = READABLE_SHARE) -> bool:
    """Is ``board`` (a game's first frame, before any click) plainly a fresh board?

    Every cell read is covered, at least ``readable_share`` of the cells were read (a frame mostly unread is no
    proof of anything), and the unread cells do not form a block (a popup over the board, whose picture would
    stand for cells opened under it later).
    """
    unread = set(unreadable)
    readable = [c for i, c in enumerate(board.cells) if divmod(i, board.cols) not in unread]
    if any(c != HIDDEN for c in readable) or len(readable) < readable_share * len(board.cells):
        return False
    return not (unread and looks_obstructed(board.rows, board.cols, sorted(unread)))


def fresh_looks(frame: np.ndarray, grid: Grid, unreadable: Collection[Cell]) -> dict[Cell, np.ndarray]:
    """The pictures of the ``unreadable`` cells of a game's first frame, kept (copied) as their covered looks;
    call it only for a frame :func:`is_fresh_board` accepts."""
    return {cell: np.ascontiguousarray(_patch(frame, grid, cell)) for cell in sorted(set(unreadable))}


def unchanged(frame: np.ndarray, grid: Grid, looks: Mapping[Cell, np.ndarray], cells: Collection[Cell]) -> list[Cell]:
    """The ``cells`` whose picture in ``frame`` is the one ``looks`` kept for them: covered still."""
    same = []
    for cell in cells:
        look = looks.get(cell)
        if look is None:
            continue
        patch = _patch(frame, grid, cell)
        if patch.shape == look.shape and float(np.abs(patch.astype(np.int16) - look).mean()) <= SAME:
            same.append(cell)
    return sorted(same)


def fresh_patches(frame: np.ndarray, grid: Grid) -> tuple[Grid, np.ndarray]:
    """Every cell of a fresh board as a sampled patch, with the grid they were sampled on (for
    :func:`changed_since_fresh`); call it only for a frame :func:`is_fresh_board` accepts."""
    return grid, cell_patches(frame, grid)


def follow_board(
    fresh: tuple[Grid, np.ndarray], grid: Grid, frame: np.ndarray, board: Board
) -> tuple[Grid, np.ndarray] | None:
    """The fresh board's record (:func:`fresh_patches`) moved to where ``grid`` finds the board in ``frame`` now.

    A page moves its board in the window (a banner loading above it, a scroll): the cells' fresh pictures are
    the same pictures, only elsewhere, so the record follows the board.  A grid within ``SAME_PLACE`` pixels of
    the fresh one is the same place (a lattice line re-located a pixel off), and the record is kept as it is.  The
    move is measured on the located edges, which may each be a pixel off, so the whole-pixel shifts next to it are
    tried too and the one whose covered cells look most like their fresh pictures is taken.  None when the board
    is drawn at another size now (the page was zoomed) or has another shape: no fresh picture can be compared then.

    >>> grid = Grid(np.arange(0.0, 50.0, 10.0), np.arange(0.0, 50.0, 10.0))
    >>> first = np.zeros((80, 80, 3), np.uint8); first[10:20, 20:30] = 200
    >>> fresh = fresh_patches(first, grid)
    >>> moved = np.zeros_like(first); moved[27:67, 3:43] = first[0:40, 0:40]  # the page moved it by (+3, +27)
    >>> there = Grid(grid.xs + 3, grid.ys + 28)  # located a pixel off
    >>> board = Board.from_text("....\\n....\\n....\\n....")
    >>> followed = follow_board(fresh, there, moved, board)
    >>> followed[0].rect, changed_since_fresh(moved, followed, board)
    ((3, 27, 43, 67), [])
    >>> follow_board(fresh, Grid(grid.xs, grid.ys + 2), first, board)[0].rect  # located 2 px low, nothing moved
    (0, 0, 40, 40)
    >>> follow_board(fresh, Grid(grid.xs * 1.25, grid.ys * 1.25), moved, board) is None  # zoomed
    True
    """
    old, patches = fresh
    if (old.rows, old.cols) != (grid.rows, grid.cols):
        return None
    if any(abs(now - was) > SAME_PITCH * was for now, was in zip(grid.pitch, old.pitch)):
        return None
    dx, dy = float(np.median(grid.xs - old.xs)), float(np.median(grid.ys - old.ys))
    if abs(dx) <= SAME_PLACE and abs(dy) <= SAME_PLACE:
        return fresh
    covered = np.array([c == HIDDEN for c in board.cells]).reshape(board.rows, board.cols)
    best: tuple[float, Grid] | None = None
    # Around the measured move, and around no move at all: a lattice located a few pixels off where nothing moved
    # (Firefox at 125%, look 32168: 2 px low) is no move, and no shift next to it would find the board again.
    shifts = {
        (round(x) + ddx, round(y) + ddy) for x, y in ((dx, dy), (0, 0)) for ddx in (-1, 0, 1) for ddy in (-1, 0, 1)
    }
    for sx, sy in sorted(shifts, key=lambda s: (abs(s[0]) + abs(s[1]), s)):
        there = old.shifted(sx, sy)
        x0, y0, x1, y1 = there.rect
        if x0 < 0 or y0 < 0 or x1 > frame.shape[1] or y1 > frame.shape[0]:
            continue
        now = cell_patches(frame, there)
        diff = np.abs(now.astype(np.int16) - patches).mean(axis=(2, 3, 4))
        score = float(diff[covered].mean()) if covered.any() else float(diff.mean())
        if best is None or score < best[0]:
            best = (score, there)
    return None if best is None else (best[1], patches)


def changed_since_fresh(frame: np.ndarray, fresh: tuple[Grid, np.ndarray], board: Board) -> list[Cell]:
    """The cells ``board`` reads as covered whose picture in ``frame`` is not their fresh one: opened since.

    Sampled on the fresh board's grid (a grid re-located a pixel off would make every cell look changed); a board
    the page moved is followed by :func:`follow_board` first.

    >>> grid = Grid(np.arange(0.0, 50.0, 10.0), np.arange(0.0, 50.0, 10.0))
    >>> first = np.full((40, 40, 3), 200, np.uint8)
    >>> fresh = fresh_patches(first, grid)
    >>> later = first.copy(); later[0:10, 30:40] = 180  # cell (0, 3) opened, drawn a little darker
    >>> changed_since_fresh(later, fresh, Board.from_text("...1\\n....\\n....\\n...."))  # (0, 3) reads as a number
    []
    >>> changed_since_fresh(later, fresh, Board.from_text("....\\n....\\n....\\n...."))  # read as covered: refused
    [(0, 3)]
    >>> faint = first.copy(); faint[20:30, 0:10] = 215  # a popup fading out over (2, 0) on the first frame
    >>> changed_since_fresh(first, fresh_patches(faint, grid), Board.from_text("....\\n....\\n....\\n...."))
    []
    """
    grid, before = fresh
    now = cell_patches(frame, grid)
    covered = np.array([c == HIDDEN for c in board.cells]).reshape(board.rows, board.cols)
    if now.shape != before.shape or covered.shape != now.shape[:2]:
        return []
    diff = np.abs(now.astype(np.int16) - before).mean(axis=(2, 3, 4))
    changed = np.argwhere(covered & (diff > SAME))
    if not len(changed):
        return []
    # A picture some cell of the fresh board showed is a covered look: the cell's own fresh picture was the odd
    # one (the last game's popup fading out over the first frame, say), not its picture now.
    looks = before.reshape(before.shape[0] * before.shape[1], -1).astype(np.int16)
    opened = []
    for r, c in changed:
        nearest = np.abs(looks - now[r, c].reshape(1, -1)).mean(axis=1).min()
        if nearest > SAME:
            opened.append((int(r), int(c)))
    return opened


def with_unreadable(decoded: Decoded, cells: Collection[Cell]) -> Decoded:
    """``decoded`` with ``cells`` added to its unreadable ones (a stored ``readable`` flag brought in line)."""
    extra = [cell for cell in sorted(set(cells)) if cell not in {tuple(c) for c in decoded.unreadable}]
    if not extra:
        return decoded
    changes: dict[str, object] = {"unreadable": [*decoded.unreadable, *extra]}
    if decoded.state not in ("won", "lost"):
        changes["state"] = UNKNOWN  # as the decoder says of any board with unread cells
    if "readable" in {f.name for f in fields(decoded)}:
        changes["readable"] = False
    return replace(decoded, **changes)


def with_covered(decoded: Decoded, cells: Collection[Cell], rules: Rules) -> Decoded:
    """``decoded`` with ``cells`` read as covered (no longer unreadable), and its game state read again.

    ``decoded`` is a :class:`~autoplay.vision.decode.DecodedFrame`, or any dataclass with its ``board``,
    ``unreadable`` and ``state`` (a stored ``labels`` array or ``readable`` flag is brought in line too).
    """
    known = set(cells)
    if not known:
        return decoded
    board = decoded.board
    chars = list(board.cells)
    for row, col in known:
        chars[row * board.cols + col] = HIDDEN
    shown = Board(board.rows, board.cols, tuple(chars), board.mines)
    unreadable = [cell for cell in decoded.unreadable if tuple(cell) not in known]
    changes: dict[str, object] = {
        "board": shown,
        "unreadable": unreadable,
        "state": game_state(shown, rules, readable=not unreadable),
    }
    stored = {f.name for f in fields(decoded)}
    if "labels" in stored:
        labels = np.array(decoded.labels, copy=True)
        for row, col in known:
            labels[row, col] = HIDDEN
        changes["labels"] = labels
    if "readable" in stored:
        changes["readable"] = not unreadable
    return replace(decoded, **changes)
