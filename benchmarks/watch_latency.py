"""How long ``autoplay watch`` takes from a board change to the updated view, on real gnome-mines expert games.

Usage: python benchmarks/watch_latency.py [--games 3] [--json] [--overlay]

A person is played by xdotool: it clicks the move the watcher shows (a certain cell when there is one, else
autoplay's guess), waits for the next position, and starts a new game with Ctrl+R when one ends.  The watcher
runs in this process exactly as ``autoplay watch --json`` does (``follow``, then ``Coach.see``, then the JSON
line made).  For each position the latency runs from the moment the watcher's polling first saw the board differ
(at most one poll, 10 ms, after the game drew it) to the line being ready; it is split into the wait for the
redraw to settle and the reading, solving, explaining and JSON that follow.  The first position of each game (a
fresh board) is left out.  Prints the median, 95th percentile and maximum in milliseconds.  ``--overlay`` runs
it as ``watch --overlay`` does: the game window's own pixels read through Composite, the marks drawn over the board.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autoplay.cli.output import exact_json  # noqa: E402
from autoplay.cli.watch import position_json  # noqa: E402
from autoplay.control.games import launch_game  # noqa: E402
from autoplay.control.window import WindowGoneError  # noqa: E402
from autoplay.control.window_pixels import WindowPixels  # noqa: E402
from autoplay.control.xserver import VirtualDisplay  # noqa: E402
from autoplay.insight.coach import Coach, Coached  # noqa: E402
from autoplay.play.reading import vision_decoder  # noqa: E402
from autoplay.play.watch import WatchedWindow, WatchSettings, follow  # noqa: E402
from autoplay.render.overlay_marks import marks_of  # noqa: E402
from autoplay.render.overlay_window import BoardOverlay  # noqa: E402
from autoplay.vision import load_skin  # noqa: E402
from autoplay.vision.grid import Grid  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--overlay", action="store_true", help="read and draw as 'watch --overlay' does")
    args = parser.parse_args()
    skin = load_skin("gnome-mines")
    total, settle = [], []
    with VirtualDisplay(1280, 1024) as server, launch_game("gnome-mines", server.name, preset="expert") as game:
        env = {**os.environ, "DISPLAY": server.name}
        target = WatchedWindow(game.window, server.name)
        overlay = None
        if args.overlay:
            target.own_pixels = WindowPixels.open(server.name, game.window.id).grab
            overlay = BoardOverlay.open(server.name, game.window.id)
        latest: list[Coached | None] = [None]
        shown = threading.Event()
        games_done = [0]
        grid: list[Grid] = []

        def person() -> None:
            """Clicks what the watcher shows, one step per position, until enough games ended."""
            while games_done[0] < args.games:
                if not shown.wait(10):
                    break
                shown.clear()
                coached = latest[0]
                if coached is None:
                    continue
                time.sleep(0.15)
                if coached.summary is not None:
                    games_done[0] += 1
                    subprocess.run(["xdotool", "key", "--window", str(game.window.id), "ctrl+r"], env=env, check=True)
                    continue
                decision = coached.advice.decision
                if decision is None or not decision.moves or not grid:
                    continue
                move = decision.moves[0]
                x, y = grid[-1].cell_center(move.row, move.col)
                button = "3" if move.action == "flag" else "1"
                point = [str(game.window.x + int(x)), str(game.window.y + int(y))]
                subprocess.run(["xdotool", "mousemove", *point, "click", button], env=env, check=True)
            game.stop()

        coach = Coach(skin.rules)
        threading.Thread(target=person, daemon=True).start()
        began = time.perf_counter()
        try:
            for seen in follow(target, vision_decoder(skin, game.mines), WatchSettings()):
                grid.append(seen.grid)
                coached = coach.see(seen.board, seen.state, seen.t, seen.pointer_cell)
                exact_json(position_json(coached, seen.t))
                if overlay is not None:
                    overlay.show(marks_of(coached, seen.grid))
                done = time.perf_counter()
                if not coached.new_game:
                    total.append(1000 * (done - began - seen.t))
                    settle.append(1000 * seen.settled_in)
                latest[0] = coached
                shown.set()
        except WindowGoneError:
            pass
    after = [t - s for t, s in zip(total, settle, strict=True)]
    result = {
        "load_average_1min": round(os.getloadavg()[0], 1),
        "positions": len(total),
        "games": games_done[0],
        "total_ms": {"median": statistics.median(total), "p95": percentile(total, 0.95), "max": max(total)},
        "settle_ms": {"median": statistics.median(settle), "p95": percentile(settle, 0.95)},
        "after_settle_ms": {"median": statistics.median(after), "p95": percentile(after, 0.95), "max": max(after)},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{result['positions']} positions in {result['games']} gnome-mines expert games "
        f"(load average {result['load_average_1min']} at the end)"
    )
    for key in ("total_ms", "settle_ms", "after_settle_ms"):
        print(f"  {key}: " + ", ".join(f"{k} {v:.1f}" for k, v in result[key].items()))


if __name__ == "__main__":
    main()
