"""Telling something drawn over the board (a dialog, another window) from tiles a skin does not know.

Unknown tiles come one or a few at a time, scattered among the numbers (a
first 4, a 0 drawn over a part of the background the skin never saw); a
dialog covers a solid rectangle of cells.  So the test is the shape: a solid
block at least ``MIN_SIDE`` cells each way, or most of the board, is an
obstruction; anything else is played around.
"""

from __future__ import annotations

import numpy as np

#: A dialog covers at least this many cells each way on any board worth playing.
MIN_SIDE = 3
#: Unreadable cells over this share of the board mean the board is covered, whatever their shape.
COVERED_SHARE = 0.25


def largest_block(mask: np.ndarray, min_side: int = 1) -> tuple[int, int, int, int, int]:
    """The largest all-True axis-aligned rectangle of a 2-D mask with both sides at least ``min_side``:
    (area, top, left, bottom, right), exclusive ends; area 0 when there is none."""
    rows, cols = mask.shape
    heights = np.zeros(cols, dtype=int)
    best = (0, 0, 0, 0, 0)
    for r in range(rows):
        heights = np.where(mask[r], heights + 1, 0)
        for c0 in range(cols):
            h = heights[c0]
            for c1 in range(c0, cols):
                h = min(h, heights[c1])
                if h == 0:
                    break
                area = h * (c1 - c0 + 1)
                if area > best[0] and h >= min_side and c1 - c0 + 1 >= min_side:
                    best = (int(area), r - h + 1, c0, r + 1, c1 + 1)
    return best


def looks_obstructed(rows: int, cols: int, cells: list[tuple[int, int]]) -> bool:
    """Do the unreadable ``cells`` look like something over the board rather than tiles?"""
    if not cells:
        return False
    if len(cells) >= COVERED_SHARE * rows * cols:
        return True
    mask = np.zeros((rows, cols), bool)
    for r, c in cells:
        mask[r, c] = True
    return largest_block(mask, MIN_SIDE)[0] > 0
