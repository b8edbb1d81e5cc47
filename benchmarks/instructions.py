"""Instructions per simulated expert game, counted by valgrind: a speed measure that other processes cannot move.

Usage: python benchmarks/instructions.py [--games 100] [--seed 1] [--baseline DIR] [--also-pure]

CPU-seconds on a shared machine swing by 20% with the neighbours' load, so small speed-ups drown in the noise
of ``solver_speed.py``.  This script plays the same seeded expert games (first click safe) under valgrind's
callgrind tool, which counts every machine instruction the process executes, once with no games (start-up) and
once with ``--games``; the difference per game is the same on every run of the same code, whatever the load.
It is a proxy, not a time: an instruction of a big-integer multiply and one of a cache miss count alike, but
ratios between two builds of this solver have matched the ratios of their CPU times within a few percent.
Needs valgrind (Debian: ``apt-get install valgrind``); each run takes about a minute per 100 games.

``--baseline DIR`` counts another checkout too (e.g. ``git worktree add`` of an older commit), ``--also-pure``
this tree with ``AUTOPLAY_PURE_PYTHON=1`` (its source instead of its compiled build).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: Plays ``games`` seeded expert games with the ``autoplay`` of the tree given first (ahead of an editable install).
_PLAY = (
    "import sys; tree, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]); "
    "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; sys.path.insert(0, tree); "
    "from autoplay.board.rules import PRESETS, Rules; from autoplay.sim.runner import GameSpec, run_games; "
    "import importlib.util as u; has = u.find_spec('autoplay.compiled') is not None; "
    "print(__import__('autoplay.compiled').compiled.status() if has else 'pure Python: no compiled build'); "
    "p = PRESETS['expert']; "
    "list(run_games(GameSpec(p.rows, p.cols, p.mines, Rules('safe'), 60.0), games, seed))"
)


def count(tree: str, games: int, seed: int, pure: bool) -> tuple[int, str]:
    """(instructions, the solver the run reported) of one run under callgrind."""
    env = {k: v for k, v in os.environ.items() if k != "AUTOPLAY_PURE_PYTHON"}
    if pure:
        env["AUTOPLAY_PURE_PYTHON"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", _PLAY]
            + [tree, str(games), str(seed)],
            capture_output=True,
            text=True,
            env=env,
        )
    if done.returncode != 0:
        raise SystemExit(f"instructions.py: the run in {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit("instructions.py: valgrind printed no instruction count")
    return int(found.group(1)), done.stdout.strip().splitlines()[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", help="another checkout to count the same games with")
    ap.add_argument("--also-pure", action="store_true", help="also count this tree's source (AUTOPLAY_PURE_PYTHON)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    runs = [("baseline", str(Path(args.baseline).resolve()), False)] if args.baseline else []
    runs += [("this tree, pure Python", str(HERE), True)] if args.also_pure else []
    runs += [("this tree", str(HERE), False)]
    per_game: dict[str, float] = {}
    print(f"Command: `python benchmarks/instructions.py {' '.join(sys.argv[1:])}`  ")
    print(f"Expert 30x16/99, first click safe, seed {args.seed}, games 0-{args.games - 1}; instructions counted by")
    print("valgrind's callgrind, minus a run of the same process with no games (start-up and imports).")
    print()
    print("| tree | solver | instructions per game | ratio to this tree |")
    print("|---|---|---|---|")
    rows = []
    for name, tree, pure in runs:
        start, solver = count(tree, 0, args.seed, pure)
        total, _ = count(tree, args.games, args.seed, pure)
        per_game[name] = (total - start) / args.games
        rows.append((name, solver))
        print(f"{name}: {per_game[name] / 1e6:.1f} M instructions per game", file=sys.stderr)
    for name, solver in rows:
        print(f"| {name} | {solver} | {per_game[name] / 1e6:.1f} M | {per_game[name] / per_game['this tree']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
