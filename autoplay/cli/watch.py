"""``autoplay watch``: follow a person's own game, show the odds and the best move, review their steps.

It never sends input: the loop (:mod:`autoplay.play.watch`) grabs pixels and
asks the X server questions only, and nothing here imports the mouse module or
pyautogui (``tests/play/test_watch_no_input.py`` checks it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from autoplay.cli.arguments import non_negative_int, positive_seconds
from autoplay.cli.window_options import add_redraw_options, add_window_options, choose_backend_for, skin_and_query

if TYPE_CHECKING:  # the solver is imported when watching starts, not for --help
    from autoplay.insight.coach import Coach, Coached
    from autoplay.insight.review import Judged
    from autoplay.play.reading import FrameDecoder
    from autoplay.play.watch import Seen, Watched, WatchedWindow, WatchSettings

Show = Callable[["Coached", float], None]
#: Done with each position once it is coached: keeping it (``--record``), drawing its marks (``--overlay``).
AfterEach = Callable[["Seen", "Coached"], None]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "watch",
        help="follow your own game: each position's odds, the move autoplay would make and why, and a review "
        "of your steps (never clicks)",
        description="Finds the game window as 'play' does and follows the game while you play it: at each new "
        "position (read once the game has redrawn) it shows every covered cell's mine probability, the cells "
        "certain either way and the move autoplay would make with its reason, and judges each of your steps "
        "against the position before it. It never moves the pointer, presses anything or takes the focus. "
        "By default it shows all this in its own window beside the game (never over the board), with a Freeze "
        "toggle. Ends with exit 0 when the game's window closes; Ctrl-C stops it (exit 130).",
    )
    p.add_argument("--skin", required=True, help="skin name (calibration/NAME.toml), e.g. gnome-mines, xdemineur")
    view = p.add_mutually_exclusive_group()
    view.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per line for each new position: the fields of 'solve --json' plus board, "
        "total_mines, t, state, steps (your steps since the last position, judged) and game (the summary, "
        "at a game's end)",
    )
    view.add_argument("--terminal", action="store_true", help="the view in the terminal, redrawn in place")
    add_window_options(p, " (default: the skin's [window])")
    p.add_argument("--mines", type=non_negative_int, help="total mines, when the skin cannot tell from the board")
    p.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=0.5,
        metavar="S",
        help="solver time per position (default 0.5 s; the 'why' gets as long again)",
    )
    p.add_argument(
        "--record",
        metavar="DIR",
        help="keep the session in DIR (each position's frame and board, your steps and their verdicts), in "
        "the format of 'play --record'; 'autoplay report DIR' makes a page of it",
    )
    p.add_argument(
        "--overlay",
        action="store_true",
        help="also draw marks over the board (each covered cell's chance, certain cells framed, the move in blue) "
        "in a window every click goes through; watch then reads the game window's own pixels (X Composite "
        "extension), never the marks: without Composite it stops with exit 4",
    )
    add_redraw_options(p, ", as for play")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Find the game's window, then show each new position in the chosen view until the window closes."""
    from autoplay.control.window import WindowGoneError, find_window
    from autoplay.errors import ControlError
    from autoplay.insight.coach import Coach
    from autoplay.play.reading import vision_decoder
    from autoplay.play.watch import WatchedWindow, WatchSettings, follow
    from autoplay.play.watch_record import WatchRecorder

    skin, query = skin_and_query(args)
    display = args.display or os.environ.get("DISPLAY")
    if choose_backend_for(args, display) != "x11":
        raise ControlError("watch follows X11 windows only so far (the portable backend is not supported yet)")
    window = find_window(display, query.wm_class, query.title, timeout=args.wait_window, pid=query.pid)
    target = WatchedWindow(window, display)
    coach = Coach(skin.rules, time_limit=args.time_limit, explain_limit=args.time_limit)
    decode = vision_decoder(skin, args.mines)
    settings = WatchSettings(settle=args.settle)
    after: list[AfterEach] = []
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(target.close)
        if args.overlay:
            after.append(_open_overlay(target, display, cleanup))
        if args.record:
            recorder = WatchRecorder(args.record, args.skin, skin.rules, args.mines, args.time_limit)
            cleanup.callback(recorder.close)
            after.append(recorder.keep)
        try:
            if not (args.json or args.terminal):
                return _run_window(target, decode, settings, coach, display, after)
            show = _json_printer() if args.json else _terminal_printer()
            for seen in follow(target, decode, settings):
                coached = coach.see(seen.board, seen.state, seen.t, seen.pointer_cell)
                show(coached, seen.t)
                for each in after:
                    each(seen, coached)
        except WindowGoneError:
            if not args.json:
                print("the game's window closed", flush=True)
            return 0
    return 0


def _open_overlay(target: WatchedWindow, display: str | None, cleanup: contextlib.ExitStack) -> AfterEach:
    """Read the game window's own pixels from now on, open the overlay over its board, and return what draws it.

    The reading is switched first: the overlay is never on the screen while watch still reads the screen.  A
    server without Composite (or SHAPE) stops watch here with one line (ControlError, exit 4).
    """
    from autoplay.control.window_pixels import WindowPixels
    from autoplay.render.overlay_marks import marks_of
    from autoplay.render.overlay_window import BoardOverlay

    pixels = WindowPixels.open(display, target.window.id)
    cleanup.callback(pixels.close)
    target.own_pixels = pixels.grab
    overlay = BoardOverlay.open(display, target.window.id)
    cleanup.callback(overlay.close)

    def draw(seen: Seen, coached: Coached) -> None:
        overlay.show(marks_of(coached, seen.grid))

    return draw


def _run_window(
    target: Watched,
    decode: FrameDecoder,
    settings: WatchSettings,
    coach: Coach,
    display: str | None,
    after: Sequence[AfterEach] = (),
) -> int:
    """The default view: the watch loop in a thread, the Tk window in this one; 0 once the game's window closes.

    Closing the watch window also ends watching (exit 0); Ctrl-C ends it with the usual 130.
    """
    import queue
    import threading
    import tkinter as tk

    from autoplay.control.window import WindowGoneError
    from autoplay.errors import ControlError
    from autoplay.play.watch import follow
    from autoplay.render.coach_window import CoachWindow, place_beside, refuse_focus

    items: queue.Queue[Any] = queue.Queue()
    closed = object()

    def work() -> None:
        try:
            for seen in follow(target, decode, settings):
                coached = coach.see(seen.board, seen.state, seen.t, seen.pointer_cell)
                items.put((coached, seen.t, seen.window, seen.board_rect))
                for each in after:
                    each(seen, coached)
        except WindowGoneError:
            items.put(closed)
        except BaseException as exc:  # handed to the main thread, which raises it
            items.put(exc)

    try:
        root = tk.Tk(screenName=display, className="AutoplayWatch")
    except tk.TclError as exc:
        raise ControlError(f"cannot open the watch window on {display or '$DISPLAY'}: {exc}") from None
    root.withdraw()
    outcome: list[BaseException | None] = []
    view: list[CoachWindow] = []
    steps: list[Judged] = []
    summary: list[dict[str, Any] | None] = [None]

    def finish(result: BaseException | None) -> None:
        outcome.append(result)
        root.quit()

    def poll() -> None:
        while True:
            try:
                item = items.get_nowait()
            except queue.Empty:
                break
            if item is closed:
                finish(None)
                return
            if isinstance(item, BaseException):
                finish(item)
                return
            coached, t, window_rect, board_rect = item
            if not view:
                board = coached.advice.board
                screen = (root.winfo_screenwidth(), root.winfo_screenheight())
                placement = place_beside(window_rect, board_rect, board.rows, board.cols, screen)
                if placement is None:
                    finish(ControlError("no room beside the game for the watch window; use --terminal or --json"))
                    return
                view.append(CoachWindow(root, placement, display))
                refuse_focus(root, display)
                root.deiconify()
            if coached.new_game:
                steps.clear()
            steps.extend(coached.steps)
            if coached.summary is not None:
                summary[0] = coached.summary
            view[0].show(coached, t, steps, summary[0])
        root.after(30, poll)

    def on_error(kind: type[BaseException], value: BaseException, tb: object) -> None:
        finish(value)  # a Ctrl-C or a bug inside a Tk callback ends the window instead of being printed

    root.report_callback_exception = on_error
    root.protocol("WM_DELETE_WINDOW", lambda: finish(None))
    threading.Thread(target=work, daemon=True, name="watch").start()
    root.after(30, poll)
    try:
        root.mainloop()
    finally:
        with contextlib.suppress(tk.TclError):
            root.destroy()
    if outcome and outcome[0] is not None:
        raise outcome[0]
    return 0


def position_json(coached: Coached, t: float) -> dict[str, Any]:
    """One line of ``watch --json``: ``solve --json``'s fields, then board, total_mines, t, state, steps, game.

    A position with no move (the game is over, nothing covered, a board no layout explains) keeps every field,
    with ``move`` null, no moves and ``reason`` saying why.
    """
    from autoplay.cli.solve import _as_json

    advice = coached.advice
    board = advice.board
    if advice.analysis is not None and advice.decision is not None:
        out = _as_json(advice.analysis, advice.decision, advice.explanations)
    else:
        probabilities = advice.analysis.probabilities if advice.analysis is not None else None
        out = {
            "rows": board.rows,
            "cols": board.cols,
            "mode": advice.analysis.mode if advice.analysis is not None else None,
            "probabilities": probabilities,
            "expected_mines": probabilities,
            "max_per_cell": 1,
            "move": None,
            "moves": [],
            "guess": None,
            "reason": advice.problem,
            "safe": [],
            "mines": [],
            "solutions": advice.analysis.solutions if advice.analysis is not None else None,
            "approximate": advice.analysis.approximate if advice.analysis is not None else False,
        }
    out.update(
        {
            "board": board.row_strings(),
            "total_mines": board.mines,
            "t": round(t, 3),
            "state": coached.state,
            "new_game": coached.new_game,
            "steps": [j.to_dict() for j in coached.steps],
            "game": coached.summary,
        }
    )
    return out


def _json_printer() -> Show:
    from autoplay.cli.output import exact_json

    def show(coached: Coached, t: float) -> None:
        print(exact_json(position_json(coached, t)), flush=True)

    return show


def _terminal_printer() -> Show:
    from autoplay.render.coach_text import HOME_AND_CLEAR, format_view

    history: list[Judged] = []
    last_summary: list[dict[str, Any] | None] = [None]
    colour = sys.stdout.isatty()

    def show(coached: Coached, t: float) -> None:
        if coached.new_game:
            history.clear()
        history.extend(coached.steps)
        if coached.summary is not None:
            last_summary[0] = coached.summary
        sys.stdout.write(HOME_AND_CLEAR + format_view(coached, t, history, last_summary[0], colour) + "\n")
        sys.stdout.flush()

    return show
