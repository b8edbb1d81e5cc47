"""Live play on real game windows under Xvfb: win rate, time per game and a per-decision time breakdown.

Usage: python benchmarks/live_play.py --game gnome-mines --games 50 [--preset expert] [--out F.md]
Starts its own Xvfb and game and runs the documented command `autoplay play --json` against it, so the
numbers are those a user gets.  Every session is recorded (--record-root) and then audited: every board read
during play is compared with the layout each game revealed at its end (`autoplay replay REC --audit`), which
counts misreads without human labels.  A session that stops (e.g. a cell the skin cannot read) counts as one
aborted game; the game is relaunched and play continues until --games games have ended.  Compare the win
rate with the simulated rate under the same first-click rule (benchmarks/win_rates.py --rules zero).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from layout_replay import replay_recordings  # benchmarks/layout_replay.py, beside this script
from report import emit  # benchmarks/report.py, beside this script

from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay, start_window_manager
from autoplay.sim.stats import percentile, wilson_interval

ROOT = Path(__file__).resolve().parents[1]
PHASES = ("capture", "settle", "decode", "solve", "click")


def play_until(
    game: str, preset: str, games: int, extra: list[str], record_root: Path, window_manager: str | None = None
) -> tuple[list[dict], list[str], dict, list[Path]]:
    """Finished games (per-game dicts), the errors of aborted sessions, summed click counts, the recordings."""
    recordings: list[Path] = []
    finished: list[dict] = []
    errors: list[str] = []
    clicks = {"attempted": 0, "refused": 0}
    with VirtualDisplay() as server, contextlib.ExitStack() as managers:
        if window_manager:
            manager = start_window_manager(server.name, window_manager)
            managers.callback(manager.terminate)
        env = {**os.environ, "DISPLAY": server.name, "PYTHONPATH": str(ROOT)}
        while len(finished) + len(errors) < games:
            left = games - len(finished) - len(errors)
            with launch_game(game, server.name, preset=preset) as running:
                recordings.append(record_root / f"session-{len(recordings) + 1}")
                cmd = [
                    sys.executable,
                    "-m",
                    "autoplay",
                    "play",
                    "--skin",
                    game,
                    "--games",
                    str(left),
                    "--json",
                    "--display",
                    server.name,
                    "--mines",
                    str(running.mines),
                    "--record",
                    str(recordings[-1]),
                    *extra,
                ]
                proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if proc.stdout.strip():  # the summary of the games that ended, also after an early stop
                data = json.loads(proc.stdout)
                finished += data["per_game"]
                clicks["attempted"] += data["clicks_attempted"]
                clicks["refused"] += data["clicks_refused"]
            if proc.returncode != 0:
                message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
                errors.append(message)
                print(f"session stopped: {message}", file=sys.stderr)
                if proc.returncode not in (2, 3):  # only misreads are worth retrying; anything else is a fault
                    break
    return finished, errors, clicks, recordings


def audit(recordings: list[Path]) -> dict:
    """Misread audit summed over the sessions' recordings."""
    from autoplay.replay.audit import AuditReport, audit_recording
    from autoplay.replay.recording import read_recording

    total = AuditReport()
    for path in recordings:
        if not (path / "decisions.jsonl").is_file():
            continue
        report = audit_recording(read_recording(path))
        total.games += report.games
        total.boards += report.boards
        total.cells += report.cells
        total.certain_moves += report.certain_moves
        total.unverifiable += [f"{path.name} {u}" for u in report.unverifiable]
        total.misreads += report.misreads
        total.wrong_moves += report.wrong_moves
    return total.to_dict()


def overhead_per_decision(recordings: list[Path]) -> tuple[list[float], int]:
    """Each decision's capture + decode + solve + the settle beyond the game's own drawing, in ms; and how many
    decisions had no redraw report to tell the two apart (their frames were polled, or nothing was drawn).

    The game's own drawing is the recorded ``redraw``: from the end of the batch to the window system's last
    report of the board being drawn; what follows it in ``settle`` is autoplay's wait to be sure it was the last.
    """
    from autoplay.replay.recording import read_recording

    found, untold = [], 0
    for path in recordings:
        if not (path / "decisions.jsonl").is_file():
            continue
        for decision in read_recording(path).decisions:
            timing = decision.timing
            if "redraw" not in timing:
                untold += 1
                continue
            rest = timing["settle"] - timing["redraw"]
            found.append(1000 * (timing["capture"] + rest + timing["decode"] + timing["solve"]))
    return found, untold


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="gnome-mines", choices=["gnome-mines", "xdemineur"])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--preset", default="expert", choices=["beginner", "intermediate", "expert"])
    ap.add_argument("--settle", help="passed to autoplay play --settle")
    ap.add_argument("--window-manager", help="run the game under this window manager (e.g. openbox), as on a desktop")
    ap.add_argument("--backend", choices=["x11", "portable"], help="passed to autoplay play --backend")
    ap.add_argument("--flags", choices=["needed", "always"], help="passed to autoplay play --flags")
    ap.add_argument("--out", help="append the markdown table to this file as well")
    ap.add_argument("--json-out", help="write every finished game's numbers here")
    ap.add_argument(
        "--record-root", type=Path, help="folder for the sessions' recordings (default runs/live-GAME-TIMESTAMP)"
    )
    args = ap.parse_args()

    started = time.time()
    extra = ["--settle", args.settle] if args.settle else []
    extra += ["--backend", args.backend] if args.backend else []
    extra += ["--flags", args.flags] if args.flags else []
    record_root = args.record_root or ROOT / "runs" / f"live-{args.game}-{time.strftime('%Y%m%d-%H%M%S')}"
    record_root.mkdir(parents=True, exist_ok=True)
    games, errors, clicks, recordings = play_until(
        args.game, args.preset, args.games, extra, record_root, args.window_manager
    )
    audited = audit(recordings)
    overhead, untold = overhead_per_decision(recordings)
    if args.json_out:
        Path(args.json_out).write_text(
            json.dumps({"games": games, "aborted": errors, "clicks": clicks, "audit": audited}, indent=2)
        )
    wins = sum(g["result"] == "won" for g in games)
    ended = sum(g["result"] in ("won", "lost") for g in games)
    low, high = wilson_interval(wins, ended) if ended else (0.0, 0.0)
    seconds = [g["seconds"] for g in games]
    won_seconds = [g["seconds"] for g in games if g["result"] == "won"]
    decisions = sum(g["decisions"] for g in games) or 1
    moves = sum(g["moves"] for g in games)
    ms = {k: 1000 * sum(g["timing"].get(k, 0.0) for g in games) / decisions for k in PHASES}
    certain_losses = sum(g["result"] == "lost" and not g["last_was_guess"] for g in games)
    lines = [
        f"Command: `python benchmarks/live_play.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {os.cpu_count()} cores (shared), Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; "
        f"Xvfb 1280x1024{', ' + args.window_manager if args.window_manager else ', no window manager'}; "
        f"wall time {time.time() - started:.0f} s.",
        "",
        "| game | preset | games ended | aborted | wins | win rate | 95% CI (Wilson) | s/game median | s/game p90 "
        "| s/won game median | moves/s | guesses/game | losses after a certain move | clicks attempted | refused "
        "| click retries | re-reads |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {args.game} | {args.preset} | {ended} | {len(errors)} | {wins} "
        f"| {100 * wins / ended if ended else 0:.1f}% | {100 * low:.1f}-{100 * high:.1f}% "
        f"| {percentile(seconds, 50):.2f} | {percentile(seconds, 90):.2f} | {percentile(won_seconds, 50):.2f} "
        f"| {moves / sum(seconds) if seconds else 0:.1f} | {sum(g['guesses'] for g in games) / max(ended, 1):.2f} "
        f"| {certain_losses} | {clicks['attempted']} | {clicks['refused']} "
        f"| {sum(g['retries'] for g in games)} | {sum(g['rereads'] for g in games)} |",
        "",
        "Mean milliseconds per decision: "
        + ", ".join(f"{k} {v:.1f}" for k, v in ms.items())
        + f" ({decisions} decisions, {moves} moves).",
        "",
        "Per decision beyond the game's own drawing (capture + the settle after the last redraw report + decode + "
        f"solve): median {percentile(overhead, 50):.1f} ms, p90 {percentile(overhead, 90):.1f} ms over "
        f"{len(overhead)} decisions ({untold} with no redraw report).",
        "",
        f"Misread audit (every board read during play against the layout each game revealed at its end): "
        f"{audited['games_audited']} games, {audited['boards']} boards, {audited['cells']} cells read, "
        f"{audited['certain_moves']} certain moves: **{audited['misreads']} misread cells, "
        f"{audited['wrong_certain_moves']} wrong certain moves**"
        + (f"; {audited['games_unverifiable']} games without a usable end" if audited["games_unverifiable"] else "")
        + f". Recordings: `{record_root.relative_to(ROOT) if record_root.is_relative_to(ROOT) else record_root}`.",
    ]
    if audited["examples"]:
        lines.append("Audit findings: " + "; ".join(audited["examples"]))
    replayed = replay_recordings(recordings, progress=False)
    if replayed.played:
        lines += [
            "",
            "Layout replay (each game's own mine layout played again in the simulator by the same solver; "
            f"`benchmarks/layout_replay.py`): {replayed.summary()}.",
        ]
        lines += [f"- different outcome: {line}" for line in replayed.differing]
    if errors:
        lines.append("Aborted sessions: " + "; ".join(sorted(set(errors)))[:600])
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
