"""``autoplay launch``: start a supported Minesweeper clone with bot-friendly settings, optionally on a private Xvfb."""

from __future__ import annotations

import argparse

from autoplay.cli.arguments import non_negative_int, positive_int
from autoplay.control.launchers import SPECS

GAMES = tuple(SPECS)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "launch",
        help="start a Minesweeper game ready for 'autoplay play' (optionally headless)",
        description="Starts the game with its settings in a private folder (nothing of yours is read or "
        "changed), animations, question marks and score dialogs turned off where the game allows, and waits "
        "until its window is drawn. With --xvfb it runs on a new virtual display and prints its name; "
        "the command stays in the foreground until the game exits or Ctrl-C. Games: gnome-mines, xdemineur, "
        "sgt-mines (Debian sgt-puzzles), kmines, xbomb.",
    )
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--preset", default="expert", choices=["beginner", "intermediate", "expert"])
    p.add_argument(
        "--mines",
        type=non_negative_int,
        help="mine count (xdemineur and sgt-mines, which play any size; default: the preset's)",
    )
    p.add_argument(
        "--tile",
        type=positive_int,
        metavar="PX",
        help="tile size in pixels (sgt-mines exactly; kmines and xbomb by sizing the window to it)",
    )
    p.add_argument(
        "--no-guess",
        action="store_true",
        help="sgt-mines: deal only boards that need no guess (the game's own default; without it autoplay "
        "asks for ordinary boards)",
    )
    p.add_argument("--display", help="X display to use (default: $DISPLAY)")
    p.add_argument("--xvfb", action="store_true", help="start a private Xvfb display for the game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os
    import signal

    from autoplay.control.games import launch_game
    from autoplay.control.xserver import VirtualDisplay
    from autoplay.errors import ControlError

    signal.signal(signal.SIGTERM, _interrupt)  # a plain kill must still stop the game and Xvfb
    server = VirtualDisplay().start() if args.xvfb else None
    try:
        display = server.name if server else (args.display or os.environ.get("DISPLAY"))
        if not display:
            raise ControlError("no X display: set DISPLAY, pass --display, or use --xvfb")
        game = launch_game(
            args.game, display, preset=args.preset, mines=args.mines, tile=args.tile, no_guess=args.no_guess
        )
        try:
            print(
                f"{args.game} {game.rows}x{game.cols}/{game.mines} running on DISPLAY={display}, window "
                f"{game.window.width}x{game.window.height} at ({game.window.x},{game.window.y}), class "
                f"{game.spec.wm_class!r}, new game: {game.spec.new_game}; Ctrl-C to stop",
                flush=True,
            )
            game.process.wait()
        except KeyboardInterrupt:
            pass
        finally:
            game.stop()
    finally:
        if server:
            server.stop()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
