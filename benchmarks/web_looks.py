"""Browser Minesweeper at any scale: the README's calibrate-then-play flow on the web clone, judged by the page's log.

Usage: PYTHONPATH=. python benchmarks/web_looks.py --browsers chromium firefox --scales 1 1.25 1.5 --looks 1 2 3
                                                   [--games 10] [--calibration-games 3] [--burners 2]
                                                   [--taught-at 1] [--record-root DIR] [--out F.md]
       PYTHONPATH=. python benchmarks/web_looks.py ... --record-root DIR --audit-only

Most people play Minesweeper in a web page, on screens scaled to 125% or 150%.  ``benchmarks/web_clone.py`` serves a
web Minesweeper whose whole look (DOM tiles or a canvas, sprites, CSS borders, cascades over several frames, fades,
a pressed look) comes from a seed, and logs every game's true layout and end.  For each browser, scale and look this
script starts a private Xvfb, the page in a private browser profile (``autoplay.control.games.launch_page``, as
``autoplay launch`` does), runs ``autoplay calibrate --live`` on it and then ``autoplay play --record``, and audits
every recorded frame against the page's log with the same audit as ``unseen_looks.py``: every cell read, every move
called certain, every result.  ``--burners N`` keeps N busy processes running beside the browser while it plays, so
that paints come late; ``--taught-at S`` calibrates at scale S and plays at each ``--scales`` value (a skin taught
at 100% playing a page at 125%).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from new_games import last_line, play_session, run_command  # benchmarks/, beside this script
from report import emit
from unseen_looks import MINES, TruthAudit, audit_notes, audit_session
from web_clone import log_settled, serve, stop

from autoplay.control.games import launch_page
from autoplay.control.xserver import VirtualDisplay
from autoplay.sim.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
ROWS, COLS = 16, 30
TITLE = "Web Mines"
#: What a user would pass for this page: an opening at the first click, a win when every safe cell is open, F2.
USER_OPTIONS = ["--first-click", "zero", "--win", "reveal", "--new-game-key", "F2", "--mines", f"{ROWS}x{COLS}={MINES}"]
#: Xvfb's screen: room for the page's window at 150%.
SCREEN = (1920, 1200)
#: The screen at larger scales: 200% is what a 4K screen is set to, and the page's window grown to 200% does not
#: fit on 1920x1200 (its board would be cut off, which play refuses with exit 3, as it should).
LARGE_SCREEN = (3840, 2160)


@dataclass
class Case:
    browser: str
    scale: float
    look: int
    taught_at: float | None = None

    @property
    def name(self) -> str:
        taught = f"-taught{self.taught_at:g}" if self.taught_at is not None else ""
        return f"{self.browser}-{self.scale:g}{taught}-look{self.look}"


def screen_for(case: Case) -> tuple[int, int]:
    """The screen a user at the case's scales would have: :data:`SCREEN` up to 150%, :data:`LARGE_SCREEN` beyond."""
    largest = max(case.scale, case.taught_at or 0.0)
    return SCREEN if largest <= 1.5 else LARGE_SCREEN


@dataclass
class CaseRun:
    case: Case
    calibrate_exit: int = 0
    calibrate_seconds: float = 0.0
    calibrate_said: str = ""
    games: list[dict] = field(default_factory=list)
    stops: list[str] = field(default_factory=list)
    sessions: list[tuple[Path, Path]] = field(default_factory=list)  # recording folder, the page's log of it


def log_events(log: Path) -> list[dict]:
    """The page's log so far, one event per line."""
    if not log.is_file():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def slice_log(log: Path, skip: int, out: Path) -> None:
    """The page's log after its first ``skip`` events (calibration's, earlier sessions'), so that the audit pairs
    the recording's games with the page's in order.  Positions, not game numbers: a relaunched page counts its
    games from 1 again."""
    out.write_text("".join(json.dumps(e) + "\n" for e in log_events(log)[skip:]))


def window_for(scale: float, screen: tuple[int, int] = SCREEN) -> tuple[int, int]:
    """The browser window for ``scale``: a 1100x800 window at 100%, grown with the scale as a user would, so that
    the page's 30x16 board fits at 150% too (on the 1920x1200 screen) and at 200% (on the 4K one)."""
    return min(screen[0], round(1100 * scale)), min(screen[1] - 40, round(800 * scale))


@contextlib.contextmanager
def burners(count: int) -> Iterator[None]:
    """``count`` processes that keep a core busy each, for as long as the block runs."""
    procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], stdout=subprocess.DEVNULL) for _ in range(count)
    ]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def run_case(case: Case, games: int, calibration_games: int, root: Path, burn: int) -> CaseRun:
    run = CaseRun(case)
    folder = root / case.name
    home = folder / "home"
    home.mkdir(parents=True, exist_ok=True)
    log = folder / "page.jsonl"
    server, base = serve(log)
    url = f"{base}?look={case.look}"
    name = f"web-{case.look}"
    try:
        screen = screen_for(case)
        with VirtualDisplay(*screen) as display:
            env = {**os.environ, "DISPLAY": display.name, "PYTHONPATH": str(ROOT), "AUTOPLAY_HOME": str(home)}
            base_cmd = [sys.executable, "-m", "autoplay"]
            teach_scale = case.taught_at if case.taught_at is not None else case.scale
            with launch_page(
                case.browser, display.name, url, scale=teach_scale, window=window_for(teach_scale, screen)
            ):
                calibrate = [*base_cmd, "calibrate", "--live", "--window-title", TITLE, "--name", name]
                calibrate += ["--games", str(calibration_games), *USER_OPTIONS, "--out-root", str(home)]
                started = time.monotonic()
                proc = run_command(calibrate, env, timeout=900)
                run.calibrate_seconds = time.monotonic() - started
                run.calibrate_exit = proc.returncode
                run.calibrate_said = " / ".join((proc.stdout + proc.stderr).strip().splitlines()[-2:])[:300]
            if proc.returncode != 0:
                run.stops.append(f"calibrate exit {proc.returncode}: {last_line(proc.stderr)}")
                return run
            with (
                launch_page(case.browser, display.name, url, scale=case.scale, window=window_for(case.scale, screen)),
                burners(burn),
            ):
                while len(run.games) + len(run.stops) < games:
                    number = len(run.sessions) + 1
                    recording = folder / f"session-{number}"
                    skip = len(log_events(log))
                    session = play_session(env, name, games - len(run.games) - len(run.stops), MINES, recording)
                    session_log = folder / f"session-{number}-page.jsonl"
                    log_settled(log)  # the page's last events (the last game's end) may still be on their way
                    slice_log(log, skip, session_log)
                    run.sessions.append((recording, session_log))
                    run.games += session.games
                    if session.stop:
                        run.stops.append(session.stop)
                        if session.exit_code not in (2, 3) or len(run.stops) > 3:
                            break
    finally:
        stop(server)
    return run


def case_row(run: CaseRun, audit: TruthAudit) -> str:
    ended = [g for g in run.games if g["result"] in ("won", "lost")]
    wins = sum(g["result"] == "won" for g in ended)
    low, high = wilson_interval(wins, len(ended)) if ended else (0.0, 0.0)
    certain_losses = sum(g["result"] == "lost" and not g["last_was_guess"] for g in run.games)
    seconds = sorted(g["seconds"] for g in ended)
    median = f"{seconds[len(seconds) // 2]:.1f} s" if seconds else "-"
    c = run.case
    return (
        f"| {c.browser} | {c.scale:g}{'' if c.taught_at is None else f' (taught at {c.taught_at:g})'} | {c.look} "
        f"| exit {run.calibrate_exit}, {run.calibrate_seconds:.0f} s | {len(ended)} | **{len(run.stops)}** "
        f"| {wins} ({100 * low:.0f}-{100 * high:.0f}%) | **{certain_losses}** | {audit.cells} | **{len(audit.misreads)}** "
        f"| **{len(audit.wrong_certain)}** | {len(audit.result_mismatches)} | {median} |"
    )


HEADER = [
    "| browser | scale | look | calibrate --live | games ended | stops | wins (95% CI) | losses on a certain move "
    "| cells checked against the page's log | misread | wrong certain moves | results unlike the page's "
    "| median s per game |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]


def audit_run(run: CaseRun) -> tuple[TruthAudit, list[str]]:
    audit = TruthAudit()
    for recording, log in run.sessions:
        audit_session(recording, log, audit)
    notes = [f"{run.case.name}: calibrate said: {run.calibrate_said}"]
    notes += [f"{run.case.name} stop: {s}" for s in run.stops]
    return audit, notes + audit_notes(run.case.name, audit)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--browsers", nargs="+", default=["chromium", "firefox"], choices=["chromium", "firefox"])
    ap.add_argument("--scales", type=float, nargs="+", default=[1.0], help="device scale factors (default 1)")
    ap.add_argument("--looks", type=int, nargs="+", required=True, help="look seeds of the web clone")
    ap.add_argument("--games", type=int, default=10, help="games to play per case (default 10)")
    ap.add_argument("--calibration-games", type=int, default=3, help="calibrate --live --games (default 3)")
    ap.add_argument("--burners", type=int, default=0, help="busy processes beside the browser during play")
    ap.add_argument("--taught-at", type=float, help="calibrate at this scale, play at each --scales value")
    ap.add_argument("--record-root", type=Path, help="where everything goes (default: a new temporary folder)")
    ap.add_argument("--out", help="append the markdown report to this file as well")
    args = ap.parse_args()
    root = args.record_root or Path(tempfile.mkdtemp(prefix="web-looks-"))
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    rows, details = [], []
    for browser in args.browsers:
        for scale in args.scales:
            for look in args.looks:
                run = run_case(Case(browser, scale, look, args.taught_at), args.games, args.calibration_games, root,
                               args.burners)  # fmt: skip
                audit, notes = audit_run(run)
                rows.append(case_row(run, audit))
                details += notes
                print(rows[-1], file=sys.stderr, flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    lines = [
        f"Command: `python benchmarks/web_looks.py {' '.join(sys.argv[1:])}`  ",
        f"{time.strftime('%Y-%m-%d')}, commit {commit.stdout.strip()}, wall time {time.monotonic() - started:.0f} s, "
        f"recordings in {root}",
        "",
        *HEADER,
        *rows,
        "",
        *details,
    ]
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
