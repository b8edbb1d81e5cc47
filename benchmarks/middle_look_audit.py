"""Recorded frames of ``web_looks.py`` runs read again with the size-forgiving reading's middle look off and on.

Usage: PYTHONPATH=. python benchmarks/middle_look_audit.py ROOT [ROOT ...] [--per-session N] [--taught-only]

Each session's frames (``--per-session`` of them, picked by a fixed seed) are decoded afresh with the look's skin,
once as before the middle look (:data:`autoplay.vision.rescaled.CENTRE_INSET` set to 0) and once with it, and each
reading is audited cell by cell against the page's own log of the layout (a flag or a mine must be a mine, a
number the page's number).  A grid located afresh may start a row or a column in (a finished board's edge with
no covered tile): each reading is placed where it misreads least in the 16x30 board.  ``--taught-only`` leaves
out the tiles ``play`` learnt during the run (``learned-*`` templates): the skin as ``calibrate --live`` made it,
which for a ``--taught-at 1`` run is the skin taught at 100%.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

import autoplay.vision.rescaled as rescaled
import autoplay.vision.retry as retry
from autoplay.board.model import DIGITS, Board
from autoplay.errors import UnreadableBoardError
from autoplay.replay.recording import read_recording
from autoplay.vision.decode import decode_frame
from autoplay.vision.image_io import read_image
from autoplay.vision.skin import load_skin

sys.path.insert(0, str(Path(__file__).resolve().parent))
from unseen_looks import COLS, MINE, read_clone_log, truth_of

ROWS = 16
MODES = (("off", 0.0), ("on", rescaled.CENTRE_INSET))


def placed_audit(board: Board, unread: set[tuple[int, int]], truth: tuple[str, ...]) -> tuple[int, int]:
    """(cells read, misread) of ``board`` placed where it misreads least inside the page's ROWS x COLS board."""
    best: tuple[int, int] | None = None
    for oy in range(ROWS - board.rows + 1):
        for ox in range(COLS - board.cols + 1):
            read = wrong = 0
            for i, cell in enumerate(board.cells):
                r, c = divmod(i, board.cols)
                if cell in ".?" or (r, c) in unread:
                    continue
                read += 1
                true = truth[(r + oy) * COLS + c + ox]
                wrong += not (true == MINE if cell in "F*X" else (cell in DIGITS and true == cell))
            if best is None or wrong < best[1]:
                best = (read, wrong)
    return best or (0, 0)


def skin_home(look: Path, taught_only: bool, scratch: Path) -> Path:
    """The look's skin folder, or a copy without the tiles learnt in play."""
    home = look / "home"
    if not taught_only:
        return home
    copy = scratch / look.parent.name / look.name
    if not copy.exists():
        shutil.copytree(home, copy, ignore=shutil.ignore_patterns("learned-*"))
        for toml in (copy / "calibration").glob("*.toml"):
            kept = [line for line in toml.read_text().splitlines(True) if not line.startswith("learned-")]
            toml.write_text("".join(kept))
    return copy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", type=Path, help="record roots of web_looks.py runs")
    ap.add_argument("--per-session", type=int, default=4, help="frames read per session (default 4)")
    ap.add_argument("--taught-only", action="store_true", help="leave out the tiles play learnt during the run")
    args = ap.parse_args()
    totals = dict.fromkeys(["frames", "read_off", "read_on", "misread_off", "misread_on", "gained", "unlocated"], 0)
    with tempfile.TemporaryDirectory() as scratch:
        for root in args.roots:
            for look in sorted(p for p in root.iterdir() if p.is_dir()):
                home = skin_home(look, args.taught_only, Path(scratch))
                tomls = list((home / "calibration").glob("*.toml"))
                if not tomls:
                    continue
                os.environ["AUTOPLAY_HOME"] = str(home)
                for session in sorted(p for p in look.glob("session-*") if (p / "decisions.jsonl").is_file()):
                    skin = load_skin(tomls[0].stem, home)
                    recording = read_recording(session)
                    dealt = read_clone_log(look / f"{session.name}-page.jsonl")
                    games = sorted({d.game for d in recording.decisions})
                    if len(games) > len(dealt):
                        continue
                    truth = {g: truth_of(dealt[k].mines) for k, g in enumerate(games)}
                    picked = random.Random(1).sample(
                        recording.decisions, min(args.per_session, len(recording.decisions))
                    )
                    for decision in picked:
                        frame = read_image(decision.frame)
                        unread_by_mode = {}
                        for mode, inset in MODES:
                            rescaled.CENTRE_INSET = inset
                            rescaled._BANKS.clear()
                            retry._CACHES.clear()
                            try:
                                decoded = decode_frame(frame, skin)
                            except UnreadableBoardError:
                                totals["unlocated"] += 1
                                continue
                            unread = {(int(r), int(c)) for r, c in decoded.unreadable}
                            unread_by_mode[mode] = (decoded.board, unread)
                            read, wrong = placed_audit(decoded.board, unread, truth[decision.game])
                            totals[f"read_{mode}"] += read
                            totals[f"misread_{mode}"] += wrong
                        totals["frames"] += 1
                        if len(unread_by_mode) == 2 and unread_by_mode["off"][0].cols == unread_by_mode["on"][0].cols:
                            totals["gained"] += len(unread_by_mode["off"][1] - unread_by_mode["on"][1])
            print(f"{root}: {totals}", file=sys.stderr)
    rescaled.CENTRE_INSET = MODES[1][1]
    print(
        f"{totals['frames']} frames: cells read {totals['read_off']} without the middle look, {totals['read_on']} with it "
        f"({totals['gained']} cells unread before read now); misread {totals['misread_off']} and "
        f"{totals['misread_on']}; readings that found no board {totals['unlocated']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
