"""Decode cost while tiles the skin does not know are on the board (CPU time, medians).

Usage: PYTHONPATH=. python benchmarks/unknown_tiles_speed.py [--repeat 50]

In live play an unknown tile (a 4 never calibrated) stays on the board for the
rest of the game, so every decision decodes it again.  Three costs per frame:
``first`` (the frame's unknown cells never seen before: shift search, and the
other-size look when the pitch is foreign), ``again`` (the same frame decoded
again, as at the next decision), and ``relocate`` (the player's fresh location
and decode when more than 5% of the board is unreadable).  CPU time
(``time.process_time``), single-threaded OpenCV, median and p90 over repeats.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from autoplay.vision import decode_frame, load_skin, locate_grid, read_image

try:
    from autoplay.vision.retry import _CACHES
except ImportError:  # a checkout from before the second looks were remembered
    _CACHES = {}  # type: ignore[assignment]

SGT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "sgt-mines"
CASES = [
    ("sgt-mines 20 px, 33 unknown (4, 5, tile variants)", "tile20_mid_five.png"),
    ("sgt-mines 20 px, 20 unknown (4, 5)", "tile20_won.png"),
    ("sgt-mines 28 px, one unknown 4 (other size)", "tile28_mid_four.png"),
    ("sgt-mines 20 px, all known", "tile20_fresh.png"),
]


def cpu_ms(fn: Callable[[], object], repeat: int, before: Callable[[], object] | None = None) -> tuple[float, float]:
    """Median and p90 CPU milliseconds of ``fn`` (``before`` runs untimed ahead of each call)."""
    samples = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    ms = np.array(samples) * 1000
    return float(np.median(ms)), float(np.percentile(ms, 90))


def forget() -> None:
    _CACHES.clear()  # every second look is computed afresh


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    skin = load_skin("sgt-live", SGT / "skin")
    print(f"load average {os.getloadavg()[0]:.2f}, repeat {args.repeat}; ms CPU median / p90")
    print(f"{'case':52} {'unread':>6} {'first':>14} {'again':>14} {'relocate':>14}")
    for title, name in CASES:
        image = read_image(SGT / name)
        grid = locate_grid(image, skin)
        unread = len(decode_frame(image, skin, grid).unreadable)
        first = cpu_ms(lambda: decode_frame(image, skin, grid), args.repeat, forget)
        again = cpu_ms(lambda: decode_frame(image, skin, grid), args.repeat)
        fresh = cpu_ms(lambda: decode_frame(image, skin), args.repeat)
        cells = " ".join(f"{m:6.2f} /{p:6.2f}" for m, p in (first, again, fresh))
        print(f"{title:52} {unread:6d} {cells}")


if __name__ == "__main__":
    main()
