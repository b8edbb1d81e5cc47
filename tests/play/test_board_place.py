"""A page that moves its board inside the window mid-batch: the rest of the batch is not clicked at old places.

The fake table's picture is shifted down after the first press of a batch, as a banner loading above a web game
shifts it; the window does not move, so only the pixels around the board can tell.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from autoplay.control.mouse import Mouse
from autoplay.errors import UnreadableBoardError
from autoplay.play.board_place import BoardLost, bands, in_place
from autoplay.play.player import Player, PlayerSettings
from autoplay.solver import Move, choose_move
from tests.play.fakes import CODES, SHADE, FakeBackend, FakeGuard, FakeTable

SHIFT = 7  # pixels the page pushes the board down


class MovingPage:
    """The fake table's window, whose content the page shifts down once ``after`` presses were made."""

    def __init__(self, table: FakeTable, backend: FakeBackend, after: int) -> None:
        self.table, self.backend, self.after = table, backend, after
        self.grabs = 0

    def grab(self) -> np.ndarray:
        self.grabs += 1
        frame = self.table.grab()
        return shifted(frame) if len(self.backend.clicks) >= self.after else frame

    def window_rect(self) -> tuple[int, int, int, int]:
        return self.table.window_rect()

    def check(self, board: tuple[int, int, int, int] | None = None) -> None:
        self.table.check(board)

    def focus(self) -> None:
        self.table.focus()


class MovingPageWithAreas(MovingPage):
    """The same page on a screen that grabs parts of its window (as the X11 screen does)."""

    def grab_area(self, area: tuple[int, int, int, int]) -> np.ndarray:
        x, y, width, height = area
        return self.grab()[y : y + height, x : x + width]


@pytest.mark.parametrize("screen_type", [MovingPage, MovingPageWithAreas])
def test_a_board_moved_after_the_first_press_stops_the_batch(screen_type):
    table = FakeTable(9, 9, 10, seed=1)
    backend = FakeBackend(table)
    screen = screen_type(table, backend, after=1)
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    player = Player(screen, Mouse(backend, guard=FakeGuard(table)), table.decode, solve, PlayerSettings())
    frame = table.grab()
    player.read(frame)
    moves = [Move("flag", 0, 0, 1.0), Move("flag", 8, 8, 1.0), Move("flag", 4, 4, 1.0)]
    assert player.click_moves(moves, frame) == 1
    assert len(backend.clicks) == 1 and player.board_moved
    assert table.cell_at(*backend.clicks[0][:2]) == (0, 0)


def test_a_board_that_did_not_move_is_clicked_whole_though_its_cells_change():
    table = FakeTable(9, 9, 10, seed=1)
    backend = FakeBackend(table)
    screen = MovingPage(table, backend, after=10**6)
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    player = Player(screen, Mouse(backend, guard=FakeGuard(table)), table.decode, solve, PlayerSettings())
    frame = table.grab()
    player.read(frame)
    moves = [Move("reveal", 4, 4, 0.0), Move("flag", 0, 0, 1.0), Move("flag", 8, 8, 1.0)]
    assert player.click_moves(moves, frame) == 3  # the first reveal opened cells: only cells changed
    assert not player.board_moved
    assert in_place(frame, table.grab(), table.grid) and bands(table.grid, frame.shape)


def shifted(frame: np.ndarray) -> np.ndarray:
    """The page pushed down by ``SHIFT`` pixels; the fake's game-state pixel (the window's corner) stays."""
    moved = np.full_like(frame, 255)
    moved[SHIFT:] = frame[:-SHIFT]
    moved[0, 0] = frame[0, 0]
    return moved


def reader(table: FakeTable, located: list[bool], found: bool = True, unread_when_moved: bool = True):
    """The fake table's decoder, noting each fresh location; a moved picture reads as all unreadable, or (as a
    board moved by whole cells may) as a board."""

    def decode(frame, grid):
        located.append(grid is None)
        if grid is None and not found:
            raise UnreadableBoardError("the board runs off the top edge of the image: part of it is out of view")
        decoded = table.decode(np.minimum(frame, (len(CODES) - 1) * SHADE), grid)
        if unread_when_moved and not np.array_equal(frame, table.grab()):
            decoded.unreadable = [(r, c) for r in range(table.rows) for c in range(table.cols)]
            decoded.readable = False
        return decoded

    return decode


def test_a_board_moved_between_two_frames_is_located_afresh():
    table = FakeTable(9, 9, 10, seed=1)
    located: list[bool] = []
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    decode = reader(table, located, unread_when_moved=False)
    player = Player(table, Mouse(FakeBackend(table), guard=FakeGuard(table)), decode, solve)
    frame = table.grab()
    player.read(frame)
    located.clear()
    player.read(frame.copy())  # the same picture: read on the grid known
    assert located == [False]
    player.read(shifted(frame))  # the page around the board changed: located afresh, though the old grid reads
    assert located == [False, False, True]


def test_a_moved_board_found_nowhere_stops_with_exit_4():
    table = FakeTable(9, 9, 10, seed=1)
    located: list[bool] = []
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    player = Player(table, Mouse(FakeBackend(table), guard=FakeGuard(table)), reader(table, located), solve)
    player.read(table.grab())
    player.decode = reader(table, located, found=False)
    with pytest.raises(BoardLost, match="moved the board and it cannot be located again.*top edge") as lost:
        player.read(shifted(table.grab()))
    assert lost.value.exit_code == 4 and player.board_moved  # the next frame is located afresh too


def test_a_board_found_nowhere_whose_numbers_stay_put_has_not_moved():
    """A game's end drew past the board's edge (a corner tile exploding at 125%) and showed tiles the skin does not
    know, and the finished board, opened wide, is found nowhere afresh: the old grid still shows every number read
    there, so the board is read there instead of stopping with exit 4.  Moved by one cell, it stops."""
    table = FakeTable(9, 9, 10, seed=1)
    table.game.reveal(4, 4)
    located: list[bool] = []
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    player = Player(table, Mouse(FakeBackend(table), guard=FakeGuard(table)), reader(table, located), solve)
    before = player.read(table.grab()).board
    assert sum(ch in "12345678" for ch in before.cells) >= 10

    def end_drawn(frame, grid):
        located.append(grid is None)
        if grid is None:
            raise UnreadableBoardError("no Minesweeper board found on the image (no grid of tiles)")
        decoded = table.decode(frame, grid)
        decoded.unreadable = [divmod(i, table.cols) for i, ch in enumerate(decoded.board.cells) if ch == "."]
        return decoded

    player.decode = end_drawn
    frame = table.grab()
    x0, y0, _, _ = table.grid.rect
    frame[y0 - 2, x0 : x0 + 5] = 7  # past the located edge: the page around the board changed
    decoded = player.read(frame)
    assert located[-1] is True and not player.board_moved  # looked for afresh, found nowhere, and kept
    assert decoded.board.cells == before.cells

    def one_cell_over(frame, grid):
        decoded = end_drawn(frame, grid)
        decoded.board = before.replace({(r, c): before[r, (c + 1) % table.cols] for r in range(9) for c in range(9)})
        return decoded

    player.decode = one_cell_over
    frame = frame.copy()
    frame[y0 - 2, x0 : x0 + 5] = 9
    with pytest.raises(BoardLost, match="cannot be located again"):
        player.read(frame)


def test_presses_astray_are_told_from_their_cascades_and_flags():
    from autoplay.board.textformat import parse_board
    from autoplay.play.board_place import astray
    from autoplay.solver.decide import Move

    before = parse_board("....\n....\n....")
    reveal, flag = Move("reveal", 0, 0, 0.0), Move("flag", 2, 3, 1.0)
    cascade = parse_board("001.\n011.\n...F")
    assert astray(before, cascade, [reveal, flag]) == []
    assert astray(before, cascade, [reveal]) == [(2, 3)]  # a flag no move placed
    unmoved = parse_board("....\n....\n...F")
    assert astray(before, unmoved, [reveal, flag]) == [(0, 0)]  # the press opened nothing
    assert astray(before, unmoved, [reveal, flag], unread={(0, 0)}) == []  # an unread cell tells nothing
    elsewhere = parse_board("....\n.2..\n...F")
    assert astray(before, elsewhere, [reveal, flag]) == [(0, 0), (1, 1)]


def test_a_press_on_a_cell_its_batch_already_opened_may_chord():
    """Seen in CI on gnome-mines: the press on (4,5) opened a zero whose cascade opened (5,4) before (5,4)'s own
    press came; that press was then a click on a satisfied 1, and gnome-mines chorded it open to (6,3)."""
    from autoplay.board.textformat import parse_board
    from autoplay.play.board_place import astray
    from autoplay.solver.decide import Move

    rows = ["000001F.", "000113..", "0001F2F.", "1122223.", "2F2F1...", "........", "........", "........"]
    before = parse_board("\n".join(rows))
    after_rows = [rows[0], "0001132.", *rows[2:4], "2F2F102.", ".3321011", "...21100", ".....100"]
    after = parse_board("\n".join(after_rows))
    cells = [(1, 6), (4, 5), (4, 6), (5, 1), (5, 2), (5, 3), (5, 4), (5, 5)]
    batch = [Move("reveal", r, c, 0.0) for r, c in cells]
    assert astray(before, after, batch) == []
    unflagged = parse_board("\n".join([*after_rows[:4], "2F2.102.", *after_rows[5:]]))
    assert astray(before, unflagged, batch) == [(6, 3)]  # (5,4)'s 1 not yet flagged: no chord explains (6,3)
