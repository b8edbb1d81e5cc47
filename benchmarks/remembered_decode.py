"""Decoding a recorded game frame by frame, with the last frame remembered and without, as written to BENCHMARKS.md.

Usage: python benchmarks/remembered_decode.py RECORDING [RECORDING ...] [--skin-root DIR] [--frames N]

Every frame of each recording (``autoplay play --record``) is decoded twice on the grid the player recorded:
once whole, once with a :class:`~autoplay.vision.cell_memory.CellMemory` that has seen the frames before it.  The
two readings must be the same in every label, distance, confidence, unreadable cell and game state; the script
prints how many frames were read otherwise (0 is the only right answer), the median time of each way and the median
number of cells the memory matched again.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from autoplay.vision import Grid, decode_frame, load_skin
from autoplay.vision.cell_memory import CellMemory
from autoplay.vision.frame_delta import FrameReader


def recorded_grids(recording: Path) -> dict[str, Grid]:
    """The grid each decision was read on, by frame file name."""
    grids = {}
    for line in (recording / "decisions.jsonl").read_text().splitlines():
        entry = json.loads(line)
        if entry.get("frame") and entry.get("grid"):
            grids[Path(entry["frame"]).name] = Grid.from_dict(entry["grid"])
    return grids


def measure(recording: Path, skin_root: Path | None, limit: int | None) -> str:
    session = json.loads((recording / "session.json").read_text())
    skin = load_skin(session["skin"], skin_root)
    grids = recorded_grids(recording)
    mines = session.get("mines")
    reader, memory = FrameReader(), CellMemory()
    whole, remembered, cells, differ = [], [], [], 0
    grid = None
    for path in sorted((recording / "frames").glob("*.png"))[:limit]:
        image = reader.read(path)
        grid = grids.get(path.name, grid)
        if grid is None:
            continue
        started = time.perf_counter()
        alone = decode_frame(image, skin, grid, mines)
        whole.append(time.perf_counter() - started)
        started = time.perf_counter()
        again = decode_frame(image, skin, grid, mines, memory)
        remembered.append(time.perf_counter() - started)
        cells.append(memory.last_read)
        differ += not alone.reads_as(again)
    if not whole:
        return f"{recording}: no frame with a recorded grid"
    return (
        f"{recording} ({skin.name}): {len(whole)} frames, {differ} read otherwise; median decode "
        f"{1000 * statistics.median(whole):.2f} ms whole, {1000 * statistics.median(remembered):.2f} ms remembered; "
        f"cells matched again: median {statistics.median(cells):.0f} of {grid.rows * grid.cols if grid else 0}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recordings", nargs="+", type=Path, help="session folders written by autoplay play --record")
    parser.add_argument("--skin-root", type=Path, help="the folder holding the recording's skin, if not shipped")
    parser.add_argument("--frames", type=int, help="at most this many frames of each recording")
    args = parser.parse_args(argv)
    for recording in args.recordings:
        if not (recording / "session.json").is_file():
            print(f"{recording}: not a recording (no session.json)", file=sys.stderr)
            return 2
        print(measure(recording, args.skin_root, args.frames))
    return 0


if __name__ == "__main__":
    sys.exit(main())
