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

from autoplay import __version__, compiled
from autoplay.cli.arguments import OneLineParser, stderr_line
from autoplay.control.interrupts import interrupts_outside
from autoplay.errors import AutoplayError, ControlError, ExitCode

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
    "autoplay.cli.watch",
    "autoplay.cli.launch",
    "autoplay.cli.demo",
]


class _PrintVersion(argparse.Action):
    """``--version`` as one line, however long: argparse's own action wraps it to the terminal's width."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        print(f"autoplay {__version__} (solver {compiled.status()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="autoplay",
        description="Screen-reading auto-player for real Minesweeper windows: reads the board from the "
        "screen, computes exact mine probabilities and clicks the safest move.",
        epilog="Coordinates are 0-based (row, column) everywhere. Run 'autoplay COMMAND --help' for details.",
    )
    parser.add_argument(
        "--version", action=_PrintVersion, nargs=0, help="show the version and whether the solver runs compiled"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed its line
        return exc.code if isinstance(exc.code, int) else int(ExitCode.USAGE)
    if not getattr(args, "func", None):
        parser.print_help()
        return int(ExitCode.USAGE)
    try:
        with interrupts_outside():  # a Ctrl-C inside python-xlib would hang the connection the cleanup needs
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        stderr_line("autoplay: interrupted")
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        return int(ExitCode.OK)
    except Exception as exc:
        known = exc if isinstance(exc, AutoplayError) else environment_failure(exc)
        if known is None:
            raise  # a bug: the traceback is the report
        stderr_line(f"autoplay: error: {known}")
        return int(known.exit_code)


#: Modules autoplay needs only to drive a display; without them every other command still works.
DISPLAY_MODULES = {"Xlib": "python-xlib", "pyautogui": "pyautogui", "mss": "mss"}


def environment_failure(exc: Exception) -> AutoplayError | None:
    """The user-facing error for a failure of the environment rather than of autoplay, else None.

    pyautogui's fail-safe (pointer pushed into a screen corner) can fire in any pyautogui call, not only
    in the guarded click; a missing display library shows up only when the first window is looked for.
    """
    pyautogui = sys.modules.get("pyautogui")
    if pyautogui is not None and isinstance(exc, pyautogui.FailSafeException):
        return ControlError("pyautogui fail-safe: the pointer was moved into a screen corner; stopped")
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in DISPLAY_MODULES:
        package = DISPLAY_MODULES[(exc.name or "").split(".")[0]]
        return ControlError(
            f"the Python package {package} is missing: install it (pip install {package}) to use the display"
        )
    return None


if __name__ == "__main__":
    sys.exit(main())
