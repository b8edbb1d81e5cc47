"""Acceptance run for a game autoplay was never tuned on: the README's two commands, timed, then N games audited.

Usage: PYTHONPATH=. python benchmarks/new_games.py --game sgt-mines [--games 50] [--calibration-games 3] [--out F.md]

For each game it starts its own Xvfb and the game through `autoplay launch`'s launcher, then runs exactly what a
new user runs: `autoplay calibrate --live --window-class CLASS --name NAME --games 3 ...` (with the rules from the
README's games table) and `autoplay play --skin NAME --games N --record ...`.  It reports the wall time from the
start of calibration to the end of the first game played, then plays until N games have ended (a stopped session
is counted, the game relaunched and play goes on), audits every recorded board against the layout each game
showed at its end (`autoplay replay --audit`) and, where the game's end shows the layout, replays every game's
own layout in the simulator.  The skin is written to a temporary AUTOPLAY_HOME, never into the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from layout_replay import replay_recordings  # benchmarks/layout_replay.py, beside this script
from live_play import audit  # benchmarks/live_play.py, beside this script
from report import emit  # benchmarks/report.py, beside this script

from autoplay.control.games import launch_game
from autoplay.control.launchers import SPECS
from autoplay.control.xserver import VirtualDisplay
from autoplay.sim.stats import percentile, wilson_interval

ROOT = Path(__file__).resolve().parents[1]
#: What the README's games table tells a user to pass: first-click rule, win rule, key for a new game.
USER_OPTIONS = {
    "sgt-mines": ["--first-click", "zero", "--win", "reveal", "--new-game-key", "n"],
    "kmines": ["--first-click", "zero", "--win", "reveal", "--new-game-key", "ctrl+n"],
    "xbomb": ["--first-click", "zero", "--win", "reveal", "--new-game-key", "s"],
}


@dataclass
class FlowRun:
    calibrate_seconds: float = 0.0
    calibrate_exit: int = 0
    calibrate_output: str = ""
    first_game_seconds: float | None = None
    games: list[dict] = field(default_factory=list)
    stops: list[str] = field(default_factory=list)
    recordings: list[Path] = field(default_factory=list)


@dataclass
class PlayedSession:
    """What one ``autoplay play --json`` run gave: its games, and why it stopped when it did not finish."""

    games: list[dict]
    exit_code: int
    stop: str | None


def play_session(
    env: dict[str, str], skin: str, games: int, mines: int, recording: Path, flags: str | None = None
) -> PlayedSession:
    """Run ``autoplay play`` for ``games`` games with ``skin``, recording into ``recording``."""
    play = [sys.executable, "-m", "autoplay", "play", "--skin", skin, "--games", str(games), "--json"]
    play += ["--mines", str(mines), "--record", str(recording)]
    if flags is not None:
        play += ["--flags", flags]
    # 3 min a game: a busy shared machine (load 15 on 2 cores) once took 264 s over one 30x16 game of a page
    proc = run_command(play, env, timeout=180 * games + 120)
    played = json.loads(proc.stdout)["per_game"] if proc.stdout.strip().startswith("{") else []
    stop = f"play exit {proc.returncode}: {last_line(proc.stderr)}" if proc.returncode != 0 else None
    return PlayedSession(played, proc.returncode, stop)


def run_command(cmd: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return subprocess.CompletedProcess(cmd, 124, out, f"timed out after {timeout:.0f} s")


def run_flow(
    game: str,
    games: int,
    calibration_games: int,
    home: Path,
    record_root: Path,
    play_tile: int | None = None,
    scale: float = 1.0,
    calibrate: bool = True,
    flags: str | None = None,
) -> FlowRun:
    """Calibrate live on a fresh launch of ``game``, then play ``games`` games with the skin it made.

    ``play_tile`` relaunches the game at that tile size for play: the skin then reads tiles of a size it
    was not made from.  ``calibrate=False`` plays with the skin already in ``home`` (an earlier run's), so that
    two ways of playing can be compared on one skin: each live calibration makes a skin of its own.
    """
    spec = SPECS[game]
    name = f"{game}-live"
    flow = FlowRun()
    base = [sys.executable, "-m", "autoplay"]
    with VirtualDisplay() as server:
        env = {**os.environ, "DISPLAY": server.name, "PYTHONPATH": str(ROOT), "AUTOPLAY_HOME": str(home)}
        if not calibrate:
            flow.calibrate_output = f"not run: the skin in {home} was made by an earlier run"
        else:
            with launch_game(game, server.name, scale=scale) as running:
                mines = ["--mines", f"{running.rows}x{running.cols}={running.mines}"]
                command = [*base, "calibrate", "--live", "--window-class", spec.wm_class, "--name", name]
                command += ["--games", str(calibration_games), *USER_OPTIONS[game], *mines, "--out-root", str(home)]
                started = time.monotonic()
                proc = run_command(command, env, timeout=600)
                flow.calibrate_seconds = time.monotonic() - started
                flow.calibrate_exit = proc.returncode
                flow.calibrate_output = (proc.stdout + proc.stderr).strip()
            if proc.returncode != 0:
                flow.stops.append(f"calibrate exit {proc.returncode}: {last_line(proc.stderr)}")
                return flow
        while len(flow.games) + len(flow.stops) < games:
            left = games - len(flow.games) - len(flow.stops)
            with launch_game(game, server.name, tile=play_tile, scale=scale) as running:
                flow.recordings.append(record_root / f"session-{len(flow.recordings) + 1}")
                session = play_session(env, name, left, running.mines, flow.recordings[-1], flags)
            if flow.first_game_seconds is None and session.games:
                flow.first_game_seconds = flow.calibrate_seconds + session.games[0]["seconds"]
            flow.games += session.games
            if session.stop:
                flow.stops.append(session.stop)
                if session.exit_code not in (2, 3):
                    break
    return flow


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def report(game: str, flow: FlowRun, args: argparse.Namespace, wall: float) -> str:
    ended = [g for g in flow.games if g["result"] in ("won", "lost")]
    wins = sum(g["result"] == "won" for g in ended)
    low, high = wilson_interval(wins, len(ended)) if ended else (0.0, 0.0)
    seconds = [g["seconds"] for g in flow.games]
    certain_losses = sum(g["result"] == "lost" and not g["last_was_guess"] for g in flow.games)
    first = f"{flow.first_game_seconds:.0f} s" if flow.first_game_seconds is not None else "no game played"
    lines = [
        f"Command: `python benchmarks/new_games.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {os.cpu_count()} cores (shared), Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; "
        f"Xvfb 1280x1024; wall time {wall:.0f} s.",
        "",
        "| game | calibrate --live | to first game played | games ended | stops | wins | win rate (95% CI) "
        "| s/game median | losses on a certain move |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {game} | exit {flow.calibrate_exit}, {flow.calibrate_seconds:.0f} s | {first} | {len(ended)} "
        f"| {len(flow.stops)} | {wins} | {100 * wins / len(ended) if ended else 0:.1f}% "
        f"({100 * low:.1f}-{100 * high:.1f}%) | {percentile(seconds, 50) if seconds else 0:.2f} | {certain_losses} |",
        "",
        "calibrate said: " + " / ".join(flow.calibrate_output.splitlines()[-3:])[:400],
    ]
    if flow.recordings:
        audited = audit(flow.recordings)
        lines.append(
            f"Misread audit: {audited['games_audited']} games, {audited['cells']} cells read: "
            f"**{audited['misreads']} misread cells, {audited['wrong_certain_moves']} wrong certain moves**"
            + (f"; {audited['games_unverifiable']} games without a usable end" if audited["games_unverifiable"] else "")
        )
        if audited["examples"]:
            lines.append("Audit findings: " + "; ".join(audited["examples"])[:600])
        try:
            replayed = replay_recordings(flow.recordings, progress=False)
        except ValueError as exc:  # a lost board that shows only some mines (sgt-mines) holds no layout
            lines.append(
                f"Layout replay in the simulator: not possible, the games' ends do not show the layout ({exc})."
            )
        else:
            if replayed.played:
                lines.append(f"Layout replay in the simulator: {replayed.summary()}.")
    if flow.games:
        unknown = [g.get("unknown_cells", 0) for g in flow.games]
        lines.append(
            f"Cells no template matched (played as covered, never clicked): {sum(u > 0 for u in unknown)} of "
            f"{len(unknown)} games had some, at most {max(unknown)} in one frame."
        )
    if flow.stops:
        lines.append("Stops: " + "; ".join(flow.stops)[:600])
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=sorted(USER_OPTIONS))
    ap.add_argument("--games", type=int, default=50, help="games to play with the calibrated skin (default 50)")
    ap.add_argument("--calibration-games", type=int, default=3, help="calibrate --live --games (default 3)")
    ap.add_argument("--scale", type=float, default=1.0, help="device scale factor (kmines: QT_SCALE_FACTOR)")
    ap.add_argument("--out", help="append the markdown report to this file as well")
    ap.add_argument(
        "--play-tile", type=int, help="play at this tile size (px) instead of the one calibrated at (default: same)"
    )
    ap.add_argument("--record-root", type=Path, help="where the play recordings go (default runs/new-GAME-TIME)")
    ap.add_argument(
        "--skin-from",
        type=Path,
        help="play with the skin an earlier run made (its record root) instead of calibrating: one skin, two ways",
    )
    ap.add_argument("--flags", choices=("needed", "always"), help="passed to autoplay play --flags (default: its own)")
    args = ap.parse_args()
    record_root = args.record_root or ROOT / "runs" / f"new-{args.game}-{time.strftime('%Y%m%d-%H%M%S')}"
    record_root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # The skin the flow made (templates, contact sheet, learned log) stays beside the recordings it read.
    home = record_root / "home"
    if args.skin_from is not None:
        if not (args.skin_from / "home" / "calibration").is_dir():
            print(f"new_games: {args.skin_from} holds no skin (no home/calibration in it)", file=sys.stderr)
            return 2
        shutil.copytree(args.skin_from / "home", home, dirs_exist_ok=True)
    home.mkdir(exist_ok=True)
    flow = run_flow(
        args.game,
        args.games,
        args.calibration_games,
        home,
        record_root,
        args.play_tile,
        args.scale,
        calibrate=args.skin_from is None,
        flags=args.flags,
    )
    emit(report(args.game, flow, args, time.monotonic() - started), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
