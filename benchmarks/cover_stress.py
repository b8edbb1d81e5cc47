"""Covering-window stress: a press-logging window appears over the board at a random moment, N times.

Usage: python benchmarks/cover_stress.py --trials 50 [--seed 1] [--json-out F]

One Xvfb and one real gnome-mines (expert); for each trial the documented `autoplay play --json` starts,
and after a random delay (uniform 1.5-6 s, so covers land before the first click, mid-batch, between games)
a window of 160x80 px is mapped at a random place over the board.  That window logs every button press the
X server delivers to it, and an X RECORD witness logs where every press landed (tests/e2e/x_witness.py).
A trial passes when play stops with exit 4 and one stderr line naming the cover, the cover got no press and
no press landed off the board.  Prints one line per trial and a summary; writes them with --json-out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.fault_harness import Table, random_cover_rect  # noqa: E402 - after the path set-up

EXPECTED = "the board is covered by window 'press-witness'"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    trials = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cover-stress-") as folder:
        table = Table(Path(folder))
        try:
            for number in range(1, args.trials + 1):
                rect = random_cover_rect(table.board, rng)
                outcome = table.attack(lambda _, r=rect: table.cover(r)[1], delay=(1.5, 6.0), rng=rng)
                ok = (
                    outcome.fault_at is not None
                    and outcome.exit_code == 4
                    and len(outcome.stderr_lines) == 1
                    and EXPECTED in outcome.message
                    and not outcome.cover_presses
                    and not outcome.off_board
                )
                trial = {
                    "trial": number,
                    "cover": rect,
                    "fault_at_s": None if outcome.fault_at is None else round(outcome.fault_at, 3),
                    "exit_code": outcome.exit_code,
                    "message": outcome.message,
                    "stderr_lines": len(outcome.stderr_lines),
                    "presses_on_board": outcome.presses - len(outcome.off_board),
                    "presses_on_cover": len(outcome.cover_presses),
                    "presses_off_board": len(outcome.off_board),
                    "ok": ok,
                }
                trials.append(trial)
                print(json.dumps(trial), flush=True)
                if args.json_out:
                    args.json_out.write_text(json.dumps({"trials": trials}, indent=1) + "\n")
        finally:
            table.close()
    summary = {
        "trials": len(trials),
        "passed": sum(t["ok"] for t in trials),
        "presses_on_cover": sum(t["presses_on_cover"] for t in trials),
        "presses_off_board": sum(t["presses_off_board"] for t in trials),
        "presses_on_board": sum(t["presses_on_board"] for t in trials),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(summary), flush=True)
    if args.json_out:
        args.json_out.write_text(json.dumps({"summary": summary, "trials": trials}, indent=1) + "\n")
    return 0 if summary["passed"] == summary["trials"] else 1


if __name__ == "__main__":
    sys.exit(main())
