"""A scripted Minesweeper player with no autoplay code: its own eyes (tile colours), its own rule, xdotool's hands.

It stands in for a person in the coach's end-to-end test (tests/e2e/test_watch_scripted.py), so nothing autoplay
could get wrong may decide what it sees or plays: it imports nothing of autoplay.  It reads gnome-mines by the
``bgcolors`` theme's tile colours (one colour per number, /usr/share/gnome-mines/themes/bgcolors/theme.css),
sampled inside each tile's corner where no digit or icon is drawn, on a lattice found from the fresh board's
covered tiles; and xdemineur by its cells between 1-pixel black grid lines (a white bevel: covered; else the
colour of the digit, by the colour names of its own pixmaps).  It plays by the single-number rule only (a number
whose flags already make its count has every other covered neighbour safe; one whose covered neighbours are
exactly its missing mines has them all mines) and clicks with ``xdotool``.  Every few moves, while a certain safe
cell is on offer, it makes a planted risky click instead: a covered cell with no opened neighbour, whose mine
chance is the density left for the unknown interior, well above the 0 of the safe cell.  Each move is logged
with why it was made; when the game ends, the log gets the true layout, read from the end board (both games show
every mine after a loss; after a win every cell left covered is one).
"""

from __future__ import annotations

import itertools
import random
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import mss
import numpy as np

Cell = tuple[int, int]
#: Tile colours of the bgcolors theme (RGB), and what each means.
COLOURS = {
    (0xBA, 0xBD, 0xB6): ".",  # covered (a flag keeps this background)
    (0xDE, 0xDE, 0xDC): "0",
    (0xDD, 0xFA, 0xC3): "1",
    (0xEC, 0xED, 0xBF): "2",
    (0xED, 0xDA, 0xB4): "3",
    (0xED, 0xC3, 0x8A): "4",
    (0xF7, 0xA1, 0xA2): "5",
    (0xFE, 0xA7, 0x85): "6",
    (0xFF, 0x7D, 0x60): "7",
    (0xFF, 0x32, 0x3C): "8",
    (0x88, 0x8A, 0x85): "*",  # a mine shown after the game ended
    (0xD3, 0xD7, 0xCF): "X",  # the mine stepped on
}
COVERED_RGB = (0xBA, 0xBD, 0xB6)
#: Pixels into a tile from its top-left corner where its background shows (digits and icons sit in the middle).
INSET = 4
#: A colour within this distance (sum of channel differences) of a theme colour is that colour.
TOLERANCE = 12


@dataclass(frozen=True)
class Lattice:
    """Where the tiles are in the window: the first and last pixel of each column and row of tiles."""

    xs: tuple[tuple[int, int], ...]
    ys: tuple[tuple[int, int], ...]

    @property
    def rows(self) -> int:
        return len(self.ys)

    @property
    def cols(self) -> int:
        return len(self.xs)

    def centre(self, cell: Cell) -> tuple[int, int]:
        (y0, y1), (x0, x1) = self.ys[cell[0]], self.xs[cell[1]]
        return (x0 + x1) // 2, (y0 + y1) // 2


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The first and last index of each run of True in ``mask``."""
    padded = np.concatenate([[False], mask, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def find_lattice(image: np.ndarray, rows: int, cols: int) -> Lattice:
    """The tiles of a fresh board: runs of the covered colour along a line through the first row and column."""
    covered = np.all(image == np.array(COVERED_RGB, dtype=image.dtype), axis=2)
    ys_any = np.flatnonzero(covered.sum(axis=1) > cols * 10)
    xs_any = np.flatnonzero(covered.sum(axis=0) > rows * 10)
    if not len(ys_any) or not len(xs_any):
        raise RuntimeError("no covered board in the picture")
    first_row = ys_any[0] + 8
    first_col = xs_any[0] + 8
    xs = [r for r in _runs(covered[first_row]) if r[1] - r[0] >= 8]
    ys = [r for r in _runs(covered[:, first_col]) if r[1] - r[0] >= 8]
    if (len(ys), len(xs)) != (rows, cols):
        raise RuntimeError(f"found {len(ys)}x{len(xs)} tiles, expected {rows}x{cols}")
    return Lattice(tuple(xs), tuple(ys))


def read_board(image: np.ndarray, lattice: Lattice) -> list[list[str]]:
    """Each tile's meaning from its background colour; ``?`` for a colour not in the theme (a lit tile)."""
    names = list(COLOURS.values())
    palette = np.array(list(COLOURS), dtype=np.int32)
    board = []
    for y0, _ in lattice.ys:
        row = []
        for x0, _ in lattice.xs:
            pixel = image[y0 + INSET, x0 + INSET].astype(np.int32)
            distance = np.abs(palette - pixel).sum(axis=1)
            best = int(np.argmin(distance))
            row.append(names[best] if distance[best] <= TOLERANCE else "?")
        board.append(row)
    return board


#: xdemineur's digits (RGB; its own pixmaps' colour names): 1-4 by colour; the rarer ones are read as a number of
#: unknown value ("n"), which the rule does not use.
XDEMINEUR_DIGITS = {
    (0x00, 0x00, 0xFF): "1",  # blue
    (0x22, 0x8B, 0x22): "2",  # forestgreen
    (0xFF, 0x00, 0x00): "3",  # red
    (0x00, 0x00, 0x80): "4",  # navy
    (0xDA, 0x70, 0xD6): "n",  # orchid
    (0x2E, 0x8B, 0x57): "n",  # seagreen
    (0xA0, 0x52, 0x2D): "n",  # sienna
    (0xFF, 0x14, 0x93): "n",  # deeppink
}
#: Pixels of one colour a cell's inside must hold to show a digit, and to be a mine or the exploded mine's red.
DIGIT_PIXELS, MINE_PIXELS, EXPLODED_PIXELS = 30, 100, 150


def find_lattice_lines(image: np.ndarray, rows: int, cols: int) -> Lattice:
    """xdemineur's cells: the insides of its 1-pixel black grid lines."""
    black = np.all(image == 0, axis=2)
    height, width = black.shape
    lines_y = np.flatnonzero(black[:, width // 5 : 4 * width // 5].mean(axis=1) > 0.5)
    lines_x = np.flatnonzero(black[height // 3 : 9 * height // 10, :].mean(axis=0) > 0.5)
    ys = [(int(a) + 1, int(b) - 1) for a, b in itertools.pairwise(lines_y) if b - a > 8]
    xs = [(int(a) + 1, int(b) - 1) for a, b in itertools.pairwise(lines_x) if b - a > 8]
    if (len(ys), len(xs)) != (rows, cols):
        raise RuntimeError(f"found {len(ys)}x{len(xs)} cells, expected {rows}x{cols}")
    return Lattice(tuple(xs), tuple(ys))


def read_board_xdemineur(image: np.ndarray, lattice: Lattice) -> list[list[str]]:
    """A covered cell has the white bevel in its corner; an open one is flat grey with a coloured digit, a mine
    (black) or the exploded mine (red all over)."""
    board = []
    for y0, y1 in lattice.ys:
        row = []
        for x0, x1 in lattice.xs:
            inside = image[y0 : y1 + 1, x0 : x1 + 1].reshape(-1, 3)
            if tuple(int(v) for v in image[y0 + 1, x0 + 1]) == (255, 255, 255):
                row.append(".")
                continue
            counts = {colour: int(np.all(inside == colour, axis=1).sum()) for colour in XDEMINEUR_DIGITS}
            black = int(np.all(inside == 0, axis=1).sum())
            if counts[(0xFF, 0x00, 0x00)] >= EXPLODED_PIXELS:
                row.append("X")
            elif black >= MINE_PIXELS:
                row.append("*")
            else:
                colour, most = max(counts.items(), key=lambda item: item[1])
                row.append(XDEMINEUR_DIGITS[colour] if most >= DIGIT_PIXELS else "0")
        board.append(row)
    return board


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def single_number_rule(board: list[list[str]], flags: set[Cell]) -> tuple[set[Cell], set[Cell]]:
    """The cells the single-number rule proves safe, and those it proves mines."""
    rows, cols = len(board), len(board[0])
    safe: set[Cell] = set()
    mines: set[Cell] = set()
    for r in range(rows):
        for c in range(cols):
            if board[r][c] not in "12345678":
                continue
            around = neighbours((r, c), rows, cols)
            flagged = [n for n in around if n in flags]
            covered = [n for n in around if board[n[0]][n[1]] in ".?" and n not in flags]
            missing = int(board[r][c]) - len(flagged)
            if covered and missing == 0:
                safe.update(covered)
            elif covered and missing == len(covered):
                mines.update(covered)
    return safe, mines


def interior(board: list[list[str]], flags: set[Cell]) -> list[Cell]:
    """Covered cells with no opened neighbour: the solver can only give them the density left for the interior."""
    rows, cols = len(board), len(board[0])
    return [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if board[r][c] == "."
        and (r, c) not in flags
        and all(board[n[0]][n[1]] in ".?" for n in neighbours((r, c), rows, cols))
    ]


@dataclass(frozen=True)
class Look:
    """What differs between the games: how to find and read the board, who opens it, how a new game starts."""

    find_lattice: Callable[[np.ndarray, int, int], Lattice]
    read_board: Callable[[np.ndarray, Lattice], list[list[str]]]
    opens_itself: bool  # the game opens a region at the start (xdemineur), so there is no first click
    win_by_flags: bool  # the game is won only when every mine is flagged too (xdemineur)


GNOME_MINES = Look(find_lattice, read_board, opens_itself=False, win_by_flags=False)
XDEMINEUR = Look(find_lattice_lines, read_board_xdemineur, opens_itself=True, win_by_flags=True)
LOOKS = {"gnome-mines": GNOME_MINES, "xdemineur": XDEMINEUR}


@dataclass
class Move:
    """One logged move: what, where, why (first, certain, risky, guess) and when."""

    game: int
    action: str
    cell: Cell | None  # None for the region a game opens by itself
    kind: str
    t: float

    def to_dict(self) -> dict[str, object]:
        cell = list(self.cell) if self.cell is not None else None
        return {"game": self.game, "action": self.action, "cell": cell, "kind": self.kind, "t": self.t}


@dataclass
class ScriptedPlayer:
    """Plays games in the window at ``origin`` on ``display`` and logs every move."""

    display: str
    origin: tuple[int, int]
    size: tuple[int, int]
    rows: int
    cols: int
    mines: int
    seed: int
    #: called after each move once the board has redrawn: the test waits there for watch to show the position
    after_move: Callable[[], None] = lambda: None
    risky_every: int = 4
    look: Look = GNOME_MINES
    moves: list[Move] = field(default_factory=list)
    layouts: dict[int, list[Cell]] = field(default_factory=dict)
    results: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._screen = mss.MSS(display=self.display)
        self._started = time.monotonic()

    def grab(self) -> np.ndarray:
        """The window's pixels as RGB."""
        x, y = self.origin
        shot = self._screen.grab({"left": x, "top": y, "width": self.size[0], "height": self.size[1]})
        return np.asarray(shot)[:, :, 2::-1].copy()

    def settled(self, before: np.ndarray | None, timeout: float = 5.0, quiet: float = 0.25) -> np.ndarray:
        """The picture once it differs from ``before`` and has stopped changing for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        last = self.grab()
        while before is not None and np.array_equal(last, before) and time.monotonic() < deadline:
            time.sleep(0.01)
            last = self.grab()
        since = time.monotonic()
        while time.monotonic() - since < quiet and time.monotonic() < deadline:
            time.sleep(0.02)
            now = self.grab()
            if not np.array_equal(now, last):
                last, since = now, time.monotonic()
        return last

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={"DISPLAY": self.display}, check=True, timeout=10)

    def click(self, game: int, lattice: Lattice, cell: Cell, action: str, kind: str) -> np.ndarray:
        """One click on ``cell``, logged; returns the picture after the game redrew."""
        before = self.grab()
        x, y = lattice.centre(cell)
        self.moves.append(Move(game, action, cell, kind, round(time.monotonic() - self._started, 3)))
        button = "3" if action == "flag" else "1"
        self.xdotool("mousemove", str(self.origin[0] + x), str(self.origin[1] + y), "click", button)
        self.settled(before)
        self.after_move()
        return self.away(lattice)

    def away(self, lattice: Lattice) -> np.ndarray:
        """The pointer moved off the board, inside the window (gnome-mines lights the covered tile under it, and
        keeps its focus while the pointer is in it); returns the picture once it settled."""
        before = self.grab()
        x, y = lattice.xs[0][0] // 2, (lattice.ys[0][0] + lattice.ys[-1][1]) // 2
        self.xdotool("mousemove", str(self.origin[0] + x), str(self.origin[1] + y))
        return self.settled(before, timeout=0.5)

    def play_game(self, game: int, max_moves: int, give_up: int = 150) -> str:
        """One game from a fresh board to its end, ``lost`` or ``won``: past ``max_moves`` only risky clicks and
        guesses, so the game ends and shows its layout (``unfinished`` if it has not after ``give_up`` moves)."""
        image = self.settled(None)
        lattice = self.look.find_lattice(image, self.rows, self.cols)
        flags: set[Cell] = set()
        if self.look.opens_itself:
            image = self.away(lattice)
        else:
            image = self.click(game, lattice, (self.rows // 2, self.cols // 2), "reveal", "first")
        made = 1
        while made < give_up:
            board = self.look.read_board(image, lattice)
            flat = [ch for row in board for ch in row]
            assert "?" not in flat or flat.count("?") == 1, "more than the tile under the pointer cannot be read"
            if "X" in flat or "*" in flat:
                return self._ended(game, board, flags, "lost")
            hidden = sum(ch in ".?" for ch in flat)
            if hidden == self.mines and (not self.look.win_by_flags or len(flags) == self.mines):
                return self._ended(game, board, flags, "won")
            safe, mines = single_number_rule(board, flags)
            safe -= flags
            mines -= flags
            inner = [c for c in interior(board, flags) if c not in safe and c not in mines]
            if safe and inner and (made % self.risky_every == 0 or made >= max_moves):
                cell, action, kind = self._rng.choice(inner), "reveal", "risky"
            elif mines and (not safe or made % 2 == 0):
                cell, action, kind = sorted(mines)[0], "flag", "certain"
                flags.add(cell)
            elif safe and made < max_moves:
                cell, action, kind = sorted(safe)[0], "reveal", "certain"
            else:
                covered = inner or [
                    (r, c)
                    for r, row in enumerate(board)
                    for c, ch in enumerate(row)
                    if ch == "." and (r, c) not in flags
                ]
                cell, action, kind = self._rng.choice(covered), "reveal", "guess"
            image = self.click(game, lattice, cell, action, kind)
            made += 1
        return "unfinished"

    def _ended(self, game: int, board: list[list[str]], flags: set[Cell], result: str) -> str:
        """Log where every mine was, from the end board."""
        if result == "lost":
            mines = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "*X"} | flags
        else:
            mines = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in ".?"}
        self.layouts[game] = sorted(mines)
        self.results[game] = result
        return result

    def new_game(self, game: int) -> None:
        """Start game number ``game``: Ctrl+R in gnome-mines (after an end it starts the same size at once); a click
        on xdemineur's face, which opens a region by itself (logged, with no cell: the game chose it)."""
        before = self.grab()
        if self.look.opens_itself:
            face = np.argwhere(np.all(before == (255, 255, 0), axis=2))  # the yellow face above the board
            y, x = (int(v) for v in face.mean(axis=0))
            self.moves.append(Move(game, "reveal", None, "opening", round(time.monotonic() - self._started, 3)))
            self.xdotool("mousemove", str(self.origin[0] + x), str(self.origin[1] + y), "click", "1")
        else:
            self.xdotool("key", "ctrl+r")
        self.settled(before)
        self.after_move()

    def close(self) -> None:
        self._screen.close()
