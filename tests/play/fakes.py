"""A fake screen and mouse backed by the simulator, so the live loop can be unit-tested without X.

The fake "pixels" encode each cell's character in its tile, and the fake
decoder reads the tile centres back; clicks are mapped from screen pixels to
cells exactly like a real game would, so a wrong coordinate shows up as a
wrong cell or a stray click.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from autoplay.board.impossible import impossible_readings
from autoplay.board.model import HIDDEN, Board
from autoplay.board.rules import Rules
from autoplay.sim.game import Game
from autoplay.vision.grid import Grid

PITCH = 10
BOARD_OFFSET = (12, 30)  # board's top-left inside the window
CODES = ".F?012345678*X"
SHADE = 16  # grey levels between the pictures of two codes: as far apart as real tiles


@dataclass
class FakeDecoded:
    board: Board
    state: str
    grid: Grid
    readable: bool = True
    unreadable: list = field(default_factory=list)


class FakeTable:
    """A simulated game in a window at ``origin`` on a fake screen."""

    def __init__(
        self,
        rows: int = 9,
        cols: int = 9,
        mines: int = 10,
        rules: Rules = Rules("zero"),
        seed: int = 1,
        origin: tuple[int, int] = (50, 40),
    ) -> None:
        self.rows, self.cols, self.mines, self.rules, self.seed = rows, cols, mines, rules, seed
        self.rng = random.Random(seed)
        self.game = Game(rows, cols, mines, rules, self.rng)
        self.origin = origin
        self.moved_to: tuple[int, int] | None = None
        self.covered_by: str | None = None
        self.cover_is_own = False  # the cover is a dialog of the game's own (Escape closes it)
        self.owner_named_after = 0  # checks of a new cover that do not yet tell it is the game's own
        self.dismissed = 0
        self.grid = Grid(BOARD_OFFSET[0] + PITCH * np.arange(cols + 1), BOARD_OFFSET[1] + PITCH * np.arange(rows + 1))
        self.size = (BOARD_OFFSET[0] * 2 + PITCH * cols, BOARD_OFFSET[1] + 20 + PITCH * rows)
        self.grabs = 0
        self.decodes = 0
        self.focused = 0
        self.pending: list[tuple[int, tuple[int, int], str]] = []  # (grab number, cell, button)
        self.hung = False  # the game never answers when asked whether it has read its clicks
        self.answer_seconds = 0.0  # how long it takes to answer
        self.unread_new_games = 0  # new-game keys pressed that the game has not read yet
        self.half_drawn: set[tuple[int, int]] = set()  # opened cells the game (stopped mid-cascade) still shows covered

    def new_game(self) -> None:
        self.game = Game(self.rows, self.cols, self.mines, self.rules, self.rng)

    @property
    def state(self) -> str:
        return "won" if self.game.won else "lost" if self.game.lost else "playing"

    # -- Screen protocol ---------------------------------------------------------
    def grab(self) -> np.ndarray:
        self.grabs += 1
        due = [p for p in self.pending if p[0] <= self.grabs]
        self.pending = [p for p in self.pending if p[0] > self.grabs]
        for _, cell, button in due:
            self.apply(cell, button)
        width, height = self.size
        frame = np.full((height, width, 3), 255, np.uint8)
        frame[0, 0, 0] = {"playing": 0, "won": 1, "lost": 2}[self.state]
        for i, ch in enumerate(self.game.board().cells):
            r, c = divmod(i, self.cols)
            if (r, c) in self.half_drawn:
                ch = HIDDEN
            x0, y0, x1, y1 = self.grid.cell_rect(r, c)
            frame[y0:y1, x0:x1] = CODES.index(ch) * SHADE
        return frame

    def window_rect(self) -> tuple[int, int, int, int]:
        return (*self.origin, *self.size)

    def check(self, board: tuple[int, int, int, int] | None = None) -> None:
        FakeGuard(self).check_clear(board or self.window_rect())

    def focus(self) -> None:
        self.focused += 1

    # -- decoding ------------------------------------------------------------------
    def decode(self, frame: np.ndarray, grid: Grid | None) -> FakeDecoded:
        self.decodes += 1
        cells = []
        for r in range(self.rows):
            for c in range(self.cols):
                x, y = self.grid.cell_center(r, c)
                cells.append(CODES[int(frame[int(y), int(x), 0]) // SHADE])
        state = ("playing", "won", "lost")[int(frame[0, 0, 0])]
        board = Board(self.rows, self.cols, tuple(cells), self.mines)
        # as the real decoder: readings no game can show (a 0 beside a covered cell) are not believed
        conflicts = impossible_readings(board)
        return FakeDecoded(board, state, self.grid, readable=not conflicts, unreadable=conflicts)

    def apply(self, cell: tuple[int, int], button: str) -> None:
        if button == "left":
            self.game.reveal(*cell)
        elif button == "middle":
            self.chord(*cell)
        elif self.game.flagged[cell[0] * self.cols + cell[1]]:
            self.game.flagged[cell[0] * self.cols + cell[1]] = False  # a second right click takes the flag off
        else:
            self.game.flag(*cell)

    def chord(self, row: int, col: int) -> None:
        """xdemineur's middle press: on a shown number with as many flags around, open its other covered cells."""
        game, index = self.game, row * self.cols + col
        around = [(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2) if (r, c) != (row, col)]
        around = [(r, c) for r, c in around if 0 <= r < self.rows and 0 <= c < self.cols]
        if not game.revealed[index] or game.is_mine[index]:
            return
        if sum(game.flagged[r * self.cols + c] for r, c in around) != game.number(index):
            return
        for r, c in around:
            if not game.revealed[r * self.cols + c] and not game.flagged[r * self.cols + c]:
                game.reveal(r, c)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        wx, wy = x - self.origin[0], y - self.origin[1]
        col = int((wx - BOARD_OFFSET[0]) // PITCH)
        row = int((wy - BOARD_OFFSET[1]) // PITCH)
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row, col
        return None


class FakeGuard:
    """The window guard of a FakeTable: ``moved_to`` and ``covered_by`` play the window system's answers."""

    def __init__(self, table: FakeTable) -> None:
        self.table = table
        self.checks = 0
        self.pings = 0

    def check_clear(self, board: tuple[int, int, int, int]) -> None:
        from autoplay.control.guard import BoardCovered, WindowMoved

        self.checks += 1
        if self.table.moved_to is not None:
            raise WindowMoved(f"window moved from {self.table.origin} to {self.table.moved_to}")
        if self.table.covered_by is not None:
            known = self.table.owner_named_after <= 0
            self.table.owner_named_after -= 1
            raise BoardCovered(
                f"the board is covered by window {self.table.covered_by!r}",
                cover=1,
                own=self.table.cover_is_own and known,
            )

    def dismiss(self, cover: object) -> bool:
        """Escape closes a dialog of the game's own."""
        if not self.table.cover_is_own:
            return False
        self.table.covered_by, self.table.dismissed = None, self.table.dismissed + 1
        return True

    @contextlib.contextmanager
    def holding(self, board: tuple[int, int, int, int]) -> Iterator[None]:
        self.check_clear(board)
        yield

    def focus(self) -> None:
        self.table.focused += 1

    def caught_up(self, timeout: float) -> float | None:
        """The game reads the clicks it had not read yet (they show on the next grab), unless it is hung."""
        from autoplay.control.guard import GameNotResponding

        self.pings += 1
        if self.table.hung:
            raise GameNotResponding(f"the game did not answer for {timeout:.0f} s (frozen or hung?)")
        table = self.table
        table.half_drawn = set()  # answering, it runs again and finishes drawing
        table.pending = [(min(due, table.grabs + 1), cell, button) for due, cell, button in table.pending]
        for _ in range(table.unread_new_games):
            table.new_game()
        table.unread_new_games = 0
        return table.answer_seconds

    def close(self) -> None:
        return None


#: The grab number of a click the game has not read: it shows only once the game is asked (``caught_up``).
UNREAD = 10**9


class FakeBackend:
    """A pointer that clicks into a FakeTable; ``drop`` lists click numbers (1-based) the game ignores."""

    def __init__(
        self, table: FakeTable, drop: set[int] | None = None, lag_grabs: int = 0, unread: bool = False
    ) -> None:
        self.table = table
        self.drop = drop or set()
        self.lag_grabs = lag_grabs  # the game shows a click only this many screen grabs later
        self.unread = unread  # the game (starved of CPU) reads a click only when asked whether it has
        self.lost_keys = 0  # how many key presses the game ignores before it reacts
        self.flag_instead: set[int] = set()  # left clicks (1-based, counting left clicks) the game takes as a right
        self.dialog_after: set[int] = set()  # left clicks (counted the same way) after which the game opens a dialog
        self.stop_after: set[int] = set()  # left clicks after which the game stops with its cascade half drawn
        self.pressed_half_drawn = 0  # presses decided while the game showed a half-drawn cascade
        self.stopped_at_decode = 0  # the table's count of pictures read when the game stopped
        self.pos = (640, 512)
        self.clicks: list[tuple[int, int, str]] = []
        self.stray: list[tuple[int, int, str]] = []
        self.keys: list[tuple[str, ...]] = []

    def position(self) -> tuple[int, int]:
        return self.pos

    def move(self, x: int, y: int) -> None:
        self.pos = (x, y)

    def click(self, x: int, y: int, button: str) -> None:
        self.pos = (x, y)
        self.clicks.append((x, y, button))
        if len(self.clicks) in self.drop:
            return
        cell = self.table.cell_at(x, y)
        if cell is None:
            self.stray.append((x, y, button))
            return
        lefts = sum(b == "left" for *_, b in self.clicks) if button == "left" else 0
        if lefts in self.dialog_after:
            self.table.covered_by, self.table.cover_is_own = "start a new game?", True
        if lefts in self.flag_instead:
            button = "right"  # a press held too long: GTK games flag the cell
        # a press decided on a picture read after the game stopped (the rest of the batch it stopped in is not)
        self.pressed_half_drawn += bool(self.table.half_drawn) and self.table.decodes > self.stopped_at_decode
        if lefts in self.stop_after:
            before = self.table.game.board().cells
            self.table.apply(cell, button)
            opened = [
                divmod(i, self.table.cols)
                for i, (a, b) in enumerate(zip(before, self.table.game.board().cells))
                if a != b
            ]
            self.table.half_drawn = set(opened) - {cell}  # the clicked 0 drawn, the ring it opened not yet
            self.stopped_at_decode = self.table.decodes
        elif self.unread:
            self.table.pending.append((UNREAD, cell, button))
        elif self.lag_grabs:
            self.table.pending.append((self.table.grabs + self.lag_grabs, cell, button))
        else:
            self.table.apply(cell, button)

    def hotkey(self, *keys: str) -> None:
        self.keys.append(keys)
        if keys == ("ctrl", "r") and self.unread:
            self.table.unread_new_games += 1
        elif keys == ("ctrl", "r") and len(self.keys) > self.lost_keys:
            self.table.new_game()

    def size(self) -> tuple[int, int]:
        return 1280, 1024

    def failsafe_check(self) -> None:
        return None
