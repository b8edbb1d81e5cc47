"""Looks nobody tuned for: the README's calibrate-then-play flow on Minesweeper skins drawn at random from a seed.

Usage: PYTHONPATH=. python benchmarks/unseen_looks.py --looks 1 2 3 [--games 20] [--play-tile 24] [--out F.md]
       PYTHONPATH=. python benchmarks/unseen_looks.py --looks 1 2 3 --record-root DIR --audit-only

autoplay must read games whose look it has never seen, and the real clones at hand are few; each was looked at
while the code was written, so they can no longer tell whether a rule is general or fitted to them.  This script
uses ``benchmarks/tk_clone.py``, a complete Minesweeper whose every visual choice (tile size, grid lines, covered
style, digit font and colours, mine and flag glyphs, popups over the board) comes from a seed, so any number of
looks unseen by the code can be drawn.  For each look it runs exactly what a user runs -- ``autoplay calibrate
--live`` then ``autoplay play --record`` -- on a fresh Xvfb, and judges the result by the game's own record, not by
the bot's: the clone logs every game's true mine layout and how each game really ended, so every cell read in
every recorded frame is compared with the truth (not with the bot's own reading of the final board), each game's
result as the bot saw it with the result the game logged, and every move called certain with the layout.  Each
game's layout is also played again in the simulator from the game's first recorded board: a game that ends there
otherwise than it did live lost (or won) something to the eyes or the hands.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from new_games import last_line, play_session, run_command  # benchmarks/new_games.py, beside this script
from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.model import DIGITS, EXPLODED, FLAG, MINE, UNKNOWN_CHARS, Board, neighbour_table
from autoplay.control.window import find_window
from autoplay.control.xserver import VirtualDisplay
from autoplay.insight.layout import LaidGame
from autoplay.replay.recording import Recording, read_recording
from autoplay.sim.runner import GameSpec, play_out, tracked_solver
from autoplay.sim.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
CLONE = Path(__file__).resolve().parent / "tk_clone.py"
ROWS, COLS, MINES = 16, 30, 99
#: What a user would pass for this game: an opening at the first click, a win when every safe cell is open, 'n'.
USER_OPTIONS = ["--first-click", "zero", "--win", "reveal", "--new-game-key", "n"]


@dataclass
class CloneGame:
    """One game as the clone itself logged it."""

    mines: frozenset[int]
    result: str | None  # "won", "lost", or None when it never ended


@dataclass
class LookRun:
    look: int
    calibrate_exit: int = 0
    calibrate_seconds: float = 0.0
    calibrate_said: str = ""
    first_game_seconds: float | None = None
    bot_games: list[dict] = field(default_factory=list)
    stops: list[str] = field(default_factory=list)
    # per play session: the recording folder and the clone's log of it
    sessions: list[tuple[Path, Path]] = field(default_factory=list)


def read_clone_log(path: Path) -> list[CloneGame]:
    """Games in the order the clone dealt them (games never dealt -- no first click -- are left out)."""
    games: list[CloneGame] = []
    current: dict[int, CloneGame] = {}
    if not path.is_file():
        return games
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "layout":
            game = CloneGame(frozenset(event["mines"]), None)
            current[event["game"]] = game
            games.append(game)
        elif event["event"] == "end" and event["game"] in current:
            current[event["game"]].result = event["result"]
    return games


@dataclass
class TruthAudit:
    games: int = 0
    cells: int = 0
    misreads: list[str] = field(default_factory=list)
    wrong_certain: list[str] = field(default_factory=list)
    result_mismatches: list[str] = field(default_factory=list)
    misaligned: list[str] = field(default_factory=list)
    replayed: int = 0  # games replayed in the simulator on the layout the clone dealt
    replay_differing: list[str] = field(default_factory=list)


def truth_of(mines: frozenset[int]) -> tuple[str, ...]:
    neighbours = neighbour_table(ROWS, COLS)
    return tuple(MINE if i in mines else str(sum(n in mines for n in neighbours[i])) for i in range(ROWS * COLS))


def audit_session(recording_dir: Path, clone_log: Path, audit: TruthAudit) -> None:
    """Every read cell, certain move and result of one play session against the clone's own log."""
    if not (recording_dir / "decisions.jsonl").is_file():
        return
    recording = read_recording(recording_dir)
    dealt = read_clone_log(clone_log)
    bot_games = sorted({d.game for d in recording.decisions})
    if len(bot_games) > len(dealt):
        audit.misaligned.append(
            f"{recording_dir.name}: bot played {len(bot_games)} games, the clone dealt {len(dealt)}"
        )
        return
    truth_by_game = {g: truth_of(dealt[k].mines) for k, g in enumerate(bot_games)}
    result_by_game = {g: dealt[k].result for k, g in enumerate(bot_games)}
    for decision in recording.decisions:
        truth = truth_by_game[decision.game]
        # the first decision of a game may be on the fresh board, before the clone dealt: nothing to check there
        where = f"{recording_dir.name} game {decision.game} {decision.frame.name}"
        audit_board(decision.board, set(decision.unknown), truth, where, audit)
        if not decision.guess:
            for move in decision.moves:
                mine = truth[move.row * COLS + move.col] == MINE
                if (move.action == "reveal") == mine:
                    audit.wrong_certain.append(
                        f"{recording_dir.name} game {decision.game} {move.action} ({move.row},{move.col})"
                    )
    for game in recording.games:
        # The board the game ended on, as play took it (a win fills in unread cells as the mines it counted): a wrong
        # end (a game taken for won while the clone's went on) shows there first.
        text = game.details.get("final_board")
        if game.game in truth_by_game and isinstance(text, str):
            unknown = {(int(r), int(c)) for r, c in game.details.get("final_unknown") or []}
            where = f"{recording_dir.name} game {game.game} final board"
            audit_board(final_board(text, unknown), unknown, truth_by_game[game.game], where, audit)
    first_board = {}
    for decision in recording.decisions:
        first_board.setdefault(decision.game, decision.board)
    for game in recording.games:
        if game.game not in result_by_game:
            continue
        audit.games += 1
        logged = result_by_game[game.game]
        if game.result in ("won", "lost") and game.result != logged:
            audit.result_mismatches.append(f"{recording_dir.name} game {game.game}: bot {game.result}, game {logged}")
        if logged in ("won", "lost") and game.game in first_board:
            # the same layout, played from the same first board by the simulator: vision and hands cost nothing
            # when it ends as the game logged it (every game counts, lost ones too: the clone logs every layout)
            won = replay_true_layout(truth_by_game[game.game], first_board[game.game], recording)
            audit.replayed += 1
            if won != (logged == "won"):
                audit.replay_differing.append(
                    f"{recording_dir.name} game {game.game}: game {logged}, simulated {'won' if won else 'lost'}"
                )


def final_board(text: str, unknown: set[tuple[int, int]]) -> Board:
    """A game's recorded final board with its ``unknown`` cells covered: play writes its best guess of an unread cell
    there (a corner read as a 6 once), which is no reading and may be no board at all."""
    lines = text.splitlines()
    header = [line for line in lines if "=" in line]
    rows = [list(line) for line in lines if line and "=" not in line]
    for r, c in unknown:
        rows[r][c] = "."
    return Board.from_text("\n".join([*header, *("".join(row) for row in rows)]) + "\n")


def audit_board(
    board: Board, unknown: set[tuple[int, int]], truth: tuple[str, ...], where: str, audit: TruthAudit
) -> None:
    """Every cell of ``board`` read as something (not covered, not ``unknown``) against the clone's ``truth``: a flag
    or a mine must be a mine, a number the clone's number."""
    for index, cell in enumerate(board.cells):
        if cell in UNKNOWN_CHARS or divmod(index, COLS) in unknown:
            continue
        audit.cells += 1
        is_mine = cell in (FLAG, MINE, EXPLODED)
        ok = truth[index] == MINE if is_mine else (cell in DIGITS and truth[index] == cell)
        if not ok:
            r, c = divmod(index, COLS)
            audit.misreads.append(f"{where} ({r},{c}) read {cell!r} truth {truth[index]!r}")


def replay_true_layout(truth: tuple[str, ...], first: Board, recording: Recording) -> bool:
    """Play the layout ``truth`` in the simulator from the recorded first board on; True when it is won."""
    game = LaidGame([c == MINE for c in truth], ROWS, COLS, win=recording.rules.win)
    for index, cell in enumerate(first.cells):
        if cell in DIGITS:
            game.reveal(*divmod(index, COLS))
    spec = GameSpec(ROWS, COLS, MINES, recording.rules, recording.time_limit or 1.0)
    play_out(game, tracked_solver(game, spec))
    return game.won


class Clone:
    """The clone running on a display, with its log; ends its process group on exit."""

    def __init__(self, display: str, look: int, log: Path, tile: int | None) -> None:
        argv = [sys.executable, str(CLONE), "--look", str(look), "--log", str(log)]
        argv += ["--rows", str(ROWS), "--cols", str(COLS), "--mines", str(MINES)]
        argv += ["--tile", str(tile)] if tile else []
        self.process = subprocess.Popen(
            argv, env={**os.environ, "DISPLAY": display}, start_new_session=True, stdout=subprocess.DEVNULL
        )
        self.window = find_window(display, "tkmines", timeout=20)
        time.sleep(0.5)  # the first paint

    def __enter__(self) -> Clone:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=10)
        self.window.close_connection()


def run_look(look: int, games: int, record_root: Path, play_tile: int | None, calibration_games: int) -> LookRun:
    run = LookRun(look)
    home = record_root / f"look-{look}" / "home"
    home.mkdir(parents=True, exist_ok=True)
    base = [sys.executable, "-m", "autoplay"]
    name = f"look-{look}"
    with VirtualDisplay() as server:
        env = {**os.environ, "DISPLAY": server.name, "PYTHONPATH": str(ROOT), "AUTOPLAY_HOME": str(home)}
        with Clone(server.name, look, record_root / f"look-{look}" / "calibrate-clone.jsonl", None):
            calibrate = [*base, "calibrate", "--live", "--window-class", "tkmines", "--name", name]
            calibrate += ["--games", str(calibration_games), *USER_OPTIONS, "--mines", f"{ROWS}x{COLS}={MINES}"]
            calibrate += ["--out-root", str(home)]
            started = time.monotonic()
            proc = run_command(calibrate, env, timeout=600)
            run.calibrate_seconds = time.monotonic() - started
            run.calibrate_exit = proc.returncode
            run.calibrate_said = " / ".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])[:400]
            if proc.returncode != 0:
                run.stops.append(f"calibrate exit {proc.returncode}: {last_line(proc.stderr)}")
                return run
        while len(run.bot_games) + len(run.stops) < games:
            left = games - len(run.bot_games) - len(run.stops)
            number = len(run.sessions) + 1
            recording = record_root / f"look-{look}" / f"session-{number}"
            log = record_root / f"look-{look}" / f"session-{number}-clone.jsonl"
            run.sessions.append((recording, log))
            with Clone(server.name, look, log, play_tile):
                session = play_session(env, name, left, MINES, recording)
            if run.first_game_seconds is None and session.games:
                run.first_game_seconds = run.calibrate_seconds + session.games[0]["seconds"]
            run.bot_games += session.games
            if session.stop:
                run.stops.append(session.stop)
                if session.exit_code not in (2, 3) or len(run.stops) > 5:
                    break
    return run


def look_row(run: LookRun, audit: TruthAudit) -> str:
    ended = [g for g in run.bot_games if g["result"] in ("won", "lost")]
    wins = sum(g["result"] == "won" for g in ended)
    low, high = wilson_interval(wins, len(ended)) if ended else (0.0, 0.0)
    first = f"{run.first_game_seconds:.0f} s" if run.first_game_seconds is not None else "none"
    certain_losses = sum(g["result"] == "lost" and not g["last_was_guess"] for g in run.bot_games)
    unknown = max((g.get("unknown_cells", 0) for g in run.bot_games), default=0)
    return (
        f"| {run.look} | exit {run.calibrate_exit}, {run.calibrate_seconds:.0f} s | {first} | {len(ended)} "
        f"| {len(run.stops)} | {wins} ({100 * low:.0f}-{100 * high:.0f}%) | {certain_losses} | {audit.cells} "
        f"| **{len(audit.misreads)}** | **{len(audit.wrong_certain)}** | {len(audit.result_mismatches)} | {unknown} "
        f"| {audit.replayed - len(audit.replay_differing)} of {audit.replayed} |"
    )


def audit_recorded(root: Path, looks: list[int]) -> list[str]:
    """The audit columns again, for looks already played under ``root`` (``--audit-only``): nothing is played."""
    rows = [
        "| look | games audited | cells checked against the game's log | misread | wrong certain moves "
        "| results unlike the game's | layouts ending as in the simulator |",
        "|---|---|---|---|---|---|---|",
    ]
    for look in looks:
        audit = TruthAudit()
        folder = root / f"look-{look}"
        for recording in sorted(folder.glob("session-*[0-9]"), key=lambda p: int(p.name.split("-")[1])):
            audit_session(recording, folder / f"{recording.name}-clone.jsonl", audit)
        rows.append(
            f"| {look} | {audit.games} | {audit.cells} | **{len(audit.misreads)}** | **{len(audit.wrong_certain)}** "
            f"| {len(audit.result_mismatches)} | {audit.replayed - len(audit.replay_differing)} of {audit.replayed} |"
        )
        for label, items in (("misread", audit.misreads), ("layout replay", audit.replay_differing)):
            if items:
                print(f"look {look} {label} ({len(items)}): " + "; ".join(items[:5]), file=sys.stderr)
    return rows


def audit_notes(name: str, audit: TruthAudit) -> list[str]:
    """One line per kind of finding the audit made (the first five of each), named ``name``."""
    notes = []
    for label, items in (
        ("misread", audit.misreads),
        ("wrong certain move", audit.wrong_certain),
        ("result", audit.result_mismatches),
        ("misaligned", audit.misaligned),
        ("layout replay", audit.replay_differing),
    ):
        if items:
            notes.append(f"{name} {label} ({len(items)}): " + "; ".join(items[:5]))
    return notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--looks", type=int, nargs="+", required=True, help="look seeds for benchmarks/tk_clone.py")
    ap.add_argument("--games", type=int, default=20, help="games to play per look (default 20)")
    ap.add_argument("--calibration-games", type=int, default=3, help="calibrate --live --games (default 3)")
    ap.add_argument("--play-tile", type=int, help="play at this tile size instead of the look's own")
    ap.add_argument("--record-root", type=Path, help="where everything goes (default: a new temporary folder)")
    ap.add_argument("--out", help="append the markdown report to this file as well")
    ap.add_argument(
        "--audit-only", action="store_true", help="play nothing: audit the looks already recorded under --record-root"
    )
    args = ap.parse_args()
    if args.audit_only:
        if args.record_root is None or not args.record_root.is_dir():
            ap.error("--audit-only needs the --record-root of an earlier run")
        rows = audit_recorded(args.record_root, args.looks)
        emit(
            f"Command: `python benchmarks/unseen_looks.py {' '.join(sys.argv[1:])}`\n\n" + "\n".join(rows) + "\n",
            args.out,
        )
        return 0
    root = args.record_root or Path(tempfile.mkdtemp(prefix="unseen-looks-"))
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    rows, details = [], []
    for look in args.looks:
        run = run_look(look, args.games, root, args.play_tile, args.calibration_games)
        audit = TruthAudit()
        for recording, log in run.sessions:
            audit_session(recording, log, audit)
        rows.append(look_row(run, audit))
        notes = [f"look {look}: calibrate said: {run.calibrate_said}"]
        notes += [f"look {look} stop: {s}" for s in run.stops]
        notes += audit_notes(f"look {look}", audit)
        details += notes
        print(rows[-1], file=sys.stderr, flush=True)
    lines = [
        f"Command: `python benchmarks/unseen_looks.py {' '.join(sys.argv[1:])}`  ",
        f"{time.strftime('%Y-%m-%d')}, wall time {time.monotonic() - started:.0f} s, recordings in {root}",
        "",
        "| look | calibrate --live | to first game | games ended | stops | wins (95% CI) | losses on a certain move "
        "| cells checked against the game's log | misread | wrong certain moves | results unlike the game's "
        "| most unread cells in a frame | layouts ending as in the simulator |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *details,
    ]
    emit("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
