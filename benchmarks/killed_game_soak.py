"""The killed-game race, made on purpose N times in a row, optionally under a CPU burner.

Usage: python benchmarks/killed_game_soak.py --runs 500 [--burners 2] [--minutes 30] [--json-out F]

One Xvfb for the whole soak; each run launches a fresh gnome-mines (expert), starts the documented
`autoplay play` with the test hook that pauses between the guard's last check and a press, and kills the game
inside the second pause (tests/e2e/gap_kill.py).  A program's window lies below the game as a bystander.  A run
passes when play stops with exit 4 and the one line "the window was closed", no press reached any client but
the game and autoplay's own backstop (X RECORD), and every press off the board was taken by the backstop.  A run
whose kill came after the pause had ended ("missed") tests nothing and is counted apart, not as a pass.
``--burners`` starts that many busy Python processes for the whole soak; ``--minutes`` stops early, between runs.
Prints one line per run and the counts.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.fault_harness import Table  # noqa: E402 - after the path set-up
from tests.e2e.gap_kill import kill_in_the_gap  # noqa: E402

BURN = "while True: pass"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--burners", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=0.0, help="stop starting runs after this long (0: never)")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()

    for number in (signal.SIGINT, signal.SIGTERM):  # also when started in the background (SIGINT ignored there)
        signal.signal(number, signal.default_int_handler)
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(args.burners)]
    counts = {"pass": 0, "fail": 0, "missed": 0, "error": 0}
    rows = []
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="killed-soak-") as folder:
            table = Table(Path(folder))
            try:
                for run in range(1, args.runs + 1):
                    if args.minutes and time.monotonic() - started > args.minutes * 60:
                        break
                    try:
                        result = kill_in_the_gap(table, Path(folder) / f"run-{run}")
                        problems = result.problems()
                        if not result.in_gap:
                            verdict = "missed"
                        else:
                            verdict = "fail" if problems else "pass"
                        row = {"run": run, "verdict": verdict, "problems": problems, "caught": result.caught}
                    except Exception as exc:  # a game that would not start: counted, reported, the soak goes on
                        row = {"run": run, "verdict": "error", "problems": [repr(exc)], "caught": 0}
                    counts[str(row["verdict"])] += 1
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                    table.relaunch()
            finally:
                table.close()
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    elapsed = time.monotonic() - started
    summary = {**counts, "runs": len(rows), "burners": args.burners, "seconds": round(elapsed)}
    print(json.dumps(summary), flush=True)
    if args.json_out:
        args.json_out.write_text(json.dumps({"summary": summary, "runs": rows}, indent=1))
    return 0 if counts["fail"] == 0 and counts["error"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
