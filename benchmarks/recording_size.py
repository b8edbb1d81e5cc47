"""What a recorded game costs on disk, in the current format and in the one before deltas, and whether it replays.

For each recording (in either format): its frames written both ways, by
encoding each frame again -- as the earlier recorder did (every frame a whole
PNG, zlib level 1) and through today's Recorder (delta frames) -- plus its
decisions log and its report page (when the run folder has one), per finished
game; and a replay of every decision through the real vision and solver,
which must reproduce all of them.

    PYTHONPATH=. python benchmarks/recording_size.py runs/demo-*/ [--out BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
from report import emit  # benchmarks/report.py, beside this script

from autoplay.cli.report import find_recording
from autoplay.play.recorder import Recorder
from autoplay.replay.recording import read_recording
from autoplay.replay.runner import Replayer, VisionDecoder
from autoplay.replay.sources import collect_frames
from autoplay.vision.frame_delta import FrameReader

#: The earlier recorder's PNG setting (autoplay/play/recorder.py before delta frames).
OLD_PNG_LEVEL = 1


@dataclass
class Measured:
    run: Path
    games: int
    frames: int
    frame_bytes: int  # as the Recorder writes them now
    log_bytes: int
    old_frame_bytes: int
    page_bytes: int | None
    reproduced: int
    decisions: int
    replay_cpu: float
    old_write_cpu: float  # CPU seconds encoding every frame the earlier way
    new_write_cpu: float  # ... through today's Recorder (its writer thread included: process time)

    @property
    def per_game(self) -> float:
        return (self.frame_bytes + self.log_bytes) / self.games

    @property
    def old_per_game(self) -> float:
        return (self.old_frame_bytes + self.log_bytes) / self.games


def measure(run: Path) -> Measured:
    root = find_recording(run)
    recording = read_recording(root)
    frames = sorted((root / "frames").glob("*.png"))
    reader = FrameReader()
    images = [reader.read_raw(path) for path in frames]
    old = 0
    started = time.process_time()
    for image in images:
        _, encoded = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, OLD_PNG_LEVEL])
        old += len(encoded)
    old_cpu = time.process_time() - started
    with tempfile.TemporaryDirectory() as scratch:
        started = time.process_time()
        again = Recorder(scratch, recording.skin or "", recording.rules)
        for path, image in zip(frames, images):
            again.frame(image, "unreadable" if "-" in path.name else "")
        again.close()
        new_cpu = time.process_time() - started
        new = sum(p.stat().st_size for p in (Path(scratch) / "frames").iterdir())
    started = time.process_time()
    source = collect_frames(root)
    replayer = Replayer(VisionDecoder(recording.skin or ""), None, rules=recording.rules, mines=recording.mines)
    statuses = [o.status for o in replayer.run(source.frames)]
    cpu = time.process_time() - started
    page = run / "report.html"
    return Measured(
        run=run,
        games=sum(g.result in ("won", "lost") for g in recording.games),
        frames=len(frames),
        frame_bytes=new,
        log_bytes=(root / "decisions.jsonl").stat().st_size,
        old_frame_bytes=old,
        page_bytes=page.stat().st_size if page.is_file() else None,
        reproduced=sum(s in ("ok", "over") for s in statuses),
        decisions=len(statuses),
        replay_cpu=cpu,
        old_write_cpu=old_cpu,
        new_write_cpu=new_cpu,
    )


def markdown(rows: list[Measured]) -> str:
    lines = [
        "| run | games | frames | MB per game, delta frames + log | MB per game, whole PNGs + log (before) "
        "| KB per frame, delta / whole | report page MB (per game) | decisions reproduced by replay |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in rows:
        page = "-" if m.page_bytes is None else f"{m.page_bytes / 1e6:.2f} ({m.page_bytes / 1e6 / m.games:.2f})"
        lines.append(
            f"| {m.run.name} | {m.games} | {m.frames} | {m.per_game / 1e6:.2f} | {m.old_per_game / 1e6:.2f} "
            f"| {m.frame_bytes / m.frames / 1e3:.1f} / {m.old_frame_bytes / m.frames / 1e3:.1f} | {page} "
            f"| {m.reproduced}/{m.decisions} |"
        )
    games = sum(m.games for m in rows)
    frames = sum(m.frames for m in rows)
    per_game = [m.per_game / 1e6 for m in rows]
    lines.append("")
    lines.append(
        f"{games} games: {sum(m.frame_bytes + m.log_bytes for m in rows) / games / 1e6:.2f} MB per game now "
        f"(median over runs {statistics.median(per_game):.2f}), "
        f"{sum(m.old_frame_bytes + m.log_bytes for m in rows) / games / 1e6:.2f} MB as before; "
        f"{sum(m.reproduced for m in rows)} of {sum(m.decisions for m in rows)} decisions reproduced "
        f"({sum(m.replay_cpu for m in rows) / max(1, sum(m.decisions for m in rows)) * 1000:.1f} ms CPU each); "
        f"writing a frame costs {sum(m.new_write_cpu for m in rows) / frames * 1000:.1f} ms CPU now, "
        f"{sum(m.old_write_cpu for m in rows) / frames * 1000:.1f} ms before."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="recordings or demo run folders")
    parser.add_argument("--out", help="also append the markdown to this file")
    args = parser.parse_args()
    emit(markdown([measure(Path(r)) for r in args.runs]), args.out)


if __name__ == "__main__":
    main()
