"""Decision time of the solver on expert positions from real random games.

Usage: python benchmarks/solver_speed.py [--games 200] [--seed 1] [--rule safe] [--time-limit 1.0]

Plays seeded expert games with the solver (one process) and times every
``choose_move`` call as the simulator makes it, then re-times every recorded
position once more with the component cache cleared ("cold", as a stateless
caller such as ``autoplay solve`` sees it).  Prints median / p99 / max per
kind of decision and games per second.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.game import Game
from autoplay.sim.stats import percentile
from autoplay.solver import choose_move
from autoplay.solver.analysis import clear_component_cache


def kind(decision) -> str:
    if decision.guess:
        return "guess"
    return "engine" if decision.analysis is not None else "cheap rules"


def play(games: int, seed: int, rules: Rules, time_limit: float):
    """Play the games; return (positions, warm times by kind, wins, seconds)."""
    preset = PRESETS["expert"]
    positions = []
    times: dict[str, list[float]] = {}
    wins = 0
    started = time.perf_counter()
    for index in range(games):
        rng = random.Random(f"speed-{seed}-{index}")
        game = Game(preset.rows, preset.cols, preset.mines, rules, rng=rng)
        while not game.over:
            board = game.board()
            t0 = time.perf_counter()
            decision = choose_move(board, board.mines, rules, time_limit=time_limit, rng=rng)
            times.setdefault(kind(decision), []).append(time.perf_counter() - t0)
            positions.append(board)
            for move in decision.moves:
                if move.action == "flag":
                    game.flag(move.row, move.col)
                elif not game.reveal(move.row, move.col):
                    break
        wins += game.won
    return positions, times, wins, time.perf_counter() - started


def cold(positions, rules: Rules, time_limit: float) -> list[float]:
    out = []
    for board in positions:
        clear_component_cache()
        t0 = time.perf_counter()
        choose_move(board, board.mines, rules, time_limit=time_limit)
        out.append(time.perf_counter() - t0)
    return out


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"| {name} | {len(ms)} | {percentile(ms, 50):.2f} ms | {percentile(ms, 99):.1f} ms | {max(ms):.1f} ms |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", choices=["safe", "zero", "none"], default="safe")
    ap.add_argument("--time-limit", type=float, default=1.0)
    args = ap.parse_args()
    rules = Rules(args.rule)
    positions, times, wins, seconds = play(args.games, args.seed, rules, args.time_limit)
    every = [t for ts in times.values() for t in ts]
    print(f"Command: `python benchmarks/solver_speed.py {' '.join(sys.argv[1:])}`  ")
    print(f"Python {platform.python_version()}, one process; expert 30x16/99, first click {args.rule}.  ")
    print(f"{args.games} games, {wins} won, {args.games / seconds:.1f} games/s, {len(every)} decisions.")
    print()
    print("| decisions | count | median | p99 | max |")
    print("|---|---|---|---|---|")
    print(line("all (warm, as in play)", every))
    for name in ("cheap rules", "engine", "guess"):
        if name in times:
            print(line(f"{name} (warm)", times[name]))
    print(line("all (cold cache)", cold(positions, rules, args.time_limit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
