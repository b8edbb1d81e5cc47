"""``autoplay launch``: start a supported Minesweeper clone with bot-friendly settings, or a browser on a
Minesweeper page, optionally on a private Xvfb."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from autoplay.cli.arguments import non_negative_int, positive_int
from autoplay.control.browsers import BROWSERS, DEFAULT_WINDOW, SCALE_RANGE
from autoplay.control.launchers import SCALABLE, SPECS
from autoplay.errors import UsageError

if TYPE_CHECKING:
    from autoplay.control.games import RunningGame, RunningPage

GAMES = tuple(SPECS)
#: The options only the desktop games take (the dest names), as the user spells them.
GAME_OPTIONS = {"preset": "--preset", "mines": "--mines", "tile": "--tile", "no_guess": "--no-guess"}
#: The options only the browsers take.
PAGE_OPTIONS = {"url": "--url", "scale": "--scale", "window": "--window"}
#: Page options a desktop game may take too (``SCALABLE``: kmines draws its whole window at a Qt scale factor).
SHARED = {"scale"}


def scale_factor(text: str) -> float:
    """A device scale factor within ``SCALE_RANGE`` (1, 1.25, 1.5, 2 are the usual desktop settings)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 1.25, got {text!r}") from None
    low, high = SCALE_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g} (e.g. 1, 1.25, 1.5, 2), got {text}")
    return value


def window_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in screen pixels, each at least 200."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1100x800, got {text!r}")
    if int(width) < 200 or int(height) < 200:
        raise argparse.ArgumentTypeError(f"must be at least 200x200, got {text}")
    return int(width), int(height)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "launch",
        help="start a Minesweeper game, or a browser on a Minesweeper page, ready for 'autoplay play' "
        "(optionally headless)",
        description="Starts the game with its settings in a private folder (nothing of yours is read or "
        "changed), animations, question marks and score dialogs turned off where the game allows, and waits "
        "until its window is drawn. With --xvfb it runs on a new virtual display and prints its name; "
        "the command stays in the foreground until the game exits or Ctrl-C. Games: gnome-mines, xdemineur, "
        "sgt-mines (Debian sgt-puzzles), kmines, xbomb. Browsers: chromium (a window with the page only) and "
        "firefox (Debian firefox-esr; tabs and address bar), each in a new private profile, on the page --url "
        "names; they return once the window shows the page's title and its picture has settled.",
    )
    p.add_argument("game", choices=[*GAMES, *BROWSERS])
    games = p.add_argument_group("desktop games")
    games.add_argument("--preset", choices=["beginner", "intermediate", "expert"], help="board size (default: expert)")
    games.add_argument(
        "--mines",
        type=non_negative_int,
        help="mine count (xdemineur and sgt-mines, which play any size; default: the preset's)",
    )
    games.add_argument(
        "--tile",
        type=positive_int,
        metavar="PX",
        help="tile size in pixels (sgt-mines exactly; kmines and xbomb by sizing the window to it)",
    )
    games.add_argument(
        "--no-guess",
        action="store_true",
        default=None,
        help="sgt-mines: deal only boards that need no guess (the game's own default; without it autoplay "
        "asks for ordinary boards)",
    )
    pages = p.add_argument_group("browsers")
    pages.add_argument("--url", help="the page to open (required for a browser), e.g. http://127.0.0.1:8000/")
    pages.add_argument(
        "--scale",
        type=scale_factor,
        metavar="F",
        help="device scale factor, as a 125%% desktop is 1.25 (chromium --force-device-scale-factor, firefox "
        "layout.css.devPixelsPerPx; kmines too, by QT_SCALE_FACTOR; default 1)",
    )
    pages.add_argument(
        "--window",
        type=window_size,
        metavar="WxH",
        help=f"window size in screen pixels at any scale, at +0+0 (default {DEFAULT_WINDOW[0]}x{DEFAULT_WINDOW[1]})",
    )
    p.add_argument("--display", help="X display to use (default: $DISPLAY)")
    p.add_argument("--xvfb", action="store_true", help="start a private Xvfb display for the game")
    p.set_defaults(func=run)


def check_options(args: argparse.Namespace) -> None:
    """Refuse options of the other kind of target (UsageError, one line, exit 2) before anything is started."""
    browser = args.game in BROWSERS
    wrong = PAGE_OPTIONS if not browser else GAME_OPTIONS
    given = [
        flag
        for dest, flag in wrong.items()
        if getattr(args, dest) is not None and not (dest in SHARED and args.game in SCALABLE)
    ]
    if given:
        kind = "the desktop games" if browser else "browsers"
        raise UsageError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for {kind}, not {args.game}")
    if browser and not args.url:
        raise UsageError(f"{args.game} needs --url: the page to open, e.g. --url http://127.0.0.1:8000/")


def run(args: argparse.Namespace) -> int:
    import os
    import signal

    from autoplay.control.games import launch_game, launch_page
    from autoplay.control.xserver import VirtualDisplay
    from autoplay.errors import ControlError

    check_options(args)
    signal.signal(signal.SIGTERM, _interrupt)  # a plain kill must still stop the game and Xvfb
    server = VirtualDisplay().start() if args.xvfb else None
    try:
        display = server.name if server else (args.display or os.environ.get("DISPLAY"))
        if not display:
            raise ControlError("no X display: set DISPLAY, pass --display, or use --xvfb")
        launched: RunningGame | RunningPage
        if args.game in BROWSERS:
            launched = launch_page(
                args.game, display, args.url, scale=args.scale or 1.0, window=args.window or DEFAULT_WINDOW
            )
        else:
            launched = launch_game(
                args.game,
                display,
                preset=args.preset or "expert",
                mines=args.mines,
                tile=args.tile,
                no_guess=bool(args.no_guess),
                scale=args.scale or 1.0,
            )
        try:
            print(f"{_summary(launched, display)}; Ctrl-C to stop", flush=True)
            launched.process.wait()
        except KeyboardInterrupt:
            pass
        finally:
            launched.stop()
    finally:
        if server:
            server.stop()
    return 0


def _summary(launched: RunningGame | RunningPage, display: str) -> str:
    """What runs where: the game's size and new-game key, or the page's address, title and scale."""
    from autoplay.control.games import RunningGame

    window = launched.window
    place = f"window {window.width}x{window.height} at ({window.x},{window.y})"
    if isinstance(launched, RunningGame):
        return (
            f"{launched.name} {launched.rows}x{launched.cols}/{launched.mines} running on DISPLAY={display}, "
            f"{place}, class {launched.spec.wm_class!r}, new game: {launched.spec.new_game}"
        )
    return (
        f"{launched.name} showing {launched.url} (title {launched.page_title!r}, scale {launched.scale:g}) on "
        f"DISPLAY={display}, {place}, class {'/'.join(window.wm_class)!r}"
    )


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
