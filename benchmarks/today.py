"""Today's figures: re-measure the table at the top of BENCHMARKS.md by running the existing benchmarks.

Usage: python benchmarks/today.py [--quick] [--only ROW ...] [--out FILE] [--jobs N] [--work DIR] [--list]

Every row of the table is filled by one of the project's own commands (``autoplay simulate`` or a script in
``benchmarks/``), run as a subprocess with its own arguments; this script only chooses the sample sizes, reads the
figure out of what the command printed, and writes the table with the command, today's commit and date per row.
Without ``--quick`` the sample sizes are those of the table in BENCHMARKS.md (hours in all, most of it the 200,000
expert games per rule and the live runs); ``--quick`` is a smoke run of a few minutes whose intervals are wide.
Rows that need a live game (Xvfb and the real game or browser) are skipped with a note when a program is missing.
Progress goes to stderr; the table goes to stdout and, with ``--out``, to a file (overwritten).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = "benchmarks"

#: How the command column shows the interpreter: what a reader types, not this machine's venv path.
SHOWN_PREFIX = {"-m autoplay": "autoplay", BENCH: f"python {BENCH}"}


@dataclass(frozen=True)
class Row:
    """One figure of the table: its key for ``--only``, what it is, and the published bar beside it."""

    key: str
    figure: str
    anchor: str


@dataclass(frozen=True)
class Context:
    """What a measurement's commands depend on besides quick or full: worker processes and a scratch folder."""

    quick: bool
    jobs: int
    work: Path


@dataclass(frozen=True)
class Measurement:
    """Commands whose outputs fill some rows: ``commands`` builds the argument lists (after ``python``),
    ``parse`` turns the commands' standard outputs into a value per row key, ``needs`` lists the programs
    the commands drive (a missing one skips the rows)."""

    name: str
    rows: tuple[str, ...]
    commands: Callable[[Context], list[list[str]]]
    parse: Callable[[list[str]], dict[str, str]]
    needs: Callable[[], tuple[str, ...]] = lambda: ()


@dataclass(frozen=True)
class Result:
    """A filled row, as the table prints it."""

    row: Row
    value: str
    command: str
    commit: str
    date: str


_LIVE = "target < 10 s"
_FLOW = "target: first game < 3 min"
_SPEED = "PSEQ (C++) ~640 games/s per core; untuned pure-Python exact solver ~5; target ≥ 50"
_TOOLLIB = "ms_toollib = 1.00; target ≤ 1.0 median, ≤ 1.5 p99"
#: The rows in the order and words of the table at the top of BENCHMARKS.md.
ROWS: tuple[Row, ...] = (
    Row("expert-safe", "win rate, expert 30x16/99, first cell safe (corner start)", "PSEQ 39.62%, DavidNHill 41.13%"),
    Row("expert-zero", "win rate, expert, opening start (3,3)", "PSEQ 52.78%, DavidNHill 54.3%"),
    Row("intermediate-safe", "win rate, intermediate 16x16/40, first cell safe", "PSEQ 78.12%"),
    Row("intermediate-zero", "win rate, intermediate, opening start (2,2)", "PSEQ 88.93%"),
    Row("beginner-safe", "win rate, beginner 9x9/10, first cell safe", "PSEQ 91.68%"),
    Row("beginner-zero", "win rate, beginner, opening start (2,2)", "PSEQ 97.15%"),
    Row("speed-cpu", "simulator, expert safe, depth 3 (default), compiled: games per CPU-second", _SPEED),
    Row(
        "sim-speed",
        "`autoplay simulate --preset expert --games 600 --jobs 1`, default depth 3, compiled: games per second",
        "issue 29's target ≥ 150",
    ),
    Row("speed-depths", "simulator, expert safe, one process each: games/s, depth 3 → depth 2", "as above"),
    Row(
        "decision-time",
        "decision through `choose_move`, expert safe, depth 3 (CPU): median / p99",
        "target: median < 5 ms, p99 < 200 ms",
    ),
    Row("engine-toollib", "exact engine against ms_toollib (Rust), engine positions: median time", _TOOLLIB),
    Row("engine-toollib-mid", "the same, mid-game positions", "as above"),
    Row(
        "decode",
        "decode of an expert frame, grid known, median: gnome-mines / xdemineur / win7 desktop",
        "target < 5 ms",
    ),
    Row("live-gnome-mines", "live gnome-mines expert (Xvfb, no window manager): s per game, median", _LIVE),
    Row("live-xdemineur", "live xdemineur expert: s per game, median", _LIVE),
    Row(
        "live-per-decision",
        "capture + the settle after the game's last redraw report + decode + solve, per decision, median",
        "issue 29's target ≤ 10 ms",
    ),
    Row("live-kmines", "live kmines Hard, skin from `calibrate --live` alone: s per game, median", _LIVE),
    Row("live-sgt-mines", "live sgt-mines 30x16n99a, the same way", _LIVE),
    Row("live-xbomb", "live xbomb level 3, the same way", _LIVE),
    Row(
        "live-chromium",
        "live web clone in Chromium at 100%, taught by `calibrate --live`: median of the 20 looks' median s per game",
        _LIVE,
    ),
    Row("live-firefox", "the same in Firefox at 100%", _LIVE),
    Row("flow-kmines", "new-games flow, kmines: `calibrate --live`, then the first game played", _FLOW),
    Row("flow-sgt-mines", "the same, sgt-mines", _FLOW),
    Row("flow-xbomb", "the same, xbomb", _FLOW),
    Row("flow-browsers", "the same, web clone: `calibrate --live` per look", _FLOW),
)
ROW_BY_KEY = {row.key: row for row in ROWS}


# ---------------------------------------------------------------- reading what the commands printed


def table_cells(text: str, first: str) -> list[list[str]]:
    """The cells of every markdown table line of ``text`` whose first cell is ``first``."""
    found = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and cells and cells[0] == first:
            found.append(cells)
    return found


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def plain(cell: str) -> str:
    """A table cell without its bold marks."""
    return cell.replace("**", "").strip()


def simulate_value(out: str) -> str:
    """Win rate with its Wilson interval and the number of games, from ``autoplay simulate --json``."""
    data = json.loads(out.strip().splitlines()[-1])
    low, high = data["ci95"]
    return f"**{100 * data['win_rate']:.2f}%** ({100 * low:.2f}–{100 * high:.2f}), {data['games']:,} games"


def parse_win(key: str) -> Callable[[list[str]], dict[str, str]]:
    return lambda outs: {key: simulate_value(outs[0])}


def parse_speed(outs: list[str]) -> dict[str, str]:
    """``solver_speed.py --repeats N``: the simulator's games per CPU-second and the front door's decision times."""
    cells = table_cells(outs[0], "this tree")[0]
    cover = re.search(r"order statistics (\d+) and (\d+) of (\d+).*?([\d.]+%)", outs[0])
    note = f" (order statistics {cover[1]} and {cover[2]} of {cover[3]}: {cover[4]})" if cover else ""
    return {
        "speed-cpu": f"{cells[3]}{note}, {cells[2]} games won a repeat",
        "decision-time": plain(cells[5]),
    }


def parse_depths(outs: list[str]) -> dict[str, str]:
    """Two ``autoplay simulate --jobs 1 --json`` runs, depth 3 then depth 2: games per second of one process."""
    deep, shallow = (json.loads(out.strip().splitlines()[-1]) for out in outs)
    return {
        "speed-depths": f"{deep['games_per_second']:.1f} → {shallow['games_per_second']:.1f} games/s "
        f"({deep['games']:,} games each; {deep['wins']} and {shallow['wins']} won)"
    }


def toollib_value(out: str) -> str:
    ours = table_cells(out, "autoplay `analyze` (cold)")[0]
    theirs = table_cells(out, "ms_toollib `cal_probability_onboard`")[0]
    ratio = re.search(r"median time ([\d.]+), p99 time ([\d.]+)", out)
    if ratio is None:
        raise ValueError("no ratio line")
    positions = re.search(r"; (\d+) expert", out)
    count = f", {positions[1]} positions" if positions else ""
    return f"**{ours[1]}** vs {theirs[1]}: **{ratio[1]}** (p99 {ours[3]} vs {theirs[3]}: {ratio[2]}){count}"


def parse_toollib(key: str) -> Callable[[list[str]], dict[str, str]]:
    return lambda outs: {key: toollib_value(outs[0])}


def parse_vision(outs: list[str]) -> dict[str, str]:
    """``vision_speed.py``: the decode median of each case, in the order the script lists them."""
    medians = []
    for line in outs[0].splitlines():
        numbers = re.findall(r"([\d.]+) ms", line)
        if len(numbers) == 4:
            medians.append(float(numbers[2]))
    if not medians:
        raise ValueError("no case lines")
    return {"decode": " / ".join(f"{m:.2f}" for m in medians) + " ms"}


def parse_live(game: str, per_decision: bool = False) -> Callable[[list[str]], dict[str, str]]:
    """``live_play.py``: median (and p90) seconds per game, games ended, won and aborted; with ``per_decision``,
    also its line on the time per decision beyond the game's own drawing."""

    def parse(outs: list[str]) -> dict[str, str]:
        cells = table_cells(outs[0], game)[0]
        ended, aborted, wins, median, p90 = cells[2], cells[3], cells[4], cells[7], cells[8]
        found = {f"live-{game}": f"**{median} s** (p90 {p90}), {ended} games, {wins} won, {aborted} aborted"}
        if per_decision:
            line = re.search(
                r"beyond the game's own drawing .*?: median ([\d.]+) ms, p90 ([\d.]+) ms over (\d+)", outs[0]
            )
            if line is None:
                raise ValueError("no per-decision line")
            found["live-per-decision"] = f"{game} **{line[1]} ms** (p90 {line[2]}, {line[3]} decisions)"
        return found

    return parse


def parse_sim_speed(outs: list[str]) -> dict[str, str]:
    """``autoplay simulate --jobs 1 --json``: the games per second it reports, and the games won."""
    found = json.loads(outs[0].strip().splitlines()[-1])
    return {"sim-speed": f"**{found['games_per_second']:.1f}** games/s ({found['games']:,} games, {found['wins']} won)"}


def parse_new_game(game: str) -> Callable[[list[str]], dict[str, str]]:
    """``new_games.py``: seconds per game of the calibrated skin, and the flow's two times."""

    def parse(outs: list[str]) -> dict[str, str]:
        cells = table_cells(outs[0], game)[0]
        calibrate, first, ended, stops, wins, median = cells[1], cells[2], cells[3], cells[4], cells[5], cells[7]
        return {
            f"live-{game}": f"**{median} s**, {ended} games, {wins} won, {stops} stops",
            f"flow-{game}": f"calibrate {calibrate}; first game played **{first}** after the start",
        }

    return parse


def parse_web(outs: list[str]) -> dict[str, str]:
    """``web_looks.py``: per browser, the median and range of the cases' median seconds per game; the calibrations."""
    values: dict[str, str] = {}
    calibrations: list[str] = []
    for browser in ("chromium", "firefox"):
        cases = table_cells(outs[0], browser)
        if not cases:
            continue
        medians = [float(c[-1].split()[0]) for c in cases if c[-1] != "-"]
        games = sum(int(c[4]) for c in cases)
        calibrations += [c[3] for c in cases]
        if medians:
            spread = f" ({min(medians):.1f}–{max(medians):.1f})" if len(medians) > 1 else ""
            values[f"live-{browser}"] = (
                f"**{statistics.median(medians):.1f} s**{spread}, {count(len(cases), 'case')}, {count(games, 'game')}"
            )
        else:
            values[f"live-{browser}"] = f"no game ended in {count(len(cases), 'case')}"
    if calibrations:
        seconds = [int(s) for s in re.findall(r"(\d+) s", " ".join(calibrations))]
        exits = sorted({c.split(",")[0] for c in calibrations})
        values["flow-browsers"] = (
            f"{'/'.join(exits)} in {min(seconds)}–{max(seconds)} s in {count(len(calibrations), 'case')}"
        )
    return values


# ---------------------------------------------------------------- what to run


def win_rate(key: str, preset: str, rule: str, full: int, quick: int) -> Measurement:
    def commands(ctx: Context) -> list[list[str]]:
        games = quick if ctx.quick else full
        return [["-m", "autoplay", "simulate", "--preset", preset, "--rule", rule, "--games", str(games),
                 "--seed", "1", "--jobs", str(ctx.jobs), "--json"]]  # fmt: skip

    return Measurement(key, (key,), commands, parse_win(key))


def needs_game(game: str) -> Callable[[], tuple[str, ...]]:
    return lambda: ("Xvfb", game, *(("dbus-run-session",) if game == "kmines" else ()))


def live(game: str, full: int, per_decision: bool = False) -> Measurement:
    def commands(ctx: Context) -> list[list[str]]:
        games = 2 if ctx.quick else full
        root = ctx.work / f"live-{game}"
        return [[f"{BENCH}/live_play.py", "--game", game, "--games", str(games), "--record-root", str(root)]]

    rows = (f"live-{game}", "live-per-decision") if per_decision else (f"live-{game}",)
    return Measurement(f"live-{game}", rows, commands, parse_live(game, per_decision), needs_game(game))


def new_game(game: str) -> Measurement:
    def commands(ctx: Context) -> list[list[str]]:
        games = 2 if ctx.quick else 50
        root = ctx.work / f"new-{game}"
        return [[f"{BENCH}/new_games.py", "--game", game, "--games", str(games), "--record-root", str(root)]]

    rows = (f"live-{game}", f"flow-{game}")
    return Measurement(f"new-{game}", rows, commands, parse_new_game(game), needs_game(game))


def installed_browsers() -> list[str]:
    """The browsers whose binary is on this machine, by autoplay's own lookup."""
    from autoplay.control.games import BROWSERS

    return [name for name, spec in BROWSERS.items() if missing((spec.binary,)) == []]


#: The 20 looks of issue 32's measure, drawn once (BENCHMARKS.md: 4187 6052 ... 95403).
WEB_LOOKS = [str(seed) for seed in sorted(random.Random(32).sample(range(1000, 100000), 20))]


def web_commands(ctx: Context) -> list[list[str]]:
    browsers = installed_browsers()
    if ctx.quick:
        sizes = ["--scales", "1", "--looks", "2", "--games", "1"]
    else:
        sizes = ["--scales", "1", "--looks", *WEB_LOOKS, "--games", "3"]
    root = ctx.work / "web"
    return [[f"{BENCH}/web_looks.py", "--browsers", *browsers, *sizes, "--record-root", str(root)]]


def web_needs() -> tuple[str, ...]:
    """Xvfb and at least one browser (the one that is missing is left out of the command)."""
    from autoplay.control.games import BROWSERS

    return ("Xvfb",) if installed_browsers() else ("Xvfb", *(spec.binary for spec in BROWSERS.values()))


def speed_commands(ctx: Context) -> list[list[str]]:
    games, repeats = ("60", "3") if ctx.quick else ("300", "5")
    return [[f"{BENCH}/solver_speed.py", "--games", games, "--repeats", repeats]]


def sim_speed_commands(ctx: Context) -> list[list[str]]:
    games = "100" if ctx.quick else "600"
    return [["-m", "autoplay", "simulate", "--preset", "expert", "--games", games, "--jobs", "1", "--json"]]


def depth_commands(ctx: Context) -> list[list[str]]:
    games = "100" if ctx.quick else "2000"
    base = ["-m", "autoplay", "simulate", "--preset", "expert", "--games", games, "--seed", "1", "--jobs", "1"]
    return [[*base, "--guess-depth", "3", "--json"], [*base, "--guess-depth", "2", "--json"]]


def toollib_commands(every: bool) -> Callable[[Context], list[list[str]]]:
    def commands(ctx: Context) -> list[list[str]]:
        positions = "100" if ctx.quick else "600"
        return [[f"{BENCH}/engine_vs_toollib.py", "--positions", positions, *(["--every-decision"] if every else [])]]

    return commands


def vision_commands(ctx: Context) -> list[list[str]]:
    return [[f"{BENCH}/vision_speed.py", "--repeat", "20" if ctx.quick else "200"]]


MEASUREMENTS: tuple[Measurement, ...] = (
    win_rate("expert-safe", "expert", "safe", 200_000, 300),
    win_rate("expert-zero", "expert", "zero", 200_000, 300),
    win_rate("intermediate-safe", "intermediate", "safe", 100_000, 1000),
    win_rate("intermediate-zero", "intermediate", "zero", 20_000, 1000),
    win_rate("beginner-safe", "beginner", "safe", 100_000, 2000),
    win_rate("beginner-zero", "beginner", "zero", 20_000, 2000),
    Measurement("solver-speed", ("speed-cpu", "decision-time"), speed_commands, parse_speed),
    Measurement("sim-speed", ("sim-speed",), sim_speed_commands, parse_sim_speed),
    Measurement("depths", ("speed-depths",), depth_commands, parse_depths),
    Measurement("toollib", ("engine-toollib",), toollib_commands(False), parse_toollib("engine-toollib")),
    Measurement("toollib-mid", ("engine-toollib-mid",), toollib_commands(True), parse_toollib("engine-toollib-mid")),
    Measurement("vision", ("decode",), vision_commands, parse_vision),
    live("gnome-mines", 20),
    live("xdemineur", 500, per_decision=True),
    new_game("kmines"),
    new_game("sgt-mines"),
    new_game("xbomb"),
    Measurement("web", ("live-chromium", "live-firefox", "flow-browsers"), web_commands, parse_web, web_needs),
)


# ---------------------------------------------------------------- running


def missing(programs: Sequence[str]) -> list[str]:
    """The programs of ``programs`` this machine lacks (games are looked up where Debian installs them)."""
    from autoplay.control.games import find_binary
    from autoplay.errors import AutoplayError

    absent = []
    for name in programs:
        try:
            find_binary(name)
        except AutoplayError:
            absent.append(name)
    return absent


def shown(args: Sequence[str]) -> str:
    """A command as the table shows it: ``autoplay simulate ...`` or ``python benchmarks/x.py ...``."""
    words = list(args)
    for i, word in enumerate(words[:-1]):
        if word == "--record-root":
            words[i + 1] = "DIR"
    text = " ".join(words)
    for prefix, replacement in SHOWN_PREFIX.items():
        if text.startswith(prefix):
            return replacement + text[len(prefix) :]
    return "python " + text


def commit() -> str:
    """Short HEAD, marked when the working tree has uncommitted changes to tracked files."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return f"{head} + local changes" if git("status", "--porcelain", "--untracked-files=no") else head


def stop(proc: subprocess.Popen[str], grace: float = 30.0) -> None:
    """Interrupt a command's whole process group as Ctrl-C would, so its Xvfb and games are closed by its own
    clean-up; kill what is left after ``grace`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def run(args: list[str], timeout: float | None) -> tuple[int, str, str]:
    """Run ``python ARGS`` in the checkout, passing its stderr through indented; (exit code, stdout, last stderr line)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else ""), daemon=True)
    reader.start()
    timed_out = threading.Event()

    def expire() -> None:
        timed_out.set()
        stop(proc)

    timer = threading.Timer(timeout, expire) if timeout else None
    if timer:
        timer.start()
    last = ""
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.strip():
                last = line.strip()
                print(f"    {line.rstrip()}", file=sys.stderr, flush=True)
        code = proc.wait()
    except KeyboardInterrupt:
        stop(proc)
        raise
    finally:
        if timer:
            timer.cancel()
    reader.join()
    if timed_out.is_set():
        last = f"timed out after {timeout:.0f} s"
    return code, "".join(out), last


def measure(measurement: Measurement, ctx: Context, timeout: float | None) -> dict[str, Result]:
    """Fill the rows of one measurement: skipped, failed, or the values its commands printed."""
    commands = measurement.commands(ctx)
    command_text = "; ".join(f"`{shown(c)}`" for c in commands)

    def result(values: dict[str, str]) -> dict[str, Result]:
        date = time.strftime("%Y-%m-%d", time.gmtime())
        return {key: Result(ROW_BY_KEY[key], values[key], command_text, commit(), date) for key in measurement.rows}

    absent = missing(measurement.needs())
    if absent:
        note = f"skipped: {', '.join(absent)} not installed"
        print(f"  {note}", file=sys.stderr, flush=True)
        return result(dict.fromkeys(measurement.rows, note))
    outs = []
    for args in commands:
        print(f"  $ {shown(args)}", file=sys.stderr, flush=True)
        code, out, last = run(args, timeout)
        if code != 0:
            return result(dict.fromkeys(measurement.rows, f"failed: exit {code}: {last}"[:200]))
        outs.append(out)
    try:
        values = measurement.parse(outs)
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        return result(dict.fromkeys(measurement.rows, f"failed: could not read the output ({exc})"[:200]))
    return result({key: values.get(key, "not measured (no such case ran)") for key in measurement.rows})


def markdown(results: Sequence[Result], header: str) -> str:
    """The table in BENCHMARKS.md's form, rows in the order of ``ROWS``."""
    order = {row.key: i for i, row in enumerate(ROWS)}
    lines = [
        header,
        "",
        "| figure | value (95% interval where there is one) | anchor | command | commit | date |",
        "|---|---|---|---|---|---|",
    ]
    for r in sorted(results, key=lambda r: order[r.row.key]):
        cells = [f"`{r.row.key}`: {r.row.figure}", r.value, r.row.anchor, r.command, r.commit, r.date]
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def solver_build() -> str:
    """Whether the solver runs compiled (the speed rows depend on it)."""
    from autoplay.compiled import status

    return status()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small samples: a smoke run of a few minutes")
    ap.add_argument("--only", nargs="+", metavar="ROW", help="measure only these rows (see --list)")
    ap.add_argument("--out", type=Path, help="write the markdown table to this file as well (overwritten)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the simulated win rates (default 2)")
    ap.add_argument("--work", type=Path, help="folder for the live runs' recordings (default: a new temporary one)")
    ap.add_argument("--timeout", type=float, help="seconds allowed per command (default: none; 900 with --quick)")
    ap.add_argument("--list", action="store_true", help="print the row keys and exit")
    args = ap.parse_args(argv)
    if args.list:
        for row in ROWS:
            print(f"{row.key:20} {row.figure}")
        return 0
    wanted = set(args.only or ROW_BY_KEY)
    unknown = sorted(wanted - set(ROW_BY_KEY))
    if unknown:
        print(f"today.py: unknown row {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("today.py: --jobs must be at least 1", file=sys.stderr)
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="today-"))
    work.mkdir(parents=True, exist_ok=True)
    ctx = Context(args.quick, args.jobs, work)
    timeout = args.timeout or (900.0 if args.quick else None)
    chosen = [m for m in MEASUREMENTS if wanted & set(m.rows)]
    started = time.monotonic()
    build = solver_build()
    print(f"today.py: {len(chosen)} measurements, solver {build}, recordings in {work}", file=sys.stderr)
    results: list[Result] = []
    for number, measurement in enumerate(chosen, 1):
        began = time.monotonic()
        print(
            f"[{number}/{len(chosen)}] {measurement.name} ({', '.join(measurement.rows)})", file=sys.stderr, flush=True
        )
        filled = measure(measurement, ctx, timeout)
        results += [filled[key] for key in measurement.rows if key in wanted]
        for key in measurement.rows:
            if key in wanted:
                print(f"  {key}: {filled[key].value}", file=sys.stderr)
        print(f"  done in {time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    argv_text = " ".join(sys.argv[1:] if argv is None else argv)
    header = (
        f"Re-measured by `python benchmarks/today.py {argv_text}`{' (quick: small samples)' if args.quick else ''}: "
        f"{os.cpu_count()} cores (shared), Python {platform.python_version()}, solver {build}, "
        f"load average {os.getloadavg()[0]:.1f} at the end; wall time {time.monotonic() - started:.0f} s."
    )
    table = markdown(results, header)
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("today.py: interrupted", file=sys.stderr)
        sys.exit(130)
