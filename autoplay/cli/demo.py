"""``autoplay demo``: the whole product on a machine without a screen.

Starts a private Xvfb, launches the real game with bot-friendly settings, plays
a few games through ``autoplay play --record`` and, when ``autoplay replay`` is
available, draws annotated pictures of every decision.  The sub-commands run as
child processes exactly as a user would type them, so the demo proves the
documented commands work.
"""

from __future__ import annotations

import argparse

from autoplay.cli.arguments import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "demo",
        help="headless demo: Xvfb + real game + a few recorded games (+ annotated replay)",
        description="Plays real games on a virtual display and leaves the recording in "
        "OUT/demo-<timestamp>/ (frames, decisions, annotated pictures).",
    )
    p.add_argument("--game", default="gnome-mines", choices=["gnome-mines", "xdemineur"])
    p.add_argument("--games", type=positive_int, default=3, metavar="N", help="games to play (default 3)")
    p.add_argument("--preset", default="expert", choices=["beginner", "intermediate", "expert"])
    p.add_argument("--out", default="runs", metavar="DIR", help="parent folder of the run (default ./runs)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os
    import signal
    import subprocess
    import sys
    from datetime import datetime
    from pathlib import Path

    from autoplay.control.games import launch_game
    from autoplay.control.xserver import VirtualDisplay
    from autoplay.errors import ControlError
    from autoplay.outputs import ensure_folder

    signal.signal(signal.SIGTERM, _interrupt)  # a plain kill still stops Xvfb and the game
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    run_dir = ensure_folder(ensure_folder(args.out, "--out").resolve() / f"demo-{stamp}")
    record = run_dir / "recording"
    package_root = str(Path(__file__).resolve().parents[2])
    with VirtualDisplay() as server:
        env = {
            **os.environ,
            "DISPLAY": server.name,
            "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])),
        }
        print(f"Xvfb on {server.name}; launching {args.game} ({args.preset})", flush=True)
        with launch_game(args.game, server.name, preset=args.preset, workdir=run_dir / "game-settings") as game:
            play = [
                sys.executable,
                "-m",
                "autoplay",
                "play",
                "--skin",
                args.game,
                "--games",
                str(args.games),
                "--record",
                str(record),
                "--display",
                server.name,
                "--wait-window",
                "5",
                "--mines",
                str(game.mines),
            ]
            code = subprocess.call(play, env=env)
    if code != 0:
        raise ControlError(f"autoplay play failed with exit code {code}; partial recording in {record}")
    annotated = run_dir / "annotated"
    replay = [sys.executable, "-m", "autoplay", "replay", str(record), "--skin", args.game, "--out", str(annotated)]
    replay_code = subprocess.call(replay, env={**os.environ, "PYTHONPATH": package_root}, stdout=subprocess.DEVNULL)
    if replay_code in (0, 1) and annotated.is_dir():
        print(f"annotated pictures: {annotated}")
    else:
        print(f"(no annotated pictures: autoplay replay exited with {replay_code})")
    print(f"demo finished: {run_dir}")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
