"""Naming a game's unknown tiles from its final board, by the rules of the game (``play --learn``).

During a game the player plays a tile that matches no template as covered and
never clicks it.  At the game's end the final board often says what such a tile
must be: after a win every covered cell is a mine, so a revealed cell's number
is the count of covered cells around it; after a loss that shows every mine it
is the count of mines around it.  The same machinery that names tiles in live
calibration (:func:`autoplay.calibrate.rules_labels.name_clusters`) decides it,
with the tiles the skin does read held at their values.  Unknown tiles are
grouped by looks only so that one tile gets one value; a group is named only
when every layout the rules allow gives it the same value, never on looks.

Learning happens only when the readable tiles account for every mine (a win
whose covered and flagged cells number the mines, or a loss whose shown mines
do): then no unknown tile can be a mine or a flag the skin does not know.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from autoplay.board.model import CELL_CHARS, EXPLODED, FLAG, HIDDEN, MINE, Board
from autoplay.calibrate.rules_labels import (
    COVERED,
    FATAL,
    FLAGGED,
    OBSTRUCTED,
    REVEALED,
    SHOWN_MINE,
    Evidence,
    GameEvidence,
    name_clusters,
)
from autoplay.calibrate.tilebook import TileBook
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, cell_patches, patch_vectors
from autoplay.vision.grid import Grid

Cell = tuple[int, int]
#: Evidence status of each readable cell character (digits are REVEALED with a known value).
STATUS_OF = {HIDDEN: COVERED, FLAG: FLAGGED, MINE: SHOWN_MINE, EXPLODED: FATAL}
#: Cluster ids from here on stand for the digits the skin reads (KNOWN_BASE + value).
KNOWN_BASE = 1_000_000


@dataclass(frozen=True)
class LearnedTile:
    """One tile named by the rules: its label, the cells that showed it and the picture of one of them."""

    label: str
    cells: tuple[Cell, ...]
    crop: np.ndarray


def mines_accounted(board: Board, unknown: Collection[Cell], end: str) -> bool:
    """Do the readable tiles of the final board account for every mine, so no unknown tile is a mine?"""
    if board.mines is None:
        return False
    doubtful = set(unknown)
    readable = [c for i, c in enumerate(board.cells) if divmod(i, board.cols) not in doubtful]
    if end == "won":
        return sum(c in (HIDDEN, FLAG, MINE, EXPLODED) for c in readable) == board.mines
    if end == "lost":
        return sum(c in (MINE, EXPLODED) for c in readable) == board.mines
    return False


def learn_from_final_board(
    frame: np.ndarray, grid: Grid, board: Board, unknown: Collection[Cell], seen: Collection[Cell], end: str
) -> list[LearnedTile]:
    """The unknown tiles of a finished game that the rules name, each with a picture to add to the skin.

    ``board`` is the final board as read, ``unknown`` its unreadable cells, ``seen`` the cells that were
    unknown during the game; only tiles shown on such cells are learned (a tile that appears only at the
    end, a crossed-out flag say, is not).  ``end`` is ``won`` or ``lost``.
    """
    unknown = sorted(set(unknown))
    if not unknown or not mines_accounted(board, unknown, end):
        return []
    indices = [r * grid.cols + c for r, c in unknown]
    vectors = patch_vectors(cell_patches(frame, grid, DEFAULT_SIZE, DEFAULT_INSET))[indices]

    def crop(k: int) -> np.ndarray:
        x0, y0, x1, y1 = grid.cell_rect(*unknown[k])
        return np.ascontiguousarray(frame[y0:y1, x0:x1])

    book = TileBook()
    cluster_of = dict(zip(unknown, book.assign(vectors, crop).tolist()))
    game = _evidence(board, cluster_of, end)
    naming = name_clusters(Evidence(games=[game]), known={KNOWN_BASE + v: v for v in range(9)})
    seen = set(seen)
    learned = []
    for cluster in range(len(book)):
        cells = tuple(rc for rc, k in cluster_of.items() if k == cluster)
        label = naming.labels.get(cluster)
        if label is None or label not in CELL_CHARS or not seen & set(cells):
            continue
        learned.append(LearnedTile(label, cells, book.crops[cluster][book.medoid(cluster)]))
    return learned


def _evidence(board: Board, cluster_of: dict[Cell, int], end: str) -> GameEvidence:
    """The final board as rules evidence: readable digits as fixed-value clusters, unknown tiles as their own."""
    status = np.full(len(board.cells), OBSTRUCTED, dtype="<U1")
    shown: dict[int, set[int]] = {}
    for index, cell in enumerate(board.cells):
        rc = divmod(index, board.cols)
        if rc in cluster_of:
            status[index] = REVEALED
            shown[index] = {cluster_of[rc]}
        elif cell.isdigit():
            status[index] = REVEALED
            shown[index] = {KNOWN_BASE + int(cell)}
        else:
            status[index] = STATUS_OF.get(cell, OBSTRUCTED)
    all_shown = end == "lost"  # mines_accounted checked that a lost board shows every mine
    return GameEvidence(status.reshape(board.rows, board.cols), shown, end, board.mines, all_shown)
