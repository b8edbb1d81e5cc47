"""``autoplay demo``: the whole product on a machine without a screen.

Starts a private Xvfb, launches the real game with bot-friendly settings, plays
a few games through ``autoplay play --record`` and writes the session's page
with ``autoplay report`` (every decision replayed, drawn with its heat map and
explained), printing its path last.  The sub-commands run as child processes
exactly as a user would type them, so the demo proves the documented commands work.
"""

from __future__ import annotations

import argparse

from autoplay.cli.arguments import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "demo",
        help="headless demo: Xvfb + real game + a few recorded games + an HTML report",
        description="Plays real games on a virtual display and leaves the recording in "
        "OUT/demo-<timestamp>/recording/ and one page about it, OUT/demo-<timestamp>/report.html.",
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
    page = run_dir / "report.html"
    report = [sys.executable, "-m", "autoplay", "report", str(run_dir), "--skin", args.game, "--out", str(page)]
    report_code = subprocess.call(report, env={**os.environ, "PYTHONPATH": package_root}, stdout=subprocess.DEVNULL)
    print(f"demo finished: {run_dir}")
    if report_code == 0 and page.is_file():
        print(f"report: {page}")
    else:
        print(f"(no report page: autoplay report exited with {report_code})")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
