"""Where simulated games are lost: the policy of each losing guess, first guess of the game or later.

Usage: python benchmarks/losses.py [--preset expert] [--games 3000] [--seed 3] [--guess-depth 3] [--out F.md]

A guess policy can only be improved where games are lost, so this tallies every lost game by what
made its last move: the look-ahead, the exhaustive endgame search, an unavoidable 50/50, or the
plain safest cell (when exact counts ran out of time), split into the game's first guess and the
later ones, with the mean mine chance the losing move was taken at.  A loss at a move the solver
called certain is counted on its own row: it is a bug, never a cost of guessing.

Games are the simulator's seeded ones (game ``i`` depends on ``(seed, i)`` alone), played at a 60 s
decision cap so that the machine's load cannot change a decision.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.rules import PRESETS
from autoplay.sim.runner import GameSpec, play_game
from autoplay.solver.decide import Decision
from autoplay.solver.guess import DEFAULT_DEPTH


def losing_policy(decisions: list[Decision]) -> tuple[str, str]:
    """(policy of the last decision, "first" or "later") for a lost game's decisions, the opening click included."""
    last = decisions[-1]
    if not last.guess:
        return "certain (a bug)", "-"
    guesses = sum(1 for d in decisions[1:] if d.guess)
    policy = last.guess_choice.policy if last.guess_choice is not None else "unscored guess"
    return policy, "first" if guesses == 1 else "later"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--guess-depth", type=int, choices=(2, 3), default=DEFAULT_DEPTH)
    ap.add_argument("--out")
    args = ap.parse_args()
    size = PRESETS[args.preset]
    spec = GameSpec(size.rows, size.cols, size.mines, time_limit=60.0, guess_depth=args.guess_depth)
    count: Counter[tuple[str, str]] = Counter()
    risk: defaultdict[tuple[str, str], float] = defaultdict(float)
    for index in range(args.games):
        decisions: list[Decision] = []
        if play_game(spec, args.seed, index, observe=decisions.append).won:
            continue
        key = losing_policy(decisions)
        count[key] += 1
        risk[key] += decisions[-1].moves[0].probability
        if index % 500 == 499:
            print(f"{index + 1}/{args.games} games", file=sys.stderr)
    lost = sum(count.values())
    rows = "".join(
        f"| {policy} | {when} | {n} | {100 * n / lost:.1f}% | {risk[policy, when] / n:.3f} |\n"
        for (policy, when), n in count.most_common()
    )
    emit(
        f"Command: `python benchmarks/losses.py {' '.join(sys.argv[1:])}`\n\n"
        f"{args.preset}, seed {args.seed}, {args.games} games, first cell safe: {args.games - lost} won, {lost} lost.\n\n"
        "| losing move's policy | guess | games | share of losses | mean mine chance taken |\n"
        "|---|---|---|---|---|\n" + rows,
        args.out,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
