"""Two solvers on the same layouts: the paired difference in win rate with its 95% interval.

Usage: python benchmarks/paired.py BASE.txt NEW.txt [--out F.md]

Each file is what ``autoplay simulate --layouts L --per-game FILE`` writes: one ``won``/``lost``
line per game, in the layouts' order.  Only games present in both files are compared (a run cut
short still counts for the games it finished).  Pairing removes the layouts' own luck: the
interval comes from the games the two runs ended differently (normal approximation to the paired
difference, z = 1.96), so a few hundred discordant games pin down a difference that unpaired
rates would need ten times more games to see.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from report import emit  # benchmarks/report.py, beside this script


def read(path: str) -> list[bool]:
    lines = Path(path).read_text(encoding="utf-8").split()
    bad = [w for w in lines if w not in ("won", "lost")]
    if bad:
        raise SystemExit(f"paired: {path}: expected won/lost lines, found {bad[0]!r}")
    return [w == "won" for w in lines]


def paired_difference(base: list[bool], new: list[bool]) -> tuple[int, int, int, float, float]:
    """(games, base-only wins, new-only wins, difference in points, half-width of its 95% interval in points)."""
    n = min(len(base), len(new))
    only_base = sum(1 for a, b in zip(base[:n], new[:n]) if a and not b)
    only_new = sum(1 for a, b in zip(base[:n], new[:n]) if b and not a)
    diff = (only_new - only_base) / n
    var = ((only_new + only_base) / n - diff * diff) / n
    return n, only_base, only_new, 100 * diff, 100 * 1.959964 * math.sqrt(max(var, 0.0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--out")
    args = ap.parse_args()
    base, new = read(args.base), read(args.new)
    n, only_base, only_new, diff, half = paired_difference(base, new)
    wins_base, wins_new = sum(base[:n]), sum(new[:n])
    emit(
        f"Command: `python benchmarks/paired.py {' '.join(sys.argv[1:])}`\n\n"
        "| games (paired) | base wins | new wins | won only by base | won only by new | paired difference (95% CI) |\n"
        "|---|---|---|---|---|---|\n"
        f"| {n} | {wins_base} ({100 * wins_base / n:.2f}%) | {wins_new} ({100 * wins_new / n:.2f}%) | {only_base} "
        f"| {only_new} | **{diff:+.2f}** ± {half:.2f} points ({diff - half:+.2f} to {diff + half:+.2f}) |\n",
        args.out,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
