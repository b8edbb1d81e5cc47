"""One-step deviations: what a look-ahead guess's runner-up would have won, game by game.

Usage: python benchmarks/deviation.py [--preset expert] [--games 100000] [--seed 3] [--jobs 2]
       [--guess-depth 3] [--base PER_GAME.txt] [--out F.md]

A guess policy ranks its candidates; whether the ranking is right can be asked one decision at a time.  Game
``i`` is played as the solver plays it, and again with one decision changed: at its k-th look-ahead guess
(k = 1 + i mod 3, so that first and later guesses are both sampled) the runner-up is revealed instead of the
winner, and the solver plays on from there.  The game's layout is a uniform draw among the layouts the position
allows, so the difference in wins, averaged over games, is the runner-up's value against the winner's in the
positions where the policy meets them.  Grouped by how the two candidates' look-ahead figures differ, it shows
where the ranking errs: a group whose runner-up wins more is ranked backwards.  Exact ties (mirror-image cells
such as two far corners) are the control: their difference must be zero within its interval.

``--base`` reads the undisturbed games' outcomes from a ``--per-game`` file of ``autoplay simulate`` with the same
preset, seed and guess depth (halving the work); without it each game is also played undisturbed here.  Only
guesses the two-move look-ahead decided are forked: at depth 3 the close calls the third move re-ranks are left
out, so ``--guess-depth 2`` samples every look-ahead ranking.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from paired import paired_difference, read  # benchmarks/paired.py, beside this script
from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.rules import PRESETS
from autoplay.sim.runner import GameSpec, play_game
from autoplay.solver.decide import Decision, Move
from autoplay.solver.guess import DEFAULT_DEPTH, Scored


@dataclass
class Fork:
    """One game played with its k-th look-ahead guess changed to the runner-up."""

    game: int
    first_guess: bool
    winner: Scored
    runner_up: Scored
    runner_up_won: bool
    winner_won: bool = False


def play_forked(spec: GameSpec, seed: int, index: int) -> Fork | None:
    """Game ``index`` with its k-th look-ahead guess played by the runner-up; None if it has no such guess."""
    k = 1 + index % 3
    seen = {"look-ahead": 0, "guesses": 0}
    found: list[Fork] = []

    def swap(decision: Decision) -> None:
        if not decision.guess:
            return
        seen["guesses"] += 1
        choice = decision.guess_choice
        if found or choice is None or choice.policy != "look-ahead":
            return
        seen["look-ahead"] += 1
        scored = [s for s in choice.ranked if s.survive_two >= 0]
        if seen["look-ahead"] != k or len(scored) < 2 or scored[0].index != choice.index:
            return
        winner, runner_up = scored[0], scored[1]
        found.append(Fork(index, seen["guesses"] == 1, winner, runner_up, False))
        row, col = divmod(runner_up.index, spec.cols)
        decision.moves = [Move("reveal", row, col, 1.0 - runner_up.safety)]

    result = play_game(spec, seed, index, observe=swap)
    if not found:
        return None
    found[0].runner_up_won = result.won
    return found[0]


def _chunk(args: tuple[GameSpec, int, range, bool]) -> list[Fork]:
    spec, seed, indices, undisturbed = args
    forks = []
    for index in indices:
        fork = play_forked(spec, seed, index)
        if fork is not None:
            if undisturbed:
                fork.winner_won = play_game(spec, seed, index).won
            forks.append(fork)
    return forks


GROUPS: list[tuple[str, Callable[[Fork], bool]]] = [
    ("every fork", lambda f: True),
    ("exact ties (the control)", lambda f: _gap(f) < 1e-9),
    ("scores differ", lambda f: _gap(f) >= 1e-9),
    ("  by less than 0.01", lambda f: 1e-9 <= _gap(f) < 0.01),
    ("  by 0.01 to 0.05", lambda f: 0.01 <= _gap(f) < 0.05),
    ("  by 0.05 or more", lambda f: _gap(f) >= 0.05),
    (
        "  runner-up survives two moves more often",
        lambda f: _gap(f) >= 1e-9 and f.runner_up.survive_two > f.winner.survive_two,
    ),
    ("  runner-up makes progress more often", lambda f: _gap(f) >= 1e-9 and f.runner_up.progress > f.winner.progress),
    ("  runner-up is safer", lambda f: _gap(f) >= 1e-9 and f.runner_up.safety > f.winner.safety + 1e-12),
    ("  the game's first guess", lambda f: _gap(f) >= 1e-9 and f.first_guess),
    ("  a later guess", lambda f: _gap(f) >= 1e-9 and not f.first_guess),
]


def _gap(f: Fork) -> float:
    return f.winner.score() - f.runner_up.score()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--guess-depth", type=int, choices=(2, 3), default=DEFAULT_DEPTH)
    ap.add_argument("--base", help="per-game file of the undisturbed games (autoplay simulate --per-game)")
    ap.add_argument("--out")
    args = ap.parse_args()
    size = PRESETS[args.preset]
    spec = GameSpec(size.rows, size.cols, size.mines, guess_depth=args.guess_depth)
    base = read(args.base) if args.base else None
    if base is not None and len(base) < args.games:
        raise SystemExit(f"deviation: {args.base} has {len(base)} games, fewer than --games {args.games}")
    step = 500
    chunks = [(spec, args.seed, range(i, min(i + step, args.games)), base is None) for i in range(0, args.games, step)]
    forks: list[Fork] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, part in enumerate(pool.map(_chunk, chunks), 1):
            forks += part
            print(f"{min(done * step, args.games)}/{args.games} games", file=sys.stderr, flush=True)
    if base is not None:
        for fork in forks:
            fork.winner_won = base[fork.game]
    rows = ""
    for name, keep in GROUPS:
        group = [f for f in forks if keep(f)]
        if not group:
            continue
        n, only_winner, only_runner_up, diff, half = paired_difference(
            [f.winner_won for f in group], [f.runner_up_won for f in group]
        )
        rows += f"| {name} | {n} | {only_winner} | {only_runner_up} | **{diff:+.2f}** ± {half:.2f} |\n"
    header = (
        f"Command: `python benchmarks/deviation.py {' '.join(sys.argv[1:])}`\n\n"
        f"{args.preset}, seed {args.seed}, games 0–{args.games - 1}: {len(forks)} forks.\n\n"
    )
    columns = "| forks where | forks | won only as played | won only with the runner-up | runner-up − played, points"
    emit(header + columns + " of the game's win chance (95% CI) |\n|---|---|---|---|---|\n" + rows, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
