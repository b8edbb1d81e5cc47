"""Soak with faults: many live expert games, a random fault every 25 games, and a supervisor that starts play again.

Usage: python benchmarks/fault_soak.py --games 500 --out-dir runs/fault-soak [--game xdemineur] [--every 25]

One Xvfb, one real game (xdemineur by default: the fastest shipped game) and the X server's own RECORD witness of
every button press (tests/e2e/x_witness.py).  The supervisor runs the documented command, `autoplay play --games
K --record DIR`, as a session of K = 25 + 1 games; after the 25th game's line it waits for a few presses of the
26th and makes one fault of a kind drawn at random:

- ``cover``: a window of another program over part of the board (it logs any press it gets);
- ``move``: the game's window moved by 120 x 90 px (moved back before the next session);
- ``kill``: the game killed (SIGKILL) and a new one started for the next session;
- ``pointer``: the pointer moved onto the board, as a hand on the mouse;
- ``burner``: two busy processes started beside the game; they run through the next session too.

Each fault is judged by what the user would see and by the X server: the four stopping faults must end play with
exit 4 and exactly one line on stderr (no traceback); the burner must not stop it (exit 0).  No press may land
anywhere but the board (or xdemineur's face, which starts a new game), replayed in the server's order against the
window's recorded moves; the covering window must receive none.  Every session's recording is audited
(`autoplay replay DIR --audit --json`): each finished game's cells against the layout its end showed.  The play
process's resident memory is sampled after every game line.  OUT/fault_soak.json is rewritten after every session,
so a run stopped early keeps its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from soak import GAME_LINE, audit  # noqa: E402

from autoplay.play.memory import resident_kib  # noqa: E402 - after the path set-up, for runs from a clone
from tests.e2e.fault_harness import Table, presses_off_board, random_cover_rect, read_events  # noqa: E402

KINDS = ("cover", "move", "kill", "pointer", "burner")
#: The exit code each fault must end play with.
EXPECTED_EXIT = {"cover": 4, "move": 4, "kill": 4, "pointer": 4, "burner": 0}
BURNERS = 2
SESSION_TIMEOUT = 900.0  # seconds for one session of 26 games, generous for a loaded machine


@dataclass
class Session:
    """One run of `autoplay play`: the fault made in it and what the user and the X server saw."""

    number: int
    fault: str | None
    games_wanted: int
    games: list[dict[str, Any]] = field(default_factory=list)  # {"game", "result", "seconds", "rss_kib"}
    fault_at_game: int | None = None  # the game in progress when the fault was made
    exit_code: int | None = None
    stderr_lines: list[str] = field(default_factory=list)
    presses: int = 0
    off_board: int = 0
    cover_presses: int = 0
    audit_exit: int | None = None
    audit_games: int | None = None
    audit_misread: int | None = None
    wall_seconds: float = 0.0

    @property
    def as_expected(self) -> bool:
        """The documented exit code, at most one line on stderr and no traceback, no press off the board."""
        wanted = EXPECTED_EXIT[self.fault] if self.fault and self.fault_at_game is not None else 0
        said = [line for line in self.stderr_lines if not line.startswith("recording: ")]  # a session's last word
        lines_ok = len(said) == (1 if wanted else 0) and not any("Traceback" in line for line in said)
        return self.exit_code == wanted and lines_ok and self.off_board == 0 and self.cover_presses == 0


def burner() -> subprocess.Popen[bytes]:
    """A process that keeps one CPU busy until it is killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def audit_figures(recording: Path) -> tuple[int, int | None, int | None]:
    """The audit's exit code, the games it checked, and its misread cells plus wrong certain moves (None: unsaid)."""
    verdict = audit(recording, {**os.environ, "PYTHONPATH": str(ROOT)})
    report = verdict.get("report", {})
    games, misread = report.get("games_audited"), report.get("misreads")
    wrong = report.get("wrong_certain_moves")
    known = isinstance(misread, int) and isinstance(wrong, int)
    return verdict["exit_code"], games if isinstance(games, int) else None, misread + wrong if known else None


def run_session(table: Table, session: Session, recording: Path, rng: random.Random, burners: list[Any]) -> None:
    """Play one session, make its fault after game ``games_wanted - 1`` has ended, and judge it."""
    game = table.game
    assert game is not None
    window = game.window
    start_rect = window.rect
    start_events = len(read_events(table.record_log))
    cmd = [sys.executable, "-m", "autoplay", "play", "--skin", table.game_name, "--games", str(session.games_wanted)]
    cmd += ["--display", table.server.name, "--mines", str(game.mines), "--record", str(recording)]
    began = time.monotonic()
    play = subprocess.Popen(cmd, env=table.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors: list[str] = []
    assert play.stdout is not None and play.stderr is not None
    drain = threading.Thread(target=lambda: errors.extend(play.stderr), daemon=True)  # type: ignore[arg-type]
    drain.start()
    ended = threading.Event()
    fault_game = session.games_wanted if session.fault else None
    cover_log: Path | None = None

    def read_games() -> None:
        assert play.stdout is not None
        for line in play.stdout:
            match = GAME_LINE.match(line)
            if match:
                session.games.append(
                    {
                        "game": int(match[1]),
                        "result": match[2],
                        "seconds": float(match[3]),
                        "rss_kib": resident_kib(play.pid),
                    }
                )
        ended.set()

    reader = threading.Thread(target=read_games, daemon=True)
    reader.start()
    try:
        if fault_game is not None:
            while len(session.games) < fault_game - 1 and not ended.wait(0.05):
                if time.monotonic() - began > SESSION_TIMEOUT:
                    break
            # a few presses into the game the fault is for, then a random moment
            if table.wait_for_presses(rng.randint(2, 12), timeout=120, process=play):
                time.sleep(rng.uniform(0.0, 0.8))
                if play.poll() is None:
                    session.fault_at_game = len(session.games) + 1
                    cover_log = make_fault(table, session.fault or "", rng, burners)
        play.wait(timeout=max(1.0, SESSION_TIMEOUT - (time.monotonic() - began)))
    except subprocess.TimeoutExpired:
        play.send_signal(signal.SIGINT)
        play.wait(timeout=30)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
    reader.join(10)
    drain.join(5)
    session.wall_seconds = round(time.monotonic() - began, 1)
    session.exit_code = play.returncode
    session.stderr_lines = "".join(errors).strip().splitlines()
    table.remove_covers()
    time.sleep(0.3)  # the witness writes the last of the stream
    events = read_events(table.record_log)[start_events:]
    session.presses = sum(e["ev"] == "press" for e in events)
    also = (table.face,) if table.face else ()
    session.off_board = len(presses_off_board(events, window.id, start_rect, table.board_in_window, *also))
    if cover_log is not None:
        session.cover_presses = sum(e["ev"] == "cover_press" for e in read_events(cover_log))
    session.audit_exit, session.audit_games, session.audit_misread = audit_figures(recording)


def make_fault(table: Table, kind: str, rng: random.Random, burners: list[Any]) -> Path | None:
    """Make one fault of ``kind`` now; returns a covering window's press log when it made one."""
    game = table.game
    assert game is not None
    if kind == "cover":
        return table.cover(random_cover_rect(table.board, rng))[1]
    if kind == "move":
        window = game.window
        table.xdotool("windowmove", "--sync", str(window.id), str(window.x + 120), str(window.y + 90))
    elif kind == "kill":
        game.process.kill()
    elif kind == "pointer":
        x, y, w, h = table.board
        table.xdotool("mousemove", str(x + rng.randint(5, w - 5)), str(y + rng.randint(5, h - 5)))
    elif kind == "burner":
        burners.extend(burner() for _ in range(BURNERS))
    return None


def after_fault(table: Table, kind: str | None) -> None:
    """Put the table back for the next session: a new game for a killed one, a moved window back in place."""
    if kind == "kill":
        table.relaunch()
    elif kind == "move" and table.game is not None:
        window = table.game.window
        table.xdotool("windowmove", "--sync", str(window.id), str(window.x), str(window.y))


def summary(sessions: list[Session], started: float) -> dict[str, Any]:
    """The soak's figures: games, faults by kind and how each ended, memory, audit."""
    games = [g for s in sessions for g in s.games]
    by_kind: dict[str, dict[str, int]] = {}
    for s in sessions:
        if s.fault and s.fault_at_game is not None:
            entry = by_kind.setdefault(s.fault, {"made": 0, "as_expected": 0})
            entry["made"] += 1
            entry["as_expected"] += int(s.as_expected)
    rss = [g["rss_kib"] for g in games if g.get("rss_kib")]
    per_session_growth = [
        (s.games[-1]["rss_kib"] - s.games[0]["rss_kib"]) / s.games[0]["rss_kib"]
        for s in sessions
        if len(s.games) >= 2 and s.games[0].get("rss_kib") and s.games[-1].get("rss_kib")
    ]
    return {
        "games": len(games),
        "won": sum(g["result"] == "won" for g in games),
        "median_seconds": statistics.median([g["seconds"] for g in games]) if games else None,
        "sessions": len(sessions),
        "faults": by_kind,
        "sessions_not_as_expected": [s.number for s in sessions if not s.as_expected],
        "presses": sum(s.presses for s in sessions),
        "presses_off_board": sum(s.off_board for s in sessions),
        "cover_presses": sum(s.cover_presses for s in sessions),
        "audits_failed": [s.number for s in sessions if s.audit_exit != 0],
        "audited_games": sum(s.audit_games or 0 for s in sessions),
        "misread_cells_and_wrong_certain_moves": sum(s.audit_misread or 0 for s in sessions),
        "rss_kib_median": statistics.median(rss) if rss else None,
        "rss_kib_max": max(rss) if rss else None,
        "rss_growth_in_session_max": round(max(per_session_growth), 4) if per_session_growth else None,
        "wall_seconds": round(time.monotonic() - started, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="xdemineur", choices=["xdemineur", "gnome-mines"])
    ap.add_argument("--games", type=int, default=500, help="games to play in all (default 500)")
    ap.add_argument("--every", type=int, default=25, help="games between faults (default 25)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--out-dir", type=Path, required=True, help="fault_soak.json and the recordings go here")
    args = ap.parse_args()
    out: Path = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    sessions: list[Session] = []
    burners: list[subprocess.Popen[bytes]] = []
    started = time.monotonic()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    command = f"python benchmarks/fault_soak.py {' '.join(sys.argv[1:])}"

    def save() -> None:
        state: dict[str, Any] = {"command": command, "summary": summary(sessions, started)}
        state["sessions"] = [{**asdict(s), "as_expected": s.as_expected} for s in sessions]
        (out / "fault_soak.json").write_text(json.dumps(state, indent=1) + "\n")

    (out / "table").mkdir(exist_ok=True)
    table = Table(out / "table", game=args.game)
    try:
        played = 0
        while played < args.games and not stop.is_set():
            left = args.games - played
            kind = rng.choice(KINDS) if left > args.every else None
            session = Session(len(sessions) + 1, kind, args.every + 1 if kind else left)
            run_session(table, session, out / f"session-{session.number:03d}", rng, burners)
            sessions.append(session)
            played += len(session.games)
            if kind != "burner":
                for process in burners:
                    process.kill()
                burners.clear()
            after_fault(table, kind if session.fault_at_game is not None else None)
            save()
            print(
                f"session {session.number}: {len(session.games)} games, fault {kind} at game {session.fault_at_game}, "
                f"exit {session.exit_code}, off-board presses {session.off_board}, audit {session.audit_exit}, "
                f"as expected: {session.as_expected}",
                flush=True,
            )
            if not session.games and session.fault_at_game is None:
                print("a session played no game: stopping", file=sys.stderr)
                break
    finally:
        for process in burners:
            process.kill()
        table.close()
        save()
    result = summary(sessions, started)
    print(json.dumps(result, indent=1))
    ok = not result["sessions_not_as_expected"] and not result["audits_failed"] and result["presses_off_board"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
