"""Calibrating against a running game: autoplay plays it and learns its tiles from what its clicks did.

The tiles cannot be read yet, but every cell's *status* can be tracked from
the clicks themselves: a cell is covered until a click changes it, the cell
right-clicked shows the flag, the click after which the game stops answering
was the one that ended it.  The rules of the game then name the tiles
(:mod:`autoplay.calibrate.rules_labels`).  Clicks go through the same guarded
mouse as play (inside the located board only, fail-safe on).  Games are blind
(random covered cells) until the labels named so far let the solver choose;
unnamed tiles are then treated as covered and never clicked.

End of game: a left click on a covered cell that leaves it covered means the
game is over.  The final board is the frame that then stays unchanged for
``FINAL_SETTLE`` (a flash or a fading popup is not the board), and the clicks
that did nothing (the probe, a click that only dismissed a popup) are taken
back, so the last click that changed its own cell is the one that ended it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.calibrate.rules_labels import (
    COVERED,
    FATAL,
    FLAGGED,
    OBSTRUCTED,
    REVEALED,
    SHOWN_MINE,
    Evidence,
    GameEvidence,
    Naming,
    name_clusters,
)
from autoplay.calibrate.tilebook import TileBook, fresh_radius, twin_radius
from autoplay.calibrate.uncovered import uncovered_mines
from autoplay.control.capture import wait_settled
from autoplay.control.mouse import Mouse
from autoplay.control.window import GameWindow
from autoplay.errors import ContradictionError, ControlError, UnreadableBoardError
from autoplay.play.player import board_rect_on_screen, board_roi
from autoplay.vision.classify import squared_distances
from autoplay.vision.extend import extend_fresh_board
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, cell_image, cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid, locate_one_way
from autoplay.vision.obstruction import largest_block
from autoplay.vision.one_way import Direction, across_edges
from autoplay.vision.refine import refine_to_fresh

#: RMS distance (0..1) above which a cell counts as changed between two frames.
CHANGED = 0.03
#: The final board must stay unchanged this long (sgt-mines flashes red twice within 0.3 s of a loss).
FINAL_SETTLE = 0.45
#: Share of a fresh board's cells that must show one tile (some games open an area by themselves).
FRESH_SHARE = 0.5
#: A solid block of cells changed at the end this big is a dialog, whatever the mine count says.
DIALOG_CELLS = 12
#: Smallest block taken for a dialog when more cells changed than there are mines.
MIN_DIALOG_CELLS = 4
#: What a skin needs before it can play: hidden, 0-3, a mine and a flag.
REQUIRED = (".", "0", "1", "2", "3", "mine", "F")


#: A cluster of the fresh board this near (in clustering radii) the commonest one, and holding this share of its
#: cells, is another look of the covered tile (a page at 125% snaps its tiles to 22 and 23 px, and their
#: pictures differ by a little more than one radius), not an area the game opened by itself.
COVERED_REACH = 2.0
COVERED_SHARE = 0.02


def covered_looks(ids: np.ndarray, book: TileBook, shape: tuple[int, int] | None = None) -> frozenset[int]:
    """The clusters a fresh board's covered tile shows: the commonest one and those like it (see ``COVERED_REACH``),
    and, given the board's ``shape``, every common look laid out as a sub-pixel phase (see :func:`phase_pattern`).

    >>> book = TileBook(radius=0.05)
    >>> ids = book.assign(np.array([[0.0]] * 60 + [[0.08]] * 30 + [[0.5]] * 10, np.float32), lambda i: np.zeros(1))
    >>> sorted(covered_looks(ids, book))  # the 0.5 cells are an opened area, not the covered tile
    [0, 1]
    """
    counts = np.bincount(ids)
    main = int(np.argmax(counts))
    leaders = np.stack(book.leaders)
    near = np.sqrt(squared_distances(leaders[main][None, :], leaders)[0]) <= COVERED_REACH * book.radius
    common = counts >= COVERED_SHARE * len(ids)
    looks = {int(k) for k in np.flatnonzero(near[: len(counts)] & common)} | {main}
    if shape is not None:
        looks |= {int(k) for k in np.flatnonzero(common) if phase_pattern(ids.reshape(shape) == k)}
    return frozenset(looks)


#: Share of the rows x columns a look's cells cover for it to be a sub-pixel phase of the covered tile.
PHASE_FILL = 0.9


def phase_pattern(cells: np.ndarray) -> bool:
    """Whether the cells of one look (a boolean rows x cols mask) lie where a sub-pixel phase of the grid puts them.

    A board drawn at a fractional pitch (22.5 px at 125%) gives its covered tile one look per phase of the row and
    of the column, so each look fills a set of rows crossed with a set of columns, spread over the whole board and
    not side by side (every other column, say), however far its picture lies from the commonest look.  An area the
    game opened by itself is one blob of neighbouring rows and columns, so it is never taken for such a look.

    >>> import numpy as np
    >>> mask = np.zeros((16, 30), bool); mask[:, 1::2] = True     # every other column: a phase
    >>> phase_pattern(mask)
    True
    >>> blob = np.zeros((16, 30), bool); blob[2:9, 3:12] = True    # an opened area
    >>> phase_pattern(blob)
    False
    """
    rows, cols = np.flatnonzero(cells.any(axis=1)), np.flatnonzero(cells.any(axis=0))
    if len(rows) < 2 or len(cols) < 2:
        return False
    fill = cells.sum() / (len(rows) * len(cols))
    spread = (np.ptp(rows) + 1) * 2 >= cells.shape[0] and (np.ptp(cols) + 1) * 2 >= cells.shape[1]
    gaps = len(rows) < np.ptp(rows) + 1 or len(cols) < np.ptp(cols) + 1
    return bool(fill >= PHASE_FILL and spread and gaps)


def missing_labels(labels: set[str]) -> list[str]:
    """The entries of REQUIRED not yet named ("mine" is met by a shown or an exploded mine)."""
    have = set(labels) | ({"mine"} if labels & {"*", "X"} else set())
    return [label for label in REQUIRED if label not in have]


@dataclass
class Session:
    """Everything live calibration gathered: the tile catalogue, the evidence, the frames worth keeping."""

    book: TileBook = field(default_factory=TileBook)
    evidence: Evidence = field(default_factory=Evidence)
    frames: list[tuple[str, np.ndarray]] = field(default_factory=list)
    grids: list[Grid] = field(default_factory=list)
    games: int = 0
    clicks: int = 0
    naming: Naming | None = None
    #: The first fresh board's patch vectors (they set the clustering radius), and whether that radius was
    #: already tightened once (see ``calibrate_live``).
    fresh_vectors: np.ndarray | None = None
    tightened: bool = False
    notes: list[str] = field(default_factory=list)  # what changed on the way, for the user


@dataclass
class _Step:
    """One left click and what the game looked like just before it (to take it back)."""

    target: int
    vectors: np.ndarray
    status: np.ndarray
    shown: dict[int, set[int]]


class _Game:
    """One game being played for calibration: status per cell, tiles shown, the clicks that changed something."""

    def __init__(self, session: Session, grab: Callable[[], np.ndarray], grid: Grid, settle: float) -> None:
        self.session, self.grab, self.grid, self.settle = session, grab, grid, settle
        self.frame = wait_settled(grab, interval=settle, timeout=5).frame
        self.vectors, self.ids = self.look(self.frame)
        self.covered_look = self.vectors.copy()
        self.status = np.full(grid.rows * grid.cols, COVERED, dtype="<U1")
        self.shown: dict[int, set[int]] = {}
        self.steps: list[_Step] = []
        self.fresh = self.frame
        self.hidden = covered_looks(self.ids, self.session.book, (grid.rows, grid.cols))

    def look(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Patch vectors and cluster ids of every cell of ``frame``."""
        vectors = patch_vectors(cell_patches(frame, self.grid, DEFAULT_SIZE, DEFAULT_INSET))
        if not len(self.session.book):  # the session's first look is its first fresh board
            self.session.fresh_vectors = vectors
            if not self.session.tightened:
                self.session.book.radius = fresh_radius(vectors)
        cols = self.grid.cols

        def crop(i: int) -> np.ndarray:
            return cell_image(frame, self.grid, *divmod(i, cols))

        return vectors, self.session.book.assign(vectors, crop)

    def after_click(self, baseline: np.ndarray, patience: float = 1.0) -> None:
        settled = wait_settled(
            self.grab,
            interval=self.settle,
            timeout=5,
            baseline=baseline,
            change_timeout=patience,
            roi=board_roi(self.grid),
        )
        self.frame = settled.frame
        self.vectors, self.ids = self.look(self.frame)

    def shows_covered(self, ids: np.ndarray) -> np.ndarray:
        """Per cell, whether its cluster is one of the fresh board's looks of the covered tile."""
        return np.isin(ids, sorted(self.hidden))

    def distance(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.sqrt(((a - b) ** 2).mean(axis=1))

    def still_covered(self, index: int, before: np.ndarray | None = None) -> bool:
        """The cell shows the hidden tile, its covered look, or (given ``before``) did not change at all."""
        if self.ids[index] in self.hidden:
            return True
        now = self.vectors[index : index + 1]
        if self.distance(now, self.covered_look[index : index + 1])[0] < CHANGED:
            return True
        return before is not None and self.distance(now, before[index : index + 1])[0] < CHANGED

    def record(self, target: int, before: np.ndarray) -> None:
        """The click on ``target`` changed it: cells that changed from covered are revealed."""
        self.steps.append(_Step(target, before, self.status.copy(), {k: set(v) for k, v in self.shown.items()}))
        changed = self.distance(self.vectors, before) > CHANGED
        # A cell that shows the fresh board's tile is covered, whatever else flickered on it.
        self.status[changed & (self.status == COVERED) & ~self.shows_covered(self.ids)] = REVEALED
        for index in np.flatnonzero(self.status == REVEALED):
            self.shown.setdefault(int(index), set()).add(int(self.ids[index]))


#: The least cells an area the game opened by itself at the start has: an opened 0 shows its eight neighbours.
MIN_OPENED_AREA = 4


def opened_at_start(unlike: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The cells of a fresh board that the game itself opened (xdemineur opens a zero region at the start).

    Cells unlike the covered tile count only where they make an area of ``MIN_OPENED_AREA`` cells or more: a lone
    odd cell is a covered tile under the pointer's highlight (a page's hover or pressed look), and taking it for
    an opened number would give the covered tile a number's name once the pointer moves on.

    >>> unlike = np.zeros(20, bool); unlike[[0, 1, 5, 6, 13]] = True
    >>> np.flatnonzero(opened_at_start(unlike, 4, 5)).tolist()
    [0, 1, 5, 6]
    """
    _, parts = _components(unlike.reshape(rows, cols))
    sizes = np.bincount(parts.ravel())
    big = sizes >= MIN_OPENED_AREA
    big[0] = False  # the background of connectedComponents
    return np.asarray(big[parts.ravel()] & unlike)


def _components(mask: np.ndarray) -> tuple[int, np.ndarray]:
    n, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    return n, labels


def _dialog_blocks(changed: np.ndarray, newly: np.ndarray, mines: int | None) -> np.ndarray:
    """Cells under a dialog drawn over the board at the end: solid rectangles of changed cells.

    Mines are scattered; a dialog is a solid block.  Blocks are taken while
    more covered cells changed than there are mines (or, without the count,
    while a block of at least ``DIALOG_CELLS`` remains).
    """
    blocked = np.zeros_like(changed)
    while True:
        area, top, left, bottom, right = largest_block(changed & ~blocked)
        over_count = mines is not None and int(np.sum(newly & ~blocked)) > mines
        if area < MIN_DIALOG_CELLS or not (over_count or area >= DIALOG_CELLS):
            return blocked
        blocked[top:bottom, left:right] = True


def _finish(game: _Game, mines: int | None) -> GameEvidence:
    """Work out how the game ended from the final frame (already captured in ``game.frame``)."""
    final_vectors, final_ids = game.vectors, game.ids
    while game.steps and game.still_covered(game.steps[-1].target):
        game.steps.pop()  # a click that left its cell covered did nothing (a probe, a popup dismissed)
    if not game.steps:
        return GameEvidence(game.status.reshape(game.grid.rows, game.grid.cols), {}, "unfinished", mines)
    last = game.steps[-1]
    status, shown = last.status.copy(), last.shown
    changed = game.distance(final_vectors, last.vectors) > CHANGED
    newly = changed & (status == COVERED) & ~game.shows_covered(final_ids)
    covered_after = int(np.sum((status == COVERED) | (status == FLAGGED))) - int(newly.sum())
    shape = (game.grid.rows, game.grid.cols)
    evidence = game.session.evidence
    if mines is not None and covered_after == mines:
        status[newly] = REVEALED
        end = "won"
        obstructed = np.zeros_like(changed)
    else:
        end = "lost"
        covered = status == COVERED
        whole = uncovered_mines(covered, newly, final_ids, last.target, status == FLAGGED, mines, shape)
        if whole is not None:  # the game uncovered its whole board: the mines by count, the rest its numbers
            obstructed = np.zeros_like(changed)
            status[newly & ~whole] = REVEALED
        else:
            # A revealed tile never changes: a changed region that includes one is something drawn over the board.
            _, parts = _components(changed.reshape(shape))
            parts = parts.ravel()
            over = {int(p) for p in parts[changed & (status == REVEALED)]}
            obstructed = np.isin(parts, list(over)) & changed if over else np.zeros_like(changed)
            obstructed |= _dialog_blocks(changed.reshape(shape), newly.reshape(shape), mines).ravel()
            status[obstructed & covered] = OBSTRUCTED
        if covered[last.target]:
            status[last.target] = FATAL
            evidence.add_role("X", [int(final_ids[last.target])])
        mines_shown = newly & ~obstructed if whole is None else whole
        mines_shown[last.target] = False
        status[mines_shown] = SHOWN_MINE
        evidence.add_role("*", {int(final_ids[i]) for i in np.flatnonzero(mines_shown)})
    for index in np.flatnonzero((status == REVEALED) & ~obstructed):
        shown.setdefault(int(index), set()).add(int(final_ids[index]))
    shown = {k: v for k, v in shown.items() if status[k] == REVEALED}
    known = int(np.sum((status == FATAL) | (status == SHOWN_MINE) | (status == FLAGGED)))
    complete = end == "lost" and mines is not None and known >= mines
    return GameEvidence(status.reshape(shape), shown, end, mines, complete)


def _guided_target(game: _Game, labels: dict[int, str], mines: int | None, rules: Rules, rng: random.Random) -> int:
    """A covered cell to click: the solver's choice once the tiles shown are named, else a random one.

    A revealed tile without a name is shown to the solver as covered (so the
    layouts it weighs include the true one) and is never a target.
    """
    covered = np.flatnonzero(game.status == COVERED)
    cells = []
    for index, status in enumerate(game.status):
        label = labels.get(int(game.ids[index]), "") if status == REVEALED else ""
        cells.append(label if label.isdigit() else ".")
    rows, cols = game.grid.rows, game.grid.cols
    if any(c.isdigit() for c in cells) or len(covered) == rows * cols - int(np.sum(game.status == FLAGGED)):
        from autoplay.solver import choose_move

        try:
            decision = choose_move(Board(rows, cols, tuple(cells), mines), mines, rules, time_limit=0.3)
        except (ContradictionError, ValueError):  # an unnamed tile can make the position look impossible
            decision = None
        if decision is not None:
            for move in decision.moves:
                index = move.row * cols + move.col
                if move.action == "reveal" and game.status[index] == COVERED:
                    return int(index)
    return int(rng.choice(list(covered)))


def play_one(
    session: Session,
    grab: Callable[[], np.ndarray],
    mouse: Mouse,
    window: GameWindow,
    rng: random.Random,
    sizes: dict[tuple[int, int], int],
    rules: Rules,
    settle: float = 0.15,
    max_clicks: int = 600,
) -> GameEvidence:
    """Play one game for calibration and add what it showed to ``session``.

    ``sizes`` maps the board sizes the user named (rows, cols) to their mine counts: the fresh board is
    grown to one of them when its outlines left an edge line out, and its mine count is then known.
    """
    fresh = wait_settled(grab, interval=settle, timeout=5).frame
    grid, inferred = fresh_board(fresh, sizes)
    mines = sizes.get((grid.rows, grid.cols))
    game = _Game(session, grab, grid, settle)
    alike = float(np.mean(game.shows_covered(game.ids)))
    if alike < FRESH_SHARE:
        raise ControlError(
            f"the window does not show a fresh game ({alike:.0%} of the cells look alike); "
            "start a new game and try again"
        )
    session.evidence.add_role(".", set(game.hidden))
    opened = opened_at_start(~game.shows_covered(game.ids), grid.rows, grid.cols)
    game.status[opened] = REVEALED
    for index in np.flatnonzero(opened):
        game.shown[int(index)] = {int(game.ids[index])}
    board = board_rect_on_screen(grid, window.rect)
    labels = session.naming.labels if session.naming else {}

    def click(index: int, button: Literal["left", "right"]) -> None:
        x, y = grid.cell_center(*divmod(index, grid.cols))
        mouse.click(window.x + x, window.y + y, button, board)
        mouse.park(window.rect, board)
        session.clicks += 1

    mouse.park(window.rect, board)
    # The flag first, while the game surely answers: the tile that appears is the flag, by our own action.
    flag_at = int(rng.choice(list(np.flatnonzero(game.status == COVERED))))
    before = game.vectors
    click(flag_at, "right")
    game.after_click(game.frame, patience=0.5)
    if not game.still_covered(flag_at):
        game.status[flag_at] = FLAGGED
        session.evidence.add_role("F", [int(game.ids[flag_at])])
    game.covered_look = np.where((game.status == FLAGGED)[:, None], game.vectors, before)
    for _ in range(max_clicks):
        if not np.any(game.status == COVERED):
            break
        target = _guided_target(game, labels, mines, rules, rng)
        before, frame_before = game.vectors, game.frame
        click(target, "left")
        game.after_click(frame_before)
        if game.still_covered(target, before):
            game.after_click(game.frame, patience=0.3)  # a late redraw
        if game.still_covered(target, before):
            break  # the game no longer answers: it is over
        if inferred is not None:  # lines taken from the board's outline: its first opened cells must confirm them
            confirm_inferred(game.frame, grid, inferred)
            inferred = None
        game.record(target, before)
    game.frame = wait_settled(grab, interval=FINAL_SETTLE, timeout=8).frame
    game.vectors, game.ids = game.look(game.frame)
    result = _finish(game, mines)
    session.evidence.games.append(result)
    session.grids.append(grid)
    number = session.games + 1
    session.frames += [(f"{number:02d}-fresh", game.fresh), (f"{number:02d}-final", game.frame)]
    session.games = number
    return result


def locate_fresh(frame: np.ndarray, sizes: dict[tuple[int, int], int]) -> Grid:
    """The grid of a fresh board, placed where its cells look most alike, then grown to a size the user named
    when its outlines missed an edge line (a lattice a pixel off on some lines would show new cells unlike the
    fresh tile)."""
    return fresh_board(frame, sizes)[0]


def fresh_board(frame: np.ndarray, sizes: dict[tuple[int, int], int]) -> tuple[Grid, Direction | None]:
    """:func:`locate_fresh`'s grid, and the direction its lines were inferred in rather than seen (None: both seen).

    A board whose tiles show no edge between columns (a vertical gradient with no border) is located from its
    rows, its outline and the size the user named (:mod:`autoplay.vision.one_way`); its columns then stay to be
    confirmed by the first cells a click opens (:func:`confirm_inferred`).
    """
    try:
        return extend_fresh_board(frame, refine_to_fresh(frame, locate_grid(frame, one_way=False)), sizes), None
    except UnreadableBoardError:
        found = locate_one_way(frame, sizes)
        if found is None:
            raise
        return found.grid, found.inferred


def confirm_inferred(frame: np.ndarray, grid: Grid, inferred: Direction) -> None:
    """Stop (exit 3) unless the edges of the cells opened on ``frame`` lie on ``grid``'s ``inferred`` lines: cells
    are read as opened only on lines the board has shown."""
    verdict = across_edges(frame, grid, inferred)
    if verdict != "on":
        why = "lie elsewhere" if verdict == "off" else "do not show"
        raise UnreadableBoardError(
            f"the board shows no {inferred} of its own; the {inferred} taken from its outline and size could not be "
            f"confirmed: the edges of the first cells opened {why}"
        )


def tighter_session(session: Session) -> Session | None:
    """A new session grouping tiles at the fresh board's twin radius, when the evidence so far contradicts itself.

    The radius a fresh board's spread sets (``fresh_radius``) keeps one tile in one group when the game varies
    its covered tile; on a page drawn at 125% that variation (a look per sub-pixel phase, a gradient) can be
    wider than the gap between its faint digits, and one group then holds 1s, 2s and 3s: no value explains it,
    the games contradict themselves and no number is ever named.  Grouping is then started again, once, at the
    radius measured to each cell's nearest twin (``twin_radius``): more groups, each one value.  The games
    already played count against ``--games``; their evidence, gathered with the wide groups, is dropped.
    """
    naming = session.naming
    if session.tightened or naming is None or not naming.contradicted or session.fresh_vectors is None:
        return None
    radius = twin_radius(session.fresh_vectors)
    if radius >= session.book.radius:
        return None
    tighter = Session(book=TileBook(radius), frames=session.frames, games=session.games, clicks=session.clicks)
    tighter.tightened = True
    tighter.notes = [*session.notes, f"tiles of one value fell into one group at radius {session.book.radius:.3f}: "
                     f"grouping again at {radius:.3f}"]  # fmt: skip
    return tighter


def calibrate_live(
    grab: Callable[[], np.ndarray],
    mouse: Mouse,
    window: GameWindow,
    new_game: Callable[[np.ndarray], None] | None,
    max_games: int,
    sizes: dict[tuple[int, int], int],
    rules: Rules,
    seed: int = 1,
    progress: Callable[[Session], None] | None = None,
) -> Session:
    """Play up to ``max_games`` games, stopping once every REQUIRED label is named."""
    rng = random.Random(seed)
    session = Session()
    number, budget = 0, max_games
    while number < budget:
        if number or new_game is not None:  # every game starts fresh, the first one too when we know how
            if new_game is None:
                break
            last = session.frames[-1][1] if session.frames else grab()
            new_game(last)
            mouse.forget_position()
            wait_settled(grab, baseline=last, change_timeout=2.0, timeout=5)
        play_one(session, grab, mouse, window, rng, sizes, rules)
        naming = session.naming = name_clusters(session.evidence)
        if progress:
            progress(session)
        number += 1
        tighter = tighter_session(session) if new_game is not None else None  # it needs a new game to play
        if tighter is not None:
            session = tighter
            budget = max(budget, number + 1)  # a game to gather evidence in the new groups, at least
            continue
        if not missing_labels(set(naming.labels.values())):
            break
    return session
