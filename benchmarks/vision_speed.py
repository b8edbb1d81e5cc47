"""Vision speed on real screenshots: first-time grid location and per-frame decode with a known grid.

Usage: python benchmarks/vision_speed.py [--repeat 200]

Targets (from the issue): decode of an expert board from an in-memory frame
< 5 ms median once the grid is known; first-time location < 100 ms.
Prints median and p90 per case; single-threaded OpenCV so the numbers do not
depend on how many cores happen to be free.  The load average is printed too:
on a shared machine other work inflates the p90 most.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import cv2
import numpy as np

from autoplay.vision import decode_frame, load_skin, locate_grid, read_image

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
CASES = [
    ("gnome-mines expert 30x16 (window 1060x706)", "gnome-mines", FIXTURES / "gnome-mines" / "expert_end.png"),
    ("xdemineur expert 30x16 (window 661x432)", "xdemineur", FIXTURES / "xdemineur" / "expert_end.png"),
    ("win7 expert 30x16 (desktop 1920x1080)", "win7", FIXTURES / "win7" / "w7_mine3.png"),
]


def timed(fn, repeat: int) -> tuple[float, float]:
    fn()  # warm caches (sampling maps, template matrix)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    ms = np.array(samples) * 1000
    return float(np.median(ms)), float(np.percentile(ms, 90))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(
        f"python {platform.python_version()}, opencv {cv2.__version__}, numpy {np.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, repeat {args.repeat}"
    )
    print(f"{'case':48} {'locate median':>14} {'p90':>8} {'decode median':>14} {'p90':>8}")
    for title, skin_name, path in CASES:
        skin = load_skin(skin_name)
        image = read_image(path)
        grid = locate_grid(image, skin)
        locate = timed(lambda: locate_grid(image, skin), max(10, args.repeat // 10))
        decode = timed(lambda: decode_frame(image, skin, grid), args.repeat)
        print(f"{title:48} {locate[0]:11.2f} ms {locate[1]:5.2f} ms {decode[0]:11.2f} ms {decode[1]:5.2f} ms")


if __name__ == "__main__":
    main()
