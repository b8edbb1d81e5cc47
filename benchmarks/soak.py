"""Soak: many live expert games in ONE unattended `autoplay play` session, its memory sampled after every game.

Usage: python benchmarks/soak.py --game gnome-mines --games 500 --out-dir runs/soak-gnome-mines

Starts its own Xvfb and game, runs the documented command `autoplay play --games N --record DIR` once, and
reads the "game i: ..." line the command prints after each game; at each line the resident memory (VmRSS from
/proc) of the playing process is sampled, and a sampler thread reads it every 0.25 s, so each game's peak (frames
in flight, a deep search) is kept too.  The line comes after the game's frames are written and its freed memory
handed back, but this process may read /proc a few ms later, when the next game has begun; the session's own
reading at that point (``rss_kib`` in each game record) is judged too, as ``rss_in_process``.  Everything known so
far is written to OUT/soak.json after every game, so a run stopped at any point (SIGTERM or SIGINT to this script:
the play process gets Ctrl-C and stops cleanly) still leaves its figures.  At the end the recording is audited
(`autoplay replay DIR --audit`: every board read compared with the layout each game revealed at its end).  Memory
is called flat when the largest RSS from game 50 on is within 10% of the RSS at game 50; `steady_flat` compares the
median of the last 50 samples with the median of the first 50 from game 50 on, which transient peaks do not move.
From the recording it also sums how often a batch showed no effect in time and the game had to be asked whether
it had read the clicks (``waits``, and the longest answer), and how often cells were clicked again (``retries``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autoplay.control.games import launch_game  # noqa: E402 - after the path set-up, for runs from a clone
from autoplay.control.xserver import VirtualDisplay  # noqa: E402
from autoplay.play.memory import resident_kib  # noqa: E402

GAME_LINE = re.compile(r"^game (\d+): (\w+) in ([\d.]+) s")
#: RSS is compared from this game on (the first games warm caches and the solver's tables).
FLAT_FROM = 50
FLAT_TOLERANCE = 0.10


def flatness(samples: list[tuple[int, int]]) -> dict[str, Any]:
    """RSS from game FLAT_FROM on: its first sample, the extremes, and the steady level at both ends.

    Single samples catch transient peaks (frames still queued for the PNG writer, a deep endgame
    search), so growth is judged twice: by the largest sample against the one at game FLAT_FROM, and
    by the median of the last 50 samples against the median of the first 50 (the level RSS returns to).
    """
    later = [kib for game, kib in samples if game >= FLAT_FROM]
    if not later:
        return {"from_game": FLAT_FROM, "games_sampled": 0, "flat": None}
    base = later[0]
    growth = (max(later) - base) / base
    first, last = statistics.median(later[:50]), statistics.median(later[-50:])
    return {
        "from_game": FLAT_FROM,
        "games_sampled": len(later),
        "rss_kib_at_start": base,
        "rss_kib_max": max(later),
        "rss_kib_min": min(later),
        "rss_kib_last": later[-1],
        "growth": round(growth, 4),
        "flat": growth <= FLAT_TOLERANCE,
        "median_first_50": first,
        "median_last_50": last,
        "steady_growth": round((last - first) / first, 4),
        "steady_flat": (last - first) / first <= FLAT_TOLERANCE,
    }


class Sampler(threading.Thread):
    """Reads the RSS of ``pid`` every ``period`` seconds; :meth:`take` returns the peak and floor since the last call."""

    def __init__(self, pid: int, period: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.pid, self.period = pid, period
        self.lock = threading.Lock()
        self.samples: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.period):
            kib = resident_kib(self.pid)
            if kib is None:
                return
            with self.lock:
                self.samples.append(kib)

    def take(self) -> tuple[int | None, int | None]:
        with self.lock:
            samples, self.samples = self.samples, []
        return (max(samples), min(samples)) if samples else (None, None)


def recorded_games(recording: Path) -> list[dict[str, Any]]:
    """The recording's per-game records (waits, retries, rereads ...), in order."""
    path = recording / "decisions.jsonl"
    if not path.exists():
        return []
    games = []
    for line in path.read_text().splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by a stop
        if obj.get("type") == "game":
            games.append(obj)
    return games


def slow_game_figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """How often the game was late to show a batch and had to be asked, and how often cells were clicked again."""
    longest = [g.get("longest_wait", 0.0) for g in games if g.get("waits")]
    return {
        "games": len(games),
        "waits": sum(g.get("waits", 0) for g in games),
        "games_with_waits": len(longest),
        "longest_wait_s": max(longest) if longest else None,
        "median_longest_wait_s": statistics.median(longest) if longest else None,
        "retries": sum(g.get("retries", 0) for g in games),
        "rereads": sum(g.get("rereads", 0) for g in games),
    }


def audit(recording: Path, env: dict[str, str]) -> dict[str, Any]:
    """`autoplay replay REC --audit --json`'s verdict on the recording (exit code and its report)."""
    proc = subprocess.run(
        [sys.executable, "-m", "autoplay", "replay", str(recording), "--audit", "--json"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        report = {"output": proc.stdout[-2000:]}
    return {"exit_code": proc.returncode, "stderr": proc.stderr.strip()[-500:], "report": report}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="gnome-mines", choices=["gnome-mines", "xdemineur"])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--out-dir", type=Path, required=True, help="soak.json and the recording go here")
    args = ap.parse_args()

    out = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    recording = out / "recording"
    state: dict[str, Any] = {
        "command": f"python benchmarks/soak.py {' '.join(sys.argv[1:])}",
        "game": args.game,
        "games_wanted": args.games,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "games": [],
        "rss_kib": [],
        "rss_kib_peak": [],  # (game, largest 0.25 s sample during it)
        "exit_code": None,
        "stderr": "",
    }

    def save() -> None:
        state["rss"] = flatness([(g, kib) for g, kib in state["rss_kib"]])
        state["rss_peaks"] = flatness([(g, kib) for g, kib in state["rss_kib_peak"]])
        wins = sum(g["result"] == "won" for g in state["games"])
        stopped_on_request = state.get("stopped_by_signal", False)
        aborted = state["exit_code"] not in (None, 0) and not stopped_on_request
        state["summary"] = {"games": len(state["games"]), "wins": wins, "aborted": aborted}
        (out / "soak.json").write_text(json.dumps(state, indent=1) + "\n")

    stop_requested = False
    play: subprocess.Popen[str] | None = None

    def request_stop(signum: int, _frame: object) -> None:
        nonlocal stop_requested
        stop_requested = True
        if play is not None and play.poll() is None:
            play.send_signal(signal.SIGINT)  # Ctrl-C: the session stops, records what it has and exits 130

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    started = time.monotonic()
    with VirtualDisplay() as server, launch_game(args.game, server.name, preset="expert") as running:
        env = {**os.environ, "DISPLAY": server.name, "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", "autoplay", "play", "--skin", args.game, "--games", str(args.games)]
        cmd += ["--display", server.name, "--mines", str(running.mines), "--record", str(recording)]
        play = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        state["rss_kib_at_launch"] = resident_kib(play.pid)
        sampler = Sampler(play.pid)
        sampler.start()
        errors: list[str] = []
        assert play.stdout is not None and play.stderr is not None
        drain = threading.Thread(target=lambda: errors.extend(play.stderr), daemon=True)  # a full pipe would block
        drain.start()
        for line in play.stdout:
            match = GAME_LINE.match(line)
            if not match:
                continue
            number, result, seconds = int(match[1]), match[2], float(match[3])
            kib = resident_kib(play.pid)
            peak, _floor = sampler.take()
            state["games"].append({"game": number, "result": result, "seconds": seconds})
            if kib is not None:
                state["rss_kib"].append((number, kib))
                state["rss_kib_peak"].append((number, max(kib, peak or 0)))
            state["wall_seconds"] = round(time.monotonic() - started, 1)
            save()
        state["exit_code"] = play.wait()
        sampler.done.set()
        drain.join(5)
        state["stderr"] = "".join(errors).strip()[-2000:]
        state["stopped_by_signal"] = stop_requested
    state["wall_seconds"] = round(time.monotonic() - started, 1)
    save()
    games = recorded_games(recording)
    state["slow_game"] = slow_game_figures(games)
    # The session's own reading, taken between games after its freed memory went back: no sampling delay.
    state["rss_in_process"] = flatness([(g["game"], g["rss_kib"]) for g in games if g.get("rss_kib")])
    state["audit"] = audit(recording, {**os.environ, "PYTHONPATH": str(ROOT)})
    save()
    keys = ("game", "summary", "rss", "rss_in_process", "rss_peaks", "slow_game", "exit_code", "stderr")
    print(json.dumps({k: state[k] for k in keys}, indent=1))
    return 0 if state["exit_code"] == 0 and state["audit"]["exit_code"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
