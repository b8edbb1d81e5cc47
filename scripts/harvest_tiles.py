"""Harvest real screenshots of rare tiles (a 7, an 8) from a real game, with their label boards.

A skin cannot read a tile its calibration never saw, and 7s and 8s almost
never appear on the preset boards.  This plays very dense custom boards under
a private Xvfb with the solver (guessing when it must) until it loses; a lost
board shows every mine, so a revealed cell the skin cannot read is labelled by
counting the mines around it, and every cell it can read is checked the same
way.  Each lost board that shows a wanted tile is written as NAME.png with its
board in NAME.txt, ready for ``autoplay calibrate --labels``.

    .venv/bin/python scripts/harvest_tiles.py gnome-mines 16 30 300 --want 7 8 --out /tmp/harvest

Only the label of cells the skin cannot read is inferred; look at every
harvested picture before adding it to the fixtures.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoplay.board.model import Board, neighbour_table
from autoplay.control.capture import grab, wait_settled
from autoplay.control.games import find_binary, prepare_gnome_mines
from autoplay.control.window import Window, find_window
from autoplay.control.xserver import VirtualDisplay
from autoplay.solver import choose_move
from autoplay.vision import decode_frame, load_skin, locate_grid

#: The "Percent mines" field of gnome-mines' custom dialog in its 1060x706 launch window.
PERCENT_FIELD = ("546", "369")
SETTLE = 0.12  # seconds after a click before the frame is trusted (gnome-mines redraws in < 70 ms)


def start_gnome_mines(display: str, rows: int, cols: int, mines: int, root: Path) -> tuple[subprocess.Popen, Window]:
    """gnome-mines opens its size chooser for a custom size: pick "Custom" (key 4) and "Play Game" (Alt+P).

    Its custom dialog does not always take the mine count from the settings
    (an 8x8 board came up with 1 mine), so the percentage is typed in too;
    the game turns it back into ``rows * cols * percent // 100`` mines.
    """
    percent = round(100 * mines / (rows * cols))
    if rows * cols * percent // 100 != mines:
        raise SystemExit(f"gnome-mines takes a whole percentage: use {rows * cols * percent // 100} mines")
    env = {**os.environ, "DISPLAY": display, **prepare_gnome_mines(root, rows, cols, mines, None)}
    process = subprocess.Popen(
        [find_binary("gnome-mines")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    window = find_window(display, "gnome-mines", timeout=20)
    window.focus()
    time.sleep(1.0)
    xdotool(display, "key", "4")
    time.sleep(0.5)
    xdotool(display, "mousemove", *PERCENT_FIELD, "click", "--repeat", "3", "1")
    xdotool(display, "type", str(percent))
    xdotool(display, "key", "Tab")
    time.sleep(0.3)
    xdotool(display, "key", "alt+p")
    time.sleep(1.0)
    return process, window


def start_xdemineur(display: str, rows: int, cols: int, mines: int) -> tuple[subprocess.Popen, Window]:
    process = subprocess.Popen(
        [find_binary("xdemineur"), "-geometry", f"{cols}x{rows}+0+0", "-m", str(mines)],
        env={**os.environ, "DISPLAY": display},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    window = find_window(display, "xdemineur", timeout=20)
    window.focus()
    time.sleep(0.5)
    return process, window


def xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, check=True)


def click(display: str, x: float, y: float, park: tuple[int, int]) -> None:
    """Click, then move the pointer off the board so no tile is drawn highlighted."""
    xdotool(display, "mousemove", str(int(x)), str(int(y)), "click", "1", "mousemove", str(park[0]), str(park[1]))


def label_lost_board(board: Board, unreadable: list[tuple[int, int]]) -> Board | None:
    """The true board of a lost frame: unreadable revealed cells get their count of shown mines.

    None when a readable number disagrees with the mines around it (the
    decode or the frame is off) or an unreadable cell is not a number.
    """
    table = neighbour_table(board.rows, board.cols)
    mines_around = [sum(board.cells[j] in "*X" for j in table[i]) for i in range(len(board.cells))]
    bad = {r * board.cols + c for r, c in unreadable}
    cells = list(board.cells)
    for i, ch in enumerate(board.cells):
        if i in bad:
            cells[i] = str(mines_around[i])
        elif ch.isdigit() and int(ch) != mines_around[i]:
            return None
    return Board(board.rows, board.cols, tuple(cells), board.mines)


def hunting_guess(board: Board, rng: random.Random) -> tuple[int, int] | None:
    """A guess that could show a high number: an inner cell (8 neighbours), far from revealed ones if possible.

    The solver's safest guess sits next to low numbers and so tends to be a
    low number itself; a cell amid untouched ground has the board's density
    of mines around it, which is what a 7 or an 8 needs.
    """
    table = neighbour_table(board.rows, board.cols)
    hidden = [i for i, ch in enumerate(board.cells) if ch == "."]
    if not hidden:
        return None
    inner = [i for i in hidden if len(table[i]) == 8] or hidden
    untouched = [i for i in inner if all(board.cells[j] in ".F" for j in table[i])] or inner
    return board.at(rng.choice(untouched))


def play_one(display: str, window: Window, skin, grid, mines: int, park: tuple[int, int], rng: random.Random):
    """Play until the game is lost; return (frame, decoded) of the lost board, or None on a win/stall."""
    known_mines: set[tuple[int, int]] = set()
    for _ in range(2000):
        time.sleep(SETTLE)
        frame = wait_settled(lambda: grab(window.rect, display), interval=0.05, timeout=3).frame
        decoded = decode_frame(frame, skin, grid, mines)
        labels = decoded.board.cells
        if any(ch in "*X" for ch in labels):
            return frame, decoded
        if "." not in labels:
            return None
        # Unreadable cells are revealed numbers the skin does not know; the solver sees them as unknown.
        board = decoded.board.replace({rc: "?" for rc in decoded.unreadable})
        board = board.replace({rc: "F" for rc in known_mines})
        decision = choose_move(board, mines, skin.rules, time_limit=0.3)
        known_mines.update((m.row, m.col) for m in decision.moves if m.action == "flag")
        targets = [(m.row, m.col) for m in decision.moves if m.action == "reveal" and board[(m.row, m.col)] == "."]
        if decision.guess or not targets:
            guess = hunting_guess(board, rng)
            if guess is None:  # only known mines left under cover: a win, nothing to harvest
                return None
            targets = [guess]
        for row, col in targets[:8]:
            x, y = grid.cell_center(row, col)
            click(display, x, y, park)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["gnome-mines", "xdemineur"])
    parser.add_argument("rows", type=int)
    parser.add_argument("cols", type=int)
    parser.add_argument("mines", type=int)
    parser.add_argument("--want", nargs="+", default=["7", "8"], help="tile labels worth a screenshot")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--prefix", default="dense")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hunting guesses")
    parser.add_argument("--games", type=int, default=200, help="give up after this many games")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    skin = load_skin(args.game)
    wanted = set(args.want)
    rng = random.Random(args.seed)
    with VirtualDisplay() as vd, tempfile.TemporaryDirectory() as tmp:
        if args.game == "gnome-mines":
            process, window = start_gnome_mines(vd.name, args.rows, args.cols, args.mines, Path(tmp))
        else:
            process, window = start_xdemineur(vd.name, args.rows, args.cols, args.mines)
        try:
            left, top, width, height = window.rect
            park = (left + width - 20, top + height - 20)
            xdotool(vd.name, "mousemove", *map(str, park))
            time.sleep(0.3)
            grid = locate_grid(grab(window.rect, vd.name), skin)
            assert (grid.rows, grid.cols) == (args.rows, args.cols), (grid.rows, grid.cols)
            saved = 0
            for game in range(args.games):
                if args.game == "gnome-mines":
                    x, y = grid.cell_center(args.rows // 2, args.cols // 2)
                    click(vd.name, x, y, park)
                result = play_one(vd.name, window, skin, grid, args.mines, park, rng)
                if result is not None:
                    frame, decoded = result
                    truth = label_lost_board(decoded.board, decoded.unreadable)
                    if truth is None:
                        print(f"game {game}: lost, a decoded number disagrees with the mines shown", flush=True)
                    found = {truth[rc] for rc in decoded.unreadable} if truth else set()
                    shown = sorted({ch for ch in truth.cells if ch.isdigit()}) if truth else []
                    print(
                        f"game {game}: lost, numbers {shown}, unreadable {decoded.unreadable} -> {sorted(found)}",
                        flush=True,
                    )
                    if found & wanted:
                        name = f"{args.prefix}_{game:03d}"
                        cv2.imwrite(str(args.out / f"{name}.png"), frame)
                        (args.out / f"{name}.txt").write_text(truth.to_text())
                        saved += 1
                        wanted -= found
                        if not wanted:
                            break
                if args.game == "gnome-mines":
                    xdotool(vd.name, "key", "ctrl+r")
                else:
                    face_x = left + width // 2
                    click(vd.name, face_x, top + (grid.rect[1] - top) // 2, park)
                time.sleep(0.3)
            print(f"saved {saved}; still wanted: {sorted(wanted)}")
        finally:
            process.terminate()
            process.wait(timeout=5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
