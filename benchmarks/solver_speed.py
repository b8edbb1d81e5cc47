"""Speed of the solver on expert games: games per second per core and time per decision.

Usage: python benchmarks/solver_speed.py [--games 500] [--seed 1] [--rule safe] [--time-limit 1.0]

Plays the same seeded expert games as ``benchmarks/win_rates.py`` three ways, in one process:

1. through the simulator as the win-rate rows do (position kept up to date move by move): games/s,
   in wall-clock and in CPU seconds (the CPU figure is what one core delivers when the machine is
   shared, as the wall clock then also counts other processes' turns);
2. through the stateless front door ``choose_move(board)`` as live play calls it, timing every call
   ("warm": the component cache holds what earlier decisions of the game counted);
3. every position of pass 2 once more with the component cache cleared ("cold", as a one-off
   ``autoplay solve`` sees it).

Both paths make the same decisions (``tests/sim/test_tracked_solver.py``); pass 2 asserts it per game.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from autoplay.board.model import Board
from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.runner import GameSpec, play_game, run_games
from autoplay.sim.stats import percentile
from autoplay.solver import choose_move
from autoplay.solver.analysis import clear_component_cache
from autoplay.solver.guess import clear_guess_cache


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
    """Replay the games calling ``choose_move`` on each board; (boards, warm times by kind, wall seconds)."""
    boards: list[Board] = []
    times: dict[str, list[float]] = {}

    def decide(board: Board, rules: Rules, rng: random.Random):
        t0 = time.perf_counter()
        decision = choose_move(board, board.mines, rules, time_limit=spec.time_limit, rng=rng)
        times.setdefault(kind(decision), []).append(time.perf_counter() - t0)
        boards.append(board)
        return decision

    started = time.perf_counter()
    for index in range(games):
        result = play_game(spec, seed, index, decide)
        if result.won != outcomes[index]:
            raise SystemExit(f"game {index}: the front door and the simulator path disagree")
    return boards, times, time.perf_counter() - started


def cold(boards: list[Board], rules: Rules, time_limit: float) -> list[float]:
    out = []
    for board in boards:
        clear_component_cache()
        clear_guess_cache()
        t0 = time.perf_counter()
        choose_move(board, board.mines, rules, time_limit=time_limit)
        out.append(time.perf_counter() - t0)
    return out


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"| {name} | {len(ms)} | {percentile(ms, 50):.2f} ms | {percentile(ms, 99):.1f} ms | {max(ms):.1f} ms |"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", choices=["safe", "zero", "none"], default="safe")
    ap.add_argument("--time-limit", type=float, default=1.0)
    args = ap.parse_args()
    preset = PRESETS["expert"]
    spec = GameSpec(preset.rows, preset.cols, preset.mines, Rules(args.rule), args.time_limit)
    outcomes, wall, cpu = simulated(spec, args.games, args.seed)
    boards, times, door_wall = through_front_door(spec, args.games, args.seed, outcomes)
    every = [t for ts in times.values() for t in ts]
    print(f"Command: `python benchmarks/solver_speed.py {' '.join(sys.argv[1:])}`  ")
    print(
        f"Python {platform.python_version()}, one process; expert 30x16/99, first click {args.rule}, seed {args.seed}.  "
    )
    print(
        f"{args.games} games, {sum(outcomes)} won. Simulator path: **{args.games / cpu:.1f} games per CPU-second**, "
        f"{args.games / wall:.1f} games/s wall clock. Front door `choose_move(board)`: {args.games / door_wall:.1f} "
        f"games/s wall clock, {len(every)} decisions."
    )
    print()
    print("| decisions (front door) | count | median | p99 | max |")
    print("|---|---|---|---|---|")
    print(line("all (warm, as in play)", every))
    for name in ("cheap rules", "engine", "guess"):
        if name in times:
            print(line(f"{name} (warm)", times[name]))
    print(line("all (cold cache)", cold(boards, spec.rules, args.time_limit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
