"""What the click guard costs per batch, in CPU time of the playing process, on the real gnome-mines window.

Usage: python benchmarks/guard_cost.py [--blocks 30 --per-block 100]

Four parts are timed with time.process_time over blocks of calls: the guard's check alone
(`check_clear`: window attributes, position, the root's stacking order, every window above it),
the held check around an empty batch (`holding`: server grab, check, sync, ungrab), and the play loop's
re-grab of the window to compare the board with the frame the decision was made on, and the held check with the
question asked before each press (which window the pointer is over).  Prints the median of
the per-block means with the lowest and highest block, in milliseconds per batch.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from autoplay.control.capture import grab, wait_settled  # noqa: E402
from autoplay.control.games import launch_game  # noqa: E402
from autoplay.control.xguard import X11Guard  # noqa: E402
from autoplay.control.xserver import VirtualDisplay, XConnection  # noqa: E402
from autoplay.vision import load_skin, locate_grid  # noqa: E402


def per_call_ms(fn: Callable[[], object], blocks: int, per_block: int) -> dict[str, float]:
    means = []
    for _ in range(blocks):
        start = time.process_time()
        for _ in range(per_block):
            fn()
        means.append(1000 * (time.process_time() - start) / per_block)
    return {"median": round(statistics.median(means), 4), "min": round(min(means), 4), "max": round(max(means), 4)}


def xtest_move(xconn: XConnection, x: int, y: int) -> None:
    """Put the pointer at (x, y) through XTEST, as the player's pointer does."""
    from autoplay.control.xguard import XTestPointer

    XTestPointer(xconn, keys=None).move(x, y)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=30)
    ap.add_argument("--per-block", type=int, default=100)
    args = ap.parse_args()
    with VirtualDisplay() as server, launch_game("gnome-mines", server.name, preset="expert") as game:
        window = game.window
        frame = wait_settled(lambda: grab(window.rect, server.name), interval=0.3, timeout=10).frame
        x0, y0, x1, y1 = locate_grid(frame, load_skin("gnome-mines")).rect
        board = (window.x + x0, window.y + y0, x1 - x0, y1 - y0)
        guard = X11Guard(XConnection(server.name), window.id, window.rect, window.title)

        def held() -> None:
            with guard.holding(board):
                pass

        def board_unchanged() -> bool:
            return np.array_equal(grab(window.rect, server.name)[y0:y1, x0:x1], frame[y0:y1, x0:x1])

        def pointer_check() -> None:
            with guard.holding(board):
                guard.check_under_pointer()

        xconn = guard.x
        xtest_move(xconn, board[0] + board[2] // 2, board[1] + board[3] // 2)  # over the board, as before a press
        assert board_unchanged()
        results = {
            "check_clear": per_call_ms(lambda: guard.check_clear(board), args.blocks, args.per_block),
            "holding_empty_batch": per_call_ms(held, args.blocks, args.per_block),
            "board_regrab_and_compare": per_call_ms(board_unchanged, args.blocks, args.per_block),
            "holding_with_pointer_check": per_call_ms(pointer_check, args.blocks, args.per_block),
        }
        guard.close()
    print(json.dumps({"blocks": args.blocks, "per_block": args.per_block, "ms_per_call": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
