"""Wall clock and CPU time of ``solve``/``analyze --time-limit 2`` on huge boards, as separate processes.

Usage: python benchmarks/time_limits.py [--runs 7]

The boards are dealt like the ones of ``tests/solver/test_limits.py`` (seed 1). Wall clock runs from process
start to exit (interpreter start and imports included); CPU is the child's user + system time. Prints one
Markdown row per board and command: median (min-max).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "solver"))

from test_limits import dealt  # noqa: E402  (the test's own dealer, so the boards are the tested ones)

BOARDS = {
    "200x200/8000, 40% of safe cells revealed": (200, 200, 8000, 0.4),
    "200x200/8000, 5% revealed": (200, 200, 8000, 0.05),
    "150x150/4500, 1% revealed": (150, 150, 4500, 0.01),
}


def measure(argv: list[str], runs: int) -> tuple[int, list[float], list[float]]:
    walls, cpus, code = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        code = subprocess.run([str(ROOT / ".venv" / "bin" / "autoplay"), *argv], stdout=subprocess.DEVNULL).returncode
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return code, walls, cpus


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="autoplay-bench-"))
    for name, shape in BOARDS.items():
        path = folder / f"{shape[0]}x{shape[1]}-{shape[3]}.txt"
        path.write_text(dealt(*shape).to_text())
        for argv in (["solve", str(path), "--time-limit", "2", "--json"], ["analyze", str(path), "--time-limit", "2"]):
            code, walls, cpus = measure(argv, args.runs)
            command = " ".join([argv[0], *argv[2:]])
            print(f"| {name} | `{command}` | {code} | {spread(walls)} | {spread(cpus)} |", flush=True)


if __name__ == "__main__":
    main()
