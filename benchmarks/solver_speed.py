"""Speed of the solver on expert games: games per CPU-second and time per decision, optionally against another tree.

Usage: python benchmarks/solver_speed.py [--games 300] [--seed 1] [--rule safe] [--time-limit 1.0]
                                         [--repeats 7] [--baseline DIR] [--also-pure]

Plays the same seeded expert games as ``benchmarks/win_rates.py`` three ways, in one process:

1. through the simulator as the win-rate rows do (position kept up to date move by move): games per
   CPU-second (what one core delivers when the machine is shared: the wall clock then also counts
   other processes' turns), and the wall-clock rate beside it;
2. through the stateless front door ``choose_move(board)`` as live play calls it, caches cleared first,
   timing every call in CPU time ("warm": the caches hold what earlier decisions of these games found);
3. every position of pass 2 once more with the caches cleared ("cold", as a one-off ``autoplay solve``).

With ``--repeats`` (or ``--baseline``) each repeat runs in a fresh process, so no repeat inherits
another's caches; with ``--baseline DIR`` (a checkout of another commit, e.g. made with ``git worktree
add`` or ``git archive``) every repeat plays the same games with that tree's ``autoplay`` and with this
one, alternately, so both see the same machine load; ``--also-pure`` adds this tree run as pure Python
(``AUTOPLAY_PURE_PYTHON=1``), which measures what compiling the solver alone is worth.  Reported: the median over repeats with a
distribution-free interval (95%, or the whole range when there are too few repeats for 95%: at least 6
are needed), and the ratio of medians.

Both paths make the same decisions (``tests/sim/test_tracked_solver.py``); pass 2 counts the games whose
outcome differs, which only a decision cut short by the time limit on a loaded machine can cause.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

from autoplay.board.model import Board
from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.runner import GameSpec, play_game, run_games
from autoplay.sim.stats import percentile
from autoplay.solver import choose_move
from autoplay.solver.analysis import clear_component_cache
from autoplay.solver.guess import clear_guess_cache

HERE = Path(__file__).resolve().parent.parent

#: Run this benchmark against the ``autoplay`` of the tree in argv[1] (an editable install would
#: otherwise win over ``sys.path``), with the remaining arguments.
_BOOT = (
    "import runpy, sys; tree = sys.argv.pop(1); "
    "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
    "sys.path.insert(0, tree); sys.argv[0] = sys.argv[1]; del sys.argv[1]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def kind(decision) -> str:
    if decision.guess:
        return "guess"
    return "engine" if decision.analysis is not None else "cheap rules"


def simulated(spec: GameSpec, games: int, seed: int) -> tuple[list[bool], float, float]:
    """(outcomes, wall seconds, CPU seconds) of the games through the simulator's own path."""
    wall, cpu = time.perf_counter(), time.process_time()
    results = sorted(run_games(spec, games, seed), key=lambda r: r.index)
    return [r.won for r in results], time.perf_counter() - wall, time.process_time() - cpu


def through_front_door(spec: GameSpec, games: int, seed: int, outcomes: list[bool]):
    """Replay the games calling ``choose_move`` on each board: (boards, CPU times by kind, CPU seconds, games whose
    outcome differs from the simulator's).

    Both paths decide alike (``tests/sim/test_tracked_solver.py``), so a difference can only come from the
    time limit: on a heavily loaded machine a look-ahead or endgame search may be cut short in one pass only.
    """
    boards: list[Board] = []
    times: dict[str, list[float]] = {}

    def decide(board: Board, rules: Rules, rng: random.Random):
        t0 = time.process_time()
        decision = choose_move(board, board.mines, rules, time_limit=spec.time_limit, rng=rng)
        times.setdefault(kind(decision), []).append(time.process_time() - t0)
        boards.append(board)
        return decision

    started = time.process_time()
    differ = 0
    for index in range(games):
        result = play_game(spec, seed, index, decide)
        differ += result.won != outcomes[index]
    return boards, times, time.process_time() - started, differ


def cold(boards: list[Board], rules: Rules, time_limit: float) -> list[float]:
    out = []
    for board in boards:
        clear_component_cache()
        clear_guess_cache()
        t0 = time.process_time()
        choose_move(board, board.mines, rules, time_limit=time_limit)
        out.append(time.process_time() - t0)
    return out


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"| {name} | {len(ms)} | {percentile(ms, 50):.2f} ms | {percentile(ms, 99):.1f} ms | {max(ms):.1f} ms |"


def solver_kind() -> str:
    """Whether this process's solver runs compiled (``autoplay --version`` says the same)."""
    try:
        from autoplay.compiled import status
    except ImportError:  # a tree from before the solver was compiled
        return "pure Python: no compiled build"
    return status()


def measure(spec: GameSpec, games: int, seed: int) -> dict:
    """One repeat: the simulator pass and the front-door pass, as numbers."""
    outcomes, wall, cpu = simulated(spec, games, seed)
    clear_component_cache()  # the front door starts as cold as the simulator did
    clear_guess_cache()
    _boards, times, door_cpu, differ = through_front_door(spec, games, seed, outcomes)
    every = [t for ts in times.values() for t in ts]
    return {
        "won": sum(outcomes),
        "sim_cpu": games / cpu,
        "sim_wall": games / wall,
        "door_cpu": games / door_cpu,
        "door_median_ms": percentile(every, 50) * 1000,
        "door_p99_ms": percentile(every, 99) * 1000,
        "decisions": len(every),
        "differ": differ,
        "solver": solver_kind(),
    }


def spec_of(args: argparse.Namespace) -> GameSpec:
    preset = PRESETS["expert"]
    return GameSpec(preset.rows, preset.cols, preset.mines, Rules(args.rule), args.time_limit)


def repeated(args: argparse.Namespace) -> int:
    """Each repeat in a fresh process, alternating the baseline tree and this one; a table of medians."""
    from autoplay.sim.stats import median_interval  # this tree's: a baseline's workers need not have it

    pure = {"AUTOPLAY_PURE_PYTHON": "1"}
    trees = [("baseline", str(Path(args.baseline).resolve()), {})] if args.baseline else []
    trees += [("this tree, pure Python", str(HERE), pure)] if args.also_pure else []
    trees += [("this tree", str(HERE), {})]
    common = ["--worker", f"--games={args.games}", f"--seed={args.seed}", f"--rule={args.rule}"]
    common.append(f"--time-limit={args.time_limit}")
    runs: dict[str, list[dict]] = {name: [] for name, _, _ in trees}
    for repeat in range(args.repeats):
        for name, tree, extra in trees:
            command = [sys.executable, "-c", _BOOT, tree, str(Path(__file__).resolve()), *common]
            environment = {k: v for k, v in os.environ.items() if k != "AUTOPLAY_PURE_PYTHON"} | extra
            done = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(
                f"repeat {repeat + 1}/{args.repeats} {name}: {runs[name][-1]['sim_cpu']:.1f} games/CPU-s",
                file=sys.stderr,
            )
    print(f"Command: `python benchmarks/solver_speed.py {' '.join(sys.argv[1:])}`  ")
    print(
        f"Python {platform.python_version()}; expert 30x16/99, first click {args.rule}, seed {args.seed}, "
        f"{args.games} games a repeat, {args.repeats} repeats (each a fresh process, trees alternating).  "
    )
    n = args.repeats
    k = sorted(range(n)).index(median_interval(range(n))[0])
    cover = 1 - 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    print(
        f"Intervals: order statistics {k + 1} and {n - k} of {n}, which hold the median with {cover:.1%} confidence.  "
    )
    print()
    print(
        "| tree | solver | games won | simulator games/CPU-s, median [interval] | front door games/CPU-s | "
        "front-door decision median / p99 (CPU) | games the two paths ended differently (time limit) |"
    )
    print("|---|---|---|---|---|---|---|")
    medians = {}
    for name, _tree, _extra in trees:
        rows = runs[name]
        sim = [r["sim_cpu"] for r in rows]
        door = [r["door_cpu"] for r in rows]
        lo, hi = median_interval(sim)
        dlo, dhi = median_interval(door)
        medians[name] = (percentile(sim, 50), percentile(door, 50))
        won = sorted({r["won"] for r in rows})
        differ = sum(r["differ"] for r in rows)
        kinds = "/".join(sorted({r["solver"] for r in rows}))
        print(
            f"| {name} | {kinds} | {'/'.join(map(str, won))} | **{medians[name][0]:.1f}** [{lo:.1f}, {hi:.1f}] | "
            f"{medians[name][1]:.1f} [{dlo:.1f}, {dhi:.1f}] | "
            f"{percentile([r['door_median_ms'] for r in rows], 50):.3f} ms / "
            f"{percentile([r['door_p99_ms'] for r in rows], 50):.2f} ms | {differ} |"
        )
    print()
    for name, _tree, _extra in trees[:-1]:
        print(
            f"Ratio of medians, this tree / {name}: simulator **{medians['this tree'][0] / medians[name][0]:.2f}x**"
            f", front door {medians['this tree'][1] / medians[name][1]:.2f}x.  "
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", choices=["safe", "zero", "none"], default="safe")
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=1, help="fresh-process repeats (the median is reported)")
    ap.add_argument("--baseline", help="a checkout of another commit to measure alternately with this one")
    ap.add_argument(
        "--also-pure", action="store_true", help="also measure this tree with AUTOPLAY_PURE_PYTHON=1 (its source)"
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    spec = spec_of(args)
    if args.worker:
        print(json.dumps(measure(spec, args.games, args.seed)))
        return 0
    if args.repeats > 1 or args.baseline or args.also_pure:
        return repeated(args)
    outcomes, wall, cpu = simulated(spec, args.games, args.seed)
    clear_component_cache()  # the front door starts as cold as the simulator did
    clear_guess_cache()
    boards, times, door_cpu, differ = through_front_door(spec, args.games, args.seed, outcomes)
    every = [t for ts in times.values() for t in ts]
    print(f"Command: `python benchmarks/solver_speed.py {' '.join(sys.argv[1:])}`  ")
    print(
        f"Python {platform.python_version()}, one process, solver {solver_kind()}; expert 30x16/99, first click "
        f"{args.rule}, seed {args.seed}.  "
    )
    print(
        f"{args.games} games, {sum(outcomes)} won. Simulator path: **{args.games / cpu:.1f} games per CPU-second**, "
        f"{args.games / wall:.1f} games/s wall clock. Front door `choose_move(board)`: {args.games / door_cpu:.1f} "
        f"games per CPU-second, {len(every)} decisions; {differ} games ended otherwise than through the simulator "
        "(time limit under load)."
    )
    print()
    print("| decisions (front door, CPU time) | count | median | p99 | max |")
    print("|---|---|---|---|---|")
    print(line("all (warm, as in play)", every))
    for name in ("cheap rules", "engine", "guess"):
        if name in times:
            print(line(f"{name} (warm)", times[name]))
    print(line("all (cold cache)", cold(boards, spec.rules, args.time_limit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
