"""From a screenshot to a :class:`~autoplay.board.model.Board`, or a clear refusal.

The fast path (grid already known, as in the live loop) is one resample of the
board and one matrix product against the skin's templates; locating the grid
is the slow part and happens only when no grid is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from autoplay.board.model import FLAG, Board
from autoplay.errors import ContradictionError, UnreadableBoardError
from autoplay.vision.classify import Classification, classify
from autoplay.vision.counter import read_counter
from autoplay.vision.debug import write_debug_image
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid
from autoplay.vision.skin import Skin
from autoplay.vision.state import UNKNOWN, game_state


@dataclass(frozen=True, eq=False)
class DecodedFrame:
    """A decoded screenshot.

    ``labels`` always holds the best guess per cell; ``unreadable`` lists the
    cells whose guess is not trusted, and ``board`` must not be acted on while
    that list is non-empty (see :meth:`require_readable`).
    """

    board: Board
    labels: np.ndarray  # (rows, cols) '<U1'
    confidence: np.ndarray  # (rows, cols) float 0..1
    unreadable: list[tuple[int, int]]
    state: str
    grid: Grid
    image: np.ndarray | None = None
    counter: str | None = None  # the mine counter's text, when the skin reads one and it was readable

    @property
    def readable(self) -> bool:
        return not self.unreadable

    @property
    def unreadable_mask(self) -> np.ndarray:
        """(rows, cols) bool, True where ``labels`` holds only a guess (the cell is in ``unreadable``)."""
        mask = np.zeros(self.labels.shape, dtype=bool)
        for r, c in self.unreadable:
            mask[r, c] = True
        return mask

    def require_readable(
        self, debug_path: str | Path | None = None, debug_root: str | Path | None = None
    ) -> DecodedFrame:
        """Return self, or raise :class:`UnreadableBoardError` naming the cells (and draw them).

        ``debug_root``: the user's output folder the debug path lies in (sub-folders are created below it).
        """
        if self.readable:
            return self
        debug = None
        if debug_path is not None and self.image is not None:
            debug = write_debug_image(debug_path, self.image, self.grid, self.unreadable, root=debug_root)
        raise UnreadableBoardError(describe_cells("unreadable cells", self.unreadable), debug_image=debug)

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board.row_strings(),
            "mines": self.board.mines,
            "state": self.state,
            "grid": self.grid.to_dict(),
            "confidence": np.round(self.confidence, 3).tolist(),
            "unreadable": [list(rc) for rc in self.unreadable],
            "counter": self.counter,
        }


def describe_cells(what: str, cells: list[tuple[int, int]], limit: int = 10) -> str:
    shown = ", ".join(f"({r},{c})" for r, c in cells[:limit])
    more = f" and {len(cells) - limit} more" if len(cells) > limit else ""
    return f"{len(cells)} {what}: {shown}{more}"


def decode_frame(image: np.ndarray, skin: Skin, grid: Grid | None = None, mines: int | None = None) -> DecodedFrame:
    """Decode every cell of ``image``; locates the grid first when none is given.

    ``mines`` is the game's total when the caller knows it (it launched the
    game); otherwise the skin's mine counter, then the skin's fixed sizes
    supply it, or it stays None.
    """
    if grid is None:
        grid = locate_grid(image, skin)
    templates, template_labels = skin.template_matrix()
    vectors = patch_vectors(cell_patches(image, grid, skin.patch_size, skin.inset))
    result = classify(
        vectors, templates, template_labels, skin.max_distance, skin.min_confidence, skin.label_max_distance
    )
    if not result.readable.all():
        result = classify_shifted(image, grid, skin, result)
    shape = (grid.rows, grid.cols)
    labels = result.labels.reshape(shape)
    unreadable = [divmod(int(i), grid.cols) for i in np.flatnonzero(~result.readable)]
    cells = tuple(result.labels.tolist())
    reading = None
    if mines is None and skin.counter is not None:
        reading = read_counter(image, grid, skin.counter, flags=cells.count(FLAG))
    total = mines if mines is not None else reading.total if reading else skin.mines_for(grid.rows, grid.cols)
    board = Board(grid.rows, grid.cols, cells, total)
    state = game_state(board, skin.rules, readable=not unreadable) if not unreadable else UNKNOWN
    return DecodedFrame(
        board,
        labels,
        result.confidence.reshape(shape),
        unreadable,
        state,
        grid,
        image,
        reading.text if reading else None,
    )


#: Whole-pixel moves of the grid tried, nearest first, for cells that match no template where they are.
SHIFTS = tuple(
    (dx, dy)
    for reach in (1, 2)
    for dy in range(-reach, reach + 1)
    for dx in range(-reach, reach + 1)
    if max(abs(dx), abs(dy)) == reach
)


def classify_shifted(image: np.ndarray, grid: Grid, skin: Skin, result: Classification) -> Classification:
    """Re-classify the unreadable cells with the grid moved by up to 2 px, keeping the first confident match.

    The grid is located to about a pixel, and a tile drawn a pixel off (a
    frame whose board moved by one pixel, a skin whose pitch wobbles) is
    unlike its template only because of the offset: each cell is compared
    where it is first, then at the nearest offsets, so a 1-px shift never
    makes a whole board unreadable.  A cell that matches nothing at any
    offset stays unreadable.
    """
    templates, template_labels = skin.template_matrix()
    labels, distance = result.labels.copy(), result.distance.copy()
    confidence, readable = result.confidence.copy(), result.readable.copy()
    height, width = image.shape[:2]
    for dx, dy in SHIFTS:
        bad = np.flatnonzero(~readable)
        if not len(bad):
            break
        moved = grid.shifted(dx, dy)
        x0, y0, x1, y1 = moved.rect
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            continue
        vectors = patch_vectors(cell_patches(image, moved, skin.patch_size, skin.inset))[bad]
        again = classify(
            vectors, templates, template_labels, skin.max_distance, skin.min_confidence, skin.label_max_distance
        )
        fixed = bad[again.readable]
        labels[fixed] = again.labels[again.readable]
        distance[fixed] = again.distance[again.readable]
        confidence[fixed] = again.confidence[again.readable]
        readable[fixed] = True
    return Classification(labels, distance, confidence, readable)


def check_consistency(decoded: DecodedFrame) -> None:
    """Raise :class:`UnreadableBoardError` when no mine layout explains the decode: a probable misread.

    A lost board is skipped (its revealed mines and wrong flags are not a
    position the solver models).  The solver is imported here so vision does
    not load it unless asked.
    """
    from autoplay.solver import analyze

    if decoded.board.is_lost:
        return
    try:
        analyze(decoded.board, mines=decoded.board.mines)
    except ContradictionError as exc:
        cells = exc.cells
        raise UnreadableBoardError(describe_cells("cells contradict each other, probably misread", cells)) from None
