"""From a screenshot to a :class:`~autoplay.board.model.Board`, or a clear refusal.

The fast path (grid already known, as in the live loop) is one resample of the
board and one matrix product against the skin's templates; locating the grid
is the slow part and happens only when no grid is passed in.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from autoplay.board.impossible import impossible_readings
from autoplay.board.model import FLAG, HIDDEN, QUESTION, Board
from autoplay.errors import ContradictionError, UnreadableBoardError
from autoplay.vision.among import read_among
from autoplay.vision.cell_memory import CellMemory, first_look
from autoplay.vision.classify import Classification
from autoplay.vision.counter import read_counter
from autoplay.vision.debug import write_debug_image
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid
from autoplay.vision.retry import retry_unreadable
from autoplay.vision.skin import UNNAMED_MARK, Skin
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
    refused: tuple[tuple[int, int], ...] = ()  # cells the looks read but a rule refused (also in ``unreadable``)
    distance: np.ndarray | None = None  # (rows, cols) RMS 0..1 to the template each cell was read by (second looks too)
    skin: Skin | None = None  # the skin it was read with, for a cell read again among a few outcomes

    def read_among(self, cell: tuple[int, int], outcomes: Mapping[str, Collection[str]]) -> str | None:
        """Which of ``outcomes`` (each naming the labels that show it) ``cell`` shows, when the rules leave it
        only those (:func:`autoplay.vision.among.read_among`); None if unsure or no picture is kept."""
        if self.image is None or self.skin is None:
            return None
        return read_among(self.image, self.grid, self.skin, cell, outcomes)

    def reads_as(self, other: DecodedFrame) -> bool:
        """Whether ``other`` read every cell alike: labels, distances, confidences, unreadable cells and state.

        What a decode that matched only the changed cells (:mod:`autoplay.vision.cell_memory`) must keep.
        """
        return (
            np.array_equal(self.labels, other.labels)
            and (
                self.distance is other.distance
                or (
                    (self.distance is not None and other.distance is not None)
                    and np.array_equal(self.distance, other.distance)
                )
            )
            and np.array_equal(self.confidence, other.confidence)
            and self.unreadable == other.unreadable
            and self.state == other.state
        )

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


def decode_frame(
    image: np.ndarray, skin: Skin, grid: Grid | None = None, mines: int | None = None, memory: CellMemory | None = None
) -> DecodedFrame:
    """Decode every cell of ``image``; locates the grid first when none is given.

    ``mines`` is the game's total when the caller knows it (it launched the
    game); otherwise the skin's mine counter, then the skin's fixed sizes
    supply it, or it stays None.  With a ``memory`` of the frames decoded
    before, only the cells whose pixels changed are matched again, to the
    same result (:mod:`autoplay.vision.cell_memory`).
    """
    if grid is None:
        grid = locate_grid(image, skin)
    result = first_look(image, grid, skin) if memory is None else memory.first_look(image, grid, skin)
    if not result.readable.all():
        result = retry_unreadable(image, grid, skin, result)
    like_unnamed = result.labels == UNNAMED_MARK
    if like_unnamed.any():  # a tile calibration saw but could not name: unreadable, shown covered
        labels = np.where(like_unnamed, HIDDEN, result.labels)
        result = Classification(labels, result.distance, result.confidence, result.readable & ~like_unnamed)
    read = np.where(result.readable, result.labels, QUESTION)  # a best guess is no reading to check
    conflicts = impossible_readings(Board(grid.rows, grid.cols, tuple(read.tolist())))
    if conflicts:  # a reading no game can show (a 0 beside a covered cell): one of them is misread
        flat = [r * grid.cols + c for r, c in conflicts]
        readable = result.readable.copy()
        readable[flat] = False
        result = Classification(result.labels, result.distance, result.confidence, readable)
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
        tuple(conflicts),
        result.distance.reshape(shape),
        skin,
    )


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
