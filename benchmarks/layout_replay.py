"""Did the eyes and hands cost any game?  Replay each live game's own mine layout in the simulator.

A live win rate can only be compared with the simulated one within their
confidence intervals, and a few hundred games leave wide ones.  This check is
sharper: the last board of every recorded game shows where its mines were, so
the very same layout is played again in the simulator by the same solver
(deterministic), starting from the game's first recorded board.  If vision
and actuation never changed a decision, every game ends the same way; any
game that ends differently is listed.

    PYTHONPATH=. python benchmarks/layout_replay.py runs/live-gnome-mines-*/ [--out BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from report import emit  # benchmarks/report.py, beside this script

from autoplay.board.model import HIDDEN, MINE, Board
from autoplay.cli.progress import Progress
from autoplay.insight.layout import LaidGame
from autoplay.replay.audit import truth_from_final
from autoplay.replay.recording import is_recording, parse_cells, read_recording
from autoplay.sim.runner import GameSpec, play_out, tracked_solver
from autoplay.sim.stats import wilson_interval


def sessions(paths: list[str]) -> list[Path]:
    """Recordings named directly or found one level below (a live_play.py record root holds session-K folders)."""
    found = []
    for path in map(Path, paths):
        if is_recording(path):
            found.append(path)
        elif not path.is_dir():
            raise SystemExit(f"layout_replay: {path}: not a recording or a folder of recordings")
        else:
            found.extend(sorted(p for p in path.iterdir() if is_recording(p)))
    return found


def replay_layout(
    final: Board,
    result: str,
    first: Board,
    rules,
    mines: int,
    time_limit: float,
    unknown: frozenset[tuple[int, int]] = frozenset(),
) -> bool:
    """Play the layout ``final`` reveals from the board ``first`` on; True when the simulated game is won.

    ``unknown``: the final board's cells no template matched (numbers, when the rest adds up to the mines)."""
    truth = truth_from_final(final, result, unknown)
    game = LaidGame([c == MINE for c in truth], final.rows, final.cols, win=rules.win)
    for index, cell in enumerate(first.cells):
        if cell not in (HIDDEN, "F", "?"):  # what the game had already opened by itself (xdemineur)
            game.reveal(*divmod(index, final.cols))
    spec = GameSpec(final.rows, final.cols, mines, rules, time_limit)
    play_out(game, tracked_solver(game, spec))
    return game.won


@dataclass
class LayoutReplay:
    played: int = 0
    same: int = 0
    live_wins: int = 0
    sim_wins: int = 0
    differing: list[str] = field(default_factory=list)
    skipped: int = 0  # finished games whose end does not show the whole layout (a sgt-mines loss)

    def summary(self) -> str:
        lo, hi = wilson_interval(self.live_wins, self.played)
        return (
            f"{self.played} live games replayed on their own mine layouts in the simulator: **{self.same} of "
            f"{self.played} end the same way**; live wins {self.live_wins} ({100 * self.live_wins / self.played:.1f}%, "
            f"{100 * lo:.1f}–{100 * hi:.1f}%), simulated wins on the same layouts {self.sim_wins}"
            + (f"; {self.skipped} games skipped, their end does not show the layout" if self.skipped else "")
        )


def replay_recordings(paths: list[Path], progress: bool = True) -> LayoutReplay:
    """Every finished game of the recordings under ``paths``, replayed on its own layout."""
    recordings = [read_recording(path) for path in sessions([str(p) for p in paths])]
    bar = Progress(sum(len(r.games) for r in recordings), "games replayed", enabled=None if progress else False)
    result = LayoutReplay()
    for recording in recordings:
        first_board: dict[int, Board] = {}
        for decision in recording.decisions:
            first_board.setdefault(decision.game, decision.board)
        for game in recording.games:
            bar.advance()
            final_text = game.details.get("final_board")
            if game.result not in ("won", "lost") or not final_text or game.game not in first_board:
                continue
            if game.details.get("final_shows_all_mines") is False:
                result.skipped += 1
                continue
            final = Board.from_text(final_text)
            mines = final.mines if final.mines is not None else recording.mines
            try:
                unknown = parse_cells(game.details.get("final_unknown"), f"game {game.game}")
                won = replay_layout(
                    final,
                    game.result,
                    first_board[game.game],
                    recording.rules,
                    mines,
                    recording.time_limit or 1.0,
                    unknown,
                )
            except ValueError:  # the last board does not add up to the layout
                result.skipped += 1
                continue
            result.played += 1
            result.live_wins += game.result == "won"
            result.sim_wins += won
            if won == (game.result == "won"):
                result.same += 1
            else:
                result.differing.append(
                    f"{recording.path.name} game {game.game}: live {game.result}, simulated {'won' if won else 'lost'}"
                )
    bar.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recordings", nargs="+", help="recording folders, or folders holding session-* recordings")
    parser.add_argument("--out", help="append the report to this markdown file as well")
    args = parser.parse_args()
    result = replay_recordings([Path(p) for p in args.recordings])
    if not result.played:
        print("no finished games with a final board in these recordings", file=sys.stderr)
        return 1
    text = f"Layout replay of {', '.join(args.recordings)}: {result.summary()}."
    if result.differing:
        text += "\n\nDifferent outcomes:\n" + "\n".join(f"- {line}" for line in result.differing)
    emit(text, args.out)
    return 0 if not result.differing else 1


if __name__ == "__main__":
    raise SystemExit(main())
