"""Entry point of the ``autoplay`` command.

Each sub-command lives in its own module with a ``register(subparsers)``
function that adds its parser and sets ``func``; heavy imports (OpenCV, the
mouse) happen inside those functions so ``autoplay --help`` stays instant and
works without a display.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from autoplay import __version__
from autoplay.errors import AutoplayError

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = [
    "autoplay.cli.solve",
    "autoplay.cli.simulate",
    "autoplay.cli.analyze",
    "autoplay.cli.grade",
    "autoplay.cli.generate",
    "autoplay.cli.replay",
    "autoplay.cli.report",
    "autoplay.cli.decode",
    "autoplay.cli.calibrate",
    "autoplay.cli.play",
    "autoplay.cli.launch",
    "autoplay.cli.demo",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autoplay",
        description="Screen-reading auto-player for real Minesweeper windows: reads the board from the "
        "screen, computes exact mine probabilities and clicks the safest move.",
        epilog="Coordinates are 0-based (row, column) everywhere. Run 'autoplay COMMAND --help' for details.",
    )
    parser.add_argument("--version", action="version", version=f"autoplay {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except AutoplayError as exc:
        print(f"autoplay: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("autoplay: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
