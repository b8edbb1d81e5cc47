"""``autoplay play``: play real games in a real window and report how it went."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from autoplay.cli.arguments import non_negative_int, positive_int, positive_seconds
from autoplay.cli.window_options import add_redraw_options, add_window_options, choose_backend_for, skin_and_query

if TYPE_CHECKING:
    from autoplay.control.mouse import Button
    from autoplay.play.proven_open import UnknownInPlay


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play",
        help="play Minesweeper in a real window (reads the screen, clicks the safest move)",
        description="Finds the game window, reads the board from the screen and plays N games in a row. "
        "Every click is checked to lie on the located board, on the game's own window, unmoved and "
        "uncovered (exit 4 otherwise; a dialog of the game's own is closed with Escape); move the mouse, close or "
        "move the window, or press Ctrl-C to stop.",
    )
    p.add_argument("--skin", required=True, help="skin name (calibration/NAME.toml), e.g. gnome-mines, xdemineur")
    p.add_argument("--games", type=positive_int, default=1, metavar="N", help="games to play in a row (default 1)")
    p.add_argument("--record", metavar="DIR", help="save every frame and decision for 'autoplay replay'")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--dry-run", action="store_true", help="decode and print the next move without clicking")
    p.add_argument(
        "--learn",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="name the tiles the skin could not read by the rules of the game (during a game when they prove "
        "the tile an opened number of one value, else from each game's final board) and add them to the skin, "
        "logged in calibration/NAME.learned.jsonl (undo: autoplay calibrate --forget-learned --name NAME); "
        "default: on for a skin made by calibrate --live",
    )
    add_window_options(
        p,
        " (default: the skin's [window]; when no window matches, the skin's board is looked for on the whole screen)",
    )
    p.add_argument("--mines", type=non_negative_int, help="total mines, when the skin cannot tell from the board size")
    p.add_argument(
        "--flags",
        choices=("needed", "always"),
        default="needed",
        help="'needed' (default): flag a proven mine on screen only where the game's win rule counts flags (the "
        "skin's win = flag-all) and keep the others in mind, a press and a redraw saved each (gnome-mines 1.12x "
        "faster, kmines at 125%% 1.25x). 'always': flag every proven mine, as a person shows them",
    )
    p.add_argument(
        "--chords",
        choices=("skin", "off"),
        default="skin",
        help="'skin' (default): where the skin names its game's chord button ([press] chord), open the certain "
        "cells around a number whose flags play placed with one press on the number, as people play (xdemineur: "
        "a third fewer presses). 'off': one press per cell",
    )
    p.add_argument(
        "--time-limit", type=positive_seconds, default=1.0, metavar="S", help="solver time per decision (default 1 s)"
    )
    add_redraw_options(p, "; gnome-mines draws a cascade over several 16 ms frames, xdemineur in one")
    p.add_argument(
        "--no-damage",
        dest="damage",
        action="store_false",
        help="X11: wait for redraws by polling the board's pixels only, not on the X server's damage reports",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os

    from autoplay.outputs import ensure_folder
    from autoplay.play.kept_flags import flags_needed
    from autoplay.play.live import connect, new_game_starter, prepare, vision_decoder
    from autoplay.play.player import Player, PlayerSettings
    from autoplay.play.recorder import Recorder
    from autoplay.play.session import SessionSummary, play_session
    from autoplay.solver import choose_move
    from autoplay.solver.closure import closed_batch

    # the user's own input first (skin, names, folders), then the environment (display, backend, window)
    skin, query = skin_and_query(args)
    if args.record:  # checked before any window is touched; the recorder makes its own frames/ inside
        ensure_folder(args.record, "--record")
    display = args.display or os.environ.get("DISPLAY")
    backend = choose_backend_for(args, display)
    window, screen, mouse = connect(
        display, query.wm_class, query.title, args.wait_window, skin, pid=query.pid, backend=backend, damage=args.damage
    )
    recorder = None
    if args.record:
        recorder = Recorder(
            args.record,
            skin.name,
            skin.rules,
            display=display,
            mines=args.mines,
            time_limit=args.time_limit,
            window=list(window.rect),
            closed_batches=True,
        )

    def solve(board: Any, *, opened: Collection[tuple[int, int]] = ()) -> Any:
        mines = board.mines if board.mines is not None else args.mines
        decision = choose_move(board, mines, skin.rules, time_limit=args.time_limit, opened=opened)
        # a certain batch comes with every move it implies: a round trip to the game saved per step of the rules
        return closed_batch(board, decision, mines, opened)

    def show_decision(info: dict[str, Any]) -> None:
        moves = ", ".join(f"{m.action} ({m.row},{m.col}) p={m.probability:.3f}" for m in info["moves"])
        print(f"next: {moves} [{info['reason']}]")

    press_flags = args.flags == "always" or flags_needed(skin.rules)
    chord = cast("Button | None", skin.chord) if args.chords == "skin" else None
    settings = PlayerSettings(
        settle_interval=args.settle, dry_run=args.dry_run, rules=skin.rules, press_flags=press_flags, chord=chord
    )
    player = Player(
        screen,
        mouse,
        vision_decoder(skin, args.mines),
        solve,
        settings,
        recorder,
        on_decision=show_decision if args.dry_run else None,
    )
    summary = SessionSummary()
    try:
        first_state = prepare(player, window)
        start = new_game_starter(player, window, skin.new_game)
        on_game = None if args.json or args.dry_run else _print_game
        learns = args.learn if args.learn is not None else skin.origin == "live"
        if learns and not args.dry_run:
            on_game = learning_hook(player, skin, args.mines, on_game, sys.stderr if args.json else sys.stdout)
        play_session(player, args.games, start, on_game=on_game, first_state=first_state, summary=summary)
    finally:
        data = summary.to_dict()
        if recorder is not None:
            recorder.close(**{k: v for k, v in data.items() if k != "per_game"})
        window.close_connection()
        close_screen = getattr(screen, "close", None)
        if close_screen is not None:
            close_screen()
        mouse.close()
        if args.json:  # also when stopped early: the finished games still count
            json.dump(data, sys.stdout, indent=2)
            print(flush=True)
    if not args.json and not args.dry_run:
        _print_summary(data)
    if args.record:
        print(f"recording: {args.record}", file=sys.stderr)
    return 0


def learning_hook(player: Any, skin: Any, mines: int | None, then: Any, out: Any, home: Path | None = None) -> Any:
    """An ``on_game`` hook that learns the game's unknown tiles, reloads the skin into the player, then ``then``.

    ``home``: the folder the skin lives in (default: the skin home it is found in).
    """
    from autoplay.calibrate.learn import learn_during_game
    from autoplay.calibrate.learn_game import learn_after_game
    from autoplay.calibrate.learned_templates import add_learned
    from autoplay.play.live import vision_decoder
    from autoplay.vision import load_skin
    from autoplay.vision.skin import skin_home_of

    home = home if home is not None else skin_home_of(skin.name)
    current = [skin]
    # Whether the game shows every mine when lost is a rule of that game: one lost board that showed the
    # whole count proves it for the session's later ones, where a popup may hide a few of the mines.
    shows_every_mine = [False]

    def take(entries: list[dict[str, Any]], when: str) -> None:
        for entry in entries:
            cells = " ".join(f"({r},{c})" for r, c in entry["cells"][:4])
            print(f"learned {entry['label']!r}: {entry['template']} ({when}, {cells})", file=out, flush=True)
        if entries:
            current[0] = load_skin(skin.name, home)
            player.decode = vision_decoder(current[0], mines)

    def during_game(seen: UnknownInPlay) -> bool:
        tiles = learn_during_game(seen.frame, seen.grid, seen.board, seen.unknown, seen.opened, seen.flagged)
        entries = add_learned(home, current[0].name, tiles, seen.game, "during")
        take(entries, f"game {seen.game}, during it")
        return bool(entries)

    player.learn_during_game = during_game

    def on_game(result: Any) -> None:
        entries = learn_after_game(home, current[0], result, mines, shows_every_mine[0])
        shows_every_mine[0] = shows_every_mine[0] or bool(result.final_shows_all_mines)
        result.final_frame = None  # kept only for this: 50 games of frames would be a lot of memory
        take(entries, f"game {result.game} {result.result}")
        if then is not None:
            then(result)

    return on_game


def _print_game(result: Any) -> None:
    from autoplay.insight.speed import show, speed_figures

    figures = speed_figures(result.final_board, result.result, result.seconds, result.clicks)
    total, solved = figures["3bv"], figures["3bv_solved"]
    bbbv = show(total) if solved == total else f"{show(solved)}/{show(total)}"
    print(
        f"game {result.game}: {result.result} in {result.seconds:.2f} s, 3BV {bbbv}, "
        f"3BV/s {show(figures['3bv_per_second'])}, {result.clicks} clicks, efficiency {show(figures['efficiency'])}; "
        f"{result.moves} moves, {result.guesses} guesses",
        flush=True,
    )


def _print_summary(data: dict[str, Any]) -> None:
    low, high = data["win_rate_ci95"]
    rate = "n/a" if data["win_rate"] is None else f"{100 * data['win_rate']:.1f}%"
    undecided = (
        f", {data['undecided']} undecided (a guess opened a tile the skin cannot read)" if data.get("undecided") else ""
    )
    print(
        f"{data['games']} games: {data['wins']} won, {data['losses']} lost{undecided}, win rate {rate} "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
    )
    print(
        f"{data['seconds_per_game']} s per game, {data['moves_per_second']} moves/s, {data['guesses']} guesses; "
        f"clicks: {data['clicks_attempted']} attempted, {data['clicks_refused']} refused"
    )
    if data["3bv_per_second_median"] is not None:
        print(f"3BV/s median {data['3bv_per_second_median']}, efficiency median {data['efficiency_median']}")
    if data["ms_per_decision"]:
        print("ms per decision: " + ", ".join(f"{k} {v}" for k, v in data["ms_per_decision"].items()))
