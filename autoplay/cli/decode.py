"""``autoplay decode``: read the board from a screenshot file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from autoplay.outputs import ensure_folder, run_folder


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode",
        help="read the board from a screenshot with a skin's templates",
        description="Find the Minesweeper board on a screenshot (a window grab or a whole desktop), read every "
        "cell against the skin's templates and print the board in text format. Cells that match no template "
        "well enough make the board unreadable (exit code 3) instead of being guessed; a debug PNG then shows "
        "the grid and the bad cells.",
        epilog="example: autoplay decode shot.png --skin gnome-mines --json",
    )
    p.add_argument("image", help="screenshot file (PNG, JPEG, ...)")
    p.add_argument("--skin", required=True, help="skin name: calibration/NAME.toml (see 'autoplay calibrate')")
    p.add_argument("--json", action="store_true", help="print JSON with geometry, per-cell confidence and game state")
    p.add_argument(
        "--debug-dir",
        help="folder for the debug PNG on failure (default: a new autoplay-debug-* folder in the system temp folder; the message gives its path)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="also run the solver: a board no mine layout explains is reported as a misread (exit 3)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from autoplay.errors import UnreadableBoardError
    from autoplay.vision import check_consistency, decode_frame, load_skin, locate_grid, read_image
    from autoplay.vision.debug import write_search_debug
    from autoplay.vision.locate import second_board

    debug_dir = ensure_folder(args.debug_dir, "--debug-dir") if args.debug_dir else None
    skin = load_skin(args.skin)
    image = read_image(args.image)

    def debug_path() -> Path:
        """Asked for only on failure, so a successful decode leaves no folder behind."""
        return (debug_dir or run_folder()) / f"{Path(args.image).stem}-debug.png"

    try:
        grid = locate_grid(image, skin)
    except UnreadableBoardError as exc:
        written = write_search_debug(debug_path(), image, skin)
        raise UnreadableBoardError(f"{args.image}: {exc}", debug_image=written) from None
    other = second_board(image, grid, skin)
    if other is not None:
        raise UnreadableBoardError(
            f"{args.image}: two boards on the image, {_where(grid)} and {_where(other)}: crop it to the one to read"
        )
    decoded = decode_frame(image, skin, grid)
    if not decoded.readable:
        decoded.require_readable(debug_path())
    if args.check:
        check_consistency(decoded)
    if args.json:
        print(json.dumps({"image": args.image, "skin": skin.name, **decoded.to_dict()}))
    else:
        sys.stdout.write(decoded.board.to_text())
    return 0


def _where(grid: Any) -> str:
    x0, y0, x1, y1 = grid.rect
    return f"{grid.rows}x{grid.cols} at x {x0}-{x1}, y {y0}-{y1}"
