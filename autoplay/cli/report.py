"""``autoplay report``: a recorded session as one HTML page a person can open, keep and send."""

from __future__ import annotations

import argparse
from pathlib import Path

from autoplay.cli.arguments import positive_seconds
from autoplay.errors import UsageError
from autoplay.outputs import output_file

#: The page's name inside the run folder when no --out is given.
DEFAULT_PAGE = "report.html"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="write one self-contained HTML page about a recorded session (summary, games, every decision)",
        description="Replays a recording from 'autoplay play --record' (or the run folder of 'autoplay demo',\n"
        "which holds one in recording/) and writes a single HTML file with everything inside it: wins,\n"
        "losses, the win rate with its 95% interval, time per game, a chart of where the time went, one row\n"
        "per game, and each game's decisions as a filmstrip of board thumbnails with the heat map, the\n"
        "chosen move and why. No network, no other files. A recording of 'autoplay watch --record' gets\n"
        "a filmstrip of the person's steps instead: each on the position before it, with its verdict.",
        epilog="exit codes: 0 page written (decisions that did not replay are marked on it and counted on "
        "stdout); 2 bad recording; 3 no frame could be read.\nexample: autoplay report runs/demo-1200",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run", metavar="RUN", help="recording folder, or a demo run folder with recording/ inside")
    p.add_argument("--out", metavar="FILE", help=f"where the page goes (default: RUN/{DEFAULT_PAGE})")
    p.add_argument("--skin", help="skin to decode with (default: the one the recording names)")
    p.add_argument(
        "--time-limit", type=positive_seconds, help="solver seconds per decision (default: the recording's, else 1)"
    )
    p.add_argument(
        "--thumb-width", type=int, default=420, metavar="PX", help="width of each board thumbnail (default 420)"
    )
    p.set_defaults(func=run)


def find_recording(run_dir: Path) -> Path:
    """The recording inside ``run_dir``: the folder itself, or its ``recording/`` (as ``autoplay demo`` leaves)."""
    from autoplay.replay.recording import is_recording

    for candidate in (run_dir, run_dir / "recording"):
        if is_recording(candidate):
            return candidate
    raise UsageError(f"{run_dir}: no recording here (no decisions.jsonl in it or in {run_dir / 'recording'})")


def run(args: argparse.Namespace) -> int:
    from autoplay.cli.progress import Progress
    from autoplay.errors import UnreadableBoardError
    from autoplay.replay.recording import read_recording
    from autoplay.replay.session_report import build_report
    from autoplay.replay.watch_report import build_watch_report

    run_dir = Path(args.run)
    if not run_dir.is_dir():
        raise UsageError(f"{run_dir}: no such folder")
    if args.thumb_width < 40:
        raise UsageError("--thumb-width must be at least 40 pixels")
    recording = read_recording(find_recording(run_dir))
    skin = args.skin or recording.skin
    if not skin:
        raise UsageError("--skin NAME is needed: the recording does not name its skin")
    out = output_file(args.out) if args.out else run_dir / DEFAULT_PAGE  # checked before the long replay
    time_limit = args.time_limit or recording.time_limit or 1.0
    watched = recording.session.get("kind") == "watch"  # autoplay watch --record: a page of the person's steps
    with Progress(len(recording.decisions), "report") as bar:
        build = build_watch_report if watched else build_report
        html, counts = build(recording, skin, time_limit=time_limit, thumb_width=args.thumb_width, on_frame=bar.advance)
    if counts.frames and counts.failed == counts.frames:
        raise UnreadableBoardError(f"{recording.path}: no frame could be read, so there is nothing to show")
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{out}: cannot write: {exc.strerror or exc}") from None
    print(
        f"{counts.frames} {'positions' if watched else 'decisions'}: {counts.reproduced} reproduced, {counts.mismatched} not reproduced, "
        f"{counts.failed} unreadable; {out.stat().st_size / 1e6:.1f} MB"
    )
    print(f"report: {out.resolve()}")
    return 0
