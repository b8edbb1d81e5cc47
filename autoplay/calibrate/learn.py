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
and flags do): then no unknown tile can be a mine or a flag the skin does not know.

Flags are the exception that needs no counting: the player knows which cells it
flagged itself, so an unknown tile on such a cell is its flag (what appeared
where it right-clicked), learned as ``F`` from the picture taken during the game
and counted as a mine on the final board.  Taking such a tile for a revealed
number would be wrong in both ways: the flag named as a digit, and the digits
around it named one too low.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from autoplay.board.model import CELL_CHARS, DIGITS, EXPLODED, FLAG, HIDDEN, MINE, Board
from autoplay.calibrate.rules_labels import (
    COVERED,
    FATAL,
    OBSTRUCTED,
    REVEALED,
    SHOWN_MINE,
    Evidence,
    GameEvidence,
    name_clusters,
)
from autoplay.calibrate.tilebook import TileBook, separation_radius
from autoplay.play.final_board import mines_accounted, mines_read, with_own_flags
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, cell_image, cell_patches, crop_patch, patch_vectors
from autoplay.vision.grid import Grid

Cell = tuple[int, int]
#: Evidence status of each readable cell character (digits are REVEALED with a known value). The player
#: flags only cells it knows are mines, so its flags count as mines shown (live calibration's flags do not).
STATUS_OF = {HIDDEN: COVERED, FLAG: SHOWN_MINE, MINE: SHOWN_MINE, EXPLODED: FATAL}
#: Cluster ids from here on stand for the digits the skin reads (KNOWN_BASE + value).
KNOWN_BASE = 1_000_000


@dataclass(frozen=True)
class LearnedTile:
    """One tile named by the rules: its label, the cells that showed it and the picture of one of them."""

    label: str
    cells: tuple[Cell, ...]
    crop: np.ndarray


def learn_from_final_board(
    frame: np.ndarray,
    grid: Grid,
    board: Board,
    unknown: Collection[Cell],
    seen: Collection[Cell],
    end: str,
    flagged: Collection[Cell] = (),
    shows_every_mine: bool = False,
) -> list[LearnedTile]:
    """The unknown tiles of a finished game that the rules name, each with a picture to add to the skin.

    ``board`` is the final board as read, ``unknown`` its unreadable cells, ``seen`` the cells that were
    unknown during the game; only tiles shown on such cells are learned.  A tile that appears only at the
    end (a crossed-out flag, a "You have lost" popup over the board) says nothing about what lies under
    it: such cells count as obstructed.  ``end`` is ``won`` or ``lost``.  ``flagged`` are the cells the
    player flagged: mines, never numbers to learn (:func:`learn_flag_looks` names their tile).

    ``shows_every_mine``: this game was seen to show every mine when lost (an earlier lost board of it
    showed the whole mine count), so the covered cells of a lost board are safe even when a popup hides
    a few of its mines.
    """
    board, unknown = with_own_flags(board, unknown, flagged)
    all_shown = mines_accounted(board, unknown, end)
    doubtful = set(unknown)
    seen = set(seen)
    # A tile that was unknown while the game went on is a revealed number (only safe cells open before the
    # end); its value is bounded by the mines shown and the cells covered or obstructed around it. One beside a
    # cell that changed only at the end may lie partly under what was drawn there (kmines' "You have lost."
    # fades over its neighbours): its picture is not the tile's, and it is not learned.
    appeared = doubtful - seen
    unknown = [rc for rc in unknown if rc in seen and not _beside(rc, appeared)]
    if not unknown or board.mines is None or not (all_shown or end == "lost"):
        return []
    covered_safe = all_shown or (shows_every_mine and _room_for_hidden_mines(board, doubtful - set(unknown)))
    book, ids = _group_by_looks(frame, grid, board, unknown, doubtful)
    cluster_of = dict(zip(unknown, ids))
    game = _evidence(board, cluster_of, doubtful, end, covered_safe, all_shown)
    naming = name_clusters(Evidence(games=[game]), known={KNOWN_BASE + v: v for v in range(9)})
    learned = []
    for cluster in range(len(book)):
        cells = tuple(rc for rc, k in cluster_of.items() if k == cluster)
        label = naming.labels.get(cluster)
        if label is None or label not in CELL_CHARS or not seen & set(cells):
            continue
        learned.append(LearnedTile(label, cells, book.crops[cluster][book.medoid(cluster)]))
    return learned


def learn_during_game(
    frame: np.ndarray,
    grid: Grid,
    board: Board,
    unknown: Collection[Cell],
    opened: Collection[Cell],
    flagged: Collection[Cell] = (),
) -> list[LearnedTile]:
    """The unknown tiles of a game still going on that the rules name, each with a picture for the skin.

    ``opened`` are the unknown cells the rules prove to be opened numbers
    (:func:`autoplay.play.proven_open.proven_opened`).  Unknown tiles are grouped by looks; a group with an
    opened cell is a number on all its cells, the other unknown cells may hide anything.  Mid-game a number
    is only bounded (at least the mines known around it, at most those plus its covered neighbours), but all
    the board's numbers must describe one layout with the game's mine count, and one look is one value: on a
    board where a few unknown 4s sit among read numbers, that often leaves a single value.  A group is named
    only when every assignment the rules allow gives it the same value.
    """
    board, unknown = with_own_flags(board, unknown, flagged)
    unknown = sorted(set(unknown))
    if not unknown or not set(opened) & set(unknown) or board.mines is None:
        return []
    book, ids = _group_by_looks(frame, grid, board, unknown, set(unknown))
    proven = set(opened)
    numbers = {k for rc, k in zip(unknown, ids, strict=True) if rc in proven}
    cluster_of = {rc: k for rc, k in zip(unknown, ids, strict=True) if k in numbers}
    game = _evidence(board, cluster_of, set(unknown), "unfinished", covered_safe=False, obstructed_safe=False)
    naming = name_clusters(Evidence(games=[game]), known={KNOWN_BASE + v: v for v in range(9)})
    learned = []
    for cluster in sorted(numbers):
        label = naming.labels.get(cluster)
        if label is None or label not in DIGITS:
            continue
        cells = tuple(rc for rc, k in cluster_of.items() if k == cluster)
        learned.append(LearnedTile(label, cells, book.crops[cluster][book.medoid(cluster)]))
    return learned


def _group_by_looks(
    frame: np.ndarray, grid: Grid, board: Board, unknown: list[Cell], doubtful: set[Cell]
) -> tuple[TileBook, list[int]]:
    """The ``unknown`` cells grouped by looks, tighter than the nearest two different tiles read on ``board``.

    One group gets one value, so two different tiles must never share one: the radius is half the gap between
    the nearest two cells read as different labels (:func:`~autoplay.calibrate.tilebook.separation_radius`).
    On a game drawing one dark colour for every digit at 17 px, the 2s and 3s of a column a pixel off the
    lattice were 0.05 apart and fell in one group at the general radius: the 3s were named 2 on a board still
    in play, where a number is only bounded and both values fit.  ``doubtful`` cells are left out of the
    measure (their letters are guesses).
    """
    vectors = patch_vectors(cell_patches(frame, grid, DEFAULT_SIZE, DEFAULT_INSET))
    read = [i for i, c in enumerate(board.cells) if divmod(i, board.cols) not in doubtful and c in CELL_CHARS]
    radius = separation_radius(vectors[read], [board.cells[i] for i in read])

    def crop(k: int) -> np.ndarray:
        return cell_image(frame, grid, *unknown[k])

    book = TileBook(radius)
    ids = book.assign(vectors[[r * grid.cols + c for r, c in unknown]], crop).tolist()
    return book, ids


def learn_flag_looks(looks: dict[Cell, np.ndarray]) -> list[LearnedTile]:
    """The flags of ours no template matched, one tile per look: labelled ``F`` by our own right-click."""
    if not looks:
        return []
    cells = list(looks)
    crops = [looks[rc] for rc in cells]
    vectors = np.stack([patch_vectors(crop_patch(crop))[0] for crop in crops])
    book = TileBook()
    ids = book.assign(vectors, lambda k: crops[k]).tolist()
    return [
        LearnedTile(
            FLAG, tuple(rc for rc, k in zip(cells, ids, strict=True) if k == cluster), crops[ids.index(cluster)]
        )
        for cluster in range(len(book))
    ]


def _beside(cell: Cell, cells: set[Cell]) -> bool:
    """Is ``cell`` next to (or one of) ``cells``?"""
    r, c = cell
    return any((r + dr, c + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _room_for_hidden_mines(board: Board, obstructed: set[Cell]) -> bool:
    """Can the ``obstructed`` cells of a lost board hold the mines its readable cells do not show?"""
    assert board.mines is not None
    return mines_read(board, obstructed, "lost") + len(obstructed) >= board.mines


def _evidence(
    board: Board,
    cluster_of: dict[Cell, int],
    doubtful: set[Cell],
    end: str,
    covered_safe: bool,
    obstructed_safe: bool,
) -> GameEvidence:
    """The final board as rules evidence: readable digits as fixed-value clusters, unknown tiles as their own.

    ``doubtful`` cells left out of ``cluster_of`` count as obstructed (nothing known about them);
    ``covered_safe``: a lost board's covered cells hold no mine; ``obstructed_safe``: nor do the obstructed.
    """
    status = np.full(len(board.cells), OBSTRUCTED, dtype="<U1")
    shown: dict[int, set[int]] = {}
    for index, cell in enumerate(board.cells):
        rc = divmod(index, board.cols)
        if rc in cluster_of:
            status[index] = REVEALED
            shown[index] = {cluster_of[rc]}
        elif rc in doubtful:
            continue  # stays OBSTRUCTED
        elif cell.isdigit():
            status[index] = REVEALED
            shown[index] = {KNOWN_BASE + int(cell)}
        else:
            status[index] = STATUS_OF.get(cell, OBSTRUCTED)
    return GameEvidence(
        status.reshape(board.rows, board.cols), shown, end, board.mines, covered_safe and end == "lost", obstructed_safe
    )
