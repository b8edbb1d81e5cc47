"""The options every command that finds a game window shares: what the window is, and how to look.

``play`` and ``calibrate --live`` (and any later command that drives a
window) call :func:`add_window_options` so the same names mean the same thing
everywhere; ``--title`` is kept as a hidden alias of ``--window-title``, the
name ``play`` used to have.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from autoplay.cli.arguments import non_negative_seconds
from autoplay.control.backend import CHOICES, Backend, choose_backend
from autoplay.control.window_query import WindowQuery

if TYPE_CHECKING:
    from autoplay.vision.skin import Skin


def add_window_options(parser: argparse.ArgumentParser, default_note: str = "") -> None:
    """``--window-class``, ``--window-title``, ``--pid``, ``--display`` and ``--backend`` on ``parser``."""
    group = parser.add_argument_group(
        "finding the game window",
        "every criterion given must hold; none or several matching windows is an error that lists them" + default_note,
    )
    group.add_argument("--window-class", metavar="CLASS", help="the window's class (X11: either part of WM_CLASS)")
    group.add_argument(
        "--window-title",
        metavar="TEXT",
        help="part of the window's title, any case (X11: WM_NAME or _NET_WM_NAME; windows without WM_CLASS too)",
    )
    group.add_argument("--title", dest="window_title", help=argparse.SUPPRESS)  # the old name in 'play'
    group.add_argument(
        "--pid",
        type=int,
        metavar="PID",
        help="process id of the game (X11: _NET_WM_PID, else the X server's X-Resource record of the client)",
    )
    group.add_argument("--display", help="X display of the game (default: $DISPLAY)")
    group.add_argument(
        "--backend",
        choices=CHOICES,
        default=os.environ.get("AUTOPLAY_BACKEND") or "auto",
        help="how windows are found: x11 (python-xlib), portable (a cross-platform window library if installed, "
        "else the board looked for on the whole screen), auto: x11 on an X display when python-xlib is "
        "installed, else portable (default: $AUTOPLAY_BACKEND or auto)",
    )


def add_redraw_options(parser: argparse.ArgumentParser, settle_note: str = "") -> None:
    """``--settle`` and ``--wait-window``: how long a board must stay unchanged to count as redrawn, and how long
    to keep looking for a window that is not there yet (``play`` and ``watch`` read a game the same way)."""
    parser.add_argument(
        "--settle",
        type=non_negative_seconds,
        default=0.035,
        metavar="S",
        help="the board counts as redrawn once unchanged this long (default 0.035 s" + settle_note + ")",
    )
    parser.add_argument(
        "--wait-window",
        type=non_negative_seconds,
        default=0.0,
        metavar="S",
        help="keep looking for the window this long (default: fail at once)",
    )


def skin_and_query(args: argparse.Namespace) -> tuple[Skin, WindowQuery]:
    """The skin ``--skin`` names and the window to find: the user's criteria, else the skin's ``[window]``, else a
    window named like the skin."""
    from autoplay.vision import load_skin

    skin = load_skin(args.skin)
    named = WindowQuery(skin.window.get("wm_class"), skin.window.get("title"))
    return skin, query_from_args(args, named if named else WindowQuery(args.skin))


def query_from_args(args: argparse.Namespace, fallback: WindowQuery | None = None) -> WindowQuery:
    """The user's criteria when any is given, else ``fallback`` (e.g. what the skin says about its window)."""
    given = WindowQuery(args.window_class, args.window_title, args.pid)
    return given if given else (fallback or WindowQuery())


def choose_backend_for(args: argparse.Namespace, display: str | None) -> Backend:
    """The backend ``--backend`` asks for on ``display``; a one-line note on stderr when auto had to fall back."""
    choice = choose_backend(args.backend, display)
    if choice.note:
        print(f"autoplay: note: {choice.note}", file=sys.stderr)
    return choice.name
