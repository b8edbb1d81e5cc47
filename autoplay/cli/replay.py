"""``autoplay replay``: the live pipeline over saved screenshots or a recording, without a mouse."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from autoplay.cli.arguments import non_negative_int, positive_seconds, stderr_line
from autoplay.errors import CheckFailed, UsageError

#: Exit codes beyond the usual ones: every frame fine, a recorded decision not reproduced, a frame not processed.
EXIT_MISMATCH = 1
EXIT_FAILED = 3


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="decode saved screenshots or a recording, solve each frame and write annotated pictures",
        description="Run the reading and solving pipeline on saved frames: PATH is one screenshot, a folder of "
        "screenshots (name order) or a recording folder from 'autoplay play' (it has decisions.jsonl). Prints "
        "the chosen move per frame and writes one annotated PNG per frame. For a recording each recomputed "
        "decision is compared with the recorded one. Unreadable frames are reported and skipped.",
        epilog="exit codes: 0 all frames fine; 1 some recorded decision or board was not reproduced (with --audit: "
        "some cell was misread); "
        "3 some frame could not be read or solved (takes precedence); 2 bad recording.\n"
        "example: autoplay replay runs/demo-1200 --out /tmp/annotated",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", metavar="PATH", help="screenshot, folder of screenshots, or recording folder")
    p.add_argument("--skin", help="skin to decode with (see calibration/); a recording names its own")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="folder for annotated PNGs (default: PATH/annotated for a folder of screenshots, ./replay-out for "
        "a single screenshot, none for a recording: 'autoplay report' shows a recording as one page)",
    )
    p.add_argument(
        "--mines", type=non_negative_int, help="total mine count when neither the recording nor the screen shows it"
    )
    p.add_argument(
        "--time-limit", type=positive_seconds, help="solver seconds per decision (default: the recording's, else 1)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (frames and summary) instead of text")
    p.add_argument(
        "--audit",
        action="store_true",
        help="for a recording: compare every board read during play with the layout each game showed at "
        "its end (all mines on a loss, all safe cells on a win) and list misread cells; no decoding",
    )
    p.set_defaults(func=run)


def _summary(outcomes: list) -> dict[str, int]:
    counts = {"frames": len(outcomes), "ok": 0, "over": 0, "mismatch": 0, "failed": 0}
    for outcome in outcomes:
        counts[outcome.status] += 1
    return counts


def _frame_line(outcome) -> str:
    """One line per frame: the move (or why there is none), then any problem."""
    if outcome.status == "failed":
        return f"{outcome.name}: FAILED: {outcome.problems[0]}"
    from autoplay.insight.record import explanation_lines

    text = f"{outcome.name}: {outcome.move_text if outcome.decision is not None else 'game over'}"
    if outcome.problems:
        text += "  MISMATCH: " + "; ".join(outcome.problems)
    return "\n".join([text] + [f"    why: {line}" for line in explanation_lines(outcome.explanation)])


def run_audit(args: argparse.Namespace) -> int:
    """Misread audit of a recording: exit 0 when every read cell and certain move agrees with the truth."""
    from autoplay.replay.audit import audit_recording
    from autoplay.replay.recording import read_recording

    recording = read_recording(args.path)
    for warning in recording.warnings:
        stderr_line(f"autoplay: warning: {warning}")
    report = audit_recording(recording)
    if report.games == 0:
        why = f" ({report.unverifiable[0]})" if report.unverifiable else ""
        raise CheckFailed(f"{args.path}: no finished game to audit{why}: nothing was checked")
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(
            f"{report.games} game(s) audited ({len(report.unverifiable)} without a usable end), "
            f"{report.boards} boards, {report.cells} cells read, {report.certain_moves} certain moves: "
            f"{len(report.misreads)} misread cell(s), {len(report.wrong_moves)} wrong certain move(s)"
        )
        for line in report.to_dict()["examples"] + report.unverifiable[:5]:
            print("  " + line)
    return 0 if report.clean else EXIT_MISMATCH


def run(args: argparse.Namespace) -> int:
    if args.audit:
        return run_audit(args)
    from autoplay.cli.progress import Progress
    from autoplay.replay.runner import Replayer, VisionDecoder
    from autoplay.replay.sources import collect_frames

    source = collect_frames(args.path)
    recording = source.recording
    for warning in recording.warnings if recording else []:
        stderr_line(f"autoplay: warning: {warning}")
    skin = args.skin or (recording.skin if recording else None)
    if not skin:
        raise UsageError("--skin NAME is needed (only a recording names its skin)")
    out_dir = Path(args.out) if args.out else source.default_out
    pictures = f"annotated pictures in {out_dir}" if out_dir else "no pictures written (--out DIR draws them)"
    mines = args.mines if args.mines is not None else (recording.mines if recording else None)
    replayer = Replayer(
        VisionDecoder(skin),
        out_dir,
        rules=recording.rules if recording else None,
        mines=mines,
        time_limit=args.time_limit or (recording.time_limit if recording else None) or 1.0,
        closed_batches=recording.closed_batches if recording else False,
    )
    outcomes = []
    with Progress(len(source.frames), "replay", enabled=None if len(source.frames) > 1 else False) as bar:
        for outcome in replayer.run(source.frames):
            outcomes.append(outcome)
            if not args.json:
                if bar.enabled:
                    bar.stream.write("\r\x1b[K")
                print(_frame_line(outcome), flush=True)
            bar.advance()
    summary = _summary(outcomes)
    if args.json:
        print(
            json.dumps(
                {
                    "summary": summary,
                    "out": str(out_dir) if out_dir else None,
                    "frames": [o.to_dict() for o in outcomes],
                }
            )
        )
    else:
        print(
            f"{summary['frames']} frame(s): {summary['ok']} ok, {summary['over']} game over, "
            f"{summary['mismatch']} mismatched, {summary['failed']} failed; {pictures}"
        )
    if summary["failed"]:
        return EXIT_FAILED
    return EXIT_MISMATCH if summary["mismatch"] else 0
