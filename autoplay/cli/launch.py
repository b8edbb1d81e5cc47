"""``autoplay launch``: start gnome-mines or xdemineur with bot-friendly settings, optionally on a private Xvfb."""

from __future__ import annotations

import argparse

from autoplay.cli.arguments import non_negative_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "launch",
        help="start gnome-mines or xdemineur ready for 'autoplay play' (optionally headless)",
        description="Starts the game with animations, question marks and score dialogs turned off and waits "
        "until its window is drawn. With --xvfb it runs on a new virtual display and prints its name; "
        "the command stays in the foreground until the game exits or Ctrl-C.",
    )
    p.add_argument("game", choices=["gnome-mines", "xdemineur"])
    p.add_argument("--preset", default="expert", choices=["beginner", "intermediate", "expert"])
    p.add_argument("--mines", type=non_negative_int, help="mine count (xdemineur only; default: the preset's)")
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
        game = launch_game(args.game, display, preset=args.preset, mines=args.mines)
        try:
            print(
                f"{args.game} running on DISPLAY={display}, window {game.window.width}x{game.window.height} "
                f"at ({game.window.x},{game.window.y}); Ctrl-C to stop",
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
