"""``autoplay calibrate``: teach autoplay a new skin from screenshots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autoplay.cli.arguments import plain_name, positive_int
from autoplay.cli.window_options import add_window_options, choose_backend_for, query_from_args

if TYPE_CHECKING:
    import numpy as np

    from autoplay.calibrate.skin_writer import SkinSettings
    from autoplay.control.window import WindowQuery


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="make a skin (templates + thresholds) from screenshots of a game",
        description="Supervised: give label boards (--labels, text format) for the first images; templates for "
        "every character they show are cut, thresholds are set from the measured margins between labels, and "
        "any further images are decoded as a check. Unsupervised (no --labels): the tiles of all images are "
        "clustered, labels are proposed (a fresh board names the hidden tile, a lost board's mines name the "
        "numbers) and a contact sheet PNG shows each template with its proposal; correct [labels] in the TOML. "
        "Live (--live, no images): autoplay finds the running game's window, plays --games games by clicking "
        "covered cells at random (guarded clicks inside the board only) and calibrates unsupervised on the fresh "
        "and final frames, which it also saves. --new-game-click X,Y names a new-game button that is not a face "
        "(a web page's 'New game'): its picture is cut around that point of the (first) window picture and "
        "found again by its look before each new game.",
        epilog="examples: autoplay calibrate shot1.png shot2.png --labels shot1.txt --name mygame --first-click zero\n"
        "          autoplay calibrate --live --window-class mygame --new-game-key f2 --games 3 --name mygame",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("images", nargs="*", metavar="IMAGE", help="screenshots of the game (window grabs or desktops)")
    p.add_argument(
        "--labels",
        action="append",
        default=[],
        metavar="BOARD.txt",
        help="true board of the Nth image (repeat for more images)",
    )
    p.add_argument(
        "--name",
        required=True,
        type=plain_name,
        help="skin name, a plain name (letters, digits, . - _): writes calibration/NAME.toml and templates/NAME/",
    )
    p.add_argument(
        "--out-root",
        help="directory that holds calibration/ and templates/ (default: $AUTOPLAY_HOME, else the per-user data folder)",
    )
    p.add_argument(
        "--first-click",
        choices=["safe", "zero", "none"],
        default="safe",
        help="what the game guarantees about the first click (default: safe)",
    )
    p.add_argument("--win", choices=["reveal", "flag-all"], default="reveal", help="the game's win rule")
    p.add_argument(
        "--mines",
        action="append",
        default=[],
        metavar="ROWSxCOLS=N",
        help="total mines of a board size the game fixes, e.g. 16x30=99 (repeatable)",
    )
    p.add_argument("--new-game-key", help="key that starts a new game, e.g. ctrl+r")
    p.add_argument(
        "--new-game-click",
        metavar="face|X,Y",
        help="what to click for a new game: 'face' (a yellow smiley above the board), or X,Y, a pixel of the "
        "game window's picture on the new-game button (off the board): the button's picture (the region of one "
        "colour around it, bounded by a clear edge) is saved as templates/NAME/new-game.png with its place in "
        "board cells, and play finds it again by its look, at the board's current scale",
    )
    p.add_argument(
        "--live",
        action="store_true",
        help="take the screenshots from the running game's window (named by --window-class, --window-title "
        "or --pid; with --backend portable and no window library, the board is looked for on the whole screen)",
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=12,
        help="with --live: most games to play; it stops once every tile is named (default 12)",
    )
    p.add_argument(
        "--chord",
        choices=("find", "middle", "left", "none"),
        default="find",
        help="the button that makes the game's chord (one press on a number whose flags are placed opens its "
        "other neighbours), written to the skin as [press] chord. 'find' (default; with --live only, screenshots "
        "write none): once every tile is named, play up to two games with the new skin, trying the middle button "
        "and then a left press where a chord opens only certain cells, and write the one whose cells opened; "
        "'none': write no chord",
    )
    p.add_argument(
        "--counter",
        metavar="CORNER:X0,Y0,X1,Y1",
        help="where the game's mine counter is: a box in pixels from a corner of the board "
        "(top-left, top-right, bottom-left, bottom-right), e.g. top-right:55,35,165,62; its glyphs "
        "are learnt from the label boards that carry a mines=N header",
    )
    p.add_argument(
        "--counter-format",
        default="{remaining}",
        metavar="FORMAT",
        help="what the counter shows, over {total}, {flags} and {remaining} (total minus flags): "
        "'{remaining:03d}' for a Windows-style LED, '{flags}/{total}' for gnome-mines "
        "(default: {remaining})",
    )
    p.add_argument(
        "--forget-learned",
        action="store_true",
        help="remove from skin --name every template 'play --learn' added (listed in calibration/NAME.learned.jsonl)",
    )
    add_window_options(
        p,
        "; --window-class and --window-title are also written into the skin for 'autoplay play'",
    )
    p.set_defaults(func=run)


def _settings(args: argparse.Namespace):
    from autoplay.board.rules import Rules
    from autoplay.calibrate.counter_glyphs import parse_counter_option
    from autoplay.calibrate.skin_writer import SkinSettings
    from autoplay.errors import UsageError

    mines = {}
    for item in args.mines:
        size, _, count = item.partition("=")
        rows, _, cols = size.lower().partition("x")
        if not (rows.isdigit() and cols.isdigit() and count.isdigit()):
            raise UsageError(f"--mines {item!r}: expected ROWSxCOLS=N, e.g. 16x30=99")
        mines[f"{int(rows)}x{int(cols)}"] = int(count)
    window = {k: v for k, v in (("wm_class", args.window_class), ("title", args.window_title)) if v}
    click = None if new_game_point(args.new_game_click) else args.new_game_click
    new_game = {k: v for k, v in (("key", args.new_game_key), ("click", click)) if v}
    counter = (*parse_counter_option(args.counter), args.counter_format) if args.counter else None
    chord = args.chord if args.chord in ("middle", "left") else None  # "find" is --live's, after the skin is written
    return SkinSettings(
        rules=Rules(args.first_click, args.win),
        window=window,
        new_game=new_game,
        mines=mines,
        counter=counter,
        chord=chord,
    )


def new_game_point(value: str | None) -> tuple[int, int] | None:
    """The window pixel ``X,Y`` of ``--new-game-click``; None for ``face`` or no option; anything else is refused."""
    from autoplay.errors import UsageError

    if value is None or value == "face":
        return None
    x, comma, y = value.replace(" ", "").partition(",")
    if not (comma and x.isdigit() and y.isdigit()):
        raise UsageError(f"--new-game-click {value!r}: expected face, or X,Y (pixels of the window, e.g. 120,40)")
    return int(x), int(y)


def _with_button(settings: SkinSettings, frame: np.ndarray, point: tuple[int, int]) -> SkinSettings:
    """``settings`` whose ``[new_game]`` clicks the button cut from ``frame`` around ``point`` (UsageError if none).

    The picture is cut from the very frame the board is located on, so its place and scale are the board's.
    """
    from dataclasses import replace

    from autoplay.vision.button import PICTURE_FILE, NewGame, cut_button
    from autoplay.vision.locate import locate_grid

    picture = cut_button(frame, locate_grid(frame), *point)
    x, y = point
    print(f"new-game button at {x},{y}: cut a {picture.image.shape[1]}x{picture.image.shape[0]} picture")
    table = {**settings.new_game, "click": "picture", "picture": PICTURE_FILE}
    return replace(settings, new_game=NewGame(table, picture))


def _sizes_for_live(settings, grab) -> dict[tuple[int, int], int]:
    """The board sizes ``--mines`` names, (rows, cols) -> mines; says so when the board on screen is none of them.

    Live calibration grows a fresh board its outlines found a line short to one of these sizes; a board that is
    still another size is played with its mine count unknown, which names fewer tiles (a won board then says
    nothing about its numbers).
    """
    from autoplay.calibrate.live import locate_fresh

    sizes = {}
    for size, count in settings.mines.items():
        rows, _, cols = size.partition("x")
        sizes[(int(rows), int(cols))] = int(count)
    if sizes:
        grid = locate_fresh(grab(), sizes)
        if (grid.rows, grid.cols) not in sizes:
            named = ", ".join(f"{r}x{c}" for r, c in sizes)
            print(
                f"note: the board on screen is {grid.rows}x{grid.cols} cells, not a size --mines names ({named}); "
                "its mine count is taken as unknown",
                file=sys.stderr,
            )
    return sizes


def _calibrate_live(args: argparse.Namespace, settings, root) -> int:
    """Play the running game until the rules of the game have named every tile a skin needs, then write it."""
    import os

    import cv2

    from autoplay.calibrate.live import calibrate_live, missing_labels
    from autoplay.calibrate.live_skin import write_live_skin
    from autoplay.errors import AutoplayError, UsageError
    from autoplay.play.live import connect, press_new_game
    from autoplay.vision.locate import locate_grid

    display = args.display or os.environ.get("DISPLAY")
    backend = choose_backend_for(args, display)
    query = query_from_args(args)
    if not query and backend == "x11":
        raise UsageError("--live needs --window-class, --window-title or --pid to find the game")
    window, screen, mouse = connect(display, query.wm_class, query.title, pid=query.pid, backend=backend)
    point = new_game_point(args.new_game_click)
    starter = None
    if settings.new_game or point is not None:

        def starter(frame):
            screen.check()
            screen.focus()
            # A key needs no board; a face or a button is found and scaled by the board around it.
            grid = None if "key" in settings.new_game else locate_grid(frame)
            press_new_game(mouse, window, grid, frame, settings.new_game)

    def progress(session) -> None:
        named = set(session.naming.labels.values())
        missing = missing_labels(named)
        print(
            f"game {session.games}: {session.evidence.games[-1].end}; named so far "
            f"{' '.join(sorted(named))}; missing {' '.join(missing) or 'nothing'}",
            flush=True,
        )

    try:
        screen.check()
        screen.focus()
        if point is not None:
            settings = _with_button(settings, screen.grab(), point)
        sizes = _sizes_for_live(settings, screen.grab)
        session = calibrate_live(
            screen.grab, mouse, window, starter, args.games, sizes, settings.rules, progress=progress
        )
    except AutoplayError:
        # A moved, closed or covered window explains a strange frame best: say that, not what the frame showed.
        screen.check()
        raise
    finally:
        mouse.close()
        window.close_connection()
    for note in session.notes:
        print(note, flush=True)
    shots = root / "templates" / f"{args.name}-live-shots"
    shots.mkdir(parents=True, exist_ok=True)
    for stem, frame in session.frames:
        cv2.imwrite(str(shots / f"{stem}.png"), frame)
    print(f"played {session.games} game(s) with {session.clicks} clicks, all inside the board; screenshots in {shots}")
    result = write_live_skin(session, args.name, root, settings)
    unnamed = sorted(stem for stem, label in result.proposed.items() if label == "unnamed")
    print(f"wrote {result.path} with {len(result.proposed)} templates ({len(unnamed)} unnamed)")
    missing = missing_labels(set(result.proposed.values()))
    if missing:
        print(
            f"not yet named: {' '.join(missing)} - play more games (--games) or name them in [labels]; "
            f"contact sheet: {result.contact_sheet}"
        )
    elif args.chord == "find":
        _find_chord(args, display, backend, query, root, result.path)
    return 0


def _find_chord(
    args: argparse.Namespace, display: str | None, backend: str, query: WindowQuery, root: Path, path: Path
) -> None:
    """Give the skin just written the ``[press] chord`` found by trying (``--chord find``), if one is found."""
    from autoplay.calibrate.chord_probe import CHORD_TRIALS, probe_chord, skin_entry
    from autoplay.cli.play import learning_hook
    from autoplay.control.mouse import UserTookOver
    from autoplay.errors import AutoplayError
    from autoplay.play.live import connect, new_game_starter, prepare, vision_decoder
    from autoplay.play.player import Player, PlayerSettings
    from autoplay.replay.decide import decide_move
    from autoplay.vision import load_skin

    print("finding the chord button: playing with the new skin, flags pressed ...", flush=True)
    skin = load_skin(args.name, root)

    def solve(board: Any, *, opened: Collection[tuple[int, int]] = ()) -> Any:
        return decide_move(board, board.mines, skin.rules, closed=True, opened=opened)  # as play decides

    window, screen, mouse = connect(
        display, query.wm_class, query.title, 5.0, skin, pid=query.pid, backend=backend, damage=True
    )
    settings = PlayerSettings(rules=skin.rules, press_flags=True, chord_trials=CHORD_TRIALS)
    player = Player(screen, mouse, vision_decoder(skin, None), solve, settings, None)
    # a young skin meets tiles its calibration did not: they are learnt as play learns them (play --learn)
    on_game = learning_hook(player, skin, None, None, sys.stdout, root)
    try:
        state = prepare(player, window)
        start = new_game_starter(player, window, skin.new_game)
        probe = probe_chord(player, CHORD_PROBE_GAMES, start, state, on_game)
        # Left as a fresh game, as `play` starts best: a finished board full of flags is the hardest picture to
        # locate a grid on (Firefox at 125%: `play` right after found a part of it, and stopped).
        try:
            start()
        except UserTookOver:
            raise
        except AutoplayError as exc:
            print(f"could not start a fresh game after trying the chord ({exc}); start one before playing", flush=True)
    finally:
        window.close_connection()
        mouse.close()
    print(probe.message(), flush=True)
    if probe.button is not None:
        with open(path, "a", encoding="utf-8") as file:
            file.write(skin_entry(probe.button))
        print(f"wrote [press] chord = {probe.button!r} to {path}")


#: Most games ``calibrate --live --chord find`` plays to find the chord button (an expert game nearly always has a
#: number with its flags placed and two certain cells left beside it).
CHORD_PROBE_GAMES = 2


def _forget_learned(args: argparse.Namespace) -> int:
    """Undo ``play --learn`` on one skin: its learned templates go, the rest of the skin stays as it was."""
    from pathlib import Path

    from autoplay.calibrate.learned_templates import forget_learned
    from autoplay.errors import UsageError
    from autoplay.vision.skin import skin_home_of

    if args.images or args.live:
        raise UsageError("--forget-learned takes only --name (and --out-root): no screenshots, no --live")
    home = Path(args.out_root) if args.out_root else skin_home_of(args.name)
    forgotten = forget_learned(home, args.name)
    for stem in forgotten.removed:
        print(f"removed learned template {stem}")
    for stem in forgotten.missing:
        print(f"already gone: {stem}")
    if not forgotten.removed and not forgotten.missing:
        print(f"skin {args.name!r} has no learned templates")
    return 0


def run(args: argparse.Namespace) -> int:

    from autoplay.board.textformat import read_board
    from autoplay.calibrate.supervised import calibrate_supervised
    from autoplay.calibrate.unsupervised import calibrate_unsupervised
    from autoplay.errors import UsageError
    from autoplay.outputs import ensure_folder
    from autoplay.vision import decode_frame, load_skin, read_image
    from autoplay.vision.skin import autoplay_home

    if args.forget_learned:
        return _forget_learned(args)
    if len(args.labels) > len(args.images):
        raise UsageError(f"{len(args.labels)} --labels for {len(args.images)} images")
    if args.live == bool(args.images):
        raise UsageError("give screenshots, or --live to take them from the running game (not both)")
    # checked before any screenshot is read or game played
    if args.out_root:
        root = ensure_folder(args.out_root, "--out-root")
        for part in ("calibration", "templates"):
            ensure_folder(root / part, f"{part}/ of the skin home")
    else:  # the documented default (per-user data folder or $AUTOPLAY_HOME) is made whole, as any installer would
        root = autoplay_home()
        try:
            for part in ("calibration", "templates"):
                (root / part).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot create the skin folder {root}: {exc.strerror or exc}") from None
    settings = _settings(args)
    if args.live:
        return _calibrate_live(args, settings, root)
    images = [read_image(p) for p in args.images]
    point = new_game_point(args.new_game_click)
    if point is not None:
        settings = _with_button(settings, images[0], point)
    if not args.labels and args.counter:
        raise UsageError("--counter learns from label boards with a mines=N header: give --labels too")
    if not args.labels:
        result = calibrate_unsupervised(images, args.name, root, settings)
        unnamed = sum(1 for label in result.proposed.values() if label == "unnamed")
        print(f"wrote {result.path} with {len(result.proposed)} templates ({unnamed} unnamed)")
        print(f"contact sheet: {result.contact_sheet} - check it and correct [labels] in the TOML")
        return 0
    boards = [read_board(p) for p in args.labels]
    labelled = len(boards)
    calibrated = calibrate_supervised(images[:labelled], boards, args.name, root, settings)
    m = calibrated.margins
    counts = ", ".join(f"{label!r}:{n}" for label, n in calibrated.templates_per_label.items())
    print(f"wrote {calibrated.path}: templates {counts}")
    print(
        f"margins: worst own-label distance {m.worst_own_distance:.3f}, closest other label "
        f"{m.closest_other_distance:.3f}, worst confidence {m.worst_confidence:.2f} -> min_confidence "
        f"{m.min_confidence}, max_distance per label {m.label_max_distance} (others {m.max_distance})"
    )
    skin = load_skin(args.name, root)
    for path, image in zip(args.images[labelled:], images[labelled:]):
        decoded = decode_frame(image, skin)
        total = decoded.grid.rows * decoded.grid.cols
        print(f"check {path}: {total - len(decoded.unreadable)}/{total} cells readable")
    return 0
