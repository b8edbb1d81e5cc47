"""Where the simulator's deciding time goes: each kind of decision's share, and the counting's share of the run.

Usage: python benchmarks/sim_time_shares.py [--games 300] [--preset expert] [--counts 100] [--out F.md]

Plays ``--games`` seeded games as ``autoplay simulate`` does (one process, the default guess depth) and sums the
runner's own time of every decision by the policy that made it: certain moves, the look-ahead (with the depth-3
step weighed and kept, or not close enough to run), the depth-3 step where it changed the guess, the endgame
search, and the rest.  With ``--counts N`` it also measures what the component counting costs: the first N games
are played once more in a pure-Python child process (``AUTOPLAY_PURE_PYTHON=1``: the compiled modules call each
other directly, so only the source can be watched) that notes the input of every enumeration the engine made,
and this process then makes the same enumerations again, compiled, with the collector off as in the simulator,
and times them (best of five), beside the wall time of those N games.  That says how much faster anything could
make the simulator by making the counting faster.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.rules import PRESETS
from autoplay.compiled import status
from autoplay.sim.runner import GameSpec, play_game
from autoplay.solver.analysis import clear_component_cache
from autoplay.solver.decide import Decision
from autoplay.solver.guess import clear_guess_cache

#: One enumeration's input: kind (``plain``, ``watched``, ``sibling``), constraints, watched cells, free index, need.
Count = tuple[str, list[tuple[tuple[int, ...], int]], tuple[int, ...], int, int]


def policy(decision: Decision) -> str:
    """The name a decision's time is summed under."""
    if decision.guess_choice is not None:
        return decision.guess_choice.policy
    return "guess (other)" if decision.guess else "certain"


def time_shares(spec: GameSpec, games: int, seed: int = 1) -> tuple[dict[str, list[float]], float]:
    """Seconds of every decision by policy, and the wall seconds of the whole run (every cache emptied first)."""
    clear_guess_cache()
    clear_component_cache()
    by: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    for index in range(games):
        names: list[str] = []

        def note(decision: Decision, names: list[str] = names) -> None:
            names.append(policy(decision))

        result = play_game(spec, seed, index, observe=note)
        for name, seconds in zip(names, result.decision_times):
            by[name].append(seconds)
    return dict(by), time.perf_counter() - started


def record_counts(spec: GameSpec, games: int, path: Path, seed: int = 1) -> None:
    """Play ``games`` games (pure Python) and pickle the input of every enumeration to ``path``."""
    from autoplay.solver import analysis, count

    noted: list[Count] = []
    plain, watched = count.count_component, count.count_by_watched
    Constraints = list[tuple[tuple[int, ...], int]]

    def note_plain(constraints: Constraints, deadline: float | None = None) -> count.ComponentCount:
        noted.append(("plain", list(constraints), (), -1, 0))
        return plain(constraints, deadline)

    def note_watched(
        constraints: Constraints, cells: tuple[int, ...], deadline: float | None = None
    ) -> dict[int, count.ComponentCount]:
        noted.append(("watched", list(constraints), tuple(cells), -1, 0))
        return watched(constraints, cells, deadline)

    class NotedSiblings(count.SiblingCounter):
        def __init__(self, constraints: Constraints, free: int, cells: tuple[int, ...], deadline: float | None):
            super().__init__(constraints, free, cells, deadline)
            self.noted = (list(constraints), tuple(cells), free)

        def counts(self, need: int, deadline: float | None) -> dict[int, count.ComponentCount]:
            constraints, cells, free = self.noted
            noted.append(("sibling", constraints, cells, free, need))
            return super().counts(need, deadline)

    # the engine's own names, replaced for this run (the pure-Python engine looks them up at each call)
    for name, noting in (("count_component", note_plain), ("count_by_watched", note_watched)):
        setattr(analysis, name, noting)
    setattr(analysis, "SiblingCounter", NotedSiblings)  # noqa: B010
    for index in range(games):
        play_game(spec, seed, index)
    path.write_bytes(pickle.dumps(noted))


def replay_counts(noted: list[Count]) -> float:
    """Seconds to make every noted enumeration again (the siblings of one family share a counter, as in play)."""
    from autoplay.solver.count import SiblingCounter, count_by_watched, count_component

    families: dict[tuple[object, ...], SiblingCounter] = {}
    gc.disable()
    try:
        started = time.perf_counter()
        for kind, constraints, cells, free, need in noted:
            if kind == "plain":
                count_component(constraints)
            elif kind == "watched":
                count_by_watched(constraints, cells)
            else:
                family = (tuple(constraints[:free]), constraints[free][0], tuple(constraints[free + 1 :]), cells)
                counter = families.get(family)
                if counter is None:
                    counter = families[family] = SiblingCounter(constraints, free, cells, None)
                counter.counts(need, None)
        return time.perf_counter() - started
    finally:
        gc.enable()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="seeded games whose decisions are timed (default 300)")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    ap.add_argument("--counts", type=int, default=0, help="also time the enumerations of the first N games")
    ap.add_argument("--record-counts", type=Path, help=argparse.SUPPRESS)  # the pure-Python child's job
    ap.add_argument("--out", help="append the markdown report to this file as well")
    args = ap.parse_args()
    size = PRESETS[args.preset]
    spec = GameSpec(size.rows, size.cols, size.mines)
    if args.record_counts is not None:
        record_counts(spec, args.games, args.record_counts)
        return 0
    by, wall = time_shares(spec, args.games)
    total = sum(sum(v) for v in by.values())
    lines = [
        f"Command: `python benchmarks/sim_time_shares.py --games {args.games} --preset {args.preset}"
        + (f" --counts {args.counts}`" if args.counts else "`"),
        f"Solver: {status()}; {args.games} games in {wall:.1f} s, {total:.1f} s of it deciding.",
        "",
        "| policy | decisions | share of deciding time | median ms | mean ms |",
        "|---|---|---|---|---|",
    ]
    for name, times in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        lines.append(
            f"| {name} | {len(times):,} | {100 * sum(times) / total:.1f}% | {1e3 * statistics.median(times):.2f} "
            f"| {1e3 * statistics.mean(times):.2f} |"
        )
    if args.counts:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "counts.pickle"
            env = {**os.environ, "AUTOPLAY_PURE_PYTHON": "1"}
            child = [sys.executable, __file__, "--games", str(args.counts), "--preset", args.preset]
            subprocess.run([*child, "--record-counts", str(path)], env=env, check=True)
            noted: list[Count] = pickle.loads(path.read_bytes())
        _, played = time_shares(spec, args.counts)
        counting = min(replay_counts(noted) for _ in range(5))
        kinds = {kind: sum(1 for n in noted if n[0] == kind) for kind in ("watched", "sibling", "plain")}
        lines += [
            "",
            f"Counting: the {len(noted):,} enumerations of the first {args.counts} games ({kinds['watched']:,} with a "
            f"candidate's neighbours watched, {kinds['sibling']:,} sibling counts, {kinds['plain']:,} plain) take "
            f"{1e3 * counting:.0f} ms made again alone, against {played:.2f} s for playing those games: "
            f"{100 * counting / played:.0f}% of the run.",
        ]
    emit("\n".join(lines), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
